"""The batch perceptron (seed 003's Algorithm 3, constant eta) and batch PLA (seed 001) in integer arithmetic.

The readable reference is :func:`exactlin.algorithms.perceptron_family.batch_loop` with the Fraction corrections
of ``batch_perceptron`` and ``batch_pla``.  :func:`batch_kernel` returns the *same*
:class:`~exactlin.algorithms.perceptron_family.BatchResult` (a, converged, reason, iterations, updates, history,
certificate, cycle, max_bits, last_update, cycle_step) and records the same trace.  Why that is exact:

**1. The rule, one form for both.**  On the normalized samples z_i, with a constant coefficient c > 0
(c = eta for Algorithm 3, c = alpha / N for batch PLA), iteration k is

    Y_k = {j : <a(k), z_j> <= 0},    a(k+1) = a(k) + c S_k,   S_k = sum_{j in Y_k} z_j   (in index order).

Batch PLA's test sign(<w, x~_j>) != y_j is the same set: z_j = y_j x~_j with y_j in {+1, -1}, so
y_j <w, x~_j> = <w, z_j>, and sign(<w, x~_j>) = y_j iff <w, z_j> > 0 (sign 0 is never a label).

**2. Scaling to integers** (as :mod:`._fast`, point 1, with eta replaced by c).  L is the least positive
integer with L z_ij and L a(1)_j / c integers; Z' = L z and v(k) = (L / c) a(k) are integer, since
v(k+1) = v(k) + S'_k with S'_k = sum_{j in Y_k} Z'_j = L S_k.  The test has the same sign,
<a, z_j> = (c / L^2) <v, Z'_j>, so the kernel corrects the same Y_k; a = (c / L) v recovers the exact
iterate, the increment is c S_k = (c / L) S'_k, J_p(a(k)) = -sum_{Y_k} <a, z_j> = -(c / L^2) <v(k), S'_k>,
and v -> a is a bijection, so the first exact repeat of a (the cycle detection) is the first repeat of v.

**3. The criteria, in integers.**  Algorithm 3's ||c S_k||^2 < theta^2 is ||S'_k||^2 < theta^2 L^2 / c^2 =: T,
and for the integer ||S'_k||^2 that is ||S'_k||^2 < ceil(T); batch PLA's ||Delta||^2 <= epsilon^2, i.e.
||c S_k||^2 <= epsilon^2 alpha^2 (as the reference compares), is ||S'_k||^2 <= floor(T) with
T = epsilon^2 alpha^2 L^2 / c^2.  ||S'_k||^2 is summed in Python integers (d terms).

**4. Which machine integers are exact** (checked every iteration; m_Z = max |Z'_ij|, m_v = max |v_j| exactly,
n_k = |Y_k|):

* scores <v, Z'_j>: float64 (BLAS) while d m_Z m_v < 2^53 (every product and partial sum is an integer of
  magnitude <= d m_Z m_v, a float64 number, so no rounding happens in any order), int64 while d m_Z m_v < 2^62,
  else Python integers (numpy object arrays);
* the batch sum S'_k (the checked bound |S'_kj| <= n_k m_Z, and so is every partial sum: the terms not in Y_k
  are exactly 0): float64 (a 0/1 row vector times Z') while n_k m_Z < 2^53, int64 sums while n_k m_Z < 2^62,
  else Python integers;
* v(k+1) = v(k) + S'_k in int64 while m_v + max |S'_kj| < 2^62, else the weights become Python integers.

**5. Bounds, in the reference's order.**  max_steps (the batch budget, set on ``bounds`` as the reference
does), the progress ticks, the empty Y_k (converged), the bit check of the partial increment every 64
corrections when ``max_bits`` is set (skipped only when its upper bound bitlen(max(c_num n_k m_Z, c_den L))
cannot exceed the limit: a reduced numerator of c S'/L divides c_num S', a reduced denominator divides
c_den L), the bits of a(k+1) (``_fast._Weights.bits_above``: the exact maximum), the cycle (with its Gordan
coefficients: lambda_j = (c count_j) / (c sum count) = count_j / sum count over one period), the criterion
(before the cycle's stop for Algorithm 3, ``criterion_first``), max_updates and max_seconds.

The trace: every iteration's step is recorded compactly (the indices of Y_k are the history's own list, the
weights int64/Python-integer arrays) and the :class:`~exactlin.algorithms._loop.Tracer`'s Step records are
built from them through a fresh Tracer on first read (so its policy of what is kept is its own);
``trace=True`` is left to the reference loop.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from exactlin.algorithms import _fast
from exactlin.algorithms._fast import _as_int64, _Weights, integer_scaling
from exactlin.algorithms._loop import TRACE_STEP_LIMIT, CycleDetector, Tracer, _bits, batch_step_limit
from exactlin.errors import ExactlinError
from exactlin.exact.rows import F64_EXACT, I64_HEADROOM
from exactlin.model.run import LazySteps

__all__ = ["batch_kernel", "replay_batch_monitor", "LAST_TIERS"]

#: blocks of work done in each tier by the last kernel run (for the tests and the benchmarks):
#: "scores:float64" etc. for the products Z' v, "sum:float64" etc. for the batch sums S'
LAST_TIERS: dict[str, int] = {}


def batch_kernel(Z, a1, c, bounds, tracer, *, criterion=None, info_eta=None, stop_on_cycle=True,
                 criterion_first=False, result_type):
    """The batch rule a <- a + c sum_{<a, z_j> <= 0} z_j on the normalized samples ``Z`` in integers.

    Same contract as ``batch_loop(Z, a1, correction, bounds, tracer, stationary=True, criterion=...,
    stop_on_cycle=..., criterion_first=...)`` with the correction Y_k = {j : <a, z_j> <= 0}, coefficients c.
    ``criterion`` is None or ``(op, T)``: stop when ||c S_k||^2 ``op`` T, op "<" (Algorithm 3's theta, T =
    theta^2) or "<=" (batch PLA's epsilon, T = epsilon^2 alpha^2).  ``info_eta`` (Algorithm 3): the trace's
    steps carry ``eta`` and ``J_p`` as the reference's correction reports them.  ``result_type`` builds the
    result (perceptron_family's BatchResult, passed in so that this module does not import its caller).
    Returns None where the reference must run (kernel switched off, ``trace=True``, c <= 0).  See the module
    docstring for why it is identical.
    """
    if not _fast.ENABLED or tracer.mode is True:
        return None
    c = Fraction(c)
    if c <= 0 or not len(Z):
        return None
    a1 = tuple(a1)
    L, Zl, v1 = integer_scaling(Z, a1, c)
    n = len(Zl)
    d = len(a1)
    Z64, m_Z = _as_int64(Zl)
    Zf = Z64.astype(np.float64) if Z64 is not None and m_Z < F64_EXACT else None
    Zobj = None
    W = _Weights(v1, c, L)
    v = W.v
    big = v.dtype == object
    tiers = LAST_TIERS
    tiers.clear()
    tiers.update({f"{w}:{t}": 0 for w in ("scores", "sum") for t in ("float64", "int64", "python")})
    cn, cd = c.numerator, c.denominator * L  # a = cn v / cd; increment c S / L = cn S' / cd
    # criterion threshold on the integer ||S'||^2 (module docstring, point 3)
    crit_op = crit_t = None
    if criterion is not None:
        crit_op, T = criterion
        T = Fraction(T) * L * L / (c * c)
        crit_t = math.ceil(T) if crit_op == "<" else math.floor(T)

    def crit(S2):  # only called when there is a criterion
        return S2 < crit_t if crit_op == "<" else S2 <= crit_t

    mode = tracer.mode  # None (a prefix) or False (nothing)
    records: list[tuple] = []
    adds = 0

    def obj_Z():
        nonlocal Zobj
        if Zobj is None:
            Zobj = np.array(Zl.tolist() if isinstance(Zl, np.ndarray) else Zl, dtype=object)
        return Zobj

    def key(vec):
        return tuple(vec.tolist()) if vec.dtype == object else vec.tobytes()

    cycles = CycleDetector(key(v))
    history: list = []
    updates = 0
    last = 0
    lam = found = found_at = None
    max_bits = _bits(a1)
    limit = bounds.max_steps = batch_step_limit(bounds.max_steps, n)
    ticking = bounds.progress is not None
    bits_bound = bounds.max_bits
    v_start = v

    def result(converged, reason, k):
        if mode is None:
            if adds > TRACE_STEP_LIMIT:
                tracer.complete = False
            tracer.steps = LazySteps(min(adds, TRACE_STEP_LIMIT),
                                     lambda: _build_trace(records, v_start, cn, cd, L, d, mode, info_eta))
        return result_type(W.fractions(), converged, reason, k, updates, history, lam, found, max_bits, last,
                           found_at)

    k = 0
    for k in range(1, bounds.max_epochs + 1):
        if k > limit:
            return result(False, "max_steps", k - 1)
        if ticking and k > 1:
            bounds.tick(k - 1, updates, max_bits, work=n)
        # the scores <v, Z'_j> (module docstring, point 4)
        m_v = W.exact_max()
        bound = d * m_Z * m_v
        if not big and Zf is not None and bound < F64_EXACT and m_v < F64_EXACT:
            s = Zf @ v.astype(np.float64)
            tiers["scores:float64"] += 1
        elif not big and Z64 is not None and bound < I64_HEADROOM:
            s = Z64 @ v
            tiers["scores:int64"] += 1
        else:
            s = obj_Z().dot(v if big else v.astype(object))
            tiers["scores:python"] += 1
        mask = s <= 0
        idx = np.flatnonzero(mask)
        nk = len(idx)
        if not nk:
            adds += 1
            if mode is None and adds <= TRACE_STEP_LIMIT:
                records.append((k, None, v, None))
            return result(True, "converged", k)
        # the batch sum S' (point 4)
        if Zf is not None and nk * m_Z < F64_EXACT:
            S = (mask.astype(np.float64) @ Zf).astype(np.int64)
            tiers["sum:float64"] += 1
        elif Z64 is not None and nk * m_Z < I64_HEADROOM:
            S = Z64[idx].sum(axis=0)
            tiers["sum:int64"] += 1
        else:
            S = obj_Z()[idx].sum(axis=0)
            if not isinstance(S, np.ndarray):  # pragma: no cover - numpy returns an array for a 2-d sum
                S = np.array(S, dtype=object)
            tiers["sum:python"] += 1
        if bits_bound is not None and nk >= 64:
            # the reference checks the bits of the partial increment after every 64 corrections (point 5)
            if max((cn * nk * m_Z).bit_length(), cd.bit_length()) > bits_bound:
                part = np.cumsum(obj_Z()[idx], axis=0)
                for m in range(64, nk + 1, 64):
                    b = _frac_bits(part[m - 1].tolist(), cn, cd)
                    if b > bits_bound:
                        max_bits = max(b, max_bits)
                        return result(False, "bit_limit", k - 1)
        Ylist = idx.tolist()
        history.append((Ylist, [c] * nk))
        changed = bool(S.any())
        updates += changed
        if changed:
            last = k
        v_before = v
        if changed:
            m_S = int(np.abs(S).max())
            if not big and (S.dtype == object or m_v + m_S >= I64_HEADROOM):
                big = True
                if cycles is not None:  # (after a cycle with stop_on_cycle=False the states only repeat)
                    cycles.remap(lambda st: tuple(np.frombuffer(st, dtype=np.int64).tolist()))
                v = v.astype(object)
            if big and S.dtype != object:
                S = S.astype(object)
            v = v + S
            W.v = v
        adds += 1
        if mode is None and adds <= TRACE_STEP_LIMIT:
            records.append((k, Ylist, v_before, S))
        S2 = None
        nb = W.bits_above(max_bits)
        if nb > max_bits:
            max_bits = nb
            if bits_bound is not None and nb > bits_bound:
                return result(False, "bit_limit", k)
        if cycles is not None:
            period = cycles.observe(key(v))
            if period is not None:
                first = k - period
                counts = np.bincount(np.concatenate([np.asarray(Ys, dtype=np.int64) for Ys, _ in history[first:]]),
                                     minlength=n).tolist()
                total = sum(counts)
                lam = tuple(Fraction(x, total) for x in counts)
                found, found_at = list(range(first + 1, k + 1)), k
                cycles = None
                if criterion_first and crit_op is not None:
                    S2 = _norm2(S)
                    if crit(S2):
                        return result(True, "criterion", k)
                if stop_on_cycle:
                    return result(False, "cycle", k)
        if crit_op is not None:
            if S2 is None:
                S2 = _norm2(S)
            if crit(S2):
                return result(True, "criterion", k)
        if bounds.max_updates is not None and updates >= bounds.max_updates:
            return result(False, "max_updates", k)
        if bounds.max_seconds is not None and bounds.out_of_time():
            return result(False, "time_limit", k)
    if bounds.max_epochs >= limit:
        return result(False, "max_steps", limit)
    return result(False, "max_epochs", bounds.max_epochs)


def _norm2(S) -> int:
    return sum(x * x for x in S.tolist())


def _frac_bits(vals, cn: int, cd: int) -> int:
    """``_loop._bits`` of the Fraction vector cn vals / cd (vals Python ints)."""
    out = 0
    for x in vals:
        num = cn * x
        g = math.gcd(num, cd)
        out = max(out, abs(num // g).bit_length(), (cd // g).bit_length())
    return out


def _build_trace(records, v_start, cn: int, cd: int, L: int, d: int, mode, info_eta) -> list:
    """The reference's Step records, from the kernel's compact ones, through a fresh Tracer: a = cn v / cd,
    the increment cn S' / cd, J_p = -(c / L^2) <v, S'> with c = cn / (cd / L)."""
    tracer = Tracer(mode, d)
    jp_den = cd * L  # c / L^2 = cn / (cd L)

    def frac(arr) -> tuple:
        return tuple(Fraction(cn * x, cd) for x in arr.tolist())

    for k, Ylist, v_before, S in records:
        keep = tracer.keep_vectors()
        a = frac(v_before) if keep else None
        if Ylist is None:
            info = {"J_p": Fraction(0)} if info_eta is not None else {}
            tracer.add(k, k, None, 0, False, a, a, Y=[], **info)
            continue
        Sl = S.tolist()
        inc = tuple(Fraction(cn * x, cd) for x in Sl)
        changed = any(Sl)
        if keep:
            a_new = tuple(Fraction(cn * (x + y), cd) for x, y in zip(v_before.tolist(), Sl)) if changed else a
        else:
            a_new = None
        info = {}
        if info_eta is not None:
            dot = sum(x * y for x, y in zip(v_before.tolist(), Sl))
            info = {"eta": info_eta, "J_p": Fraction(-cn * dot, jp_den)}
        tracer.add(k, k, None, len(Ylist), changed, a, a_new, Y=list(Ylist), increment=inc, **info)
    return tracer.steps


# ---------------------------------------------------------------------------------------------------------
# The batch convergence monitor's replay in integers.
#
# A verifier: it shares no code with the kernel above (its own scaling, _fast._monitor_ints; its own replay from
# the history; its own products), so a slip in the kernel cannot hide here.  It returns the same
# BatchMonitorReport as ``theory.monitor.batch_monitor``'s Fraction replay, for a history whose coefficients
# are all one constant c > 0 (Algorithm 3 with a constant eta, batch PLA).  With z_j = Zs_j / A, w* = s / B,
# a(k) = U_k / Q (Q the lcm of the denominators of a(1) and of c / A, e = Q c / A an integer) and
# S_k = sum_{j in Y_k} Zs_j, so that U_{k+1} = U_k + e S_k and gamma = g / (B A) with g = min_j <s, Zs_j>:
#
# * "every corrected y_j has a(k)^t y_j <= 0" is <U_k, Zs_j> <= 0;
# * Fact 1, <a(k+1), w*> >= <a(k), w*> + gamma c n_k, is (c / (A B)) <S_k, s> >= (g / (B A)) c n_k, i.e.
#   <S_k, s> >= g n_k;
# * Fact 2, ||a(k+1)||^2 <= ||a(k)||^2 + ||c S_k / A||^2, is 2 <a(k), c S_k / A> <= 0, i.e. <U_k, S_k> <= 0;
# * the Cauchy-Schwarz line and the final bound are the reference's own formulas on the exact scalars
#   C = c M and sum_k ||s_k||^2 = (c / A)^2 sum_k ||S_k||^2.
#
# Scores <U_k, Zs_j> are int64 while d max|U| max|Zs| < 2^62, else Python integers; S_k int64 while
# n_k max|Zs| < 2^62; the scalar products of d terms are Python integers.  On any failed check it returns None
# and the reference replay runs (and raises its own error, naming the iteration).


def replay_batch_monitor(Z, a1, history, w_star, source):
    """``batch_monitor(Z, a1, history, w_star, source)``, computed in integers, or None where the reference
    must run (the kernel switched off, varying coefficients, or a check that fails there with its message)."""
    if not _fast.ENABLED:
        return None
    try:
        return _replay_batch_monitor(Z, a1, history, w_star, source)
    finally:
        _fast._release()


def _replay_batch_monitor(Z, a1, history, w_star, source):
    from exactlin.model.monitor import BatchMonitorReport
    from exactlin.theory.monitor import largest_root_of_square_bound

    ints = _fast._monitor_ints(Z)
    if ints is None or not len(Z):
        return None
    A, Zs = ints
    n, d = Zs.shape
    coefs = {cc for _, cs in history for cc in cs}
    if len(coefs) > 1:
        return None
    a1 = tuple(Fraction(v) for v in a1)
    w_star = tuple(v if type(v) is Fraction else Fraction(v) for v in w_star)
    if len(a1) != d or len(w_star) != d:
        return None
    B = math.lcm(*(v.denominator for v in w_star))
    s = [v.numerator * (B // v.denominator) for v in w_star]
    ZsO = Zs.astype(object)
    margins = ZsO.dot(np.array(s, dtype=object))
    g = int(margins.min())
    if g <= 0:
        return None  # not a separator: the reference raises
    gamma = Fraction(g, B * A)
    R2 = Fraction(max(sum(x * x for x in row) for row in Zs.tolist()), A * A)
    nw2 = Fraction(sum(x * x for x in s), B * B)
    m_Z = int(np.abs(Zs).max()) if Zs.size else 0
    a0 = sum((x * y for x, y in zip(a1, w_star)), Fraction(0))
    w12 = sum((x * x for x in a1), Fraction(0))
    M = 0
    T = 0  # sum_k ||S_k||^2
    if coefs:
        (c,) = coefs
        c = Fraction(c)
        if c <= 0:
            return None
        e_frac = c / A
        Q = math.lcm(e_frac.denominator, *(v.denominator for v in a1))
        e = Q * e_frac.numerator // e_frac.denominator
        U = [v.numerator * (Q // v.denominator) for v in a1]
        for Yk, _ in history:
            nk = len(Yk)
            m_U = max((abs(x) for x in U), default=0)
            sub = Zs[Yk]
            if m_U < I64_HEADROOM and d * m_U * m_Z < I64_HEADROOM:
                sc = sub @ np.array(U, dtype=np.int64)
            else:
                sc = sub.astype(object).dot(np.array(U, dtype=object))
            if nk and sc.max() > 0:
                return None  # a corrected sample with a^t y > 0: the reference raises
            S = ((sub.sum(axis=0) if nk * m_Z < I64_HEADROOM else sub.astype(object).sum(axis=0)).tolist()
                 if nk else [0] * d)
            if sum(x * y for x, y in zip(S, s)) < g * nk:
                return None  # Fact 1 fails
            if sum(x * y for x, y in zip(U, S)) > 0:
                return None  # Fact 2 fails
            M += nk
            T += sum(x * x for x in S)
            lhs = a0 + gamma * c * M
            if lhs >= 0 and not lhs * lhs <= nw2 * (w12 + e_frac * e_frac * T):
                return None  # Cauchy-Schwarz fails
            U = [x + e * y for x, y in zip(U, S)]
        lhs = a0 + c * gamma * M
        if lhs >= 0 and not lhs * lhs <= nw2 * (w12 + c * c * n * R2 * M):
            return None
        if a0 == 0 and w12 == 0:
            bound = n * R2 * nw2 / (gamma * gamma)
        else:
            try:
                bound = largest_root_of_square_bound(a0, c * gamma, nw2, w12, c * c * n * R2)
            except ExactlinError:
                return None
    else:
        bound = n * R2 * nw2 / (gamma * gamma) if all(v == 0 for v in a1) else None
    iterations = sum(1 for Yk, _ in history if Yk)
    return BatchMonitorReport(w_star, source, gamma, R2, nw2, n, bound, M, iterations, len(history))
