"""Rendering of Runs, traces and worked examples: plain-text tables, LaTeX (booktabs), HTML.

One renderer for the CLI, the notebooks (``Run._repr_html_``) and the docs site.
Every number is printed by the one rule of :mod:`exactlin.exact.format`: exactly (``-4/3``), and a long rational
or an irrational with its correctly rounded decimal next to it.  Samples are numbered from 1 in everything
printed here (JSON and Python keep 0-based indices).
"""

from __future__ import annotations

import html
from typing import Any

from exactlin.data.labels import label_text
from exactlin.exact.format import display, latex, text

__all__ = ["fmt_value", "trace_table", "text_table", "run_text", "trace_latex", "run_html", "example_text",
           "example_dict", "latex_value", "certificate_fields", "CERTIFICATE_FIELDS", "SUMMARY_EXTRAS",
           "summary_extras", "short_reason", "weights_text", "one_based", "training_errors", "head_tail",
           "TRACE_ROWS", "example_summary", "main_job_text"]


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
                row += [fmt_value(prob.data.X[s.i]), label_text(prob.data.y[s.i])]
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


#: one short reason per stop reason and, for "converged", per kind of algorithm (the JSON keeps the long
#: generic ``reason_text``)
SHORT_REASONS: dict[str, str] = {
    "criterion": "its stopping criterion was met",
    "solved": "solved exactly and verified",
    "cycle": "the weights returned exactly to an earlier state: it never converges",
    "not_separable": "a verified certificate shows the data are not linearly separable",
    "max_epochs": "the bound on passes was reached first",
    "max_updates": "the bound on updates was reached first",
    "max_steps": "the bound on steps was reached",
    "bit_limit": "a number exceeded the bit-length limit",
    "time_limit": "the time limit was reached",
    "boundary": "no update in a full cycle, yet some samples lie on the boundary (score 0)",
    "no_mistakes": "no sample was misclassified at the start",
    "undefined": "the rule is undefined here (e.g. a zero-norm sample)",
}
def short_reason(run) -> str:
    """One short sentence: why this run stopped; for "converged", in the words of its kind of run
    (:func:`exactlin.model.extras.converged_text`: read from the run, never from the algorithm's name)."""
    if run.reason == "converged":
        from exactlin.model.extras import converged_text

        return converged_text(run)
    return SHORT_REASONS.get(run.reason, run.reason_text)


def _families(run) -> tuple[str | None, str | None]:
    """The run's family and, for a composition (``extras["inner_algorithm"]``), the inner algorithm's."""
    spec = spec_of(run)
    inner = run.extras.get("inner_algorithm")
    inner_spec = spec_of(inner) if isinstance(inner, str) else None
    return (spec.family if spec is not None else None), (inner_spec.family if inner_spec is not None else None)


def extras_problems(run) -> list[str]:
    """What in ``run.extras`` the schema (:mod:`exactlin.model.extras`) does not declare, or declares with
    another kind: the run's family (and, for a composition, the inner algorithm's) from the registry."""
    from exactlin.model.extras import problems

    return problems(run.extras, *_families(run))


def extra_key(run, key: str):
    """The schema's :class:`~exactlin.model.extras.Key` of ``run.extras[key]`` for the run's family (None: not
    declared)."""
    from exactlin.model.extras import declared

    return declared(*_families(run)).get(key)


def extra_meaning(run, key: str) -> str | None:
    """What ``run.extras[key]`` means (the schema's words for the run's family)."""
    k = extra_key(run, key)
    return k.meaning if k is not None else None


def is_intercept(run, key: str) -> bool:
    """``run.extras[key]`` is the intercept that the w line already names (the schema's role, and the value is
    w's bias entry)."""
    k = extra_key(run, key)
    split = bias_split(run.w, run.bias) if run.w is not None else None
    return k is not None and k.role == "intercept" and split is not None and run.extras.get(key) == split[1]


def spec_of(run):
    """The registry's spec of a run's algorithm (or of an algorithm's name); None for a name none registers."""
    from exactlin.algorithms import REGISTRY, load

    name = run if isinstance(run, str) else run.algorithm
    load(name)  # its own module (every family only for a name the index does not know)
    return REGISTRY.get(name)


def weights_text(w, bias: str) -> str:
    """``w = (...)`` named the same way by every command: the augmented vector, and with a bias entry its
    feature part and the bias entry b."""
    s = f"w = {fmt_value(tuple(w))}"
    split = bias_split(w, bias)
    if split is not None:
        s += f"   (bias entry {bias}: features {fmt_value(split[0])}, intercept {fmt_value(split[1])})"
    elif bias == "none":
        s += "   (no bias entry: through the origin)"
    return s


def bias_split(w, bias: str):
    """(feature part, intercept) of an augmented w with its bias entry first or last; None for bias none."""
    if bias in ("first", "last") and w is not None and len(w) >= 1:
        return (tuple(w[1:]), w[0]) if bias == "first" else (tuple(w[:-1]), w[-1])
    return None


def one_based(v):
    """0-based sample indices (an int, or a sequence of them) as a person counts them, from 1."""
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, int):
        return v + 1
    if isinstance(v, (list, tuple)):
        return tuple(one_based(x) for x in v)
    return v


def _labels_line(run) -> str | None:
    prob = run.problem
    z, data = getattr(prob, "z", None), getattr(prob, "data", None)
    if z is None or data is None or not hasattr(data, "y"):
        return None
    pos = next((lab for lab, zi in zip(data.y, z) if zi == 1), None)
    neg = next((lab for lab, zi in zip(data.y, z) if zi == -1), None)
    if pos is None or neg is None or (pos == 1 and neg == -1 and type(pos) is int):
        return None
    return f"labels: +1 = {label_text(pos)}, -1 = {label_text(neg)}"  # a label by its text: True, not yes


def training_errors(run) -> tuple[int, int, list[int]] | None:
    """(misclassified, n, their 0-based indices) of the run's model on its own training data (a sample the
    model leaves undefined counts as misclassified); None without a model or data."""
    data = getattr(run.problem, "data", None)
    if run.model is None or data is None or not hasattr(data, "X"):
        return None
    try:
        pred = run.model.predict(list(data.X))
    except Exception:  # noqa: BLE001 - a model that cannot predict here shows no line
        return None
    bad = [i for i, (p, t) in enumerate(zip(pred, data.y)) if p is None or p != t]
    return len(bad), len(data.y), bad


def _indices_text(idx: list[int], limit: int = 12) -> str:
    shown = ", ".join(str(i + 1) for i in idx[:limit])
    return shown + (f", ... ({len(idx) - limit} more)" if len(idx) > limit else "")


#: results that are sample indices (0-based in JSON and Python): printed from 1
_INDEX_EXTRAS = ("support_vectors", "on_threshold", "undefined", "pocket_from_step_never")


def _extra_lines(run) -> list[str]:
    ex = run.extras
    lines = []
    if "E_in" in ex:
        n = len(getattr(run.problem, "z", ()) or ()) or None
        lines.append(f"E_in (pocket weights): {fmt_value(ex['E_in'])}"
                     + (f"   last PLA weights: E_in = {fmt_value(ex['E_in_pla'])}" if "E_in_pla" in ex else "")
                     + (f"   (pocket taken at step {ex['pocket_from_step']})" if ex.get("pocket_from_step")
                        is not None else "") + (f"   of n = {n} samples" if n else ""))
    if "alpha" in ex and "support_vectors" in ex:
        sv = ex["support_vectors"]
        lines.append(f"support vectors (samples): {fmt_value(one_based(tuple(sv)))}")
        lines.append(f"alpha: {fmt_value(ex['alpha'])}")
        kkt = ex.get("kkt")
        if kkt is not None and hasattr(kkt, "get"):  # a typed KKT certificate (or a dict from older JSON)
            lines.append(f"KKT conditions ({kkt.get('loss', '')} loss): verified {fmt_value(kkt.get('verified'))}")
        elif kkt is not None:
            lines.append(f"KKT conditions: verified {fmt_value(kkt)}")
        if ex.get("objective") is not None:
            lines.append(f"objective: {fmt_value(ex['objective'])}")
        if ex.get("xi") is not None:
            lines.append(f"slacks xi: {fmt_value(ex['xi'])}")
    if "S_W" in ex and "m1" in ex:
        if ex.get("J") is not None:
            lines.append(f"J(w) = w^t S_B w / w^t S_W w: {fmt_value(ex['J'])}")
        lines.append(f"means: m1 = {fmt_value(ex.get('m1'))}, m2 = {fmt_value(ex.get('m2'))};"
                     f" projected: {fmt_value(ex.get('mt1'))}, {fmt_value(ex.get('mt2'))}")
        lines.append(f"S_W: {fmt_value(ex.get('S_W'))}")
        if ex.get("threshold") is not None:
            lines.append(f"threshold deciding: y0^({ex['threshold']})"
                         + (f"; on the threshold (samples): {fmt_value(one_based(tuple(ex['on_threshold'])))}"
                            if ex.get("on_threshold") else ""))
    if ex.get("undefined"):
        lines.append(f"undefined (samples, a tie): {fmt_value(one_based(tuple(ex['undefined'])))}")
    return lines


def shown_param(run, k, v) -> bool:
    """Whether a run's summary shows parameter ``k``: not a None (unset) value, not the bound on passes of an
    algorithm that makes none (the registry's ``iterative``), not a kernel's degree and offset under the linear
    kernel."""
    if v is None:
        return False
    if k == "max_epochs":
        spec = spec_of(run)
        if spec is not None and not spec.iterative:
            return False
    if k in ("degree", "coef0") and run.params.get("kernel") in (None, "linear"):
        return False
    return True


def run_text(run, *, trace: bool = True, max_rows: int | None = None) -> str:
    """The whole result in text: what ``--json`` carries, readable; nothing that means nothing for the
    algorithm.  ``max_rows``: show a long trace's head and tail (:func:`head_tail`)."""
    spec = spec_of(run)
    title = f" ({spec.title})" if spec is not None and spec.title else ""
    lines = [f"algorithm: {run.algorithm}{title}" + (f"   (seed {run.seed})" if run.seed else "")]
    lab = _labels_line(run)
    if lab:
        lines.append(lab)
    if run.w is not None:
        lines.append(weights_text(run.w, run.bias))
    if "W" in run.extras and "classes" in run.extras:
        for c, wc in zip(run.extras["classes"], run.extras["W"]):
            lines.append(f"w[{label_text(c)}] = {fmt_value(wc)}")
    lines.append(f"converged: {'yes' if run.converged else 'no'}   reason: {run.reason} ({short_reason(run)})")
    if spec is None or spec.iterative:
        lines.append(f"updates: {run.updates}   epochs: {run.epochs}   steps: {run.steps}")
    params = {k: v for k, v in run.params.items() if shown_param(run, k, v)}
    if params:
        lines.append("params: " + ", ".join(f"{k}={fmt_value(v)}" for k, v in params.items()))
    for key, value in summary_extras(run):
        if key == "final_w" and run.w is not None and tuple(value) == tuple(run.w):
            continue
        if is_intercept(run, key):
            continue  # the intercept, already named on the w line
        lines.append(f"{key}: {fmt_value(value)}")
    lines += _extra_lines(run)
    te = training_errors(run)
    if te is not None and (not run.converged or te[0] > 0) and run.reason != "not_separable":
        k, n, bad = te
        lines.append(f"training errors: {k} of {n}" + (f" (samples {_indices_text(bad)})" if bad else "")
                     + "   (the final model on its own training data)")
    cert = run.extras.get("certificate")
    if cert:
        lines.append(f"certificate ({cert.get('kind')}, verified: {fmt_value(cert.get('verified'))}): "
                     + certificate_fields(cert))
        for key in ("meaning", "features"):  # sentences, one line each
            if cert.get(key):
                lines.append(f"  {cert[key]}")
    mon = run.extras.get("monitor")
    if mon is not None and hasattr(mon, "w_star"):
        checked = mon.checked
        lines.append(
            f"convergence monitor: w* = {fmt_value(mon.w_star)} ({mon.w_star_source}); gamma_min = "
            f"{fmt_value(mon.gamma_min)}, R^2 = {fmt_value(mon.R2)}, ||w*||^2 = {fmt_value(mon.norm2_w_star)}; "
            f"K = {mon.K} <= bound {fmt_value(mon.bound)} (slack {fmt_value(mon.slack)}); Facts 1 and 2 checked "
            + ("at the one mistake" if checked == 1 else f"at all {checked} mistakes" if checked else
               "(no mistake to check)"))
    elif run.extras.get("monitor_note"):
        lines.append(f"convergence monitor: {run.extras['monitor_note']}")
    if trace and run.trace:
        header, rows = trace_table(run)
        rows = head_tail(rows, max_rows, len(header))
        lines.append("")
        lines.append(text_table(header, rows))
        if not run.trace_complete:
            lines.append(f"(trace shows the first {len(run.trace)} of {run.steps} steps; pass trace=True for all)")
    return "\n".join(lines)


#: a trace longer than this shows its first and last TRACE_ROWS // 2 rows (examples show, the docs site)
TRACE_ROWS = 40


def head_tail(rows: list[list[str]], limit: int | None, width: int) -> list[list[str]]:
    """The rows, or when there are more than ``limit``: the first and last ``limit // 2`` with one row between
    saying how many are left out (the JSON has them all)."""
    if limit is None or len(rows) <= limit:
        return rows
    half = max(1, limit // 2)
    left = len(rows) - 2 * half
    return rows[:half] + [["..."] + [f"{left} rows left out (the JSON has them all)"] + [""] * max(0, width - 2)] \
        + rows[-half:]


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
    return "; ".join(f"{k} = {fmt_value(_cert_value(k, fields[k]))}" for k in names if fields.get(k) is not None)


#: certificate fields that are 0-based sample indices (printed from 1; the JSON keeps them 0-based)
_CERT_INDEX_FIELDS = ("cycle", "support")


def _cert_value(key, value):
    return one_based(tuple(value)) if key in _CERT_INDEX_FIELDS and isinstance(value, (list, tuple)) else value


def trace_latex(run, *, longtable: bool = False, max_rows: int | None = None) -> str:
    """The trace as a booktabs LaTeX table with exact fractions (``longtable``: one that breaks across pages, for
    a standalone document; ``max_rows``: a long trace's head and tail, :func:`head_tail`).  A label that is a
    word is set as text, escaped."""
    from exactlin.exact.format import latex_text
    from exactlin.render.latex import latex_columns, math_inline

    prob = run.problem
    header = ["$k$", "$i$", "$x$", "label", "score", "update", "$w$ after"]
    env = "longtable" if longtable else "tabular"
    data = getattr(prob, "data", None) if prob is not None else None
    rows, widths = [], [3, 3, 3, 5, 5, 6, 9]
    if not longtable:  # a notebook's table (MathJax): plain inline math
        def math_inline(tex):
            return f"${tex}$"

    for s in run.trace:
        x = data.X[s.i] if (data is not None and s.i is not None) else None
        lab = data.y[s.i] if (data is not None and s.i is not None) else ""
        y = latex_text(lab) if isinstance(lab, str) else f"${latex_value(lab)}$"
        plain = [str(s.k), "" if s.i is None else str(s.i + 1), "" if x is None else fmt_value(x), fmt_value(lab),
                 fmt_value(s.score), "yes", "" if s.w_after is None else fmt_value(s.w_after)]
        widths = [max(a, len(b)) for a, b in zip(widths, plain)]
        rows.append([str(s.k), "" if s.i is None else str(s.i + 1), "" if x is None else math_inline(latex_value(x)),
                     y, math_inline(latex_value(s.score)), "yes" if s.update else "no",
                     math_inline(latex_value(s.w_after)) if s.w_after is not None else ""])
    spec = latex_columns(widths) if longtable else "rrllrll"
    lines = [f"\\begin{{{env}}}{{{spec}}}", r"\toprule", " & ".join(header) + r" \\", r"\midrule"]
    if longtable:
        lines.append(r"\endhead")
    if max_rows is not None and len(rows) > max_rows:
        half = max(1, max_rows // 2)
        gap = [f"\\multicolumn{{7}}{{l}}{{\\dots\\ {len(rows) - 2 * half} steps left out (the JSON has them "
               "all)}"]
        rows = rows[:half] + [gap] + rows[-half:]
    lines += [" & ".join(cells) + r" \\" for cells in rows]
    lines += [r"\bottomrule", f"\\end{{{env}}}"]
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


def example_text(ex, result, *, trace: bool = True, max_rows: int | None = TRACE_ROWS) -> str:
    """One worked example in full (``exactlin examples show ID``): each run's whole result and trace (a long
    trace: its head and tail, :data:`TRACE_ROWS`), the example's data, every check and note."""
    bar = "=" * 78
    lines = [bar, f"{ex.id}: {ex.title}", f"(lecture notes: {ex.seed})", bar]
    for run in result.runs:
        lines.append(run_text(run, trace=trace, max_rows=max_rows))
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


#: the longest line of the main job's handout (a failure is printed in full, however long)
HANDOUT_WIDTH = 160


def _clip(s: str, width: int) -> str:
    return s if len(s) <= width else s[: width - 5].rstrip() + " ..."


def _check_kinds(checks) -> str:
    counts: dict[str, int] = {}
    for c in checks:
        try:
            kind = c.kind
        except ValueError:
            kind = "other"
        counts[kind] = counts.get(kind, 0) + 1
    return ", ".join(f"{n} {k}" for k, n in counts.items())


def _key_numbers(run) -> str:
    bits = [run.algorithm]
    if run.w is not None:
        bits.append(f"w = {fmt_value(run.w)}")
    elif run.extras.get("W") is not None:
        bits.append(f"{len(run.extras['W'])} class vectors")
    for key in ("y0", "margin", "verdict", "E_in", "J"):
        if run.extras.get(key) is not None:
            bits.append(f"{key} = {fmt_value(run.extras[key])}")
    if run.updates:
        bits.append(f"K = {run.updates}")
    bits.append(run.reason)
    return " ".join(bits[:1]) + ": " + ", ".join(bits[1:])


def example_summary(ex, result) -> list[str]:
    """A worked example in a line or two: its title, its key numbers, how many checks hold and from where;
    every failing check in full."""
    n_ok = sum(c.ok for c in result.checks)
    mark = "ok  " if result.ok else "FAIL"
    lines = [_clip(f"[{mark}] {ex.id}: {ex.title}", HANDOUT_WIDTH)]
    with display(max_digits=min(12, _cur_max_digits()), digits=_cur_digits()):
        keys = "; ".join(_key_numbers(r) for r in result.runs[:3])
        if len(result.runs) > 3:
            keys += f"; ... ({len(result.runs)} runs)"
    lines.append(_clip(f"       {len(result.checks) and n_ok} of {len(result.checks)} checks hold "
                       f"({_check_kinds(result.checks) or 'none'})" + (f"; {keys}" if keys else ""), HANDOUT_WIDTH))
    for c in result.checks:
        if not c.ok:
            lines.append(f"       FAILED {c.what}: expected {fmt_value(c.expected)} ({c.source}), "
                         f"got {fmt_value(c.actual)}")
    return lines


def _cur_max_digits() -> int:
    from exactlin.exact.format import DISPLAY

    return DISPLAY["max_digits"]


def _cur_digits() -> int:
    from exactlin.exact.format import DISPLAY

    return DISPLAY["digits"]


def main_job_text(items, errata=None) -> tuple[str, list[str]]:
    """The main job as a handout: ``items`` are (example, result or exception) pairs; returns the text and
    the ids that failed.  Each example takes a line or two; a final tally counts examples and checks by
    where their expected values come from."""
    lines = ["exactlin: every worked example of the lecture notes, reproduced exactly and checked", ""]
    failed: list[str] = []
    kinds: dict[str, int] = {}
    n_checks = n_ok = 0
    for ex, res in items:
        if isinstance(res, Exception):
            failed.append(ex.id)
            lines.append(_clip(f"[FAIL] {ex.id}: {ex.title}", HANDOUT_WIDTH))
            lines.append(f"       raised {type(res).__name__}: {res}")
            continue
        lines += example_summary(ex, res)
        if not res.ok:
            failed.append(ex.id)
        for c in res.checks:
            n_checks += 1
            n_ok += c.ok
            try:
                k = c.kind
            except ValueError:
                k = "other"
            kinds[k] = kinds.get(k, 0) + 1
    n = len(items)
    lines.append("")
    lines.append(f"{n - len(failed)} of {n} worked examples reproduced and verified"
                 + (f"; FAILED: {', '.join(failed)}" if failed else ""))
    lines.append(f"{n_ok} of {n_checks} checks hold; expected values from: "
                 + ", ".join(f"{k} {v}" for k, v in kinds.items()))
    if errata:
        lines.append(errata)
    lines.append("Full results and traces: `exactlin examples show ID`; numbers longer than "
                 f"{_cur_max_digits()} digits are shown as decimals (`--exact` prints them in full).")
    return "\n".join(lines), failed


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
