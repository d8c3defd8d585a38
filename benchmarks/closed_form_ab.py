"""A/B timing of the closed-form algorithms (mse, fisher, separable, the SVMs) between two source trees.

    python -m benchmarks.closed_form_ab BASE_TREE [NEW_TREE] [--rounds 6] [--repeat 5]

Each round runs every row once in each tree, each tree in a fresh process (``PYTHONPATH`` = the tree), the order
alternating between rounds (ABBA); a row's time in a round is the median of ``--repeat`` calls after one warm-up,
as wall time and as the process's CPU time (``time.process_time``: on a loaded machine the wall time swings by a
factor of two between rounds, the CPU time by a few percent).  The table gives the median over the rounds and the
ratio new / base.  The rows: the benchmarks/RESULTS.md workloads mse, fisher, separability and svm at their sizes,
and four cells of benchmarks/svm_scaling.py (n = 3,000 linear; n = 200 polynomial kernel).  Make BASE_TREE with
``git archive <commit> | tar -x -C BASE_TREE``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCALING_CELLS = (("separable", 3000, "svm-soft"), ("noisy", 3000, "svm-hard"), ("separable", 3000, "svm-soft-l2"),
                 ("product", 200, "svm-soft poly 3"))


def worker(repeat: int) -> dict:
    """The rows, timed in this process's exactlin."""
    import exactlin
    from benchmarks import svm_scaling
    from benchmarks import workloads as W
    from exactlin.algorithms import get

    out: dict = {"exactlin": exactlin.__file__}

    def timed(name, fn, k=repeat):
        fn()
        wall, cpu = [], []
        for _ in range(k):
            t, c = time.perf_counter(), time.process_time()
            fn()
            wall.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
        out[name] = statistics.median(wall)
        out[name + " [cpu]"] = statistics.median(cpu)

    for wl in (W.mse_workload(), W.fisher_workload(), W.separability_workload(), W.svm_workload()):
        for impl in wl.exactlin:
            timed(f"{wl.key}: {impl.name}", impl.fn)
    for kind, n, row in SCALING_CELLS:
        X, y = svm_scaling.data(kind, n)
        name, params = svm_scaling._params(kind, row)
        f = get(name).func
        timed(f"svm_scaling {kind} {row} n={n}", lambda f=f, X=X, y=y, params=params: f(X, y, **params),
              k=max(1, repeat - 2))
    return out


def run_in(tree: Path, repeat: int) -> dict:
    """The worker in a fresh process on ``tree``: run as a script, so that only PYTHONPATH decides which exactlin
    (and which benchmarks package) is imported."""
    env = {**os.environ, "PYTHONPATH": str(tree), "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", str(repeat)], cwd=tree,
                          env=env, capture_output=True, text=True, check=True)
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    where = out.pop("exactlin")
    if not where.startswith(str(tree)):
        raise RuntimeError(f"the worker for {tree} imported {where}")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.closed_form_ab", description=__doc__.splitlines()[0])
    ap.add_argument("base", type=Path, nargs="?")
    ap.add_argument("new", type=Path, nargs="?", default=HERE.parent)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--worker", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker is not None:
        print(json.dumps(worker(args.worker)))
        return 0
    res: dict = {"base": [], "new": []}
    for r in range(args.rounds):
        for which in (("base", "new") if r % 2 == 0 else ("new", "base")):
            res[which].append(run_in(getattr(args, which).resolve(), args.repeat))
    print(f"| row | base | new | new / base |   ({args.rounds} rounds, ABBA)\n|---|---|---|---|")
    for k in res["base"][0]:
        a = statistics.median(x[k] for x in res["base"])
        b = statistics.median(x[k] for x in res["new"])
        print(f"| {k} | {a * 1000:.1f} ms | {b * 1000:.1f} ms | {b / a:.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
