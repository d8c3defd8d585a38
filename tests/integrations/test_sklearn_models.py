"""exactlin.sklearn decides through Run.model: Fisher's threshold, an irrational y0,
feature maps on raw samples, string labels.  Expected values are derived by hand (comments say how)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

pytest.importorskip("sklearn")

from exactlin.sklearn import ExactClassifier, ExactFisher, ExactPerceptron  # noqa: E402


def test_fisher_predict_uses_the_threshold():
    X = [[10, 10], [11, 12], [12, 11], [5, 5], [4, 6], [6, 4]]
    clf = ExactFisher().fit(X, [1, 1, 1, -1, -1, -1])
    assert clf.predict(X).tolist() == [1, 1, 1, -1, -1, -1]
    # w = (2, 2), y0 = 32 (hand derivation in tests/model/test_models.py): coef_ w, intercept_ -y0
    assert clf.coef_.tolist() == [[2, 2]] and clf.intercept_.tolist() == [-32]
    assert clf.predict([[8, 8]]).tolist() == [-1]  # y = y0: omega_2, the -1 class


def test_fisher_irrational_threshold_near_point():
    import sympy

    clf = ExactFisher(priors=["2/3", "1/3"]).fit([[0], [1], [3], [4]], [1, 1, -1, -1])
    # y0 = -6 - ln(2)/2 and w = -3 (hand derivation in tests/model/test_models.py): y = y0 at x* = 2 + ln(2)/6
    digits = sympy.N((2 + sympy.log(2) / 6) * sympy.Integer(10) ** 115, 300)
    lo = F(int(sympy.floor(digits)), 10 ** 115)
    for x, expected in ((lo, 1), (lo + F(1, 10 ** 115), -1)):
        ref = sympy.N(-3 * sympy.Rational(x.numerator, x.denominator) + 6 + sympy.log(2) / 2, 300)
        assert (1 if ref > 0 else -1) == expected
        assert clf.predict([[str(x)]]).tolist() == [expected]


def test_feature_map_predicts_raw_samples():
    X = [[0, 0], [2, 0], [-2, 0], [0, 2], [0, -2], [1, 0]]
    y = [1, -1, -1, -1, -1, 1]
    clf = ExactClassifier("feature-map").fit(X, y)
    assert clf.n_features_in_ == 2
    assert clf.coef_.shape == (1, 3)  # weights on phi(x) = (x, y, x^2 + y^2): the lifted space
    assert clf.predict(X).tolist() == y
    # the rule by hand from coef_ and intercept_: sign(c1 x + c2 y + c3 (x^2 + y^2) + b)
    (c1, c2, c3), b = clf.coef_[0], clf.intercept_[0]
    for p in ([F(1, 2), F(1, 3)], [3, 3]):
        g = c1 * p[0] + c2 * p[1] + c3 * (F(p[0]) ** 2 + F(p[1]) ** 2) + b
        assert clf.predict([p]).tolist() == [1 if g > 0 else -1]


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")  # max_epochs=1: the lecture's pass
def test_string_labels_and_voted_perceptron():
    X = [[4, 0], [1, 1], [0, 1], [-2, -2]]
    y = ["cat", "dog", "dog", "cat"]
    clf = ExactPerceptron("voted-perceptron", bias="none", max_iter=1).fit(X, y)
    # classes_ = [cat, dog]: dog (classes_[1]) is the +1 class, so the vote is the one of seed 000's
    # Example 1 with the signs flipped: at (0, 1) the notes' vote is -3 (cat's side -1) -> here +3 -> dog
    assert clf.predict([[0, 1]]).tolist() == ["dog"]
    assert not hasattr(clf, "coef_")
