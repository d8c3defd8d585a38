"""The rest of the perceptron family, exactly: seed 003's Algorithms 3, 4 and 5, seed 001's batch PLA and
pocket algorithm, seed 002's gradient descent on R(w), and seed 000's voted and averaged perceptron.

Conventions shared by every function here:

* Samples are augmented by ``bias`` (``first`` as seeds 001/003 write them, ``last`` as seed 002, ``none``
  as seed 000) and, for seed 003's rules, *normalized*: y_i = z_i x~_i with z_i = +1/-1 the label, so that a
  solution vector a has a^t y_i > 0 for every i.
* Single-sample rules visit the samples cyclically (k <- (k+1) mod n, :func:`._loop.cyclic_single_sample`);
  ``max_epochs`` bounds the passes.  Batch rules are bounded by ``max_epochs`` iterations.
* A stationary rule (constant step) that returns exactly to an earlier state never stops; the run then stops
  with reason ``cycle`` and a verified Gordan certificate (the corrections of one period sum to 0 with
  positive weights, so no vector separates the data).
* ``converged`` is True when the algorithm's own stopping rule fired (reason ``converged`` or ``criterion``);
  ``extras["separates"]`` says, checked exactly, whether the returned vector classifies every sample
  strictly correctly (a theta/epsilon criterion can stop before that).
"""

from __future__ import annotations

from fractions import Fraction

from exactlin.algorithms import _fast, _fast_voted, register
from exactlin.algorithms._contract import Checked, make_run
from exactlin.algorithms._loop import (
    STOP,
    Bounds,
    Tracer,
    cyclic_single_sample,
    max_bits_param,
    max_steps_param,
    start_vector,
)
from exactlin.algorithms.perceptron import (
    MONITOR_CONFLICTS,
    STOP_CONFLICTS,
    STOP_ON_CYCLE,
    monitor_run,
    printed_note,
    variant_param,
)
from exactlin.algorithms.perceptron import PARAMS as _PERCEPTRON_PARAMS
from exactlin.algorithms.perceptron_batch import batch_perceptron, batch_pla, perceptron_gd  # the batch rules
from exactlin.engine import trace as engine_trace
from exactlin.engine.arith import make_arith
from exactlin.engine.cyclic import cyclic
from exactlin.engine.reuse import Reusing
from exactlin.errors import ParameterError
from exactlin.exact.numbers import fdot, zeros
from exactlin.model.models import VoteModel, label_pair, linear_model
from exactlin.model.params import MAX_SECONDS, Param, as_schedule, at_least, nonnegative, positive
from exactlin.model.run import LazySteps, Run
from exactlin.theory.certificates import gordan_from_counts, verify_gordan
from exactlin.theory.monitor import batch_monitor

__all__ = ["fixed_increment", "variable_increment", "batch_perceptron", "batch_pla", "perceptron_gd",
           "voted_perceptron", "averaged_perceptron", "pocket", "predict_voted", "predict_averaged",
           "batch_monitor", "E_in", "BOUND_PARAMS", "bound_params"]

SEED000 = "000_478cb53c624e7eb5.txt"
SEED001 = "001_5ccb68c426482a98.txt"
SEED002 = "002_c246c20bba6fa4e1.txt"
SEED003 = "003_ffe0ec08819b37d8.txt"

#: the bounds every exact single-sample rule shares: the default budget max_steps (these rules run on Fractions,
#: so unlike the perceptron's integer kernel they are not bounded by max_epochs alone in seconds), and the
#: perceptron table's max_updates, max_bits and max_seconds
BOUND_PARAMS = (max_steps_param(),
                Param("max_updates", "int", None, "stop after this many updates (mistakes)", at_least(1)),
                *(p for p in _PERCEPTRON_PARAMS if p.name in ("max_bits", "max_seconds")))


def bound_params(max_bits: int | None, why: str = "") -> tuple:
    """:data:`BOUND_PARAMS` with a default ``max_bits`` (rules whose iterates are rationals that grow)."""
    return tuple(max_bits_param(max_bits, why=why) if p.name == "max_bits" else p for p in BOUND_PARAMS)
_MONITOR_PARAMS = tuple(p for p in _PERCEPTRON_PARAMS if p.name in ("w_star", "monitor"))


# ---------------------------------------------------------------------------
# small shared helpers


def _separates(Z, a, b=Fraction(0)) -> bool:
    """Exact check: a^t y_i > b for every normalized sample (in integers, :func:`._fast.above`)."""
    return _fast.above(a, Z, b)


def _step_eta(sched, k: int, name: str = "eta") -> Fraction:
    v = sched(k)
    if not v > 0:
        raise ParameterError(f"{name}({k}) = {v} must be > 0", parameter=name)
    return v


def _certificate(Z, lam, cycle, bias):
    return verify_gordan(Z, lam, source="cycle", cycle=cycle, through_origin=bias == "none")


# ---------------------------------------------------------------------------
# seed 003, Algorithms 4 and 5


_FIXED_COMMON = (
    Param("a0", "vector", None, "start vector a (augmented space; default 0)"),
    *_MONITOR_PARAMS,
    *BOUND_PARAMS,
    STOP_ON_CYCLE,
    STOP,
)
FIXED_PARAMS = (*_FIXED_COMMON, variant_param("alg4-sign", "Algorithm 4's update a <- a - y_k"))


@register("fixed-increment", family="perceptron", seed=SEED003, number="Algorithm 4",
          title="Fixed-increment single-sample perceptron", params=FIXED_PARAMS,
          conflicts=MONITOR_CONFLICTS + STOP_CONFLICTS, bias_default="first",
          monitor="Facts 1 and 2 at every correction and K <= R^2 ||a*||^2 / gamma^2 (Theorem 5.1)")
def fixed_increment(X, y, P: Checked) -> Run:
    """Fixed-increment single-sample perceptron, seed 003 (``003_ffe0ec08819b37d8.txt``) Algorithm 4.

    On the normalized samples y_k = z_k x~_k: initialize a (default 0); k <- (k+1) mod n; if y_k is
    misclassified (a^t y_k <= 0) then **a <- a + y_k**; until all patterns are properly classified.
    The notes print ``a <- a - y_k``, which on normalized samples moves a away from y_k (erratum
    ``alg4-sign``).  Stops with ``converged`` after a pass with no correction, ``cycle`` (with a verified
    Gordan certificate) when (a, position) repeats, or when a bound is hit.  The convergence monitor
    checks Theorem 5.1 exactly.

    ``variant="printed"`` runs lines 2-4 as printed: k <- (k+1) mod n; a misclassified y_k (a^t y_k <= 0,
    Duda-Hart-Stork's "misclassified") gives **a <- a - y_k**; **until all patterns properly classified**,
    tested after every round as the do-until does (reason ``converged`` at the first round after which a^t y
    > 0 for every sample).  From a = 0 the scores only fall, so the run ends on its bound (or a proved
    cycle) with ``extras["printed_note"]``.

    >>> r = fixed_increment([(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1])
    >>> r.w, r.updates, r.converged
    ((Fraction(1, 1), Fraction(1, 1), Fraction(-3, 1)), 3, True)
    """
    return _single_sample("fixed-increment", X, y, P,
                          sched=as_schedule(1), b=Fraction(0), by_update=True,
                          printed="alg4-sign" if P["variant"] == "printed" else None)


VARIABLE_PARAMS = (
    Param("eta", "schedule", as_schedule("1"), "eta(k) > 0 as an exact expression in k, e.g. 1 or 1/k",
          positive),
    Param("b", "rational", Fraction(0), "margin b >= 0: a correction happens when a^t y_k <= b", nonnegative),
    Param("eta_k", "choice", "update", "what k counts in eta(k): 'update' (the k-th correction y^k, as "
          "a(k+1) = a(k) + eta(k) y^k writes it) or 'step' (the loop counter of Algorithm 5)",
          choices=("update", "step")),
    *_FIXED_COMMON,
    variant_param("alg5-rule", "test a^t y_k + b < 0, update a <- a - eta(k) y_k, stop when a^t y_k + b <= 0 "
                  "for all k"),
)


@register("variable-increment", family="perceptron", seed=SEED003, number="Algorithm 5",
          title="Variable-increment perceptron with margin", params=VARIABLE_PARAMS,
          conflicts=MONITOR_CONFLICTS + STOP_CONFLICTS, bias_default="first",
          monitor="only with b = 0 and a constant eta (then it is Algorithm 4 scaled by eta); not otherwise")
def variable_increment(X, y, P: Checked) -> Run:
    """Variable-increment perceptron with margin, seed 003 (``003_ffe0ec08819b37d8.txt``) Algorithm 5.

    On normalized samples: a(1) arbitrary (``a0``, default 0); cyclically, if **a^t y_k <= b** then
    **a <- a + eta(k) y_k**; until **a^t y_k > b for all k** (a pass with no correction).  The notes print the
    test ``a^t y_k + b < 0``, the update ``a - eta(k) y_k`` and the stop ``a^t y_k + b <= 0 for all k``: on
    normalized samples those never correct anything from a = 0 (erratum ``alg5-rule``).  ``eta_k`` says
    whether eta's k counts corrections (default, as a(k+1) = a(k) + eta(k) y^k) or loop steps.

    Cycle detection (and its Gordan certificate) runs only for a constant eta; the convergence monitor only
    when also b = 0: with b > 0 a correction may have a^t y_k in (0, b] and Fact 2 does not hold as stated.

    ``variant="printed"`` runs lines 2-4 as printed: do k <- k + 1 (cyclically); if a^t y_k + b < 0 then
    a <- a - eta(k) y_k; until a^t y_k + b <= 0 for every sample, tested after each round.  With b = 0
    from a = 0 the until-test holds after round 1 (reason ``criterion``, a = 0 classifies nothing); with
    b > 0 from a = 0 nothing is ever corrected and the test never holds, so the run ends on its bound.

    >>> r = variable_increment([(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1], b=1)
    >>> r.w, r.updates
    ((Fraction(0, 1), Fraction(1, 1), Fraction(-4, 1)), 4)
    """
    if P["variant"] == "printed":
        return _alg5_printed(X, y, P)
    return _single_sample("variable-increment", X, y, P,
                          sched=P["eta"], b=P["b"], by_update=P["eta_k"] == "update")


def _alg5_printed(X, y, P) -> Run:
    """Algorithm 5 exactly as seed 003 prints it (erratum ``alg5-rule``), on the shared cyclic loop (so every
    bound of the corrected rule holds): line 3 is the test and the update, line 4 the do-until test."""
    prob = P.problem(X, y)
    Z = prob.Z
    a1 = start_vector(P["a0"], prob.d, "a0")
    sched, b = P["eta"], P["b"]
    by_update = P["eta_k"] == "update"
    bounds = P.bounds()
    tracer = P.tracer(prob.d)
    step = [0]

    def test(a, i, k):
        step[0] = k
        s = fdot(a, Z[i])
        return s, s + b < 0  # line 3 as printed

    def update(a, i, u, score):
        eta = _step_eta(sched, u if by_update else step[0])
        return tuple(x - eta * v for x, v in zip(a, Z[i]))  # a - eta(k) y_k, as printed

    def until(a):  # line 4 as printed: until a^t y_k + b <= 0 for all k
        return "criterion" if all(fdot(a, z) + b <= 0 for z in Z) else None

    def step_info(k, i, score):
        return {"eta": _step_eta(sched, k)} if not by_update else {}

    res = cyclic_single_sample(prob.n, a1, test, update, bounds, tracer, stationary=sched.constant,
                               step_info=None if sched.constant or by_update else step_info,
                               stop_on_cycle=P["stop_on_cycle"], until=until)
    a = res.w
    run = Run("variable-increment", a, P.bias, res.converged, res.reason, res.updates, res.epochs, res.steps,
              params={**P, "max_epochs": P.max_epochs}, trace=tracer.steps, trace_complete=tracer.complete,
              extras={"mistakes": res.update_indices, "separates": _separates(Z, a), "max_bits": res.max_bits,
                      "last_update_step": res.last_update, "erratum": "alg5-rule"},
              seed=SEED003, problem=prob, model=linear_model(a, P.bias, prob))
    if res.cycle_step is not None:
        run.extras["cycle_step"] = res.cycle_step
    note = printed_note(run, "if a^t y_k + b < 0 then a <- a - eta(k) y_k, until a^t y_k + b <= 0 for all k")
    if res.reason == "criterion":
        note += (" The printed stop a^t y_k + b <= 0 for all k puts every sample on the wrong side of the margin: "
                 "it is met, but it is the opposite of the goal a^t y_k > b.")
    run.extras["printed_note"] = note
    run.extras["monitor"] = None
    run.extras["monitor_note"] = "not applied: the printed rule is not the perceptron's update"
    return run


def _single_sample(name, X, y, P, *, sched, b, by_update, printed=None) -> Run:
    prob = P.problem(X, y)
    Z = prob.Z
    a1 = start_vector(P["a0"], prob.d, "a0")
    bounds = P.bounds()
    tracer = P.tracer(prob.d)
    etas: list[Fraction] = []

    step = [0]  # the loop counter k of the current round (for eta_k="step")

    def test(a, i, k):
        step[0] = k
        s = fdot(a, Z[i])
        return s, s <= b

    sign = -1 if printed else 1  # Algorithm 4 as printed: a - y_k

    def update(a, i, u, score):
        eta = _step_eta(sched, u if by_update else step[0])
        etas.append(eta)
        return tuple(x + sign * eta * yk for x, yk in zip(a, Z[i]))

    last = [0]  # the step of the latest correction, so that the trace can show its eta

    def step_info(k, i, score):
        return {"eta": etas[-1]} if etas and last[0] == k else {}

    def update_traced(a, i, u, score):
        last[0] = step[0]
        return update(a, i, u, score)

    def until(a):  # Algorithm 4's line 4 as printed, tested after every round: all patterns properly classified
        return "converged" if _separates(Z, a) else None

    res = None
    if printed is None and sched.constant and P["stop_on_cycle"] and sched.value > 0:
        # a constant eta: the perceptron's iteration a <- a + eta y_k on a^t y_k <= b, run on the integer kernel
        # (_fast.py proves the run identical to the loop below, field for field); it returns None where the
        # loop below runs instead (trace=True, or the kernel switched off)
        res = _fast.perceptron_loop(Z, a1, sched.value, False, bounds, tracer, margin=b, stop=P["stop"])
    if res is None:
        res = cyclic_single_sample(prob.n, a1, test, update_traced, bounds, tracer, stationary=sched.constant,
                                   step_info=None if sched.constant else step_info,
                                   stop_on_cycle=P["stop_on_cycle"], stop=P["stop"],
                                   until=until if printed else None)
    run = Run(name, res.w, P.bias, res.converged, res.reason, res.updates, res.epochs, res.steps,
              params={**P, "max_epochs": P.max_epochs}, trace=tracer.steps, trace_complete=tracer.complete,
              extras={"mistakes": res.update_indices, "separates": _separates(Z, res.w), "max_bits": res.max_bits,
                      "last_update_step": res.last_update},
              seed=SEED003, problem=prob,
        model=linear_model(res.w, P.bias, prob))
    if b != 0:
        # a^t y_k > b for every k (Algorithm 5's goal); "separates" keeps its meaning a^t y_k > 0
        run.extras["margin_met"] = _separates(Z, res.w, b)
    if not sched.constant:
        run.extras["etas"] = etas[:10_000]
    if res.cycle is not None:
        # (also for a - y_k: the corrections -y_k of one period sum to 0, so the y_k do)
        run.extras["certificate"] = _certificate(Z, gordan_from_counts(prob.n, res.cycle), res.cycle, P.bias)
        run.extras["cycle_step"] = res.cycle_step
    if printed:
        run.extras["erratum"] = printed
        run.extras["printed_note"] = printed_note(run, "a <- a - y_k on a misclassified y_k (a^t y_k <= 0)")
        run.extras["monitor"] = None
        run.extras["monitor_note"] = "not applied: the printed rule a - y_k is not the perceptron's update"
        return run
    if P["monitor"]:
        if sched.constant and b == 0:
            monitor_run(run, Z, eta=sched.value, w1=a1, w_star=P["w_star"])
        else:
            run.extras["monitor"] = None
            run.extras["monitor_note"] = (
                "not applied: the convergence monitor checks the fixed-step theorem with the test a^t y <= 0; "
                + ("with a margin b > 0 a correction can have 0 < a^t y_k <= b, so Fact 2 "
                   "(||a(k+1)||^2 <= ||a(k)||^2 + eta^2 R^2) does not follow" if b != 0 else
                   "eta(k) varies, and the theorem for a varying eta (Duda-Hart-Stork Theorem 5.2) has no "
                   "finite mistake bound to check"))
    return run


# ---------------------------------------------------------------------------
# seed 001: the pocket algorithm (batch PLA: exactlin.algorithms.perceptron_batch)


def _sign(v) -> int:
    return (v > 0) - (v < 0)


def E_in(w, Y, z) -> Fraction:
    """Seed 001's in-sample error (1/N) sum_n [sign(w^T x_n) != y_n], exactly; sign(0) = 0 is never a label,
    so a sample on the boundary counts as an error.

    >>> E_in((1, 0), [(1, 0), (0, 1)], [1, 1])
    Fraction(1, 2)
    """
    return Fraction(sum(1 for x, zi in zip(Y, z) if _sign(fdot(w, x)) != zi), len(Y))


POCKET_PARAMS = (
    Param("T", "int", 100, "number of PLA steps T >= 1", at_least(1)),
    Param("w0", "vector", None, "start vector w(1) (default zeros)"),
    Param("max_bits", "int", None, "stop when a weight's numerator or denominator exceeds this many bits",
          at_least(1)),
    MAX_SECONDS,
    variant_param("pocket-comparison", "keep w(t+1) when E_in(w(t+1)) < E_in(w(t)), the previous PLA iterate"),
)


#: E_in values kept in ``extras["E_in_history"]`` (the start's included)
POCKET_HISTORY = 10_000


@register("pocket", family="perceptron", seed=SEED001, number="Pocket Algorithm",
          title="Pocket algorithm (seed 001)", params=POCKET_PARAMS, bias_default="first",
          arithmetics=("fraction", "integer", "flint"),
          monitor="none: the pocket is meant for non-separable data, where no convergence theorem applies")
def pocket(X, y, P: Checked) -> Run:
    """Pocket algorithm, seed 001 (``001_5ccb68c426482a98.txt``, "Pocket Algorithm").

    Initialize w(1) (default zeros); for t = 1..T: run PLA for one update to obtain w(t+1) (the next sample
    in cyclic order, continuing after the last one visited, with sign(w^T x_i) != y_i gets
    w <- w + y_i x_i); evaluate E_in(w(t+1)) exactly (:func:`E_in`); **if E_in(w(t+1)) < E_in(pocket) then
    pocket <- w(t+1)**.  The notes compare with E_in(w(t)), the previous PLA iterate, which does not keep
    "the best line found in T steps" they promise (erratum ``pocket-comparison``).  Returns the pocket as
    ``w``; ``extras["E_in"]`` is its error, ``extras["w_pla"]`` the last PLA iterate.

    Stops early with ``converged`` when PLA finds no misclassified sample (E_in = 0); ``max_steps`` after T
    steps; ``max_epochs`` if max_epochs < T steps were allowed.

    ``variant="printed"`` compares as printed (erratum ``pocket-comparison``): **if E_in(w(t+1)) <
    E_in(w(t)) then w <- w(t+1)**, w(t) the previous PLA iterate; the returned w is then the last vector
    kept that way, which need not be the best one seen.

    PLA's step is the perceptron's on the normalized samples z_i = y_i x_i (sign(w^T x_i) != y_i iff
    <w, z_i> <= 0, sign(0) never being a label), so the PLA runs on the engine's cyclic loop, one update per
    step, and E_in(w) = #{i : <w, z_i> <= 0} / N is read from the same representation after every update
    (``arithmetic``: "auto" = "integer", the float64/int64/Python-integer tiers; "fraction"; "flint": the same Run).

    >>> r = pocket([(1, 1), (1, -1), (-1, 1), (-1, -1)], [1, -1, -1, 1], bias="none", T=5)
    >>> r.w, r.extras["E_in"]
    ((Fraction(0, 1), Fraction(2, 1)), Fraction(1, 2))
    """
    prob = P.problem(X, y)
    N = prob.n
    w1 = start_vector(P["w0"], prob.d)
    T = P["T"]
    bounds = P.bounds()
    printed = P["variant"] == "printed"
    used = "integer" if P.arithmetic == "auto" else P.arithmetic
    # the scores of every sample, read for E_in after each step, also serve PLA's next search (engine.reuse)
    rep = Reusing(make_arith(used, prob.Z, w1, step=1))
    wrong = rep.threshold(0)  # sign(w^T x_i) != y_i  iff  <w, z_i> <= 0

    def mistakes() -> int:  # N E_in(w)
        return rep.count(rep.every(), wrong)

    trace = _PocketTrace(P.tracer(prob.d), rep)
    best = {"count": mistakes(), "t": 1, "w": rep.snapshot()}  # the pocket: w(1) to start
    prev = [best["count"]]  # N E_in(w(t)), the previous PLA iterate (the printed comparison)
    history = [best["count"]]

    def after_update(k, i):  # PLA made step t: w(t+1) = w(t) + z_i; E_in(w(t+1)) and the pocket
        t = len(history)
        count = mistakes()
        if len(history) < POCKET_HISTORY:
            history.append(count)
        better = count < (prev[0] if printed else best["count"])
        prev[0] = count
        trace.step(t, i, count, best["count"], better, N)
        if better:
            best.update(count=count, t=t + 1, w=rep.snapshot())

    # the steps t = 1 .. min(T, max_epochs) are PLA's updates (max_epochs bounds the steps, as in the notes' T);
    # the loop's own epochs never bind first (every step is found within one pass)
    steps = min(T, bounds.max_epochs)
    pla = Bounds(max_epochs=steps + 1, max_updates=steps, max_bits=bounds.max_bits, max_seconds=bounds.max_seconds,
                 started=bounds.started, progress=bounds.progress, algorithm=bounds.algorithm)
    res = cyclic(rep, pla, Tracer(False, prob.d), stationary=False, after_update=after_update)  # T steps, no cycle stop
    t_done = res.updates
    reason = {"max_updates": "max_steps" if T <= bounds.max_epochs else "max_epochs"}.get(res.reason, res.reason)
    trace.finish(t_done)
    P.record_arithmetic(rep.name, rep.tiers)
    E = [Fraction(c, N) for c in history]
    run = make_run(P, prob, w=rep.fractions(best["w"]), converged=reason == "converged", reason=reason,
                   updates=t_done, epochs=t_done, steps=t_done, tracer=trace.tracer, seed=SEED001,
                   extras={"E_in": Fraction(best["count"], N), "pocket_from_step": best["t"], "w_pla": res.w,
                           "E_in_pla": Fraction(mistakes(), N), "E_in_history": E,
                           "separates": best["count"] == 0, "last_update_step": t_done})
    if printed:
        run.extras["erratum"] = "pocket-comparison"
        run.extras["printed_note"] = (
            f"the printed comparison (keep w(t+1) when E_in(w(t+1)) < E_in(w(t)), the previous iterate) ran "
            f"{t_done} PLA steps and stopped with reason {reason}; the vector it kept has E_in = "
            f"{run.extras['E_in']}, the best vector seen (w(1) included) had E_in = {min(E)}.")
    return run


class _PocketTrace:
    """The pocket's trace: one Step per PLA step t (k = epoch = t, the score E_in(w(t+1)), info E_in, pocket_E_in,
    pocketed), under the Tracer's policy, kept compactly (w(t+1) as the representation's snapshot while vectors
    are kept) and built into Steps when first read."""

    def __init__(self, tracer, rep):
        self.tracer, self.rep = tracer, rep
        mode = tracer.mode
        self.limit = 0 if mode is False else (engine_trace.TRACE_STEP_LIMIT if mode is None else float("inf"))
        self.start = rep.snapshot()
        self.records: list = []

    def step(self, t, i, count, best_count, better, N) -> None:
        if t <= self.limit:
            vec = self.tracer.mode is True or t * self.tracer.d <= engine_trace.TRACE_VECTOR_LIMIT
            self.records.append((t, i, count, best_count, better, N, self.rep.snapshot() if vec else None))

    def finish(self, t_done: int) -> None:
        if self.tracer.mode is None and t_done > self.limit:
            self.tracer.complete = False
        if self.limit:
            self.tracer.steps = LazySteps(min(t_done, self.limit), self._build)

    def _build(self) -> list:
        tracer = Tracer(self.tracer.mode, self.tracer.d)
        fractions = self.rep.fractions
        w = fractions(self.start) if tracer.keep_vectors() else None
        for t, i, count, best_count, better, N, snap in self.records:
            E = Fraction(count, N)
            w_new = fractions(snap) if snap is not None else None
            tracer.add(t, t, i, E, True, w, w_new, E_in=E, pocket_E_in=Fraction(best_count, N), pocketed=better)
            w = w_new
        return tracer.steps


# ---------------------------------------------------------------------------
# seed 000: voted and averaged perceptron


VOTED_PARAMS = (*_MONITOR_PARAMS, *BOUND_PARAMS, STOP_ON_CYCLE, STOP)


def _voted(name, X, y, P):
    prob = P.problem(X, y)
    Z = prob.Z
    w1 = zeros(prob.d)
    bounds = P.bounds()
    tracer = P.tracer(prob.d)
    fast = None
    if P["stop_on_cycle"]:
        # the perceptron's iteration on the integer kernel, the (w_m, c_m) list and sum_m c_m w_m rebuilt from
        # its mistakes in integers (_fast_voted.py proves the run identical to the loop below, field for field);
        # None where the loop below runs instead (trace=True, or the kernel switched off)
        fast = _fast_voted.voted_loop(Z, bounds, tracer, stop=P["stop"])
    if fast is not None:
        res, averaged = fast.res, fast.averaged
        voted = fast.voted()  # the list of {"w": w_m, "c": c_m}, built when first read
        model = (linear_model(averaged, P.bias, prob) if name == "averaged-perceptron"
                 else fast.vote_model(P.bias, *label_pair(prob)))
    else:
        # the (w_m, c_m) list exactly as the lecture builds it: m = 1, w_1 = 0, c_1 = 1
        vectors: list[list] = [[w1, 1]]

        def test(w, i, k):
            s = fdot(w, Z[i])
            return s, s <= 0

        def update(w, i, u, score):
            return tuple(a + b for a, b in zip(w, Z[i]))

        def on_step(k, i, upd, wb, wa):
            if upd:  # w_{m+1} = w_m + y_t x_t; m = m + 1; c_m = 1
                vectors.append([wa, 1])
            else:  # c_m = c_m + 1
                vectors[-1][1] += 1

        res = cyclic_single_sample(prob.n, w1, test, update, bounds, tracer, stationary=True,
                                   on_step=on_step, stop_on_cycle=P["stop_on_cycle"], stop=P["stop"])
        vlist = [(tuple(w), c) for w, c in vectors]
        averaged = tuple(sum((c * w[j] for w, c in vlist), Fraction(0)) for j in range(prob.d))
        voted = [{"w": w, "c": c} for w, c in vlist]
        model = (linear_model(averaged, P.bias, prob) if name == "averaged-perceptron"
                 else VoteModel(tuple(vlist), P.bias, *label_pair(prob)))
    run = Run(name, averaged if name == "averaged-perceptron" else None, P.bias, res.converged, res.reason,
              res.updates, res.epochs, res.steps, params={**P, "max_epochs": P.max_epochs}, trace=tracer.steps,
              trace_complete=tracer.complete,
              extras={"voted": voted, "final_w": res.w, "averaged_w": averaged,
                      "mistakes": res.update_indices, "max_bits": res.max_bits,
                      "last_update_step": res.last_update}, seed=SEED000, problem=prob, model=model)
    if res.cycle is not None:
        run.extras["certificate"] = _certificate(Z, gordan_from_counts(prob.n, res.cycle), res.cycle, P.bias)
        run.extras["cycle_step"] = res.cycle_step
    if P["monitor"]:
        # the (w_m) sequence is the perceptron's: the theorem applies to it unchanged
        w_saved = run.w
        run.w = res.w
        try:
            monitor_run(run, Z, eta=Fraction(1), w1=w1, w_star=P["w_star"])
        finally:
            run.w = w_saved
    return run


@register("voted-perceptron", family="perceptron", seed=SEED000, number="Voted Perceptron",
          title="Voted perceptron (seed 000)", params=VOTED_PARAMS, conflicts=MONITOR_CONFLICTS, bias_default="none",
          monitor="the perceptron's theorem on the sequence w_1, w_2, ... (it is the perceptron's)")
def voted_perceptron(X, y, P: Checked) -> Run:
    """Voted perceptron, seed 000 (``000_478cb53c624e7eb5.txt``, "Voted Perceptron").

    Initially m = 1, w_1 = 0, c_1 = 1; for t = 1, 2, ... (cyclic passes): if y_t <w_m, x_t> <= 0 then
    w_{m+1} = w_m + y_t x_t, m = m + 1, c_m = 1; else c_m = c_m + 1.  Output (w_1, c_1), ..., (w_m, c_m) in
    ``extras["voted"]``, w_1 = 0 included as the lecture lists it.  Prediction
    (:func:`predict_voted`): sign(sum_i c_i sign(<w_i, x>)).  No single vector predicts, so ``Run.w`` is
    None; ``extras["final_w"]`` is w_m (the perceptron's output).  Passes run until one makes no mistake
    (the perceptron's stop), a cycle, or ``max_epochs`` (``max_epochs=1`` is the lecture's one pass).
    A cycle (the state (w_m, position) repeats exactly) stops with reason ``cycle`` and a verified Gordan
    certificate; ``stop_on_cycle=False`` keeps running it until a bound, with the certificate and
    ``extras["cycle_step"]``.  The run uses the perceptron's integer kernel, the (w_m, c_m) list rebuilt
    from its mistakes in integers (``exactlin/algorithms/_fast_voted.py`` proves it identical to the
    readable Fraction loop, which runs for ``trace=True`` and ``stop_on_cycle=False``).

    >>> r = voted_perceptron([(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1], max_epochs=1)
    >>> [(tuple(map(int, v["w"])), v["c"]) for v in r.extras["voted"]]
    [((0, 0), 1), ((4, 0), 1), ((3, -1), 2), ((1, -3), 1)]
    """
    return _voted("voted-perceptron", X, y, P)


@register("averaged-perceptron", family="perceptron", seed=SEED000, number="Averaged Perceptron",
          title="Averaged perceptron (seed 000)", params=VOTED_PARAMS, conflicts=MONITOR_CONFLICTS, bias_default="none",
          monitor="the perceptron's theorem on the sequence w_1, w_2, ... (it is the perceptron's)")
def averaged_perceptron(X, y, P: Checked) -> Run:
    """Averaged perceptron, seed 000 (``000_478cb53c624e7eb5.txt``, "Averaged Perceptron").

    The voted perceptron's algorithm (same (w_m, c_m) list, in ``extras["voted"]``); prediction
    sign(<sum_i c_i w_i, x>), so ``Run.w`` is the averaged vector sum_i c_i w_i (unnormalized, as the
    notes write it; dividing by sum c_i does not change any sign).  The lecture's example after one pass
    gives 0 + (4,0) + 2(3,-1) + (1,-3) = (11,-5); the notes print "[11]" (erratum ``averaged-vector``).
    Stops, ``stop_on_cycle`` and the integer kernel as for :func:`voted_perceptron`.

    >>> averaged_perceptron([(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1], max_epochs=1).w
    (Fraction(11, 1), Fraction(-5, 1))
    """
    return _voted("averaged-perceptron", X, y, P)


def _augmented(run: Run, x):
    from exactlin.data.dataset import augment
    from exactlin.exact.numbers import to_vector

    return augment([to_vector(x)], run.bias)[0]


def predict_voted(run: Run, x) -> int:
    """The voted rule sign(sum_i c_i sign(<w_i, x>)) for a raw sample x (augmented by the run's bias);
    0 when the vote is tied (undecided, as sign(0)).  The run's model decides
    (:class:`~exactlin.model.models.VoteModel`)."""
    return run.model.side(x)


def predict_averaged(run: Run, x) -> int:
    """The averaged rule sign(<sum_i c_i w_i, x>) for a raw sample x (augmented by the run's bias); 0 on the
    boundary.  It reads the run's averaged vector ``extras["averaged_w"]``, which a voted and an averaged
    run both carry (the same (w_m, c_m) list), so on a voted run it answers for the averaged rule, not the
    vote (that is :func:`predict_voted`)."""
    avg = run.extras.get("averaged_w")
    if avg is None:
        raise ParameterError(f"predict_averaged needs a voted or averaged perceptron run (extras['averaged_w']); "
                             f"got a {run.algorithm} run", parameter="run")
    return _sign(fdot(avg, _augmented(run, x)))
