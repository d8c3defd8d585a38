"""``exactlin fit ALGORITHM DATA.csv [--bias none|first|last] [--param NAME=VALUE ...] [--positive LABEL]
[--max-epochs N] [--trace] [--json]``: train an algorithm on a CSV file."""

from __future__ import annotations

from typing import Any

from exactlin.cli.common import emit_json, fit_with_status, load_csv, out, parse_params
from exactlin.errors import ParameterError


def cmd_fit(args) -> int:
    from exactlin.algorithms import get
    from exactlin.data.dataset import check_bias, label_matcher
    from exactlin.render.report import run_text

    spec = get(args.algorithm)
    params = parse_params(spec, args.param)
    bias = check_bias(args.bias) if args.bias else spec.bias_default
    ds = load_csv(args.data)
    # no trace is built that the output does not print: --json prints one only with --trace (verification and
    # the convergence monitor run either way); text prints the default trace when it is short
    trace = True if args.trace else (False if args.json else None)
    kwargs: dict[str, Any] = {"bias": bias, "floats": "repr", "trace": trace}
    if spec.iterative:
        if args.max_epochs is not None:
            kwargs["max_epochs"] = args.max_epochs
    elif args.max_epochs is not None:
        raise ParameterError(f"{spec.name} is not iterative: --max-epochs does not apply", parameter="max_epochs")
    if args.positive is not None:
        if spec.multiclass:
            raise ParameterError(f"{spec.name} is multi-class: --positive does not apply", parameter="positive")
        kwargs["positive"] = args.positive
    run = fit_with_status(spec.func, ds, None, **kwargs, **params)
    if args.json:
        d = run.to_dict()
        if not args.trace:
            d.pop("trace", None)
        if args.positive is not None:  # which label of the file became +1, and which -1
            from exactlin.model.serialize import to_jsonable

            is_pos = label_matcher(args.positive)
            pos = next(lab for lab in ds.y if is_pos(lab))
            neg = next((lab for lab in ds.y if not is_pos(lab)), None)
            d["labels"] = {"+1": to_jsonable(pos), "-1": to_jsonable(neg)}
        emit_json(d)
    else:
        out(run_text(run, trace=bool(args.trace) or len(run.trace) <= 40))
    return 0


def register(subparsers) -> None:
    f = subparsers.add_parser("fit", help="train an algorithm on a CSV file (features then label)")
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
