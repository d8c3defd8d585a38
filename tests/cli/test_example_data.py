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
