"""exactlin.engine.reuse: a representation reusing its scores of every sample gives the blocks the representation
itself gives (the same exact scores and tests) until an update, after which it computes afresh."""

from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from exactlin.engine.arith import FractionArith, IntegerArith
from exactlin.engine.reuse import Reusing


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(st.integers(-9, 9), min_size=3, max_size=3), min_size=2, max_size=8),
       st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7), st.integers(1, 8)), max_size=10))
def test_slices_of_the_full_scores_are_the_blocks(rows, ops):
    Z = [tuple(F(x) for x in r) for r in rows]
    n = len(Z)
    for cls in (IntegerArith, FractionArith):
        rep, ref = Reusing(cls(Z, (0, 0, 0))), FractionArith(Z, (0, 0, 0))
        for k, i, m in ops:
            full = rep.every()
            assert rep.count(full, rep.threshold(0)) == len(ref.all(ref.scores(0, n), ref.threshold(0)))
            i, m = i % n, min(m, n - i % n)
            s, t = rep.scores(i, m), ref.scores(i, m)
            assert [rep.exact(s, j) for j in range(m)] == [ref.exact(t, j) for j in range(m)]
            assert rep.first(s, rep.threshold(0)) == ref.first(t, ref.threshold(0))
            rep.add(k % n, 1)
            ref.add(k % n, 1)
            assert rep.w() == ref.w()
