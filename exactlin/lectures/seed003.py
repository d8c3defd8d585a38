"""Seed 003 (linear discriminants): step size, relaxation factor, the linear machine's distance, rank(S_B), the
pseudoinverse as a limit; errata of Algorithms 10 and 11.

Expected values are the notes' printed numbers ("lecture"), hand derivations written in the comments, or
values computed inside the example by another method ("independent: ...").
"""

from __future__ import annotations

from fractions import Fraction as F

import sympy

from exactlin.algorithms.fisher import fisher
from exactlin.algorithms.ho_kashyap import ho_kashyap
from exactlin.algorithms.mse import lms, mse, widrow_hoff
from exactlin.algorithms.multiclass import linear_machine, linear_machine_decide
from exactlin.algorithms.relaxation import single_sample_relaxation
from exactlin.lectures.errata import erratum
from exactlin.lectures.examples import Check, ExampleResult, example
from exactlin.lectures.notes import MSE_X, MSE_Y, PINV_PRINTED, SEED003, Y_PRINTED
from exactlin.lectures.notes import dot as _dot
from exactlin.lectures.notes import value_text as _fmt
from exactlin.linalg.matrices import pinv, rank

#: the three-class toy set of the linear-machine example
MC_X = [(1, 0), (0, 1), (-1, -1)]
MC_Y = ["A", "B", "C"]
#: the hand-derivable Fisher set of seed003-fisher
FISHER_X = [(1, 0), (3, 0), (2, 1), (-1, 0), (-3, 0), (-2, -1)]
FISHER_Y = [1, 1, 1, -1, -1, -1]


@example("seed003-step-size", title="Effect of the step size eta: slow, one-step, overshooting, oscillating and "
         "diverging gradient descent on J_s", seed=SEED003, algorithm="widrow-hoff")
def step_size() -> ExampleResult:
    # Data: x = 1 (+1), x = -1 (-1), no bias: normalized Y = (1, 1)^t, b = (1, 1), Y^tY = 2, the minimum of
    # J_s(a) = ||Y a - b||^2 = 2 (a - 1)^2 is a* = Y^+ b = 1.  The notes' rule a <- a - eta Y^t(Y a - b) gives
    # a(k+1) - 1 = (1 - 2 eta)(a(k) - 1); from a(1) = 0:
    #   eta = 1/10: factor 4/5 (slow):  a = 1/5, 9/25, 61/125, 369/625
    #   eta = 1/2:  factor 0 (one step): a = 1
    #   eta = 3/4:  factor -1/2 (overshoot, converging): a = 3/2, 3/4, 9/8, 15/16
    #   eta = 1:    factor -1 (oscillation forever): a = 2, 0, 2, 0
    #   eta = 5/4:  factor -3/2 (divergence): a = 5/2, -5/4, 35/8, -65/16
    # and ||a(k) - a*||^2 = (1 - 2 eta)^(2(k-1)), J_s = 2 ||a(k) - a*||^2.  2/lambda_max = 1 is the boundary.
    expected = {F(1, 10): [F(1, 5), F(9, 25), F(61, 125), F(369, 625)], F(1, 2): [F(1)],
                F(3, 4): [F(3, 2), F(3, 4), F(9, 8), F(15, 16)], F(1): [F(2), F(0), F(2), F(0)],
                F(5, 4): [F(5, 2), F(-5, 4), F(35, 8), F(-65, 16)]}
    runs, checks = [], []
    for eta, exp in expected.items():
        r = widrow_hoff([(1,), (-1,)], [1, -1], bias="none", eta=eta, k_max=4, trace=True)
        runs.append(r)
        got = [s.w_after[0] for s in r.trace][:len(exp)]
        checks.append(Check(f"eta = {eta}: a(2..) = {_fmt(exp)}", exp, got, "hand derivation"))
        d = r.extras["dist2"][:len(exp) + 1]
        checks.append(Check(f"eta = {eta}: ||a(k) - a*||^2 = (1 - 2 eta)^(2(k-1))",
                            [(1 - 2 * eta) ** (2 * k) for k in range(len(d))], d, "hand derivation"))
    checks.append(Check("J_s after 4 steps: 2 (4/5)^8, 2 (1/2)^8, 2, 2 (3/2)^8 (eta = 1/10, 3/4, 1, 5/4)",
                        [2 * F(4, 5) ** 8, 2 * F(1, 2) ** 8, F(2), 2 * F(3, 2) ** 8],
                        [2 * (runs[i].w[0] - 1) ** 2 for i in (0, 2, 3, 4)],
                        "hand derivation: J_s(a) = 2 (a - 1)^2"))
    return ExampleResult(runs, checks, notes=[
        "Seed 003: 'Small eta => slow convergence; large eta => fast convergence but ... possible oscillations'. "
        "Here the factor per step is 1 - 2 eta: eta < 1/2 creeps, eta = 1/2 = 1/lambda lands at once, "
        "1/2 < eta < 1 overshoots and converges, eta = 1 = 2/lambda oscillates for ever, eta > 1 diverges."])


@example("seed003-relaxation-factor", title="Under- and over-relaxation: a^t(k+1) y - b = (1 - eta)(a^t(k) y - b), "
         "and eta >= 2", seed=SEED003, algorithm="single-sample-relaxation")
def relaxation_factor() -> ExampleResult:
    # Two orthogonal samples y1 = (1,1), y2 = (1,-1) (labels +1, no bias), b = 1, a(1) = 0: a correction along
    # y1 does not change a^t y2, so each distance a^t y_k - b starts at -1 and is multiplied by (1 - eta) at each
    # of its corrections:
    #   eta = 1/2 (under): -1 -> -1/2 -> -1/4 ...: a^t y stays below b, the run never ends exactly (max_epochs);
    #   eta = 1: -1 -> 0 (lands on a^t y = b); eta = 3/2 (over): -1 -> +1/2 (a^t y = 3/2 > b).
    X, y = [(1, 1), (1, -1)], [1, 1]
    runs, checks = [], []
    for eta, after in ((F(1, 2), F(-1, 2)), (F(1), F(0)), (F(3, 2), F(1, 2))):
        r = single_sample_relaxation(X, y, bias="none", eta=eta, max_epochs=3, trace=True)
        runs.append(r)
        first = r.trace[0]
        checks.append(Check(f"eta = {eta}: a^t y_1 - b before/after the first correction: -1, {_fmt(after)}",
                            (F(-1), after), (first.score - 1, _dot(first.w_after, X[0]) - 1), "hand derivation"))
    checks.append(Check("identity a^t(k+1)y^k - b = (1 - eta)(a^t(k)y^k - b) at every correction of every run", True,
                        all(_dot(s.w_after, X[s.i]) - 1 == (1 - eta) * (s.score - 1)
                            for r, eta in zip(runs, (F(1, 2), F(1), F(3, 2))) for s in r.trace if s.update),
                        "independent: recomputed from the traces"))
    checks.append(Check("eta = 1/2 never reaches a^t y >= b: stopped by max_epochs, a^t y_1 = 1 - (1/2)^3",
                        ("max_epochs", F(7, 8)), (runs[0].reason, _dot(runs[0].w, X[0])), "hand derivation"))
    # eta >= 2: distance to the solution a_hat = (1,0) (a_hat^t y_k = b for both) after the first correction
    # from a = 0: a = (eta/2)(1,1), ||a - a_hat||^2 = (eta/2 - 1)^2 + (eta/2)^2 = 1 - eta(2 - eta)/2:
    # 5/8, 1/2, 5/8 for eta = 1/2, 1, 3/2 (decrease), 1 for eta = 2 (none), 13/8 for eta = 5/2 (growth).
    a_hat = (F(1), F(0))
    dist = []
    for eta in (F(1, 2), F(1), F(3, 2), F(2), F(5, 2)):
        a = tuple(eta * (1 - 0) / 2 * v for v in X[0])  # the printed update from a = 0, with exact Fractions
        dist.append(sum(((p - q) ** 2 for p, q in zip(a, a_hat)), F(0)))
    checks.append(Check("||a(2) - a_hat||^2 from ||a(1) - a_hat||^2 = 1, eta = 1/2, 1, 3/2, 2, 5/2",
                        [F(5, 8), F(1, 2), F(5, 8), F(1), F(13, 8)], dist,
                        "hand derivation: 1 - eta(2 - eta)/2"))
    refused = ""
    try:
        single_sample_relaxation(X, y, bias="none", eta=2)
    except ValueError as e:
        refused = type(e).__name__
    checks.append(Check("exactlin refuses eta = 2 (0 < eta < 2)", "ParameterError", refused, "hand derivation"))
    return ExampleResult(runs, checks, notes=[
        "Under-relaxation (eta < 1) leaves a^t y below b and, in exact arithmetic, may never reach it; "
        "over-relaxation (1 < eta < 2) jumps past b. For eta >= 2 the distance to a solution no longer shrinks "
        "(eta(2 - eta) <= 0), so convergence is not guaranteed."])


@example("seed003-linear-machine-distance", title="The linear machine's distance d(x, H_ij) = "
         "(g_i - g_j)/||w_i - w_j||, exact and irrational", seed=SEED003, algorithm="linear-machine")
def lm_distance() -> ExampleResult:
    run = linear_machine(MC_X, MC_Y, bias="none")
    W = dict(zip(["A", "B", "C"], run.extras["W"]))
    x = (F(1), F(1))
    dw = tuple(p - q for p, q in zip(W["A"], W["B"]))
    gA, gB = _dot(W["A"], x), _dot(W["B"], x)
    d = sympy.Rational(gA - gB) / sympy.sqrt(sympy.Rational(_dot(dw, dw)))
    # Independent: the foot of the perpendicular x_p = x - ((g_A - g_B)/||dw||^2) dw lies on H_AB
    # (g_A(x_p) = g_B(x_p)) and ||x - x_p||^2 is the squared distance.
    # Hand derivation: W = (2,0), (-1,1), (-1,-1); x = (1,1): g = 2, 0; dw = (3,-1), ||dw||^2 = 10;
    # d = 2/sqrt(10) = sqrt(10)/5, d^2 = 2/5; x_p = (1,1) - (1/5)(3,-1) = (2/5, 6/5), g_A(x_p) = g_B(x_p) = 4/5.
    t = (gA - gB) / _dot(dw, dw)
    xp = tuple(a - t * b for a, b in zip(x, dw))
    foot2 = sum(((a - b) ** 2 for a, b in zip(x, xp)), F(0))
    d2 = d ** 2
    checks = [
        Check("x = (1,1) is decided A (g = 2, 0, -2)", "A", linear_machine_decide(run, x), "hand derivation"),
        Check("d(x, H_AB) = 2/sqrt(10) = sqrt(10)/5 (sympy, exact)", sympy.sqrt(10) / 5, d, "hand derivation"),
        Check("d^2 = 2/5 (a rational square: compared via squares)", sympy.Rational(2, 5), d2, "hand derivation"),
        Check("foot of the perpendicular x_p = (2/5, 6/5) lies on H_AB: g_A(x_p) = g_B(x_p) = 4/5",
              (F(4, 5), F(4, 5)), (_dot(W["A"], xp), _dot(W["B"], xp)), "hand derivation"),
        Check("||x - x_p||^2 equals d^2 (d > 0: its numerator g_A - g_B = 2 > 0)", (F(2, 5), True),
              (foot2, gA - gB > 0), "independent: the foot of the perpendicular, in Fractions"),
    ]
    return ExampleResult([run], checks, data={"d(x, H_AB)": d, "d^2": d2})


@example("seed003-fisher-rank-sb", title="rank(S_B) <= 1 for two classes: S_B = (m1 - m2)(m1 - m2)^t", seed=SEED003,
         algorithm="fisher")
def fisher_rank() -> ExampleResult:
    r = fisher(FISHER_X, FISHER_Y)
    SB = r.extras["S_B"]
    # Hand derivation: m1 - m2 = (4, 2/3), S_B = [[16, 8/3], [8/3, 4/9]], det = 64/9 - 64/9 = 0, rank 1;
    # S_B w = (m1 - m2) ((m1 - m2)^t w) with w = (1, 1/2): (m1 - m2)^t w = 4 + 1/3 = 13/3, S_B w = (52/3, 26/9).
    # Equal means (omega_1 = {(1,0), (-1,0)}, omega_2 = {(0,1), (0,-1)}): m1 = m2 = 0, S_B = 0, rank 0.
    SBw = tuple(_dot(row, r.w) for row in SB)
    m_eq = ((F(0), F(0)), (F(0), F(0)))
    SB_eq = tuple(tuple(a * b for b in m_eq[0]) for a in m_eq[0])  # (m1 - m2)(m1 - m2)^t with m1 - m2 = 0
    checks = [
        Check("S_B", ((F(16), F(8, 3)), (F(8, 3), F(4, 9))), SB, "hand derivation"),
        Check("rank(S_B) = 1 (exact rank)", 1, rank(SB), "hand derivation"),
        Check("S_B w = (13/3)(m1 - m2) = (52/3, 26/9): always along m1 - m2", (F(52, 3), F(26, 9)), SBw,
              "hand derivation"),
        Check("equal class means: S_B = 0, rank 0 (the '<' of rank <= 1)", 0, rank(SB_eq), "hand derivation"),
    ]
    return ExampleResult([r], checks)


@example("seed003-pinv-limit", title="Y^+ = lim_(eps -> 0) (Y^tY + eps I)^(-1) Y^t, computed symbolically",
         seed=SEED003, algorithm="mse")
def pinv_limit() -> ExampleResult:
    eps = sympy.Symbol("epsilon", positive=True)

    def limit_pinv(Y):
        Ys = sympy.Matrix(Y)
        M = (Ys.T * Ys + eps * sympy.eye(Ys.shape[1])).inv() * Ys.T
        L = M.applyfunc(lambda e: sympy.limit(sympy.cancel(e), eps, 0))
        return tuple(tuple(F(int(v.p), int(v.q)) for v in L.row(i)) for i in range(L.rows))

    run = mse(MSE_X, MSE_Y)
    lim = limit_pinv(Y_PRINTED)
    # a rank-deficient Y (second column = 2 x first): Y^tY is singular, (Y^tY)^-1 Y^t does not exist, the limit
    # does. Hand derivation: Y = u v^t with u = (1,2,1), v = (1,2): Y^+ = v u^t / (||u||^2 ||v||^2) = v u^t / 30.
    Y2 = ((1, 2), (2, 4), (1, 2))
    lim2 = limit_pinv(Y2)
    checks = [
        Check("sympy limit for the notes' Y equals the printed Y^+", PINV_PRINTED, lim),
        Check("and equals exactlin's Y^+", run.extras["Y_pinv"], lim, "independent: sympy.limit in epsilon"),
        Check("rank-deficient Y = (1,2,1)^t (1,2): limit = (1,2)^t (1,2,1) / 30",
              ((F(1, 30), F(1, 15), F(1, 30)), (F(1, 15), F(2, 15), F(1, 15))), lim2, "hand derivation"),
        Check("... which exactlin's pinv gives too", pinv(Y2), lim2, "independent: sympy.limit in epsilon"),
    ]
    return ExampleResult([run], checks, data={"limit": lim, "rank-deficient limit": lim2})


# ---------------------------------------------------------------------------
# errata


@erratum("seed003-lms-stop", seed=SEED003, where="Algorithm 10 (LMS), line 4 (and Algorithm 1, line 4)",
         notes_say='"until eta(k)(b_k - a^t y^k) y^k < theta"',
         correct="the left side is a vector (exactlin compares its length, ||.||^2 < theta^2) and it measures one "
                 "sample: it is 0 whenever the current sample happens to be fitted (a^t y^k = b_k), however large "
                 "J_s is. A stop test for the MSE solution must look at the whole gradient Y^t(Y a - b) "
                 "(exactlin's widrow_hoff theta) or at a full pass")
def _e_lms_stop():
    # Seed 003's MSE example, a(1) = (1,0,0): a^t y^1 = 1 = b_1, so the increment is 0 and the printed test stops
    # at once. J_s(a) = (1-1)^2 + (1-1)^2 + (-1-1)^2 + (-1-1)^2 = 8, while the minimum is J_s(Y^+ b) = 0.
    r = lms(MSE_X, MSE_Y, a0=(1, 0, 0), theta=F(1, 1000), trace=True)
    J = sum(((_dot(r.w, yk) - 1) ** 2 for yk in Y_PRINTED), F(0))
    wh = widrow_hoff(MSE_X, MSE_Y, a0=(1, 0, 0), theta=F(1, 1000), eta1=F(1, 40), k_max=3)
    holds = r.w == (1, 0, 0) and r.reason == "criterion" and J == 8 and wh.epochs > 1
    return {"holds": holds,
            "text": f"seed 003's example, a(1) = (1,0,0), theta = 1/1000: the first increment is 0 (a^t y^1 = b_1 = "
                    f"1), so LMS stops after {r.epochs} step at a = {_fmt(r.w)} with J_s = {_fmt(J)} (the minimum "
                    f"is 0 at (11/3, -4/3, -2/3)); the full-gradient test of widrow_hoff does not stop there",
            "a": r.w, "J_s": J}


@erratum("seed003-hk-nonseparable-untested", seed=SEED003, where="Algorithm 11 (Ho-Kashyap) and the bullets after it",
         notes_say='"if Abs[e] <= b_min then return a, b and exit / until k = k_max / Print NO SOLUTION FOUND"; '
                   '"e(k) <= 0 ... proof that the samples are not linearly separable"',
         correct="the listing never tests e <= 0 (e != 0), the verdict the bullet promises: then e+ = 0, b and a "
                 "never change, and the loop idles to k_max and prints NO SOLUTION FOUND without the proof. "
                 "exactlin tests it and returns verdict 'not_separable' with a Gordan certificate")
def _e_hk_untested():
    # x = 0 (+1), 1 (-1), 2 (+1), bias first: Y = [[1,0],[-1,-1],[1,2]], b = 1: a = Y^+ b = (1/3, 0)
    # (hand: Y^tY = [[3,3],[3,5]], Y^t b = (1,1)), e = Y a - b = (-2/3, -4/3, -2/3) <= 0.
    Y = ((F(1), F(0)), (F(-1), F(-1)), (F(1), F(2)))
    b = (F(1),) * 3
    a = (F(1, 3), F(0))
    eta, b_min, k_max = F(1, 2), F(1, 10), 25
    k, exited = 0, False
    while k < k_max:  # the listing, with b <- b + 2 eta e+ (erratum seed003-ho-kashyap-b-update)
        k += 1
        e = tuple(_dot(row, a) - bi for row, bi in zip(Y, b))
        ep = tuple((v + abs(v)) / 2 for v in e)
        b = tuple(bi + 2 * eta * v for bi, v in zip(b, ep))
        a_new = tuple(_dot(row, b) for row in pinv(Y))
        if a_new != a:
            break
        if all(abs(v) <= b_min for v in e):
            exited = True
            break
    r = ho_kashyap([(0,), (1,), (2,)], [1, -1, 1])
    holds = (k == k_max and not exited and e == (F(-2, 3), F(-4, 3), F(-2, 3)) and b == (1, 1, 1)
             and r.extras["verdict"] == "not_separable")
    return {"holds": holds,
            "text": f"x = 0 (+1), 1 (-1), 2 (+1): e = {_fmt(e)} <= 0 at every step, e+ = 0, b stays {_fmt(b)}; the "
                    f"listing runs all k_max = {k_max} iterations and prints NO SOLUTION FOUND; exactlin stops at "
                    f"once with verdict '{r.extras['verdict']}'",
            "e": e, "b": b}
