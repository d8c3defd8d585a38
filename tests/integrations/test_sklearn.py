"""scikit-learn estimators (exactlin.sklearn): the estimator checks, Pipeline, cross_val_score, exact attributes.

Expected values are hand derivations (comments say which).  Estimators whose algorithm is not registered
are parametrized from the registry's content at collection time, so nothing that exists is skipped.
"""

from __future__ import annotations

import os
import pickle
import warnings
from fractions import Fraction as F

import numpy as np
import pytest
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer
from sklearn.utils.estimator_checks import parametrize_with_checks

from exactlin.algorithms import REGISTRY, load_all
from exactlin.errors import InputTypeError, LabelError, ParameterError, VerificationError
from exactlin.sklearn import (
    ExactClassifier,
    ExactFisher,
    ExactHoKashyap,
    ExactLinearMachine,
    ExactMSE,
    ExactPerceptron,
    ExactSVC,
    expected_failed_checks,
)

load_all()

# seed 000, Example 1
EX1_X = [[4, 0], [1, 1], [0, 1], [-2, -2]]
EX1_Y = [1, -1, -1, 1]

# scikit-learn's checks fit on a few hundred float samples with 17-digit decimals; in exact arithmetic the
# perceptron family stays fast, the linear machine, MSE, Ho-Kashyap and the SVMs take from 20 s to minutes on
# them.  The default run checks the perceptron and Fisher estimators; EXACTLIN_ALL_ESTIMATOR_CHECKS=1 runs
# every estimator whose algorithm is registered (measured: all checks pass for ExactPerceptron, ExactFisher,
# ExactHoKashyap(max_iter=5),
# ExactMSE, ExactLinearMachine and ExactSVC()).
CHECKED = [est for est, name in [(ExactPerceptron(max_iter=5), "perceptron"), (ExactFisher(), "fisher")]
           if name in REGISTRY]
if os.environ.get("EXACTLIN_ALL_ESTIMATOR_CHECKS"):
    CHECKED += [est for est, name in [(ExactMSE(), "mse"), (ExactHoKashyap(max_iter=5), "ho-kashyap"),
                                      (ExactLinearMachine(max_iter=5), "linear-machine"),
                                      (ExactSVC(), "svm-soft"), (ExactSVC(C=None), "svm-hard")] if name in REGISTRY]


@parametrize_with_checks(CHECKED, expected_failed_checks=expected_failed_checks)
def test_sklearn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(estimator)


# ---------------------------------------------------------------------------
# exact attributes, on the lecture's example


def test_perceptron_lecture_variant_through_origin():
    # seed 000 Example 1 through the origin: w = (1, -3) after 3 mistakes (the lecture's rounds 1-4)
    clf = ExactPerceptron(bias="none").fit(EX1_X, EX1_Y)
    assert clf.coef_.dtype == object and clf.coef_.tolist() == [[F(1), F(-3)]]
    assert clf.intercept_.tolist() == [F(0)]
    assert clf.run_.updates == 3 and clf.converged_ and clf.reason_ == "converged"
    assert clf.predict(EX1_X).tolist() == EX1_Y
    # exact decision values: <(1,-3), x> = 4, -2, -3, 4
    assert clf.decision_function_exact(EX1_X).tolist() == [F(4), F(-2), F(-3), F(4)]
    assert clf.decision_function(EX1_X).dtype == np.float64


def test_any_two_labels_positive_is_classes_1():
    y = ["a" if v == -1 else "b" for v in EX1_Y]  # "b" = classes_[1] becomes +1
    clf = ExactPerceptron(bias="none").fit(EX1_X, y)
    assert clf.classes_.tolist() == ["a", "b"]
    assert clf.coef_.tolist() == [[F(1), F(-3)]]
    assert clf.predict(EX1_X).tolist() == y


def test_floats_follow_the_repr_rule():
    # 0.1 is the rational 1/10 (floats="repr"); the lecture's data scaled by 1/10 give w scaled by 1/10
    X = [[0.4, 0.0], [0.1, 0.1], [0.0, 0.1], [-0.2, -0.2]]
    clf = ExactPerceptron(bias="none").fit(X, EX1_Y)
    assert clf.coef_.tolist() == [[F(1, 10), F(-3, 10)]]
    exact = ExactPerceptron(bias="none", floats="exact").fit(X, EX1_Y)
    assert exact.coef_[0, 0] == F(0.4) - F(0.1) - F(0.2)  # the binary values, summed exactly
    with pytest.raises(InputTypeError, match="floats are rejected"):
        ExactPerceptron(floats="reject").fit(X, EX1_Y)


def test_fractions_and_strings_are_taken_exactly():
    X = np.array([[F(4), 0], ["1", "1"], [0, "1/1"], [-2, F(-2)]], dtype=object)
    clf = ExactPerceptron(bias="none").fit(X, EX1_Y)
    assert clf.coef_.tolist() == [[F(1), F(-3)]]


def test_three_classes_for_a_binary_algorithm_names_the_alternative():
    with pytest.raises(LabelError, match="linear-machine.*one-vs-rest"):
        ExactPerceptron().fit([[0, 0], [1, 0], [0, 1]], ["a", "b", "c"])


def test_unregistered_or_foreign_algorithm():
    with pytest.raises(ParameterError, match="'no-such'.*not registered"):
        ExactClassifier(algorithm="no-such").fit(EX1_X, EX1_Y)
    with pytest.raises(ParameterError, match="perceptron-family"):
        ExactPerceptron(algorithm="mse").fit(EX1_X, EX1_Y)


def test_missing_algorithm_is_named():
    # an estimator whose algorithm module is absent (as ExactFisher was before fisher.py existed)
    class ExactFuture(ExactClassifier):
        _family = ("future-algorithm",)

        def __init__(self, algorithm="future-algorithm", *, bias=None, params=None, floats="repr",
                     max_epochs=1000, trace=None):
            super().__init__(algorithm, bias=bias, params=params, floats=floats, max_epochs=max_epochs, trace=trace)

    with pytest.raises(ParameterError, match="ExactFuture needs the algorithm 'future-algorithm'.*not registered"):
        ExactFuture().fit(EX1_X, EX1_Y)


def test_pipeline_and_cross_val_score():
    rng = np.random.default_rng(0)
    X = rng.integers(-5, 6, size=(40, 2))
    y = np.where(2 * X[:, 0] - X[:, 1] + 1 > 0, "pos", "neg")  # separable by construction
    pipe = make_pipeline(FunctionTransformer(lambda A: A * 2), ExactPerceptron())
    scores = cross_val_score(pipe, X, y, cv=4)
    assert scores.shape == (4,) and scores.min() >= 0.75
    pipe.fit(X, y)
    assert (pipe.predict(X) == y).all()  # a separable training set is classified exactly


def test_pickle_keeps_the_run():
    clf = ExactPerceptron().fit(EX1_X, EX1_Y)
    back = pickle.loads(pickle.dumps(clf))
    assert back.run_.w == clf.run_.w and back.coef_.tolist() == clf.coef_.tolist()


def test_max_epochs_hit_is_a_convergence_warning():
    from sklearn.exceptions import ConvergenceWarning

    # seed 000 Example 2 (XOR through the origin) cycles; with a tiny bound it stops on max_epochs
    X, y = [[1, 1], [1, -1], [-1, 1], [-1, -1]], [1, -1, -1, 1]
    assert ExactPerceptron(bias="none").fit(X, y).reason_ == "cycle"
    with pytest.warns(ConvergenceWarning, match="max_epochs"):
        ExactPerceptron(algorithm="pocket" if "pocket" not in REGISTRY else "perceptron", bias="first",
                        max_epochs=1).fit([[0], [1], [2], [3]], [1, -1, 1, -1])


# ---------------------------------------------------------------------------
# the other families, parametrized over what the registry holds

FAMILY_CASES = [
    # (estimator, registry name, data, labels, expected (coef, intercept) by hand)
    # mse: a = Y^+ 1 on the normalized samples of x = 0 (label -1) and x = 2 (label +1) with bias first:
    # rows (-1, 0) and (1, 2); Y a = (1, 1) is solvable: a = (-1, 1), i.e. g(x) = x - 1
    (ExactMSE(), "mse", [[0], [2]], [-1, 1], ([[F(1)]], [F(-1)])),
    # Ho-Kashyap from b = 1 on the same data: its first MSE step a = Y^+ b = (-1, 1) already has Y a = b
    # (error e = 0), so it stops there: g(x) = x - 1
    (ExactHoKashyap(), "ho-kashyap", [[0], [2]], [-1, 1], ([[F(1)]], [F(-1)])),
    # Fisher on x = 2, 4 (+1) and 0, -2 (-1): m_1 = 3, m_2 = -1, S_1 = S_2 = 2, S_W = 4,
    # w = S_W^{-1} (m_1 - m_2) = 1, y0^(1) = (3 + (-1)) / 2 = 1: g(x) = x - 1, intercept -1
    (ExactFisher(), "fisher", [[2], [4], [0], [-2]], [1, 1, -1, -1], ([[F(1)]], [F(-1)])),
    # hard SVM on x = 0 (-1), x = 2 (+1): w = 1, b = -1 (margin 1; the algorithm's own doctest data)
    (ExactSVC(C=None), "svm-hard", [[0], [2]], [-1, 1], ([[F(1)]], [F(-1)])),
    # seed 004's soft margin ||w||^2/2 + C sum xi_i^2 with C = 1 on the same points: by symmetry b = -w and
    # xi_1 = xi_2 = 1 - w, so minimize w^2/2 + 2(1 - w)^2: w - 4(1 - w) = 0, w = 4/5, b = -4/5
    (ExactSVC(C=1, loss="squared"), "svm-soft-l2", [[0], [2]], [-1, 1], ([[F(4, 5)]], [F(-4, 5)])),
]


@pytest.mark.parametrize("est,name,X,y,expected", [c for c in FAMILY_CASES if c[1] in REGISTRY],
                         ids=[c[1] for c in FAMILY_CASES if c[1] in REGISTRY])
def test_family_estimators_exact(est, name, X, y, expected):
    est.fit(X, y)
    assert est.run_.algorithm == name
    assert est.coef_.tolist() == expected[0] and est.intercept_.tolist() == expected[1]
    assert est.predict(X).tolist() == y


def test_svc_issue_18606_exact_and_support():
    # scikit-learn issue 18606: positives (1.5,2.5), (2.5,1.5), negative (2.5,2.5); by hand all three constraints
    # are active and w = (-2,-2), b = 9 (see tests/integrations/test_float_gallery.py)
    clf = ExactSVC(C=None).fit([[1.5, 2.5], [2.5, 1.5], [2.5, 2.5]], [True, True, False])
    assert clf.coef_.tolist() == [[F(-2), F(-2)]] and clf.intercept_.tolist() == [F(9)]
    assert sorted(clf.support_.tolist()) == [0, 1, 2]
    # not separable (the middle point has the other label): the hard margin has no solution, an error
    with pytest.raises(VerificationError, match="not linearly separable"):
        ExactSVC(C=None).fit([[0], [1], [2]], [1, -1, 1])


def test_linear_machine_three_classes():
    # three samples on the axes, one class each: the linear machine separates them; predictions are exact
    X, y = [[1, 0], [0, 1], [-1, -1]], ["A", "B", "C"]
    clf = ExactLinearMachine().fit(X, y)
    assert clf.coef_.shape == (3, 2) and clf.coef_.dtype == object
    assert clf.predict(X).tolist() == y
    assert clf.decision_function(X).shape == (3, 3)


def test_expected_failed_checks_is_documented():
    # only the hard margin has expected failures (the checks' blobs are not separable), each with its reason
    assert expected_failed_checks(ExactPerceptron()) == {} and expected_failed_checks(ExactSVC(C=1)) == {}
    hard = expected_failed_checks(ExactSVC(C=None))
    assert expected_failed_checks(ExactSVC()) == {}  # the default is the soft margin C = 1.0
    assert "check_classifiers_train" in hard and all("not linearly separable" in v for v in hard.values())


def test_plot_draws_the_last_fit():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    clf = ExactPerceptron(bias="none").fit(EX1_X, EX1_Y)
    ax = clf.plot()
    assert "(1, -3)" in ax.get_title()  # the exact final w of seed 000's Example 1
    plt.close(ax.figure)
