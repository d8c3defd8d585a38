"""Rendering of Runs, traces and worked examples: plain-text tables, LaTeX (booktabs), HTML.

One renderer for the CLI, the notebooks (``Run._repr_html_``) and the docs site.
Every number is printed exactly (``-4/3``), never rounded, by the one rule of :mod:`exactlin.exact.format`.
"""

from __future__ import annotations

import html
from typing import Any

from exactlin.exact.format import fmt, latex, text

__all__ = ["fmt_value", "trace_table", "text_table", "run_text", "trace_latex", "run_html", "example_text",
           "example_dict", "latex_value", "certificate_fields", "CERTIFICATE_FIELDS", "SUMMARY_EXTRAS",
           "summary_extras"]


#: the plain-text rule (:func:`exactlin.exact.format.text`), under the name the renderers have always used
fmt_value = text
#: the LaTeX rule (:func:`exactlin.exact.format.latex`)
latex_value = latex


def trace_table(run, *, vectors: bool = True) -> tuple[list[str], list[list[str]]]:
    """Header and rows of a run's trace: k, epoch, i, x, y, score, update, w before/after, extra info."""
    prob = run.problem
    info_keys: list[str] = []
    for s in run.trace:
        for key in s.info:
            if key not in info_keys:
                info_keys.append(key)
    has_vec = vectors and any(s.w_after is not None for s in run.trace)
    header = ["k", "epoch", "i"]
    if prob is not None and hasattr(prob, "Y"):
        header += ["x", "y"]
    header += ["score", "update"]
    if has_vec:
        header += ["w before", "w after"]
    header += info_keys
    rows = []
    for s in run.trace:
        row = [str(s.k), str(s.epoch), "" if s.i is None else str(s.i + 1)]
        if prob is not None and hasattr(prob, "Y"):
            if s.i is not None:
                row += [fmt_value(prob.data.X[s.i]), fmt_value(prob.data.y[s.i])]
            else:
                row += ["(all)", ""]
        row += [fmt_value(s.score), "update" if s.update else "-"]
        if has_vec:
            row += [fmt_value(s.w_before), fmt_value(s.w_after)]
        row += [fmt_value(s.info.get(key)) for key in info_keys]
        rows.append(row)
    return header, rows


def text_table(header: list[str], rows: list[list[str]]) -> str:
    widths = [len(h) for h in header]
    for r in rows:
        for j, c in enumerate(r):
            widths[j] = max(widths[j], len(c))
    line = lambda cells: "  ".join(c.rjust(widths[j]) if j < 3 else c.ljust(widths[j])  # noqa: E731
                                   for j, c in enumerate(cells)).rstrip()
    out = [line(header), "  ".join("-" * w for w in widths)]
    out += [line(r) for r in rows]
    return "\n".join(out)


#: the extras a run's summary shows, in this order, wherever it is shown: ``exactlin fit``'s text, the
#: notebook HTML and the docs site (each prints ``name: value`` by its own format of the one number rule)
SUMMARY_EXTRAS: tuple[str, ...] = ("b", "y0", "verdict", "separable", "separates", "margin", "mistake_bound",
                                   "final_w", "averaged_w")


def summary_extras(run) -> list[tuple[str, Any]]:
    """``(name, value)`` for each of :data:`SUMMARY_EXTRAS` the run has (not None), in that order."""
    return [(key, run.extras[key]) for key in SUMMARY_EXTRAS if run.extras.get(key) is not None]


def run_text(run, *, trace: bool = True) -> str:
    lines = [f"algorithm: {run.algorithm}" + (f"   (seed {run.seed})" if run.seed else "")]
    if run.w is not None:
        lines.append(f"w = {fmt_value(run.w)}   (bias: {run.bias})")
    if "W" in run.extras and "classes" in run.extras:
        for c, wc in zip(run.extras["classes"], run.extras["W"]):
            lines.append(f"w[{c}] = {fmt_value(wc)}")
    lines.append(f"converged: {'yes' if run.converged else 'no'}   reason: {run.reason} ({run.reason_text})")
    lines.append(f"updates: {run.updates}   epochs: {run.epochs}   steps: {run.steps}")
    params = {k: v for k, v in run.params.items() if v is not None}
    if params:
        lines.append("params: " + ", ".join(f"{k}={fmt_value(v)}" for k, v in params.items()))
    for key, value in summary_extras(run):
        lines.append(f"{key}: {fmt_value(value)}")
    cert = run.extras.get("certificate")
    if cert:
        lines.append(f"certificate ({cert.kind}, verified: {cert.verified}): " + certificate_fields(cert)
                     if hasattr(cert, "fields") else
                     f"certificate ({cert.get('kind')}, verified: {cert.get('verified')}): " + certificate_fields(cert))
        for key in ("meaning", "features"):  # sentences, one line each
            if cert.get(key):
                lines.append(f"  {cert[key]}")
    mon = run.extras.get("monitor")
    if mon is not None:
        lines.append(
            f"convergence monitor: w* = {fmt_value(mon.w_star)} ({mon.w_star_source}); gamma_min = "
            f"{fmt(mon.gamma_min)}, R^2 = {fmt(mon.R2)}, ||w*||^2 = {fmt(mon.norm2_w_star)}; "
            f"K = {mon.K} <= bound {fmt_value(mon.bound)} (slack {fmt_value(mon.slack)}); Facts 1 and 2 checked "
            f"at all {mon.checked} mistakes")
    elif run.extras.get("monitor_note"):
        lines.append(f"convergence monitor: {run.extras['monitor_note']}")
    if trace and run.trace:
        header, rows = trace_table(run)
        lines.append("")
        lines.append(text_table(header, rows))
        if not run.trace_complete:
            lines.append(f"(trace shows the first {len(run.trace)} of {run.steps} steps; pass trace=True for all)")
    return "\n".join(lines)


#: the fields each certificate kind holds, in the order the text report prints them (``kind``, ``verified`` and
#: ``meaning`` are printed around them); a kind not listed prints every field it has
CERTIFICATE_FIELDS: dict[str, tuple[str, ...]] = {
    "separator": ("a", "min_Ya", "b"),  # a separator: Y a > 0, min_i (Y a)_i, and the intercept where there is one
    "gordan": ("lambda", "e", "cycle", "support"),  # lambda >= 0, sum 1, sum_i lambda_i y_i = 0 (and its origin)
    "gordan-kesler": ("lambda", "kesler_pairs"),
}

_CERT_FRAME = ("kind", "verified", "meaning", "features")


def certificate_fields(cert) -> str:
    """``name = value`` for the fields a certificate of its kind holds (never a field it lacks): a typed certificate
    (:mod:`exactlin.model.certificates`, read through its ``fields()``) or a dict read from older JSON."""
    fields = cert.fields() if hasattr(cert, "fields") else {k: v for k, v in cert.items() if k not in _CERT_FRAME}
    names = CERTIFICATE_FIELDS.get(cert.get("kind"))
    if names is None:
        names = tuple(k for k in fields if k not in _CERT_FRAME)
    return "; ".join(f"{k} = {fmt_value(fields[k])}" for k in names if fields.get(k) is not None)


def trace_latex(run) -> str:
    """The trace as a booktabs LaTeX table with exact fractions."""
    prob = run.problem
    header = ["$k$", "$i$", "$x$", "$y$", "score", "update", "$w$ after"]
    lines = [r"\begin{tabular}{rrllrll}", r"\toprule", " & ".join(header) + r" \\", r"\midrule"]
    for s in run.trace:
        x = latex_value(prob.data.X[s.i]) if (prob is not None and s.i is not None and hasattr(prob, "data")) else ""
        y = latex_value(prob.data.y[s.i]) if (prob is not None and s.i is not None and hasattr(prob, "data")) else ""
        cells = [str(s.k), "" if s.i is None else str(s.i + 1), f"${x}$", f"${y}$", f"${latex_value(s.score)}$",
                 "yes" if s.update else "no", f"${latex_value(s.w_after)}$" if s.w_after is not None else ""]
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines)


def run_html(run) -> str:
    summary = html.escape(run_text(run, trace=False)).replace(chr(10), "<br>")
    head = f"<p><b>{html.escape(run.algorithm)}</b>: {summary}</p>"
    if not run.trace:
        return head
    header, rows = trace_table(run)
    th = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    trs = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"{head}<table><thead><tr>{th}</tr></thead><tbody>{trs}</tbody></table>"


def example_text(ex, result, *, trace: bool = True) -> str:
    bar = "=" * 78
    lines = [bar, f"{ex.id}: {ex.title}", f"(lecture notes: {ex.seed})", bar]
    for run in result.runs:
        lines.append(run_text(run, trace=trace))
        lines.append("")
    for key, val in result.data.items():
        lines.append(f"{key}: {fmt_value(val)}")
    if result.data:
        lines.append("")
    lines.append("checks against the lecture:")
    for c in result.checks:
        mark = "ok  " if c.ok else "FAIL"
        lines.append(f"  [{mark}] {c.what}: expected {fmt_value(c.expected)} ({c.source}), got {fmt_value(c.actual)}")
    for n in result.notes:
        lines.append(f"  note: {n}")
    lines.append(f"verified: {'yes' if result.ok else 'NO'}")
    return "\n".join(lines)


def example_dict(ex, result) -> dict:
    from exactlin._version import __version__
    from exactlin.model.serialize import to_jsonable

    return {
        "exactlin_version": __version__,
        "id": ex.id,
        "title": ex.title,
        "seed": ex.seed,
        "verified": result.ok,
        "checks": [c.to_dict() for c in result.checks],
        "notes": result.notes,
        "data": to_jsonable(result.data),
        "runs": [r.to_dict() for r in result.runs],
    }
