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

from collections.abc import Sequence
from fractions import Fraction

from exactlin.errors import InputError, InvariantViolation
from exactlin.exact.numbers import dot
from exactlin.model.monitor import BatchMonitorReport, MonitorReport, monitor_from_dict  # noqa: F401 (re-exported)

__all__ = ["ConvergenceMonitor", "MonitorReport", "largest_root_of_square_bound", "BatchMonitorReport", "batch_monitor",
           "batch_monitor_fractions",
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
    (:mod:`exactlin.theory.batch_replay`, an independent replay giving the same report), else on Fractions."""
    from exactlin.theory.batch_replay import integer_batch_monitor

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
