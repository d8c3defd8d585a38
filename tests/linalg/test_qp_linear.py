"""Tests of exactlin.linalg.qp_linear (the exact repair of a linear SVM over integer rows) on problems solved by
hand: seed 004's two-point hard margin, x = (0, 0) labelled -1 and (2, 0) labelled +1: w = (1, 0), b = -1,
alpha = (1/2, 1/2) (||w||^2 = sum alpha = 1)."""

from __future__ import annotations

from fractions import Fraction as F

from exactlin.linalg.qp import KernelMatrix
from exactlin.linalg.qp_linear import IntegerRows, hinge_active_set, repair_subset, squared_newton, weights

X = [(F(0), F(0)), (F(2), F(0))]
Y = [-1, 1]
HALF = F(1, 2)


def test_lemke_on_the_doubtful_samples_solves_the_two_point_hard_margin():
    alpha, b = repair_subset(IntegerRows(X), Y, [0, 1], [], hard=True, C=None, intercept=True)
    assert alpha == (HALF, HALF) and b == -1


def test_a_doubtful_set_too_small_grows_by_the_violated_samples():
    # three points on a line, x = 0, 2 (-1) and 3 (+1): the margin lies between 2 and 3 (w = 2, b = -5);
    # starting from sample 0 alone, the pass finds 2 violated, then the rest
    Xs = [(F(0),), (F(2),), (F(3),)]
    alpha, b = repair_subset(IntegerRows(Xs), [-1, -1, 1], [0], [], hard=True, C=None, intercept=True, order=[1, 2])
    assert b == -5 and alpha == (0, 2, 2)  # w = 2 * 3 - 2 * 2 = 2, sum alpha y = 0, ||w||^2 = 4 = sum alpha


def test_active_set_steps_from_the_right_sets():
    alpha, b = hinge_active_set(IntegerRows(X), KernelMatrix(X, None, None), Y, [0, 1], [], hard=True, C=None,
                                intercept=True, max_iter=5)
    assert alpha == (HALF, HALF) and b == -1


def test_hinge_with_both_samples_at_C():
    # C = 1/4 < 1/2 (the hard margin's multipliers): both multipliers at C, w = 1/4 * 2 = 1/2; alpha = C needs
    # y_i f(x_i) <= 1 for both, -b <= 1 and 1 + b <= 1, so every b in [-1, 0] is optimal (checked, not pinned)
    C = F(1, 4)
    alpha, b = repair_subset(IntegerRows(X), Y, [0, 1], [], hard=False, C=C, intercept=True)
    assert alpha == (C, C)
    w = weights(IntegerRows(X), {0: -C, 1: C})
    assert w == (HALF, 0)
    assert -1 <= b <= 0


def test_squared_slacks_two_points():
    # svm-soft-l2's doctest (x = 0, 2 on a line): w = 4/5, b = -4/5, xi = 1/5, alpha = 2 C xi = 2/5
    Xs = [(F(0),), (F(2),)]
    alpha, b = squared_newton(IntegerRows(Xs), Y, [0, 1], C=F(1), intercept=True, max_iter=5)
    assert alpha == (F(2, 5), F(2, 5)) and b == F(-4, 5)


def test_a_metric_weights_the_dot_product():
    # K(x, z) = 2 x1 z1 + 3 x2 z2: rows (1, 1) and (1, -1) give K = 2 - 3 = -1
    lin = IntegerRows([(F(1), F(1)), (F(1), F(-1))], metric=(2, 3))
    assert F(lin.dot(lin.rows[0], lin.rows[1]), lin.KD) == -1
    g, den = lin.scaled((F(1), F(0)), F(0))  # f(x) = 2 * 1 * x1
    assert [F(v, den) for v in g] == [2, 2]
