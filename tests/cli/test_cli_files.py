"""The CLI on real files (issue 16, item 5): fit --save and predict, --label-column, --delimiter, standard
input, did-you-mean, --help examples, fit --format, and compare on a value beyond the float range.

Expected values come from seed 000 Example 1 (the perceptron converges to w = (1, -3) after 3 updates in 8
steps, as tests/cli/test_cli.py has it) or are recomputed in the test from the saved weights."""

import csv
import io
import json
import sys
from fractions import Fraction

import pytest

from exactlin.cli.app import main

EX1_ROWS = [((4, 0), 1), ((1, 1), -1), ((0, 1), -1), ((-2, -2), 1)]
EX1_CSV = "x1,x2,y\n" + "".join(f"{a},{b},{y}\n" for (a, b), y in EX1_ROWS)


def run_cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def ex1(tmp_path):
    p = tmp_path / "ex1.csv"
    p.write_text(EX1_CSV)
    return p


def _dot(w, x):
    return sum(Fraction(a) * Fraction(b) for a, b in zip(w, x))


# ---------------------------------------------------------------------------
# 1. fit --save, predict


def test_save_writes_model_and_metadata(capsys, ex1, tmp_path):
    m = tmp_path / "model.json"
    code, out, err = run_cli(capsys, "fit", "perceptron", ex1, "--save", m, "--json")
    assert code == 0, err
    assert json.loads(out)["w"] == ["1", "-3"]  # --save leaves the JSON contract alone
    d = json.loads(m.read_text())
    assert d["record"] == "saved-model" and d["format"] == 2 and d["algorithm"] == "perceptron"
    assert d["bias"] == "none" and d["n_features"] == 2 and d["labels"] == [1, -1]
    assert d["model"]["record"] == "linear-model" and d["model"]["w"] == ["1", "-3"]
    assert "exactlin_version" in d
    assert not list(tmp_path.glob(".model.json.*"))  # the atomic writer left no temporary file


def test_predict_recomputed_by_hand(capsys, ex1, tmp_path):
    m = tmp_path / "model.json"
    assert run_cli(capsys, "fit", "perceptron", ex1, "--bias", "first", "--save", m)[0] == 0
    w = [Fraction(v) for v in json.loads(m.read_text())["model"]["w"]]  # (w0, w1, w2), bias first
    pts = [(4, 0), (1, 1), (3, 1), (0, 0), (-1, 5), ("1/2", "-7/3")]
    new = tmp_path / "new.csv"
    new.write_text("a,b\n" + "".join(f"{x},{y}\n" for x, y in pts))  # no label column: width = 2 features
    code, out, err = run_cli(capsys, "predict", m, new, "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["labeled"] is False and len(d["points"]) == len(pts)
    undefined = 0
    for p, row in zip(pts, d["points"]):
        g = _dot(w, (1, *p))
        assert Fraction(row["decision"]) == g
        want = 1 if g > 0 else -1 if g < 0 else None
        assert row["prediction"] == want and row["undefined"] == (want is None)
        undefined += want is None
    assert d["summary"]["undefined"] == undefined and d["summary"]["decided"] == len(pts) - undefined


def test_predict_boundary_point_is_undefined(capsys, ex1, tmp_path):
    m = tmp_path / "model.json"
    run_cli(capsys, "fit", "perceptron", ex1, "--save", m)
    new = tmp_path / "new.csv"
    new.write_text("3,1\n6,2\n1,0\n")  # w = (1, -3): g(3,1) = g(6,2) = 0 (boundary), g(1,0) = 1
    code, out, _ = run_cli(capsys, "predict", m, new, "--format", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["decision"] for r in rows] == ["0", "0", "1"]
    assert [r["prediction"] for r in rows] == ["undefined", "undefined", "1"]
    code, out, _ = run_cli(capsys, "predict", m, new)
    assert code == 0 and "undefined (on the boundary): 2" in out


def test_predict_labeled_accuracy_and_confusion(capsys, ex1, tmp_path):
    m = tmp_path / "model.json"
    run_cli(capsys, "fit", "perceptron", ex1, "--save", m)
    w = [Fraction(v) for v in json.loads(m.read_text())["model"]["w"]]
    test = [((4, 0), 1), ((1, 1), 1), ((3, 1), -1), ((0, 1), -1), ((2, 5), 1), ((-1, -1), -1)]
    f = tmp_path / "test.csv"
    f.write_text("label,x1,x2\n" + "".join(f"{y},{a},{b}\n" for (a, b), y in test))
    code, out, err = run_cli(capsys, "predict", m, f, "--label-column", "label", "--json")
    assert code == 0, err
    s = json.loads(out)["summary"]
    pred = [1 if _dot(w, x) > 0 else -1 if _dot(w, x) < 0 else None for x, _ in test]
    decided = [(p, y) for p, (_, y) in zip(pred, test) if p is not None]
    correct = sum(p == y for p, y in decided)
    assert s["undefined"] == pred.count(None) == 1
    assert s["correct"] == correct and Fraction(s["accuracy"]) == Fraction(correct, len(decided))
    conf = s["confusion"]
    assert conf["labels"] == [1, -1] and conf["predicted"] == [1, -1]
    want = [[sum(1 for p, (_, y) in zip(pred, test) if y == t and p == c) for c in (1, -1)]
            + [sum(1 for p, (_, y) in zip(pred, test) if y == t and p is None)] for t in (1, -1)]
    assert conf["matrix"] == want


def test_predict_width_mismatch_and_bad_model(capsys, ex1, tmp_path):
    m = tmp_path / "model.json"
    run_cli(capsys, "fit", "perceptron", ex1, "--save", m)
    f = tmp_path / "wide.csv"
    f.write_text("1,2,3,4\n")
    code, _, err = run_cli(capsys, "predict", m, f)
    assert code == 2 and "the model takes 2 features" in err and err.count("\n") == 1
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    code, _, err = run_cli(capsys, "predict", bad, f)
    assert code == 2 and "expected a JSON object" in err


@pytest.mark.parametrize("version, word", [(3, "newer"), (0, "older"), ("x", "not a version number")])
def test_model_format_version_checked(capsys, ex1, tmp_path, version, word):
    m = tmp_path / "model.json"
    run_cli(capsys, "fit", "perceptron", ex1, "--save", m)
    d = json.loads(m.read_text())
    d["format"] = version
    m.write_text(json.dumps(d))
    code, _, err = run_cli(capsys, "predict", m, ex1)
    assert code == 2 and (f"format version {version!r}" if isinstance(version, str) else f"version {version}") in err
    assert word in err


def test_predict_reads_fit_json_and_multiclass(capsys, tmp_path):
    # three classes; whatever W the linear machine finds, predict must be the argmax of the saved W (ties: None)
    f = tmp_path / "three.csv"
    f.write_text("label,x1,x2\na,0,0\nb,3,0\nc,0,3\na,1,0\nb,4,1\nc,1,4\n")
    j = tmp_path / "run.json"
    code, out, err = run_cli(capsys, "fit", "linear-machine", f, "--label-column", "label", "--save",
                             tmp_path / "m.json", "--json")
    assert code == 0, err
    j.write_text(out)
    saved = json.loads((tmp_path / "m.json").read_text())
    W = [[Fraction(v) for v in w] for w in saved["model"]["W"]]
    classes = saved["model"]["classes"]
    assert sorted(classes) == ["a", "b", "c"]  # the label column, not x2, is the class
    pts = [(0, 0), (3, 0), (0, 3), (2, 2), (5, -1), (1, 1)]
    new = tmp_path / "new.csv"
    new.write_text("".join(f"{a},{b}\n" for a, b in pts))
    for model in (tmp_path / "m.json", j):  # the saved model, and the JSON of fit --json
        code, out, err = run_cli(capsys, "predict", model, new, "--json")
        assert code == 0, err
        for p, row in zip(pts, json.loads(out)["points"]):
            xa = (1, *p) if saved["model"]["bias"] == "first" else (*p, 1) if saved["model"]["bias"] == "last" else p
            g = [_dot(w, xa) for w in W]
            top = [c for c, v in zip(classes, g) if v == max(g)]
            assert row["prediction"] == (top[0] if len(top) == 1 else None)


# ---------------------------------------------------------------------------
# 2-4. --label-column, --delimiter, standard input


@pytest.mark.parametrize("spec", ["label", "1"])
def test_label_column_first(capsys, tmp_path, spec):
    f = tmp_path / "lab.csv"
    f.write_text("label,x1,x2\n" + "".join(f"{y},{a},{b}\n" for (a, b), y in EX1_ROWS))
    code, out, err = run_cli(capsys, "fit", "perceptron", f, "--label-column", spec, "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["w"] == ["1", "-3"] and d["updates"] == 3  # seed 000 Example 1, whatever column the label is in


def test_label_column_middle_and_errors(capsys, tmp_path):
    f = tmp_path / "mid.csv"
    f.write_text("".join(f"{a},{y},{b}\n" for (a, b), y in EX1_ROWS))
    code, out, _ = run_cli(capsys, "fit", "perceptron", f, "--label-column", "2", "--json")
    assert code == 0 and json.loads(out)["w"] == ["1", "-3"]
    code, _, err = run_cli(capsys, "fit", "perceptron", f, "--label-column", "9")
    assert code == 2 and "1..3" in err
    code, _, err = run_cli(capsys, "separable", f, "--label-column", "nosuch")
    assert code == 2 and "label column 'nosuch'" in err
    bad = tmp_path / "badcell.csv"
    bad.write_text("label,x1,x2\n1,4,0\n-1,1,zz\n")
    code, _, err = run_cli(capsys, "fit", "perceptron", bad, "--label-column", "label")
    assert code == 2 and "line 3, column 3" in err  # the file's own column, not the reordered one


def test_separable_label_column(capsys, tmp_path):
    f = tmp_path / "xor.csv"
    f.write_text("y,a,b\n1,1,1\n-1,1,-1\n-1,-1,1\n1,-1,-1\n")
    code, out, _ = run_cli(capsys, "separable", f, "--label-column", "y", "--json")
    assert code == 0 and json.loads(out)["separable"] is False  # XOR: not separable


@pytest.mark.parametrize("sep, flag", [(";", None), ("\t", None), (";", ";"), ("\t", "tab")])
def test_delimiters(capsys, tmp_path, sep, flag):
    f = tmp_path / "d.csv"
    f.write_text(EX1_CSV.replace(",", sep))
    extra = ["--delimiter", flag] if flag else []
    code, out, err = run_cli(capsys, "fit", "perceptron", f, "--json", *extra)
    assert code == 0, err
    assert json.loads(out)["w"] == ["1", "-3"]


def test_wrong_width_names_delimiter(capsys, tmp_path):
    f = tmp_path / "d.csv"
    f.write_text("x1;x2;y\n4;0;1\n1;1\n")
    code, _, err = run_cli(capsys, "fit", "perceptron", f)
    assert code == 2 and "line 3" in err and "delimiter ';'" in err
    g = tmp_path / "e.csv"
    g.write_text("4;0;1\n1;1;-1\n")
    code, _, err = run_cli(capsys, "fit", "perceptron", g, "--delimiter", ",")
    assert code == 2 and "delimiter ','" in err


def test_stdin(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(EX1_CSV.encode())))
    code, out, err = run_cli(capsys, "fit", "perceptron", "-", "--json", "--save", tmp_path / "m.json")
    assert code == 0, err
    assert json.loads(out)["w"] == ["1", "-3"]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"4\t0\n1\t1\n")))
    code, out, err = run_cli(capsys, "predict", tmp_path / "m.json", "-", "--json")
    assert code == 0, err
    assert [p["prediction"] for p in json.loads(out)["points"]] == [1, -1]  # 4 - 0 > 0, 1 - 3 < 0


# ---------------------------------------------------------------------------
# 5-6. did you mean


def test_did_you_mean(capsys, ex1):
    code, _, err = run_cli(capsys, "fit", "perceptorn", ex1)
    assert code == 2 and "did you mean perceptron" in err and err.count("\n") == 1
    code, out, _ = run_cli(capsys, "fit", "Perceptron", ex1, "--json")  # letter case is ignored
    assert code == 0 and json.loads(out)["algorithm"] == "perceptron"
    code, _, err = run_cli(capsys, "algorithms", "show", "svm")
    assert code == 2 and "svm-hard, svm-soft or svm-soft-l2" in err
    code, _, err = run_cli(capsys, "fitt", "perceptron", ex1)
    assert code == 2 and "did you mean fit?" in err
    code, _, err = run_cli(capsys, "fit", "perceptron", ex1, "--param", "etta=1")
    assert code == 2 and "did you mean eta?" in err


# --help examples: tests/cli/test_cli_help.py walks every command and subcommand


# ---------------------------------------------------------------------------
# 7. fit --format


def test_fit_format_csv(capsys, ex1):
    code, out, _ = run_cli(capsys, "fit", "perceptron", ex1, "--format", "csv", "--trace")
    assert code == 0
    comments = dict(ln[2:].split(": ", 1) for ln in out.splitlines() if ln.startswith("# "))
    assert comments["w"] == "(1, -3)" and comments["updates"] == "3"
    rows = list(csv.DictReader(ln for ln in out.splitlines() if not ln.startswith("#")))
    assert len(rows) == 8 and rows[-1]["w after"] == "(1, -3)"
    assert sum(r["update"] == "update" for r in rows) == 3


def test_fit_format_markdown_and_latex(capsys, ex1):
    code, out, _ = run_cli(capsys, "fit", "perceptron", ex1, "--format", "markdown")
    assert code == 0 and "| w | (1, -3) |" in out and "| updates | 3 |" in out
    assert sum(ln.startswith("| ") and ln.split(" | ")[0] in {f"| {k}" for k in range(1, 9)}
               for ln in out.splitlines()) == 8  # the 8 trace steps
    code, out, _ = run_cli(capsys, "fit", "perceptron", ex1, "--format", "latex")
    assert code == 0 and out.startswith(r"\documentclass") and out.count(r"\begin{longtable}") == 2
    assert r"updates & $3$ \\" in out
    code, out, _ = run_cli(capsys, "fit", "perceptron", ex1, "--format", "json")
    assert json.loads(out)["w"] == ["1", "-3"]
    code, _, err = run_cli(capsys, "fit", "perceptron", ex1, "--format", "latex", "--json")
    assert code == 2 and "conflict" in err


# ---------------------------------------------------------------------------
# 8. compare on a value beyond the float range


def test_compare_overflow_is_one_line(capsys, tmp_path):
    pytest.importorskip("sklearn")
    f = tmp_path / "big.csv"
    f.write_text("x1,x2,y\n1e400,0,1\n1,1,-1\n0,1,-1\n-2,-2,1\n")
    code, out, err = run_cli(capsys, "compare", "perceptron", f)  # 401 digits: the input-size limit first
    assert code == 2 and out == "" and err.count("\n") == 1 and "--input-digits 401" in err
    code, out, err = run_cli(capsys, "compare", "perceptron", f, "--input-digits", "401")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "line 2" in err and "float range" in err and "Traceback" not in err


def test_predict_json_names_the_model_and_label_note(capsys, ex1, tmp_path):
    m = tmp_path / "model.json"
    run_cli(capsys, "fit", "perceptron", ex1, "--save", m)
    code, out, _ = run_cli(capsys, "predict", m, ex1, "--json")
    d = json.loads(out)
    assert code == 0 and d["labeled"] is True  # 3 columns = 2 features + the label, last
    assert d["model_info"]["algorithm"] == "perceptron" and d["model_info"]["format"] == 2
    assert d["summary"]["accuracy"] == "1"  # w = (1, -3) separates Example 1: 4 of 4
    f = tmp_path / "lab.csv"
    f.write_text("label,x1,x2\n" + "".join(f"{y},{a},{b}\n" for (a, b), y in EX1_ROWS))
    code, _, err = run_cli(capsys, "separable", f)
    # the default (the last column, x2, whose values are no +1/-1 labels) stays, with a note naming the fix
    assert code == 2 and "note: the label is the last column ('x2')" in err and "--label-column label" in err
