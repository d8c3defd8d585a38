"""Helpers every ``exactlin`` command shares: JSON output, ``--param`` parsing, the progress line, reading
the CSV (so that an error about one of its samples can name the file line)."""

from __future__ import annotations

import json
import sys
from typing import Any

from exactlin._version import __version__
from exactlin.errors import ExactlinError, ParameterError

__all__ = ["emit_json", "out", "parse_params", "fit_with_status", "load_csv", "csv_line", "PROGRESS", "LOADED"]


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


#: set by --no-progress (or the environment variable EXACTLIN_NOPROGRESS=1)
PROGRESS = {"on": True}


def fit_with_status(func, *a, **kw):
    """Run ``func``; on a terminal, show a live progress line (spinner and elapsed time) after a second.

    Off with ``--no-progress`` or EXACTLIN_NOPROGRESS=1, and whenever stderr is not a terminal, so
    pipes, files and CI never see control characters.
    """
    import os

    if not PROGRESS["on"] or os.environ.get("EXACTLIN_NOPROGRESS") or not sys.stderr.isatty():
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
