"""The linear machine's representations (exactlin.engine.machine): both layouts (KeslerArith, MachineArith) over
every one-vector representation give the rival, the margin, the test and the stacked W that a direct Fraction
computation gives (the rival the first largest g_j among the other classes), on random update sequences."""

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactlin.engine.arith import FractionArith, IntegerArith, fraction_bits, make_arith
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


def _kesler_vector(Y, labels, c, s, j):
    """Kesler's vector of sample s against class j, by its definition: y_s in block own, -y_s in block j."""
    d = len(Y[0])
    v = [F(0)] * (c * d)
    own = labels[s]
    v[own * d:(own + 1) * d] = Y[s]
    v[j * d:(j + 1) * d] = [-a for a in Y[s]]
    return v


@pytest.mark.parametrize("layout", [KeslerArith, MachineArith])
@settings(max_examples=80, deadline=None)
@given(case=cases(), data=st.data())
def test_find_rival_fingerprint_and_bits_after_as_by_hand(layout, case, data):
    # both layouts over the integer representation: the fingerprint is equal for equal W, combination_is_zero is
    # the sum of the last updates' Kesler vectors computed from their definition; on the Kesler layout also find
    # answers as first(scores) on every block, the update after it takes the rival a direct Fraction computation
    # gives (c = 2: known from the found row alone), and bits_after is the largest fraction_bits over the states
    Y, labels, c, eta, picks = case
    rep = layout(IntegerArith, Y, labels, c, step=eta)
    n, d = len(Y), len(Y[0])
    t = rep.threshold(0)
    later = rep.bits_after(eta) if layout is KeslerArith else None
    find = rep.find if layout is KeslerArith else (lambda i, length, t: rep.first(rep.scores(i, length), t))
    W = [[F(0)] * d for _ in range(c)]
    states, best, done = [(tuple(x for w in W for x in w), rep.fingerprint())], 1, []
    for _ in range(len(picks)):
        for i in range(n):
            for length in range(n - i + 1):
                assert find(i, length, t) == rep.first(rep.scores(i, length), t)
        i = data.draw(st.sampled_from(range(n)))
        j = find(i, n - i, t)  # the first mistake from i on, as the loop asks it (when there is one)
        if j < n - i:
            i += j
        g = [sum(a * b for a, b in zip(w, Y[i])) for w in W]
        own = labels[i]
        r = max((k for k in range(c) if k != own), key=lambda k: (g[k], -k))
        rep.add(i, eta)
        assert rep.pairs[-1] == (i, r)
        W[own] = [a + eta * b for a, b in zip(W[own], Y[i])]
        W[r] = [a - eta * b for a, b in zip(W[r], Y[i])]
        done.append(i)
        state = tuple(x for w in W for x in w)
        assert rep.w() == state
        best = max(best, fraction_bits(state))
        for u, (earlier, fp) in enumerate(states):  # the updates since state u sum to zero iff W is the same
            same = rep.combination_is_zero(done[u:], [eta] * (len(done) - u))
            assert same == (earlier == state)
            total = [sum(x) for x in zip(*(_kesler_vector(Y, labels, c, *p) for p in rep.pairs[u:]))]
            assert same == (not any(total))
            if same:
                assert rep.fingerprint() == fp
        states.append((state, rep.fingerprint()))
    if later is not None:  # (the base offers it: eta's multiplier is an integer and the scale's q is 1)
        assert max(1, later(done)) == best
        if done:
            with pytest.raises(ValueError, match="not those of the machine's last updates"):
                later([(done[0] + 1) % n, *done[1:]] if n > 1 else done + done)


def test_combination_by_hand():
    # two classes, the same y = (1, 1) in class 0 (sample 0) and class 1 (sample 1), from W = 0: sample 0 ties
    # (g_0 = g_1 = 0), rival 1: W = ((1, 1), (-1, -1)); sample 1 has g_1 = -2 <= g_0 = 2, rival 0: W = 0 again.
    # The two updates cancel, the last alone does not; the samples must be those of the last updates
    for layout in (KeslerArith, MachineArith):
        rep = layout(IntegerArith, [(F(1), F(1)), (F(1), F(1))], [0, 1], 2)
        start = rep.fingerprint()
        rep.add(0, 1)
        rep.add(1, 1)
        assert rep.pairs == [(0, 1), (1, 0)] and rep.w() == (0, 0, 0, 0) and rep.fingerprint() == start
        assert rep.combination_is_zero([0, 1], [1, 1]) and not rep.combination_is_zero([1], [1])
        with pytest.raises(ValueError, match="not those of the machine's last updates"):
            rep.combination_is_zero([0], [1])


def test_block_min():
    # the Kesler layout: the integer base's shortest block counts Kesler rows (c - 1 per sample): in samples,
    # rounded up; a base
    # without one (Fractions) leaves the machine without one (the loop's default then), and without find
    Y, labels = [(F(1), F(2))] * 5, [0, 1, 2, 0, 1]
    rep = KeslerArith(IntegerArith, Y, labels, 3)
    assert rep.block_min == -(-rep.base.block_min // 2)
    frac = KeslerArith(FractionArith, Y, labels, 3)
    assert not hasattr(frac, "block_min") and not hasattr(frac, "find") and not hasattr(frac, "fingerprint")
    assert frac.bits_after(1) is None
    # the layout of c vectors apart: its bases' (one sample, one row)
    assert MachineArith(IntegerArith, Y, labels, 3).block_min == IntegerArith(Y, (0, 0)).block_min
    frac = MachineArith(FractionArith, Y, labels, 3)
    assert not hasattr(frac, "block_min") and not hasattr(frac, "fingerprint")


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_whole_runs_on_both_layouts_equal_the_reference(data):
    # small integer data with repeated points in different classes (they cycle): the whole Run of the linear
    # machine on the integer representation, both layouts (fingerprints confirmed on the recorded rows, or base
    # by base), equals the Fraction reference's, cycle and its step included, also when the run goes on past it
    from exactlin.algorithms import get
    from exactlin.engine.trace import Limits

    n, d, c = data.draw(st.integers(2, 6)), data.draw(st.integers(1, 2)), data.draw(st.integers(2, 3))
    X = [tuple(data.draw(st.integers(-2, 2)) for _ in range(d)) for _ in range(n)]
    y = [data.draw(st.integers(0, c - 1)) for _ in range(n)]
    if len(set(y)) < 2:
        X, y = X + X[:1], y + [1 - min(y[0], 1)]
    kw = {"bias": "none", "max_epochs": 12, "stop_on_cycle": data.draw(st.booleans())}
    lm = get("linear-machine").func
    ref = lm(X, y, arithmetic="fraction", **kw)
    for f in (lm, lm.with_limits(Limits(machine_entries=1))):
        assert f(X, y, arithmetic="integer", **kw) == ref
