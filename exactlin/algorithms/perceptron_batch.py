"""The batch rules of the perceptron family, exactly: seed 003's Algorithm 3 (batch perceptron), seed 001's batch
PLA and seed 002's gradient descent on R(w), each a :class:`~exactlin.engine.batch.BatchRule` of the one batch loop
(:func:`exactlin.engine.batch.batch_loop`): the test of Y_k, the coefficients, the criterion.  Seed 003's
Algorithm 8 (batch relaxation) is the same loop's fourth rule, in :mod:`exactlin.algorithms.relaxation`.

Samples are augmented by ``bias`` and normalized (z_i = y_i x~_i); ``max_epochs`` and ``max_steps`` bound the
iterations.  Every rule computes in the arithmetic ``arithmetic=`` names (``auto``: scaled integers for a constant
coefficient, the Fraction reference for a varying eta); every choice gives the same Run.
"""

from __future__ import annotations

from fractions import Fraction

from exactlin.algorithms import register
from exactlin.algorithms._contract import Checked, make_run
from exactlin.algorithms._loop import start_vector
from exactlin.algorithms.perceptron import MONITOR_CONFLICTS, STOP_ON_CYCLE, printed_note, variant_param
from exactlin.algorithms.perceptron import PARAMS as _PERCEPTRON_PARAMS
from exactlin.engine.batch import BatchResult, BatchRule, Repeated, batch_arith, batch_loop, settle_at_bound
from exactlin.engine.trace import batch_steps_param
from exactlin.errors import ParameterError
from exactlin.exact.numbers import fdot
from exactlin.model.params import MAX_SECONDS, Param, as_schedule, at_least, nonnegative, positive
from exactlin.model.run import Run
from exactlin.theory.certificates import verify_gordan
from exactlin.theory.monitor import batch_monitor

__all__ = ["batch_perceptron", "batch_pla", "perceptron_gd", "batch_run", "attach_batch_monitor", "choose_arithmetic",
           "MONITOR_PARAMS"]

SEED001 = "001_5ccb68c426482a98.txt"
SEED002 = "002_c246c20bba6fa4e1.txt"
SEED003 = "003_ffe0ec08819b37d8.txt"

#: the convergence monitor's rows of the perceptron's table (w_star, monitor)
MONITOR_PARAMS = tuple(p for p in _PERCEPTRON_PARAMS if p.name in ("w_star", "monitor"))
_BITS = Param("max_bits", "int", None, "stop when a weight's numerator or denominator exceeds this many bits",
              at_least(1))


# ---------------------------------------------------------------------------
# what every batch rule shares: the arithmetic, the Run, the monitor


def choose_arithmetic(P: Checked, auto: str, *, needs: str = "", refuse: tuple = ()) -> str:
    """The arithmetic this run computes in: ``P.arithmetic``, or ``auto`` for "auto".  A representation that
    cannot serve this call (``refuse``) is a ParameterError saying why (``needs``), never a silent fall-back."""
    name = auto if P.arithmetic == "auto" else P.arithmetic
    if name in refuse:
        raise ParameterError(f"{P.algorithm} with arithmetic={name!r} {needs}", parameter="arithmetic")
    return name


def batch_run(P: Checked, prob, rep, res: BatchResult, tracer, seed: str, *, extras: dict | None = None) -> Run:
    """The Run of a batch rule: its result, whether a separates (checked exactly on the representation), the bits,
    the cycle's verified Gordan certificate, and the arithmetic used."""
    P.record_arithmetic(rep.name, rep.tiers)
    run = make_run(P, prob, w=res.a, converged=res.converged, reason=res.reason, updates=res.updates,
                   epochs=res.iterations, steps=res.iterations, tracer=tracer, seed=seed,
                   extras={"separates": separates(rep), "max_bits": res.max_bits,
                           "last_update_step": res.last_update, **(extras or {})})
    if res.certificate_lambda is not None:
        run.extras["certificate"] = verify_gordan(prob.Z, res.certificate_lambda, source="cycle", cycle=res.cycle,
                                                  through_origin=P.bias == "none")
        run.extras["cycle_step"] = res.cycle_step
    return run


def separates(rep) -> bool:
    """Exactly: a^t z_i > 0 for every normalized sample, a the representation's current state."""
    return not rep.all(rep.scores(0, rep.n), rep.threshold(0))


def attach_batch_monitor(run, Z, a1, res: BatchResult, w_star, enabled: bool, applies: str | None) -> None:
    """The batch convergence monitor (:func:`~exactlin.theory.monitor.batch_monitor`) on the run's history:
    against ``w_star``, or the run's own final a when it converged to a strict separator."""
    if not enabled:
        return
    if applies:
        run.extras["monitor"] = None
        run.extras["monitor_note"] = applies
        return
    if w_star is None:
        if not (res.reason == "converged" and run.extras["separates"]):
            run.extras["monitor"] = None
            run.extras["monitor_note"] = ("not checked: the run did not end at a strict separator and no w_star "
                                          "was given")
            return
        w_star, source = res.a, "final a of this run"
    else:
        source = "given"
    run.extras["monitor"] = batch_monitor(Z, a1, res.history, tuple(w_star), source)


class _Constant(BatchRule):
    """Y_k = {j : a^t z_j <= 0} (``strict``: < 0) with one constant coefficient c (Algorithm 3 with a constant
    eta, batch PLA's alpha / N, gradient descent's xi)."""

    def __init__(self, c, *, strict=False, criterion=None, criterion_first=False, info=None):
        self.constant = c
        self.strict = strict
        self.criterion = criterion
        self.criterion_first = criterion_first
        self.info = info  # None, or (name of the score sum in the trace, with eta)
        # the information of a step with Y_k nonempty, one function for every iteration (c does not change)
        self._step_info = None if info is None else _sum_info(info[0], c if info[1] else None, c)

    def coefficients(self, rep, s, idx, k, record):
        c = self.constant
        info = {}
        if self.info is not None and record:  # (the trace's information, only for a recorded step)
            name, with_eta = self.info
            if not idx:
                info = {name: Fraction(0) if with_eta else 0}  # (the reference's sum over an empty Y_k)
            else:
                info = self._step_info
        return Repeated(c, len(idx)), info


def _sum_info(name: str, eta, c):
    """The trace's -sum_{j in Y_k} a^t z_j (J_p, or R for gradient descent), read off the step: the increment is
    c sum_{Y_k} z_j, so the sum is <a, increment> / c exactly."""
    def info(a, inc):
        total = -fdot(a, inc) / c
        return {"eta": eta, name: total} if eta is not None else {name: total}

    return info


# ---------------------------------------------------------------------------
# seed 003, Algorithm 3


BATCH_PARAMS = (
    Param("eta", "schedule", as_schedule("1"), "eta(k) > 0 as an exact expression in k", positive),
    Param("theta", "rational", Fraction(0), "criterion theta >= 0: stop when ||eta(k) sum_{Y_k} y|| < theta "
          "(0: stop only when no sample is misclassified)", nonnegative),
    Param("a0", "vector", None, "start vector a (default 0)"),
    *MONITOR_PARAMS,
    batch_steps_param(),
    _BITS,
    MAX_SECONDS,
    STOP_ON_CYCLE,
)


class _VaryingEta(BatchRule):
    """Algorithm 3 with eta(k) varying: Y_k = {j : a^t z_j <= 0}, every coefficient eta(k)."""

    stationary = False

    def __init__(self, sched, theta2):
        self.sched = sched
        self.criterion = ("<", theta2)
        self.criterion_first = True

    def coefficients(self, rep, s, idx, k, record):
        if not idx:
            return [], {"J_p": Fraction(0)}
        eta = self.sched(k)
        if not eta > 0:
            raise ParameterError(f"eta({k}) = {eta} must be > 0", parameter="eta")
        return Repeated(eta, len(idx)), _sum_info("J_p", eta, eta)


@register("batch-perceptron", family="perceptron", seed=SEED003, number="Algorithm 3",
          title="Batch perceptron", params=BATCH_PARAMS, conflicts=MONITOR_CONFLICTS, bias_default="first",
          monitor="with a constant eta: batch Facts 1 and 2 at every iteration and M <= n R^2 ||a*||^2 / gamma^2",
          arithmetics=("fraction", "integer", "flint"))
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

    ``arithmetic``: ``integer`` (the default for a constant eta: the iterates scaled to integers, on float64,
    int64 or Python integers as exactness bounds allow; a varying eta rescales them when eta(k) needs it) or
    ``fraction`` (the readable reference; the default for a varying eta) or ``flint`` (python-flint rationals).

    >>> r = batch_perceptron([(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1])
    >>> r.w, r.epochs, r.reason
    ((Fraction(0, 1), Fraction(1, 1), Fraction(-4, 1)), 2, 'converged')
    """
    prob = P.problem(X, y)
    Z = prob.Z
    a1 = start_vector(P["a0"], prob.d, "a0")
    sched, theta = P["eta"], P["theta"]
    constant = sched.constant and sched.value > 0
    name = choose_arithmetic(P, "integer" if constant else "fraction")
    if constant:
        rule = _Constant(sched.value, criterion=("<", theta * theta), criterion_first=True, info=("J_p", True))
    else:
        rule = _VaryingEta(sched, theta * theta)
    rep = batch_arith(name, Z, a1, step=sched.value if constant else None)
    tracer = P.tracer(prob.d)
    res = batch_loop(rep, rule, P.bounds(), tracer, stop_on_cycle=P["stop_on_cycle"])
    settle_at_bound(res, lambda a: separates(rep))  # Y_k = {y : a^t y <= 0} empty
    run = batch_run(P, prob, rep, res, tracer, SEED003)
    attach_batch_monitor(run, Z, a1, res, P["w_star"], P["monitor"],
                         None if sched.constant else "not applied: eta(k) varies; the batch theorem checked here "
                         "is the constant-step one")
    return run


# ---------------------------------------------------------------------------
# seed 001: batch PLA


PLA_PARAMS = (
    Param("alpha", "rational", Fraction(1), "learning rate alpha > 0", positive),
    Param("epsilon", "rational", Fraction(0), "error tolerance epsilon >= 0: loop while ||Delta||_2 > epsilon "
          "(compared as ||Delta||^2 > epsilon^2)", nonnegative),
    Param("w0", "vector", None, "start vector w (default zeros)"),
    *MONITOR_PARAMS,
    batch_steps_param(),
    _BITS,
    MAX_SECONDS,
    STOP_ON_CYCLE,
    variant_param("seed001-batch-pla-reset", "Delta = 0 set once, before the do-loop, and carried over"),
)


@register("batch-pla", family="perceptron", seed=SEED001, number="Batch PLA",
          title="Batch PLA (seed 001)", params=PLA_PARAMS, conflicts=MONITOR_CONFLICTS, bias_default="first",
          monitor="batch Facts 1 and 2 at every iteration (Delta/N is Algorithm 3 with eta = alpha/N)",
          arithmetics=("fraction", "integer", "flint"))
def batch_pla(X, y, P: Checked) -> Run:
    """Batch PLA, seed 001 (``001_5ccb68c426482a98.txt``, "Batch PLA").

    Initialize w (default zeros); do: Delta = 0; for i = 1..N: if sign(w^T x_i) != y_i then
    Delta <- Delta + y_i x_i; **Delta <- Delta / N; w <- w + alpha Delta**; while **||Delta||_2 > epsilon**
    (compared exactly as ||Delta||^2 > epsilon^2).  sign(0) = 0 is never a label, so a sample on the boundary
    is corrected.  Delta = 0 (no sample misclassified) stops with reason ``converged``; ||Delta|| <= epsilon
    with Delta != 0 stops with ``criterion``.  ``max_epochs`` bounds the do-while iterations.

    It is Algorithm 3's batch rule with the coefficient c = alpha / N on the normalized samples z_i = y_i x~_i:
    sign(w^T x~_i) != y_i iff w^T z_i <= 0 (y_i is +1 or -1), and alpha Delta = c sum_{Y_k} z_i.
    ``arithmetic``: ``integer`` (default), ``fraction`` (the readable reference) or ``flint``.

    ``variant="printed"`` sets Delta = 0 once, before the do-loop, as printed (erratum
    ``seed001-batch-pla-reset``): Delta_k = (Delta_{k-1} + sum of y_i x_i over the misclassified) / N, so w
    keeps moving after every sample is classified; the loop stops (reason ``criterion``) only when
    ||Delta|| <= epsilon, which with epsilon = 0 takes a Delta that is exactly 0.  It is a rule of the batch
    loop with carried weights (:class:`_PrintedPLA`), on every arithmetic.

    >>> r = batch_pla([(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1])
    >>> r.w, r.reason
    ((Fraction(0, 1), Fraction(1, 4), Fraction(-1, 1)), 'converged')
    """
    prob = P.problem(X, y)
    Z, N = prob.Z, prob.n
    w1 = start_vector(P["w0"], prob.d)
    alpha, eps = P["alpha"], P["epsilon"]
    tracer = P.tracer(prob.d)
    if P["variant"] == "printed":  # ||Delta||^2 <= epsilon^2 is ||alpha Delta||^2 <= epsilon^2 alpha^2
        rule = _PrintedPLA(alpha, N, ("<=", eps * eps * alpha * alpha))
        rep = batch_arith(choose_arithmetic(P, "integer"), Z, w1, step=alpha / N)
        res = batch_loop(rep, rule, P.bounds(), tracer)
        res.converged = res.reason == "criterion"  # the listing's only stop that returns its w
        run = batch_run(P, prob, rep, res, tracer, SEED001,
                        extras={"Delta": rule.delta(Z, prob.d), "erratum": "seed001-batch-pla-reset"})
        run.extras["printed_note"] = printed_note(run, "Delta = 0 once, never reset")
        run.extras["monitor"] = None
        run.extras["monitor_note"] = "not applied: without the reset the increment is not the batch perceptron's"
        return run
    c = alpha / N
    # inc = alpha Delta, so ||Delta||^2 <= epsilon^2 is ||inc||^2 <= epsilon^2 alpha^2
    rule = _Constant(c, criterion=("<=", eps * eps * alpha * alpha))
    rep = batch_arith(choose_arithmetic(P, "integer"), Z, w1, step=c)
    res = batch_loop(rep, rule, P.bounds(), tracer, stop_on_cycle=P["stop_on_cycle"])
    settle_at_bound(res, lambda w: separates(rep))  # no sign(w^T x_i) != y_i
    run = batch_run(P, prob, rep, res, tracer, SEED001)
    attach_batch_monitor(run, Z, w1, res, P["w_star"], P["monitor"], None)
    return run


class _PrintedPLA(BatchRule):
    """Batch PLA as seed 001 prints it: Delta = 0 once, then do {for i: Delta += y_i x_i on a mistake;
    Delta /= N; w += alpha Delta} while ||Delta|| > epsilon.

    On the batch loop: Delta_k = (Delta_{k-1} + sum_{Y_k} z_i) / N is sum_i gamma_k(i) z_i with the carried
    weights gamma_k = (gamma_{k-1} + 1_{Y_k}) / N, so the increment alpha Delta_k is a correction over every
    sample misclassified so far, with coefficients alpha gamma_k(i).  It does not stop on an empty Y_k (Delta
    still moves w), its do-while test comes before the bit check, and the state is (w, Delta): a repeat of w
    alone is no cycle (``stationary`` False)."""

    stationary = False
    stop_on_empty = False
    criterion_before_bits = True

    def __init__(self, alpha, N, criterion):
        self.alpha, self.N, self.criterion = alpha, N, criterion
        self.gamma: dict[int, Fraction] = {}

    def correction(self, rep, s, idx, k, record):
        g = self.gamma
        for i in idx:
            g[i] = g.get(i, 0) + 1
        for i in g:
            g[i] = Fraction(g[i]) / self.N
        sup = sorted(g)
        alpha = self.alpha
        return sup, [alpha * g[i] for i in sup], lambda a, inc: {"Delta": tuple(x / alpha for x in inc)}

    def delta(self, Z, d: int) -> tuple:
        """Delta after the last iteration: sum_i gamma(i) z_i."""
        out = [Fraction(0)] * d
        for i, c in self.gamma.items():
            for t, x in enumerate(Z[i]):
                out[t] += c * x
        return tuple(out)


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
    *MONITOR_PARAMS,
    batch_steps_param(),
    _BITS,
    MAX_SECONDS,
)


@register("perceptron-gd", family="perceptron", seed=SEED002, number="Gradient descent on R(w)",
          title="Gradient descent on the perceptron risk R(w) (seed 002)", params=GD_PARAMS,
          conflicts=MONITOR_CONFLICTS, bias_default="last",
          monitor="batch Facts 1 and 2 at every iteration (Cauchy-Schwarz form: the start y_i x_i is not 0)",
          arithmetics=("fraction", "integer", "flint"))
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
    stops with ``cycle`` and a verified Gordan certificate.  ``arithmetic``: ``integer`` (default), ``fraction``
    (the readable reference) or ``flint``.

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
    w1 = tuple(Z[i0]) if P["w0"] is None else start_vector(P["w0"], prob.d)
    if P["w0"] is None and all(v == 0 for v in w1):
        raise ParameterError(f"start={i0}: y_i x_i = 0, but the notes start from an arbitrary w != 0 (R has no "
                             "gradient at 0); choose another sample", parameter="start")
    tracer = P.tracer(prob.d)
    rep = batch_arith(choose_arithmetic(P, "integer"), Z, w1, step=P["xi"])
    rule = _Constant(P["xi"], strict=strict, info=("R", False))
    res = batch_loop(rep, rule, P.bounds(), tracer, stop_on_cycle=P["stop_on_cycle"])
    s = rep.scores(0, rep.n)
    settle_at_bound(res, lambda w: not rep.all(s, rep.threshold(0, strict=strict)))  # V empty: R(w) = 0
    printed = P["variant"] == "printed"
    on_side = rep.all(s, rep.threshold(0, strict=True))  # y_i x_i . w < 0
    sep = separates(rep)
    if printed and res.reason == "converged":
        res.reason = "criterion"  # the notes' "while R(w) > 0 ... return w", whatever lies on the boundary
    elif res.reason == "converged" and not sep:
        # R(w) = 0 with a sample on the boundary (y_i x_i . w = 0): the notes' stopping rule holds, but not
        # every sample is classified correctly (erratum perceptron-gd-stop); as perceptron(strict=True) does
        res.reason, res.converged = "boundary", False
    run = batch_run(P, prob, rep, res, tracer, SEED002)
    run.extras["R"] = -rep.exact_sum(s, on_side)
    if all(v == 0 for v in w1):
        run.extras["first_step"] = (
            "from w = 0 every sample has y_i x_i . w = 0; with the test '<' none is in V, R(0) = 0 and the loop "
            "stops before its first step" if strict else
            "from w = 0 every sample has y_i x_i . w = 0; with the test '<=' all are in V and the first step is "
            "w = xi sum_i y_i x_i")
    if printed:
        run.extras["erratum"] = "perceptron-gd-stop"
        below = set(on_side)
        on = [i for i in rep.all(s, rep.threshold(0)) if i not in below]
        run.extras["printed_note"] = printed_note(run, "while R(w) > 0") + (
            f" Samples on the boundary (y_i x_i . w = 0): {on}." if on else "")
    attach_batch_monitor(run, Z, w1, res, P["w_star"], P["monitor"], None)
    return run
