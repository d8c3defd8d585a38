"""Fast exact paths of seed 003's relaxation rules (Algorithms 8 and 9) and balanced Winnow (Algorithm 7):
the same iterations as the readable Fraction loops of :mod:`~exactlin.algorithms.relaxation` and
:mod:`~exactlin.algorithms.winnow`, on integers and python-flint, with identical Runs (issue 14, item 2).

Each function here returns the same result record as the reference loop
(:func:`~exactlin.algorithms._loop.cyclic_single_sample` /
:func:`~exactlin.algorithms.perceptron_family.batch_loop`) and records the same trace, lazily
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
(:func:`_reduce_with_bits`).  The notes' identity a'^t z_i - b = (1 - eta)(a^t z_i - b) is checked at every
update in integers: (b_q t' - b_p D' L) e_q D = (e_q - e_p)(b_q t - b_p D L) D'.  The bit length of entry j is
that of the reduced fraction v_j / D, i.e. of v_j / g_j and D / g_j with g_j = gcd(v_j, D): the reference's
max_bits exactly.  :func:`_reduce_with_bits` finds the g_j and the common factor without a gcd of two long
numbers in the usual case: their part on the primes below 200 from short gcds, their part on larger primes
(which all divide a known short number R: those of N_i, b_q, e_q and the start's denominator) from residues
mod R.

**Batch relaxation (Algorithm 8): integers over one denominator, products on python-flint.**  a = v / D as
above; the scores of all samples are one ``fmpz_mat`` product t = Z' v, the iteration's correction one
product Z'^t u (:func:`relaxation_batch_loop`): the same sum as the reference's, as a reduced fraction.  The
in-iteration bit check after every 64 corrections is the same partial sum, Z'^t u with u cut after the first
64 m samples of Y_k.

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

import flint

from exactlin.algorithms._fast import integer_scaling
from exactlin.algorithms._loop import TRACE_STEP_LIMIT, CycleDetector, LoopResult, Tracer, batch_step_limit
from exactlin.errors import InvariantViolation
from exactlin.model.run import LazySteps

__all__ = ["ENABLED", "relaxation_single_loop", "relaxation_batch_loop", "winnow_loop"]

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


#: the product of the primes below 200
_SMALL_PRIMES = math.prod(p for p in range(2, 200) if all(p % q for q in range(2, int(p ** 0.5) + 1)))


def _smooth_gcd(x: int, D: int, Ds: int) -> int:
    """The part of gcd(x, D) made of primes below 200 (``Ds`` = gcd(D, their product)): each round divides
    x and D by the small primes they still share; only divisions of a long number by a short one."""
    l = 1
    t = math.gcd(x, Ds)
    while t > 1:
        l *= t
        x //= t
        D //= t
        t = math.gcd(math.gcd(x, t), D)
    return l


def _nonsmooth(x: int) -> int:
    """x without its prime factors below 200."""
    x = abs(x)
    g = math.gcd(x, _SMALL_PRIMES)
    while g > 1:
        x //= g
        g = math.gcd(x, g)
    return x


def _reduce_with_bits(v: list[int], D: int, R: int, current: int):
    """(v / G, D / G, bits) with G = gcd(D, v_1, ..., v_d) (lowest terms) and bits = max(current, the largest
    bit length of an entry v_j / D in lowest terms), exact whenever it exceeds ``current``.

    ``R`` is a positive integer divisible by every prime >= 200 that divides D.  For each entry,
    g_j = gcd(v_j, D) is its part on the primes below 200 (:func:`_smooth_gcd`, exact) times its part on
    larger primes, which all divide R: when gcd(v_j mod R, R) = 1 that part is 1 and g_j is known exactly with
    no gcd of two long numbers; otherwise the bound from the small part is used and the exact gcd computed
    only if that entry can still give the maximum.  The small part of G is the gcd of the entries' small
    parts; its large part is 1 as soon as one entry's is."""
    Ds = math.gcd(D, _SMALL_PRIMES)
    if Ds > 1:
        # T = the part of D on the primes below 200, each to at most the 8th power: gcd(v_j, T) is the small part
        # of g_j unless it holds a prime to the 8th power (then T may have cut it: computed in full)
        D7 = Ds ** 7
        T = math.gcd(D, D7 * Ds)
        lo = []
        for x in v:
            l = math.gcd(x, T)
            if math.gcd(l // math.gcd(l, D7), Ds) > 1:  # a prime to the 8th power: T may have cut it
                l = _smooth_gcd(x, D, Ds)
            lo.append(l)
    else:
        lo = [1] * len(v)
    # the bit length of entry j does not depend on the representation: it is computed before dividing by G
    cand = sorted(((max((abs(x) // l).bit_length(), (D // l).bit_length()), j) for j, (x, l) in enumerate(zip(v, lo))),
                  reverse=True)

    def known(j):  # no prime >= 200 divides both v_j and D: g_j = lo_j
        return R == 1 or math.gcd(v[j] % R, R) == 1

    best = current
    some_known = False
    for ub, j in cand:
        if ub <= best:
            break
        if known(j):
            best, some_known = ub, True
            break
        g = math.gcd(v[j], D)
        best = max(best, (abs(v[j]) // g).bit_length(), (D // g).bit_length())
    if not some_known:
        some_known = any(known(j) for _, j in cand)
    # G's part on primes >= 200 divides that of every g_j, so it is 1 when one entry's is
    G = math.gcd(*lo) if some_known else math.gcd(D, *v)
    if G != 1:
        v = [x // G for x in v]
        D //= G
    return v, D, best


def _frac_bits(v: list[int], D: int, current: int) -> int:
    """max(current, the largest bit length of an entry v_j / D in lowest terms): exact whenever that exceeds
    ``current`` (so the running maximum and the bit_limit stop are the reference's).

    Entry j in lowest terms is (v_j / g_j) / (D / g_j) with g_j = gcd(v_j, D).  Any divisor l_j of g_j gives
    the upper bound max(bits(v_j / l_j), bits(D / l_j)) (dividing by more can only shorten); l_j =
    the part of g_j made of primes below 200 (usually all of it) is cheap (:func:`_smooth_gcd`).  The exact g_j is
    computed only for entries whose bound exceeds the best value found so far (largest bound first), so
    usually once."""
    dbits = D.bit_length()
    if max(dbits, max(abs(x) for x in v).bit_length() if v else 0) <= current:
        return current
    Ds = math.gcd(D, _SMALL_PRIMES)
    cand = []
    for x in v:
        lo = _smooth_gcd(x, D, Ds) if Ds > 1 else 1
        cand.append((max((abs(x) // lo).bit_length(), (D // lo).bit_length()), x))
    cand.sort(key=lambda c: c[0], reverse=True)
    best = current
    for ub, x in cand:
        if ub <= best:
            break
        g = math.gcd(x, D)
        b = max((abs(x) // g).bit_length(), (D // g).bit_length())
        if b > best:
            best = b
    return best


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
    max_bits = _frac_bits(v, D, 0)
    # divisible by every prime >= 200 of D (those of D(1), b_q, the N_i and the e_q seen): _reduce_with_bits
    R = math.lcm(_nonsmooth(D), _nonsmooth(bq), *(_nonsmooth(x) for x in set(N)))
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
                bits = _frac_bits(S, den, 0)
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
            R = math.lcm(R, _nonsmooth(eq))
        v_new, D_new, bits = _reduce(v_new, D_new, R, max_bits)
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
