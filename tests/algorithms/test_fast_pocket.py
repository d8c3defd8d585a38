"""Seed 001's pocket algorithm on the integer kernel (exactlin/algorithms/_fast_pocket.py) against the readable
Fraction loop in ``perceptron_family.pocket``.

The reference is the same call with ``_fast.ENABLED = False`` (the switch that sends the run through the Fraction
loop).  Every test asserts the two runs are identical, field for field (``_same`` of test_fast_paths): w (the
pocket), converged, reason, updates, epochs, steps, trace (steps, E_in scores, vectors, the info E_in /
pocket_E_in / pocketed), trace_complete and every extra (E_in, pocket_from_step, w_pla, E_in_pla, E_in_history,
separates, last_update_step).  The inputs force each tier of the kernel: float64-exact integers, int64, Python
integers (entries near 2^63 and beyond), rationals with large denominators, a start w0 != 0, separable and
non-separable data, every bound (T, max_epochs, max_bits, max_seconds), the trace limits, and the fall-backs.
Expected values in the explicit tests come from hand derivations or from an independent pocket written here.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactlin.algorithms import _fast, _fast_pocket, _loop
from exactlin.algorithms.perceptron_family import pocket
from exactlin.engine import trace as engine_trace
from exactlin.errors import ExactlinError
from tests.algorithms.kernel_helpers import SMALL, big_denominators, big_ints, rationals
from tests.algorithms.kernel_helpers import problems as _problems
from tests.algorithms.kernel_helpers import same_run as _same


def _both(*args, **kw):
    """(kernel run, reference run, tiers the kernel used), or the two exceptions' (class, message)."""
    out = []
    tiers = None
    for enabled in (True, False):
        _fast.ENABLED = enabled
        _fast_pocket.LAST_TIERS.clear()
        try:
            out.append(pocket(*args, **kw))
        except ExactlinError as e:
            out.append((type(e), str(e)))
        finally:
            _fast.ENABLED = True
        if enabled:
            tiers = {t for t, c in _fast_pocket.LAST_TIERS.items() if c}
    return out[0], out[1], tiers


def problems(entries=SMALL, n_max=8, d_max=4):
    """test_fast_family's generator of (X, y), with up to 8 samples."""
    return _problems(entries, n_max, d_max)


@st.composite
def separable(draw, n_max=8, d_max=3):
    """Integer points labelled by a planted w* through the origin (strictly separable: score 0 is dropped)."""
    d = draw(st.integers(1, d_max))
    ws = draw(st.lists(st.integers(-4, 4), min_size=d, max_size=d).filter(any))
    pts = draw(st.lists(st.lists(st.integers(-6, 6), min_size=d, max_size=d), min_size=1, max_size=n_max))
    X = [p for p in pts if sum(a * b for a, b in zip(ws, p))]
    if not X:
        X = [ws]
    y = [1 if sum(a * b for a, b in zip(ws, p)) > 0 else -1 for p in X]
    return X, y


opts = st.fixed_dictionaries({}, optional={
    "T": st.integers(1, 60),
    "max_epochs": st.integers(1, 40),
    "max_bits": st.integers(1, 12),
    "trace": st.sampled_from([None, False]),
    "bias": st.sampled_from(["none", "first", "last"]),
})

SETTINGS = settings(max_examples=2 * settings.default.max_examples, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _d(X, o):
    return len(X[0]) + (o.get("bias", "first") != "none")


@SETTINGS
@given(problems(), opts, st.data())
def test_small_integers_and_start_vector(prob, o, data):
    X, y = prob
    w0 = data.draw(st.none() | st.lists(st.integers(-4, 4), min_size=_d(X, o), max_size=_d(X, o)))
    fast, ref, tiers = _both(X, y, w0=w0, **o)
    _same(fast, ref)
    assert tiers == {"float64"}


@SETTINGS
@given(separable(), opts)
def test_separable_converges_as_the_reference(prob, o):
    X, y = prob
    o = {**o, "bias": "none"}
    o.pop("max_bits", None)
    fast, ref, _ = _both(X, y, **o)
    _same(fast, ref)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(entries=rationals), opts, st.data())
def test_rationals_and_rational_start(prob, o, data):
    X, y = prob
    w0 = data.draw(st.none() | st.lists(rationals, min_size=_d(X, o), max_size=_d(X, o)))
    _same(*_both(X, y, w0=w0, **o)[:2])


@SETTINGS
@given(problems(entries=big_ints, n_max=6, d_max=3), opts)
def test_huge_integers_python_int_tier(prob, o):
    X, y = prob
    o.pop("max_bits", None)
    _same(*_both(X, y, **o)[:2])


@SETTINGS
@given(problems(entries=big_denominators, n_max=6, d_max=3), opts, st.data())
def test_big_denominators(prob, o, data):
    X, y = prob
    w0 = data.draw(st.none() | st.lists(big_denominators, min_size=_d(X, o), max_size=_d(X, o)))
    _same(*_both(X, y, w0=w0, **o)[:2])


def test_every_tier_is_reached_and_equal():
    # Z' = the samples (integers, bias none, d = 3), m_Z = 2^26: float64 while 3 * 2^26 * max|v| < 2^53, int64 while
    # < 2^62, then Python ints (_fast_pocket.py, point 3).  Each start w0 sits just below a threshold, so the run
    # crosses it within its 200 steps (every step adds at most m_Z to max|v|): hand arithmetic, 2^53 / (3 * 2^26) =
    # 44,739,242.7 and 2^62 / (3 * 2^26) = 22,906,492,245.3
    M = 2**26
    X = [[M, M, 0], [M, -M, 1], [-M, M, 0], [-M, -M, 1]]  # XOR in the first two entries: never separable
    y = [1, -1, -1, 1]
    used = {}
    for w0 in ([44_000_000, -44_000_001, 0], [22_906_000_000, -22_906_000_001, 0], [2**70, 1, -1]):
        fast, ref, tiers = _both(X, y, bias="none", w0=w0, T=200, max_epochs=200)
        _same(fast, ref)
        assert fast.updates == 200 and fast.reason == "max_steps"
        used[w0[0]] = tiers
    assert used[44_000_000] == {"float64", "int64"}
    assert used[22_906_000_000] == {"int64", "python"}
    assert used[2**70] == {"python"}


def _pocket_by_hand(X, y, T, w0=None):
    """An independent pocket on Fractions (the corrected comparison): cyclic PLA from w0, keep the strictly
    better E_in; returns (pocket, E_in, w_pla, steps, history)."""
    n, d = len(X), len(X[0])
    w = [Fraction(a) for a in (w0 or [0] * d)]

    def err(v):
        return Fraction(sum(1 for x, lab in zip(X, y) if lab * sum(a * Fraction(b) for a, b in zip(v, x)) <= 0), n)

    best, best_e, hist, pos, steps = list(w), err(w), [err(w)], 0, 0
    for _ in range(T):
        wrong = [i for i in [(pos + o) % n for o in range(n)]
                 if y[i] * sum(a * Fraction(b) for a, b in zip(w, X[i])) <= 0]
        if not wrong:
            break
        i = wrong[0]
        w = [a + y[i] * Fraction(b) for a, b in zip(w, X[i])]
        pos, steps = (i + 1) % n, steps + 1
        hist.append(err(w))
        if hist[-1] < best_e:
            best, best_e = list(w), hist[-1]
    return tuple(best), best_e, tuple(w), steps, hist


def test_noisy_integers_against_an_independent_pocket():
    # 5% flipped labels on planted integer data (benchmarks/budget_data.py), the kernel's answer against the pocket
    # written above (no exactlin code) and against the reference loop
    from benchmarks.budget_data import make

    X, y = make("noisy", 120, 4)
    Xb = [[1, *x] for x in X]  # bias first
    fast, ref, tiers = _both(X, y, T=150)
    _same(fast, ref)
    best, best_e, w, steps, hist = _pocket_by_hand(Xb, y, 150)
    assert fast.w == best and fast.extras["E_in"] == best_e and fast.extras["w_pla"] == w
    assert fast.updates == steps == 150 and fast.extras["E_in_history"] == tuple(hist)
    assert tiers == {"float64"}


def test_example2_by_hand():
    # seed 001, Example 2 (XOR through the origin), T = 5: iterates (1,1), (0,2), (1,1), (0,0), (1,1) with E_in
    # 3/4, 1/2, 3/4, 1, 3/4 (hand derivation, tests/algorithms/test_perceptron_family.py): the pocket is (0, 2)
    # from step 3
    X, y = [(1, 1), (1, -1), (-1, 1), (-1, -1)], [1, -1, -1, 1]
    fast, ref, tiers = _both(X, y, bias="none", T=5)
    _same(fast, ref)
    assert tiers
    assert fast.w == (0, 2) and fast.extras["pocket_from_step"] == 3 and fast.extras["w_pla"] == (1, 1)
    assert [s.info["pocketed"] for s in fast.trace] == [True, True, False, False, False]


def test_ties_keep_the_older_pocket_and_bounds():
    X, y = [(1, 1), (1, -1), (-1, 1), (-1, -1)], [1, -1, -1, 1]
    # E_in after the 5th step is 3/4 again, equal to step 1's: the pocket stays (0, 2) (strict comparison)
    for kw in ({"T": 40}, {"T": 40, "max_epochs": 3}, {"T": 40, "max_bits": 1}, {"T": 7, "w0": (Fraction(1, 3), 2)}):
        fast, ref, _ = _both(X, y, bias="none", **kw)
        _same(fast, ref)
    assert _both(X, y, bias="none", T=40, max_epochs=3)[0].reason == "max_epochs"
    assert _both(X, y, bias="none", T=40, max_bits=1)[0].reason == "bit_limit"  # (0, 2) has 2 bits


def test_trace_limits(monkeypatch):
    # a trace longer than its step limit (complete False) and vectors dropped past the vector limit
    monkeypatch.setattr(_loop, "TRACE_STEP_LIMIT", 7)
    monkeypatch.setattr(engine_trace, "TRACE_STEP_LIMIT", 7)
    monkeypatch.setattr(_fast_pocket, "TRACE_STEP_LIMIT", 7)
    monkeypatch.setattr(_loop, "TRACE_VECTOR_LIMIT", 9)
    monkeypatch.setattr(engine_trace, "TRACE_VECTOR_LIMIT", 9)
    X, y = [(1, 1), (1, -1), (-1, 1), (-1, -1), (2, 1)], [1, -1, -1, 1, 1]
    fast, ref, _ = _both(X, y, T=30)
    _same(fast, ref)
    assert len(fast.trace) == 7 and not fast.trace_complete
    assert fast.trace[2].w_after is not None and fast.trace[3].w_after is None  # 3 * d = 9 <= 9 < 4 * d


def test_progress_records_equal():
    from benchmarks.budget_data import make

    X, y = make("noisy", 300, 3)
    seen = {}
    for enabled in (True, False):
        got = []
        _fast.ENABLED = enabled
        try:
            r = pocket(X, y, T=40, progress=got.append)
        finally:
            _fast.ENABLED = True
        seen[enabled] = (got, r)
    assert seen[True][0] == seen[False][0] and len(seen[True][0]) >= 10
    _same(seen[True][1], seen[False][1])


def test_time_limit_stops_both():
    X, y = [(1, 1), (1, -1), (-1, 1), (-1, -1)], [1, -1, -1, 1]
    for enabled in (True, False):
        _fast.ENABLED = enabled
        try:
            r = pocket(X, y, bias="none", T=10**6, max_epochs=10**6, max_seconds=0.05)
        finally:
            _fast.ENABLED = True
        assert r.reason == "time_limit" and 0 < r.updates < 10**6


def test_reference_options_keep_the_fraction_loop(monkeypatch):
    # trace=True and variant="printed" run the readable loop: the kernel must not compute anything
    def boom(*a, **k):
        raise AssertionError("kernel called")

    X, y = [(1, 1), (1, -1), (-1, 1), (-1, -1)], [1, -1, -1, 1]
    monkeypatch.setattr(_fast_pocket, "integer_scaling", boom)
    r = pocket(X, y, bias="none", T=5, trace=True)
    assert r.w == (0, 2) and len(r.trace) == 5
    r = pocket(X, y, bias="none", T=5, variant="printed")
    assert r.extras["erratum"] == "pocket-comparison"
    monkeypatch.setattr(_fast, "ENABLED", False)
    assert pocket(X, y, bias="none", T=5).w == (0, 2)


def test_integers_over_a_denominator_with_a_rational_start():
    # ExactRows input (numpy int64 over one denominator, exactlin.scaled) and a rational w0: L = lcm(7, 3, 5) = 105
    import numpy as np

    from exactlin import scaled

    K = np.array([[3, -1, 4], [-1, 5, -9], [2, 6, -5], [3, -5, 8], [-9, 7, 9], [3, 2, -3]])
    y = [1, -1, 1, -1, -1, 1]
    for w0 in (None, (Fraction(1, 3), Fraction(-2, 5), 0, 1)):
        fast, ref, tiers = _both(scaled(K, 7), y, w0=w0, T=25)
        _same(fast, ref)
        assert tiers == {"float64"}
    # and the kernel's answer against the independent pocket above, on the samples written out as Fractions
    best, best_e, w, steps, hist = _pocket_by_hand([[1, *(Fraction(int(a), 7) for a in r)] for r in K], y, 25)
    fast = pocket(scaled(K, 7), y, T=25)
    assert fast.w == best and fast.extras["E_in"] == best_e and fast.extras["w_pla"] == w and fast.updates == steps
