"""The CLI contract: JSON fields, exit statuses, one-line errors."""

import json
import subprocess
import sys

import pytest

from exactlin._version import __version__
from exactlin.cli.app import main

EX1_CSV = "x1,x2,y\n4,0,1\n1,1,-1\n0,1,-1\n-2,-2,1\n"


@pytest.fixture
def ex1(tmp_path):
    p = tmp_path / "ex1.csv"
    p.write_text(EX1_CSV)
    return p


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_fit_json_contract(capsys, ex1):
    code, out, err = run_cli(capsys, "fit", "perceptron", str(ex1), "--json")
    assert code == 0, err
    d = json.loads(out)
    # seed 000 Example 1: the perceptron converges to w = (1,-3) after 3 updates
    assert d["algorithm"] == "perceptron" and d["w"] == ["1", "-3"] and d["converged"] is True
    assert d["updates"] == 3 and d["reason"] == "converged" and d["bias"] == "none"
    assert d["exactlin_version"] == __version__
    assert "trace" not in d


def test_fit_params_bias_trace(capsys, ex1):
    code, out, _ = run_cli(capsys, "fit", "perceptron", str(ex1), "--bias", "first", "--param", "eta=1/2",
                           "--trace", "--json")
    d = json.loads(out)
    # hand derivation (see test_perceptron.test_bias_first_on_example1), halved by eta = 1/2
    assert d["w"] == ["1/2", "1/2", "-3/2"] and d["bias"] == "first"
    assert len(d["trace"]) == 8 and d["trace"][0]["w_after"] == ["1/2", "2", "0"]


def test_fit_positive_label(capsys, tmp_path):
    p = tmp_path / "animals.csv"
    p.write_text("4,0,cat\n1,1,dog\n0,1,dog\n-2,-2,cat\n")
    code, out, _ = run_cli(capsys, "fit", "perceptron", str(p), "--positive", "cat", "--json")
    assert code == 0 and json.loads(out)["w"] == ["1", "-3"]


def test_not_separable_exits_zero(capsys, tmp_path):
    p = tmp_path / "xor.csv"
    p.write_text("1,1,1\n1,-1,-1\n-1,1,-1\n-1,-1,1\n")
    code, out, _ = run_cli(capsys, "fit", "perceptron", str(p), "--json")
    d = json.loads(out)
    assert code == 0 and d["converged"] is False and d["reason"] == "cycle"
    assert d["certificate"]["lambda"] == ["1/4"] * 4 and d["certificate"]["verified"] is True


@pytest.mark.parametrize("argv, fragment", [
    (["fit", "perceptron", "MISSING.csv"], "no such file"),
    (["fit", "nosuch", "DATA"], "unknown algorithm 'nosuch'"),
    (["fit", "perceptron", "DATA", "--param", "eta=0"], "eta must be > 0"),
    (["fit", "perceptron", "DATA", "--param", "gamma=1"], "perceptron has no parameter 'gamma'"),
    (["fit", "perceptron", "DATA", "--param", "eta"], "expected NAME=VALUE"),
    (["fit", "perceptron", "DATA", "--param", "max_epochs=3"], "--max-epochs"),
    (["fit", "perceptron", "DATA", "--param", "eta=1", "--param", "eta=2"], "given twice"),
    (["examples", "show", "nosuch"], "no worked example 'nosuch'"),
])
def test_bad_input_exit_2(capsys, ex1, argv, fragment):
    argv = [str(ex1) if a == "DATA" else a for a in argv]
    code, out, err = run_cli(capsys, *argv)
    assert code == 2
    assert fragment in err and err.count("\n") == 1 and "Traceback" not in err


def test_bad_cell_exit_2(capsys, tmp_path):
    p = tmp_path / "bad.csv"
    p.write_text("1,2,1\n1,oops,-1\n")
    code, _, err = run_cli(capsys, "fit", "perceptron", str(p))
    assert code == 2 and "line 2, column 2" in err


def test_examples_list_and_show(capsys):
    code, out, _ = run_cli(capsys, "examples")
    assert code == 0 and "seed000-example1" in out and "seed000-example2" in out
    code, out, _ = run_cli(capsys, "examples", "show", "seed000-example1", "--format", "json")
    d = json.loads(out)
    assert code == 0 and d["verified"] is True and d["runs"][0]["w"] == ["1", "-3"]
    code, out, _ = run_cli(capsys, "examples", "show", "seed000-example2", "--format", "latex")
    assert code == 0 and out.startswith("\\documentclass") and out.rstrip().endswith("\\end{document}")
    # seed 000 Example 2 by hand: four updates from 0, w = (1,1), (0,2), (1,1), (0,0): a cycle back to w = 0
    trace = out[out.index("$k$ & $i$ & $x$"):].split("\\end{longtable}")[0]
    assert "\\bottomrule" in trace and "\\frac" not in trace
    assert "4 & 4 & $(-1,\\allowbreak -1)$ & $1$ & $-2$ & yes & $(0,\\allowbreak 0)$" in out
    code, out, _ = run_cli(capsys, "examples", "show", "seed000-example1")
    assert "(3, -1)" in out and "verified: yes" in out


def test_algorithms_table(capsys):
    code, out, _ = run_cli(capsys, "algorithms", "show", "perceptron")
    assert code == 0 and "eta" in out and "default 1" in out and "000_478cb53c624e7eb5.txt" in out


def test_main_job_subprocess():
    # the README's first command ends by running bare `exactlin`
    p = subprocess.run([sys.executable, "-m", "exactlin.cli"], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    assert "worked examples reproduced and verified" in p.stdout and "FAILED" not in p.stdout
    assert "verified: NO" not in p.stdout


def test_deterministic_output_across_processes(ex1):
    cmd = [sys.executable, "-m", "exactlin.cli", "fit", "perceptron", str(ex1), "--trace", "--json"]
    a = subprocess.run(cmd, capture_output=True, text=True, env={"PYTHONHASHSEED": "1"})
    b = subprocess.run(cmd, capture_output=True, text=True, env={"PYTHONHASHSEED": "2"})
    assert a.returncode == 0 and a.stdout == b.stdout


def test_progress_can_be_turned_off(capsys, ex1, monkeypatch):
    import exactlin.cli.app as cli

    monkeypatch.setattr(cli.sys.stderr, "isatty", lambda: True, raising=False)
    code, out, err = run_cli(capsys, "--no-progress", "fit", "perceptron", str(ex1), "--json")
    assert code == 0 and err == "" and json.loads(out)["w"] == ["1", "-3"]
    cli._PROGRESS["on"] = True


def test_schedule_text_never_reaches_eval(capsys, ex1):
    # sympy parses with Python's eval: a schedule may contain only numbers, k, + - * / ^ and parentheses
    code, _, err = run_cli(capsys, "fit", "batch-perceptron", str(ex1), "--param",
                           "eta=__import__('os').system('echo x')")
    assert code == 2 and "a schedule is a number or an expression in k" in err


# ---------------------------------------------------------------------------
# new-user walkthrough regressions

SEED003_CSV = "x1,x2,y\n1,2,1\n2,0,1\n3,1,-1\n2,3,-1\n"


def _csv(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def test_ho_kashyap_text_prints_the_separator_certificate_fields(capsys, tmp_path):
    # seed 003's example, bias first: Y rows z_i = y_i (1, x_i) = (1,1,2), (1,2,0), (-1,-3,-1), (-1,-2,-3);
    # a = (11/3, -4/3, -2/3) gives Y a = (11/3-4/3-4/3, 11/3-8/3, -11/3+4+2/3, -11/3+8/3+2) = (1, 1, 1, 1)
    code, out, err = run_cli(capsys, "fit", "ho-kashyap", _csv(tmp_path, "s3.csv", SEED003_CSV))
    assert code == 0, err
    line = next(ln for ln in out.splitlines() if ln.startswith("certificate"))
    assert line == "certificate (separator, verified: yes): a = (11/3, -4/3, -2/3); min_Ya = 1"


def test_ho_kashyap_text_prints_the_gordan_certificate_fields(capsys, tmp_path):
    # x = 0 (+1), 1 (-1), 2 (+1), bias first: Y = [[1,0],[-1,-1],[1,2]], Y^tY = [[3,3],[3,5]], Y^t 1 = (1,1),
    # so a = (1/3, 0), Y a - 1 = e = (-2/3, -4/3, -2/3) <= 0 and lambda = -e/sum(-e) = (1/4, 1/2, 1/4)
    # (check: 1/4 (1,0) + 1/2 (-1,-1) + 1/4 (1,2) = (0,0))
    code, out, err = run_cli(capsys, "fit", "ho-kashyap", _csv(tmp_path, "ns.csv", "0,1\n1,-1\n2,1\n"))
    assert code == 0, err
    line = next(ln for ln in out.splitlines() if ln.startswith("certificate"))
    assert line == "certificate (gordan, verified: yes): lambda = (1/4, 1/2, 1/4); e = (-2/3, -4/3, -2/3)"


def test_converged_reason_text_fits_ho_kashyap(capsys, tmp_path):
    # Ho-Kashyap decides at k = 0 (no pass through the data, no update): its reason may not claim a pass
    code, out, _ = run_cli(capsys, "fit", "ho-kashyap", _csv(tmp_path, "s3.csv", SEED003_CSV))
    line = next(ln for ln in out.splitlines() if ln.startswith("converged:"))
    assert "reason: converged (" in line and "full cycle through the data" not in line
    assert "reason: converged (Y a > 0 on every sample)" in line  # the short reason of Ho-Kashyap
    code, out, _ = run_cli(capsys, "fit", "ho-kashyap", _csv(tmp_path, "s3.csv", SEED003_CSV), "--json")
    d = json.loads(out)
    assert d["reason"] == "converged" and d["updates"] == d["epochs"] == d["steps"] == 0  # the code is unchanged


def test_algorithms_show_json(capsys):
    code, out, err = run_cli(capsys, "algorithms", "show", "perceptron", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["exactlin_version"] == __version__
    assert (d["name"], d["seed"], d["family"]) == ("perceptron", "000_478cb53c624e7eb5.txt", "perceptron")
    params = {p["name"]: p for p in d["params"]}
    # the lecture's perceptron: eta = 1 from w = 0 (w0 default: none given), mistake iff y<w,x> <= 0
    assert params["eta"]["default"] == "1" and params["w0"]["default"] is None
    # strict's default is the variant's own test (issue 20: <= 0 corrected, seed 004's < 0 printed)
    assert params["strict"]["default"] is None and params["monitor"]["default"] is True
    assert {"w_star", "max_updates", "max_bits", "max_seconds"} <= set(params)
    assert d["max_epochs"]["default"] >= 1


def test_examples_show_json_is_format_json(capsys):
    code, out, err = run_cli(capsys, "examples", "show", "seed000-example1", "--json")
    assert code == 0, err
    d = json.loads(out)
    code2, out2, _ = run_cli(capsys, "examples", "show", "seed000-example1", "--format", "json")
    assert code2 == 0 and json.loads(out2) == d
    assert d["exactlin_version"] == __version__ and d["id"] == "seed000-example1"
    # seed 000 Example 1: w = (1, -3) after three updates
    assert d["runs"][0]["w"] == ["1", "-3"] and d["runs"][0]["updates"] == 3
    code, out, err = run_cli(capsys, "examples", "show", "seed000-example1", "--json", "--format", "latex")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "--json" in err and "--format latex" in err


@pytest.mark.parametrize("algorithm", ["lms", "widrow-hoff"])
def test_eta_and_eta1_conflict(capsys, tmp_path, algorithm):
    code, out, err = run_cli(capsys, "fit", algorithm, _csv(tmp_path, "s3.csv", SEED003_CSV),
                             "--param", "eta=1/k", "--param", "eta1=2")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "eta and eta1 conflict" in err


@pytest.mark.parametrize("algorithm, params, names", [
    ("perceptron", ["w_star=1,-3", "monitor=false"], "w_star and monitor"),
    ("fixed-increment", ["w_star=1,1,1", "monitor=false"], "w_star and monitor"),
    ("svm-hard", ["degree=3"], "degree and kernel"),
    ("svm-soft", ["kernel=linear", "coef0=2"], "coef0 and kernel"),
    ("feature-map", ["degree=3"], "degree and map"),
])
def test_other_conflicting_parameters(capsys, ex1, algorithm, params, names):
    argv = ["fit", algorithm, str(ex1)]
    for p in params:
        argv += ["--param", p]
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert f"{names} conflict" in err


@pytest.mark.parametrize("algorithm, steps", [("lms", 8), ("widrow-hoff", 2)])
def test_mse_rules_record_max_epochs(capsys, tmp_path, algorithm, steps):
    # 4 samples: 2 passes are 8 single-sample LMS steps; Widrow-Hoff's iteration is one epoch
    code, out, _ = run_cli(capsys, "fit", algorithm, _csv(tmp_path, "s3.csv", SEED003_CSV), "--max-epochs", "2",
                           "--json")
    d = json.loads(out)
    assert code == 0 and d["reason"] == "max_epochs" and d["steps"] == steps
    assert d["params"]["max_epochs"] == 2
    code, out, _ = run_cli(capsys, "fit", algorithm, _csv(tmp_path, "s3.csv", SEED003_CSV), "--max-epochs", "2")
    assert "max_epochs=2" in next(ln for ln in out.splitlines() if ln.startswith("params:"))


def test_label_errors_name_the_csv_line(tmp_path, capsys):
    # rows are 0-based sample indices in the API (.row), named from 1 in the message ("sample 3" for row 2);
    # on the CLI the message also names the file line
    # (here the header is line 1 and a comment is line 4, so the third sample 'bird' is on line 5)
    p = tmp_path / "three.csv"
    p.write_text("x1,x2,y\n1,2,cat\n3,4,dog\n# a comment\n5,6,bird\n")
    assert main(["--no-progress", "fit", "perceptron", str(p), "--positive", "cat"]) == 2
    err = capsys.readouterr().err
    assert "'bird' (sample 3)" in err and f"(line 5 of {p})" in err and err.count("\n") == 1
    assert main(["--no-progress", "fit", "perceptron", str(p)]) == 2
    err = capsys.readouterr().err
    assert "'cat' of sample 1 is not +1 or -1" in err and f"(line 2 of {p})" in err


@pytest.mark.parametrize("cell, positive, plus", [
    ("0.5", "0.5", {"record": "str", "text": "0.5"}), ("1", "1", 1), ("01", "01", {"record": "str", "text": "01"}),
    ("0.5", "1/2", None), ("1", "1.0", None), ("1", "+1", None), ("1", "01", None)])
def test_positive_names_the_file_label_by_its_text(tmp_path, capsys, cell, positive, plus):
    # issue 20, one label policy: in a file a label is its text, and --positive names the label of that text
    # (an integer's own decimal text is that integer, so "1" is the label 1; "0.5" and "01" stay texts, and a
    # text that reads as a number is tagged in JSON so that it reads back as the text it is)
    p = tmp_path / "half.csv"
    p.write_text(f"0,1,{cell}\n2,3,3\n4,1,{cell}\n")
    code = main(["fit", "perceptron", str(p), "--positive", positive, "--json"])
    out, err = capsys.readouterr()
    if plus is None:  # another spelling of the same number is another label: absent, never matched by value
        assert code == 2 and f"the positive label '{positive}' does not occur" in err and err.count("\n") == 1
        return
    assert code == 0, err
    assert json.loads(out)["labels"] == {"+1": plus, "-1": 3}
