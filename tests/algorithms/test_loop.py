"""Issue 21 item 5(a): the clean stop at the end of the first error-free epoch (Mitchell 1997, many handouts),
``stop="clean-epoch"``, a parameter of the shared cyclic loop, against an independent transcription of that
convention, on the integer kernel and the Fraction loop alike (field by field)."""

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactlin.algorithms import _fast, all_specs
from exactlin.algorithms.perceptron import perceptron
from exactlin.algorithms.perceptron_family import fixed_increment, variable_increment, voted_perceptron
from exactlin.algorithms.threshold_unit import threshold_unit
from exactlin.errors import ParameterError


def dot(u, v):
    return sum((F(a) * F(b) for a, b in zip(u, v)), F(0))


def mitchell(Z, eta, max_epochs, margin=F(0)):
    """Repeat epochs: for each sample in order, a mistake (<w, z> <= margin) adds eta z; stop after the first
    epoch without a mistake.  (w, updates, rounds, converged)."""
    w = (F(0),) * len(Z[0])
    updates = rounds = 0
    for _ in range(max_epochs):
        mistakes = 0
        for z in Z:
            rounds += 1
            if dot(w, z) <= margin:
                w = tuple(a + eta * b for a, b in zip(w, z))
                mistakes += 1
        updates += mistakes
        if not mistakes:
            return w, updates, rounds, True
    return w, updates, rounds, False


@st.composite
def data(draw):
    n = draw(st.integers(2, 7))
    X = draw(st.lists(st.tuples(st.integers(-5, 5), st.integers(-5, 5)), min_size=n, max_size=n))
    y = draw(st.lists(st.sampled_from([1, -1]), min_size=n, max_size=n))
    if len(set(y)) < 2:
        y[0] = -y[1]
    return X, y


def test_hand_example_stops_at_the_end_of_the_clean_epoch():
    # X = (1,0), (0,1), (1,1), all +1, no bias, w = 0: round 1 score 0 -> w = (1,0); round 2 score 0 -> (1,1);
    # round 3 score 2. n-clean: rounds 3, 4, 5 are clean -> stop at round 5 (epoch 2).  clean-epoch: epoch 1
    # had mistakes, epoch 2 (rounds 4-6) is clean -> stop at round 6.  Same w = (1,1), 2 updates.
    X, y = [(1, 0), (0, 1), (1, 1)], [1, 1, 1]
    a = perceptron(X, y)
    b = perceptron(X, y, stop="clean-epoch")
    assert (a.w, a.updates, a.steps, a.epochs) == ((1, 1), 2, 5, 2)
    assert (b.w, b.updates, b.steps, b.epochs, b.reason) == ((1, 1), 2, 6, 2, "converged")


@settings(max_examples=80)
@given(data(), st.sampled_from(["none", "first"]))
def test_perceptron_clean_epoch_is_mitchells_loop_on_both_paths(d, bias):
    X, y = d
    Z = [tuple(zi * v for v in ((1,) + x if bias == "first" else x)) for x, zi in zip(X, y)]
    w, updates, rounds, conv = mitchell(Z, F(1), 8)
    fast = perceptron(X, y, bias=bias, stop="clean-epoch", max_epochs=8, stop_on_cycle=False)
    assert (fast.w, fast.updates, fast.steps, fast.converged) == (w, updates, rounds, conv)
    cyc = perceptron(X, y, bias=bias, stop="clean-epoch", max_epochs=8)  # the kernel path (stop_on_cycle)
    _fast.ENABLED = False
    try:
        ref = perceptron(X, y, bias=bias, stop="clean-epoch", max_epochs=8)
    finally:
        _fast.ENABLED = True
    assert cyc == ref  # field by field, types included
    if cyc.reason != "cycle":
        assert (cyc.w, cyc.steps) == (w, rounds)


@settings(max_examples=40)
@given(data(), st.sampled_from([F(0), F(1), F(5, 2)]))
def test_variable_increment_clean_epoch_with_margin(d, b):
    X, y = d
    Z = [tuple(zi * v for v in (1,) + x) for x, zi in zip(X, y)]
    w, updates, rounds, conv = mitchell(Z, F(1), 6, margin=b)
    r = variable_increment(X, y, b=b, stop="clean-epoch", max_epochs=6, stop_on_cycle=False)
    assert (r.w, r.updates, r.steps, r.converged) == (w, updates, rounds, conv)
    kernel = variable_increment(X, y, b=b, stop="clean-epoch", max_epochs=6)
    _fast.ENABLED = False
    try:
        assert kernel == variable_increment(X, y, b=b, stop="clean-epoch", max_epochs=6)
    finally:
        _fast.ENABLED = True


@settings(max_examples=30)
@given(data())
def test_voted_perceptron_clean_epoch_kernel_equals_reference(d):
    X, y = d
    kernel = voted_perceptron(X, y, stop="clean-epoch", max_epochs=6)
    _fast.ENABLED = False
    try:
        assert kernel == voted_perceptron(X, y, stop="clean-epoch", max_epochs=6)
    finally:
        _fast.ENABLED = True


@settings(max_examples=40)
@given(data(), st.sampled_from([">=", ">"]))
def test_threshold_unit_clean_epoch_is_mitchells_rule(d, tie):
    # Mitchell section 4.4.2: o = 1 iff w.x~ > 0 (or >= 0), w <- w + eta (t - o) x~, epochs until one is clean
    X, y = d
    Xs = [(F(1),) + tuple(map(F, x)) for x in X]
    t = [1 if v == 1 else 0 for v in y]
    w, updates, rounds, conv = (F(0),) * 3, 0, 0, False
    for _ in range(6):
        mistakes = 0
        for x, ti in zip(Xs, t):
            rounds += 1
            net = dot(w, x)
            o = 1 if (net >= 0 if tie == ">=" else net > 0) else 0
            if o != ti:
                w = tuple(a + (ti - o) * v for a, v in zip(w, x))
                mistakes += 1
        updates += mistakes
        if not mistakes:
            conv = True
            break
    r = threshold_unit(X, y, tie=tie, stop="clean-epoch", max_epochs=6, stop_on_cycle=False)
    assert (r.w, r.updates, r.steps, r.converged) == (w, updates, rounds, conv)


def test_clean_epoch_reaches_the_fast_kernel():
    # not a silent fall-back: the integer kernel ran the clean-epoch run (its tier counters moved)
    _fast.LAST_TIERS.clear()
    perceptron([(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1], stop="clean-epoch")
    assert sum(_fast.LAST_TIERS.values()) > 0


def test_stop_is_a_shared_row_of_the_cyclic_family():
    owners = {s.name for s in all_specs() if any(p.name == "stop" and "clean-epoch" in p.choices for p in s.params)}
    assert owners == {"perceptron", "fixed-increment", "variable-increment", "voted-perceptron",
                      "averaged-perceptron", "threshold-unit"}
    with pytest.raises(ParameterError, match="stop"):
        perceptron([(1, 0), (0, 1)], [1, -1], stop="mitchell")
    with pytest.raises(ParameterError, match="stop and variant conflict"):
        fixed_increment([(1, 0), (0, 1)], [1, -1], stop="clean-epoch", variant="printed")
