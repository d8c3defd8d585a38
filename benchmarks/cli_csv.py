"""The CLI end to end on Murphy, Gray and Stewart's perceptron benchmark (MAPL 2017), issue 14 item 5.

    python -m benchmarks.cli_csv [--smoke] [--repeats N] [--dir DIR] [--json PATH]

Data (seeded): a hidden w* in the augmented space (bias first) with entries k/250, samples x with entries
k/250 (k uniform in [-250, 250]), label sign(w* . (1, x)); a sample on the hyperplane is redrawn.  Written as a
CSV (cells as exact fractions such as 3/250, -1/2, 1, 0; the label last) at 400 x 1000 and 1600 x 1000
(``--smoke``: 40 x 100 and 80 x 100).

Timed, each as a whole process (a subprocess; median of ``--repeats``, default 3):

* ``exactlin fit perceptron FILE --bias first --json``;
* the anchor: a plain Python script (written below, independent of exactlin) that reads the same file into
  integers (each cell times 250) and runs the same cyclic perceptron (w <- w + y x when y <w, x> <= 0, bias
  first, until a clean pass).

Each command runs once untimed first (bytecode cached as for an installed package, the file in the page
cache).  Wall-clock time and the child's CPU time (user + system) are both reported: on a shared, loaded
machine the CPU time is the steadier figure.  Both answers are checked equal (exactlin's w times 250 against
the anchor's integer w: the constant 1 is 250 in the anchor's scaling, so the two loops make the same
mistakes and w_anchor = 250 w_exactlin).  Ratios are reported against the anchor and against the paper's C++
GMP times, stated constants: 13.5 s at 400 x 1000 and 126 s at 1600 x 1000.  Targets: fit <= 1/3 of the
anchor; >= 30x faster than 13.5 s at 400 x 1000 and >= 100x faster than 126 s at 1600 x 1000.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

#: the paper's C++ GMP times (Murphy, Gray, Stewart, MAPL 2017), seconds
PAPER_SECONDS = {(400, 1000): 13.5, (1600, 1000): 126.0}
#: the targets of issue 14: fit / anchor at most this, and at least this many times faster than the paper
TARGET_ANCHOR_RATIO = 1 / 3
TARGET_PAPER_SPEEDUP = {(400, 1000): 30, (1600, 1000): 100}
SCALE = 250
#: the `exactlin` console script's body (the same entry point, run by this interpreter)
CLI = "import sys; from exactlin.cli import main; sys.exit(main())"

ANCHOR = r'''
import sys

def main(path):
    rows = []
    with open(path) as f:
        for line in f:
            cells = line.strip().split(",")
            x = [250]  # the constant 1 (bias first), times 250
            for c in cells[:-1]:
                if "/" in c:
                    p, q = c.split("/")
                    x.append(int(p) * (250 // int(q)))
                else:
                    x.append(int(c) * 250)
            y = int(cells[-1])
            rows.append([y * v for v in x])
    n = len(rows)
    w = [0] * len(rows[0])
    clean = k = 0
    while clean < n:
        z = rows[k % n]
        if sum(a * b for a, b in zip(w, z)) <= 0:
            w = [a + b for a, b in zip(w, z)]
            clean = 0
        else:
            clean += 1
        k += 1
    print(" ".join(map(str, w)))

main(sys.argv[1])
'''


def mapl_csv(n: int, d: int, seed: int = 2017) -> str:
    """The benchmark data as CSV text (see the module docstring)."""
    rng = np.random.default_rng(seed)
    ws = rng.integers(-SCALE, SCALE + 1, size=d + 1)  # w* = ws / 250, bias first
    K = np.empty((0, d), dtype=np.int64)
    while len(K) < n:
        C = rng.integers(-SCALE, SCALE + 1, size=(n, d))
        s = ws[0] * SCALE + C @ ws[1:]  # 250^2 w* . (1, x), exact in int64 (|s| < 1001 * 250^2)
        K = np.vstack([K, C[s != 0]])  # a point on the hyperplane is redrawn
    K = K[:n]
    y = np.where(ws[0] * SCALE + K @ ws[1:] > 0, 1, -1)
    cell = {k: str(Fraction(k, SCALE)) for k in range(-SCALE, SCALE + 1)}
    return "".join(",".join([*(cell[k] for k in row), str(lab)]) + "\n" for row, lab in zip(K.tolist(), y.tolist()))


def _env() -> dict[str, str]:
    """The child environment: as this one, but bytecode may be cached (an installed package has its .pyc
    files; PYTHONDONTWRITEBYTECODE=1 would add the compilation of every imported module to every run)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _run(cmd: list[str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the child: user + system, its stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, check=False, env=_env())
    dt = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return dt, cpu, p.stdout


def bench(n: int, d: int, directory: Path, repeats: int) -> dict:
    path = directory / f"mapl_{n}x{d}.csv"
    path.write_text(mapl_csv(n, d))
    anchor = directory / "anchor_perceptron.py"
    anchor.write_text(ANCHOR)
    fit_cmd = [sys.executable, "-c", CLI, "fit", "perceptron", str(path), "--bias", "first", "--json"]
    anchor_cmd = [sys.executable, str(anchor), str(path)]
    fit_t, anchor_t, fit_c, anchor_c = [], [], [], []
    fit_out = anchor_out = ""
    _run(fit_cmd)  # warm-up, untimed: bytecode written, the file in the page cache
    _run(anchor_cmd)
    for _ in range(repeats):  # interleaved rounds: a shared machine's load falls on both alike
        t, c, fit_out = _run(fit_cmd)
        fit_t.append(t)
        fit_c.append(c)
        t, c, anchor_out = _run(anchor_cmd)
        anchor_t.append(t)
        anchor_c.append(c)
    run = json.loads(fit_out)
    w_fit = [Fraction(v) for v in run["w"]]
    w_anchor = [int(v) for v in anchor_out.split()]
    same = run["converged"] and [v * SCALE for v in w_fit] == w_anchor
    res = {"n": n, "d": d, "file": str(path), "fit_cmd": " ".join(["exactlin", *fit_cmd[3:]]),
           "fit_s": statistics.median(fit_t), "anchor_s": statistics.median(anchor_t), "fit_runs": fit_t,
           "anchor_runs": anchor_t, "fit_cpu_s": statistics.median(fit_c), "anchor_cpu_s": statistics.median(anchor_c),
           "updates": run["updates"], "epochs": run["epochs"], "same_w": bool(same)}
    for kind in ("", "_cpu"):  # wall clock, and CPU time (what a loaded shared machine distorts least)
        fit, anchor = res[f"fit{kind}_s"], res[f"anchor{kind}_s"]
        res[f"fit_over_anchor{kind}"] = fit / anchor
        res[f"meets_anchor_target{kind}"] = fit / anchor <= TARGET_ANCHOR_RATIO
        paper = PAPER_SECONDS.get((n, d))
        if paper is not None:
            res["paper_s"] = paper
            res[f"speedup_vs_paper{kind}"] = paper / fit
            res[f"meets_paper_target{kind}"] = paper / fit >= TARGET_PAPER_SPEEDUP[(n, d)]
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.cli_csv", description=__doc__.split("\n\n")[0])
    ap.add_argument("--smoke", action="store_true", help="40 x 100 and 80 x 100, one run each")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--dir", type=Path, default=None, help="where the CSVs are written (default: a temp dir)")
    ap.add_argument("--json", type=Path, default=None, help="write the results as JSON here")
    args = ap.parse_args(argv)
    import tempfile

    sizes = [(40, 100), (80, 100)] if args.smoke else [(400, 1000), (1600, 1000)]
    repeats = 1 if args.smoke else args.repeats
    with tempfile.TemporaryDirectory() as tmp:
        directory = args.dir or Path(tmp)
        directory.mkdir(parents=True, exist_ok=True)
        results = [bench(n, d, directory, repeats) for n, d in sizes]
    print(f"exactlin fit vs a plain Python integer perceptron, whole processes, median of {repeats}; "
          f"{os.cpu_count()} cores")
    print(f"load average {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    for r in results:
        print(f"{r['n']} x {r['d']}: {r['updates']} updates, {r['epochs']} epochs, same w: {r['same_w']}")
        for kind, label in (("", "wall"), ("_cpu", "CPU ")):
            line = (f"  {label}: fit {r[f'fit{kind}_s']:.3f} s, anchor {r[f'anchor{kind}_s']:.3f} s, "
                    f"fit/anchor {r[f'fit_over_anchor{kind}']:.3f} (target <= 1/3: "
                    f"{'met' if r[f'meets_anchor_target{kind}'] else 'missed'})")
            if "paper_s" in r:
                line += (f", {r[f'speedup_vs_paper{kind}']:.1f}x faster than the paper's {r['paper_s']} s (target "
                         f">= {TARGET_PAPER_SPEEDUP[(r['n'], r['d'])]}x: "
                         f"{'met' if r[f'meets_paper_target{kind}'] else 'missed'})")
            print(line)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0 if all(r["same_w"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
