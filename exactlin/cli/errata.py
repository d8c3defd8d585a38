"""``exactlin errata [--json]``: the lecture notes' mistakes with their numeric demonstrations."""

from __future__ import annotations

from exactlin.cli.common import emit_json, out


def cmd_errata(args) -> int:
    from exactlin.lectures.errata import all_errata
    from exactlin.render.report import fmt_value

    errs = all_errata()
    if getattr(args, "json", False):
        emit_json({"errata": [{"id": e.id, "seed": e.seed, "where": e.where, "notes_say": e.notes_say,
                               "correct": e.correct, "demonstration": e.demonstrate()} for e in errs]})
        return 0
    for e in errs:
        demo = e.demonstrate()
        out(f"{e.id}  [{e.seed}, {e.where}]")
        out(f"  the notes say: {e.notes_say}")
        out(f"  exactlin does: {e.correct}")
        out(f"  demonstration: {demo.get('text', '')}")
        for k, v in demo.items():
            if k not in ("text", "holds"):
                out(f"    {k}: {fmt_value(v)}")
        out("")
    return 0


def register(subparsers) -> None:
    import argparse

    from exactlin.cli.common import examples_epilog

    r = subparsers.add_parser("errata", help="the lecture notes' mistakes, with numeric demonstrations",
                              formatter_class=argparse.RawDescriptionHelpFormatter,
                              epilog=examples_epilog("exactlin errata", "exactlin errata --json"))
    r.add_argument("--json", action="store_true")
    r.set_defaults(handler=cmd_errata)
