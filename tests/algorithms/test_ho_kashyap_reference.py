"""The three Ho-Kashyap procedures of seed 003 (003_ffe0ec08819b37d8.txt) against an independent reference.

The reference below is written from the notes alone, in plain Fractions, and shares no code with
exactlin: Y^+ = (Y^tY)^{-1} Y^t by Gauss-Jordan elimination (every dataset here has full column rank),
and the stopping rules of the docstring of exactlin.algorithms.ho_kashyap (Y a > 0: separable; e <= 0,
e != 0, Y^t e = 0: not separable, the notes' "proof that the samples are not linearly separable"; else
k_max steps).
"""

from fractions import Fraction as F

import pytest

from exactlin.algorithms.ho_kashyap import ho_kashyap, ho_kashyap_mod1, ho_kashyap_mod2


def _normalized(X, labels):
    # bias "first": y_i = z_i (1, x_i) with z_i the +1/-1 label
    return [tuple(F(z) * v for v in (1, *x)) for x, z in zip(X, labels)]


def _inverse(M):
    n = len(M)
    A = [[F(v) for v in row] + [F(int(i == j)) for j in range(n)] for i, row in enumerate(M)]
    for c in range(n):
        p = next(r for r in range(c, n) if A[r][c] != 0)
        A[c], A[p] = A[p], A[c]
        piv = A[c][c]
        A[c] = [v / piv for v in A[c]]
        for r in range(n):
            if r != c and A[r][c] != 0:
                f = A[r][c]
                A[r] = [a - f * b for a, b in zip(A[r], A[c])]
    return [row[n:] for row in A]


def _mat_vec(M, v):
    return tuple(sum((a * b for a, b in zip(row, v)), F(0)) for row in M)


def _transpose(M):
    return [list(col) for col in zip(*M)]


def _reference(variant, X, labels, *, eta=None, k_max=30):
    Y = _normalized(X, labels)
    n, d = len(Y), len(Y[0])
    Yt = _transpose(Y)
    YtY = [[sum((Yt[i][m] * Yt[j][m] for m in range(n)), F(0)) for j in range(d)] for i in range(d)]
    Yp = [list(r) for r in (_mat_vec(_inverse(YtY), col) for col in _transpose(Yt))]  # (Y^tY)^-1 Y^t by columns
    Yp = _transpose(Yp)  # d x n
    b = tuple(F(1) for _ in range(n))
    if variant == "mod2":
        if eta is None:
            eta = 1 / sum(YtY[i][i] for i in range(d))
        a = tuple(F(0) for _ in range(d))
    else:
        eta = F(1, 2) if eta is None else eta
        a = _mat_vec(Yp, b)  # a(1) = Y^+ b(1)
    k = 0
    while True:
        e = tuple(s - bi for s, bi in zip(_mat_vec(Y, a), b))  # e = Y a - b
        if all(s > 0 for s in _mat_vec(Y, a)):
            return "separable", a, b, k
        if all(v <= 0 for v in e) and any(e) and not any(_mat_vec(Yt, e)):
            return "not_separable", a, b, k
        if k >= k_max:
            return "undecided", a, b, k
        k += 1
        abs_e = tuple(abs(v) for v in e)
        if variant == "alg11":  # b <- b + 2 eta e+, e+ = (e + |e|)/2; a <- Y^+ b
            b = tuple(bi + 2 * eta * (v + w) / 2 for bi, v, w in zip(b, e, abs_e))
            a = _mat_vec(Yp, b)
        elif variant == "mod1":  # b <- b + eta (e + |e|); a <- a + eta Y^+ |e|
            b = tuple(bi + eta * (v + w) for bi, v, w in zip(b, e, abs_e))
            a = tuple(ai + eta * t for ai, t in zip(a, _mat_vec(Yp, abs_e)))
        else:  # b <- b + (e + |e|); a <- a + eta R Y^t |e|, R = I
            b = tuple(bi + v + w for bi, v, w in zip(b, e, abs_e))
            a = tuple(ai + eta * t for ai, t in zip(a, _mat_vec(Yt, abs_e)))


DATASETS = [
    ([(1, 2), (2, 0), (3, 1), (2, 3)], [1, 1, -1, -1]),  # seed 003's example
    ([(0, 0), (1, 1), (1, 0), (0, 1)], [1, 1, -1, -1]),  # XOR: not separable
    ([(0, 0), (3, 0), (0, 3), (1, 1), (4, 4)], [1, 1, 1, -1, -1]),
    ([(0,), (1,), (3,), (4,)], [1, 1, -1, 1]),  # not separable in one dimension
    ([(2, 1), (1, 3), (-1, 1), (0, -2), (3, 3)], [1, 1, -1, -1, 1]),
    ([(2, -2), (-3, 2), (0, 3), (3, 2), (2, 1), (-1, 1)], [-1, 1, 1, -1, 1, 1]),  # separable after 23 steps
    ([(-2, 3), (0, 0), (0, 3), (1, 0), (2, 3)], [1, -1, -1, 1, -1]),  # undecided within 30 steps
]

FUNCS = {"alg11": ho_kashyap, "mod1": ho_kashyap_mod1, "mod2": ho_kashyap_mod2}


@pytest.mark.parametrize("variant", ["alg11", "mod1", "mod2"])
@pytest.mark.parametrize("X, labels", DATASETS)
def test_matches_independent_reference(variant, X, labels):
    verdict, a, b, k = _reference(variant, X, labels, k_max=30)
    r = FUNCS[variant](X, labels, bias="first", k_max=30)
    assert r.extras["verdict"] == verdict
    assert r.w == a and r.extras["b"] == b and r.steps == k


@pytest.mark.parametrize("variant, eta", [("alg11", F(1, 3)), ("mod1", F(9, 10)), ("mod2", F(1, 100))])
def test_matches_reference_with_other_eta(variant, eta):
    for X, labels in DATASETS:
        verdict, a, b, k = _reference(variant, X, labels, eta=eta, k_max=12)
        r = FUNCS[variant](X, labels, bias="first", k_max=12, eta=eta)
        assert (r.extras["verdict"], r.w, r.extras["b"], r.steps) == (verdict, a, b, k)


def test_reference_exercises_updates():
    # the comparison above is not vacuous: every variant makes updates on some dataset
    for variant in FUNCS:
        runs = [_reference(variant, X, labels) for X, labels in DATASETS]
        assert any(k > 0 and verdict == "separable" for verdict, _, _, k in runs)
        assert {verdict for verdict, _, _, _ in runs} >= {"separable", "not_separable", "undecided"} or \
            variant == "mod2"
