"""Seed 004 (perceptron theorem, SVM, soft margin, feature maps): points away from the margin leave the
maximum-margin separator unchanged; errata of the SVM formulation.

Expected values are hand derivations written in the comments (the notes print no SVM numbers).
"""

from __future__ import annotations

from fractions import Fraction as F

import sympy

from exactlin.algorithms.svm import svm_hard, svm_soft_l2
from exactlin.lectures.errata import erratum
from exactlin.lectures.examples import Check, ExampleResult, example
from exactlin.lectures.notes import SEED004
from exactlin.lectures.notes import value_text as _fmt

#: two support vectors (0,0) (-1) and (1,1) (+1), and two points well outside the slab
BASE_X = [(0, 0), (1, 1), (-1, -1), (3, 2)]
BASE_Y = [-1, 1, -1, 1]


def _wb(r):
    return (r.extras["w"], r.extras["b"])


def _kkt(X, y, r) -> bool:
    """The hard-margin KKT conditions for the run's (w, b, alpha), checked with exact Fractions."""
    w, b, alpha = r.extras["w"], F(r.extras["b"]), [F(a) for a in r.extras["alpha"]]
    Xf = [tuple(F(v) for v in x) for x in X]
    f = [sum((wi * xi for wi, xi in zip(w, x)), F(0)) + b for x in Xf]
    stationary = all(w[t] == sum((a * yi * x[t] for a, yi, x in zip(alpha, y, Xf)), F(0)) for t in range(len(w)))
    return (stationary and sum((a * yi for a, yi in zip(alpha, y)), F(0)) == 0 and all(a >= 0 for a in alpha)
            and all(yi * fi >= 1 for yi, fi in zip(y, f)) and all(a * (yi * fi - 1) == 0
                                                                   for a, yi, fi in zip(alpha, y, f)))


@example("seed004-margin-invariance", title="Points away from the margin leave the maximum-margin separator "
         "unchanged: add, remove, move", seed=SEED004, algorithm="svm-hard")
def margin_invariance() -> ExampleResult:
    # Hand derivation: the support vectors (0,0) (-1) and (1,1) (+1) alone give the bisector w = (1,1), b = -1
    # (seed004-svm-diagonal). The other points have y f = 3 ((-1,-1): -(-1-1-1)) and 4 ((3,2): 3+2-1) > 1, so the
    # KKT conditions of the two-point solution hold for the whole set with alpha = 0 on them; the same holds
    # after adding (5,5) (+1, y f = 9), removing (-1,-1), or moving (3,2) to (0,4) (+1, y f = 3).
    variants = {
        "base": (BASE_X, BASE_Y),
        "add (5,5) +1": (BASE_X + [(5, 5)], BASE_Y + [1]),
        "remove (-1,-1)": ([BASE_X[0], BASE_X[1], BASE_X[3]], [-1, 1, 1]),
        "move (3,2) to (0,4)": (BASE_X[:3] + [(0, 4)], BASE_Y),
    }
    runs = {k: svm_hard(X, y) for k, (X, y) in variants.items()}
    expected = ((F(1), F(1)), F(-1))
    checks = [Check(f"{k}: w = (1,1), b = -1", expected, _wb(r), "hand derivation") for k, r in runs.items()]
    checks.append(Check("support vectors of the base set: samples 0 and 1 (0-based)", [0, 1],
                        list(runs["base"].extras["support_vectors"]), "hand derivation"))
    checks.append(Check("KKT conditions hold for every variant (w = sum alpha_i y_i x_i, sum alpha_i y_i = 0, "
                        "alpha >= 0, y_i f(x_i) >= 1, alpha_i (y_i f(x_i) - 1) = 0)", [True] * 4,
                        [_kkt(X, y, r) for (X, y), r in zip(variants.values(), runs.values())],
                        "independent: the KKT conditions recomputed in Fractions"))
    checks.append(Check("margin sqrt(2)/2 in every variant", [sympy.sqrt(2) / 2] * 4,
                        [r.extras["margin"] for r in runs.values()], "hand derivation"))
    return ExampleResult(list(runs.values()), checks, notes=[
        "Seed 004: 'If we add more training data away from support vectors, separator does not change'. Exactly "
        "so for points with y f(x) > 1 (outside the slab); see erratum seed004-add-away for points that are far "
        "from the support vectors but not outside the slab."])


# ---------------------------------------------------------------------------
# errata


@erratum("seed004-add-away", seed=SEED004, where="Support Vector Machine (SVM), first bullet",
         notes_say='"If we add more training data away from support vectors, separator does not change"',
         correct="only data with y_i (w.x_i + b) >= 1 (on or outside the margin slab, on the correct side) leave "
                 "the separator unchanged; a point far from every support vector can still lie inside the slab "
                 "or on the wrong side, and then the separator changes")
def _e_add_away():
    # (0,0) -1, (1,1) +1, plus (5,-5) +1: its distance to both support vectors is about 7, but f = 5 - 5 - 1 = -1.
    # Hand derivation of the new optimum: the closest point of the segment [(1,1), (5,-5)] to (0,0) is
    # p = (1,1) + t (4,-6) with t = 1/26 (d/dt ||p||^2 = 104 t - 4 = 0): p = (15/13, 10/13), ||p||^2 = 25/13;
    # w = 2 p / ||p||^2 = (6/5, 4/5), b = -1 (w.0 + b = -1); (1,1) and (5,-5) both get w.x + b = 1.
    before = svm_hard([(0, 0), (1, 1)], [-1, 1])
    after = svm_hard([(0, 0), (1, 1), (5, -5)], [-1, 1, 1])
    f_new = before.decision((5, -5))
    m2_before, m2_after = F(1, 2), 1 / sum(v * v for v in after.extras["w"])
    holds = (_wb(before) == ((1, 1), -1) and f_new == -1 and _wb(after) == ((F(6, 5), F(4, 5)), -1)
             and m2_after == F(25, 52) and m2_after < m2_before)
    return {"holds": holds,
            "text": f"(0,0) -1, (1,1) +1: w = (1,1), b = -1. Adding (5,-5) +1, far from both support vectors but "
                    f"with f = {_fmt(f_new)}, moves the optimum to w = {_fmt(after.extras['w'])}, b = "
                    f"{_fmt(after.extras['b'])}; the squared margin drops from 1/2 to {_fmt(m2_after)}",
            "w after": after.extras["w"], "b after": after.extras["b"], "margin^2 after": m2_after}


@erratum("seed004-soft-margin-c", seed=SEED004, where="Soft margin optimization (and Optimization problem)",
         notes_say='"Minimize ||w||/2" (hard margin) and "Minimize ||w||^2/2 + sum_i xi_i^2" (soft margin)',
         correct="minimize ||w||^2/2 + C sum_i xi_i^2 with a trade-off constant C > 0: the notes fix C = 1 without "
                 "saying so, and the solution depends on C. (||w||/2 and ||w||^2/2 have the same minimizer in the "
                 "hard case, but only the square makes it the quadratic program the notes name.) exactlin's "
                 "svm-soft-l2 takes C, default 1 = the notes' objective")
def _e_soft_C():
    # x = 0 (-1), x = 2 (+1): by symmetry b = -w, both samples have y f = w and xi = 1 - w; the objective
    # w^2/2 + 2 C (1 - w)^2 is minimal at w = 4C/(1 + 4C): 1/2 (C = 1/4), 4/5 (C = 1), 16/17 (C = 4).
    res = {}
    for C in (F(1, 4), F(1), F(4)):
        r = svm_soft_l2([(0,), (2,)], [-1, 1], C=C)
        res[f"C = {C}"] = (r.extras["w"][0], r.extras["b"])
    holds = res == {"C = 1/4": (F(1, 2), F(-1, 2)), "C = 1": (F(4, 5), F(-4, 5)), "C = 4": (F(16, 17), F(-16, 17))}
    return {"holds": holds,
            "text": "x = 0 (-1), x = 2 (+1): the optimum (w, b) is " + ", ".join(
                f"{_fmt(v)} for {C}" for C, v in res.items()) + "; the notes' objective is the C = 1 case",
            "(w, b) by C": res}
