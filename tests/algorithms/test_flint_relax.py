"""The fast exact path of batch relaxation (Algorithm 8), exactlin/algorithms/_flint_relax.py, against the readable
Fraction loop (the reference).  (Single-sample relaxation and balanced Winnow run on the engine's cyclic loop:
tests/engine/test_cyclic_rules.py.)

Every comparison runs the rule twice, with ``_flint_relax.ENABLED`` True (fast) and False (reference), and
asserts the two Runs identical field for field (``_same`` of test_fast_paths: w, converged, reason, updates,
epochs, steps, trace and its completeness, every extra: max_bits, mistakes, J_r, certificate, cycle_step, ...)
and their JSON equal.  Inputs: integer and rational data, start vectors, eta constant or a schedule in k, the
margin b, both tests, every bound, every trace mode, stop_on_cycle, non-separable data that cycles.
Also: issue 15 item 3 (``stop_on_cycle`` for this rule), with a hand-derived run.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactlin.algorithms import _flint_relax
from exactlin.algorithms.relaxation import batch_relaxation
from exactlin.errors import ExactlinError

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
    assert fast == ref  # every field, types included (Run equality)
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
@given(problems(entries=st.integers(-90, 90), n_max=8), relax_options, bounds)
def test_relaxation_large_prime_factors(prob, opts, bnd):
    # ||y||^2 with prime factors above 200 (and eta, b with such denominators): the reduction's large-prime path
    _identical(*_both(batch_relaxation, *prob, **opts, **bnd))


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


@pytest.mark.parametrize("n", [40, 101])
def test_planted_workload_identical(n):
    # the benchmark's data (benchmarks/budget_data.py), at a size where numbers reach hundreds of bits
    from benchmarks.budget_data import make

    X, y = make("separable", n, 4)
    _identical(*_both(batch_relaxation, X, y, max_steps=6, max_bits=None))


# ---------------------------------------------------------------------------------------------------------
# stop_on_cycle (issue 15 item 3), on x and x with both labels (through the origin): z_1 = (1), z_2 = (-1)


def _cert(run):
    c = run.extras["certificate"]
    return c.lam, tuple(c.cycle)


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


@pytest.mark.parametrize("eta", [F(1), F(1, 2), F(3, 2)])
def test_relaxation_high_powers_of_small_primes(eta):
    # ||y||^2 divisible by 2^8 and 3^8 (entries multiples of 48 and 81): the denominators hold small primes to
    # high powers, the capped path of the reduction
    X, y = [[48, 96, 81], [144, -48, 162], [-96, 48, -81], [81, 243, 48]], [1, 1, -1, -1]
    _identical(*_both(batch_relaxation, X, y, eta=eta, max_steps=25, max_bits=None))


def test_numpy_and_scaled_input():
    # numpy arrays and integers over one denominator (exactlin.scaled) arrive as ExactRows
    import numpy as np

    import exactlin

    X, y = np.array([[3, -2, 5], [1, 4, -1], [-2, -3, 2], [5, 1, 1]]), np.array([1, -1, 1, -1])
    for data in (X, exactlin.scaled(X, 3)):
        _identical(*_both(batch_relaxation, data, y, max_epochs=20))


def test_progress_records_equal():
    # the progress callback sees the same records (step, updates, max_bits) on both paths
    from benchmarks.budget_data import make

    X, y = make("separable", 30, 3)
    for fn, kw in ((batch_relaxation, {"max_steps": 60, "max_bits": None}),):
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
