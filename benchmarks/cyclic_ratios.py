"""Issue 22's ratios for the cyclic single-sample loop (exactlin/engine/cyclic.py), median of 5 interleaved runs,
CPU time of this process (``time.process_time``: the machine's other work does not count):

* ``perceptron()`` on 10,000 x 50 planted integer data (benchmarks/workloads.py's ``separable_ints``, the
  perceptron-int workload) against the float64 chunked scan (its anchor), and the loop alone;
* ``perceptron(trace=True)`` (every step recorded, Step records built when read) against ``perceptron()``;
* fixed-increment ``variant="printed"`` against the corrected rule on 2,000 x 20 (budget_data's separable set),
  per step, and per update (the printed rule corrects at almost every step).

Run: ``OPENBLAS_NUM_THREADS=1 PYTHONPATH=. python -m benchmarks.cyclic_ratios``.
"""

from __future__ import annotations

import statistics
import time

import numpy as np


def _median_times(fns: dict, reps: int = 5) -> dict:
    times: dict = {k: [] for k in fns}
    out = {}
    for _ in range(reps):
        for k, f in fns.items():  # interleaved: a slow spell of the machine hits every row alike
            t = time.process_time()
            out[k] = f()
            times[k].append(time.process_time() - t)
    return {k: (statistics.median(v), out[k]) for k, v in times.items()}


def main(reps: int = 5) -> None:
    from exactlin.algorithms._loop import binary_problem
    from exactlin.algorithms.perceptron import perceptron
    from exactlin.algorithms.perceptron_family import fixed_increment
    from exactlin.engine.arith import IntegerArith
    from exactlin.engine.cyclic import cyclic
    from exactlin.engine.trace import Bounds, Tracer

    from .budget_data import make
    from .workloads import float_chunked_perceptron, separable_ints

    X, y = separable_ints(10000, 50)
    Zf = (X * y[:, None]).astype(np.float64)
    prob = binary_problem(X, y, bias="none")
    zero = (0,) * 50
    res = _median_times({
        "float64 chunked scan": lambda: float_chunked_perceptron(Zf, 1000),
        "engine loop (integer)": lambda: cyclic(IntegerArith(prob.Z, zero, step=1), Bounds(), Tracer(False, 50)),
        "perceptron()": lambda: perceptron(X, y),
        "perceptron(trace=True)": lambda: perceptron(X, y, trace=True),
    }, reps)
    anchor = res["float64 chunked scan"][0]
    run = res["perceptron()"][1]
    print(f"perceptron on 10,000 x 50: {run.steps} steps, {run.updates} updates, tiers {run.arithmetic['tiers']}")
    for k, (t, _) in res.items():
        print(f"  {k:26s} {1e3 * t:8.1f} ms   {t / anchor:5.2f}x the float64 scan")
    print(f"  trace=True / perceptron(): {res['perceptron(trace=True)'][0] / res['perceptron()'][0]:.2f}x "
          "(same steps: per step)")

    X2, y2 = make("separable", 2000, 20)
    res = _median_times({
        "corrected": lambda: fixed_increment(X2, y2, max_steps=None, max_epochs=200),
        "printed": lambda: fixed_increment(X2, y2, max_steps=None, max_epochs=20, variant="printed"),
    }, reps)
    (tc, rc), (tp, rp) = res["corrected"], res["printed"]
    print(f"fixed-increment on 2,000 x 20: corrected {1e6 * tc / rc.steps:.3f} us/step ({rc.steps} steps, "
          f"{rc.updates} updates); printed {1e6 * tp / rp.steps:.3f} us/step ({rp.steps} steps, {rp.updates} "
          f"updates, {rp.reason})")
    print(f"  per step: printed / corrected = {(tp / rp.steps) / (tc / rc.steps):.1f}x; per update "
          f"{1e6 * tp / max(rp.updates, 1):.2f} us vs {1e6 * tc / max(rc.updates, 1):.2f} us")


if __name__ == "__main__":
    main()
