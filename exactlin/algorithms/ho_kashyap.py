"""Ho-Kashyap procedures of seed 003 (003_ffe0ec08819b37d8.txt), exactly, with verified verdicts.

* ``ho-kashyap``: Algorithm 11.  b(1) > 0, a = Y^+ b; repeat e = Y a - b, e+ = (e + |e|)/2,
  b <- b + 2 eta e+, a <- Y^+ b.  (The notes print line 5 as "b <- a + 2 eta e+": an erratum,
  see ``exactlin errata``; the derivation two slides earlier, b(k+1) = b(k) - eta/2 [grad_b J_s -
  |grad_b J_s|] with grad_b J_s = -2 e, gives b + 2 eta e+.)
* ``ho-kashyap-mod1``: Modification I, b <- b + eta (e + |e|), a <- a + eta Y^+ |e|.
* ``ho-kashyap-mod2``: Modification II, b <- b + (e + |e|), a <- a + eta R Y^t |e| with a constant
  positive-definite R; the notes' condition 0 < eta < 2/lambda_max(Y^tY) is decided exactly.

Y holds the normalized augmented samples (seed 003's convention).  Each run ends with a verdict in
``extras["verdict"]``:

* ``"separable"``: the current a has Y a > 0, checked on every sample by
  :func:`exactlin.theory.certificates.verify_separator`;
* ``"not_separable"``: e <= 0 and e != 0 with Y^t e = 0 (true whenever a = Y^+ b): then
  lambda = -e / sum(-e) is a Gordan certificate (lambda >= 0, sum 1, sum_i lambda_i y_i = 0), checked by
  :func:`exactlin.theory.certificates.verify_gordan` -- the notes' "proof that the samples are not
  linearly separable", made explicit;
* ``"undecided"``: neither within k_max iterations (or the b_min criterion stopped the run first).
"""

from __future__ import annotations

from fractions import Fraction

from exactlin.algorithms import register
from exactlin.algorithms._contract import Checked, make_run
from exactlin.algorithms._loop import start_vector
from exactlin.engine.iterate import ARITHMETICS, Body, Recorder, iterate, vectors
from exactlin.engine.trace import HK_BATCH_VISITS, batch_step_limit, max_bits_param
from exactlin.errors import ParameterError, ShapeError, VerificationError
from exactlin.exact.format import fmt
from exactlin.exact.numbers import fdot, to_vector
from exactlin.linalg.matrices import (
    arithmetic_backend,
    inverse,
    is_positive_definite,
    is_symmetric,
    leading_minors,
    pinv,
)
from exactlin.model.params import MAX_SECONDS, Conflict, Param, at_least, in_open_interval, nonnegative, positive
from exactlin.model.run import Run
from exactlin.theory.certificates import verify_ho_kashyap

SEED = "003_ffe0ec08819b37d8.txt"

_COMMON = (
    Param("b0", "vector", None, "b(1) > 0, one entry per sample (default all ones)"),
    Param("b_min", "rational", None, "stop when |e_i| <= b_min for every i (Algorithm 11, line 7)", nonnegative),
    Param("k_max", "int", None, "stop after this many iterations (reason max_steps). Default (None): the "
          f"deterministic budget ceil({HK_BATCH_VISITS:,} / n) iterations ({HK_BATCH_VISITS // 2000} on "
          f"2,000 samples, {HK_BATCH_VISITS // 100} on 100; max_epochs when n <= 8): an iteration costs about 2n "
          "exact inner products with numbers that carry Y^+'s large denominators "
          "(benchmarks/RESULTS.md, \"Default budgets\")", at_least(1)),
    max_bits_param(4096, "a numerator or denominator of a or b",
                   "a and b pick up the denominators of Y^+ and grow by hundreds of bits per iteration: 42 "
                   "iterations on 100 x 10 integers reached 8,100 bits"),
    MAX_SECONDS,
)

STOP = Param("stop", "choice", "separator",
             "'separator' (default): also stop as soon as Y a > 0 (verified); 'b_min': stop only when |e| <= b_min "
             "or at k_max, as Algorithm 11's listing does (line 7 after the updates of lines 5-6), still checking "
             "the notes' two verdicts at every iteration (e = 0: a solution; e <= 0, e != 0: a verified proof of "
             "non-separability, after which b never changes again)", choices=("separator", "b_min"))
HK_B_ERRATUM = "seed003-ho-kashyap-b-update"

_ETA = Param("eta", "rational", Fraction(1, 2), "step size, 0 < eta < 1 (Algorithm 11: eta < 1)",
             in_open_interval(0, 1))
HK_PARAMS = (_ETA,) + _COMMON + (
    STOP,
    Param("variant", "choice", "corrected",
          "'corrected' (default) or 'printed': line 5 as printed, b <- a + 2 eta e+ (erratum "
          f"{HK_B_ERRATUM}); defined only when a and b have the same length (as many samples as augmented "
          "features)", choices=("corrected", "printed")),
)
MOD1_PARAMS = (_ETA,) + _COMMON + (STOP,)
MOD2_PARAMS = (
    Param("eta", "rational", None, "step size with 0 < eta < 2/lambda_max(Y^tY), decided exactly; default "
          "1/trace(Y^tY), which always satisfies it", positive),
    Param("R", "matrix", None, "constant symmetric positive-definite d x d matrix (default the identity); "
          "CLI: R=1,0;0,1"),
    Param("a0", "vector", None, "a(1) (default 0; the notes: arbitrary)"),
) + _COMMON


def _b_start(b0, n: int) -> tuple[Fraction, ...]:
    if b0 is None:
        return tuple(Fraction(1) for _ in range(n))
    b = to_vector(b0)
    if len(b) != n:
        raise ShapeError(f"b0 has {len(b)} entries but there are {n} samples: b needs one entry per sample")
    for i, v in enumerate(b):
        if v <= 0:
            raise ParameterError(f"b0 must be > 0 in every entry (b(1) > 0); b0[{i}] = {fmt(v)}", parameter="b0")
    return b


def _pinv_apply(Yp, v) -> tuple:
    """Y^+ v (Y^+ is d x n), in Fractions."""
    return tuple(fdot(row, v) for row in Yp)


class HoKashyapIteration(Body):
    """One Ho-Kashyap procedure's iteration for :func:`exactlin.engine.iterate.iterate`, on the vectors of one
    representation (:mod:`exactlin.engine.iterate`): before each update e = Y a - b and the notes' verdicts on it
    (Y a > 0: separable; a Gordan certificate from e: not separable; both decided and certified by the independent
    :func:`exactlin.theory.certificates.verify_ho_kashyap`), then |e| <= b_min; the update ``a, b = rule(a, b, e)``
    is the procedure's own."""

    def __init__(self, rep, Z, a, b, rule, rec, *, b_min):
        self.rep, self.Z, self.rule, self.rec = rep, Z, rule, rec
        self.Y = rep.matrix(Z)
        self.Yt = self.Y.T
        self.a, self.b = rep.vector(a), rep.vector(b)
        self.b_min = None if b_min is None else rep.scalar(b_min)
        self.top_bits = self.b.bits_above(self.a.bits_above(0))
        self.Ya = self.Y @ self.a
        self.e = self.Ya - self.b
        self.verdict = self.certificate = None

    def gordan_possible(self, e) -> bool:
        """e <= 0, e != 0 and Y^t e = 0: then lambda = -e / sum(-e) is a Gordan certificate (when it verifies)."""
        return e.nonpositive() and not e.zero() and (self.Yt @ e).zero()

    def decide(self, Ya, e) -> tuple:
        """(verdict, certificate) on the current a with Ya = Y a and e = Y a - b, (None, None) while undecided: the
        cheap tests first (most iterations decide nothing), then the independent verifier on the Fractions."""
        if not Ya.positive() and not self.gordan_possible(e):
            return None, None
        v = verify_ho_kashyap(self.Z, self.rep.fractions(self.a), self.rep.fractions(e))
        return (None, None) if v.verdict == "undecided" else (v.verdict, v.certificate)

    def before(self) -> str | None:
        self.Ya = self.Y @ self.a
        self.e = self.Ya - self.b  # e <- Y a - b
        self.verdict, self.certificate = self.decide(self.Ya, self.e)
        if self.verdict == "separable":
            return "converged"
        if self.verdict == "not_separable":
            return "not_separable"
        if self.b_min is not None and self.e.max_abs() <= self.b_min:
            return "criterion"
        return None

    def update(self, k: int) -> bool:
        """a, b <- the procedure's update on e; recorded; whether a or b changed."""
        a, b, e = self.a, self.b, self.e
        a_new, b_new = self.rule(a, b, e)
        a_new, b_new = a_new.normal(), b_new.normal()
        changed = not (b_new.same(b) and a_new.same(a))
        self.rec.add(k, k, None, self.Ya.min(), changed, a, a_new, b=b, e=e, b_after=b_new)
        self.a, self.b = a_new, b_new
        self.top_bits = b_new.bits_above(a_new.bits_above(self.top_bits))
        return changed

    def step(self, k: int) -> tuple[bool, str | None]:
        return self.update(k), None

    def final(self) -> None:
        """The verdict of the run's end (stop="separator": the one decided before the last stop)."""
        if self.verdict is None:
            self.verdict = "undecided"


class ListingIteration(HoKashyapIteration):
    """Algorithm 11's loop as listed: do k <- k + 1; e <- Y a - b; (the update of b and a); if |e| <= b_min then
    return a, b; until k = k_max.  At every iteration the notes' two verdicts on e(k) are checked: e(k) = 0 (a
    solution: the b_min test fires, since |e| = 0 <= b_min) and e(k) <= 0, e(k) != 0 (a Gordan certificate,
    verified; then e+ = 0, so b and a never change again and the run stops with reason ``not_separable``).  The
    first k whose a(k) has Y a(k) > 0 is ``separator_at`` (where ``stop="separator"`` would have stopped) without
    stopping the run.  ``certificate_stops=False`` (the printed listing, whose b <- a + 2 eta e+ still changes b
    when e+ = 0) keeps the first verified certificate and runs on to line 7 or k_max, as the listing does."""

    def __init__(self, *args, b_min, certificate_stops: bool):
        super().__init__(*args, b_min=b_min)
        self.certificate_stops = certificate_stops
        self.separator_at = None

    def before(self) -> None:
        return None

    def step(self, k: int) -> tuple[bool, str | None]:
        self.Ya = self.Y @ self.a
        e = self.e = self.Ya - self.b  # e <- Y a - b
        if self.separator_at is None and self.Ya.positive():
            self.separator_at = k
        if self.certificate is None and self.gordan_possible(e):  # e <= 0, e != 0: the notes' proof
            v = verify_ho_kashyap(self.Z, self.rep.fractions(self.a), self.rep.fractions(e))
            if v.verdict == "not_separable":
                self.certificate = v.certificate
                if self.certificate_stops:
                    self.rec.add(k, k, None, self.Ya.min(), False, self.a, self.a, b=self.b, e=e, b_after=self.b)
                    return False, "not_separable"
        changed = self.update(k)
        if e.max_abs() <= self.b_min:  # line 7: if Abs[e] <= b_min then return a, b
            return changed, "criterion"
        return changed, None

    def final(self) -> None:
        """The verdict on the returned a (the listing returns a, b after the last update)."""
        if self.certificate is not None:
            self.verdict = "not_separable"
            return
        Ya = self.Y @ self.a
        verdict, self.certificate = self.decide(Ya, Ya - self.b)  # the run reports the loop's last e(k) as e
        self.verdict = verdict or "undecided"


def _hk_loop(P: Checked, prob, bounds, rep, a, b, rule, *, extras: dict, after: dict, params: dict | None = None) \
        -> Run:
    """The loop the three procedures share (:func:`exactlin.engine.iterate.iterate` on a
    :class:`HoKashyapIteration`): e = Y a - b; stop on a verified verdict, on |e| <= b_min, on k_max/max_epochs,
    max_bits or time; else ``a, b = rule(a, b, e)`` and k <- k + 1.  With ``stop="b_min"`` the listing's own
    order and stops instead (:class:`ListingIteration`)."""
    k_max, b_min, max_bits = P["k_max"], P["b_min"], P["max_bits"]
    listing = P.get("stop") == "b_min"
    if listing and b_min is None:
        raise ParameterError("stop=b_min needs b_min (Algorithm 11's criterion |e| <= b_min); give b_min=...",
                             parameter="b_min")
    # the default budget when k_max is None (the listing honours it too)
    budget = bounds.max_steps = batch_step_limit(k_max, prob.n, HK_BATCH_VISITS)
    tracer = P.tracer(prob.d)
    rec = Recorder(tracer, rep, reuse={"b_after": "b"})
    if listing:
        body = ListingIteration(rep, prob.Z, a, b, rule, rec, b_min=b_min,
                                certificate_stops=P.get("variant") != "printed")
    else:
        body = HoKashyapIteration(rep, prob.Z, a, b, rule, rec, b_min=b_min)
    k, last, reason = iterate(body, bounds=bounds, limit=min(budget, bounds.max_epochs), budget=budget,
                              max_bits=max_bits, bits="before", work=prob.n)
    rec.finish()
    body.final()
    P.record_arithmetic(rep.name, {rep.name: k})
    a = rep.fractions(body.a)
    extras = {**extras, "verdict": body.verdict, "b": rep.fractions(body.b), "e": rep.fractions(body.e),
              "max_bits": body.top_bits, "last_update_step": last}
    if listing:
        extras["separator_at"] = body.separator_at
    if body.certificate is not None:
        extras["certificate"] = body.certificate
    extras.update(after)
    if body.verdict == "separable" and a != body.certificate["a"]:  # pragma: no cover
        raise VerificationError("Ho-Kashyap: the certified a is not the returned a")
    return make_run(P, prob, w=a, converged=body.verdict == "separable", reason=reason, updates=k, epochs=k, steps=k,
                    tracer=tracer, extras=extras, seed=SEED, params={"k_max": budget, **(params or {})})


def _pinv_extras(Yp, prob) -> dict:
    return {"Y_pinv": Yp} if prob.n * prob.d <= 400 else {}


def _identity(d: int) -> tuple:
    return tuple(tuple(Fraction(int(i == j)) for j in range(d)) for i in range(d))


def _mod2_setup(P: Checked, Z, d: int):
    """Modification II's R (checked symmetric positive definite; default I) and eta (checked exactly against
    0 < eta < 2/lambda_max(Y^tY); default 1/trace(Y^tY)), and the extras that report the conditions."""
    R = P["R"]
    if R is None:
        R = _identity(d)
    if len(R) != d or any(len(r) != d for r in R):
        widths = sorted({len(r) for r in R})
        got = f"{len(R)}x{widths[0]}" if len(widths) == 1 else \
            f"{len(R)} rows of lengths {', '.join(map(str, widths))}"
        raise ShapeError(f"R must be {d}x{d} (the augmented dimension), got {got}")
    if not is_symmetric(R) or not is_positive_definite(R):
        why = "it is not symmetric" if not is_symmetric(R) else (
            "leading principal minors " + ", ".join(fmt(m) for m in leading_minors(R)) + " are not all > 0")
        raise ParameterError(f"R must be symmetric positive definite: {why}", parameter="R")
    cols = tuple(zip(*Z))
    YtY = tuple(tuple(fdot(cols[i], cols[j]) for j in range(d)) for i in range(d))
    eta = P["eta"]
    if eta is None:
        # trace(Y^tY) >= lambda_max > 0 for Y != 0, so eta = 1/trace < 2/lambda_max
        tr = sum((YtY[i][i] for i in range(d)), Fraction(0))
        # every sample zero: Y^tY = 0, lambda_max = 0 and every eta > 0 satisfies the condition; take 1
        eta = 1 / tr if tr != 0 else Fraction(1)
    M = tuple(tuple((2 / eta if i == j else 0) - YtY[i][j] for j in range(d)) for i in range(d))
    if not is_positive_definite(M):
        mins = leading_minors(M)
        raise ParameterError(
            f"eta = {fmt(eta)} violates 0 < eta < 2/lambda_max(Y^tY) (seed 003, Modification II): "
            f"(2/eta) I - Y^tY is not positive definite (leading principal minors "
            f"{', '.join(fmt(m) for m in mins)}); take a smaller eta", parameter="eta")
    extras = {"eta_condition": "0 < eta < 2/lambda_max(Y^tY): (2/eta) I - Y^tY is positive definite (exact "
                               "leading minors)"}
    if P["R"] is not None:
        # with R != I the update of a involves R Y^t; the nonzero eigenvalues of Y R Y^t are those of
        # R Y^tY, and eta < 2/lambda_max(R Y^tY) iff (2/eta) R^{-1} - Y^tY is positive definite
        # (congruence by R^{1/2}); reported, not enforced (the notes state the condition with Y^tY)
        Rinv = inverse(R, what="R")
        MR = tuple(tuple(2 / eta * Rinv[i][j] - YtY[i][j] for j in range(d)) for i in range(d))
        extras["eta_below_2_over_lambda_max_RYtY"] = is_positive_definite(MR)
    return R, eta, extras


#: the printed listing has its own stop (line 7), never the separator stop
HK_CONFLICTS = (
    Conflict("stop", "variant", lambda g, e: g["stop"] == "separator" and e.get("variant") == "printed",
             "variant='printed' runs Algorithm 11's listing, whose only stops are line 7 (|e| <= b_min) and "
             "k_max; stop='separator' is the corrected rule's"),
)


@register("ho-kashyap", family="mse", seed=SEED, number="Algorithm 11", title="Ho-Kashyap", params=HK_PARAMS,
          bias_default="first", conflicts=HK_CONFLICTS, arithmetics=ARITHMETICS)
def ho_kashyap(X, y, P: Checked) -> Run:
    """Algorithm 11 (Ho-Kashyap) of seed 003 (``003_ffe0ec08819b37d8.txt``), exactly:

        b(1) > 0 (default 1), a = Y^+ b;  repeat  e <- Y a - b;  e+ <- (e + |e|)/2;
        b <- b + 2 eta e+;  a <- Y^+ b

    on the normalized samples Y, with 0 < eta < 1.  (The notes print "b <- a + 2 eta e+"; the rule
    run here is the notes' own derivation, b + 2 eta e+: erratum ``ho-kashyap-b-update``.)  Before
    each update the current a and e are checked: Y a > 0 ends the run ``converged`` with verdict
    ``separable``; e <= 0, e != 0 ends it ``not_separable`` with a verified Gordan certificate
    lambda = -e/sum(-e); |e| <= b_min ends it with reason ``criterion``; k_max/max_epochs with
    verdict ``undecided``.

    ``stop="b_min"`` runs the listing's stops instead: only |e| <= b_min (checked after the update, as line
    7 is) or k_max end the run, so b_min below the margins matters; the two verdicts under the listing are
    still checked at every iteration (``extras["separator_at"]``: the first k with Y a(k) > 0).
    ``variant="printed"`` runs the listing by itself: line 5 as printed, b <- a + 2 eta e+ (erratum
    ``seed003-ho-kashyap-b-update``), with the listing's own stops (``stop="b_min"`` is implied; b_min = 0,
    i.e. return only at e = 0, unless given); a has d entries and b one per sample, so the rule is undefined
    (a ParameterError naming the erratum) unless n = d.

    >>> r = ho_kashyap([(1, 2), (2, 0), (3, 1), (2, 3)], [1, 1, -1, -1])   # seed 003's example
    >>> r.extras["verdict"], [str(v) for v in r.w], r.updates
    ('separable', ['11/3', '-4/3', '-2/3'], 0)
    >>> ho_kashyap([(0,), (1,), (2,)], [1, -1, 1]).extras["verdict"]
    'not_separable'
    """
    prob = P.problem(X, y)
    bounds = P.bounds()
    eta = P["eta"]
    b = _b_start(P["b0"], prob.n)  # b(1) > 0
    printed = P["variant"] == "printed"
    if printed:  # the listing by itself: its own stop (line 7 after lines 5-6, or k_max), b_min = 0 unless given
        P = P.replace(stop="b_min", b_min=Fraction(0) if P["b_min"] is None else P["b_min"])
    if printed and prob.n != prob.d:
        raise ParameterError(
            f"variant=printed: line 5 as printed, b <- a + 2 eta e+, adds a (d = {prob.d} entries) to e+ "
            f"(n = {prob.n} entries, one per sample): undefined unless n = d (erratum {HK_B_ERRATUM}; the "
            "corrected rule b <- b + 2 eta e+ is the default)", parameter="variant")
    Yp = pinv(prob.Z, backend=arithmetic_backend(P.arithmetic)[0])  # Y^+, exact, in the same arithmetic
    rep = vectors(P.arithmetic)
    Y_plus, eta = rep.matrix(Yp), rep.scalar(eta)

    def rule(a, b, e):
        e_plus = (e + abs(e)) / 2  # e+ <- (e + |e|)/2
        b = (a if printed else b) + e_plus * (2 * eta)  # line 5 as printed: a + 2 eta e+; corrected: b + 2 eta e+
        return Y_plus @ b, b  # a <- Y^+ b

    run = _hk_loop(P, prob, bounds, rep, _pinv_apply(Yp, b), b, rule, extras={}, after=_pinv_extras(Yp, prob))
    if printed:
        run.extras["erratum"] = HK_B_ERRATUM
        run.extras["printed_note"] = (
            f"line 5 as printed (b <- a + 2 eta e+) ran {run.steps} iterations and stopped with reason "
            f"{run.reason} (verdict {run.extras['verdict']}); b need not stay > 0 under this rule, so a verdict "
            "other than a verified separator or certificate says nothing about the data")
    return run


@register("ho-kashyap-mod1", family="mse", seed=SEED, number="Ho-Kashyap Modification (I)",
          title="Ho-Kashyap, Modification I", params=MOD1_PARAMS, bias_default="first", arithmetics=ARITHMETICS)
def ho_kashyap_mod1(X, y, P: Checked) -> Run:
    """Ho-Kashyap Modification (I) of seed 003 (``003_ffe0ec08819b37d8.txt``), exactly:

        b(1) > 0, a(1) = Y^+ b(1);  b(k+1) = b(k) + eta (e(k) + |e(k)|);  a(k+1) = a(k) + eta Y^+ |e(k)|

    with e(k) = Y a(k) - b(k).  Since Y^t e(k) = 0 the iterates are exactly those of Algorithm 11
    (a(k) = Y^+ b(k) at every k: Y^+ e(k) = 0); verdicts as in :func:`ho_kashyap`.

    >>> ho_kashyap_mod1([(1, 2), (2, 0), (3, 1), (2, 3)], [1, 1, -1, -1]).extras["verdict"]
    'separable'
    """
    prob = P.problem(X, y)
    bounds = P.bounds()
    eta = P["eta"]
    b = _b_start(P["b0"], prob.n)  # b(1) > 0
    Yp = pinv(prob.Z, backend=arithmetic_backend(P.arithmetic)[0])  # Y^+, exact, in the same arithmetic
    rep = vectors(P.arithmetic)
    Y_plus, eta = rep.matrix(Yp), rep.scalar(eta)

    def rule(a, b, e):  # a(k+1) = a(k) + eta Y^+ |e(k)|;  b(k+1) = b(k) + eta (e(k) + |e(k)|)
        abs_e = abs(e)
        return a + (Y_plus @ abs_e) * eta, b + (e + abs_e) * eta

    a1 = _pinv_apply(Yp, b)  # a(1) = Y^+ b(1)
    return _hk_loop(P, prob, bounds, rep, a1, b, rule, extras={}, after=_pinv_extras(Yp, prob))


@register("ho-kashyap-mod2", family="mse", seed=SEED, number="Ho-Kashyap Modification (II)",
          title="Ho-Kashyap, Modification II (no pseudoinverse)", params=MOD2_PARAMS, bias_default="first",
          arithmetics=ARITHMETICS)
def ho_kashyap_mod2(X, y, P: Checked) -> Run:
    """Ho-Kashyap Modification (II) of seed 003 (``003_ffe0ec08819b37d8.txt``), exactly:

        b(1) > 0, a(1) arbitrary (default 0);  b(k+1) = b(k) + (e(k) + |e(k)|);
        a(k+1) = a(k) + eta R Y^t |e(k)|

    with R a constant symmetric positive-definite matrix (default I; checked exactly by leading
    minors) and the notes' convergence condition 0 < eta < 2/lambda_max(Y^tY), decided exactly as
    "(2/eta) I - Y^tY is positive definite" (never a floating-point eigenvalue); a violation is a
    :class:`~exactlin.errors.ParameterError`.  The default eta = 1/trace(Y^tY) always satisfies it.
    Here Y^t e(k) != 0 in general, so e <= 0 alone is no proof; the verdict ``not_separable`` is
    given only when lambda = -e/sum(-e) verifies as a Gordan certificate.  With a given R the run also
    reports ``extras["eta_below_2_over_lambda_max_RYtY"]``: whether eta < 2/lambda_max(R Y^tY), decided
    exactly as "(2/eta) R^{-1} - Y^tY is positive definite" (the update of a involves R Y^t; for R = I the
    two conditions coincide).

    >>> ho_kashyap_mod2([(1, 2), (2, 0), (3, 1), (2, 3)], [1, 1, -1, -1], eta="1/20").extras["verdict"]
    'separable'
    """
    prob = P.problem(X, y)
    bounds = P.bounds()
    Z, n, d = prob.Z, prob.n, prob.d
    b = _b_start(P["b0"], n)  # b(1) > 0
    R, eta, extras = _mod2_setup(P, Z, d)
    a = start_vector(P["a0"], d, "a0")  # a(1) arbitrary
    RYt = tuple(tuple(fdot(R[i], Z[j]) for j in range(n)) for i in range(d))  # R Y^t, d x n

    rep = vectors(P.arithmetic)
    RY_t, eta_s = rep.matrix(RYt), rep.scalar(eta)

    def rule(a, b, e):  # a(k+1) = a(k) + eta R Y^t |e(k)|;  b(k+1) = b(k) + (e(k) + |e(k)|)
        abs_e = abs(e)
        return a + (RY_t @ abs_e) * eta_s, b + e + abs_e

    return _hk_loop(P, prob, bounds, rep, a, b, rule, extras=extras, after={"R": R}, params={"eta": eta})


__all__ = ["ho_kashyap", "ho_kashyap_mod1", "ho_kashyap_mod2", "HoKashyapIteration", "ListingIteration"]
