"""Ho-Kashyap (Algorithm 11) and its modifications, seed 003 (003_ffe0ec08819b37d8.txt), with verdicts."""

from fractions import Fraction as F

import pytest
from hypothesis import given

from exactlin.algorithms.ho_kashyap import ho_kashyap, ho_kashyap_mod1, ho_kashyap_mod2
from exactlin.errors import ParameterError, ShapeError
from exactlin.strategies import nonseparable_data, separable_data
from exactlin.theory.certificates import verify_gordan, verify_separator

X_SEED = [(1, 2), (2, 0), (3, 1), (2, 3)]
Y_LAB = [1, 1, -1, -1]


def test_seed003_example_separable_at_once():
    # a(1) = Y^+ 1 = (11/3, -4/3, -2/3) and Y a = 1 > 0 (seed 003): separable before any update
    r = ho_kashyap(X_SEED, Y_LAB)
    assert r.extras["verdict"] == "separable" and r.reason == "converged" and r.updates == 0
    assert r.w == (F(11, 3), F(-4, 3), F(-2, 3))
    assert r.extras["e"] == (0, 0, 0, 0)
    assert r.extras["certificate"]["verified"]


def test_not_separable_gordan_certificate_by_hand():
    # 1-D, bias first: x = 0 (+1), 1 (-1), 2 (+1). Normalized Y = [[1,0],[-1,-1],[1,2]].
    # Hand: Y^tY = [[3,3],[3,5]], Y^t 1 = (1,1), a = (1/3, 0); Y a = (1/3,-1/3,1/3), e = (-2/3,-4/3,-2/3) <= 0
    r = ho_kashyap([(0,), (1,), (2,)], [1, -1, 1])
    assert r.extras["verdict"] == "not_separable" and r.reason == "not_separable"
    assert r.w == (F(1, 3), F(0))
    assert r.extras["e"] == (F(-2, 3), F(-4, 3), F(-2, 3))
    cert = r.extras["certificate"]
    assert cert["lambda"] == (F(1, 4), F(1, 2), F(1, 4))
    verify_gordan(r.problem.Z, cert["lambda"])


def test_alg11_update_by_hand():
    # 1-D, bias none: x = 1 (+1), x = 2 (+1). Y = [[1],[2]], Y^+ = (1/5, 2/5), b = (1,1): a = 3/5 > 0.
    # separable at once; with b0 = (1, -?) invalid; instead a case with one update:
    # x = 1 (+1), x = -1 (-1), x = 3 (+1), bias none: Y = [[1],[1],[3]], Y^+ = (1,1,3)/11, a = 5/11 > 0
    r = ho_kashyap([(1,), (-1,), (3,)], [1, -1, 1], bias="none")
    assert r.w == (F(5, 11),) and r.extras["verdict"] == "separable"


def test_alg11_one_b_update_by_hand():
    # omega_1 = {0, 1}, omega_2 = {2, 30}, bias first, eta = 1/2. Hand derivation:
    #   Y = [[1,0],[1,1],[-1,-2],[-1,-30]], Y^tY = [[4,33],[33,905]], det = 3620 - 1089 = 2531,
    #   (Y^tY)^-1 = [[905,-33],[-33,4]]/2531, Y^t 1 = (0,-31): a(1) = (1023, -124)/2531;
    #   Y a(1) = (1023, 899, -775, 2697)/2531, e = (-1508, -1632, -3306, 166)/2531, e+ = (0, 0, 0, 166/2531);
    #   b(2) = b + 2 eta e+ = (1, 1, 1, 2697/2531) (b, not a, is updated: erratum seed003-ho-kashyap-b-update);
    #   a(2) = a(1) + (166/2531) (Y^tY)^-1 y_4 = a(1) + (166/2531) (85, -87)/2531
    #        = (1023*2531 + 14110, -124*2531 - 14442)/2531^2 = (2603323, -328286)/6405961
    r = ho_kashyap([(0,), (1,), (2,), (30,)], [1, 1, -1, -1], eta="1/2", k_max=1, trace=True)
    s = r.trace[0]
    assert s.w_before == (F(1023, 2531), F(-124, 2531))
    assert s.info["e"] == (F(-1508, 2531), F(-1632, 2531), F(-3306, 2531), F(166, 2531))
    assert s.info["b_after"] == (1, 1, 1, F(2697, 2531)) == r.extras["b"]
    assert r.w == (F(2603323, 6405961), F(-328286, 6405961))
    assert r.extras["verdict"] == "undecided" and r.reason == "max_steps"


def test_mod1_iterates_equal_alg11():
    # Modification I keeps a(k) = Y^+ b(k) (Y^+ e = 0), so with the same eta it runs Algorithm 11 exactly
    X = [(0, 0), (1, 0), (0, 1), (1, 1), (2, 2), (3, 0)]
    y = [1, 1, 1, -1, -1, -1]
    r11 = ho_kashyap(X, y, eta="1/2", k_max=30, trace=True)
    r1 = ho_kashyap_mod1(X, y, eta="1/2", k_max=30, trace=True)
    assert [s.w_after for s in r11.trace] == [s.w_after for s in r1.trace]
    assert r11.extras["verdict"] == r1.extras["verdict"] == "separable"
    verify_separator(r1.problem.Z, r1.w)


def test_mod2_eta_condition_exact():
    # Y^tY = [[4,8,6],[8,18,11],[6,11,14]] (hand), lambda_max in (30, 31): eta = 1/16 < 2/31 < 2/lambda_max fine,
    # eta = 1/10 > 2/30 violates it
    r = ho_kashyap_mod2(X_SEED, Y_LAB, eta="1/16", k_max=500)
    assert r.extras["verdict"] == "separable"
    verify_separator(r.problem.Z, r.w)
    with pytest.raises(ParameterError, match="violates 0 < eta < 2/lambda_max"):
        ho_kashyap_mod2(X_SEED, Y_LAB, eta="1/10")
    # close to the boundary: v = (1,2,2) has v^t Y^tY v / ||v||^2 = 276/9 > 30 (hand), so lambda_max > 30 and
    # eta = 1/15 > 2/lambda_max must be refused, exactly
    with pytest.raises(ParameterError, match="violates 0 < eta < 2/lambda_max"):
        ho_kashyap_mod2(X_SEED, Y_LAB, eta="1/15")
    # default eta = 1/trace(Y^tY) = 1/36
    assert ho_kashyap_mod2(X_SEED, Y_LAB, k_max=500).params["eta"] == F(1, 36)


def test_mod2_R_checks():
    with pytest.raises(ParameterError, match="R must be symmetric positive definite"):
        ho_kashyap_mod2(X_SEED, Y_LAB, R="1,0,0;0,0,0;0,0,1")
    with pytest.raises(ParameterError, match="not symmetric"):
        ho_kashyap_mod2(X_SEED, Y_LAB, R="1,1,0;0,1,0;0,0,1")
    with pytest.raises(ShapeError, match="R must be 3x3"):
        ho_kashyap_mod2(X_SEED, Y_LAB, R="1,0;0,1")
    # a ragged R is named as such (the message used to say "got 3x3" for rows of lengths 3, 2, 3)
    with pytest.raises(ShapeError, match="got 3 rows of lengths 2, 3"):
        ho_kashyap_mod2(X_SEED, Y_LAB, R=[[1, 0, 0], [0, 1], [0, 0, 1]])
    r = ho_kashyap_mod2(X_SEED, Y_LAB, R="2,1,0;1,2,0;0,0,1", eta="1/100", k_max=2000)
    assert r.extras["verdict"] in ("separable", "undecided")
    # lambda_max(R Y^tY) <= ||R|| lambda_max(Y^tY) < 3 * 31: eta = 1/100 < 2/93 (hand bound)
    assert r.extras["eta_below_2_over_lambda_max_RYtY"] is True
    # R = 10 I: lambda_max(R Y^tY) = 10 lambda_max(Y^tY) > 300, so eta = 1/20 (fine for Y^tY) is too big for R Y^tY
    r10 = ho_kashyap_mod2(X_SEED, Y_LAB, R="10,0,0;0,10,0;0,0,10", eta="1/20", k_max=3)
    assert r10.extras["eta_below_2_over_lambda_max_RYtY"] is False


def test_mod2_all_zero_samples():
    # bias none, every sample 0: Y^tY = 0, lambda_max = 0, so any eta > 0 meets 0 < eta < 2/lambda_max (the default
    # eta used to raise "Y^tY = 0" instead). e = Y a - b = -b <= 0 and Y^t e = 0: not separable, certified
    r = ho_kashyap_mod2([(0, 0), (0, 0)], [1, -1], bias="none")
    assert r.extras["verdict"] == "not_separable" and r.params["eta"] == 1
    assert r.extras["certificate"]["lambda"] == (F(1, 2), F(1, 2))


def test_bad_inputs():
    with pytest.raises(ParameterError, match="eta must satisfy 0 < value < 1"):
        ho_kashyap(X_SEED, Y_LAB, eta=1)
    with pytest.raises(ParameterError, match="eta must satisfy 0 < value < 1"):
        ho_kashyap(X_SEED, Y_LAB, eta=0)
    with pytest.raises(ParameterError, match="k_max must be >= 1"):
        ho_kashyap(X_SEED, Y_LAB, k_max=0)
    with pytest.raises(ParameterError, match="b0 must be > 0"):
        ho_kashyap(X_SEED, Y_LAB, b0=[1, 1, 0, 1])
    with pytest.raises(ShapeError, match="b0 has 2 entries"):
        ho_kashyap(X_SEED, Y_LAB, b0=[1, 1])
    with pytest.raises(ParameterError, match="eta must be > 0"):
        ho_kashyap_mod2(X_SEED, Y_LAB, eta="-1/2")


def test_undecided_within_k_max():
    # 1-D: omega_1 = {0, 1}, omega_2 = {2, 30}: separable (threshold 3/2) but the MSE a does not separate
    X, y = [(0,), (1,), (2,), (30,)], [1, 1, -1, -1]
    r = ho_kashyap(X, y, eta="1/2", k_max=1)
    assert r.extras["verdict"] == "undecided" and r.reason == "max_steps" and r.updates == 1
    r = ho_kashyap(X, y, eta="1/2", k_max=400)
    assert r.extras["verdict"] == "separable"
    verify_separator(r.problem.Z, r.w)


@given(separable_data(max_n=6, max_d=2, bias="first"))
def test_separable_data_never_not_separable(p):
    r = ho_kashyap(p.X, p.y, k_max=60)
    assert r.extras["verdict"] in ("separable", "undecided")
    if r.extras["verdict"] == "separable":
        verify_separator(r.problem.Z, r.w)


@given(nonseparable_data(max_n=6, max_d=2, bias="first"))
def test_not_separable_verdicts_are_certified(p):
    r = ho_kashyap(p.X, p.y, k_max=40)
    assert r.extras["verdict"] in ("not_separable", "undecided")
    if r.extras["verdict"] == "not_separable":
        verify_gordan(r.problem.Z, r.extras["certificate"]["lambda"])


@pytest.mark.parametrize("f", [ho_kashyap, ho_kashyap_mod1])
def test_max_epochs_is_recorded_when_it_stops_the_run(f):
    # the data of test_alg11_one_b_update_by_hand: one iteration gives a(2) = (2603323, -328286)/6405961 (hand
    # derivation there; Modification I has the same iterates), and max_epochs = 1 stops the run right after it
    r = f([(0,), (1,), (2,), (30,)], [1, 1, -1, -1], eta="1/2", max_epochs=1)
    assert r.reason == "max_epochs" and r.updates == 1
    assert r.w == (F(2603323, 6405961), F(-328286, 6405961))
    assert r.params["max_epochs"] == 1


def test_max_epochs_recorded_by_every_variant():
    r = ho_kashyap_mod2([(0,), (1,), (2,), (30,)], [1, 1, -1, -1], max_epochs=1)
    assert r.params["max_epochs"] == 1
    assert ho_kashyap([(1, 2), (2, 0), (3, 1), (2, 3)], [1, 1, -1, -1], max_epochs=7).params["max_epochs"] == 7
