"""Fisher's linear discriminant, seed 003 (003_ffe0ec08819b37d8.txt, FLDA), exactly."""

from fractions import Fraction as F

import numpy as np
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from exactlin.algorithms.fisher import fisher, fisher_direction, sign_c_plus_s_log
from exactlin.errors import LabelError, ParameterError, SingularMatrixError

# hand-derivable set: omega_1 = {(1,0), (3,0), (2,1)}, omega_2 = {(-1,0), (-3,0), (-2,-1)}
X = [(1, 0), (3, 0), (2, 1), (-1, 0), (-3, 0), (-2, -1)]
Y = [1, 1, 1, -1, -1, -1]
# by hand: m1 = (2, 1/3), m2 = (-2, -1/3); S1 = [[2, 0], [0, 2/3]] (deviations (-1,-1/3), (1,-1/3), (0,2/3)),
# S2 = S1, S_W = [[4, 0], [0, 4/3]], m1 - m2 = (4, 2/3), w = (1, 1/2), S_B = [[16, 8/3], [8/3, 4/9]],
# w^t S_B w = (4 + 1/3)^2 = 169/9, w^t S_W w = 4 + 1/3 = 13/3, J = 13/3; m~1 = 2 + 1/6 = 13/6, m~2 = -13/6


def test_hand_example():
    r = fisher(X, Y)
    e = r.extras
    assert e["m1"] == (2, F(1, 3)) and e["m2"] == (-2, F(-1, 3))
    assert e["S1"] == ((2, 0), (0, F(2, 3))) and e["S_W"] == ((4, 0), (0, F(4, 3)))
    assert e["S_B"] == ((16, F(8, 3)), (F(8, 3), F(4, 9)))
    assert r.w == (1, F(1, 2)) and e["J"] == F(13, 3)
    assert e["mt1"] == F(13, 6) and e["mt2"] == F(-13, 6)
    assert e["thresholds"]["1"] == 0 and e["thresholds"]["2"] == 0 and e["y0"] == 0
    assert e["predictions"] == (1, 1, 1, -1, -1, -1) and e["training_errors"] == 0
    d = r.to_dict()
    assert d["y0"] == "0" and d["S_W"] == [["4", "0"], ["0", "4/3"]] and d["w"] == ["1", "1/2"]


def test_third_threshold_exact_and_sign():
    # 1-D: omega_1 = {1, 3}, omega_2 = {-1, -3}: w = 1, m~ = +-2, n1 + n2 - 2 = 2
    # priors 9/10, 1/10: y0^(3) = 0 - ln 9 / 2 (Bayes, pooled covariance); the notes print + ln 9 / 2
    r = fisher([(1,), (3,), (-1,), (-3,)], [1, 1, -1, -1], priors="9/10,1/10")
    assert r.extras["threshold"] == "3"
    assert sympy.simplify(r.extras["y0"] + sympy.log(9) / 2) == 0
    assert sympy.simplify(r.extras["thresholds"]["3_as_printed"] - sympy.log(9) / 2) == 0
    # x = -1: y = -1 > -ln(9)/2 = -1.0986...: omega_1 (decided exactly)
    assert r.extras["predictions"] == (1, 1, 1, -1)
    # unequal class sizes: y0^(2) = (n1 m~1 + n2 m~2)/(n1 + n2)
    r2 = fisher([(0,), (2,), (4,), (-2,)], [1, 1, 1, -1], threshold="2")
    # by hand: m1 = 2, m2 = -2, S_W = 8, w = 1/2, m~1 = 1, m~2 = -1, y0^(2) = (3 - 1)/4 = 1/2
    assert r2.w == (F(1, 2),) and r2.extras["y0"] == F(1, 2)


def test_sign_decisions_close_to_the_boundary():
    # ln 2 = 0.693147180559945309417...; c + s ln q around it
    assert sign_c_plus_s_log(F(-693147180559945309, 10 ** 18), 1, 2) == 1
    assert sign_c_plus_s_log(F(-693147180559945310, 10 ** 18), 1, 2) == -1
    assert sign_c_plus_s_log(F(3), 0, 5) == 1 and sign_c_plus_s_log(F(-3), 7, 1) == -1


def test_singular_scatter():
    Xs = [(1, 5), (3, 5), (-1, 5), (-3, 5)]  # the second feature is constant: S_W singular
    with pytest.raises(SingularMatrixError, match="S_W .* is singular"):
        fisher(Xs, [1, 1, -1, -1])
    r = fisher(Xs, [1, 1, -1, -1], singular="pinv")
    # by hand: S_W = [[4, 0], [0, 0]], S_W^+ = [[1/4, 0], [0, 0]], m1 - m2 = (4, 0): w = (1, 0)
    assert r.w == (1, 0) and r.extras["method"] == "pinv" and "pseudoinverse" in r.extras["note"]
    # by hand: omega_1 = {(1,0), (1,1)}, omega_2 = {(-1,0), (-1,1)}: S_W = [[0,0],[0,1]], m1 - m2 = (2, 0) lies in
    # its null space, S_W^+ (m1 - m2) = 0. That used to be returned as w = (0, 0), "solved", classifying nothing
    with pytest.raises(ValueError, match="lies in the null space of the singular S_W"):
        fisher([(1, 0), (1, 1), (-1, 0), (-1, 1)], [1, 1, -1, -1], singular="pinv")


def test_bad_inputs():
    with pytest.raises(LabelError, match="class omega_2 .* is empty"):
        fisher([(1,), (2,)], [1, 1])
    with pytest.raises(ParameterError, match="bias must be none"):
        fisher(X, Y, bias="first")
    with pytest.raises(ParameterError, match="priors must be > 0"):
        fisher(X, Y, priors="1,0")
    with pytest.raises(ParameterError, match="threshold must be one of"):
        fisher(X, Y, threshold="4")
    with pytest.raises(ValueError, match="class means coincide"):
        fisher([(1,), (-1,), (2,), (-2,)], [1, 1, -1, -1])


def test_numpy_fast_path_matches():
    rng = np.random.default_rng(3)
    A = rng.integers(-9, 10, size=(60, 3))
    B = rng.integers(-9, 10, size=(50, 3)) + 2
    fast = fisher_direction(A, B)
    slow = fisher_direction([tuple(F(int(v)) for v in r) for r in A.tolist()],
                            [tuple(F(int(v)) for v in r) for r in B.tolist()])
    assert fast["w"] == slow["w"]
    # independent sympy reference (textbook route: centre, scatter, solve)
    def scatter(M):
        M = sympy.Matrix(M.tolist())
        m = sympy.Matrix([sum(M[:, j]) / M.rows for j in range(M.cols)])
        C = M - sympy.ones(M.rows, 1) * m.T
        return m, C.T * C
    m1, S1 = scatter(A)
    m2, S2 = scatter(B)
    w = (S1 + S2).LUsolve(m1 - m2)
    assert [sympy.Rational(v.numerator, v.denominator) for v in fast["w"]] == list(w)


@given(st.lists(st.tuples(st.integers(-5, 5), st.integers(-5, 5)), min_size=3, max_size=6),
       st.lists(st.tuples(st.integers(-5, 5), st.integers(-5, 5)), min_size=3, max_size=6))
def test_invariance(P1, P2):
    # the notes: "the scale factor for w is immaterial". Replacing S_W by the total scatter
    # S_T = S_W + (n1 n2 / n) S_B, or by the pooled covariance S_W / (n - 2), gives w up to a positive factor;
    # swapping the classes negates w.
    try:
        st_ = fisher_direction(P1, P2)
    except (SingularMatrixError, ValueError):
        return
    n1, n2 = len(P1), len(P2)
    SW = sympy.Matrix(st_["S_W"])
    SB = sympy.Matrix(st_["S_B"])
    delta = sympy.Matrix(st_["delta"])
    w = sympy.Matrix(st_["w"])
    ST = SW + sympy.Rational(n1 * n2, n1 + n2) * SB
    wT = ST.LUsolve(delta)
    ratio = [wT[i] / w[i] for i in range(2) if w[i] != 0]
    assert len(set(ratio)) == 1 and ratio[0] > 0
    wC = (SW / (n1 + n2 - 2)).LUsolve(delta)
    assert wC == w * (n1 + n2 - 2)
    swapped = fisher_direction(P2, P1)
    assert swapped["w"] == tuple(-v for v in st_["w"])


def test_direction_is_checked_independently(monkeypatch):
    # w is a claim: it is checked by independent code (S_W w = m_1 - m_2 from the centred samples; Penrose for
    # the pinv route), so a wrong solver answer cannot pass silently
    from exactlin.algorithms import fisher as fmod
    from exactlin.errors import VerificationError

    monkeypatch.setattr(fmod, "int_solve", lambda N, rhs, **k: tuple(F(2 * v) for v in rhs))
    with pytest.raises(VerificationError, match="S_W w != m_1 - m_2"):
        fmod.fisher_direction(X[:3], X[3:])
    monkeypatch.setattr(fmod, "int_solve", lambda *a, **k: (_ for _ in ()).throw(SingularMatrixError("sing")))
    monkeypatch.setattr(fmod, "pinv", lambda M, **k: tuple(tuple(F(0) for _ in row) for row in M))
    with pytest.raises(VerificationError, match="Penrose condition"):
        fmod.fisher_direction(X[:3], X[3:], singular="pinv")
