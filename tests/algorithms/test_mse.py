"""MSE (pseudoinverse), Widrow-Hoff and LMS of seed 003 (003_ffe0ec08819b37d8.txt)."""

from fractions import Fraction as F

import pytest
import sympy
from hypothesis import given

from exactlin.algorithms.mse import lms, mse, widrow_hoff
from exactlin.errors import ParameterError, ShapeError
from exactlin.strategies import separable_data

# seed 003's example: Y (normalized, bias first) = [[1,1,2],[1,2,0],[-1,-3,-1],[-1,-2,-3]] comes from
# omega_1 = {(1,2), (2,0)} and omega_2 = {(3,1), (2,3)} (the last two rows negated) -- hand derivation
X_SEED = [(1, 2), (2, 0), (3, 1), (2, 3)]
Y_LAB = [1, 1, -1, -1]
A_SEED = (F(11, 3), F(-4, 3), F(-2, 3))  # printed in seed 003


def test_seed003_mse_solution_and_hyperplane():
    r = mse(X_SEED, Y_LAB)
    assert r.w == A_SEED and r.reason == "solved" and r.converged
    # the notes' hyperplane 4 x1 + 2 x2 - 11 = 0 is -3 a^t (1, x)
    assert tuple(-3 * v for v in r.w) == (-11, 4, 2)
    assert r.extras["Y_pinv"][0] == (F(5, 4), F(13, 12), F(3, 4), F(7, 12))
    assert r.extras["J_s"] == 0 and r.extras["separates"]  # Y a = b exactly here (hand check: every row gives 1)
    d = r.to_dict()
    assert d["w"] == ["11/3", "-4/3", "-2/3"] and d["b"] == ["1"] * 4
    assert d["Y_pinv"][1] == ["-1/2", "-1/6", "-1/2", "-1/6"]


def test_mse_custom_b_and_rank_deficient():
    # one feature duplicated: Y has rank 2 of 3 columns; a = Y^+ b is the minimum-norm minimiser.
    # hand derivation: samples (1,1) label +1 and (2,2) label -1 with bias none: Y = [[1,1],[-2,-2]],
    # Y^+ = Y^t/(|Y|_F^2) = [[1,-2],[1,-2]]/10, b = (1,1): a = (-1/10, -1/10)
    r = mse([(1, 1), (2, 2)], [1, -1], bias="none")
    assert r.w == (F(-1, 10), F(-1, 10))
    r2 = mse(X_SEED, Y_LAB, b=[1, 2, 1, 2])
    Y = sympy.Matrix([[1, 1, 2], [1, 2, 0], [-1, -3, -1], [-1, -2, -3]])
    expected = Y.pinv() * sympy.Matrix([1, 2, 1, 2])
    assert [sympy.Rational(v.numerator, v.denominator) for v in r2.w] == list(expected)


@given(separable_data(max_n=8, max_d=3, bias="first"))
def test_mse_solves_normal_equations(p):
    r = mse(p.X, p.y)
    Y = sympy.Matrix([[sympy.Rational(v) for v in row] for row in r.problem.Z])
    a = sympy.Matrix([sympy.Rational(v.numerator, v.denominator) for v in r.w])
    assert Y.T * (Y * a - sympy.ones(Y.rows, 1)) == sympy.zeros(Y.cols, 1)
    if Y.rank() == Y.cols:
        assert a == (Y.T * Y).LUsolve(Y.T * sympy.ones(Y.rows, 1))


def test_widrow_hoff_approaches_pinv_solution():
    r = widrow_hoff(X_SEED, Y_LAB, eta1="1/40", k_max=60)
    assert r.reason == "max_steps" and r.steps == 60
    assert r.extras["a_star"] == A_SEED
    dist = r.extras["dist2"]
    # eta(k) <= 1/40 < 2/lambda_max(Y^tY) (lambda_max < trace = 36): every step contracts the error
    assert all(x > y for x, y in zip(dist, dist[1:]))
    # first step by hand: a(1) = 0, Y^t(0 - b) = -(0, -2, -2), a(2) = (1/40)(0, -2, -2)
    assert r.trace[0].w_after == (0, F(-1, 20), F(-1, 20))
    assert r.trace[0].info["dist2"] == dist[1]


def test_widrow_hoff_reaches_exact_solution_when_gradient_vanishes():
    # 1-D, bias none, one sample x = 2 with label +1: Y = [[2]], b = 1, a* = 1/2.
    # eta = 1/4 constant: a(2) = 0 - (1/4) * 2 * (0 - 1) = 1/2 exactly, then the gradient is 0
    r = widrow_hoff([(2,)], [1], bias="none", eta="1/4")
    assert r.w == (F(1, 2),) and r.reason == "criterion" and r.converged


def test_widrow_hoff_counts_only_the_steps_that_move_a():
    # seed003-step-size, eta = 1/2: x = 1 (+1), x = -1 (-1), no bias, Y = (1, 1)^t, b = (1, 1):
    # a(2) = 0 - (1/2) * Y^t (Y 0 - b) = 0 + (1/2) * 2 = 1 = a*; step 2 finds Y^t (Y a - b) = 0, moves nothing and
    # stops: 2 steps, 1 update, and the trace flags exactly that one step as an update.
    r = widrow_hoff([(1,), (-1,)], [1, -1], bias="none", eta="1/2", k_max=4, trace=True)
    assert r.w == (F(1),) and r.steps == 2 and r.updates == 1
    assert [s.update for s in r.trace] == [True, False]


def test_lms_bits_and_bit_limit():
    r = lms(X_SEED, Y_LAB, eta1="1/10", k_max=40)
    assert r.reason == "max_steps" and r.steps == 40
    assert r.extras["max_bits"] == max(r.extras["bits"]) and len(r.extras["bits"]) == 40
    # first step by hand: a = 0, y^1 = (1,1,2), b_1 - a^t y = 1, eta(1) = 1/10: a(2) = (1/10, 1/10, 1/5)
    assert r.trace[0].w_after == (F(1, 10), F(1, 10), F(1, 5))
    assert r.trace[0].info["dist2"] == (F(1, 10) - F(11, 3)) ** 2 + (F(1, 10) + F(4, 3)) ** 2 + (F(1, 5) + F(2, 3)) ** 2
    assert all("dist2" in s.info for s in lms(X_SEED, Y_LAB, eta1="1/10", k_max=12, distance="every").trace)
    assert not any("dist2" in s.info for s in lms(X_SEED, Y_LAB, eta1="1/10", k_max=12, distance="off").trace)
    small = lms(X_SEED, Y_LAB, eta1="1/10", k_max=400, max_bits=64)
    assert small.reason == "bit_limit" and small.extras["max_bits"] > 64 and not small.converged


def test_lms_theta_criterion():
    # one sample x = 1 (bias none), b = 1, eta = 1: a(2) = 0 + 1*(1 - 0)*1 = 1; step 2: correction 0 < theta
    r = lms([(1,)], [1], bias="none", eta="1", theta="1/1000")
    assert r.w == (F(1),) and r.reason == "criterion" and r.steps == 2


def test_bad_inputs():
    with pytest.raises(ShapeError, match="b has 3 entries but there are 4 samples"):
        mse(X_SEED, Y_LAB, b=[1, 1, 1])
    with pytest.raises(ParameterError, match="b must be > 0"):
        mse(X_SEED, Y_LAB, b=[1, 0, 1, 1])
    with pytest.raises(ParameterError, match="eta1 must be > 0"):
        widrow_hoff(X_SEED, Y_LAB, eta1=0)
    with pytest.raises(ParameterError, match="k_max must be >= 1"):
        lms(X_SEED, Y_LAB, k_max=0)
    with pytest.raises(ParameterError, match="eta\\(1\\) = -1 must be > 0"):
        lms(X_SEED, Y_LAB, eta="-1")
    with pytest.raises(ParameterError, match="has no parameter 'gamma'"):
        mse(X_SEED, Y_LAB, gamma=1)


# ---------------------------------------------------------------------------
# the worked example and the CLI

SEED_CSV = "x1,x2,y\n1,2,1\n2,0,1\n3,1,-1\n2,3,-1\n"


def test_seed003_example_registered_and_reproduced():
    from exactlin.lectures.examples import run_example

    res = run_example("seed003-pseudoinverse")
    assert res.ok and res.data["a"] == A_SEED


def _cli(capsys, *argv):
    from exactlin.cli.app import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_mse_json(capsys, tmp_path):
    import json

    p = tmp_path / "seed003.csv"
    p.write_text(SEED_CSV)
    code, out, err = _cli(capsys, "fit", "mse", str(p), "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["algorithm"] == "mse" and d["w"] == ["11/3", "-4/3", "-2/3"] and d["bias"] == "first"
    assert d["reason"] == "solved" and d["b"] == ["1", "1", "1", "1"]
    assert d["Y_pinv"] == [["5/4", "13/12", "3/4", "7/12"], ["-1/2", "-1/6", "-1/2", "-1/6"],
                           ["0", "-1/3", "0", "-1/3"]]
    code, out, err = _cli(capsys, "fit", "ho-kashyap-mod2", str(p), "--param", "R=1,0,0;0,1,0;0,0,1",
                          "--param", "eta=1/16", "--json")
    assert code == 0, err
    assert json.loads(out)["verdict"] == "separable"
    code, out, err = _cli(capsys, "fit", "ho-kashyap-mod2", str(p), "--param", "eta=1", "--json")
    assert code == 2 and "violates 0 < eta < 2/lambda_max" in err
    code, out, err = _cli(capsys, "fit", "lms", str(p), "--param", "k_max=5", "--json")
    assert code == 0 and json.loads(out)["reason"] == "max_steps"


def test_cli_fisher_json(capsys, tmp_path):
    import json

    p = tmp_path / "fisher.csv"
    # the hand-derivable set of tests/algorithms/test_fisher.py: w = (1, 1/2), y0 = 0, J = 13/3
    p.write_text("x1,x2,y\n1,0,1\n3,0,1\n2,1,1\n-1,0,-1\n-3,0,-1\n-2,-1,-1\n")
    code, out, err = _cli(capsys, "fit", "fisher", str(p), "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["w"] == ["1", "1/2"] and d["y0"] == "0" and d["J"] == "13/3" and d["bias"] == "none"
    assert d["S_W"] == [["4", "0"], ["0", "4/3"]] and d["m1"] == ["2", "1/3"]
    code, out, err = _cli(capsys, "fit", "fisher", str(p), "--param", "priors=9/10,1/10", "--json")
    d = json.loads(out)
    # a text that reads as a number and an exact sympy number are tagged, so that both come back as what they are
    assert code == 0 and d["threshold"] == {"record": "str", "text": "3"}
    assert d["y0"]["record"] == "sympy" and d["y0"]["expr"] == "-log(9)/4"


@pytest.mark.parametrize("f", [lms, widrow_hoff])
def test_eta_and_eta1_together_are_a_conflict(f):
    with pytest.raises(ParameterError, match="eta and eta1 conflict") as info:
        f(X_SEED, Y_LAB, eta="1/k", eta1=2, k_max=3)
    assert info.value.parameter == "eta"
    # either alone is fine, and eta1 = c is the schedule eta(k) = c/k
    assert f(X_SEED, Y_LAB, eta1="1/10", k_max=6).w == f(X_SEED, Y_LAB, eta="1/(10*k)", k_max=6).w


def test_lms_records_the_max_epochs_it_stopped_at():
    # one sample x = 1 (bias none), b = 1, eta = 1/2 constant: a(k+1) = a + (1 - a)/2, so a = 1/2, 3/4, 7/8 after
    # three passes of one step each; max_epochs = 3 stops there
    r = lms([(1,)], [1], bias="none", eta="1/2", max_epochs=3)
    assert r.reason == "max_epochs" and r.w == (F(7, 8),) and r.params["max_epochs"] == 3
    r = widrow_hoff([(1,)], [1], bias="none", eta="1/2", max_epochs=3)  # the batch rule: the same iterates here
    assert r.reason == "max_epochs" and r.w == (F(7, 8),) and r.params["max_epochs"] == 3
