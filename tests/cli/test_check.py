"""``exactlin check`` and the results the CLI saves: fit --save-result, fit --json, separable --json."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from exactlin.cli import main

ROOT = Path(__file__).resolve().parents[2]
XOR = str(ROOT / "examples" / "data" / "xor.csv")
EX1 = str(ROOT / "examples" / "data" / "seed000-example1.csv")


def test_fit_save_result_and_check(tmp_path, capsys):
    p = tmp_path / "r.json"
    assert main(["fit", "perceptron", XOR, "--save-result", str(p)]) == 0
    capsys.readouterr()
    d = json.loads(p.read_text())
    assert d["data"]["options"]["delimiter"] == "," and d["data"]["options"]["header"] is True
    assert main(["check", str(p), XOR]) == 0
    out = capsys.readouterr().out
    assert "claim 1 gordan" in out and "holds" in out
    assert main(["check", str(p), EX1]) == 1  # other data
    assert "fails" in capsys.readouterr().out


def test_fit_json_and_separable_json_carry_their_claims(tmp_path, capsys):
    for argv in (["fit", "svm-hard", EX1, "--json"], ["separable", XOR, "--json"],
                 ["fit", "linear-machine", str(ROOT / "examples" / "data" / "animals.csv"), "--json"]):
        assert main(argv) == 0
        text = capsys.readouterr().out
        p = tmp_path / "r.json"
        p.write_text(text)
        assert json.loads(text)["claims"]
        data = next(a for a in argv if a.endswith(".csv"))
        assert main(["check", str(p), data]) == 0, capsys.readouterr().out
        capsys.readouterr()


def test_check_exit_2_on_a_malformed_file(tmp_path, capsys):
    p = tmp_path / "bad.json"
    p.write_text("{}")
    assert main(["check", str(p)]) == 2
    assert "malformed" in capsys.readouterr().out


def test_the_readme_lines_on_the_committed_result():
    readme = (ROOT / "README.md").read_text()
    lines = ["python exactlin/exactlin_check.py examples/results/xor-perceptron.json examples/data/xor.csv",
             "exactlin check examples/results/xor-perceptron.json"]
    assert all(ln in readme for ln in lines)
    r = subprocess.run([sys.executable, "-I", "-S", *lines[0].split()[1:]], cwd=ROOT, capture_output=True,
                       text=True)
    assert r.returncode == 0 and "claim 1 gordan" in r.stdout, r.stdout
    r = subprocess.run([sys.executable, "-c", "import sys; from exactlin.cli import main; sys.exit(main())",
                        *lines[1].split()[1:]], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0 and "4 of 4 hold" in r.stdout, r.stdout + r.stderr


def test_the_committed_result_makes_todays_claims(tmp_path, capsys):
    p = tmp_path / "r.json"
    assert main(["fit", "perceptron", XOR, "--save-result", str(p)]) == 0
    fresh = json.loads(p.read_text())
    committed = json.loads((ROOT / "examples" / "results" / "xor-perceptron.json").read_text())
    assert committed["claims"] == fresh["claims"] and committed["data"] == fresh["data"]
