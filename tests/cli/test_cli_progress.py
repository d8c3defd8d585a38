"""The CLI's progress line: stderr only, on a terminal only; standard output byte-identical either way."""

from __future__ import annotations

import io
import sys

import pytest

import exactlin.render.progress as progress_mod
from benchmarks.budget_data import make
from exactlin.cli.app import main
from exactlin.cli.common import PROGRESS


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def noisy_csv(tmp_path):
    X, y = make("noisy", 100)
    p = tmp_path / "noisy.csv"
    p.write_text("".join(",".join(map(str, row)) + f",{lab}\n" for row, lab in zip(X, y)))
    return p


@pytest.fixture(autouse=True)
def _progress_on():
    PROGRESS["on"] = True
    yield
    PROGRESS["on"] = True


ARGS = ["fit", "fixed-increment", "--param", "max_steps=3500"]


def _run(capsys, monkeypatch, argv, tty: bool):
    err = FakeTTY() if tty else io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    code = main(argv)
    out = capsys.readouterr().out
    return code, out, err.getvalue()


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_stdout_identical_with_and_without_the_progress_line(capsys, monkeypatch, noisy_csv, json_flag):
    monkeypatch.setattr(progress_mod, "MIN_INTERVAL", 0)  # show every record
    monkeypatch.delenv("EXACTLIN_NOPROGRESS", raising=False)
    monkeypatch.delenv("EXACTLIN_NO_PROGRESS", raising=False)
    argv = ARGS[:2] + [str(noisy_csv)] + ARGS[2:] + json_flag
    code1, out_tty, err_tty = _run(capsys, monkeypatch, argv, tty=True)
    code2, out_pipe, err_pipe = _run(capsys, monkeypatch, argv, tty=False)
    code3, out_quiet, err_quiet = _run(capsys, monkeypatch, ["--quiet", *argv], tty=True)
    assert code1 == code2 == code3 == 0
    assert out_tty == out_pipe == out_quiet and out_tty
    # the terminal saw 1,000, 2,000 and 3,000 rounds of the 3,500-round budget, then the line was erased
    for k in ("1,000", "2,000", "3,000"):
        assert f"\rexactlin fixed-increment: step {k}  updates " in err_tty
    assert "(budget max_epochs=1000, max_steps=3500)" in err_tty and err_tty.endswith("\r")
    assert "\n" not in err_tty
    assert err_pipe == "" and err_quiet == ""  # not a terminal / --quiet: nothing at all


def test_environment_switches_it_off(capsys, monkeypatch, noisy_csv):
    monkeypatch.setattr(progress_mod, "MIN_INTERVAL", 0)
    monkeypatch.setenv("EXACTLIN_NO_PROGRESS", "1")
    code, out, err = _run(capsys, monkeypatch, ARGS[:2] + [str(noisy_csv)] + ARGS[2:], tty=True)
    assert code == 0 and out and err == ""


def test_algorithms_show_prints_the_default_budgets(capsys):
    assert main(["algorithms", "show", "fixed-increment"]) == 0
    out = capsys.readouterr().out
    assert "max_steps" in out and "50,000" in out
    assert "default budgets (deterministic, never the clock): max_epochs=1000, max_steps=50,000\n" in out
    assert main(["algorithms", "show", "ho-kashyap"]) == 0
    out = capsys.readouterr().out
    assert "ceil(8,000 / n)" in out and "4,096" in out
    assert "default budgets (deterministic, never the clock): max_epochs=1000, k_max=ceil(8,000 / n), max_bits=4,096" \
        in out
