"""One template for every algorithm page: the rule derived as a textbook derives it, then how exactlin computes it.

The sections, in this order (:data:`SECTIONS`; the test checks the order on every page): the problem; the
criterion; its gradient or the geometric argument; the rule; when it stops; what it guarantees (the theorem,
then its proof instantiated on the worked example with the numbers the code computes while the site is built);
the notes' own statement with the errata beside it; and last, clearly separated, how exactlin computes it
(arithmetic, solvers, budgets, verification, the run's summary and trace).  The words are in
:mod:`exactlin.docsgen.derivation_text`; the numbers come from the run.
"""

from __future__ import annotations

import inspect
import re
from fractions import Fraction

from exactlin.docsgen.derivation_text import DERIVATIONS, GEOMETRY, GRADIENT
from exactlin.docsgen.mathtext import ascii_md, nav_title
from exactlin.exact.numbers import dot
from exactlin.lectures.notes import cite_note

#: the section headings of an algorithm page, in order; the third is GRADIENT or GEOMETRY
IMPLEMENTATION = "How exactlin computes it"
SECTIONS = ("The problem", "The criterion", (GRADIENT, GEOMETRY), "The rule", "When it stops",
            "What it guarantees", "The notes' statement", IMPLEMENTATION)


#: the page generator whose helpers (tables, pictures, run summaries, number formats) the template uses; it
#: registers itself with :func:`use_site` before rendering, so this module imports nothing above it
_SITE: list = []


def use_site(module) -> None:
    _SITE[:] = [module]


def _site():
    if not _SITE:
        raise RuntimeError("exactlin.docsgen.algopages: call use_site(exactlin.docsgen.site) first")
    return _SITE[0]


def L(v) -> str:  # noqa: N802 - short: a value as LaTeX
    return _site().latex(v)


def _rows(M) -> list[tuple]:
    return [tuple(Fraction(x) for x in r) for r in M]


def _mat(rows) -> str:
    return r"\begin{pmatrix}" + r" \\ ".join(" & ".join(L(x) for x in r) for r in rows) + r"\end{pmatrix}"


def _col(v) -> str:
    return _mat([(x,) for x in v])


# ---------------------------------------------------------------------------
# the guarantee, instantiated on the worked example (each returns Markdown; numbers recomputed here from the run)


def monitor_md(run, mon, *, gamma_min: bool = False, link_proof: bool = True) -> str:
    """The perceptron theorem's two facts at every mistake and the final bound, with the run's own numbers: the one
    rendering of a convergence monitor's report (``run.extras["monitor"]``), on an algorithm page and on the
    convergence-proof page.  ``gamma_min``: the margin is named gamma_min, as the proof page names it (else gamma,
    as the algorithm pages' theorem does); ``link_proof``: the last sentence links the proof page (from an algorithm
    page)."""
    site = _site()
    gamma = r"\gamma_{\min}" if gamma_min else r"\gamma"
    w1 = run.params.get("w0") or tuple(0 for _ in mon.w_star)
    parts = [f"* reference separator $w^* = {L(mon.w_star)}$ ({ascii_md(mon.w_star_source)})",
             f"* step $\\eta = {L(mon.eta)}$, start $w_1 = {L(w1)}$",
             f"* ${gamma} = \\min_i y_i \\langle w^*, x_i \\rangle = {L(mon.gamma_min)}$",
             f"* $R^2 = \\max_i \\|x_i\\|^2 = {L(mon.R2)}$, $\\|w^*\\|^2 = {L(mon.norm2_w_star)}$", ""]
    rows = []
    for r in mon.rows:
        rows.append([str(r["t"]), str(r["K"]), site.fmt(r["proj"]), site.fmt(r["proj_lower"]),
                     "✓" if r["proj"] >= r["proj_lower"] else "✗", site.fmt(r["norm2"]), site.fmt(r["norm2_upper"]),
                     "✓" if r["norm2"] <= r["norm2_upper"] else "✗"])
    if rows:
        parts += ["At each mistake (round $t$, the $K$-th mistake) the monitor recorded:", "",
                  site.table_html(["round $t$", "mistake $K$", "$\\langle w_{t+1}, w^* \\rangle$",
                                   f"Fact 1: at least $\\langle w_1, w^* \\rangle + K \\eta {gamma}$", "Fact 1",
                                   "$\\|w_{t+1}\\|^2$", "Fact 2: at most $\\|w_1\\|^2 + K \\eta^2 R^2$", "Fact 2"],
                                  rows, cls="exactlin-proof"), ""]
    if isinstance(mon.bound, Fraction):
        parts += ["The theorem's bound, with the run's own numbers:", "",
                  f"$$K = {mon.K} \\;\\le\\; \\frac{{R^2 \\|w^*\\|^2}}{{{gamma}^2}} = "
                  f"\\frac{{{L(mon.R2)} \\cdot {L(mon.norm2_w_star)}}}{{\\left({L(mon.gamma_min)}\\right)^2}} = "
                  f"{L(mon.bound)}$$", ""]
    else:
        parts += [f"From a start $w_1 \\ne 0$ the facts give $(a + K\\eta{gamma})^2 \\le \\|w^*\\|^2 (\\|w_1\\|^2 + "
                  f"K \\eta^2 R^2)$ with $a = \\langle w_1, w^* \\rangle$; its largest root bounds $K$: "
                  f"$K = {mon.K} \\le {L(mon.bound)}$.", ""]
    parts.append(f"Slack: the bound exceeds $K$ by {site.value_md(mon.slack)}. The theorem "
                 f"{'holds' if mon.holds else 'FAILS'} on this run"
                 + (" (every row of the [convergence proof](../../proof.md) is checked the same way)."
                    if link_proof else "."))
    return "\n".join(parts)


def _inst_monitor(run) -> str:
    mon = run.extras.get("monitor")
    if mon is None or not hasattr(mon, "rows"):
        return ""
    return monitor_md(run, mon)


def _inst_batch_monitor(run) -> str:
    mon = run.extras.get("monitor")
    if mon is None or not hasattr(mon, "iterations"):
        return ""
    text = (f"With $a^* = {L(mon.w_star)}$ ({ascii_md(mon.w_star_source)}): $\\gamma = {L(mon.gamma_min)}$, "
            f"$R^2 = {L(mon.R2)}$, $\\|a^*\\|^2 = {L(mon.norm2_w_star)}$, $n = {mon.n}$. The run made "
            f"$M = {mon.K}$ corrections in {mon.iterations} iteration(s)")
    if mon.bound is not None:
        text += f", and $$M = {mon.K} \\le {L(mon.bound)}.$$"
    else:
        text += "; with a varying step the bound is not formed."
    return text + f"\n\nBoth facts were checked at every iteration: the theorem {'holds' if mon.holds else 'FAILS'}."


def _data(run):
    prob = run.problem
    return prob, getattr(prob, "data", prob)


def _scores(run, w) -> list[Fraction]:
    prob, _ = _data(run)
    return [dot(w, z) for z in _rows(prob.Z)]


def _inst_margin_check(run) -> str:
    if run.w is None or not hasattr(run.problem, "Z"):
        return ""
    b = Fraction(run.params.get("b", 0))
    s = _scores(run, run.w)
    rel = ">" if min(s) > b else r"\le"
    return (f"The final $a = {L(run.w)}$ gives the scores $a^t y_i = {L(tuple(s))}$; the smallest is "
            f"${L(min(s))}$, and ${L(min(s))} {rel} b = {L(b)}$: the margin "
            f"{'is met' if min(s) > b else 'is not met'}.")


def _inst_voted(run) -> str:
    voted = run.extras.get("voted") or ()
    if not voted:
        return ""
    pairs = ", ".join(f"({L(tuple(v['w']))}, {L(v['c'])})" for v in voted[:12])
    text = (f"The run keeps the list $(w_m, c_m)$: ${pairs}$" + (" …" if len(voted) > 12 else "") + ". ")
    mon = run.extras.get("monitor")
    if mon is not None and hasattr(mon, "rows"):
        text += "\n\n" + monitor_md(run, mon)
    else:
        text += (f"Its {len(voted) - 1} mistakes are the perceptron's on the same data (the run was stopped after "
                 f"{run.epochs} pass(es), before a clean pass, so no separator is known to bound them).")
    return text


def _inst_averaged(run) -> str:
    voted = run.extras.get("voted") or ()
    avg = run.extras.get("averaged_w")
    if not voted or avg is None:
        return _inst_monitor(run)
    total = [Fraction(0)] * len(avg)
    for v in voted:
        total = [t + Fraction(v["c"]) * Fraction(x) for t, x in zip(total, v["w"])]
    terms = " + ".join(f"{L(v['c'])} \\cdot {L(tuple(v['w']))}" for v in voted[:8]) + (" + \\dots" if len(voted) > 8
                                                                                       else "")
    ok = tuple(total) == tuple(Fraction(x) for x in avg)
    return (f"$$\\bar w = \\sum_m c_m w_m = {terms} = {L(tuple(total))},$$ which is the averaged vector the run "
            f"returned ({'equal' if ok else 'NOT equal'}, recomputed here from the list).\n\n" + _inst_monitor(run))


def _inst_pocket(run) -> str:
    hist = run.extras.get("E_in_history")
    if not hist:
        return ""
    best = min(Fraction(h) for h in hist)
    same = Fraction(run.extras.get("E_in")) == best
    return (f"The in-sample errors of the perceptron's vectors were $E_{{\\text{{in}}}} = {L(tuple(hist))}$; the "
            f"pocket holds $\\hat w = {L(run.w)}$ with $E_{{\\text{{in}}}}(\\hat w) = {L(run.extras.get('E_in'))}$, "
            + ("the minimum of that list, as the invariant says." if same else
               "which is NOT the minimum of that list."))


def _inst_relaxation(run) -> str:
    if not run.trace or not hasattr(run.problem, "Z"):
        return ""
    Z = _rows(run.problem.Z)
    b = Fraction(run.params.get("b", 1))
    rows = []
    site = _site()
    for st in run.trace:
        if not st.update or st.w_before is None or st.w_after is None or st.i is None:
            continue
        before, after = dot(st.w_before, Z[st.i]) - b, dot(st.w_after, Z[st.i]) - b
        ratio = after / before if before else None
        rows.append([str(st.k), str(st.i + 1), site.fmt(before), site.fmt(after),
                     "-" if ratio is None else site.fmt(ratio)])
    if not rows:
        return ""
    return ("At every update of the worked example, recomputed here from the trace:\n\n"
            + site.table_html(["step $k$", "sample", "$a^t(k) y^k - b$", "$a^t(k+1) y^k - b$",
                               "ratio $= 1 - \\eta$"], rows, cls="exactlin-proof"))


def _inst_criterion_value(run) -> str:
    return (f"On the example below the run made {run.updates} correction(s) in {run.epochs} iteration(s) and "
            + ("reached the margin." if run.converged else
               "had not yet reached the margin when its budget ended: the batch step approaches "
               "$a^t y = b$ without arriving (the exact iterates grow long)."))


def _inst_separates(run) -> str:
    if run.w is None or not hasattr(run.problem, "Z"):
        return ""
    s = _scores(run, run.w)
    return (f"The final $a^+ - a^- = {L(run.w)}$ gives $z_k (a^+ - a^-)^t y_k = {L(tuple(s))}$: "
            + ("all positive, so every sample is classified correctly." if all(v > 0 for v in s)
               else "not all positive."))


def _inst_threshold(run) -> str:
    if run.w is None or not hasattr(run.problem, "Y"):
        return ""
    Y = _rows(run.problem.Y)
    tie = run.params.get("tie", ">")
    net = [dot(run.w, y) for y in Y]
    o = [int(v > 0 or (tie == ">=" and v == 0)) for v in net]
    t = run.extras.get("targets")
    text = (f"The final $w = {L(run.w)}$ gives the nets $w \\cdot \\tilde x_i = {L(tuple(net))}$ and outputs "
            f"$o = {L(tuple(o))}$ (tie rule: a net of $0$ gives $o = {1 if tie == '>=' else 0}$)")
    if t is not None:
        text += f"; the targets are $t = {L(tuple(t))}$" + (": all equal." if tuple(o) == tuple(t) else ".")
    return text + "\n\n" + _inst_monitor(run)


def _inst_mse(run) -> str:
    P = run.extras.get("Y_pinv")
    if P is None or run.w is None or not hasattr(run.problem, "Z"):
        return ""
    Y = _rows(run.problem.Z)
    b = tuple(Fraction(x) for x in run.extras.get("b", (1,) * len(Y)))
    e = tuple(dot(run.w, y) - bi for y, bi in zip(Y, b))
    Yte = tuple(sum((Y[i][j] * e[i] for i in range(len(Y))), Fraction(0)) for j in range(len(Y[0])))
    return (f"$$Y = {_mat(Y)}, \\quad Y^+ = {_mat(_rows(P))}, \\quad b = {_col(b)},$$ "
            f"$$a = Y^+ b = {_col(run.w)}, \\qquad e = Y a - b = {_col(e)}, \\qquad Y^t e = {_col(Yte)} .$$ "
            + ("Here $e = 0$: every $a^t y_i = b_i > 0$, so $a$ separates." if not any(e) else
               "The normal equations hold ($Y^t e = 0$), so no $a$ has a smaller $J_s$."))


def _below_power_of_ten(x: Fraction) -> int:
    """The largest p >= 0 with x < 10^-p (x > 0), decided exactly."""
    p = 0
    while x < Fraction(1, 10 ** (p + 1)):
        p += 1
    return p


def _inst_approach(run) -> str:
    a_star = run.extras.get("a_star")
    if a_star is None or run.w is None:
        return ""
    d0 = sum(Fraction(x) ** 2 for x in a_star)
    d = sum((Fraction(x) - Fraction(y)) ** 2 for x, y in zip(run.w, a_star))
    text = (f"The minimizer is $a^* = Y^+ b = {L(tuple(a_star))}$. From $a(1) = 0$, "
            f"$\\|a(1) - a^*\\|^2 = {L(d0)}$; after {run.steps} steps ")
    if d == 0:
        return text + "the iterate is $a^*$ exactly."
    p = _below_power_of_ten(d)
    lo = (d * 100).numerator // (d * 100).denominator  # d lies in [lo/100, (lo+1)/100), decided exactly
    dtex = L(d) if len(str(d)) < 60 else (f"{L(Fraction(lo, 100))} \\le \\|a - a^*\\|^2 < "
                                          f"{L(Fraction(lo + 1, 100))}")
    return text + (f"$\\|a - a^*\\|^2 < 10^{{-{p}}}$ (decided exactly on the rational iterate, whose numerators "
                   f"have grown to {run.extras.get('max_bits', '?')} bits)" if p else
                   (f"$\\|a - a^*\\|^2 = {dtex}$" if len(str(d)) < 60 else f"${dtex}$, still far from the "
                    "limit: the step $\\eta(k) = \\eta(1)/k$ shrinks quickly")) + "."


def _inst_ho_kashyap(run) -> str:
    b, e = run.extras.get("b"), run.extras.get("e")
    if b is None or e is None:
        return ""
    verdict = run.extras.get("verdict")
    text = f"On the worked example: $b = {L(tuple(b))}$, $e = Y a - b = {L(tuple(e))}$"
    if run.w is not None:
        text += f", $a = {L(run.w)}$"
        if hasattr(run.problem, "Z"):
            s = _scores(run, run.w)
            text += f", and $Y a = {L(tuple(s))}$" + (" $> 0$: $a$ separates." if all(v > 0 for v in s) else ".")
    elif verdict == "not_separable":
        text += ": $e \\le 0$ and $e \\ne 0$, the proof that no separating vector exists."
    return text


def _inst_fisher(run) -> str:
    x = run.extras
    if x.get("m1") is None or x.get("S_W") is None:
        return ""
    delta = tuple(Fraction(a) - Fraction(b) for a, b in zip(x["m1"], x["m2"]))
    Jstar = dot(delta, run.w) if run.w is not None else None
    return (f"$$m_1 = {L(tuple(x['m1']))}, \\quad m_2 = {L(tuple(x['m2']))}, \\quad S_W = {_mat(_rows(x['S_W']))}, "
            f"\\quad w = S_W^{{-1}}(m_1 - m_2) = {L(run.w)}.$$ "
            f"Then $J(w) = {L(x.get('J'))}$ and $(m_1 - m_2)^t S_W^{{-1}} (m_1 - m_2) = (m_1 - m_2)^t w = "
            f"{L(Jstar)}$ — {'equal, as the theorem says' if Jstar == x.get('J') else 'NOT equal'}.")


def _inst_multiclass(run) -> str:
    W, classes = run.extras.get("W"), run.extras.get("classes")
    if W is None or classes is None:
        return ""
    rows = ", ".join(f"w_{{\\text{{{c}}}}} = {L(tuple(w))}" for c, w in zip(classes, W))
    return f"On the worked example: ${rows}$."


def _inst_gordan(run) -> str:
    cert = run.extras.get("certificate")
    lam = getattr(cert, "lam", None)
    prob = run.problem
    if lam is None or not hasattr(prob, "Z"):
        if run.w is not None and hasattr(prob, "Z"):
            return f"The separator $w = {L(run.w)}$ gives $w^t z_i = {L(tuple(_scores(run, run.w)))}$."
        return ""
    Z = _rows(prob.Z)
    s = tuple(sum((Fraction(lam[i]) * Z[i][j] for i in range(len(Z))), Fraction(0)) for j in range(len(Z[0])))
    return (f"On the worked example the certificate is $\\lambda = {L(tuple(lam))}$ ($\\ge 0$, sum "
            f"${L(sum(Fraction(v) for v in lam))}$), and $\\sum_i \\lambda_i z_i = {L(s)}$, recomputed here.")


def _inst_svm(run) -> str:
    x = run.extras
    w, b, alpha = x.get("w"), x.get("b"), x.get("alpha")
    prob, ds = _data(run)
    if w is None or b is None or alpha is None or not hasattr(ds, "X") or \
            run.params.get("kernel", "linear") != "linear":
        return ""
    X = _rows(ds.X)
    y = [Fraction(v) for v in prob.z]
    b = Fraction(b)
    f = [yi * (dot(w, xi) + b) for xi, yi in zip(X, y)]
    stat = tuple(sum((Fraction(alpha[i]) * y[i] * X[i][j] for i in range(len(X))), Fraction(0))
                 for j in range(len(w)))
    ay = sum((Fraction(a) * yi for a, yi in zip(alpha, y)), Fraction(0))
    sv = ", ".join(str(i + 1) for i in x.get("support_vectors", ()))
    system = _kkt_system(run, X, y, alpha, b)
    text = (f"On the worked example the active set is $S = \\{{{sv}\\}}$ and the exact solution is "
            f"$$\\alpha = {L(tuple(alpha))}, \\qquad w = {L(tuple(w))}, \\qquad b = {L(b)} .$$ " + system +
            f"The four conditions, recomputed here: stationarity $\\sum_i \\alpha_i y_i x_i = {L(stat)}$ "
            f"({'$= w$' if stat == tuple(Fraction(v) for v in w) else 'NOT $w$'}) and "
            f"$\\sum_i \\alpha_i y_i = {L(ay)}$; the values $y_i (w \\cdot x_i + b) = {L(tuple(f))}$")
    if x.get("xi") is not None:
        text += f" with slacks $\\xi = {L(tuple(x['xi']))}$"
    text += ("; $\\alpha \\ge 0$; and $\\alpha_i > 0$ only where the constraint is tight. ")
    if x.get("margin") is not None:
        text += f"The margin is $1/\\|w\\| = {_site().sym_latex(x['margin'])}$, exactly."
    return text


def _kkt_system(run, X, y, alpha, b) -> str:
    """The linear system on the active set, written out with the example's numbers and checked at the solution
    (hard margin and squared slacks; the hinge's box constraints move bounded multipliers to the right side)."""
    C = run.params.get("C")
    kkt = run.extras.get("kkt")
    loss = kkt.get("loss") if kkt is not None and hasattr(kkt, "get") else None  # the certificate says which QP
    if loss not in ("hard", "squared"):
        return ""
    S = [i for i, a in enumerate(alpha) if Fraction(a) != 0]
    if not S:
        return ""
    rows, rhs = [], []
    for i in S:
        row = [y[j] * dot(X[i], X[j]) + (y[i] / (2 * Fraction(C)) if loss == "squared" and i == j
                                          else 0) for j in S]
        rows.append(row + [Fraction(1)])
        rhs.append(y[i])
    rows.append([y[j] for j in S] + [Fraction(0)])
    rhs.append(Fraction(0))
    sol = [Fraction(alpha[j]) for j in S] + [b]
    ok = all(dot(r, sol) == v for r, v in zip(rows, rhs))
    unknowns = ", ".join(f"\\alpha_{{{j + 1}}}" for j in S)
    return (f"On the active set the system for $({unknowns}, b)$ is $${_mat(rows)} {_col(sol)} = {_col(rhs)}$$ "
            f"(rows: $y_j\\, x_i \\cdot x_j$" + (" plus $y_i/(2C)$ on the diagonal" if loss == "squared"
                                                   else "") + ", then $\\sum_j \\alpha_j y_j = 0$); the solution "
            + ("satisfies it exactly. " if ok else "does NOT satisfy it. "))


INSTANCES = {"monitor": _inst_monitor, "batch_monitor": _inst_batch_monitor, "margin_check": _inst_margin_check,
             "voted": _inst_voted, "averaged": _inst_averaged, "pocket": _inst_pocket,
             "relaxation": _inst_relaxation, "criterion_value": _inst_criterion_value,
             "separates": _inst_separates, "threshold": _inst_threshold, "mse": _inst_mse,
             "approach": _inst_approach, "ho_kashyap": _inst_ho_kashyap, "fisher": _inst_fisher,
             "multiclass": _inst_multiclass, "gordan": _inst_gordan, "svm": _inst_svm}


# ---------------------------------------------------------------------------
# the page


def errata_md(ids) -> list[str]:
    from exactlin.lectures.errata import all_errata

    known = {e.id: e for e in all_errata()}
    parts = []
    for ident in ids:
        e = known.get(ident)
        if e is None:
            continue
        correct = re.sub(r"exactlin(?:\.\w+)+", "exactlin", e.correct)  # a module path is for the errata page
        body = (f"**The notes print**: {ascii_md(e.notes_say)}\n\n**Correct**: {ascii_md(correct)}\n\n"
                f"[The erratum and its demonstration](../../errata.md#{e.id.lower()})")
        parts.append(_site().admonition("warning", f"Erratum: {e.where}".replace('"', "'"), body))
    return parts


def implementation_md(spec, run, base, derivs, examples_line) -> list[str]:
    """The last section: arithmetic, solver, budgets, verification, the code's own statement, the run."""
    from exactlin.algorithms import COMMON_KWARGS

    site = _site()
    parts = [f"## {IMPLEMENTATION}", "",
             "*This section is about the implementation, not the mathematics: the names below are exactlin's.*", "",
             f"**Entry point** `{spec.func.__module__}.{spec.func.__name__}`; command line "
             f"`exactlin fit {spec.name} DATA.csv --param NAME=VALUE`; default bias `{spec.bias_default}`.", "",
             "**Arithmetic.** Every number is exact: inputs become integers or fractions by the one documented "
             "rule ([conversion](../../conversion.md)), and " +
             ("each iterate is an exact rational vector. The inner loops run on integers scaled from the "
              "rationals, in the cheapest exact tier (machine integers where a bound proves no overflow or rounding "
              "can occur, else Python's unbounded integers), and return the same iterates as the readable rule."
              if spec.iterative else
              "the answer is found by exact linear algebra (rational elimination; irrational quantities such as a "
              "margin $1/\\|w\\|$ stay exact symbolic numbers)."), ""]
    method = run.extras.get("method") if run is not None else None
    if isinstance(method, str):
        parts += [f"**Solver on the example**: {ascii_md(method)}.", ""]
    parts += ["**Parameters and budgets.** Every loop is bounded; a run that reaches a bound stops with that "
              "reason, never silently.", ""]
    rows = [[f"<code>{site.esc(p.name)}</code>", site.esc(p.kind),
             "-" if p.default is None else f"<code>{site.esc(site.fmt(p.default))}</code>",
             ascii_md(p.doc, html_cell=True)] for p in spec.params]
    if rows:
        parts += [site.table_html(["name", "kind", "default", "meaning"], rows, cls="exactlin-params", raw=True), ""]
    parts += ["Common keywords: " + ", ".join(f"`{k}`" for k in COMMON_KWARGS) + ".", ""]
    parts += ["**Verification.** " + (f"The convergence monitor checks {ascii_md(spec.monitor)}. " if spec.monitor
                                      else "") +
              "Every returned result is re-checked by an independent exact verifier that does not reuse the "
              "producing code ([how 'verified' is checked](../../verified.md)).", ""]
    mod = inspect.getmodule(spec.func)
    parts += ["### The implementation's own statement", "",
              f"The docstring of `{spec.func.__module__}`:", "", site.doc_to_md(mod.__doc__ or ""), "",
              "The rule's docstring:", "", site.doc_to_md(spec.doc or ""), ""]
    mine = site.derivations_for(spec, derivs) if derivs else []
    if mine:
        parts += ["### Checked symbolically", ""]
        for dv in mine:
            parts += [symbolic_md(dv), ""]
    if run is not None:
        parts += ["### The run behind this page", "", site.run_summary(run), "", "#### Trace", "",
                  site.trace_md(run), "", site.run_json(run, base, spec.name), ""]
    parts += examples_line
    return parts


def symbolic_md(dv: dict) -> str:
    """A sympy-checked derivation of :mod:`exactlin.lectures.derivations`: its steps, their text typeset."""
    site = _site()
    parts = [f"**{site.md_text(dv['id'])}** — {ascii_md(dv['title'])} (`{dv.get('python', '')}`)", ""]
    if dv.get("error"):
        return "\n".join(parts + [site.admonition("failure", "The derivation could not be computed",
                                                  site.md_text(dv["error"]))])
    for k, st in enumerate(dv["steps"], 1):
        text = getattr(st, "text", None)
        expr = getattr(st, "expr", None)
        line = f"{k}. " + (ascii_md(text) if text else "")
        if expr is not None:
            line += f" $${site.sym_latex(expr)}$$"
        parts.append(line)
    parts += ["", f"Identity checked symbolically by sympy: **{'yes' if dv.get('verified') else 'NO'}**."]
    return "\n".join(parts)


def algorithm_page(spec, run, example, intro: str, data_md: str, examples_line: list[str], base: str,
                   derivs) -> str:
    """The page of ``spec``: the derivation (:data:`DERIVATIONS`) and, on its worked example, the numbers."""
    site = _site()
    dv = DERIVATIONS[spec.name]
    where = cite_note(spec.seed) + (f", {site.md_text(spec.number)}" if spec.number else "")
    parts = [f"# {site.md_text(nav_title(spec.title))}", "", f"*From the lecture notes {where}.* {intro}", "",
             "## The problem", "", dv.problem, "",
             "## The criterion", "", dv.criterion, "",
             f"## {dv.argument_title}", "", dv.argument, "",
             "## The rule", "", dv.rule, "",
             "## When it stops", "", dv.stops, "",
             "## What it guarantees", "", dv.guarantee, ""]
    if run is not None:
        parts += ["### On the worked example", "", data_md, ""]
        inst = INSTANCES.get(dv.instance)
        text = inst(run) if inst else ""
        if text:
            parts += [text, ""]
        parts += [site.picture(run, base, spec.name, "The data and the decision boundary"
                               + (" (dashed: the boundary after each update)" if run.trace and
                                  any(s.update for s in run.trace) else "")), ""]
    parts += ["## The notes' statement", "",
              "> " + dv.quote, ">", f"> — {cite_note(dv.quote_seed)}, {site.md_text(dv.quote_where)}", ""]
    for q, seed, wh in dv.extra_quotes:
        parts += ["> " + q, ">", f"> — {cite_note(seed)}, {site.md_text(wh)}", ""]
    parts += errata_md(dv.errata)
    parts += ['<hr class="exactlin-implementation">', ""]
    parts += implementation_md(spec, run, base, derivs, examples_line)
    return "\n".join(parts)
