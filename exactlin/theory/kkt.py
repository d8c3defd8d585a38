"""An independent exact checker of the Karush-Kuhn-Tucker conditions of the SVMs.

The SVM code proposes (w, b, alpha, xi); this module checks, from the data alone and
with plain ``Fraction`` arithmetic, every condition that makes the proposal optimal.
For a convex quadratic program (all three problems below are convex) the KKT
conditions are sufficient, so a passing check is a proof of optimality.  As a second,
redundant proof the checker also confirms that the primal and dual objective values
are equal (zero duality gap).

Problems (f(x) = <w, x> + b, or sum_j alpha_j y_j K(x_j, x) + b with a kernel;
``intercept=False`` fixes b = 0 and drops the condition sum alpha_i y_i = 0):

``hard``     min 1/2 ||w||^2                  s.t. y_i f(x_i) >= 1
``hinge``    min 1/2 ||w||^2 + C sum xi_i     s.t. y_i f(x_i) >= 1 - xi_i, xi_i >= 0
``squared``  min 1/2 ||w||^2 + C sum xi_i^2   s.t. y_i f(x_i) >= 1 - xi_i   (seed 004 has C = 1)

Conditions checked:

* primal feasibility: y_i f(x_i) >= 1 - xi_i, xi_i >= 0 (xi = 0 for ``hard``);
* dual feasibility: alpha_i >= 0, and alpha_i <= C for ``hinge``;
* stationarity: w = sum_i alpha_i y_i x_i (linear case), sum_i alpha_i y_i = 0 (with an
  intercept), and in xi: C - alpha_i - mu_i = 0 with mu_i >= 0 (``hinge``), 2 C xi_i = alpha_i
  (``squared``);
* complementary slackness: alpha_i (y_i f(x_i) - 1 + xi_i) = 0, and (C - alpha_i) xi_i = 0 (``hinge``).

>>> rep = verify_kkt([(0, 0), (2, 0)], [-1, 1], [1, 1], -1, w=(1, 0))
Traceback (most recent call last):
...
exactlin.errors.VerificationError: KKT stationarity fails: w != sum_i alpha_i y_i x_i (component 0: 1 vs 2)
>>> verify_kkt([(0, 0), (2, 0)], [-1, 1], ["1/2", "1/2"], -1, w=(1, 0)).verified
True
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from fractions import Fraction

from exactlin.errors import VerificationError
from exactlin.model.certificates import MINT, KKTCertificate

__all__ = ["verify_kkt", "LOSSES"]

LOSSES = ("hard", "hinge", "squared")
F0 = Fraction(0)


def _q(v) -> Fraction:
    if isinstance(v, Fraction):
        return v
    if isinstance(v, str):
        return Fraction(v)
    if hasattr(v, "p") and hasattr(v, "q"):  # sympy Rational
        return Fraction(int(v.p), int(v.q))
    return Fraction(v)


def _fail(msg: str):
    raise VerificationError("KKT " + msg)


def verify_kkt(X: Sequence[Sequence], y: Sequence[int], alpha: Sequence, b, *, w: Sequence | None = None,
               kernel: Callable | None = None, loss: str = "hard", C=None, xi: Sequence | None = None,
               intercept: bool = True) -> KKTCertificate:
    """Check the KKT conditions exactly; raise :class:`VerificationError` naming the first
    failing condition (and sample), or return the :class:`~exactlin.model.certificates.KKTCertificate`.

    Give ``w`` for a linear SVM (then stationarity w = sum alpha_i y_i x_i is checked), or
    ``kernel(x, z)`` for a kernel SVM (w lives in feature space; f is the dual expansion).
    ``xi`` defaults to the slacks the loss implies and, when given, is checked as claimed.
    """
    if loss not in LOSSES:
        raise ValueError(f"loss must be one of {', '.join(LOSSES)}")
    X = [tuple(v if type(v) is Fraction else _q(v) for v in x) for x in X]
    n = len(X)
    y = [int(v) for v in y]
    if any(v not in (1, -1) for v in y):
        _fail("check needs +1/-1 labels")
    alpha = [_q(a) for a in alpha]
    b = _q(b)
    if len(alpha) != n or len(y) != n:
        _fail(f"shapes: {n} samples, {len(y)} labels, {len(alpha)} multipliers")
    if loss != "hard":
        if C is None:
            _fail(f"loss {loss!r} needs C")
        C = _q(C)
        if C <= 0:
            _fail(f"C must be > 0, got {C}")
    if not intercept and b != 0:
        _fail(f"without an intercept b must be 0, got {b}")
    # dual feasibility
    for i, a in enumerate(alpha):
        if a < 0:
            _fail(f"dual feasibility fails: alpha_{i + 1} = {a} < 0 (sample {i + 1})")
        if loss == "hinge" and a > C:
            _fail(f"dual feasibility fails: alpha_{i + 1} = {a} > C = {C} (sample {i + 1})")
    if intercept:
        s = sum((a * yi for a, yi in zip(alpha, y)), F0)
        if s != 0:
            _fail(f"stationarity in b fails: sum alpha_i y_i = {s}, not 0")
    # decision values f(x_i)
    if w is not None:
        w = tuple(_q(v) for v in w)
        d = len(w)
        # sum_i alpha_i y_i x_ij over the integers: alpha on its common denominator La, the rows on theirs (Dx)
        La = 1
        for a in alpha:
            La = math.lcm(La, a.denominator)
        Dx = 1
        for x in X:
            for v in x:
                if v.denominator != 1:
                    Dx = math.lcm(Dx, v.denominator)
        # rows over their common denominator Dx as integers (the rows themselves when integral)
        R = [[v.numerator for v in x] for x in X] if Dx == 1 else \
            [[v.numerator * (Dx // v.denominator) for v in x] for x in X]
        s_ = [0] * d
        for a, yi, r in zip(alpha, y, R):
            if a:
                c = a.numerator * (La // a.denominator) * yi
                for j in range(d):
                    s_[j] += c * r[j]
        for j in range(d):
            s = Fraction(s_[j], La * Dx)
            if s != w[j]:
                _fail(f"stationarity fails: w != sum_i alpha_i y_i x_i (component {j}: {w[j]} vs {s})")
        # f_i = <w, x_i> + b = fnum_i / L over the integers, L the common denominator of w, b and the rows
        L = b.denominator
        for v in w:
            L = math.lcm(L, v.denominator)
        wi = [int(v * L) for v in w]
        bi = int(b * L) * Dx
        L *= Dx
        fnum = [sum(map(operator.mul, wi, r)) + bi for r in R]
        f = None  # made on demand: the integer pass below needs only the numerators
        norm2 = sum((v * v for v in w), F0)
    elif kernel is not None and _integral_poly(X, kernel):
        # (x . z + c)^p on integer rows with an integer c: every kernel value an integer, alpha over its common
        # denominator La, so f_i = sum_j (La alpha_j y_j) K_ji / La + b and ||w||^2 are integer sums
        p_, c_ = int(kernel.degree), int(kernel.coef0)
        R = [[v.numerator for v in x] for x in X]
        La = math.lcm(*(a.denominator for a in alpha))
        co = [(j, a.numerator * (La // a.denominator) * y[j]) for j, a in enumerate(alpha) if a]
        f, norm2n = [], 0
        for i in range(n):
            ri = R[i]
            t = sum(cj * (sum(map(operator.mul, ri, R[j])) + c_) ** p_ for j, cj in co)
            f.append(Fraction(t, La) + b)
            if alpha[i]:
                norm2n += alpha[i].numerator * (La // alpha[i].denominator) * y[i] * t
        norm2 = Fraction(norm2n, La * La)
    elif kernel is not None:
        sv = [j for j in range(n) if alpha[j]]
        Kc = {}

        def K(i, j):
            key = (i, j) if i <= j else (j, i)
            v = Kc.get(key)
            if v is None:
                v = Kc[key] = _q(kernel(X[i], X[j]))
            return v

        f = [sum((alpha[j] * y[j] * K(j, i) for j in sv), F0) + b for i in range(n)]
        norm2 = sum((alpha[i] * alpha[j] * y[i] * y[j] * K(i, j) for i in sv for j in sv), F0)
    else:
        raise ValueError("give w (linear SVM) or kernel (kernel SVM)")
    if f is None and xi is None and loss in ("hard", "hinge"):
        return _integer_pass(y, alpha, b, w, fnum, L, loss, C, norm2)
    if f is None:
        f = [Fraction(v, L) for v in fnum]
    # slacks
    if xi is None:
        if loss == "hard":
            xi = [F0] * n
        elif loss == "hinge":
            xi = [max(F0, 1 - yi * fi) for yi, fi in zip(y, f)]
        else:
            xi = [a / (2 * C) for a in alpha]
    else:
        xi = [_q(v) for v in xi]
        if loss == "hard" and any(xi):
            _fail("hard margin has no slacks")
    for i in range(n):
        m = y[i] * f[i]
        if xi[i] < 0:
            _fail(f"primal feasibility fails: xi_{i + 1} = {xi[i]} < 0 (sample {i + 1})")
        if m < 1 - xi[i]:
            _fail(f"primal feasibility fails at sample {i + 1}: y_i f(x_i) = {m} < 1 - xi_i = {1 - xi[i]}")
        if alpha[i] and m != 1 - xi[i]:
            _fail(f"complementary slackness fails at sample {i + 1}: alpha_i = {alpha[i]} > 0 but y_i f(x_i) = {m} "
                  f"!= 1 - xi_i = {1 - xi[i]}")
        if loss == "hinge" and xi[i] and alpha[i] != C:
            _fail(f"complementary slackness fails at sample {i + 1}: xi_i = {xi[i]} > 0 but alpha_i = {alpha[i]} != C")
        if loss == "squared" and 2 * C * xi[i] != alpha[i]:
            _fail(f"stationarity in xi fails at sample {i + 1}: 2 C xi_i = {2 * C * xi[i]} != alpha_i = {alpha[i]}")
    # objectives: zero duality gap (implied by the above; checked as an independent second proof)
    sa = sum(alpha, F0)
    if loss == "hard":
        primal = norm2 / 2
        dual = sa - norm2 / 2
    elif loss == "hinge":
        primal = norm2 / 2 + C * sum(xi, F0)
        dual = sa - norm2 / 2
    else:
        primal = norm2 / 2 + C * sum((v * v for v in xi), F0)
        dual = sa - norm2 / 2 - sum((a * a for a in alpha), F0) / (4 * C)
    if primal != dual:
        _fail(f"duality gap is {primal - dual}, not 0")
    return KKTCertificate(loss=loss, alpha=tuple(alpha), b=b, w=w, C=C if loss != "hard" else None, xi=tuple(xi),
                          conditions=("primal feasibility", "dual feasibility", "stationarity",
                                      "complementary slackness", "zero duality gap"),
                          primal_objective=primal, dual_objective=dual, norm2_w=norm2, _token=MINT)


def _integral_poly(X, kernel) -> bool:
    """A polynomial kernel (degree and coef0 given as its attributes) with an integer coef0, on integer rows."""
    c = getattr(kernel, "coef0", None)
    p = getattr(kernel, "degree", None)
    if p is None or c is None or Fraction(c).denominator != 1 or int(p) != p or p < 1:
        return False
    return all(v.denominator == 1 for x in X for v in x)


def _integer_pass(y, alpha, b, w, fnum, L, loss, C, norm2) -> KKTCertificate:
    """The per-sample conditions of a linear hard-margin or hinge-loss SVM with its implied slacks, compared over
    the integers: y_i f(x_i) = m_i / L with m_i = y_i fnum_i, so y_i f(x_i) >= 1 - xi_i reads m_i >= L - L xi_i
    (xi_i = max(0, 1 - m_i / L) for the hinge loss, 0 for the hard margin).  The same conditions as the Fraction
    pass of :func:`verify_kkt`, the same messages."""
    n = len(y)
    xis = [0] * n  # L xi_i (integers)
    for i in range(n):
        m = y[i] * fnum[i]
        if loss == "hinge" and m < L:
            xis[i] = L - m
        if m < L - xis[i]:
            _fail(f"primal feasibility fails at sample {i + 1}: y_i f(x_i) = {Fraction(m, L)} < 1 - xi_i = 1")
        if alpha[i] and m != L - xis[i]:
            _fail(f"complementary slackness fails at sample {i + 1}: alpha_i = {alpha[i]} > 0 but y_i f(x_i) = "
                  f"{Fraction(m, L)} != 1 - xi_i = {1 - Fraction(xis[i], L)}")
        if xis[i] and alpha[i] != C:
            _fail(f"complementary slackness fails at sample {i + 1}: xi_i = {Fraction(xis[i], L)} > 0 but "
                  f"alpha_i = {alpha[i]} != C")
    sa = sum(alpha, F0)
    primal = norm2 / 2 + (C * Fraction(sum(xis), L) if loss == "hinge" else F0)
    dual = sa - norm2 / 2
    if primal != dual:
        _fail(f"duality gap is {primal - dual}, not 0")
    xi = tuple(Fraction(v, L) if v else F0 for v in xis)
    return KKTCertificate(loss=loss, alpha=tuple(alpha), b=b, w=w, C=C if loss != "hard" else None, xi=xi,
                          conditions=("primal feasibility", "dual feasibility", "stationarity",
                                      "complementary slackness", "zero duality gap"),
                          primal_objective=primal, dual_objective=dual, norm2_w=norm2, _token=MINT)
