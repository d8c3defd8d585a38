"""The multi-category case: seed 003's linear machine (multi-class Kesler perceptron) and seed 001's
one-vs-rest.  Expected values are hand derivations written in the comments."""

import json
from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactlin.algorithms.multiclass import (
    kesler_vectors,
    linear_machine,
    linear_machine_decide,
    one_vs_rest,
    one_vs_rest_decide,
)
from exactlin.errors import LabelError, ParameterError
from exactlin.lectures.examples import run_example
from exactlin.strategies import separable_multiclass_data

MC = ([(1, 0), (0, 1), (-1, -1)], ["A", "B", "C"])


def dot(u, v):
    return sum(F(a) * F(b) for a, b in zip(u, v))


def test_linear_machine_hand_example():
    # hand derivation in exactlin/examples_family.py (seed003-linear-machine)
    r = linear_machine(*MC, bias="none")
    assert r.w is None and r.extras["classes"] == ("A", "B", "C")
    assert r.extras["W"] == ((2, 0), (-1, 1), (-1, -1)) and r.updates == 3 and r.converged
    assert r.extras["mistakes"] == ((0, 1), (1, 0), (2, 0))
    # every update adds y to one w_i and subtracts it from another: the w_i always sum to 0
    assert tuple(map(sum, zip(*r.extras["W"]))) == (0, 0)
    assert run_example("seed003-linear-machine").ok


def test_linear_machine_monitor_through_kesler():
    r = linear_machine(*MC, bias="none")
    rep = r.extras["monitor"]
    # hand derivation: Kesler vectors have ||.||^2 = 2 ||y||^2: R^2 = 2*2 = 4 (y = (-1,-1));
    # W* = stacked final W, ||W*||^2 = 4 + 2 + 2 = 8; gamma = min over samples and rivals of g_i - g_j
    #   A: 2-(-1) = 3, 3; B: 1-0 = 1, 1-(-1) = 2; C: 2-(-2) = 4, 2-0 = 2: gamma = 1; bound 4*8/1 = 32
    assert rep.R2 == 4 and rep.norm2_w_star == 8 and rep.gamma_min == 1 and rep.bound == 32 and rep.holds


def test_kesler_vectors():
    K, index = kesler_vectors([(F(1), F(2))], [1], 3)
    # sample of class 1 (0-based) against classes 0 and 2
    assert K == [(-1, -2, 1, 2, 0, 0), (0, 0, 1, 2, -1, -2)] and index == {(0, 0): 0, (0, 2): 1}


def test_ties_are_undefined():
    r = linear_machine(*MC, bias="none")
    # x = (0,0): g = 0, 0, 0 -> undefined; x = (1,1): g = 2, 0, -2 -> A
    assert linear_machine_decide(r, (0, 0)) is None and linear_machine_decide(r, (1, 1)) == "A"


def test_non_separable_multiclass_cycle():
    # the same point (1,0) in classes A and B: hand derivation: A: g = 0,0,0 -> w_A = (1,0), w_B = (-1,0);
    # B: g_A = 1 > g_B -> w_B = (0,0), w_A = (0,0); back to W = 0 at the same position... the state repeats
    r = linear_machine([(1, 0), (1, 0), (0, 1)], ["A", "B", "C"], bias="none")
    assert r.reason == "cycle" and not r.converged
    cert = r.extras["certificate"]
    assert cert["kind"] == "gordan-kesler" and cert["verified"] and sum(cert["lambda"]) == 1


def test_labels_any_hashable_and_order():
    # class_labels order: sorted when comparable (3 < 7 < 10), first appearance otherwise
    r = linear_machine([(0,), (5,), (10,)], [10, 3, 7], max_epochs=200)
    assert r.extras["classes"] == (3, 7, 10)
    r = linear_machine([(0,), (5,), (10,)], [("t", 1), "b", 2], max_epochs=200)
    assert r.extras["classes"] == (("t", 1), "b", 2)


def test_one_vs_rest_hand_example():
    # hand derivation in exactlin/examples_family.py (seed001-one-vs-rest)
    r = one_vs_rest(*MC, bias="none")
    assert r.extras["W"] == ((2, -1), (-1, 2), (-1, -1)) and r.converged and r.updates == 10
    assert [one_vs_rest_decide(r, x) for x in [*MC[0], (1, 1), (0, 0)]] == ["A", "B", "C", None, None]
    assert run_example("seed001-one-vs-rest").ok


def test_one_vs_rest_other_binary():
    r = one_vs_rest(*MC, bias="none", binary="fixed-increment")
    assert r.extras["binary"] == "fixed-increment" and r.converged
    r = one_vs_rest([(0,), (2,), (4,)], [0, 1, 2], binary="pocket", max_epochs=20)
    # the middle class is not linearly separable from the rest in 1-D: its pocket run never reaches E_in = 0
    assert not r.converged and r.extras["runs"][1]["reason"] in ("max_epochs", "max_steps")


def test_bad_input():
    with pytest.raises(LabelError, match="at least two classes"):
        linear_machine([(1,), (2,)], ["a", "a"])
    with pytest.raises(ParameterError, match="eta must be > 0"):
        linear_machine(*MC, eta=0)
    with pytest.raises(ParameterError, match="binary must be one of"):
        one_vs_rest(*MC, binary="linear-machine")
    # the voted perceptron has no single w_c (Run.w is None): a clear error, not a TypeError from <None, x>
    with pytest.raises(ParameterError, match="voted perceptron predicts by a vote"):
        one_vs_rest(*MC, binary="voted-perceptron")
    with pytest.raises(ParameterError, match="has no parameter 'alpha'"):
        one_vs_rest(*MC, alpha=2)
    with pytest.raises(ParameterError, match="no parameter 'positive'"):
        linear_machine(*MC, positive="A")


@given(separable_multiclass_data())
def test_separable_converges_and_separates(p):
    # Kesler bound (hand derivation): the Kesler vectors have ||.||^2 = 2 ||y||^2 and the planted W* has margin
    # gamma_min on each of them, so K <= 2 max ||y||^2 ||W*||^2 / gamma^2; a pass without a correction ends
    # the run
    Y = [(1, *x) for x in p.X]
    bound = 2 * max(dot(y, y) for y in Y) * sum(dot(w, w) for w in p.W_star) / p.gamma_min ** 2
    r = linear_machine(p.X, p.y, max_epochs=int(bound) + 2)
    assert r.converged and r.updates <= bound
    assert all(linear_machine_decide(r, x) == lab for x, lab in zip(p.X, p.y))
    assert r.extras["monitor"].holds and r.updates <= r.extras["monitor"].bound
    assert len(r.extras["W"]) == len(r.extras["classes"]) == len(set(p.y))


@given(st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), min_size=2, max_size=7), st.data())
def test_any_data_ends_within_bound(X, data):
    y = [data.draw(st.sampled_from(["a", "b", "c"])) for _ in X]
    if len(set(y)) < 2:
        return
    r = linear_machine(X, y, max_epochs=25)
    assert r.epochs <= 25 and r.reason in ("converged", "cycle", "max_epochs")
    if r.converged:
        assert all(linear_machine_decide(r, x) == lab for x, lab in zip(X, y))
    o = one_vs_rest(X, y, max_epochs=25)
    assert o.epochs <= 25
    if o.converged:
        assert all(one_vs_rest_decide(o, x) == lab for x, lab in zip(X, y))


@pytest.mark.parametrize("name", ["linear-machine", "one-vs-rest"])
def test_cli(capsys, tmp_path, name):
    from exactlin.cli.app import main

    p = tmp_path / "mc.csv"
    p.write_text("x1,x2,label\n1,0,A\n0,1,B\n-1,-1,C\n")
    assert main(["fit", name, str(p), "--bias", "none", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["algorithm"] == name and d["w"] is None and d["classes"] == ["A", "B", "C"]
    expected = [["2", "0"], ["-1", "1"], ["-1", "-1"]] if name == "linear-machine" else \
        [["2", "-1"], ["-1", "2"], ["-1", "-1"]]
    assert d["W"] == expected and d["converged"] is True and d["reason"] == "converged"
    assert main(["fit", name, str(p), "--positive", "A"]) == 2
    assert "multi-class" in capsys.readouterr().err
