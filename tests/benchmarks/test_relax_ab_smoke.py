"""Smoke test of benchmarks/relax_ab.py: the tree against itself, one round of the shortest workload."""

from pathlib import Path

from benchmarks.relax_ab import main

ROOT = Path(__file__).resolve().parents[2]


def test_one_round_against_itself(capsys):
    assert main(["--old", str(ROOT), "--new", str(ROOT), "--only", "batch-relaxation", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    # the same code on both sides: the same Run, and a ratio printed from two positive times
    assert "batch-relaxation: old " in out and "Runs identical" in out and "new / old " in out
