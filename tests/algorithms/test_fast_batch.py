"""Seed 003's batch perceptron (Algorithm 3, constant eta) and seed 001's batch PLA on the integer kernel
(exactlin/algorithms/_fast_batch.py) against the readable Fraction loop ``batch_loop``.

The reference is the same call with ``_fast.ENABLED = False`` (the switch that sends every run through
``batch_loop`` with the Fraction corrections of ``batch_perceptron`` / ``batch_pla``), and, for the kernel on its
own, ``batch_loop`` with a Fraction correction written out in this file.  Every test asserts the two runs are
identical, field for field (``_same``: w, converged, reason, updates, epochs, steps, trace, trace_complete and
every extra: separates, max_bits, last_update_step, the cycle certificate and cycle_step, the monitor), and the
progress records too.  The inputs force each tier of the kernel (scores and batch sums in float64, int64 and
Python integers), rationals with large denominators, start vectors, eta / alpha != 1, theta and epsilon
criteria, separable and non-separable data (cycles, also past the cycle table into Brent's method), every
bound, and the fall-backs (trace=True, a varying eta, the printed variant, the kernel switched off).
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from exactlin.algorithms import _fast, _fast_batch, _loop
from exactlin.algorithms.perceptron_family import BatchResult, batch_loop, batch_perceptron, batch_pla
from exactlin.engine import trace as engine_trace
from exactlin.errors import ExactlinError
from exactlin.theory.replay import cache_is_empty
from tests.algorithms.kernel_helpers import SETTINGS, big_denominators, big_ints, problems, rationals
from tests.algorithms.kernel_helpers import same_run as _same


def _both(fn, *args, **kw):
    """(kernel run, reference run, the tiers the kernel used); runs are compared with their progress records
    (or the two exceptions' (class, message))."""
    out = []
    tiers = None
    for enabled in (True, False):
        _fast.ENABLED = enabled
        _fast_batch.LAST_TIERS.clear()
        records: list = []
        try:
            r = fn(*args, progress=records.append, **kw)
            out.append((r, records))
        except ExactlinError as e:
            out.append(((type(e), str(e)), None))
        finally:
            _fast.ENABLED = True
        if enabled:
            tiers = {t for t, c in _fast_batch.LAST_TIERS.items() if c}
    (fast, fp), (ref, rp) = out
    assert fp == rp
    return fast, ref, tiers


def _check(fn, *args, **kw):
    fast, ref, tiers = _both(fn, *args, **kw)
    _same(fast, ref)
    return fast, tiers


options = st.fixed_dictionaries({}, optional={
    "max_bits": st.integers(1, 40),
    "max_steps": st.integers(1, 60),
    "max_epochs": st.integers(1, 300),
    "monitor": st.booleans(),
    "trace": st.sampled_from([None, False]),
    "bias": st.sampled_from(["none", "first", "last"]),
    "stop_on_cycle": st.booleans(),
})
etas = st.sampled_from([Fraction(1), Fraction(2), Fraction(1, 3), Fraction(5, 2), Fraction(7, 1024)])
thetas = st.sampled_from([Fraction(0), Fraction(1), Fraction(1, 3), Fraction(7, 2), Fraction(2**70, 3)])
epsilons = st.sampled_from([Fraction(0), Fraction(1, 10), Fraction(1), Fraction(5, 3), Fraction(2**70, 3)])


def _start(data, X, opts, entries):
    d = len(X[0]) + (opts.get("bias", "first") != "none")
    return data.draw(st.none() | st.lists(entries, min_size=d, max_size=d))


@SETTINGS
@given(problems(n_max=9), options, etas, thetas, st.data())
def test_batch_perceptron_small_integers(prob, opts, eta, theta, data):
    X, y = prob
    _check(batch_perceptron, X, y, eta=eta, theta=theta, a0=_start(data, X, opts, st.integers(-4, 4)), **opts)


@SETTINGS
@given(problems(n_max=9), options, etas, epsilons, st.data())
def test_batch_pla_small_integers(prob, opts, alpha, eps, data):
    X, y = prob
    _check(batch_pla, X, y, alpha=alpha, epsilon=eps, w0=_start(data, X, opts, st.integers(-4, 4)), **opts)


@SETTINGS
@given(problems(entries=rationals), options, etas, thetas, epsilons, st.data())
def test_rationals_and_start_vectors(prob, opts, eta, theta, eps, data):
    X, y = prob
    opts.setdefault("max_steps", 40)  # the Fraction reference's numbers grow: keep its runs short
    a0 = _start(data, X, opts, rationals)
    _check(batch_perceptron, X, y, eta=eta, theta=theta, a0=a0, **opts)
    _check(batch_pla, X, y, alpha=eta, epsilon=eps, w0=a0, **opts)


@SETTINGS
@given(problems(entries=big_ints, n_max=6, d_max=3), options, etas, thetas, epsilons)
def test_huge_integers_python_int_tiers(prob, opts, eta, theta, eps):
    X, y = prob
    opts.setdefault("max_steps", 40)  # the Fraction reference's numbers grow: keep its runs short
    _check(batch_perceptron, X, y, eta=eta, theta=theta, **opts)
    _check(batch_pla, X, y, alpha=eta, epsilon=eps, **opts)


@SETTINGS
@given(problems(entries=big_denominators, n_max=6, d_max=3), options, etas, thetas, epsilons)
def test_big_denominators(prob, opts, eta, theta, eps):
    X, y = prob
    opts.setdefault("max_steps", 40)  # the Fraction reference's numbers grow: keep its runs short
    _check(batch_perceptron, X, y, eta=eta, theta=theta, **opts)
    _check(batch_pla, X, y, alpha=eta, epsilon=eps, **opts)


@SETTINGS
@given(st.integers(64, 300), st.integers(1, 2), st.integers(0, 10**6), st.integers(1, 60), st.booleans())
def test_partial_increment_bit_check(n, d, seed, max_bits, pla):
    # the reference checks the bits of the partial increment after every 64 corrections: n >= 64 samples from
    # a = 0 (every sample is corrected in iteration 1), entries with large numerators and denominators
    import random

    rng = random.Random(seed)
    X = [[Fraction(rng.randint(-(2**40), 2**40), rng.choice([1, 3, 2**20 + 7])) for _ in range(d)] for _ in range(n)]
    y = [rng.choice([1, -1]) for _ in range(n)]
    if pla:
        _check(batch_pla, X, y, alpha=Fraction(3, 7), max_bits=max_bits, max_steps=5)
    else:
        _check(batch_perceptron, X, y, eta=Fraction(5, 3), max_bits=max_bits, max_steps=5)


def test_every_tier_is_reached_and_equal():
    # hand arithmetic of the tiers (module docstring, point 4): from a = 0 every score is 0 and every sample is
    # corrected in iteration 1, so the first batch sum has n_k = n terms of magnitude up to m_Z
    used = set()
    cases = [
        # m_Z = 9, d = 2: scores and sums in float64 (XOR-like data, bias none)
        ([(9, 1), (1, -9), (-9, 2), (-1, -1)], [1, -1, -1, 1], {"scores:float64", "sum:float64"}),
        # m_Z = 2^51, n = 4: the first sum has n_k m_Z = 2^53, beyond float64 -> int64; then m_v ~ 2^52 and
        # d m_Z m_v >= 2^62 -> Python-integer scores
        ([(2**51, 1), (2**51, -1), (-(2**51), 2), (3, 2**51)], [1, 1, -1, 1],
         {"sum:int64", "scores:python"}),
        # m_Z = 2^60 > 2^53 (no float64 copy of Z'), n = 4: n m_Z = 2^62 -> the first sum in Python integers
        ([(2**60, 1), (2**60, -1), (-(2**60), 2), (3, 2**60)], [1, 1, -1, 1], {"scores:int64", "sum:python"}),
    ]
    for X, y, expected in cases:
        for fn in (batch_perceptron, batch_pla):
            fast, tiers = _check(fn, X, y, bias="none", max_steps=40)
            assert expected <= tiers, (X, tiers)
            used |= tiers
    assert used == {f"{w}:{t}" for w in ("scores", "sum") for t in ("float64", "int64", "python")}


def test_int64_scores_after_float64():
    # m_Z = 2^26, d = 3: scores in float64 while 3 * 2^26 * m_v < 2^53 (m_v < 2^25.4), int64 beyond; a start
    # a0 just below that threshold moves past it after a few iterations
    M = 2**26
    X = [[M, M, 0], [M, 0, 1], [-M, 1, M]]
    y = [1, 1, -1]
    fast, tiers = _check(batch_perceptron, X, y, bias="none", a0=[40_000_000, -40_000_001, 0], max_steps=200)
    assert {"scores:float64", "scores:int64"} <= tiers
    # a start beyond int64 on small data: Python-integer weights, batch sums still in float64
    for fn, start in ((batch_perceptron, "a0"), (batch_pla, "w0")):
        fast, tiers = _check(fn, [(1, 2), (2, -1), (-1, 3)], [1, -1, 1], bias="none", max_steps=30,
                             **{start: [2**70, -(2**70) - 1]})
        assert {"scores:python", "sum:float64"} <= tiers


def test_docstring_examples_by_hand():
    # seed 003 Algorithm 3 by hand on the normalized samples (1,4,0), (-1,-1,-1), (-1,0,-1), (1,-2,-2) (bias
    # first): a(1) = 0 corrects all four, a(2) = (0,1,-4); then the scores are 4, 3, 4, 6 > 0: converged at k = 2
    X = [(4, 0), (1, 1), (0, 1), (-2, -2)]
    y = [1, -1, -1, 1]
    fast, tiers = _check(batch_perceptron, X, y)
    assert tiers and fast.w == (0, 1, -4) and fast.epochs == 2 and fast.reason == "converged"
    # batch PLA with alpha = 1, N = 4: w(2) = (0,1,-4) / 4
    fast, tiers = _check(batch_pla, X, y)
    assert tiers and fast.w == (0, Fraction(1, 4), -1) and fast.reason == "converged"


def test_xor_is_a_fixed_point_with_certificate():
    # XOR (bias none): the normalized samples (1,1), (-1,1), (1,-1), (-1,-1) sum to 0, so from a = 0 every
    # sample is corrected and a stays 0: a repeat with period 1, lambda = 1/4 each (by hand)
    X = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    y = [1, -1, -1, 1]
    fast, _ = _check(batch_perceptron, X, y, bias="none")
    assert fast.reason == "cycle" and fast.extras["certificate"]["verified"] and fast.extras["cycle_step"] == 1
    # theta > 0: the zero increment meets ||increment|| < theta on that iteration (criterion, notes' stop)
    fast, _ = _check(batch_perceptron, X, y, bias="none", theta=1)
    assert fast.reason == "criterion" and fast.extras["certificate"]["verified"]
    fast, _ = _check(batch_pla, X, y, bias="none")
    assert fast.reason == "cycle" and fast.w == (0, 0)
    fast, _ = _check(batch_pla, X, y, bias="none", stop_on_cycle=False)
    assert fast.reason == "criterion"  # ||Delta|| = 0 <= epsilon = 0 after the cycle was recorded


def test_brent_after_the_table(monkeypatch):
    monkeypatch.setattr(_loop, "CYCLE_TABLE_LIMIT", 2)
    monkeypatch.setattr(engine_trace, "CYCLE_TABLE_LIMIT", 2)
    X = [(1, 2), (2, -1), (-1, 3), (3, 1), (-2, -2), (1, -3)]
    y = [1, -1, 1, -1, 1, -1]
    for fn in (batch_perceptron, batch_pla):
        for bias in ("none", "first"):
            _check(fn, X, y, bias=bias, max_steps=500)


def test_trace_limits(monkeypatch):
    # a short step limit (incomplete trace) and a short vector limit (steps without vectors), in both paths
    monkeypatch.setattr(_loop, "TRACE_STEP_LIMIT", 7)
    monkeypatch.setattr(engine_trace, "TRACE_STEP_LIMIT", 7)
    monkeypatch.setattr(_fast_batch, "TRACE_STEP_LIMIT", 7)
    monkeypatch.setattr(_loop, "TRACE_VECTOR_LIMIT", 12)
    monkeypatch.setattr(engine_trace, "TRACE_VECTOR_LIMIT", 12)
    from benchmarks.budget_data import make

    X, y = make("noisy", 60, 2)  # d = 3 with the bias: a step keeps vectors while (steps kept + 1) 3 <= 12: 4 steps
    for fn in (batch_perceptron, batch_pla):
        for steps in (3, 7, 8, 30):
            fast, _ = _check(fn, X, y, max_steps=steps)
            assert fast.trace_complete == (fast.epochs <= 7) and fast.epochs == steps
            assert len(fast.trace) == min(steps, 7)
            assert sum(st.w_before is not None for st in fast.trace) == min(steps, 4)


def test_max_seconds_and_max_epochs_below_the_budget():
    # the noisy planted set (5% of the labels flipped): not separable, and no exact repeat within 20 iterations
    from benchmarks.budget_data import make

    X, y = make("noisy", 60, 3)
    for fn in (batch_perceptron, batch_pla):
        fast, _ = _check(fn, X, y, max_seconds=3600, max_epochs=9)
        assert fast.reason == "max_epochs" and fast.epochs == 9  # the budget is ceil(60,000 / 60) = 1,000 iterations
        fast, _ = _check(fn, X, y, max_epochs=20, max_steps=20)
        assert fast.reason == "max_steps" and fast.epochs == 20  # both end at 20: the budget names it


def test_reference_options_keep_the_fraction_loop(monkeypatch):
    # trace=True, a varying eta and the printed batch PLA run the readable loop: the kernel must not run
    def boom(*a, **k):
        raise AssertionError("kernel ran")

    X = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    y = [1, -1, -1, 1]
    monkeypatch.setattr(_fast_batch, "_Weights", boom)
    batch_perceptron(X, y, trace=True, max_epochs=5)
    batch_perceptron(X, y, eta="1/k", max_epochs=5)
    batch_pla(X, y, trace=True, max_epochs=5)
    batch_pla(X, y, variant="printed", max_epochs=5)
    _fast.ENABLED = False
    try:
        batch_pla(X, y, max_epochs=5)
    finally:
        _fast.ENABLED = True


def test_kernel_directly_matches_a_fraction_rule():
    """batch_kernel against batch_loop with the batch rule written out here in Fractions."""
    from exactlin.algorithms._loop import Bounds, Tracer

    Z = [tuple(Fraction(a, 3) for a in z) for z in [(4, 0, 1), (-1, -1, 2), (0, -1, -1), (-2, -2, 5), (1, 1, 1)]]
    w1 = (Fraction(1, 2), Fraction(0), Fraction(-1, 7))
    for c, theta2 in ((Fraction(3, 2), None), (Fraction(3, 2), Fraction(5, 4)), (Fraction(1, 5), Fraction(100))):
        def correction(a, k, c=c):
            Y = [j for j, z in enumerate(Z) if sum((x * t for x, t in zip(a, z)), Fraction(0)) <= 0]
            return Y, [c] * len(Y), {}

        def criterion(inc, k, theta2=theta2):
            return theta2 is not None and sum(x * x for x in inc) < theta2

        for steps in (3, 40, None):
            ref = batch_loop(Z, w1, correction, Bounds(max_epochs=60, max_steps=steps), Tracer(False, 3),
                             stationary=True, criterion=criterion, criterion_first=True)
            fast = _fast_batch.batch_kernel(Z, w1, c, Bounds(max_epochs=60, max_steps=steps), Tracer(False, 3),
                                            criterion=None if theta2 is None else ("<", theta2),
                                            criterion_first=True, result_type=BatchResult)
            assert fast == ref
    # max_updates (no batch table has it, but the loop's contract does) and a time limit already passed
    def correction(a, k):
        Y = [j for j, z in enumerate(Z) if sum((x * t for x, t in zip(a, z)), Fraction(0)) <= 0]
        return Y, [Fraction(1)] * len(Y), {}

    for kw in ({"max_updates": 2}, {"max_seconds": 1e-9}):
        ref = batch_loop(Z, w1, correction, Bounds(max_epochs=60, **kw), Tracer(False, 3), stationary=True)
        fast = _fast_batch.batch_kernel(Z, w1, Fraction(1), Bounds(max_epochs=60, **kw), Tracer(False, 3),
                                        result_type=BatchResult)
        assert fast == ref and fast.reason == ("max_updates" if "max_updates" in kw else "time_limit")


@SETTINGS
@given(problems(entries=st.one_of(st.integers(-6, 6), rationals), n_max=8, d_max=3), etas, st.booleans(), st.data())
def test_monitor_replay_against_the_fraction_monitor(prob, c, start, data):
    """replay_batch_monitor against theory.monitor.batch_monitor on the histories of real runs, a given w*
    (a separator or not) and tampered histories (a corrected sample that is classified correctly)."""
    from exactlin.algorithms._loop import Bounds, Tracer
    from exactlin.data.dataset import normalize
    from exactlin.theory.monitor import batch_monitor

    X, y = prob
    Z = normalize(X, y)
    d = len(Z[0])
    a1 = tuple(data.draw(st.lists(rationals, min_size=d, max_size=d))) if start else (Fraction(0),) * d
    res = _fast_batch.batch_kernel(Z, a1, c, Bounds(max_epochs=30), Tracer(False, d), result_type=BatchResult)
    w_star = data.draw(st.sampled_from([res.a, tuple(data.draw(st.lists(st.integers(-5, 5), min_size=d,
                                                                          max_size=d)))]))
    history = res.history
    if history and data.draw(st.booleans()):  # tamper: add a sample to the first Y_k
        Y0, cs = history[0]
        history = [(Y0 + [data.draw(st.integers(0, len(Z) - 1))], cs + [cs[0]]), *history[1:]]
    try:
        expected = batch_monitor(Z, a1, history, tuple(w_star), "given")
    except ExactlinError:
        expected = None
    got = _fast_batch.replay_batch_monitor(Z, a1, history, tuple(w_star), "given")
    if got is None:  # declined: only where the reference raised
        assert expected is None
    else:
        assert got == expected
    assert cache_is_empty()


def test_monitor_replay_is_used_and_equal(monkeypatch):
    # the docstring example converges at k = 2 (hand run above): the monitor runs on the run's own final a
    X = [(4, 0), (1, 1), (0, 1), (-2, -2)]
    y = [1, -1, -1, 1]
    calls = []
    real = _fast_batch.replay_batch_monitor

    def spy(*a, **k):
        out = real(*a, **k)
        calls.append(out)
        return out

    monkeypatch.setattr(_fast_batch, "replay_batch_monitor", spy)
    for fn, kw in ((batch_perceptron, {}), (batch_pla, {"alpha": Fraction(2, 3)}),
                   (batch_perceptron, {"a0": [1, Fraction(1, 2), -3], "eta": Fraction(1, 3)}),
                   (batch_perceptron, {"w_star": [0, 1, -4]}), (batch_pla, {"w_star": [0, -1, 4]})):
        calls.clear()
        fast, ref, _ = _both(fn, X, y, **kw)
        _same(fast, ref)
        if "w_star" in kw and kw["w_star"][1] < 0:  # not a separator: both raise the monitor's error
            assert isinstance(fast, tuple) and calls[0] is None  # (calls[1]: the reference run, kernel off)
        else:
            assert fast.extras["monitor"] is not None and calls and calls[0] is not None
    # by hand: (0, 1, -4) separates the normalized samples (1,4,0), (-1,-1,-1), (-1,0,-1), (1,-2,-2) with scores
    # 4, 3, 4, 6, so gamma = 3; R^2 = ||(1,4,0)||^2 = 17; ||w*||^2 = 17; M = 4 corrections (all four, once);
    # the bound n R^2 ||w*||^2 / gamma^2 = 4 * 17 * 17 / 9
    rep = batch_perceptron(X, y).extras["monitor"]
    assert (rep.gamma_min, rep.R2, rep.norm2_w_star, rep.K, rep.bound) == (3, 17, 17, 4, Fraction(4 * 17 * 17, 9))
