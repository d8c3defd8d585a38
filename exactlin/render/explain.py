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
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from exactlin.exact.format import latex, latex_text, text
from exactlin.exact.numbers import dot
from exactlin.render.latex import latex_columns, latex_document, math_inline

__all__ = ["latex_title", "M", "Doc", "mv", "explain", "explain_blocks", "render", "FORMATS"]

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
    ``("table", header, rows)``, ``("eq", M)`` (a displayed equation); ``segs`` is a list of str (text) and
    :class:`M` (math)."""

    title: str
    blocks: list = field(default_factory=list)

    def h(self, level: int, *segs) -> None:
        self.blocks.append(("h", level, list(segs)))

    def p(self, *segs) -> None:
        self.blocks.append(("p", list(segs)))

    def eq(self, tex: str, plain: str) -> None:
        """A displayed equation (its LaTeX and its plain form)."""
        self.blocks.append(("eq", M(tex, plain)))

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
def _vec(v) -> tuple:
    return tuple(Fraction(x) for x in v)


def _rows(Y) -> list[tuple]:
    if hasattr(Y, "fraction_rows"):
        return [tuple(r) for r in Y.fraction_rows()]
    return [_vec(r) for r in Y]


# ----------------------------------------------------------------------------- the derivation
def explain(run, *, head: int = 10, tail: int = 5, title: str | None = None, notes: str | None = None,
            show_params: tuple | None = None) -> Doc:
    """The worked solution of ``run`` as a :class:`Doc`.  ``notes``: the lecture notes' title (the run's seed
    file name when not given); ``show_params``: the parameters the setup lists (default: those a reader sets,
    see :func:`shown_params`)."""
    doc = Doc(title or f"Worked solution: {algorithm_title(run.algorithm)}")
    doc.extend(explain_blocks(run, head=head, tail=tail, notes=notes, show_params=show_params))
    return doc


def algorithm_title(name: str) -> str:
    """The algorithm's title as a student reads it: without the "(seed N)" tag the registry uses to tell the
    lecture notes apart (a reader is told the notes' title instead)."""
    from exactlin.algorithms import get

    t = get(name).title
    t = re.sub(r"\s*\(seed \d+\)|, exact and KKT-certified", "", t)
    return re.sub(r"^Seed \d+'s ", "The notes' ", t)


#: parameters that steer the computation, not the mathematics (budgets, verification switches, solver choices):
#: never listed in a derivation's setup
INTERNAL_PARAMS = ("stop_on_cycle", "monitor", "tightest_bound", "variant", "exact_only", "w_star", "singular",
                   "distance", "pinv", "strict")

#: parameters written as the notes' symbols
_PARAM_SYMBOL = {"eta": "\\eta", "theta": "\\theta", "b": "b", "C": "C", "alpha": "\\alpha",
                 "epsilon": "\\epsilon", "eta1": "\\eta(1)", "k_max": "k_{\\max}", "xi": "\\xi", "T": "T",
                 "w0": "w_1", "a0": "a(1)", "b0": "b(1)", "b_min": "b_{\\min}", "R": "R", "a_plus": "a^+",
                 "a_minus": "a^-", "coef0": "c_0"}


def rule_notation(run):
    """How the notes write the test and update of the rule that made ``run`` (its registered
    ``AlgorithmSpec.notation``); None when the rule declares none or the run names no registered algorithm."""
    from exactlin.algorithms import REGISTRY, load

    load(run.algorithm)
    spec = REGISTRY.get(run.algorithm)
    return spec.notation if spec is not None else None


def shown_params(run) -> dict:
    """The parameters a derivation's setup lists: every non-internal one whose value the reader chose (differs
    from the default) and the notes' named constants (eta, theta, b, ...) always; never a budget (``max_*``), and
    a kernel's degree and offset only under the kernel that uses them."""
    from exactlin.algorithms import get

    defaults = {p.name: p.default for p in get(run.algorithm).params}
    out = {}
    for k, v in run.params.items():
        if v is None or k.startswith("max_") or k in INTERNAL_PARAMS or k not in defaults:
            continue
        if k in ("degree", "coef0") and run.params.get("kernel") in (None, "linear"):
            continue
        if k in _PARAM_SYMBOL or v != defaults[k]:
            out[k] = v
    return out


def _param_name(k: str) -> M | str:
    return M(_PARAM_SYMBOL[k], k) if k in _PARAM_SYMBOL else k


def _label(v) -> Any:
    """A label as the data has it: a number as math, a word as text (escaped by each format)."""
    return v if isinstance(v, str) else mv(v)


def explain_blocks(run, *, head: int = 10, tail: int = 5, level: int = 2, notes: str | None = None,
                   show_params: tuple | None = None) -> Doc:
    from exactlin.algorithms import get

    spec = get(run.algorithm)
    doc = Doc("")
    prob = run.problem
    binary = prob is not None and hasattr(prob, "Z")
    doc.h(level, "Setup")
    doc.p(*_mathify(f"Algorithm: {algorithm_title(run.algorithm)}" + (f" ({spec.number})" if spec.number else "")
                    + f"; lecture notes: {notes or spec.seed}."))
    data = _data(prob)
    if data is not None:
        X = _rows(data.X)
        labels = list(data.y)
        n = len(X)
        if binary:
            Y, z = _rows(prob.Y), list(prob.z)
            where = {"none": ["no bias entry: ", M("\\tilde x_i = x_i", "x~_i = x_i")],
                     "first": [M("\\tilde x_i = (1, x_i)", "x~_i = (1, x_i)"), ", the bias entry first"],
                     "last": [M("\\tilde x_i = (x_i, 1)", "x~_i = (x_i, 1)"), ", the bias entry last"]}[run.bias]
            doc.p(M(f"n = {n}", f"n = {n}"), " samples in dimension ", M(f"d = {len(X[0])}", f"d = {len(X[0])}"),
                  "; augmented (", *where, "); labels ", M("y_i \\in \\{+1, -1\\}", "y_i in {+1, -1}"),
                  *_classes(labels, z), "; normalized samples ", M("y_i \\tilde x_i", "y_i x~_i"), ".")
            doc.table(["i", M("x_i", "x_i"), "label", M("y_i", "y_i"), M("\\tilde x_i", "x~_i"),
                       M("y_i \\tilde x_i", "y_i x~_i")],
                      [[str(i + 1), mv(X[i]), _label(labels[i]), mv(z[i]), mv(Y[i]),
                        mv(tuple(z[i] * v for v in Y[i]))] for i in range(n)])
        else:
            classes = list(run.extras.get("classes", ()))
            doc.p(M(f"n = {n}", f"n = {n}"), " samples in dimension ", M(f"d = {len(X[0])}", f"d = {len(X[0])}"),
                  ", classes ", *_join([[_label(c)] for c in classes]),
                  *(([", augmented with the bias entry ", run.bias]) if run.bias != "none" else []), ".")
            doc.table(["i", M("x_i", "x_i"), "class"], [[str(i + 1), mv(X[i]), _label(labels[i])] for i in range(n)])
    if show_params is None:
        params = shown_params(run)
    else:
        params = {k: run.params[k] for k in show_params if run.params.get(k) is not None}
    if params:
        doc.p("Parameters: ", *_join([_is(_param_name(k), v) for k, v in params.items()]), ".")
    _steps(doc, run, head, tail, level)
    if spec.iterative:
        _stop(doc, run, level)
    _svm_derivation(doc, run, level)
    _results(doc, run, level)
    _checks(doc, run, level, binary)
    _theorem(doc, run, level, head, tail)
    return doc


def _is(name, v) -> list:
    """``name = value``: one formula when the name is mathematics and the value a number, else words."""
    if isinstance(name, M) and not isinstance(v, (bool, str)) and v is not None:
        return [M(f"{name.tex} = {latex(v)}", f"{name.plain} = {text(v)}")]
    return [name, " = " if isinstance(name, M) else ": ", _val(v)]


#: plain-text formulas that other modules' sentences carry (stop reasons, certificate meanings, titles, notes),
#: with their LaTeX: :func:`_mathify` sets them as mathematics
_PLAIN_MATH = (
    ("y_i <a, x~_i> >= min_Ya", "y_i \\langle a, \\tilde x_i \\rangle \\ge \\min_i (Y a)_i"),
    ("sum_i lambda_i y_i x_i = 0", "\\sum_i \\lambda_i y_i x_i = 0"),
    ("a^t(k+1)y - b = (1 - eta)(a^t(k)y - b)", "a^t(k+1)\\, y - b = (1 - \\eta)(a^t(k)\\, y - b)"),
    ("||w||^2/2 + C sum xi_i^2", "\\lVert w\\rVert^2/2 + C \\sum_i \\xi_i^2"),
    ("eta(k) = eta(1)/k", "\\eta(k) = \\eta(1)/k"),
    ("y_i<w,x_i> > 0", "y_i \\langle w, x_i \\rangle > 0"),
    ("lambda >= 0", "\\lambda \\ge 0"),
    ("a = Y^+ b", "a = Y^\\dagger b"),
    ("Y^+ b", "Y^\\dagger b"),
    ("Y a > 0", "Y a > 0"),
    ("min_Ya", "\\min_i (Y a)_i"),
    ("net = 0", "\\mathrm{net} = 0"),
    ("w_star", "w^*"),
    ("J_s", "J_s"),
)


def _mathify(sentence: str) -> list:
    """A sentence from elsewhere as segments, its known plain-text formulas (:data:`_PLAIN_MATH`) set as math."""
    segs: list = [sentence]
    for plain, tex in _PLAIN_MATH:
        out: list = []
        for sg in segs:
            if isinstance(sg, M) or plain not in sg:
                out.append(sg)
                continue
            parts = sg.split(plain)
            for j, part in enumerate(parts):
                if j:
                    out.append(M(tex, plain))
                if part:
                    out.append(part)
        segs = out
    return segs


def _data(prob):
    """The data set of a run's problem (a binary problem holds it as ``data``; a multi-class run's problem is the
    data set itself), or None."""
    data = getattr(prob, "data", prob)
    return data if data is not None and hasattr(data, "X") and hasattr(data, "y") else None


def _classes(labels: list, z: list) -> list:
    """Which label of the data the run took as +1 and which as -1 (said whenever the labels are not y_i): the
    labels as their text."""
    if labels == list(z):
        return []
    pos = next((lab for lab, s in zip(labels, z) if s == 1), None)
    neg = next((lab for lab, s in zip(labels, z) if s == -1), None)
    parts = ([["the positive class ", _label(pos), " is +1"]] if pos is not None else []) + (
        [["the label ", _label(neg), " is -1"]] if neg is not None else [])
    return [" ("] + _join(parts) + [")"]


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
        return
    doc.h(level, "Steps")
    prob = run.problem
    first = run.trace[0]
    if first.w_before is not None:
        doc.p("Start: ", M(f"w_1 = {latex(first.w_before)}", f"w_1 = {text(first.w_before)}"), ".")
    rule = rule_notation(run)  # the notes' symbols for the rule, declared where it is registered
    if rule is not None:
        doc.p("At step ", M("t", "t"), " the rule tests ", M(*rule.test), " (a mistake) and then updates ",
              M(*rule.update), "; otherwise the weights stay.")
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


#: a step's extra information, named as the notes name it
_INFO_SYMBOL = {"J_p": ("J_p", "J_p"), "J_r": ("J_r", "J_r"), "J_s": ("J_s", "J_s"),
                "E_in": ("E_{\\mathrm{in}}", "E_in"),
                "pocket_E_in": ("E_{\\mathrm{in}}(w_{\\mathrm{pocket}})", "pocket E_in"),
                "b_after": ("b_{k+1}", "b_{k+1}"), "Y": ("\\mathcal{Y}_k", "Y_k"), "eta": ("\\eta", "eta"),
                "b": ("b", "b"), "e": ("e", "e"),
                "a": ("a", "a"), "margin": ("b", "b"), "o": ("o", "o"), "t": ("t", "t")}


def _info_name(k: str) -> M | str:
    return M(*_INFO_SYMBOL[k]) if k in _INFO_SYMBOL else k


def _step_item(s, prob, run) -> list:
    where = f"step {s.k} (pass {s.epoch})" + (f", sample {s.i + 1}" if s.i is not None else ", all samples")
    rule = rule_notation(run)
    if rule is not None and s.i is not None:
        name = rule.score
        segs: list = [where, ": ", M(f"{name[0]} = {latex(s.score)} " + ("\\le 0" if s.update else "> 0"),
                                     f"{name[1]} = {text(s.score)} " + ("<= 0" if s.update else "> 0")),
                      ", a mistake" if s.update else ", correct"]
    else:
        segs = [where, ": score ", mv(s.score)]
    if s.update:
        segs.append(", update")
        if s.w_before is not None and s.w_after is not None and s.i is not None and prob is not None \
                and hasattr(prob, "Z") and rule is not None:
            delta = tuple(b - a for a, b in zip(s.w_before, s.w_after))
            segs += [": ", M(f"{latex(s.w_before)} + {latex(delta)} = {latex(s.w_after)}",
                             f"{text(s.w_before)} + {text(delta)} = {text(s.w_after)}")]
        elif s.w_after is not None:
            segs += [": ", M(f"w = {latex(s.w_after)}", f"w = {text(s.w_after)}")]
    else:
        segs.append(", no update")
    info = {k: v for k, v in s.info.items() if v is not None and not isinstance(v, (dict,))}
    if info:
        segs += ["; "] + _join([_is(_info_name(k), tuple(j + 1 for j in v) if (k == "Y" and s.i is None) else v)
                                for k, v in info.items()], "; ")
    return segs


def _stop(doc: Doc, run, level: int) -> None:
    """Why this run stopped, in its own terms: for a cyclic single-sample rule, the clean steps that ended it
    (read from the trace), else the reason of its kind of algorithm; the count of updates."""
    from exactlin.render.report import short_reason

    doc.h(level, "Stop")
    data = _data(run.problem)
    n = len(data.y) if data is not None else None
    trace = list(run.trace)
    clean = 0
    for st in reversed(trace):
        if st.update or st.i is None:
            break
        clean += 1
    if run.reason == "converged" and n and run.trace_complete and clean >= n and trace:
        a, b = trace[-n].k, trace[-1].k
        doc.p(f"Steps {a} to {b}, the last {n} in a row, made no mistake: all {n} samples are classified "
              f"correctly by the current weights, so the rule stops (converged) after step {b}.")
    elif run.reason == "converged" and trace and trace[-1].i is None and not trace[-1].update:
        doc.p(f"Step {trace[-1].k} finds no misclassified sample, so the rule stops (converged).")
    else:
        doc.p(*_mathify(f"The rule stops: {short_reason(run)}."))
    K = run.updates
    doc.p(f"{K} update{'s' if K != 1 else ''} in {run.steps} step{'s' if run.steps != 1 else ''}"
          + (f" ({run.epochs} passes through the data)" if run.epochs > 1 else "") + ".")


#: the results a derivation shows, named as the notes name them
_RESULT_NAMES = {
    "b": ("b", "b"), "e": ("e = Y a - b", "e = Y a - b"), "y0": ("y_0", "y_0"), "m1": ("m_1", "m_1"),
    "m2": ("m_2", "m_2"), "S_W": ("S_W", "S_W"), "J": ("J(w)", "J(w)"), "alpha": ("\\alpha", "alpha"),
    "norm2_w": ("\\lVert w\\rVert^2", "||w||^2"), "margin_squared": ("1/\\lVert w\\rVert^2", "1/||w||^2"),
    "min_functional_margin": ("\\min_i y_i g(x_i)", "min_i y_i g(x_i)"),
}
_RESULT_WORDS = {"threshold": "threshold rule", "verdict": "verdict", "separable": "linearly separable"}
_RESULT_KEYS = ("b", "e", "y0", "threshold", "m1", "m2", "S_W", "J", "alpha", "support_vectors", "norm2_w",
                "margin_squared", "verdict", "separable", "min_functional_margin")


def _results(doc: Doc, run, level: int) -> None:
    from exactlin.render.report import bias_split, is_intercept

    doc.h(level, "Result")
    items = []
    split = bias_split(run.w, run.bias) if run.w is not None else None
    # an intercept b next to the augmented w (its role in exactlin.model.extras): the feature part and b once
    if is_intercept(run, "b"):
        items.append([*_is(M("w", "w"), split[0]), " (the feature weights)"])
    elif run.w is not None:
        items.append(_is(M("w", "w"), run.w) + ([" (augmented: ", M("\\tilde x_i", "x~_i"), f" has its "
                                                          f"bias entry {run.bias})"] if run.bias != "none" else []))
    if "W" in run.extras:
        for c, wc in zip(run.extras["classes"], run.extras["W"]):
            items.append(["class ", _label(c), ": ", *_is(M("a", "a"), wc)])
    for key in _RESULT_KEYS:
        v = run.extras.get(key)
        if v is None:
            continue
        if key == "support_vectors":
            items.append(["support vectors: samples ", ", ".join(str(i + 1) for i in v)])
            continue
        if key == "threshold" and isinstance(v, str):
            items.append(["threshold: ", M(f"y_0^{{({latex_text(v)})}}", f"y0^({v})")])
            continue
        name = M(*_RESULT_NAMES[key]) if key in _RESULT_NAMES else _RESULT_WORDS.get(key, key)
        items.append(_is(name, v))
    doc.ul(items)


def solve_square(A: list, rhs: list) -> tuple | None:
    """The solution of the square system A x = rhs by exact Gaussian elimination (None when A is singular)."""
    n = len(A)
    m = [[Fraction(v) for v in r] + [Fraction(c)] for r, c in zip(A, rhs)]
    for c in range(n):
        piv = next((r for r in range(c, n) if m[r][c] != 0), None)
        if piv is None:
            return None
        m[c], m[piv] = m[piv], m[c]
        for r in range(n):
            if r != c and m[r][c] != 0:
                f = m[r][c] / m[c][c]
                m[r] = [a - f * b for a, b in zip(m[r], m[c])]
    return tuple(m[r][n] / m[r][r] for r in range(n))


def _matrix(rows: list, fmt) -> tuple[str, str]:
    """A matrix as LaTeX (pmatrix) and as plain text (rows in brackets)."""
    tex = "\\begin{pmatrix} " + " \\\\ ".join(" & ".join(latex(v) for v in r) for r in rows) + " \\end{pmatrix}"
    plain = "[" + "; ".join(" ".join(text(v) for v in r) for r in rows) + "]"
    return tex, plain


def _svm_derivation(doc: Doc, run, level: int) -> None:
    """The hard-margin SVM's answer derived: the active set, the KKT linear system on it, its exact solution,
    alpha, w, b, the margin and the check that the guess is optimal (recomputed here with Fractions)."""
    ex = run.extras
    prob = run.problem
    kkt = ex.get("kkt")
    if (ex.get("alpha") is None or ex.get("support_vectors") is None or not hasattr(kkt, "get")
            or kkt.get("loss") != "hard" or run.params.get("kernel", "linear") != "linear"
            or prob is None or not hasattr(prob, "z") or not hasattr(prob, "data")):
        return
    X = [_vec(x) for x in _rows(prob.data.X)]
    z = [int(v) for v in prob.z]
    S = [i for i, a in enumerate(ex["alpha"]) if Fraction(a) > 0]
    m, d = len(S), len(X[0])
    doc.h(level, "Derivation")
    doc.p("The Lagrangian of minimizing ", M("\\tfrac12 \\lVert w\\rVert^2", "||w||^2 / 2"), " subject to ",
          M("y_i (w^t x_i + b) \\ge 1", "y_i (w^t x_i + b) >= 1"), " gives the KKT conditions ",
          M("w = \\sum_i \\alpha_i y_i x_i", "w = sum_i alpha_i y_i x_i"), ", ",
          M("\\sum_i \\alpha_i y_i = 0", "sum_i alpha_i y_i = 0"), ", ", M("\\alpha_i \\ge 0", "alpha_i >= 0"),
          ", and ", M("\\alpha_i = 0", "alpha_i = 0"), " unless ", M("y_i (w^t x_i + b) = 1", "y_i (w^t x_i + b) = 1"),
          ". The problem is convex, so any point meeting them is the optimum.")
    Sset = "\\{" + ", ".join(str(i + 1) for i in S) + "\\}"
    doc.p("Active set: the support vectors, the samples whose constraint holds with equality, are ",
          M(f"S = {Sset}", "S = {" + ", ".join(str(i + 1) for i in S) + "}"), ". On ", M("S", "S"),
          " the constraints are equations; substituting ", M("w = \\sum_{j \\in S} \\alpha_j y_j x_j",
                                                           "w = sum_{j in S} alpha_j y_j x_j"),
          " gives a linear system in ", M("(\\alpha_S, b)", "(alpha_S, b)"), ":")
    doc.eq("\\sum_{j \\in S} \\alpha_j\\, y_i y_j \\langle x_i, x_j \\rangle + y_i b = 1 \\quad (i \\in S), "
           "\\qquad \\sum_{j \\in S} \\alpha_j y_j = 0",
           "sum_{j in S} alpha_j y_i y_j <x_i, x_j> + y_i b = 1 (i in S),  sum_{j in S} alpha_j y_j = 0")
    A = [[z[i] * z[j] * dot(X[i], X[j]) for j in S] + [z[i]] for i in S] + [[z[j] for j in S] + [0]]
    rhs = [1] * m + [0]
    unknowns = [f"\\alpha_{{{i + 1}}}" for i in S] + ["b"]
    At, Ap = _matrix(A, latex)
    doc.p("With the numbers of the data:")
    col = " \\\\ "
    doc.eq(f"{At} \\begin{{pmatrix}} {col.join(unknowns)} \\end{{pmatrix}} = "
           f"\\begin{{pmatrix}} {col.join(str(v) for v in rhs)} \\end{{pmatrix}}",
           f"{Ap} (" + ", ".join(f"alpha_{i + 1}" for i in S) + ", b) = (" + ", ".join(map(str, rhs)) + ")")
    sol = solve_square(A, rhs)
    if sol is None:
        doc.p("This system is singular (the multipliers are not unique); the run's multipliers solve it.")
        alpha_S = [Fraction(ex["alpha"][i]) for i in S]
        b = Fraction(ex["b"])
    else:
        alpha_S, b = list(sol[:m]), sol[m]
        doc.p("Its exact solution (Gaussian elimination): ",
              *_join([[M(f"\\alpha_{{{i + 1}}} = {latex(a)}", f"alpha_{i + 1} = {text(a)}")]
                      for i, a in zip(S, alpha_S)]), ", ", M(f"b = {latex(b)}", f"b = {text(b)}"),
              "; every other ", M("\\alpha_i = 0", "alpha_i = 0"), ".")
    w = tuple(sum((a * z[i] * X[i][k] for a, i in zip(alpha_S, S)), Fraction(0)) for k in range(d))
    terms = " + ".join(f"{latex(a * z[i])} {latex(X[i])}" for a, i in zip(alpha_S, S)).replace("+ -", "- ")
    terms_p = " + ".join(f"{text(a * z[i])} {text(X[i])}" for a, i in zip(alpha_S, S))
    doc.p("Then ", M(f"w = \\sum_{{j \\in S}} \\alpha_j y_j x_j = {terms} = {latex(w)}",
                     f"w = {terms_p} = {text(w)}"), ".")
    n2 = dot(w, w)
    doc.p("The margin: ", M(f"\\lVert w\\rVert^2 = {latex(n2)}", f"||w||^2 = {text(n2)}"), ", so ",
          M(f"1/\\lVert w\\rVert = {latex(ex['margin'])}" if ex.get("margin") is not None else
            f"1/\\lVert w\\rVert^2 = {latex(1 / n2)}",
            f"1/||w|| = {text(ex['margin'])}" if ex.get("margin") is not None else f"1/||w||^2 = {text(1 / n2)}"),
          " (the distance from the hyperplane to the nearest samples).")
    rows = []
    ok = all(a >= 0 for a in alpha_S)
    for i in range(len(X)):
        g = z[i] * (dot(w, X[i]) + b)
        ok = ok and g >= 1 and (i not in S or g == 1)
        rows.append([str(i + 1), mv(z[i]), mv(g), "= 1 (support vector)" if i in S else ("> 1" if g > 1 else
                                                                                         ("= 1" if g == 1 else "< 1"))])
    doc.p("Check: every constraint holds and the support vectors are exactly on the margin:")
    doc.table(["i", M("y_i", "y_i"), M("y_i (w^t x_i + b)", "y_i (w^t x_i + b)"), ""], rows)
    doc.p(("Every " if ok else "NOT every ") + "KKT condition holds: ", M("\\alpha_i \\ge 0", "alpha_i >= 0"),
          ", ", M("y_i (w^t x_i + b) \\ge 1", "y_i (w^t x_i + b) >= 1"), ", equality where ",
          M("\\alpha_i > 0", "alpha_i > 0"), (", so this is the maximum-margin hyperplane." if ok else "."))


def _checks(doc: Doc, run, level: int, binary: bool) -> None:
    doc.h(level, "Checks")
    prob = run.problem
    cert = run.extras.get("certificate")
    if binary and run.w is not None and run.reason != "not_separable":
        Y, z = _rows(prob.Y), list(prob.z)
        w = _vec(run.w)
        # a rule with a threshold y_0 (Fisher) decides by w^t x > y_0: g(x) = w^t x - y_0
        y0 = run.extras.get("y0")
        y0 = Fraction(y0) if isinstance(y0, (int, Fraction)) and not isinstance(y0, bool) else None
        rows, wrong = [], 0
        for i, (yi, x) in enumerate(zip(z, Y)):
            g = dot(w, x) - (y0 or 0)
            ok = yi * g > 0
            wrong += not ok
            rows.append([str(i + 1), mv(g), mv(yi * g), "correct" if ok else "WRONG"])
        doc.p("Each sample recomputed exactly with the final weights:")
        doc.table(["i", M("g(x_i) = \\langle w, \\tilde x_i \\rangle", "g(x_i) = <w, x~_i>") if y0 is None else
                   M("g(x_i) = w^t x_i - y_0", "g(x_i) = w^t x_i - y_0"), M("y_i\\, g(x_i)", "y_i g(x_i)"), "sign"],
                  rows)
        doc.p(f"{len(Y) - wrong} of {len(Y)} samples on the correct side (", M("y_i\\, g(x_i) > 0", "y_i g(x_i) > 0"),
              ")" + ("." if wrong == 0 else f"; {wrong} not."))
    if cert:
        doc.p(f"Certificate ({cert.get('kind')}), verified by the independent checker: "
              f"{'yes' if cert.get('verified') else 'no'}.")
        if cert.get("kind") in ("gordan",) and binary:
            Z = [tuple(zi * v for v in x) for zi, x in zip(prob.z, _rows(prob.Y))]
            lam = _vec(cert["lambda"])
            total = tuple(sum((lam[i] * Z[i][j] for i in range(len(Z))), Fraction(0)) for j in range(len(Z[0])))
            doc.ul([_is(M("\\lambda", "lambda"), lam),
                    _is(M("\\sum_i \\lambda_i", "sum lambda_i"), sum(lam, Fraction(0))),
                    _is(M("\\sum_i \\lambda_i y_i \\tilde x_i", "sum_i lambda_i y_i x~_i"), total)])
            doc.p("Since every ", M("\\lambda_i \\ge 0", "lambda_i >= 0"), ", they sum to 1 and the weighted sum of "
                  "the normalized samples is 0, ",
                  M("\\sum_i \\lambda_i y_i \\langle w, \\tilde x_i \\rangle = 0",
                    "sum_i lambda_i y_i <w, x~_i> = 0"), " for every w: no w has ",
                  M("y_i \\langle w, \\tilde x_i \\rangle > 0", "y_i <w, x~_i> > 0"),
                  " for all i, so the data are not linearly separable.")
        elif cert.get("kind") == "separator":
            doc.ul([_is(M("a", "a"), cert["a"]), _is(M("\\min_i (Y a)_i", "min_i (Y a)_i"), cert["min_Ya"])])
        if cert.get("meaning"):
            doc.p(*_mathify(cert["meaning"]))
    kkt = run.extras.get("kkt")
    if hasattr(kkt, "get") and kkt.get("verified"):
        doc.p("KKT conditions verified exactly: " + ", ".join(kkt.get("conditions", ())) + "; primal objective ",
              M(f"{latex(kkt.get('primal_objective'))} = {latex(kkt.get('dual_objective'))}",
                f"{text(kkt.get('primal_objective'))} = {text(kkt.get('dual_objective'))}"), " (equal primal and dual "
              "objectives).")
    if run.extras.get("penrose_verified"):
        doc.p("The pseudoinverse satisfies the four Penrose equations (checked exactly).")


def _theorem(doc: Doc, run, level: int, head: int, tail: int) -> None:
    mon = run.extras.get("monitor")
    if mon is None:
        note = run.extras.get("monitor_note")
        if note:
            doc.h(level, "Convergence theorem")
            doc.p(*_mathify(f"Not instantiated: {note}."))
        return
    doc.h(level, "Convergence theorem, with this run's numbers")
    eta = getattr(mon, "eta", None)
    doc.p("Take ", M(f"w^* = {latex(mon.w_star)}", f"w* = {text(mon.w_star)}"), f" ({mon.w_star_source}). Then ",
          M(f"\\gamma = \\min_i y_i \\langle w^*, \\tilde x_i \\rangle = {latex(mon.gamma_min)}",
            f"gamma = min_i y_i <w*, x~_i> = {text(mon.gamma_min)}"), ", ",
          M(f"R^2 = \\max_i \\lVert \\tilde x_i\\rVert^2 = {latex(mon.R2)}",
            f"R^2 = max_i ||x~_i||^2 = {text(mon.R2)}"),
          ", ", M(f"\\lVert w^*\\rVert^2 = {latex(mon.norm2_w_star)}", f"||w*||^2 = {text(mon.norm2_w_star)}"),
          *([", ", M(f"\\eta = {latex(eta)}", f"eta = {text(eta)}")] if eta is not None else []), ".")
    if not hasattr(mon, "rows"):  # the batch rule: the bound limits the number M of corrections
        bound = ([M(f"M = {mon.K} \\le {latex(mon.bound)}", f"M = {mon.K} <= {text(mon.bound)}")]
                 if mon.bound is not None else [M(f"M = {mon.K}", f"M = {mon.K}"), " (no bound with varying steps)"])
        doc.p("Batch Facts 1 and 2 hold at every iteration; the number of corrections (samples added over all "
              f"{mon.iterations} correcting iterations) is ", *bound,
              f" (checked at {mon.checked} iterations: {'holds' if mon.holds else 'FAILS'}).")
        return
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
    out = [f"# {_md(_mathify(doc.title))}", ""]
    for b in doc.blocks:
        if b[0] == "h":
            out += ["#" * b[1] + " " + _md(b[2]), ""]
        elif b[0] == "p":
            out += [_md(b[1]), ""]
        elif b[0] == "eq":
            out += ["$$", b[1].tex, "$$", ""]
        elif b[0] == "ul":
            out += ["- " + _md(s) for s in b[1]] + [""]
        elif b[0] == "table":
            out.append("| " + " | ".join(_md(c) for c in b[1]) + " |")
            out.append("|" + "|".join("---" for _ in b[1]) + "|")
            out += ["| " + " | ".join(_md(c) for c in r) + " |" for r in b[2]]
            out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def latex_title(title: str) -> str:
    """A title as LaTeX: escaped text, its known plain-text formulas set as math."""
    return _tx(_mathify(title))


def _tx(segs) -> str:
    return "".join(math_inline(s.tex) if isinstance(s, M) else latex_text(s) for s in segs)


def _latex(doc: Doc) -> str:
    out = []
    for b in doc.blocks:
        if b[0] == "h":
            out += [("\\section*{" if b[1] <= 2 else "\\subsection*{") + _tx(b[2]) + "}", ""]
        elif b[0] == "p":
            out += [_tx(b[1]), ""]
        elif b[0] == "eq":
            out += ["\\[", b[1].tex, "\\]", ""]
        elif b[0] == "ul":
            out += ["\\begin{itemize}"] + ["  \\item " + _tx(s) for s in b[1]] + ["\\end{itemize}", ""]
        elif b[0] == "table":
            widths = [max(len(_plain(c)) for c in col) for col in zip(b[1], *b[2])]
            out.append("\\begin{longtable}{" + latex_columns(widths) + "}")
            out += ["\\toprule", " & ".join(_tx(c) for c in b[1]) + " \\\\", "\\midrule", "\\endhead"]
            out += [" & ".join(_tx(c) for c in r) + " \\\\" for r in b[2]]
            out += ["\\bottomrule", "\\end{longtable}", ""]
    return latex_document(doc.title, "\n".join(out), title_tex=_tx(_mathify(doc.title)))


def _mathml(tex: str, display: bool) -> str | None:
    """MathML of a LaTeX formula (latex2mathml, the ``html`` extra; ASCII with character references), or None
    when latex2mathml is not installed or cannot read the formula."""
    try:
        from latex2mathml.converter import convert
    except ImportError:
        return None
    try:
        out = convert(tex, display="block" if display else "inline")
    except Exception:  # noqa: BLE001 - a formula latex2mathml cannot read falls back to its plain form
        return None
    out = re.sub(r' xmlns="[^"]*"', "", out)  # HTML5 knows <math>: no namespace (and no address in the page)
    return out.encode("ascii", "xmlcharrefreplace").decode("ascii")


def _math_html(m: M, display: bool = False) -> str:
    ml = _mathml(m.tex, display)
    if ml is not None:
        return ml
    tag = "div" if display else "span"
    return f"<{tag} class=\"math\">{_html.escape(m.plain)}</{tag}>"


def _plain(segs) -> str:
    return "".join(s.plain if isinstance(s, M) else s for s in segs)


def _ht(segs) -> str:
    return "".join(_math_html(s) if isinstance(s, M) else _html.escape(s) for s in segs)


_CSS = ("body{font-family:serif;max-width:60em;margin:2em auto;padding:0 1em}"
        ".table{overflow-x:auto}table{border-collapse:collapse;margin:0.5em 0}"
        "td,th{border:1px solid #999;padding:2px 8px;text-align:left}"
        ".math{font-family:monospace;white-space:nowrap}math{font-size:1.1em}.note{color:#555;font-size:90%}")

#: shown at the top of an HTML page whose formulas could not be typeset (latex2mathml missing)
NO_MATHML_NOTE = ("Formulas are shown as plain text: install latex2mathml (pip install 'exactlin[html]') for "
                  "typeset mathematics.")


def _html_page(doc: Doc) -> str:
    out = ["<!DOCTYPE html>", "<html lang=\"en\">", "<head>", "<meta charset=\"utf-8\">",
           f"<title>{_html.escape(doc.title)}</title>", f"<style>{_CSS}</style>", "</head>", "<body>",
           f"<h1>{_ht(_mathify(doc.title))}</h1>"]
    if _mathml("x", False) is None:
        out.append(f"<p class=\"note\">{_html.escape(NO_MATHML_NOTE)}</p>")
    for b in doc.blocks:
        if b[0] == "h":
            lv = min(b[1], 6)
            out.append(f"<h{lv}>{_ht(b[2])}</h{lv}>")
        elif b[0] == "p":
            out.append(f"<p>{_ht(b[1])}</p>")
        elif b[0] == "eq":
            out.append(_math_html(b[1], display=True))
        elif b[0] == "ul":
            out.append("<ul>" + "".join(f"<li>{_ht(s)}</li>" for s in b[1]) + "</ul>")
        elif b[0] == "table":
            th = "".join(f"<th>{_ht(c)}</th>" for c in b[1])
            trs = "".join("<tr>" + "".join(f"<td>{_ht(c)}</td>" for c in r) + "</tr>" for r in b[2])
            out.append(f"<div class=\"table\"><table><thead><tr>{th}</tr></thead><tbody>{trs}</tbody></table></div>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"
