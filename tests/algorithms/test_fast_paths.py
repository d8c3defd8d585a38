"""The fast exact perceptron path (exactlin/algorithms/_fast.py) against the reference.

The reference is ``cyclic_single_sample`` with the perceptron's Fraction rule, i.e. ``perceptron`` run
with ``_fast.ENABLED = False``.  Every test runs both and asserts the two runs are identical: weights,
counts, reason, mistakes, cycle, max_bits, trace (steps, scores, vectors, completeness) and the monitor.
The inputs are drawn to force each tier and fall-back of the fast path: float64-exact integers, int64,
Python integers (entries near 2^63 and beyond), rationals with large denominators, a start w0 != 0,
eta != 1, the strict test, non-separable data that cycles, and every bound.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactlin.algorithms import _fast, _loop
from exactlin.algorithms.perceptron import perceptron
from exactlin.errors import ExactlinError


def _both(*args, **kw):
    """(fast run, reference run), or the two exceptions' (class, message)."""
    out = []
    for enabled in (True, False):
        _fast.ENABLED = enabled
        try:
            out.append(perceptron(*args, **kw))
        except ExactlinError as e:
            out.append((type(e), str(e)))
        finally:
            _fast.ENABLED = True
    return out


def _same(fast, ref):
    if isinstance(ref, tuple):
        assert fast == ref
        return
    for name in ("w", "converged", "reason", "updates", "epochs", "steps", "trace_complete"):
        assert getattr(fast, name) == getattr(ref, name), name
    assert all(type(a) is Fraction for a in fast.w)
    assert fast.trace == ref.trace
    assert set(fast.extras) == set(ref.extras)
    for key, value in ref.extras.items():
        assert fast.extras[key] == value, key


rationals = st.fractions(min_value=-9, max_value=9, max_denominator=12)


SMALL = st.integers(-5, 5)


@st.composite
def problems(draw, entries=SMALL, n_max=7, d_max=4):
    n = draw(st.integers(1, n_max))
    d = draw(st.integers(1, d_max))
    X = [[draw(entries) for _ in range(d)] for _ in range(n)]
    y = [draw(st.sampled_from([1, -1])) for _ in range(n)]
    return X, y


options = st.fixed_dictionaries({}, optional={
    "eta": st.sampled_from([Fraction(1), Fraction(2), Fraction(1, 3), Fraction(5, 2), Fraction(7, 1024)]),
    "strict": st.booleans(),
    "max_updates": st.integers(1, 30),
    "max_bits": st.integers(1, 12),
    "monitor": st.booleans(),
    "stop": st.sampled_from(["n-clean", "clean-epoch"]),  # issue 21: the clean stop on the kernel too
})

# twice the profile's examples (tests/conftest.py: 40 by default, 500 with HYPOTHESIS_PROFILE=thorough) for the
# cheap integer properties; the profile's own count where a start w0 != 0 makes the monitor's bound a sympy root
SETTINGS = settings(max_examples=2 * settings.default.max_examples, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(problems(), options, st.sampled_from([None, False, True]), st.sampled_from(["none", "first", "last"]),
       st.integers(1, 40))
def test_small_integers(prob, opts, trace, bias, max_epochs):
    X, y = prob
    _same(*_both(X, y, bias=bias, trace=trace, max_epochs=max_epochs, **opts))


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(entries=rationals), options, st.data())
def test_rationals_and_start_vector(prob, opts, data):
    X, y = prob
    d = len(X[0])
    w0 = data.draw(st.none() | st.lists(rationals, min_size=d, max_size=d))
    _same(*_both(X, y, w0=w0, max_epochs=30, **opts))


big_ints = st.one_of(
    st.integers(-(2**63) - 5, -(2**63) + 5), st.integers(2**63 - 5, 2**63 + 5),
    st.integers(-(2**62), 2**62), st.integers(-(2**31), 2**31), st.integers(-3, 3),
)


@SETTINGS
@given(problems(entries=big_ints, n_max=6, d_max=3), options)
def test_huge_integers_python_int_tier(prob, opts):
    X, y = prob
    opts.pop("max_bits", None)
    _same(*_both(X, y, max_epochs=20, **opts))


big_denominators = st.builds(Fraction, st.integers(-(10**6), 10**6), st.sampled_from([1, 3, 2**40 + 1, 10**19 + 7]))


@SETTINGS
@given(problems(entries=big_denominators, n_max=6, d_max=3), options)
def test_big_denominators(prob, opts):
    X, y = prob
    _same(*_both(X, y, max_epochs=20, **opts))


def test_tier_transitions_float64_int64_python():
    # m_Z = 2^26, d = 3: float64 while 3 * 2^26 * max|v| < 2^53, int64 while < 2^62, then Python ints.
    # Each start w0 sits just below a threshold and the first mistake pushes max|v| over it.
    M = 2**26
    X = [[M, M, 0], [M, 0, 1], [-M, 1, M]]
    y = [1, 1, -1]
    used = {}
    for w0 in ([40_000_000, -40_000_001, 0], [22_900_000_000, -22_900_000_001, 0], None):
        _same(*_both(X, y, w0=w0, max_epochs=200))
        used[str(w0)] = {t for t, c in _fast.LAST_TIERS.items() if c}
    assert used["[40000000, -40000001, 0]"] == {"float64", "int64"}
    assert used["[22900000000, -22900000001, 0]"] == {"int64", "python"}
    # longer runs with eta != 1 and a bias column
    X = [[M, 3, M - 1], [-M, 1, 5], [7, -M, M // 2], [1, 1, -M], [M, M, 1], [-M, 5, -M]]
    y = [1, -1, 1, -1, -1, 1]
    for eta in (Fraction(1), Fraction(2**30), Fraction(2**41, 3)):
        _same(*_both(X, y, bias="first", eta=eta, max_epochs=60))


def test_xor_cycles_with_certificate():
    fast, ref = _both([(1, 1), (1, -1), (-1, 1), (-1, -1)], [1, -1, -1, 1])
    _same(fast, ref)
    assert fast.reason == "cycle" and fast.extras["certificate"]["verified"]


def test_brent_after_the_table(monkeypatch):
    # a tiny state table forces Brent's method in both loops
    monkeypatch.setattr(_loop, "CYCLE_TABLE_LIMIT", 2)
    X = [(1, 2), (2, -1), (-1, 3), (3, 1), (-2, -2), (1, -3)]
    y = [1, -1, 1, -1, 1, -1]
    fast, ref = _both(X, y, bias="first", max_epochs=500)
    _same(fast, ref)


@pytest.mark.parametrize("steps,vectors", [(7, 10), (40, 30), (3, 1000)])
def test_trace_limits(monkeypatch, steps, vectors):
    # small tracer limits: the prefix of steps and of vectors kept must match the reference exactly
    monkeypatch.setattr(_loop, "TRACE_STEP_LIMIT", steps)
    monkeypatch.setattr(_fast, "TRACE_STEP_LIMIT", steps)
    monkeypatch.setattr(_loop, "TRACE_VECTOR_LIMIT", vectors)
    X = [(4, 0), (1, 1), (0, 1), (-2, -2), (3, -1), (-1, -4)]
    y = [1, -1, -1, 1, 1, 1]
    for trace in (None, False, True):
        fast, ref = _both(X, y, bias="first", trace=trace)
        _same(fast, ref)


def test_online_monitor_with_w_star():
    X = [(4, 0), (1, 1), (0, 1), (-2, -2)]
    y = [1, -1, -1, 1]
    fast, ref = _both(X, y, w_star=(1, -3))
    _same(fast, ref)
    # a w_star that does not separate: the same error from both
    fast, ref = _both(X, y, w_star=(1, 1))
    _same(fast, ref)


def test_time_limit_stops_at_a_multiple_of_4096():
    # a long non-converging run (through the origin, a margin-free set) stopped by time: both stop at a
    # multiple of 4096 steps with reason time_limit (the counts differ with the machine's speed, so only the
    # fast run is checked here)
    X = [(i % 7 - 3, (i * 5) % 11 - 5, 1) for i in range(300)]
    y = [1 if (i * 7919) % 13 < 6 else -1 for i in range(300)]
    _fast.ENABLED = True
    r = perceptron(X, y, max_seconds=Fraction(1, 20), max_epochs=10**6, monitor=False, trace=False)
    assert r.reason in ("time_limit", "cycle")
    if r.reason == "time_limit":
        assert r.steps % 4096 == 0


def test_loop_directly_matches_reference():
    """perceptron_loop against cyclic_single_sample with the Fraction rule written out here."""
    from exactlin.algorithms._loop import Bounds, Tracer, cyclic_single_sample

    Z = [tuple(Fraction(a, 3) for a in z) for z in [(4, 0, 1), (-1, -1, 2), (0, -1, -1), (-2, -2, 5), (1, 1, 1)]]
    w1 = (Fraction(1, 2), Fraction(0), Fraction(-1, 7))
    eta = Fraction(3, 2)

    def test(w, i, k):
        s = sum((a * b for a, b in zip(w, Z[i])), Fraction(0))
        return s, s <= 0

    def update(w, i, u, score):
        return tuple(a + eta * b for a, b in zip(w, Z[i]))

    t1, t2 = Tracer(None, 3), Tracer(None, 3)
    ref = cyclic_single_sample(len(Z), w1, test, update, Bounds(), t1, stationary=True)
    fast = _fast.perceptron_loop(Z, w1, eta, False, Bounds(), t2)
    assert fast == ref
    assert t1.steps == t2.steps


def test_integer_monitor_replay_is_used_and_equal(monkeypatch):
    """The integer replay answers (not None) on ordinary runs, and its report equals the Fraction replay's."""
    used = []
    orig = _fast._replay_monitor

    def spy(*args):
        rep = orig(*args)
        used.append(rep is not None)
        return rep

    monkeypatch.setattr(_fast, "_replay_monitor", spy)
    X = [(4, 0), (1, 1), (0, 1), (-2, -2)]
    y = [1, -1, -1, 1]
    for kw in ({}, {"w0": (1, 2), "eta": Fraction(1, 3)}, {"bias": "first", "eta": Fraction(5, 2)}):
        fast, ref = _both(X, y, **kw)
        _same(fast, ref)
        assert fast.extras["monitor"] == ref.extras["monitor"] and fast.extras["monitor"] is not None
    assert used == [True, True, True]


def test_separates_is_exact():
    Z = [(Fraction(1, 3), Fraction(-2, 7)), (Fraction(5), Fraction(1, 10**20))]
    assert _fast.separates((Fraction(3), Fraction(0)), Z)
    assert not _fast.separates((Fraction(6, 7), Fraction(1)), Z)  # 2/7 - 2/7 = 0 on the first sample


# ---------------------------------------------------------------------------------------------------------
# integer input held as ExactRows (numpy int arrays, scaled(K, den)): the fast path reads the int64 array
# directly and records its trace compactly; the run must equal the reference on the same data given as
# Python lists (Fractions built entry by entry)


@SETTINGS
@given(problems(), options, st.sampled_from([None, False, True]), st.sampled_from(["none", "first", "last"]),
       st.sampled_from([1, 3, 250]))
def test_numpy_and_scaled_input_equal_the_reference(prob, opts, trace, bias, den):
    import numpy as np

    from exactlin.exact.rows import ExactRows, scaled

    X, y = prob
    K = np.array(X, dtype=np.int64)
    Xq = [[Fraction(a, den) for a in row] for row in X]
    _fast.ENABLED = False
    try:
        ref = perceptron(Xq, y, bias=bias, trace=trace, max_epochs=30, **opts)
    except ExactlinError as e:
        ref = (type(e), str(e))
    finally:
        _fast.ENABLED = True
    data = K if den == 1 else scaled(K, den)
    try:
        fast = perceptron(data, np.array(y), bias=bias, trace=trace, max_epochs=30, **opts)
    except ExactlinError as e:
        fast = (type(e), str(e))
    if not isinstance(fast, tuple):
        assert isinstance(fast.problem.Z, ExactRows)
    _same(fast, ref)


def test_default_trace_is_built_on_first_read_and_equals_the_reference():
    import numpy as np

    from exactlin.model.run import LazySteps

    rng = np.random.default_rng(5)
    w = np.array([3, -2, 1, 4])
    X = rng.integers(-9, 10, size=(400, 4))
    X = X[np.abs(X @ w) >= 2]
    y = np.where(X @ w > 0, 1, -1)
    fast = perceptron(X, y)
    assert isinstance(fast.trace, LazySteps) and fast.trace._steps is None
    assert len(fast.trace) == min(fast.steps, _loop.TRACE_STEP_LIMIT)
    assert fast.trace._steps is None  # len did not build it
    _fast.ENABLED = False
    try:
        ref = perceptron(X.tolist(), y.tolist())
    finally:
        _fast.ENABLED = True
    assert fast.updates > 10
    _same(fast, ref)
    assert [s.k for s in fast.trace] == list(range(1, len(ref.trace) + 1))


@SETTINGS
@given(st.lists(st.integers(-(2**40), 2**40) | st.integers(-300, 300), min_size=1, max_size=12),
       st.sampled_from([Fraction(1), Fraction(3), Fraction(2, 7), Fraction(5, 12)]),
       st.sampled_from([1, 6, 250, 2**45]), st.integers(1, 60))
def test_bits_above_equals_the_full_computation(v, eta, L, current):
    W = _fast._Weights(v, eta, L)
    full = W.bits()
    W2 = _fast._Weights(v, eta, L)
    assert W2.bits_above(current) == max(current, full)
    # and full itself is _loop._bits of the Fraction weights w = (eta / L) v
    assert full == _loop._bits(tuple(Fraction(eta.numerator * a, eta.denominator * L) for a in v))
