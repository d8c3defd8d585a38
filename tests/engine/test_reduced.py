"""Relaxation's representation a = v / D in lowest terms (exactlin.engine.reduced): every answer equal to the Fraction
reference's on random updates with large prime factors (above 200) and high powers of small ones, and the
smooth-gcd reduction against Fraction's own reduction."""

import math
from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from exactlin.engine.arith import FractionArith
from exactlin.engine.reduced import ReducedArith, frac_bits, nonsmooth, reduce_with_bits

entries = st.builds(F, st.integers(-300, 300), st.sampled_from([1, 1, 2, 3, 48, 81, 211, 401]))


@st.composite
def updates(draw):
    n, d = draw(st.integers(1, 5)), draw(st.integers(1, 4))
    Z = [tuple(draw(entries) for _ in range(d)) for _ in range(n)]
    w1 = tuple(draw(st.builds(F, st.integers(-5, 5), st.sampled_from([1, 7, 223]))) for _ in range(d))
    coef = st.builds(F, st.integers(-9, 9), st.sampled_from([1, 2, 5, 211, 2**9 * 3**8]))
    ops = draw(st.lists(st.one_of(st.tuples(st.just("add"), st.integers(0, n - 1), coef),
                                  st.tuples(st.just("relax"), st.integers(0, n - 1), st.sampled_from([F(1), F(3, 2)])),
                                  st.tuples(st.just("many"), st.lists(st.integers(0, n - 1), max_size=3),
                                            st.lists(coef, min_size=3, max_size=3))), max_size=15))
    return Z, w1, ops


@settings(max_examples=200, deadline=None)
@given(updates(), st.integers(0, 60), st.fractions(min_value=-3, max_value=3, max_denominator=5), st.booleans())
def test_answers_as_the_reference(case, current, b, strict):
    Z, w1, ops = case
    ref, rep = FractionArith(Z, w1), ReducedArith(Z, w1)
    n = len(Z)
    for op in [None, *ops]:
        if op is not None:
            if op[0] == "add":
                ref.add(op[1], op[2])
                rep.add(op[1], op[2])
            elif op[0] == "relax":  # the rule's coefficient eta (1 - a^t z) / ||z||^2, from the exact score
                i, eta = op[1], op[2]
                norm = sum(x * x for x in Z[i])
                if norm:
                    c = eta * (1 - ref.exact(ref.scores(i, 1), 0)) / norm
                    ref.add(i, c)
                    rep.add(i, c)
            else:
                ref.add_many(op[1], op[2][:len(op[1])])
                rep.add_many(op[1], op[2][:len(op[1])])
        assert rep.w() == ref.w() and math.gcd(rep.D, *rep.v) == 1 and rep.D > 0  # lowest terms
        mods = rep._mods  # the residues kept across updates, when kept: those of the state, taken afresh
        if mods is not None:  # M = R times the primes below 200 (computed here by trial division)
            M = mods.R * math.prod(p for p in range(2, 200) if all(p % q for q in range(2, p)))
            assert tuple(mods) == (mods.R, M, rep.D % M, [x % M for x in rep.v])
            large = nonsmooth(rep.D)  # every prime >= 200 of D divides R
            assert pow(mods.R, large.bit_length(), large) == 0
        assert rep.bits() == ref.bits() and rep.bits_above(current) == max(current, ref.bits())
        s, t = ref.scores(0, n), rep.scores(0, n)
        assert [rep.exact(t, j) for j in range(n)] == [ref.exact(s, j) for j in range(n)]
        cut = ref.threshold(b, strict)
        assert rep.first(t, rep.threshold(b, strict)) == ref.first(s, cut)
        assert rep.all(t, rep.threshold(b, strict)) == ref.all(s, cut)
        assert rep.count(t, rep.threshold(b, strict)) == len(ref.all(s, cut))
        assert rep.fractions(rep.snapshot()) == ref.w()


powers = st.tuples(st.integers(0, 20), st.integers(0, 12), st.integers(0, 3), st.integers(0, 2))


@settings(deadline=None)
@given(powers, st.lists(st.tuples(powers, st.integers(-10**6, 10**6)), min_size=1, max_size=5),
       st.sampled_from([1, 401, 1009 * 7]), st.integers(0, 60))
def test_reduction_and_bits_against_fractions(dp, entries, extra, current):
    # lowest terms and the bit count, against Fraction (an independent reduction): D = 2^a 3^b 211^c 401^e,
    # v_j = (the same primes to other powers) * r_j; R = D's part on primes >= 200 times an unrelated number
    def num(p, r=1):
        return 2 ** p[0] * 3 ** p[1] * 211 ** p[2] * 401 ** p[3] * r

    D = num(dp)
    v = [num(p, r) for p, r in entries]
    R = nonsmooth(D) * extra
    v2, D2, bits = reduce_with_bits(v, D, R, current)
    fr = [F(x, D) for x in v]
    assert [F(x, D2) for x in v2] == fr and math.gcd(D2, *v2) == 1 and D2 > 0
    exact = max(max(abs(q.numerator).bit_length(), q.denominator.bit_length()) for q in fr)
    assert bits == max(exact, current) and frac_bits(v, D, current) == max(exact, current)
