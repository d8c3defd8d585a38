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

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from exactlin.algorithms import _fast_batch, _fast_pocket, register
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
from exactlin.engine.arith import fraction_bits as _bits
from exactlin.engine.cyclic import Until, cyclic
from exactlin.engine.trace import (
    STOP,
    Bounds,
    CycleDetector,
    Tracer,
    batch_step_limit,
    batch_steps_param,
    max_bits_param,
    max_steps_param,
)
from exactlin.errors import ParameterError
from exactlin.exact.numbers import fdot, zeros
from exactlin.model.models import linear_model
from exactlin.model.params import MAX_SECONDS, Param, as_schedule, at_least, nonnegative, positive
from exactlin.model.run import Run
from exactlin.theory.certificates import gordan_from_counts
from exactlin.theory.monitor import batch_monitor
from exactlin.theory.replay import above

__all__ = ["fixed_increment", "variable_increment", "batch_perceptron", "batch_pla", "perceptron_gd", "pocket",
           "batch_loop", "BatchResult", "batch_monitor", "E_in", "BOUND_PARAMS", "bound_params"]

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
# the batch loop (Algorithm 3, batch PLA, gradient descent on R(w), Algorithm 8)


@dataclass
class BatchResult:
    a: tuple
    converged: bool
    reason: str
    iterations: int
    updates: int  # iterations that changed a
    history: list = field(default_factory=list)  # per iteration: (indices in Y_k, their coefficients)
    certificate_lambda: tuple | None = None
    cycle: list | None = None  # iterations of one period
    max_bits: int = 0
    last_update: int = 0  # the iteration of the last change of a (0: none)
    cycle_step: int | None = None  # the iteration at which the repeat was proved


def batch_loop(Z, a1: tuple, correction: Callable, bounds: Bounds, tracer: Tracer, *, stationary: bool,
               criterion: Callable | None = None, stop_on_cycle: bool = True,
               criterion_first: bool = False) -> BatchResult:
    """Run a batch rule a(k+1) = a(k) + sum_{j in Y_k} c_j y_j for k = 1, 2, ..., max_epochs.

    ``correction(a, k)`` returns ``(Y_k, coefs, info)``: the indices of the samples the rule corrects on at
    iteration k and their exact coefficients c_j > 0 (eta(k) for Algorithm 3, alpha/N for batch PLA, xi for
    gradient descent, eta (b - a^t y)/||y||^2 for Algorithm 8).  An empty Y_k stops the run (converged).
    ``criterion(increment, k)``, checked after the update as the notes' do-until loops do, stops with
    reason ``criterion``.  For a stationary rule an exact repeat of a stops with reason ``cycle`` and the
    coefficients of one period as a Gordan certificate (verified by the caller).  By default the repeat is
    checked first: a zero increment with a nonempty Y_k is a fixed point that proves non-separability, which
    says more than "the criterion was met" (batch PLA from w = 0 on seed 000's Example 2).  With
    ``criterion_first=True`` (Algorithm 3's theta) a criterion that fires on the iteration that proved the
    repeat stops with reason ``criterion``, the notes' own stop, and the certificate is still returned.
    ``stop_on_cycle=False`` keeps the first certificate found and goes on until another stop or a bound.
    """
    d = len(a1)
    a = a1
    cycles = CycleDetector(a) if stationary else None
    history: list = []
    updates = 0
    last = 0
    lam = found = found_at = None
    max_bits = _bits(a)
    n = len(Z)
    # the batch budget: max_steps iterations, by default ceil(DEFAULT_BATCH_VISITS / n)
    limit = bounds.max_steps = batch_step_limit(bounds.max_steps, n)
    ticking = bounds.progress is not None

    def result(converged, reason, k):
        return BatchResult(a, converged, reason, k, updates, history, lam, found, max_bits, last, found_at)

    for k in range(1, bounds.max_epochs + 1):
        if k > limit:
            return result(False, "max_steps", k - 1)
        if ticking and k > 1:  # k - 1 iterations done, n sample visits each
            bounds.tick(k - 1, updates, max_bits, work=n)
        Yk, coefs, info = correction(a, k)
        if not Yk:
            tracer.add(k, k, None, 0, False, a, a, Y=[], **info)
            return result(True, "converged", k)
        inc = list(zeros(d))
        for m, (j, c) in enumerate(zip(Yk, coefs), 1):
            z = Z[j]
            for t in range(d):
                inc[t] += c * z[t]
            if bounds.max_bits is not None and m % 64 == 0:
                # a sum of corrections with different denominators (Algorithm 8: one ||y||^2 each) can outgrow
                # the bound within one iteration: stop before the rest of the sum is paid for; a is a(k)
                b = _bits(inc)
                if b > bounds.max_bits:
                    max_bits = max(b, max_bits)
                    return result(False, "bit_limit", k - 1)
        inc = tuple(inc)
        a_new = tuple(x + y for x, y in zip(a, inc))
        history.append((list(Yk), list(coefs)))
        changed = a_new != a
        updates += changed
        if changed:
            last = k
        tracer.add(k, k, None, len(Yk), changed, a, a_new, Y=list(Yk), increment=inc, **info)
        a = a_new
        b = _bits(a)
        if b > max_bits:
            max_bits = b
            if bounds.max_bits is not None and b > bounds.max_bits:
                return result(False, "bit_limit", k)
        period = cycles.observe(a) if cycles is not None else None
        if period is not None:
            first = k - period
            n = len(Z)
            weight = [Fraction(0)] * n
            for Ys, cs in history[first:]:
                for j, c in zip(Ys, cs):
                    weight[j] += c
            total = sum(weight)
            lam = tuple(w / total for w in weight)
            found, found_at = list(range(first + 1, k + 1)), k
            cycles = None
            if criterion_first and criterion is not None and criterion(inc, k):
                return result(True, "criterion", k)
            if stop_on_cycle:
                return result(False, "cycle", k)
        if criterion is not None and criterion(inc, k):
            return result(True, "criterion", k)
        if bounds.max_updates is not None and updates >= bounds.max_updates:
            return result(False, "max_updates", k)
        if bounds.max_seconds is not None and bounds.out_of_time():  # every iteration: one can be slow
            return result(False, "time_limit", k)
    if bounds.max_epochs >= limit:  # both bounds end at the same iteration: the budget (the tighter rule) names it
        return result(False, "max_steps", limit)
    return result(False, "max_epochs", bounds.max_epochs)


def settle_at_bound(res: BatchResult, empty: Callable[[tuple], bool]) -> BatchResult:
    """A budget that ends a batch run on a solution ends it converged: when the last iteration the budget
    allowed (max_epochs or max_steps) moved a to a vector whose Y_{k+1} is empty (``empty(a)``, the rule's
    own test), the run would stop at the next check without changing a, so it reports ``converged`` at the
    iterations it ran (``max_epochs=1`` whose first step separates converges after one iteration)."""
    if res.reason in ("max_epochs", "max_steps") and empty(res.a):
        res.converged, res.reason = True, "converged"
    return res


def _attach_batch_monitor(run: Run, Z, a1, res: BatchResult, w_star, enabled: bool, applies: str | None,
                          integer_replay: bool = False) -> None:
    if not enabled:
        return
    if applies:
        run.extras["monitor"] = None
        run.extras["monitor_note"] = applies
        return
    if w_star is None:
        if not (res.reason == "converged" and _separates(Z, res.a)):
            run.extras["monitor"] = None
            run.extras["monitor_note"] = ("not checked: the run did not end at a strict separator and no w_star "
                                          "was given")
            return
        w_star, source = res.a, "final a of this run"
    else:
        source = "given"
    rep = None
    if integer_replay:  # the same report from an integer replay (_fast_batch.replay_batch_monitor), or None
        rep = _fast_batch.replay_batch_monitor(Z, a1, res.history, tuple(w_star), source)
    run.extras["monitor"] = rep if rep is not None else batch_monitor(Z, a1, res.history, tuple(w_star), source)


def _batch_run(name, seed, prob, res: BatchResult, P: Checked, tracer, w_reported=None) -> Run:
    bias = P.bias
    run = Run(name, res.a if w_reported is None else w_reported, bias, res.converged, res.reason, res.updates,
              res.iterations, res.iterations, params={**P, "max_epochs": P.max_epochs}, trace=tracer.steps,
              trace_complete=tracer.complete,
              extras={"separates": _separates(prob.Z, res.a), "max_bits": res.max_bits,
                      "last_update_step": res.last_update}, seed=seed, problem=prob,
        model=linear_model(res.a if w_reported is None else w_reported, bias, prob))
    if res.certificate_lambda is not None:
        run.extras["certificate"] = _certificate(prob.Z, res.certificate_lambda, res.cycle, bias)
        run.extras["cycle_step"] = res.cycle_step
    return run


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

    rep = representation(P, Z, a1, step=sched.value if constant else None)
    res = cyclic(rep, P.bounds(), tracer, b=b, coef=sign * sched.value if constant else coef,
                 stationary=sched.constant, step_info=None if sched.constant else step_info,
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
# seed 003, Algorithm 3


BATCH_PARAMS = (
    Param("eta", "schedule", as_schedule("1"), "eta(k) > 0 as an exact expression in k", positive),
    Param("theta", "rational", Fraction(0), "criterion theta >= 0: stop when ||eta(k) sum_{Y_k} y|| < theta "
          "(0: stop only when no sample is misclassified)", nonnegative),
    Param("a0", "vector", None, "start vector a (default 0)"),
    *_MONITOR_PARAMS,
    batch_steps_param(),
    Param("max_bits", "int", None, "stop when a weight's numerator or denominator exceeds this many bits",
          at_least(1)),
    MAX_SECONDS,
    STOP_ON_CYCLE,
)


@register("batch-perceptron", family="perceptron", seed=SEED003, number="Algorithm 3",
          title="Batch perceptron", params=BATCH_PARAMS, conflicts=MONITOR_CONFLICTS, bias_default="first",
          monitor="with a constant eta: batch Facts 1 and 2 at every iteration and M <= n R^2 ||a*||^2 / gamma^2")
def batch_perceptron(X, y, P: Checked) -> Run:
    """Batch perceptron, seed 003 (``003_ffe0ec08819b37d8.txt``) Algorithm 3.

    On normalized samples: initialize a (default 0), eta(.), theta; do k <- k + 1; Y_k = the samples with
    a^t y <= 0 (misclassified; J_p(a) = sum_{Y_k} (-a^t y)); **a <- a + eta(k) sum_{y in Y_k} y**; until
    **||eta(k) sum_{y in Y_k} y|| < theta**, compared as ||.||^2 < theta^2 so that no square root is taken
    (the notes compare the vector itself with theta: erratum ``alg3-criterion``).  An empty Y_k stops the
    run with reason ``converged`` (a is a solution).  ``max_epochs`` bounds the iterations k.

    With a constant eta the rule is stationary: an exact repeat of a stops with ``cycle`` and a verified
    Gordan certificate, and the batch convergence monitor (:func:`batch_monitor`) runs.  When theta > 0
    and the repeat is a zero increment (a nonempty Y_k whose corrections sum to 0, XOR), the notes'
    criterion ||increment|| < theta fires on that iteration: the reason is then ``criterion`` (the notes'
    stop) and the verified Gordan certificate is attached all the same.

    >>> r = batch_perceptron([(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1])
    >>> r.w, r.epochs, r.reason
    ((Fraction(0, 1), Fraction(1, 1), Fraction(-4, 1)), 2, 'converged')
    """
    prob = P.problem(X, y)
    Z = prob.Z
    a1 = start_vector(P["a0"], prob.d, "a0")
    sched, theta = P["eta"], P["theta"]
    tracer = P.tracer(prob.d)

    def correction(a, k):
        Yk = [i for i, z in enumerate(Z) if fdot(a, z) <= 0]
        if not Yk:
            return [], [], {"J_p": Fraction(0)}
        eta = _step_eta(sched, k)
        return Yk, [eta] * len(Yk), {"eta": eta, "J_p": -sum(fdot(a, Z[i]) for i in Yk)}

    def criterion(inc, k):
        return theta > 0 and fdot(inc, inc) < theta * theta

    bounds = P.bounds()
    res = None
    if sched.constant and sched.value > 0:
        # a constant eta: the batch sums on the integer kernel (_fast_batch.py proves the result identical to
        # batch_loop's, field for field); None where batch_loop runs instead (trace=True, the kernel off)
        res = _fast_batch.batch_kernel(Z, a1, sched.value, bounds, tracer,
                                       criterion=("<", theta * theta) if theta > 0 else None,
                                       info_eta=sched.value, stop_on_cycle=P["stop_on_cycle"],
                                       criterion_first=True, result_type=BatchResult)
    if res is None:
        res = batch_loop(Z, a1, correction, bounds, tracer, stationary=sched.constant,
                         criterion=criterion, stop_on_cycle=P["stop_on_cycle"], criterion_first=True)
    settle_at_bound(res, lambda a: _separates(Z, a))  # Y_k = {y : a^t y <= 0} empty
    run = _batch_run("batch-perceptron", SEED003, prob, res, P, tracer)
    _attach_batch_monitor(run, Z, a1, res, P["w_star"], P["monitor"],
                          None if sched.constant else "not applied: eta(k) varies; the batch theorem checked here "
                          "is the constant-step one", integer_replay=True)
    return run


# ---------------------------------------------------------------------------
# seed 001: batch PLA and the pocket algorithm


def _sign(v) -> int:
    return (v > 0) - (v < 0)


def E_in(w, Y, z) -> Fraction:
    """Seed 001's in-sample error (1/N) sum_n [sign(w^T x_n) != y_n], exactly; sign(0) = 0 is never a label,
    so a sample on the boundary counts as an error.

    >>> E_in((1, 0), [(1, 0), (0, 1)], [1, 1])
    Fraction(1, 2)
    """
    return Fraction(sum(1 for x, zi in zip(Y, z) if _sign(fdot(w, x)) != zi), len(Y))


def _E_in_counter(Y, z) -> Callable:
    """:func:`E_in` for many w on the same samples: the rows scaled once to integers (M Y, M the common
    denominator), then sign(<M y, L w>) = sign(<y, w>) for L w integer; the same exact values as E_in."""
    from math import lcm
    from operator import mul

    F = Fraction
    rows = [[v if type(v) is F else F(v) for v in r] for r in Y]
    M = lcm(*(v.denominator for r in rows for v in r)) if rows else 1
    R = [[v.numerator * (M // v.denominator) for v in r] for r in rows]
    N = len(Y)

    def count(w) -> Fraction:
        w = [v if type(v) is F else F(v) for v in w]
        L = lcm(*(v.denominator for v in w)) if w else 1
        W = [v.numerator * (L // v.denominator) for v in w]
        wrong = 0
        for r, zi in zip(R, z):
            s = sum(map(mul, r, W))
            if (s > 0) - (s < 0) != zi:
                wrong += 1
        return Fraction(wrong, N)

    return count


PLA_PARAMS = (
    Param("alpha", "rational", Fraction(1), "learning rate alpha > 0", positive),
    Param("epsilon", "rational", Fraction(0), "error tolerance epsilon >= 0: loop while ||Delta||_2 > epsilon "
          "(compared as ||Delta||^2 > epsilon^2)", nonnegative),
    Param("w0", "vector", None, "start vector w (default zeros)"),
    *_MONITOR_PARAMS,
    batch_steps_param(),
    Param("max_bits", "int", None, "stop when a weight's numerator or denominator exceeds this many bits",
          at_least(1)),
    MAX_SECONDS,
    STOP_ON_CYCLE,
    variant_param("seed001-batch-pla-reset", "Delta = 0 set once, before the do-loop, and carried over"),
)


@register("batch-pla", family="perceptron", seed=SEED001, number="Batch PLA",
          title="Batch PLA (seed 001)", params=PLA_PARAMS, conflicts=MONITOR_CONFLICTS, bias_default="first",
          monitor="batch Facts 1 and 2 at every iteration (Delta/N is Algorithm 3 with eta = alpha/N)")
def batch_pla(X, y, P: Checked) -> Run:
    """Batch PLA, seed 001 (``001_5ccb68c426482a98.txt``, "Batch PLA").

    Initialize w (default zeros); do: Delta = 0; for i = 1..N: if sign(w^T x_i) != y_i then
    Delta <- Delta + y_i x_i; **Delta <- Delta / N; w <- w + alpha Delta**; while **||Delta||_2 > epsilon**
    (compared exactly as ||Delta||^2 > epsilon^2).  sign(0) = 0 is never a label, so a sample on the boundary
    is corrected.  Delta = 0 (no sample misclassified) stops with reason ``converged``; ||Delta|| <= epsilon
    with Delta != 0 stops with ``criterion``.  ``max_epochs`` bounds the do-while iterations.

    ``variant="printed"`` sets Delta = 0 once, before the do-loop, as printed (erratum
    ``seed001-batch-pla-reset``): Delta_k = (Delta_{k-1} + sum of y_i x_i over the misclassified) / N, so w
    keeps moving after every sample is classified; the loop stops (reason ``criterion``) only when
    ||Delta|| <= epsilon, which with epsilon = 0 takes a Delta that is exactly 0.

    >>> r = batch_pla([(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1])
    >>> r.w, r.reason
    ((Fraction(0, 1), Fraction(1, 4), Fraction(-1, 1)), 'converged')
    """
    prob = P.problem(X, y)
    Z, N = prob.Z, prob.n
    w1 = start_vector(P["w0"], prob.d)
    alpha, eps = P["alpha"], P["epsilon"]
    tracer = P.tracer(prob.d)
    c = alpha / N

    def correction(w, k):
        V = [i for i in range(N) if _sign(fdot(w, prob.Y[i])) != prob.z[i]]
        return V, [c] * len(V), {}

    def criterion(inc, k):
        # inc = alpha * Delta, so ||Delta||^2 = ||inc||^2 / alpha^2
        return fdot(inc, inc) <= eps * eps * alpha * alpha

    if P["variant"] == "printed":
        return _batch_pla_printed(prob, w1, P, tracer)
    bounds = P.bounds()
    # batch PLA is the batch rule with c = alpha / N on the normalized samples (_fast_batch.py, point 1), run on
    # the integer kernel; batch_loop where the kernel declines (trace=True, the kernel off)
    res = _fast_batch.batch_kernel(Z, w1, c, bounds, tracer, criterion=("<=", eps * eps * alpha * alpha),
                                   stop_on_cycle=P["stop_on_cycle"], result_type=BatchResult)
    if res is None:
        res = batch_loop(Z, w1, correction, bounds, tracer, stationary=True, criterion=criterion,
                         stop_on_cycle=P["stop_on_cycle"])
    settle_at_bound(res, lambda w: not correction(w, 0)[0])  # no sign(w^T x_i) != y_i
    run = _batch_run("batch-pla", SEED001, prob, res, P, tracer)
    _attach_batch_monitor(run, Z, w1, res, P["w_star"], P["monitor"], None, integer_replay=True)
    return run


def _batch_pla_printed(prob, w, P, tracer) -> Run:
    """Batch PLA as seed 001 prints it: Delta = 0 once, then do {for i: Delta += y_i x_i on a mistake;
    Delta /= N; w += alpha Delta} while ||Delta|| > epsilon."""
    N, d = prob.n, prob.d
    alpha, eps = P["alpha"], P["epsilon"]
    bounds = P.bounds()
    delta = zeros(d)  # step 1: Delta = (0, ..., 0), once
    k = updates = last = 0
    max_bits = _bits(w)
    # the budget of every batch rule (batch_loop's): max_steps iterations, by default ceil(visits / N)
    limit = batch_step_limit(bounds.max_steps, N)
    reason = "max_steps" if bounds.max_epochs >= limit else "max_epochs"
    for k in range(1, bounds.max_epochs + 1):
        if k > limit:
            k = limit
            break
        if bounds.progress is not None and k > 1:
            bounds.tick(k - 1, updates, max_bits, work=N)
        V = [i for i in range(N) if _sign(fdot(w, prob.Y[i])) != prob.z[i]]
        delta = list(delta)
        for i in V:
            for t in range(d):
                delta[t] += prob.Z[i][t]
        delta = tuple(v / N for v in delta)
        w_new = tuple(a + alpha * v for a, v in zip(w, delta))
        changed = w_new != w
        if changed:
            updates, last = updates + 1, k
        tracer.add(k, k, None, len(V), changed, w, w_new, Y=V, Delta=delta)
        w = w_new
        max_bits = max(max_bits, _bits(w))
        if fdot(delta, delta) <= eps * eps:  # while ||Delta||_2 > epsilon, as printed
            reason = "criterion"
            break
        if bounds.max_bits is not None and max_bits > bounds.max_bits:
            reason = "bit_limit"
            break
        if bounds.out_of_time():
            reason = "time_limit"
            break
    else:
        k = min(bounds.max_epochs, limit)
    run = Run("batch-pla", w, P.bias, reason == "criterion", reason, updates, k, k,
              params={**P, "max_epochs": P.max_epochs}, trace=tracer.steps, trace_complete=tracer.complete,
              extras={"separates": _separates(prob.Z, w), "max_bits": max_bits, "last_update_step": last,
                      "Delta": delta, "erratum": "seed001-batch-pla-reset"},
              seed=SEED001, problem=prob, model=linear_model(w, P.bias, prob))
    run.extras["printed_note"] = printed_note(run, "Delta = 0 once, never reset")
    run.extras["monitor"] = None
    run.extras["monitor_note"] = "not applied: without the reset the increment is not the batch perceptron's"
    return run


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

    The corrected rule runs on the integer kernel :func:`._fast_pocket.pocket_loop` (every PLA test and E_in
    count is the sign of one integer score vector L^2 Z w; its docstring proves the Run identical, field for
    field, to the Fraction loop here, which runs for ``trace=True``, ``variant="printed"`` and with
    ``_fast.ENABLED = False``).

    >>> r = pocket([(1, 1), (1, -1), (-1, 1), (-1, -1)], [1, -1, -1, 1], bias="none", T=5)
    >>> r.w, r.extras["E_in"]
    ((Fraction(0, 1), Fraction(2, 1)), Fraction(1, 2))
    """
    prob = P.problem(X, y)
    Y, z, N = prob.Y, prob.z, prob.n
    w = start_vector(P["w0"], prob.d)
    T = P["T"]
    bounds = P.bounds()
    max_epochs = bounds.max_epochs  # checks it (a whole number >= 1)
    tracer = P.tracer(prob.d)
    printed = P["variant"] == "printed"
    if not printed:
        # the PLA steps and the E_in evaluations on one integer matrix (_fast_pocket.py proves the run identical
        # to the loop below, field for field); None where the loop below runs instead (trace=True, kernel off)
        res = _fast_pocket.pocket_loop(prob.Z, w, T, bounds, tracer)
        if res is not None:
            return _pocket_run(P, prob, tracer, res.best, res.best_E, res.best_t, res.w, res.E_pla, res.history,
                               res.reason, res.steps)
    E_in = _E_in_counter(Y, z)  # noqa: N806 -- the notes' E_in, computed in integers
    best, best_E = w, E_in(w)
    best_t = 1
    prev_E = best_E  # E_in(w(t)) of the previous PLA iterate (the printed comparison)
    pos = 0
    history_E = [best_E]
    reason, t_done = "max_steps", 0
    for t in range(1, T + 1):
        if t > max_epochs:
            reason = "max_epochs"
            break
        if bounds.progress is not None and t > 1:
            bounds.tick(t - 1, t - 1, _bits(w), work=N)
        # one PLA update: the next misclassified sample in cyclic order
        for off in range(N):
            i = (pos + off) % N
            if _sign(fdot(w, Y[i])) != z[i]:
                break
        else:
            reason = "converged"
            break
        w_new = tuple(a + z[i] * x for a, x in zip(w, Y[i]))
        pos = (i + 1) % N
        E = E_in(w_new)
        history_E.append(E)
        better = E < (prev_E if printed else best_E)
        prev_E = E
        tracer.add(t, t, i, E, True, w, w_new, E_in=E, pocket_E_in=best_E, pocketed=better)
        if better:
            best, best_E, best_t = w_new, E, t + 1
        w = w_new
        t_done = t
        if bounds.max_bits is not None and _bits(w) > bounds.max_bits:
            reason = "bit_limit"
            break
        if bounds.out_of_time():
            reason = "time_limit"
            break
    run = _pocket_run(P, prob, tracer, best, best_E, best_t, w, E_in(w), history_E[:10_000], reason, t_done)
    if printed:
        run.extras["erratum"] = "pocket-comparison"
        run.extras["printed_note"] = (
            f"the printed comparison (keep w(t+1) when E_in(w(t+1)) < E_in(w(t)), the previous iterate) ran "
            f"{t_done} PLA steps and stopped with reason {reason}; the vector it kept has E_in = {best_E}, the best "
            f"vector seen (w(1) included) had E_in = {min(history_E)}.")
    return run


def _pocket_run(P, prob, tracer, best, best_E, best_t, w, E_pla, history_E, reason, t_done) -> Run:
    return Run("pocket", best, P.bias, reason == "converged", reason, t_done, t_done, t_done,
               params={**P, "max_epochs": P.max_epochs}, trace=tracer.steps, trace_complete=tracer.complete,
               extras={"E_in": best_E, "pocket_from_step": best_t, "w_pla": w, "E_in_pla": E_pla,
                       "E_in_history": history_E, "separates": best_E == 0,
                       "last_update_step": t_done},
               seed=SEED001, problem=prob,
               model=linear_model(best, P.bias, prob))


# ---------------------------------------------------------------------------
# seed 002: gradient descent on R(w)


GD_PARAMS = (
    Param("xi", "rational", Fraction(1), "step size xi > 0", positive),
    Param("start", "int", 0, "the sample i (0-based) whose y_i x_i is the start vector w", at_least(0)),
    Param("w0", "vector", None, "an arbitrary start vector instead of y_i x_i (w0 = 0 allowed: see test)"),
    Param("test", "choice", "<", "which samples enter V and R: y_i x_i . w < 0 (the notes) or <= 0 (then from "
          "w = 0 every sample is in V and the first step is xi sum_i y_i x_i)", choices=("<", "<=")),
    STOP_ON_CYCLE,
    variant_param("perceptron-gd-stop", "while R(w) > 0: a stop with samples on the boundary is the notes' "
                  "'return w'"),
    *_MONITOR_PARAMS,
    batch_steps_param(),
    Param("max_bits", "int", None, "stop when a weight's numerator or denominator exceeds this many bits",
          at_least(1)),
    MAX_SECONDS,
)


@register("perceptron-gd", family="perceptron", seed=SEED002, number="Gradient descent on R(w)",
          title="Gradient descent on the perceptron risk R(w) (seed 002)", params=GD_PARAMS,
          conflicts=MONITOR_CONFLICTS, bias_default="last",
          monitor="batch Facts 1 and 2 at every iteration (Cauchy-Schwarz form: the start y_i x_i is not 0)")
def perceptron_gd(X, y, P: Checked) -> Run:
    """Gradient descent on the perceptron risk, seed 002 (``002_c246c20bba6fa4e1.txt``).

    R(w) = sum_{i in V} -y_i x_i . w with V = {i : y_i x_i . w < 0} (the notes' strict test).
    1) w = y_i x_i for the sample i = ``start`` (nonzero, as the notes require); 2) while R(w) > 0:
    **w <- w + xi sum_{i in V} y_i x_i** (= w - xi grad R(w)); 3) return w.  The notes write "V = set of
    indices i s.t. y_i x_i < 0", missing ". w".  R(w) = 0 means y_i x_i . w >= 0 for every i, the notes'
    goal: a sample may end on the boundary, even w = 0 (erratum ``perceptron-gd-stop``); the run then stops
    with reason ``boundary`` (R(w) = 0, converged False) rather than ``converged``, and
    ``extras["separates"]`` is False.
    ``max_epochs`` bounds the iterations; the rule is stationary, so an exact repeat of w
    stops with ``cycle`` and a verified Gordan certificate.

    ``w0`` starts from any vector, w = 0 included.  From w = 0 every sample has y_i x_i . w = 0: with the
    notes' test ``<`` V is empty, R(0) = 0 and the loop ends before its first step (reason ``boundary``);
    with ``test="<="`` every sample is in V, R counts them with value 0, and the first step is
    w = xi sum_i y_i x_i (the loop then runs while some y_i x_i . w <= 0).  ``extras["first_step"]`` says which.
    ``variant="printed"`` keeps the notes' stop as printed (erratum ``perceptron-gd-stop``): R(w) = 0 is
    their "return w", reported as reason ``criterion`` (converged), with ``extras["printed_note"]`` saying
    whether samples are left on the boundary.

    >>> r = perceptron_gd([(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1])
    >>> r.w, r.updates
    ((Fraction(1, 1), Fraction(-4, 1), Fraction(0, 1)), 1)
    """
    prob = P.problem(X, y)
    Z = prob.Z
    i0 = P["start"]
    strict = P["test"] == "<"
    if i0 >= prob.n:
        raise ParameterError(f"start must be a sample index 0..{prob.n - 1}, got {i0}", parameter="start")
    w1 = Z[i0] if P["w0"] is None else start_vector(P["w0"], prob.d)
    if P["w0"] is None and all(v == 0 for v in w1):
        raise ParameterError(f"start={i0}: y_i x_i = 0, but the notes start from an arbitrary w != 0 (R has no "
                             "gradient at 0); choose another sample", parameter="start")
    xi = P["xi"]
    tracer = P.tracer(prob.d)

    def correction(w, k):
        V = [i for i, z in enumerate(Z) if (fdot(w, z) < 0 if strict else fdot(w, z) <= 0)]
        return V, [xi] * len(V), {"R": -sum(fdot(w, Z[i]) for i in V)}

    res = batch_loop(Z, w1, correction, P.bounds(), tracer, stationary=True, stop_on_cycle=P["stop_on_cycle"])
    settle_at_bound(res, lambda w: not correction(w, 0)[0])  # V empty: R(w) = 0
    printed = P["variant"] == "printed"
    if printed and res.reason == "converged":
        res.reason = "criterion"  # the notes' "while R(w) > 0 ... return w", whatever lies on the boundary
    elif res.reason == "converged" and not _separates(Z, res.a):
        # R(w) = 0 with a sample on the boundary (y_i x_i . w = 0): the notes' stopping rule holds, but not
        # every sample is classified correctly (erratum perceptron-gd-stop); as perceptron(strict=True) does
        res.reason, res.converged = "boundary", False
    run = _batch_run("perceptron-gd", SEED002, prob, res, P, tracer)
    run.extras["R"] = -sum((fdot(res.a, z) for z in Z if fdot(res.a, z) < 0), Fraction(0))
    if all(v == 0 for v in w1):
        run.extras["first_step"] = (
            "from w = 0 every sample has y_i x_i . w = 0; with the test '<' none is in V, R(0) = 0 and the loop "
            "stops before its first step" if strict else
            "from w = 0 every sample has y_i x_i . w = 0; with the test '<=' all are in V and the first step is "
            "w = xi sum_i y_i x_i")
    if printed:
        run.extras["erratum"] = "perceptron-gd-stop"
        on = [i for i, z in enumerate(Z) if fdot(res.a, z) == 0]
        run.extras["printed_note"] = printed_note(run, "while R(w) > 0") + (
            f" Samples on the boundary (y_i x_i . w = 0): {on}." if on else "")
    _attach_batch_monitor(run, Z, w1, res, P["w_star"], P["monitor"], None)
    return run
