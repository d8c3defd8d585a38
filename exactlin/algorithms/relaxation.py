"""Relaxation procedures with margin, seed 003 (003_ffe0ec08819b37d8.txt) Algorithms 8 and 9, and the
criteria J_p, J_q, J_r as exact functions.

On normalized samples y (each augmented sample times its label) with a margin b > 0:

* J_p(a) = sum_{y in Y} (-a^t y),  J_q(a) = sum_{y in Y} (a^t y)^2 over Y = {y : a^t y <= 0};
* J_r(a) = 1/2 sum_{y in Y} (a^t y - b)^2 / ||y||^2 over Y = {y : a^t y <= b}; J_r(a) = 0 iff a^t y >= b
  for every y, so a sample is *misclassified* for relaxation when a^t y < b (a sample exactly at b adds
  nothing to J_r and needs no correction; with the test <= b, eta = 1 would land every corrected sample
  at b and correct it again by 0 forever).

Single-sample update: a(k+1) = a(k) + eta (b - a^t(k) y^k) / ||y^k||^2 y^k, so that
a^t(k+1) y^k - b = (1 - eta)(a^t(k) y^k - b): the notes' identity, asserted exactly at every update.
0 < eta < 2 is required (eta = 1 lands on the hyperplane a^t y = b; eta < 1 under-, eta > 1 over-relaxes).
Duda-Hart-Stork's theorem for 0 < eta < 2 says that a(k) converges to a limit in the closed region
{a : a^t y >= b for every y}, not that the loop ends: in exact arithmetic a run with eta <= 1 may approach b
forever (eta = 1/2 on one sample halves the gap b - a^t y at every step), so ``max_epochs`` and ``max_bits``
matter here; over-relaxation (1 < eta < 2) crosses b at each correction and usually ends.
A sample with ||y|| = 0 makes the rule undefined (a^t y = 0 < b for every a, and the step divides by 0): the
run stops at once with reason ``undefined``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from exactlin.algorithms import register
from exactlin.algorithms._contract import Checked, make_run
from exactlin.algorithms._loop import start_vector
from exactlin.algorithms.perceptron import STOP_ON_CYCLE
from exactlin.algorithms.perceptron_batch import batch_run
from exactlin.algorithms.perceptron_family import bound_params
from exactlin.engine.arith import FractionArith
from exactlin.engine.arith_flint import FlintArith
from exactlin.engine.arith_relax import BatchReducedArith, relaxation_coefficients
from exactlin.engine.batch import BatchRule, batch_arith, batch_loop, settle_at_bound
from exactlin.engine.cyclic import cyclic
from exactlin.engine.reduced import ReducedArith
from exactlin.engine.trace import batch_steps_param, max_bits_param
from exactlin.errors import InputError, InvariantViolation, ParameterError
from exactlin.exact.numbers import fdot as _dot
from exactlin.model.params import MAX_SECONDS, Param, as_schedule, in_open_interval, positive
from exactlin.model.run import Run
from exactlin.theory.certificates import verify_gordan

__all__ = ["criterion_Jp", "criterion_Jq", "criterion_Jr", "batch_relaxation", "single_sample_relaxation"]

SEED = "003_ffe0ec08819b37d8.txt"


def _vec(a) -> tuple:
    from exactlin.exact.numbers import to_vector

    return to_vector(a)


def _rows(Y) -> tuple:
    from exactlin.exact.numbers import to_matrix

    return to_matrix(Y, name="Y")


def criterion_Jp(a: Sequence, Y: Sequence[Sequence]) -> Fraction:
    """Perceptron criterion J_p(a) = sum_{y in Y(a)} (-a^t y), Y(a) = {y : a^t y <= 0} (0 if empty).

    ``Y`` are the normalized samples.  Seed 003, "Relaxation procedures".

    >>> criterion_Jp((1, 0), [(1, 1), (-1, 0), (-2, 5)])
    Fraction(3, 1)
    """
    a, Y = _vec(a), _rows(Y)
    return sum((-_dot(a, y) for y in Y if _dot(a, y) <= 0), Fraction(0))


def criterion_Jq(a: Sequence, Y: Sequence[Sequence]) -> Fraction:
    """Squared criterion J_q(a) = sum_{y in Y(a)} (a^t y)^2, Y(a) = {y : a^t y <= 0}.

    >>> criterion_Jq((1, 0), [(1, 1), (-1, 0), (-2, 5)])
    Fraction(5, 1)
    """
    a, Y = _vec(a), _rows(Y)
    return sum((_dot(a, y) ** 2 for y in Y if _dot(a, y) <= 0), Fraction(0))


def criterion_Jr(a: Sequence, Y: Sequence[Sequence], b) -> Fraction:
    """Relaxation criterion J_r(a) = 1/2 sum_{y in Y(a)} (a^t y - b)^2 / ||y||^2, Y(a) = {y : a^t y <= b}.

    A zero sample in Y(a) makes J_r undefined: ``InputError``.

    >>> criterion_Jr((1, 0), [(1, 1), (-1, 0), (2, 5)], 1)
    Fraction(2, 1)
    """
    a, Y = _vec(a), _rows(Y)
    from exactlin.exact.numbers import to_rational

    b = to_rational(b)
    # a^t y = t / (m k) with m the common denominator of a, k that of y and t an integer: the test a^t y <= b is
    # b_q t <= b_p m k (m k b_q > 0), so a Fraction (a reduction of numbers as long as a's) only for y in Y(a)
    m = math.lcm(*(x.denominator for x in a))
    A = [x.numerator * (m // x.denominator) for x in a]
    total = Fraction(0)
    for i, y in enumerate(Y):
        k = math.lcm(*(x.denominator for x in y))
        t = sum(p * (x.numerator * (k // x.denominator)) for p, x in zip(A, y))
        if b.denominator * t <= b.numerator * m * k:
            n2 = _dot(y, y)
            if n2 == 0:
                raise InputError(f"J_r is undefined: sample {i + 1} has ||y|| = 0", row=i)
            total += (Fraction(t, m * k) - b) ** 2 / n2
    return total / 2


def _eta_in_range(sched, k: int) -> Fraction:
    v = sched(k)
    if not 0 < v < 2:
        raise ParameterError(f"eta({k}) = {v} is outside 0 < eta < 2: relaxation then moves a^t y away from b "
                             "(|1 - eta| >= 1 in a^t(k+1)y - b = (1 - eta)(a^t(k)y - b))", parameter="eta")
    return v


def _zero_sample(Z) -> int | None:
    for i, z in enumerate(Z):
        if all(v == 0 for v in z):
            return i
    return None


def _undefined_run(name, prob, P: Checked, a1, i) -> Run:
    return make_run(P, prob, w=a1, converged=False, reason="undefined", algorithm=name, seed=SEED,
                    extras={"undefined_sample": i, "separates": False, "last_update_step": 0,
                            "note": f"sample {i + 1} has ||y|| = 0: a^t y = 0 < b for every a, and the relaxation "
                                    "step divides by ||y||^2 = 0"})


_COMMON = (
    Param("b", "rational", Fraction(1), "margin b > 0 (the solution region is a^t y >= b for every sample; with "
          "b = 0 it contains a = 0)", positive),
    Param("a0", "vector", None, "start vector a(1) (default 0)"),
    Param("test", "choice", "<", "which samples are corrected: a^t y < b (default: J_r > 0) or a^t y <= b "
          "(Duda, Hart and Stork's text; a sample exactly at b is then 'corrected' by 0, and a run whose samples "
          "all reach a^t y >= b with one exactly at b stops moving: reason stalled)", choices=("<", "<=")),
)


def _stalled(run: Run, Z, b) -> None:
    """With the test <=: a run whose last pass moved nothing although samples sit exactly at b never meets
    the listing's stop (a^t y > b for all); report it as stalled, not converged (no cycle, no certificate)."""
    at_b = [i for i, z in enumerate(Z) if _dot(run.w, z) == b]
    if run.reason == "converged" and at_b:
        run.reason, run.converged = "stalled", False
        run.extras["at_b"] = at_b
        run.extras["stalled_note"] = (
            f"with the test a^t y <= b, samples {at_b} sit exactly at a^t y = b: the rule fires on them with "
            "the correction eta (b - a^t y)/||y||^2 y = 0 forever, so the weights no longer move and the listing's "
            "stop (a^t y > b for every sample) never holds; every sample has a^t y >= b (J_r = 0). This is no "
            "cycle of corrections and no proof of non-separability")

SINGLE_PARAMS = (
    Param("eta", "schedule", as_schedule("1"), "relaxation factor, 0 < eta < 2 (a number, or eta(k) in k)",
          in_open_interval(0, 2)),
    *_COMMON,
    *bound_params(1024, "each correction divides by ||y||^2, so a(k)'s denominators grow at nearly every step"),
    STOP_ON_CYCLE,
)

BATCH_PARAMS = (
    Param("eta", "schedule", as_schedule("1"), "relaxation factor eta(k), 0 < eta(k) < 2", in_open_interval(0, 2)),
    *_COMMON,
    batch_steps_param(),
    max_bits_param(1024, why="one iteration sums corrections over a different ||y||^2 per sample; the bound is "
                   "also checked within an iteration's sum"),
    MAX_SECONDS,
    STOP_ON_CYCLE,
)

#: the representations single-sample relaxation computes in (``arithmetic=``; "auto" is "integer", a = v / D with
#: the smooth-gcd reduction)
_SINGLE_ARITH = {"fraction": FractionArith, "integer": ReducedArith, "flint": FlintArith}


def _identity(rep, b, i: int, eta, before, k: int) -> None:
    """The notes' identity a^t(k+1) y - b = (1 - eta)(a^t(k) y - b), checked exactly after the update of round k:
    the new score is exactly r = b + (1 - eta)(a^t(k) y - b), i.e. <= r and not < r (two tests in the
    representation's own units)."""
    r = b + (1 - eta) * (before - b)
    s = rep.scores(i, 1)
    if rep.first(s, rep.threshold(r)) != 0 or rep.first(s, rep.threshold(r, True)) == 0:
        raise InvariantViolation(f"relaxation identity fails at step {k} (sample {i + 1}): "
                                 f"a^t(k+1)y - b = {rep.exact(s, 0) - b} but (1 - eta)(a^t(k)y - b) = {r - b}")


@register("single-sample-relaxation", family="perceptron", seed=SEED, number="Algorithm 9",
          title="Single-sample relaxation with margin", params=SINGLE_PARAMS, bias_default="first",
          arithmetics=tuple(_SINGLE_ARITH),
          monitor="none: the perceptron theorem does not cover relaxation; the notes' identity "
                  "a^t(k+1)y - b = (1 - eta)(a^t(k)y - b) is asserted exactly at every update instead")
def single_sample_relaxation(X, y, P: Checked) -> Run:
    """Single-sample relaxation with margin, seed 003 (``003_ffe0ec08819b37d8.txt``) Algorithm 9.

    ``test="<="`` corrects when a^t y^k <= b (Duda, Hart and Stork's text): a sample exactly at b gets the
    correction 0, so the weights stop moving once every sample has a^t y >= b; if one sits exactly at b
    (eta = 1 puts each corrected sample there) the run ends with reason ``stalled`` and ``extras["at_b"]``.

    a(1) arbitrary (``a0``, default 0); k <- (k+1) mod n; if a^t y^k < b then
    **a <- a + eta (b - a^t y^k) / ||y^k||^2 y^k**; until a^t y >= b for every sample (a pass with no
    correction).  The notes' listing of Algorithm 9 is garbled (erratum ``alg9-listing``); this is the rule
    their formula a(k+1) = a(k) + eta (b - a^t(k) y^k)/||y^k||^2 y^k states.  At every update the identity
    a^t(k+1) y^k - b = (1 - eta)(a^t(k) y^k - b) is checked exactly (``InvariantViolation`` if it fails).
    A constant eta makes the rule stationary: an exact repeat of (a, position) stops with ``cycle`` and a
    verified Gordan certificate (the corrections of one period are positive multiples of samples summing
    to 0); ``stop_on_cycle=False`` goes on to the run's bound with that certificate (``extras["cycle_step"]``).
    The loop is the engine's cyclic loop (:func:`exactlin.engine.cyclic.cyclic`); ``arithmetic="integer"`` (the
    default) keeps a = v / D in lowest terms with the smooth-gcd reduction (:class:`exactlin.engine.reduced.
    ReducedArith`), ``"fraction"`` computes on tuples of Fractions: the same Run.

    >>> r = single_sample_relaxation([(1, 1), (1, -1)], [1, 1], bias="none")
    >>> r.w, r.updates, r.reason
    ((Fraction(1, 1), Fraction(0, 1)), 2, 'converged')
    """
    prob = P.problem(X, y)
    Z = prob.Z
    a1 = start_vector(P["a0"], prob.d, "a0")
    b, sched = P["b"], P["eta"]
    used = "integer" if P.arithmetic == "auto" else P.arithmetic
    zi = _zero_sample(Z)
    if zi is not None:
        P.record_arithmetic(used, {})  # nothing computed
        return _undefined_run("single-sample-relaxation", prob, P, a1, zi)
    tracer = P.tracer(prob.d)
    bounds = P.bounds()
    rep = _SINGLE_ARITH[used](Z, a1)
    norms: dict[int, Fraction] = {}  # ||y_i||^2, computed when sample i is first corrected
    coefs: list[Fraction] = []  # the coefficient of every update
    rounds: list[int] = []  # the round of every update
    last: list = []  # (sample, eta, score before) of the last update, for the identity

    def coef(i, u, k, score):  # the notes' eta (b - a^t y) / ||y||^2
        eta = _eta_in_range(sched, k)
        norm = norms.get(i)
        if norm is None:
            norm = norms[i] = _dot(Z[i], Z[i])
        c = eta * (b - score) / norm
        coefs.append(c)
        rounds.append(k)
        last[:] = [i, eta, score]
        return c

    def after_update(k, i):
        _identity(rep, b, i, last[1], last[2], k)

    def step_info(k, i, update):
        return {"coefficient": coefs[-1]} if update else None

    # the test a^t y < b: with "<=" a sample exactly at b would fire with a zero correction, which moves nothing,
    # so the loop is told it made no update there (a pass of such rounds ends it; the run is then "stalled")
    res = cyclic(rep, bounds, tracer, b=b, strict=True, coef=coef, stationary=sched.constant,
                 stop_on_cycle=P["stop_on_cycle"], step_info=step_info, after_update=after_update)
    P.record_arithmetic(rep.name, rep.tiers)
    run = make_run(P, prob, w=res.w, converged=res.converged, reason=res.reason, updates=res.updates,
                   epochs=res.epochs, steps=res.steps, tracer=tracer, seed=SEED,
                   extras={"mistakes": res.update_indices, "separates": not rep.all(rep.scores(0, prob.n),
                                                                                     rep.threshold(0)),
                           "last_update_step": res.last_update,
                           "J_r": criterion_Jr(res.w, Z, b), "identity_checked": res.updates,
                           "max_bits": res.max_bits, "monitor": None,
                           "monitor_note": "not applied: relaxation is not covered by the perceptron convergence "
                                           "theorem; the identity a^t(k+1)y - b = (1 - eta)(a^t(k)y - b) was "
                                           "checked exactly at every update"})
    if res.cycle is not None:
        # the coefficients of the period found (with stop_on_cycle=False the run went on past it)
        end = rounds.index(res.cycle_step) + 1
        weight = [Fraction(0)] * prob.n
        for i, c in zip(res.cycle, coefs[end - len(res.cycle):end]):
            weight[i] += c
        total = sum(weight)
        run.extras["certificate"] = verify_gordan(Z, tuple(w / total for w in weight), source="cycle",
                                                  cycle=res.cycle, through_origin=P.bias == "none")
        run.extras["cycle_step"] = res.cycle_step
    if P["test"] == "<=":
        _stalled(run, Z, b)
    return run


class _BatchRelaxation(BatchRule):
    """Algorithm 8 as a rule of the batch loop: Y_k = {y : a^t y < b}, c_y = eta(k) (b - a^t y) / ||y||^2.  With one
    corrected sample the notes' identity a^t(k+1)y - b = (1 - eta)(a^t(k)y - b) is checked on the next scores."""

    strict = True

    def __init__(self, Z, b, sched):
        self.b, self.sched = b, sched
        self.stationary = sched.constant
        self.Z = Z
        self._norms = None
        self.pending: list = []  # the single-sample identity to check after the update: (i, eta, a^t(k) y_i)

    def _check(self, rep, s, k) -> None:
        """The identity of iteration k - 1's update on the scores s of a(k) (nothing else: no eta(k) is taken)."""
        if self.pending:
            i, eta, before = self.pending.pop()
            lhs, rhs = rep.exact(s, i) - self.b, (1 - eta) * (before - self.b)
            if lhs != rhs:
                raise InvariantViolation(f"relaxation identity fails at iteration {k - 1} (sample {i + 1}): "
                                         f"a^t(k+1)y - b = {lhs} but (1 - eta)(a^t(k)y - b) = {rhs}")

    def coefficients(self, rep, s, idx, k, record):
        self._check(rep, s, k)
        if not idx:
            return [], {"J_r": Fraction(0)}
        eta = _eta_in_range(self.sched, k)
        if len(idx) == 1:
            self.pending.append((idx[0], eta, rep.exact(s, idx[0])))
        coefs = relaxation_coefficients(rep, s, idx, eta, self.b, self.norms)
        return coefs, (lambda a, inc: {"J_r": coefs.J_r(), "eta": eta})

    def norms(self) -> list:
        """||z_i||^2 (the Fraction representations' coefficients divide by them; the flint one has its own)."""
        if self._norms is None:
            self._norms = [_dot(z, z) for z in self.Z]
        return self._norms

    def finish(self, rep) -> None:
        # the identity of the last update (only the check: coefficients() would also evaluate eta(k) one past the
        # run, which may lie outside (0, 2) although every eta the run used was inside)
        if self.pending:
            self._check(rep, rep.scores(0, rep.n), 0)


@register("batch-relaxation", family="perceptron", seed=SEED, number="Algorithm 8",
          title="Batch relaxation with margin", params=BATCH_PARAMS, bias_default="first",
          arithmetics=("fraction", "integer", "flint"),
          monitor="none: the perceptron theorem does not cover relaxation; with one corrected sample the notes' "
                  "identity is asserted exactly")
def batch_relaxation(X, y, P: Checked) -> Run:
    """Batch relaxation with margin, seed 003 (``003_ffe0ec08819b37d8.txt``) Algorithm 8.

    Initialize a (default 0), eta(.), b; do k <- k + 1; Y_k = the samples with a^t y < b; **a <- a +
    eta(k) sum_{y in Y_k} (b - a^t y) / ||y||^2 y**; until Y_k is empty.  0 < eta(k) < 2 is checked at every
    k.  When Y_k holds one sample the notes' identity a^t(k+1)y - b = (1 - eta)(a^t(k)y - b) is asserted
    exactly; with several samples the corrections interact and the identity is not claimed.  ``max_epochs``
    bounds the iterations; with a constant eta an exact repeat of a stops with ``cycle`` and a verified
    Gordan certificate (``stop_on_cycle=False``: the run goes on to its bound).  ``extras["J_r"]`` is the
    criterion at the returned a.  It is a rule of the one batch loop (:func:`exactlin.engine.batch.batch_loop`).
    ``arithmetic``: ``integer`` (default: integers over one denominator in lowest terms, the products on
    python-flint, :mod:`exactlin.engine.arith_relax`), ``fraction`` (the readable reference) or ``flint``
    (python-flint rationals); every choice gives the same Run.

    >>> r = batch_relaxation([(1, 1), (1, -1)], [1, 1], bias="none")
    >>> r.w, r.epochs, r.reason
    ((Fraction(1, 1), Fraction(0, 1)), 2, 'converged')
    """
    prob = P.problem(X, y)
    Z = prob.Z
    a1 = start_vector(P["a0"], prob.d, "a0")
    b, sched = P["b"], P["eta"]
    name = "integer" if P.arithmetic == "auto" else P.arithmetic
    zi = _zero_sample(Z)
    if zi is not None:
        P.record_arithmetic(name, {})  # nothing computed
        return _undefined_run("batch-relaxation", prob, P, a1, zi)
    rep = BatchReducedArith(Z, a1) if name == "integer" else batch_arith(name, Z, a1)
    tracer = P.tracer(prob.d)
    rule = _BatchRelaxation(Z, b, sched)
    res = batch_loop(rep, rule, P.bounds(), tracer, stop_on_cycle=P["stop_on_cycle"])
    settle_at_bound(res, lambda a: not rep.all(rep.scores(0, rep.n), rep.threshold(b, strict=True)))  # Y_k empty
    run = batch_run(P, prob, rep, res, tracer, SEED)
    run.extras["J_r"] = criterion_Jr(res.a, Z, b)
    run.extras["monitor"] = None
    run.extras["monitor_note"] = "not applied: relaxation is not covered by the perceptron convergence theorem"
    if P["test"] == "<=":
        _stalled(run, Z, b)
    return run
