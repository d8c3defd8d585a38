"""Helpers every ``exactlin`` command shares: JSON output, ``--param`` parsing, the progress line, reading
the CSV (so that an error about one of its samples can name the file line)."""

from __future__ import annotations

import json
import sys
from typing import Any

from exactlin._version import __version__
from exactlin.errors import ExactlinError, ParameterError

__all__ = ["emit_json", "out", "parse_params", "fit_with_status", "load_csv", "csv_line", "PROGRESS", "LOADED",
           "progress_wanted"]


def emit_json(obj: Any) -> None:
    """Print one JSON object (exact rationals as strings); adds ``exactlin_version``."""
    from exactlin.model.serialize import to_jsonable

    if isinstance(obj, dict) and "exactlin_version" not in obj:
        obj = {"exactlin_version": __version__, **obj}
    sys.stdout.write(json.dumps(to_jsonable(obj), indent=2) + "\n")


def out(text: str) -> None:
    sys.stdout.write(text + "\n")


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
            raise ParameterError(f"{spec.name} has no parameter {name!r}; its parameters are: "
                                 f"{', '.join(table) or '(none)'} (see `exactlin algorithms show {spec.name}`)",
                                 parameter=name)
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


def load_csv(path):
    """read_csv for the commands: remembers the dataset, so errors about its samples can name file lines."""
    from exactlin.data.dataset import read_csv

    ds = read_csv(path)
    LOADED["ds"] = ds
    return ds


def csv_line(e: ExactlinError) -> str:
    """" (line N of FILE)" for a label error about a sample of the CSV the command read (rows are 0-based
    sample indices in the API; a user of the CLI counts lines of the file)."""
    from exactlin.errors import LabelError

    ds = LOADED.get("ds")
    row = getattr(e, "row", None)
    if not isinstance(e, LabelError) or ds is None or ds.lines is None or row is None or not 0 <= row < len(ds.lines):
        return ""
    return f" (line {ds.lines[row]} of {ds.source})"
