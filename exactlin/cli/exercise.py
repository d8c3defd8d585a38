"""``exactlin exercise ALGORITHM [--seed N] [--size NxD] [--difficulty easy|medium|hard]
[--format markdown|latex|html|json|pdf] [--answers]``: a seeded exercise whose worked solution stays readable by
hand, and (``--answers``) its verified answer key.  The same arguments give the same bytes on every platform."""

from __future__ import annotations

import sys

from exactlin.errors import ParameterError

__all__ = ["register", "cmd_exercise", "parse_size", "exercise_output"]


def parse_size(value: str | None):
    if value is None:
        return None
    n, sep, d = value.lower().partition("x")
    if not sep or not n.strip().isdigit() or not d.strip().isdigit():
        raise ParameterError(f"--size {value!r}: expected NxD, e.g. 6x2 (N samples, D features)", parameter="size")
    return int(n), int(d)


def exercise_output(algorithm: str, *, seed: int = 0, size=None, difficulty: str = "easy",
                    fmt: str = "markdown", answers: bool = False) -> str:
    """The command's output as a string (also what docs/instructors.md shows)."""
    import json

    from exactlin.lectures.exercises import exercise_dict, exercise_doc, generate
    from exactlin.model.serialize import to_jsonable
    from exactlin.render.explain import render

    ex = generate(algorithm, seed=seed, size=size, difficulty=difficulty)
    if fmt == "json":
        return json.dumps(to_jsonable(exercise_dict(ex, answers=answers)), indent=2) + "\n"
    return render(exercise_doc(ex, answers=answers), fmt)


def cmd_exercise(args) -> int:
    from exactlin.cli.common import emit_document

    kw = dict(seed=args.seed, size=parse_size(args.size), difficulty=args.difficulty, answers=args.answers)
    if args.format == "pdf":
        emit_document(exercise_output(args.algorithm, fmt="latex", **kw))
    else:
        sys.stdout.write(exercise_output(args.algorithm, fmt=args.format, **kw))
    return 0


def register(subparsers) -> None:
    import argparse

    from exactlin.cli.common import examples_epilog

    sp = subparsers.add_parser("exercise", help="a seeded exercise with small numbers, and its verified answer key",
                               formatter_class=argparse.RawDescriptionHelpFormatter,
                               epilog=examples_epilog("exactlin exercise perceptron --seed 7 --answers",
                                                      "exactlin exercise threshold-unit --difficulty medium",
                                                      "exactlin exercise svm-hard --size 5x2 --format latex --answers "
                                                      "> svm.tex"))
    # the names of exactlin.lectures.exercises.EXERCISES (not imported here: every command builds this parser;
    # tests/cli/test_cli_help.py checks that the list is complete)
    sp.add_argument("algorithm", help="perceptron, threshold-unit, fixed-increment, batch-perceptron, mse, lms, "
                                      "ho-kashyap, fisher, linear-machine, separable, svm-hard")
    sp.add_argument("--seed", type=int, default=0, help="the exercise's seed (default 0): same seed, same bytes")
    sp.add_argument("--size", default=None, metavar="NxD", help="N samples with D features (default by difficulty)")
    sp.add_argument("--difficulty", choices=["easy", "medium", "hard"], default="easy")
    sp.add_argument("--format", choices=["markdown", "latex", "html", "json", "pdf"], default="markdown",
                    help="markdown (default), latex (a standalone document), html, json, or pdf (compiled with "
                         "pdflatex; needs Debian's texlive-latex-recommended and lmodern)")
    sp.add_argument("--answers", action="store_true", help="also print the answer key (every step, the checks)")
    sp.set_defaults(handler=cmd_exercise)
