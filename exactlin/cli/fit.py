"""``exactlin fit ALGORITHM DATA.csv [--bias none|first|last] [--param NAME=VALUE ...] [--positive LABEL]
[--max-epochs N] [--trace] [--json | --format text|json|latex|pdf|csv|markdown] [--save MODEL.json]
[--save-result RESULT.json] [--label-column NAME|INDEX] [--delimiter D] [--plot FILE.svg|FILE.png]``:
train an algorithm on a CSV file
(``-``: standard input)."""

from __future__ import annotations

from typing import Any

from exactlin.cli.common import (
    add_arithmetic_arg,
    add_data_args,
    add_input_digits_arg,
    emit_json,
    examples_epilog,
    fit_with_status,
    get_algorithm,
    input_digits_kwargs,
    load_data,
    out,
    parse_options,
    parse_params,
)
from exactlin.errors import ParameterError

FORMATS = ("text", "json", "latex", "pdf", "csv", "markdown")


def _labels(model, ds, spec, positive) -> tuple:
    """The file's labels as the model uses them: (+1 label, -1 label) for a binary run, the classes otherwise."""
    from exactlin.data.dataset import class_labels

    if getattr(model, "classes", None):
        return tuple(model.classes)
    if hasattr(model, "positive") and hasattr(model, "negative"):
        return (model.positive, model.negative)
    if spec.multiclass:
        return class_labels(ds.y)
    if positive is None:
        return (1, -1)
    return _pos_neg(ds, positive)


def _pos_neg(ds, positive) -> tuple:
    """(the file's label that --positive names, the other label or None), by the one label rule."""
    from exactlin.data.dataset import distinct_labels, find_label, same_label

    seen = distinct_labels(ds.y)
    pos = find_label(seen, positive)
    return (pos, next((lab for lab in seen if not same_label(lab, pos)), None))


def _summary_rows(run) -> list[tuple[str, Any]]:
    """(name, value) of the final result: what the text report's summary lines show."""
    from exactlin.render.report import summary_extras

    rows: list[tuple[str, Any]] = [("algorithm", run.algorithm)]
    if run.w is not None:
        rows.append(("w", run.w))
    rows.append(("bias", run.bias))
    if "W" in run.extras and "classes" in run.extras:
        rows += [(f"w[{c}]", wc) for c, wc in zip(run.extras["classes"], run.extras["W"])]
    rows += [("converged", "yes" if run.converged else "no"), ("reason", run.reason), ("updates", run.updates),
             ("epochs", run.epochs), ("steps", run.steps)]
    rows += [(f"param {k}", v) for k, v in run.params.items() if v is not None]
    rows += summary_extras(run)
    cert = run.extras.get("certificate")
    if cert:
        from exactlin.render.report import certificate_fields

        rows.append(("certificate", f"{cert.get('kind')}, verified: {cert.get('verified')}: "
                                    f"{certificate_fields(cert)}"))
    return rows


def run_latex(run, *, longtable: bool = False, max_rows: int | None = None) -> str:
    """The final result (a two-column table) and the trace as LaTeX tables (``longtable``: tables that break
    across pages, for a standalone document)."""
    from exactlin.exact.format import latex_text
    from exactlin.render.latex import math_inline
    from exactlin.render.report import latex_value, trace_latex

    def cell(v):
        if isinstance(v, bool):
            return "yes" if v else "no"
        return latex_text(v) if isinstance(v, str) else math_inline(latex_value(v))

    env = "longtable" if longtable else "tabular"
    spec = "l>{\\raggedright\\arraybackslash}p{0.7\\linewidth}" if longtable else "ll"
    lines = [f"\\begin{{{env}}}{{{spec}}}", r"\toprule", r"\multicolumn{2}{l}{final result} \\", r"\midrule"]
    lines += [f"{cell(k)} & {cell(v)} " + r"\\" for k, v in _summary_rows(run)]
    lines += [r"\bottomrule", f"\\end{{{env}}}"]
    if run.trace:
        lines += ["", trace_latex(run, longtable=longtable, max_rows=max_rows)]
    return "\n".join(lines)


def latex_report(run, title: str, *, trace: bool = False) -> str:
    """``fit --format latex``: a standalone document (it compiles with pdflatex) holding :func:`run_latex`; a long
    trace shows its head and tail unless ``trace`` (``--trace``: every step)."""
    from exactlin.render.latex import latex_document
    from exactlin.render.report import TRACE_ROWS

    return latex_document(title, run_latex(run, longtable=True, max_rows=None if trace else TRACE_ROWS))


def _markdown(run) -> str:
    from exactlin.render.report import fmt_value, trace_table

    def esc(c: str) -> str:
        return c.replace("|", r"\|")

    lines = ["| result | value |", "| --- | --- |"]
    lines += [f"| {esc(k)} | {esc(v if isinstance(v, str) else fmt_value(v))} |" for k, v in _summary_rows(run)]
    if run.trace:
        header, rows = trace_table(run)
        lines += ["", "| " + " | ".join(map(esc, header)) + " |", "|" + " --- |" * len(header)]
        lines += ["| " + " | ".join(map(esc, r)) + " |" for r in rows]
        if not run.trace_complete:
            lines += ["", f"(the trace shows the first {len(run.trace)} of {run.steps} steps; --trace for all)"]
    return "\n".join(lines)


def _csv(run) -> str:
    """The final result as ``# name: value`` comment lines, then the trace as CSV (exact strings: machine-readable,
    so never a decimal approximation, whatever ``--digits``)."""
    from exactlin.exact.format import display
    from exactlin.io import trace_csv
    from exactlin.render.report import fmt_value

    with display(exact=True):
        lines = [f"# {k}: {v if isinstance(v, str) else fmt_value(v)}" for k, v in _summary_rows(run)]
    text = "\n".join(lines) + "\n"
    if run.trace:
        text += trace_csv(run)
    return text.rstrip("\n")


def cmd_fit(args) -> int:
    from exactlin.data.dataset import check_bias
    from exactlin.render.report import run_text

    spec = get_algorithm(args.algorithm)
    fmt_ = args.format or ("json" if args.json else "text")
    if args.json and fmt_ != "json":
        raise ParameterError(f"--json and --format {args.format} conflict: give one of them", parameter="format")
    params = parse_params(spec, args.param)
    bias = check_bias(args.bias) if args.bias else spec.bias_default
    ds = load_data(args)
    # no trace is built that the output does not print: --json prints one only with --trace (verification and
    # the convergence monitor run either way); text prints the default trace when it is short
    trace = True if args.trace else (False if fmt_ == "json" else None)
    kwargs: dict[str, Any] = {"bias": bias, "floats": "repr", "trace": trace, **input_digits_kwargs(args)}
    if spec.iterative:
        if args.max_epochs is not None:
            kwargs["max_epochs"] = args.max_epochs
    elif args.max_epochs is not None:
        raise ParameterError(f"{spec.name} is not iterative: --max-epochs does not apply", parameter="max_epochs")
    if args.positive is not None:
        if spec.multiclass:
            raise ParameterError(f"{spec.name} is multi-class: --positive does not apply", parameter="positive")
        kwargs["positive"] = args.positive
    if args.plot:
        from exactlin.render.plot import figure_format

        figure_format(args.plot)  # a bad file name fails before the fit
        if trace is False:
            kwargs["trace"] = None  # the default trace: the picture draws the boundary after each update
    run = fit_with_status(spec.func, ds, None, **kwargs, **params)
    run.data_options = parse_options(args, ds)
    if args.save_result:
        _save_result(args.save_result, run)
    if args.plot:
        _plot(args.plot, run)
    if args.save:
        _save(args.save, run, spec, ds, args.positive)
    if fmt_ == "json":
        d = run.to_dict()
        if not args.trace:
            d.pop("trace", None)
        if args.positive is not None:  # which label of the file became +1, and which -1
            from exactlin.model.serialize import to_jsonable

            pos, neg = _pos_neg(ds, args.positive)
            d["labels"] = {"+1": to_jsonable(pos, text=True), "-1": to_jsonable(neg, text=True)}
        emit_json(d)
    elif fmt_ in ("latex", "pdf"):
        from exactlin.cli.common import emit_document

        doc = latex_report(run, f"exactlin fit {spec.name} {args.data}", trace=bool(args.trace))
        if fmt_ == "pdf":
            emit_document(doc)
        else:
            out(doc.rstrip("\n"))
    elif fmt_ == "markdown":
        out(_markdown(run))
    elif fmt_ == "csv":
        out(_csv(run))
    else:
        out(run_text(run, trace=bool(args.trace) or len(run.trace) <= 40))
    return 0


def _plot(path, run) -> None:
    """``--plot FILE.svg|FILE.png``: the picture of the run (exactlin.render.plot), for two-dimensional data."""
    import sys

    from exactlin.render.plot import save_figure

    save_figure(run, path)
    sys.stderr.write(f"exactlin: picture written to {path}\n")


def _save_result(path, run) -> None:
    """Write the result with its data and claims (``exactlin check FILE`` re-checks it) atomically."""
    import sys

    from exactlin.io import atomic_write_text

    try:
        atomic_write_text(path, run.to_json(trace=False) + "\n")
    except OSError as e:
        raise ParameterError(f"--save-result {path}: cannot write ({e.strerror or e})", parameter="save_result") \
            from None
    sys.stderr.write(f"exactlin: result saved to {path} (check it: exactlin check {path})\n")


def _save(path, run, spec, ds, positive) -> None:
    """Write the run's model with its metadata (exactlin.model.saved) atomically."""
    import sys

    from exactlin._version import __version__
    from exactlin.io import atomic_write_text
    from exactlin.model.saved import SavedModel, saved_model_json

    if run.model is None:
        raise ParameterError(f"--save: {spec.name} ({run.reason}) gave no prediction model to save (e.g. a proof "
                             "of non-separability has no classifier)", parameter="save")
    saved = SavedModel(run.model, spec.name, run.bias, _labels(run.model, ds, spec, positive), ds.d, __version__,
                       label_name=ds.label_name, feature_names=ds.feature_names)
    try:
        atomic_write_text(path, saved_model_json(saved))
    except OSError as e:
        raise ParameterError(f"--save {path}: cannot write ({e.strerror or e})", parameter="save") from None
    sys.stderr.write(f"exactlin: model saved to {path}\n")


def register(subparsers) -> None:
    import argparse

    f = subparsers.add_parser(
        "fit", help="train an algorithm on a CSV file (features then label)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=examples_epilog(
            "exactlin fit perceptron examples/data/seed000-example1.csv --json",
            "exactlin fit perceptron examples/data/seed000-example1.csv --bias first --param eta=1/2 --trace "
            "--format latex",
            "exactlin fit linear-machine data.csv --label-column label --save model.json",
            "exactlin fit svm-hard examples/data/seed000-example1.csv --plot svm.svg",
            "exactlin fit svm-hard examples/data/seed000-example1.csv --arithmetic fraction --json",
            "cat data.tsv | exactlin fit perceptron - --delimiter tab --positive cat"))
    f.add_argument("algorithm", help="an algorithm name (exactlin algorithms lists them; letter case is ignored)")
    f.add_argument("data", help="CSV: feature columns then the label (--label-column: another column); optional "
                                "header; # comments; - reads standard input")
    f.add_argument("--bias", choices=["none", "first", "last"], default=None,
                   help="augmentation with a constant 1 (default: the algorithm's, as its lecture has it)")
    f.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="an algorithm parameter, e.g. eta=1/2, w0=0,0,1, eta=1/k (repeatable)")
    f.add_argument("--positive", default=None, metavar="LABEL", help="the label that counts as +1")
    f.add_argument("--max-epochs", type=int, default=None, metavar="N")
    f.add_argument("--trace", action="store_true", help="record and print every step")
    f.add_argument("--json", action="store_true", help="print one JSON object (= --format json)")
    f.add_argument("--format", choices=FORMATS, default=None,
                   help="text (default), json, or the final result and the trace as a LaTeX document (booktabs "
                        "tables), a PDF (pdflatex; needs Debian's texlive-latex-recommended and lmodern), Markdown "
                        "or CSV tables")
    f.add_argument("--save", default=None, metavar="MODEL.json",
                   help="write the prediction model and its metadata (for exactlin predict), atomically")
    f.add_argument("--save-result", default=None, metavar="RESULT.json",
                   help="write the result with its exact rows and claims, atomically (exactlin check RESULT.json "
                        "re-checks it, as does the stand-alone exactlin/exactlin_check.py)")
    add_input_digits_arg(f)
    add_arithmetic_arg(f)
    f.add_argument("--plot", default=None, metavar="FILE.svg|FILE.png",
                   help="draw the data, the boundary (Fisher: the threshold w.x = y0), an SVM's margins and support "
                        "vectors, and the boundary after each update, for two-dimensional data (needs matplotlib: "
                        "pip install 'exactlin[plot]')")
    add_data_args(f)
    f.set_defaults(handler=cmd_fit)
