"""How cost grows (issue 14, item 7): every registered algorithm, DEFAULT parameters, at n = 100, 1,000 and
10,000 (d = 10), on separable and noisy planted data: wall time, CPU time, the run's stop reason and peak
memory, as a markdown table, a JSON file and a log-log plot.

    python -m benchmarks.scaling [--smoke] [--timeout S] [--only NAME ...] [--sizes N ...] [--sets SET ...]
                                 [--out DIR] [--no-plot] [--no-skip] [--from-json PATH]

Data: binary algorithms get :func:`benchmarks.budget_data.make` (integer features uniform in [-100, 100],
labels from a planted integer w* with bias; ``noisy`` flips 5% of the labels); multi-class ones
(``linear-machine``, ``one-vs-rest``) get :func:`make3`, a 3-class planted set drawn the same way (three
planted integer weight vectors with biases, the label the arg max, ties drawn again; ``noisy`` moves 5% of
the labels to another class); ``feature-map`` gets the first two features (its default map lifts points of
the plane).  Every algorithm runs with its default parameters and default bias.

Each cell (algorithm, set, n) runs in its own subprocess (``python -m benchmarks.scaling --worker ...``)
under a hard per-cell timeout (default 60 s, ``--timeout``).  The worker reports one JSON line: the call's
wall time (``time.perf_counter``) and CPU time (``time.process_time``: user + system of the process during
the call), both without data generation and the imports before the call (a module the algorithm imports
lazily on its first call, sympy or python-flint, is inside it); the run's reason, updates, epochs, steps; and memory
as ``resource.getrusage(RUSAGE_SELF).ru_maxrss`` of the child (its peak resident set size, KiB on Linux:
the interpreter, numpy and the imported modules included) read before and after the call, so ``peak RSS``
is the process's peak and ``call +RSS`` what the call added above the process's earlier peak.  The worker also
checks exactness independently of exactlin: no float anywhere in the result (weights, extras, model), and
when the reason is ``converged`` (or ``solved`` for ``separable`` / ``svm-hard``) that
the returned weights classify every training sample correctly, recomputed here with Python ints and
Fractions.  After a timeout (or an error) at some n, the larger n of the same algorithm and set are not run
(reported as ``skipped``; ``--no-skip`` runs them anyway).

``--smoke``: n = 20 and 40, every algorithm, all four cells of an algorithm in ONE subprocess (it saves
interpreter starts; per-cell memory is then not per cell), written to ``benchmarks/results/`` (not
committed).  The full run writes ``benchmarks/scaling.md``, ``benchmarks/scaling.json`` and
``benchmarks/scaling.svg`` (committed; the docs' Benchmarks page shows them).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SIZES = (100, 1000, 10000)
SMOKE_SIZES = (20, 40)
SETS = ("separable", "noisy")


def make3(kind: str, n: int, d: int = 10, *, seed: int = 14, flip: float = 0.05) -> tuple[list, list]:
    """``(X, y)``: n rows of d ints uniform in [-100, 100] and n labels 0, 1, 2 from three planted integer
    weight vectors (entries in [-9, 9]) with integer biases in [-50, 50]: the label is the class of the
    largest score (points with a tie are drawn again).  ``noisy``: 5% of the labels (chosen by the seed) moved
    to the next class (c + 1 mod 3)."""
    import random

    if kind not in SETS:
        raise ValueError(f"kind must be one of {', '.join(SETS)}, got {kind!r}")
    rng = random.Random(f"exactlin-scaling3-{seed}-{d}")
    W = [[rng.randint(-9, 9) for _ in range(d)] for _ in range(3)]
    B = [rng.randint(-50, 50) for _ in range(3)]
    X, y = [], []
    while len(X) < n:
        x = [rng.randint(-100, 100) for _ in range(d)]
        g = [sum(a * b for a, b in zip(w, x)) + b0 for w, b0 in zip(W, B)]
        top = max(g)
        if g.count(top) > 1:
            continue
        X.append(x)
        y.append(g.index(top))
    if kind == "noisy":
        for i in rng.sample(range(n), round(flip * n)):
            y[i] = (y[i] + 1) % 3
    return X, y


def data_for(name: str, multiclass: bool, kind: str, n: int) -> tuple[list, list]:
    from benchmarks.budget_data import make

    X, y = make3(kind, n) if multiclass else make(kind, n)
    if name == "feature-map":  # its default map (lift_circle) lifts points of the plane: the first two features
        X = [row[:2] for row in X]
    return X, y


# ---------------------------------------------------------------------------------------------------------
# the independent exactness check (Python ints and Fractions only; nothing from exactlin)

def _floats(obj, path="run", seen=None) -> list[str]:
    """Where a float (Python or numpy floating) occurs in ``obj`` (tuples, lists, dicts, dataclasses,
    objects' attributes, one level of __slots__), as paths."""
    import dataclasses
    from fractions import Fraction

    seen = set() if seen is None else seen
    if id(obj) in seen:
        return []
    seen.add(id(obj))
    if isinstance(obj, float):
        return [path]
    if isinstance(obj, (bool, int, Fraction, str, bytes, type(None))):
        return []
    mod = type(obj).__module__ or ""
    if mod.startswith("numpy"):
        dt = getattr(obj, "dtype", None)
        return [path] if dt is not None and dt.kind in "fc" else []
    if mod.startswith("sympy"):
        return [path] if getattr(obj, "is_Float", False) or bool(getattr(obj, "atoms", lambda *_: ())(
            __import__("sympy").Float)) else []
    if isinstance(obj, dict):
        return [p for k, v in obj.items() for p in _floats(v, f"{path}[{k!r}]", seen)]
    if isinstance(obj, (list, tuple, set, frozenset)):
        return [p for i, v in enumerate(obj) for p in _floats(v, f"{path}[{i}]", seen)]
    if callable(obj) or mod.startswith(("builtins", "fractions")):
        return []
    if dataclasses.is_dataclass(obj):
        return [p for f in dataclasses.fields(obj) for p in _floats(getattr(obj, f.name), f"{path}.{f.name}", seen)]
    attrs = getattr(obj, "__dict__", None)
    if attrs is None and hasattr(obj, "__slots__"):
        attrs = {s: getattr(obj, s, None) for s in obj.__slots__ if not s.startswith("__")}
    if attrs:
        return [p for k, v in attrs.items() if not k.startswith("_") for p in _floats(v, f"{path}.{k}", seen)]
    return []


def _aug(x, bias: str) -> list:
    return [1, *x] if bias == "first" else [*x, 1] if bias == "last" else list(x)


def separation_check(run, X, y, multiclass: bool) -> str | None:
    """None when the returned weights classify every (X, y) correctly (strictly), else what failed;
    recomputed here with Fractions (binary: y_i <w, x~_i> > 0 with +1 the positive label; multi-class:
    the sample's own class has the unique largest score)."""
    from fractions import Fraction

    if multiclass:
        classes, W = run.extras.get("classes"), run.extras.get("W")
        if classes is None or W is None:
            return "no classes/W in extras"
        idx = {c: i for i, c in enumerate(classes)}
        W = [[Fraction(v) for v in w] for w in W]
        for i, (x, lab) in enumerate(zip(X, y)):
            xa = _aug(x, run.bias)
            g = [sum(a * b for a, b in zip(w, xa)) for w in W]
            own = g[idx[lab]]
            if run.algorithm == "one-vs-rest":  # its decision: the class whose classifier alone claims x
                if not (own > 0 and all(v <= 0 for j, v in enumerate(g) if j != idx[lab])):
                    return f"sample {i} not claimed by its class alone"
            elif any(v >= own for j, v in enumerate(g) if j != idx[lab]):
                return f"sample {i} not strictly in its class"
        return None
    w = run.w if run.w is not None else run.extras.get("final_w")  # the voted perceptron: its last vector
    if w is None:
        return "no w"
    w = [Fraction(v) for v in w]
    labels = sorted(set(y))
    pos = 1 if 1 in labels else labels[-1]
    for i, (x, lab) in enumerate(zip(X, y)):
        s = sum(a * b for a, b in zip(w, _aug(x, run.bias)))
        if s == 0 or (s > 0) != (lab == pos):
            return f"sample {i} misclassified (score {s})"
    return None


def worker(name: str, kind: str, n: int) -> dict:
    import resource

    from exactlin.algorithms import get

    spec = get(name)
    X, y = data_for(name, spec.multiclass, kind, n)
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    c, t = time.process_time(), time.perf_counter()
    run = spec.func(X, y)
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    floats = _floats({"w": run.w, "extras": run.extras, "model": run.model, "params": run.params})
    claims = run.reason == "converged" or (run.reason == "solved" and name in ("separable", "svm-hard"))
    sep = separation_check(run, X, y, spec.multiclass) if claims and name != "feature-map" else None
    if floats:
        check = "floats at " + ", ".join(floats[:3])
    elif sep:
        check = "claims to separate, but " + sep
    elif claims and name == "feature-map":
        check = "ok (no floats; separation is in the lifted space, not re-checked)"
    elif claims:
        check = "ok (no floats; every sample classified correctly, rechecked with Fractions)"
    else:
        check = "ok (no floats)"
    return {"algorithm": name, "set": kind, "n": n, "wall_s": round(wall, 4), "cpu_s": round(cpu, 4),
            "reason": run.reason, "updates": run.updates, "epochs": run.epochs, "steps": run.steps,
            "rss_before_kib": rss0, "peak_rss_kib": rss1, "exact": not floats and sep is None, "check": check}


# ---------------------------------------------------------------------------------------------------------
# the driver

def _blank(name, kind, n, reason, note=""):
    return {"algorithm": name, "set": kind, "n": n, "wall_s": None, "cpu_s": None, "reason": reason,
            "updates": None, "epochs": None, "steps": None, "rss_before_kib": None, "peak_rss_kib": None,
            "exact": None, "check": note}


def run_cells(name: str, cells: list[tuple[str, int]], timeout: float) -> list[dict]:
    """The cells ``[(set, n), ...]`` of one algorithm in ONE subprocess under one hard timeout (timeout x
    number of cells); a cell that did not report is a TIMEOUT or ERROR row."""
    spec = ";".join(f"{k},{n}" for k, n in cells)
    cmd = [sys.executable, "-m", "benchmarks.scaling", "--worker", name, spec]
    env = dict(os.environ)
    root = str(HERE.parent)
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    limit = timeout * len(cells)
    t = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit, cwd=root, env=env)
        stdout, err, failed = p.stdout, p.stderr, p.returncode != 0
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        stdout, err, failed = out, f"TIMEOUT>{timeout:g}s", True
    process_s = time.perf_counter() - t
    done = {(r["set"], r["n"]): r for r in (json.loads(ln) for ln in stdout.splitlines() if ln.startswith("{"))}
    rows = []
    for kind, n in cells:
        if (kind, n) in done:
            r = done[(kind, n)]
            if len(cells) == 1:
                r["process_s"] = round(process_s, 3)
            rows.append(r)
        elif err.startswith("TIMEOUT"):
            rows.append(_blank(name, kind, n, "timeout", err))
        else:
            last = (err.strip().splitlines() or ["?"])[-1] if failed else "no report"
            rows.append(_blank(name, kind, n, "error", last[:160]))
    return rows


def _fmt_kib(k):
    return "-" if k is None else f"{k / 1024:.0f}"


def table(rows: list[dict]) -> str:
    def cell(v):
        return "-" if v is None else f"{v:,}" if isinstance(v, int) else str(v)

    out = ["| algorithm | set | n | wall (s) | CPU (s) | reason | updates | epochs/iterations | peak RSS (MiB) | "
           "call +RSS (MiB) | exact |",
           "|---|---|---:|---:|---:|---|---:|---:|---:|---:|---|"]
    for r in rows:
        wall = "-" if r["wall_s"] is None else f"{r['wall_s']:.3f}"
        cpu = "-" if r["cpu_s"] is None else f"{r['cpu_s']:.3f}"
        grow = (None if r["peak_rss_kib"] is None else max(0, r["peak_rss_kib"] - r["rss_before_kib"]))
        exact = "-" if r["exact"] is None else ("yes" if r["exact"] else "NO: " + r["check"])
        reason = r["reason"] if r["reason"] not in ("timeout", "skipped", "error") else f"**{r['reason']}**"
        out.append(f"| {r['algorithm']} | {r['set']} | {r['n']:,} | {wall} | {cpu} | {reason} | "
                   f"{cell(r['updates'])} | {cell(r['epochs'])} | {_fmt_kib(r['peak_rss_kib'])} | {_fmt_kib(grow)} | "
                   f"{exact} |")
    return "\n".join(out)


def markdown(rows: list[dict], meta: dict) -> str:
    n_timeout = sum(r["reason"] == "timeout" for r in rows)
    n_skip = sum(r["reason"] == "skipped" for r in rows)
    head = [
        "## How cost grows: every algorithm at n = " + ", ".join(f"{n:,}" for n in meta["sizes"]) + " (d = 10)",
        "",
        f"`{meta['command']}` ({meta['when']}; {meta['machine']}; load average {meta['load_start']} at the start, "
        f"{meta['load_end']} at the end: the machine was shared with other engineers' test and benchmark runs, so "
        "wall times are inflated and the CPU column is the steadier figure).  Default parameters; "
        + ("the cells of one algorithm in one process (smoke size)" if meta.get("smoke") else
           "each cell in its own process") + f" under a hard {meta['timeout']:g} s timeout per cell; wall and CPU "
        "time are the call alone "
        "(no data generation, and not the imports before it; but a module the algorithm imports on its first call, "
        "such as sympy or python-flint for the exact solvers, is inside it: a constant of up to a second or so that "
        "dominates the small cells).  Peak RSS: `resource.getrusage(RUSAGE_SELF).ru_maxrss` of the "
        "child (the whole process: interpreter, numpy and imports included); call +RSS: how far the call "
        "raised it.  Exact: no float anywhere in the result, and a run that claims to separate the data "
        "(converged; `separable`/`svm-hard` solved) classifies every sample correctly, rechecked with Fractions "
        "by the benchmark.  Data: `benchmarks/budget_data.py` (binary) and `benchmarks.scaling.make3` "
        "(3 classes, for linear-machine and one-vs-rest); noisy = 5% of the labels changed.",
        "",
        f"{n_timeout} cells timed out; {n_skip} were skipped because the same algorithm and set had "
        "already timed out (or failed) at a smaller n.",
        "",
        "![Time against n, every algorithm, separable and noisy](scaling.svg)",
        "",
        "",
    ]
    return "\n".join(head) + table(rows) + "\n"


def plot(rows: list[dict], path: Path, timeout: float) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    names = list(dict.fromkeys(r["algorithm"] for r in rows))
    cmap = plt.get_cmap("tab20")
    styles = ["-", "--", ":", "-."]
    fig, axes = plt.subplots(1, 2, figsize=(12, 6.5), sharey=True)
    for ax, kind in zip(axes, SETS):
        for i, name in enumerate(names):
            pts = sorted((r["n"], r["wall_s"]) for r in rows if r["algorithm"] == name and r["set"] == kind
                         and r["wall_s"] is not None)
            if not pts:
                continue
            ax.plot([p[0] for p in pts], [max(p[1], 1e-4) for p in pts], marker="o", markersize=3,
                    color=cmap(i % 20), linestyle=styles[(i // 20 + i) % 4], label=name, linewidth=1.2)
        ax.axhline(timeout, color="grey", linestyle=":", linewidth=1)
        ax.text(min(r["n"] for r in rows), timeout * 1.1, f"timeout {timeout:g} s",
                fontsize=7, color="grey")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(f"{kind} data, d = 10")
        ax.set_xlabel("n (samples)")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("wall time of the default call (s)")
    handles, labels = axes[0].get_legend_handles_labels()
    h2, l2 = axes[1].get_legend_handles_labels()
    for h, lab in zip(h2, l2):
        if lab not in labels:
            handles.append(h)
            labels.append(lab)
    fig.legend(handles, labels, loc="lower center", ncol=6, fontsize=7, frameon=False)
    fig.tight_layout(rect=(0, 0.16, 1, 1))
    import io

    from exactlin.io import atomic_write_text

    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    plt.close(fig)
    atomic_write_text(path, buf.getvalue())
    return True


def _load() -> str:
    try:
        return f"{os.getloadavg()[0]:.1f}"
    except OSError:  # pragma: no cover
        return "?"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.scaling", description=__doc__.splitlines()[0])
    ap.add_argument("--worker", nargs=2, metavar=("NAME", "CELLS"), help=argparse.SUPPRESS)
    ap.add_argument("--smoke", action="store_true", help="n = 20, 40; one process per algorithm")
    ap.add_argument("--timeout", type=float, default=60.0, help="hard limit per cell, seconds (default 60)")
    ap.add_argument("--only", nargs="*", default=None, help="these algorithms only")
    ap.add_argument("--sizes", nargs="*", type=int, default=None, help="sample counts (default 100 1000 10000)")
    ap.add_argument("--sets", nargs="*", default=None, choices=SETS, help="data sets (default both)")
    ap.add_argument("--out", type=Path, default=None,
                    help="directory for scaling.md/.json/.svg (default benchmarks/; --smoke: benchmarks/results/)")
    ap.add_argument("--no-plot", action="store_true")
    ap.add_argument("--no-skip", action="store_true", help="run larger n even after a timeout at a smaller one")
    ap.add_argument("--from-json", type=Path, default=None, metavar="PATH",
                    help="run nothing: write scaling.md and the plot again from this scaling.json")
    a = ap.parse_args(argv)
    if a.from_json:
        data = json.loads(a.from_json.read_text())
        out = a.out or a.from_json.parent
        from exactlin.io import atomic_write_text

        if not a.no_plot:
            plot(data["rows"], out / "scaling.svg", data["meta"]["timeout"])
        atomic_write_text(out / "scaling.md", markdown(data["rows"], data["meta"]))
        return 0
    if a.worker:
        name, cells = a.worker
        for cell in cells.split(";"):
            kind, n = cell.split(",")
            print(json.dumps(worker(name, kind, int(n))), flush=True)
        return 0
    from exactlin.algorithms import all_specs

    names = a.only or [s.name for s in all_specs()]
    sizes = a.sizes or list(SMOKE_SIZES if a.smoke else SIZES)
    sets = a.sets or list(SETS)
    out = a.out or (HERE / "results" if a.smoke else HERE)
    cmd = "python -m benchmarks.scaling" + (" --smoke" if a.smoke else "") + f" --timeout {a.timeout:g}"
    meta = {"command": cmd, "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
            "sizes": sizes, "sets": sets, "timeout": a.timeout, "smoke": a.smoke, "load_start": _load(),
            "memory": "resource.getrusage(RUSAGE_SELF).ru_maxrss of the child process, KiB"}
    rows: list[dict] = []
    t0 = time.perf_counter()

    def show(r):
        wall = "-" if r["wall_s"] is None else f"{r['wall_s']:.3f}"
        print(f"{r['algorithm']:<26} {r['set']:<10} {r['n']:>6} {wall:>9}s  {r['reason']:<14} "
              f"exact={r['exact']} {r['check'] if not r['exact'] else ''}", flush=True)

    if a.smoke:
        for name in names:
            for r in run_cells(name, [(k, n) for k in sets for n in sizes], a.timeout):
                rows.append(r)
                show(r)
    else:
        dead: dict[tuple[str, str], str] = {}
        for n in sizes:
            for kind in sets:
                for name in names:
                    if (name, kind) in dead and not a.no_skip:
                        r = _blank(name, kind, n, "skipped", dead[(name, kind)])
                    else:
                        r = run_cells(name, [(kind, n)], a.timeout)[0]
                        if r["reason"] in ("timeout", "error"):
                            dead[(name, kind)] = f"{r['reason']} at n = {n:,}"
                    rows.append(r)
                    show(r)
    order = {name: i for i, name in enumerate(names)}
    rows.sort(key=lambda r: (sets.index(r["set"]), order[r["algorithm"]], r["n"]))
    meta["load_end"] = _load()
    meta["total_s"] = round(time.perf_counter() - t0, 1)
    out.mkdir(parents=True, exist_ok=True)
    from exactlin.io import atomic_write_text

    if not a.no_plot:
        meta["plot"] = "scaling.svg" if plot(rows, out / "scaling.svg", a.timeout) else None
    atomic_write_text(out / "scaling.md", markdown(rows, meta))
    atomic_write_text(out / "scaling.json", json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n")
    print(f"wrote {out / 'scaling.md'}, {out / 'scaling.json'}" + ("" if a.no_plot else f", {out / 'scaling.svg'}"),
          file=sys.stderr)
    bad = [r for r in rows if r["reason"] == "error" or r["exact"] is False]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
