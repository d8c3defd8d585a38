"""``exactlin explain ALGORITHM DATA.csv [--format markdown|latex|html|pdf] [--bias none|first|last]
[--param NAME=VALUE ...] [--positive LABEL] [--max-epochs N] [--head N] [--tail N] [--delimiter D]
[--label-column NAME|INDEX]``: the derivation a student
would write for this run: the setup in the notes' notation, each step with its test and update (long runs: head
and tail), the stop and why, the checks and, where it applies, the convergence theorem with this run's numbers.
LaTeX is a standalone document; HTML is one page that opens offline."""

from __future__ import annotations

import sys
from typing import Any

from exactlin.errors import ParameterError

__all__ = ["register", "cmd_explain"]


def cmd_explain(args) -> int:
    from exactlin.algorithms import get
    from exactlin.cli.common import emit_document, fit_with_status, input_digits_kwargs, load_data, parse_params
    from exactlin.data.dataset import check_bias
    from exactlin.lectures.notes import notes_title
    from exactlin.render.explain import explain, render

    spec = get(args.algorithm)
    params = parse_params(spec, args.param)
    bias = check_bias(args.bias) if args.bias else spec.bias_default
    ds = load_data(args)
    kwargs: dict[str, Any] = {"bias": bias, "trace": True, **input_digits_kwargs(args)}
    if args.max_epochs is not None:
        if not spec.iterative:
            raise ParameterError(f"{spec.name} is not iterative: --max-epochs does not apply", parameter="max_epochs")
        kwargs["max_epochs"] = args.max_epochs
    if args.positive is not None:
        if spec.multiclass:
            raise ParameterError(f"{spec.name} is multi-class: --positive does not apply", parameter="positive")
        kwargs["positive"] = args.positive
    if args.head < 0 or args.tail < 0:
        raise ParameterError("--head and --tail must be >= 0", parameter="head")
    run = fit_with_status(spec.func, ds, None, **kwargs, **params)
    from exactlin.render.figure import with_figure

    doc = explain(run, head=args.head, tail=args.tail, notes=notes_title(spec.seed))
    fmt = "latex" if args.format == "pdf" else args.format
    page = with_figure(render(doc, fmt), run, fmt)  # the picture, for two-dimensional data
    if args.format == "pdf":
        emit_document(page)
    else:
        sys.stdout.write(page)
    return 0


def register(subparsers) -> None:
    import argparse

    from exactlin.cli.common import examples_epilog

    sp = subparsers.add_parser("explain", help="the worked solution of a run, as a student would write it",
                               formatter_class=argparse.RawDescriptionHelpFormatter,
                               epilog=examples_epilog(
                                   "exactlin explain perceptron examples/data/seed000-example1.csv",
                                   "exactlin explain perceptron examples/data/animals.csv --bias first --positive cat",
                                   "exactlin explain ho-kashyap examples/data/xor.csv --format latex > xor.tex",
                                   "exactlin explain svm-hard examples/data/seed000-example1.csv --format html > "
                                   "svm.html",
                                   "exactlin explain linear-machine examples/data/three-classes.csv "
                                   "--label-column class"))
    sp.add_argument("algorithm", help="an algorithm name (see `exactlin algorithms`)")
    sp.add_argument("data", help="CSV: feature columns then the label; optional header; # comments")
    sp.add_argument("--format", choices=["markdown", "latex", "html", "pdf"], default="markdown",
                    help="markdown (default), latex (a standalone document), html (one offline page) or pdf "
                         "(compiled with pdflatex; needs Debian's texlive-latex-recommended and lmodern)")
    sp.add_argument("--bias", choices=["none", "first", "last"], default=None)
    sp.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    sp.add_argument("--positive", default=None, metavar="LABEL", help="the label that counts as +1")
    sp.add_argument("--max-epochs", type=int, default=None)
    sp.add_argument("--head", type=int, default=10, help="steps shown at the start of a long run (default 10)")
    sp.add_argument("--tail", type=int, default=5, help="steps shown at the end of a long run (default 5)")
    from exactlin.cli.common import add_arithmetic_arg, add_data_args, add_input_digits_arg

    add_input_digits_arg(sp)
    add_arithmetic_arg(sp)
    add_data_args(sp)
    sp.set_defaults(handler=cmd_explain)
