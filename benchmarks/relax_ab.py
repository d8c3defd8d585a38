"""A/B of the relaxation workloads between two checkouts: CPU time, interleaved, medians (issue 22).

    git worktree add /work/wt/relax-old 91429bc      # the code before the engine rewrite (once)
    OPENBLAS_NUM_THREADS=1 python -m benchmarks.relax_ab --old /work/wt/relax-old [--repeats 5]
        [--only single-sample-relaxation batch-relaxation balanced-winnow]

The workload is RESULTS.md's "Relaxation and balanced Winnow on fast exact arithmetic" (``flint_relax_workload``
of benchmarks/workloads.py): ``budget_data.make("separable", 100, 10)``; single-sample relaxation and balanced
Winnow with ``max_epochs=50, max_steps=None, max_bits=None`` (5,000 rounds), batch relaxation with
``max_steps=50, max_bits=None``; every call with its default arithmetic (the fast path on both sides).

Each checkout runs in a worker process of its own (``PYTHONPATH`` = that checkout, so each imports its own
exactlin and its own ``benchmarks.budget_data``); the parent sends "run" to the two workers in turn, ``--repeats``
rounds, one warm-up call each first.  A worker times the public call alone with ``time.process_time`` (its own
CPU clock: the machine is shared, wall time is not comparable) and answers with the time and a digest of the Run
(w, reason, updates, steps, max_bits, the mistakes), which must agree between the two sides: the A/B is only
printed for identical Runs.  The ratio is new / old (below 1: the new code is faster).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

WORKLOADS = {
    "single-sample-relaxation": ("exactlin.algorithms.relaxation", "single_sample_relaxation",
                                 {"max_epochs": 50, "max_steps": None, "max_bits": None}),
    "batch-relaxation": ("exactlin.algorithms.relaxation", "batch_relaxation", {"max_steps": 50, "max_bits": None}),
    "balanced-winnow": ("exactlin.algorithms.winnow", "balanced_winnow",
                        {"max_epochs": 50, "max_steps": None, "max_bits": None}),
}

#: the worker: reads a workload key per line, answers one JSON line {"cpu": seconds, "digest": ...}
WORKER = r"""
import hashlib, importlib, json, sys, time
sys.set_int_max_str_digits(0)  # the digest reprs numbers of thousands of digits
from benchmarks.budget_data import make
X, y = make("separable", 100, 10)
work = json.loads(sys.argv[1])
for line in sys.stdin:
    module, name, kw = work[line.strip()]
    fn = getattr(importlib.import_module(module), name)
    t = time.process_time()
    r = fn(X, y, **kw)
    cpu = time.process_time() - t
    digest = hashlib.sha256(repr((tuple(r.w), r.reason, r.updates, r.steps, r.extras.get("max_bits"),
                                  tuple(r.extras.get("mistakes") or ()), X, y)).encode()).hexdigest()[:16]
    print(json.dumps({"cpu": cpu, "digest": digest, "file": sys.modules[module].__file__}), flush=True)
"""


class Worker:
    def __init__(self, root: Path):
        env = dict(os.environ, PYTHONPATH=str(root), OPENBLAS_NUM_THREADS="1")
        self.root = root
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER, json.dumps(WORKLOADS)], cwd=root, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def run(self, key: str) -> dict:
        self.proc.stdin.write(key + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"the worker in {self.root} died")
        out = json.loads(line)
        if not out["file"].startswith(str(self.root)):
            raise SystemExit(f"the worker in {self.root} imported {out['file']}")
        return out

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True, type=Path, help="the other checkout (e.g. a worktree at 91429bc)")
    ap.add_argument("--new", type=Path, default=HERE, help="default: this checkout")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--only", nargs="+", default=["single-sample-relaxation"], choices=list(WORKLOADS))
    args = ap.parse_args(argv)
    sides = {"old": Worker(args.old.resolve()), "new": Worker(args.new.resolve())}
    status = 0
    try:
        for key in args.only:
            digests = {name: w.run(key)["digest"] for name, w in sides.items()}  # warm-up
            times: dict[str, list[float]] = {name: [] for name in sides}
            for _ in range(args.repeats):
                for name, w in sides.items():
                    out = w.run(key)
                    times[name].append(out["cpu"])
                    if out["digest"] != digests[name]:
                        raise SystemExit(f"{key}: {name} gave a different Run on a repeat")
            same = digests["old"] == digests["new"]
            old, new = (statistics.median(times[s]) for s in ("old", "new"))
            print(f"{key}: old {old * 1000:.0f} ms, new {new * 1000:.0f} ms (CPU, median of {args.repeats}, "
                  f"interleaved), new / old {new / old:.3f}; Runs {'identical' if same else 'DIFFER'}")
            print("   old:", " ".join(f"{t * 1000:.0f}" for t in times["old"]),
                  "| new:", " ".join(f"{t * 1000:.0f}" for t in times["new"]))
            status |= not same
    finally:
        for w in sides.values():
            w.close()
    return status


if __name__ == "__main__":
    sys.exit(main())
