"""exactlin.model.models: the prediction models of every algorithm.

Every expected value comes from the notes, a hand derivation (said so in a comment) or an independent
computation written here from the run's public fields (w, extras), never from the model under test.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction as F

import pytest

from exactlin.algorithms import all_specs
from exactlin.algorithms.fisher import fisher
from exactlin.errors import ExactlinError, InputError, InputTypeError, ShapeError
from exactlin.model.models import (
    ArgmaxModel,
    FeatureMapModel,
    KernelModel,
    LinearModel,
    OneVsRestModel,
    ThresholdModel,
    VoteModel,
)
from exactlin.model.run import Run
from exactlin.model.serialize import from_jsonable, to_jsonable

FISHER_X = [(10, 10), (11, 12), (12, 11), (5, 5), (4, 6), (6, 4)]
FISHER_Y = [1, 1, 1, -1, -1, -1]


# ---------------------------------------------------------------------------
# independent references (plain Fractions, written here)


def ref_augment(x, bias):
    x = tuple(F(v) for v in x)
    return (F(1), *x) if bias == "first" else (*x, F(1)) if bias == "last" else x


def ref_dot(u, v):
    return sum((F(a) * F(b) for a, b in zip(u, v)), F(0))


def ref_sign(v):
    return (v > 0) - (v < 0)


def ref_label(s):
    return 1 if s > 0 else -1 if s < 0 else None


def ref_predict(run, x):
    """The decision rule of run's algorithm as its lecture states it, from the run's public fields."""
    name, e = run.algorithm, run.extras
    if name == "threshold-unit":  # Mitchell 1997, 4.4.2: o = 1 iff w.x~ >= 0 (tie ">="), x_0 = bias_input
        xa = list(ref_augment(x, run.bias))
        if run.bias != "none":
            xa[0 if run.bias == "first" else -1] = F(run.params["bias_input"])
        net = ref_dot(run.w, xa)
        return 1 if (net >= 0 if run.params["tie"] == ">=" else net > 0) else -1  # the data's labels: +1 / -1
    if name == "fisher":  # seed 003: "If y > y0, omega_1; otherwise omega_2" (rational y0 here)
        return 1 if ref_dot(run.w, x) > e["y0"] else -1
    if name == "voted-perceptron":  # seed 000: sign(sum_k c_k sign(<w_k, x>))
        xa = ref_augment(x, run.bias)
        return ref_label(sum(int(v["c"]) * ref_sign(ref_dot(v["w"], xa)) for v in e["voted"]))
    if name == "linear-machine":  # seed 003: argmax_c g_c(x); a tie is undefined
        xa = ref_augment(x, run.bias)
        g = [ref_dot(w, xa) for w in e["W"]]
        return e["classes"][g.index(max(g))] if g.count(max(g)) == 1 else None
    if name == "one-vs-rest":  # seed 001: the one class whose classifier claims x
        xa = ref_augment(x, run.bias)
        claims = [c for c, w in zip(e["classes"], e["W"]) if ref_dot(w, xa) > 0]
        return claims[0] if len(claims) == 1 else None
    if name == "feature-map":  # seed 004: phi(x, y) = (x, y, x^2 + y^2), then <w, phi~(x)>
        u, v = F(x[0]), F(x[1])
        return ref_label(ref_sign(ref_dot(run.w, ref_augment((u, v, u * u + v * v), run.bias))))
    if run.w is None and "alpha" in e:  # kernel SVM, dual form: sum_i alpha_i y_i K(x_i, x) + b
        k = e["kernel"]
        X, z = run.problem.data.X, run.problem.z
        g = sum((e["alpha"][i] * z[i] * (ref_dot(X[i], x) + F(k["coef0"])) ** int(k["degree"])
                 for i in e["support_vectors"]), F(0)) + e["b"]
        return ref_label(ref_sign(g))
    return ref_label(ref_sign(ref_dot(run.w, ref_augment(x, run.bias))))


def _binary_data(seed: int, n: int = 14):
    """Integer points off the line 2x - y + 1 = 0, labelled by its side (separable, with an intercept)."""
    rnd = random.Random(seed)
    X, y = [], []
    while len(X) < n:
        p = (rnd.randint(-6, 6), rnd.randint(-6, 6))
        s = 2 * p[0] - p[1] + 1
        if abs(s) >= 2 and p not in X:
            X.append(p)
            y.append(1 if s > 0 else -1)
    if len(set(y)) < 2:
        return _binary_data(seed + 1000, n)
    return X, y


def _circle_data(seed: int):
    """Points inside (label 1) or outside (label -1) the circle x^2 + y^2 = 5, none near it."""
    rnd = random.Random(seed)
    X, y = [(0, 0), (4, 0)], [1, -1]
    while len(X) < 12:
        p = (rnd.randint(-4, 4), rnd.randint(-4, 4))
        r2 = p[0] ** 2 + p[1] ** 2
        if r2 in (4, 5, 6) or p in X:
            continue
        X.append(p)
        y.append(1 if r2 < 5 else -1)
    return X, y


def _three_classes(seed: int):
    rnd = random.Random(seed)
    centres = {"A": (6, 0), "B": (-6, 6), "C": (-6, -6)}
    X, y = [], []
    for lab, (cx, cy) in centres.items():
        for _ in range(4):
            X.append((cx + rnd.randint(-1, 1), cy + rnd.randint(-1, 1)))
            y.append(lab)
    return X, y


def _fresh(seed: int, k: int = 15):
    rnd = random.Random(seed)
    return [(F(rnd.randint(-21, 21), 3), F(rnd.randint(-21, 21), 3)) for _ in range(k)]


SPECS = all_specs()


def test_every_registered_algorithm_is_covered():
    assert len(SPECS) == 27


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_predict_matches_the_algorithms_rule(spec, seed):
    kwargs = {"max_epochs": 60}
    if spec.multiclass:
        X, y = _three_classes(seed)
        kwargs["bias"] = "first"
    elif spec.name == "feature-map":
        X, y = _circle_data(seed)
    else:
        X, y = _binary_data(seed)
        kwargs["bias"] = "none" if spec.name == "fisher" else "first"
    run = spec.func(X, y, **kwargs)
    assert run.model is not None
    pts = list(X) + _fresh(seed + 7)
    expected = tuple(ref_predict(run, x) for x in pts)
    assert run.predict(pts) == expected
    assert run.predict(pts[0]) == expected[0]  # one point: a scalar


@pytest.mark.parametrize("seed", [1, 2])
def test_kernel_svm_predicts_by_its_dual_form(seed):
    from exactlin.algorithms.svm import svm_hard

    X, y = _circle_data(seed)
    run = svm_hard(X, y, kernel="poly", degree=2, coef0=1)
    assert isinstance(run.model, KernelModel)
    pts = list(X) + _fresh(seed + 3)
    assert run.predict(pts) == tuple(ref_predict(run, x) for x in pts)
    assert run.predict(X) == tuple(y)  # hard margin: every training point on its side


# ---------------------------------------------------------------------------
# (a) Fisher's threshold


def test_fisher_predicts_with_its_threshold():
    run = fisher(FISHER_X, FISHER_Y)
    # hand derivation: m1 = (11, 11), m2 = (5, 5), S_W = [[4, -2], [-2, 4]] + [[2, -2], [-2, 2]] ... w = (2, 2)
    # (as the issue states), y0 = (w.m1 + w.m2)/2 = (44 + 20)/2 = 32
    assert run.w == (2, 2) and run.extras["y0"] == 32
    assert run.predict(FISHER_X) == (1, 1, 1, -1, -1, -1)
    assert run.decision((10, 10)) == 40 - 32
    assert run.predict((8, 8)) == -1  # y = 32 = y0 exactly: "otherwise omega_2"
    assert run.decision((8, 8)) == 0


# ---------------------------------------------------------------------------
# (c) JSON round trip of every model


def _models():
    lin = LinearModel((1, "-1/3", 2), "first", "cat", "dog")
    return [
        lin,
        LinearModel((F(1, 7),), "none"),
        ThresholdModel((2, 2), 32),
        ThresholdModel((-3,), -6, F(-1, 2), 2, "yes", "no"),  # y0 = -6 - ln(2)/2, irrational
        VoteModel((((0, 0), 1), ((4, 0), 1), ((3, -1), 2)), "none", True, False),
        KernelModel(((0, 0), (3, 1)), ("1/2", "1/2"), (1, -1), "-1/3", "poly", 2, 1, "none", "a", "b"),
        ArgmaxModel(("A", "B", "C"), ((1, 0, 0), (0, 1, 0), (0, 0, "-5/2")), "last"),
        OneVsRestModel((1, 2), (LinearModel((1, 0)), LinearModel((0, 1)))),
        FeatureMapModel("circle", LinearModel((5, 0, 0, -1), "first"), 2, 2),
        FeatureMapModel("poly", ThresholdModel((1, 1, 0, 0, 0), F(1, 2)), 2, 2),
    ]


@pytest.mark.parametrize("model", _models(), ids=lambda m: type(m).__name__)
def test_round_trip(model):
    text = json.dumps(to_jsonable(model))
    back = from_jsonable(json.loads(text))
    assert back == model and type(back) is type(model)
    assert hash(back) == hash(model)  # frozen, with value equality
    with pytest.raises(AttributeError):
        model.bias = "x"  # frozen


def test_labels_keep_their_types_through_json():
    m = VoteModel((((1,), 1),), "none", True, False)
    back = from_jsonable(json.loads(json.dumps(to_jsonable(m))))
    assert back.predict((1,)) is True and back.predict((-1,)) is False
    m = LinearModel((1,), "none", "1/2", "x")  # a label that looks like a rational stays a string
    back = from_jsonable(json.loads(json.dumps(to_jsonable(m))))
    assert back.predict((3,)) == "1/2"


def test_run_round_trip_keeps_the_model():
    run = fisher(FISHER_X, FISHER_Y)
    back = Run.from_json(run.to_json())
    assert back.model == run.model
    assert back.predict(FISHER_X) == (1, 1, 1, -1, -1, -1)


# ---------------------------------------------------------------------------
# (d) an irrational threshold decided at ~1e-110


def _near_threshold_points():
    """Hand derivation for X = [[0],[1],[3],[4]], y = [1,1,-1,-1], priors (2/3, 1/3): m1 = 1/2, m2 = 7/2,
    S_W = 1/2 + 1/2 = 1, w = m1 - m2 = -3; m~1 = -3/2, m~2 = -21/2; y0^(3) = (m~1 + m~2)/2 - ln(2)/(4 - 2)
    = -6 - ln(2)/2.  y = -3x equals y0 at x* = 2 + ln(2)/6; the points are x* rounded down and up at 1e-115."""
    import sympy

    xstar = sympy.Integer(2) + sympy.log(2) / 6
    digits = sympy.N(xstar * sympy.Integer(10) ** 115, 300)
    lo = F(int(sympy.floor(digits)), 10 ** 115)
    return xstar, lo, lo + F(1, 10 ** 115)


def test_irrational_threshold_decides_without_typeerror():
    import sympy

    run = fisher([[0], [1], [3], [4]], [1, 1, -1, -1], priors=["2/3", "1/3"])
    assert run.w == (-3,)
    xstar, lo, hi = _near_threshold_points()
    for x in (lo, hi):
        # the independent check: y - y0 = -3x + 6 + ln(2)/2 evaluated with 300 digits
        ref = sympy.N(-3 * sympy.Rational(x.numerator, x.denominator) + 6 + sympy.log(2) / 2, 300)
        assert abs(ref) < sympy.Float("1e-110", 300) and ref != 0
        expected = 1 if ref > 0 else -1
        assert run.predict([x]) == expected
        assert run.predict([[x]]) == (expected,)
    assert run.predict([lo]) == 1 and run.predict([hi]) == -1  # x below x* gives y above y0


# ---------------------------------------------------------------------------
# (e) one point, many points, string labels


def test_one_point_many_points_and_string_labels():
    from exactlin import perceptron

    X = [(4, 0), (1, 1), (0, 1), (-2, -2)]
    run = perceptron(X, ["cat", "dog", "dog", "cat"], positive="cat")
    # seed 000's Example 1 (bias none): w = (1, -3) after the three mistakes the notes list
    assert run.w == (1, -3)
    assert run.predict(X) == ("cat", "dog", "dog", "cat")
    assert run.predict((4, 0)) == "cat"
    assert run.predict([(3, 1)]) == (None,)  # g = 3 - 3 = 0: undefined
    assert run.decision([(1, 0), (0, 1)]) == (1, -3)
    assert run.predict([]) == ()
    m = LinearModel((1, 2), "none", 10, 20)
    out = m.predict([(1, 1), (-1, 0)])
    assert out == (10, 20) and all(type(v) is int for v in out)


def test_bad_input_names_row_and_column():
    m = LinearModel((1, 2), "none")
    with pytest.raises(ShapeError) as e:
        m.predict([(1, 2), (1, 2, 3)])
    assert e.value.row == 1 and "sample 2" in str(e.value)
    with pytest.raises(InputError) as e:
        m.predict([(1, 2), (1, "x")])
    assert isinstance(e.value, ExactlinError) and e.value.row == 1 and e.value.column == 1
    with pytest.raises(InputTypeError) as e:
        m.predict([(1, 2), (None, 1)])
    assert e.value.row == 1 and e.value.column == 0
    with pytest.raises(InputTypeError):
        m.predict("12")


# ---------------------------------------------------------------------------
# the rules of each model, by hand


def test_vote_model_rule():
    # seed 000's voted perceptron after one pass on Example 1: (0,0):1, (4,0):1, (3,-1):2, (1,-3):1
    m = VoteModel((((0, 0), 1), ((4, 0), 1), ((3, -1), 2), ((1, -3), 1)))
    # x = (0, 1): signs 0, 0, -1, -1 -> vote -2 -3 = -3 -> -1 (by hand)
    assert m.decision((0, 1)) == -3 and m.predict((0, 1)) == -1
    # x = (1, 1): signs 0, +1, +1, -1 -> 1 + 2 - 1 = 2 -> +1
    assert m.predict((1, 1)) == 1
    tie = VoteModel((((1, 0), 1), ((-1, 0), 1)))
    assert tie.predict((1, 0)) is None  # a tied vote is undefined


def test_argmax_and_one_vs_rest_undefined_points():
    m = ArgmaxModel(("a", "b"), ((1, 0), (0, 1)))
    assert m.predict([(2, 1), (1, 2), (1, 1)]) == ("a", "b", None)
    o = OneVsRestModel(("a", "b"), (LinearModel((1, 0)), LinearModel((0, 1))))
    assert o.predict([(1, -1), (-1, 1), (1, 1), (-1, -1)]) == ("a", "b", None, None)


def test_feature_map_model_takes_raw_samples():
    # inside the unit circle: 1 - (x^2 + y^2) > 0, i.e. w = (1, 0, 0, -1) on (1, x, y, x^2 + y^2)
    m = FeatureMapModel("circle", LinearModel((1, 0, 0, -1), "first", "in", "out"), 2, 2)
    assert m.predict([(0, 0), (2, 0), ("1/2", "1/2")]) == ("in", "out", "in")
    assert m.predict((1, 0)) is None
    with pytest.raises(ShapeError):
        m.predict([(1, 2, 3)])


def test_run_without_model_raises_an_exactlin_error():
    run = Run("svm-hard", None, "first", False, "not_separable")
    with pytest.raises(ExactlinError):
        run.decision((1, 2))
    with pytest.raises(ExactlinError):
        run.predict((1, 2))


def test_voted_linear_machine_and_one_vs_rest_runs_predict():
    from exactlin.algorithms.multiclass import linear_machine, one_vs_rest
    from exactlin.algorithms.voted import voted_perceptron

    r = voted_perceptron([(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1], max_epochs=1)
    assert r.predict([(0, 1), (1, 1)]) == (-1, 1)  # as test_vote_model_rule derives by hand
    X, y = [(1, 0), (0, 1), (-1, -1)], ["A", "B", "C"]
    assert linear_machine(X, y, bias="none").predict(X) == ("A", "B", "C")
    assert one_vs_rest(X, y, bias="none").predict(X) == ("A", "B", "C")
