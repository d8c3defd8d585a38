"""Smoke test of benchmarks/closed_form_ab.py: one round, one call per row, the tree against itself."""

from pathlib import Path

from benchmarks.closed_form_ab import SCALING_CELLS, main

ROOT = Path(__file__).resolve().parents[2]


def test_one_round_against_itself(capsys):
    assert main([str(ROOT), str(ROOT), "--rounds", "1", "--repeat", "1"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ") and "ms |" in line]
    # wall and CPU for the four RESULTS.md workloads and the svm_scaling cells
    assert len(rows) == 2 * (4 + len(SCALING_CELLS))
    assert all(float(r.rstrip(" |").rsplit("|", 1)[1]) > 0 for r in rows)
