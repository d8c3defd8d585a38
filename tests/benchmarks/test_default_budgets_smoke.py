"""The default-budget benchmark at smoke size: every registered algorithm's default call, in a subprocess under
a hard timeout, ends with a stop reason of REASONS on both data sets.  Never asserts a time."""

from __future__ import annotations

import json

from benchmarks.budget_data import SETS, make
from benchmarks.default_budgets import main
from exactlin.algorithms import all_specs
from exactlin.model.run import REASONS


def test_every_default_call_ends_with_a_reason(tmp_path):
    out = tmp_path / "rows.json"
    rc = main(["--smoke", "--json", str(out)])
    rows = json.loads(out.read_text())
    assert {(r["algorithm"], r["set"]) for r in rows} == {(s.name, k) for s in all_specs() for k in SETS}
    bad = [(r["algorithm"], r["set"], r["reason"]) for r in rows if r["reason"] not in REASONS]
    assert not bad
    assert rc == 0


def test_data_sets_are_the_documented_ones():
    X, y = make("separable", 200)
    assert len(X) == 200 and all(len(r) == 10 and all(-100 <= v <= 100 and isinstance(v, int) for v in r) for r in X)
    Xn, yn = make("noisy", 200)
    assert Xn == X and sum(a != b for a, b in zip(y, yn)) == 10  # 5% of 200 labels flipped
    assert make("noisy", 200) == (Xn, yn)  # seeded: the same every time
