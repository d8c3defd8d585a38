"""Re-measure the ratios recorded in benchmarks/RESULTS.md and print each next to its recorded value, flagging
any more than 10% worse (issue 22: "every ratio in benchmarks/RESULTS.md stays within 10% or improves").

    python -m benchmarks.compare_results [--only KEY ...] [--repeats 5] [--tolerance 0.10] [--clock cpu] [--smoke]

Each ratio is exactlin's median time over its anchor's (lower is better), measured as ``benchmarks.run`` does:
the implementations of one workload in interleaved rounds (each once per round), medians of ``--repeats``
(default 5), BLAS limited to one thread, all in one process.  RESULTS.md's ratios are wall-clock ratios measured at
load average 1-2; on a machine shared with other jobs the wall-clock ratios of short calls move by far more than 10%
(at load 13 this script flagged 16 of 21), so compare on a quiet machine, or with ``--clock cpu`` (each call's
process CPU time: every implementation here is single-threaded).  Only the implementations a ratio needs are timed, so
the exact checks are left to ``python -m benchmarks.run`` (and to its smoke run in the test suite).

The subset (about 5 minutes on an idle 2-core machine; ``RATIOS`` below, each with the RESULTS.md section where its
value is recorded; a test checks that the value is written there):

* the first table of RESULTS.md ("Benchmark results (one full run)"): every ratio of a public call to an anchor
  timed five times (perceptron on integer and rational data, MSE, Fisher, separability, the hard-margin SVM);
* issue 14's ratios of one public call to another: fixed-increment, pocket, voted / averaged (separable and noisy),
  batch perceptron / batch PLA, the linear machine and one-vs-rest against perceptron();
* issue 22's options (benchmarks/issue22.py), against their targets rather than a recorded value.  Their calls run
  to their own end: on code where an option still takes the readable Fraction loop that is many minutes (leave
  them out with ``--only``, or use ``python -m benchmarks.run --set`` as RESULTS.md's section does).

Left out, and why: anchors timed once (the plain-Python Fraction loops and sympy: minutes each; LMS's rows), the rows
that time private functions (the perceptron's "fast loop", "input conversion only" and "integer kernel", which
issue 22 rewrites), the ratios against a module switch (relaxation, Winnow, Ho-Kashyap, Widrow-Hoff and LMS with
``_flint_*.ENABLED = False``: after issue 22 that is ``arithmetic="fraction"``), svm-noisy (scikit-learn's SVC takes
minutes there), the CLI's whole-process timings (``benchmarks.cli_csv``) and issue 23's absolute times
(``benchmarks.svm_scaling``).

``--save FILE`` writes the ratios measured now; ``--against FILE`` compares with such a file instead of RESULTS.md
(before and after a merge on the same machine, with the same ``--clock``: the fairest comparison).

Exit status 1 when a ratio is more than ``--tolerance`` worse than recorded (or misses its issue-22 target), or
could not be measured; 0 otherwise.  ``--smoke`` runs everything at smoke size, once, and compares nothing (a test
of this script).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

RESULTS_MD = Path(__file__).resolve().parent / "RESULTS.md"
MAIN_TABLE = "# Benchmark results (one full run)"


@dataclass(frozen=True)
class Recorded:
    key: str  # the workload of benchmarks.run
    num: str  # implementation names, as in the workload
    den: str
    recorded: str  # the value as RESULTS.md writes it ("1.55x", "1/533"); "" for a target-only ratio
    section: str  # the heading of RESULTS.md under which it is written
    overrides: dict = field(default_factory=dict, hash=False)
    target: float | None = None  # issue 22: the ratio must not exceed this
    per_step: bool = False

    @property
    def label(self) -> str:
        return f"{self.key}: {self.num.removeprefix('exactlin ')} / {self.den.removeprefix('exactlin ')}" + (
            ", per step" if self.per_step else "")


_PERC = "exactlin perceptron(bias=first)"
_FIXED = "## fixed-increment on the integer kernel (issue 14, item 1)"
_POCKET = "## pocket on the integer kernel (issue 14, item 1)"
_VOTED = "## voted and averaged perceptron on the integer kernel (issue 14, item 1)"
_MULTI = "## linear-machine and one-vs-rest on the integer kernels (issue 14, item 1)"
_BATCH = "## batch-perceptron and batch-pla on the integer batch kernel (issue 14, item 1)"
_ISSUE22 = "## Issue 22: options on the fast path"

RATIOS: list[Recorded] = [
    Recorded("perceptron-int", "exactlin perceptron()", "float64 chunked scan", "1.55x", MAIN_TABLE),
    Recorded("perceptron-int", "exactlin perceptron()", "scikit-learn Perceptron", "1.56x", MAIN_TABLE),
    Recorded("perceptron-rational", "exactlin perceptron()", "float64 chunked scan", "25.1x", MAIN_TABLE),
    Recorded("perceptron-rational", "exactlin perceptron(scaled(K, 250))", "float64 chunked scan", "5.67x",
             MAIN_TABLE),
    Recorded("perceptron-rational", "exactlin perceptron()", "scikit-learn Perceptron", "0.447x", MAIN_TABLE),
    Recorded("mse", "exactlin mse()", "numpy lstsq", "2.42x", MAIN_TABLE),
    Recorded("fisher", "exactlin fisher()", "numpy float64", "4.37x", MAIN_TABLE),
    Recorded("separability", "exactlin separable()", "scipy linprog (HiGHS)", "7.8x", MAIN_TABLE),
    Recorded("svm", "exactlin svm_hard()", "scikit-learn SVC", "3.2x", MAIN_TABLE),
    Recorded("fixed-increment", "exactlin fixed_increment()", _PERC, "1.01x", _FIXED),
    Recorded("pocket", "exactlin pocket()", "exactlin perceptron(bias=first, max_updates=T)", "1.05x", _POCKET,
             {"fraction_loop": False}),
    Recorded("voted-separable", "exactlin voted_perceptron()", _PERC, "1.20x", _VOTED),
    Recorded("voted-separable", "exactlin voted_perceptron() + reading the list", _PERC, "1.28x", _VOTED),
    Recorded("voted-separable", "exactlin averaged_perceptron()", _PERC, "1.01x", _VOTED),
    Recorded("voted-noisy", "exactlin voted_perceptron()", _PERC, "1.21x", _VOTED),
    Recorded("voted-noisy", "exactlin voted_perceptron() + reading the list", _PERC, "1.30x", _VOTED),
    Recorded("voted-noisy", "exactlin averaged_perceptron()", _PERC, "1.03x", _VOTED),
    Recorded("batch", "exactlin batch_perceptron()", _PERC, "0.188x", _BATCH),
    Recorded("batch", "exactlin batch_pla()", _PERC, "0.201x", _BATCH),
    Recorded("linear-machine", "exactlin linear_machine()", _PERC, "1.6x", _MULTI),
    Recorded("one-vs-rest", "exactlin one_vs_rest()", "exactlin 3 x perceptron(bias=first)", "1.00x", _MULTI),
    # issue 22's targets (benchmarks/issue22.py), at full size: every call to its own end
    Recorded("issue22-trace", "exactlin perceptron(trace=True)", "exactlin perceptron()", "", _ISSUE22,
             target=2.0, per_step=True),
    Recorded("issue22-trace", "exactlin perceptron()", "float64 chunked scan", "", _ISSUE22, target=1.2),
    Recorded("issue22-printed", "exactlin fixed_increment(variant='printed')", "exactlin fixed_increment()", "",
             _ISSUE22, target=2.0, per_step=True),
    Recorded("issue22-no-stop-on-cycle", "exactlin perceptron(stop_on_cycle=False)", "exactlin perceptron()", "",
             _ISSUE22, target=2.0, per_step=True),
]


def parse_ratio(text: str) -> float:
    """``"1.55x"`` -> 1.55, ``"1/533"`` -> 1/533."""
    text = text.strip().removesuffix("x")
    if text.startswith("1/"):
        return 1 / float(text[2:])
    return float(text)


def section_text(heading: str, results_md: Path = RESULTS_MD) -> str:
    """The text of RESULTS.md from the line ``heading`` to the next heading ("# " or "## ")."""
    lines = results_md.read_text(encoding="utf-8").splitlines()
    start = lines.index(heading)
    end = next((j for j in range(start + 1, len(lines)) if re.match(r"#{1,2} ", lines[j])), len(lines))
    return "\n".join(lines[start:end])


def measure(selected: list[Recorded], repeats: int, smoke: bool, clock: str = "wall",
            log=sys.stderr) -> dict[Recorded, float | str]:
    """Each selected ratio's value now (a float), or why it could not be measured (a string)."""
    from threadpoolctl import threadpool_limits

    from .run import run_workload
    from .workloads import WORKLOADS

    groups: dict[tuple, list[Recorded]] = {}
    for r in selected:
        groups.setdefault((r.key, tuple(sorted(r.overrides.items()))), []).append(r)
    out: dict[Recorded, float | str] = {}
    with threadpool_limits(limits=1):
        for (key, overrides), ratios in groups.items():
            if key not in WORKLOADS:
                out.update({r: f"no workload {key!r}" for r in ratios})
                continue
            names = {n for r in ratios for n in (r.num, r.den)}
            t = time.perf_counter()
            try:
                res = run_workload(key, smoke, repeats, False, dict(overrides), only=names, clock=clock)
            except Exception as e:  # a workload that no longer builds is reported, not fatal
                out.update({r: f"{type(e).__name__}: {e}" for r in ratios})
                continue
            print(f"[{key}] {time.perf_counter() - t:.1f} s", file=log, flush=True)
            if not res["available"]:
                out.update({r: f"not available ({res['reason']})" for r in ratios})
                continue
            rows = {row["impl"]: row for row in res["rows"]}
            for r in ratios:
                missing = [n for n in (r.num, r.den) if n not in rows or "median_s" not in rows[n]]
                if missing:
                    out[r] = "; ".join(f"{n}: {rows[n]['error']}" if n in rows else f"{n}: no such implementation"
                                       for n in missing)
                    continue
                value = rows[r.num]["median_s"] / rows[r.den]["median_s"]
                if r.per_step:
                    value *= rows[r.den]["steps"] / rows[r.num]["steps"]
                out[r] = value
    return out


def _fmt(x: float) -> str:
    return f"{x:.3g}x" if x >= 0.01 else f"1/{1 / x:.3g}"


def report(values: dict[Recorded, float | str], tolerance: float, compare: bool,
           against: dict[str, float] | None = None) -> tuple[str, int]:
    """The table, and how many ratios are flagged.  ``against``: label -> value of an earlier run of this script
    (``--save``), used instead of RESULTS.md's values."""
    source = "RESULTS.md" if against is None else "earlier run"
    lines = [f"| ratio | recorded ({source}) | now | change | |", "|---|---|---|---|---|"]
    flagged = 0
    for r, now in values.items():
        if against is not None:
            r = replace(r, recorded=_fmt(against[r.label]) if r.label in against else "")
        was = r.recorded or (f"target <= {r.target:g}" if r.target is not None else "")
        if isinstance(now, str):
            lines.append(f"| {r.label} | {was} | not measured: {now} | | FLAG |")
            flagged += 1
            continue
        flag, change = "", ""
        if r.recorded:
            rec = parse_ratio(r.recorded)
            change = f"{(now / rec - 1) * 100:+.0f}%"
            if compare and now > rec * (1 + tolerance):
                flag = f"WORSE by more than {tolerance:.0%}"
        elif r.target is not None and compare and now > r.target:
            flag = "misses the target"
        flagged += bool(flag)
        lines.append(f"| {r.label} | {was} | {_fmt(now)} | {change} | {flag} |")
    return "\n".join(lines) + "\n", flagged


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.compare_results", description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="*", default=None, help="only the ratios of these workloads")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--tolerance", type=float, default=0.10, help="flag a ratio this much worse (default 0.10)")
    ap.add_argument("--smoke", action="store_true", help="smoke sizes, one round, no comparison")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="wall-clock time (default, as RESULTS.md records) or the process's CPU time (steadier when "
                         "other jobs share the machine)")
    ap.add_argument("--save", type=Path, default=None, help="write the ratios measured now (JSON) to compare later")
    ap.add_argument("--against", type=Path, default=None,
                    help="compare with a file written by --save (the same clock and machine) instead of RESULTS.md")
    args = ap.parse_args(argv)
    selected = [r for r in RATIOS if args.only is None or r.key in args.only]
    t = time.perf_counter()
    values = measure(selected, 1 if args.smoke else args.repeats, args.smoke, args.clock)
    against = json.loads(args.against.read_text(encoding="utf-8"))["ratios"] if args.against else None
    text, flagged = report(values, args.tolerance, compare=not args.smoke, against=against)
    if args.save:
        args.save.write_text(json.dumps({"clock": args.clock, "repeats": args.repeats, "ratios": {
            r.label: v for r, v in values.items() if not isinstance(v, str)}}, indent=1) + "\n", encoding="utf-8")
    print(text)
    print(f"{len(values)} ratios in {time.perf_counter() - t:.0f} s; {flagged} flagged"
          + (" (smoke sizes: not compared)" if args.smoke else ""))
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
