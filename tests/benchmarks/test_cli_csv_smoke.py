"""The whole-process CLI benchmark at smoke size: the MAPL data are separable CSV of
entries k/250, and `exactlin fit` and the plain-Python anchor find the same w.  Never asserts a time."""

from __future__ import annotations

import json
from fractions import Fraction

from benchmarks.cli_csv import main, mapl_csv


def test_mapl_data_are_entries_k_over_250_with_labels_plus_minus_one():
    rows = [line.split(",") for line in mapl_csv(30, 7, seed=1).splitlines()]
    assert len(rows) == 30 and {len(r) for r in rows} == {8}
    for r in rows:
        assert all(abs(Fraction(c)) <= 1 and (Fraction(c) * 250).denominator == 1 for c in r[:-1])
        assert r[-1] in ("1", "-1")


def test_smoke_fit_and_anchor_agree(tmp_path):
    out = tmp_path / "r.json"
    assert main(["--smoke", "--dir", str(tmp_path), "--json", str(out)]) == 0
    results = json.loads(out.read_text())
    assert [(r["n"], r["d"]) for r in results] == [(40, 100), (80, 100)]
    assert all(r["same_w"] and r["updates"] >= 1 for r in results)
