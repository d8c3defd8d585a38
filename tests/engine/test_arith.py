"""The arithmetic protocol (exactlin.engine.arith): every representation answers every question exactly as the
Fraction reference does, on random sequences of updates, with numbers that reach every integer tier."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactlin.engine.arith import FractionArith, IntegerArith, fingerprint_weights, fraction_bits, make_arith
from exactlin.errors import ParameterError

small = st.fractions(min_value=-5, max_value=5, max_denominator=4)
huge = st.integers(min_value=-(1 << 70), max_value=1 << 70).map(Fraction)
entry = st.one_of(small, small, small, huge)


@st.composite
def problems(draw):
    n = draw(st.integers(1, 6))
    d = draw(st.integers(1, 4))
    Z = [tuple(draw(entry) for _ in range(d)) for _ in range(n)]
    w1 = tuple(draw(small) for _ in range(d))
    step = draw(st.sampled_from([None, Fraction(1), Fraction(1, 3), Fraction(5, 2)]))
    coef = st.one_of(st.just("step"), st.just("-step"), st.fractions(min_value=-3, max_value=3, max_denominator=5))
    ops = draw(st.lists(st.one_of(
        st.tuples(st.just("add"), st.integers(0, n - 1), coef),
        st.tuples(st.just("many"), st.lists(st.integers(0, n - 1), max_size=3, unique=True).map(sorted),
                  st.lists(st.fractions(min_value=0, max_value=2, max_denominator=3), min_size=3, max_size=3))),
        max_size=12))
    bs = draw(st.lists(st.tuples(st.fractions(min_value=-4, max_value=4, max_denominator=6), st.booleans()),
                       min_size=1, max_size=3))
    return Z, w1, step, ops, bs


def _dot(a, b):
    return sum((x * y for x, y in zip(a, b)), Fraction(0))


@pytest.mark.parametrize("name", ["integer", "flint"])
@settings(max_examples=200, deadline=None)
@given(problems())
def test_every_representation_answers_as_the_reference(name, case):
    Z, w1, step, ops, bs = case
    ref, rep = FractionArith(Z, w1, step=step), make_arith(name, Z, w1, step=step)
    eta = Fraction(1) if step is None else step
    keys: dict = {}  # key of the integer representation -> the w it stood for (key equal iff w equal)

    def check():
        w = ref.w()
        assert rep.w() == w and all(type(x) is Fraction for x in rep.w())
        assert rep.bits() == fraction_bits(w) == ref.bits()
        assert rep.bits_above(3) == max(3, fraction_bits(w))
        if rep.rekey is not None:
            old = dict(keys)
            keys.clear()
            keys.update({rep.rekey(k): v for k, v in old.items()})
            rep.rekey = None
        k = rep.key()
        if k in keys:
            assert keys[k] == w
        else:
            assert w not in keys.values()
            keys[k] = w
        n = len(Z)
        for i in range(n):
            for length in range(1, n - i + 1):
                s, r = rep.scores(i, length), ref.scores(i, length)
                exact = [_dot(w, Z[i + j]) for j in range(length)]
                assert [rep.exact(s, j) for j in range(length)] == exact == [r[j] for j in range(length)]
                for b, strict in bs:
                    t = rep.threshold(b, strict)
                    want = [j for j, x in enumerate(exact) if (x < b if strict else x <= b)]
                    tr = ref.threshold(b, strict)
                    assert rep.all(s, t) == want == ref.all(r, tr)
                    assert rep.first(s, t) == (want[0] if want else length) == ref.first(r, tr)
                    if hasattr(rep, "find"):  # the loop's questions without a block (find) and with one (scan)
                        assert rep.find(i, length, t) == (want[0] if want else length)
                        s2, j2 = rep.scan(i, length, t)
                        assert j2 == (want[0] if want else length)
                        assert [rep.exact(s2, j) for j in range(length)] == exact

    check()
    for op in ops:
        if op[0] == "add":
            _, i, c = op
            c = eta if c == "step" else -eta if c == "-step" else c
            ref.add(i, c)
            rep.add(i, c)
        else:
            _, idx, cs = op
            ref.add_many(idx, cs[:len(idx)])
            rep.add_many(idx, cs[:len(idx)])
        check()
    snap = rep.snapshot()
    w = rep.w()
    rep.add(0, 1)
    assert rep.fractions(snap) == w
    assert sum(rep.tiers.values()) > 0  # the work was counted


def test_every_tier_is_reached():
    """Small integers score in float32, products past 2^24 in float64, past 2^53 in int64, past 2^62 in Python
    integers (the bound is d m_Z m_v, module docstring of exactlin.engine.arith)."""
    Z = [(Fraction(3), Fraction(-2)), (Fraction(1), Fraction(1))]
    rep = IntegerArith(Z, (0, 0))
    rep.add(0, 1)  # v = (3, -2): d m_Z m_v = 2 * 3 * 3 = 18 < 2^24
    s = rep.scores(0, 2)
    assert rep.tiers == {"float32": 1, "float64": 0, "int64": 0, "python": 0}
    assert [rep.exact(s, j) for j in range(2)] == [13, 1]  # <(3,-2), (3,-2)> = 13, <(3,-2), (1,1)> = 1
    rep = IntegerArith([(Fraction(1 << 12), Fraction(-1))], (0, 0))
    rep.add(0, 1 << 12)  # v = (2^24, -2^12): m_v = 2^24, d m_Z m_v = 2^37 (past float32, below 2^53): float64
    s = rep.scores(0, 1)
    assert rep.tiers["float64"] == 1 and rep.tiers["float32"] == 0 and rep.exact(s, 0) == 2**36 + 2**12
    # near the float32 bound: a score needing all 23 bits below the top (odd, ~2^22) comes out exact
    rep = IntegerArith([(Fraction(512), Fraction(1))], (0, 0))
    for _ in range(31):  # v = (31 * 512, 31): d m_Z m_v = 2 * 512 * 15872 < 2^24
        rep.add(0, Fraction(1))
    s = rep.scores(0, 1)
    assert rep.tiers["float32"] == 1 and rep.exact(s, 0) == 15872 * 512 + 31  # 8,126,495: odd, 23 bits
    # a float32 tier that would close within F32_UPDATES (8) updates is never opened: m_Z = 2^11, d = 2 allows
    # m_v < 2^24 / 2^12 = 4096 = 2 m_Z, two updates: float64 from the start
    rep = IntegerArith([(Fraction(1 << 11), Fraction(1))], (0, 0))
    rep.add(0, Fraction(1))
    s = rep.scores(0, 1)
    assert rep.tiers["float32"] == 0 and rep.tiers["float64"] == 1 and rep.exact(s, 0) == 2**22 + 1
    big = [(Fraction(1 << 40), Fraction(1)), (Fraction(1), Fraction(1 << 40))]
    rep = IntegerArith(big, (0, 0))
    rep.add(0, 1 << 10)  # w = 2^10 z_0, d m_Z m_v = 2 * 2^40 * 2^50 = 2^91 > 2^62: Python integers
    s = rep.scores(0, 2)
    assert rep.tiers["python"] == 1 and rep.exact(s, 0) == 2**10 * (2**80 + 1)  # <w, z_0> by hand
    rep = IntegerArith([(Fraction(1 << 20), Fraction(1))], (0, 0))
    rep.add(0, 1 << 12)  # m_v = 2^32, d m_Z m_v = 2^53: int64
    rep.scores(0, 1)
    assert rep.tiers["int64"] == 1


def test_scores_every_float32_tier():
    """The scores of all samples in float32 while d m_Z m_v < 2^24 (then float64), exact on both sides of the bound,
    with thresholds beyond the tier clamped.  d = 2, m_Z = 2^10: float32 while m_v < 2^24 / 2^11 = 8192."""
    Z = [(Fraction(1024), Fraction(0)), (Fraction(0), Fraction(-1024)), (Fraction(1024), Fraction(1024))]
    rep = IntegerArith(Z, (0, 0))
    rep.add(0, 7)  # w = (7168, 0), m_v = 7168
    s = rep.scores_every()
    # <w, z_j> by hand: 7168 * 1024 = 7,340,032; 0; 7,340,032
    assert s.tier == "float32" and [rep.exact(s, j) for j in range(3)] == [7_340_032, 0, 7_340_032]
    rep.add(1, 1)  # w = (7168, -1024); the bound m_v = 8192 closes the tier, the exact max 7168 reopens it
    s = rep.scores_every()
    # 7,340,032; (-1024)(-1024) = 1,048,576; 7,340,032 - 1,048,576 = 6,291,456
    assert s.tier == "float32" and [rep.exact(s, j) for j in range(3)] == [7_340_032, 1_048_576, 6_291_456]
    assert rep.tiers["float32"] == 2 and rep.tiers["float64"] == 0
    assert rep.all(s, rep.threshold(2**30)) == [0, 1, 2] and rep.all(s, rep.threshold(-2**30)) == []
    assert rep.all(s, rep.threshold(6_291_456)) == [1, 2] and rep.all(s, rep.threshold(6_291_456, True)) == [1]
    assert rep.all(s, rep.threshold(Fraction(2**24 + 1, 3))) == [1]  # 5,592,405.67: only 1,048,576 is below
    assert rep.marks_every(rep.threshold(6_291_456)).tolist() == [False, True, True]
    assert rep.tiers["float32"] == 3
    rep.add(0, 1)  # w = (8192, -1024): max|v| = 8192, closed: float64 (the same integers)
    s = rep.scores_every()
    # 8192 * 1024 = 8,388,608; 1,048,576; 8,388,608 - 1,048,576 = 7,340,032
    assert s.tier == "float64" and [rep.exact(s, j) for j in range(3)] == [8_388_608, 1_048_576, 7_340_032]
    assert rep.count(s, rep.threshold(8_388_608, True)) == 2


def test_make_arith_names_the_representations():
    assert make_arith("fraction", [(1, 2)], (0, 0)).name == "fraction"
    assert make_arith("integer", [(1, 2)], (0, 0)).name == "integer"
    with pytest.raises(ParameterError, match="no representation 'float'"):
        make_arith("float", [(1, 2)], (0, 0))


def test_fingerprint_weights_are_unrelated_at_every_offset():
    # the weights lie in [128, 255]; a v made of two blocks +w and -w (the linear machine's Kesler layout with two
    # classes) has the fingerprint <w, r_{d+j} - r_j>: those differences must not take only a few values, as a
    # multiplicative (Fibonacci) hash's do at any fixed offset (at most three: the three-gap theorem)
    for d in range(1, 80):
        r = fingerprint_weights(2 * d).tolist()
        assert all(128 <= a <= 255 for a in r)
        if d >= 8:
            assert len({r[d + j] - r[j] for j in range(d)}) > 3, d
    assert fingerprint_weights(7).tolist() == fingerprint_weights(9).tolist()[:7]  # r_j depends on j alone


def test_fingerprint_is_equal_for_equal_w_across_rescales():
    # w reached twice: z_0 once with coefficient 1, and twice with 1/2 (the second representation rescales v by 2:
    # w = (p/q) v with q doubled); the same w has the same fingerprint (an int and an equal Fraction hash alike)
    Z = [(Fraction(3), Fraction(-2)), (Fraction(1), Fraction(5))]
    a = IntegerArith(Z, (0, 0))
    b = IntegerArith(Z, (0, 0))
    fa0, fb0 = a.fingerprint(), b.fingerprint()
    assert fa0 == fb0 == 0  # w = 0
    a.add(0, 1)
    b.add(0, Fraction(1, 2))
    b.add(0, Fraction(1, 2))
    assert a.w() == b.w() == (3, -2)
    assert a.fingerprint() == b.fingerprint() and hash(a.fingerprint()) == hash(b.fingerprint())
    b.add(1, Fraction(1, 3))  # w = (10/3, -1/3): a different w, a different fingerprint here
    assert b.fingerprint() != a.fingerprint()


def test_combination_is_zero_by_hand():
    Z = [(Fraction(3), Fraction(-2)), (Fraction(1), Fraction(5)), (Fraction(-6), Fraction(4))]
    rep = IntegerArith(Z, (0, 0))
    assert rep.combination_is_zero([0, 2], [2, 1])  # 2 (3, -2) + (-6, 4) = 0
    assert rep.combination_is_zero([0, 0, 2], [1, 1, 1])
    assert rep.combination_is_zero([0, 2], [Fraction(1, 3), Fraction(1, 6)])  # (1, -2/3) + (-1, 2/3) = 0
    assert not rep.combination_is_zero([0, 1], [1, 1])  # (4, 3)
    assert rep.combination_is_zero([], [])
    # one coefficient object for all (a constant step: one integer sum of the rows): c (z_0 + z_2 + z_0 + z_2)
    # by hand: 2 z_0 + 2 z_2 = (6, -4) + (-12, 8) = (-6, 4) != 0, while z_0 + z_2 + z_0 = (0, 0)
    half = Fraction(1, 2)
    assert not rep.combination_is_zero([0, 2, 0, 2], [half] * 4)
    assert rep.combination_is_zero([0, 2, 0], [half] * 3)
    assert rep.combination_is_zero([0, 1], [Fraction(0)] * 2)  # c = 0: the sum is 0 whatever the rows
    # rows past int64 (Python integers): z_0 = (2^70, 1), z_1 = (-2^70, -1); z_0 + z_1 = 0, z_0 + z_0 != 0
    big = IntegerArith([(Fraction(2**70), Fraction(1)), (Fraction(-(2**70)), Fraction(-1))], (0, 0))
    assert big.combination_is_zero([0, 1], [3] * 2) and not big.combination_is_zero([0, 0], [3] * 2)


def test_add_many_with_one_coefficient_for_all():
    # w <- w + c (z_0 + z_2 + z_2) by hand: z_0 + 2 z_2 = (3, -2) + 2 (-6, 4) = (-9, 6); the same list of one
    # coefficient object takes the one-multiplier path, an integer (c = 2) or a rescale (c = 1/2)
    Z = [(Fraction(3), Fraction(-2)), (Fraction(1), Fraction(5)), (Fraction(-6), Fraction(4))]
    for c, w in ((2, (-18, 12)), (Fraction(1, 2), (Fraction(-9, 2), 3))):
        for rep in (IntegerArith(Z, (1, 1)), FractionArith(Z, (1, 1))):
            rep.add_many([0, 2, 2], [c] * 3)
            assert rep.w() == (1 + w[0], 1 + w[1]), (rep.name, c)


@settings(max_examples=150, deadline=None)
@given(problems(), st.data())
def test_bits_after_is_the_largest_bits_over_the_run(case, data):
    """IntegerArith.bits_after(c) read once at the end equals the largest fraction_bits(w) over the states after
    each update w + c z_i, computed on the Fraction reference state by state; None exactly where the
    representation does not offer it (c's multiplier is not an integer, or the scale's denominator q != 1)."""
    Z, w1, step, _, _ = case
    c = data.draw(st.sampled_from([Fraction(1), Fraction(-1), Fraction(2), Fraction(1, 2),
                                   Fraction(1) if step is None else step]))
    idx = data.draw(st.lists(st.integers(0, len(Z) - 1), max_size=15))
    ref, rep = FractionArith(Z, w1, step=step), IntegerArith(Z, w1, step=step)
    if data.draw(st.booleans()):
        rep.scores(0, len(Z))  # a float tier in use: the updates below move only its copy of v
    later = rep.bits_after(c)
    m = c * rep.q / (rep.p * rep.L)
    if m.denominator != 1 or rep.q != 1:
        assert later is None
        return
    best = fraction_bits(ref.w())  # the start's (the loop takes the max with it)
    for i in idx:
        ref.add(i, c)
        rep.add(i, c)
        best = max(best, fraction_bits(ref.w()))
    assert max(fraction_bits(w1), later(idx)) == best
    assert rep.w() == ref.w()


def test_bits_after_by_hand():
    # z_0 = (3, -2), z_1 = (-3, 1) from w = 0 with c = 1: w = (3, -2), (0, -1), (3, -3), (6, -5): the largest entry
    # 6 has 3 bits, the last w; then with z_1 twice more: (3, -4), (0, -3): the run's largest stays 6 (3 bits),
    # although the final w's largest entry is 3 (2 bits)
    Z = [(Fraction(3), Fraction(-2)), (Fraction(-3), Fraction(1))]
    for warm in (False, True):
        rep = IntegerArith(Z, (0, 0))
        if warm:
            rep.scores(0, 2)
        later = rep.bits_after(1)
        for i in (0, 1, 0, 0, 1, 1):
            rep.add(i, 1)
        assert rep.w() == (0, -3) and rep.bits() == 2
        assert later([0, 1, 0, 0, 1, 1]) == 3 and later([0, 1]) == 2 and later([]) == 1
    assert IntegerArith(Z, (0, 0)).bits_after(Fraction(1, 2)) is None  # a multiplier 1/2 would rescale
