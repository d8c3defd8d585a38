"""The ``exactlin`` command: the parser and the dispatch; each command lives in its own module
(``exactlin.cli.<command>``, listed in :data:`COMMANDS`; shared helpers in :mod:`exactlin.cli.common`).

* ``exactlin``: the main job: reproduce and verify every lecture worked example, printing each trace.
* ``exactlin examples`` / ``exactlin examples show ID [--format table|json|latex]`` (``--json``: ``--format json``)
* ``exactlin algorithms`` / ``exactlin algorithms show NAME [--json]``: every algorithm and its parameter table.
* ``exactlin fit ALGORITHM DATA.csv [--bias none|first|last] [--param NAME=VALUE ...] [--positive LABEL]
  [--max-epochs N] [--trace] [--json | --format text|json|latex|csv|markdown] [--save MODEL.json]``
* ``exactlin predict MODEL.json DATA.csv [--json | --format text|json|csv] [--no-labels]``: a saved model's
  exact predictions (undefined points reported as such), with accuracy and confusion matrix when labelled.
* Every command that reads data takes ``--delimiter`` (default: detect ``,``, ``;`` or tab) and
  ``--label-column NAME|INDEX`` (default: the last column); ``-`` reads standard input.  A misspelt command,
  algorithm or parameter gets "did you mean"; algorithm names ignore letter case.
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
from exactlin.exact.format import display

__all__ = ["main", "build_parser", "COMMANDS", "emit_json", "load_csv"]

#: the modules of the commands, in the order ``exactlin --help`` lists them; each defines ``register(subparsers)``
COMMANDS = ("exactlin.cli.examples", "exactlin.cli.algorithms", "exactlin.cli.fit", "exactlin.cli.errata",
            "exactlin.cli.separable", "exactlin.cli.compare", "exactlin.cli.predict", "exactlin.cli.docs",
            "exactlin.cli.exercise", "exactlin.cli.explain", "exactlin.cli.check")
#: kept under its old name: the progress switch (``--no-progress``) of :mod:`exactlin.cli.common`
_PROGRESS = PROGRESS


def build_parser() -> argparse.ArgumentParser:
    from exactlin.cli.common import examples_epilog

    p = argparse.ArgumentParser(
        prog="exactlin",
        description="The classical linear-classification algorithms, computed exactly.\nWith no command: "
                    "reproduce and verify every lecture worked example.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=examples_epilog("exactlin", "exactlin fit perceptron examples/data/seed000-example1.csv",
                               "exactlin --digits 10 fit svm-soft examples/data/seed000-example1.csv",
                               "exactlin fit --help"))
    p.add_argument("--version", action="version", version=f"exactlin {__version__}")
    p.add_argument("--no-progress", "--quiet", dest="no_progress", action="store_true",
                   help="no progress line on the terminal (stderr; also: EXACTLIN_NO_PROGRESS=1)")
    p.add_argument("--digits", type=int, default=None, metavar="N",
                   help="significant digits of the decimal shown next to a long rational or an irrational "
                        "number (default 5); JSON is always exact")
    p.add_argument("--exact", action="store_true",
                   help="print every number exactly, however long (no decimal approximations)")
    sub = p.add_subparsers(dest="command")
    for mod in COMMANDS:
        importlib.import_module(mod).register(sub)
    return p


#: top-level options that take a value as the next word
_VALUE_OPTIONS = ("--digits",)


def _unknown_command(parser: argparse.ArgumentParser, argv: list[str]) -> str | None:
    """The one-line error for a first word that is no command, with the close command names (did you mean)."""
    from exactlin.cli.common import did_you_mean

    first, skip = None, False
    for a in argv:  # the first word that is neither a top-level option nor the value of one (--digits N)
        if skip:
            skip = False
        elif a in _VALUE_OPTIONS:
            skip = True
        elif not a.startswith("-"):
            first = a
            break
    if first is None:
        return None
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    names = list(sub.choices)
    if first in names:
        return None
    found = did_you_mean(first, names, prefix=False)
    hint = f" (did you mean {' or '.join(found)}?)" if found else ""
    return f"unknown command {first!r}{hint}; the commands are: {', '.join(names)} (exactlin --help)"


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    unknown = _unknown_command(parser, argv)
    if unknown:
        sys.stderr.write(f"exactlin: error: {unknown}\n")
        return 2
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
        with display(digits=args.digits, exact=True if args.exact else None):
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
