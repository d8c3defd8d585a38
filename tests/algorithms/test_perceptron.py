"""The perceptron of seed 000, its monitor, margins and certificates.

Expected values come from the lecture (seed 000's Examples 1 and 2) or from hand derivation, said in comments.
"""

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactlin.algorithms.perceptron import perceptron
from exactlin.errors import InputError, InvariantViolation, LabelError, ParameterError, ShapeError
from exactlin.strategies import nonseparable_data, separable_data
from exactlin.theory.certificates import verify_gordan, verify_separator
from exactlin.theory.margins import margin, radius_squared, signed_margin
from exactlin.theory.monitor import ConvergenceMonitor

EX1 = ([(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1])
EX2 = ([(1, 1), (1, -1), (-1, 1), (-1, -1)], [1, -1, -1, 1])


def test_example1_round_by_round():
    # seed 000, Example 1: w2 = (4,0), w3 = (3,-1), w4 = (3,-1), w5 = (1,-3)
    r = perceptron(*EX1, trace=True)
    after = [s.w_after for s in r.trace[:4]]
    assert after == [(4, 0), (3, -1), (3, -1), (1, -3)]
    assert [s.update for s in r.trace[:4]] == [True, True, False, True]
    # hand derivation: the second pass makes no mistake, so the run stops after 8 rounds
    assert r.converged and r.reason == "converged" and r.w == (1, -3)
    assert (r.updates, r.epochs, r.steps) == (3, 2, 8)
    assert r.extras["mistakes"] == (0, 1, 3)  # a Run holds lists as tuples (its JSON reads back so)


def test_example2_cycle_certificate():
    # seed 000, Example 2: w2 = (1,1), w3 = (0,2), w4 = (1,1), w5 = 0
    r = perceptron(*EX2, trace=True)
    assert [s.w_after for s in r.trace] == [(1, 1), (0, 2), (1, 1), (0, 0)]
    assert not r.converged and r.reason == "cycle"
    cert = r.extras["certificate"]
    assert cert["lambda"] == (F(1, 4),) * 4 and cert["verified"]
    verify_gordan(r.problem.Z, cert["lambda"])


def test_strict_test_stays_at_zero():
    # seeds 002/004 test y<w,x> < 0: from w = 0 every score is 0 and nothing is a mistake
    r = perceptron(*EX1, strict=True)
    assert r.w == (0, 0) and r.updates == 0 and not r.converged and r.reason == "boundary"
    assert r.extras["monitor"] is None


def test_eta_and_start_vector():
    # eta = 1/2 from w = 0 scales every iterate by 1/2 (hand derivation): final w = (1/2, -3/2)
    r = perceptron(*EX1, eta="1/2")
    assert r.w == (F(1, 2), F(-3, 2)) and r.updates == 3
    # start at w0 = (1,-3), already a separator: no update
    r = perceptron(*EX1, w0=(1, -3))
    assert r.updates == 0 and r.converged and r.steps == 4


def test_bias_first_on_example1():
    # with a constant 1 prepended, z = (1, x); hand derivation of the first pass:
    # (1,4,0): 0 -> w=(1,4,0); (1,1,1) y=-1: -(1+4)=-5 -> w=(0,3,-1); (1,0,1) y=-1: -(-1)=1 ok;
    # (1,-2,-2) y=1: -6+2=-4 -> w=(1,1,-3); pass 2: 1+4=5, -(1+1-3)=1, -(1-3)=2, 1-2+6=5: converged
    r = perceptron(*EX1, bias="first")
    assert r.w == (1, 1, -3) and r.converged and r.updates == 3


def test_bounds_reported():
    r = perceptron(*EX2, max_epochs=1, monitor=False)
    # the cycle is found at the end of pass 1 (w returns to 0 before pass 2 starts)
    assert r.reason == "cycle"
    r = perceptron(*EX1, max_updates=2)
    assert not r.converged and r.reason == "max_updates" and r.updates == 2
    r = perceptron([(1, 0), (0, 1), (-1, -1)], [1, 1, 1], max_epochs=2)  # not separable through the origin
    assert not r.converged and r.reason in ("cycle", "max_epochs")


def test_bad_parameters():
    with pytest.raises(ParameterError, match="eta must be > 0"):
        perceptron(*EX1, eta=0)
    with pytest.raises(ParameterError, match="no parameter 'etta'"):
        perceptron(*EX1, etta=1)
    with pytest.raises(ParameterError, match="w0 has 3 entries"):
        perceptron(*EX1, w0=(0, 0, 0))
    with pytest.raises(ParameterError, match="max_epochs must be a whole number >= 1"):
        perceptron(*EX1, max_epochs=0)
    with pytest.raises(LabelError, match="label 2 of sample 1"):
        perceptron([(1, 0)], [2])
    with pytest.raises(ShapeError, match="ragged"):
        perceptron([(1, 0), (1,)], [1, -1])
    with pytest.raises(InputError, match="not a finite number at sample 1, feature 2"):
        perceptron([(1, float("nan"))], [1])


def test_monitor_with_given_w_star_and_bound():
    # w* = (1,-3): gamma_min = 2, R^2 = 16, ||w*||^2 = 10, bound = 40 (hand derivation)
    r = perceptron(*EX1, w_star=(1, -3))
    rep = r.extras["monitor"]
    assert (rep.gamma_min, rep.R2, rep.norm2_w_star, rep.bound, rep.K) == (2, 16, 10, 40, 3)
    assert rep.slack == 37
    with pytest.raises(InputError, match="not a separator"):
        perceptron(*EX1, w_star=(1, 0))


def test_monitor_catches_a_false_step():
    mon = ConvergenceMonitor([(F(1), F(0))], (F(1), F(0)))
    with pytest.raises(InvariantViolation, match="Fact 1 fails at round 7"):
        mon.observe(7, (F(0), F(0)), (F(0), F(1)))  # not the update w + z
    mon = ConvergenceMonitor([(F(1), F(0))], (F(1), F(0)))
    with pytest.raises(InvariantViolation, match="Fact 2 fails"):
        mon.observe(1, (F(0), F(0)), (F(1), F(5)))


def test_margins_exact():
    # seed 000's margin example: margin 1/100 with ||w|| = 1
    m = margin((1, 0), [(1, -1), (-1, -1), ("0.01", 0), (-1, 0)])
    assert str(m.value) == "1/100" and m.squared == F(1, 10000)
    # irrational: w = (1,1) on (1,0), (0,1) gives 1/sqrt(2) = sqrt(2)/2
    sm = signed_margin((1, 1), [(1, 0), (0, 1)], [1, 1])
    assert str(sm.value) == "sqrt(2)/2" and sm.squared == F(1, 2)
    assert radius_squared([(3, 4), (1, 1)]) == 25
    with pytest.raises(InputError, match="w = 0"):
        margin((0, 0), [(1, 1)])


@given(separable_data(max_n=10, max_d=3))
@settings(max_examples=60)
def test_converges_on_planted_separable_data(p):
    r = perceptron(p.X, p.y, bias=p.bias, w_star=p.w_star, max_epochs=10_000)
    assert r.converged
    verify_separator(r.problem.Z, r.w)
    rep = r.extras["monitor"]
    assert rep.holds and r.updates <= rep.bound
    # the bound computed here independently: R^2 ||w*||^2 / gamma^2
    Z = p.augmented()
    R2 = max(sum(F(v) ** 2 for v in z) for z in Z)
    assert r.updates * p.gamma_min ** 2 <= R2 * sum(v * v for v in p.w_star)


@given(nonseparable_data(max_n=8))
@settings(max_examples=60)
def test_nonseparable_ends_honestly(p):
    r = perceptron(p.X, p.y, bias=p.bias, max_epochs=200)
    assert not r.converged
    assert r.reason in ("cycle", "max_epochs")
    if r.reason == "cycle":
        verify_gordan(r.problem.Z, r.extras["certificate"]["lambda"])


@given(st.lists(st.tuples(st.integers(-5, 5), st.integers(-5, 5)), min_size=1, max_size=6),
       st.data())
@settings(max_examples=60)
def test_independent_reference(X, data):
    # a tiny independent perceptron written here, compared step for step
    y = [data.draw(st.sampled_from([1, -1])) for _ in X]
    w = (0, 0)
    n, clean, t, updates = len(X), 0, 0, 0
    while clean < n and t < 50 * n:
        x, yi = X[t % n], y[t % n]
        if yi * (w[0] * x[0] + w[1] * x[1]) <= 0:
            w = (w[0] + yi * x[0], w[1] + yi * x[1])
            clean, updates = 0, updates + 1
        else:
            clean += 1
        t += 1
    r = perceptron(X, y, max_epochs=50, monitor=False)
    if r.converged:
        assert clean == n and r.w == w and r.updates == updates
    elif r.reason == "max_epochs":
        assert clean < n


def test_tightest_bound_from_the_hard_margin_w_star():
    # hand derivation on Example 1: minimize ||w||^2 s.t. y_i<w,x_i> >= 1. With the first two constraints active,
    # 4 w1 = 1 and -(w1 + w2) = 1 give w* = (1/4, -5/4); the others hold (5/4 >= 1, 2 >= 1); KKT multipliers
    # (4a1 - a2, -a2) = w* give a2 = 5/4, a1 = 3/8 >= 0. So ||w*||^2 = 26/16 = 13/8 and R^2 ||w*||^2 = 16 * 13/8 = 26.
    r = perceptron(*EX1, tightest_bound=True)
    assert r.extras["tightest_bound"] == 26
    rep = r.extras["monitor"]
    assert rep.w_star == (F(1, 4), F(-5, 4)) and rep.gamma_min == 1 and rep.bound == 26 and rep.K == 3
    # Example 2 is not separable through the origin: no w*, no bound, and the reason is said
    r = perceptron(*EX2, tightest_bound=True)
    assert r.extras["tightest_bound"] is None and "Gordan certificate" in r.extras["tightest_bound_note"]
