"""The integer checks of exactlin/theory/replay.py against their definitions written out here in Fractions."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from exactlin.theory.monitor import ConvergenceMonitor
from exactlin.theory.replay import NOT_SEPARATING, above, cache_is_empty, replay_monitor, separates

big_ints = st.one_of(st.integers(-(2**63) - 5, -(2**63) + 5), st.integers(2**63 - 5, 2**63 + 5),
                     st.integers(-(2**62), 2**62), st.integers(-(2**31), 2**31), st.integers(-3, 3))
big_denominators = st.builds(Fraction, st.integers(-(10**6), 10**6), st.sampled_from([1, 3, 2**40 + 1, 10**19 + 7]))
rationals = st.fractions(min_value=-9, max_value=9, max_denominator=12)


@st.composite
def rows(draw):
    n, d = draw(st.integers(1, 6)), draw(st.integers(1, 3))
    return [[draw(st.one_of(big_ints, big_denominators, rationals)) for _ in range(d)] for _ in range(n)]


@given(rows(), st.data(), st.sampled_from([0, 1, Fraction(1, 3), Fraction(2**70, 7), -2, Fraction(-(2**80), 3)]))
def test_above_is_exact(X, data, b):
    d = len(X[0])
    w = data.draw(st.lists(st.one_of(big_ints, big_denominators), min_size=d, max_size=d))
    expected = all(sum((Fraction(a) * Fraction(c) for a, c in zip(w, x)), Fraction(0)) > b for x in X)
    assert above(w, X, b) is expected
    assert cache_is_empty()  # no cache left behind


def test_separates_is_exact():
    Z = [(Fraction(1, 3), Fraction(-2, 7)), (Fraction(5), Fraction(1, 10**20))]
    assert separates((Fraction(3), Fraction(0)), Z)
    assert not separates((Fraction(6, 7), Fraction(1)), Z)  # 2/7 - 2/7 = 0 on the first sample


def test_zero_samples_with_a_weight_beyond_int64():
    # every z is 0, so d max|s| max|Z| = 0 passes an int64 guard while s itself does not fit
    w = [-(2**63) - 1]
    assert above(w, [[0]], 0) is False and above(w, [[0]], -1) is True
    assert cache_is_empty()
    assert separates(w, [[0]]) is False
    assert separates([2**64, 1], [[0, 1]]) is True


def fraction_replay(Z, w_star, eta, w1, indices):
    """The convergence monitor's replay on Fractions, written out: w_{t+1} = w_t + eta z_{i_t}."""
    mon = ConvergenceMonitor(Z, w_star, eta=eta, w1=w1, source="given")
    w = tuple(w1)
    for t, i in enumerate(indices, start=1):
        w_next = tuple(a + eta * b for a, b in zip(w, Z[i]))
        mon.observe(t, w, w_next)
        w = w_next
    return mon.report(), w


def test_replay_monitor_equals_the_fraction_replay():
    # seed 000's Example 1: z = (4,0), (-1,-1), (0,-1), (-2,-2); from w = 0 the mistakes are samples 0, 1, 3
    # (w = (4,0), (3,-1), (1,-3)); w* = (1,-3) separates (scores 4, 2, 3, 4)
    Z = [tuple(map(Fraction, z)) for z in [(4, 0), (-1, -1), (0, -1), (-2, -2)]]
    for eta, w1, idx in ((Fraction(1), (0, 0), [0, 1, 3]), (Fraction(1, 3), (1, 2), [1, 3]),
                         (Fraction(5, 2), (0, 0), [0, 1, 3])):
        w1 = tuple(map(Fraction, w1))
        expected, final = fraction_replay(Z, (Fraction(1), Fraction(-3)), eta, w1, idx)
        got = replay_monitor(Z, (1, -3), eta=eta, w1=w1, indices=idx, final_w=final, source="given")
        assert got is not None and got == expected
        assert cache_is_empty()


def test_replay_monitor_reports_a_w_star_that_does_not_separate():
    # seed 000's Example 1 samples z = (4,0), (-1,-1), (0,-1), (-2,-2); w* = (1, 0) scores them 4, -1, 0, -2
    # (by hand): not a strict separator, so the replay says so instead of a report; so does w* = (0, 1) (0, -1,
    # -1, -2), and w* = (1, -3) (scores 4, 2, 3, 4) gives a report
    Z = [tuple(map(Fraction, z)) for z in [(4, 0), (-1, -1), (0, -1), (-2, -2)]]
    kw = dict(eta=Fraction(1), w1=(Fraction(0), Fraction(0)), indices=[0, 1, 3],
              final_w=(Fraction(1), Fraction(-3)), source="given")
    assert replay_monitor(Z, (1, 0), **kw) is NOT_SEPARATING
    assert replay_monitor(Z, (0, 1), **kw) is NOT_SEPARATING
    assert replay_monitor(Z, (1, -3), **kw) not in (None, NOT_SEPARATING)
    assert cache_is_empty()
