"""``exactlin check RESULT.json [DATA.csv]``: re-check a saved result's claims from its own rows with the
stand-alone checker (:mod:`exactlin.exactlin_check`, standard library only; the same file runs without exactlin:
``python exactlin/exactlin_check.py RESULT.json [DATA.csv]``).  Exit status 0: every claim holds; 1: a claim
fails (named); 2: a malformed file."""

from __future__ import annotations

__all__ = ["register", "cmd_check"]


def cmd_check(args) -> int:
    from exactlin import exactlin_check

    return exactlin_check.main([args.result] + ([args.data] if args.data else []))


def register(subparsers) -> None:
    import argparse

    from exactlin.cli.common import examples_epilog

    sp = subparsers.add_parser(
        "check", help="re-check a saved result's claims from its own data (the stand-alone checker)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=examples_epilog("exactlin check examples/results/xor-perceptron.json",
                               "exactlin check examples/results/xor-perceptron.json examples/data/xor.csv",
                               "exactlin fit perceptron examples/data/xor.csv --save-result r.json"))
    sp.add_argument("result", help="a result saved by exactlin (fit --save-result, fit --json, separable --json)")
    sp.add_argument("data", nargs="?", default=None,
                    help="optional: the CSV file the result was computed from (parsed with the recorded options; "
                         "its rows must be the result's)")
    sp.set_defaults(handler=cmd_check)
