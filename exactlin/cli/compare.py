"""``exactlin compare ALGORITHM DATA.csv``: the exact run and its nearest float implementations side by side.

One of the commands (``exactlin.cli.app.COMMANDS``); needs the ``sklearn`` extra for the scikit-learn anchors.
"""

from __future__ import annotations

from typing import Any

__all__ = ["register", "cmd_compare"]


def cmd_compare(args) -> int:
    from exactlin.cli.common import fit_with_status, get_algorithm, input_digits_kwargs, load_data, out, parse_params
    from exactlin.compare import compare, compare_text, report_jsonable
    from exactlin.data.dataset import check_bias
    from exactlin.errors import ParameterError

    spec = get_algorithm(args.algorithm)
    params = parse_params(spec, args.param)
    bias = check_bias(args.bias) if args.bias else None
    ds = load_data(args)
    try:
        import sklearn  # noqa: F401
    except ImportError:
        raise ParameterError("exactlin compare needs scikit-learn for its float anchors: "
                             "pip install 'exactlin[sklearn]'", parameter="compare") from None
    kwargs: dict[str, Any] = {"bias": bias, "positive": args.positive, "params": {**params,
                                                                                   **input_digits_kwargs(args)}}
    if args.max_epochs is not None:
        kwargs["max_epochs"] = args.max_epochs
    report = fit_with_status(compare, spec.name, ds, None, **kwargs)
    if args.json:
        import json
        import sys

        from exactlin._version import __version__
        sys.stdout.write(json.dumps({"exactlin_version": __version__, **report_jsonable(report)}, indent=2) + "\n")
    else:
        out(compare_text(report))
    return 0


def register(subparsers) -> None:
    import argparse

    from exactlin.cli.common import add_arithmetic_arg, add_data_args, add_input_digits_arg, examples_epilog

    p = subparsers.add_parser(
        "compare", help="run an algorithm exactly and its nearest float implementation (scikit-learn, numpy); "
                        "report where they differ", formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=examples_epilog(
            "exactlin compare perceptron examples/data/seed000-example1.csv",
            "exactlin compare svm-soft data.csv --param C=1 --json",
            "exactlin compare linear-machine data.csv --label-column species --delimiter ';'"))
    p.add_argument("algorithm", help="an algorithm name (letter case is ignored)")
    p.add_argument("data", help="CSV: feature columns then the label (--label-column: another column); optional "
                                "header; # comments; - reads standard input")
    p.add_argument("--bias", choices=["none", "first", "last"], default=None,
                   help="augmentation with a constant 1 (default: the algorithm's)")
    p.add_argument("--positive", default=None, metavar="LABEL", help="the label that counts as +1")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE", help="an algorithm parameter")
    p.add_argument("--max-epochs", type=int, default=None, metavar="N")
    p.add_argument("--json", action="store_true", help="print one JSON object (floats of the anchors as JSON "
                                                       "numbers, exact values as rational strings)")
    add_input_digits_arg(p)
    add_arithmetic_arg(p)
    add_data_args(p)
    p.set_defaults(handler=cmd_compare)
