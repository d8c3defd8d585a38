"""Smoke test of benchmarks/pocket_ratio.py: one run of each row at a small size."""

from benchmarks.pocket_ratio import main


def test_one_run_per_row(capsys):
    main(reps=1, n=60, d=3, T=25)
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| 60 x 3")]
    assert len(rows) == 2 and all(" ms | " in r and r.count("x |") == 1 for r in rows)
