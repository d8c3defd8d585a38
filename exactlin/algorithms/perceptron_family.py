"""The rest of the perceptron family, exactly: seed 003's Algorithms 3, 4 and 5, seed 001's batch PLA and
pocket algorithm, seed 002's gradient descent on R(w) (seed 000's voted and averaged perceptron:
:mod:`exactlin.algorithms.voted`).

Conventions shared by every function here:

* Samples are augmented by ``bias`` (``first`` as seeds 001/003 write them, ``last`` as seed 002, ``none``
  as seed 000) and, for seed 003's rules, *normalized*: y_i = z_i x~_i with z_i = +1/-1 the label, so that a
  solution vector a has a^t y_i > 0 for every i.
* Single-sample rules visit the samples cyclically (k <- (k+1) mod n, :func:`exactlin.engine.cyclic.cyclic`);
  ``max_epochs`` bounds the passes.  Batch rules are bounded by ``max_epochs`` iterations.
* A stationary rule (constant step) that returns exactly to an earlier state never stops; the run then stops
  with reason ``cycle`` and a verified Gordan certificate (the corrections of one period sum to 0 with
  positive weights, so no vector separates the data).
* ``converged`` is True when the algorithm's own stopping rule fired (reason ``converged`` or ``criterion``);
  ``extras["separates"]`` says, checked exactly, whether the returned vector classifies every sample
  strictly correctly (a theta/epsilon criterion can stop before that).
"""

from __future__ import annotations

import functools
from fractions import Fraction

from exactlin.algorithms import register
from exactlin.algorithms._contract import Checked, make_run
from exactlin.algorithms._loop import representation, start_vector
from exactlin.algorithms.perceptron import (
    ARITHMETICS,
    MONITOR_CONFLICTS,
    STOP_CONFLICTS,
    STOP_ON_CYCLE,
    cycle_certificate,
    monitor_run,
    printed_note,
    variant_param,
)
from exactlin.algorithms.perceptron import PARAMS as _PERCEPTRON_PARAMS
from exactlin.algorithms.perceptron_batch import batch_perceptron, batch_pla, perceptron_gd  # the batch rules
from exactlin.engine.cyclic import Until, cyclic
from exactlin.engine.reuse import Reusing
from exactlin.engine.trace import (
    STOP,
    Bounds,
    Tracer,
    max_bits_param,
    max_steps_param,
)
from exactlin.errors import ParameterError
from exactlin.exact.numbers import fdot
from exactlin.model.extras import Notation
from exactlin.model.params import MAX_SECONDS, Param, as_schedule, at_least, nonnegative, positive
from exactlin.model.run import LazySteps, Run
from exactlin.theory.certificates import gordan_from_counts
from exactlin.theory.monitor import batch_monitor
from exactlin.theory.replay import above

__all__ = ["fixed_increment", "variable_increment", "batch_perceptron", "batch_pla", "perceptron_gd", "pocket",
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
    """Exact check: a^t y_i > b for every normalized sample (in integers, :func:`exactlin.theory.replay.above`)."""
    return above(a, Z, b)


def _step_eta(sched, k: int, name: str = "eta") -> Fraction:
    v = sched(k)
    if not v > 0:
        raise ParameterError(f"{name}({k}) = {v} must be > 0", parameter=name)
    return v


_certificate = cycle_certificate


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
          conflicts=MONITOR_CONFLICTS + STOP_CONFLICTS, bias_default="first", arithmetics=ARITHMETICS,
          monitor="Facts 1 and 2 at every correction and K <= R^2 ||a*||^2 / gamma^2 (Theorem 5.1)",
          notation=Notation(("a_k^t y_k", "a_k^t y_k"), ("a_{k+1} = a_k + y_k", "a_{k+1} = a_k + y_k")))  # seed 003
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
    > 0 for every sample).  From a = 0 the scores only fall, so the run ends on its bound with
    ``extras["printed_note"]``; ||a||^2 grows at every correction, so no state repeats (a proved cycle needs a
    sample y_k = 0).

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
          conflicts=MONITOR_CONFLICTS + STOP_CONFLICTS, bias_default="first", arithmetics=ARITHMETICS,
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
    """Algorithm 5 exactly as seed 003 prints it (erratum ``alg5-rule``), on the engine's cyclic loop (so every
    bound of the corrected rule holds): line 3 is the test a^t y_k + b < 0 (the loop's test with threshold -b,
    strict) and the update a - eta(k) y_k, line 4 the do-until test a^t y_k + b <= 0 for every k."""
    prob = P.problem(X, y)
    Z = prob.Z
    a1 = start_vector(P["a0"], prob.d, "a0")
    sched, b = P["eta"], P["b"]
    by_update = P["eta_k"] == "update"
    tracer = P.tracer(prob.d)

    def coef(i, u, k, q):  # line 3 as printed: a - eta(k) y_k
        return -_step_eta(sched, u if by_update else k)

    def step_info(k, i, update):
        return {"eta": _step_eta(sched, k)}

    rep = representation(P, Z, a1, step=sched.value if sched.constant and sched.value > 0 else None)
    res = cyclic(rep, P.bounds(), tracer, b=-b, strict=True, coef=coef, stationary=sched.constant,
                 step_info=None if sched.constant or by_update else step_info, stop_on_cycle=P["stop_on_cycle"],
                 until=Until(-b, every=True, reason="criterion"))
    P.record_arithmetic(rep.name, rep.tiers)
    a = res.w
    run = make_run(P, prob, w=a, converged=res.converged, reason=res.reason, updates=res.updates, epochs=res.epochs,
                   steps=res.steps, tracer=tracer, seed=SEED003,
                   extras={"mistakes": res.update_indices, "separates": _separates(Z, a), "max_bits": res.max_bits,
                           "last_update_step": res.last_update, "erratum": "alg5-rule"})
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


def _has_zero_row(Z) -> bool:
    """Is some sample z_i = 0?  (On the integer rows at once when Z has them.)"""
    num = getattr(Z, "num", None)
    if num is not None:
        return bool(len(num)) and not bool((num != 0).any(axis=1).all())
    return any(not any(z) for z in Z)


def _single_sample(name, X, y, P, *, sched, b, by_update, printed=None) -> Run:
    """Algorithms 4 and 5 on the engine's cyclic loop: a correction when a^t y_k <= b, a <- a + eta y_k (Algorithm
    4 as printed: a - y_k, until every pattern is properly classified)."""
    prob = P.problem(X, y)
    Z = prob.Z
    a1 = start_vector(P["a0"], prob.d, "a0")
    tracer = P.tracer(prob.d)
    etas: list[Fraction] = []
    sign = -1 if printed else 1  # Algorithm 4 as printed: a - y_k
    constant = sched.constant and sched.value > 0

    def coef(i, u, k, q):  # eta(k), k the correction's number or the loop counter
        eta = _step_eta(sched, u if by_update else k)
        etas.append(eta)
        return sign * eta

    def step_info(k, i, update):  # the trace shows a varying eta at each correction
        return {"eta": etas[-1]} if update else {}

    # Algorithm 4 as printed never returns to an earlier state when b <= 0 and no sample is 0: it corrects only
    # when a^t y_k <= b <= 0, and then ||a - eta y_k||^2 = ||a||^2 - 2 eta a^t y_k + eta^2 ||y_k||^2 > ||a||^2
    # (eta > 0), so ||a||^2 grows at every correction and no state repeats: no cycle table is kept (which lets
    # the loop run blocks of corrections at once, exactlin.engine.cyclic)
    growing = printed and constant and b <= 0 and not _has_zero_row(Z)
    rep = representation(P, Z, a1, step=sched.value if constant else None)
    res = cyclic(rep, P.bounds(), tracer, b=b, coef=sign * sched.value if constant else coef,
                 stationary=sched.constant and not growing, step_info=None if sched.constant else step_info,
                 stop_on_cycle=P["stop_on_cycle"], stop=P["stop"],
                 until=Until(0, reason="converged") if printed else None)  # until all properly classified
    P.record_arithmetic(rep.name, rep.tiers)
    run = make_run(P, prob, w=res.w, converged=res.converged, reason=res.reason, updates=res.updates,
                   epochs=res.epochs, steps=res.steps, tracer=tracer, seed=SEED003,
                   extras={"mistakes": res.update_indices, "separates": _separates(Z, res.w),
                           "max_bits": res.max_bits, "last_update_step": res.last_update})
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
    # the scores of every sample, read for E_in after each step, also serve PLA's next search (engine.reuse): one
    # product per step decides both E_in(w(t+1)) and the next mistake, as the notes' two tests read one w
    rep = Reusing(representation(P, prob.Z, w1, step=1))
    wrong = rep.threshold(0)  # sign(w^T x_i) != y_i  iff  <w, z_i> <= 0
    mistakes = functools.partial(rep.count_every, wrong)  # N E_in(w)

    trace = _PocketTrace(P.tracer(prob.d), rep, N)
    best_count = prev_count = mistakes()  # the pocket: w(1) to start; N E_in(w(t)) of the previous PLA iterate
    best_t, best_w = 1, rep.snapshot()
    t = 0
    history = [best_count]
    snapshot, records, rec_limit, vec_limit = rep.snapshot, trace.records, trace.limit, trace.vec_limit
    history_limit = P.limits.history  # E_in_history keeps its first values (the start's included)

    def after_update(k, i):  # PLA made step t: w(t+1) = w(t) + z_i; E_in(w(t+1)) and the pocket
        nonlocal t, prev_count, best_count, best_t, best_w
        t += 1
        count = mistakes()
        if t < history_limit:
            history.append(count)
        better = count < (prev_count if printed else best_count)
        prev_count = count
        if t <= rec_limit:  # the trace's record of step t (_PocketTrace), w(t+1) while vectors are kept
            records.append((t, i, count, best_count, better, snapshot() if t <= vec_limit else None))
        if better:
            best_count, best_t, best_w = count, t + 1, snapshot()

    # the steps t = 1 .. min(T, max_epochs) are PLA's updates (max_epochs bounds the steps, as in the notes' T);
    # the loop's own epochs never bind first (every step is found within one pass)
    steps = min(T, bounds.max_epochs)
    pla = Bounds(max_epochs=steps + 1, max_updates=steps, max_bits=bounds.max_bits, max_seconds=bounds.max_seconds,
                 started=bounds.started, progress=bounds.progress, algorithm=bounds.algorithm)
    # T steps, no cycle stop; the pocket reports no bit size (max_bits is read for its bound only)
    res = cyclic(rep, pla, Tracer(False, prob.d), stationary=False, after_update=after_update, track_bits=False)
    t_done = res.updates
    reason = {"max_updates": "max_steps" if T <= bounds.max_epochs else "max_epochs"}.get(res.reason, res.reason)
    trace.finish(t_done)
    P.record_arithmetic(rep.name, rep.tiers)
    E_of = {c: Fraction(c, N) for c in set(history)}  # one Fraction per distinct count, not one per step
    E = [E_of[c] for c in history]
    run = make_run(P, prob, w=rep.fractions(best_w), converged=reason == "converged", reason=reason,
                   updates=t_done, epochs=t_done, steps=t_done, tracer=trace.tracer, seed=SEED001,
                   extras={"E_in": Fraction(best_count, N), "pocket_from_step": best_t, "w_pla": res.w,
                           "E_in_pla": Fraction(mistakes(), N), "E_in_history": E,
                           "separates": best_count == 0, "last_update_step": t_done})
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

    def __init__(self, tracer, rep, N: int):
        self.tracer, self.rep, self.N = tracer, rep, N
        self.limit = tracer.cap
        # the vectors are kept for the steps t with t d <= the Tracer's vector_limit (all of them with trace=True)
        self.vec_limit = float("inf") if tracer.mode is True else tracer.vector_limit // tracer.d
        self.start = rep.snapshot()
        self.records: list = []  # (t, i, count, best_count, better, w(t+1)'s snapshot or None), t <= limit

    def finish(self, t_done: int) -> None:
        if self.tracer.mode is None and t_done > self.limit:
            self.tracer.complete = False
        if self.limit:
            self.tracer.steps = LazySteps(min(t_done, self.limit), self._build)

    def _build(self) -> list:
        tracer = self.tracer.fresh()
        fractions = self.rep.fractions
        w = fractions(self.start) if tracer.keep_vectors() else None
        N = self.N
        for t, i, count, best_count, better, snap in self.records:
            E = Fraction(count, N)
            w_new = fractions(snap) if snap is not None else None
            tracer.add(t, t, i, E, True, w, w_new, E_in=E, pocket_E_in=Fraction(best_count, N), pocketed=better)
            w = w_new
        return tracer.steps
