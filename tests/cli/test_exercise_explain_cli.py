"""``exactlin exercise`` and ``exactlin explain``: output, formats, exit statuses."""

import json
import subprocess
import sys

from exactlin.cli.app import main

EX1_CSV = "x1,x2,y\n4,0,1\n1,1,-1\n0,1,-1\n-2,-2,1\n"
XOR_CSV = "x1,x2,y\n0,0,a\n1,1,a\n1,0,b\n0,1,b\n"


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_exercise_markdown_and_answers(capsys):
    code, q, err = run_cli(capsys, "exercise", "perceptron", "--seed", "3")
    assert code == 0, err
    assert "generator exgen-2, algorithm perceptron, seed 3" in q and "Answer key" not in q
    code, qa, _ = run_cli(capsys, "exercise", "perceptron", "--seed", "3", "--answers")
    assert qa.startswith(q.rstrip("\n")) and "## Answer key" in qa and "Independent checks" in qa


def test_exercise_formats(capsys):
    for fmt in ("latex", "html", "json"):
        code, out, err = run_cli(capsys, "exercise", "mse", "--seed", "1", "--format", fmt, "--answers")
        assert code == 0, err
        assert out.isascii()
    d = json.loads(out)
    assert d["generator"] == "exgen-2" and d["seed"] == 1 and d["answers"]["verified"] is True
    assert all(c["ok"] for c in d["answers"]["checks"])


def test_exercise_size_and_difficulty(capsys):
    code, out, err = run_cli(capsys, "exercise", "fixed-increment", "--size", "5x2", "--difficulty", "medium",
                             "--format", "json")
    assert code == 0, err
    d = json.loads(out)
    assert len(d["X"]) == 5 and d["difficulty"] == "medium"


def test_exercise_bad_input(capsys):
    code, out, err = run_cli(capsys, "exercise", "pocket")
    assert code == 2 and "no exercise for algorithm 'pocket'" in err and not out
    code, out, err = run_cli(capsys, "exercise", "mse", "--size", "4by2")
    assert code == 2 and "--size '4by2'" in err


def test_exercise_same_bytes_across_processes():
    argv = [sys.executable, "-m", "exactlin.cli", "exercise", "svm-hard", "--seed", "5", "--answers"]
    a = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    b = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    c = subprocess.run(argv[:-2] + ["6", "--answers"], capture_output=True, text=True, check=True).stdout
    assert a == b and a != c


def test_explain_example1(capsys, tmp_path):
    p = tmp_path / "ex1.csv"
    p.write_text(EX1_CSV)
    code, out, err = run_cli(capsys, "explain", "perceptron", str(p))
    assert code == 0, err
    # seed 000 Example 1 by hand: updates (0,0)->(4,0)->(3,-1)->(1,-3), K = 3, bound 16*10/2^2 = 40
    assert "= (4, 0)$" in out and "= (3, -1)$" in out and "= (1, -3)$" in out
    assert "lecture notes: The perceptron and its convergence proof" in out and "seed 000" not in out
    assert "K = 3 \\le R^2 \\lVert w^*\\rVert^2 / \\gamma^2 = 40" in out
    for fmt in ("latex", "html"):
        code, out, err = run_cli(capsys, "explain", "perceptron", str(p), "--format", fmt)
        assert code == 0 and out.isascii()


def test_explain_non_separable(capsys, tmp_path):
    p = tmp_path / "xor.csv"
    p.write_text(XOR_CSV)
    code, out, err = run_cli(capsys, "explain", "separable", str(p), "--positive", "a", "--param", "exact_only=true")
    assert code == 0, err
    assert "not linearly separable" in out and "\\frac{1}{4}" in out


def test_explain_bad_input(capsys, tmp_path):
    p = tmp_path / "ex1.csv"
    p.write_text(EX1_CSV)
    code, out, err = run_cli(capsys, "explain", "perceptron", str(p), "--param", "nope=1")
    assert code == 2 and "nope" in err
    code, out, err = run_cli(capsys, "explain", "fisher", str(p), "--max-epochs", "3")
    assert code == 2 and "not iterative" in err


def test_explain_names_the_positive_class_it_used(capsys, tmp_path):
    # issue 20: with --positive pass on a file whose first-listed label is fail, explain said "(the positive class
    # is the data's first-listed label)".  It names the class it used, whichever label comes first.
    p = tmp_path / "grades.csv"
    p.write_text("x1,x2,result\n-2,-1,fail\n3,1,pass\n1,2,pass\n-1,-3,fail\n")
    for positive, negative in (("pass", "fail"), ("fail", "pass")):
        code, out, err = run_cli(capsys, "explain", "perceptron", str(p), "--bias", "first", "--positive", positive)
        assert code == 0, err
        assert f"the positive class {positive} is +1, the label {negative} is -1" in out
        assert "first-listed" not in out
    code, out, _ = run_cli(capsys, "explain", "perceptron", str(p), "--bias", "first", "--positive", "pass",
                           "--format", "latex")
    assert code == 0 and "the positive class pass is +1, the label fail is -1" in out
    p.write_text(EX1_CSV)  # labels that are y_i already: nothing to say
    code, out, _ = run_cli(capsys, "explain", "perceptron", str(p))
    assert code == 0 and "positive class" not in out
