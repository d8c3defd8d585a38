"""Run every workload of issue 7 against its anchors in one process, check every answer exactly, and write
the results.

    python -m benchmarks.run [--smoke] [--json PATH] [--only KEY ...] [--repeats N] [--no-plot] [--set NAME=VALUE ...]

Times are medians of ``--repeats`` runs (default 5; ``--smoke``: 1 run at tiny sizes), taken in
interleaved rounds (each implementation once per round) so that a shared machine's load falls on all
alike; anchors marked "once" (plain-Python Fraction loops, sympy: minutes each) are timed once.
Float anchors and exactlin's float64-exact kernels run with BLAS limited to one thread (threadpoolctl).
Peak memory is tracemalloc's peak over one extra run of the implementation (Python allocations, numpy's
included).  Every workload's exactlin answer is checked against an independent exact reference; a
workload whose exactlin module is missing is reported as "not available".  Output: a table on stdout,
``benchmarks/results/latest.md`` (markdown), ``benchmarks/results/latest.json`` (or ``--json``) and
``benchmarks/results/perceptron_scaling.svg``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

from .workloads import WORKLOADS, available

RESULTS = Path(__file__).resolve().parent / "results"


#: what a time is: wall-clock (the default, as RESULTS.md records) or the process's CPU time (steadier on a shared
#: machine: every implementation runs single-threaded, BLAS limited to one thread)
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def _time(fn, repeats: int, clock=time.perf_counter):
    times, out = [], None
    for _ in range(repeats):
        gc.collect()
        t = clock()
        out = fn()
        times.append(clock() - t)
    return out, times


def _peak(fn) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def run_workload(key: str, smoke: bool, repeats: int, memory: bool, overrides: dict | None = None,
                 only: set[str] | None = None, clock: str = "wall") -> dict:
    """One workload: every implementation timed in interleaved rounds, the exact check, the named ratios.
    ``overrides`` replace the size's keyword arguments; ``only`` times just these implementations (by name) and
    then skips the exact check, which may need the others (benchmarks/compare_results.py); ``clock``: a key of
    :data:`CLOCKS`."""
    module, factory, full, small = WORKLOADS[key]
    if not available(module):
        return {"key": key, "available": False, "reason": f"{module} is not importable"}
    kwargs = {**(small if smoke else full), **accepted(factory, overrides or {})}
    try:
        t0 = time.perf_counter()
        w = factory(**kwargs)
        setup = time.perf_counter() - t0
    except ImportError as e:
        return {"key": key, "available": False, "reason": str(e)}
    rows, outputs = [], {}
    impls = [(i, True) for i in w.exactlin] + [(i, False) for i in w.anchors]
    if only is not None:
        impls = [(i, ex) for i, ex in impls if i.name in only]
    times: dict[str, list[float]] = {i.name: [] for i, _ in impls}
    errors: dict[str, str] = {}
    # interleaved rounds (every implementation once per round), so that the load of a shared machine falls on
    # all of them alike; "once" implementations run in the first round only
    for r in range(1 if smoke else repeats):
        for impl, _ in impls:
            if impl.name in errors or (impl.once and r > 0):
                continue
            try:
                out, t = _time(impl.fn, 1, CLOCKS[clock])
            except Exception as e:  # an anchor that fails is reported, not fatal
                errors[impl.name] = f"{type(e).__name__}: {e}"
                continue
            outputs[impl.name] = out
            times[impl.name].extend(t)
    for impl, is_ex in impls:
        if impl.name in errors:
            rows.append({"impl": impl.name, "exactlin": is_ex, "error": errors[impl.name]})
            continue
        ts = times[impl.name]
        rows.append({"impl": impl.name, "exactlin": is_ex, "median_s": statistics.median(ts), "runs": len(ts),
                     "times_s": ts, "once": impl.once, "note": impl.note,
                     "steps": getattr(outputs.get(impl.name), "steps", None),
                     "updates": getattr(outputs.get(impl.name), "updates", None),
                     "peak_bytes": _peak(impl.fn) if memory and not impl.once else None})
    try:
        ok, detail = (True, "not checked (only some implementations were timed)") if only is not None \
            else w.check(outputs)
    except Exception as e:
        ok, detail = False, f"check raised {type(e).__name__}: {e}"
    info = ""
    if w.info is not None:
        try:
            info = w.info(outputs)
        except Exception as e:
            info = f"(info raised {type(e).__name__}: {e})"
    head = {r["impl"]: r for r in rows if r["exactlin"] and "median_s" in r}
    for r in rows:
        if not r["exactlin"] and "median_s" in r:
            r["ratios"] = {name: h["median_s"] / r["median_s"] for name, h in head.items()}
    return {"key": key, "available": True, "title": w.title, "target": w.target, "size": w.size,
            "setup_s": setup, "rows": rows, "exact": ok, "check": detail, "info": info, "extra": w.extra,
            "kwargs": dict(kwargs), "ratios": named_ratios(w, rows)}


def named_ratios(w, rows: list[dict]) -> list[dict]:
    """The workload's named ratios (``Workload.ratios``): median time of one implementation over another's,
    per step or per update when asked (each side's time divided by its Run's ``steps`` or ``updates``)."""
    by_name = {r["impl"]: r for r in rows if "median_s" in r}
    out = []
    for spec in w.ratios:
        value = None
        if spec.num in by_name and spec.den in by_name:
            num, den = by_name[spec.num], by_name[spec.den]
            value = num["median_s"] / den["median_s"]
            if spec.per_step:
                value *= den["steps"] / num["steps"]
            elif spec.per_update:
                value *= den["updates"] / num["updates"]
        out.append({"label": spec.label, "num": spec.num, "den": spec.den, "per_step": spec.per_step,
                    "per_update": spec.per_update, "target": spec.target, "value": value})
    return out


def perceptron_scaling(smoke: bool, repeats: int) -> dict:
    """Time against n for the integer perceptron (d = 50), one run per point: exactlin end to end, the fast
    loop, the integer kernel, the float64 scan, and the Fraction loop (only up to n = 2500: beyond it a point
    costs minutes)."""
    from .workloads import perceptron_int

    ns = [100, 200, 300] if smoke else [1000, 2500, 5000, 10000]
    out = {"n": ns, "series": {}}
    for n in ns:
        w = perceptron_int(n=n, d=10 if smoke else 50)
        for impl in w.exactlin + w.anchors:
            if impl.name == "scikit-learn Perceptron" or (impl.name == "Fraction loop" and n > 2500):
                continue
            _, times = _time(impl.fn, 1)  # one run per point: the plot shows the trend, the table the medians
            out["series"].setdefault(impl.name, []).append((n, statistics.median(times)))
    return out


def _fmt_t(s: float) -> str:
    if s >= 1:
        return f"{s:.2f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.1f} ms"
    return f"{s * 1e6:.0f} us"


def _fmt_ratio(x: float) -> str:
    return f"{x:.3g}x" if x >= 0.01 else f"1/{1 / x:.3g}"


def markdown(results: list[dict], meta: dict) -> str:
    runs = "smoke sizes, 1 run" if meta["smoke"] else f"medians of {meta['repeats']} runs"
    lines = [f"Benchmarks of exactlin {meta['exactlin']} ({meta['when']}, {meta['machine']}; {runs}; "
             "anchors marked *(once)* are timed once; BLAS limited to 1 thread).", "",
             "| workload | size | implementation | median | runs | peak memory | exactlin / this |",
             "|---|---|---|---|---|---|---|"]
    for res in results:
        if not res["available"]:
            lines.append(f"| {res['key']} | | not available ({res['reason']}) | | | | |")
            continue
        for r in res["rows"]:
            name = r["impl"] + (" *(once)*" if r.get("once") else "")
            if "error" in r:
                lines.append(f"| {res['key']} | {res['size']} | {name} | error: {r['error']} | | | |")
                continue
            mem = f"{r['peak_bytes'] / 2**20:.1f} MiB" if r.get("peak_bytes") else ""
            ratios = ", ".join(f"{_fmt_ratio(v)}" + (f" ({k.replace('exactlin ', '')})" if len(r["ratios"]) > 1
                                                     else "") for k, v in r.get("ratios", {}).items())
            lines.append(f"| {res['key']} | {res['size']} | {name} | {_fmt_t(r['median_s'])} | {r['runs']} | "
                         f"{mem} | {ratios} |")
    named = [(res["key"], r) for res in results if res["available"] for r in res.get("ratios", [])]
    if named:
        lines += ["", "| workload | ratio | measured | target |", "|---|---|---|---|"]
        lines += [f"| {key} | {r['label']} | {'-' if r['value'] is None else _fmt_ratio(r['value'])} | "
                  f"{r['target']} |" for key, r in named]
    lines += ["", "| workload | target | exact check | details |", "|---|---|---|---|"]
    for res in results:
        if res["available"]:
            lines.append(f"| {res['key']} | {res['target']} | {'PASS' if res['exact'] else 'FAIL'}: "
                         f"{res['check']} | {res['info']} |")
    return "\n".join(lines) + "\n"


def plot(scaling: dict, path: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for name, pts in scaling["series"].items():
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=name)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("n (samples), d = 50")
    ax.set_ylabel("time to convergence (s)")
    ax.set_title("perceptron, integer features in [-9, 9]")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    import io

    from exactlin.io import atomic_write_text

    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    plt.close(fig)
    atomic_write_text(path, buf.getvalue())  # issue 9: no partial writes
    return True


def accepted(factory, overrides: dict) -> dict:
    """The overrides that ``factory`` takes as keyword arguments (``--set`` applies to every selected workload
    that has the argument)."""
    import inspect

    params = inspect.signature(factory).parameters
    return {k: v for k, v in overrides.items() if k in params}


def parse_overrides(items: list[str]) -> dict:
    """``["n=2000", "option_max_updates=None"]`` -> ``{"n": 2000, "option_max_updates": None}``."""
    import ast

    out = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"--set {item!r}: expected NAME=VALUE")
        out[name.strip()] = ast.literal_eval(value.strip())
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__.split("\n\n")[0])
    ap.add_argument("--smoke", action="store_true", help="tiny sizes, 1 run each (seconds)")
    ap.add_argument("--json", type=Path, default=None, help="write the results as JSON here")
    ap.add_argument("--out", type=Path, default=RESULTS, help="directory for latest.md/.json and the plot")
    ap.add_argument("--only", nargs="*", default=None, choices=sorted(WORKLOADS), help="run only these")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--no-plot", action="store_true")
    ap.add_argument("--no-memory", action="store_true", help="skip the tracemalloc runs")
    ap.add_argument("--set", nargs="*", default=[], metavar="NAME=VALUE",
                    help="override a size argument of the selected workloads (a Python literal: n=2000, "
                         "option_max_updates=300, option_max_updates=None)")
    args = ap.parse_args(argv)
    overrides = parse_overrides(args.set)
    for name in overrides:
        if not any(name in accepted(WORKLOADS[k][1], overrides) for k in args.only or WORKLOADS):
            ap.error(f"--set {name}: no selected workload takes that argument")

    from threadpoolctl import threadpool_info, threadpool_limits

    import exactlin

    meta = {"exactlin": exactlin.__version__, "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
            "smoke": args.smoke, "repeats": 1 if args.smoke else args.repeats,
            "OPENBLAS_CORETYPE": os.environ.get("OPENBLAS_CORETYPE")}
    results = []
    with threadpool_limits(limits=1):
        meta["blas"] = [{k: i.get(k) for k in ("internal_api", "num_threads", "architecture")}
                        for i in threadpool_info()]
        for key in args.only or list(WORKLOADS):
            t = time.perf_counter()
            res = run_workload(key, args.smoke, args.repeats, not args.no_memory, overrides)
            res["wall_s"] = time.perf_counter() - t
            results.append(res)
            status = ("not available" if not res["available"] else ("exact: PASS" if res["exact"] else "exact: FAIL"))
            print(f"[{key}] {status} ({res['wall_s']:.1f} s)", file=sys.stderr, flush=True)
        scaling = None
        if not args.no_plot and (args.only is None or "perceptron-int" in args.only):
            scaling = perceptron_scaling(args.smoke, args.repeats)
    md = markdown(results, meta)
    print(md)
    args.out.mkdir(parents=True, exist_ok=True)
    from exactlin.io import atomic_write_text  # issue 9: an interrupted run never leaves a truncated file

    atomic_write_text(args.out / "latest.md", md)
    if scaling is not None:
        meta["plot"] = str(args.out / "perceptron_scaling.svg") if plot(scaling, args.out /
                                                                        "perceptron_scaling.svg") else None
    payload = {"meta": meta, "results": results, "scaling": scaling}
    text = json.dumps(payload, indent=2, default=str)
    atomic_write_text(args.out / "latest.json", text)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(args.json, text)
    failed = [r["key"] for r in results if r["available"] and not r["exact"]]
    if failed:
        print(f"exactness check FAILED: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
