"""scikit-learn's idioms on exactlin's estimators (issue 16, item 6): table parameters as constructor arguments
(GridSearchCV, clone, get_params/set_params), max_iter and n_iter_, SVC's support vector attributes and its C = 1.0
default, NotSeparableError with its certificate, Fisher's transform/means_/scalings_, decision_function's sign rule,
LongRationalWarning.  Expected values are hand derivations (comments say how), never the code's own output."""

from __future__ import annotations

import inspect
import math
import pickle
import warnings
from fractions import Fraction as F

import numpy as np
import pytest

pytest.importorskip("sklearn")

from sklearn.base import clone  # noqa: E402
from sklearn.exceptions import ConvergenceWarning  # noqa: E402
from sklearn.model_selection import GridSearchCV  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402

from exactlin.errors import (  # noqa: E402
    LongRationalWarning,
    NotSeparableError,
    ParameterError,
    VerificationError,
)
from exactlin.sklearn import (  # noqa: E402
    ExactClassifier,
    ExactFisher,
    ExactLinearMachine,
    ExactMSE,
    ExactPerceptron,
    ExactSVC,
)

# seed 000, Example 1
EX1_X = [[4, 0], [1, 1], [0, 1], [-2, -2]]
EX1_Y = [1, -1, -1, 1]


# ---------------------------------------------------------------------------------------------------------------
# constructor arguments from the parameter tables


def test_table_parameters_are_constructor_arguments():
    sig = inspect.signature(ExactPerceptron)
    for name in ("algorithm", "bias", "max_iter", "floats", "trace", "eta", "w0", "max_updates", "params",
                 "max_epochs"):
        assert name in sig.parameters, name
    assert sig.parameters["max_iter"].default == 1000
    est = ExactPerceptron(eta="1/2", max_updates=7)
    # stored unchanged (scikit-learn's convention), visible to get_params, kept by clone
    assert est.eta == "1/2" and est.get_params()["eta"] == "1/2" and est.get_params()["max_updates"] == 7
    twin = clone(est)
    assert twin is not est and twin.get_params() == est.get_params()
    assert est.set_params(eta=2) is est and est.eta == 2
    assert "eta" not in inspect.signature(ExactFisher).parameters  # Fisher's table has no eta
    assert {"priors", "threshold", "singular"} <= set(inspect.signature(ExactFisher).parameters)


def test_eta_reaches_the_algorithm():
    # seed 000 Example 1 through the origin from w = 0: every update adds eta * z_i x_i and the decisions depend
    # only on the sign of <w, x>, so eta = 1/2 gives the lecture's trajectory halved: w = (1/2, -3/2)
    clf = ExactPerceptron(bias="none", eta="1/2").fit(EX1_X, EX1_Y)
    assert clf.coef_.tolist() == [[F(1, 2), F(-3, 2)]]


def test_grid_search_over_eta():
    rng = np.random.default_rng(3)
    X = rng.integers(-6, 7, size=(24, 2))
    y = np.where(X[:, 0] + 2 * X[:, 1] - 1 > 0, 1, -1)  # separable by construction (no point on the line: odd)
    search = GridSearchCV(ExactPerceptron(), {"eta": [1, "1/2", "1/3"]}, cv=3).fit(X, y)
    assert [p["eta"] for p in search.cv_results_["params"]] == [1, "1/2", "1/3"]
    assert search.best_params_["eta"] in (1, "1/2", "1/3")
    assert search.best_estimator_.eta == search.best_params_["eta"]
    assert (search.best_estimator_.predict(X) == y).all()  # a separable training set is classified exactly


def test_parameter_for_another_algorithm_is_named():
    with pytest.raises(ParameterError, match="eta=2 does not apply to the algorithm 'fixed-increment'"):
        ExactPerceptron("fixed-increment", eta=2).fit(EX1_X, EX1_Y)


def test_params_dict_still_works_with_a_future_warning():
    with pytest.warns(FutureWarning, match=r"params=.*deprecated.*eta='1/2'"):
        clf = ExactPerceptron(bias="none", params={"eta": "1/2"}).fit(EX1_X, EX1_Y)
    assert clf.coef_.tolist() == [[F(1, 2), F(-3, 2)]]  # as test_eta_reaches_the_algorithm, by hand
    with pytest.raises(ParameterError, match="eta is given twice"), warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        ExactPerceptron(eta=2, params={"eta": 3}).fit(EX1_X, EX1_Y)


def test_feature_map_inner_algorithm_is_renamed():
    # feature-map's table has its own "algorithm" (the inner rule): the constructor calls it inner_algorithm
    assert "inner_algorithm" in inspect.signature(ExactClassifier).parameters
    X = [[0, 0], [2, 0], [-2, 0], [0, 2], [0, -2], [1, 0]]
    y = [1, -1, -1, -1, -1, 1]
    clf = ExactClassifier("feature-map", inner_algorithm="fixed-increment").fit(X, y)
    assert clf.run_.params["algorithm"] == "fixed-increment"
    assert clf.predict(X).tolist() == y


# ---------------------------------------------------------------------------------------------------------------
# max_iter and n_iter_


def test_max_iter_and_n_iter():
    # seed 000 Example 1 through the origin, by hand: pass 1 corrects (4,0), (1,1), (-2,-2) -> w = (1,-3); pass 2
    # makes no mistake: 2 passes
    clf = ExactPerceptron(bias="none", max_iter=10).fit(EX1_X, EX1_Y)
    assert clf.n_iter_ == 2 and clf.converged_
    # with one pass allowed the run stops after pass 1 (a mistake was made in it): a ConvergenceWarning
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        one = ExactPerceptron(bias="none", max_iter=1).fit(EX1_X, EX1_Y)
    assert one.n_iter_ == 1 and one.reason_ == "max_epochs" and not one.converged_
    assert one.coef_.tolist() == [[F(1), F(-3)]]  # pass 1's end, derived above
    # the old name keeps working
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        assert ExactPerceptron(bias="none", max_epochs=1).fit(EX1_X, EX1_Y).n_iter_ == 1
    with pytest.raises(ParameterError, match="max_iter=5 and max_epochs=3 disagree"):
        ExactPerceptron(max_iter=5, max_epochs=3).fit(EX1_X, EX1_Y)


# ---------------------------------------------------------------------------------------------------------------
# ExactSVC

ISSUE_18606_X = [[1.5, 2.5], [2.5, 1.5], [2.5, 2.5]]
ISSUE_18606_Y = [True, True, False]


def test_svc_default_is_the_soft_margin_c_1():
    est = ExactSVC()
    assert est.C == 1.0 and est.get_params()["C"] == 1.0
    est.fit([[0], [2]], [-1, 1])
    assert est.run_.algorithm == "svm-soft"


def test_svc_support_vector_attributes_issue_18606():
    # By hand: the positives (3/2,5/2), (5/2,3/2) and the negative (5/2,5/2) are all active; by the symmetry
    # x <-> y, w = (-c, -c) and both positives give -4c + b = 1, the negative -5c + b = -1: c = 2, b = 9.
    # Dual: w = sum alpha_i y_i x_i and sum alpha_i y_i = 0 with alpha_1 = alpha_2 = a, alpha_3 = 2a:
    # first coordinate 3a/2 + 5a/2 - 5a = -a = -2, a = 2: alpha = (2, 2, 4).
    clf = ExactSVC(C=None).fit(ISSUE_18606_X, ISSUE_18606_Y)
    assert clf.run_.algorithm == "svm-hard"
    assert clf.coef_.tolist() == [[F(-2), F(-2)]] and clf.intercept_.tolist() == [F(9)]
    # scikit-learn's order: the support vectors of classes_[0] (False) first, then classes_[1], by index
    assert clf.classes_.tolist() == [False, True]
    assert clf.support_.tolist() == [2, 0, 1]
    assert clf.n_support_.tolist() == [1, 2]
    assert clf.support_vectors_.tolist() == [[F(5, 2), F(5, 2)], [F(3, 2), F(5, 2)], [F(5, 2), F(3, 2)]]
    assert clf.dual_coef_.tolist() == [[F(-4), F(2), F(2)]]  # alpha_i y_i in support_ order
    # every support vector lies on its margin line: y_i (w.x_i + b) = 1
    for x, yy in zip(clf.support_vectors_, [-1, 1, 1]):
        assert yy * (sum(c * v for c, v in zip(clf.coef_[0], x)) + clf.intercept_[0]) == 1


def test_not_separable_error_carries_a_verified_certificate():
    # x = 0, 1, 2 with labels +1, -1, +1: the middle point has the other label, so no line separates them
    with pytest.raises(NotSeparableError, match="not linearly separable.*C=") as info:
        ExactSVC(C=None).fit([[0], [1], [2]], [1, -1, 1])
    err = info.value
    assert isinstance(err, VerificationError) and isinstance(err, ValueError)  # old handlers still catch it
    lam = [F(v) for v in err.certificate.lam]
    # Independent check of Gordan's alternative, by hand: with x~ = (1, x) and z = (+1, -1, +1) the vectors
    # z_i x~_i are (1, 0), (-1, -1), (1, 2); sum lambda_i z_i x~_i = 0 with lambda >= 0, sum 1 has the single
    # solution lambda = (1/4, 1/2, 1/4)
    zx = [(1, 0), (-1, -1), (1, 2)]
    assert all(v >= 0 for v in lam) and sum(lam) == 1
    assert [sum(lam[i] * zx[i][k] for i in range(3)) for k in range(2)] == [0, 0]
    assert lam == [F(1, 4), F(1, 2), F(1, 4)]
    # still caught by the old name
    with pytest.raises(VerificationError):
        ExactSVC(C=None).fit([[0], [1], [2]], [1, -1, 1])


# ---------------------------------------------------------------------------------------------------------------
# ExactFisher

FISHER_X = [[10, 10], [11, 12], [12, 11], [5, 5], [4, 6], [6, 4]]
FISHER_Y = [1, 1, 1, -1, -1, -1]


def test_fisher_transform_means_scalings():
    clf = ExactFisher().fit(FISHER_X, FISHER_Y)
    # by hand: m_1 = (11, 11), m_2 = (5, 5); w = (2, 2) (derivation in tests/model/test_models.py)
    assert clf.classes_.tolist() == [-1, 1]
    assert clf.means_.tolist() == [[F(5), F(5)], [F(11), F(11)]]  # classes_ order: m_2 (the -1 class), m_1
    assert clf.scalings_.tolist() == [[F(2)], [F(2)]]
    pts = [[F(1, 3), F(1, 7)], [10, -3], ["-5/2", "1/9"]]
    out = clf.transform_exact(np.array(pts, dtype=object))
    # X @ w by hand: 2/3 + 2/7 = 20/21; 20 - 6 = 14; -5 + 2/9 = -43/9
    assert out.dtype == object and out.shape == (3, 1)
    assert out[:, 0].tolist() == [F(20, 21), F(14), F(-43, 9)]
    # y > y0 = 32 decides (the threshold: -intercept_): transform and predict agree
    assert clf.predict([[9, 8], [8, 8]]).tolist() == [1, -1]  # y = 34 > 32; y = 32 = y0: omega_2
    assert clf.transform_exact([[9, 8], [8, 8]])[:, 0].tolist() == [34, 32]
    assert clf.fit(FISHER_X, FISHER_Y).transform_exact(FISHER_X)[:, 0].tolist() == [40, 46, 46, 20, 20, 20]
    assert clf.transform(FISHER_X)[:, 0].tolist() == [40.0, 46.0, 46.0, 20.0, 20.0, 20.0]  # float64, rounded
    got = clf.transform(np.array(pts, dtype=object))
    assert got.dtype == np.float64 and got[:, 0].tolist() == [20 / 21, 14.0, -43 / 9]  # int/int: correctly rounded


def test_fisher_pickle_idempotence_and_order_exactly():
    # what scikit-learn's float checks cannot compare for an exact transform, checked exactly
    clf = ExactFisher().fit(FISHER_X, FISHER_Y)
    back = pickle.loads(pickle.dumps(clf))
    assert back.transform_exact(FISHER_X).tolist() == clf.transform_exact(FISHER_X).tolist()
    again = ExactFisher().fit(FISHER_X, FISHER_Y).fit(FISHER_X, FISHER_Y)
    assert again.transform_exact(FISHER_X).tolist() == clf.transform_exact(FISHER_X).tolist()
    rev = FISHER_X[::-1]
    assert clf.transform_exact(rev)[:, 0].tolist() == clf.transform_exact(FISHER_X)[:, 0].tolist()[::-1]


# ---------------------------------------------------------------------------------------------------------------
# decision_function: its sign always agrees with predict


def test_decision_function_sign_agrees_with_predict_binary():
    clf = ExactPerceptron(bias="none").fit(EX1_X, EX1_Y)  # w = (1, -3), by hand above
    tiny = "1/" + "1" + "0" * 400  # 10^-400: float() rounds it to 0.0
    huge = "1" + "0" * 400  # 10^400: beyond float64
    X = np.array([[3, 1],  # exactly on the boundary: g = 3 - 3 = 0
                  [tiny, 0],  # g = 10^-400 > 0
                  ["-" + tiny, 0],  # g = -10^-400 < 0
                  [huge, 0],  # g = 10^400
                  [0, huge],  # g = -3 * 10^400
                  [4, 0]], dtype=object)  # g = 4
    exact = clf.decision_function_exact(X)
    assert exact.tolist() == [0, F(1, 10 ** 400), F(-1, 10 ** 400), 10 ** 400, -3 * 10 ** 400, 4]
    pred = clf.predict(X)
    assert pred.tolist() == [-1, 1, -1, 1, -1, 1]  # g = 0 goes to classes_[0], as scikit-learn
    dec = clf.decision_function(X)
    assert dec.dtype == np.float64
    assert dec[0] == 0.0 and dec[1] == 5e-324 and dec[2] == -5e-324
    assert dec[3] == math.inf and dec[4] == -math.inf and dec[5] == 4.0
    assert (clf.classes_[(dec > 0).astype(int)] == pred).all()  # scikit-learn's rule reproduces predict


def test_decision_function_argmax_agrees_with_predict_multiclass():
    X, y = [[1, 0], [0, 1], [-1, -1]], ["A", "B", "C"]
    clf = ExactLinearMachine().fit(X, y)
    tiny = F(1, 10 ** 400)
    pts = [[0, 0], [str(tiny), 0], [0, str(tiny)], [str(-tiny), str(tiny)], [1, 0], [0, 1], [-1, -1], [1, 1]]
    P = np.array(pts, dtype=object)
    exact = clf.decision_function_exact(P)
    pred = clf.predict(P)
    # predict by hand from the exact scores: the largest g_c, the first in classes_ order on a tie
    expected = [clf.classes_[max(range(3), key=lambda k, r=row: (r[k], -k))] for row in exact.tolist()]
    assert pred.tolist() == expected
    dec = clf.decision_function(P)
    assert clf.classes_[dec.argmax(axis=1)].tolist() == pred.tolist()


# ---------------------------------------------------------------------------------------------------------------
# LongRationalWarning


def test_long_rationals_from_a_standard_scaler_warn():
    X = [[4.0, 0.0], [1.0, 1.0], [0.0, 1.0], [-2.0, -2.0]]
    with pytest.warns(LongRationalWarning, match=r"shortest repr.*StandardScaler.*docs/howto/long-rationals.md"):
        pipe = make_pipeline(StandardScaler(), ExactMSE()).fit(X, EX1_Y)
    # the warning is about size, not about exactness: the digits really are there
    assert max(len(str(abs(v.numerator))) for v in pipe[-1].coef_.ravel()) > 30
    with warnings.catch_warnings():
        warnings.simplefilter("error", LongRationalWarning)
        ExactMSE().fit([[0.4, 0.0], [0.1, 0.1], [0.0, 0.1], [-0.2, -0.2]], EX1_Y)  # short decimals: no warning
        ExactMSE().fit(np.array(EX1_X), EX1_Y)  # integers: never
