"""Worked examples and errata of the maximum-margin sections (seeds 002 and 004), plus
scikit-learn issue 18606's three points.

Every expected value is a hand derivation, written out next to its check.
"""

from __future__ import annotations

from fractions import Fraction as F

import sympy

from exactlin.algorithms.perceptron import perceptron
from exactlin.algorithms.separability import separable
from exactlin.algorithms.svm import decision_function, perceptron_bound, svm_hard, svm_soft_l2
from exactlin.lectures.errata import erratum
from exactlin.lectures.examples import Check, ExampleResult, example
from exactlin.lectures.notes import EX1_X, EX1_Y, EX2_X, EX2_Y, SEED000, SEED002, SEED004

#: two points whose maximum margin is irrational
DIAG_X, DIAG_Y = [(0, 0), (1, 1)], [-1, 1]
#: scikit-learn issue 18606 (https://github.com/scikit-learn/scikit-learn/issues/18606): labels True, True, False
SK_X, SK_Y = [("1.5", "2.5"), ("2.5", "1.5"), ("2.5", "2.5")], [1, 1, -1]
#: a box: four points on the margin in the plane (more support vectors than dimensions)
BOX_X, BOX_Y = [(0, 0), (0, 1), (2, 0), (2, 1)], [-1, -1, 1, 1]
#: seed 000, Example 2 (XOR-like)
#: seed 000, Example 1
#: a circle set with the symmetry of the square: inside the unit circle +1, outside -1
CIRCLE_X = [(0, 0), (F(1, 2), 0), (F(-1, 2), 0), (0, F(1, 2)), (0, F(-1, 2)), (2, 0), (-2, 0), (0, 2), (0, -2)]
CIRCLE_Y = [1, 1, 1, 1, 1, -1, -1, -1, -1]


def _gordan_ok(run, lam) -> bool:
    from exactlin.errors import VerificationError
    from exactlin.theory.certificates import verify_gordan

    try:
        verify_gordan(run.problem.Z, lam)
    except VerificationError:
        return False
    return True


def _lift(X):
    from exactlin.algorithms.features import lift_circle

    return lift_circle(X)


@example("seed004-svm-diagonal", title="Hard-margin SVM on two points: margin sqrt(2)/2, exactly", seed=SEED004,
         algorithm="svm-hard")
def ex_diagonal() -> ExampleResult:
    # Hand derivation: for one point per class the maximum-margin hyperplane is the perpendicular bisector.
    # p = (1,1) (+1), q = (0,0) (-1): w is parallel to p - q and both are on the margin:
    # w = 2 (p - q) / ||p - q||^2 = (1, 1); w.p + b = 1 gives b = -1; w.q + b = -1 holds.
    # KKT: w = alpha_p p - alpha_q q = alpha_p (1,1), sum alpha y = 0: alpha = (1, 1).
    # margin 1/||w|| = 1/sqrt(2) = sqrt(2)/2 (irrational), slab width 2/||w|| = sqrt(2).
    r = svm_hard(DIAG_X, DIAG_Y)
    e = r.extras
    checks = [
        Check("w", (F(1), F(1)), e["w"], "hand derivation"),
        Check("b", F(-1), e["b"], "hand derivation"),
        Check("alpha", (F(1), F(1)), e["alpha"], "hand derivation"),
        Check("margin 1/||w|| = sqrt(2)/2", sympy.sqrt(2) / 2, e["margin"], "hand derivation"),
        Check("slab width 2/||w|| = sqrt(2)", sympy.sqrt(2), e["slab_width"], "hand derivation"),
        Check("KKT verified exactly", True, e["kkt"].verified, "verified: KKT (exactlin.theory.kkt)"),
    ]
    return ExampleResult([r], checks)


@example("seed004-svm-box", title="Four support vectors in the plane: alpha is not unique, w and b are",
         seed=SEED004, algorithm="svm-hard")
def ex_box() -> ExampleResult:
    # Hand derivation: (0,0), (0,1) are -1 and (2,0), (2,1) are +1; the classes are the lines x1 = 0 and
    # x1 = 2, so the bisector x1 = 1 is optimal: w = (1, 0), b = -1, margin 1, slab width 2.  All four
    # points are on the margin; alpha_1 + alpha_2 = alpha_3 + alpha_4 = 1/2 with alpha_4 = alpha_2 is a
    # whole segment of valid multipliers: exactlin returns one and the KKT check certifies it.
    r = svm_hard(BOX_X, BOX_Y)
    e = r.extras
    a = e["alpha"]
    checks = [
        Check("w", (F(1), F(0)), e["w"], "hand derivation"),
        Check("b", F(-1), e["b"], "hand derivation"),
        Check("margin", sympy.Integer(1), e["margin"], "hand derivation"),
        Check("alpha_1 + alpha_2 = alpha_3 + alpha_4 = 1/2", (F(1, 2), F(1, 2)), (a[0] + a[1], a[2] + a[3]),
              "hand derivation"),
        Check("KKT verified exactly", True, e["kkt"].verified, "verified: KKT (exactlin.theory.kkt)"),
    ]
    return ExampleResult([r], checks, notes=["alpha is one point of a segment of optimal multipliers; w, b unique."])


@example("sklearn-18606", title="scikit-learn issue 18606's three points: w = (-2, -2), b = 9 exactly",
         seed=SEED004, algorithm="svm-hard")
def ex_sklearn() -> ExampleResult:
    # The data: (1.5, 2.5) True, (2.5, 1.5) True, (2.5, 2.5) False.  The data are symmetric in
    # x1 <-> x2, and w is unique, so w = (a, a).  All three points are on the margin:
    # 1.5a + 2.5a + b = 1 and 2.5a + 2.5a + b = -1, so a = -2, b = 9 (the third point repeats the first
    # equation).  KKT: w = 2 (1.5, 2.5) + 2 (2.5, 1.5) - 4 (2.5, 2.5) = (-2, -2), alpha = (2, 2, 4).
    # Margin 1/||w|| = 1/(2 sqrt 2) = sqrt(2)/4.
    r = svm_hard(SK_X, SK_Y)
    e = r.extras
    checks = [
        Check("w", (F(-2), F(-2)), e["w"], "hand derivation"),
        Check("b", F(9), e["b"], "hand derivation"),
        Check("alpha", (F(2), F(2), F(4)), e["alpha"], "hand derivation"),
        Check("margin sqrt(2)/4", sympy.sqrt(2) / 4, e["margin"], "hand derivation"),
        Check("every point classified with y f >= 1", True,
              all(yi * r.decision(x) >= 1 for x, yi in zip(SK_X, SK_Y)), "hand derivation"),
    ]
    return ExampleResult([r], checks, notes=[
        "Measured here (scikit-learn 1.x, float64): SVC(kernel='linear', C=1e6) gives w = (-1.99902, -1.99902), "
        "b = 8.99577, dual coefficients (-3.998, 1.999, 1.999): close, not exact; LinearSVC(dual=False), the "
        "issue's call, scores 2/3 on its own training data (its intercept is regularised). exactlin's answer is "
        "exact and KKT-certified."])


@example("seed000-example2-gordan", title="Example 2 (XOR-like) is not separable through the origin: a Gordan "
         "certificate from the LP", seed=SEED000, algorithm="separable")
def ex_gordan() -> ExampleResult:
    # Hand derivation: the normalized samples y_i x_i are (1,1), (-1,1), (1,-1), (-1,-1); they sum to 0, so
    # lambda = (1/4, 1/4, 1/4, 1/4) gives sum lambda_i y_i x_i = 0 and no w has y_i <w, x_i> > 0 for all i.
    # Certificates are not unique ((-1,1) + (1,-1) = 0 gives (0, 1/2, 1/2, 0)); the LP returns a vertex.
    r = separable(EX2_X, EX2_Y, bias="none")
    cert = r.extras["certificate"]
    r2 = separable(EX2_X, EX2_Y, bias="first")
    checks = [
        Check("separable through the origin", False, r.extras["separable"], "hand derivation"),
        Check("the LP's certificate verified exactly", True, cert.verified, "verified: LP/Gordan"),
        Check("the hand-derived lambda = (1/4, 1/4, 1/4, 1/4) verifies too", True, _gordan_ok(r, (F(1, 4),) * 4),
              "hand derivation"),
        Check("with an intercept still not separable (same lambda: sum lambda_i y_i = 0 too)", False,
              r2.extras["separable"], "hand derivation"),
    ]
    return ExampleResult([r, r2], checks, notes=[
        "The perceptron proves the same by returning to w = 0 (example seed000-example2); the LP gives the "
        "certificate directly and for any data."])


@example("seed004-circle-svm", title="The circle, with both certificates: not separable in the plane, a "
         "maximum-margin plane after phi(x, y) = (x, y, x^2 + y^2)", seed=SEED004, algorithm="svm-hard")
def ex_circle_svm() -> ExampleResult:
    # Before the lift: (0,0) is +1 and the midpoint of (2,0) and (-2,0), both -1.  With z_i = y_i (1, x_i):
    # 1/2 (1, 0, 0) + 1/4 (-1, -2, 0) + 1/4 (-1, 2, 0) = 0, a Gordan certificate (lambda 1/2, 1/4, 1/4).
    # After the lift the data keep the symmetries of the square, and w is unique, so w = (0, 0, c): a
    # 1-D problem in z = x^2 + y^2 with +1 at z in {0, 1/4} and -1 at z = 4.  The closest pair is 1/4 and 4:
    # c = 2 / (1/4 - 4) = -8/15, and c/4 + b = 1 gives b = 17/15.  The boundary z = 17/8 is the circle of
    # radius^2 17/8, halfway (in z) between 1/4 and 4; the margin in the lifted space is 1/|c| = 15/8.
    before = separable(CIRCLE_X, CIRCLE_Y)
    svm_before = svm_hard(CIRCLE_X, CIRCLE_Y)
    lifted = _lift(CIRCLE_X)
    after = svm_hard(lifted, CIRCLE_Y)
    kern = svm_hard(CIRCLE_X, CIRCLE_Y, kernel="poly", degree=2)
    e = after.extras
    lam = before.extras["certificate"].lam
    checks = [
        Check("not separable in the plane", (False, "not_separable"),
              (before.extras["separable"], svm_before.reason), "hand derivation"),
        Check("Gordan certificate verified", True, before.extras["certificate"].verified, "verified: LP/Gordan"),
        Check("certificate is a convex combination: sum lambda = 1", F(1), sum(lam), "verified: LP/Gordan"),
        Check("after the lift: w = (0, 0, -8/15)", (F(0), F(0), F(-8, 15)), e["w"], "hand derivation"),
        Check("b = 17/15", F(17, 15), e["b"], "hand derivation"),
        Check("margin in the lifted space 15/8", sympy.Rational(15, 8), e["margin"], "hand derivation"),
        Check("KKT verified exactly after the lift", True, e["kkt"].verified, "verified: KKT (exactlin.theory.kkt)"),
        Check("the degree-2 polynomial kernel separates too (dual decision function, y g(x) >= 1)", True,
              all(yi * decision_function(kern, x) >= 1 for x, yi in zip(CIRCLE_X, CIRCLE_Y)),
              "verified: y g(x) >= 1 evaluated exactly on every sample"),
    ]
    return ExampleResult([before, svm_before, after, kern], checks, notes=[
        "Seed 004 draws the unit circle; the maximum-margin circle for these samples has radius^2 17/8, midway "
        "in z = x^2 + y^2 between the inner (z = 1/4) and outer (z = 4) support vectors."])


@example("seed004-tightest-bound", title="The tightest perceptron bound R^2 ||w*||^2 on seed 000's Example 1",
         seed=SEED004, algorithm="perceptron")
def ex_bound() -> ExampleResult:
    # Hand derivation (through the origin): z_i = y_i x_i = (4,0), (-1,-1), (0,-1), (-2,-2).  The constraints
    # <w*, z_i> >= 1 read w1 >= 1/4, w2 <= -1 - w1, w2 <= -1, w2 <= -1/2 - w1.  Making w1 larger only forces w2
    # lower, so w1 = 1/4, w2 = -5/4: ||w*||^2 = 26/16 = 13/8.  R^2 = ||(4,0)||^2 = 16, bound 16 * 13/8 = 26.
    # The run's own final w = (1,-3) gives R^2 ||w||^2 / gamma^2 = 16 * 10 / 4 = 40: the SVM bound is tighter.
    pb = perceptron_bound(EX1_X, EX1_Y, bias="none")
    run = perceptron(EX1_X, EX1_Y, w_star=pb["w_star"])
    checks = [
        Check("w* (minimum norm with y<w*,x> >= 1)", (F(1, 4), F(-5, 4)), pb["w_star"], "hand derivation"),
        Check("||w*||^2", F(13, 8), pb["norm2_w_star"], "hand derivation"),
        Check("bound R^2 ||w*||^2", F(26), pb["bound"], "hand derivation"),
        Check("the monitor with this w* holds and K <= 26", (True, True),
              (run.extras["monitor"].holds, run.updates <= 26), "hand derivation"),
    ]
    return ExampleResult([run], checks, data={"bound": pb["bound"], "w_star": pb["w_star"]})


# ---------------------------------------------------------------------------
# errata


@erratum("seed002-margin-maximized", seed=SEED002, where="Maximum Margin Classifiers, last bullets",
         notes_say='"At the optimal solution, the margin is exactly 1/||w|| when ||w|| is maximized"',
         correct="when ||w|| is minimized: the margin 1/||w|| is largest for the shortest feasible w (the notes' "
                 "own previous line: 'maximize margin 1/||w|| = minimizing ||w||'); ||w|| has no maximum on the "
                 "feasible set")
def _e_maximized():
    # (0,0) -1, (1,1) +1: the optimum w = (1,1), b = -1 has margin sqrt(2)/2; w = (t, t), b = -1 stays
    # feasible for every t >= 1 (y f = 2t - 1 >= 1 and 1), its margin min |w.x + b|/||w|| = 1/(t sqrt 2)
    # shrinks, and ||w|| grows without bound: no maximum exists.
    opt = svm_hard(DIAG_X, DIAG_Y)
    rows = []
    for t in (1, 2, 10, 100):
        w, b = (F(t), F(t)), F(-1)
        feasible = all(yi * (w[0] * x[0] + w[1] * x[1] + b) >= 1 for x, yi in zip(DIAG_X, DIAG_Y))
        m = min(abs(w[0] * x[0] + w[1] * x[1] + b) for x in DIAG_X) / sympy.sqrt(2 * t * t)
        rows.append((t, feasible, sympy.nsimplify(m)))
    holds = bool(all(f for _, f, _ in rows) and rows[0][2] == opt.extras["margin"] and rows[-1][2] < rows[0][2])
    return {"holds": holds,
            "text": "on (0,0) -1, (1,1) +1: w = (t,t), b = -1 is feasible for all t >= 1 with margin 1/(t sqrt 2): "
                    "t = 1 (the minimum-norm w) gives the maximum margin sqrt(2)/2; larger ||w|| gives smaller "
                    "margins and ||w|| is unbounded",
            "rows (t, feasible, margin)": rows, "optimal margin": opt.extras["margin"]}


@erratum("seed004-strict-constraints", seed=SEED004, where="Finding a maximum margin classifier / Optimization "
         "problem / Soft margin optimization",
         notes_say='"w.x + b > 1 if y_i = 1, w.x + b < -1 if y_i = -1" (and "> 1 - xi_i", "< -1 + xi_i")',
         correct="y_i (w.x_i + b) >= 1 (soft: >= 1 - xi_i): the optimum always has active constraints, which the "
                 "strict version excludes, so with '>' the minimum is not attained (only approached)")
def _e_strict():
    # hard margin, x = 0 (-1), 2 (+1): the optimum w = 1, b = -1 has y f = 1 on both points (violates '>');
    # w = 1 + e, b = -1 - e is strictly feasible (y f = 1 + e on both) with ||w||^2/2 > 1/2 for every e > 0
    hard = svm_hard([(0,), (2,)], [-1, 1])
    active_hard = [x[0] for x, yi in zip([(0,), (2,)], [-1, 1]) if yi * hard.decision(x) == 1]
    soft = svm_soft_l2([(0,), (2,)], [-1, 1])
    xi = soft.extras["xi"]
    active_soft = [i for i, (x, yi) in enumerate(zip([(0,), (2,)], [-1, 1]))
                   if yi * soft.decision(x) == 1 - xi[i]]
    # strictly feasible points approaching the hard optimum: w = 1 + e, b = -1 - e (y f = 1 + e and 1 + e)
    approach = [(e, (1 + e) ** 2 / 2) for e in (F(1, 10), F(1, 100), F(1, 1000))]
    holds = (active_hard == [0, 2] and active_soft == [0, 1] and all(v > F(1, 2) for _, v in approach)
             and hard.extras["kkt"].primal_objective == F(1, 2))
    return {"holds": holds,
            "text": "x = 0 (-1), x = 2 (+1): the hard-margin optimum w = 1, b = -1 has y f = 1 on both samples; "
                    "with '>' it is infeasible and every strictly feasible (1 + e, -1 - e) has objective "
                    "(1 + e)^2/2 > 1/2, so the infimum 1/2 is not attained. Seed 004's soft margin (C = 1) has "
                    "optimum w = 4/5, b = -4/5, xi = 1/5 with y f = 1 - xi exactly on both samples.",
            "hard optimum (w, b)": (hard.extras["w"], hard.extras["b"]), "active (hard)": active_hard,
            "soft optimum xi": xi, "active (soft)": active_soft, "objective along e -> 0": approach}


@erratum("seed004-alpha-iff", seed=SEED004, where="Solution to optimization problem",
         notes_say='"alpha_i is non-zero iff x_i is a support vector"',
         correct="alpha_i > 0 implies x_i is on the margin (complementary slackness), not conversely: a sample on "
                 "the margin can have alpha_i = 0 even when the multipliers are unique")
def _e_alpha():
    # (0,0) -1, (2,0) +1, (2,1) +1: w = (1,0), b = -1 (the bisector x1 = 1); all three have y f = 1.
    # w = sum alpha_i y_i x_i = alpha_2 (2,0) + alpha_3 (2,1) forces alpha_3 = 0 (second component) and
    # alpha_2 = 1/2, alpha_1 = 1/2 (sum alpha y = 0): unique, and the point (2,1) on the margin has alpha = 0.
    X, y = [(0, 0), (2, 0), (2, 1)], [-1, 1, 1]
    r = svm_hard(X, y)
    on_margin = [i for i, (x, yi) in enumerate(zip(X, y)) if yi * r.decision(x) == 1]
    holds = (r.extras["w"] == (1, 0) and r.extras["b"] == -1 and on_margin == [0, 1, 2]
             and r.extras["alpha"] == (F(1, 2), F(1, 2), F(0)))
    return {"holds": holds,
            "text": "(0,0) -1, (2,0) +1, (2,1) +1: w = (1,0), b = -1; all three samples lie on the margin, but the "
                    "unique multipliers are alpha = (1/2, 1/2, 0): (2,1) is on the margin with alpha = 0",
            "alpha": r.extras["alpha"], "on the margin": on_margin}


@erratum("seed004-slack-correct", seed=SEED004, where="Soft margin classifier",
         notes_say='"If the point is correctly classified, error term is 0"',
         correct="xi_i = 0 only when y_i f(x_i) >= 1 (outside the margin); a correctly classified sample inside "
                 "the margin (0 < y_i f(x_i) < 1) has xi_i = 1 - y_i f(x_i) > 0")
def _e_slack():
    # seed 004's objective (C = 1) on x = 0 (-1), 2 (+1): w = 4/5, b = -4/5 (w^2/2 + 2 (1 - w)^2 is minimal
    # at w = 4/5): both samples are correctly classified (y f = 4/5 > 0) yet xi = 1/5 each
    r = svm_soft_l2([(0,), (2,)], [-1, 1])
    margins = tuple(yi * r.decision(x) for x, yi in zip([(0,), (2,)], [-1, 1]))
    holds = margins == (F(4, 5), F(4, 5)) and r.extras["xi"] == (F(1, 5), F(1, 5))
    return {"holds": holds,
            "text": "seed 004's soft margin on x = 0 (-1), x = 2 (+1): w = 4/5, b = -4/5; both samples are correctly "
                    "classified (y f = 4/5 > 0) yet each has slack xi = 1/5",
            "y f": margins, "xi": r.extras["xi"]}
