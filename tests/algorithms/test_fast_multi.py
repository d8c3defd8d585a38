"""The linear machine (seed 003, the multi-category case) on the integer kernel (exactlin/algorithms/_fast_multi.py)
against the readable Fraction loop, and one-vs-rest through the perceptron's kernel.

The reference is the same call with ``_fast.ENABLED = False`` (every run then goes through
``cyclic_single_sample`` with the Fraction rule written in ``multiclass.linear_machine``).  Every test asserts the
two runs are identical, field for field (``_same`` of test_fast_paths: W, converged, reason, updates, epochs,
steps, trace, trace_complete and every extra: classes, W, mistakes, max_bits, last_update_step, undefined,
cycle_step, the Kesler-Gordan certificate, the monitor).  The inputs force each tier and both layouts of the
kernel: float64-exact integers, int64, Python integers (entries near 2^63 and beyond), rationals with large
denominators, eta != 1, 2 to 5 classes, separable and non-separable data (cycles), every bound, and the
per-class layout (``KESLER_ENTRIES = 0``) beside the Kesler layout.
"""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactlin.algorithms import _fast, _fast_multi, _loop
from exactlin.algorithms.multiclass import linear_machine, one_vs_rest
from exactlin.algorithms.perceptron import perceptron
from exactlin.engine import trace as engine_trace
from exactlin.errors import ExactlinError
from tests.algorithms.kernel_helpers import SMALL, big_denominators, big_ints, rationals
from tests.algorithms.kernel_helpers import same_run as _same_binary


def _same(fast, ref):
    """test_fast_paths' field-by-field comparison; a multi-class Run has w = None, so its stacked W (every entry
    a Fraction) stands in for w."""
    if isinstance(ref, tuple) or isinstance(fast, tuple) or fast.w is not None:
        return _same_binary(fast, ref)
    f, r = copy.copy(fast), copy.copy(ref)
    f.w, r.w = (tuple(a for w in run.extras["W"] for a in w) for run in (fast, ref))
    _same_binary(f, r)


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


@pytest.fixture(params=["kesler", "per-class"])
def layout(request, monkeypatch):
    if request.param == "per-class":
        monkeypatch.setattr(_fast_multi, "KESLER_ENTRIES", 0)
    return request.param


@st.composite
def problems(draw, entries=SMALL, n_max=8, d_max=3, c_max=4):
    n = draw(st.integers(2, n_max))
    d = draw(st.integers(1, d_max))
    c = draw(st.integers(2, c_max))
    X = [[draw(entries) for _ in range(d)] for _ in range(n)]
    y = [draw(st.sampled_from("ABCDE"[:c])) for _ in range(n)]
    if len(set(y)) < 2:
        y[0], y[1] = "A", "B"
    return X, y


bounds = st.fixed_dictionaries({}, optional={
    "max_updates": st.integers(1, 30),
    "max_bits": st.integers(1, 12),
    "max_steps": st.integers(1, 80),
    "max_epochs": st.integers(1, 30),
    "monitor": st.booleans(),
    "trace": st.sampled_from([None, False]),
    "bias": st.sampled_from(["none", "first", "last"]),
    "eta": st.sampled_from([Fraction(1), Fraction(2), Fraction(1, 3), Fraction(7, 1024)]),
})

SETTINGS = settings(max_examples=2 * settings.default.max_examples, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@SETTINGS
@given(problems(), bounds)
def test_small_integers(layout, prob, opts):
    X, y = prob
    fast, ref, _ = _both(linear_machine, X, y, **opts)
    _same(fast, ref)


@SETTINGS
@given(problems(entries=rationals), bounds)
def test_rationals(layout, prob, opts):
    X, y = prob
    _same(*_both(linear_machine, X, y, **opts)[:2])


@SETTINGS
@given(problems(entries=big_ints, n_max=6, d_max=2), bounds)
def test_huge_integers_python_int_tier(layout, prob, opts):
    X, y = prob
    opts.pop("max_bits", None)
    _same(*_both(linear_machine, X, y, **opts)[:2])


@SETTINGS
@given(problems(entries=big_denominators, n_max=6, d_max=2), bounds)
def test_big_denominators(layout, prob, opts):
    X, y = prob
    _same(*_both(linear_machine, X, y, **opts)[:2])


def test_every_tier_is_reached_and_equal(layout, monkeypatch):
    # three samples, bias none: (-1, 1) of class 1, (M, M) of class 0, (2, 0) of class 2 never settle (1,501 updates
    # in 1,000 epochs), and the weights reach about 2^31.  The scores' bound (2) d m_Y m_V (d = 2, m_Y = M; the
    # Kesler layout's rows carry y and -y, hence its 2) starts at 0 (float64), passes 2^53 after the first
    # updates (int64) and, with M = 2^30 - 1 on the Kesler layout or M = 1.8e9 on the per-class one, reaches
    # 2^62 (Python ints).  A spy on the kernel records the tiers of every call.
    spy = []
    real = _fast_multi.integer_machine

    def spying(*a, **k):
        out = real(*a, **k)
        spy.append({t for t, c in _fast.LAST_TIERS.items() if c})
        return out

    monkeypatch.setattr(_fast_multi, "integer_machine", spying)
    used = set()
    for M in (2**30 - 1, 1_800_000_000):
        fast, ref, tiers = _both(linear_machine, [(-1, 1), (M, M), (2, 0)], [1, 0, 2], bias="none",
                                 max_steps=3000)
        _same(fast, ref)
        assert fast.reason == "max_epochs" and fast.updates == 1501
        used |= tiers
    assert len(spy) == 2 and spy[0] | spy[1] == used == {"float64", "int64", "python"}
    if layout == "kesler":
        assert spy[0] == {"float64", "int64", "python"}  # all three within one run


def test_hand_example_on_the_kernel():
    # seed003-linear-machine (hand derivation in tests/algorithms/test_multiclass.py): W = ((2,0),(-1,1),(-1,-1)),
    # 3 updates with the pairs (0,1), (1,0), (2,0); the kernel ran (its tier counters moved)
    X, y = [(1, 0), (0, 1), (-1, -1)], ["A", "B", "C"]
    fast, ref, tiers = _both(linear_machine, X, y, bias="none")
    _same(fast, ref)
    assert tiers == {"float64"}
    assert fast.extras["W"] == ((2, 0), (-1, 1), (-1, -1)) and fast.extras["mistakes"] == ((0, 1), (1, 0), (2, 0))


def test_tie_picks_the_first_rival():
    # classes A, B, C (0, 1, 2).  W = 0: every g_j = 0, so the first sample (class C) is a mistake against the
    # first rival, A (0); then w_C = (1, 0), w_A = (-1, 0) (hand derivation); the second sample (class B,
    # y = (0, 1)) has g_A = g_B = g_C = 0: a mistake against A, the first of the tied rivals A and C
    X, y = [(1, 0), (0, 1), (5, 5)], ["C", "B", "A"]
    fast, ref, _ = _both(linear_machine, X, y, bias="none", max_steps=2)
    _same(fast, ref)
    assert fast.extras["mistakes"][:2] == ((0, 0), (1, 0))


def test_cycle_certificate(layout):
    # the same point in classes A and B (tests/algorithms/test_multiclass.py: the state repeats)
    fast, ref, tiers = _both(linear_machine, [(1, 0), (1, 0), (0, 1)], ["A", "B", "C"], bias="none")
    _same(fast, ref)
    assert tiers and fast.reason == "cycle" and fast.extras["certificate"]["verified"]
    assert fast.extras["cycle_step"] == fast.steps


def test_brent_after_the_table(monkeypatch, layout):
    monkeypatch.setattr(_loop, "CYCLE_TABLE_LIMIT", 2)
    monkeypatch.setattr(engine_trace, "CYCLE_TABLE_LIMIT", 2)
    X = [(1, 2), (2, -1), (-1, 3), (3, 1), (-2, -2), (1, -3), (1, 2)]
    y = ["a", "b", "c", "a", "b", "c", "b"]
    _same(*_both(linear_machine, X, y, max_epochs=500)[:2])


def test_separable_converges_with_monitor(layout):
    # three classes around the axes (planted W* = the identity on (x1, x2) and -x1 - x2): separable, so the run
    # converges and the monitor (Facts 1, 2 on the Kesler vectors) holds
    X = [(3, 0), (4, 1), (0, 3), (1, 4), (-3, -3), (-2, -4), (5, -1), (-1, 5)]
    y = ["p", "p", "q", "q", "r", "r", "p", "q"]
    fast, ref, tiers = _both(linear_machine, X, y, bias="none")
    _same(fast, ref)
    assert fast.converged and fast.extras["monitor"].holds and tiers


def test_reference_options_keep_the_fraction_loop(monkeypatch):
    def boom(*a, **k):
        raise AssertionError("kernel called")

    monkeypatch.setattr(_fast_multi, "integer_machine", boom)
    X, y = [(1, 0), (1, 0), (0, 1)], ["A", "B", "C"]
    linear_machine(X, y, trace=True, max_epochs=5)
    linear_machine(X, y, stop_on_cycle=False, max_epochs=5)


def test_stop_on_cycle_false_runs_on_with_the_certificate():
    # the same point in A and B: a cycle is proved at the step the state first repeats; stop_on_cycle=False keeps
    # running it until max_epochs, with the certificate of that period and extras["cycle_step"] the proving step
    X, y = [(1, 0), (1, 0), (0, 1)], ["A", "B", "C"]
    stop = linear_machine(X, y, bias="none")
    on = linear_machine(X, y, bias="none", stop_on_cycle=False, max_epochs=30)
    assert stop.reason == "cycle" and on.reason == "max_epochs" and on.epochs == 30 and on.steps == 90
    assert on.extras["cycle_step"] == stop.extras["cycle_step"] == stop.steps
    assert on.extras["certificate"] == stop.extras["certificate"]
    assert on.extras["certificate"]["verified"] and on.updates > stop.updates
    # the run repeats the period: the mistakes after the cycle repeat those of the period (hand check from the
    # period's length p: mistakes[t] == mistakes[t - p] past the proving update)
    p = len(stop.extras["certificate"]["kesler_pairs"])
    m = on.extras["mistakes"]
    assert all(m[t] == m[t - p] for t in range(stop.updates, len(m)))
    assert on.params["stop_on_cycle"] is False


@SETTINGS
@given(problems(n_max=6), st.integers(1, 20))
def test_stop_on_cycle_false_matches_stop_on_cycle_until_the_cycle(prob, max_epochs):
    # with stop_on_cycle=False the run is the same up to the proving step; when no cycle is proved the two runs
    # are identical but for the parameter
    X, y = prob
    stop = linear_machine(X, y, max_epochs=max_epochs)
    on = linear_machine(X, y, max_epochs=max_epochs, stop_on_cycle=False)
    if stop.reason != "cycle":
        assert (on.reason, on.updates, on.steps, on.extras["W"]) == (stop.reason, stop.updates, stop.steps,
                                                                    stop.extras["W"])
    else:
        assert on.extras["cycle_step"] == stop.steps and on.extras["certificate"] == stop.extras["certificate"]
        assert on.extras["mistakes"][:stop.updates] == stop.extras["mistakes"]


def test_undefined_samples_independent():
    # ties decided by hand: W = ((1, 0), (0, 1)): (1, 1) ties (1 = 1), (2, 1) does not, (0, 0) ties
    W = ((Fraction(1), Fraction(0)), (Fraction(0), Fraction(1)))
    Y = [(1, 1), (2, 1), (0, 0)]
    assert _fast_multi.undefined_samples(Y, W) == [0, 2]
    big = ((Fraction(2**70), 0), (0, Fraction(2**70, 3)))
    assert _fast_multi.undefined_samples([(1, 3), (1, 2)], big) == [0]


# ---------------------------------------------------------------------------------------------------------
# one-vs-rest


def test_one_vs_rest_binary_runs_use_the_kernel(monkeypatch):
    from exactlin.algorithms import perceptron as perceptron_module

    calls = []
    real = perceptron_module.cyclic

    def spying(rep, *a, **k):
        calls.append(rep.name)
        return real(rep, *a, **k)

    monkeypatch.setattr(perceptron_module, "cyclic", spying)
    X, y = [(1, 0), (0, 1), (-1, -1)], ["A", "B", "C"]
    r = one_vs_rest(X, y, bias="none")
    assert calls == ["integer"] * 3  # "auto": the binary perceptrons on the integer representation
    # the seed001-one-vs-rest hand derivation (tests/algorithms/test_multiclass.py)
    assert r.extras["W"] == ((2, -1), (-1, 2), (-1, -1)) and r.updates == 10


@SETTINGS
@given(problems(entries=st.one_of(SMALL, rationals), n_max=7), st.sampled_from([None, False]),
       st.sampled_from(["none", "first"]))
def test_one_vs_rest_equals_its_binary_perceptrons(prob, trace, bias):
    # independent reference: one perceptron() per class on the labels +1 (that class) / -1 (the rest), written
    # out here; the kernel path and the Fraction path both agree with it
    X, y = prob
    classes = sorted(set(y))
    for enabled in (True, False):
        _fast.ENABLED = enabled
        try:
            r = one_vs_rest(X, y, bias=bias, trace=trace, max_epochs=15)
            expect = [perceptron(X, [1 if lab == cl else -1 for lab in y], bias=bias, trace=trace, max_epochs=15)
                      for cl in classes]
        finally:
            _fast.ENABLED = True
        assert r.extras["W"] == tuple(e.w for e in expect)
        assert r.updates == sum(e.updates for e in expect) and r.steps == sum(e.steps for e in expect)
        assert [x["reason"] for x in r.extras["runs"]] == [e.reason for e in expect]
    fast, ref, _ = _both(one_vs_rest, X, y, bias=bias, trace=trace, max_epochs=15)
    _same(fast, ref)
