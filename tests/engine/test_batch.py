"""The one batch loop (exactlin/engine/batch.py): every batch rule on every representation it declares, the Fraction
representation the reference.

Each comparison runs the rule with every ``arithmetic=`` it declares and asserts the Runs equal to the Fraction
run, field for field and type for type (w, reason, counts, the trace with its Y and increments, every extra: the
cycle's certificate, the monitor's report, ...), their JSON equal except ``arithmetic``, and the progress records
equal (or the same exception).  Hypothesis draws the data (small integers, rationals, huge integers, large
denominators), the rule's parameters and the options: trace None/True/False, theta/epsilon criteria,
stop_on_cycle, every budget (max_bits also within an iteration), the monitor, start vectors.  The tiers of the
integer representation are checked reached (``run.arithmetic["tiers"]``) on data chosen for each.
Expected values in the hand-written tests are derived by hand in their comments.
"""

from __future__ import annotations

import dataclasses
import json
import random
from fractions import Fraction as F

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactlin.algorithms.perceptron_batch import batch_perceptron, batch_pla, perceptron_gd
from exactlin.algorithms.relaxation import batch_relaxation
from exactlin.engine import trace
from exactlin.engine.batch import Repeated, batch_arith
from exactlin.errors import ExactlinError

SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
RULES = [batch_perceptron, batch_pla, perceptron_gd, batch_relaxation]


# ---------------------------------------------------------------------------------------------------------
# the comparison


def _strict(a, b, where="run"):
    """a == b with the same types all the way down (a Fraction is not an int)."""
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        assert type(a) is type(b), where
        for f in dataclasses.fields(a):
            _strict(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}")
        return
    if isinstance(a, dict):
        assert isinstance(b, dict) and set(a) == set(b), (where, set(a) ^ set(b))
        for k in a:
            _strict(a[k], b[k], f"{where}[{k!r}]")
        return
    if isinstance(a, (list, tuple)) or type(a).__name__ == "LazySteps":
        a, b = list(a), list(b)
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            _strict(x, y, f"{where}[{i}]")
        return
    assert type(a) is type(b) and a == b, (where, a, b)


def _run(fn, *args, arithmetic, **kw):
    records: list = []
    try:
        run = fn(*args, arithmetic=arithmetic, progress=records.append, **kw)
    except ExactlinError as e:
        return (type(e), str(e)), None
    return run, [(p.step, p.updates, p.max_bits, p.budget, p.reason) for p in records]


def check(fn, *args, **kw) -> dict:
    """Run ``fn`` on every arithmetic it declares; assert each run equal to the Fraction run; return the runs."""
    ref, ref_progress = _run(fn, *args, arithmetic="fraction", **kw)
    runs = {}
    for name in fn.arithmetics:
        if name == "fraction":
            continue
        run, progress = _run(fn, *args, arithmetic=name, **kw)
        runs[name] = run
        assert progress == ref_progress, name
        if isinstance(ref, tuple):
            assert run == ref, name
            continue
        assert not isinstance(run, tuple), run
        assert run == ref, name
        fields = {f.name for f in dataclasses.fields(ref) if f.name not in ("arithmetic", "problem", "model")}
        for f in sorted(fields):
            _strict(getattr(run, f), getattr(ref, f), f"{name}: run.{f}")
        a, b = json.loads(run.to_json()), json.loads(ref.to_json())
        a.pop("arithmetic", None), b.pop("arithmetic", None)
        assert a == b, name
        assert run.arithmetic["used"] == (ref.arithmetic["used"] if name == "auto" else name) or name == "auto"
        assert run.arithmetic["requested"] == name
    runs["fraction"] = ref
    return runs


def tiers(run) -> set:
    return {t for t, c in run.arithmetic["tiers"].items() if c}


# ---------------------------------------------------------------------------------------------------------
# hypothesis: every rule, every representation, many options


SMALL = st.integers(-5, 5)
rationals = st.fractions(min_value=-6, max_value=6, max_denominator=9) | st.sampled_from([F(1, 211), F(-5, 401)])
big_ints = st.one_of(st.integers(-(2**63) - 5, -(2**63) + 5), st.integers(2**63 - 5, 2**63 + 5),
                     st.integers(-(2**62), 2**62), st.integers(-(2**31), 2**31), st.integers(-3, 3))
big_denominators = st.builds(F, st.integers(-(10**6), 10**6), st.sampled_from([1, 3, 2**40 + 1, 10**19 + 7]))


@st.composite
def problems(draw, entries=SMALL, n_max=8, d_max=3):
    n = draw(st.integers(1, n_max))
    d = draw(st.integers(1, d_max))
    return [[draw(entries) for _ in range(d)] for _ in range(n)], [draw(st.sampled_from([1, -1])) for _ in range(n)]


options = st.fixed_dictionaries({}, optional={
    "max_bits": st.integers(1, 60),
    "max_steps": st.integers(1, 40),
    "max_epochs": st.integers(1, 60),
    "trace": st.sampled_from([None, True, False]),
    "bias": st.sampled_from(["none", "first", "last"]),
    "stop_on_cycle": st.booleans(),
})
steps = st.sampled_from([F(1), F(2), F(1, 3), F(5, 2), F(7, 1024)])
PARAMS = {
    batch_perceptron: st.fixed_dictionaries({}, optional={
        "eta": steps | st.sampled_from(["1/k", "2 + 1/k"]),
        "theta": st.sampled_from([F(0), F(1), F(1, 3), F(7, 2), F(2**70, 3)]),
        "monitor": st.booleans()}),
    batch_pla: st.fixed_dictionaries({}, optional={
        "alpha": steps, "epsilon": st.sampled_from([F(0), F(1, 10), F(1), F(5, 3), F(2**70, 3)]),
        "monitor": st.booleans(), "variant": st.sampled_from(["corrected", "printed"])}),
    perceptron_gd: st.fixed_dictionaries({}, optional={
        "xi": steps, "test": st.sampled_from(["<", "<="]), "monitor": st.booleans(),
        "variant": st.sampled_from(["corrected", "printed"])}),
    batch_relaxation: st.fixed_dictionaries({}, optional={
        "eta": st.sampled_from([F(1), F(3, 2), F(1, 2), F(7, 4), F(401, 211), "1/2 + 1/(k+2)"]),
        "b": st.sampled_from([F(1), F(2), F(1, 3), F(3, 223)]), "test": st.sampled_from(["<", "<="])}),
}
START = {batch_perceptron: "a0", batch_pla: "w0", perceptron_gd: "w0", batch_relaxation: "a0"}


def _draw_call(data, fn, entries, prob, opts):
    X, y = prob
    kw = {**opts, **data.draw(PARAMS[fn])}
    if fn is batch_pla and kw.get("variant") == "printed":
        kw.pop("stop_on_cycle", None)  # (the printed listing has no cycle detection; the option is accepted)
    if data.draw(st.booleans()):
        d = len(X[0]) + (kw.get("bias", "first" if fn is not perceptron_gd else "last") != "none")
        kw[START[fn]] = data.draw(st.lists(entries, min_size=d, max_size=d))
    return X, y, kw


def _check_or_refused(fn, X, y, kw):
    # (the printed batch PLA, a rule of the batch loop with carried weights, too: every arithmetic)
    return check(fn, X, y, **kw)


@pytest.mark.parametrize("fn", RULES, ids=lambda f: f.__name__)
@SETTINGS
@given(problems(), options, st.data())
def test_small_integers(fn, prob, opts, data):
    _check_or_refused(fn, *_draw_call(data, fn, SMALL, prob, opts))


@pytest.mark.parametrize("fn", RULES, ids=lambda f: f.__name__)
@SETTINGS
@given(problems(entries=rationals), options, st.data())
def test_rationals_and_start_vectors(fn, prob, opts, data):
    opts.setdefault("max_steps", 25)  # the Fraction reference's numbers grow: keep its runs short
    _check_or_refused(fn, *_draw_call(data, fn, rationals, prob, opts))


@pytest.mark.parametrize("fn", RULES, ids=lambda f: f.__name__)
@SETTINGS
@given(problems(entries=big_ints, n_max=6), options, st.data())
def test_huge_integers(fn, prob, opts, data):
    opts.setdefault("max_steps", 25)
    _check_or_refused(fn, *_draw_call(data, fn, big_ints, prob, opts))


@pytest.mark.parametrize("fn", RULES, ids=lambda f: f.__name__)
@SETTINGS
@given(problems(entries=big_denominators, n_max=6), options, st.data())
def test_big_denominators(fn, prob, opts, data):
    opts.setdefault("max_steps", 25)
    _check_or_refused(fn, *_draw_call(data, fn, big_denominators, prob, opts))


@pytest.mark.parametrize("fn", RULES, ids=lambda f: f.__name__)
@settings(max_examples=12, deadline=None)
@given(st.integers(64, 200), st.integers(1, 2), st.integers(0, 10**6), st.integers(1, 80))
def test_bit_limit_within_an_iteration(fn, n, d, seed, max_bits):
    # the loop checks the bits of the partial increment after every 64 corrections: n >= 64 samples from a = 0
    # (every sample is corrected in iteration 1), entries with large numerators and denominators
    rng = random.Random(seed)
    X = [[F(rng.randint(-(2**40), 2**40), rng.choice([1, 3, 2**20 + 7])) for _ in range(d)] for _ in range(n)]
    y = [rng.choice([1, -1]) for _ in range(n)]
    kw = {"max_bits": max_bits, "max_steps": 3}
    if fn is perceptron_gd:
        kw["test"] = "<="
        kw["w0"] = [0] * (d + 1)
    check(fn, X, y, **kw)


# ---------------------------------------------------------------------------------------------------------
# the tiers of the integer representation, reached on data chosen for each


def test_every_tier_is_reached():
    # from a = 0 every score is 0 and every sample is corrected in iteration 1, so the first batch sum has n_k = n
    # terms of magnitude up to m_Z (the bounds of BatchIntegerArith's docstring)
    cases = [
        # m_Z = 9, d = 2: scores in float32 (d m_Z m_v = 18 m_v < 2^24 for these few iterations: m_v grows by at
        # most n m_Z = 36 per iteration) and the sums on the float32 copy of v (n m_Z = 36 < 2^24 and the bound
        # m_v + 36 stays below 2^23) (XOR-like data, bias none)
        ([(9, 1), (1, -9), (-9, 2), (-1, -1)], [1, -1, -1, 1], {"float32", "sum:float32"}),
        # m_Z = 2^30 (past float32's 2^24, d m_Z m_v < 2^53 while m_v < 2^22): scores in float64
        ([(2**30, 1), (1, -(2**30)), (-(2**30), 2), (-1, -1)], [1, -1, -1, 1], {"float64", "sum:float64"}),
        # m_Z = 2^51, n = 4: the first sum has n_k m_Z = 2^53, beyond float64 -> int64; then m_v ~ 2^52 and
        # d m_Z m_v >= 2^62 -> Python-integer scores
        ([(2**51, 1), (2**51, -1), (-(2**51), 2), (3, 2**51)], [1, 1, -1, 1], {"sum:int64", "python"}),
        # m_Z = 2^60 > 2^53 (no float64 copy of Z'), n = 4: n m_Z = 2^62 -> the first sum in Python integers
        ([(2**60, 1), (2**60, -1), (-(2**60), 2), (3, 2**60)], [1, 1, -1, 1], {"int64", "sum:python"}),
    ]
    used = set()
    for X, y, expected in cases:
        for fn in (batch_perceptron, batch_pla):
            run = check(fn, X, y, bias="none", max_steps=30)["integer"]
            assert expected <= tiers(run), (X, tiers(run))
            used |= tiers(run)
    assert used == {"float32", "float64", "int64", "python", "sum:float32", "sum:float64", "sum:int64", "sum:python"}


def test_batch_sum_on_the_float_copy_by_hand():
    # BatchIntegerArith (w = (p / q) v): Z' = (1,2), (3,-1), (-2,5) (L = 1, m_Z = 5, d = 2), step 1, v = 0.  The
    # scores of v = 0 are 0 (float32: d m_Z m_v = 0 < 2^24), all three samples pass "<= 0", and the sum of the
    # three rows (1+3-2, 2-1+5) = (2, 6) is added on the float32 copy (3 m_Z = 15 < 2^24, bound 15 < 2^23)
    rep = batch_arith("integer", [(1, 2), (3, -1), (-2, 5)], (0, 0), step=1)
    t = rep.threshold(0)
    s = rep.scores(0, 3)
    idx = rep.all(s, t)
    assert idx == [0, 1, 2] and s.tier == "float32"
    rep.add_many(idx, Repeated(F(1), 3))
    assert rep.w() == (2, 6) and rep.tiers["sum:float32"] == 1 and rep.v.tolist() == [2, 6]
    # scores of (2, 6) by hand: 2 + 12 = 14, 6 - 6 = 0, -4 + 30 = 26 (the tier in use computes them again)
    s = rep.scores(0, 3)
    assert s.values.tolist() == [14, 0, 26] and s.tier == "float32" and rep.all(s, t) == [1]
    assert rep.scores(1, 2).values.tolist() == [0, 26]  # (a block of samples 1 and 2)
    # coefficient 2 (multiplier m = 2) on samples 0 and 2, not the last answer of all(): 2 (-1, 7) = (-2, 14)
    rep.add_many([0, 2], Repeated(F(2), 2))
    assert rep.w() == (0, 20) and rep.tiers["sum:float32"] == 2
    # coefficient 1/2: m = 1/2 rescales v by 2 first (q = 2), then v + (3, -1) = (3, 39): w = (3/2, 39/2)
    rep.add_many([1], Repeated(F(1, 2), 1))
    assert rep.w() == (F(3, 2), F(39, 2)) and rep.q == 2 and rep.v.tolist() == [3, 39]


def test_batch_sum_leaves_the_float_copy_at_its_bound():
    # one column, Z' = (1) (m_Z = 1, d = 1), v = 2^23 - 1: scores in float32 (d m_Z m_v < 2^24), but the new bound
    # m_v + 1 = 2^23 is not below half float32's 2^24, so the sum is taken as an int64 vector (in float64: 1 < 2^53)
    # and v moves in int64: v = 2^23, then 2^23 + 1, exactly (as every later addition)
    v0 = 2**23 - 1
    rep = batch_arith("integer", [(1,)], (v0,), step=1)
    for k in range(1, 4):
        s = rep.scores(0, 1)
        assert s.tier == "float32" and s.values.tolist() == [v0 + k - 1]
        rep.add_many([0], Repeated(F(1), 1))
        assert rep.w() == (v0 + k,)
    assert rep.tiers["sum:float64"] == 3 and rep.tiers["sum:float32"] == 0


def test_int64_scores_after_float64_and_python_weights():
    # m_Z = 2^26, d = 3: scores in float64 while 3 * 2^26 * m_v < 2^53 (m_v < 2^25.4), int64 beyond; a start a0
    # just below that threshold moves past it after a few iterations
    M = 2**26
    X = [[M, M, 0], [M, 0, 1], [-M, 1, M]]
    run = check(batch_perceptron, X, [1, 1, -1], bias="none", a0=[40_000_000, -40_000_001, 0], max_steps=200)
    assert {"float64", "int64"} <= tiers(run["integer"])
    # a start beyond int64 on small data: Python-integer weights, batch sums still in float64
    for fn, start in ((batch_perceptron, "a0"), (batch_pla, "w0"), (perceptron_gd, "w0")):
        run = check(fn, [(1, 2), (2, -1), (-1, 3)], [1, -1, 1], bias="none", max_steps=30,
                    **{start: [2**70, -(2**70) - 1]})
        assert {"python", "sum:float64"} <= tiers(run["integer"])


def test_varying_eta_rescales_the_integers():
    # eta(k) = 1/k: the integer representation rescales v at every k (w = (p/q) v), same run as the reference;
    # by hand on z = (1,4,0), (-1,-1,-1), (-1,0,-1), (1,-2,-2): a(2) = 1 * (0,1,-4) separates (scores 4, 3, 4, 6)
    X, y = [(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1]
    runs = check(batch_perceptron, X, y, eta="1/k")
    assert runs["fraction"].w == (0, 1, -4) and runs["auto"].arithmetic["used"] == "fraction"
    runs = check(batch_perceptron, [(1, 2), (2, -1), (-1, 3), (3, 1)], [1, -1, 1, -1], eta="1/k", max_steps=40,
                 trace=True)
    assert runs["integer"].arithmetic["used"] == "integer"


# ---------------------------------------------------------------------------------------------------------
# hand-derived runs


def test_docstring_examples_by_hand():
    # seed 003 Algorithm 3 by hand on the normalized samples (1,4,0), (-1,-1,-1), (-1,0,-1), (1,-2,-2) (bias
    # first): a(1) = 0 corrects all four, a(2) = (0,1,-4); then the scores are 4, 3, 4, 6 > 0: converged at k = 2
    X, y = [(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1]
    r = check(batch_perceptron, X, y, trace=True)["integer"]
    assert r.w == (0, 1, -4) and r.epochs == 2 and r.reason == "converged"
    # the trace: Y_1 = all four, increment (0,1,-4), J_p(a(1)) = 0; the second step finds Y_2 empty
    assert r.trace[0].info == {"Y": (0, 1, 2, 3), "increment": (0, 1, -4), "eta": 1, "J_p": 0}
    assert r.trace[1].info == {"Y": (), "J_p": 0} and r.arithmetic["used"] == "integer"
    # batch PLA with alpha = 1, N = 4: w(2) = (0,1,-4) / 4
    assert check(batch_pla, X, y)["integer"].w == (0, F(1, 4), -1)
    # gradient descent from w = z_1 = (4,0,1) (bias last: z = (4,0,1), (-1,-1,-1), (0,-1,-1), (-2,-2,1)): the scores
    # are 17, -5, -1, -7, so V = {2, 3, 4}, R(w) = 13 and w + z_2 + z_3 + z_4 = (1,-4,0), with scores 4, 3, 4, 6
    r = check(perceptron_gd, X, y, trace=True)["integer"]
    assert r.w == (1, -4, 0) and r.updates == 1 and r.trace[0].info["R"] == 13


def test_xor_is_a_fixed_point_with_certificate():
    # XOR (bias none): the normalized samples (1,1), (-1,1), (1,-1), (-1,-1) sum to 0, so from a = 0 every sample
    # is corrected and a stays 0: a repeat with period 1, lambda = 1/4 each (by hand)
    X, y = [(1, 1), (1, -1), (-1, 1), (-1, -1)], [1, -1, -1, 1]
    r = check(batch_perceptron, X, y, bias="none")["integer"]
    assert r.reason == "cycle" and r.extras["certificate"]["verified"] and r.extras["cycle_step"] == 1
    assert r.extras["certificate"].lam == (F(1, 4),) * 4
    # theta > 0: the zero increment meets ||increment|| < theta on that iteration (criterion, the notes' stop)
    r = check(batch_perceptron, X, y, bias="none", theta=1)["integer"]
    assert r.reason == "criterion" and r.extras["certificate"]["verified"]
    r = check(batch_pla, X, y, bias="none")["integer"]
    assert r.reason == "cycle" and r.w == (0, 0)
    r = check(batch_pla, X, y, bias="none", stop_on_cycle=False)["integer"]
    assert r.reason == "criterion"  # ||Delta|| = 0 <= epsilon = 0 after the cycle was recorded
    r = check(perceptron_gd, X, y, bias="none", w0=[0, 0], test="<=")["integer"]
    assert r.reason == "cycle" and r.extras["certificate"].lam == (F(1, 4),) * 4


def test_batch_relaxation_stop_on_cycle():
    # by hand: a = 0 has a^t z_i = 0 < 1 for both samples z = (1), (-1); the correction 1 z_1 + 1 z_2 = 0 leaves a
    # fixed: a repeat after iteration 1, lambda = (1/2, 1/2)
    r = check(batch_relaxation, [[1], [1]], [1, -1], bias="none")["integer"]
    c = r.extras["certificate"]
    assert (r.reason, r.epochs, r.updates, r.extras["cycle_step"]) == ("cycle", 1, 0, 1)
    assert (c.lam, tuple(c.cycle)) == ((F(1, 2), F(1, 2)), (1,))
    g = check(batch_relaxation, [[1], [1]], [1, -1], bias="none", stop_on_cycle=False, max_steps=5)["integer"]
    assert (g.reason, g.epochs, g.extras["cycle_step"]) == ("max_steps", 5, 1) and len(g.trace) == 5
    assert g.extras["certificate"].lam == c.lam


def test_batch_relaxation_one_sample_by_hand():
    # z = (1, 1), (1, -1), b = 1, eta = 1 (the docstring): a(1) = 0, both scores 0 < 1, c_i = (1 - 0) / 2:
    # a(2) = (1/2)(1,1) + (1/2)(1,-1) = (1, 0), scores 1, 1: converged at k = 2; J_r(a(1)) = 1/2 (1/2 + 1/2)
    r = check(batch_relaxation, [(1, 1), (1, -1)], [1, 1], bias="none", trace=True)["integer"]
    assert (r.w, r.epochs, r.reason) == ((1, 0), 2, "converged")
    assert r.trace[0].info == {"Y": (0, 1), "increment": (1, 0), "J_r": F(1, 2), "eta": 1}


def test_batch_relaxation_bit_check_within_an_iteration():
    # 130 corrected samples with distinct ||y||^2: the in-iteration check after 64 and 128 corrections
    X, y = [[i, 1] for i in range(1, 131)], [-1] * 130
    for mb in (10, 60, 200, 400, None):
        check(batch_relaxation, X, y, max_bits=mb, max_steps=3)


@pytest.mark.parametrize("eta", [F(1), F(1, 2), F(3, 2)])
def test_relaxation_high_powers_of_small_primes(eta):
    # ||y||^2 divisible by 2^8 and 3^8: the denominators hold small primes to high powers (the reduction's capped
    # path)
    X, y = [[48, 96, 81], [144, -48, 162], [-96, 48, -81], [81, 243, 48]], [1, 1, -1, -1]
    check(batch_relaxation, X, y, eta=eta, max_steps=25, max_bits=None)


def test_brent_after_the_table():
    X, y = [(1, 2), (2, -1), (-1, 3), (3, 1), (-2, -2), (1, -3)], [1, -1, 1, -1, 1, -1]
    for fn in (batch_perceptron, batch_pla, perceptron_gd):
        for bias in ("none", "first"):
            check(fn.with_limits(trace.Limits(cycle_table=2)), X, y, bias=bias, max_steps=500)


def test_trace_limits():
    # a short step limit (incomplete trace) and a short vector limit (steps without vectors), on every arithmetic
    limits = trace.Limits(trace_steps=7, trace_vectors=12)
    from benchmarks.budget_data import make

    X, y = make("noisy", 60, 2)  # d = 3 with the bias: a step keeps vectors while (steps kept + 1) 3 <= 12: 4 steps
    for fn in (batch_perceptron, batch_pla, batch_relaxation):
        for n_steps in (3, 7, 8, 30):
            r = check(fn.with_limits(limits), X, y, max_steps=n_steps, max_bits=None)["fraction"]
            if r.reason == "max_steps":
                assert r.trace_complete == (r.epochs <= 7) and r.epochs == n_steps
                assert len(r.trace) == min(n_steps, 7)
                assert sum(s.w_before is not None for s in r.trace) == min(n_steps, 4)


def test_max_seconds_and_max_epochs_below_the_budget():
    # the noisy planted set (5% of the labels flipped): not separable, and no exact repeat within 20 iterations
    from benchmarks.budget_data import make

    X, y = make("noisy", 60, 3)
    for fn in (batch_perceptron, batch_pla):
        r = check(fn, X, y, max_seconds=3600, max_epochs=9)["integer"]
        assert r.reason == "max_epochs" and r.epochs == 9  # the budget is ceil(60,000 / 60) = 1,000 iterations
        r = check(fn, X, y, max_epochs=20, max_steps=20)["integer"]
        assert r.reason == "max_steps" and r.epochs == 20  # both end at 20: the budget names it


def test_arithmetic_choices_are_declared():
    X, y = [(1, 1), (1, -1)], [1, -1]
    for fn in (batch_perceptron, batch_pla, perceptron_gd):
        assert fn.arithmetics == ("auto", "fraction", "integer", "flint")
    assert batch_relaxation.arithmetics == ("auto", "fraction", "integer", "flint")
    assert batch_relaxation(X, y).arithmetic["used"] == "integer"
    assert batch_pla(X, y, variant="printed", max_steps=3).arithmetic["used"] == "integer"


# ---------------------------------------------------------------------------------------------------------
# the monitor's integer replay (theory.monitor.integer_batch_monitor) against the Fraction replay


@SETTINGS
@given(problems(entries=st.one_of(st.integers(-6, 6), rationals), n_max=8), steps, st.booleans(), st.data())
def test_monitor_replay_against_the_fraction_monitor(prob, c, start, data):
    """integer_batch_monitor against batch_monitor_fractions on the histories of real runs, a given w* (a separator
    or not) and tampered histories (a corrected sample that is classified correctly)."""
    from exactlin.data.dataset import normalize
    from exactlin.engine.batch import BatchRule, Repeated, batch_arith, batch_loop
    from exactlin.theory.monitor import batch_monitor_fractions, integer_batch_monitor

    X, y = prob
    Z = normalize(X, y)
    d = len(Z[0])
    a1 = tuple(data.draw(st.lists(rationals, min_size=d, max_size=d))) if start else (F(0),) * d

    class Rule(BatchRule):
        constant = c

        def coefficients(self, rep, s, idx, k, record):
            return Repeated(c, len(idx)), {}

    res = batch_loop(batch_arith("integer", Z, a1, step=c), Rule(), trace.Bounds(max_epochs=30), trace.Tracer(False, d))
    w_star = data.draw(st.sampled_from([res.a, tuple(data.draw(st.lists(st.integers(-5, 5), min_size=d,
                                                                          max_size=d)))]))
    history = res.history
    if history and data.draw(st.booleans()):  # tamper: add a sample to the first Y_k
        Y0, cs = history[0]
        history = [(Y0 + [data.draw(st.integers(0, len(Z) - 1))], cs + [cs[0]]), *history[1:]]
    try:
        expected = batch_monitor_fractions(Z, a1, history, tuple(w_star), "given")
    except ExactlinError:
        expected = None
    got = integer_batch_monitor(Z, a1, history, tuple(w_star), "given")
    if got is None:  # declined: only where the reference raised
        assert expected is None
    else:
        assert got == expected


def test_monitor_report_by_hand():
    # (0, 1, -4) separates the normalized samples (1,4,0), (-1,-1,-1), (-1,0,-1), (1,-2,-2) with scores 4, 3, 4, 6,
    # so gamma = 3; R^2 = ||(1,4,0)||^2 = 17; ||w*||^2 = 17; M = 4 corrections (all four, once); the bound
    # n R^2 ||w*||^2 / gamma^2 = 4 * 17 * 17 / 9
    X, y = [(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1]
    for fn in (batch_perceptron, perceptron_gd):
        rep = check(fn, X, y, w_star=[0, 1, -4] if fn is batch_perceptron else [1, -4, 0])["integer"].extras["monitor"]
        assert (rep.gamma_min, rep.R2, rep.norm2_w_star) == (3, 17, 17)
    rep = check(batch_perceptron, X, y)["integer"].extras["monitor"]
    assert (rep.K, rep.bound) == (4, F(4 * 17 * 17, 9))


# ---------------------------------------------------------------------------------------------------------
# the reduction to lowest terms of the relaxation's representation


def test_numpy_and_scaled_input():
    # numpy arrays and integers over one denominator (exactlin.scaled) arrive as ExactRows
    import numpy as np

    import exactlin

    X, y = np.array([[3, -2, 5], [1, 4, -1], [-2, -3, 2], [5, 1, 1]]), np.array([1, -1, 1, -1])
    for data in (X, exactlin.scaled(X, 3)):
        for fn in RULES:
            check(fn, data, y, max_epochs=20)


def test_batch_sum_counts_a_repeated_sample_each_time():
    # the protocol's add_many(idx, coefs) is w + sum_m coefs[m] z_{idx[m]}: a sample listed twice is added twice.
    # By hand: Z' = (1, 2), (3, -1), (-2, 5) (L = 1), w = 0, idx = [0, 2, 2], c = 1: (1, 2) + 2 (-2, 5) = (-3, 12)
    # (on the float32 copy of v after a first scores(), and on the int64 v without one)
    for warm in (True, False):
        rep = batch_arith("integer", [(1, 2), (3, -1), (-2, 5)], (0, 0), step=1)
        if warm:
            rep.scores(0, 3)
        rep.add_many([0, 2, 2], Repeated(F(1), 3))
        assert rep.w() == (-3, 12), warm
        # and with coefficient 2 on [1, 1]: (-3, 12) + 4 (3, -1) = (9, 8)
        rep.add_many([1, 1], Repeated(F(2), 2))
        assert rep.w() == (9, 8), warm
