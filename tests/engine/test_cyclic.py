"""The ONE cyclic single-sample loop (exactlin/engine/cyclic.py) and every rule on it, on every representation.

The reference is each rule with ``arithmetic="fraction"`` (tuples of Fractions, every operation as the notes write
it); every other representation must give the same Run, field for field and type for type (``run == ref``, trace
included), and the same JSON (except ``arithmetic``, which says what computed it).  Hypothesis draws the data
(small integers, rationals, integers near 2^63 and beyond, huge denominators) and the options (trace None / True /
False, printed variants, stop_on_cycle, both clean stops, every bound, margins, eta schedules, start vectors).
Hand-derived runs pin the reference itself: the clean-epoch convention against Mitchell's loop written out here,
the lecture's voted list, the tiers each data set must reach (the bounds of exactlin/engine/arith.py).
"""

from __future__ import annotations

import json
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactlin.algorithms import all_specs, get
from exactlin.algorithms.voted import mistake_rounds, survival_counts
from exactlin.engine.arith import make_arith
from exactlin.engine.cyclic import Until, cyclic
from exactlin.engine.trace import TRACE_STEP_LIMIT, Bounds, CycleDetector, Limits, Tracer
from exactlin.errors import ExactlinError, ParameterError
from exactlin.model.run import LazySteps, Run

ARITHS = ("fraction", "integer", "flint")
OTHERS = ("integer", "flint")
RULES = ("perceptron", "fixed-increment", "variable-increment", "threshold-unit", "voted-perceptron",
         "averaged-perceptron")
SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def call(name, X, y, limits=None, **kw):
    """The run (under the memory ``limits`` when given), or the error's (class, message)."""
    func = get(name).func if limits is None else get(name).func.with_limits(limits)
    try:
        return func(X, y, **kw)
    except ExactlinError as e:
        return type(e), str(e)


def jsonable(run):
    d = json.loads(run.to_json())
    d.pop("arithmetic", None)
    return d


def same_on_every_arithmetic(name, X, y, **kw) -> dict:
    """Run ``name`` on every representation (``limits=``: under these memory limits); assert each equals the
    Fraction reference (Run and JSON).  Returns the runs by arithmetic."""
    runs = {a: call(name, X, y, arithmetic=a, **kw) for a in ARITHS}
    ref = runs["fraction"]
    for a in OTHERS:
        got = runs[a]
        if isinstance(ref, tuple):
            assert got == ref, a
            continue
        assert isinstance(got, Run), (a, got)
        assert got == ref, a
        assert jsonable(got) == jsonable(ref), a
        assert got.arithmetic["used"] == a and got.arithmetic["requested"] == a
        assert sum(got.arithmetic["tiers"].values()) > 0, a  # the representation did the work
    if isinstance(ref, Run):
        assert ref.arithmetic["used"] == "fraction"
    return runs


def tiers_used(run) -> set:
    return {t for t, c in run.arithmetic["tiers"].items() if c}


# ---------------------------------------------------------------------------------------------------------
# data and options

SMALL = st.integers(-5, 5)
rationals = st.fractions(min_value=-9, max_value=9, max_denominator=12)
big_ints = st.one_of(st.integers(-(2**63) - 5, -(2**63) + 5), st.integers(2**63 - 5, 2**63 + 5),
                     st.integers(-(2**62), 2**62), st.integers(-(2**31), 2**31), st.integers(-3, 3))
big_denominators = st.builds(F, st.integers(-(10**6), 10**6), st.sampled_from([1, 3, 2**40 + 1, 10**19 + 7]))
entries = st.one_of(SMALL, SMALL, rationals, big_ints, big_denominators)


@st.composite
def problems(draw, labels=(1, -1), n_max=6, d_max=3):
    n = draw(st.integers(1, n_max))
    d = draw(st.integers(1, d_max))
    kind = draw(st.sampled_from([SMALL, entries]))
    X = [[draw(kind) for _ in range(d)] for _ in range(n)]
    y = [draw(st.sampled_from(labels)) for _ in range(n)]
    return X, y


def common(draw, name):
    kw = {}
    r = draw(st.fixed_dictionaries({}, optional={
        "trace": st.sampled_from([None, True, False]),
        "max_epochs": st.integers(1, 30),
        "stop_on_cycle": st.booleans(),
        "stop": st.sampled_from(["n-clean", "clean-epoch"]),
        "max_updates": st.integers(1, 30),
        "max_bits": st.integers(1, 40),
        "monitor": st.booleans(),
    }))
    kw.update(r)
    kw["bias"] = draw(st.sampled_from(["first", "last"] if name == "threshold-unit" else ["none", "first", "last"]))
    if name != "perceptron" and draw(st.booleans()):
        kw["max_steps"] = draw(st.integers(1, 80))
    return kw


def start(draw, d):
    return draw(st.lists(st.one_of(SMALL, rationals), min_size=d, max_size=d))


@st.composite
def calls(draw, name):
    X, y = draw(problems(labels=(0, 1) if name == "threshold-unit" else (1, -1)))
    kw = common(draw, name)
    d = len(X[0]) + (kw["bias"] != "none")
    printed = draw(st.booleans()) and name in ("perceptron", "fixed-increment", "variable-increment") \
        and draw(st.booleans())
    if printed:
        kw["variant"] = "printed"
        kw.pop("stop", None)  # a printed listing runs its own stop (a conflict otherwise)
    if name == "perceptron":
        kw.update(draw(st.fixed_dictionaries({}, optional={
            "eta": st.sampled_from([F(1), F(2), F(1, 3), F(5, 2), F(7, 1024)]),
            "strict": st.booleans()})))
        if draw(st.booleans()):
            kw["w0"] = start(draw, d)
        if draw(st.integers(0, 4)) == 0 and kw.get("monitor", True):
            kw["w_star"] = start(draw, d)  # online monitor (a bad w_star: the same error everywhere)
    elif name == "fixed-increment":
        if draw(st.booleans()):
            kw["a0"] = start(draw, d)
    elif name == "variable-increment":
        kw.update(draw(st.fixed_dictionaries({}, optional={
            "eta": st.sampled_from(["1", "2", "3/2", "1/k", "k", "1/(k+1)"]),
            "b": st.sampled_from([F(0), F(1), F(1, 3), F(7, 2), F(2**70, 3)]),
            "eta_k": st.sampled_from(["update", "step"])})))
        if draw(st.booleans()):
            kw["a0"] = start(draw, d)
    elif name == "threshold-unit":
        kw.update(draw(st.fixed_dictionaries({}, optional={
            "tie": st.sampled_from([">=", ">"]), "bias_input": st.sampled_from([1, -1]),
            "eta": st.sampled_from([F(1), F(1, 2), F(3)])})))
        if draw(st.booleans()):
            kw["w0"] = start(draw, d)
    return X, y, kw


@pytest.mark.parametrize("name", RULES)
@SETTINGS
@given(data=st.data())
def test_every_rule_on_every_representation(name, data):
    X, y, kw = data.draw(calls(name))
    runs = same_on_every_arithmetic(name, X, y, **kw)
    ref = runs["fraction"]
    if name in ("voted-perceptron", "averaged-perceptron") and isinstance(ref, Run):
        lst, avg = lecture_voted(normalized(X, y, kw["bias"]), ref.steps)
        assert [(e["w"], e["c"]) for e in ref.extras["voted"]] == lst
        assert ref.extras["averaged_w"] == avg


@pytest.mark.parametrize("name", RULES)
def test_auto_is_the_integer_representation(name):
    X, y = [(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1]
    if name == "threshold-unit":
        y = [1, 0, 0, 1]
    auto = get(name).func(X, y)
    assert auto.arithmetic["requested"] == "auto" and auto.arithmetic["used"] == "integer"
    assert auto == get(name).func(X, y, arithmetic="fraction")


# ---------------------------------------------------------------------------------------------------------
# every tier is reached (the bounds of exactlin/engine/arith.py: float64 while d m_Z m_v < 2^53, int64 while
# < 2^62, Python integers beyond; v itself in int64 while m_v < 2^62)


def test_tier_transitions_float64_int64_python():
    # m_Z = 2^26, d = 3, bias none: float64 while 3 * 2^26 * max|v| < 2^53 (max|v| < 2^26.4), int64 while
    # < 2^62 (max|v| < 2^34.4).  Each start sits just below a threshold; the first mistake pushes max|v| over it
    M = 2**26
    X = [[M, M, 0], [M, 0, 1], [-M, 1, M]]
    y = [1, 1, -1]
    for name, key in (("perceptron", "w0"), ("fixed-increment", "a0")):
        used = {}
        for w0 in ([40_000_000, -40_000_001, 0], [22_900_000_000, -22_900_000_001, 0]):
            runs = same_on_every_arithmetic(name, X, y, bias="none", max_epochs=200, **{key: w0})
            used[w0[0]] = tiers_used(runs["integer"])
        assert used[40_000_000] == {"float64", "int64"}, name
        assert used[22_900_000_000] == {"int64", "python"}, name
    for b in (F(0), F(5, 3), F(2**80)):  # eta = 3/2: L = 3 scales both (arith.py), the start is then in int64
        runs = same_on_every_arithmetic("variable-increment", X, y, bias="none", a0=[40_000_000, -40_000_001, 0],
                                        b=b, eta=F(3, 2), max_epochs=200)
        assert "int64" in tiers_used(runs["integer"])


def test_voted_reaches_every_tier_and_keeps_the_lecture_list():
    # bias none, m_Z = 2^50, d = 2: float64 while 2 * 2^50 * max|v| < 2^53 (max|v| < 4), int64 while
    # max|v| < 2^11, Python ints beyond.  Hand run from w = 0: (1, 0) -> w = (1, 0); (-1, 3): score -1 ->
    # w = (0, 3); (5, -7): -21 -> w = (5, -4) (max 5: int64); (-2^50, 1): -5 * 2^50 - 4 -> w = (5 - 2^50, -3)
    X = [[1, 0], [-1, 3], [5, -7], [-(2**50), 1]]
    y = [1, 1, 1, 1]
    for name in ("voted-perceptron", "averaged-perceptron"):
        runs = same_on_every_arithmetic(name, X, y, max_epochs=30)
        r = runs["integer"]
        assert tiers_used(r) == {"float64", "int64", "python"}
        assert r.extras["mistakes"][:4] == (0, 1, 2, 3)
        assert [e["w"] for e in r.extras["voted"][:5]] == [(0, 0), (1, 0), (0, 3), (5, -4), (5 - 2**50, -3)]
        assert [e["c"] for e in r.extras["voted"][:4]] == [1, 1, 1, 1]
    # each tier alone: small entries stay in float32 (d m_Z m_v = 2 * 2 * m_v < 2^24); entries 2^30 (past
    # float32's 2^24) start in float64 and reach int64 after one update (2 * 2^30 * 2^30 = 2^61); entries 2^62 are
    # not below the int64 bound 2^62: Python ints throughout
    for X, y, expected in (([[1, 2], [2, -1]], [1, -1], {"float32"}),
                           ([[2**30, 1], [1, 2**30], [-(2**30), -(2**30)]], [1, 1, 1], {"float64", "int64"}),
                           ([[2**62], [-(2**62)]], [1, 1], {"python"})):
        runs = same_on_every_arithmetic("averaged-perceptron", X, y, max_epochs=10)
        assert tiers_used(runs["integer"]) == expected, X
        assert tiers_used(runs["flint"]) == {"flint"}


def test_threshold_unit_reaches_the_python_tier():
    # entries 2^62 and beyond cannot be int64 rows (their bound is 2^62): Python integers from the start
    X, y = [[2**62, 1], [-(2**63), 3], [5, -(2**64)]], [1, 0, 1]
    for tie in (">=", ">"):
        runs = same_on_every_arithmetic("threshold-unit", X, y, tie=tie, max_epochs=20)
        assert tiers_used(runs["integer"]) == {"python"}


def test_margin_threshold_beyond_the_tiers():
    # b = 2^60 on small data: every round is a correction (a^t y_k stays far below b; a^t y_k grows by at most
    # 14 per round from 0) and the integer threshold b L^2 / eta is beyond 2^53 and 2^62, so the float64 and
    # int64 tiers compare with their clamps; small entries score in float32 (clamp 2^24)
    X, y = [(1, 2), (2, -1), (-1, 3)], [1, -1, 1]
    for b in (F(2**60), F(2**100, 7)):
        runs = same_on_every_arithmetic("variable-increment", X, y, b=b, max_steps=300)
        r = runs["integer"]
        assert r.updates == 300 and r.reason == "max_steps"
        assert "float32" in tiers_used(r)
    # entries 2^25 (past float32's 2^24): float64 (clamp 2^53) while 3 * 2^25 * m_v < 2^53, then int64; every
    # |score| < 3 * 2^25 * 300 * 2^25 < 2^61 stays far below b = 2^100 / 7, so every round is a correction
    X = [(2**25, 2), (2, -(2**25)), (-1, 2**25)]
    runs = same_on_every_arithmetic("variable-increment", X, y, b=F(2**100, 7), max_steps=300)
    r = runs["integer"]
    assert r.updates == 300 and r.reason == "max_steps"
    assert {"float64", "int64"} <= tiers_used(r)


# ---------------------------------------------------------------------------------------------------------
# hand-derived runs, on every representation


@pytest.mark.parametrize("arith", ARITHS)
def test_hand_example_stops_at_the_end_of_the_clean_epoch(arith):
    # X = (1,0), (0,1), (1,1), all +1, no bias, w = 0: round 1 score 0 -> w = (1,0); round 2 score 0 -> (1,1);
    # round 3 score 2. n-clean: rounds 3, 4, 5 are clean -> stop at round 5 (epoch 2).  clean-epoch: epoch 1
    # had mistakes, epoch 2 (rounds 4-6) is clean -> stop at round 6.  Same w = (1,1), 2 updates.
    X, y = [(1, 0), (0, 1), (1, 1)], [1, 1, 1]
    a = get("perceptron").func(X, y, arithmetic=arith)
    b = get("perceptron").func(X, y, stop="clean-epoch", arithmetic=arith)
    assert (a.w, a.updates, a.steps, a.epochs) == ((1, 1), 2, 5, 2)
    assert (b.w, b.updates, b.steps, b.epochs, b.reason) == ((1, 1), 2, 6, 2, "converged")


def dot(u, v):
    return sum((F(a) * F(b) for a, b in zip(u, v)), F(0))


def mitchell(Z, eta, max_epochs, margin=F(0)):
    """Repeat epochs: for each sample in order, a mistake (<w, z> <= margin) adds eta z; stop after the first
    epoch without a mistake (Mitchell 1997).  (w, updates, rounds, converged)."""
    w = (F(0),) * len(Z[0])
    updates = rounds = 0
    for _ in range(max_epochs):
        mistakes = 0
        for z in Z:
            rounds += 1
            if dot(w, z) <= margin:
                w = tuple(a + eta * b for a, b in zip(w, z))
                mistakes += 1
        updates += mistakes
        if not mistakes:
            return w, updates, rounds, True
    return w, updates, rounds, False


@st.composite
def two_d(draw):
    n = draw(st.integers(2, 7))
    X = draw(st.lists(st.tuples(st.integers(-5, 5), st.integers(-5, 5)), min_size=n, max_size=n))
    y = draw(st.lists(st.sampled_from([1, -1]), min_size=n, max_size=n))
    if len(set(y)) < 2:
        y[0] = -y[1]
    return X, y


@pytest.mark.parametrize("arith", ARITHS)
@SETTINGS
@given(two_d(), st.sampled_from(["none", "first"]), st.sampled_from([F(0), F(1), F(5, 2)]))
def test_clean_epoch_is_mitchells_loop(arith, d, bias, b):
    X, y = d
    Z = [tuple(zi * v for v in ((1,) + x if bias == "first" else x)) for x, zi in zip(X, y)]
    w, updates, rounds, conv = mitchell(Z, F(1), 8)
    r = get("perceptron").func(X, y, bias=bias, stop="clean-epoch", max_epochs=8, stop_on_cycle=False,
                               arithmetic=arith)
    assert (r.w, r.updates, r.steps, r.converged) == (w, updates, rounds, conv)
    Z = [tuple(zi * v for v in (1,) + x) for x, zi in zip(X, y)]
    w, updates, rounds, conv = mitchell(Z, F(1), 6, margin=b)
    r = get("variable-increment").func(X, y, b=b, stop="clean-epoch", max_epochs=6, stop_on_cycle=False,
                                       arithmetic=arith)
    assert (r.w, r.updates, r.steps, r.converged) == (w, updates, rounds, conv)


@pytest.mark.parametrize("arith", ARITHS)
@SETTINGS
@given(two_d(), st.sampled_from([">=", ">"]))
def test_threshold_unit_is_mitchells_rule(arith, d, tie):
    # Mitchell section 4.4.2: o = 1 iff w.x~ > 0 (or >= 0), w <- w + eta (t - o) x~, epochs until one is clean
    X, y = d
    Xs = [(F(1),) + tuple(map(F, x)) for x in X]
    t = [1 if v == 1 else 0 for v in y]
    w, updates, rounds, conv = (F(0),) * 3, 0, 0, False
    for _ in range(6):
        mistakes = 0
        for x, ti in zip(Xs, t):
            rounds += 1
            net = dot(w, x)
            o = 1 if (net >= 0 if tie == ">=" else net > 0) else 0
            if o != ti:
                w = tuple(a + (ti - o) * v for a, v in zip(w, x))
                mistakes += 1
        updates += mistakes
        if not mistakes:
            conv = True
            break
    r = get("threshold-unit").func(X, y, tie=tie, stop="clean-epoch", max_epochs=6, stop_on_cycle=False,
                                   arithmetic=arith)
    assert (r.w, r.updates, r.steps, r.converged) == (w, updates, rounds, conv)


def normalized(X, y, bias):
    rows = [(1, *x) if bias == "first" else (*x, 1) if bias == "last" else tuple(x) for x in X]
    return [tuple(F(yi) * F(v) for v in r) for r, yi in zip(rows, y)]


def lecture_voted(Z, rounds):
    """Seed 000's voted perceptron as the lecture writes it, on Fractions, for ``rounds`` rounds in cyclic
    order: m = 1, w_1 = 0, c_1 = 1; if <w_m, z_t> <= 0 then w_{m+1} = w_m + z_t, m = m + 1, c_m = 1, else
    c_m = c_m + 1.  Returns the list [(w_m, c_m)] and sum_m c_m w_m."""
    n, d = len(Z), len(Z[0])
    out = [[(F(0),) * d, 1]]
    for t in range(rounds):
        z = Z[t % n]
        w = out[-1][0]
        if dot(w, z) <= 0:
            out.append([tuple(a + b for a, b in zip(w, z)), 1])
        else:
            out[-1][1] += 1
    return [(w, c) for w, c in out], tuple(sum((c * w[j] for w, c in out), F(0)) for j in range(d))


@pytest.mark.parametrize("arith", ARITHS)
def test_survival_counts_at_every_stop(arith):
    # seed 000's Example 1 (z = (4,0), (-1,-1), (0,-1), (-2,-2)): mistakes at rounds 1, 2, 4
    X, y = [(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1]
    cases = {
        (): ("converged", 8, [1, 1, 2, 5]),  # w_4 = (1,-3) survives rounds 5..8: c_4 = 1 + 4
        (("max_steps", 3),): ("max_steps", 3, [1, 1, 2]),  # before round 4's mistake: c_3 = 1 + round 3
        (("max_updates", 3),): ("max_updates", 4, [1, 1, 2, 1]),  # the new entry counted once
        (("max_epochs", 1),): ("max_epochs", 4, [1, 1, 2, 1]),  # one pass: the lecture's output
        (("max_bits", 2),): ("bit_limit", 1, [1, 1]),  # w_2 = (4, 0) has 3 bits > 2
    }
    for opts, (reason, steps, counts) in cases.items():
        for name in ("voted-perceptron", "averaged-perceptron"):
            r = get(name).func(X, y, arithmetic=arith, **dict(opts))
            assert (r.reason, r.steps, [e["c"] for e in r.extras["voted"]]) == (reason, steps, counts)


@pytest.mark.parametrize("arith", ARITHS)
def test_stop_on_cycle_false_runs_to_the_bound_with_the_certificate(arith):
    # seed 000's Example 2 (XOR), bias none: z = (1,1), (-1,1), (1,-1), (-1,-1); every round is a mistake,
    # w = (1,1), (0,2), (1,1), (0,0): the state (0, position 0) repeats at round 4 (hand run)
    X, y = [(1, 1), (1, -1), (-1, 1), (-1, -1)], [1, -1, -1, 1]
    for name in ("voted-perceptron", "averaged-perceptron"):
        stop = get(name).func(X, y, max_epochs=5, arithmetic=arith)
        assert stop.reason == "cycle" and stop.steps == 4 and stop.extras["cycle_step"] == 4
        r = get(name).func(X, y, max_epochs=5, stop_on_cycle=False, trace=True, arithmetic=arith)
        # on to the bound: 5 passes of 4 mistakes each, 21 vectors with c = 1
        assert r.reason == "max_epochs" and r.steps == 20 and r.updates == 20 and not r.converged
        assert r.extras["cycle_step"] == 4 and r.extras["certificate"]["verified"]
        assert r.extras["certificate"]["lambda"] == (F(1, 4),) * 4
        assert [e["c"] for e in r.extras["voted"]] == [1] * 21
        assert r.extras["averaged_w"] == (10, 20)  # 5 times (0,0) + (1,1) + (0,2) + (1,1), plus the last (0,0)
        assert [s.update for s in r.trace] == [True] * 20
        r = get(name).func(X, y, max_steps=7, stop_on_cycle=False, arithmetic=arith)
        assert r.reason == "max_steps" and r.steps == 7 and r.extras["certificate"]["verified"]


@pytest.mark.parametrize("name", ("perceptron", "fixed-increment", "threshold-unit", "voted-perceptron"))
def test_xor_cycles_with_certificate(name):
    X, y = [(1, 1), (1, -1), (-1, 1), (-1, -1)], [1, -1, -1, 1]
    if name == "threshold-unit":
        y = [1, 0, 0, 1]
    runs = same_on_every_arithmetic(name, X, y, bias="none" if name != "threshold-unit" else "first")
    r = runs["integer"]
    assert r.reason == "cycle" and r.extras["certificate"]["verified"]


def test_prefix_sums_beyond_int64():
    # the voted list's vectors are prefix sums in int64 only while U max|Z'| < 2^62; entries 2^61 make the second
    # partial sum reach 2^62, so the Python-integer branch runs (XOR scaled by 2^61: a cycle at round 4)
    M = 2**61
    X, y = [[M, M], [M, -M], [-M, M], [-M, -M]], [1, -1, -1, 1]
    for name in ("voted-perceptron", "averaged-perceptron"):
        r = same_on_every_arithmetic(name, X, y)["integer"]
        assert r.reason == "cycle" and r.steps == 4 and r.extras["cycle_step"] == 4
        assert [e["w"] for e in r.extras["voted"]] == [(0, 0), (M, M), (0, 2 * M), (M, M), (0, 0)]
        assert r.extras["averaged_w"] == (2 * M, 4 * M)


def test_rounds_and_counts_helpers():
    # n = 3, mistakes at samples 2, 2, 0, 1 -> rounds 3, 6 (sample 2 again a full pass later), 7, 8; with K = 12
    # rounds run, c = 3, 3, 1, 1 and the last vector survives rounds 9..12: 1 + 4 = 5
    rounds = mistake_rounds([2, 2, 0, 1], 3)
    assert rounds == [3, 6, 7, 8]
    assert survival_counts(rounds, 12) == [3, 3, 1, 1, 5]


def test_separable_margin_converges_with_margin_met():
    # Algorithm 5's docstring example, b = 1: a hand run gives a = (0, 1, -4) after 4 corrections
    runs = same_on_every_arithmetic("variable-increment", [(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1], b=1)
    r = runs["integer"]
    assert r.w == (0, 1, -4) and r.updates == 4 and r.extras["margin_met"]


# ---------------------------------------------------------------------------------------------------------
# the loop's machinery: cycle detection beyond its table, the trace's limits, progress, the clock


@pytest.mark.parametrize("name", RULES)
def test_brent_after_the_table(name):
    # XOR and one more sample (not separable: a cycle, proved by Brent's method once the table of 2 is full);
    # the table finds it at round 12 (17 for the threshold unit), Brent's method later, on every representation
    X = [(1, 1), (1, -1), (-1, 1), (-1, -1), (2, 0)]
    y = [1, -1, -1, 1, 1] if name != "threshold-unit" else [1, 0, 0, 1, 1]
    r = same_on_every_arithmetic(name, X, y, bias="first", max_epochs=500, limits=Limits(cycle_table=2))["integer"]
    assert r.reason == "cycle" and r.extras["cycle_step"] >= (17 if name == "threshold-unit" else 12)


@pytest.mark.parametrize("steps,vectors", [(7, 10), (40, 30), (3, 1000)])
@pytest.mark.parametrize("name", RULES)
def test_trace_limits(name, steps, vectors):
    # small tracer limits: the prefix of steps and of vectors kept must be the reference's exactly
    limits = Limits(trace_steps=steps, trace_vectors=vectors)
    X = [(4, 0), (1, 1), (0, 1), (-2, -2), (3, -1), (-1, -4)]
    y = [1, -1, -1, 1, 1, 1] if name != "threshold-unit" else [1, 0, 0, 1, 1, 1]
    for trace in (None, False, True):
        runs = same_on_every_arithmetic(name, X, y, bias="first", trace=trace, limits=limits)
        r = runs["fraction"]
        if trace is None:
            assert len(r.trace) == min(steps, r.steps) and r.trace_complete == (r.steps <= steps)
            kept = [s.w_before is not None for s in r.trace]
            assert kept == [(k + 1) * 3 <= vectors for k in range(len(r.trace))]  # d = 3: k d <= the limit


def test_default_trace_is_built_on_first_read():
    rng = np.random.default_rng(5)
    w = np.array([3, -2, 1, 4])
    X = rng.integers(-9, 10, size=(400, 4))
    X = X[np.abs(X @ w) >= 2]
    y = np.where(X @ w > 0, 1, -1)
    fast = get("perceptron").func(X, y)
    assert isinstance(fast.trace, LazySteps) and fast.trace._steps is None
    assert len(fast.trace) == min(fast.steps, TRACE_STEP_LIMIT)
    assert fast.trace._steps is None  # len did not build it
    ref = get("perceptron").func(X.tolist(), y.tolist(), arithmetic="fraction")
    assert fast.updates > 10 and fast == ref
    assert [s.k for s in fast.trace] == list(range(1, len(ref.trace) + 1))


@pytest.mark.parametrize("name", RULES)
@pytest.mark.parametrize("n", [100, 130])
def test_progress_records_are_the_same_on_every_representation(name, n):
    from benchmarks.budget_data import make

    X, y = make("noisy", n)
    if name == "threshold-unit":
        y = [1 if v == 1 else 0 for v in y]
    recs = {}
    for a in ARITHS:
        got = []
        get(name).func(X, y, progress=got.append, max_epochs=35, arithmetic=a, bias="first")
        recs[a] = [(p.step, p.updates, p.max_bits, p.final, p.reason) for p in got]
    assert recs["integer"] == recs["fraction"] == recs["flint"]
    steps = [s for s, *_ in recs["fraction"]]
    assert steps[:-1] == list(range(1000, steps[-1], 1000))[:len(steps) - 1]  # after rounds 1000, 2000, ...


@pytest.mark.parametrize("name", [s.name for s in all_specs() if s.family in ("perceptron", "mse") and s.iterative])
def test_a_progress_callback_changes_nothing_in_the_run(name):
    """With and without progress= the Run is the same, field for field, the tiers of the arithmetic included:
    reading the bit sizes for the records never changes the integer representation's bound m_v, and the tiers are
    decided on the exact max |v_j| at the float32 bound (IntegerArith._float_tier); and a record after round
    1000, 2000, ... is sent from the block that passes that round, without ending the block there, so the blocks
    and the count of products in each tier are the same.  n = 130 does not divide 1000: blocks cross the records'
    rounds (before, ending a block at each record changed the counts: 1029 float32 products against 1032)."""
    from benchmarks.budget_data import make

    X, y = make("noisy", 130)
    if name == "threshold-unit":
        y = [1 if v == 1 else 0 for v in y]
    a = get(name).func(X, y, max_epochs=35, bias="first")
    b = get(name).func(X, y, max_epochs=35, bias="first", progress=lambda p: None)
    assert a.arithmetic == b.arithmetic
    ja, jb = json.loads(a.to_json()), json.loads(b.to_json())
    ja.pop("params"), jb.pop("params")  # (progress is not a table parameter; the rest must agree)
    assert ja == jb


@pytest.mark.parametrize("arith", ARITHS)
def test_time_limit(arith):
    # a long non-converging run stopped by the clock: reason time_limit (the round depends on the machine)
    X = [(i % 7 - 3, (i * 5) % 11 - 5, 1) for i in range(300)]
    y = [1 if (i * 7919) % 13 < 6 else -1 for i in range(300)]
    r = get("perceptron").func(X, y, max_seconds=F(1, 20), max_epochs=10**6, max_updates=None, monitor=False,
                               trace=False, arithmetic=arith)
    assert r.reason in ("time_limit", "cycle")


@pytest.mark.parametrize("arith", ARITHS)
def test_online_monitor_with_w_star(arith):
    X, y = [(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1]
    same_on_every_arithmetic("perceptron", X, y, w_star=(1, -3))
    runs = same_on_every_arithmetic("perceptron", X, y, w_star=(1, 1))  # not a separator: the same error
    assert isinstance(runs["integer"], tuple)


@pytest.mark.parametrize("name", ("perceptron", "voted-perceptron", "fixed-increment"))
@SETTINGS
@given(problems(labels=(1, -1), n_max=7, d_max=4), st.sampled_from([None, False, True]),
       st.sampled_from(["none", "first", "last"]), st.sampled_from([1, 3, 250]))
def test_numpy_and_scaled_input_equal_the_list_input(name, prob, trace, bias, den):
    from exactlin.exact.rows import ExactRows, scaled

    X, y = prob
    X = [[int(a) if isinstance(a, int) and abs(a) < 2**40 else 1 for a in row] for row in X]
    K = np.array(X, dtype=np.int64)
    Xq = [[F(a, den) for a in row] for row in X]
    ref = call(name, Xq, y, bias=bias, trace=trace, max_epochs=30, arithmetic="fraction")
    for a in ARITHS:
        got = call(name, K if den == 1 else scaled(K, den), np.array(y), bias=bias, trace=trace, max_epochs=30,
                   arithmetic=a)
        if isinstance(ref, tuple):
            assert got == ref
            continue
        assert isinstance(got.problem.Z, ExactRows)
        assert got == ref


def test_stop_is_a_shared_row_of_the_cyclic_family():
    owners = {s.name for s in all_specs() if any(p.name == "stop" and "clean-epoch" in p.choices for p in s.params)}
    assert owners == set(RULES)
    with pytest.raises(ParameterError, match="stop"):
        get("perceptron").func([(1, 0), (0, 1)], [1, -1], stop="mitchell")
    with pytest.raises(ParameterError, match="stop and variant conflict"):
        get("fixed-increment").func([(1, 0), (0, 1)], [1, -1], stop="clean-epoch", variant="printed")


def test_every_rule_declares_the_three_representations():
    for name in RULES:
        assert get(name).func.arithmetics == ("auto", *ARITHS)


# ---------------------------------------------------------------------------------------------------------
# the loop itself, with the hooks no rule of this file uses in every combination: an exact acceptance test,
# the trace's score map, a coefficient of the exact score that changes the integer scale (relaxation-like),
# an until-test over every sample


Z0 = [tuple(F(a, 3) for a in z) for z in [(4, 0, 1), (-1, -1, 2), (0, -1, -1), (-2, -2, 5), (1, 1, 1)]]


def loop_on(arith, Z, w1, mode, **kw):
    rep = make_arith(arith, Z, w1, step=kw.pop("step", None))
    tracer = Tracer(mode, len(w1))
    res = cyclic(rep, Bounds(max_epochs=kw.pop("max_epochs", 40), max_steps=kw.pop("max_steps", None),
                             max_bits=kw.pop("max_bits", None)), tracer, **kw)
    return res, list(tracer.steps), tracer.complete


@pytest.mark.parametrize("mode", [None, True, False])
def test_loop_hooks_on_every_representation(mode):
    w1 = (F(1, 2), F(0), F(-1, 7))

    def relax(i, u, k, q):  # a(k+1) = a(k) + eta (b - a^t y) / ||y||^2 y with eta = 3/2, b = 1: rescales v
        return F(3, 2) * (1 - q) / sum(x * x for x in Z0[i])

    cases = [
        {"b": F(5, 4), "coef": F(3, 2), "step": F(3, 2)},
        {"b": 1, "coef": relax, "stationary": False, "max_bits": 400},
        {"coef": (F(1), F(-2), F(1, 3), F(1), F(2)), "strict": True},
        {"accept": lambda i, q: q < 0 or i % 2 == 0, "score": lambda i, q: -q if i % 2 else q},
        {"coef": -1, "until": Until(0, reason="converged"), "max_steps": 60},
        {"b": -1, "strict": True, "coef": lambda i, u, k, q: -F(1, k), "stationary": False,
         "until": Until(-1, every=True, reason="criterion"), "max_steps": 60,
         "step_info": lambda k, i, upd: {"eta": F(1, k)}},
        {"stop_on_cycle": False, "stop": "clean-epoch", "max_epochs": 12},
    ]
    for kw in cases:
        out = {a: loop_on(a, Z0, w1, mode, **dict(kw)) for a in ARITHS}
        assert out["integer"] == out["fraction"] == out["flint"], kw


# ---------------------------------------------------------------------------------------------------------
# cycle detection by fingerprint (the integer representation): a shared fingerprint is never a cycle by itself


def test_fingerprint_collision_is_not_a_cycle():
    # with the fingerprint weights r = (r_1, r_2), the sample z = (r_2, -r_1) has <z, r> = 0: an update on it
    # leaves the fingerprint <v, r> unchanged.  One sample, bias none: from w = 0 the perceptron corrects once
    # (score 0), w = z, and the state (w, position 0) has the start's fingerprint (0, position 0) -- but w != 0,
    # so no cycle: the next round scores ||z||^2 > 0 and the run converges, as the Fraction reference says.
    from exactlin.engine.arith import fingerprint_weights

    r1, r2 = fingerprint_weights(2).tolist()
    X, y = [(r2, -r1)], [1]
    runs = same_on_every_arithmetic("perceptron", X, y)
    r = runs["integer"]
    assert r.converged and r.reason == "converged" and r.updates == 1 and r.w == (r2, -r1)
    # a real cycle through colliding fingerprints: z_1 = (r_2, -r_1), z_2 = -z_1 (a non-separable pair);
    # from w = 0: round 1 corrects on z_1 (score 0) -> w = z_1, round 2 scores <z_1, -z_1> < 0 -> w = 0 at
    # position 0: the start state again, a cycle of period 2 proved at round 2 (by hand)
    runs = same_on_every_arithmetic("perceptron", [(r2, -r1), (-r2, r1)], [1, 1])
    r = runs["integer"]
    assert r.reason == "cycle" and r.extras["cycle_step"] == 2 and r.updates == 2 and r.w == (0, 0)


def test_cycle_detector_confirms_every_fingerprint_match():
    # states 0..5 by number, with fingerprints: two distinct states share "a" (0 and 2), the state numbered 4
    # equals state 2 exactly; confirm knows which numbers are equal states
    equal = {(2, 4)}
    det = CycleDetector("a", confirm=lambda a, b: (a, b) in equal)
    assert det.observe("b") is None  # state 1
    assert det.observe("a") is None  # state 2: fingerprint of state 0, a different state
    assert det.observe("c") is None  # state 3
    assert det.observe("a") == 2  # state 4 = state 2 (not state 0): period 2
    # without confirm the fingerprint is the state: the first match is the repeat
    det = CycleDetector("a")
    assert det.observe("b") is None and det.observe("a") == 2


# ---------------------------------------------------------------------------------------------------------
# speculation: blocks of rounds run on the hypothesis "as in the last epoch" (IntegerArith.speculate)


def test_printed_fixed_increment_speculates_and_stops_where_the_one_by_one_loop_does():
    # Algorithm 4 as printed on the 1-D samples z = 1, 2 (bias none): from a = 0 every round corrects,
    # a <- a - z_k, so a after t corrections is -(1 + 2 + 1 + 2 + ...): -1, -3, -4, -6, -7, -9, -10, -12,
    # -13, -15 (by hand).  Every stop lands where the round-by-round listing stops.
    X, y = [[1], [2]], [1, 1]
    kw = dict(bias="none", variant="printed")
    runs = same_on_every_arithmetic("fixed-increment", X, y, max_steps=10, **kw)
    r = runs["integer"]
    assert (r.w, r.updates, r.steps, r.reason) == ((-15,), 10, 10, "max_steps")
    assert r.extras["max_bits"] == 4 and "speculated" in tiers_used(r)
    r = same_on_every_arithmetic("fixed-increment", X, y, max_steps=100, max_updates=7, **kw)["integer"]
    assert (r.w, r.updates, r.steps, r.reason) == ((-10,), 7, 7, "max_updates")
    # max_bits=3: |a| = 9 after the 6th correction needs 4 bits
    r = same_on_every_arithmetic("fixed-increment", X, y, max_steps=100, max_bits=3, **kw)["integer"]
    assert (r.w, r.updates, r.steps, r.reason, r.extras["max_bits"]) == ((-9,), 6, 6, "bit_limit", 4)
    # the whole trace, vectors included: round k scores a^t z_k with a before the round
    r = same_on_every_arithmetic("fixed-increment", X, y, max_steps=6, trace=True, **kw)["integer"]
    assert [s.score for s in r.trace] == [0, -2, -3, -8, -6, -14]
    assert [s.w_after for s in r.trace] == [(-1,), (-3,), (-4,), (-6,), (-7,), (-9,)]
    assert "speculated" in tiers_used(r)


@SETTINGS
@given(st.lists(st.lists(st.integers(-6, 6), min_size=2, max_size=2), min_size=2, max_size=9),
       st.integers(0, 2**9), st.sampled_from([None, 40, 300]), st.sampled_from([None, 5, 9]),
       st.sampled_from([None, True]))
def test_printed_fixed_increment_speculation_equals_the_reference(X, seed, max_updates, max_bits, trace):
    # any data (zero samples included: then the cycle table is kept and nothing is speculated), budgets that
    # stop inside a speculated block: the same Run, field for field, on every representation
    y = [1 if (seed >> j) & 1 else -1 for j in range(len(X))]
    same_on_every_arithmetic("fixed-increment", X, y, variant="printed", max_steps=600, max_updates=max_updates,
                             max_bits=max_bits, trace=trace)


@pytest.mark.parametrize("arith", ARITHS)
@pytest.mark.parametrize("name, kw", [("perceptron", {}), ("fixed-increment", {}),
                                      ("fixed-increment", {"variant": "printed", "max_steps": 5000})])
def test_progress_records_are_the_state_after_their_round(arith, name, kw):
    """Each record after round B = 1000, 2000, ... holds the updates made in rounds 1..B and the largest bit size
    of w over the states up to round B, read here from the full trace (one Step per round), independently of how
    the loop sent the records (from a block that passes B, or a speculated block that does: the printed rule)."""
    from benchmarks.budget_data import make
    from exactlin.engine.arith import fraction_bits

    X, y = make("noisy", 130)
    got = []
    r = get(name).func(X, y, progress=got.append, max_epochs=35, arithmetic=arith, bias="first", trace=True, **kw)
    steps = list(r.trace)
    assert r.trace_complete and [s.k for s in steps] == list(range(1, r.steps + 1))
    records = [p for p in got if not p.final]
    assert [p.step for p in records] == list(range(1000, r.steps, 1000))  # every round B < the last one
    bits = fraction_bits(steps[0].w_before)
    running = []  # (updates, max bits) after each round
    u = 0
    for s in steps:
        u += s.update
        bits = max(bits, fraction_bits(s.w_after))
        running.append((u, bits))
    for p in records:
        assert (p.updates, p.max_bits) == running[p.step - 1], p.step
