"""The python-flint loops of Ho-Kashyap (+ Modifications I, II), Widrow-Hoff and LMS
(exactlin/algorithms/_flint_iter.py, issue 14 item 2) against the readable Fraction loops.

The reference is the same public call with ``_flint_iter.ENABLED = False`` (the Fraction loops in
ho_kashyap.py and mse.py).  Every property runs both paths and asserts the two Runs are identical field for
field: w, converged, reason, updates, epochs, steps, the trace (every Step: score, vectors, b, e, b_after, eta,
J_s, dist2, bits), trace_complete, every extra (b, e, verdict, certificate, max_bits, last_update_step,
separator_at, dist2, bits, ...), the params, and the whole JSON document.  Inputs: small integers and
rationals, every stop (separator, b_min as listed, k_max, max_epochs, max_bits, theta, verdicts), every
trace mode, eta choices and the printed variant.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactlin.algorithms import _flint_iter
from exactlin.algorithms.ho_kashyap import ho_kashyap, ho_kashyap_mod1, ho_kashyap_mod2
from exactlin.algorithms.mse import lms, widrow_hoff
from exactlin.engine import trace as engine_trace
from exactlin.errors import ExactlinError
from tests.algorithms.kernel_helpers import same_run as _same


def _both(fn, *args, **kw):
    """(flint run, Fraction run), or the two exceptions' (class, message)."""
    out = []
    for enabled in (True, False):
        _flint_iter.ENABLED = enabled
        try:
            out.append(fn(*args, **kw))
        except ExactlinError as e:
            out.append((type(e), str(e)))
        finally:
            _flint_iter.ENABLED = True
    return out


def _identical(fast, ref):
    _same(fast, ref)
    if isinstance(ref, tuple):
        return
    assert fast.params == ref.params
    assert fast.to_json() == ref.to_json()


SMALL = st.integers(-6, 6)
RATIONALS = st.fractions(min_value=-5, max_value=5, max_denominator=7)


@st.composite
def problems(draw, entries=SMALL, n_max=7, d_max=3):
    n = draw(st.integers(1, n_max))
    d = draw(st.integers(1, d_max))
    X = [[draw(entries) for _ in range(d)] for _ in range(n)]
    y = [draw(st.sampled_from([1, -1])) for _ in range(n)]
    return X, y


data_sets = problems() | problems(entries=RATIONALS)
traces = st.sampled_from([None, False, True])
biases = st.sampled_from(["none", "first", "last"])

SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def hk_options(draw, n):
    opts = draw(st.fixed_dictionaries({}, optional={
        "eta": st.sampled_from([Fraction(1, 2), Fraction(1, 3), Fraction(9, 10), Fraction(1, 100)]),
        "k_max": st.integers(1, 25),
        "max_bits": st.integers(1, 60),
        "max_epochs": st.integers(1, 25),
        "b_min": st.sampled_from([Fraction(0), Fraction(1, 10), Fraction(1), Fraction(5)]),
    }))
    if draw(st.booleans()):
        opts["b0"] = [draw(st.fractions(min_value=Fraction(1, 5), max_value=3, max_denominator=5))
                      for _ in range(n)]
    if "b_min" in opts and draw(st.booleans()):
        opts["stop"] = "b_min"
    return opts


@SETTINGS
@given(data_sets, traces, biases, st.data())
def test_ho_kashyap_and_mod1(prob, trace, bias, data):
    X, y = prob
    opts = data.draw(hk_options(len(X)))
    for fn in (ho_kashyap, ho_kashyap_mod1):
        _identical(*_both(fn, X, y, bias=bias, trace=trace, **opts))


@SETTINGS
@given(data_sets, traces, st.data())
def test_ho_kashyap_mod2(prob, trace, data):
    X, y = prob
    opts = data.draw(hk_options(len(X)))
    opts.pop("stop", None)  # Modification II has no stop parameter
    eta = opts.pop("eta", None)
    if eta is not None and data.draw(st.booleans()):
        opts["eta"] = eta / 50  # a given eta (often too large: then both raise the same ParameterError)
    d = len(X[0]) + 1
    if data.draw(st.booleans()):
        opts["a0"] = [data.draw(RATIONALS) for _ in range(d)]
    if data.draw(st.booleans()):
        opts["R"] = [[Fraction(2) if i == j else Fraction(int(abs(i - j) == 1), 2) for j in range(d)]
                     for i in range(d)]
    _identical(*_both(ho_kashyap_mod2, X, y, trace=trace, **opts))


@SETTINGS
@given(st.integers(1, 3), st.data())
def test_ho_kashyap_printed_variant(d, data):
    """variant=printed (b <- a + 2 eta e+) where it is defined: n = d + 1 samples with bias first."""
    X = [[data.draw(SMALL) for _ in range(d)] for _ in range(d + 1)]
    y = [data.draw(st.sampled_from([1, -1])) for _ in range(d + 1)]
    opts = data.draw(hk_options(d + 1))
    _identical(*_both(ho_kashyap, X, y, variant="printed", trace=data.draw(traces), **opts))


mse_options = st.fixed_dictionaries({}, optional={
    "eta1": st.sampled_from([Fraction(1), Fraction(1, 10), Fraction(1, 40), Fraction(3)]),
    "theta": st.sampled_from([Fraction(1, 100), Fraction(1, 2), Fraction(2)]),
    "k_max": st.integers(1, 30),
    "max_bits": st.integers(1, 200) | st.none(),
    "max_epochs": st.integers(1, 12),
})


@SETTINGS
@given(data_sets, mse_options, traces, biases, st.data())
def test_widrow_hoff(prob, opts, trace, bias, data):
    X, y = prob
    n, d = len(X), len(X[0]) + (bias != "none")
    if data.draw(st.booleans()):
        opts["a0"] = [data.draw(RATIONALS) for _ in range(d)]
    if data.draw(st.booleans()):
        opts["b"] = [data.draw(st.fractions(min_value=Fraction(1, 4), max_value=2, max_denominator=4))
                     for _ in range(n)]
    if data.draw(st.booleans()):
        opts.pop("eta1", None)
        opts["eta"] = data.draw(st.sampled_from(["1/k", "1/(10*k)", "1/20", "1/k^2"]))
    _identical(*_both(widrow_hoff, X, y, bias=bias, trace=trace, **opts))


@SETTINGS
@given(data_sets, mse_options, traces, st.sampled_from(["auto", "every", "off"]), st.data())
def test_lms(prob, opts, trace, distance, data):
    X, y = prob
    d = len(X[0]) + 1
    if data.draw(st.booleans()):
        opts["a0"] = [data.draw(RATIONALS) for _ in range(d)]
    if data.draw(st.booleans()):
        opts.pop("eta1", None)
        opts["eta"] = data.draw(st.sampled_from(["1/k", "1/(10*k)", "1/20"]))
    _identical(*_both(lms, X, y, trace=trace, distance=distance, **opts))


# ---------------------------------------------------------------------------------------------------
# explicit cases: the notes' example, each verdict, long runs past the trace's limits


EX = ([(1, 2), (2, 0), (3, 1), (2, 3)], [1, 1, -1, -1])  # seed 003's example


def test_seed003_example_both_paths():
    """Seed 003's example: a = Y^+ b = (11/3, -4/3, -2/3) separates at once (the notes' printed solution)."""
    for fn in (ho_kashyap, ho_kashyap_mod1):
        fast, ref = _both(fn, *EX)
        _identical(fast, ref)
        assert [str(v) for v in fast.w] == ["11/3", "-4/3", "-2/3"]
    fast, ref = _both(ho_kashyap_mod2, *EX, eta="1/20")
    _identical(fast, ref)
    assert fast.extras["verdict"] == "separable"


def test_not_separable_certificate_both_paths():
    """XOR-like 1-d data (0, 1, 2 labelled +, -, +): no separator; both paths end not_separable with the same
    verified Gordan certificate (checked by hand: the certificate's lambda sums to 1 and is >= 0)."""
    for fn in (ho_kashyap, ho_kashyap_mod1):
        fast, ref = _both(fn, [(0,), (1,), (2,)], [1, -1, 1])
        _identical(fast, ref)
        assert fast.reason == "not_separable"
        lam = fast.extras["certificate"]["lambda"]
        assert sum(lam) == 1 and all(v >= 0 for v in lam)
    fast, ref = _both(ho_kashyap, [(0,), (1,), (2,)], [1, -1, 1], stop="b_min", b_min=0)
    _identical(fast, ref)
    assert fast.reason == "not_separable"


def _noisy(n=40, d=3, seed=14):
    import random

    rng = random.Random(seed)
    X = [[rng.randint(-20, 20) for _ in range(d)] for _ in range(n)]
    y = [1 if x[0] + 2 * x[1] - x[2] + rng.randint(-30, 30) > 0 else -1 for x in X]
    return X, y


LONG = ((ho_kashyap, {"k_max": 30}), (ho_kashyap_mod1, {"k_max": 30}), (ho_kashyap_mod2, {"k_max": 60}),
        (widrow_hoff, {"k_max": 60}), (lms, {"k_max": 400, "max_bits": None}))


def test_long_runs_with_large_numbers():
    """40 noisy samples in 3 dimensions: no verdict within the budgets, the numbers pass 700 bits; both paths
    agree on every field."""
    X, y = _noisy()
    for fn, kw in LONG:
        fast, ref = _both(fn, X, y, **kw)
        _identical(fast, ref)
        assert fast.reason == "max_steps" and fast.extras["max_bits"] > 700


def test_trace_limits(monkeypatch):
    """With the tracer's limits lowered (7 steps kept, vectors while steps x d <= 20) the trace drops its
    vectors and then its steps at the same step on both paths (trace=None, the default)."""
    from exactlin.algorithms import _loop

    monkeypatch.setattr(_loop, "TRACE_STEP_LIMIT", 7)

    monkeypatch.setattr(engine_trace, "TRACE_STEP_LIMIT", 7)
    monkeypatch.setattr(_loop, "TRACE_VECTOR_LIMIT", 20)
    monkeypatch.setattr(engine_trace, "TRACE_VECTOR_LIMIT", 20)
    X, y = _noisy()
    for fn, kw in LONG[:4] + ((ho_kashyap, {"k_max": 30, "stop": "b_min", "b_min": 0}),):
        fast, ref = _both(fn, X, y, **kw)
        _identical(fast, ref)
        assert len(fast.trace) == 7 and not fast.trace_complete
        assert fast.trace[4].w_before is not None and fast.trace[5].w_before is None


def test_the_flint_path_is_the_default(monkeypatch):
    """A default call runs the flint loops (the Fraction loops only with ENABLED = False)."""
    calls = []
    for name in ("hk_loop", "hk_listing_loop", "widrow_hoff_loop", "lms_loop"):
        real = getattr(_flint_iter, name)
        monkeypatch.setattr(_flint_iter, name, lambda *a, _r=real, _n=name, **k: calls.append(_n) or _r(*a, **k))
    ho_kashyap(*EX)
    ho_kashyap(*EX, stop="b_min", b_min=1)
    ho_kashyap_mod1(*EX)
    ho_kashyap_mod2(*EX)
    widrow_hoff(*EX, k_max=2)
    lms(*EX, k_max=2)
    assert calls == ["hk_loop", "hk_listing_loop", "hk_loop", "hk_loop", "widrow_hoff_loop", "lms_loop"]
    assert _flint_iter.ENABLED is True


def test_fraction_conversion_is_reduced():
    """frac/fracs give reduced Fractions equal to Python's (flint keeps fmpq reduced, denominator > 0)."""
    import flint

    for p, q in ((6, 4), (-6, 4), (0, 5), (7, 1), (-(2**200) * 3, 2**100 * 9)):
        f = _flint_iter.frac(flint.fmpq(p, q))
        assert f == Fraction(p, q)
        assert (f.numerator, f.denominator) == (Fraction(p, q).numerator, Fraction(p, q).denominator)
    v = _flint_iter.QV(flint.fmpz_mat(2, 1, [6, -4]), flint.fmpz(8))
    assert _flint_iter.fracs(v.fq()) == (Fraction(3, 4), Fraction(-1, 2))
    assert _flint_iter.bits(v.fq()) == 3  # 3/4 and -1/2: the denominator 4 = 0b100 has 3 bits


# ---------------------------------------------------------------------------------------------------
# the helpers of the integer-column loops (QV.canon, bits_above, the lazy trace), against plain Fractions


BIG = st.integers(-(2**300), 2**300)


@SETTINGS
@given(st.lists(BIG | SMALL, min_size=1, max_size=8), st.integers(1, 2**200) | st.integers(1, 5000),
       st.integers(0, 400))
def test_canon_and_bits_above_against_fractions(nums, den, top):
    """canon() puts the column over its least common denominator (the lcm of the reduced denominators, computed
    here with Python's Fraction and math.lcm) without changing a value; bits_above(V, top) is
    max(top, the largest bit length of a reduced numerator or denominator), computed here entry by entry."""
    import math

    import flint

    V = _flint_iter.QV(flint.fmpz_mat(len(nums), 1, nums), flint.fmpz(den))
    ref = [Fraction(x, den) for x in nums]
    C = V.canon()
    assert int(C.L) == math.lcm(*(f.denominator for f in ref))
    assert [Fraction(int(x), int(C.L)) for x in C.N.entries()] == ref
    assert C.fracs() == tuple(ref)
    expect = max([top] + [max(abs(f.numerator).bit_length(), f.denominator.bit_length()) for f in ref])
    assert _flint_iter.bits_above(C, top) == expect
    assert _flint_iter.bits_above(V, top) == expect  # also on a column not over its least denominator
    # equal values give equal canonical integers (the loops' "changed" test)
    scaled = _flint_iter.QV(flint.fmpz_mat(len(nums), 1, [3 * x for x in nums]), flint.fmpz(3 * den)).canon()
    assert scaled.same(C)


def test_bits_above_prunes_but_stays_exact():
    """(2^100 + 1)/2^100 and 1/2: over L = 2^100 the second entry's numerator 2^99 reduces to 1/2, 2 bits; the
    first entry is already reduced with 101 bits (hand count), so the maximum is 101 whatever ``top`` below it."""
    import flint

    V = _flint_iter.QV(flint.fmpz_mat(2, 1, [2**100 + 1, 2**99]), flint.fmpz(2**100))
    assert _flint_iter.bits_above(V, 0) == 101
    assert _flint_iter.bits_above(V, 100) == 101
    assert _flint_iter.bits_above(V, 101) == 101
    assert _flint_iter.bits_above(V, 500) == 500


def test_traces_are_built_when_read():
    """Ho-Kashyap's and LMS's flint loops hand the Run a lazily built trace: nothing is converted until it is
    read, and then it equals the Fraction loop's trace step for step."""
    from exactlin.model.run import LazySteps

    X, y = _noisy()
    for fn, kw in ((ho_kashyap, {"k_max": 5}), (ho_kashyap_mod2, {"k_max": 5}),
                   (ho_kashyap, {"k_max": 5, "stop": "b_min", "b_min": 0}), (lms, {"k_max": 50})):
        fast = fn(X, y, **kw)
        assert isinstance(fast.trace, LazySteps) and fast.trace._steps is None and len(fast.trace) == fast.steps
        _flint_iter.ENABLED = False
        try:
            ref = fn(X, y, **kw)
        finally:
            _flint_iter.ENABLED = True
        assert list(fast.trace) == ref.trace
