"""The fast exact paths of relaxation (Algorithms 8, 9) and balanced Winnow (Algorithm 7),
exactlin/algorithms/_flint_relax.py, against the readable Fraction loops (the reference).

Every comparison runs the rule twice, with ``_flint_relax.ENABLED`` True (fast) and False (reference), and
asserts the two Runs identical field for field (``_same`` of test_fast_paths: w, converged, reason, updates,
epochs, steps, trace and its completeness, every extra: max_bits, mistakes, J_r, certificate, cycle_step, ...)
and their JSON equal.  Inputs: integer and rational data, start vectors, eta constant or a schedule in k, the
margin b, both tests, every bound, every trace mode, stop_on_cycle, non-separable data that cycles.
Also: issue 15 item 3 (``stop_on_cycle`` for these rules), with hand-derived runs.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactlin.algorithms import _flint_relax
from exactlin.algorithms.relaxation import batch_relaxation, single_sample_relaxation
from exactlin.algorithms.winnow import balanced_winnow
from exactlin.errors import ExactlinError, InvariantViolation
from tests.algorithms.kernel_helpers import same_run as _same

SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _both(fn, *args, **kw):
    """(fast run, reference run), or the two exceptions' (class, message)."""
    out = []
    for enabled in (True, False):
        _flint_relax.ENABLED = enabled
        try:
            out.append(fn(*args, **kw))
        except ExactlinError as e:
            out.append((type(e), str(e)))
        finally:
            _flint_relax.ENABLED = True
    return out


def _identical(fast, ref):
    _same(fast, ref)
    if not isinstance(ref, tuple):
        assert fast.to_json() == ref.to_json()


SMALL = st.integers(-6, 6)
rationals = st.fractions(min_value=-5, max_value=5, max_denominator=7) | st.sampled_from([F(1, 211), F(-5, 401)])


@st.composite
def problems(draw, entries=SMALL, n_max=6, d_max=3):
    n = draw(st.integers(1, n_max))
    d = draw(st.integers(1, d_max))
    X = [[draw(entries) for _ in range(d)] for _ in range(n)]
    y = [draw(st.sampled_from([1, -1])) for _ in range(n)]
    return X, y


bounds = st.fixed_dictionaries({}, optional={
    "max_updates": st.integers(1, 25),
    "max_bits": st.integers(1, 200),
    "max_steps": st.integers(1, 60),
    "max_epochs": st.integers(1, 12),
    "trace": st.sampled_from([None, True, False]),
    "stop_on_cycle": st.booleans(),
    "bias": st.sampled_from(["none", "first", "last"]),
})

relax_options = st.fixed_dictionaries({}, optional={
    "eta": st.sampled_from([F(1), F(3, 2), F(1, 2), F(7, 4), F(401, 211), "1/2 + 1/(k+2)", "3/2 - 1/(k+1)"]),
    "b": st.sampled_from([F(1), F(2), F(1, 3), F(5, 2), F(3, 223)]),
    "test": st.sampled_from(["<", "<="]),
})


@SETTINGS
@given(problems(), relax_options, bounds)
def test_single_sample_relaxation_integers(prob, opts, bnd):
    _identical(*_both(single_sample_relaxation, *prob, **opts, **bnd))


@SETTINGS
@given(problems(entries=st.integers(-90, 90), n_max=8), relax_options, bounds)
def test_relaxation_large_prime_factors(prob, opts, bnd):
    # ||y||^2 with prime factors above 200 (and eta, b with such denominators): the reduction's large-prime path
    _identical(*_both(single_sample_relaxation, *prob, **opts, **bnd))
    _identical(*_both(batch_relaxation, *prob, **opts, **bnd))


@SETTINGS
@given(problems(entries=rationals), relax_options, bounds, st.data())
def test_single_sample_relaxation_rationals_and_start(prob, opts, bnd, data):
    X, y = prob
    d = len(X[0]) + (bnd.get("bias", "first") != "none")
    a0 = data.draw(st.none() | st.lists(rationals, min_size=d, max_size=d))
    _identical(*_both(single_sample_relaxation, X, y, a0=a0, **opts, **bnd))


@SETTINGS
@given(problems(n_max=8), relax_options, bounds)
def test_batch_relaxation_integers(prob, opts, bnd):
    _identical(*_both(batch_relaxation, *prob, **opts, **bnd))


@SETTINGS
@given(problems(entries=rationals), relax_options, bounds, st.data())
def test_batch_relaxation_rationals_and_start(prob, opts, bnd, data):
    X, y = prob
    d = len(X[0]) + (bnd.get("bias", "first") != "none")
    a0 = data.draw(st.none() | st.lists(rationals, min_size=d, max_size=d))
    _identical(*_both(batch_relaxation, X, y, a0=a0, **opts, **bnd))


def test_batch_relaxation_bit_check_within_an_iteration():
    # 130 corrected samples with distinct ||y||^2: the in-iteration check after 64 and 128 corrections
    X = [[i, 1] for i in range(1, 131)]
    y = [-1] * 130
    for mb in (10, 60, 200, 400, None):
        _identical(*_both(batch_relaxation, X, y, max_bits=mb, max_steps=3))


winnow_options = st.fixed_dictionaries({}, optional={
    "alpha": st.sampled_from([F(2), F(3), F(3, 2), F(4), F(5, 3), F(8)]),
})
positive = st.fractions(min_value=F(1, 5), max_value=5, max_denominator=6).filter(lambda v: v > 0)


@SETTINGS
@given(problems(), winnow_options, bounds, st.data())
def test_balanced_winnow_integers(prob, opts, bnd, data):
    X, y = prob
    d = len(X[0]) + (bnd.get("bias", "first") != "none")
    for name in ("a_plus", "a_minus"):
        opts[name] = data.draw(st.none() | st.lists(positive, min_size=d, max_size=d))
    _identical(*_both(balanced_winnow, X, y, **opts, **bnd))


@SETTINGS
@given(problems(entries=st.sampled_from([F(1, 2), F(-3, 2), F(1), F(0), F(2)])), bounds)
def test_balanced_winnow_rational_features_use_the_reference(prob, bnd):
    # alpha = 4: 4^(1/2) = 2 is rational; the fast path declines (non-integer exponents), both runs agree
    _identical(*_both(balanced_winnow, *prob, alpha=4, **bnd))


def test_fast_paths_are_taken(monkeypatch):
    calls = []
    for name in ("relaxation_single_loop", "relaxation_batch_loop", "winnow_loop"):
        real = getattr(_flint_relax, name)

        def spy(*a, _real=real, _name=name, **k):
            out = _real(*a, **k)
            calls.append((_name, out is not None))
            return out

        monkeypatch.setattr(_flint_relax, name, spy)
    X, y = [[1, 2], [3, -1], [-2, 2]], [1, 1, -1]
    single_sample_relaxation(X, y)
    batch_relaxation(X, y)
    balanced_winnow(X, y)
    balanced_winnow([[F(1, 2)]], [1], alpha=4, bias="none")
    assert calls == [("relaxation_single_loop", True), ("relaxation_batch_loop", True), ("winnow_loop", True),
                     ("winnow_loop", False)]


def test_fast_identity_check_catches_a_broken_update(monkeypatch):
    # a broken reduction (1 added to every numerator) breaks a(k+1): the integer form of the notes' identity
    # must catch it
    real = _flint_relax._reduce
    monkeypatch.setattr(_flint_relax, "_reduce", lambda v, D, R, cur: real([x + 1 for x in v], D, R, cur))
    with pytest.raises(InvariantViolation, match="relaxation identity fails at step 1"):
        single_sample_relaxation([[1, 1], [1, -1]], [1, 1], bias="none", eta=F(1, 3))


@pytest.mark.parametrize("n", [40, 101])
def test_planted_workload_identical(n):
    # the benchmark's data (benchmarks/budget_data.py), at a size where numbers reach hundreds of bits
    from benchmarks.budget_data import make

    X, y = make("separable", n, 4)
    _identical(*_both(single_sample_relaxation, X, y, max_steps=3 * n, max_bits=None))
    _identical(*_both(batch_relaxation, X, y, max_steps=6, max_bits=None))
    _identical(*_both(balanced_winnow, X, y, max_epochs=4, max_bits=None, max_steps=None))
    Xn, yn = make("noisy", n, 4)
    _identical(*_both(balanced_winnow, Xn, yn, max_epochs=3, alpha=F(3, 2), max_steps=None))


# ---------------------------------------------------------------------------------------------------------
# stop_on_cycle (issue 15 item 3), on x and x with both labels (through the origin): z_1 = (1), z_2 = (-1)


def _cert(run):
    c = run.extras["certificate"]
    return c.lam, tuple(c.cycle)


@pytest.mark.parametrize("fast", [True, False])
def test_single_sample_relaxation_stop_on_cycle(fast, monkeypatch):
    monkeypatch.setattr(_flint_relax, "ENABLED", fast)
    # by hand (b = 1, eta = 1, a(1) = 0): round 1 corrects z_1 by c = 1 (a = 1), round 2 z_2 by c = 2 (a = -1),
    # round 3 z_1 by c = 2 (a = 1): the state (a = 1, next sample 2) of round 1 repeats, period 2, and the
    # period's corrections 2 z_2 + 2 z_1 = 0 give lambda = (1/2, 1/2)
    r = single_sample_relaxation([[1], [1]], [1, -1], bias="none")
    assert (r.reason, r.steps, r.updates, r.w, r.extras["cycle_step"]) == ("cycle", 3, 3, (F(1),), 3)
    assert _cert(r) == ((F(1, 2), F(1, 2)), (1, 0))
    # stop_on_cycle=False: the run goes on repeating the cycle to its bound (10 rounds, the last on z_2:
    # a = -1), the certificate of the period found at round 3 attached
    g = single_sample_relaxation([[1], [1]], [1, -1], bias="none", stop_on_cycle=False, max_steps=10)
    assert (g.reason, g.steps, g.updates, g.w, g.extras["cycle_step"]) == ("max_steps", 10, 10, (F(-1),), 3)
    assert _cert(g) == _cert(r) and g.params["stop_on_cycle"] is False
    assert [s.w_after for s in g.trace] == [(F(1),), (F(-1),)] * 5


@pytest.mark.parametrize("fast", [True, False])
def test_single_sample_relaxation_certificate_of_the_period_found(fast, monkeypatch):
    monkeypatch.setattr(_flint_relax, "ENABLED", fast)
    # by hand on z_1 = (2), z_2 = (-1) (b = 1, eta = 1, a(1) = 0): round 1, c = 1/4, a = 1/2; round 2,
    # a^t z_2 = -1/2, c = 3/2, a = -1; round 3, a^t z_1 = -2, c = 3/4, a = 1/2: period 2 (samples 2, 1 with
    # coefficients 3/2, 3/4), lambda = (3/4, 3/2) / (9/4) = (1/3, 2/3) and 1/3 * 2 + 2/3 * (-1) = 0
    X, y = [[2], [1]], [1, -1]
    r = single_sample_relaxation(X, y, bias="none")
    assert (r.reason, r.steps, r.extras["cycle_step"]) == ("cycle", 3, 3)
    assert _cert(r) == ((F(1, 3), F(2, 3)), (1, 0))
    # going on to round 4 (z_2 again, c = 3/2, a = -1): the last two coefficients are (3/4, 3/2) in the order
    # (sample 1, sample 2), the period's were (3/2, 3/4) for (sample 2, sample 1); the certificate is the
    # period's, lambda = (1/3, 2/3), not the misaligned (2/3, 1/3)
    g = single_sample_relaxation(X, y, bias="none", stop_on_cycle=False, max_steps=4)
    assert (g.reason, g.steps, g.w, g.extras["cycle_step"]) == ("max_steps", 4, (F(-1),), 3)
    assert _cert(g) == _cert(r)


@pytest.mark.parametrize("fast", [True, False])
def test_batch_relaxation_stop_on_cycle(fast, monkeypatch):
    monkeypatch.setattr(_flint_relax, "ENABLED", fast)
    # by hand: a = 0 has a^t z_i = 0 < 1 for both samples; the correction 1 z_1 + 1 z_2 = 0 leaves a fixed:
    # a repeat after iteration 1, lambda = (1/2, 1/2)
    r = batch_relaxation([[1], [1]], [1, -1], bias="none")
    assert (r.reason, r.epochs, r.updates, r.extras["cycle_step"]) == ("cycle", 1, 0, 1)
    assert _cert(r) == ((F(1, 2), F(1, 2)), (1,))
    g = batch_relaxation([[1], [1]], [1, -1], bias="none", stop_on_cycle=False, max_steps=5)
    assert (g.reason, g.epochs, g.extras["cycle_step"]) == ("max_steps", 5, 1)
    assert _cert(g) == _cert(r) and len(g.trace) == 5


@pytest.mark.parametrize("fast", [True, False])
def test_balanced_winnow_stop_on_cycle(fast, monkeypatch):
    monkeypatch.setattr(_flint_relax, "ENABLED", fast)
    # by hand (alpha = 2, a+ = a- = 1): round 1, sign(0) != +1: a+ = 2, a- = 1/2; round 2, score 3/2 > 0 on
    # label -1: a+ = 1, a- = 1: the start state (position 1) repeats, period 2 (samples 1, 2)
    r = balanced_winnow([[1], [1]], [1, -1], bias="none")
    assert (r.reason, r.steps, r.updates, r.w, r.extras["cycle_step"]) == ("cycle", 2, 2, (F(0),), 2)
    assert _cert(r) == ((F(1, 2), F(1, 2)), (0, 1))
    g = balanced_winnow([[1], [1]], [1, -1], bias="none", stop_on_cycle=False, max_steps=9)
    # 9 rounds, all updates: after an odd number a+ = 2, a- = 1/2, w = 3/2
    assert (g.reason, g.steps, g.updates, g.w, g.extras["cycle_step"]) == ("max_steps", 9, 9, (F(3, 2),), 2)
    assert _cert(g) == _cert(r)


@pytest.mark.parametrize("eta", [F(1), F(1, 2), F(3, 2)])
def test_relaxation_high_powers_of_small_primes(eta):
    # ||y||^2 divisible by 2^8 and 3^8 (entries multiples of 48 and 81): the denominators hold small primes to
    # high powers, the capped path of the reduction
    X, y = [[48, 96, 81], [144, -48, 162], [-96, 48, -81], [81, 243, 48]], [1, 1, -1, -1]
    _identical(*_both(single_sample_relaxation, X, y, eta=eta, max_steps=60, max_bits=None))
    _identical(*_both(batch_relaxation, X, y, eta=eta, max_steps=25, max_bits=None))


powers = st.tuples(st.integers(0, 20), st.integers(0, 12), st.integers(0, 3), st.integers(0, 2))


@SETTINGS
@given(powers, st.lists(st.tuples(powers, st.integers(-10**6, 10**6)), min_size=1, max_size=5),
       st.sampled_from([1, 401, 1009 * 7]), st.integers(0, 60))
def test_reduction_and_bits_against_fractions(dp, entries, extra, current):
    # lowest terms and the bit count, against Fraction (an independent reduction): D = 2^a 3^b 211^c 401^e,
    # v_j = (the same primes to other powers) * r_j; R = D's part on primes >= 200 times an unrelated number
    def num(p, r=1):
        return 2 ** p[0] * 3 ** p[1] * 211 ** p[2] * 401 ** p[3] * r

    D = num(dp)
    v = [num(p, r) for p, r in entries]
    R = _flint_relax._nonsmooth(D) * extra
    v2, D2, bits = _flint_relax._reduce_with_bits(v, D, R, current)
    fr = [F(x, D) for x in v]
    assert [F(x, D2) for x in v2] == fr and math.gcd(D2, *v2) == 1 and D2 > 0
    exact = max(max(abs(q.numerator).bit_length(), q.denominator.bit_length()) for q in fr)
    assert bits == max(exact, current)


def test_numpy_and_scaled_input():
    # numpy arrays and integers over one denominator (exactlin.scaled) arrive as ExactRows
    import numpy as np

    import exactlin

    X, y = np.array([[3, -2, 5], [1, 4, -1], [-2, -3, 2], [5, 1, 1]]), np.array([1, -1, 1, -1])
    for data in (X, exactlin.scaled(X, 3)):
        for fn, kw in ((balanced_winnow, {"alpha": 8}), (batch_relaxation, {}), (single_sample_relaxation, {})):
            _identical(*_both(fn, data, y, max_epochs=20, **kw))


def test_progress_records_equal():
    # the progress callback sees the same records (step, updates, max_bits) on both paths
    from benchmarks.budget_data import make

    X, y = make("separable", 30, 3)
    for fn, kw in ((single_sample_relaxation, {"max_epochs": 80, "max_bits": None, "max_steps": None}),
                   (batch_relaxation, {"max_steps": 60, "max_bits": None}),
                   (balanced_winnow, {"max_epochs": 80, "max_steps": None})):
        seen = []
        for enabled in (True, False):
            _flint_relax.ENABLED = enabled
            try:
                recs = []
                fn(X, y, progress=recs.append, **kw)
            finally:
                _flint_relax.ENABLED = True
            seen.append([(p.step, p.updates, p.max_bits, p.budget) for p in recs])
        assert seen[0] == seen[1] and seen[0], fn.__name__
