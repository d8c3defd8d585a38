"""Fast exact paths of seed 003's relaxation rules (Algorithms 8 and 9) and balanced Winnow (Algorithm 7):
the same iterations as the readable Fraction loops of :mod:`~exactlin.algorithms.relaxation` and
:mod:`~exactlin.algorithms.winnow`, on integers and python-flint, with identical Runs (issue 14, item 2).

Each function here returns the same result record as the reference loop
(:func:`~exactlin.algorithms._loop.cyclic_single_sample`) and records the same trace, lazily
(:class:`~exactlin.model.run.LazySteps`: compact integer records while it runs, the Fraction Steps built
through a fresh :class:`~exactlin.algorithms._loop.Tracer` the first time the trace is read).  Set
:data:`ENABLED` to False to send every run through the reference loops (the tests compare the two).

**Single-sample relaxation (Algorithm 9): integers over one denominator.**  Let L be the least positive
integer with L z_i integer for every normalized sample, Z'_i = L z_i and N_i = ||Z'_i||^2 (integers; N_i > 0,
a zero sample is refused before).  The iterate is a = v / D with v an integer vector and D > 0, kept in lowest
terms (gcd(D, v_1, ..., v_d) = 1, so (v, D) is unique for a: the cycle detection sees the same repeats).
With b = b_p / b_q and t = <Z'_i, v> (an integer), a^t z_i = t / (D L), so the test
a^t z_i < b is  b_q t < b_p D L  (D L b_q > 0): the same samples are corrected.  With eta = e_p / e_q and
r = b_p D L - b_q t, the update a + eta (b - a^t z_i) / ||z_i||^2 z_i is

    a' = (v e_q b_q N_i + e_p r Z'_i) / (D e_q b_q N_i),     coefficient c = e_p r L / (e_q b_q D N_i),

by substituting ||z_i||^2 = N_i / L^2 and z_i = Z'_i / L: integers only, then brought to lowest terms
(:func:`exactlin.engine.arith_relax.reduce_with_bits`). The notes' identity a'^t z_i - b = (1 - eta)(a^t z_i - b)
is checked at every update in integers: (b_q t' - b_p D' L) e_q D = (e_q - e_p)(b_q t - b_p D L) D'. The bit length
of entry j is that of the reduced fraction v_j / D, i.e. of v_j / g_j and D / g_j with g_j = gcd(v_j, D): the
reference's max_bits exactly. :func:`~exactlin.engine.arith_relax.reduce_with_bits` finds the g_j and the common
factor without a gcd of two long numbers in the usual case: their part on the primes below 200 from short gcds,
their part on larger primes (which all divide a known short number R: those of N_i, b_q, e_q and the start's
denominator) from residues mod R.

Batch relaxation (Algorithm 8) is a rule of the one batch loop (:mod:`exactlin.engine.batch`) on the same
representation (:mod:`exactlin.engine.arith_relax`, which holds the reduction below).

**Balanced Winnow (Algorithm 7): integer exponents.**  When every augmented sample has integer entries (else
the reference runs), every factor alpha^{+-y_{k,i}} is an integer power of alpha = p / q (lowest terms,
p > q >= 1), so each weight is a_j = s_j alpha^{e_j} with s_j its start value and e_j an integer: an update
adds z_k y_k to the exponents of a+ and subtracts it from those of a-.  With s_j = u_j / w_j, W the lcm of
the w_j, E = min e and M = max e, the integers T_j = u_j (W / w_j) p^{e_j - E} q^{M - e_j} satisfy
a_j = T_j p^E / (W q^M), a positive common factor, so sign(a+^t y - a-^t y) = sign(sum_j y_j (T+_j - T-_j)):
the same mistakes.  alpha > 1 makes e -> a one-to-one, so the exponent vectors repeat exactly when the
weights do.  With every s_j = 1, a_j = p^e / q^e (or q^{-e} / p^{-e}) in lowest terms (p, q coprime), whose
bit length is that of p^{|e|}; otherwise each entry's reduced bit length is computed exactly.
"""

from __future__ import annotations

import math
from fractions import Fraction

from exactlin.algorithms._fast import integer_scaling
from exactlin.algorithms._loop import TRACE_STEP_LIMIT, CycleDetector, LoopResult, Tracer
from exactlin.engine.arith_relax import frac_bits as _frac_bits
from exactlin.engine.arith_relax import nonsmooth as _nonsmooth
from exactlin.engine.arith_relax import reduce_with_bits as _reduce_with_bits
from exactlin.errors import InvariantViolation
from exactlin.model.run import LazySteps

__all__ = ["ENABLED", "relaxation_single_loop", "winnow_loop"]

#: set to False to send every run through the reference Fraction loops (tests compare the two)
ENABLED = True

_reduce = None  # set below to _reduce_with_bits (a module name, so that a test can break it)


def _int_rows(Z) -> list[list[int]]:
    """(L, Z' = L Z as lists of Python ints)."""
    d = Z.shape[1] if hasattr(Z, "shape") else len(Z[0])
    L, Zi, _ = integer_scaling(Z, [0] * d, Fraction(1))
    rows = Zi.tolist() if hasattr(Zi, "tolist") else [list(r) for r in Zi]
    return L, [[int(x) for x in r] for r in rows]


def _record_limit(tracer: Tracer) -> float:
    if tracer.mode is False:
        return 0
    return TRACE_STEP_LIMIT if tracer.mode is None else math.inf


def _finish_trace(tracer: Tracer, k: int, records: list, build) -> None:
    """Hand the tracer the lazily built steps (the reference's policy: the first TRACE_STEP_LIMIT steps by
    default, every step with trace=True, none with trace=False)."""
    if tracer.mode is None and k > TRACE_STEP_LIMIT:
        tracer.complete = False
    if tracer.mode is not False:
        tracer.steps = LazySteps(len(records), build)


# ---------------------------------------------------------------------------------------------------------
# single-sample relaxation


def relaxation_single_loop(Z, a1: tuple, b: Fraction, eta_at, bounds, tracer: Tracer, *, stationary: bool,
                           stop_on_cycle: bool = True):
    """Algorithm 9's cyclic pass (the test a^t z_i < b, the update a + eta (b - a^t z_i)/||z_i||^2 z_i) in
    integers; ``eta_at(k)`` is eta at round k (range-checked by the caller's function).  Returns
    ``(LoopResult, coefficients, update_rounds)`` (the coefficient of every update as a Fraction, built on
    demand, and the round of every update), or None when switched off.  The reference is
    ``cyclic_single_sample`` with relaxation.py's test and update; the result is identical (module
    docstring)."""
    if not ENABLED:
        return None
    n = len(Z)
    L, Zi = _int_rows(Z)
    d = len(Zi[0])
    N = [sum(x * x for x in r) for r in Zi]
    b = Fraction(b)
    bp, bq = b.numerator, b.denominator
    a1 = [Fraction(x) for x in a1]
    D = math.lcm(*(x.denominator for x in a1)) if a1 else 1
    v = [x.numerator * (D // x.denominator) for x in a1]
    BDL = bp * D * L
    k = 0
    updates = 0
    last = 0
    clean = 0
    update_indices: list[int] = []
    update_rounds: list[int] = []
    raw_coefs: list[tuple[int, int]] = []
    cycles = CycleDetector(((tuple(v), D), 0)) if stationary else None
    found = found_at = None
    max_bits = _frac_bits(v, D, 0)
    R = math.lcm(_nonsmooth(D), _nonsmooth(bq), *(_nonsmooth(x) for x in set(N)))
    r_seen: set = set()
    max_steps = bounds.max_steps
    ticking = bounds.progress is not None
    timed = bounds.max_seconds is not None
    limit = _record_limit(tracer)
    records: list = []  # (k, i, t, D, update, (v after, D after) or None)
    start = (tuple(v), D)

    def result(converged, reason, epochs):
        _finish_trace(tracer, k, records, lambda: _build_single(records, start, raw_coefs, L, n, d, tracer.mode))
        w = tuple(Fraction(x, D) for x in v)
        return LoopResult(w, converged, reason, updates, epochs, k, update_indices, found, max_bits, last, found_at)

    while True:
        epoch = k // n + 1
        if epoch > bounds.max_epochs:
            return (result(False, "max_epochs", bounds.max_epochs), raw_coefs, update_rounds)
        if max_steps is not None and k >= max_steps:
            return (result(False, "max_steps", (k - 1) // n + 1), raw_coefs, update_rounds)
        if ticking and k:
            bounds.tick(k, updates, max_bits)
        i = k % n
        k += 1
        zi = Zi[i]
        t = sum(x * y for x, y in zip(zi, v))
        if t * bq < BDL:
            eta = Fraction(eta_at(k))
            ep, eq = eta.numerator, eta.denominator
            r = BDL - bq * t
            m = eq * bq * N[i]
            f = ep * r
            v_new = [x * m + f * y for x, y in zip(v, zi)]
            D_new = D * m
            if eq not in r_seen:  # R: divisible by every prime >= 200 of D (those of D(1), b_q, e_q, N_i)
                r_seen.add(eq)
                R = math.lcm(R, _nonsmooth(eq))
            v_new, D_new, bits = _reduce(v_new, D_new, R, max_bits)
            t_new = sum(x * y for x, y in zip(zi, v_new))
            if (bq * t_new - bp * D_new * L) * eq * D != (eq - ep) * (bq * t - BDL) * D_new:
                lhs, rhs = Fraction(t_new, D_new * L) - b, (1 - eta) * (Fraction(t, D * L) - b)
                raise InvariantViolation(f"relaxation identity fails at step {k} (sample {i + 1}): "
                                         f"a^t(k+1)y - b = {lhs} but (1 - eta)(a^t(k)y - b) = {rhs}")
            raw_coefs.append((f * L, m * D))
            updates += 1
            last = k
            update_indices.append(i)
            update_rounds.append(k)
            if k <= limit:
                records.append((k, i, t, D, True, (tuple(v_new), D_new)))
            v, D = v_new, D_new
            BDL = bp * D * L
            clean = 0
            if bits > max_bits:
                max_bits = bits
                if bounds.max_bits is not None and bits > bounds.max_bits:
                    return (result(False, "bit_limit", epoch), raw_coefs, update_rounds)
            if cycles is not None:
                period = cycles.observe(((tuple(v), D), k % n))
                if period is not None:
                    found, found_at = update_indices[-period:], k
                    if stop_on_cycle:
                        return (result(False, "cycle", epoch), raw_coefs, update_rounds)
                    cycles = None
            if bounds.max_updates is not None and updates >= bounds.max_updates:
                return (result(False, "max_updates", epoch), raw_coefs, update_rounds)
        else:
            if k <= limit:
                records.append((k, i, t, D, False, None))
            clean += 1
            if clean >= n:
                return (result(True, "converged", (k - 1) // n + 1), raw_coefs, update_rounds)
        if timed and bounds.out_of_time():
            return (result(False, "time_limit", epoch), raw_coefs, update_rounds)


def coefficient(raw: tuple[int, int]) -> Fraction:
    return Fraction(*raw)


def _build_single(records, start, raw_coefs, L, n, d, mode) -> list:
    tracer = Tracer(mode, d)
    v0, D0 = start
    w = tuple(Fraction(x, D0) for x in v0)
    u = 0
    for k, i, t, D, upd, after in records:
        score = Fraction(t, D * L)
        if upd:
            w_new = tuple(Fraction(x, after[1]) for x in after[0])
            tracer.add(k, (k - 1) // n + 1, i, score, True, w, w_new, coefficient=coefficient(raw_coefs[u]))
            u += 1
            w = w_new
        else:
            tracer.add(k, (k - 1) // n + 1, i, score, False, w, w)
    return tracer.steps


# ---------------------------------------------------------------------------------------------------------
# balanced Winnow


def _integer_rows(Y):
    """Y as lists of Python ints, or None when an entry is not an integer."""
    if hasattr(Y, "den") and hasattr(Y, "num"):
        if Y.den != 1:
            return None
        return [[int(x) for x in r] for r in Y.num.tolist()]
    rows = []
    for r in Y:
        row = []
        for x in r:
            x = Fraction(x)
            if x.denominator != 1:
                return None
            row.append(x.numerator)
        rows.append(row)
    return rows


def winnow_loop(Y, z, alpha: Fraction, start: tuple, bounds, tracer: Tracer, *, stop_on_cycle: bool = True):
    """Balanced Winnow's cyclic pass on integer exponents (module docstring); ``start`` is (a+ ; a-).
    Returns the reference's LoopResult (state (a+ ; a-)), or None when switched off or a sample is not an
    integer vector (the reference runs)."""
    if not ENABLED:
        return None
    Yi = _integer_rows(Y)
    if Yi is None:
        return None
    n = len(Yi)
    d = len(Yi[0])
    alpha = Fraction(alpha)
    p, q = alpha.numerator, alpha.denominator
    s = [Fraction(x) for x in start]
    W = math.lcm(*(x.denominator for x in s))
    S = [x.numerator * (W // x.denominator) for x in s]
    unit = all(x == 1 for x in s)
    p_pow2 = p & (p - 1) == 0 and q == 1
    pbits_cache: dict[int, int] = {}
    z = list(z)
    e = [0] * (2 * d)

    def weights():
        lo, hi = min(e), max(e)
        if p_pow2 and q == 1:
            sh = p.bit_length() - 1
            T = [u << (sh * (x - lo)) for u, x in zip(S, e)]
        else:
            T = [u * p ** (x - lo) * q ** (hi - x) for u, x in zip(S, e)]
        return [T[j] - T[d + j] for j in range(d)], lo, hi

    def bits_now() -> int:
        if unit:
            m = max(abs(x) for x in e)
            if p_pow2:
                return m * (p.bit_length() - 1) + 1
            b = pbits_cache.get(m)
            if b is None:
                b = pbits_cache[m] = (p ** m).bit_length()
            return b
        out = 0
        for sj, x in zip(s, e):
            f = sj * alpha ** x
            out = max(out, abs(f.numerator).bit_length(), f.denominator.bit_length())
        return out

    diff, lo, hi = weights()
    k = 0
    updates = 0
    last = 0
    clean = 0
    update_indices: list[int] = []
    cycles = CycleDetector((tuple(e), 0))
    found = found_at = None
    max_bits = bits_now()
    max_steps = bounds.max_steps
    ticking = bounds.progress is not None
    timed = bounds.max_seconds is not None
    limit = _record_limit(tracer)
    records: list = []  # (k, i, integer score, lo, hi, exponents after an update or None)

    def state(ex) -> tuple:
        return tuple(sj * alpha ** x for sj, x in zip(s, ex))

    def result(converged, reason, epochs):
        _finish_trace(tracer, k, records, lambda: _build_winnow(records, state, p, q, W, n, 2 * d, tracer.mode))
        return LoopResult(state(e), converged, reason, updates, epochs, k, update_indices, found, max_bits, last,
                          found_at)

    while True:
        epoch = k // n + 1
        if epoch > bounds.max_epochs:
            return result(False, "max_epochs", bounds.max_epochs)
        if max_steps is not None and k >= max_steps:
            return result(False, "max_steps", (k - 1) // n + 1)
        if ticking and k:
            bounds.tick(k, updates, max_bits)
        i = k % n
        k += 1
        yi = Yi[i]
        t = sum(x * y for x, y in zip(yi, diff))
        sign = (t > 0) - (t < 0)
        if sign != z[i]:
            zk = z[i]
            for j, x in enumerate(yi):
                if x:
                    e[j] += zk * x
                    e[d + j] -= zk * x
            diff, lo_new, hi_new = weights()
            updates += 1
            last = k
            update_indices.append(i)
            if k <= limit:
                records.append((k, i, t, lo, hi, tuple(e)))
            lo, hi = lo_new, hi_new
            clean = 0
            bits = bits_now()
            if bits > max_bits:
                max_bits = bits
                if bounds.max_bits is not None and bits > bounds.max_bits:
                    return result(False, "bit_limit", epoch)
            if cycles is not None:
                period = cycles.observe((tuple(e), k % n))
                if period is not None:
                    found, found_at = update_indices[-period:], k
                    if stop_on_cycle:
                        return result(False, "cycle", epoch)
                    cycles = None
            if bounds.max_updates is not None and updates >= bounds.max_updates:
                return result(False, "max_updates", epoch)
        else:
            if k <= limit:
                records.append((k, i, t, lo, hi, None))
            clean += 1
            if clean >= n:
                return result(True, "converged", (k - 1) // n + 1)
        if timed and bounds.out_of_time():
            return result(False, "time_limit", epoch)


def _build_winnow(records, state, p, q, W, n, dd, mode) -> list:
    tracer = Tracer(mode, dd)
    w = state([0] * dd)
    for k, i, t, lo, hi, after in records:
        # the score a+^t y - a-^t y = t p^lo / (W q^hi)
        num, den = t * p ** max(lo, 0), W * q ** hi * p ** max(-lo, 0)
        score = Fraction(num, den)
        if after is not None:
            w_new = state(after)
            tracer.add(k, (k - 1) // n + 1, i, score, True, w, w_new)
            w = w_new
        else:
            tracer.add(k, (k - 1) // n + 1, i, score, False, w, w)
    return tracer.steps



_reduce = _reduce_with_bits
