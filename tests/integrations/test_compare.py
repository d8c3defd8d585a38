"""exactlin.compare and the `exactlin compare` command."""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest
import sklearn  # noqa: F401  (the test extra installs it)

from exactlin.algorithms import load_all
from exactlin.cli.app import main
from exactlin.compare import compare, compare_text

load_all()

EX1 = "x1,x2,y\n# seed 000, Example 1\n4,0,1\n1,1,-1\n0,1,-1\n-2,-2,1\n"


def test_compare_perceptron_example1_agrees(tmp_path):
    # seed 000 Example 1 through the origin: exact w = (1, -3) (the lecture's w_5); integer data, so the float
    # cyclic perceptron makes the same three updates with no rounding at all
    rep = compare("perceptron", [(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1])
    assert rep["exact"]["coef"] == [F(1), F(-3)] and rep["exact"]["training_errors"] == 0
    cyclic = rep["anchors"][1]
    assert cyclic["coef"] == [1.0, -3.0] and cyclic["decisions_differ"] == [] and cyclic["max_abs_diff"] == 0
    assert rep["differences"] == []
    assert "no differences" in compare_text(rep)


def test_cli_compare_text_and_json(tmp_path, capsys):
    p = tmp_path / "ex1.csv"
    p.write_text(EX1)
    assert main(["compare", "perceptron", str(p)]) == 0
    out = capsys.readouterr().out
    assert "exact (exactlin)" in out and "(1, -3)" in out and "sklearn Perceptron" in out
    assert main(["compare", "mse", str(p), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["algorithm"] == "mse" and all(isinstance(v, str) for v in d["exact"]["coef"])
    assert all(isinstance(v, float) for v in d["anchors"][0]["coef"])  # anchors are floats, and say so


def test_cli_compare_bad_input(tmp_path, capsys):
    p = tmp_path / "three.csv"
    p.write_text("x,y\n0,a\n1,b\n2,c\n")
    assert main(["compare", "perceptron", str(p), "--positive", "a"]) == 2
    assert "more than two labels" in capsys.readouterr().err
    assert main(["compare", "no-such", str(p)]) == 2


def test_compare_fisher_against_lda_direction():
    # x = 2, 4 (+1), 0, -2 (-1): w = S_W^{-1}(m_1 - m_2) = 4/4 = 1, y0 = (3 + (-1))/2 = 1, so g(x) = x - 1 (hand);
    # LDA's vector is a multiple of (1, -1): scaled to the exact one it agrees, with no decision differences
    rep = compare("fisher", [[2], [4], [0], [-2]], [1, 1, -1, -1])
    assert rep["exact"]["coef"] == [F(1)] and rep["exact"]["intercept"] == F(-1)
    lda = rep["anchors"][0]
    assert lda["coef_scaled"] == pytest.approx([1.0]) and lda["intercept_scaled"] == pytest.approx(-1.0)
    assert lda["decisions_differ"] == [] and rep["differences"] == []


def test_compare_soft_l2_against_linearsvc():
    # seed 004's soft margin with C = 1 on x = 0 (-1), x = 2 (+1): w = 4/5, b = -4/5 (hand: minimize
    # w^2/2 + 2(1 - w)^2 with b = -w by symmetry); LinearSVC's squared hinge lands within 1e-6
    rep = compare("svm-soft-l2", [[0], [2]], [-1, 1])
    assert rep["exact"]["coef"] == [F(4, 5)] and rep["exact"]["intercept"] == F(-4, 5)
    assert rep["anchors"][0]["max_abs_diff"] < 1e-6 and rep["anchors"][0]["decisions_differ"] == []


def test_compare_fisher_irrational_threshold_decides_by_the_model():
    """compare decided Fisher's side with a sympy comparison (a TypeError "cannot determine truth value of
    Relational" for a point near an irrational y0); it now takes the sides from the run's model, whose
    proven-bounds decision at ~1e-115 is tested in tests/model/test_models.py."""
    from exactlin.compare import compare

    # w = -3, y0 = -6 - ln(2)/2 (hand derivation in tests/model/test_models.py): y = -3x > y0 iff x < 2.1155...
    rep = compare("fisher", [[0], [1], [3], [4]], [1, 1, -1, -1], params={"priors": ["2/3", "1/3"]})
    assert rep["exact"]["training_errors"] == 0 and rep["exact"]["on_boundary"] == []
    assert rep["exact"]["coef"] == [-3]


def test_cli_compare_numbers_support_vectors_from_1_as_fit_does(tmp_path, capsys):
    # issue 20: `compare svm-hard` printed the support vectors 0-based while `fit` numbers samples from 1.
    # seed 000 Example 1 with a bias: w = (1/3, -1), b = -1/3 (hand-checked: y_i(w.x_i + b) = 1, 1, 4/3, 1), so the
    # support vectors are samples 1, 2 and 4; the JSON keeps 0-based indices (0, 1, 3)
    p = tmp_path / "ex1.csv"
    p.write_text(EX1)
    assert main(["fit", "svm-hard", str(p)]) == 0
    assert "support vectors (samples): (1, 2, 4)" in capsys.readouterr().out
    assert main(["compare", "svm-hard", str(p)]) == 0
    (row,) = [ln for ln in capsys.readouterr().out.splitlines() if "support vectors" in ln]
    assert row.split()[:5] == ["support", "vectors", "(samples)", "(1,", "2,"] and "(0," not in row
    assert row.count("(1, 2, 4)") == 2  # the exact run and SVC(C=1e6) agree
    assert main(["compare", "svm-hard", str(p), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["exact"]["support"] == [0, 1, 3]
