"""exactlin.testing: assert_matches_exact and its report, correctly rounded decimals, the strategies with known
exact answers, the pytest plugin and the example suite (run in a subprocess).

Expected values are derived by hand in the comments or computed independently in the test (plain Fractions,
the decimal module), never taken from the code under test."""

from __future__ import annotations

import decimal
import os
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import given

from exactlin.algorithms.fisher import fisher
from exactlin.algorithms.mse import mse
from exactlin.algorithms.perceptron import perceptron
from exactlin.algorithms.svm import svm_hard
from exactlin.errors import ExactlinError, ParameterError
from exactlin.strategies import check_svm_kkt, fisher_data, mse_data, svm_data
from exactlin.testing import (
    ExactMismatch,
    MatchReport,
    assert_matches_exact,
    compare_with_exact,
    decimal_str,
    exact_decisions,
)

ROOT = Path(__file__).resolve().parents[2]

# issue 18606's three points; exact hard-margin answer by hand (see tests/integrations/test_float_gallery.py):
# w = (-2, -2), b = 9, g = 1, 1, -1 on the three points, all support vectors
SVM_X = [[1.5, 2.5], [2.5, 1.5], [2.5, 2.5]]
SVM_y = [1, 1, -1]


@pytest.fixture(scope="module")
def svm_run():
    run = svm_hard(SVM_X, SVM_y)
    assert run.extras["w"] == (F(-2), F(-2)) and run.extras["b"] == F(9)
    return run


@pytest.fixture(scope="module")
def ex1_run():
    # seed 000, Example 1 through the origin: w = (1, -3) after 3 mistakes (the lecture's trace)
    run = perceptron([(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1])
    assert run.w == (F(1), F(-3))
    return run


# ---------------------------------------------------------------------------
# correctly rounded decimals


def test_decimal_str_small_cases():
    assert decimal_str(F(1, 3), 5) == "0.33333"
    assert decimal_str(F(2, 3), 5) == "0.66667"
    assert decimal_str(F(-2, 3), 5) == "-0.66667"
    assert decimal_str(F(1, 8), 2) == "0.12"  # tie 0.125 -> even
    assert decimal_str(F(3, 8), 2) == "0.38"  # tie 0.375 -> even
    assert decimal_str(F(5, 2), 1) == "2" and decimal_str(F(7, 2), 1) == "4"  # ties to even
    assert decimal_str(F(99999, 100000), 3) == "1.00"  # rounds up to the next power of ten (inexact: zeros kept)
    assert decimal_str(F(9999, 1000), 3) == "10.0"
    assert decimal_str(F(1, 2), 17) == "0.5" and decimal_str(F(-9), 17) == "-9"  # exact: no trailing zeros
    assert decimal_str(F(10**40, 3), 3) == "3.33e+39"
    assert decimal_str(F(1, 3 * 10**10), 3) == "3.33e-11"
    assert decimal_str(F(1, 1000), 2) == "0.001"
    assert decimal_str(0.1, 20) == "0.10000000000000000555"  # the float's binary value 3602879701896397/2^55
    with pytest.raises(ParameterError, match="digits"):
        decimal_str(F(1, 3), 0)


def _reference(q: F, digits: int) -> decimal.Decimal:
    """Independent reference: the decimal module's division is correctly rounded to the context precision."""
    ctx = decimal.Context(prec=digits, rounding=decimal.ROUND_HALF_EVEN, Emax=10**6, Emin=-(10**6))
    return ctx.divide(decimal.Decimal(q.numerator), decimal.Decimal(q.denominator))


@pytest.mark.parametrize("digits", [1, 5, 17, 60, 399, 420])
def test_decimal_str_400_digit_rationals(digits):
    big = 10**399 + 123456789 * 10**200 + 7  # 400 digits
    cases = [F(big, 7), F(-big, 3 * 10**405), F(7, big), F(2 * big + 1, 2), F(big * 10 + 5, 10)]
    for q in cases:
        got = decimal_str(q, digits)
        assert decimal.Decimal(got) == _reference(q, digits), (q, digits)
        mantissa = got.lstrip("-").split("e")[0].replace(".", "").lstrip("0")
        exact = q == F(decimal.Decimal(got))
        assert len(mantissa) == digits or exact  # inexact: exactly `digits` significant digits shown


# ---------------------------------------------------------------------------
# assert_matches_exact


def test_passes_on_an_exact_match_and_returns_the_report(svm_run):
    rep = assert_matches_exact({"coef": [-2.0, -2.0], "intercept": 9.0, "support": [2, 0, 1]}, svm_run, X=SVM_X,
                               rtol=0, atol=0)
    assert isinstance(rep, MatchReport) and rep.ok
    assert rep.checked == ("coef", "intercept", "decisions", "support_vectors")
    assert all(v.abs_error == 0 for v in (*rep.coef, rep.intercept))
    assert rep.n_samples == 3 and rep.decisions == () and rep.boundary == ()


def test_passes_against_numpy_least_squares_within_tolerance():
    """Seed 003's MSE example: a = (11/3, -4/3, -2/3) (the notes' printed answer), bias first."""
    np = pytest.importorskip("numpy")
    X, y = [(1, 2), (2, 0), (3, 1), (2, 3)], [1, 1, -1, -1]
    run = mse(X, y)
    assert run.w == (F(11, 3), F(-4, 3), F(-2, 3))
    Y = np.array([[yi, yi * x[0], yi * x[1]] for x, yi in zip(X, y)], dtype=float)
    a = np.linalg.lstsq(Y, np.ones(4), rcond=None)[0]
    rep = assert_matches_exact({"coef": a[1:], "intercept": a[0]}, run, X=X, rtol=1e-12)
    assert rep.ok and rep.max_abs_error() < F(1, 10**12)


def test_planted_discrepancy_report_numbers(svm_run):
    """Float answer w = (-2, -1.5), b = 9.25 against the exact (-2, -2), 9.  By hand: coef[1] is off by 1/2
    (relative 1/4), the intercept by 1/4 (relative 1/36); float decisions on the three points are
    -3 - 3.75 + 9.25 = 2.5, -5 - 2.25 + 9.25 = 2, -5 - 3.75 + 9.25 = 0.5: the third (exact g = -1) is on the
    wrong side.  Support: float says [0, 2, 5]: 1 missing, 5 extra."""
    bad = {"coef": [-2.0, -1.5], "intercept": 9.25, "support": [0, 2, 5]}
    with pytest.raises(ExactMismatch) as e:
        assert_matches_exact(bad, svm_run, X=SVM_X)
    err = e.value
    assert isinstance(err, AssertionError) and isinstance(err, ExactlinError)
    rep = err.report
    assert not rep.ok
    c0, c1 = rep.coef
    assert c0.ok and c0.abs_error == 0
    assert not c1.ok and c1.exact == -2 and c1.actual == -1.5 and c1.abs_error == F(1, 2) and c1.rel_error == F(1, 4)
    assert not rep.intercept.ok and rep.intercept.abs_error == F(1, 4) and rep.intercept.rel_error == F(1, 36)
    assert [d.index for d in rep.decisions] == [2]
    d = rep.decisions[0]
    assert d.exact == -1 and d.actual == pytest.approx(0.5) and (d.exact_class, d.float_class) == (-1, 1)
    assert rep.support_missing == (1,) and rep.support_extra == (5,)
    text = str(err)
    assert "coef[1]: exact -2 (= -2), float -1.5, abs error 0.5, rel error 0.25  <-- MISMATCH" in text
    assert "intercept: exact 9 (= 9), float 9.25, abs error 0.25, rel error 0.0277778  <-- MISMATCH" in text
    assert "sample 2: exact class -1 (g = -1 = -1), float class +1 (g = 0.5)" in text
    assert "missing [1]" in text and "extra [5]" in text
    d = rep.to_dict()
    assert d["ok"] is False and d["coef"][1]["abs_error"] == "1/2" and d["intercept"]["rel_error"] == "1/36"


def test_errors_are_exact_rationals_of_the_float_binary_value(svm_run):
    """0.1 is 3602879701896397 / 2^55, so |0.1 - 1/10| = 2 / (10 * 2^55) = 1 / 180143985094819840 exactly."""
    run = fisher([(1,), (3,), (-1,), (-3,)], [1, 1, -1, -1])  # w = (1,), y0 = 0 (the function's doctest)
    rep = compare_with_exact({"coef": [0.1], "intercept": 0.0}, run, scale_invariant=False)
    assert rep.coef[0].exact == 1
    rep = compare_with_exact({"coef": [1.0], "intercept": 0.1}, run)
    assert rep.intercept.exact == 0 and rep.intercept.rel_error is None
    assert rep.intercept.abs_error == F(1, 10) + F(1, 180143985094819840)
    one_tenth = perceptron([(1,), (-1,)], [1, -1], eta="1/10")  # one update of eta x: w = (1/10,)
    assert one_tenth.w == (F(1, 10),)
    rep = assert_matches_exact([0.1], one_tenth, check=("coef",))
    assert rep.coef[0].abs_error == F(1, 180143985094819840)
    assert rep.coef[0].abs_error_decimal(3) == "5.55e-18"


def test_boundary_decision_is_reported_as_such_not_as_an_error(ex1_run):
    """w = (1, -3): g(3, 1) = 3 - 3 = 0 exactly (on the boundary), g(1, 1) = -2, g(4, 0) = 4.  The float
    w = (1, -3.0000000001) gives g(3, 1) = 3 - 3.0000000001 = -1e-10 (class -1): reported on the boundary, not
    a mismatch."""
    X = [(4, 0), (3, 1), (1, 1)]
    assert exact_decisions(ex1_run, X) == (F(4), F(0), F(-2))
    rep = assert_matches_exact({"coef": [1.0, -3.0000000001]}, ex1_run, X=X, rtol=1e-9)
    assert rep.ok and rep.decisions == ()
    assert [b.index for b in rep.boundary] == [1]
    b = rep.boundary[0]
    assert b.on_boundary and b.exact == 0 and b.exact_class == 0 and b.float_class == -1
    assert b.actual == pytest.approx(-1e-10, rel=1e-6)
    assert "ON THE BOUNDARY (exact decision exactly 0" in rep.text()
    # float decisions given directly: sample 2 on the other side is a mismatch, the boundary one is not
    with pytest.raises(ExactMismatch) as e:
        assert_matches_exact({"decisions": [4.0, 1e-300, 0.5]}, ex1_run, X=X)
    assert [d.index for d in e.value.report.decisions] == [2] and len(e.value.report.boundary) == 1


def test_scale_invariant(ex1_run):
    """Exact w = (1, -3).  (2, -6) is the same direction: raw comparison fails (errors 1 and 3), the
    scale-invariant one passes; (-1, 3) is the opposite direction and fails either way."""
    with pytest.raises(ExactMismatch) as e:
        assert_matches_exact([2.0, -6.0], ex1_run)
    assert [v.abs_error for v in e.value.report.coef] == [F(1), F(3)]
    rep = assert_matches_exact([2.0, -6.0], ex1_run, scale_invariant=True, rtol=0, atol=0)
    assert rep.normalized_by == "coef[1]"  # the largest exact feature weight, |-3|
    assert [v.exact for v in rep.coef] == [F(-1, 3), F(1)]
    rep = assert_matches_exact([2.0, -6.0], ex1_run, scale_invariant=True, normalize_by=0, rtol=0, atol=0)
    assert rep.normalized_by == "coef[0]" and [v.exact for v in rep.coef] == [F(1), F(-3)]
    with pytest.raises(ExactMismatch) as e:
        assert_matches_exact([-1.0, 3.0], ex1_run, scale_invariant=True)
    assert e.value.report.direction_ok is False and "OTHER way" in str(e.value)
    # angle mode: sin^2 of the angle, exactly.  (1, -3) vs (2, -6): 0.  (1, -3) vs (1, 0): cos^2 = 1/10, so
    # sin^2 = 9/10 (by hand: (1*1)^2 / (10 * 1))
    assert assert_matches_exact([2.0, -6.0], ex1_run, scale_invariant="angle").sin2_angle == 0
    with pytest.raises(ExactMismatch) as e:
        assert_matches_exact([1.0, 0.0], ex1_run, scale_invariant="angle")
    assert e.value.report.sin2_angle == F(9, 10)
    with pytest.raises(ExactMismatch):
        assert_matches_exact([-2.0, 6.0], ex1_run, scale_invariant="angle")
    # a perceptron with eta = 1/2 has w scaled by 1/2: the same direction
    half = perceptron([(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1], eta="1/2")
    assert half.w == (F(1, 2), F(-3, 2))
    assert assert_matches_exact(half.w, ex1_run, scale_invariant=True, rtol=0, atol=0).ok
    with pytest.raises(ParameterError, match="normalize_by"):
        assert_matches_exact([2.0, -6.0], ex1_run, scale_invariant=True, normalize_by=2)  # intercept 0: no scale


def test_estimator_duck_typing(svm_run):
    """Anything with coef_, intercept_, support_ and decision_function is read like a scikit-learn model."""
    np = pytest.importorskip("numpy")

    class Fake:
        coef_ = np.array([[-2.0, -2.0]])
        intercept_ = np.array([9.0])
        support_ = np.array([0, 1, 2], dtype=np.int32)

        def decision_function(self, X):
            return np.asarray(X) @ self.coef_[0] + self.intercept_[0]

    rep = assert_matches_exact(Fake(), svm_run, X=SVM_X, rtol=0, atol=0)
    assert rep.ok and rep.checked == ("coef", "intercept", "decisions", "support_vectors")


def test_bad_arguments_are_parameter_errors(svm_run, ex1_run):
    with pytest.raises(ParameterError, match="unknown check"):
        assert_matches_exact([1.0, -3.0], ex1_run, check=("coefs",))
    with pytest.raises(ParameterError, match="support_vectors.*no support vectors"):
        assert_matches_exact([1.0, -3.0], ex1_run, check=("coef", "support_vectors"))
    with pytest.raises(ParameterError, match="decisions.*no X"):
        assert_matches_exact([1.0, -3.0], ex1_run, check=("decisions",))
    with pytest.raises(ParameterError, match="3 coefficients"):
        assert_matches_exact([1.0, -3.0, 0.0], ex1_run)
    with pytest.raises(ParameterError, match="scale_invariant"):
        assert_matches_exact([1.0, -3.0], ex1_run, scale_invariant="yes")
    with pytest.raises(ParameterError, match="rtol"):
        assert_matches_exact([1.0, -3.0], ex1_run, rtol=-1)
    with pytest.raises(ParameterError, match="unknown key"):
        assert_matches_exact({"w": [1.0, -3.0]}, ex1_run)
    xor = svm_hard([(0, 0), (1, 1), (0, 1), (1, 0)], [1, 1, -1, -1])
    assert xor.w is None
    with pytest.raises(ParameterError, match="no weight vector"):
        assert_matches_exact([0.0, 0.0], xor)
    with pytest.raises(ParameterError, match="not a finite number"):
        assert_matches_exact([float("nan"), -3.0], ex1_run)


def test_fisher_irrational_threshold_is_refused_not_rounded():
    run = fisher([(1,), (3,), (-1,), (-3,), (5,)], [1, 1, -1, -1, 1], priors="1/3,2/3")
    assert not isinstance(run.extras["y0"], F)  # y0^(3) with ln(P1/P2): irrational
    with pytest.raises(ParameterError, match="irrational"):
        exact_decisions(run, [(1,)])
    rep = compare_with_exact({"coef": [1.0], "intercept": 0.0}, run)  # intercept skipped (said so), coef compared
    assert rep.checked == ("coef",) and any("irrational" in why for _, why in rep.skipped)


# ---------------------------------------------------------------------------
# strategies with known exact answers


@given(mse_data())
def test_mse_reproduces_the_planted_answer(p):
    run = mse(p.X, p.y, bias=p.bias, b=p.b)
    assert run.w == p.a
    assert run.extras["J_s"] == p.J_s == sum((v * v for v in p.r), F(0))
    assert tuple(run.extras["e"]) == p.e


@given(mse_data(overdetermined=True))
def test_mse_overdetermined_has_a_nonzero_residual(p):
    assert p.J_s > 0 and len(p.X) > len(p.a)
    run = mse(p.X, p.y, bias=p.bias, b=p.b)
    assert run.w == p.a and run.extras["J_s"] == p.J_s


@given(fisher_data())
def test_fisher_reproduces_the_planted_direction(p):
    run = fisher(p.X, p.y)
    assert run.w == p.w
    assert run.extras["m1"] == p.m1 and run.extras["m2"] == p.m2 and run.extras["S_W"] == p.S_W
    assert run.extras["J"] == p.J and run.extras["y0"] == p.y0
    # g(m_1) = w.m_1 - (w.m_1 + w.m_2)/2 = w.(m_1 - m_2)/2 = J/2, and g(m_2) = -J/2 (by hand)
    assert exact_decisions(run, [p.m1, p.m2]) == (p.J / 2, -p.J / 2)


@given(svm_data())
def test_svm_reproduces_the_planted_optimum(p):
    check_svm_kkt(p.X, p.y, p.w, p.b, p.alpha)  # the construction's certificate, checked again here
    run = svm_hard(p.X, p.y)
    assert run.extras["w"] == p.w and run.extras["b"] == p.b
    assert run.extras["margin_squared"] == p.margin_squared
    check_svm_kkt(p.X, p.y, run.extras["w"], run.extras["b"], run.extras["alpha"])  # exactlin's alpha too
    assert set(run.extras["support_vectors"]) <= {i for i, (x, t) in enumerate(zip(p.X, p.y))
                                                  if t * (sum(a * b for a, b in zip(p.w, x)) + p.b) == 1}


def test_check_svm_kkt_rejects_a_non_optimum():
    """(0,) labelled -1 and (2,) labelled +1: optimum w = 1, b = -1, alpha = (1/2, 1/2) (by hand)."""
    X, y = [(F(0),), (F(2),)], [-1, 1]
    check_svm_kkt(X, y, (F(1),), F(-1), (F(1, 2), F(1, 2)))
    with pytest.raises(AssertionError, match="sum alpha y x"):
        check_svm_kkt(X, y, (F(1),), F(-1), (F(1), F(1)))  # sum alpha y x = 2 != w
    with pytest.raises(AssertionError, match="< 1"):
        check_svm_kkt(X, y, (F(1, 2),), F(-1, 2), (F(1, 8), F(1, 8)))


# ---------------------------------------------------------------------------
# the pytest plugin and the example suite, in subprocesses


def _pytest(args, cwd) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=900)


def test_example_suite_runs_and_documents_the_sklearn_discrepancies():
    pytest.importorskip("sklearn")
    r = _pytest(["-p", "exactlin.testing.pytest_plugin", "-rA",  # the project's addopts already say -q
                 "examples/testing/test_sklearn_against_exactlin.py"], ROOT)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    expected = ["test_svc_large_C_is_off_in_the_4th_digit", "test_perceptron_defaults_stop_with_training_errors",
                "test_perceptron_cyclic_fixed_increment_is_exact_on_integers",
                "test_float_perceptron_point_on_the_boundary_is_reported_as_such",
                "test_lda_direction_is_fishers_w_but_its_intercept_has_the_priors"]
    for name in expected:
        assert f"PASSED examples/testing/test_sklearn_against_exactlin.py::{name}" in r.stdout, name
    assert f"{len(expected)} passed" in r.stdout and "failed" not in r.stdout and "skipped" not in r.stdout
    assert "exactlin: 9 exact reference run(s) computed" in r.stdout


def test_plugin_fixtures_cache_and_failure_report(tmp_path):
    (tmp_path / "test_demo.py").write_text('''
from fractions import Fraction

def test_reference_cached(exact_reference):
    a = exact_reference("svm-hard", [[0, 0], [2, 0]], [-1, 1])
    b = exact_reference("svm-hard", [[0, 0], [2, 0]], [-1, 1])
    assert a is b and a.extras["w"] == (Fraction(1), Fraction(0)) and a.extras["b"] == -1

def test_planted_failure(exact_reference, assert_exact):
    run = exact_reference("svm-hard", [[0, 0], [2, 0]], [-1, 1])
    assert_exact({"coef": [1.0, 0.0], "intercept": -0.75}, run)
''')
    r = _pytest(["-p", "exactlin.testing.pytest_plugin", "-q", "--rootdir", str(tmp_path), "test_demo.py"],
                tmp_path)
    assert r.returncode == 1, r.stdout[-3000:] + r.stderr[-2000:]
    assert "1 failed, 1 passed" in r.stdout
    # by hand: exact intercept -1, float -0.75: abs error 1/4, relative 1/4
    assert "exactlin report" in r.stdout
    assert "intercept: exact -1 (= -1), float -0.75, abs error 0.25, rel error 0.25  <-- MISMATCH" in r.stdout
    assert "ExactMismatch" in r.stdout
    assert "exactlin: 1 exact reference run(s) computed, 2 reused from the cache" in r.stdout
