"""How the exact SVMs grow (issue 23): linear SVMs from n = 1,000 to 100,000 (d = 10, separable and 5% noisy:
:func:`benchmarks.budget_data.make`) and polynomial-kernel SVMs from n = 100 to 1,000 (d = 2, degree 2 and 3),
beside scikit-learn's SVC on the same data, unscaled and scaled, in one run.

    python -m benchmarks.svm_scaling [--smoke] [--repeat R] [--timeout S] [--linear-sizes N ...]
                                     [--kernel-sizes N ...] [--rows ROW ...] [--sets SET ...] [--out DIR]
                                     [--no-plot] [--no-anchors]

Rows: ``svm-soft`` (C = 1), ``svm-hard`` and ``svm-soft-l2`` (C = 1) on the linear sets; ``svm-soft`` with
``kernel="poly"`` on two kernel sets: ``product`` (degree 3, coef0 0, C = 100: integer points in [-4, 4]^2
labelled by sign(x1 x2 + e), e an integer in [-2, 2], label -1 at 0 -- the issue's 100-point data) and ``circle``
(degree 2, coef0 1, C = 1: integer points in [-20, 20]^2 labelled by sign(x1^2 + x2^2 + e - 150), e an integer in
[-30, 30], label -1 at 0).  Anchors: ``SVC`` with the same kernel and C (gamma = 1 for the polynomial kernel) on
the unscaled data, and on the data scaled to unit spread (StandardScaler: a different problem, shown because
that is how SVC is used).  LinearSVC is not an anchor: it penalises the intercept (LIBLINEAR), so its objective
is not the one these SVMs solve.

Every call runs in its own process (``--worker``) under a hard timeout (default 60 s); the time is the call's wall
time (``time.perf_counter``, data generation and imports outside it, a lazily imported module inside); each cell is
the median of ``--repeat`` runs (default 3), the first of them rechecked. An anchor or a row that times out at some
n is skipped at the larger n. The worker also checks exactness independently of exactlin: no float anywhere in the
run, and the KKT conditions and the zero duality gap recomputed from the data with Python ints and Fractions. The
full run writes ``benchmarks/svm_scaling.md``, ``.json`` and ``.svg`` (committed; the docs' Benchmarks page shows
them); ``--smoke`` (CI: ``tests/benchmarks/test_svm_scaling_smoke.py``) runs tiny sizes once each and checks
exactness only.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).resolve().parent
LINEAR_SIZES = (1000, 3000, 10000, 30000, 100000)
KERNEL_SIZES = (100, 200, 500, 1000)
SMOKE_LINEAR, SMOKE_KERNEL = (60, 120), (40,)
LINEAR_SETS = ("separable", "noisy")
KERNEL_SETS = ("product", "circle")
#: (row name, algorithm, parameters) on the linear sets / on each kernel set
LINEAR_ROWS = (("svm-soft", "svm-soft", {}), ("svm-hard", "svm-hard", {}), ("svm-soft-l2", "svm-soft-l2", {}))
KERNEL_ROWS = {"product": ("svm-soft poly 3", "svm-soft", {"kernel": "poly", "degree": 3, "coef0": 0, "C": 100}),
               "circle": ("svm-soft poly 2", "svm-soft", {"kernel": "poly", "degree": 2, "coef0": 1, "C": 1})}


def kernel_data(kind: str, n: int, seed: int = 3) -> tuple[list, list]:
    """``(X, y)``: n integer points of the plane and labels +1/-1 (see the module's docstring)."""
    rng = random.Random(seed if kind == "product" else f"exactlin-svm-circle-{seed}")
    X, y = [], []
    for _ in range(n):
        if kind == "product":
            x = (rng.randint(-4, 4), rng.randint(-4, 4))
            s = x[0] * x[1] + rng.randint(-2, 2)
        elif kind == "circle":
            x = (rng.randint(-20, 20), rng.randint(-20, 20))
            s = x[0] ** 2 + x[1] ** 2 + rng.randint(-30, 30) - 150
        else:
            raise ValueError(f"kind must be one of {', '.join(KERNEL_SETS)}, got {kind!r}")
        X.append(x)
        y.append(1 if s > 0 else -1)
    return X, y


def data(kind: str, n: int) -> tuple[list, list]:
    from benchmarks.budget_data import make

    return make(kind, n) if kind in LINEAR_SETS else kernel_data(kind, n)


def _params(kind: str, row: str) -> tuple[str, dict]:
    rows = [r for r in LINEAR_ROWS if r[0] == row] if kind in LINEAR_SETS else [KERNEL_ROWS[kind]]
    return rows[0][1], dict(rows[0][2])


def kkt_check(X, y, run, loss: str, C, kernel=None) -> str | None:
    """The KKT conditions and the zero duality gap, recomputed from the data with ints and Fractions only (written
    apart from exactlin.theory.kkt); None when they hold, else what fails."""
    alpha = [Fraction(a) for a in run.extras["alpha"]]
    b = Fraction(run.extras["b"])
    n = len(X)
    if any(a < 0 for a in alpha) or (loss == "hinge" and any(a > C for a in alpha)):
        return "a multiplier outside its bounds"
    if sum(a * yi for a, yi in zip(alpha, y)) != 0:
        return "sum alpha_i y_i != 0"
    sv = [i for i in range(n) if alpha[i]]
    if kernel is None:
        d = len(X[0])
        w = [sum((alpha[i] * y[i] * X[i][k] for i in sv), Fraction(0)) for k in range(d)]
        if tuple(w) != tuple(run.extras["w"]):
            return "w != sum alpha_i y_i x_i"
        f = [sum((w[k] * X[i][k] for k in range(d)), Fraction(0)) + b for i in range(n)]
        nw = sum((v * v for v in w), Fraction(0))
    else:
        deg, c0 = kernel

        def K(i, j):
            return (sum(p * q for p, q in zip(X[i], X[j])) + c0) ** deg

        coef = {j: alpha[j] * y[j] for j in sv}
        f = [sum((coef[j] * K(j, i) for j in sv), Fraction(0)) + b for i in range(n)]
        nw = sum((coef[i] * coef[j] * K(i, j) for i in sv for j in sv), Fraction(0))
    m = [y[i] * f[i] for i in range(n)]
    if loss == "hard":
        xi = [Fraction(0)] * n
    elif loss == "hinge":
        xi = [max(Fraction(0), 1 - v) for v in m]
    else:
        xi = [a / (2 * C) for a in alpha]
    for i in range(n):
        if m[i] < 1 - xi[i]:
            return f"sample {i}: primal infeasible"
        if alpha[i] and m[i] != 1 - xi[i]:
            return f"sample {i}: complementary slackness"
        if loss == "hinge" and xi[i] and alpha[i] != C:
            return f"sample {i}: a slack with alpha < C"
    if loss == "hard":
        primal, dual = nw / 2, sum(alpha) - nw / 2
    elif loss == "hinge":
        primal, dual = nw / 2 + C * sum(xi), sum(alpha) - nw / 2
    else:
        primal = nw / 2 + C * sum(v * v for v in xi)
        dual = sum(alpha) - nw / 2 - sum(a * a for a in alpha) / (4 * C)
    return None if primal == dual else f"duality gap {primal - dual}"


def worker(kind: str, n: int, row: str, check: bool = True) -> dict:
    """One call of one row (an exactlin SVM, or ``SVC`` / ``SVC scaled``) on one set, timed; ``check``: recheck the
    answer (the repeats of a cell skip it: the answer is the same, only the time is wanted)."""
    X, y = data(kind, n)
    out = {"set": kind, "n": n, "row": row}
    if row.startswith("SVC"):
        import warnings

        import numpy as np
        from sklearn.preprocessing import StandardScaler
        from sklearn.svm import SVC

        warnings.simplefilter("ignore")
        name, P = _params(kind, "svm-soft" if kind in LINEAR_SETS else KERNEL_ROWS[kind][0])
        Xf = np.array(X, dtype=float)
        t, c = time.perf_counter(), time.process_time()
        if row == "SVC scaled":
            Xf = StandardScaler().fit_transform(Xf)
        kw = {"kernel": "linear", "C": 1.0} if kind in LINEAR_SETS else {
            "kernel": "poly", "degree": P["degree"], "coef0": float(P["coef0"]), "gamma": 1.0, "C": float(P["C"])}
        clf = SVC(**kw).fit(Xf, y)
        out.update(wall_s=round(time.perf_counter() - t, 4), cpu_s=round(time.process_time() - c, 4), reason="float",
                   exact=None,
                   check=f"{len(clf.support_)} support vectors (float64)")
        return out
    from exactlin.algorithms import get

    name, P = _params(kind, row)
    spec = get(name)
    t, c = time.perf_counter(), time.process_time()
    run = spec.func(X, y, **P)
    out["wall_s"] = round(time.perf_counter() - t, 4)
    out["cpu_s"] = round(time.process_time() - c, 4)  # (the machine may be shared: CPU time is the call's own)
    out["reason"] = run.reason
    from benchmarks.scaling import _floats

    floats = _floats({"w": run.w, "extras": run.extras, "model": run.model, "params": run.params})
    if floats:
        out.update(exact=False, check="floats at " + ", ".join(floats[:3]))
    elif not check:
        out.update(exact=None, check="(not rechecked: a repeat)")
    elif run.reason == "not_separable":
        out.update(exact=True, check="Gordan certificate (verified by exactlin)")
    else:
        loss = {"svm-hard": "hard", "svm-soft": "hinge", "svm-soft-l2": "squared"}[name]
        C = Fraction(P.get("C", 1))
        kern = (P["degree"], Fraction(P["coef0"])) if P.get("kernel") == "poly" else None
        bad = kkt_check(X, y, run, loss, C, kern)
        out.update(exact=bad is None, check=bad or "KKT and zero duality gap rechecked with Fractions",
                   support_vectors=len(run.extras["support_vectors"]))
    return out


def _cell(kind: str, n: int, row: str, timeout: float, check: bool = True) -> dict:
    cmd = [sys.executable, "-m", "benchmarks.svm_scaling", "--worker", kind, str(n), row] + ([] if check else ["-"])
    env = dict(os.environ)
    root = str(HERE.parent)
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=root, env=env)
    except subprocess.TimeoutExpired:
        return {"set": kind, "n": n, "row": row, "wall_s": None, "reason": "timeout", "exact": None,
                "check": f">{timeout:g} s"}
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{")]
    if p.returncode != 0 or not lines:
        last = (p.stderr.strip().splitlines() or ["no report"])[-1]
        return {"set": kind, "n": n, "row": row, "wall_s": None, "reason": "error", "exact": None,
                "check": last[:160]}
    return json.loads(lines[-1])


def measure(kind: str, n: int, row: str, repeat: int, timeout: float) -> dict:
    """The median of ``repeat`` calls, each in its own process (the first failure ends the cell); the first
    call's answer is rechecked."""
    runs = []
    for k in range(repeat):
        r = _cell(kind, n, row, timeout, check=k == 0)
        runs.append(r)
        if r["wall_s"] is None:
            return r
    r = dict(runs[0])
    r["wall_s"] = statistics.median(x["wall_s"] for x in runs)
    r["runs_s"] = [x["wall_s"] for x in runs]
    if all("cpu_s" in x for x in runs):
        r["cpu_s"] = statistics.median(x["cpu_s"] for x in runs)
    return r


def table(rows: list[dict]) -> str:
    out = ["| set | row | n | time (s, median) | CPU (s, median) | runs (s) | reason | exact | check |",
           "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        t = "-" if r["wall_s"] is None else f"{r['wall_s']:.2f}"
        runs = ", ".join(f"{v:.2f}" for v in r.get("runs_s", [])) or "-"
        ex = {True: "yes", False: "**NO**", None: "-"}[r["exact"]]
        cpu = "-" if r.get("cpu_s") is None else f"{r['cpu_s']:.2f}"
        out.append(f"| {r['set']} | {r['row']} | {r['n']:,} | {t} | {cpu} | {runs} | {r['reason']} | {ex} | "
                   f"{r['check']} |")
    return "\n".join(out)


def markdown(rows: list[dict], meta: dict) -> str:
    head = ["## SVMs at scale", "",
            f"`{meta['command']}` ({meta['when']}; {meta['machine']}; load average {meta['load_start']} at the start, "
            f"{meta['load_end']} at the end; {meta['total_s']:.0f} s). Each time is the median of "
            f"{meta['repeat']} calls, each in its own process (timeout {meta['timeout']:g} s a call); exactlin's "
            "answers are rechecked in the worker (KKT conditions and zero duality gap, with Fractions). SVC is the "
            "float anchor on the same data, unscaled and scaled to unit spread; LinearSVC is left out (it penalises "
            "the intercept: another objective).", ""]
    if meta.get("plot"):
        head += ["![SVM time against n: exactlin and SVC](svm_scaling.svg)", ""]
    return "\n".join(head) + "\n" + table(rows) + "\n"


def plot(rows: list[dict], path: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    sets = list(dict.fromkeys(r["set"] for r in rows))
    fig, axes = plt.subplots(1, len(sets), figsize=(4 * len(sets), 4.5), squeeze=False)
    for ax, kind in zip(axes[0], sets):
        for row in dict.fromkeys(r["row"] for r in rows if r["set"] == kind):
            pts = sorted((r["n"], r["wall_s"]) for r in rows if r["set"] == kind and r["row"] == row
                         and r["wall_s"] is not None)
            if pts:
                ax.plot([p[0] for p in pts], [max(p[1], 1e-3) for p in pts], marker="o", markersize=3, label=row,
                        linestyle="--" if row.startswith("SVC") else "-")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(kind)
        ax.set_xlabel("n (samples)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    axes[0][0].set_ylabel("wall time, median (s)")
    fig.tight_layout()
    import io

    from exactlin.io import atomic_write_text

    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    plt.close(fig)
    atomic_write_text(path, buf.getvalue())
    return True


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.svm_scaling", description=__doc__.splitlines()[0])
    ap.add_argument("--worker", nargs="+", metavar="SET N ROW [-]", help=argparse.SUPPRESS)
    ap.add_argument("--smoke", action="store_true", help="tiny sizes, one run each, no anchors")
    ap.add_argument("--repeat", type=int, default=None, help="calls per cell, the median is reported (default 3)")
    ap.add_argument("--timeout", type=float, default=60.0, help="hard limit per call, seconds (default 60)")
    ap.add_argument("--linear-sizes", nargs="*", type=int, default=None)
    ap.add_argument("--kernel-sizes", nargs="*", type=int, default=None)
    ap.add_argument("--out", type=Path, default=None,
                    help="directory (default benchmarks/; --smoke: benchmarks/results/)")
    ap.add_argument("--no-plot", action="store_true")
    ap.add_argument("--from-json", type=Path, default=None, metavar="PATH",
                    help="run nothing: write svm_scaling.md and the plot again from this svm_scaling.json")
    ap.add_argument("--no-anchors", action="store_true", help="exactlin's rows only")
    ap.add_argument("--rows", nargs="*", default=None, help="these rows only (e.g. svm-soft SVC)")
    ap.add_argument("--sets", nargs="*", default=None, choices=LINEAR_SETS + KERNEL_SETS, help="these sets only")
    a = ap.parse_args(argv)
    if a.from_json:
        saved = json.loads(a.from_json.read_text())
        out = a.out or a.from_json.parent
        from exactlin.io import atomic_write_text

        if not a.no_plot:
            saved["meta"]["plot"] = "svm_scaling.svg" if plot(saved["rows"], out / "svm_scaling.svg") else None
        atomic_write_text(out / "svm_scaling.md", markdown(saved["rows"], saved["meta"]))
        return 0
    if a.worker:
        kind, n, row = a.worker[:3]
        print(json.dumps(worker(kind, int(n), row, check=len(a.worker) == 3)), flush=True)
        return 0
    lin = a.linear_sizes if a.linear_sizes is not None else list(SMOKE_LINEAR if a.smoke else LINEAR_SIZES)
    ker = a.kernel_sizes if a.kernel_sizes is not None else list(SMOKE_KERNEL if a.smoke else KERNEL_SIZES)
    repeat = a.repeat or (1 if a.smoke else 3)
    anchors = () if (a.smoke or a.no_anchors) else ("SVC", "SVC scaled")
    out = a.out or (HERE / "results" if a.smoke else HERE)
    cmd = "python -m benchmarks.svm_scaling" + (" --smoke" if a.smoke else "") + f" --repeat {repeat}"
    meta = {"command": cmd, "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
            "repeat": repeat, "timeout": a.timeout, "load_start": f"{os.getloadavg()[0]:.1f}"}
    cells = [(k, n, r[0]) for k in LINEAR_SETS for r in LINEAR_ROWS for n in lin]
    cells += [(k, n, KERNEL_ROWS[k][0]) for k in KERNEL_SETS for n in ker]
    cells += [(k, n, anc) for anc in anchors for k in LINEAR_SETS for n in lin]
    cells += [(k, n, anc) for anc in anchors for k in KERNEL_SETS for n in ker]
    cells = [c for c in cells if (a.rows is None or c[2] in a.rows) and (a.sets is None or c[0] in a.sets)]
    rows, dead = [], set()
    t0 = time.perf_counter()
    for kind, n, row in cells:
        if (kind, row) in dead:
            r = {"set": kind, "n": n, "row": row, "wall_s": None, "reason": "skipped", "exact": None,
                 "check": "timed out at a smaller n"}
        else:
            r = measure(kind, n, row, repeat, a.timeout)
            if r["wall_s"] is None:
                dead.add((kind, row))
        rows.append(r)
        t = "-" if r["wall_s"] is None else f"{r['wall_s']:.2f}"
        print(f"{kind:<10} {row:<16} {n:>7} {t:>8}s {r['reason']:<14} exact={r['exact']} {r['check']}", flush=True)
    meta["load_end"] = f"{os.getloadavg()[0]:.1f}"
    meta["total_s"] = round(time.perf_counter() - t0, 1)
    out.mkdir(parents=True, exist_ok=True)
    from exactlin.io import atomic_write_text

    if not a.no_plot:
        meta["plot"] = "svm_scaling.svg" if plot(rows, out / "svm_scaling.svg") else None
    atomic_write_text(out / "svm_scaling.md", markdown(rows, meta))
    atomic_write_text(out / "svm_scaling.json", json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n")
    print(f"wrote {out / 'svm_scaling.md'}, {out / 'svm_scaling.json'}", file=sys.stderr)
    return 1 if any(r["reason"] == "error" or r["exact"] is False for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
