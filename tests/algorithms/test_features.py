"""Feature maps (seeds 003, 004): seed 004's circle lift end to end, polynomial features, composition."""

from fractions import Fraction as F

import pytest

from exactlin.algorithms import get
from exactlin.algorithms.features import (
    feature_map_run,
    lift_circle,
    polynomial_feature_names,
    polynomial_features,
    with_features,
)
from exactlin.algorithms.ho_kashyap import ho_kashyap
from exactlin.errors import ParameterError, ShapeError
from exactlin.theory.certificates import verify_gordan, verify_separator

# seed 004: inside the unit circle (+1), outside (-1)
X_IN = [(0, 0), (F(1, 2), 0), (0, F(-1, 2))]
X_OUT = [(2, 0), (-2, 0), (0, 2), (0, -2), (F(3, 2), F(3, 2))]
X = X_IN + X_OUT
Y = [1] * len(X_IN) + [-1] * len(X_OUT)


def test_lift_values():
    # phi(x, y) = (x, y, x^2 + y^2), seed 004
    assert lift_circle([(F(3, 2), F(3, 2))]) == ((F(3, 2), F(3, 2), F(9, 2)),)
    assert lift_circle([(1, -1)]) == ((1, -1, 2),)


def test_circle_example_end_to_end():
    perceptron = get("perceptron").func
    before = perceptron(X, Y, bias="first")
    # not separable in the plane: the perceptron cycles and the cycle is a verified Gordan certificate
    assert before.reason == "cycle"
    verify_gordan(before.problem.Z, before.extras["certificate"]["lambda"])
    hk = ho_kashyap(X, Y)
    assert hk.extras["verdict"] == "not_separable"
    verify_gordan(hk.problem.Z, hk.extras["certificate"]["lambda"])
    # after the lift: separable (the plane z = 1, i.e. a = (1, 0, 0, -1), separates by hand: inside
    # z <= 1/4 gives 1 - z > 0, outside z >= 4 gives -(1 - z) > 0)
    verify_separator(tuple(tuple(y * v for v in (1, *p)) for p, y in zip(lift_circle(X), Y)), (1, 0, 0, -1))
    after = with_features("perceptron", lift_circle, name="circle")(X, Y, bias="first")
    assert after.converged and after.extras["feature_map"] == "circle"
    verify_separator(after.problem.Z, after.w)
    hk_after = with_features("ho-kashyap", lift_circle)(X, Y, bias="first")
    assert hk_after.extras["verdict"] == "separable"


def test_polynomial_features():
    # by hand: (x1, x2) = (2, 3), degree 3: x1, x2, x1^2, x1x2, x2^2, x1^3, x1^2x2, x1x2^2, x2^3
    assert polynomial_features([(2, 3)], 3) == ((2, 3, 4, 6, 9, 8, 12, 18, 27),)
    assert polynomial_feature_names(2, 2) == ["x1", "x2", "x1^2", "x1*x2", "x2^2"]
    assert polynomial_features([(F(1, 2),)], 2) == ((F(1, 2), F(1, 4)),)
    # the circle with degree-2 features is separable as well (x1^2 + x2^2 is a combination)
    r = with_features("perceptron", lambda M: polynomial_features(M, 2), name="poly2")(X, Y, bias="first")
    assert r.converged


def test_cli_reachable_algorithm():
    r = feature_map_run(X, Y)
    assert r.algorithm == "feature-map" and r.converged and r.extras["inner_algorithm"] == "perceptron"
    r2 = feature_map_run(X, Y, algorithm="ho-kashyap", map="poly", degree=2)
    assert r2.extras["verdict"] == "separable"


def test_bad_inputs():
    with pytest.raises(ShapeError, match="lift_circle maps points of the plane"):
        lift_circle([(1, 2, 3)])
    with pytest.raises(ParameterError, match="degree must be a whole number >= 1"):
        polynomial_features([(1, 2)], 0)
    with pytest.raises(ParameterError, match="unknown algorithm 'nope'"):
        feature_map_run(X, Y, algorithm="nope")
    with pytest.raises(ParameterError, match="map must be one of"):
        feature_map_run(X, Y, map="sphere")


def test_cli_feature_map(capsys, tmp_path):
    import json

    from exactlin.cli.app import main

    p = tmp_path / "circle.csv"
    p.write_text("x,y,label\n" + "".join(f"{a},{b},{c}\n" for (a, b), c in zip(X, Y)))
    code = main(["fit", "feature-map", str(p), "--param", "algorithm=ho-kashyap", "--param", "map=circle",
                 "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    d = json.loads(out)
    assert d["verdict"] == "separable" and d["feature_map"] == "circle" and len(d["w"]) == 4
    code = main(["fit", "ho-kashyap", str(p), "--json"])
    out, err = capsys.readouterr()
    assert code == 0 and json.loads(out)["verdict"] == "not_separable"
