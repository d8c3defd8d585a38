"""Helpers every ``exactlin`` command shares: JSON output, ``--param`` parsing, the progress line, reading
the CSV (so that an error about one of its samples can name the file line)."""

from __future__ import annotations

import json
import sys
from typing import Any

from exactlin._version import __version__
from exactlin.errors import ExactlinError, ParameterError

__all__ = ["emit_json", "emit_document", "out", "parse_params", "fit_with_status", "load_csv", "csv_line", "PROGRESS",
           "LOADED",
           "did_you_mean", "get_algorithm", "add_data_args", "parse_delimiter", "examples_epilog",
           "progress_wanted", "add_input_digits_arg", "input_digits_kwargs", "add_arithmetic_arg"]


def did_you_mean(name: str, choices, *, prefix: bool = True) -> list[str]:
    """The names of ``choices`` close to ``name`` (difflib, case-insensitive), best first; with ``prefix``,
    also every choice that starts with ``name`` (``svm`` -> ``svm-hard``, ``svm-soft``, ``svm-soft-l2``)."""
    import difflib

    choices = list(choices)
    low = {c.lower(): c for c in choices}
    key = str(name).lower()
    found = [low[m] for m in difflib.get_close_matches(key, list(low), n=3, cutoff=0.6)]
    if prefix and key:
        found += [c for c in choices if c.lower().startswith(key) and c not in found]
    return found


def _suggest(found: list[str]) -> str:
    if not found:
        return ""
    return " (did you mean " + (found[0] if len(found) == 1 else ", ".join(found[:-1]) + " or " + found[-1]) + "?)"


def get_algorithm(name: str):
    """The algorithm spec named ``name``: an exact name, or the same name in other letter case (``Perceptron``);
    otherwise a ParameterError that suggests the close names (``perceptorn`` -> perceptron)."""
    from exactlin.algorithms import REGISTRY, get, load

    load(name)  # an exact name imports its own module only; any other name loads every family
    if name not in REGISTRY:
        same = [n for n in REGISTRY if n.lower() == str(name).lower()]
        if len(same) == 1:
            return get(same[0])
        found = did_you_mean(name, sorted(REGISTRY))
        if found:
            raise ParameterError(f"unknown algorithm {name!r}{_suggest(found)}; `exactlin algorithms` lists all "
                                 f"{len(REGISTRY)}", parameter="algorithm")
    return get(name)


def parse_delimiter(value: str | None) -> str | None:
    """--delimiter: ``,``, ``;``, ``tab`` (or a tab character, or ``\\t``), any one character; ``auto`` or
    nothing: detect ``,``, ``;`` or tab."""
    if value is None or value == "auto":
        return None
    if value in ("tab", "\\t", "TAB"):
        return "\t"
    if len(value) != 1:
        raise ParameterError(f"--delimiter {value!r}: expected one character (',' or ';'), 'tab' or 'auto'",
                             parameter="delimiter")
    return value


def add_data_args(p, *, label: bool = True) -> None:
    """--delimiter and --label-column, the options of every command that reads a data file."""
    p.add_argument("--delimiter", default=None, metavar="D",
                   help="the column separator: ',', ';', 'tab' or any one character (default: detect , ; or tab)")
    if label:
        p.add_argument("--label-column", default=None, metavar="NAME|INDEX",
                       help="the column holding the label: a header name or a 1-based index (default: the last)")


def add_input_digits_arg(p) -> None:
    """--input-digits N: the input-size limit of every algorithm (its ``input_digits`` keyword) for this call."""
    p.add_argument("--input-digits", type=int, default=None, metavar="N",
                   help="the input-size limit: at most N digits in one number of the data or --param, 20 N "
                        "beyond the first 20 digits of each in all (default 300); a longer input is refused at "
                        "once")


def input_digits_kwargs(args) -> dict:
    """``{"input_digits": N}`` and ``{"arithmetic": NAME}`` when --input-digits / --arithmetic were given (else
    nothing: the algorithm's defaults): the common keywords every fit-like command passes."""
    n = getattr(args, "input_digits", None)
    a = getattr(args, "arithmetic", None)
    return {**({} if n is None else {"input_digits": n}), **({} if a is None else {"arithmetic": a})}


def add_arithmetic_arg(p) -> None:
    """--arithmetic NAME: the exact arithmetic the algorithm computes in (its ``arithmetic`` keyword)."""
    from exactlin.algorithms import ARITHMETICS

    p.add_argument("--arithmetic", choices=ARITHMETICS, default=None,
                   help="the exact arithmetic to compute in: auto (default: the algorithm chooses from the data), "
                        "fraction (the readable reference), integer (integers over one denominator, on float64, "
                        "int64 or Python integers as exactness bounds allow) or flint (python-flint rationals); "
                        "every choice gives the same result, an algorithm without that choice refuses it (exit "
                        "2; `exactlin algorithms NAME` lists its choices); --json records the one used and its "
                        "tiers under \"arithmetic\"")


def examples_epilog(*lines: str) -> str:
    """An argparse epilog: 'examples:' and the command lines, one a line."""
    return "examples:\n" + "\n".join(f"  {line}" for line in lines)


def emit_json(obj: Any) -> None:
    """Print one JSON object (exact rationals as strings); adds ``exactlin_version``."""
    from exactlin.model.serialize import to_jsonable

    if isinstance(obj, dict) and "exactlin_version" not in obj:
        obj = {"exactlin_version": __version__, **obj}
    sys.stdout.write(json.dumps(to_jsonable(obj), indent=2) + "\n")


def out(text: str) -> None:
    sys.stdout.write(text + "\n")


def emit_document(latex_source: str) -> None:
    """``--format pdf``: compile the standalone LaTeX document with the installed TeX engine and write the PDF's
    bytes to standard output (a terminal gets a one-line error instead: redirect to a file)."""
    from exactlin.render.tex import tex_engine, to_pdf

    if tex_engine() is not None:
        isatty = getattr(sys.stdout, "isatty", None)
        if isatty and isatty():
            raise ParameterError("--format pdf writes a binary PDF: redirect it to a file (> out.pdf)",
                                 parameter="format")
    pdf = to_pdf(latex_source)
    sys.stdout.flush()
    sys.stdout.buffer.write(pdf)
    sys.stdout.buffer.flush()


def parse_params(spec, items: list[str]) -> dict:
    table = {p.name: p for p in spec.params}
    out: dict[str, Any] = {}
    for item in items or []:
        if "=" not in item:
            raise ParameterError(f"--param {item!r}: expected NAME=VALUE, e.g. --param eta=1/2", parameter=item)
        name, _, value = item.partition("=")
        name = name.strip()
        if name == "max_epochs":
            raise ParameterError("max_epochs is set with --max-epochs N, not --param", parameter=name)
        if name not in table:
            raise ParameterError(f"{spec.name} has no parameter {name!r}{_suggest(did_you_mean(name, table))}; its "
                                 f"parameters are: {', '.join(table) or '(none)'} (see `exactlin algorithms show "
                                 f"{spec.name}`)", parameter=name)
        if name in out:
            raise ParameterError(f"parameter {name} given twice", parameter=name)
        out[name] = table[name].validate(table[name].parse(value))
    return out


#: set by --no-progress / --quiet (or the environment variable EXACTLIN_NO_PROGRESS=1, or EXACTLIN_NOPROGRESS=1)
PROGRESS = {"on": True}


def progress_wanted() -> bool:
    """A progress display goes to stderr only when it is a terminal and nobody switched it off."""
    import os

    if not PROGRESS["on"] or os.environ.get("EXACTLIN_NOPROGRESS") or os.environ.get("EXACTLIN_NO_PROGRESS"):
        return False
    isatty = getattr(sys.stderr, "isatty", None)
    return bool(isatty and isatty())


def fit_with_status(func, *a, **kw):
    """Run ``func``; on a terminal, show live progress on stderr (standard output stays byte-identical).

    An algorithm (a function with a ``progress`` keyword) gets a
    :class:`~exactlin.render.progress.ProgressLine`: iteration, updates, the largest bit length and the budget,
    redrawn with a carriage return at most every 0.2 s and erased at the end (no extra install needed).  Other
    work shows rich's spinner with the elapsed time when rich is installed.  Off with ``--no-progress`` /
    ``--quiet`` or EXACTLIN_NO_PROGRESS=1, and whenever stderr is not a terminal, so pipes, files and CI never
    see control characters.
    """
    import inspect

    if not progress_wanted():
        return func(*a, **kw)
    try:
        takes_progress = "progress" in inspect.signature(func).parameters
    except (TypeError, ValueError):
        takes_progress = False
    if takes_progress and kw.get("progress") is None:
        from exactlin.render.progress import ProgressLine

        return func(*a, **{**kw, "progress": ProgressLine(sys.stderr)})
    try:
        from rich.console import Console
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
    except ImportError:
        return func(*a, **kw)
    with Progress(SpinnerColumn(), TextColumn("exact arithmetic running"), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as progress:
        progress.add_task("run", total=None)
        return func(*a, **kw)


#: the CSV dataset the current command read (load_csv), so that a label error's row can be named as a line
LOADED: dict[str, Any] = {}


def load_csv(path, *, delimiter: str | None = ",", label_column=None):
    """read_csv for the commands: remembers the dataset, so errors about its samples can name file lines.
    ``-`` reads standard input; ``delimiter`` None detects ``,``, ``;`` or tab; ``label_column`` a header name or
    a 1-based index (default: the last column)."""
    from exactlin.data.dataset import parse_csv_bytes, read_csv

    if str(path) == "-":
        ds = parse_csv_bytes(sys.stdin.buffer.read(), source="<stdin>", delimiter=delimiter, label_column=label_column)
    else:
        ds = read_csv(path, delimiter=delimiter, label_column=label_column)
    LOADED["ds"] = ds
    return ds


#: header names that usually hold the label: a note suggests --label-column when one is not the last column
LABEL_NAMES = ("label", "class", "target", "category")  # not "y": often a coordinate


def load_data(args):
    """load_csv with a command's --delimiter and --label-column.  Without --label-column, a header whose
    label-like column (:data:`LABEL_NAMES`) is not the last gets a one-line note on stderr (the default stays
    the last column)."""
    label_column = getattr(args, "label_column", None)
    ds = load_csv(args.data, delimiter=parse_delimiter(getattr(args, "delimiter", None)), label_column=label_column)
    if label_column is None and ds.feature_names:
        named = [n for n in ds.feature_names if n.lower() in LABEL_NAMES]
        if named and (ds.label_name or "").lower() not in LABEL_NAMES:
            sys.stderr.write(f"exactlin: note: the label is the last column ({ds.label_name!r}); the header has a "
                             f"column {named[0]!r}: --label-column {named[0]} takes the label from it\n")
    return ds


def parse_options(args, ds) -> dict:
    """How a command parsed its data (recorded in a saved result's ``data.options``, so that a checker parses the
    file the same way): the delimiter (detected from the file when not given; None for standard input), whether
    there was a header, the label column as given, the positive label as given."""
    delimiter = parse_delimiter(getattr(args, "delimiter", None))
    if delimiter is None and str(args.data) != "-":
        from exactlin.data.dataset import detect_delimiter, read_bytes

        delimiter = detect_delimiter(read_bytes(args.data)[: 1 << 16].decode("utf-8", "replace"))
    return {"delimiter": delimiter, "header": ds.feature_names is not None,
            "label_column": getattr(args, "label_column", None), "positive": getattr(args, "positive", None)}


def csv_line(e: ExactlinError) -> str:
    """" (line N of FILE)" for a label error about a sample of the CSV the command read (rows are 0-based
    sample indices in the API; a user of the CLI counts lines of the file)."""
    from exactlin.errors import LabelError

    ds = LOADED.get("ds")
    row = getattr(e, "row", None)
    if not isinstance(e, LabelError) or ds is None or ds.lines is None or row is None or not 0 <= row < len(ds.lines):
        return ""
    return f" (line {ds.lines[row]} of {ds.source})"
