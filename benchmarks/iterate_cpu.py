"""CPU time (``time.process_time``, robust to a loaded machine) of the iterate rules on both representations.

    python -m benchmarks.iterate_cpu [--repeats 3]

Workload of ``flint_iterates_workload``: ``budget_data.make("noisy", 100, 10)``, ``k_max=50`` (LMS: 500 steps),
``max_bits=None``; each rule with the default representation (flint) and with ``arithmetic="fraction"``,
interleaved, medians.  To compare two versions, run it in each checkout in turn, twice.
"""

from __future__ import annotations

import argparse
import statistics
import time


def main(argv=None) -> None:
    from exactlin.algorithms.ho_kashyap import ho_kashyap, ho_kashyap_mod1, ho_kashyap_mod2
    from exactlin.algorithms.mse import lms, widrow_hoff

    from .budget_data import make

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    X, y = make("noisy", 100, 10)
    for fn, steps in ((ho_kashyap, 50), (ho_kashyap_mod1, 50), (ho_kashyap_mod2, 50), (widrow_hoff, 50), (lms, 500)):
        fn(X, y, k_max=steps, max_bits=None)  # warm up (imports, caches)
        times: dict[str, list[float]] = {"flint": [], "fraction": []}
        for _ in range(args.repeats):
            for arithmetic in times:
                t = time.process_time()
                fn(X, y, k_max=steps, max_bits=None, arithmetic=arithmetic)
                times[arithmetic].append(time.process_time() - t)
        f, r = (statistics.median(times[a]) for a in ("flint", "fraction"))
        print(f"{fn.__name__}: flint {f * 1000:.1f} ms, fraction {r * 1000:.0f} ms, fraction / flint {r / f:.1f}x")


if __name__ == "__main__":
    main()
