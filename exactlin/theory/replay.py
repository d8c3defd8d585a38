"""Independent integer checks of the perceptron family's results: does w separate the samples (:func:`separates`),
with a margin (:func:`above`), and the convergence monitor's replay from a run's list of mistakes in integers
(:func:`replay_monitor`).

Verifiers: this module shares no code with the loops that produce the runs (:mod:`exactlin.engine`): its own
scaling of the samples to integers (:func:`monitor_ints`), its own replay of the iterates from the list of
mistakes, its own inner products, so a slip in a loop cannot hide here.  :func:`replay_monitor` computes the same
MonitorReport as the Fraction replay through :class:`~exactlin.theory.monitor.ConvergenceMonitor`:

  z_i = Zs_i / A,  w* = s / B,  w_t = V_t / Q  with  V_t = Q w_1 + c S_t,  S_t = sum of Zs over the
  first t - 1 mistakes,  c = Q eta / A  (A, B, Q positive integers making Zs, s, V_t, c integers),

so <w_t, w*> = <V_t, s> / (Q B),  ||w_t||^2 = ||V_t||^2 / Q^2,  <w*, z_i> = <s, Zs_i> / (B A),
||z_i||^2 = ||Zs_i||^2 / A^2.  Fact 1 at every mistake is one comparison with the smallest increment of
<V_t, s>, Fact 2 one with the largest increment of ||V_t||^2 (the right-hand sides are constants), and the
quadratic mistake bound, a convex function of K on the K where a + K eta gamma >= 0, holds for every K in
1..K_final iff it holds at both ends of that range.  On any failure, or when a quantity could leave int64, it
returns None and the caller runs the Fraction replay (which raises its own error).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from exactlin.exact.rows import F32_EXACT, I64_HEADROOM, ExactRows
from exactlin.model.run import LazySteps
from exactlin.theory.monitor import ConvergenceMonitor

__all__ = ["separates", "above", "replay_monitor", "monitor_ints", "release", "cache_is_empty", "NOT_SEPARATING"]

#: what :func:`replay_monitor` returns when w* does not separate the samples strictly (some <w*, z_i> <= 0)
NOT_SEPARATING = "not separating"

#: the integer samples of the last Z checked (one monitor_run checks separates, then replays: one scaling)
_MON_CACHE: list = []


def monitor_ints(Z):
    """(A, Zs) with Zs = A z an int64 array, or None when it does not fit; cached for one monitor_run."""
    if _MON_CACHE and _MON_CACHE[0] is Z:
        return _MON_CACHE[1]
    if isinstance(Z, ExactRows):  # z = num / den, num int64 with entries > -2**63
        return Z.den, Z.num
    try:  # Fraction and int both have as_integer_ratio
        ratios = [[q.as_integer_ratio() for q in row] for row in Z]
    except AttributeError:
        ratios = [[Fraction(q).as_integer_ratio() for q in row] for row in Z]
    A = math.lcm(*{b for row in ratios for _, b in row})
    rows = [[a * (A // b) for a, b in row] for row in ratios] if A != 1 else [[a for a, _ in row] for row in ratios]
    try:
        Zs = np.array(rows, dtype=np.int64)
    except OverflowError:
        Zs = None
    fits = Zs is not None and not (Zs.size and (int(Zs.min()) <= -I64_HEADROOM or int(Zs.max()) >= I64_HEADROOM))
    out = (A, Zs) if fits else None
    _MON_CACHE[:] = [Z, out]
    return out


def cache_is_empty() -> bool:
    """No integer samples are held (every check released them; the tests check it)."""
    return not _MON_CACHE


def release():
    """Drop the cached integer samples (after a replay, or when a check fails)."""
    _MON_CACHE.clear()


def _max_abs(Z, Zs) -> int:
    """max |Zs_ij| (0 when empty): read from ``Z`` when it is the ExactRows whose numerators Zs are."""
    if isinstance(Z, ExactRows) and Zs is Z.num:
        return Z.max_abs()
    return max(int(Zs.max()), -int(Zs.min())) if Zs.size else 0  # (no |Zs| array)


def _scale_vector(w):
    """(B, s) with w = s / B, s a list of Python ints."""
    w = [a if type(a) is Fraction else Fraction(a) for a in w]
    B = math.lcm(*(a.denominator for a in w)) if w else 1
    return B, [a.numerator * (B // a.denominator) for a in w]


def separates(w, Z) -> bool:
    """Exactly: does <w, z> > 0 hold for every sample z of ``Z``?  (Integer arithmetic when it fits.)

    >>> separates((1, -3), [(4, 0), (-1, -1), (0, -1), (-2, -2)])
    True
    """
    ints = monitor_ints(Z)
    B, s = _scale_vector(w)
    if ints is not None:
        A, Zs = ints
        m_s = max((abs(a) for a in s), default=0)
        m_Z = _max_abs(Z, Zs)
        if m_s < I64_HEADROOM and len(s) * m_s * m_Z < I64_HEADROOM:  # m_s alone too: m_Z may be 0
            ok = bool((Zs @ np.array(s, dtype=np.int64) > 0).all())
        else:
            ok = bool((Zs.astype(object).dot(np.array(s, dtype=object)) > 0).all())
    else:
        ok = all(sum((a * Fraction(b) for a, b in zip(w, z)), Fraction(0)) > 0 for z in Z)
    if not ok:
        release()
    return ok


def above(w, Z, b=0) -> bool:
    """Exactly: does <w, z> > b hold for every sample z of ``Z``?  (b rational.)  With z = Zs / A and
    w = s / B (Zs, s integers), <w, z> > b iff <s, Zs> > b A B iff <s, Zs> > floor(b A B), an integer
    comparison; in int64 when d max|s| max|Zs| < 2^62 (then |<s, Zs>| < 2^62, and the threshold is clamped to
    [-2^62, 2^62] without changing any comparison), else in Python integers.  Leaves no cache behind.

    >>> Z = [(4, 0), (-1, -1), (0, -1), (-2, -2)]  # scores 4, 2, 3, 4
    >>> above((1, -3), Z, 1), above((1, -3), Z, 2), above((1, -3), Z, Fraction(19, 10))
    (True, False, True)
    """
    b = Fraction(b)
    cached = bool(_MON_CACHE) and _MON_CACHE[0] is Z
    ints = monitor_ints(Z) if len(Z) else None
    if not cached:
        release()
    if ints is None:
        return all(sum((Fraction(a) * Fraction(c) for a, c in zip(w, z)), Fraction(0)) > b for z in Z)
    A, Zs = ints
    B, s = _scale_vector(w)
    t = (b * A * B).__floor__()
    m_s = max((abs(a) for a in s), default=0)
    m_Z = _max_abs(Z, Zs)
    if m_s < I64_HEADROOM and len(s) * m_s * m_Z < I64_HEADROOM:  # m_s alone too: when every z is 0, m_Z = 0
        return bool((Zs @ np.array(s, dtype=np.int64) > max(-I64_HEADROOM, min(t, I64_HEADROOM))).all())
    return bool((Zs.astype(object).dot(np.array(s, dtype=object)) > t).all())


def replay_monitor(Z, w_star, *, eta, w1, indices, final_w, source):
    """The MonitorReport of the Fraction replay in ``perceptron.monitor_run``; :data:`NOT_SEPARATING` when some
    <w*, z_i> <= 0 (decided exactly, in int64); or None where that replay must run instead (a check fails there
    with its own message, or a number would leave int64)."""
    try:
        return _replay_monitor(Z, w_star, eta, w1, indices, final_w, source)
    finally:
        release()


def _replay_monitor(Z, w_star, eta, w1, indices, final_w, source):
    ints = monitor_ints(Z)
    if ints is None or not Z:
        return None
    A, Zs = ints
    n, d = Zs.shape
    eta = Fraction(eta)
    w_star = tuple(v if type(v) is Fraction else Fraction(v) for v in w_star)
    w1 = tuple(v if type(v) is Fraction else Fraction(v) for v in (w1 if w1 is not None else [0] * d))
    if len(w_star) != d or len(w1) != d or eta <= 0:
        return None
    B, s = _scale_vector(w_star)
    e = eta / A
    Q = math.lcm(e.denominator, *(a.denominator for a in w1))
    c = Q * e.numerator // e.denominator
    U1 = [a.numerator * (Q // a.denominator) for a in w1]
    K = len(indices)
    m_Z = _max_abs(Z, Zs)
    m_s = max((abs(a) for a in s), default=0)
    m_V = max((abs(a) for a in U1), default=0) + c * K * m_Z  # |V_t| <= |V_1| + c t m_Z
    if max(m_s, d * m_s * m_Z, d * m_Z * m_Z, m_V, d * m_V * m_V, d * m_V * m_s) >= I64_HEADROOM:
        return None
    s64 = np.array(s, dtype=np.int64)
    # the products over all samples in float32 where the data's shared float32 copy exists and every product
    # and partial sum is an integer below 2^24 (float32 holds those exactly, in any order), else in int64
    ZT = Z.float32_t() if isinstance(Z, ExactRows) and Zs is Z.num else None  # (d x n)
    if ZT is not None and d * m_s * m_Z < F32_EXACT:
        margins = s64.astype(np.float32) @ ZT
    else:
        margins = Zs @ s64  # B A <w*, z_i>
    g_int = int(margins.min())
    if g_int <= 0:  # some B A <w*, z_i> <= 0, exactly (every quantity was bounded below 2^62 above)
        return NOT_SEPARATING
    if ZT is not None and d * m_Z * m_Z < F32_EXACT:
        R_int = int(np.einsum("ji,ji->i", ZT, ZT).max())  # A^2 R^2
    else:
        R_int = int(np.einsum("ij,ij->i", Zs, Zs).max())
    # V_t for t = 1..K+1, in chunks (the iterates are never all held at once)
    idx = np.asarray(indices, dtype=np.int64)
    V = np.array(U1, dtype=np.int64)
    P_prev = int(V @ s64)
    N_prev = int(V @ V)
    P_list, N_list = [P_prev], [N_prev]
    dP_min = dN_max = None
    # the running sums of the mistakes' rows: in float32 on the shared copy (read just now by the products above)
    # when every partial sum is an integer below 2^24 (|sum| <= K m_Z), exact; else in int64
    cum32 = ZT is not None and K * m_Z < F32_EXACT
    for start in range(0, K, 4096):
        chunk = idx[start:start + 4096]
        if cum32:
            G = ZT[:, chunk]  # (a gather: a new d x chunk array)
            Vs = np.cumsum(G, axis=1, out=G).T.astype(np.int64)
        else:
            Vs = np.cumsum(Zs[chunk], axis=0)
        if c != 1:  # (in place: no other array of this size is made)
            Vs *= c
        Vs += V  # V_t = V_1 + c (the rows of the mistakes so far), |V_t| <= m_V < 2^62
        P = Vs @ s64
        N = np.einsum("ij,ij->i", Vs, Vs)
        dP = np.diff(P, prepend=P_prev)
        dN = np.diff(N, prepend=N_prev)
        lo, hi = int(dP.min()), int(dN.max())
        dP_min = lo if dP_min is None else min(dP_min, lo)
        dN_max = hi if dN_max is None else max(dN_max, hi)
        if len(P_list) <= ConvergenceMonitor.ROW_LIMIT:
            P_list.extend(P.tolist())
            N_list.extend(N.tolist())
        V = Vs[-1]
        P_prev, N_prev = int(P[-1]), int(N[-1])
    # the final w
    # the final w: V / Q == final_w, compared in integers (final_w_j = p / q equals V_j / Q iff q divides Q
    # and V_j = p Q / q, Fractions being in lowest terms)
    for a, q in zip(V.tolist(), final_w):
        q = Fraction(q)
        if Q % q.denominator or a != q.numerator * (Q // q.denominator):
            return None
    g = Fraction(g_int, B * A)
    R2 = Fraction(R_int, A * A)
    if K:
        # Fact 1: (P_{t+1} - P_t) / (Q B) >= eta g  for every t;  Fact 2: (N_{t+1} - N_t) / Q^2 <= eta^2 R2
        if Fraction(dP_min, Q * B) < eta * g or Fraction(dN_max, Q * Q) > eta * eta * R2:
            return None
    mon = ConvergenceMonitor.__new__(ConvergenceMonitor)
    mon.w_star, mon.gamma_min, mon.R2 = w_star, g, R2
    mon.nw2 = Fraction(sum(a * a for a in s), B * B)
    mon.eta, mon.w1, mon.source = eta, w1, source
    # <w_1, w*> = <U_1, s> / (Q B) and ||w_1||^2 = ||U_1||^2 / Q^2, in Python integers
    mon.a = Fraction(sum(a * b for a, b in zip(U1, s)), Q * B)
    mon.w12 = w12 = Fraction(sum(a * a for a in U1), Q * Q)
    # the quadratic bound at both ends of the K where a + K eta g >= 0 (convexity)
    if K:
        K0 = 1 if mon.a >= 0 else max(1, math.ceil(-mon.a / (eta * g)))
        if K0 <= K and not (mon._quadratic_holds(K0) and mon._quadratic_holds(K)):
            return None
    step_p, step_n = eta * g, eta * eta * R2
    QB, QQ = Q * B, Q * Q
    a0 = mon.a

    def build_rows():  # the per-mistake rows, as exact Fractions, when the report is first read
        return [{"t": t, "K": t, "proj": Fraction(P_list[t], QB), "proj_lower": a0 + t * step_p,
                 "norm2": Fraction(N_list[t], QQ), "norm2_upper": w12 + t * step_n}
                for t in range(1, min(K, ConvergenceMonitor.ROW_LIMIT) + 1)]

    mon.rows = LazySteps(min(K, ConvergenceMonitor.ROW_LIMIT), build_rows)
    mon.K = K
    return mon.report()
