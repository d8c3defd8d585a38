"""``exactlin predict`` and ``fit`` under the one label policy (issue 20 item 1): the reproducers of the issue.

Data: seed 000 Example 1 (000_478cb53c624e7eb5.txt), x = (4, 0), (1, 1), (0, 1), (-2, -2) labelled +1, -1, -1,
+1, separated by w = (1, -3); the README's animals file (examples/data/animals.csv), whose perceptron with the
bias first separates cat from dog (4 of 4 correct, checked in the test from the saved weights).
"""

import json
from fractions import Fraction
from pathlib import Path

import pytest

from exactlin import perceptron
from exactlin.cli.app import main
from exactlin.model.saved import SavedModel, saved_model_json

ROOT = Path(__file__).resolve().parents[2]
EX1 = [((4, 0), 1), ((1, 1), -1), ((0, 1), -1), ((-2, -2), 1)]


def run_cli(capsys, *argv):
    code = main(["--no-progress", *(str(a) for a in argv)])
    out, err = capsys.readouterr()
    return code, out, err


def _dot(w, x):
    return sum(Fraction(a) * Fraction(b) for a, b in zip(w, x))


def test_predict_reads_the_readme_animals_file_without_label_column(capsys, tmp_path):
    # before: exit 2, "line 3, column 3 ...: 'cat' is not a number" unless --label-column 3
    animals = ROOT / "examples" / "data" / "animals.csv"
    m = tmp_path / "m.json"
    assert run_cli(capsys, "fit", "perceptron", animals, "--bias", "first", "--positive", "cat", "--save", m)[0] == 0
    code, out, err = run_cli(capsys, "predict", m, animals, "--json")
    assert code == 0, err
    d = json.loads(out)
    w = [Fraction(v) for v in json.loads(m.read_text())["model"]["w"]]
    rows = [r.split(",") for r in animals.read_text().splitlines() if r and not r.startswith(("#", "height"))]
    assert d["labeled"] is True and [p["label"] for p in d["points"]] == [r[2] for r in rows]
    for p, r in zip(d["points"], rows):
        g = _dot(w, (1, r[0], r[1]))
        assert p["prediction"] == ("cat" if g > 0 else "dog")
    assert d["summary"]["correct"] == 4 and "label_mismatch" not in d["summary"] and err == ""


def test_a_bad_feature_cell_is_still_named(capsys, tmp_path):
    m = tmp_path / "m.json"
    m.write_text(saved_model_json(SavedModel(perceptron([x for x, _ in EX1], [y for _, y in EX1]).model,
                                             "perceptron", "none", (1, -1), 2, "0")))
    f = tmp_path / "bad.csv"
    f.write_text("1,2\nx,3\n")  # as wide as the model: no labels, and 'x' is no number
    code, _, err = run_cli(capsys, "predict", m, f)
    assert code == 2 and "line 2, column 1" in err and "'x' is not a number" in err


L_CSV = "0,-2,01\n-3,1,1\n1,-1,01\n3,1,01\n2,3,01\n"


def test_fit_positive_01_trains_four_positive_and_one_negative(capsys, tmp_path):
    # before: 01 and 1 were read as one label: every sample +1
    f = tmp_path / "l.csv"
    f.write_text(L_CSV)
    code, out, err = run_cli(capsys, "fit", "perceptron", f, "--positive", "01", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["labels"] == {"+1": {"record": "str", "text": "01"}, "-1": 1}
    assert d["converged"] is True  # so sign <w, x_i> is each sample's +1/-1 label
    w = [Fraction(v) for v in d["w"]]
    xs = [tuple(map(int, r.split(",")[:2])) for r in L_CSV.splitlines()]
    assert [1 if _dot(w, x) > 0 else -1 for x in xs] == [1, -1, 1, 1, 1]
    assert d["model"]["positive"] == {"record": "str", "text": "01"} and d["model"]["negative"] == 1


def test_linear_machine_sees_two_classes(capsys, tmp_path):
    # before: "the labels are all 1"
    f = tmp_path / "l.csv"
    f.write_text(L_CSV)
    code, out, err = run_cli(capsys, "fit", "linear-machine", f, "--json")
    assert code == 0, err
    assert json.loads(out)["classes"] == [{"record": "str", "text": "01"}, 1]


def _pass_fail_model(tmp_path, capsys):
    f = tmp_path / "pf.csv"
    f.write_text("".join(f"{a},{b},{'pass' if y == 1 else 'fail'}\n" for (a, b), y in EX1))
    m = tmp_path / "pf.json"
    assert run_cli(capsys, "fit", "perceptron", f, "--positive", "pass", "--save", m)[0] == 0
    return m


def test_predict_says_when_the_file_labels_are_not_the_models(capsys, tmp_path):
    # before: "accuracy 0/7" and no word about it
    m = _pass_fail_model(tmp_path, capsys)
    pts = [((4, 0), "+1"), ((5, 1), "+1"), ((-2, -2), "+1"), ((1, 1), "-1"), ((0, 1), "-1"), ((0, 2), "-1"),
           ((-1, 3), "-1")]
    f = tmp_path / "pm.csv"
    f.write_text("".join(f"{a},{b},{y}\n" for (a, b), y in pts))
    code, out, err = run_cli(capsys, "predict", m, f)
    assert code == 0
    assert err.startswith("exactlin: warning: 7 of 7 labelled points have a label the model does not predict: "
                          "'+1' (3 points), '-1' (4 points); the model's labels are 'pass', 'fail'")
    assert "compared: the text of each file label with the text of each model label" in err
    assert err.count("\n") == 1 and "accuracy: 0/7" in out
    code, out, err = run_cli(capsys, "predict", m, f, "--json")
    mm = json.loads(out)["summary"]["label_mismatch"]
    assert code == 0 and "warning" in err
    assert mm["file_labels"] == [{"record": "str", "text": "+1"}, -1] and mm["points"] == [3, 4]
    assert mm["n_points"] == 7 and mm["of"] == 7 and mm["model_labels"] == ["pass", "fail"]
    assert "text" in mm["compared"]


def test_a_python_model_on_1_and_minus_1_predicts_on_a_csv(capsys, tmp_path):
    run = perceptron([x for x, _ in EX1], [y for _, y in EX1])
    m = tmp_path / "m.json"
    m.write_text(saved_model_json(SavedModel(run.model, "perceptron", "none", (1, -1), 2, "0")))
    f = tmp_path / "t.csv"
    f.write_text("".join(f"{a},{b},{y}\n" for (a, b), y in EX1))
    code, out, err = run_cli(capsys, "predict", m, f, "--json")
    s = json.loads(out)["summary"]
    assert code == 0 and err == "" and s["correct"] == 4 and "label_mismatch" not in s


@pytest.mark.parametrize("labels, cells, correct", [
    ((0.5, 1.5), ("0.5", "1.5"), 4),  # a float is written as Python writes it
    ((Fraction(1, 2), Fraction(3, 2)), ("1/2", "3/2"), 4),
    ((Fraction(1, 2), Fraction(3, 2)), ("0.5", "1.5"), 0),  # 1/2 is not written 0.5: the labels do not match
    (("01", "1"), ("01", "1"), 4), ((True, False), ("True", "False"), 4)])
def test_a_file_label_matches_the_model_label_of_its_text(capsys, tmp_path, labels, cells, correct):
    pos, neg = labels
    run = perceptron([x for x, _ in EX1], [pos if y == 1 else neg for _, y in EX1], positive=pos)
    m = tmp_path / "m.json"
    m.write_text(saved_model_json(SavedModel(run.model, "perceptron", "none", labels, 2, "0")))
    f = tmp_path / "t.csv"
    f.write_text("".join(f"{a},{b},{cells[0] if y == 1 else cells[1]}\n" for (a, b), y in EX1))
    code, out, err = run_cli(capsys, "predict", m, f, "--json")
    s = json.loads(out)["summary"]
    assert code == 0 and s["correct"] == correct
    assert ("label_mismatch" in s) == (correct == 0) and ("warning" in err) == (correct == 0)


#: a saved model written by exactlin before the label policy (format 1: labels untyped), kept verbatim
FORMAT_1 = """{
  "record": "saved-model", "format": 1, "exactlin_version": "0.1.0", "algorithm": "perceptron", "bias": "first",
  "labels": ["cat", "dog"], "n_features": 2, "label_name": "animal", "feature_names": ["height", "weight"],
  "model": {"record": "linear-model", "w": ["0", "-7/2", "3"], "bias": "first", "positive": "cat",
            "negative": "dog"}
}
"""


def test_a_model_saved_in_format_1_still_loads_and_predicts(capsys, tmp_path):
    m = tmp_path / "old.json"
    m.write_text(FORMAT_1)
    animals = ROOT / "examples" / "data" / "animals.csv"
    code, out, err = run_cli(capsys, "predict", m, animals, "--json")
    d = json.loads(out)
    assert code == 0, err
    assert d["model_info"]["format"] == 1 and d["model_info"]["labels"] == ["cat", "dog"]
    # w = (0, -7/2, 3) on (1, 3/2, 4), (1, 2, 9/2), (1, 5, 1), (1, 11/2, 1/2): 27/4, 13/2, -29/2, -71/4
    assert [p["decision"] for p in d["points"]] == ["27/4", "13/2", "-29/2", "-71/4"]
    assert [p["prediction"] for p in d["points"]] == ["cat", "cat", "dog", "dog"]
    assert d["summary"]["correct"] == 4


def test_labels_are_printed_by_their_text(capsys, tmp_path):
    # a bool label is True/False in every output (the text renderer writes a bool value as yes/no)
    run = perceptron([x for x, _ in EX1], [y == 1 for _, y in EX1], positive=True)
    m = tmp_path / "m.json"
    m.write_text(saved_model_json(SavedModel(run.model, "perceptron", "none", (True, False), 2, "0")))
    f = tmp_path / "t.csv"
    f.write_text("".join(f"{a},{b},{y == 1}\n" for (a, b), y in EX1))
    code, out, err = run_cli(capsys, "predict", m, f, "--format", "csv")
    rows = [r.split(",") for r in out.splitlines()[1:]]
    assert code == 0 and err == ""
    assert [(r[-3], r[-2], r[-1]) for r in rows] == [("True", "True", "yes"), ("False", "False", "yes"),
                                                     ("False", "False", "yes"), ("True", "True", "yes")]
    code, out, _ = run_cli(capsys, "fit", "perceptron", f, "--positive", "True")
    assert code == 0 and "labels: +1 = True, -1 = False" in out
