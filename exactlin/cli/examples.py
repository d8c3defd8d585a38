"""``exactlin`` (no command: reproduce and verify every worked example) and ``exactlin examples [show ID]``."""

from __future__ import annotations

import re

from exactlin.cli.common import emit_json, out
from exactlin.errors import ParameterError


def cmd_main_job(args) -> int:
    """Bare ``exactlin``: every worked example in a line or two and a final tally (the handout); the full
    results with traces are ``exactlin examples show ID``."""
    from exactlin.lectures.examples import all_examples
    from exactlin.render.report import main_job_text

    items = []
    for ex in all_examples():
        try:
            items.append((ex, ex.func()))
        except Exception as e:  # noqa: BLE001 - a crashing example is reported as a failure, the rest still run
            items.append((ex, e))
    text, failed = main_job_text(items)
    out(text)
    out("Docs: `exactlin docs` tells where the documentation site is; `exactlin --help` lists the commands.")
    return 1 if failed else 0


def cmd_examples(args) -> int:
    from exactlin.lectures.examples import all_examples, get_example
    from exactlin.render.report import example_dict, example_text

    if args.action is None or args.action == "list":
        exs = all_examples()
        if getattr(args, "json", False):
            emit_json({"examples": [{"id": e.id, "title": e.title, "seed": e.seed} for e in exs]})
            return 0
        width = max(len(e.id) for e in exs) if exs else 2
        for e in exs:
            out(f"{e.id.ljust(width)}  {e.title}  [{e.seed}]")
        return 0
    if not args.id:
        raise ParameterError("exactlin examples show needs an example ID; `exactlin examples` lists them",
                             parameter="ID")
    fmt_ = args.format or "table"
    if getattr(args, "json", False):
        if args.format not in (None, "json"):
            raise ParameterError(f"--json and --format {args.format} conflict: give one of them",
                                 parameter="--json")
        fmt_ = "json"
    ex = get_example(args.id)
    res = ex.func()
    if fmt_ == "json":
        emit_json(example_dict(ex, res))
    elif fmt_ in ("latex", "pdf"):
        from exactlin.cli.common import emit_document

        doc = example_latex(ex, res)
        if fmt_ == "pdf":
            emit_document(doc)
        else:
            out(doc.rstrip("\n"))
    else:
        out(example_text(ex, res))
    return 0 if res.ok else 1


def example_latex(ex, res) -> str:
    """``examples show ID --format latex``: a standalone document: each run's result and trace (a long trace: its
    head and tail) and every check against the lecture."""
    from exactlin.cli.fit import run_latex
    from exactlin.exact.format import latex_text
    from exactlin.lectures.notes import notes_title
    from exactlin.render.explain import latex_title
    from exactlin.render.latex import latex_document, math_inline
    from exactlin.render.report import TRACE_ROWS, latex_value

    body = [f"Lecture notes: {latex_text(notes_title(ex.seed))} ({latex_text(ex.seed)}); worked example "
            f"{latex_text(ex.id)}.", ""]
    for run in res.runs:
        body += [f"\\subsection*{{{latex_text(run.algorithm)}}}",
                 run_latex(run, longtable=True, max_rows=TRACE_ROWS), ""]
    body += ["\\subsection*{Checks against the lecture}", "\\begin{itemize}"]
    def value(v) -> str:  # a number as math, yes/no and words as text
        return latex_text(v) if isinstance(v, str) else ("yes" if v else "no") if isinstance(v, bool) else \
            math_inline(latex_value(v))

    for c in res.checks:
        body.append(f"  \\item {'ok' if c.ok else 'FAILED'}: {latex_text(c.what)}: expected {value(c.expected)} "
                    f"({latex_text(c.source)}), got {value(c.actual)}")
    body.append("\\end{itemize}")
    # a note may quote a long exact number: its digits may break across lines
    body += ["Note: " + re.sub(r"(\d{30})(?=\d)", r"\1\\allowbreak{}", latex_text(n)) + "\n" for n in res.notes]
    body.append(f"Verified: {'yes' if res.ok else 'NO'}.")
    return latex_document(ex.title, "\n".join(body), title_tex=latex_title(ex.title))


def register(subparsers) -> None:
    import argparse

    from exactlin.cli.common import examples_epilog

    e = subparsers.add_parser("examples", help="list the worked examples, or run one: examples show ID",
                              formatter_class=argparse.RawDescriptionHelpFormatter,
                              epilog=examples_epilog("exactlin examples", "exactlin examples show seed000-example2",
                                                     "exactlin examples show seed000-example2 --format latex"))
    e.add_argument("action", nargs="?", choices=["list", "show"])
    e.add_argument("id", nargs="?")
    e.add_argument("--format", choices=["table", "json", "latex", "pdf"], default=None,
                   help="how `examples show ID` prints (default: table; latex: a standalone document; pdf: compiled "
                        "with pdflatex, needs Debian's texlive-latex-recommended and lmodern)")
    e.add_argument("--json", action="store_true", help="JSON output: the list, or for `show ID` the same as "
                   "--format json")
    e.set_defaults(handler=cmd_examples)
