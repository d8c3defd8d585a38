"""The rest of the perceptron family: seed 003's Algorithms 3, 4, 5; seed 001's batch PLA and pocket; seed 002's
gradient descent on R(w); seed 000's voted and averaged perceptron.

Expected values come from the lecture (seed 000's voted-perceptron example) or from hand derivations written
in the comments.
"""

import json
from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactlin.algorithms import get
from exactlin.algorithms.perceptron_family import (
    E_in,
    batch_perceptron,
    batch_pla,
    fixed_increment,
    perceptron_gd,
    pocket,
    variable_increment,
)
from exactlin.algorithms.voted import averaged_perceptron, predict_averaged, predict_voted, voted_perceptron
from exactlin.errors import LabelError, ParameterError
from exactlin.lectures.errata import all_errata
from exactlin.lectures.examples import run_example
from exactlin.strategies import nonseparable_data, separable_data

EX1 = ([(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1])
EX2 = ([(1, 1), (1, -1), (-1, 1), (-1, -1)], [1, -1, -1, 1])

BINARY = ["fixed-increment", "variable-increment", "batch-perceptron", "batch-pla", "perceptron-gd",
          "voted-perceptron", "averaged-perceptron", "pocket"]


def dot(u, v):
    return sum(F(a) * F(b) for a, b in zip(u, v))


def normalized(X, y, bias):
    rows = [(1, *x) if bias == "first" else (*x, 1) if bias == "last" else tuple(x) for x in X]
    return [tuple(F(yi) * F(v) for v in r) for r, yi in zip(rows, y)]


def assert_gordan(Z, lam):
    # an independent check of a certificate: lambda >= 0, sum 1, sum lambda_i z_i = 0
    assert all(v >= 0 for v in lam) and sum(lam) == 1
    assert all(sum(l * z[j] for l, z in zip(lam, Z)) == 0 for j in range(len(Z[0])))


# ---------------------------------------------------------------------------
# seed 000: voted and averaged perceptron


def test_voted_lecture_example_one_pass():
    # seed 000, "Perceptron Example": Output ((4,0),1) ((3,-1),2) ((1,-3),1); w_1 = (0,0), c_1 = 1
    r = voted_perceptron(*EX1, max_epochs=1)
    assert [(v["w"], v["c"]) for v in r.extras["voted"]] == [((0, 0), 1), ((4, 0), 1), ((3, -1), 2), ((1, -3), 1)]
    assert r.w is None and r.extras["final_w"] == (1, -3)
    assert r.reason == "max_epochs" and not r.converged and r.updates == 3


def test_averaged_vector_hand_derived():
    # hand derivation: 1*(0,0) + 1*(4,0) + 2*(3,-1) + 1*(1,-3) = (11,-5)  (the notes print "[11]")
    r = averaged_perceptron(*EX1, max_epochs=1)
    assert r.w == (11, -5)
    # on x = (1,3): votes 0 + sign(4) + 2 sign(0) + sign(-8) = 0 -> tied (0); averaged 11 - 15 = -4 -> -1
    v = voted_perceptron(*EX1, max_epochs=1)
    assert predict_voted(v, (1, 3)) == 0 and predict_averaged(r, (1, 3)) == -1


def test_voted_until_convergence_counts_survival():
    # hand derivation: after round 4, w_4 = (1,-3) survives the whole second pass: c_4 = 1 + 4 = 5
    r = voted_perceptron(*EX1)
    assert r.converged and r.extras["voted"][-1] == {"w": (1, -3), "c": 5}
    assert averaged_perceptron(*EX1).w == (4 + 6 + 5, -2 - 15)  # (0,0)+(4,0)+2(3,-1)+5(1,-3)
    # the perceptron's theorem on w_1, w_2, ...: w* = (1,-3), R^2 = 16, gamma = 2: bound 16*10/4 = 40
    assert r.extras["monitor"].bound == 40


def test_voted_example2_cycle():
    r = voted_perceptron(*EX2)
    assert r.reason == "cycle"
    assert r.extras["certificate"]["lambda"] == (F(1, 4),) * 4


# ---------------------------------------------------------------------------
# seed 003: Algorithms 4, 5, 3


def test_fixed_increment_example1():
    # hand derivation in exactlin/examples_family.py: (1,4,0), (0,3,-1), (1,1,-3); converged in 2 passes
    r = fixed_increment(*EX1, trace=True)
    assert [s.w_after for s in r.trace if s.update] == [(1, 4, 0), (0, 3, -1), (1, 1, -3)]
    assert r.converged and r.epochs == 2 and r.extras["separates"]
    assert r.extras["monitor"].bound == 187  # R^2 = 17, ||a*||^2 = 11, gamma = 1


def test_fixed_increment_example2_certificate():
    r = fixed_increment(*EX2, bias="none")
    assert r.reason == "cycle" and not r.converged
    assert_gordan(normalized(*EX2, "none"), r.extras["certificate"]["lambda"])


def test_variable_increment_margin():
    # hand derivation: test a^t y <= 1: corrections to (1,4,0), (0,3,-1), (-1,3,-2), (0,1,-4)
    r = variable_increment(*EX1, b=1)
    assert r.w == (0, 1, -4) and r.updates == 4 and r.converged
    assert r.extras["monitor"] is None and "margin b > 0" in r.extras["monitor_note"]
    # b = 0, eta = 1 is Algorithm 4
    assert variable_increment(*EX1).w == fixed_increment(*EX1).w


def test_variable_increment_separates_means_strictly_positive():
    # hand: 1-D, bias none, x = 1 (+1), b = 2, one pass: a = 0 -> a^t y = 0 <= 2 -> a = 1; a^t y = 1 separates
    # (1 > 0) but misses the margin (1 <= 2). "separates" used to be checked against b and said False.
    r = variable_increment([(1,)], [1], bias="none", b=2, max_epochs=1)
    assert r.w == (1,) and r.reason == "max_epochs"
    assert r.extras["separates"] is True and r.extras["margin_met"] is False
    r = variable_increment([(1,)], [1], bias="none", b=2)  # a = 1, 2, 3: 3 > 2 ends it
    assert r.w == (3,) and r.converged and r.extras["separates"] and r.extras["margin_met"]


def test_variable_increment_schedule_counts_updates():
    # eta(k) = 1/k with k the correction number; hand derivation on 1-D data x = 1 (+1), bias none, b = 1:
    # a = 0 -> 0 <= 1: a = 1 (eta 1); 1 <= 1: a = 3/2 (eta 1/2); 3/2 > 1: a pass with no correction
    r = variable_increment([(1,)], [1], bias="none", b=1, eta="1/k")
    assert r.w == (F(3, 2),) and r.updates == 2 and r.extras["etas"] == (1, F(1, 2))
    # the loop-step reading: eta(1) = 1, then eta(2) = 1/2 at step 2 as well (one sample: steps = corrections)
    assert variable_increment([(1,)], [1], bias="none", b=1, eta="1/k", eta_k="step").w == (F(3, 2),)


def test_batch_perceptron_example1_and_theta():
    # hand derivation: the four normalized samples sum to (0,1,-4), which separates
    r = batch_perceptron(*EX1)
    assert r.w == (0, 1, -4) and r.reason == "converged" and r.epochs == 2
    mon = r.extras["monitor"]
    # batch bound n R^2 ||a*||^2 / gamma^2 = 4 * 17 * 17 / 3^2
    assert mon.bound == F(4 * 17 * 17, 9) and mon.K == 4 and mon.iterations == 1
    # theta = 5: ||(0,1,-4)||^2 = 17 < 25: stop by the criterion after iteration 1
    r = batch_perceptron(*EX1, theta=5)
    assert r.reason == "criterion" and r.epochs == 1


def test_batch_perceptron_zero_sum_is_a_certificate():
    # Example 2 through the origin: from a = 0 all four are misclassified and sum to 0
    r = batch_perceptron(*EX2, bias="none")
    assert r.reason == "cycle" and r.extras["certificate"]["lambda"] == (F(1, 4),) * 4


# ---------------------------------------------------------------------------
# seed 001: batch PLA and pocket


def test_batch_pla_example1():
    # hand derivation: Delta/N = (0,1,-4)/4
    r = batch_pla(*EX1)
    assert r.w == (0, F(1, 4), -1) and r.reason == "converged"
    # alpha = 4: w = (0,1,-4); epsilon: ||Delta||^2 = 17/16 <= (3/2)^2 stops by the criterion
    assert batch_pla(*EX1, alpha=4).w == (0, 1, -4)
    assert batch_pla(*EX1, epsilon="3/2").reason == "criterion"


def test_E_in_exact():
    # (1,0) on ((1,0),+1), ((0,1),+1), ((-1,0),-1): signs +1, 0 (an error), -1 -> 1/3
    assert E_in((1, 0), [(1, 0), (0, 1), (-1, 0)], [1, 1, -1]) == F(1, 3)


def test_pocket_example2():
    # hand derivation: iterates (1,1), (0,2), (1,1), (0,0), (1,1), E_in 3/4, 1/2, 3/4, 1, 3/4
    r = pocket(*EX2, bias="none", T=5)
    assert r.w == (0, 2) and r.extras["E_in"] == F(1, 2) and r.reason == "max_steps"
    assert r.extras["E_in_history"] == (1, F(3, 4), F(1, 2), F(3, 4), 1, F(3, 4))
    assert r.extras["w_pla"] == (1, 1)
    assert pocket(*EX2, bias="none", T=50, max_epochs=3).reason == "max_epochs"


def test_pocket_converges_on_separable():
    r = pocket(*EX1, bias="none")
    assert r.reason == "converged" and r.w == (1, -3) and r.extras["E_in"] == 0


# ---------------------------------------------------------------------------
# seed 002: gradient descent on R(w)


def test_perceptron_gd_example1():
    # hand derivation: w = (4,0,1) -> V = {2,3,4}, R = 13 -> w = (1,-4,0), R = 0
    r = perceptron_gd(*EX1)
    assert r.w == (1, -4, 0) and r.reason == "converged" and r.extras["R"] == 0
    # start from y_2 x_2 = (-1,-1,-1): y_i x_i . w = -5, 3, 2, 3: V = {1} -> w = (3,-1,0);
    # then -> 12, -2, 1, -4: V = {2, 4} -> w = (3,-1,0) + (-1,-1,-1) + (-2,-2,1) = (0,-4,0);
    # then 0, 4, 4, 8: R(w) = 0 with sample 1 on the boundary: reason "boundary" (erratum perceptron-gd-stop)
    r = perceptron_gd(*EX1, start=1)
    assert r.w == (0, -4, 0) and r.reason == "boundary" and r.updates == 2


def test_perceptron_gd_stops_on_boundary():
    # erratum perceptron-gd-stop: Example 2 through the origin ends at w = 0 with R(w) = 0
    r = perceptron_gd(*EX2, bias="none")
    assert r.w == (0, 0) and r.reason == "boundary" and not r.converged


# ---------------------------------------------------------------------------
# bad input


@pytest.mark.parametrize("func,params,fragment", [
    (variable_increment, {"eta": 0}, "eta must be > 0"),
    (variable_increment, {"eta": "-1/2"}, "eta must be > 0"),
    (variable_increment, {"eta": "2-k", "b": 5}, "eta(2) = 0 must be > 0"),
    (variable_increment, {"b": -1}, "b must be >= 0"),
    (batch_perceptron, {"eta": 0}, "eta must be > 0"),
    (batch_perceptron, {"theta": -1}, "theta must be >= 0"),
    (batch_pla, {"alpha": 0}, "alpha must be > 0"),
    (batch_pla, {"epsilon": "-1/10"}, "epsilon must be >= 0"),
    (pocket, {"T": 0}, "T must be >= 1"),
    (perceptron_gd, {"xi": -1}, "xi must be > 0"),
    (perceptron_gd, {"start": 9}, "start must be a sample index"),
    (fixed_increment, {"gamma": 1}, "has no parameter 'gamma'"),
    (voted_perceptron, {"eta": 1}, "has no parameter 'eta'"),
    (fixed_increment, {"a0": (1, 2)}, "a0 has 2 entries"),
])
def test_bad_parameters(func, params, fragment):
    with pytest.raises(ParameterError) as e:
        func(*EX1, **params)
    assert fragment in str(e.value)


def test_bad_labels_and_zero_start():
    with pytest.raises(LabelError, match="not \\+1 or -1"):
        fixed_increment([(1,), (2,)], [0, 1])
    with pytest.raises(ParameterError, match="y_i x_i = 0"):
        perceptron_gd([(0,), (1,)], [1, -1], bias="none")


# ---------------------------------------------------------------------------
# examples and errata


@pytest.mark.parametrize("ex", ["seed000-voted-averaged", "seed003-fixed-increment-ex1",
                                "seed003-variable-increment-ex1", "seed003-batch-perceptron-ex1",
                                "seed001-batch-pla-ex1", "seed001-pocket-ex2", "seed002-perceptron-gd-ex1"])
def test_examples(ex):
    res = run_example(ex)
    assert res.ok, [c for c in res.checks if not c.ok]


@pytest.mark.parametrize("eid", ["alg4-sign", "alg5-rule", "alg3-criterion", "pocket-comparison",
                                 "seed000-averaged-vector", "perceptron-gd-stop"])
def test_errata(eid):
    e = next(e for e in all_errata() if e.id == eid)
    demo = e.demonstrate()
    assert demo["holds"] is True and demo["text"]


# ---------------------------------------------------------------------------
# hypothesis properties


def mistake_bound(p, eta=F(1), b=F(0)):
    """Hand-derived bound on corrections: (2 eta b + eta^2 R^2) ||w*||^2 / (eta gamma)^2 (b = 0: seed 000's)."""
    Z = normalized(p.X, p.y, p.bias)
    R2 = max(dot(z, z) for z in Z)
    nw = dot(p.w_star, p.w_star)
    return (2 * eta * b + eta * eta * R2) * nw / (eta * p.gamma_min) ** 2


@given(separable_data(max_n=8, max_d=3, coord=6), st.sampled_from([F(1), F(1, 2), F(3)]),
       st.sampled_from([F(0), F(1), F(5, 2)]))
def test_single_sample_rules_converge(p, eta, b):
    bound = mistake_bound(p, eta, b)
    r = variable_increment(p.X, p.y, bias=p.bias, eta=eta, b=b, max_epochs=int(bound) + 2)
    assert r.converged and r.updates <= bound
    assert all(dot(r.w, z) > b for z in normalized(p.X, p.y, p.bias))
    if b == 0 and eta == 1:
        f = fixed_increment(p.X, p.y, bias=p.bias, w_star=p.w_star, max_epochs=int(bound) + 2)
        assert f.w == r.w and f.extras["monitor"].holds
        v = voted_perceptron(p.X, p.y, bias=p.bias, max_epochs=int(bound) + 2)
        # the voted perceptron's w_1, w_2, ... is the perceptron's sequence: it ends where Algorithm 4 does
        assert v.converged and v.extras["final_w"] == f.w
        assert sum(v["c"] for v in v.extras["voted"]) == v.steps + 1  # c_1 = 1 plus one count per round
        d = len(f.w)
        avg = tuple(sum(F(e["c"]) * e["w"][j] for e in v.extras["voted"]) for j in range(d))
        assert averaged_perceptron(p.X, p.y, bias=p.bias, max_epochs=int(bound) + 2).w == avg


@given(separable_data(max_n=8, max_d=3, coord=6))
def test_batch_rules_converge(p):
    Z = normalized(p.X, p.y, p.bias)
    R2 = max(dot(z, z) for z in Z)
    # batch bound on corrections (hand derivation in batch_monitor's docstring): n R^2 ||w*||^2 / gamma^2
    bound = len(Z) * R2 * dot(p.w_star, p.w_star) / p.gamma_min ** 2
    for f in (batch_perceptron, batch_pla):
        r = f(p.X, p.y, bias=p.bias, max_epochs=int(bound) + 2, w_star=p.w_star)
        assert r.reason == "converged" and r.extras["separates"]
        assert all(dot(r.w, z) > 0 for z in Z)
        assert r.extras["monitor"].K <= bound and r.extras["monitor"].holds
    g = perceptron_gd(p.X, p.y, bias=p.bias, max_epochs=int(bound) + 2)
    assert g.reason in ("converged", "boundary")
    assert all(dot(g.w, z) >= 0 for z in Z)
    assert (g.reason == "converged") == all(dot(g.w, z) > 0 for z in Z)


@given(separable_data(max_n=8, max_d=3, coord=6))
def test_pocket_reaches_zero_error_on_separable(p):
    # pocket's PLA is the perceptron (cyclic, test <= 0): within the mistake bound + 1 steps it finds a
    # separator, E_in = 0, and stops with "converged"
    bound = mistake_bound(p)
    r = pocket(p.X, p.y, bias=p.bias, T=int(bound) + 1, max_epochs=int(bound) + 1)
    assert r.reason == "converged" and r.extras["E_in"] == 0 and r.extras["separates"]
    assert all(dot(r.w, z) > 0 for z in normalized(p.X, p.y, p.bias))


@given(nonseparable_data(max_n=7))
def test_nonseparable_end_within_bound(p):
    Z = normalized(p.X, p.y, p.bias)
    for name in BINARY:
        if name == "perceptron-gd" and not any(Z[0]):
            with pytest.raises(ParameterError, match="y_i x_i = 0"):
                get(name).func(p.X, p.y, bias=p.bias, max_epochs=30)
            continue
        r = get(name).func(p.X, p.y, bias=p.bias, max_epochs=30)
        assert not r.converged or name == "batch-pla" and r.reason == "criterion"
        assert r.epochs <= 30
        if r.reason == "cycle":
            assert_gordan(Z, r.extras["certificate"]["lambda"])
        if name == "pocket":
            assert r.extras["E_in"] == min(r.extras["E_in_history"]) > 0


@given(st.lists(st.tuples(st.integers(-4, 4), st.integers(-4, 4)), min_size=1, max_size=5), st.data())
def test_pocket_independent_reference(X, data):
    # an independent pocket written here: cyclic PLA, keep the best E_in
    y = [data.draw(st.sampled_from([1, -1])) for _ in X]
    T = data.draw(st.integers(1, 12))
    n = len(X)

    def err(w):
        return F(sum(1 for x, yi in zip(X, y) if (dot(w, x) > 0) - (dot(w, x) < 0) != yi), n)

    w, pos, best, best_e = (0, 0), 0, (0, 0), err((0, 0))
    for _ in range(T):
        idx = [(pos + o) % n for o in range(n)]
        wrong = [i for i in idx if y[i] * dot(w, X[i]) <= 0]
        if not wrong:
            break
        i = wrong[0]
        w = (w[0] + y[i] * X[i][0], w[1] + y[i] * X[i][1])
        pos = (i + 1) % n
        if err(w) < best_e:
            best, best_e = w, err(w)
    r = pocket(X, y, bias="none", T=T)
    assert r.w == best and r.extras["E_in"] == best_e


# ---------------------------------------------------------------------------
# CLI


@pytest.fixture
def ex1_csv(tmp_path):
    p = tmp_path / "ex1.csv"
    p.write_text("x1,x2,y\n4,0,1\n1,1,-1\n0,1,-1\n-2,-2,1\n")
    return p


@pytest.mark.parametrize("name,extra,w", [
    ("fixed-increment", [], ["1", "1", "-3"]),
    ("variable-increment", ["--param", "b=1"], ["0", "1", "-4"]),
    ("batch-perceptron", [], ["0", "1", "-4"]),
    ("batch-pla", [], ["0", "1/4", "-1"]),
    ("perceptron-gd", [], ["1", "-4", "0"]),
    ("pocket", ["--param", "T=10"], ["1", "1", "-3"]),
    ("averaged-perceptron", ["--max-epochs", "1"], ["11", "-5"]),
    ("voted-perceptron", ["--max-epochs", "1"], None),
])
def test_cli_json(capsys, ex1_csv, name, extra, w):
    from exactlin.cli.app import main

    code = main(["fit", name, str(ex1_csv), "--json", *extra])
    out, err = capsys.readouterr()
    assert code == 0, err
    d = json.loads(out)
    assert d["algorithm"] == name and d["w"] == w
    assert {"converged", "updates", "reason", "bias"} <= set(d)
    if name == "voted-perceptron":
        # seed 000's output after one pass, w_1 = 0 in front
        assert [(v["w"], str(v["c"])) for v in d["voted"]] == [(["0", "0"], "1"), (["4", "0"], "1"),
                                                                (["3", "-1"], "2"), (["1", "-3"], "1")]


def test_cli_bad_param(capsys, ex1_csv):
    from exactlin.cli.app import main

    assert main(["fit", "pocket", str(ex1_csv), "--param", "T=0"]) == 2
    assert "T must be >= 1" in capsys.readouterr().err
    assert main(["fit", "batch-pla", str(ex1_csv), "--param", "eta=1"]) == 2
    assert "has no parameter 'eta'" in capsys.readouterr().err
