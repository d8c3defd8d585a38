"""Tests of the independent KKT checker (exactlin.theory.kkt): it accepts hand-derived optima and
rejects every kind of broken claim with a message naming the failing condition."""

from fractions import Fraction as F

import pytest

from exactlin.errors import VerificationError
from exactlin.theory.kkt import verify_kkt

# hand-derived hard margin: x = 0 (-1), x = 2 (+1): w = 1, b = -1, alpha = (1/2, 1/2)
# (w = sum alpha_i y_i x_i = 1/2 * 2 = 1; sum alpha_i y_i = 0; both on the margin)
X1, Y1 = [(0,), (2,)], [-1, 1]


def test_accepts_hand_derived_hard_margin():
    rep = verify_kkt(X1, Y1, [F(1, 2), F(1, 2)], -1, w=(1,))
    assert rep["verified"] is True
    assert rep["primal_objective"] == rep["dual_objective"] == F(1, 2)


@pytest.mark.parametrize("alpha,b,w,frag", [
    # hand: f(x) = x; sample 1 (x = 0, y = -1) has y f = 0 < 1 (samples are named from 1 in messages)
    ([F(1, 2), F(1, 2)], 0, (1,), "primal feasibility fails at sample 1"),
    ([-1, -1], -1, (-2,), "dual feasibility fails: alpha_1 = -1 < 0 (sample 1)"),
    ([F(1, 2), 1], -1, (1,), "stationarity in b fails"),
    ([1, 1], -1, (1,), "stationarity fails: w != sum_i alpha_i y_i x_i"),
    # hand: f = -1; sample 1 has y f = 1, sample 2 (x = 2, y = +1) has y f = -1 < 1
    ([0, 0], -1, (0,), "primal feasibility fails at sample 2"),
])
def test_rejects_broken_claims(alpha, b, w, frag):
    with pytest.raises(VerificationError, match=frag.replace("(", "\\(").replace(")", "\\)")):
        verify_kkt(X1, Y1, alpha, b, w=w)


def test_complementary_slackness():
    # x = 0 (-1), x = 2 (+1), x = 3 (+1): the optimum is still w = 1, b = -1 with alpha_2 = 0;
    # putting weight on the non-support sample x = 3 breaks complementary slackness
    X, Y = [(0,), (2,), (3,)], [-1, 1, 1]
    assert verify_kkt(X, Y, [F(1, 2), F(1, 2), 0], -1, w=(1,))["verified"]
    # alpha = (1/3, 0, 1/3): sum alpha y = 0 and w = 3 * 1/3 = 1 (stationarity holds), but sample 2 has
    # y f = 2 > 1 with alpha_2 > 0
    with pytest.raises(VerificationError, match="complementary slackness fails at sample 3"):
        verify_kkt(X, Y, [F(1, 3), 0, F(1, 3)], F(-1), w=(1,), loss="hard")


def test_hinge_loss_conditions():
    # hand (see svm_soft's docstring): x = 0 (-1), 1 (+1), 1/2 (-1), C = 1: alpha = (0, 1, 1), w = 1/2,
    # any b in [-5/4, -1]; slacks xi = (0, 1 - (1/2 + b), 1 + (1/4 + b))
    X, Y = [(0,), (1,), (F(1, 2),)], [-1, 1, -1]
    for b in (F(-5, 4), F(-9, 8), F(-1)):
        rep = verify_kkt(X, Y, [0, 1, 1], b, w=(F(1, 2),), loss="hinge", C=1)
        assert rep["xi"] == (0, F(1, 2) - b, F(5, 4) + b)
    with pytest.raises(VerificationError, match="alpha_2 = 2 > C = 1"):
        verify_kkt(X, Y, [1, 2, 1], -1, w=(F(3, 2),), loss="hinge", C=1)
    with pytest.raises(VerificationError, match="needs C"):
        verify_kkt(X, Y, [0, 1, 1], -1, w=(F(1, 2),), loss="hinge")


def test_squared_loss_conditions():
    # hand (svm_soft_l2 docstring): x = 0 (-1), 2 (+1), C = 1: w = 4/5, b = -4/5, xi = 1/5 each,
    # alpha = 2 C xi = 2/5 each (w = 2/5 * 2 = 4/5)
    X, Y = [(0,), (2,)], [-1, 1]
    rep = verify_kkt(X, Y, [F(2, 5), F(2, 5)], F(-4, 5), w=(F(4, 5),), loss="squared", C=1)
    assert rep["xi"] == (F(1, 5), F(1, 5))
    assert rep["primal_objective"] == F(8, 25) + 2 * F(1, 25)
    # w = 0, b = 0, alpha = 0, xi = (1, 1) is feasible and stationary in w, but not in xi (2 C xi != alpha)
    with pytest.raises(VerificationError, match="stationarity in xi fails at sample 1"):
        verify_kkt(X, Y, [0, 0], 0, w=(0,), loss="squared", C=1, xi=[1, 1])


def test_kernel_form():
    # linear kernel through the dual form gives the same verdict as the explicit w
    def lin(u, v):
        return sum(F(a) * F(b) for a, b in zip(u, v))

    assert verify_kkt(X1, Y1, [F(1, 2), F(1, 2)], -1, kernel=lin)["norm2_w"] == 1
    with pytest.raises(VerificationError):
        verify_kkt(X1, Y1, [1, 1], -1, kernel=lin)


def test_no_intercept():
    # through the origin: x = 1 (+1) alone: w = 1, alpha = 1
    assert verify_kkt([(1,)], [1], [1], 0, w=(1,), intercept=False)["verified"]
    with pytest.raises(VerificationError, match="b must be 0"):
        verify_kkt([(1,)], [1], [1], 1, w=(1,), intercept=False)
