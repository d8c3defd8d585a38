"""Tests of the exact SVMs (exactlin.algorithms.svm).

Expected values are hand-derived (each test says how); hypothesis properties check optimality against
other feasible w (the separability LP's, the perceptron's rescaled) and a float cross-check against
scikit-learn's SVC."""

import json
from fractions import Fraction as F

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactlin.algorithms import get
from exactlin.algorithms.perceptron import perceptron
from exactlin.algorithms.separability import separable
from exactlin.algorithms.svm import (
    decision_function,
    monomial_weights,
    monomials,
    perceptron_bound,
    poly_kernel,
    svm_hard,
    svm_soft,
    svm_soft_l2,
)
from exactlin.errors import LabelError, ParameterError, VerificationError
from exactlin.strategies import nonseparable_data, separable_data
from exactlin.theory.certificates import verify_gordan
from exactlin.theory.kkt import verify_kkt

XOR = ([(0, 0), (1, 1), (1, 0), (0, 1)], [1, 1, -1, -1])


def _norm2(v):
    return sum(F(a) * F(a) for a in v)


def test_registered_specs():
    for name in ("svm-hard", "svm-soft", "svm-soft-l2"):
        spec = get(name)
        assert spec.family == "margin" and spec.bias_default == "first" and spec.iterative is False


def test_two_points_on_a_line():
    # hand: x = 0 (-1), x = 2 (+1): the bisector x = 1, w = 2/(2-0) = 1, b = -1, alpha = (1/2, 1/2)
    r = svm_hard([(0,), (2,)], [-1, 1])
    assert r.extras["w"] == (1,) and r.extras["b"] == -1
    assert r.extras["alpha"] == (F(1, 2), F(1, 2)) and r.extras["support_vectors"] == (0, 1)
    assert r.extras["margin"] == 1 and r.extras["slab_width"] == 2
    assert r.w == (-1, 1) and r.converged and r.reason == "solved"
    assert r.extras["kkt"]["verified"] is True


def test_irrational_margin_sqrt2_over_2():
    # hand: (0,0) -1 and (1,1) +1: w = 2 (p - q)/||p - q||^2 = (1, 1), b = -1, margin 1/sqrt(2) = sqrt(2)/2,
    # alpha = (1, 1) (w = 1 * (1,1), sum alpha y = 0)
    r = svm_hard([(0, 0), (1, 1)], [-1, 1])
    assert r.extras["w"] == (1, 1) and r.extras["b"] == -1
    assert r.extras["alpha"] == (1, 1)
    assert r.extras["margin"] == sympy.sqrt(2) / 2
    assert r.extras["slab_width"] == sympy.sqrt(2)
    assert r.extras["margin_squared"] == F(1, 2)


def test_sklearn_issue_18606_points():
    # scikit-learn issue 18606: (1.5, 2.5) and (2.5, 1.5) True, (2.5, 2.5) False.  By symmetry w = (a, a);
    # all three on the margin: 4a + b = 1 and 5a + b = -1, so a = -2, b = 9; alpha = (2, 2, 4)
    # (w = 2(1.5,2.5) + 2(2.5,1.5) - 4(2.5,2.5) = (-2,-2)); margin 1/||w|| = 1/(2 sqrt 2) = sqrt(2)/4
    r = svm_hard([("1.5", "2.5"), ("2.5", "1.5"), ("2.5", "2.5")], [True, True, False], positive=True)
    assert r.extras["w"] == (-2, -2) and r.extras["b"] == 9
    assert r.extras["alpha"] == (2, 2, 4)
    assert r.extras["margin"] == sympy.sqrt(2) / 4


@pytest.mark.parametrize("bias", ["first", "last"])
def test_bias_layout_and_decision(bias):
    r = svm_hard([(0,), (2,)], [-1, 1], bias=bias)
    assert r.w == ((-1, 1) if bias == "first" else (1, -1))
    assert r.decision((2,)) == 1 and r.decision((0,)) == -1 and r.decision((1,)) == 0


def test_no_intercept_single_class():
    # through the origin, (1,0) and (0,1) both +1: min ||w||^2 s.t. w1 >= 1, w2 >= 1 gives w = (1, 1)
    r = svm_hard([(1, 0), (0, 1)], [1, 1], bias="none")
    assert r.w == (1, 1) and r.extras["b"] == 0
    assert r.extras["margin"] == sympy.sqrt(2) / 2


def test_duplicates_and_more_support_vectors_than_dimensions():
    # hand: x = 0 twice (-1) and x = 2 (+1): w = 1, b = -1; the duplicates share alpha = 1/2 in any split
    r = svm_hard([(0,), (0,), (2,)], [-1, -1, 1])
    a = r.extras["alpha"]
    assert r.extras["w"] == (1,) and r.extras["b"] == -1 and a[0] + a[1] == F(1, 2) and a[2] == F(1, 2)
    # the unit-width box: (0,0), (0,1) -1 and (2,0), (2,1) +1: four points on the margin in 2-D,
    # w = (1, 0), b = -1 (the bisector x1 = 1); alpha is not unique, any valid one is certified
    X, y = [(0, 0), (0, 1), (2, 0), (2, 1)], [-1, -1, 1, 1]
    for exact_only in (False, True):
        r = svm_hard(X, y, exact_only=exact_only)
        assert r.extras["w"] == (1, 0) and r.extras["b"] == -1
        verify_kkt(X, y, r.extras["alpha"], -1, w=(1, 0))


def test_not_separable_gives_certificate():
    r = svm_hard(*XOR)
    assert not r.converged and r.reason == "not_separable" and r.w is None
    cert = r.extras["certificate"]
    assert cert["verified"] and cert["lambda"] == (F(1, 4),) * 4
    verify_gordan(r.problem.Z, cert["lambda"])


def test_bad_input_errors():
    with pytest.raises(LabelError, match="needs samples of both classes; every label is \\+1"):
        svm_hard([(0,), (1,)], [1, 1])
    with pytest.raises(LabelError, match="every label is -1"):
        svm_soft([(0,), (1,)], [-1, -1])
    with pytest.raises(ParameterError, match="C must be > 0, got 0"):
        svm_soft(*XOR, C=0)
    with pytest.raises(ParameterError, match="C must be > 0, got -1"):
        svm_soft_l2(*XOR, C=-1)
    with pytest.raises(ParameterError, match="degree must be >= 1, got 0"):
        svm_hard(*XOR, kernel="poly", degree=0)
    with pytest.raises(ParameterError, match="kernel must be one of"):
        svm_hard(*XOR, kernel="rbf")
    with pytest.raises(ParameterError, match="no parameter 'C'"):
        svm_hard(*XOR, C=1)
    with pytest.raises(ParameterError, match="degree must be >= 1"):
        poly_kernel(0)


def test_soft_hinge_hand_derived():
    # see svm_soft's docstring: alpha = (0, C, C), w = 1/2, b in [-5/4, -1] (midpoint returned)
    X, y = [(0,), (1,), ("1/2",)], [-1, 1, -1]
    r = svm_soft(X, y, C=1)
    assert r.extras["w"] == (F(1, 2),) and r.extras["b"] == F(-9, 8)
    assert r.extras["xi"] == (0, F(13, 8), F(1, 8))
    assert r.extras["objective"] == F(1, 8) + F(13, 8) + F(1, 8)
    # with C >= the hard-margin multipliers the soft margin is the hard margin (x=0, 2: alpha = 1/2)
    r = svm_soft([(0,), (2,)], [-1, 1], C=1)
    assert r.extras["w"] == (1,) and r.extras["b"] == -1 and r.extras["xi"] == (0, 0)


def test_soft_l2_seed004_objective():
    # hand: x = 0 (-1), 2 (+1), C = 1 (seed 004's ||w||^2/2 + sum xi^2): w = 4/5, b = -4/5, xi = 1/5
    r = svm_soft_l2([(0,), (2,)], [-1, 1])
    assert r.extras["w"] == (F(4, 5),) and r.extras["b"] == F(-4, 5)
    assert r.extras["alpha"] == (F(2, 5), F(2, 5))
    assert r.extras["objective"] == F(8, 25) + F(2, 25)
    # C = 2: w^2/2 + 4 (1 - w)^2 is minimal at w = 8/9
    assert svm_soft_l2([(0,), (2,)], [-1, 1], C=2).extras["w"] == (F(8, 9),)
    # non-separable data are fine for the soft margins
    assert svm_soft_l2(*XOR).extras["kkt"]["verified"]
    assert svm_soft(*XOR, C="1/2").extras["kkt"]["verified"]


def test_poly_kernel_xor():
    assert poly_kernel(2, 1)((1, 2), (3, 4)) == 144  # (3 + 8 + 1)^2
    assert monomials((2, 3), 2, 0) == (4, 6, 9)
    r = svm_hard(*XOR, kernel="poly", degree=2)
    assert r.converged and r.w is None and r.extras["kkt"]["verified"]
    for x, yi in zip(*XOR):
        assert yi * decision_function(r, x) >= 1
    # degree 1 with coef0 = 0 is the linear kernel: XOR not separable, certificate on the monomials
    r = svm_hard(*XOR, kernel="poly", degree=1, coef0=0, bias="none")
    assert r.reason == "not_separable" and r.extras["certificate"]["verified"]


@settings(max_examples=40)
@given(st.integers(1, 3).flatmap(lambda d: st.tuples(st.lists(st.integers(-5, 5), min_size=d, max_size=d),
                                                     st.lists(st.integers(-5, 5), min_size=d, max_size=d))),
       st.integers(1, 4), st.sampled_from([F(0), F(1), F(2), F(1, 2)]))
def test_monomial_weights_expand_the_kernel(xz, degree, coef0):
    # the multinomial theorem: (x . z + c)^p = sum_k G_k x^k z^k, so the kernel is a weighted dot product of
    # the monomials (seed 004, "SVM after transformation"); the kernel computed directly, term by term
    x, z = xz
    G = monomial_weights(len(x), degree, coef0)
    mx, mz = monomials(x, degree, coef0), monomials(z, degree, coef0)
    assert len(G) == len(mx) and all(g > 0 for g in G)
    assert sum(g * a * b for g, a, b in zip(G, mx, mz)) == (sum(a * b for a, b in zip(x, z)) + coef0) ** degree


@pytest.mark.parametrize("loss", ["hinge", "squared", "hard"])
def test_poly_kernel_over_its_monomials_matches_the_exact_route(loss):
    # from 31 samples on a polynomial kernel is solved as a linear SVM over its weighted monomials; the pure exact
    # route (Lemke) must reach the same optimum; both rechecked from scratch (KKT and zero duality gap, Fractions)
    from benchmarks.svm_scaling import kernel_data, kkt_check

    X, y = kernel_data("circle", 36)
    f = {"hinge": svm_soft, "squared": svm_soft_l2, "hard": svm_hard}[loss]
    kw = {"kernel": "poly", "degree": 2} | ({} if loss == "hard" else {"C": F(1, 20)})
    a, b = f(X, y, **kw), f(X, y, exact_only=True, **kw)
    if loss == "hard" and a.reason == "not_separable":
        assert b.reason == "not_separable"
        return
    assert "monomials" in a.extras["method"]
    for r in (a, b):
        assert kkt_check(X, y, r, loss, kw.get("C"), (2, F(1))) is None
    assert a.extras["norm2_w"] == b.extras["norm2_w"]  # w in feature space is unique
    if loss != "hard":
        assert a.extras["objective"] == b.extras["objective"]


def test_linear_decision_function_matches_run_decision():
    r = svm_hard([(0, 0), (1, 1), (3, 0)], [-1, 1, 1])
    for z in [(0, 0), (2, 5), (F(1, 3), -1)]:
        assert decision_function(r, z) == r.decision(z)


def test_perceptron_bound_hand_derived():
    # through the origin (1,0), (0,1) both +1: w* = (1,1), R^2 = 1: bound 2
    pb = perceptron_bound([(1, 0), (0, 1)], [1, 1])
    assert pb["bound"] == 2 and pb["w_star"] == (1, 1)
    # bias first, x = 0 (-1), 2 (+1): x~ = (1,0), (1,2); min ||w||^2 s.t. -w0 >= 1, w0 + 2 w1 >= 1 is
    # w* = (-1, 1), ||w*||^2 = 2, R^2 = 5: bound 10; the perceptron's monitor accepts w*
    pb = perceptron_bound([(0,), (2,)], [-1, 1], bias="first")
    assert pb["w_star"] == (-1, 1) and pb["R2"] == 5 and pb["bound"] == 10
    run = perceptron([(0,), (2,)], [-1, 1], bias="first", w_star=pb["w_star"])
    assert run.converged and run.updates <= pb["bound"]
    with pytest.raises(VerificationError, match="not linearly separable through the origin"):
        perceptron_bound([(1, 1), (-1, -1)], [1, 1])


def test_cli_fit_svm_hard_json(tmp_path, capsys):
    from exactlin.cli.app import main

    p = tmp_path / "sk.csv"
    p.write_text("x1,x2,label\n1.5,2.5,yes\n2.5,1.5,yes\n2.5,2.5,no\n")
    assert main(["fit", "svm-hard", str(p), "--positive", "yes", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["w"] == ["9", "-2", "-2"] and d["b"] == "9" and d["kkt"]["verified"] is True
    assert d["margin"]["expr"] == "sqrt(2)/4" and d["margin"]["record"] == "sympy" and d["support_vectors"] == [0, 1, 2]
    assert main(["fit", "svm-soft", str(p), "--positive", "yes", "--param", "C=0"]) == 2
    assert "C must be > 0" in capsys.readouterr().err


# ---------------------------------------------------------------------------
# properties


@settings(max_examples=25)
@given(separable_data(max_n=10, max_d=3, bias="first"))
def test_hard_margin_is_shortest_and_certified(p):
    if len(set(p.y)) < 2:
        return
    r = svm_hard(p.X, p.y)
    assert r.converged and r.extras["kkt"]["verified"]
    n2 = r.extras["norm2_w"]
    # any other feasible (w, b) is at least as long: the LP's ...
    lp = separable(p.X, p.y)
    assert _norm2(lp.extras["w"]) >= n2
    # ... and the perceptron's, rescaled so that min_i y_i (w.x_i + b) = 1
    pr = perceptron(p.X, p.y, bias="first", monitor=False)
    if pr.converged:
        m = min(yi * pr.decision(x) for x, yi in zip(p.X, p.y))
        assert _norm2(pr.w[1:]) / (m * m) >= n2
    verify_kkt(p.X, p.y, r.extras["alpha"], r.extras["b"], w=r.extras["w"])


@settings(max_examples=15)
@given(separable_data(max_n=7, max_d=2, bias="first"), st.sampled_from(["hard", "soft", "l2"]))
def test_exact_fallback_agrees(p, kind):
    if len(set(p.y)) < 2:
        return
    f = {"hard": svm_hard, "soft": svm_soft, "l2": svm_soft_l2}[kind]
    a, b = f(p.X, p.y), f(p.X, p.y, exact_only=True)
    assert a.extras["norm2_w"] == b.extras["norm2_w"] and a.extras["b"] == b.extras["b"] or kind == "soft"
    assert a.extras["kkt"]["verified"] and b.extras["kkt"]["verified"]
    if kind != "soft":  # w and b are unique for these two
        assert a.extras["w"] == b.extras["w"]


@settings(max_examples=15)
@given(nonseparable_data(max_n=7, bias="first"))
def test_nonseparable_hard_margin_certified(p):
    if len(set(p.y)) < 2:
        return
    r = svm_hard(p.X, p.y)
    assert r.reason == "not_separable"
    verify_gordan(r.problem.Z, r.extras["certificate"]["lambda"])


def test_float_cross_check_against_svc():
    import numpy as np
    from sklearn.svm import SVC
    rng = np.random.default_rng(7)
    X = rng.integers(-9, 10, size=(300, 4))
    s = X @ np.array([2, -1, 1, 3]) + 1
    keep = np.abs(s) >= 5
    X, y = X[keep], np.where(s[keep] > 0, 1, -1)
    r = svm_hard(X, y)
    clf = SVC(kernel="linear", C=1e6, tol=1e-8).fit(X.astype(float), y)
    w = np.array([float(v) for v in r.extras["w"]])
    assert np.allclose(clf.coef_[0], w, rtol=1e-3, atol=1e-3)
    assert abs(clf.intercept_[0] - float(r.extras["b"])) < 1e-2
    r2 = svm_soft(X[:80], y[:80], C="1/10")
    clf2 = SVC(kernel="linear", C=0.1, tol=1e-10).fit(X[:80].astype(float), y[:80])
    assert np.allclose(clf2.coef_[0], [float(v) for v in r2.extras["w"]], atol=1e-4)


def test_many_support_vectors_on_a_grid():
    # hand: x1 in {0, 1} are -1 and x1 in {3, 4} are +1, x2 = 0..4: the bisector x1 = 2, w = 2/(3-1) (1, 0)
    # = (1, 0), b = -2; the ten samples with x1 = 1 or 3 are all on the margin (10 > d + 1 = 3), so the
    # multipliers are far from unique: the exact solve on an independent subset plus the exact LP for alpha
    X = [(a, c) for a in (0, 1, 3, 4) for c in range(5)]
    y = [1 if a >= 3 else -1 for a, _ in X]
    for exact_only in (False, True):
        r = svm_hard(X, y, exact_only=exact_only)
        assert r.extras["w"] == (1, 0) and r.extras["b"] == -2
        assert all(X[i][0] in (1, 3) for i in r.extras["support_vectors"])
        assert sum(r.extras["alpha"]) == 1  # sum alpha = ||w||^2 at a hard-margin optimum


def test_without_scikit_learn_the_exact_path_runs(monkeypatch):
    import exactlin.algorithms.svm as svm_mod

    monkeypatch.setattr(svm_mod, "svc_guess", lambda *a, **k: None)
    for g in ("hinge_guess", "squared_guess"):  # (the linear kernel's own float guesses)
        monkeypatch.setattr(svm_mod, g, lambda *a, **k: None)
    r = svm_hard([("1.5", "2.5"), ("2.5", "1.5"), ("2.5", "2.5")], [1, 1, -1])
    assert r.extras["w"] == (-2, -2) and r.extras["b"] == 9 and "exact" in r.extras["method"]
    assert "scikit-learn" not in r.extras["method"] and "float64" not in r.extras["method"]
    r = svm_soft([(0,), (1,), ("1/2",)], [-1, 1, -1], C=1)
    assert r.extras["w"] == (F(1, 2),) and r.extras["kkt"]["verified"]


@settings(max_examples=20)
@given(st.lists(st.tuples(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), st.sampled_from([1, -1])),
                min_size=2, max_size=8), st.sampled_from([F(1, 2), F(1), F(3)]))
def test_soft_margins_on_any_data(rows, C):
    # soft margins exist for any two-class data; the float-guided and the pure exact routes must agree on the
    # (unique) optimal w and objective, and both are KKT-certified
    X, y = [r[0] for r in rows], [r[1] for r in rows]
    if len(set(y)) < 2:
        return
    for f in (svm_soft, svm_soft_l2):
        a, b = f(X, y, C=C), f(X, y, C=C, exact_only=True)
        assert a.extras["kkt"]["verified"] and b.extras["kkt"]["verified"]
        assert a.extras["w"] == b.extras["w"] and a.extras["objective"] == b.extras["objective"]
