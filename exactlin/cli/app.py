"""The ``exactlin`` command: the parser and the dispatch; each command lives in its own module
(``exactlin.cli.<command>``, listed in :data:`COMMANDS`; shared helpers in :mod:`exactlin.cli.common`).

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
import sys

from exactlin._version import __version__
from exactlin.cli.common import LOADED, PROGRESS, csv_line, emit_json, load_csv
from exactlin.cli.examples import cmd_main_job
from exactlin.errors import ExactlinError

__all__ = ["main", "build_parser", "COMMANDS", "emit_json", "load_csv"]

#: the modules of the commands, in the order ``exactlin --help`` lists them; each defines ``register(subparsers)``
COMMANDS = ("exactlin.cli.examples", "exactlin.cli.algorithms", "exactlin.cli.fit", "exactlin.cli.errata",
            "exactlin.cli.separable", "exactlin.cli.compare", "exactlin.cli.docs")
#: kept under its old name: the progress switch (``--no-progress``) of :mod:`exactlin.cli.common`
_PROGRESS = PROGRESS


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="exactlin",
        description="The classical linear-classification algorithms, computed exactly. With no command: "
                    "reproduce and verify every lecture worked example.")
    p.add_argument("--version", action="version", version=f"exactlin {__version__}")
    p.add_argument("--no-progress", "--quiet", dest="no_progress", action="store_true",
                   help="no progress line on the terminal (stderr; also: EXACTLIN_NO_PROGRESS=1)")
    sub = p.add_subparsers(dest="command")
    for mod in COMMANDS:
        importlib.import_module(mod).register(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse: usage errors exit 2 with one message
        return int(e.code) if e.code is not None else 0
    if args.no_progress:
        PROGRESS["on"] = False
    if args.command is None:
        handler = cmd_main_job
    else:
        handler = args.handler
    if getattr(args, "command", None) == "examples" and args.action is None and args.id:
        args.action = "show"
    if getattr(args, "command", None) == "algorithms" and args.action is None and args.name:
        args.action = "show"
    LOADED.clear()
    try:
        return handler(args)
    except ExactlinError as e:
        sys.stderr.write(f"exactlin: error: {e}{csv_line(e)}\n")
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        sys.stderr.write("exactlin: interrupted\n")
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
