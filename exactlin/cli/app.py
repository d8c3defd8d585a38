"""The ``exactlin`` command.

* ``exactlin``: the main job: reproduce and verify every lecture worked example, printing each trace.
* ``exactlin examples`` / ``exactlin examples show ID [--format table|json|latex]`` (``--json``: ``--format json``)
* ``exactlin algorithms`` / ``exactlin algorithms show NAME [--json]``: every algorithm and its parameter table.
* ``exactlin fit ALGORITHM DATA.csv [--bias none|first|last] [--param NAME=VALUE ...] [--positive LABEL]
  [--max-epochs N] [--trace] [--json]``
* ``exactlin errata``: the notes' mistakes with their numeric demonstrations.

Exit status: 0 for every honest result (converged or not), 2 for bad input (one line on
stderr, never a traceback), 1 when a worked example fails its check against the lecture.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from typing import Any

from exactlin._version import __version__
from exactlin.errors import ExactlinError, ParameterError

#: modules that add subcommands: each defines ``register(subparsers)``
CLI_PLUGINS = ("exactlin.cli.margin", "exactlin.cli.compare", "exactlin.cli.docs")


def emit_json(obj: Any) -> None:
    """Print one JSON object (exact rationals as strings); adds ``exactlin_version``."""
    from exactlin.model.serialize import to_jsonable

    if isinstance(obj, dict) and "exactlin_version" not in obj:
        obj = {"exactlin_version": __version__, **obj}
    sys.stdout.write(json.dumps(to_jsonable(obj), indent=2) + "\n")


def _out(text: str) -> None:
    sys.stdout.write(text + "\n")


# ---------------------------------------------------------------------------
# main job


def cmd_main_job(args) -> int:
    from exactlin.lectures.examples import all_examples
    from exactlin.render.report import example_text

    examples = all_examples()
    failed = []
    for ex in examples:
        res = ex.func()
        _out(example_text(ex, res))
        _out("")
        if not res.ok:
            failed.append(ex.id)
    _out(f"{len(examples) - len(failed)} of {len(examples)} worked examples reproduced and verified"
         + (f"; FAILED: {', '.join(failed)}" if failed else ""))
    _out("Docs: `exactlin docs` tells where the documentation site is; `exactlin --help` lists the commands.")
    return 1 if failed else 0


def cmd_examples(args) -> int:
    from exactlin.lectures.examples import all_examples, get_example
    from exactlin.render.report import example_dict, example_text, trace_latex

    if args.action is None or args.action == "list":
        exs = all_examples()
        if getattr(args, "json", False):
            emit_json({"examples": [{"id": e.id, "title": e.title, "seed": e.seed} for e in exs]})
            return 0
        width = max(len(e.id) for e in exs) if exs else 2
        for e in exs:
            _out(f"{e.id.ljust(width)}  {e.title}  [{e.seed}]")
        return 0
    if not args.id:
        raise ParameterError("exactlin examples show needs an example ID; `exactlin examples` lists them",
                             parameter="ID")
    fmt_ = args.format or "table"
    if getattr(args, "json", False):
        if args.format not in (None, "json"):
            raise ParameterError(f"--json and --format {args.format} conflict: give one of them",
                                 parameter="--json")
        fmt_ = "json"
    ex = get_example(args.id)
    res = ex.func()
    if fmt_ == "json":
        emit_json(example_dict(ex, res))
    elif fmt_ == "latex":
        for run in res.runs:
            _out(f"% {ex.id}: {run.algorithm}")
            _out(trace_latex(run))
    else:
        _out(example_text(ex, res))
    return 0 if res.ok else 1


def algorithm_dict(spec) -> dict:
    """One algorithm's spec as JSON-ready data: what ``exactlin algorithms show NAME`` prints."""
    import inspect

    params = []
    for p in spec.params:
        row: dict[str, Any] = {"name": p.name, "kind": p.kind, "default": p.default, "doc": p.doc}
        if p.choices:
            row["choices"] = list(p.choices)
        params.append(row)
    out: dict[str, Any] = {"exactlin_version": __version__, "name": spec.name, "title": spec.title,
                           "seed": spec.seed, "number": spec.number, "family": spec.family,
                           "bias_default": spec.bias_default, "multiclass": spec.multiclass,
                           "iterative": spec.iterative, "monitor": spec.monitor or None, "params": params}
    if spec.iterative:
        sig = inspect.signature(spec.func).parameters.get("max_epochs")
        out["max_epochs"] = {"default": sig.default if sig is not None else None,
                             "doc": "--max-epochs N: the bound on passes for single-sample rules, iterations for "
                                    "batch rules"}
    return out


def cmd_algorithms(args) -> int:
    from exactlin.algorithms import all_specs, get
    from exactlin.render.report import fmt_value

    if args.name:
        spec = get(args.name)
        if getattr(args, "json", False):
            emit_json(algorithm_dict(spec))
            return 0
        _out(f"{spec.name}: {spec.title}")
        _out(f"  {spec.seed}" + (f", {spec.number}" if spec.number else ""))
        kind = "multi-class" if spec.multiclass else "binary (+1/-1, or --positive LABEL)"
        _out(f"  default bias: {spec.bias_default}; {kind}")
        if spec.monitor:
            _out(f"  convergence monitor: {spec.monitor}")
        _out("  parameters (--param NAME=VALUE):")
        for p in spec.params:
            default = "-" if p.default is None else fmt_value(p.default)
            _out(f"    {p.name:<14} {p.kind:<9} default {default:<8} {p.doc}")
        if spec.iterative:
            _out("    (and --max-epochs N: the bound on passes for single-sample rules, iterations for batch rules)")
        return 0
    specs = all_specs()
    if getattr(args, "json", False):
        emit_json({"algorithms": [{"name": s.name, "family": s.family, "title": s.title, "seed": s.seed,
                                   "number": s.number, "params": [p.name for p in s.params]} for s in specs]})
        return 0
    width = max(len(s.name) for s in specs)
    for s in specs:
        _out(f"{s.name.ljust(width)}  {s.title}  [{s.seed}{', ' + s.number if s.number else ''}]")
    return 0


def _parse_params(spec, items: list[str]) -> dict:
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


#: set by --no-progress (or the environment variable EXACTLIN_NO_PROGRESS=1)
_PROGRESS = {"on": True}


def _fit_with_status(func, *a, **kw):
    """Run ``func``; on a terminal, show a live progress line (spinner and elapsed time) after a second.

    Off with ``--no-progress`` or EXACTLIN_NO_PROGRESS=1, and whenever stderr is not a terminal, so
    pipes, files and CI never see control characters.
    """
    import os

    if not _PROGRESS["on"] or os.environ.get("EXACTLIN_NO_PROGRESS") or not sys.stderr.isatty():
        return func(*a, **kw)
    try:
        from rich.console import Console
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
    except ImportError:
        return func(*a, **kw)
    with Progress(SpinnerColumn(), TextColumn("exact arithmetic running"), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as progress:
        progress.add_task("run", total=None)
        return func(*a, **kw)


def cmd_fit(args) -> int:
    from exactlin.algorithms import get
    from exactlin.data.dataset import check_bias
    from exactlin.render.report import run_text

    spec = get(args.algorithm)
    params = _parse_params(spec, args.param)
    bias = check_bias(args.bias) if args.bias else spec.bias_default
    ds = load_csv(args.data)
    kwargs: dict[str, Any] = {"bias": bias, "floats": "repr", "trace": True if args.trace else None}
    if spec.iterative:
        if args.max_epochs is not None:
            kwargs["max_epochs"] = args.max_epochs
    elif args.max_epochs is not None:
        raise ParameterError(f"{spec.name} is not iterative: --max-epochs does not apply", parameter="max_epochs")
    if args.positive is not None:
        if spec.multiclass:
            raise ParameterError(f"{spec.name} is multi-class: --positive does not apply", parameter="positive")
        kwargs["positive"] = args.positive
    run = _fit_with_status(spec.func, ds, None, **kwargs, **params)
    if args.json:
        d = run.to_dict()
        if not args.trace:
            d.pop("trace", None)
        if args.positive is not None:  # which label of the file became +1, and which -1
            from exactlin.model.serialize import to_jsonable

            pos = next(lab for lab in ds.y if lab == args.positive or str(lab) == str(args.positive))
            neg = next((lab for lab in ds.y if not (lab == args.positive or str(lab) == str(args.positive))), None)
            d["labels"] = {"+1": to_jsonable(pos), "-1": to_jsonable(neg)}
        emit_json(d)
    else:
        _out(run_text(run, trace=bool(args.trace) or len(run.trace) <= 40))
    return 0


def cmd_errata(args) -> int:
    from exactlin.lectures.errata import all_errata
    from exactlin.render.report import fmt_value

    errs = all_errata()
    if getattr(args, "json", False):
        emit_json({"errata": [{"id": e.id, "seed": e.seed, "where": e.where, "notes_say": e.notes_say,
                               "correct": e.correct, "demonstration": e.demonstrate()} for e in errs]})
        return 0
    for e in errs:
        demo = e.demonstrate()
        _out(f"{e.id}  [{e.seed}, {e.where}]")
        _out(f"  the notes say: {e.notes_say}")
        _out(f"  exactlin does: {e.correct}")
        _out(f"  demonstration: {demo.get('text', '')}")
        for k, v in demo.items():
            if k not in ("text", "holds"):
                _out(f"    {k}: {fmt_value(v)}")
        _out("")
    return 0


# ---------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="exactlin",
        description="The classical linear-classification algorithms, computed exactly. With no command: "
                    "reproduce and verify every lecture worked example.")
    p.add_argument("--version", action="version", version=f"exactlin {__version__}")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress line on the terminal (also: EXACTLIN_NO_PROGRESS=1)")
    sub = p.add_subparsers(dest="command")

    e = sub.add_parser("examples", help="list the worked examples, or run one: examples show ID")
    e.add_argument("action", nargs="?", choices=["list", "show"])
    e.add_argument("id", nargs="?")
    e.add_argument("--format", choices=["table", "json", "latex"], default=None,
                   help="how `examples show ID` prints (default: table)")
    e.add_argument("--json", action="store_true", help="JSON output: the list, or for `show ID` the same as "
                   "--format json")
    e.set_defaults(handler=cmd_examples)

    a = sub.add_parser("algorithms", help="list the algorithms, or show one's parameter table")
    a.add_argument("action", nargs="?", choices=["list", "show"])
    a.add_argument("name", nargs="?")
    a.add_argument("--json", action="store_true", help="JSON output: the list, or one algorithm's spec")
    a.set_defaults(handler=cmd_algorithms)

    f = sub.add_parser("fit", help="train an algorithm on a CSV file (features then label)")
    f.add_argument("algorithm")
    f.add_argument("data", help="CSV: feature columns then the label; optional header; # comments")
    f.add_argument("--bias", choices=["none", "first", "last"], default=None,
                   help="augmentation with a constant 1 (default: the algorithm's, as its lecture has it)")
    f.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="an algorithm parameter, e.g. eta=1/2, w0=0,0,1, eta=1/k (repeatable)")
    f.add_argument("--positive", default=None, metavar="LABEL", help="the label that counts as +1")
    f.add_argument("--max-epochs", type=int, default=None, metavar="N")
    f.add_argument("--trace", action="store_true", help="record and print every step")
    f.add_argument("--json", action="store_true", help="print one JSON object")
    f.set_defaults(handler=cmd_fit)

    r = sub.add_parser("errata", help="the lecture notes' mistakes, with numeric demonstrations")
    r.add_argument("--json", action="store_true")
    r.set_defaults(handler=cmd_errata)

    for mod in CLI_PLUGINS:  # an import error (a misspelled module too) propagates
        importlib.import_module(mod).register(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse: usage errors exit 2 with one message
        return int(e.code) if e.code is not None else 0
    if args.no_progress:
        _PROGRESS["on"] = False
    if args.command is None:
        handler = cmd_main_job
    else:
        handler = args.handler
    if getattr(args, "command", None) == "examples" and args.action is None and args.id:
        args.action = "show"
    if getattr(args, "command", None) == "algorithms" and args.action is None and args.name:
        args.action = "show"
    _LOADED.clear()
    try:
        return handler(args)
    except ExactlinError as e:
        sys.stderr.write(f"exactlin: error: {e}{_csv_line(e)}\n")
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        sys.stderr.write("exactlin: interrupted\n")
        return 130


#: the CSV dataset the current command read (load_csv), so that a label error's row can be named as a line
_LOADED: dict[str, Any] = {}


def load_csv(path):
    """read_csv for the commands: remembers the dataset, so errors about its samples can name file lines."""
    from exactlin.data.dataset import read_csv

    ds = read_csv(path)
    _LOADED["ds"] = ds
    return ds


def _csv_line(e: ExactlinError) -> str:
    """" (line N of FILE)" for a label error about a sample of the CSV the command read (rows are 0-based
    sample indices in the API; a user of the CLI counts lines of the file)."""
    from exactlin.errors import LabelError

    ds = _LOADED.get("ds")
    row = getattr(e, "row", None)
    if not isinstance(e, LabelError) or ds is None or ds.lines is None or row is None or not 0 <= row < len(ds.lines):
        return ""
    return f" (line {ds.lines[row]} of {ds.source})"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
