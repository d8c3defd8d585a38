"""The float gallery: real cases where a float library goes wrong and exactlin does not.

Each test asserts the exact answer (derived by hand in the comments) and the float discrepancy as measured
with the scikit-learn / numpy installed here (scikit-learn 1.9, numpy 2.x when these were measured; the
ranges allow for small changes between versions, the exact values allow none).
"""

from __future__ import annotations

import warnings
from fractions import Fraction as F

import numpy as np
import pytest

from exactlin.algorithms import REGISTRY, load_all
from exactlin.algorithms.perceptron import perceptron
from exactlin.compare import compare

load_all()
sklearn = pytest.importorskip("sklearn")  # the gallery needs the float library it measures


# ---------------------------------------------------------------------------
# (a) scikit-learn's Perceptron with its defaults stops with training errors on separable data


def _separable_decimals(seed: int, n: int = 400, d: int = 5):
    """n points with 2-decimal coordinates, labelled by a random hyperplane (w*, b*)."""
    rng = np.random.default_rng(seed)
    w, b = rng.normal(size=d), rng.normal()
    X = np.round(rng.normal(size=(n, d)), 2)
    return X, np.where(X @ w + b > 0, 1, -1), w, b


def _exactly_separated(X, y, w, b) -> bool:
    """Exact certificate that the data are separable: the generating (w*, b*), read as the exact binary
    rationals they are, puts every sample strictly on its label's side (X as the decimals they print as)."""
    wq, bq = [F(float(v)) for v in w], F(float(b))
    for x, lab in zip(X.tolist(), y.tolist()):
        g = sum((wi * F(repr(xi)) for wi, xi in zip(wq, x)), bq)
        if lab * g <= 0:
            return False
    return True


def test_a_sklearn_perceptron_defaults_stop_with_errors_exact_converges():
    """The issue's setting: 400 points in 5 dimensions (2-decimal coordinates), 20 seeds, separable by
    construction (certified exactly below).  Measured: scikit-learn's Perceptron() with its defaults ends with
    training errors on 19 of 20 seeds (its tol=1e-3 / n_iter_no_change=5 stop fires before convergence);
    exactlin's perceptron (seed 000's rule, bias first, cyclic) converges on all 20 with 0 training errors
    (measured: 10 to 462 epochs, 148 to 2798 updates), as the convergence theorem promises."""
    from sklearn.linear_model import Perceptron

    failing = 0
    for seed in range(20):
        X, y, w, b = _separable_decimals(seed)
        assert _exactly_separated(X, y, w, b), seed
        failing += int((Perceptron().fit(X, y).predict(X) != y).sum() > 0)
        run = perceptron(X, y, bias="first", monitor=False, trace=False, max_epochs=5000)
        assert run.converged and run.reason == "converged", seed
        # 0 training errors, checked exactly on the normalized samples z_i (1, x_i) (x_i as the decimals)
        assert all(sum(a * c for a, c in zip(run.w, z)) > 0 for z in run.problem.Z), seed
    assert 16 <= failing <= 20, failing  # measured: 19


# ---------------------------------------------------------------------------
# (b) scikit-learn issue 18606: SVC with a large C on three points


@pytest.mark.skipif("svm-hard" not in REGISTRY, reason="svm-hard is not registered")
def test_b_svc_large_C_issue_18606():
    """Positives (1.5, 2.5), (2.5, 1.5), negative (2.5, 2.5).  By hand: the problem is symmetric in the two
    coordinates, so w = (-a, -a); the constraints read -4a + b >= 1 (both positives) and -5a + b <= -1, so
    a >= 2 and the smallest ||w|| is a = 2, b = 9: w = (-2, -2), b = 9, every point a support vector with
    g = 1, 1, -1 exactly, margin 1/||w|| = 1/(2 sqrt 2).
    Measured: SVC(kernel='linear', C=1e6) gives w = (-1.99902, -1.99902), b = 8.99577 (its stopping
    tolerance 1e-3 on the dual), so g = 0.99967, 0.99967, -0.99935 instead of 1, 1, -1."""
    from sklearn.svm import SVC

    X = [[1.5, 2.5], [2.5, 1.5], [2.5, 2.5]]
    y = [True, True, False]
    rep = compare("svm-hard", X, y, positive=True)
    assert rep["exact"]["coef"] == [F(-2), F(-2)] and rep["exact"]["intercept"] == F(9)
    assert rep["exact"]["support"] == [0, 1, 2]
    run = REGISTRY["svm-hard"].func(X, y, positive=True)
    assert run.extras["margin_squared"] == F(1, 8)
    clf = SVC(kernel="linear", C=1e6).fit(np.array(X), np.array(y))
    assert clf.coef_[0] == pytest.approx([-1.99902, -1.99902], abs=1e-5)
    assert clf.intercept_[0] == pytest.approx(8.99577, abs=1e-5)
    assert abs(clf.coef_[0][0] + 2) > 1e-4  # the float answer is off in the 4th digit
    anchor = rep["anchors"][0]
    assert anchor["max_abs_diff"] == pytest.approx(0.00423, abs=1e-5)
    assert any("final w differs" in d for d in rep["differences"])


# ---------------------------------------------------------------------------
# (c) numpy's pinv / lstsq on an ill-conditioned integer matrix


@pytest.mark.skipif("mse" not in REGISTRY, reason="mse is not registered")
def test_c_pinv_on_ill_conditioned_integers():
    """Samples x1 = (N, N-1) labelled +1 and x2 = (N-1, N-2) labelled -1, N = 10^8, through the origin.
    det [[N, N-1], [N-1, N-2]] = N(N-2) - (N-1)^2 = -1, so the inverse is exact and integral:
    [[-(N-2), N-1], [N-1, -N]].  MSE with b = (1, 1) on the normalized rows (N, N-1), (-(N-1), -(N-2)):
    a1 + a2 = 2 (sum of the equations) and a1 = 3 - 2N, so a = (-199999997, 199999999), and Y a = (1, 1):
    both samples classified with margin 1.
    Measured: the condition number ~ 4e16 puts the small singular value under numpy's cutoff
    (rcond 1e-15), so numpy.linalg.pinv and lstsq, and RidgeClassifier(alpha=0), return a ~ 2.5e-9 (1, 1):
    the second sample is misclassified and w is off by 2e8."""
    from exactlin.linalg import matrices as linalg
    N = 10**8
    X, y = [(N, N - 1), (N - 1, N - 2)], [1, -1]
    assert linalg.pinv([[N, N - 1], [N - 1, N - 2]]) == ((F(-(N - 2)), F(N - 1)), (F(N - 1), F(-N)))
    npinv = np.linalg.pinv(np.array([[N, N - 1], [N - 1, N - 2]], dtype=float))
    assert np.abs(npinv).max() < 1e-8  # measured: ~2.5e-9 everywhere, against exact entries ~1e8
    rep = compare("mse", X, y, bias="none")
    assert rep["exact"]["coef"] == [F(3 - 2 * N), F(2 * N - 1)] and rep["exact"]["training_errors"] == 0
    for anchor in rep["anchors"]:
        assert anchor["decisions_differ"] == [1], anchor["name"]  # 0-based: the second sample
        assert anchor["training_errors"] == 1
        assert anchor["max_abs_diff"] == pytest.approx(2e8, rel=1e-6)


# ---------------------------------------------------------------------------
# (d) the same cyclic perceptron in float declares a boundary point correct


def test_d_float_perceptron_calls_a_boundary_point_correct():
    """x1 = (0, 0.2) label -1, x2 = (-0.9, -0.7) label +1, x3 = (0.9, -0.9) label -1, bias first, w = 0,
    the lecture's rule (mistake iff y<w, x~> <= 0), cyclic order.  By hand:
    round 1: score 0, mistake, w = -(1, 0, 1/5) = (-1, 0, -1/5);
    round 2: <w, (1, -9/10, -7/10)> = -1 + 7/50 = -43/50, mistake, w = (0, -9/10, -9/10);
    round 3: <w, (1, 9/10, -9/10)> = -81/100 + 81/100 = 0: x3 lies ON this boundary, a mistake,
             w = (0, -9/10, -9/10) - (1, 9/10, -9/10) = (-1, -9/5, 0);
    pass 2: scores y<w, x~> = 1, 31/50, 131/50, all > 0: converged, 3 updates.
    In float, -0.2 - 0.7 = -0.8999999999999999, so at round 3 the score is -1.1e-16 and y * score > 0:
    scikit-learn's Perceptron (the same rule: shuffle=False, eta0=1, alpha=0, tol=None) makes no update
    and ends with w = (0, -0.9, -0.8999999999999999), which puts x3 on the boundary up to rounding."""
    from sklearn.linear_model import Perceptron

    X = [[0, 0.2], [-0.9, -0.7], [0.9, -0.9]]
    y = [-1, 1, -1]
    run = perceptron(X, y, bias="first")
    assert run.w == (F(-1), F(-9, 5), F(0)) and run.updates == 3 and run.converged
    assert [s.score for s in run.trace[:3]] == [F(0), F(-43, 50), F(0)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = Perceptron(shuffle=False, tol=None, eta0=1, alpha=0.0, max_iter=5).fit(np.array(X), np.array(y))
    assert clf.intercept_[0] == 0.0 and clf.coef_[0][0] == -0.9 and clf.coef_[0][1] == -0.8999999999999999
    g3 = clf.decision_function(np.array([X[2]]))[0]
    assert g3 != 0 and abs(g3) < 1e-15  # measured: -1.1e-16, the exact value is 0
    rep = compare("perceptron", X, y, bias="first")
    cyclic = rep["anchors"][1]
    assert cyclic["max_abs_diff"] == pytest.approx(1.0)  # intercept 0 vs -1, coef -0.9 vs -9/5 ...
    assert any("final w differs" in d for d in rep["differences"])
