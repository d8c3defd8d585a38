"""The SVM scaling workload (issue 23) at smoke size: every exactlin row on every set, each call in its own
process, ends with an answer that the workload's own checker confirms (no float in the run; the KKT
conditions and the zero duality gap recomputed with Fractions, or a Gordan certificate).  Never asserts a time."""

from __future__ import annotations

import json
from fractions import Fraction

from benchmarks.svm_scaling import (
    KERNEL_SETS,
    LINEAR_ROWS,
    LINEAR_SETS,
    SMOKE_KERNEL,
    SMOKE_LINEAR,
    kernel_data,
    kkt_check,
)
from benchmarks.svm_scaling import main as svm_scaling_main


def test_every_smoke_cell_is_exact(tmp_path):
    rc = svm_scaling_main(["--smoke", "--out", str(tmp_path), "--no-plot"])
    rows = json.loads((tmp_path / "svm_scaling.json").read_text())["rows"]
    want = {(k, n, r[0]) for k in LINEAR_SETS for r in LINEAR_ROWS for n in SMOKE_LINEAR}
    want |= {(k, n, row) for k in KERNEL_SETS for n in SMOKE_KERNEL
             for row in ["svm-soft poly 3" if k == "product" else "svm-soft poly 2"]}
    assert {(r["set"], r["n"], r["row"]) for r in rows} == want
    assert all(r["exact"] is True for r in rows), [r for r in rows if r["exact"] is not True]
    assert rc == 0
    assert (tmp_path / "svm_scaling.md").read_text().count("\n| ") == len(rows) + 1


def test_kernel_data_are_the_documented_ones():
    # the 100-point set: integer points in [-4, 4]^2, label sign(x1 x2 + e) with e in [-2, 2], -1 at 0
    X, y = kernel_data("product", 100)
    assert len(X) == 100 and all(-4 <= v <= 4 and isinstance(v, int) for x in X for v in x)
    assert set(y) == {1, -1} and kernel_data("product", 100) == (X, y)
    assert all(yi == 1 for x, yi in zip(X, y) if x[0] * x[1] >= 3)  # e >= -2 cannot bring x1 x2 >= 3 to <= 0
    Xc, yc = kernel_data("circle", 200)
    assert all(-20 <= v <= 20 for x in Xc for v in x)
    assert all(yi == 1 for x, yi in zip(Xc, yc) if x[0] ** 2 + x[1] ** 2 > 180)  # e >= -30


class _Run:
    def __init__(self, alpha, b, w=None):
        self.extras = {"alpha": alpha, "b": b, "w": w}


def test_the_kkt_checker_rejects_a_wrong_answer():
    # seed 004's two points x = 0 (-1), 2 (+1): alpha = (1/2, 1/2), w = 1, b = -1 is the hard margin's optimum
    X, y = [(0,), (2,)], [-1, 1]
    h = Fraction(1, 2)
    assert kkt_check(X, y, _Run((h, h), -1, (1,)), "hard", None) is None
    assert kkt_check(X, y, _Run((1, 1), -1, (2,)), "hard", None) is not None  # feasible, but not optimal
    assert kkt_check(X, y, _Run((h, h), 0, (1,)), "hard", None) is not None
