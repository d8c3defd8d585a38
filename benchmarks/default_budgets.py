"""Every registered algorithm, DEFAULT parameters, on the two data sets of :mod:`benchmarks.budget_data`
(separable, noisy) at n = 100 and 2,000 (d = 10): does each default call end soon, and why?

    python -m benchmarks.default_budgets [--smoke] [--timeout S] [--only NAME ...] [--sizes N ...]
                                         [--json PATH] [--write-results]

Each call runs in its own subprocess (``python -m benchmarks.default_budgets --worker NAME SET N``) under a
hard external timeout (default 60 s; the benchmark itself cannot hang), which prints one JSON line: the
wall time of the call alone (data generation and imports excluded), the stop reason, updates, epochs and the
largest bit length the run reports.  ``--smoke``: n = 30 only, one subprocess per algorithm for both sets
(timeout 60 s each).
``--write-results`` replaces the section "Default budgets" of benchmarks/RESULTS.md with the table.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS_MD = HERE / "RESULTS.md"
SECTION = "## Default budgets (issue 14): every algorithm's default call"


def worker(name: str, kind: str, n: int) -> dict:
    from benchmarks.budget_data import make
    from exactlin.algorithms import get

    spec = get(name)
    X, y = make(kind, n)
    if name == "feature-map":  # its default map (lift_circle) lifts points of the plane: the first two features
        X = [row[:2] for row in X]
    t = time.perf_counter()
    run = spec.func(X, y)
    dt = time.perf_counter() - t
    bits = run.extras.get("max_bits") if isinstance(run.extras.get("max_bits"), int) else None
    return {"algorithm": name, "n": n, "set": kind, "seconds": round(dt, 3), "reason": run.reason,
            "updates": run.updates, "epochs": run.epochs, "steps": run.steps, "max_bits": bits}


def run_one(name: str, kind: str, n: int, timeout: float) -> dict:
    return run_group(name, [kind], n, timeout)[0]


def run_group(name: str, kinds: list[str], n: int, timeout: float) -> list[dict]:
    """The calls of one algorithm on ``kinds`` in ONE subprocess (``--smoke``: saves interpreter starts),
    under one hard timeout; a call that did not report is a TIMEOUT or ERROR row."""
    cmd = [sys.executable, "-m", "benchmarks.default_budgets", "--worker", name, ",".join(kinds), str(n)]
    env = dict(os.environ)
    root = str(HERE.parent)
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    def blank(kind, reason):
        return {"algorithm": name, "n": n, "set": kind, "seconds": None, "reason": reason, "updates": None,
                "epochs": None, "steps": None, "max_bits": None}

    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=root, env=env)
        stdout, err, failed = p.stdout, p.stderr, p.returncode != 0
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        stdout, err, failed = out, f"TIMEOUT>{timeout:g}s", True
    done = {r["set"]: r for r in (json.loads(ln) for ln in stdout.splitlines() if ln.startswith("{"))}
    rows = []
    for kind in kinds:
        if kind in done:
            rows.append(done[kind])
        elif err.startswith("TIMEOUT"):
            rows.append(blank(kind, err))
        else:
            last = (err.strip().splitlines() or ["?"])[-1] if failed else "no report"
            rows.append(blank(kind, f"ERROR: {last[:120]}"))
    return rows


def table(rows: list[dict]) -> str:
    def cell(v):
        return "-" if v is None else f"{v:,}" if isinstance(v, int) else str(v)

    out = ["| algorithm | n | set | time (s) | reason | updates | epochs/iterations | max bits |",
           "|---|---:|---|---:|---|---:|---:|---:|"]
    for r in rows:
        secs = "-" if r["seconds"] is None else f"{r['seconds']:.2f}"
        out.append(f"| {r['algorithm']} | {r['n']:,} | {r['set']} | {secs} | {r['reason']} | {cell(r['updates'])} | "
                   f"{cell(r['epochs'])} | {cell(r['max_bits'])} |")
    return "\n".join(out)


def write_section(text: str) -> None:
    md = RESULTS_MD.read_text() if RESULTS_MD.exists() else ""
    start = md.find(SECTION)
    if start >= 0:
        end = md.find("\n## ", start + len(SECTION))
        md = md[:start] + text + (md[end + 1:] if end >= 0 else "")
    else:
        md = md.rstrip("\n") + "\n\n" + text
    RESULTS_MD.write_text(md if md.endswith("\n") else md + "\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worker", nargs=3, metavar=("NAME", "SETS", "N"), help=argparse.SUPPRESS)
    ap.add_argument("--smoke", action="store_true", help="n = 30 only")
    ap.add_argument("--timeout", type=float, default=60.0, help="hard limit per call, seconds (default 60)")
    ap.add_argument("--only", nargs="*", default=None, help="these algorithms only")
    ap.add_argument("--sizes", nargs="*", type=int, default=None, help="sample counts (default 100 2000)")
    ap.add_argument("--sets", nargs="*", default=None, help="data sets (default separable noisy)")
    ap.add_argument("--json", default=None, help="write the rows as JSON here")
    ap.add_argument("--write-results", action="store_true", help="replace the section in benchmarks/RESULTS.md")
    a = ap.parse_args(argv)
    if a.worker:
        name, kinds, n = a.worker
        for kind in kinds.split(","):
            print(json.dumps(worker(name, kind, int(n))), flush=True)
        return 0
    from benchmarks.budget_data import SETS
    from exactlin.algorithms import all_specs

    names = a.only or [s.name for s in all_specs()]
    sizes = a.sizes or ([30] if a.smoke else [100, 2000])
    sets = a.sets or list(SETS)
    rows = []
    for n in sizes:
        groups = [(name, sets) for name in names] if a.smoke else [(name, [k]) for k in sets for name in names]
        for name, kinds in groups:
            for r in run_group(name, kinds, n, a.timeout):
                rows.append(r)
                secs = "-" if r["seconds"] is None else f"{r['seconds']:.2f}"
                print(f"{name:<26} {n:>6} {r['set']:<10} {secs:>8}s  {r['reason']:<14} updates={r['updates']} "
                      f"epochs={r['epochs']} bits={r['max_bits']}", flush=True)
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1) + "\n")
    if a.write_results:
        import platform

        head = (f"{SECTION}\n\n`python -m benchmarks.default_budgets` on {platform.python_version()}, "
                f"{os.cpu_count()} cores (shared), each call in its own process, hard timeout {a.timeout:g} s; "
                "time = the call alone (no imports, no data generation).\n\n")
        write_section(head + table(rows) + "\n")
    bad = [r for r in rows if not r["reason"] or r["reason"].startswith(("TIMEOUT", "ERROR"))]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
