"""The batch convergence monitor's replay in integers: :func:`exactlin.theory.monitor.batch_monitor`'s report for a
history whose coefficients are all one constant c > 0 (Algorithm 3 with a constant eta, batch PLA, gradient
descent on R(w)), computed on integers.

A verifier: it shares no code with the loop that produced the history (its own scaling, its own replay of the
iterates from the history, its own products), so a slip in the loop cannot hide here.  With z_j = Zs_j / A,
w* = s / B, a(k) = U_k / Q (Q the lcm of the denominators of a(1) and of c / A, e = Q c / A an integer) and
S_k = sum_{j in Y_k} Zs_j, so that U_{k+1} = U_k + e S_k and gamma = g / (B A) with g = min_j <s, Zs_j>:

* "every corrected y_j has a(k)^t y_j <= 0" is <U_k, Zs_j> <= 0;
* Fact 1, <a(k+1), w*> >= <a(k), w*> + gamma c n_k, is (c / (A B)) <S_k, s> >= (g / (B A)) c n_k, i.e.
  <S_k, s> >= g n_k;
* Fact 2, ||a(k+1)||^2 <= ||a(k)||^2 + ||c S_k / A||^2, is 2 <a(k), c S_k / A> <= 0, i.e. <U_k, S_k> <= 0;
* the Cauchy-Schwarz line and the final bound are the reference's own formulas on the exact scalars
  C = c M and sum_k ||s_k||^2 = (c / A)^2 sum_k ||S_k||^2.

Scores <U_k, Zs_j> are int64 while d max|U| max|Zs| < 2^62, else Python integers; S_k int64 while
n_k max|Zs| < 2^62; the scalar products of d terms are Python integers.  On any failed check it returns None and
the Fraction replay runs (and raises its own error, naming the iteration).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from exactlin.errors import ExactlinError
from exactlin.exact.rows import I64_HEADROOM, ExactRows
from exactlin.model.monitor import BatchMonitorReport

__all__ = ["integer_batch_monitor"]


def _integer_samples(Z):
    """(A, Zs) with Zs = A z an int64 array (A the lcm of the denominators), or None when it does not fit."""
    if isinstance(Z, ExactRows):  # z = num / den, num int64
        return Z.den, Z.num
    ratios = [[Fraction(q).as_integer_ratio() for q in row] for row in Z]
    A = math.lcm(*{b for row in ratios for _, b in row})
    rows = [[a * (A // b) for a, b in row] for row in ratios]
    try:
        Zs = np.array(rows, dtype=np.int64)
    except OverflowError:
        return None
    if Zs.size and (int(Zs.min()) <= -I64_HEADROOM or int(Zs.max()) >= I64_HEADROOM):
        return None
    return A, Zs


def integer_batch_monitor(Z, a1, history, w_star, source):
    """``batch_monitor(Z, a1, history, w_star, source)``'s report computed in integers, or None where the Fraction
    replay must run (varying coefficients, numbers beyond int64 in the samples, or a check that fails)."""
    from exactlin.theory.monitor import largest_root_of_square_bound

    if not len(Z):
        return None
    coefs = {cc for _, cs in history for cc in cs}
    if len(coefs) > 1:
        return None
    ints = _integer_samples(Z)
    if ints is None:
        return None
    A, Zs = ints
    n, d = Zs.shape
    a1 = tuple(Fraction(v) for v in a1)
    w_star = tuple(v if type(v) is Fraction else Fraction(v) for v in w_star)
    if len(a1) != d or len(w_star) != d:
        return None
    B = math.lcm(*(v.denominator for v in w_star))
    s = [v.numerator * (B // v.denominator) for v in w_star]
    margins = Zs.astype(object).dot(np.array(s, dtype=object))
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
            sub = Zs[list(Yk)]
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
