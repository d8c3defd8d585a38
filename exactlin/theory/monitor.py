"""The convergence monitor: the perceptron convergence theorem, checked exactly at every mistake.

Seed 000 (000_478cb53c624e7eb5.txt) proves K <= 1/gamma^2 for ||x|| <= 1 and ||w*|| = 1;
seed 004 (004_f7c425a21563e0cd.txt) proves m <= r^2 |w*|^2 when y_i w*.x_i >= 1.
Both are the one bound, for a separator w* and normalized samples z_i = y_i x~_i:

    gamma_min = min_i <w*, z_i> > 0,      R^2 = max_i ||z_i||^2,
    Fact 1:  <w_{t+1}, w*> >= <w_t, w*> + eta gamma_min        at every mistake,
    Fact 2:  ||w_{t+1}||^2 <= ||w_t||^2 + eta^2 R^2              at every mistake,
    so, from w_1 = 0:   K <= R^2 ||w*||^2 / gamma_min^2.

From a start w_1 != 0 the two facts give (a + K eta gamma)^2 <= ||w*||^2 (||w_1||^2 + K eta^2 R^2)
with a = <w_1, w*> (whenever a + K eta gamma >= 0); the monitor checks that quadratic form.
Everything is compared in squared form, so no square root is ever rounded.

The monitor recomputes the inner products itself from the (w_t, w_{t+1}) pairs it
is shown; it does not trust the algorithm's own scores.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from exactlin.errors import InputError, InvariantViolation
from exactlin.exact.numbers import dot
from exactlin.model.monitor import BatchMonitorReport, MonitorReport, monitor_from_dict  # noqa: F401 (re-exported)

__all__ = ["ConvergenceMonitor", "MonitorReport", "largest_root_of_square_bound", "BatchMonitorReport", "batch_monitor",
           "batch_monitor_fractions", "integer_batch_monitor",
           "monitor_from_dict"]


def largest_root_of_square_bound(a, b, n2, w12, r):
    """The largest K with (a + b K)^2 <= n2 (w12 + r K), b > 0: the larger root of the quadratic
    b^2 K^2 + (2 a b - n2 r) K + (a^2 - n2 w12) = 0, exactly (a Fraction when the discriminant is a rational
    square, else a sympy expression).  The quadratic formula, not sympy.solve: solve() factors the
    coefficients and takes minutes on 600-bit rationals.  The discriminant is >= 0 whenever K = 0 satisfies
    the inequality (Cauchy-Schwarz: a^2 <= ||w*||^2 ||w_1||^2)."""
    import math

    import sympy

    A = b * b
    B = 2 * a * b - n2 * r
    C = a * a - n2 * w12
    D = Fraction(B * B - 4 * A * C)
    if D < 0:
        raise InvariantViolation(f"the mistake bound's quadratic has no real root (discriminant {D})")
    rn, rd = math.isqrt(D.numerator), math.isqrt(D.denominator)
    if rn * rn == D.numerator and rd * rd == D.denominator:
        return (-B + Fraction(rn, rd)) / (2 * A)
    q = lambda v: sympy.Rational(v.numerator, v.denominator)  # noqa: E731
    big = max(D.numerator.bit_length(), D.denominator.bit_length()) > 256  # sympy would try to factor it
    root = sympy.UnevaluatedExpr(sympy.sqrt(q(D), evaluate=False)) if big else sympy.sqrt(q(D))
    return (q(Fraction(-B)) + root) / q(Fraction(2 * A))


class ConvergenceMonitor:
    """Checks Facts 1 and 2 at each mistake and the mistake bound at the end.

    ``Z`` are the normalized samples y_i x~_i the algorithm runs on, ``w_star`` a
    separator (every <w*, z_i> > 0), ``eta`` the constant step, ``w1`` the start.
    """

    ROW_LIMIT = 10_000

    def __init__(self, Z: Sequence[Sequence], w_star: Sequence, *, eta=Fraction(1), w1: Sequence | None = None,
                 source: str = "given"):
        self.w_star = tuple(Fraction(v) for v in w_star)
        if not Z:
            raise InputError("the monitor needs at least one sample")
        if len(Z[0]) != len(self.w_star):
            raise InputError(f"w* has {len(self.w_star)} entries but the (augmented) samples have {len(Z[0])}")
        margins = [dot(self.w_star, z) for z in Z]
        self.gamma_min = min(margins)
        if self.gamma_min <= 0:
            i = margins.index(self.gamma_min)
            raise InputError(f"w* = {tuple(map(str, self.w_star))} is not a separator: sample {i + 1} has "
                             f"y<w*,x> = {self.gamma_min} <= 0, so the convergence theorem does not apply")
        self.R2 = max(dot(z, z) for z in Z)
        self.nw2 = dot(self.w_star, self.w_star)
        self.eta = Fraction(eta)
        if self.eta <= 0:
            raise InputError("the monitor needs a step eta > 0")
        self.w1 = tuple(Fraction(v) for v in (w1 if w1 is not None else [0] * len(self.w_star)))
        self.a = dot(self.w1, self.w_star)
        self.w12 = dot(self.w1, self.w1)  # ||w_1||^2
        self.K = 0
        self.source = source
        self.rows: list[dict] = []

    # the bound -----------------------------------------------------------
    def bound(self):
        if all(v == 0 for v in self.w1):
            return self.R2 * self.nw2 / (self.gamma_min * self.gamma_min)
        # the larger root of (a + K e g)^2 = n2 (w12 + K e^2 R2), i.e. A K^2 + B K + C = 0 with A = e^2 g^2 > 0,
        # solved by the quadratic formula (sympy.solve on large rationals can take minutes); the discriminant
        # is >= 0 because K = 0 satisfies the inequality (Cauchy-Schwarz: a^2 <= n2 ||w_1||^2)
        e, g, R2, n2, a = self.eta, self.gamma_min, self.R2, self.nw2, self.a
        return largest_root_of_square_bound(a, e * g, n2, self.w12, e * e * R2)

    def _quadratic_holds(self, K: int) -> bool:
        lhs = self.a + K * self.eta * self.gamma_min
        if lhs < 0:
            return True
        return lhs * lhs <= self.nw2 * (self.w12 + K * self.eta * self.eta * self.R2)

    # per mistake ---------------------------------------------------------
    def observe(self, t: int, w_before: Sequence, w_after: Sequence) -> None:
        """Check Facts 1 and 2 for the mistake at round t that took w_before to w_after."""
        self.K += 1
        p0, p1 = dot(w_before, self.w_star), dot(w_after, self.w_star)
        need1 = p0 + self.eta * self.gamma_min
        if not p1 >= need1:
            raise InvariantViolation(
                f"Fact 1 fails at round {t} (mistake {self.K}): <w_t+1, w*> = {p1} < "
                f"<w_t, w*> + eta*gamma_min = {p0} + {self.eta}*{self.gamma_min} = {need1}")
        n0, n1 = dot(w_before, w_before), dot(w_after, w_after)
        need2 = n0 + self.eta * self.eta * self.R2
        if not n1 <= need2:
            raise InvariantViolation(
                f"Fact 2 fails at round {t} (mistake {self.K}): ||w_t+1||^2 = {n1} > "
                f"||w_t||^2 + eta^2 R^2 = {n0} + {self.eta ** 2}*{self.R2} = {need2}")
        if not self._quadratic_holds(self.K):
            raise InvariantViolation(
                f"mistake bound fails at round {t}: K = {self.K} exceeds the bound {self.bound()} "
                f"(R^2 = {self.R2}, ||w*||^2 = {self.nw2}, gamma_min = {self.gamma_min})")
        if len(self.rows) < self.ROW_LIMIT:
            self.rows.append({
                "t": t, "K": self.K, "proj": p1, "proj_lower": self.a + self.K * self.eta * self.gamma_min,
                "norm2": n1, "norm2_upper": self.w12 + self.K * self.eta * self.eta * self.R2,
            })

    def report(self) -> MonitorReport:
        return MonitorReport(self.w_star, self.source, self.gamma_min, self.R2, self.nw2, self.eta, self.bound(),
                             self.K, self.K, self._quadratic_holds(self.K), self.rows)


# ---------------------------------------------------------------------------
# the batch form (seed 003's Algorithm 3, seed 001's batch PLA, seed 002's gradient descent)


def batch_monitor(Z, a1: tuple, history: list, w_star: tuple, source: str) -> BatchMonitorReport:
    """:func:`batch_monitor_fractions`'s report, computed in integers where the coefficients are one constant
    (:func:`integer_batch_monitor`, an independent replay giving the same report), else on Fractions."""
    rep = integer_batch_monitor(Z, a1, history, w_star, source)
    return rep if rep is not None else batch_monitor_fractions(Z, a1, history, w_star, source)


def batch_monitor_fractions(Z, a1: tuple, history: list, w_star: tuple, source: str) -> BatchMonitorReport:
    """The convergence theorem for a batch perceptron-type rule, checked exactly at every iteration.

    For a separator w* (gamma = min_i <w*, y_i> > 0, R^2 = max_i ||y_i||^2) and an iteration that adds
    s_k = sum_{j in Y_k} c_j y_j where every corrected y_j has a(k)^t y_j <= 0 (the batch perceptron, batch
    PLA and gradient descent on R(w) all correct only such samples):

    * Fact 1 (batch): <a(k+1), w*> >= <a(k), w*> + gamma sum_j c_j;
    * Fact 2 (batch): ||a(k+1)||^2 <= ||a(k)||^2 + ||s_k||^2 (the cross term 2 a^t s_k is <= 0);
    * Cauchy-Schwarz: (<a(1),w*> + gamma C)^2 <= ||w*||^2 (||a(1)||^2 + sum_k ||s_k||^2), C = sum of all c_j;
    * with one constant coefficient c, ||s_k||^2 <= c^2 |Y_k|^2 R^2 <= c^2 n |Y_k| R^2, so the number M of
      corrections satisfies (a + c gamma M)^2 <= ||w*||^2 (||a(1)||^2 + c^2 n R^2 M) (a = <a(1), w*>);
      from a(1) = 0: M <= n R^2 ||w*||^2 / gamma^2.  The iterations that update are at most M.

    Recomputes every inner product from the replayed iterates; it trusts nothing the algorithm scored.
    Raises :class:`InvariantViolation` naming the iteration and both sides.
    """
    n = len(Z)
    gamma = min(dot(w_star, z) for z in Z)
    if gamma <= 0:
        raise InvariantViolation(f"w* is not a separator (min <w*, y_i> = {gamma})")
    R2 = max(dot(z, z) for z in Z)
    nw2 = dot(w_star, w_star)
    a = a1
    C = Fraction(0)
    S2 = Fraction(0)
    M = 0
    coef_values = set()
    for k, (Yk, coefs) in enumerate(history, start=1):
        s = [Fraction(0)] * len(a)
        for j, c in zip(Yk, coefs):
            if dot(a, Z[j]) > 0:
                raise InvariantViolation(f"batch monitor: iteration {k} corrects sample {j + 1} with a^t y = "
                                         f"{dot(a, Z[j])} > 0; the theorem covers only misclassified samples")
            for t in range(len(a)):
                s[t] += c * Z[j][t]
            coef_values.add(c)
        a_new = tuple(x + y for x, y in zip(a, s))
        p0, p1 = dot(a, w_star), dot(a_new, w_star)
        need = p0 + gamma * sum(coefs)
        if not p1 >= need:
            raise InvariantViolation(f"batch Fact 1 fails at iteration {k}: <a(k+1), w*> = {p1} < {need}")
        n0, n1, ns = dot(a, a), dot(a_new, a_new), dot(s, s)
        if not n1 <= n0 + ns:
            raise InvariantViolation(f"batch Fact 2 fails at iteration {k}: ||a(k+1)||^2 = {n1} > {n0 + ns}")
        C += sum(coefs)
        S2 += ns
        M += len(Yk)
        lhs = dot(a1, w_star) + gamma * C
        if lhs >= 0 and not lhs * lhs <= nw2 * (dot(a1, a1) + S2):
            raise InvariantViolation(f"Cauchy-Schwarz bound fails at iteration {k}: {lhs * lhs} > "
                                     f"{nw2 * (dot(a1, a1) + S2)}")
        a = a_new
    bound = None
    if len(coef_values) == 1:
        (c,) = coef_values
        a0, w12 = dot(a1, w_star), dot(a1, a1)
        lhs = a0 + c * gamma * M
        if lhs >= 0 and not lhs * lhs <= nw2 * (w12 + c * c * n * R2 * M):
            raise InvariantViolation(f"batch mistake bound fails: M = {M} corrections violate "
                                     f"(a + c gamma M)^2 <= ||w*||^2 (||a(1)||^2 + c^2 n R^2 M)")
        if a0 == 0 and w12 == 0:
            bound = n * R2 * nw2 / (gamma * gamma)
        else:
            # the quadratic formula: sympy.solve factored 600-bit coefficients for minutes (found by fuzzing)
            bound = largest_root_of_square_bound(a0, c * gamma, nw2, w12, c * c * n * R2)
    elif not coef_values:
        bound = n * R2 * nw2 / (gamma * gamma) if all(v == 0 for v in a1) else None
    iterations = sum(1 for Yk, _ in history if Yk)
    return BatchMonitorReport(tuple(w_star), source, gamma, R2, nw2, n, bound, M, iterations, len(history))


# ---------------------------------------------------------------------------------------------------------
# the batch monitor's replay in integers
#
# The batch convergence monitor's replay in integers: :func:`exactlin.theory.monitor.batch_monitor`'s report for a
# history whose coefficients are all one constant c > 0 (Algorithm 3 with a constant eta, batch PLA, gradient
# descent on R(w)), computed on integers.
#
# A verifier: it shares no code with the loop that produced the history (its own scaling, its own replay of the
# iterates from the history, its own products), so a slip in the loop cannot hide here.  With z_j = Zs_j / A,
# w* = s / B, a(k) = U_k / Q (Q the lcm of the denominators of a(1) and of c / A, e = Q c / A an integer) and
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
# n_k max|Zs| < 2^62; the scalar products of d terms are Python integers.  On any failed check it returns None and
# the Fraction replay runs (and raises its own error, naming the iteration).


def _integer_samples(Z):
    """(A, Zs) with Zs = A z an int64 array (A the lcm of the denominators), or None when it does not fit."""
    import numpy as np

    from exactlin.exact.rows import I64_HEADROOM, ExactRows

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
    import numpy as np

    from exactlin.errors import ExactlinError
    from exactlin.exact.rows import I64_HEADROOM

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
