"""``exactlin separable DATA.csv [--bias none|first|last] [--positive LABEL] [--json]``: linear
separability, decided exactly.

Prints the exact verdict with its verified certificate: a separator w, b with
y_i (w . x_i + b) >= 1 for every sample, or Gordan multipliers lambda.  Exit status 0
for either honest answer; bad input raises an ExactlinError (the CLI prints one line,
exit 2).  ``exactlin fit svm-hard|svm-soft|svm-soft-l2`` need no plugin: they are in
the algorithm registry.
"""

from __future__ import annotations

import sys

__all__ = ["register", "cmd_separable"]


def cmd_separable(args) -> int:
    from exactlin._version import __version__
    from exactlin.algorithms.separability import separable
    from exactlin.cli.common import emit_json, load_data, parse_options
    from exactlin.model.claims import carried
    from exactlin.render.report import fmt_value, weights_text

    ds = load_data(args)
    bias = args.bias or "first"
    from exactlin.cli.common import input_digits_kwargs

    run = separable(ds, None, bias=bias, positive=args.positive, exact_only=args.exact_only,
                    **input_digits_kwargs(args))
    ex = run.extras
    out = {"exactlin_version": __version__, "algorithm": "separable", "data_file": str(args.data), "bias": bias,
           "separable": ex["separable"], "verified": True, "method": ex["method"]}
    if ex["separable"]:
        # the CLI's JSON contract: w in the augmented space (bias entry where --bias puts it), b the intercept
        out.update({"w": run.w, "b": ex["b"], "w_features": ex["w"],
                    "min_functional_margin": ex["min_functional_margin"],
                    "meaning": "y_i (w . x_i + b) >= 1 for every sample, checked exactly"})
    else:
        out["certificate"] = ex["certificate"]
    if args.json:
        out.update(carried(run, parse_options(args, ds)))  # data (the rows) and claims: exactlin check re-checks
        emit_json(out)
        return 0
    w = sys.stdout.write
    if ex["separable"]:
        w(f"separable ({'through the origin' if bias == 'none' else 'with intercept'}): verified\n")
        w(f"  {weights_text(run.w, bias)}\n")  # named as `exactlin fit` names them
        w(f"  min_i y_i (w . x_i + b) = {fmt_value(ex['min_functional_margin'])} >= 1\n")
    else:
        cert = ex["certificate"]
        w("not linearly separable" + (" through the origin" if bias == "none" else "") + ": verified\n")
        w("  Gordan certificate (lambda_i > 0 shown; samples numbered from 1):\n")
        for i in cert.support:
            w(f"    lambda_{i + 1} = {fmt_value(cert.lam[i])}   (sample {i + 1})\n")
        w(f"  {cert.meaning}\n")
    w(f"  method: {ex['method']}\n")
    return 0


def register(subparsers) -> None:
    import argparse

    from exactlin.cli.common import add_data_args, examples_epilog

    sp = subparsers.add_parser(
        "separable", help="decide linear separability exactly, with a verified certificate",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=examples_epilog("exactlin separable examples/data/xor.csv",
                               "exactlin separable examples/data/animals.csv --positive cat --json",
                               "exactlin separable data.tsv --delimiter tab --label-column 1 --bias none"))
    sp.add_argument("data", help="CSV: feature columns then the label (--label-column: another column); optional "
                                 "header; # comments; - reads standard input")
    sp.add_argument("--bias", choices=["none", "first", "last"], default=None,
                    help="first/last: with an intercept b (default first); none: through the origin")
    sp.add_argument("--positive", default=None, metavar="LABEL", help="the label that counts as +1")
    sp.add_argument("--exact-only", action="store_true", help="skip the float LP candidate (scipy HiGHS)")
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    from exactlin.cli.common import add_arithmetic_arg, add_input_digits_arg

    add_input_digits_arg(sp)
    add_arithmetic_arg(sp)
    add_data_args(sp)
    sp.set_defaults(handler=cmd_separable)
