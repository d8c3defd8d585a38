"""The perceptron of seed 000 (000_478cb53c624e7eb5.txt), exactly.

    1. Initially, w_1 = 0.
    2. For t = 1, 2, 3, ...:  if y_t <w_t, x_t> <= 0 then w_{t+1} = w_t + y_t x_t, else w_{t+1} = w_t.

(seed 000, "The Perceptron Algorithm").  The examples arrive cyclically,
x_1, ..., x_n, x_1, ...; the run stops when a whole cycle of n rounds makes no
mistake (the current w classifies every sample), when a bound is hit, or when
the state (w, position) repeats exactly, which proves the run would never stop.
"""

from __future__ import annotations

from fractions import Fraction

from exactlin.algorithms import register
from exactlin.algorithms._contract import Checked, make_run
from exactlin.algorithms._loop import representation, start_vector
from exactlin.engine.cyclic import cyclic
from exactlin.engine.trace import STOP
from exactlin.model.extras import Notation
from exactlin.model.params import Conflict, Param, at_least, positive
from exactlin.model.run import Run
from exactlin.theory.certificates import gordan_from_counts, verify_gordan
from exactlin.theory.monitor import ConvergenceMonitor
from exactlin.theory.replay import NOT_SEPARATING, above, replay_monitor, separates

SEED = "000_478cb53c624e7eb5.txt"

#: the representations every rule on the engine's cyclic loop computes in (``arithmetic=``; "auto" is "integer")
ARITHMETICS = ("fraction", "integer", "flint")

#: ``variant``: what the notes print beside the rule exactlin runs (one Param per algorithm, naming its erratum)
VARIANTS = ("corrected", "printed")


def variant_param(erratum: str, printed: str) -> Param:
    """The ``variant`` row of an algorithm whose printed listing differs from the rule exactlin runs:
    ``corrected`` (default) or ``printed`` (the listing exactly as the notes print it, see erratum ``erratum``)."""
    return Param("variant", "choice", "corrected",
                 f"'corrected' (default) or 'printed': run the listing as the notes print it ({printed}; erratum "
                 f"{erratum}); the Run records extras['erratum'] and extras['printed_note']", choices=VARIANTS)


#: ``stop_on_cycle``: every stationary rule stops at the first proved repeat unless told to go on
STOP_ON_CYCLE = Param(
    "stop_on_cycle", "bool", True,
    "stop at the first exact repeat of the state (reason cycle, with a verified certificate); false: keep "
    "running the cycle (certificate attached once found, extras['cycle_step']) until a bound stops the run, so "
    "the trace shows the cycle repeating")

PRINTED_UPDATE_ERRATUM = "seed004-update-missing-label"

PARAMS = (
    Param("eta", "rational", Fraction(1), "learning rate: the update is w + eta y x (the lecture's eta = 1)",
          positive),
    Param("w0", "vector", None, "start vector w_1 in the augmented space (default 0, as in the lecture)"),
    Param("strict", "bool", None,
          "mistake iff y<w,x> < 0 (seeds 002/004) instead of <= 0 (seed 000); from w = 0 nothing is ever a "
          "mistake, so the run stops at once with w = 0 (reason boundary). Default: the variant's own test, "
          "<= 0 for 'corrected' (seed 000) and < 0 for 'printed' (seed 004's listing)"),
    Param("w_star", "vector", None, "a reference separator for the convergence monitor (default: the run's own "
          "final w, once it converges)"),
    Param("monitor", "bool", True, "check the convergence theorem at every mistake"),
    Param("tightest_bound", "bool", False,
          "also compute the tightest bound the theorem gives, R^2 ||w*||^2 with w* the minimum-norm w* such that "
          "y_i<w*,x_i> >= 1 (the hard-margin SVM without intercept on the augmented samples, seed 004), and use "
          "that w* in the monitor unless w_star is given"),
    Param("max_updates", "int", 100_000, "stop after this many updates (mistakes; reason max_updates). Default "
          "100,000: the deterministic budget that ends a default call within seconds (the integer kernel makes "
          "tens of thousands of updates a second at d = 10 on the benchmark machine, and 1,000 passes over 2,000 "
          "noisy samples make over 350,000; benchmarks/RESULTS.md, \"Default budgets\"); a separable run needs "
          "at most the convergence monitor's bound R^2 ||w*||^2 updates. Raise it, or pass max_updates=None in "
          "Python to be bounded by max_epochs alone", at_least(1), none_is_value=True),
    Param("max_bits", "int", None, "stop when a weight's numerator or denominator exceeds this many bits",
          at_least(1)),
    Param("max_seconds", "rational", None, "stop after this many seconds of run time", positive),
    STOP_ON_CYCLE,
    STOP,
    variant_param(PRINTED_UPDATE_ERRATUM, "seed 004's update w <- w + x_i, without the label y_i"),
)


#: the convergence monitor's rows (w_star, monitor), shared by every table of the family that runs the monitor
MONITOR_PARAMS = tuple(p for p in PARAMS if p.name in ("w_star", "monitor"))


def cycle_certificate(Z, lam, cycle, bias: str):
    """The verified Gordan certificate of a proved cycle: the weights ``lam`` of the corrections of one period
    (they sum to 0 with positive weights, so no vector separates the samples ``Z``)."""
    return verify_gordan(Z, lam, source="cycle", cycle=cycle, through_origin=bias == "none")


#: the monitor's conflict, shared by every table that has w_star and monitor
MONITOR_CONFLICTS = (
    Conflict("w_star", "monitor", lambda g, e: g.get("monitor") is False,
             "w_star is the convergence monitor's reference separator, and monitor=false switches the monitor off; "
             "give one of them"),
)


#: a printed listing stops by its own test ("while there exists", "until ..."), never by another convention
STOP_CONFLICTS = (
    Conflict("stop", "variant", lambda g, e: g["stop"] == "clean-epoch" and e.get("variant") == "printed",
             "variant='printed' runs the listing's own stopping test; stop='clean-epoch' is another course's "
             "convention for the corrected rule"),
)


def monitor_run(run: Run, Z, *, eta, w1, w_star=None) -> None:
    """Attach the convergence monitor's report to a finished single-sample run.

    With ``w_star`` it was checked online; otherwise, when the run converged to a
    separator, that final w is w* and the run's mistakes are replayed from w_1
    (the replay recomputes every w_t from the list of mistake indices).
    """
    indices = run.extras.get("mistakes", [])
    if w_star is None:
        if not run.converged:
            run.extras["monitor"] = None
            run.extras["monitor_note"] = ("not checked: the run did not converge and no w_star was given, so no "
                                          "separator is known")
            return
        w_star, source = run.w, "final w of this run"
    else:
        source = "given"
    # the same replay in integers (an independent verifier, exactlin.theory.replay); None: this Fraction replay runs
    rep = replay_monitor(Z, w_star, eta=eta, w1=w1, indices=indices, final_w=run.w, source=source)
    if source != "given" and (rep is NOT_SEPARATING or rep is None and not separates(w_star, Z)):
        # some <w, z> <= 0, decided exactly in integers (the replay's margins, or separates where it cannot run)
        run.extras["monitor"] = None
        run.extras["monitor_note"] = ("not checked: the final w does not separate strictly (with strict=True "
                                      "from w = 0 the run stops at w = 0)")
        return
    if rep is None or rep is NOT_SEPARATING:
        mon = ConvergenceMonitor(Z, w_star, eta=eta, w1=w1, source=source)
        w_t = tuple(w1)
        for t, i in enumerate(indices, start=1):
            w_next = tuple(a + eta * b for a, b in zip(w_t, Z[i]))
            mon.observe(t, w_t, w_next)
            w_t = w_next
        if w_t != tuple(run.w):
            from exactlin.errors import InvariantViolation

            raise InvariantViolation("replaying the run's mistakes does not reproduce its final w")
        rep = mon.report()
    run.extras["monitor"] = rep
    run.extras["mistake_bound"] = rep.bound


def printed_note(run: Run, rule: str) -> str:
    """What a run of a printed listing did, in one sentence for ``extras["printed_note"]``."""
    sep = run.extras.get("separates")
    tail = "" if sep is None else (" The returned vector separates the data." if sep else
                                   " The returned vector does not classify every sample correctly.")
    if run.reason == "cycle":
        return (f"the printed rule ({rule}) returned exactly to an earlier state at step {run.steps}: the listing "
                "never stops; this proves nothing about the data (the printed rule is not the corrected one)." + tail)
    if run.reason in ("max_epochs", "max_steps", "max_updates", "bit_limit", "time_limit"):
        moved = "made no correction at all (no progress)" if run.updates == 0 else \
            f"made {run.updates} corrections, the last at step {run.extras.get('last_update_step')}"
        return (f"the printed rule ({rule}) {moved} and its stopping test never held within the budget: the "
                f"listing does not stop here; the run ended on its bound ({run.reason})." + tail)
    return f"the printed rule ({rule}) stopped with reason {run.reason} after {run.updates} corrections." + tail


@register("perceptron", family="perceptron", seed=SEED, number="The Perceptron Algorithm",
          title="Perceptron (seed 000)", params=PARAMS, conflicts=MONITOR_CONFLICTS + STOP_CONFLICTS,
          bias_default="none", arithmetics=ARITHMETICS,
          monitor="Facts 1 and 2 at every mistake and K <= R^2 ||w*||^2 / gamma_min^2 at the end",
          notation=Notation(("y_t \\langle w_t, x_t \\rangle", "y_t <w_t, x_t>"),  # seed 000
                            ("w_{t+1} = w_t + \\eta\\, y_t x_t", "w_{t+1} = w_t + eta y_t x_t")))
def perceptron(X, y, P: Checked) -> Run:
    """The perceptron of seed 000 (``000_478cb53c624e7eb5.txt``, "The Perceptron Algorithm").

    w_1 = w0 (default 0); at round t on sample x_t (cyclic order): a mistake iff
    y_t <w_t, x_t> <= 0 (``strict=True``: < 0), then w_{t+1} = w_t + eta y_t x_t.

    Returns a :class:`~exactlin.model.run.Run`: ``converged`` with reason ``converged``
    when n consecutive rounds make no mistake; ``cycle`` when (w, position) repeats
    exactly, with a verified Gordan certificate in ``extras["certificate"]``
    (the mistakes of one period sum to 0, so no w separates the data);
    ``max_epochs``/``max_updates``/``bit_limit``/``time_limit`` when a bound is hit.
    The convergence monitor (``extras["monitor"]``) checks the theorem exactly.
    ``extras["last_update_step"]`` is the round of the last mistake (``steps`` the round the run ended);
    ``stop_on_cycle=False`` runs on through a proved cycle until a bound.

    ``variant="printed"`` runs seed 004's listing as printed, line by line and by itself: w = 0 (or ``w0``);
    **while there exists** (x_i, y_i) with y_i = +1 and <w . x_i> < 0, or y_i = -1 and <w . x_i> > 0 (the
    listing's strict test y_i<w, x_i> < 0; "there exists" is the first such sample in cyclic order, after
    the last one corrected), **update w to w + eta x_i** (the augmented sample, without its label; erratum
    ``seed004-update-missing-label``).  From w = 0 nothing is a mistake, so the listing returns w = 0 at
    once (reason ``boundary``, erratum ``seed004-strict-start``); ``strict=False`` swaps in seed 000's test
    ``<= 0`` explicitly.  That rule is stationary too: a repeat ends the run with reason ``cycle``, which
    then proves only that the listing never stops (no certificate: the data may well be separable); the
    convergence monitor does not apply.

    The parameters are the table ``PARAMS`` (CLI: ``--param NAME=VALUE``), listed below.

    >>> r = perceptron([(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1])
    >>> r.w, r.converged, r.updates
    ((Fraction(1, 1), Fraction(-3, 1)), True, 3)
    """
    bias, positive = P.bias, P.positive
    prob = P.problem(X, y)
    Z = prob.Z
    w1 = start_vector(P["w0"], prob.d)
    printed = P["variant"] == "printed"
    eta, strict = P["eta"], (printed if P["strict"] is None else P["strict"])
    bounds = P.bounds()
    tracer = P.tracer(prob.d)

    tight = None
    w_star_param = P["w_star"]  # the tightest bound may supply it
    if P["tightest_bound"]:
        from exactlin.algorithms.svm import perceptron_bound
        from exactlin.errors import VerificationError

        try:
            tight = perceptron_bound(prob.data, None, bias, positive=positive)
        except VerificationError as e:  # not separable: a verified certificate, so no w* and no bound
            tight = {"bound": None, "note": str(e)}
        if w_star_param is None and tight.get("w_star") is not None:
            w_star_param = tight["w_star"]
    online = None
    if w_star_param is not None and P["monitor"] and not printed:
        online = ConvergenceMonitor(Z, start_vector(w_star_param, prob.d, "w_star"), eta=eta, w1=w1)

    def on_step(k, i, upd, wb, wa):
        if upd:
            online.observe(k, wb, wa)

    # the notes' rule on the engine's cyclic loop: a mistake iff <w, z_i> <= 0 (< 0 when strict), then w + eta z_i;
    # the printed update w + eta x_i is w + (eta y_i) z_i, since x_i = y_i z_i
    rep = representation(P, Z, w1, step=eta)
    res = cyclic(rep, bounds, tracer, strict=strict, coef=tuple(eta * zi for zi in prob.z) if printed else eta,
                 stop=P["stop"], stop_on_cycle=P["stop_on_cycle"], on_mistake=on_step if online else None)
    P.record_arithmetic(rep.name, rep.tiers)
    converged, reason = res.converged, res.reason
    if converged and strict and not above(res.w, Z):  # a sample on the boundary <w, z> = 0
        converged, reason = False, "boundary"
    run = make_run(P, prob, w=res.w, converged=converged, reason=reason, updates=res.updates, epochs=res.epochs,
                   steps=res.steps, tracer=tracer, seed=SEED,
                   params={"strict": strict, "w_star": w_star_param},
                   extras={"mistakes": res.update_indices, "max_bits": res.max_bits,
                           "last_update_step": res.last_update})
    if tight is not None:
        run.extras["tightest_bound"] = tight["bound"]
        if tight.get("note"):
            run.extras["tightest_bound_note"] = tight["note"]
    if res.cycle_step is not None:
        run.extras["cycle_step"] = res.cycle_step
    if printed:
        run.extras["erratum"] = PRINTED_UPDATE_ERRATUM
        run.extras["printed_note"] = printed_note(
            run, "while some y_i<w, x_i> " + ("< 0" if strict else "<= 0 (strict=False: not the listing's test)")
            + ": w <- w + eta x_i (no label)")
        if P["monitor"]:
            run.extras["monitor"] = None
            run.extras["monitor_note"] = ("not applied: the printed rule w + x_i is not the perceptron's update, "
                                          "so the convergence theorem says nothing about it")
        return run
    if res.cycle is not None:
        run.extras["certificate"] = cycle_certificate(Z, gordan_from_counts(prob.n, res.cycle), res.cycle, bias)
    if P["monitor"]:
        if online is not None:
            report = online.report()
            run.extras["monitor"] = report
            run.extras["mistake_bound"] = report.bound
        else:
            monitor_run(run, Z, eta=eta, w1=w1)
    return run
