"""Relaxation with margin, seed 003 Algorithms 8 and 9, and the criteria J_p, J_q, J_r.

Expected values are hand derivations written in the comments.
"""

import json
from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactlin.algorithms.relaxation import (
    batch_relaxation,
    criterion_Jp,
    criterion_Jq,
    criterion_Jr,
    single_sample_relaxation,
)
from exactlin.engine.arith import FractionArith
from exactlin.engine.reduced import ReducedArith
from exactlin.errors import InputError, InvariantViolation, ParameterError
from exactlin.lectures.errata import all_errata
from exactlin.lectures.examples import run_example
from exactlin.strategies import nonseparable_data, separable_data

EX1 = ([(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1])
EX2 = ([(1, 1), (1, -1), (-1, 1), (-1, -1)], [1, -1, -1, 1])
TWO = ([(1, 1), (1, -1)], [1, 1])


def dot(u, v):
    return sum(F(a) * F(b) for a, b in zip(u, v))


def test_criteria_exact():
    Y = [(1, 1), (-1, 0), (-2, 5)]
    a = (1, 0)
    # a^t y = 1, -1, -2: Y(a) for J_p/J_q = {(-1,0), (-2,5)}: J_p = 1 + 2 = 3, J_q = 1 + 4 = 5
    assert criterion_Jp(a, Y) == 3 and criterion_Jq(a, Y) == 5
    # J_r with b = 2: all three have a^t y <= 2: 1/2 [(1-2)^2/2 + (-1-2)^2/1 + (-2-2)^2/29] = 1/4 + 9/2 + 8/29
    assert criterion_Jr(a, Y, 2) == F(1, 4) + F(9, 2) + F(8, 29)
    # no misclassified sample: all zero
    assert criterion_Jp((1, 1), [(1, 0)]) == criterion_Jq((1, 1), [(1, 0)]) == criterion_Jr((1, 1), [(1, 0)], 1) == 0
    with pytest.raises(InputError, match="undefined"):
        criterion_Jr((1, 1), [(0, 0)], 1)


rationals = st.fractions(min_value=-5, max_value=5, max_denominator=12)


@given(st.lists(rationals, min_size=2, max_size=2),
       st.lists(st.lists(rationals, min_size=2, max_size=2), min_size=1, max_size=5), rationals)
def test_criterion_Jr_is_its_definition(a, Y, b):
    # the notes' J_r(a) = 1/2 sum_{a^t y <= b} (a^t y - b)^2 / ||y||^2, written out with Fractions (the function
    # computes the test in integers over a common denominator)
    if any(dot(y, y) == 0 and dot(a, y) <= b for y in Y):
        with pytest.raises(InputError, match="undefined"):
            criterion_Jr(a, Y, b)
        return
    assert criterion_Jr(a, Y, b) == sum((F(dot(a, y) - b) ** 2 / dot(y, y) for y in Y if dot(a, y) <= b), F(0)) / 2


def test_single_sample_hand_example():
    # hand derivation (seed003-relaxation): (1/2,1/2) then (1,0); J_r = 0
    r = single_sample_relaxation(*TWO, bias="none", trace=True)
    assert [s.w_after for s in r.trace if s.update] == [(F(1, 2), F(1, 2)), (1, 0)]
    assert r.w == (1, 0) and r.converged and r.extras["J_r"] == 0 and r.extras["identity_checked"] == 2
    assert run_example("seed003-relaxation").ok


def test_single_sample_eta_half():
    # eta = 1/2, one sample y = (2), b = 1, a = 0: a^t y = 0 -> a = 0 + (1/2)(1 - 0)/4 * 2 = 1/4, a^t y = 1/2
    #   identity: 1/2 - 1 = (1 - 1/2)(0 - 1); next a = 1/4 + (1/2)(1 - 1/2)/4 * 2 = 3/8, a^t y = 3/4;
    #   each step halves the gap b - a^t y: it never reaches 1 in exact arithmetic
    r = single_sample_relaxation([(2,)], [1], bias="none", eta="1/2", max_epochs=5, trace=True)
    assert [s.w_after for s in r.trace[:2]] == [(F(1, 4),), (F(3, 8),)]
    # after 5 corrections a^t y = 1 - 2^-5, so a = (1 - 1/32)/2 = 31/64
    assert r.reason == "max_epochs" and r.w == (F(31, 64),)
    # overrelaxation eta = 3/2 crosses b: a = (3/2)(1/4)*2 = 3/4, a^t y = 3/2 >= 1: done in one correction
    r = single_sample_relaxation([(2,)], [1], bias="none", eta="3/2")
    assert r.w == (F(3, 4),) and r.converged and r.updates == 1


def test_batch_hand_example():
    # hand derivation: Y_1 = {y1, y2}: a = (1/2)(1,1) + (1/2)(1,-1) = (1,0)
    r = batch_relaxation(*TWO, bias="none")
    assert r.w == (1, 0) and r.reason == "converged" and r.epochs == 2 and r.extras["J_r"] == 0
    # one sample per iteration: the identity holds (checked inside); 1-D y = 2, eta = 3/2: a = 3/4 as above
    assert batch_relaxation([(2,)], [1], bias="none", eta="3/2").w == (F(3, 4),)


def test_batch_last_identity_check_takes_no_further_eta():
    # y = (2), b = 1, eta(k) = 2k - 3/2, max_epochs = 1: the run uses only eta(1) = 1/2 (a = (1/2)(1 - 0)/4 * 2
    # = 1/4, a^t y = 1/2, gap halved). The final identity check used to evaluate eta(2) = 5/2 and raise.
    r = batch_relaxation([(2,)], [1], bias="none", eta="2*k - 3/2", max_epochs=1)
    assert r.w == (F(1, 4),) and r.reason == "max_epochs"


def test_example1_overrelaxation_reaches_margin():
    # eta = 3/2 on Example 1 (bias first): converges with a^t y >= b = 1 for all four normalized samples
    for f in (single_sample_relaxation, batch_relaxation):
        r = f(*EX1, eta="3/2")
        Z = r.problem.Z
        assert r.converged and all(dot(r.w, z) >= 1 for z in Z) and r.extras["J_r"] == 0


def test_nonseparable_cycle_certificate():
    # Example 2 through the origin: the batch step from a = 0 is (1/2) sum y_i / 2 = 0 -> a fixed point
    r = batch_relaxation(*EX2, bias="none")
    assert r.reason == "cycle" and r.extras["certificate"]["lambda"] == (F(1, 4),) * 4
    s = single_sample_relaxation(*EX2, bias="none", max_epochs=30)
    assert not s.converged and s.reason in ("cycle", "max_epochs")
    if s.reason == "cycle":
        lam = s.extras["certificate"]["lambda"]
        assert sum(lam) == 1 and all(sum(v * z[j] for v, z in zip(lam, s.problem.Z)) == 0 for j in range(2))


def test_zero_sample_is_undefined():
    for f in (single_sample_relaxation, batch_relaxation):
        r = f([(0, 0), (1, 1)], [1, 1], bias="none")
        assert r.reason == "undefined" and not r.converged and r.extras["undefined_sample"] == 0
        assert "||y|| = 0" in r.extras["note"]


@pytest.mark.parametrize("func", [single_sample_relaxation, batch_relaxation])
@pytest.mark.parametrize("params,fragment", [
    ({"eta": 2}, "eta must satisfy 0 < value < 2, got 2"),
    ({"eta": 0}, "eta must satisfy 0 < value < 2, got 0"),
    ({"eta": "-1/2"}, "0 < value < 2"),
    ({"eta": "3/k", "max_epochs": 5}, "eta(1) = 3 is outside 0 < eta < 2"),
    ({"b": -1}, "b must be > 0, got -1"),
    ({"b": 0}, "b must be > 0, got 0"),
    ({"theta": 1}, "has no parameter 'theta'"),
])
def test_bad_parameters(func, params, fragment):
    with pytest.raises(ParameterError) as e:
        func(*EX1, **params)
    assert fragment in str(e.value)


@pytest.mark.parametrize("arithmetic", ["fraction", "integer"])
def test_identity_violation_is_raised(monkeypatch, arithmetic):
    # a broken step (the coefficient applied twice, inside the representation) must be caught by the exact identity
    # check a^t(k+1)y - b = (1 - eta)(a^t(k)y - b), on every representation
    cls = {"fraction": FractionArith, "integer": ReducedArith}[arithmetic]
    real = cls.add
    monkeypatch.setattr(cls, "add", lambda self, i, c: real(self, i, 2 * c))
    with pytest.raises(InvariantViolation, match="relaxation identity fails at step 1"):
        single_sample_relaxation(*TWO, bias="none", arithmetic=arithmetic, eta=F(1, 3))


@pytest.mark.parametrize("eid", ["alg9-listing", "alg8-misclassified"])
def test_errata(eid):
    e = next(e for e in all_errata() if e.id == eid)
    demo = e.demonstrate()
    assert demo["holds"] is True and demo["text"]


@given(separable_data(max_n=6, max_d=2, coord=4), st.sampled_from([F(3, 2), F(7, 4), F(1)]))
def test_identity_and_progress(p, eta):
    # every single-sample update satisfies a^t(k+1)y - b = (1 - eta)(a^t(k)y - b) (checked here again from the
    # trace, independently of the check inside the algorithm)
    r = single_sample_relaxation(p.X, p.y, bias=p.bias, eta=eta, max_epochs=15, max_bits=4000, trace=True)
    Z = r.problem.Z
    for s in r.trace:
        if s.update:
            z = Z[s.i]
            assert dot(s.w_after, z) - 1 == (1 - eta) * (dot(s.w_before, z) - 1)
            # moves a^t y toward b: |gap| shrinks by |1 - eta| < 1
            assert abs(dot(s.w_after, z) - 1) < abs(dot(s.w_before, z) - 1)
    if r.converged:
        assert all(dot(r.w, z) >= 1 for z in Z)
    else:
        assert r.reason in ("max_epochs", "bit_limit")


@given(separable_data(max_n=6, max_d=2, coord=4))
def test_batch_ends_within_bound(p):
    r = batch_relaxation(p.X, p.y, bias=p.bias, eta="3/2", max_epochs=15, max_bits=4000)
    assert r.epochs <= 15
    if r.converged:
        assert all(dot(r.w, z) >= 1 for z in r.problem.Z)


@given(nonseparable_data(max_n=5, max_d=2, coord=4))
def test_nonseparable_never_converge(p):
    for f in (single_sample_relaxation, batch_relaxation):
        r = f(p.X, p.y, bias=p.bias, max_epochs=10, max_bits=4000)
        assert not r.converged
        assert r.reason in ("cycle", "max_epochs", "bit_limit", "undefined")


@pytest.mark.parametrize("name", ["single-sample-relaxation", "batch-relaxation"])
def test_cli(capsys, tmp_path, name):
    from exactlin.cli.app import main

    p = tmp_path / "two.csv"
    p.write_text("1,1,1\n1,-1,1\n")
    assert main(["fit", name, str(p), "--bias", "none", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["algorithm"] == name and d["w"] == ["1", "0"] and d["converged"] is True and d["J_r"] == "0"
    assert main(["fit", name, str(p), "--param", "eta=2"]) == 2
    assert "0 < value < 2" in capsys.readouterr().err
