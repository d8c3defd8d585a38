"""Seed 003's Algorithm 4 (fixed-increment) and Algorithm 5 with a constant eta (variable-increment) on the
integer kernel (exactlin/algorithms/_fast.py) against the readable Fraction loop.

The reference is the same call with ``_fast.ENABLED = False`` (the switch that sends every run through
``cyclic_single_sample`` with the Fraction rule of ``perceptron_family._single_sample``), and, for the margin
test a^t y <= b, ``cyclic_single_sample`` with a Fraction rule written out in this file.  Every test asserts the
two runs are identical, field for field: w, converged, reason, updates, epochs, steps, trace, trace_complete and
every extra (mistakes, max_bits, last_update_step, separates, margin_met, cycle certificate, monitor).  The
inputs force each tier of the kernel: float64-exact integers, int64, Python integers (entries near 2^63 and
beyond), rationals with large denominators, a start a0 != 0, eta != 1, margins b >= 0 (also b L^2 / eta far
beyond 2^53 and 2^63, the threshold's clamps), separable and non-separable data, and every bound.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactlin.algorithms import _fast, _loop
from exactlin.algorithms.perceptron_family import fixed_increment, variable_increment
from exactlin.errors import ExactlinError
from tests.algorithms.test_fast_paths import _same


def _both(fn, *args, **kw):
    """(kernel run, reference run), or the two exceptions' (class, message); also the kernel's tiers."""
    out = []
    tiers = None
    for enabled in (True, False):
        _fast.ENABLED = enabled
        _fast.LAST_TIERS.clear()
        try:
            out.append(fn(*args, **kw))
        except ExactlinError as e:
            out.append((type(e), str(e)))
        finally:
            _fast.ENABLED = True
        if enabled:
            tiers = {t for t, c in _fast.LAST_TIERS.items() if c}
    return out[0], out[1], tiers




SMALL = st.integers(-5, 5)
rationals = st.fractions(min_value=-9, max_value=9, max_denominator=12)
big_ints = st.one_of(
    st.integers(-(2**63) - 5, -(2**63) + 5), st.integers(2**63 - 5, 2**63 + 5),
    st.integers(-(2**62), 2**62), st.integers(-(2**31), 2**31), st.integers(-3, 3),
)
big_denominators = st.builds(Fraction, st.integers(-(10**6), 10**6), st.sampled_from([1, 3, 2**40 + 1, 10**19 + 7]))


@st.composite
def problems(draw, entries=SMALL, n_max=7, d_max=4):
    n = draw(st.integers(1, n_max))
    d = draw(st.integers(1, d_max))
    X = [[draw(entries) for _ in range(d)] for _ in range(n)]
    y = [draw(st.sampled_from([1, -1])) for _ in range(n)]
    return X, y


bounds = st.fixed_dictionaries({}, optional={
    "max_updates": st.integers(1, 30),
    "max_bits": st.integers(1, 12),
    "max_steps": st.integers(1, 80),
    "max_epochs": st.integers(1, 30),
    "monitor": st.booleans(),
    "trace": st.sampled_from([None, False]),
    "bias": st.sampled_from(["none", "first", "last"]),
    "stop": st.sampled_from(["n-clean", "clean-epoch"]),  # issue 21: the clean stop on the kernel too
})
etas = st.sampled_from([Fraction(1), Fraction(2), Fraction(1, 3), Fraction(5, 2), Fraction(7, 1024)])
margins = st.sampled_from([Fraction(0), Fraction(1), Fraction(1, 3), Fraction(7, 2), Fraction(2**70, 3)])

SETTINGS = settings(max_examples=2 * settings.default.max_examples, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(problems(), bounds, st.data())
def test_fixed_increment_small_integers(prob, opts, data):
    X, y = prob
    d = len(X[0]) + (opts.get("bias", "first") != "none")
    a0 = data.draw(st.none() | st.lists(st.integers(-4, 4), min_size=d, max_size=d))
    fast, ref, _ = _both(fixed_increment, X, y, a0=a0, **opts)
    _same(fast, ref)


@SETTINGS
@given(problems(), bounds, etas, margins, st.sampled_from(["update", "step"]))
def test_variable_increment_constant_eta_small_integers(prob, opts, eta, b, eta_k):
    X, y = prob
    fast, ref, _ = _both(variable_increment, X, y, eta=eta, b=b, eta_k=eta_k, **opts)
    _same(fast, ref)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(entries=rationals), bounds, etas, margins, st.data())
def test_rationals_start_vector_and_margin(prob, opts, eta, b, data):
    X, y = prob
    d = len(X[0]) + (opts.get("bias", "first") != "none")
    a0 = data.draw(st.none() | st.lists(rationals, min_size=d, max_size=d))
    _same(*_both(fixed_increment, X, y, a0=a0, **opts)[:2])
    _same(*_both(variable_increment, X, y, a0=a0, eta=eta, b=b, **opts)[:2])


@SETTINGS
@given(problems(entries=big_ints, n_max=6, d_max=3), bounds, etas, margins)
def test_huge_integers_python_int_tier(prob, opts, eta, b):
    X, y = prob
    opts.pop("max_bits", None)
    _same(*_both(fixed_increment, X, y, **opts)[:2])
    _same(*_both(variable_increment, X, y, eta=eta, b=b, **opts)[:2])


@SETTINGS
@given(problems(entries=big_denominators, n_max=6, d_max=3), bounds, etas, margins)
def test_big_denominators(prob, opts, eta, b):
    X, y = prob
    _same(*_both(fixed_increment, X, y, **opts)[:2])
    _same(*_both(variable_increment, X, y, eta=eta, b=b, **opts)[:2])


def test_every_tier_is_reached_and_equal():
    # m_Z = 2^26, d = 3 (bias none): float64 while 3 * 2^26 * max|a| < 2^53, int64 while < 2^62, then Python
    # ints (the arithmetic of tests/algorithms/test_fast_paths.py); each start a0 sits just below a threshold
    M = 2**26
    X = [[M, M, 0], [M, 0, 1], [-M, 1, M]]
    y = [1, 1, -1]
    used = {}
    for a0 in ([40_000_000, -40_000_001, 0], [22_900_000_000, -22_900_000_001, 0], None):
        fast, ref, tiers = _both(fixed_increment, X, y, bias="none", a0=a0, max_epochs=200)
        _same(fast, ref)
        used[str(a0)] = tiers
        for b in (Fraction(0), Fraction(5, 3), Fraction(2**80)):
            fast, ref, _ = _both(variable_increment, X, y, bias="none", a0=a0, b=b, eta=Fraction(3, 2),
                                       max_epochs=200)
            _same(fast, ref)
    assert used["[40000000, -40000001, 0]"] == {"float64", "int64"}
    assert used["[22900000000, -22900000001, 0]"] == {"int64", "python"}


def test_margin_threshold_beyond_the_tiers():
    # b = 2^60 on small data: every round is a correction (a^t y_k stays far below b) and the integer threshold
    # b L^2 / eta is far beyond 2^53 and 2^62, so the float64 and int64 tiers compare with their clamps
    X = [(1, 2), (2, -1), (-1, 3)]
    y = [1, -1, 1]
    for b in (Fraction(2**60), Fraction(2**100, 7)):
        fast, ref, tiers = _both(variable_increment, X, y, b=b, max_steps=300)
        _same(fast, ref)
        assert fast.updates == 300 and fast.reason == "max_steps"  # hand check: 300 rounds, all corrections
        assert "float64" in tiers


def test_separable_margin_converges_with_margin_met():
    # seed 003's Algorithm 5 docstring example: b = 1, the run meets the margin
    X = [(4, 0), (1, 1), (0, 1), (-2, -2)]
    y = [1, -1, -1, 1]
    fast, ref, tiers = _both(variable_increment, X, y, b=1)
    _same(fast, ref)
    assert tiers  # the kernel ran
    # the docstring's answer (a hand run of Algorithm 5: a = (0, 1, -4) after 4 corrections)
    assert fast.w == (0, 1, -4) and fast.updates == 4 and fast.extras["margin_met"]


def test_xor_cycles_with_certificate():
    for fn, kw in ((fixed_increment, {}), (variable_increment, {"eta": 2, "b": Fraction(1, 2)})):
        fast, ref, tiers = _both(fn, [(1, 1), (1, -1), (-1, 1), (-1, -1)], [1, -1, -1, 1], bias="none", **kw)
        _same(fast, ref)
        assert tiers and fast.reason == "cycle" and fast.extras["certificate"]["verified"]


def test_brent_after_the_table(monkeypatch):
    monkeypatch.setattr(_loop, "CYCLE_TABLE_LIMIT", 2)
    X = [(1, 2), (2, -1), (-1, 3), (3, 1), (-2, -2), (1, -3)]
    y = [1, -1, 1, -1, 1, -1]
    _same(*_both(fixed_increment, X, y, max_epochs=500)[:2])
    _same(*_both(variable_increment, X, y, b=3, max_epochs=500)[:2])


def test_reference_options_keep_the_fraction_loop(monkeypatch):
    # trace=True, variant="printed", stop_on_cycle=False and a varying eta run the readable loop: the kernel
    # must not be called
    def boom(*a, **k):
        raise AssertionError("kernel called")

    X = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    y = [1, -1, -1, 1]
    monkeypatch.setattr(_fast, "integer_loop", boom)
    fixed_increment(X, y, trace=True, max_epochs=5)
    fixed_increment(X, y, variant="printed", max_epochs=5)
    fixed_increment(X, y, stop_on_cycle=False, max_epochs=5)
    variable_increment(X, y, eta="1/k", max_epochs=5)
    variable_increment(X, y, variant="printed", max_epochs=5)


def test_loop_directly_matches_a_fraction_rule_with_margin():
    """perceptron_loop with a margin against cyclic_single_sample with the rule written out here."""
    from exactlin.algorithms._loop import Bounds, Tracer, cyclic_single_sample

    Z = [tuple(Fraction(a, 3) for a in z) for z in [(4, 0, 1), (-1, -1, 2), (0, -1, -1), (-2, -2, 5), (1, 1, 1)]]
    w1 = (Fraction(1, 2), Fraction(0), Fraction(-1, 7))
    for eta, b in ((Fraction(3, 2), Fraction(0)), (Fraction(3, 2), Fraction(5, 4)), (Fraction(1), Fraction(10))):
        def test(w, i, k, b=b):
            s = sum((x * z for x, z in zip(w, Z[i])), Fraction(0))
            return s, s <= b

        def update(w, i, u, score, eta=eta):
            return tuple(x + eta * z for x, z in zip(w, Z[i]))

        for steps in (7, 60, None):
            ref = cyclic_single_sample(len(Z), w1, test, update, Bounds(max_epochs=40, max_steps=steps),
                                       Tracer(None, 3), stationary=True)
            tr = Tracer(None, 3)
            fast = _fast.perceptron_loop(Z, w1, eta, False, Bounds(max_epochs=40, max_steps=steps), tr, margin=b)
            assert fast == ref


@SETTINGS
@given(problems(entries=st.one_of(big_ints, big_denominators, rationals), n_max=6, d_max=3), st.data(),
       st.sampled_from([0, 1, Fraction(1, 3), Fraction(2**70, 7), -2, Fraction(-(2**80), 3)]))
def test_above_is_exact(prob, data, b):
    # the integer check against the definition written out here in Fractions
    X, _ = prob
    d = len(X[0])
    w = data.draw(st.lists(st.one_of(big_ints, big_denominators), min_size=d, max_size=d))
    expected = all(sum((Fraction(a) * Fraction(c) for a, c in zip(w, x)), Fraction(0)) > b for x in X)
    assert _fast.above(w, X, b) is expected
    assert not _fast._MON_CACHE  # no cache left behind


def test_zero_samples_with_a_weight_beyond_int64():
    # CI found this: every z is 0, so d max|s| max|Z| = 0 passed the int64 guard while s itself did not fit
    w = [-(2**63) - 1]
    assert _fast.above(w, [[0]], 0) is False and _fast.above(w, [[0]], -1) is True
    assert not _fast._MON_CACHE
    assert _fast.separates(w, [[0]]) is False
    assert _fast.separates([2**64, 1], [[0, 1]]) is True
