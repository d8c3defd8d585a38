"""Issue 22's ratios: options on the fast path.

Three workloads of ``benchmarks.run`` (keys ``issue22-trace``, ``issue22-printed``, ``issue22-no-stop-on-cycle``),
each timing an option against the plain call on the same data, per step (each call's median time divided by its
Run's ``steps``), with the issue's target beside it:

* ``issue22-trace``: ``perceptron()`` against ``perceptron(trace=True)`` (every step stored; the call alone, and
  the call followed by reading every Step of the trace) and against the float64 chunked scan of the
  ``perceptron-int`` workload (the same data: ``separable_ints(10000, 50)``).  Targets: the trace within 2x of
  the plain call per step; ``perceptron()`` within 1.2x of the float64 scan.  Beside them, without a target, the
  engine's loop alone (``workloads.engine_loop`` on the converted problem: what ``perceptron()`` costs beyond its
  input conversion, its trace and its monitor) against the same scan.
* ``issue22-printed``: ``fixed_increment(variant="printed")`` against the corrected rule on
  ``budget_data.make("separable", 2000, 20)``.  Target: within 2x per step; per update beside it (the printed
  rule corrects at almost every step, the corrected one seldom).
* ``issue22-no-stop-on-cycle``: ``perceptron(stop_on_cycle=False)`` against ``perceptron()`` on the non-separable
  ``budget_data.make("noisy", 2000, 10)``, both to the same ``max_updates`` (the same run: no cycle is met before
  it), so per step is per call.  Target: within 2x.

``option_max_updates`` / ``option_max_steps`` bound the option's call alone (default None: the same budget as the
plain call, the issue's measurement); on code where an option still runs the readable Fraction loop (minutes at
full size) a smaller budget keeps the run short, and the per-step ratio stays comparable.

Every call goes through the public entry points (``exactlin.perceptron``, ``exactlin.fixed_increment``), so the
workloads do not depend on how the loops are written; the one exception is the engine loop alone, a row of its own.
(These workloads replace ``benchmarks/cyclic_ratios.py``, which measured the same ratios outside
``benchmarks.run``.)  The exact check replays each rule in plain integers
(numpy int64 on small entries, or Python ints), independent of exactlin.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

__all__ = ["WORKLOADS22", "int_perceptron", "printed_fixed_increment"]


def int_perceptron(Z: np.ndarray, max_epochs: int, max_updates: int | None = None):
    """The cyclic perceptron on integer rows z_i (mistake iff <w, z_i> <= 0, then w += z_i) from w = 0, in
    numpy int64 scanned block by block (exact while |entries| are small: here d * max|z| * updates < 2^62);
    stops after n clean rounds in a row, at max_epochs * n rounds, or right after the max_updates-th update.
    Returns (w as Python ints, updates, steps, the updated sample indices)."""
    n, d = Z.shape
    w = np.zeros(d, dtype=np.int64)
    k = clean = updates = 0
    mistakes = []
    while clean < n and k < max_epochs * n:
        i = k % n
        length = min(n - i, n - clean, max_epochs * n - k)
        s = Z[i:i + length] @ w
        bad = np.flatnonzero(s <= 0)
        if bad.size == 0:
            k += length
            clean += length
            continue
        j = int(bad[0])
        k += j + 1
        clean = 0
        w += Z[i + j]
        updates += 1
        mistakes.append(i + j)
        if max_updates is not None and updates >= max_updates:
            break
    return [int(a) for a in w], updates, k, mistakes


def printed_fixed_increment(Z: np.ndarray, max_steps: int):
    """Seed 003's Algorithm 4 as printed, in Python ints: a = 0; k <- (k+1) mod n; if a^t y_k <= 0 then
    a <- a - y_k; until every a^t y_j > 0 (tested after each round).  Returns (a, updates, steps, reason)."""
    n, d = Z.shape
    a = np.zeros(d, dtype=np.int64)
    scores = np.zeros(n, dtype=np.int64)  # scores[j] = a^t y_j, kept up to date at each update
    updates = 0
    for k in range(1, max_steps + 1):
        i = (k - 1) % n
        if scores[i] <= 0:
            a -= Z[i]
            scores -= Z @ Z[i]
            updates += 1
            if scores.min() > 0:  # the until-test after the round (a round without update changes nothing)
                return [int(t) for t in a], updates, k, "converged"
    return [int(t) for t in a], updates, max_steps, "max_steps"


def _augmented(X, y) -> np.ndarray:
    """z_i = y_i (1, x_i) as an int64 array (bias first)."""
    X = np.asarray(X, dtype=np.int64)
    y = np.asarray(y, dtype=np.int64)
    return np.hstack([np.ones((len(y), 1), dtype=np.int64), X]) * y[:, None]


def _ints(w) -> list:
    return [Fraction(a) for a in w]


def trace_workload(n=10000, d=50, option_max_updates=None):
    import exactlin
    from exactlin.algorithms._loop import binary_problem

    from .workloads import Impl, Ratio, Workload, engine_loop, float_chunked_perceptron, separable_ints

    X, y = separable_ints(n, d)
    prob = binary_problem(X, y, bias="none")  # converted once, outside the timing: the loop alone is timed
    Zi = (X * y[:, None]).astype(np.int64)
    Zf = Zi.astype(np.float64)
    cap = {} if option_max_updates is None else {"max_updates": option_max_updates}

    def plain():
        return exactlin.perceptron(X, y)

    def traced():
        return exactlin.perceptron(X, y, trace=True, **cap)

    def traced_read():
        r = exactlin.perceptron(X, y, trace=True, **cap)
        for st in r.trace:  # every Step built and its fields touched
            st.w_after  # noqa: B018
        return r

    def loop():
        return engine_loop(prob.Z, d)

    def flt():
        return float_chunked_perceptron(Zf, 1000)

    def check(res):
        p = res["exactlin perceptron()"]
        w, updates, steps, _ = int_perceptron(Zi, 1000)
        ok = tuple(p.w) == tuple(_ints(w)) and p.updates == updates and p.steps == steps and p.converged
        q = res["exactlin engine loop alone"]
        ok = ok and tuple(q.w) == tuple(_ints(w)) and q.updates == updates and q.steps == steps and q.converged
        wt, ut, st, mt = int_perceptron(Zi, 1000, option_max_updates)
        for name in ("exactlin perceptron(trace=True)", "exactlin perceptron(trace=True) + reading the trace"):
            r = res[name]
            ok = ok and tuple(r.w) == tuple(_ints(wt)) and r.updates == ut and r.steps == st
        r = res["exactlin perceptron(trace=True) + reading the trace"]
        trace = list(r.trace)
        n_rows = len(Zi)
        ok = (ok and r.trace_complete and [s.k for s in trace] == list(range(1, st + 1))
              and all(s.i == (s.k - 1) % n_rows for s in trace)
              and [s.i for s in trace if s.update] == mt and tuple(trace[-1].w_after) == tuple(_ints(wt)))
        return ok, (f"perceptron() and the engine loop alone: w, updates ({updates}) and steps ({steps}) equal to "
                    "a plain int64 replay; "
                    f"trace=True: w, updates ({ut}) and steps ({st}) equal to the replay's, the trace complete "
                    f"with one Step per round, its updates at the replay's samples, its last w_after the final w"
                    if ok else "MISMATCH")

    def info(res):
        r = res["exactlin perceptron(trace=True)"]
        return f"trace=True run: {r.steps} steps, {r.updates} updates, reason {r.reason}"

    plain_name, trace_name = "exactlin perceptron()", "exactlin perceptron(trace=True)"
    read_name = "exactlin perceptron(trace=True) + reading the trace"
    loop_name = "exactlin engine loop alone"
    size = f"{n} x {d}" + ("" if option_max_updates is None else f", trace=True runs to max_updates = "
                                                                  f"{option_max_updates}")
    return Workload(
        "issue22-trace", "perceptron() with and without trace=True, and the float64 scan",
        "trace=True within 2x of perceptron() per step; perceptron() within 1.2x of the float64 scan",
        [Impl(plain_name, plain, note="default trace (the first 10,000 steps, built when read)"),
         Impl(trace_name, traced, note="every step stored; the Step records not read"),
         Impl(read_name, traced_read, note="the same call, then every Step built and read"),
         Impl(loop_name, loop, note="engine.cyclic on IntegerArith, the problem converted beforehand, no trace")],
        [Impl("float64 chunked scan", flt, note="numpy float64, 1 BLAS thread (the perceptron-int anchor)")],
        check, info, size=size, extra={"data": "separable_ints(n, d)"},
        ratios=[Ratio("trace=True / perceptron(), per step", trace_name, plain_name, "<= 2", per_step=True),
                # (no target: the is the call with the trace stored, its Steps built when read; reading
                # 346,305 of them is the reader's own cost, Python objects made one by one)
                Ratio("trace=True + reading the trace / perceptron(), per step", read_name, plain_name,
                      per_step=True),
                Ratio("perceptron() / float64 chunked scan", plain_name, "float64 chunked scan", "<= 1.2"),
                Ratio("engine loop alone / float64 chunked scan", loop_name, "float64 chunked scan")])


def printed_workload(n=2000, d=20, max_epochs=1000, option_max_steps=None):
    import exactlin

    from .budget_data import make
    from .workloads import Impl, Ratio, Workload

    X, y = make("separable", n, d)
    Z = _augmented(X, y)
    steps_printed = max_epochs * n if option_max_steps is None else option_max_steps

    def corrected():
        return exactlin.fixed_increment(X, y, max_steps=None, max_epochs=max_epochs)

    def printed():
        return exactlin.fixed_increment(X, y, variant="printed", max_steps=steps_printed, max_epochs=max_epochs)

    def check(res):
        c, p = res["exactlin fixed_increment()"], res["exactlin fixed_increment(variant='printed')"]
        w, updates, steps, _ = int_perceptron(Z, max_epochs)
        ok = tuple(c.w) == tuple(_ints(w)) and c.updates == updates and c.steps == steps
        a, pu, ps, reason = printed_fixed_increment(Z, steps_printed)
        ok = ok and tuple(p.w) == tuple(_ints(a)) and p.updates == pu and p.steps == ps
        return ok, (f"corrected: w, updates ({updates}) and steps ({steps}) equal to a plain int64 replay; "
                    f"printed: a, updates ({pu}) and steps ({ps}, {reason}) equal to the listing replayed in "
                    "Python ints" if ok else
                    f"MISMATCH: corrected {c.updates}/{c.steps} vs {updates}/{steps}; printed {p.updates}/{p.steps}"
                    f" ({p.reason}) vs {pu}/{ps} ({reason})")

    def info(res):
        c, p = res["exactlin fixed_increment()"], res["exactlin fixed_increment(variant='printed')"]
        return (f"corrected: {c.steps} steps, {c.updates} updates, {c.reason}; printed: {p.steps} steps, "
                f"{p.updates} updates, {p.reason}")

    size = f"{n} x {d}, max_epochs {max_epochs}" + ("" if option_max_steps is None else
                                                    f", the printed run to max_steps = {option_max_steps}")
    plain_name, printed_name = "exactlin fixed_increment()", "exactlin fixed_increment(variant='printed')"
    return Workload(
        "issue22-printed", "fixed-increment as printed against the corrected rule, same data",
        "printed within 2x of the corrected rule per step",
        [Impl(printed_name, printed, note="seed 003's Algorithm 4 line by line (a <- a - y_k)")],
        [Impl(plain_name, corrected, note="max_steps=None: every round to max_epochs")],
        check, info, size=size, extra={"data": "budget_data.make('separable', n, d)"},
        ratios=[Ratio("variant='printed' / corrected, per step", printed_name, plain_name, "<= 2", per_step=True),
                Ratio("variant='printed' / corrected, per update", printed_name, plain_name, per_update=True)])


def no_stop_workload(n=2000, d=10, max_updates=10000, option_max_updates=None):
    import exactlin

    from .budget_data import make
    from .workloads import Impl, Ratio, Workload

    X, y = make("noisy", n, d)
    Z = _augmented(X, y)
    option_updates = max_updates if option_max_updates is None else option_max_updates

    def plain():
        return exactlin.perceptron(X, y, bias="first", max_updates=max_updates)

    def no_stop():
        return exactlin.perceptron(X, y, bias="first", max_updates=option_updates, stop_on_cycle=False)

    def check(res):
        p, q = res["exactlin perceptron()"], res["exactlin perceptron(stop_on_cycle=False)"]
        ok = True
        for r, cap in ((p, max_updates), (q, option_updates)):
            w, updates, steps, mistakes = int_perceptron(Z, 1000, cap)
            ok = (ok and tuple(r.w) == tuple(_ints(w)) and r.updates == updates and r.steps == steps
                  and list(r.extras["mistakes"]) == mistakes and r.reason == "max_updates")
        return ok, ("both runs: w, mistakes, updates and steps equal to a plain int64 replay, reason "
                    "max_updates (no cycle before the budget)" if ok else
                    f"MISMATCH: {p.summary()} / {q.summary()}")

    def info(res):
        p, q = res["exactlin perceptron()"], res["exactlin perceptron(stop_on_cycle=False)"]
        return f"plain: {p.steps} steps, {p.updates} updates; stop_on_cycle=False: {q.steps} steps, {q.updates}"

    plain_name, option_name = "exactlin perceptron()", "exactlin perceptron(stop_on_cycle=False)"
    size = f"{n} x {d}, max_updates {max_updates}" + ("" if option_max_updates is None else
                                                      f" (stop_on_cycle=False: {option_max_updates})")
    return Workload(
        "issue22-no-stop-on-cycle", "perceptron(stop_on_cycle=False) against perceptron() on non-separable data",
        "stop_on_cycle=False within 2x of the plain call per step",
        [Impl(option_name, no_stop, note="bias first, runs on through a proved cycle")],
        [Impl(plain_name, plain, note="bias first, the same budget")],
        check, info, size=size, extra={"data": "budget_data.make('noisy', n, d)"},
        ratios=[Ratio("stop_on_cycle=False / perceptron(), per step", option_name, plain_name, "<= 2",
                      per_step=True)])


#: key -> (module needed, factory, full-size kwargs, smoke kwargs), merged into workloads.WORKLOADS
WORKLOADS22 = {
    "issue22-trace": ("exactlin.algorithms", trace_workload, {}, {"n": 300, "d": 10}),
    "issue22-printed": ("exactlin.algorithms", printed_workload, {},
                        {"n": 200, "d": 5, "max_epochs": 20, "option_max_steps": 500}),
    "issue22-no-stop-on-cycle": ("exactlin.algorithms", no_stop_workload, {},
                                 {"n": 200, "d": 5, "max_updates": 300}),
}
