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

from exactlin.algorithms import _flint_iter, register
from exactlin.algorithms._contract import Checked
from exactlin.algorithms._loop import HK_BATCH_VISITS, batch_step_limit, max_bits_param, start_vector
from exactlin.errors import ParameterError, ShapeError, VerificationError
from exactlin.exact.format import fmt
from exactlin.exact.numbers import fdot, max_bit_length, to_vector
from exactlin.linalg.matrices import inverse, is_positive_definite, is_symmetric, leading_minors, pinv
from exactlin.model.models import linear_model
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


def gordan_from_error(Z, e) -> tuple[Fraction, ...] | None:
    """lambda = -e / sum(-e) when e <= 0, e != 0 and Z^t e = 0 (then lambda is a Gordan certificate);
    None otherwise.  The caller verifies it independently."""
    if any(v > 0 for v in e) or not any(e):
        return None
    d = len(Z[0])
    for j in range(d):
        if sum((z[j] * ei for z, ei in zip(Z, e)), Fraction(0)) != 0:
            return None
    s = -sum(e, Fraction(0))
    return tuple(-v / s for v in e)


def _verdict(Z, a, e):
    """(verdict, certificate-or-None) for the current a and e = Y a - b; None when undecided.  The verdict is
    decided and certified by the independent :func:`exactlin.theory.certificates.verify_ho_kashyap`."""
    if not all(fdot(z, a) > 0 for z in Z) and gordan_from_error(Z, e) is None:
        return None, None  # the cheap tests first: most iterations decide nothing
    v = verify_ho_kashyap(Z, a, e)
    if v.verdict == "undecided":
        return None, None
    return v.verdict, v.certificate


def _pinv_apply(Yp, v) -> tuple:
    """Y^+ v (Y^+ is d x n)."""
    return tuple(fdot(row, v) for row in Yp)


def _hk_loop(name: str, P: Checked, prob, bounds, a, b, step, *, extras: dict, after: dict, params: dict,
             flint_step=None) -> Run:
    """The loop the three procedures share: e = Y a - b; stop on a verified verdict (Y a > 0: separable;
    a Gordan certificate from e: not separable), on |e| <= b_min, on k_max/max_epochs, max_bits or time;
    else ``a, b = step(a, b, e, |e|)`` (the procedure's own update) and k <- k + 1.
    With ``stop="b_min"`` (:func:`_hk_listing_loop`) the listing's own order and stops instead.

    ``flint_step`` is the same update on python-flint columns (issue 14): when given and
    ``_flint_iter.ENABLED`` (the default) the iteration runs on ``fmpq_mat`` (:func:`exactlin.algorithms.
    _flint_iter.hk_loop`, the same tests in the same order, the same Run); this loop in Fractions stays the
    readable reference (``_flint_iter.ENABLED = False`` runs it)."""
    if P.get("stop") == "b_min":
        return _hk_listing_loop(name, P, prob, bounds, a, b, step, extras=extras, after=after, params=params,
                                flint_step=flint_step, certificate_stops=P.get("variant") != "printed")
    Z = prob.Z
    k_max, b_min, max_bits = P["k_max"], P["b_min"], P["max_bits"]
    # the default budget when k_max is None
    k_budget = bounds.max_steps = batch_step_limit(k_max, prob.n, HK_BATCH_VISITS)
    limit = min(k_budget, bounds.max_epochs)
    tracer = P.tracer(prob.d)
    if flint_step is not None and _flint_iter.ENABLED:
        a, b, e, k, last, reason, verdict, cert, top_bits = _flint_iter.hk_loop(
            Z, tracer, bounds, a, b, flint_step, limit=limit, k_budget=k_budget, b_min=b_min, max_bits=max_bits,
            verify=verify_ho_kashyap)
        return _hk_run(name, P, prob, bounds, tracer, a, b, e, k, last, reason, verdict, cert, top_bits,
                       extras=extras, after=after, params=params)
    top_bits = max(max_bit_length(a), max_bit_length(b))
    k = last = 0
    while True:
        e = tuple(fdot(z, a) - bi for z, bi in zip(Z, b))
        verdict, cert = _verdict(Z, a, e)
        if verdict == "separable":
            reason = "converged"
            break
        if verdict == "not_separable":
            reason = "not_separable"
            break
        if b_min is not None and all(abs(v) <= b_min for v in e):
            reason = "criterion"
            break
        if k >= limit:
            reason = "max_steps" if k >= k_budget else "max_epochs"
            break
        if max_bits is not None and top_bits > max_bits:
            reason = "bit_limit"
            break
        if bounds.out_of_time():
            reason = "time_limit"
            break
        if bounds.progress is not None and k:
            bounds.tick(k, k, top_bits, work=prob.n)
        k += 1
        a_new, b_new = step(a, b, e, tuple(abs(v) for v in e))
        if b_new != b or a_new != a:
            last = k
        tracer.add(k, k, None, min(fdot(z, a) for z in Z), b_new != b or a_new != a, a, a_new, b=b, e=e,
                   b_after=b_new)
        a, b = a_new, b_new
        top_bits = max(top_bits, max_bit_length(a), max_bit_length(b))
    return _hk_run(name, P, prob, bounds, tracer, a, b, e, k, last, reason, verdict, cert, top_bits,
                   extras=extras, after=after, params=params)


def _hk_run(name: str, P: Checked, prob, bounds, tracer, a, b, e, k, last, reason, verdict, cert, top_bits, *,
            extras: dict, after: dict, params: dict) -> Run:
    """The Run of :func:`_hk_loop` (either path)."""
    if verdict is None:
        verdict = "undecided"
    extras = {**extras, "verdict": verdict, "b": b, "e": e, "max_bits": top_bits, "last_update_step": last}
    if cert is not None:
        extras["certificate"] = cert
    extras.update(after)
    params = {**{key: v for key, v in params.items() if v is not None}, "max_epochs": bounds.max_epochs}
    run = Run(name, a, P.bias, verdict == "separable", reason, k, k, k, params=params, trace=tracer.steps,
              trace_complete=tracer.complete, extras=extras, seed=SEED, problem=prob,
              model=linear_model(a, P.bias, prob))
    if verdict == "separable" and run.w != cert["a"]:  # pragma: no cover
        raise VerificationError("Ho-Kashyap: the certified a is not the returned a")
    return run


def _hk_listing_loop(name: str, P: Checked, prob, bounds, a, b, step, *, extras: dict, after: dict,
                     params: dict, flint_step=None, certificate_stops: bool = True) -> Run:
    """Algorithm 11's loop as listed: do k <- k + 1; e <- Y a - b; (the update of b and a); if |e| <= b_min
    then return a, b; until k = k_max.  At every iteration the notes' two verdicts on e(k) are checked:
    e(k) = 0 (a solution: the b_min test fires, since |e| = 0 <= b_min) and e(k) <= 0, e(k) != 0 (a Gordan
    certificate, verified; then e+ = 0, so b and a never change again and the run stops with reason
    ``not_separable``).  The first k whose a(k) has Y a(k) > 0 is reported as ``extras["separator_at"]``
    (where ``stop="separator"`` would have stopped) without stopping the run.  The returned a, b are those
    after the last update, as the listing returns them; the final verdict is decided on that a.
    ``certificate_stops=False`` (the printed listing, whose b <- a + 2 eta e+ still changes b when e+ = 0)
    keeps the first verified certificate and runs on to line 7 or k_max, as the listing does."""
    Z = prob.Z
    k_max, b_min, max_bits = P["k_max"], P["b_min"], P["max_bits"]
    if b_min is None:
        raise ParameterError("stop=b_min needs b_min (Algorithm 11's criterion |e| <= b_min); give b_min=...",
                             parameter="b_min")
    # the budget of _hk_loop (k_max, by default ceil(HK_BATCH_VISITS / n) iterations): the listing honours it too
    k_budget = bounds.max_steps = batch_step_limit(k_max, prob.n, HK_BATCH_VISITS)
    limit = min(k_budget, bounds.max_epochs)
    tracer = P.tracer(prob.d)
    if flint_step is not None and _flint_iter.ENABLED:  # the same loop on flint columns (see _hk_loop)
        a, b, e, k, last, reason, verdict, cert, top_bits, separator_at = _flint_iter.hk_listing_loop(
            Z, tracer, bounds, a, b, flint_step, limit=limit, k_max=k_budget, b_min=b_min, max_bits=max_bits,
            verify=verify_ho_kashyap, certificate_stops=certificate_stops)
        return _hk_listing_run(name, P, prob, bounds, tracer, a, b, e, k, last, reason, verdict, cert, top_bits,
                               separator_at, extras=extras, after=after, params=params)
    top_bits = max(max_bit_length(a), max_bit_length(b))
    k = last = 0
    separator_at = None
    cert = None
    e = tuple(fdot(z, a) - bi for z, bi in zip(Z, b))
    while True:
        if k >= limit:
            reason = "max_steps" if k >= k_budget else "max_epochs"
            break
        if max_bits is not None and top_bits > max_bits:
            reason = "bit_limit"
            break
        if bounds.out_of_time():
            reason = "time_limit"
            break
        k += 1
        e = tuple(fdot(z, a) - bi for z, bi in zip(Z, b))  # e <- Y a - b
        if separator_at is None and all(fdot(z, a) > 0 for z in Z):
            separator_at = k
        lam = gordan_from_error(Z, e) if cert is None else None
        if lam is not None:  # e <= 0, e != 0: the notes' proof of non-separability (verified below)
            v = verify_ho_kashyap(Z, a, e)
            if v.verdict == "not_separable":
                cert = v.certificate
                if certificate_stops:
                    tracer.add(k, k, None, min(fdot(z, a) for z in Z), False, a, a, b=b, e=e, b_after=b)
                    reason = "not_separable"
                    break
        a_new, b_new = step(a, b, e, tuple(abs(v) for v in e))
        changed = b_new != b or a_new != a
        if changed:
            last = k
        tracer.add(k, k, None, min(fdot(z, a) for z in Z), changed, a, a_new, b=b, e=e, b_after=b_new)
        a, b = a_new, b_new
        top_bits = max(top_bits, max_bit_length(a), max_bit_length(b))
        if all(abs(v) <= b_min for v in e):  # line 7: if Abs[e] <= b_min then return a, b
            reason = "criterion"
            break
    if cert is not None:
        verdict = "not_separable"
    else:
        e_now = tuple(fdot(z, a) - bi for z, bi in zip(Z, b))
        verdict, cert = _verdict(Z, a, e_now)
        verdict = verdict or "undecided"
    return _hk_listing_run(name, P, prob, bounds, tracer, a, b, e, k, last, reason, verdict, cert, top_bits,
                           separator_at, extras=extras, after=after, params=params)


def _hk_listing_run(name: str, P: Checked, prob, bounds, tracer, a, b, e, k, last, reason, verdict, cert,
                    top_bits, separator_at, *, extras: dict, after: dict, params: dict) -> Run:
    """The Run of :func:`_hk_listing_loop` (either path)."""
    extras = {**extras, "verdict": verdict, "b": b, "e": e, "max_bits": top_bits, "last_update_step": last,
              "separator_at": separator_at}
    if cert is not None:
        extras["certificate"] = cert
    extras.update(after)
    params = {**{key: v for key, v in params.items() if v is not None}, "max_epochs": bounds.max_epochs}
    return Run(name, a, P.bias, verdict == "separable", reason, k, k, k, params=params, trace=tracer.steps,
               trace_complete=tracer.complete, extras=extras, seed=SEED, problem=prob,
               model=linear_model(a, P.bias, prob))


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
          bias_default="first", conflicts=HK_CONFLICTS)
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
    Yp = pinv(prob.Z)  # Y^+, exact

    def step(a, b, e, abs_e):
        e_plus = tuple((v + w) / 2 for v, w in zip(e, abs_e))  # e+ <- (e + |e|)/2
        base = a if printed else b  # line 5 as printed: a + 2 eta e+; corrected: b + 2 eta e+
        b = tuple(bi + 2 * eta * ep for bi, ep in zip(base, e_plus))
        return _pinv_apply(Yp, b), b  # a <- Y^+ b

    Ypq, eta_q = _flint_iter.qmat(Yp), _flint_iter.q(eta)

    def flint_step(A, B, E, absE):  # the same update on flint columns: 2 eta (e + |e|)/2 = eta (e + |e|)
        B = (A if printed else B) + (E + absE) * eta_q
        return Ypq * B, B

    run = _hk_loop("ho-kashyap", P, prob, bounds, _pinv_apply(Yp, b), b, step, extras={},
                   after=_pinv_extras(Yp, prob), params=P, flint_step=flint_step)
    if printed:
        run.extras["erratum"] = HK_B_ERRATUM
        run.extras["printed_note"] = (
            f"line 5 as printed (b <- a + 2 eta e+) ran {run.steps} iterations and stopped with reason "
            f"{run.reason} (verdict {run.extras['verdict']}); b need not stay > 0 under this rule, so a verdict "
            "other than a verified separator or certificate says nothing about the data")
    return run


@register("ho-kashyap-mod1", family="mse", seed=SEED, number="Ho-Kashyap Modification (I)",
          title="Ho-Kashyap, Modification I", params=MOD1_PARAMS, bias_default="first")
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
    Yp = pinv(prob.Z)  # Y^+, exact

    def step(a, b, e, abs_e):
        b_next = tuple(bi + eta * (v + w) for bi, v, w in zip(b, e, abs_e))  # b + eta (e + |e|)
        a_next = tuple(ai + eta * t for ai, t in zip(a, _pinv_apply(Yp, abs_e)))  # a + eta Y^+ |e|
        return a_next, b_next

    Ypq, eta_q = _flint_iter.qmat(Yp), _flint_iter.q(eta)

    def flint_step(A, B, E, absE):  # the same update on flint columns
        return A + (Ypq * absE) * eta_q, B + (E + absE) * eta_q

    a1 = _pinv_apply(Yp, b)  # a(1) = Y^+ b(1)
    return _hk_loop("ho-kashyap-mod1", P, prob, bounds, a1, b, step, extras={}, after=_pinv_extras(Yp, prob),
                    params=P, flint_step=flint_step)


@register("ho-kashyap-mod2", family="mse", seed=SEED, number="Ho-Kashyap Modification (II)",
          title="Ho-Kashyap, Modification II (no pseudoinverse)", params=MOD2_PARAMS, bias_default="first")
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

    def step(a, b, e, abs_e):
        b_next = tuple(bi + v + w for bi, v, w in zip(b, e, abs_e))  # b + (e + |e|)
        a_next = tuple(ai + eta * fdot(row, abs_e) for ai, row in zip(a, RYt))  # a + eta R Y^t |e|
        return a_next, b_next

    RYtq, eta_q = _flint_iter.qmat(RYt), _flint_iter.q(eta)

    def flint_step(A, B, E, absE):  # the same update on flint columns
        return A + (RYtq * absE) * eta_q, B + E + absE

    return _hk_loop("ho-kashyap-mod2", P, prob, bounds, a, b, step, extras=extras, after={"R": R},
                    params={**P, "eta": eta}, flint_step=flint_step)


__all__ = ["ho_kashyap", "ho_kashyap_mod1", "ho_kashyap_mod2", "gordan_from_error"]
