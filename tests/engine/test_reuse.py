"""exactlin.engine.reuse: a representation reusing its scores of every sample gives the blocks the representation
itself gives (the same exact scores and tests) until an update, after which it computes afresh."""

from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from exactlin.engine.arith import FractionArith, IntegerArith
from exactlin.engine.arith_flint import FlintArith
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


# entries that keep the float32 tier open (|z| <= 9) or cross its bound within a few updates (about 2^21)
entry = st.one_of(st.integers(-9, 9), st.integers(-(1 << 21), 1 << 21))


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(entry, min_size=2, max_size=2), min_size=2, max_size=6),
       st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(1, 6)), max_size=8),
       st.sampled_from([0, 2**30, -2**30, F(5, 3), 2**23 + 1]), st.booleans())
def test_count_every_and_the_scan_after_it(rows, ops, b, strict):
    # count_every counts the samples with <w, z_j> <= b (< b) exactly, and the next scan with an equal threshold (a
    # new object, as the loop asks) finds the first of them in its block, as the reference does
    Z = [tuple(F(x) for x in r) for r in rows]
    n = len(Z)
    for cls in (IntegerArith, FlintArith, FractionArith):
        rep, ref = Reusing(cls(Z, (0, 0))), FractionArith(Z, (0, 0))
        for k, i, m in ops:
            exact = [sum(a * x for a, x in zip(ref.w(), z)) for z in Z]
            hits = [j for j, q in enumerate(exact) if (q < b if strict else q <= b)]
            assert rep.count_every(rep.threshold(b, strict)) == len(hits)
            i, m = i % n, min(m, n - i % n)
            s, j = rep.scan(i, m, rep.threshold(b, strict))
            assert j == next((h - i for h in hits if i <= h < i + m), m)
            assert [rep.exact(s, jj) for jj in range(m)] == exact[i:i + m]
            rep.add(k % n, 1)
            ref.add(k % n, 1)
            assert rep.w() == ref.w()
