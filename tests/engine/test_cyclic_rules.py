"""Seed 001's pocket algorithm, seed 003's linear machine, single-sample relaxation (Algorithm 9) and balanced Winnow
(Algorithm 7) on the engine's cyclic loop, on every representation each declares (``arithmetic=``).

One hypothesis suite walks the four rules of the registry: the same call on each declared arithmetic gives a Run
equal to the Fraction reference's (``run == ref``: every field, the trace step for step, every extra, types
included) with the same JSON (``arithmetic`` apart), over integer, rational, huge (past 2^62) and large-denominator
data, every trace mode, the printed pocket, ``stop_on_cycle=False``, every budget, and data that cycle.  Then the
tiers each integer representation must reach (``run.arithmetic["tiers"]``), and the hand-derived runs of the notes'
examples (each expected value derived in its comment, never pasted from a run).
"""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactlin.algorithms import get
from exactlin.engine import trace
from exactlin.errors import ExactlinError, ParameterError

RULES = ("pocket", "linear-machine", "single-sample-relaxation", "balanced-winnow")

small = st.integers(-5, 5)
rationals = st.fractions(min_value=-5, max_value=5, max_denominator=7) | st.sampled_from([F(1, 211), F(-5, 401)])
huge = st.sampled_from([2**63 - 3, -(2**63) + 5, 2**62 + 1, -(2**40), 2**70 + 3, 3, -2])
big_denominators = st.builds(F, st.integers(-(10**6), 10**6), st.sampled_from([1, 3, 2**40 + 1, 10**19 + 7]))
ENTRIES = {"small": small, "rational": rationals, "huge": huge, "big-denominator": big_denominators}


@st.composite
def calls(draw, name: str):
    """(X, y, keyword arguments) of one call of the rule ``name``."""
    kind = draw(st.sampled_from(sorted(ENTRIES)))
    if name == "balanced-winnow" and kind in ("huge", "big-denominator"):
        kind = draw(st.sampled_from(["small", "rational"]))  # alpha^(2^63) is refused (InputError): no run
    n, d = draw(st.integers(1, 6)), draw(st.integers(1, 3))
    X = [[draw(ENTRIES[kind]) for _ in range(d)] for _ in range(n)]
    bias = draw(st.sampled_from(["none", "first", "last"]))
    dd = d + (bias != "none")
    kw = {"bias": bias, "trace": draw(st.sampled_from([None, True, False]))}
    optional = {"max_epochs": st.integers(1, 12), "max_bits": st.integers(1, 80)}
    if name != "pocket":
        optional.update(max_steps=st.integers(1, 60), max_updates=st.integers(1, 25), stop_on_cycle=st.booleans())
    for key, strategy in optional.items():
        if draw(st.booleans()):
            kw[key] = draw(strategy)
    if name == "linear-machine":
        c = draw(st.integers(2, 4))
        y = [draw(st.sampled_from("ABCD"[:c])) for _ in range(n)]
        if len(set(y)) < 2:
            X, y = X + X[:1], y + ["B" if y[0] == "A" else "A"]
        kw.update(eta=draw(st.sampled_from([F(1), F(2), F(1, 3), F(7, 1024)])), monitor=draw(st.booleans()))
        return X, y, kw
    y = [draw(st.sampled_from([1, -1])) for _ in range(n)]
    if name == "pocket":
        kw.update(T=draw(st.integers(1, 40)), variant=draw(st.sampled_from(["corrected", "printed"])))
        if draw(st.booleans()):
            kw["w0"] = draw(st.lists(rationals, min_size=dd, max_size=dd))
    elif name == "single-sample-relaxation":
        kw.update(eta=draw(st.sampled_from([F(1), F(3, 2), F(1, 2), F(7, 4), F(401, 211), "1/2 + 1/(k+2)"])),
                  b=draw(st.sampled_from([F(1), F(2), F(1, 3), F(3, 223)])), test=draw(st.sampled_from(["<", "<="])))
        if draw(st.booleans()):
            kw["a0"] = draw(st.lists(rationals, min_size=dd, max_size=dd))
    else:
        kw["alpha"] = draw(st.sampled_from([F(2), F(3), F(3, 2), F(4), F(5, 3)]))
        positive = st.fractions(min_value=F(1, 5), max_value=5, max_denominator=6).filter(lambda v: v > 0)
        for side in ("a_plus", "a_minus"):
            if draw(st.booleans()):
                kw[side] = draw(st.lists(positive, min_size=dd, max_size=dd))
    return X, y, kw


def _call(fn, X, y, kw, arithmetic):
    try:
        return fn(X, y, arithmetic=arithmetic, **kw)
    except ExactlinError as e:
        return type(e), str(e)


def _json(run) -> dict:
    out = json.loads(run.to_json())
    out.pop("arithmetic", None)
    return out


def _integer_samples(X) -> bool:
    return all(F(v).denominator == 1 for row in X for v in row)


@pytest.mark.parametrize("name", RULES)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_every_representation_gives_the_reference_run(name, data):
    spec = get(name)
    fn = spec.func
    X, y, kw = data.draw(calls(name))
    ref = _call(fn, X, y, kw, "fraction")
    for arithmetic in fn.arithmetics:
        if arithmetic == "fraction":
            continue
        run = _call(fn, X, y, kw, arithmetic)
        if isinstance(ref, tuple):  # the same error, from the same check
            assert run == ref, arithmetic
            continue
        if name == "balanced-winnow" and arithmetic == "integer" and not _integer_samples(X):
            assert run[0] is ParameterError and "integer samples" in run[1]  # said, never a fall-back
            continue
        assert run == ref, arithmetic
        assert _json(run) == _json(ref), arithmetic
        used = "integer" if arithmetic == "auto" and not (name == "balanced-winnow" and not _integer_samples(X)) \
            else ("fraction" if arithmetic == "auto" else arithmetic)
        assert run.arithmetic["used"] == used and run.arithmetic["requested"] == arithmetic
        assert run.reason == "undefined" or sum(run.arithmetic["tiers"].values()) >= 1  # undefined: nothing to do
        assert all(type(v) is F for v in (run.w if run.w is not None else run.extras["W"][0]))


def test_the_four_rules_declare_their_arithmetics():
    assert get("pocket").func.arithmetics == ("auto", "fraction", "integer", "flint")
    assert get("linear-machine").func.arithmetics == ("auto", "fraction", "integer", "flint")
    assert get("single-sample-relaxation").func.arithmetics == ("auto", "fraction", "integer", "flint")
    assert get("balanced-winnow").func.arithmetics == ("auto", "fraction", "integer")


# ---------------------------------------------------------------------------------------------------------
# the integer tiers, each reached


def _tiers(run) -> set:
    return {t for t, c in run.arithmetic["tiers"].items() if c}


def test_pocket_reaches_every_tier():
    # Z' = the samples (integers, bias none, d = 3), m_Z = 2^26: float64 while 3 * 2^26 * max|v| < 2^53, int64 while
    # < 2^62, then Python ints (engine/arith.py, "Tiers").  Each start w0 sits just below a threshold, so the run
    # crosses it within its 200 steps (every step adds at most m_Z to max|v|): hand arithmetic, 2^53 / (3 * 2^26) =
    # 44,739,242.7 and 2^62 / (3 * 2^26) = 22,906,492,245.3
    pocket = get("pocket").func
    M = 2**26
    X = [[M, M, 0], [M, -M, 1], [-M, M, 0], [-M, -M, 1]]  # XOR in the first two entries: never separable
    y = [1, -1, -1, 1]
    used = {}
    for w0 in ([44_000_000, -44_000_001, 0], [22_906_000_000, -22_906_000_001, 0], [2**70, 1, -1]):
        run = pocket(X, y, bias="none", w0=w0, T=200, max_epochs=200, arithmetic="integer")
        assert run == pocket(X, y, bias="none", w0=w0, T=200, max_epochs=200, arithmetic="fraction")
        assert run.updates == 200 and run.reason == "max_steps"
        used[w0[0]] = _tiers(run)
    assert used[44_000_000] == {"float64", "int64"}
    assert used[22_906_000_000] == {"int64", "python"}
    assert used[2**70] == {"python"}


@pytest.mark.parametrize("layout", ["kesler", "per-class"])
def test_linear_machine_reaches_every_tier(layout):
    # three samples, bias none: (-1, 1) of class 1, (M, M) of class 0, (2, 0) of class 2 never settle (1,501 updates
    # in 1,000 epochs, the Fraction reference's count too); the weights stay near M (max|v| a few M), so the scores'
    # bound d m_Z max|v| ~ M^2 decides the tier: below 2^53 at W = 0 (float64), then with M = 2^26 between 2^53 and
    # 2^62 (int64), with M = 1.8e9 above 2^62 (Python integers)
    lm = get("linear-machine").func  # (per-class: no Kesler layout fits in 1 entry)
    if layout == "per-class":
        lm = lm.with_limits(trace.Limits(machine_entries=1))
    used = set()
    for M in (2**26, 1_800_000_000):
        X, y = [(-1, 1), (M, M), (2, 0)], [1, 0, 2]
        run = lm(X, y, bias="none", max_steps=3000, arithmetic="integer")
        assert run == lm(X, y, bias="none", max_steps=3000, arithmetic="fraction")
        assert run.reason == "max_epochs" and run.updates == 1501
        assert "float64" in _tiers(run) and len(_tiers(run)) == 2
        used |= _tiers(run)
    assert used == {"float64", "int64", "python"}


def test_relaxation_and_winnow_compute_in_python_integers():
    X, y = [[1, 2], [3, -1], [-2, 2]], [1, 1, -1]
    r = get("single-sample-relaxation").func(X, y)
    assert r.arithmetic["used"] == "integer" and set(r.arithmetic["tiers"]) == {"python"}
    w = get("balanced-winnow").func(X, y)
    assert w.arithmetic["used"] == "integer" and set(w.arithmetic["tiers"]) == {"python"}
    # rational samples: Winnow's auto is the Fraction reference (the weights are no longer integer powers)
    w = get("balanced-winnow").func([[F(1, 2)], [1]], [1, -1], alpha=4)
    assert w.arithmetic["used"] == "fraction"


# ---------------------------------------------------------------------------------------------------------
# hand-derived runs, on every representation

ARITH = ["fraction", "integer", "flint"]
EX2 = [(1, 1), (1, -1), (-1, 1), (-1, -1)], [1, -1, -1, 1]  # seed 001's Example 2 (XOR), through the origin


def _pocket_by_hand(X, y, T, w0=None):
    """An independent pocket on Fractions (the corrected comparison): cyclic PLA from w0, keep the strictly
    better E_in; returns (pocket, E_in, w_pla, steps, history)."""
    n, d = len(X), len(X[0])
    w = [F(a) for a in (w0 or [0] * d)]

    def err(v):
        return F(sum(1 for x, lab in zip(X, y) if lab * sum(a * F(b) for a, b in zip(v, x)) <= 0), n)

    best, best_e, hist, pos, steps = list(w), err(w), [err(w)], 0, 0
    for _ in range(T):
        wrong = [i for i in [(pos + o) % n for o in range(n)]
                 if y[i] * sum(a * F(b) for a, b in zip(w, X[i])) <= 0]
        if not wrong:
            break
        i = wrong[0]
        w = [a + y[i] * F(b) for a, b in zip(w, X[i])]
        pos, steps = (i + 1) % n, steps + 1
        hist.append(err(w))
        if hist[-1] < best_e:
            best, best_e = list(w), hist[-1]
    return tuple(best), best_e, tuple(w), steps, hist


@pytest.mark.parametrize("arithmetic", ARITH)
def test_pocket_example2_by_hand(arithmetic):
    # seed 001, Example 2, T = 5: iterates (1,1), (0,2), (1,1), (0,0), (1,1) with E_in 3/4, 1/2, 3/4, 1, 3/4 (hand
    # derivation, tests/algorithms/test_perceptron_family.py): the pocket is (0, 2) from step 3
    r = get("pocket").func(*EX2, bias="none", T=5, arithmetic=arithmetic)
    assert r.w == (0, 2) and r.extras["pocket_from_step"] == 3 and r.extras["w_pla"] == (1, 1)
    assert [s.info["pocketed"] for s in r.trace] == [True, True, False, False, False]
    assert [s.score for s in r.trace] == [F(3, 4), F(1, 2), F(3, 4), F(1), F(3, 4)]


@pytest.mark.parametrize("arithmetic", ARITH)
def test_pocket_against_an_independent_pocket(arithmetic):
    # 5% flipped labels on planted integer data (benchmarks/budget_data.py): the answer against the pocket written
    # above (no exactlin code)
    from benchmarks.budget_data import make

    X, y = make("noisy", 120, 4)
    r = get("pocket").func(X, y, T=150, arithmetic=arithmetic)
    best, best_e, w, steps, hist = _pocket_by_hand([[1, *x] for x in X], y, 150)
    assert r.w == best and r.extras["E_in"] == best_e and r.extras["w_pla"] == w
    assert r.updates == steps == 150 and r.extras["E_in_history"] == tuple(hist)


@pytest.mark.parametrize("arithmetic", ARITH)
def test_pocket_ties_keep_the_older_pocket_and_bounds(arithmetic):
    pocket = get("pocket").func
    # E_in after the 5th step is 3/4 again, equal to step 1's: the pocket stays (0, 2) (strict comparison)
    assert pocket(*EX2, bias="none", T=40, arithmetic=arithmetic).w == (0, 2)
    assert pocket(*EX2, bias="none", T=40, max_epochs=3, arithmetic=arithmetic).reason == "max_epochs"
    assert pocket(*EX2, bias="none", T=40, max_bits=1, arithmetic=arithmetic).reason == "bit_limit"  # (0, 2): 2 bits


def test_pocket_trace_limits():
    # a trace longer than its step limit (complete False) and vectors dropped past the vector limit
    pocket = get("pocket").func.with_limits(trace.Limits(trace_steps=7, trace_vectors=9))
    X, y = [(1, 1), (1, -1), (-1, 1), (-1, -1), (2, 1)], [1, -1, -1, 1, 1]
    runs = [pocket(X, y, T=30, arithmetic=a) for a in ARITH]
    assert runs[0] == runs[1] == runs[2]
    assert len(runs[0].trace) == 7 and not runs[0].trace_complete
    assert runs[0].trace[2].w_after is not None and runs[0].trace[3].w_after is None  # 3 * d = 9 <= 9 < 4 * d


def test_pocket_time_limit_stops():
    for arithmetic in ARITH:
        r = get("pocket").func(*EX2, bias="none", T=10**6, max_epochs=10**6, max_seconds=0.05, arithmetic=arithmetic)
        assert r.reason == "time_limit" and 0 < r.updates < 10**6


@pytest.mark.parametrize("arithmetic", ARITH)
def test_linear_machine_hand_example(arithmetic):
    # seed003-linear-machine (hand derivation in tests/algorithms/test_multiclass.py): W = ((2,0),(-1,1),(-1,-1)),
    # 3 updates with the pairs (0,1), (1,0), (2,0)
    r = get("linear-machine").func([(1, 0), (0, 1), (-1, -1)], ["A", "B", "C"], bias="none", arithmetic=arithmetic)
    assert r.extras["W"] == ((2, 0), (-1, 1), (-1, -1)) and r.extras["mistakes"] == ((0, 1), (1, 0), (2, 0))


@pytest.mark.parametrize("layout", ["kesler", "per-class"])
@pytest.mark.parametrize("arithmetic", ARITH)
def test_linear_machine_tie_picks_the_first_rival(arithmetic, layout):
    # classes A, B, C (0, 1, 2).  W = 0: every g_j = 0, so the first sample (class C) is a mistake against the
    # first rival, A (0); then w_C = (1, 0), w_A = (-1, 0); the second sample (class B, y = (0, 1)) has
    # g_A = g_B = g_C = 0: a mistake against A, the first of the tied rivals A and C
    lm = get("linear-machine").func
    if layout == "per-class":  # no Kesler layout fits in 1 entry
        lm = lm.with_limits(trace.Limits(machine_entries=1))
    r = lm([(1, 0), (0, 1), (5, 5)], ["C", "B", "A"], bias="none", max_steps=2, arithmetic=arithmetic)
    assert r.extras["mistakes"][:2] == ((0, 0), (1, 0))
    assert r.trace[0].score == 0 and r.trace[1].score == 0  # the margins g_own - g_rival at the mistakes


@pytest.mark.parametrize("arithmetic", ARITH)
def test_linear_machine_cycle_and_stop_on_cycle_false(arithmetic):
    # the same point in classes A and B: the state repeats (a cycle, with its Kesler-Gordan certificate);
    # stop_on_cycle=False keeps running it until max_epochs with the certificate of the proving period
    lm = get("linear-machine").func
    X, y = [(1, 0), (1, 0), (0, 1)], ["A", "B", "C"]
    stop = lm(X, y, bias="none", arithmetic=arithmetic)
    on = lm(X, y, bias="none", stop_on_cycle=False, max_epochs=30, arithmetic=arithmetic)
    assert stop.reason == "cycle" and stop.extras["certificate"]["verified"]
    assert on.reason == "max_epochs" and on.epochs == 30 and on.steps == 90
    assert on.extras["cycle_step"] == stop.extras["cycle_step"] == stop.steps
    assert on.extras["certificate"] == stop.extras["certificate"]
    p = len(stop.extras["certificate"]["kesler_pairs"])
    m = on.extras["mistakes"]
    assert all(m[t] == m[t - p] for t in range(stop.updates, len(m)))


def _cert(run):
    c = run.extras["certificate"]
    return c.lam, tuple(c.cycle)


@pytest.mark.parametrize("arithmetic", ARITH)
def test_relaxation_stop_on_cycle_by_hand(arithmetic):
    relax = get("single-sample-relaxation").func
    # by hand (b = 1, eta = 1, a(1) = 0) on z_1 = (1), z_2 = (-1): round 1 corrects z_1 by c = 1 (a = 1), round 2 z_2
    # by c = 2 (a = -1), round 3 z_1 by c = 2 (a = 1): the state (a = 1, next sample 2) of round 1 repeats, period 2,
    # and the period's corrections 2 z_2 + 2 z_1 = 0 give lambda = (1/2, 1/2)
    r = relax([[1], [1]], [1, -1], bias="none", arithmetic=arithmetic)
    assert (r.reason, r.steps, r.updates, r.w, r.extras["cycle_step"]) == ("cycle", 3, 3, (F(1),), 3)
    assert _cert(r) == ((F(1, 2), F(1, 2)), (1, 0))
    # stop_on_cycle=False: the run goes on repeating the cycle to its bound (10 rounds, the last on z_2: a = -1)
    g = relax([[1], [1]], [1, -1], bias="none", stop_on_cycle=False, max_steps=10, arithmetic=arithmetic)
    assert (g.reason, g.steps, g.updates, g.w, g.extras["cycle_step"]) == ("max_steps", 10, 10, (F(-1),), 3)
    assert _cert(g) == _cert(r) and [s.w_after for s in g.trace] == [(F(1),), (F(-1),)] * 5
    # on z_1 = (2), z_2 = (-1): round 1, c = 1/4, a = 1/2; round 2, a^t z_2 = -1/2, c = 3/2, a = -1; round 3,
    # a^t z_1 = -2, c = 3/4, a = 1/2: period 2 (samples 2, 1 with coefficients 3/2, 3/4), lambda = (3/4, 3/2) /
    # (9/4) = (1/3, 2/3); going on to round 4 the certificate is still the period's, not the last two coefficients'
    r = relax([[2], [1]], [1, -1], bias="none", arithmetic=arithmetic)
    g = relax([[2], [1]], [1, -1], bias="none", stop_on_cycle=False, max_steps=4, arithmetic=arithmetic)
    assert _cert(r) == _cert(g) == ((F(1, 3), F(2, 3)), (1, 0)) and g.w == (F(-1),)
    assert [s.info.get("coefficient") for s in g.trace] == [F(1, 4), F(3, 2), F(3, 4), F(3, 2)]


@pytest.mark.parametrize("arithmetic", ["fraction", "integer"])
def test_winnow_stop_on_cycle_by_hand(arithmetic):
    winnow = get("balanced-winnow").func
    # by hand (alpha = 2, a+ = a- = 1): round 1, sign(0) != +1: a+ = 2, a- = 1/2; round 2, score 3/2 > 0 on label -1:
    # a+ = 1, a- = 1: the start state (position 1) repeats, period 2 (samples 1, 2)
    r = winnow([[1], [1]], [1, -1], bias="none", arithmetic=arithmetic)
    assert (r.reason, r.steps, r.updates, r.w, r.extras["cycle_step"]) == ("cycle", 2, 2, (F(0),), 2)
    assert _cert(r) == ((F(1, 2), F(1, 2)), (0, 1))
    assert [s.score for s in r.trace] == [0, F(3, 2)]  # a+^t y - a-^t y, the notes' score
    # 9 rounds, all updates: after an odd number a+ = 2, a- = 1/2, w = 3/2
    g = winnow([[1], [1]], [1, -1], bias="none", stop_on_cycle=False, max_steps=9, arithmetic=arithmetic)
    assert (g.reason, g.steps, g.updates, g.w, g.extras["cycle_step"]) == ("max_steps", 9, 9, (F(3, 2),), 2)
    assert _cert(g) == _cert(r)


def test_winnow_integer_arithmetic_needs_integer_samples():
    with pytest.raises(ParameterError, match="integer samples"):
        get("balanced-winnow").func([[F(1, 2)], [1]], [1, -1], alpha=4, arithmetic="integer")


@pytest.mark.parametrize("name", RULES)
def test_progress_records_equal_on_every_representation(name):
    from benchmarks.budget_data import make

    X, y = make("separable", 30, 3)
    kw = {"pocket": {"T": 60}, "linear-machine": {"max_epochs": 40},
          "single-sample-relaxation": {"max_epochs": 80, "max_bits": None, "max_steps": None},
          "balanced-winnow": {"max_epochs": 80, "max_steps": None}}[name]
    fn = get(name).func
    seen = []
    for arithmetic in fn.arithmetics[1:]:
        recs = []
        fn(X, y, progress=recs.append, arithmetic=arithmetic, **kw)
        seen.append([(p.step, p.updates, p.max_bits, p.budget, p.final, p.reason) for p in recs])
    assert all(s == seen[0] for s in seen) and seen[0][-1][4]


def test_pocket_steps_count_past_the_history_limit():
    # E_in_history keeps its first Limits.history values (the start's included); the steps go on being counted
    # past it: Example 2 with T = 8 by hand has 8 steps, the pocket (0, 2) from step 3
    pocket = get("pocket").func.with_limits(trace.Limits(history=3))
    runs = [pocket(*EX2, bias="none", T=8, trace=True, arithmetic=a) for a in ARITH]
    assert runs[0] == runs[1] == runs[2]
    r = runs[0]
    assert [s.k for s in r.trace] == list(range(1, 9)) and r.updates == 8
    assert r.extras["E_in_history"] == (F(1), F(3, 4), F(1, 2)) and r.extras["pocket_from_step"] == 3
