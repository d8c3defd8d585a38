"""The benchmark harness at smoke size: every available workload runs and its exactlin answer passes the
independent exactness check.  Never asserts a time."""

from __future__ import annotations

import json

from benchmarks.run import main
from benchmarks.workloads import WORKLOADS, available


def test_smoke_every_available_workload_is_exact(tmp_path):
    out = tmp_path / "results"
    rc = main(["--smoke", "--no-memory", "--no-plot", "--out", str(out), "--json", str(tmp_path / "r.json")])
    data = json.loads((tmp_path / "r.json").read_text())
    assert (out / "latest.md").exists()
    results = {r["key"]: r for r in data["results"]}
    assert set(results) == set(WORKLOADS)
    for key, (module, *_rest) in WORKLOADS.items():
        res = results[key]
        assert res["available"] == available(module), key
        if res["available"]:
            assert res["exact"], f"{key}: {res['check']}"
            assert any(r["exactlin"] and "median_s" in r for r in res["rows"]), key
    assert rc == 0
