"""The pocket against the perceptron it runs (issue 22, the ratio of benchmarks/RESULTS.md's section "pocket on the
integer kernel"), with absolute times: ``pocket(X, y, T=2000, max_epochs=2000)`` and ``perceptron(X, y,
bias="first", max_updates=2000)`` on ``budget_data.make("noisy", n, d)`` (both make the same 2,000 PLA updates),
median of 5 interleaved runs, CPU time of this process (``time.process_time``), BLAS on one thread:

* the 2,000 x 10 list of Python ints (the workload of ``benchmarks.compare_results --only pocket``: about half of
  each call is the data layer's conversion of the list);
* the same data as a numpy int64 array (conversion almost free: the loops compared);
* 10,000 x 50 as a list (``--big``; the float32 tier's bound d m_Z m_v < 2^24 is tighter there).

Run: ``OPENBLAS_NUM_THREADS=1 PYTHONPATH=. python benchmarks/pocket_ratio.py [--big]``; the same file with
``PYTHONPATH`` set to another checkout times that checkout's code (before / after a change).
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np


def _median_times(fns: dict, reps: int) -> dict:
    times: dict = {k: [] for k in fns}
    out: dict = {}
    for _ in range(reps):
        for k, f in fns.items():  # interleaved: a slow spell of the machine hits every row alike
            t = time.process_time()
            out[k] = f()
            times[k].append(time.process_time() - t)
    return {k: (statistics.median(v), out[k]) for k, v in times.items()}


def main(big: bool = False, reps: int = 5, n: int = 2000, d: int = 10, T: int = 2000) -> None:
    from benchmarks.budget_data import make
    from exactlin.algorithms.perceptron import perceptron
    from exactlin.algorithms.perceptron_family import pocket

    cases = [(f"{n:,} x {d}, list", n, d, False), (f"{n:,} x {d}, int64 array", n, d, True)]
    if big:
        cases.append(("10,000 x 50, list", 10_000, 50, False))
    print("| data | pocket() | perceptron(bias=first, max_updates=T) | ratio | pocket's tiers |")
    print("|---|---|---|---|---|")
    for label, rows, cols, as_array in cases:
        X, y = make("noisy", rows, cols)
        if as_array:
            X = np.asarray(X, dtype=np.int64)
        res = _median_times({"pocket": lambda X=X, y=y: pocket(X, y, T=T, max_epochs=T),
                             "perceptron": lambda X=X, y=y: perceptron(X, y, bias="first", max_updates=T)}, reps)
        (tp, r), (tq, p) = res["pocket"], res["perceptron"]
        # the same PLA iteration: the pocket's last iterate is the perceptron's w after the same updates
        assert tuple(r.extras["w_pla"]) == tuple(p.w) and r.updates == p.updates
        tiers = {k: v for k, v in ((r.arithmetic or {}).get("tiers") or {}).items() if v}
        print(f"| {label} | {tp * 1e3:.1f} ms | {tq * 1e3:.1f} ms | {tp / tq:.2f}x | {tiers} |")


if __name__ == "__main__":
    main(big="--big" in sys.argv[1:])
