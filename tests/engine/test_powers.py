"""Balanced Winnow's representations (exactlin.engine.powers): the integer exponents of alpha answer every question
as the Fraction products do (scores, tests, bits, the state), on random sequences of updates."""

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactlin.engine.powers import FractionPowers, PowerArith, integer_samples


@st.composite
def cases(draw):
    n, d = draw(st.integers(1, 5)), draw(st.integers(1, 4))
    Z = [tuple(draw(st.integers(-3, 3)) for _ in range(d)) for _ in range(n)]
    alpha = draw(st.sampled_from([F(2), F(3), F(3, 2), F(4), F(5, 3), F(8)]))
    start = tuple(draw(st.sampled_from([F(1), F(1), F(2, 3), F(5)])) for _ in range(2 * d))
    ops = draw(st.lists(st.tuples(st.integers(0, n - 1), st.sampled_from([1, 1, -1, 2])), max_size=15))
    return Z, alpha, start, ops


@settings(max_examples=150, deadline=None)
@given(cases(), st.sampled_from([F(0), F(1, 2), F(-3)]), st.booleans())
def test_exponents_answer_as_the_fraction_products(case, b, strict):
    Z, alpha, start, ops = case
    ref = FractionPowers(Z, start, [tuple(alpha ** z for z in row) for row in Z])
    rep = PowerArith(Z, start, alpha)
    n = len(Z)
    for op in [None, *ops]:
        if op is not None:
            before, w_before = rep.scores(0, n), ref.w()  # a block of the state before the update, read after it
            ref.add(*op)
            rep.add(*op)
            h = len(start) // 2
            assert [rep.exact(before, j) for j in range(n)] == [
                sum((p - m) * z for p, m, z in zip(w_before[:h], w_before[h:], row)) for row in Z]
        assert rep.w() == ref.w() and rep.bits() == ref.bits() and rep.fractions(rep.snapshot()) == ref.w()
        s, t = ref.scores(0, n), rep.scores(0, n)
        h = len(start) // 2
        expect = [sum((p - m) * z for p, m, z in zip(ref.w()[:h], ref.w()[h:], row)) for row in Z]  # <a+ - a-, z>
        assert [rep.exact(t, j) for j in range(n)] == [ref.exact(s, j) for j in range(n)] == expect
        assert rep.first(t, rep.threshold(b, strict)) == ref.first(s, ref.threshold(b, strict))
        assert rep.all(t, rep.threshold(b, strict)) == ref.all(s, ref.threshold(b, strict))


def test_integer_samples_only():
    assert integer_samples([(1, -2)]) == [[1, -2]] and integer_samples([(F(1, 2), 1)]) is None
    with pytest.raises(ValueError):
        PowerArith([(F(1, 2),)], (F(1), F(1)), F(2))
