"""The linear machine's representations (exactlin.engine.machine): both layouts (KeslerArith, MachineArith) over
every one-vector representation give the rival, the margin, the test and the stacked W that a direct Fraction
computation gives (the rival the first largest g_j among the other classes), on random update sequences."""

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactlin.engine.arith import FractionArith, IntegerArith, make_arith
from exactlin.engine.machine import KeslerArith, MachineArith

big = st.sampled_from([2**62 + 1, -(2**40), 3, 2**70])
entry = st.one_of(st.integers(-5, 5), st.fractions(min_value=-4, max_value=4, max_denominator=3), big)


@st.composite
def cases(draw):
    n, d, c = draw(st.integers(2, 6)), draw(st.integers(1, 3)), draw(st.integers(2, 4))
    Y = [tuple(F(draw(entry)) for _ in range(d)) for _ in range(n)]
    labels = [draw(st.integers(0, c - 1)) for _ in range(n)]
    eta = draw(st.sampled_from([F(1), F(1, 3), F(2)]))
    picks = draw(st.lists(st.integers(0, n - 1), max_size=12))
    return Y, labels, c, eta, picks


def _flint(Z, w1, step):
    return make_arith("flint", Z, w1, step=step)


@pytest.mark.parametrize("layout", [KeslerArith, MachineArith])
@pytest.mark.parametrize("make", [FractionArith, IntegerArith, _flint], ids=["fraction", "integer", "flint"])
@settings(max_examples=60, deadline=None)
@given(case=cases())
def test_rival_margin_and_state_as_by_hand(layout, make, case):
    Y, labels, c, eta, picks = case
    rep = layout(make, Y, labels, c, step=eta)
    n, d = len(Y), len(Y[0])
    W = [[F(0)] * d for _ in range(c)]
    for i in [None, *picks]:
        if i is not None:
            g = [sum(a * b for a, b in zip(w, Y[i])) for w in W]
            own = labels[i]
            r = max((k for k in range(c) if k != own), key=lambda k: (g[k], -k))
            rep.add(i, eta)
            W[own] = [a + eta * b for a, b in zip(W[own], Y[i])]
            W[r] = [a - eta * b for a, b in zip(W[r], Y[i])]
            assert rep.pairs[-1] == (i, r)
        assert rep.w() == tuple(x for w in W for x in w) and rep.fractions(rep.snapshot()) == rep.w()
        s = rep.scores(0, n)
        wrong = []
        for j in range(n):
            g = [sum(a * b for a, b in zip(w, Y[j])) for w in W]
            own = labels[j]
            r = max((k for k in range(c) if k != own), key=lambda k: (g[k], -k))
            assert rep.rival(s, j) == r and rep.exact(s, j) == g[own] - g[r]
            if g[own] <= g[r]:
                wrong.append(j)
        assert rep.all(s, rep.threshold(0)) == wrong
        assert rep.first(s, rep.threshold(0)) == (wrong[0] if wrong else n)
        ties = [j for j in range(n) if (lambda g: g.count(max(g)) > 1)([sum(a * b for a, b in zip(w, Y[j]))
                                                                          for w in W])]
        assert rep.undefined() == ties
