"""scikit-learn checked against exactlin's exact answers: an example test suite.

Run it with the plugin (it provides the ``exact_reference`` and ``assert_exact`` fixtures)::

    pytest -p exactlin.testing.pytest_plugin examples/testing/test_sklearn_against_exactlin.py

Every test passes.  The discrepancies scikit-learn really has are documented, not skipped: each one is a
``pytest.raises(ExactMismatch)`` block that asserts the numbers of the report (the exact values by hand in the
comments; the float values as measured with scikit-learn 1.9, with ranges for other versions).
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction as F

import numpy as np
import pytest

from exactlin.testing import ExactMismatch, compare_with_exact

pytest.importorskip("sklearn")

from sklearn.discriminant_analysis import LinearDiscriminantAnalysis  # noqa: E402
from sklearn.linear_model import Perceptron  # noqa: E402
from sklearn.svm import SVC  # noqa: E402

# ---------------------------------------------------------------------------
# SVC: scikit-learn issue 18606

ISSUE_18606_X = [[1.5, 2.5], [2.5, 1.5], [2.5, 2.5]]
ISSUE_18606_y = [1, 1, -1]


def test_svc_large_C_is_off_in_the_4th_digit(exact_reference, assert_exact):
    """Positives (1.5, 2.5), (2.5, 1.5), negative (2.5, 2.5).  By hand: by symmetry w = (-a, -a); the
    constraints -4a + b >= 1 (positives) and -5a + b <= -1 give a >= 2, so the optimum is w = (-2, -2), b = 9,
    all three points support vectors.  SVC(kernel='linear', C=1e6) stops on its dual tolerance 1e-3 with
    w = (-1.99902, -1.99902), b = 8.99577: the classes and the support set agree, the numbers do not."""
    run = exact_reference("svm-hard", ISSUE_18606_X, ISSUE_18606_y)
    assert run.extras["w"] == (F(-2), F(-2)) and run.extras["b"] == F(9)
    clf = SVC(kernel="linear", C=1e6).fit(np.array(ISSUE_18606_X), np.array(ISSUE_18606_y))
    with pytest.raises(ExactMismatch) as e:
        assert_exact(clf, run, X=ISSUE_18606_X, rtol=1e-6)
    rep = e.value.report
    assert [v.exact for v in rep.coef] == [F(-2), F(-2)] and rep.intercept.exact == F(9)
    for v in rep.coef:  # measured: -1.9990234375, so |error| = 2^-10 = 0.0009765625
        assert not v.ok and F(1, 10**4) < v.abs_error < F(1, 10**2)
        assert v.abs_error == abs(F(float(v.actual)) + 2)  # the float's binary value, exactly
    assert not rep.intercept.ok and F(1, 10**3) < rep.intercept.abs_error < F(1, 10**2)  # measured 0.00423
    assert rep.decisions == () and rep.support_missing == () and rep.support_extra == ()
    # the same SVC with a tight tolerance agrees to 1e-6: the discrepancy is the stopping rule, not the model
    tight = SVC(kernel="linear", C=1e6, tol=1e-12).fit(np.array(ISSUE_18606_X), np.array(ISSUE_18606_y))
    assert assert_exact(tight, run, X=ISSUE_18606_X, rtol=1e-6).ok


# ---------------------------------------------------------------------------
# Perceptron: the default stopping rule ends with training errors on separable data


def _separable_decimals(seed: int, n: int = 400, d: int = 5):
    """n points with 2-decimal coordinates, labelled by a random hyperplane (separable by construction)."""
    rng = np.random.default_rng(seed)
    w, b = rng.normal(size=d), rng.normal()
    X = np.round(rng.normal(size=(n, d)), 2)
    return X, np.where(X @ w + b > 0, 1, -1)


def test_perceptron_defaults_stop_with_training_errors(exact_reference, assert_exact):
    """The exact perceptron (cyclic, bias first) converges on separable data, as the convergence theorem
    says: its decisions are the labels.  Perceptron() with its defaults (tol=1e-3, n_iter_no_change=5)
    stops before: measured, 7 of 400 training points on the wrong side for seed 0, and errors on each of
    seeds 0-3.  The report lists each such sample with both decision values."""
    failing = 0
    for seed in range(4):
        X, y = _separable_decimals(seed)
        run = exact_reference("perceptron", X, y, bias="first", monitor=False, trace=False, max_epochs=5000)
        assert run.converged
        clf = Perceptron(random_state=0).fit(X, y)
        try:
            assert_exact(clf, run, X=X, scale_invariant=True, check=("decisions",))
        except ExactMismatch as e:
            failing += 1
            rep = e.report
            wrong = set(np.flatnonzero(clf.predict(X) != y).tolist())  # the float model's training errors
            assert {d.index for d in rep.decisions} == wrong
            for d in rep.decisions:  # the exact class is the label, the float one is not
                assert d.exact_class == y[d.index] and d.float_class == -y[d.index]
                assert (d.exact > 0) == (y[d.index] > 0)
            if seed == 0:
                assert 1 <= len(rep.decisions) <= 40  # measured: 7
    assert failing >= 3  # measured: 4 of 4


def test_perceptron_cyclic_fixed_increment_is_exact_on_integers(exact_reference, assert_exact):
    """Seed 000's Example 1 (through the origin): by hand the perceptron makes 3 mistakes and ends at
    w = (1, -3).  scikit-learn's Perceptron with the lecture's rule (shuffle=False, eta0=1, alpha=0, tol=None)
    computes in float on integers, exactly: the results are identical (rtol = atol = 0)."""
    X, y = [(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1]
    run = exact_reference("perceptron", X, y)
    assert run.w == (F(1), F(-3))
    clf = Perceptron(fit_intercept=False, shuffle=False, tol=None, eta0=1, alpha=0.0, max_iter=20)
    clf.fit(np.array(X), np.array(y))
    assert assert_exact(clf, run, X=X, rtol=0, atol=0).ok


def test_float_perceptron_point_on_the_boundary_is_reported_as_such(exact_reference, assert_exact):
    """x1 = (0, 0.2) (-1), x2 = (-0.9, -0.7) (+1), x3 = (0.9, -0.9) (-1), bias first, w = 0.  By hand, after
    two updates w = (0, -9/10, -9/10) and x3 lies exactly ON that boundary: g(x3) = -81/100 + 81/100 = 0.
    Float Perceptron (the same rule) computes -0.2 - 0.7 = -0.8999999999999999, so g(x3) = -1e-16: it calls
    x3 correct and stops.  Against the exact run stopped after the same two updates the coefficients agree to
    rounding and x3 is reported ON THE BOUNDARY, not as a float error."""
    X, y = [[0, 0.2], [-0.9, -0.7], [0.9, -0.9]], [-1, 1, -1]
    run = exact_reference("perceptron", X, y, bias="first", max_updates=2)
    assert run.w == (F(0), F(-9, 10), F(-9, 10))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = Perceptron(shuffle=False, tol=None, eta0=1, alpha=0.0, max_iter=5).fit(np.array(X), np.array(y))
    rep = assert_exact(clf, run, X=X)
    assert [d.index for d in rep.boundary] == [2] and rep.boundary[0].exact == 0
    assert rep.boundary[0].actual != 0 and abs(rep.boundary[0].actual) < 1e-15  # measured -9.8e-17
    # the exact rule counts x3 as a mistake and goes on to converge at w = (-1, -9/5, 0): float stopped early
    full = exact_reference("perceptron", X, y, bias="first")
    assert full.w == (F(-1), F(-9, 5), F(0)) and full.converged
    with pytest.raises(ExactMismatch) as e:
        assert_exact(clf, full, X=X)
    assert e.value.report.intercept.exact == -1 and e.value.report.intercept.abs_error == 1


# ---------------------------------------------------------------------------
# LDA against Fisher's discriminant: the same direction, another intercept

FISHER_X = [[1, 2], [2, 0], [3, 1], [2, 3], [0, 0], [1, 5], [4, 4], [3, 3], [0, 1]]
FISHER_y = [1, 1, -1, -1, 1, -1, 1, 1, 1]


def test_lda_direction_is_fishers_w_but_its_intercept_has_the_priors(exact_reference, assert_exact):
    """LinearDiscriminantAnalysis's coef_ is Sigma^-1 (m_1 - m_2) with the pooled covariance
    Sigma = S_W / (n - 2): Fisher's w up to the positive factor n - 2, so the directions agree (scale_invariant).
    Its intercept adds ln(P_1 / P_2) with the class frequencies as priors (6 and 3 samples here), where
    Fisher's threshold y0^(1) is the midpoint of the projected means: after dividing by coef[1] the intercepts
    differ by exactly ln(6/3) / coef_[0][1] (computed below from LDA's own coef_)."""
    run = exact_reference("fisher", FISHER_X, FISHER_y)
    Xf = np.array(FISHER_X, dtype=float)
    lda = LinearDiscriminantAnalysis().fit(Xf, np.array(FISHER_y))
    assert assert_exact(lda, run, scale_invariant=True, check=("coef",), rtol=1e-12).ok
    with pytest.raises(ExactMismatch) as e:
        assert_exact(lda, run, X=FISHER_X, scale_invariant=True, check=("coef", "intercept"))
    rep = e.value.report
    assert rep.normalized_by == "coef[1]" and all(v.ok for v in rep.coef) and not rep.intercept.ok
    expected_gap = abs(math.log(6 / 3) / lda.coef_[0][1])
    assert float(rep.intercept.abs_error) == pytest.approx(expected_gap, rel=1e-9)
    # and LDA decides two training samples differently from Fisher's midpoint rule
    rep2 = compare_with_exact(lda, run, X=FISHER_X, scale_invariant=True, check=("decisions",))
    assert len(rep2.decisions) >= 1 and all(d.exact_class == -1 and d.float_class == 1 for d in rep2.decisions)
