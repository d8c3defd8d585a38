"""Seed 000's voted and averaged perceptrons on the integer kernel (exactlin/algorithms/_fast_voted.py) against
the readable Fraction loop.

The reference is the same call with ``_fast.ENABLED = False`` (``perceptron_family._voted`` then runs
``cyclic_single_sample`` and builds the lecture's (w_m, c_m) list in its ``on_step``).  Every test asserts the
two runs are identical, field for field (w, converged, reason, updates, epochs, steps, trace,
trace_complete and every extra: the voted list, final_w, averaged_w, mistakes, max_bits, last_update_step,
the cycle certificate and cycle_step, the monitor) and that their models are equal.  A third, independent
reference written in this file -- the lecture's pseudocode on Fractions, run for the same number of rounds --
must give the same (w_m, c_m) list and the same averaged vector.  The inputs force each tier of the kernel
(float64-exact integers, int64, Python integers near and beyond 2^63, rationals with large denominators),
separable and non-separable data, every bound, and every fall-back (trace=True, stop_on_cycle=False, the
kernel switched off).
"""

from __future__ import annotations

import copy
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactlin.algorithms import _fast, _fast_voted, _loop
from exactlin.algorithms.perceptron_family import averaged_perceptron, voted_perceptron
from exactlin.errors import ExactlinError
from exactlin.model.run import Run
from tests.algorithms.test_fast_family import big_denominators, big_ints, problems, rationals
from tests.algorithms.test_fast_paths import _same

RULES = (voted_perceptron, averaged_perceptron)


def _both(fn, *args, **kw):
    """(kernel run, reference run) or the two exceptions' (class, message); also the kernel's tiers."""
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


def normalized(X, y, bias):
    """z_i = y_i x~_i, written out here (Fractions)."""
    rows = [(1, *x) if bias == "first" else (*x, 1) if bias == "last" else tuple(x) for x in X]
    return [tuple(Fraction(yi) * Fraction(v) for v in r) for r, yi in zip(rows, y)]


def lecture_voted(Z, rounds):
    """Seed 000's voted perceptron as the lecture writes it, on Fractions, for ``rounds`` rounds in cyclic
    order: m = 1, w_1 = 0, c_1 = 1; if <w_m, z_t> <= 0 then w_{m+1} = w_m + z_t, m = m + 1, c_m = 1, else
    c_m = c_m + 1.  Returns the list [(w_m, c_m)] and sum_m c_m w_m."""
    n, d = len(Z), len(Z[0])
    out = [[tuple(Fraction(0) for _ in range(d)), 1]]
    for t in range(rounds):
        z = Z[t % n]
        w = out[-1][0]
        if sum((a * b for a, b in zip(w, z)), Fraction(0)) <= 0:
            out.append([tuple(a + b for a, b in zip(w, z)), 1])
        else:
            out[-1][1] += 1
    avg = tuple(sum((c * w[j] for w, c in out), Fraction(0)) for j in range(d))
    return [(w, c) for w, c in out], avg


def _same_voted(fast, ref, X=None, y=None, bias="none"):
    """``_same`` (tests/algorithms/test_fast_paths.py) on the two runs, the models equal, every number a
    Fraction or an int; and, given the data, the lecture's loop written above run for the same rounds."""
    if isinstance(ref, tuple):
        assert fast == ref
        return
    assert isinstance(fast, Run)
    if fast.w is None:  # voted-perceptron: no single w; _same compares w, so compare final_w in its place
        assert ref.w is None
        fast, ref = copy.copy(fast), copy.copy(ref)
        fast.w, ref.w = fast.extras["final_w"], ref.extras["final_w"]
    _same(fast, ref)
    assert fast.model == ref.model
    for e in fast.extras["voted"]:
        assert all(type(a) is Fraction for a in e["w"]) and type(e["c"]) is int
    assert all(type(a) is Fraction for a in fast.extras["averaged_w"])
    assert all(type(a) is Fraction for a in fast.extras["final_w"])
    if X is not None:
        lst, avg = lecture_voted(normalized(X, y, bias), fast.steps)
        assert [(e["w"], e["c"]) for e in fast.extras["voted"]] == lst
        assert fast.extras["averaged_w"] == avg
        assert sum(c for _, c in lst) == fast.steps + 1


options = st.fixed_dictionaries({}, optional={
    "max_updates": st.integers(1, 30),
    "max_bits": st.integers(1, 12),
    "max_steps": st.integers(1, 80),
    "max_epochs": st.integers(1, 30),
    "monitor": st.booleans(),
    "trace": st.sampled_from([None, False, True]),
    "stop_on_cycle": st.booleans(),
    "bias": st.sampled_from(["none", "first", "last"]),
    "stop": st.sampled_from(["n-clean", "clean-epoch"]),  # issue 21: the clean stop on the kernel too
})

SETTINGS = settings(max_examples=2 * settings.default.max_examples, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(problems(), options, st.sampled_from(RULES))
def test_small_integers(prob, opts, fn):
    X, y = prob
    fast, ref, _ = _both(fn, X, y, **opts)
    _same_voted(fast, ref, X, y, opts.get("bias", "none"))


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.sampled_from(RULES), st.data())
def test_given_w_star(prob, fn, data):
    # the monitor with a given w*: checked on the sequence w_1, w_2, ... (a w* that does not separate is an error,
    # the same one on both paths)
    X, y = prob
    w_star = data.draw(st.lists(st.integers(-4, 4), min_size=len(X[0]), max_size=len(X[0])))
    fast, ref, _ = _both(fn, X, y, w_star=w_star, max_epochs=20)
    _same_voted(fast, ref)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(entries=rationals), options, st.sampled_from(RULES))
def test_rationals(prob, opts, fn):
    X, y = prob
    fast, ref, _ = _both(fn, X, y, **opts)
    _same_voted(fast, ref, X, y, opts.get("bias", "none"))


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(entries=big_ints, n_max=6, d_max=3), options, st.sampled_from(RULES))
def test_huge_integers_python_int_tier(prob, opts, fn):
    X, y = prob
    opts.pop("max_bits", None)
    fast, ref, _ = _both(fn, X, y, **opts)
    _same_voted(fast, ref, X, y, opts.get("bias", "none"))


@SETTINGS
@given(problems(entries=big_denominators, n_max=6, d_max=3), options, st.sampled_from(RULES))
def test_big_denominators(prob, opts, fn):
    X, y = prob
    fast, ref, _ = _both(fn, X, y, **opts)
    _same_voted(fast, ref, X, y, opts.get("bias", "none"))


def test_every_tier_is_reached_and_equal():
    # bias none, m_Z = 2^50, d = 2 (_fast.py, point 2): float64 while 2 * 2^50 * max|v| < 2^53 (max|v| < 4),
    # int64 while < 2^62 (max|v| < 2^11), Python ints beyond.  Hand run from w = 0: (1, 0) -> w = (1, 0)
    # (float64); (-1, 3): -1 -> w = (0, 3) (max 3: float64); (5, -7): -21 -> w = (5, -4) (max 5: int64);
    # (-2^50, 1): -5 * 2^50 - 4 -> w = (5 - 2^50, -3) (Python ints from here on)
    X = [[1, 0], [-1, 3], [5, -7], [-(2**50), 1]]
    y = [1, 1, 1, 1]
    for fn in RULES:
        fast, ref, tiers = _both(fn, X, y, max_epochs=30)
        _same_voted(fast, ref, X, y)
        assert tiers == {"float64", "int64", "python"}
        assert fast.extras["mistakes"][:4] == (0, 1, 2, 3)
        assert [e["w"] for e in fast.extras["voted"][:5]] == [(0, 0), (1, 0), (0, 3), (5, -4), (5 - 2**50, -3)]
        assert [e["c"] for e in fast.extras["voted"][:4]] == [1, 1, 1, 1]
    # and each tier alone: small entries stay in float64; entries 2^30 (d = 2) reach int64 after one update
    # (2 * 2^30 * 2^30 = 2^61); entries of 2^62 are not below the int64 limit 2^62 at all: Python ints throughout
    for X, y, expected in (([[1, 2], [2, -1]], [1, -1], {"float64"}),
                           ([[2**30, 1], [1, 2**30], [-(2**30), -(2**30)]], [1, 1, 1], {"float64", "int64"}),
                           ([[2**62], [-(2**62)]], [1, 1], {"python"})):
        fast, ref, tiers = _both(averaged_perceptron, X, y, max_epochs=10)
        _same_voted(fast, ref, X, y)
        assert tiers == expected, X


def test_prefix_sums_beyond_int64():
    # _fast_voted.py point 4: the vectors V_m are summed in int64 only while U max|Z'| < 2^62; entries 2^61 make
    # the second partial sum reach 2^62, so the Python-integer branch runs (XOR scaled by 2^61: a cycle)
    M = 2**61
    X = [[M, M], [M, -M], [-M, M], [-M, -M]]
    y = [1, -1, -1, 1]
    for fn in RULES:
        fast, ref, _ = _both(fn, X, y)
        _same_voted(fast, ref, X, y)
        # hand run as seed 000's XOR (z = (1,1), (-1,1), (1,-1), (-1,-1) times M): w = M(1,1), M(0,2), M(1,1), 0;
        # the state (0, position 0) repeats at round 4
        assert fast.reason == "cycle" and fast.steps == 4 and fast.extras["cycle_step"] == 4
        assert [e["w"] for e in fast.extras["voted"]] == [(0, 0), (M, M), (0, 2 * M), (M, M), (0, 0)]
        assert fast.extras["averaged_w"] == (2 * M, 4 * M)


def test_survival_counts_at_every_stop():
    # hand derivations on seed 000's Example 1 (z = (4,0), (-1,-1), (0,-1), (-2,-2)): mistakes at rounds 1, 2, 4
    X, y = [(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1]
    cases = {
        # converged: w_4 = (1,-3) survives rounds 5..8, so c_4 = 1 + 4 = 5
        (): ("converged", 8, [1, 1, 2, 5]),
        # max_steps before round 4's mistake: c_3 = 1 + round 3
        (("max_steps", 3),): ("max_steps", 3, [1, 1, 2]),
        # max_updates after the 3rd mistake (round 4): the new entry is counted once
        (("max_updates", 3),): ("max_updates", 4, [1, 1, 2, 1]),
        # one pass (the lecture's output)
        (("max_epochs", 1),): ("max_epochs", 4, [1, 1, 2, 1]),
        # max_bits: w_2 = (4, 0) has 3 bits > 2, stop right after the first mistake
        (("max_bits", 2),): ("bit_limit", 1, [1, 1]),
    }
    for opts, (reason, steps, counts) in cases.items():
        for fn in RULES:
            fast, ref, tiers = _both(fn, X, y, **dict(opts))
            _same_voted(fast, ref, X, y)
            assert tiers  # the kernel ran
            assert (fast.reason, fast.steps, [e["c"] for e in fast.extras["voted"]]) == (reason, steps, counts)


def test_stop_on_cycle_false_runs_to_the_bound_with_the_certificate():
    # seed 000's Example 2 (XOR), bias none: z = (1,1), (-1,1), (1,-1), (-1,-1); every round is a mistake,
    # w = (1,1), (0,2), (1,1), (0,0): the state (0, position 0) repeats at round 4 (hand run)
    X, y = [(1, 1), (1, -1), (-1, 1), (-1, -1)], [1, -1, -1, 1]
    for fn in RULES:
        stop = fn(X, y, max_epochs=5)
        assert stop.reason == "cycle" and stop.steps == 4 and stop.extras["cycle_step"] == 4
        fast, ref, tiers = _both(fn, X, y, max_epochs=5, stop_on_cycle=False)
        _same_voted(fast, ref, X, y)
        assert tiers == set()  # the readable loop ran
        # on to the bound: 5 passes of 4 mistakes each, 21 vectors with c = 1
        assert fast.reason == "max_epochs" and fast.steps == 20 and fast.updates == 20 and not fast.converged
        assert fast.extras["cycle_step"] == 4
        assert fast.extras["certificate"]["verified"]
        assert fast.extras["certificate"]["lambda"] == (Fraction(1, 4),) * 4
        assert [e["c"] for e in fast.extras["voted"]] == [1] * 21
        # sum of the 21 vectors: 5 times (0,0) + (1,1) + (0,2) + (1,1), plus the last (0,0)
        assert fast.extras["averaged_w"] == (10, 20)
        # and to max_steps (the default budget's reason) the same way
        r = fn(X, y, max_steps=7, stop_on_cycle=False)
        assert r.reason == "max_steps" and r.steps == 7 and r.extras["certificate"]["verified"]


def test_brent_after_the_table(monkeypatch):
    monkeypatch.setattr(_loop, "CYCLE_TABLE_LIMIT", 2)
    X = [(1, 2), (2, -1), (-1, 3), (3, 1), (-2, -2), (1, -3)]
    y = [1, -1, 1, -1, 1, -1]
    for fn in RULES:
        fast, ref, _ = _both(fn, X, y, bias="first", max_epochs=500)
        _same_voted(fast, ref, X, y, "first")


def test_the_kernel_runs_by_default(monkeypatch):
    calls = []
    real = _fast.integer_loop

    def spy(*a, **k):
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(_fast, "integer_loop", spy)
    X, y = [(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1]
    for fn in RULES:
        fn(X, y)
        fn(X, y, trace=False, bias="first", max_epochs=3)
    assert len(calls) == 4


def test_reference_options_keep_the_fraction_loop(monkeypatch):
    # trace=True, stop_on_cycle=False and the kernel switched off run the readable loop: the kernel must not be
    # called
    def boom(*a, **k):
        raise AssertionError("kernel called")

    X, y = [(1, 1), (1, -1), (-1, 1), (-1, -1)], [1, -1, -1, 1]
    monkeypatch.setattr(_fast, "integer_loop", boom)
    for fn in RULES:
        fn(X, y, trace=True, max_epochs=5)
        fn(X, y, stop_on_cycle=False, max_epochs=5)
        monkeypatch.setattr(_fast, "ENABLED", False)
        fn(X, y, max_epochs=5)
        monkeypatch.setattr(_fast, "ENABLED", True)


def test_json_round_trip_of_a_kernel_run():
    # the voted list is built when first read; the JSON form and its read-back are the reference's
    X, y = [(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1]
    for fn in RULES:
        fast, ref, _ = _both(fn, X, y)
        assert fast.to_json() == ref.to_json()
        assert Run.from_json(fast.to_json()) == fast


def test_rounds_and_counts_helpers():
    # hand derivations: n = 3, mistakes at samples 2, 2, 0, 1 -> rounds 3, 6 (sample 2 again a full pass later),
    # 7, 8; with K = 12 rounds run, c = 3, 3, 1, 1 and the last vector survives rounds 9..12: 1 + 4 = 5
    rounds = _fast_voted.mistake_rounds([2, 2, 0, 1], 3)
    assert rounds == [3, 6, 7, 8]
    assert _fast_voted.survival_counts(rounds, 12) == [3, 3, 1, 1, 5]


def test_integer_matrix_and_scaled_input():
    # the data layer's integer rows (ExactRows: an int64 matrix over one denominator) feed the kernel directly;
    # a numpy integer matrix and the same matrix over 250 (exactlin.scaled) give the reference's runs, and the
    # scaled run's vectors are the integer run's divided by 250 (the perceptron's scale-equivariance from w = 0)
    import numpy as np

    from exactlin import scaled

    K = np.array([[3, -1, 4], [-2, 5, 1], [1, 1, -6], [4, -3, 2], [-5, 2, 2], [2, 2, 2]])
    y = [1, -1, 1, -1, 1, -1]
    for fn in RULES:
        runs = []
        for inp in (K, scaled(K, 250)):
            fast, ref, tiers = _both(fn, inp, y, bias="none", max_epochs=40)
            assert tiers
            _same_voted(fast, ref)
            runs.append(fast)
        a, b = runs
        assert a.extras["mistakes"] == b.extras["mistakes"] and a.steps == b.steps
        assert [tuple(x / 250 for x in e["w"]) for e in a.extras["voted"]] == [e["w"] for e in b.extras["voted"]]
