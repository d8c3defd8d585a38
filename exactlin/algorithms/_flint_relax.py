"""The fast exact path of seed 003's batch relaxation (Algorithm 8): the same iterations as the readable Fraction
loop of :mod:`~exactlin.algorithms.relaxation`, on integers over one denominator with the products on python-flint,
with identical Runs (issue 14, item 2).  Single-sample relaxation (Algorithm 9) and balanced Winnow (Algorithm 7)
run on the engine's cyclic loop (:mod:`exactlin.engine.reduced`, :mod:`exactlin.engine.powers`); this module
keeps the batch rule until it moves to the engine's batch loop.

:func:`relaxation_batch_loop` returns the same result record as the reference loop
(:func:`~exactlin.algorithms.perceptron_family.batch_loop`) and records the same trace, lazily
(:class:`~exactlin.model.run.LazySteps`).  Set :data:`ENABLED` to False to send a batch run through the reference
loop.

**Integers over one denominator** (:mod:`exactlin.engine.reduced` proves the representation and its smooth-gcd
reduction): a = v / D in lowest terms over the integer samples Z' = L z; the scores of all samples are one
``fmpz_mat`` product t = Z' v, the iteration's correction one product Z'^t u: the same sum as the reference's, as
a reduced fraction.  The in-iteration bit check after every 64 corrections is the same partial sum, Z'^t u with u
cut after the first 64 m samples of Y_k.
"""

from __future__ import annotations

import math
from fractions import Fraction

import flint

from exactlin.algorithms._fast import integer_scaling
from exactlin.algorithms._loop import TRACE_STEP_LIMIT, CycleDetector, Tracer, batch_step_limit
from exactlin.engine.reduced import frac_bits, nonsmooth, reduce_with_bits
from exactlin.errors import InvariantViolation
from exactlin.model.run import LazySteps

__all__ = ["ENABLED", "relaxation_batch_loop"]

#: set to False to send a batch run through the reference Fraction loop (tests compare the two)
ENABLED = True

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
# batch relaxation


def relaxation_batch_loop(Z, a1: tuple, b: Fraction, eta_at, bounds, tracer: Tracer, *, stationary: bool,
                          stop_on_cycle: bool = True):
    """Algorithm 8 (``batch_loop`` with relaxation.py's correction, its single-sample identity checks
    included) in integers over one denominator, the products with the samples on python-flint ``fmpz_mat``;
    ``eta_at(k)`` is eta(k), range-checked by the caller's function.  Returns the reference's BatchResult,
    or None when switched off.

    With the notation of the module docstring (a = v / D, t = Z' v, r_i = b_p D L - b_q t_i > 0 on Y_k) the
    iteration's correction is sum_{i in Y_k} c_i z_i with c_i = e_p r_i L / (e_q b_q D N_i), i.e.
    e_p S / (e_q b_q D M) with M = lcm of the N_i on Y_k and S = Z'^t u, u_i = r_i M / N_i (0 off Y_k):
    a(k+1) = (v e_q b_q M + e_p S) / (D e_q b_q M), brought to lowest terms by one gcd."""
    if not ENABLED:
        return None
    from exactlin.algorithms.perceptron_family import BatchResult

    n = len(Z)
    L, Zi = _int_rows(Z)
    d = len(Zi[0])
    Zm = flint.fmpz_mat(n, d, [x for r in Zi for x in r])
    ZmT = Zm.transpose()
    N = [sum(x * x for x in r) for r in Zi]
    bp, bq = b.numerator, b.denominator
    a1 = [Fraction(x) for x in a1]
    D = math.lcm(*(x.denominator for x in a1))
    v = [x.numerator * (D // x.denominator) for x in a1]
    cycles = CycleDetector((tuple(v), D)) if stationary else None
    history: list = []
    updates = 0
    last = 0
    lam = found = found_at = None
    max_bits = frac_bits(v, D, 0)
    # divisible by every prime >= 200 of D (those of D(1), b_q, the N_i and the e_q seen): _reduce_with_bits
    R = math.lcm(nonsmooth(D), nonsmooth(bq), *(nonsmooth(x) for x in set(N)))
    r_seen: set = set()
    limit = bounds.max_steps = batch_step_limit(bounds.max_steps, n)
    ticking = bounds.progress is not None
    rec_limit = _record_limit(tracer)
    records: list = []
    pending: list = []
    added = [0]

    def scores(v):
        return [int(x) for x in (Zm * flint.fmpz_mat(d, 1, v)).entries()]

    def check_pending(t_now, D_now, k):
        """The identity of iteration k - 1's single correction, on a(k) = v / D_now with t_now = <Z'_i, v>."""
        if pending:
            i, ep, eq, t, D0 = pending.pop()
            if (bq * t_now - bp * D_now * L) * eq * D0 != (eq - ep) * (bq * t - bp * D0 * L) * D_now:
                eta = Fraction(ep, eq)
                lhs, rhs = Fraction(t_now, D_now * L) - b, (1 - eta) * (Fraction(t, D0 * L) - b)
                raise InvariantViolation(f"relaxation identity fails at iteration {k - 1} (sample {i + 1}): "
                                         f"a^t(k+1)y - b = {lhs} but (1 - eta)(a^t(k)y - b) = {rhs}")

    def result(converged, reason, k):
        if pending:  # the identity of the last update, as the reference checks it after its loop
            i = pending[-1][0]
            check_pending(sum(x * y for x, y in zip(Zi[i], v)), D, k + 1)
        _finish_trace(tracer, added[0], records, lambda: _build_batch(records, b, N, L, d, tracer.mode))
        return BatchResult(tuple(Fraction(x, D) for x in v), converged, reason, k, updates, history, lam, found,
                           max_bits, last, found_at)

    for k in range(1, bounds.max_epochs + 1):
        if k > limit:
            return result(False, "max_steps", k - 1)
        if ticking and k > 1:
            bounds.tick(k - 1, updates, max_bits, work=n)
        t = scores(v)
        if pending:
            check_pending(t[pending[-1][0]], D, k)
        BDL = bp * D * L
        Yk = [i for i in range(n) if t[i] * bq < BDL]
        if not Yk:
            added[0] += 1
            if added[0] <= rec_limit:
                records.append((k, (), False, (v, D), None, None, (), D, None))
            return result(True, "converged", k)
        eta = Fraction(eta_at(k))
        ep, eq = eta.numerator, eta.denominator
        if len(Yk) == 1:
            pending.append((Yk[0], ep, eq, t[Yk[0]], D))
        r = [BDL - bq * t[i] for i in Yk]
        M = math.lcm(*(N[i] for i in Yk))
        den = eq * bq * D * M  # the increment is e_p S / den
        if bounds.max_bits is not None and len(Yk) >= 64:
            for m in range(64, len(Yk) + 1, 64):
                u = [0] * n
                for i, ri in zip(Yk[:m], r[:m]):
                    u[i] = ri * (M // N[i])
                S = [ep * int(x) for x in (ZmT * flint.fmpz_mat(n, 1, u)).entries()]
                bits = frac_bits(S, den, 0)
                if bits > bounds.max_bits:
                    max_bits = max(bits, max_bits)
                    return result(False, "bit_limit", k - 1)
        u = [0] * n
        for i, ri in zip(Yk, r):
            u[i] = ri * (M // N[i])
        S = [ep * int(x) for x in (ZmT * flint.fmpz_mat(n, 1, u)).entries()]
        m_ = eq * bq * M
        v_new = [x * m_ + y for x, y in zip(v, S)]
        D_new = D * m_
        if eq not in r_seen:
            r_seen.add(eq)
            R = math.lcm(R, nonsmooth(eq))
        v_new, D_new, bits = reduce_with_bits(v_new, D_new, R, max_bits)
        history.append((Yk, [(ep * ri * L, eq * bq * D * N[i]) for i, ri in zip(Yk, r)]))
        changed = D_new != D or v_new != v
        updates += changed
        if changed:
            last = k
        added[0] += 1
        if added[0] <= rec_limit:
            records.append((k, Yk, changed, (v, D), (v_new, D_new), (S, den), r, D, eta))
        v, D = v_new, D_new
        if bits > max_bits:
            max_bits = bits
            if bounds.max_bits is not None and bits > bounds.max_bits:
                return result(False, "bit_limit", k)
        period = cycles.observe((tuple(v), D)) if cycles is not None else None
        if period is not None:
            first = k - period
            weight = [Fraction(0)] * n
            for Ys, cs in history[first:]:
                for j, c in zip(Ys, cs):
                    weight[j] += Fraction(*c)
            total = sum(weight)
            lam = tuple(w / total for w in weight)
            found, found_at = list(range(first + 1, k + 1)), k
            cycles = None
            if stop_on_cycle:
                return result(False, "cycle", k)
        if bounds.max_updates is not None and updates >= bounds.max_updates:
            return result(False, "max_updates", k)
        if bounds.max_seconds is not None and bounds.out_of_time():
            return result(False, "time_limit", k)
    if bounds.max_epochs >= limit:
        return result(False, "max_steps", limit)
    return result(False, "max_epochs", bounds.max_epochs)


def _build_batch(records, b, N, L, d, mode) -> list:
    tracer = Tracer(mode, d)
    bq2 = b.denominator ** 2
    for k, Yk, changed, before, after, inc, r, D, eta in records:
        J = sum((Fraction(ri * ri, bq2 * D * D * N[i]) for i, ri in zip(Yk, r)), Fraction(0)) / 2
        wa = tuple(Fraction(x, before[1]) for x in before[0])
        if after is None:
            tracer.add(k, k, None, 0, False, wa, wa, Y=[], J_r=J)
        else:
            wb = tuple(Fraction(x, after[1]) for x in after[0])
            tracer.add(k, k, None, len(Yk), changed, wa, wb, Y=list(Yk),
                       increment=tuple(Fraction(x, inc[1]) for x in inc[0]), J_r=J, eta=eta)
    return tracer.steps
