"""The iterate loop (exactlin/engine/iterate.py, issue 22): every iterate rule on every representation.

The rules are found by walking the registry (the iterative algorithms of the MSE family: Ho-Kashyap and its
modifications, Widrow-Hoff, LMS), and their options are drawn from their own parameter tables.  Each call runs on
every representation the rule declares (``arithmetic="fraction"``, the readable reference, and ``"flint"``) and
the Runs must be equal type-strictly (``Run.__eq__``: w, converged, reason, counts, the whole trace, every extra,
the params) with the same JSON document except the ``arithmetic`` record, which must name the representation
asked for.  An input one representation refuses must be refused by every one with the same error.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import flint
import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactlin.algorithms import all_specs
from exactlin.engine.iterate import ARITHMETICS, QV, frac
from exactlin.engine.trace import Limits
from exactlin.errors import ExactlinError
from exactlin.model.run import LazySteps, Run

SPECS = {spec.name: spec for spec in all_specs() if spec.family == "mse" and spec.iterative}
ITERATE = sorted(SPECS)


def test_the_iterate_rules_are_found_and_declare_every_representation():
    """The walk finds the five rules of seed 003 that iterate, and each declares both representations."""
    assert ITERATE == ["ho-kashyap", "ho-kashyap-mod1", "ho-kashyap-mod2", "lms", "widrow-hoff"]
    for name in ITERATE:
        assert set(ARITHMETICS) <= set(SPECS[name].func.arithmetics)


def _doc(run: Run) -> dict:
    d = json.loads(run.to_json())
    d.pop("arithmetic")
    return d


def on_every_representation(fn, *args, **kw):
    """Run ``fn`` on every representation; assert the Runs (or the errors) are equal to the reference's and that
    each run computed in the representation asked for.  Returns the reference outcome."""
    out = {}
    for ar in ARITHMETICS:
        try:
            out[ar] = fn(*args, arithmetic=ar, **kw)
        except ExactlinError as e:
            out[ar] = (type(e), str(e))
    ref = out["fraction"]
    for ar, got in out.items():
        if isinstance(ref, tuple):
            assert got == ref, ar
            continue
        assert isinstance(got, Run), got
        assert got.arithmetic == {"requested": ar, "used": ar, "tiers": {ar: got.steps}}
        assert all(type(v) is Fraction for v in got.w)
        assert got == ref, ar
        assert _doc(got) == _doc(ref), ar
    return ref


# ---------------------------------------------------------------------------------------------------
# options drawn from each rule's own parameter table


SMALL = st.integers(-6, 6)
RATIONALS = st.fractions(min_value=-5, max_value=5, max_denominator=7)
POSITIVE = st.fractions(min_value=Fraction(1, 5), max_value=3, max_denominator=5)

#: a strategy per parameter name (n samples, d augmented features); a table row without one keeps its default
BY_NAME = {
    "k_max": lambda n, d: st.integers(1, 25),
    "max_bits": lambda n, d: st.integers(1, 200) | st.none(),
    "b_min": lambda n, d: st.sampled_from([Fraction(0), Fraction(1, 10), Fraction(1), Fraction(5)]),
    "theta": lambda n, d: st.sampled_from([Fraction(1, 100), Fraction(1, 2), Fraction(2)]),
    "eta1": lambda n, d: st.sampled_from([Fraction(1), Fraction(1, 10), Fraction(1, 40), Fraction(3)]),
    "b0": lambda n, d: st.lists(POSITIVE, min_size=n, max_size=n),
    "b": lambda n, d: st.lists(POSITIVE, min_size=n, max_size=n),
    "a0": lambda n, d: st.lists(RATIONALS, min_size=d, max_size=d),
    "R": lambda n, d: st.just([[Fraction(2) if i == j else Fraction(int(abs(i - j) == 1), 2) for j in range(d)]
                               for i in range(d)]),
    "distance": lambda n, d: st.sampled_from(["auto", "every", "off"]),
    "stop": lambda n, d: st.sampled_from(["separator", "b_min"]),
}
BY_KIND = {  # eta: a step size (a rational in (0, 1) or below 2/lambda_max) or a schedule eta(k)
    "rational": st.sampled_from([Fraction(1, 2), Fraction(1, 3), Fraction(9, 10), Fraction(1, 100), Fraction(1, 500)]),
    "schedule": st.sampled_from(["1/k", "1/(10*k)", "1/20", "1/k^2"]),
}


@st.composite
def options(draw, spec, n: int, d: int):
    opts = {}
    for p in spec.params:
        if not draw(st.booleans()):
            continue
        if p.name in BY_NAME:
            opts[p.name] = draw(BY_NAME[p.name](n, d))
        elif p.name == "eta":
            opts["eta"] = draw(BY_KIND[p.kind])
    if opts.get("stop") == "b_min" and "b_min" not in opts:
        opts["b_min"] = Fraction(1, 10)  # the listing's criterion needs one
    if "eta" in opts:
        opts.pop("eta1", None)  # a given schedule replaces eta1 (a conflict)
    if "max_bits" in opts and opts["max_bits"] is None:
        opts.setdefault("k_max", 25)  # unbounded sizes: a short run
    return opts


@st.composite
def problems(draw, n=None, d=None):
    n = draw(st.integers(1, 7)) if n is None else n
    d = draw(st.integers(1, 3)) if d is None else d
    entries = draw(st.sampled_from([SMALL, RATIONALS]))
    X = [[draw(entries) for _ in range(d)] for _ in range(n)]
    y = [draw(st.sampled_from([1, -1])) for _ in range(n)]
    return X, y


@pytest.mark.parametrize("name", ITERATE)
@given(problems(), st.sampled_from([None, True, False]), st.sampled_from(["none", "first", "last"]),
       st.integers(1, 25) | st.none(), st.data())
def test_every_rule_on_every_representation(name, prob, trace, bias, max_epochs, data):
    """Whole Runs equal on every representation: every stop the options reach (verdicts, criterion, max_steps,
    max_epochs, bit_limit), every trace mode, every table option."""
    spec = SPECS[name]
    X, y = prob
    d = len(X[0]) + (bias != "none")
    opts = data.draw(options(spec, len(X), d))
    on_every_representation(spec.func, X, y, bias=bias, trace=trace, max_epochs=max_epochs, **opts)


#: the rules with a printed variant (a listing as the notes print it), from their tables
PRINTED = sorted(name for name, spec in SPECS.items()
                 if any(p.name == "variant" and "printed" in (p.choices or ()) for p in spec.params))


def test_the_printed_variants_are_found():
    assert PRINTED == ["ho-kashyap"]  # Algorithm 11's line 5 as printed (erratum seed003-ho-kashyap-b-update)


@pytest.mark.parametrize("name", PRINTED)
@given(st.integers(1, 3), st.sampled_from([None, True]), st.data())
def test_the_printed_listing_on_every_representation(name, d, trace, data):
    """Algorithm 11 with line 5 as printed (b <- a + 2 eta e+), defined when n = d: n = d + 1 samples, bias first;
    its own stops (line 7, k_max; a certificate is kept and the run goes on)."""
    X, y = data.draw(problems(n=d + 1, d=d))
    opts = data.draw(options(SPECS[name], d + 1, d + 1))
    opts.pop("stop", None)
    on_every_representation(SPECS[name].func, X, y, variant="printed", trace=trace, **opts)


# ---------------------------------------------------------------------------------------------------
# every stop reason, reached on every representation (expected reasons derived by hand, below)


EX = ([(1, 2), (2, 0), (3, 1), (2, 3)], [1, 1, -1, -1])  # seed 003's example
LINE = ([(0,), (1,), (2,)], [1, -1, 1])  # +, -, + on a line: not separable


def _noisy(n=40, d=3, seed=14):
    import random

    rng = random.Random(seed)
    X = [[rng.randint(-20, 20) for _ in range(d)] for _ in range(n)]
    y = [1 if x[0] + 2 * x[1] - x[2] + rng.randint(-30, 30) > 0 else -1 for x in X]
    return X, y


STOPS = [
    # seed 003: a = Y^+ b = (11/3, -4/3, -2/3) has Y a > 0 at once (the notes' solution): converged, 0 steps
    ("ho-kashyap", EX, {}, "converged"),
    ("ho-kashyap-mod1", EX, {}, "converged"),
    # on the line, b = 1: a = Y^+ b = (1/3, 0), e = Y a - b = (-2/3, -4/3, -2/3) <= 0 with Y^t e = 0 at k = 0: a
    # Gordan certificate
    ("ho-kashyap", LINE, {}, "not_separable"),
    ("ho-kashyap", LINE, {"stop": "b_min", "b_min": 0}, "not_separable"),
    # seed 003 as listed: the normalized rows (1,1,2), (1,2,0), (-1,-3,-1), (-1,-2,-3) give Y a(1) = (1,1,1,1) = b,
    # so e(1) = 0 and line 7 returns at k = 1
    ("ho-kashyap", EX, {"stop": "b_min", "b_min": 0}, "criterion"),
    # theta = 2 on the line (rows (1,0), (-1,-1), (1,2)): the first Widrow-Hoff step from a = 0 is
    # -eta(1) Y^t b = -(1/40)(1, 1), of squared norm 2/1600 < 4
    ("widrow-hoff", LINE, {"theta": 2, "eta1": Fraction(1, 40)}, "criterion"),
    # LMS, theta = 2: the first step is eta(1) (1 - 0) y^1 with y^1 = (1, 0): squared norm 1 < 4
    ("lms", LINE, {"theta": 2}, "criterion"),
    # the budgets: 3 steps / 1 epoch / 1 bit (a(1) has more than 1 bit on the noisy data)
    ("ho-kashyap-mod2", _noisy(), {"k_max": 3}, "max_steps"),
    ("widrow-hoff", _noisy(), {"k_max": 3}, "max_steps"),
    ("lms", _noisy(), {"k_max": 3}, "max_steps"),
    ("ho-kashyap", _noisy(), {"max_epochs": 2}, "max_epochs"),
    ("lms", _noisy(), {"max_epochs": 1}, "max_epochs"),
    ("ho-kashyap-mod1", _noisy(), {"max_bits": 1}, "bit_limit"),
    ("widrow-hoff", _noisy(), {"max_bits": 1}, "bit_limit"),
    ("lms", _noisy(), {"max_bits": 1}, "bit_limit"),
]


@pytest.mark.parametrize("name, prob, kw, reason", STOPS)
@pytest.mark.parametrize("trace", [None, True])
def test_every_stop_on_every_representation(name, prob, kw, reason, trace):
    ref = on_every_representation(SPECS[name].func, *prob, trace=trace, **kw)
    assert ref.reason == reason


def test_auto_is_flint():
    """arithmetic="auto" (the default) computes in python-flint and gives the reference's Run."""
    for name in ITERATE:
        fn = SPECS[name].func
        kw = {"eta": "1/20"} if name == "ho-kashyap-mod2" else {"k_max": 4}
        run = fn(*EX, **kw)
        assert run.arithmetic["used"] == "flint" and run.arithmetic["requested"] == "auto"
        assert run == fn(*EX, arithmetic="fraction", **kw)


def test_an_undeclared_representation_is_refused():
    with pytest.raises(ExactlinError, match="arithmetic='integer'"):
        SPECS["lms"].func(*EX, arithmetic="integer")


LONG = (("ho-kashyap", {"k_max": 30}), ("ho-kashyap-mod1", {"k_max": 30}), ("ho-kashyap-mod2", {"k_max": 60}),
        ("widrow-hoff", {"k_max": 60}), ("lms", {"k_max": 400, "max_bits": None}))


@pytest.mark.parametrize("name, kw", LONG)
def test_long_runs_with_large_numbers(name, kw):
    """40 noisy samples in 3 dimensions: no verdict within the budgets, the numbers pass 700 bits; every
    representation agrees on every field."""
    ref = on_every_representation(SPECS[name].func, *_noisy(), **kw)
    assert ref.reason == "max_steps" and ref.extras["max_bits"] > 700


@pytest.mark.parametrize("name, kw", LONG[:4] + (("ho-kashyap", {"k_max": 30, "stop": "b_min", "b_min": 0}),
                                                 ("lms", {"k_max": 30})))
def test_trace_limits(name, kw):
    """With the tracer's limits lowered (7 steps kept, vectors while steps x d <= 20) the trace drops its vectors
    and then its steps at the same step on every representation (trace=None, the default)."""
    func = SPECS[name].func.with_limits(Limits(trace_steps=7, trace_vectors=20))
    ref = on_every_representation(func, *_noisy(), **kw)
    assert len(ref.trace) == 7 and not ref.trace_complete
    assert ref.trace[4].w_before is not None and ref.trace[5].w_before is None  # d = 4: 5 x 4 <= 20 < 6 x 4


@pytest.mark.parametrize("name", ITERATE)
@pytest.mark.parametrize("arithmetic", ARITHMETICS)
def test_traces_are_built_when_read(name, arithmetic):
    """Every representation hands the Run a lazily built trace: nothing is converted until it is read."""
    kw = {"k_max": 5}
    run = SPECS[name].func(*_noisy(), arithmetic=arithmetic, **kw)
    assert isinstance(run.trace, LazySteps) and run.trace._steps is None and len(run.trace) == run.steps == 5
    assert [s.k for s in run.trace] == [1, 2, 3, 4, 5]


# ---------------------------------------------------------------------------------------------------
# the flint representation's helpers against plain Fractions


def test_fraction_conversion_is_reduced():
    """frac gives reduced Fractions equal to Python's (flint keeps fmpq reduced, denominator > 0)."""
    for p, q in ((6, 4), (-6, 4), (0, 5), (7, 1), (-(2**200) * 3, 2**100 * 9)):
        f = frac(flint.fmpq(p, q))
        assert f == Fraction(p, q)
        assert (f.numerator, f.denominator) == (Fraction(p, q).numerator, Fraction(p, q).denominator)
    v = QV(flint.fmpz_mat(2, 1, [6, -4]), flint.fmpz(8))
    assert v.fractions() == (Fraction(3, 4), Fraction(-1, 2))
    assert v.bits_above(0) == 3  # 3/4 and -1/2: the denominator 4 = 0b100 has 3 bits


BIG = st.integers(-(2**300), 2**300)


@given(st.lists(BIG | SMALL, min_size=1, max_size=8), st.integers(1, 2**200) | st.integers(1, 5000),
       st.integers(0, 400))
def test_normal_form_and_bits_above_against_fractions(nums, den, top):
    """normal() puts the column over its least common denominator (the lcm of the reduced denominators, computed
    here with Python's Fraction and math.lcm) without changing a value; bits_above(top) is max(top, the largest
    bit length of a reduced numerator or denominator), computed here entry by entry."""
    V = QV(flint.fmpz_mat(len(nums), 1, nums), flint.fmpz(den))
    ref = [Fraction(x, den) for x in nums]
    C = V.normal()
    assert int(C.L) == math.lcm(*(f.denominator for f in ref))
    assert [Fraction(int(x), int(C.L)) for x in C.N.entries()] == ref
    assert C.fractions() == tuple(ref)
    expect = max([top] + [max(abs(f.numerator).bit_length(), f.denominator.bit_length()) for f in ref])
    assert C.bits_above(top) == expect
    assert V.bits_above(top) == expect  # also on a column not over its least denominator
    # equal values give equal normal integers (the loops' "changed" test)
    assert QV(flint.fmpz_mat(len(nums), 1, [3 * x for x in nums]), flint.fmpz(3 * den)).normal().same(C)


def test_bits_above_prunes_but_stays_exact():
    """(2^100 + 1)/2^100 and 1/2: over L = 2^100 the second entry's numerator 2^99 reduces to 1/2, 2 bits; the
    first entry is already reduced with 101 bits (hand count), so the maximum is 101 whatever ``top`` below it."""
    V = QV(flint.fmpz_mat(2, 1, [2**100 + 1, 2**99]), flint.fmpz(2**100))
    assert V.bits_above(0) == 101
    assert V.bits_above(100) == 101
    assert V.bits_above(101) == 101
    assert V.bits_above(500) == 500
