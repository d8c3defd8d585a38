"""The CSV files the README's "Using it" commands train on (examples/data/) do what the README says."""

import json
from fractions import Fraction
from pathlib import Path

from exactlin.cli.app import main

DATA = Path(__file__).resolve().parents[2] / "examples" / "data"


def fit_json(capsys, *argv):
    code = main(["--no-progress", "fit", *argv, "--json"])
    out = capsys.readouterr().out
    return code, json.loads(out)


def test_seed000_example1(capsys):
    code, r = fit_json(capsys, "perceptron", str(DATA / "seed000-example1.csv"))
    # seed 000, Example 1 by hand: mistakes at rounds 1, 2 and 4: w = (4,0), then (4,0) - (1,1) = (3,-1), then
    # (3,-1) + (-2,-2) = (1,-3), which classifies all four (scores 4, 2, 3, 4)
    assert code == 0 and r["w"] == ["1", "-3"] and r["converged"] is True and r["updates"] == 3


def test_xor_is_not_separable_with_a_certificate(capsys):
    code, r = fit_json(capsys, "perceptron", str(DATA / "xor.csv"), "--bias", "first")
    assert code == 0 and r["converged"] is False and r["reason"] == "cycle"
    cert = r["certificate"]
    assert cert["verified"] is True
    # check the certificate here: sum_i lambda_i z_i (1, x_i) = 0 with lambda >= 0 summing to 1
    rows = [((0, 0), -1), ((1, 1), -1), ((0, 1), 1), ((1, 0), 1)]
    lam = [Fraction(v) for v in cert["lambda"]]
    assert all(v >= 0 for v in lam) and sum(lam) == 1
    for j in range(3):
        assert sum(l * z * (1, *x)[j] for l, (x, z) in zip(lam, rows)) == 0


def test_animals_with_a_positive_label(capsys):
    code, r = fit_json(capsys, "perceptron", str(DATA / "animals.csv"), "--bias", "first", "--positive", "cat")
    assert code == 0 and r["converged"] is True
    w = [Fraction(v) for v in r["w"]]
    rows = [((Fraction(3, 2), 4), 1), ((2, Fraction(9, 2)), 1), ((5, 1), -1), ((Fraction(11, 2), Fraction(1, 2)), -1)]
    assert all(z * (w[0] + w[1] * x[0] + w[2] * x[1]) > 0 for x, z in rows)


def test_the_json_names_which_label_became_plus_one(capsys):
    code, r = fit_json(capsys, "perceptron", str(DATA / "animals.csv"), "--bias", "first", "--positive", "cat")
    assert code == 0 and r["labels"] == {"+1": "cat", "-1": "dog"}


def test_new_points_predicted_with_the_saved_model(capsys, tmp_path):
    m = tmp_path / "model.json"
    assert main(["--no-progress", "fit", "perceptron", str(DATA / "seed000-example1.csv"), "--save", str(m)]) == 0
    capsys.readouterr()
    assert main(["predict", str(m), str(DATA / "seed000-new-points.csv"), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    # w = (1, -3) (Example 1 above): g(5,1) = 2, g(0,2) = -6, g(3,1) = 0 (the boundary), g(1/2,-1) = 7/2
    assert d["labeled"] is False
    assert [p["decision"] for p in d["points"]] == ["2", "-6", "0", "7/2"]
    assert [p["prediction"] for p in d["points"]] == [1, -1, None, 1]


def test_three_classes_label_first_semicolons(capsys, tmp_path):
    m = tmp_path / "model.json"
    code, r = fit_json(capsys, "linear-machine", str(DATA / "three-classes.csv"), "--label-column", "class",
                       "--save", str(m))
    assert code == 0 and r["converged"] is True and r["classes"] == ["a", "b", "c"]
    # converged: every training sample on its own class's side; check with W, bias first, by hand
    rows = [("a", (0, 0)), ("b", (3, 0)), ("c", (0, 3)), ("a", (1, Fraction(1, 2))), ("b", (4, 1)), ("c", (1, 4))]
    W = [[Fraction(v) for v in w] for w in r["W"]]
    for lab, x in rows:
        g = [w[0] + w[1] * x[0] + w[2] * x[1] for w in W]
        assert r["classes"][g.index(max(g))] == lab and g.count(max(g)) == 1
    assert main(["predict", str(m), str(DATA / "three-classes.csv"), "--label-column", "class", "--json"]) == 0
    s = json.loads(capsys.readouterr().out)["summary"]
    assert s["accuracy"] == "1" and s["confusion"]["matrix"] == [[2, 0, 0, 0], [0, 2, 0, 0], [0, 0, 2, 0]]
