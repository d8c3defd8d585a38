"""FlintArith (exactlin/engine/arith_flint.py) answers every question of the protocol exactly as the Fraction
reference does; and every representation's blocks keep their values after w changes (the trace recorder reads
them when the trace is first read)."""

from fractions import Fraction

from hypothesis import given, settings

from exactlin.engine.arith import FractionArith, fraction_bits, make_arith
from tests.engine.test_arith import _dot, problems


@settings(max_examples=150, deadline=None)
@given(problems())
def test_flint_representation_answers_as_the_reference(case):
    Z, w1, step, ops, bs = case
    ref, rep = FractionArith(Z, w1, step=step), make_arith("flint", Z, w1, step=step)
    eta = Fraction(1) if step is None else step
    keys: dict = {}

    def check():
        w = ref.w()
        assert rep.w() == w and all(type(x) is Fraction for x in rep.w())
        assert rep.bits() == fraction_bits(w) and rep.bits_above(3) == max(3, fraction_bits(w))
        k = rep.key()
        assert keys.setdefault(k, w) == w and sum(v == w for v in keys.values()) == 1
        n = len(Z)
        for i in range(n):
            length = n - i
            s = rep.scores(i, length)
            exact = [_dot(w, Z[i + j]) for j in range(length)]
            assert [rep.exact(s, j) for j in range(length)] == exact
            for b, strict in bs:
                want = [j for j, x in enumerate(exact) if (x < b if strict else x <= b)]
                t = rep.threshold(b, strict)
                assert rep.all(s, t) == want and rep.first(s, t) == (want[0] if want else length)

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
    assert rep.tiers["flint"] > 0


@settings(max_examples=100, deadline=None)
@given(problems())
def test_a_block_keeps_its_values_after_updates(case):
    Z, w1, step, ops, _ = case
    eta = Fraction(1) if step is None else step
    for name in ("fraction", "integer", "flint"):
        rep = make_arith(name, Z, w1, step=step)
        s = rep.scores(0, len(Z))
        before = [rep.exact(s, j) for j in range(len(Z))]  # reading them computes the reference's lazy scores
        for op in ops:
            if op[0] == "add":
                _, i, c = op
                rep.add(i, eta if c == "step" else -eta if c == "-step" else c)
            else:
                _, idx, cs = op
                rep.add_many(idx, cs[:len(idx)])
        assert [rep.exact(s, j) for j in range(len(Z))] == before == [_dot(w1, z) for z in Z], name
