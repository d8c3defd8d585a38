"""The worked solution a student would write, for any run: ``exactlin explain`` and the exercises' answer keys.

:func:`explain` turns a :class:`~exactlin.model.run.Run` into a small document (:class:`Doc`: headings,
paragraphs, tables and lists whose math pieces carry both a LaTeX and a plain form), and :func:`render` writes it
as markdown, a standalone LaTeX document or an offline HTML page.  The document has the setup in the notes'
notation (augmented samples x~_i and normalized samples y_i x~_i), each step with its test and update (long runs:
the first ``head`` and last ``tail`` steps and the count left out), the stop and why, the checks (recomputed here
from the data with exact Fractions, not read from the run) and, where the convergence theorem applies, the proof
with this run's numbers.  Every number is written by :mod:`exactlin.exact.format`; the text is plain ASCII.
"""

from __future__ import annotations

import html as _html
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from exactlin.exact.format import latex, latex_text, text

__all__ = ["M", "Doc", "mv", "explain", "explain_blocks", "render", "FORMATS"]

FORMATS = ("markdown", "latex", "html")


@dataclass(frozen=True)
class M:
    """An inline math piece: its LaTeX (math mode) and its plain-text form."""

    tex: str
    plain: str


def mv(v: Any) -> M:
    """A value as inline math, by the one number rule."""
    return M(latex(v), text(v))


@dataclass
class Doc:
    """A document: a title and blocks ``("h", level, segs)``, ``("p", segs)``, ``("ul", [segs, ...])``,
    ``("table", header, rows)``; ``segs`` is a list of str (text) and :class:`M` (math)."""

    title: str
    blocks: list = field(default_factory=list)

    def h(self, level: int, *segs) -> None:
        self.blocks.append(("h", level, list(segs)))

    def p(self, *segs) -> None:
        self.blocks.append(("p", list(segs)))

    def ul(self, items: list) -> None:
        if items:
            self.blocks.append(("ul", [list(s) for s in items]))

    def table(self, header: list, rows: list) -> None:
        self.blocks.append(("table", [_segs(c) for c in header], [[_segs(c) for c in r] for r in rows]))

    def extend(self, other: Doc) -> None:
        self.blocks.extend(other.blocks)


def _segs(c) -> list:
    if isinstance(c, list):
        return c
    if isinstance(c, (str, M)):
        return [c]
    return [mv(c)]


# ----------------------------------------------------------------------------- exact helpers (independent)
def _dot(u, v) -> Fraction:
    s = Fraction(0)
    for a, b in zip(u, v):
        s += Fraction(a) * Fraction(b)
    return s


def _vec(v) -> tuple:
    return tuple(Fraction(x) for x in v)


def _rows(Y) -> list[tuple]:
    if hasattr(Y, "fraction_rows"):
        return [tuple(r) for r in Y.fraction_rows()]
    return [_vec(r) for r in Y]


# ----------------------------------------------------------------------------- the derivation
_PERCEPTRON_TEST = {
    "perceptron": ("y_t \\langle w_t, x_t \\rangle \\le 0", "y_t <w_t, x_t> <= 0"),
    "fixed-increment": ("a_k^t y_k \\le 0", "a_k^t y_k <= 0"),
}

_SCORE_NAME = {
    "perceptron": ("y_t \\langle w_t, x_t \\rangle", "y_t <w_t, x_t>"),
    "fixed-increment": ("a_k^t y_k", "a_k^t y_k"),
}


def explain(run, *, head: int = 10, tail: int = 5, title: str | None = None) -> Doc:
    """The worked solution of ``run`` as a :class:`Doc`."""
    doc = Doc(title or f"Worked solution: {run.algorithm}")
    doc.extend(explain_blocks(run, head=head, tail=tail))
    return doc


def explain_blocks(run, *, head: int = 10, tail: int = 5, level: int = 2) -> Doc:
    from exactlin.algorithms import get

    spec = get(run.algorithm)
    doc = Doc("")
    prob = run.problem
    binary = prob is not None and hasattr(prob, "Z")
    doc.h(level, "Setup")
    doc.p(f"Algorithm: {spec.title}" + (f" ({spec.number})" if spec.number else "") + f", lecture notes {spec.seed}.")
    if prob is not None and hasattr(prob, "data"):
        X = _rows(prob.data.X)
        labels = list(prob.data.y)
        n = len(X)
        if binary:
            Y, z = _rows(prob.Y), list(prob.z)
            where = {"none": "no bias entry: x~_i = x_i", "first": "x~_i = (1, x_i), the bias entry first",
                     "last": "x~_i = (x_i, 1), the bias entry last"}[run.bias]
            doc.p(f"n = {n} samples in dimension {len(X[0])}; augmented ({where}); labels y_i in {{+1, -1}}"
                  + _classes(labels, z) + "; normalized samples y_i x~_i.")
            doc.table(["i", M("x_i", "x_i"), "label", M("y_i", "y_i"), M("\\tilde x_i", "x~_i"),
                       M("y_i \\tilde x_i", "y_i x~_i")],
                      [[str(i + 1), mv(X[i]), mv(labels[i]), mv(z[i]), mv(Y[i]), mv(tuple(z[i] * v for v in Y[i]))]
                       for i in range(n)])
        else:
            doc.p(f"n = {n} samples in dimension {len(X[0])}, classes {text(tuple(run.extras.get('classes', ())))}"
                  + (f"; augmented with bias {run.bias}" if run.bias != "none" else "") + ".")
            doc.table(["i", M("x_i", "x_i"), "class"], [[str(i + 1), mv(X[i]), mv(labels[i])] for i in range(n)])
    params = {k: v for k, v in run.params.items() if v is not None and k not in ("max_epochs",)}
    if params:
        doc.p("Parameters: ", *_join([[M(f"\\text{{{latex_text(k)}}}", k), " = ", _val(v)] for k, v in params.items()]),
              ".")
    _steps(doc, run, head, tail, level)
    _stop(doc, run, level)
    _results(doc, run, level)
    _checks(doc, run, level, binary)
    _theorem(doc, run, level, head, tail)
    return doc


def _classes(labels: list, z: list) -> str:
    """Which label of the data the run took as +1 and which as -1 (said whenever the labels are not y_i)."""
    if labels == list(z):
        return ""
    pos = next((lab for lab, s in zip(labels, z) if s == 1), None)
    neg = next((lab for lab, s in zip(labels, z) if s == -1), None)
    parts = ([f"the positive class {text(pos)} is +1"] if pos is not None else []) + (
        [f"the label {text(neg)} is -1"] if neg is not None else [])
    return " (" + ", ".join(parts) + ")"


def _val(v) -> Any:
    """A value as math, or as words (yes/no, names) when it is not a number."""
    if isinstance(v, (bool, str)):
        return text(v) if isinstance(v, bool) else v
    return mv(v)


def _join(parts: list[list], sep: str = ", ") -> list:
    out: list = []
    for j, p in enumerate(parts):
        if j:
            out.append(sep)
        out.extend(p)
    return out


def _cut(items: list, head: int, tail: int) -> tuple[list, int, list]:
    if len(items) <= head + tail:
        return items, 0, []
    return items[:head], len(items) - head - tail, items[-tail:]


def _steps(doc: Doc, run, head: int, tail: int, level: int) -> None:
    if not run.trace:
        if run.steps == 0 and not run.updates:
            doc.h(level, "Computation")
            doc.p("No iteration: the solution is computed in closed form (below) and verified.")
        return
    doc.h(level, "Steps")
    prob = run.problem
    first = run.trace[0]
    if first.w_before is not None:
        doc.p("Start: ", M("w_1", "w_1"), " = ", mv(first.w_before), ".")
    test = _PERCEPTRON_TEST.get(run.algorithm)
    if test:
        doc.p("At step t the rule tests ", M(*test), " (a mistake) and then updates ",
              M("w_{t+1} = w_t + \\eta\\, y_t x_t", "w_{t+1} = w_t + eta y_t x_t")
              if run.algorithm == "perceptron" else M("a_{k+1} = a_k + y_k", "a_{k+1} = a_k + y_k"),
              "; otherwise the weights stay.")
    else:
        doc.p("Each step lists the quantity the rule tests (score), whether it updates, and the weights after it.")
    shown, left, last = _cut(list(run.trace), head, tail)
    items = [_step_item(s, prob, run) for s in shown]
    if left:
        items.append([f"... {left} steps left out ..."])
        items += [_step_item(s, prob, run) for s in last]
    doc.ul(items)
    if not run.trace_complete:
        doc.p(f"(The trace keeps {len(run.trace)} of the run's {run.steps} steps.)")


def _step_item(s, prob, run) -> list:
    where = f"step {s.k} (pass {s.epoch})" + (f", sample {s.i + 1}" if s.i is not None else ", all samples")
    test = _PERCEPTRON_TEST.get(run.algorithm)
    if test and s.i is not None:
        name = M(*_SCORE_NAME[run.algorithm])
        segs: list = [where, ": ", name, " = ", mv(s.score), " <= 0, a mistake" if s.update else " > 0, correct"]
    else:
        segs = [where, ": score ", mv(s.score)]
    if s.update:
        segs.append(", update")
        if s.w_before is not None and s.w_after is not None and s.i is not None and prob is not None \
                and hasattr(prob, "Z") and run.algorithm in _PERCEPTRON_TEST:
            delta = tuple(b - a for a, b in zip(s.w_before, s.w_after))
            segs += [": ", mv(s.w_before), " + ", mv(delta), " = ", mv(s.w_after)]
        elif s.w_after is not None:
            segs += [": w = ", mv(s.w_after)]
    else:
        segs.append(", no update")
    info = {k: v for k, v in s.info.items() if v is not None and not isinstance(v, (dict,))}
    if info:
        segs += ["; "] + _join([[M(f"\\text{{{latex_text(k)}}}", k), " = ",
                                 mv(tuple(j + 1 for j in v) if (k == "Y" and s.i is None) else v)]
                                for k, v in info.items()], "; ")
    return segs


def _stop(doc: Doc, run, level: int) -> None:
    doc.h(level, "Stop")
    doc.p(f"The run stops with reason \"{run.reason}\": {run.reason_text}. Updates K = {run.updates}, "
          f"passes {run.epochs}, steps {run.steps}.")


_RESULT_KEYS = ("b", "e", "y0", "threshold", "m1", "m2", "S_W", "J", "alpha", "support_vectors", "norm2_w",
                "margin_squared", "verdict", "separable", "min_functional_margin")


def _results(doc: Doc, run, level: int) -> None:
    doc.h(level, "Result")
    items = []
    if run.w is not None:
        items.append([M("w", "w"), " = ", mv(run.w), f" (augmented, bias {run.bias})" if run.bias != "none" else ""])
    if "W" in run.extras:
        for c, wc in zip(run.extras["classes"], run.extras["W"]):
            items.append([M(f"w_{{{latex_text(c)}}}", f"w_{c}"), " = ", mv(wc)])
    for key in _RESULT_KEYS:
        v = run.extras.get(key)
        if v is None:
            continue
        if key == "support_vectors":
            v = tuple(i + 1 for i in v)
            items.append(["support vectors (1-based): ", mv(v)])
            continue
        items.append([M(f"\\text{{{latex_text(key)}}}", key), " = ", _val(v)])
    doc.ul(items)


def _checks(doc: Doc, run, level: int, binary: bool) -> None:
    doc.h(level, "Checks")
    prob = run.problem
    cert = run.extras.get("certificate")
    if binary and run.w is not None and run.reason != "not_separable":
        Y, z = _rows(prob.Y), list(prob.z)
        w = _vec(run.w)
        rows, wrong = [], 0
        for i, (yi, x) in enumerate(zip(z, Y)):
            g = _dot(w, x)
            ok = yi * g > 0
            wrong += not ok
            rows.append([str(i + 1), mv(g), mv(yi * g), "correct" if ok else "WRONG"])
        doc.p("Each sample recomputed exactly with the final weights:")
        doc.table(["i", M("g(x_i) = \\langle w, \\tilde x_i \\rangle", "g(x_i) = <w, x~_i>"),
                   M("y_i\\, g(x_i)", "y_i g(x_i)"), "sign"], rows)
        doc.p(f"{len(Y) - wrong} of {len(Y)} samples on the correct side (y_i g(x_i) > 0)"
              + ("." if wrong == 0 else f"; {wrong} not."))
    if cert:
        doc.p(f"Certificate ({cert.get('kind')}), verified by the independent checker: "
              f"{'yes' if cert.get('verified') else 'no'}.")
        if cert.get("kind") in ("gordan",) and binary:
            Z = [tuple(zi * v for v in x) for zi, x in zip(prob.z, _rows(prob.Y))]
            lam = _vec(cert["lambda"])
            total = tuple(sum((lam[i] * Z[i][j] for i in range(len(Z))), Fraction(0)) for j in range(len(Z[0])))
            doc.ul([[M("\\lambda", "lambda"), " = ", mv(lam)],
                    [M("\\sum_i \\lambda_i", "sum lambda_i"), " = ", mv(sum(lam, Fraction(0)))],
                    [M("\\sum_i \\lambda_i y_i \\tilde x_i", "sum_i lambda_i y_i x~_i"), " = ", mv(total)]])
            doc.p("Since every lambda_i >= 0, they sum to 1 and the weighted sum of the normalized samples is 0, "
                  "sum_i lambda_i y_i <w, x~_i> = 0 for every w: no w has y_i <w, x~_i> > 0 for all i, so the data "
                  "are not linearly separable.")
        elif cert.get("kind") == "separator":
            doc.ul([[M("a", "a"), " = ", mv(cert["a"])], [M("\\min_i (Y a)_i", "min_i (Y a)_i"), " = ",
                                                          mv(cert["min_Ya"])]])
        if cert.get("meaning"):
            doc.p(cert["meaning"])
    kkt = run.extras.get("kkt")
    if isinstance(kkt, dict) and kkt.get("verified"):
        doc.p("KKT conditions verified exactly: " + ", ".join(kkt.get("conditions", ())) + "; primal objective ",
              mv(kkt.get("primal_objective")), " = dual objective ", mv(kkt.get("dual_objective")), ".")
    if run.extras.get("penrose_verified"):
        doc.p("The pseudoinverse satisfies the four Penrose equations (checked exactly).")


def _theorem(doc: Doc, run, level: int, head: int, tail: int) -> None:
    mon = run.extras.get("monitor")
    if mon is None:
        note = run.extras.get("monitor_note")
        if note:
            doc.h(level, "Convergence theorem")
            doc.p(f"Not instantiated: {note}.")
        return
    doc.h(level, "Convergence theorem, with this run's numbers")
    doc.p("Take ", M("w^*", "w*"), " = ", mv(mon.w_star), f" ({mon.w_star_source}). Then ",
          M("\\gamma = \\min_i y_i \\langle w^*, \\tilde x_i \\rangle", "gamma = min_i y_i <w*, x~_i>"), " = ",
          mv(mon.gamma_min), ", ", M("R^2 = \\max_i \\lVert \\tilde x_i\\rVert^2", "R^2 = max_i ||x~_i||^2"), " = ",
          mv(mon.R2), ", ", M("\\lVert w^*\\rVert^2", "||w*||^2"), " = ", mv(mon.norm2_w_star), ", ", M("\\eta", "eta"),
          " = ", mv(mon.eta), ".")
    doc.p("Fact 1: each mistake raises ", M("\\langle w_{t+1}, w^* \\rangle", "<w_{t+1}, w*>"), " by at least ",
          M("\\eta\\gamma", "eta gamma"), "; Fact 2: each mistake raises ",
          M("\\lVert w_{t+1}\\rVert^2", "||w_{t+1}||^2"),
          " by at most ", M("\\eta^2 R^2", "eta^2 R^2"), ". At each mistake:")
    rows = list(mon.rows)
    shown, left, last = _cut(rows, head, tail)

    def row(r):
        return [str(r["K"]), mv(r["proj"]), mv(r["proj_lower"]), mv(r["norm2"]), mv(r["norm2_upper"])]

    body = [row(r) for r in shown]
    if left:
        body.append([f"({left} left out)", "", "", "", ""])
        body += [row(r) for r in last]
    doc.table(["mistake", M("\\langle w_{t+1}, w^* \\rangle", "<w_{t+1}, w*>"), "lower bound",
               M("\\lVert w_{t+1}\\rVert^2", "||w_{t+1}||^2"), "upper bound"], body)
    doc.p("So ", M(f"K = {mon.K} \\le R^2 \\lVert w^*\\rVert^2 / \\gamma^2 = {latex(mon.bound)}",
                   f"K = {mon.K} <= R^2 ||w*||^2 / gamma^2 = {text(mon.bound)}"),
          f" (checked at all {mon.checked} mistakes: {'holds' if mon.holds else 'FAILS'}).")


# ----------------------------------------------------------------------------- writers
def render(doc: Doc, fmt: str = "markdown") -> str:
    """``doc`` as ``markdown``, ``latex`` (a standalone document) or ``html`` (one offline page)."""
    if fmt == "markdown":
        return _markdown(doc)
    if fmt == "latex":
        return _latex(doc)
    if fmt == "html":
        return _html_page(doc)
    from exactlin.errors import ParameterError

    raise ParameterError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}", parameter="format")


def _md(segs) -> str:
    return "".join(f"${s.tex}$" if isinstance(s, M) else s for s in segs)


def _markdown(doc: Doc) -> str:
    out = [f"# {doc.title}", ""]
    for b in doc.blocks:
        if b[0] == "h":
            out += ["#" * b[1] + " " + _md(b[2]), ""]
        elif b[0] == "p":
            out += [_md(b[1]), ""]
        elif b[0] == "ul":
            out += ["- " + _md(s) for s in b[1]] + [""]
        elif b[0] == "table":
            out.append("| " + " | ".join(_md(c) for c in b[1]) + " |")
            out.append("|" + "|".join("---" for _ in b[1]) + "|")
            out += ["| " + " | ".join(_md(c) for c in r) + " |" for r in b[2]]
            out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def _tx(segs) -> str:
    return "".join(f"${s.tex}$" if isinstance(s, M) else latex_text(s) for s in segs)


_LATEX_HEAD = ("\\documentclass[11pt]{article}\n\\usepackage{amsmath,amssymb}\n\\usepackage{booktabs}\n"
               "\\usepackage[margin=2cm]{geometry}\n\\setlength{\\parindent}{0pt}\n\\setlength{\\parskip}{0.5em}\n")


def _latex(doc: Doc) -> str:
    out = [_LATEX_HEAD + f"\\title{{{latex_text(doc.title)}}}\n\\date{{}}", "\\begin{document}", "\\maketitle", ""]
    for b in doc.blocks:
        if b[0] == "h":
            out += [("\\section*{" if b[1] <= 2 else "\\subsection*{") + _tx(b[2]) + "}", ""]
        elif b[0] == "p":
            out += [_tx(b[1]), ""]
        elif b[0] == "ul":
            out += ["\\begin{itemize}"] + ["  \\item " + _tx(s) for s in b[1]] + ["\\end{itemize}", ""]
        elif b[0] == "table":
            out.append("\\begin{tabular}{" + "l" * len(b[1]) + "}")
            out += ["\\toprule", " & ".join(_tx(c) for c in b[1]) + " \\\\", "\\midrule"]
            out += [" & ".join(_tx(c) for c in r) + " \\\\" for r in b[2]]
            out += ["\\bottomrule", "\\end{tabular}", ""]
    out.append("\\end{document}")
    return "\n".join(out) + "\n"


def _ht(segs) -> str:
    return "".join(f"<span class=\"math\">{_html.escape(s.plain)}</span>" if isinstance(s, M) else _html.escape(s)
                   for s in segs)


_CSS = ("body{font-family:serif;max-width:60em;margin:2em auto;padding:0 1em}"
        "table{border-collapse:collapse;margin:0.5em 0}td,th{border:1px solid #999;padding:2px 8px;text-align:left}"
        ".math{font-family:monospace;white-space:nowrap}")


def _html_page(doc: Doc) -> str:
    out = ["<!DOCTYPE html>", "<html lang=\"en\">", "<head>", "<meta charset=\"utf-8\">",
           f"<title>{_html.escape(doc.title)}</title>", f"<style>{_CSS}</style>", "</head>", "<body>",
           f"<h1>{_html.escape(doc.title)}</h1>"]
    for b in doc.blocks:
        if b[0] == "h":
            lv = min(b[1], 6)
            out.append(f"<h{lv}>{_ht(b[2])}</h{lv}>")
        elif b[0] == "p":
            out.append(f"<p>{_ht(b[1])}</p>")
        elif b[0] == "ul":
            out.append("<ul>" + "".join(f"<li>{_ht(s)}</li>" for s in b[1]) + "</ul>")
        elif b[0] == "table":
            th = "".join(f"<th>{_ht(c)}</th>" for c in b[1])
            trs = "".join("<tr>" + "".join(f"<td>{_ht(c)}</td>" for c in r) + "</tr>" for r in b[2])
            out.append(f"<table><thead><tr>{th}</tr></thead><tbody>{trs}</tbody></table>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"
