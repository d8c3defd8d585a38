"""``exactlin algorithms [show NAME] [--json]``: every algorithm and its parameter table."""

from __future__ import annotations

from typing import Any

from exactlin._version import __version__
from exactlin.cli.common import emit_json, out


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
                           "iterative": spec.iterative, "monitor": spec.monitor or None, "params": params,
                           "arithmetics": list(spec.func.arithmetics)}
    if spec.iterative:
        sig = inspect.signature(spec.func).parameters.get("max_epochs")
        out["max_epochs"] = {"default": sig.default if sig is not None else None,
                             "doc": "--max-epochs N: the bound on passes for single-sample rules, iterations for "
                                    "batch rules"}
    return out


_BUDGET_ROWS = ("max_steps", "k_max", "T", "max_updates", "max_bits")


def default_budgets(spec) -> str:
    """The bounds a default call of an iterative algorithm runs under, as its parameter table states them."""
    import inspect
    import re

    sig = inspect.signature(spec.func).parameters.get("max_epochs")
    parts = [f"max_epochs={sig.default}"] if sig is not None else []
    for p in spec.params:
        if p.name not in _BUDGET_ROWS:
            continue
        if p.default is not None:
            parts.append(f"{p.name}={p.default:,}" if isinstance(p.default, int) else f"{p.name}={p.default}")
        else:
            m = re.search(r"ceil\(([\d,]+) / n\)", p.doc)
            if m:
                parts.append(f"{p.name}=ceil({m.group(1)} / n)")
    return ", ".join(parts)


def cmd_algorithms(args) -> int:
    from exactlin.algorithms import all_specs
    from exactlin.cli.common import get_algorithm
    from exactlin.render.report import fmt_value

    if args.name:
        spec = get_algorithm(args.name)
        if getattr(args, "json", False):
            emit_json(algorithm_dict(spec))
            return 0
        out(f"{spec.name}: {spec.title}")
        out(f"  {spec.seed}" + (f", {spec.number}" if spec.number else ""))
        kind = "multi-class" if spec.multiclass else "binary (+1/-1, or --positive LABEL)"
        out(f"  default bias: {spec.bias_default}; {kind}")
        out(f"  arithmetic (--arithmetic): {', '.join(spec.func.arithmetics)}")
        if spec.monitor:
            out(f"  convergence monitor: {spec.monitor}")
        out("  parameters (--param NAME=VALUE):")
        for p in spec.params:
            default = "-" if p.default is None else fmt_value(p.default)
            out(f"    {p.name:<14} {p.kind:<9} default {default:<8} {p.doc}")
        if spec.iterative:
            out("    (and --max-epochs N: the bound on passes for single-sample rules, iterations for batch rules)")
            out(f"  default budgets (deterministic, never the clock): {default_budgets(spec)}")
        return 0
    specs = all_specs()
    if getattr(args, "json", False):
        emit_json({"algorithms": [{"name": s.name, "family": s.family, "title": s.title, "seed": s.seed,
                                   "number": s.number, "params": [p.name for p in s.params]} for s in specs]})
        return 0
    width = max(len(s.name) for s in specs)
    for s in specs:
        out(f"{s.name.ljust(width)}  {s.title}  [{s.seed}{', ' + s.number if s.number else ''}]")
    return 0


def register(subparsers) -> None:
    import argparse

    from exactlin.cli.common import examples_epilog

    a = subparsers.add_parser("algorithms", help="list the algorithms, or show one's parameter table",
                              formatter_class=argparse.RawDescriptionHelpFormatter,
                              epilog=examples_epilog("exactlin algorithms", "exactlin algorithms show perceptron",
                                                     "exactlin algorithms show svm-soft --json"))
    a.add_argument("action", nargs="?", choices=["list", "show"])
    a.add_argument("name", nargs="?")
    a.add_argument("--json", action="store_true", help="JSON output: the list, or one algorithm's spec")
    a.set_defaults(handler=cmd_algorithms)
