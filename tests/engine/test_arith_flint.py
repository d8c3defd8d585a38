"""Every representation's blocks keep their values after w changes (the trace recorder reads them when the trace
is first read).  That FlintArith answers every question as the Fraction reference does is tested with the other
representations, in test_arith.py."""

from fractions import Fraction

from hypothesis import given, settings

from exactlin.engine.arith import make_arith
from tests.engine.test_arith import _dot, problems


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
