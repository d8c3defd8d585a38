"""The scaling table (issue 14, item 7) at smoke size: every registered algorithm at n = 20 and 40 on both
data sets, in subprocesses under a hard timeout, ends with a stop reason of REASONS and passes the benchmark's
exactness check.  Never asserts a time."""

from __future__ import annotations

import json
from fractions import Fraction

from benchmarks.budget_data import SETS
from benchmarks.scaling import SMOKE_SIZES, make3, separation_check
from benchmarks.scaling import main as scaling_main
from exactlin.algorithms import all_specs
from exactlin.model.run import REASONS


def test_every_cell_ends_with_a_reason_and_is_exact(tmp_path):
    rc = scaling_main(["--smoke", "--out", str(tmp_path), "--no-plot"])
    data = json.loads((tmp_path / "scaling.json").read_text())
    rows = data["rows"]
    want = {(s.name, k, n) for s in all_specs() for k in SETS for n in SMOKE_SIZES}
    assert {(r["algorithm"], r["set"], r["n"]) for r in rows} == want
    bad = [(r["algorithm"], r["set"], r["n"], r["reason"], r["check"]) for r in rows
           if r["reason"] not in REASONS or r["exact"] is not True]
    assert not bad
    assert rc == 0
    md = (tmp_path / "scaling.md").read_text()
    assert md.count("\n| ") == len(rows) + 1  # the header and one line per cell


def test_three_class_data_are_the_documented_ones():
    X, y = make3("separable", 300)
    assert len(X) == 300 and all(len(r) == 10 and all(-100 <= v <= 100 and isinstance(v, int) for v in r) for r in X)
    assert set(y) == {0, 1, 2}
    Xn, yn = make3("noisy", 300)
    assert Xn == X and sum(a != b for a, b in zip(y, yn)) == 15  # 5% of 300 labels moved to another class
    assert make3("noisy", 300) == (Xn, yn)


class _Run:  # the few attributes separation_check reads
    def __init__(self, w, bias, algorithm="perceptron", extras=None):
        self.w, self.bias, self.algorithm, self.extras = w, bias, algorithm, extras or {}


def test_the_separation_check_rejects_a_wrong_separator():
    # hand-made: x1 > 0 is class +1; w = (0, 1) with bias none separates; (0, -1) and (1, 0) (bias first) do not
    X, y = [[1, 5], [2, -3], [-1, 4], [-2, -2]], [1, 1, -1, -1]
    assert separation_check(_Run((Fraction(1), Fraction(0)), "none"), X, y, False) is None
    assert separation_check(_Run((Fraction(-1), Fraction(0)), "none"), X, y, False) is not None
    assert separation_check(_Run((1, 0, 0), "first"), X, y, False) is not None  # the constant alone: all +1
    # multi-class: class i has the unique largest score
    Xm, ym = [[1, 0], [0, 1], [-1, -1]], ["A", "B", "C"]
    good = {"classes": ["A", "B", "C"], "W": [(2, 0), (-1, 1), (-1, -1)]}
    bad = {"classes": ["A", "B", "C"], "W": [(1, 0), (1, 0), (0, 0)]}
    assert separation_check(_Run(None, "none", "linear-machine", good), Xm, ym, True) is None
    assert separation_check(_Run(None, "none", "linear-machine", bad), Xm, ym, True) is not None


def test_the_docs_benchmarks_page_shows_the_committed_table_and_plot(tmp_path, monkeypatch):
    import exactlin.docsgen.site as site

    rows = [{"algorithm": "perceptron", "set": "separable", "n": 100, "wall_s": 0.01, "cpu_s": 0.01,
             "reason": "converged", "updates": 3, "epochs": 2, "steps": 200, "rss_before_kib": 1024,
             "peak_rss_kib": 2048, "exact": True, "check": "ok"}]
    meta = {"command": "python -m benchmarks.scaling --timeout 30", "when": "then", "machine": "x86_64, 2 cores",
            "sizes": [100], "sets": ["separable"], "timeout": 30.0, "load_start": "1.0", "load_end": "1.0"}
    bench = tmp_path / "benchmarks"
    bench.mkdir()
    (bench / "scaling.json").write_text(json.dumps({"meta": meta, "rows": rows}))
    assert scaling_main(["--from-json", str(bench / "scaling.json")]) == 0
    monkeypatch.setattr(site, "CHECKOUT", tmp_path)
    page, _ = site.benchmarks_page()
    assert "python -m benchmarks.scaling --timeout 30" in page and "x86_64, 2 cores" in page
    assert "| perceptron | separable | 100 | 0.010 | 0.010 | converged | 3 | 2 | 2 | 1 | yes |" in page
    assert "![Time against n, every algorithm, separable and noisy](benchmarks/scaling.svg)" in page
    assert (bench / "scaling.svg").read_text().lstrip().startswith("<?xml")
