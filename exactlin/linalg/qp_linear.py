"""The exact repair of a linear SVM at scale: everything over the integers, w instead of the n x n Gram matrix.

A linear SVM's optimum (seed 004, "Finding a maximum margin classifier", "Soft margin optimization") has at most
d + 1 free multipliers (generically): every other alpha_i is 0 or C.  A float guess (:mod:`exactlin.linalg.guess`)
names the samples on each side; the exact work here touches only the samples whose status is in doubt and
checks the rest in one pass of integer products, O(n d):

* :func:`hinge_active_set` -- the KKT equations on the free set, solved on an affinely independent subset with the
  Gram matrix of that subset only (the upper set enters through its sum C sum_U y_j x_j), one sample moved per
  step;
* :func:`repair_subset` -- Lemke's method (:func:`exactlin.linalg.lp.lemke`, exact, it terminates) on the dual
  restricted to the doubtful samples, every other multiplier held at its guessed bound (0 or C); the samples
  that then violate their KKT condition join the doubtful set, and the round repeats (the set grows strictly,
  so this ends);
* :func:`squared_newton` -- seed 004's squared slacks, Newton's method on the piecewise quadratic primal, each step
  one exact (d + 1) x (d + 1) solve.

The rows are held once, over one common denominator, as an integer matrix (python-flint ``fmpz_mat``,
:class:`IntegerRows`); every decision value w . x_i + b comes from one exact matrix-vector product.  Nothing
here is trusted: the SVMs check every answer with :func:`exactlin.theory.kkt.verify_kkt`.
"""

from __future__ import annotations

import math
import operator
from fractions import Fraction

from exactlin.linalg.lp import independent_columns, lemke, solve_exact
from exactlin.linalg.qp import KernelMatrix, alpha_lp, b_interval, dual_lcp_rows, full_alpha, next_working_set

__all__ = ["IntegerRows", "independent_rows", "hinge_active_set", "weights", "squared_newton",
           "repair_subset"]

F0 = Fraction(0)
F1 = Fraction(1)


class IntegerRows:
    """The rows x_i over one common denominator D as an integer matrix (python-flint ``fmpz_mat``), so that
    every decision value w . x_i + b comes from one exact matrix-vector product over the integers and the
    Gram matrix is only ever formed on the few free samples (the linear kernel never needs the n x n one).

    ``metric``: positive weights G_k, the kernel being K(x, z) = sum_k G_k x_k z_k.  A polynomial kernel is this
    over the monomials of its degree (seed 004, "SVM after transformation"): (x . z + c)^p = sum_k G_k x^k z^k
    with G_k = c^(p - |k|) p! / ((p - |k|)! k_1! ... k_d!), so its SVM is a linear one over integer rows.  The
    weights are held as integers Gn_k over one denominator Gd; "w" is then sum_j beta_j x_j in these
    coordinates, and f(x) = sum_k G_k w_k x_k + b."""

    def __init__(self, X, metric=None, backend: str | None = None):
        D = math.lcm(*{v.denominator for x in X for v in x})
        self.backend = backend
        self.D = D
        self.n, self.d = len(X), len(X[0])
        if D == 1:
            self.rows = [[v.numerator for v in x] for x in X]
        else:
            self.rows = [[v.numerator * (D // v.denominator) for v in x] for x in X]
        self.Z = None
        if self.d and backend != "sympy":
            import flint

            self.Z = flint.fmpz_mat(self.rows)
        G = [Fraction(1)] * self.d if metric is None else [Fraction(g) for g in metric]
        self.Gd = math.lcm(*(g.denominator for g in G)) if G else 1
        self.Gn = [g.numerator * (self.Gd // g.denominator) for g in G]
        self.G = G
        self.KD = D * D * self.Gd  # K(x_i, x_j) = dot(z_i, z_j) / KD

    def dot(self, r, s) -> int:
        """sum_k Gn_k r_k s_k: KD times the kernel of two integer rows (z = D x)."""
        return sum(g * a * c for g, a, c in zip(self.Gn, r, s))

    def scaled(self, w, b):
        """(g, den): g_i / den = f(x_i) = sum_k G_k w_k x_ik + b, all integers (den = D L Gd, L the common
        denominator of w and b): one python-flint matrix-vector product, or Python integers (backend sympy)."""
        L = b.denominator
        for v in w:
            L = math.lcm(L, v.denominator)
        wz = [int(v * L) * g for v, g in zip(w, self.Gn)]
        den = self.D * L * self.Gd
        bz = int(b * L) * self.D * self.Gd
        if self.Z is None:
            return [sum(map(operator.mul, r, wz)) + bz for r in self.rows], den
        import flint

        g = [int(t) + bz for t in (self.Z * flint.fmpz_mat(self.d, 1, wz)).entries()]
        return g, den

    def sum_rows(self, coef: dict):
        """sum_j coef_j z_j (z_j = D x_j, integral) for integer coefficients."""
        s = [0] * self.d
        for j, c in coef.items():
            if c:
                r = self.rows[j]
                for k in range(self.d):
                    s[k] += c * r[k]
        return s


def independent_rows(lin: IntegerRows, F: list[int], intercept: bool) -> list[int]:
    """An affinely (with an intercept; else linearly) independent subset of the samples F, greedy in F's order."""
    if not F:
        return []
    cols = [[*lin.rows[i], lin.D] if intercept else list(lin.rows[i]) for i in F]
    return [F[c] for c in independent_columns([list(r) for r in zip(*cols)], backend=lin.backend)]


def hinge_active_set(lin: IntegerRows, K: KernelMatrix, y, S0, U0, *, hard: bool, C, intercept: bool, max_iter: int):
    """The exact active-set iteration of :func:`exactlin.linalg.qp.active_set` for the linear kernel (hard margin
    or hinge loss)
    over the integers: the KKT equations on the free set F (y_i f(x_i) = 1; alpha = C on U) are solved on an
    affinely independent subset of F with the Gram matrix of that subset only, the upper set entering
    through its sum C sum_U y_j x_j, and every margin comes from one integer matrix-vector product.
    Returns (alpha, b) satisfying every KKT condition, or None (a set repeats, max_iter steps)."""
    n = len(y)
    U: list[int] = [] if hard else list(dict.fromkeys(U0))
    Uset0 = set(U)
    F = [i for i in dict.fromkeys(S0) if i not in Uset0]
    seen = set()
    for _ in range(max_iter):
        key = (frozenset(F), frozenset(U))
        if key in seen:
            return None
        seen.add(key)
        Fp = independent_rows(lin, F, intercept)
        sU = lin.sum_rows({j: y[j] for j in U})  # D sum_U y_j x_j
        beta = {j: C * y[j] for j in U}
        if Fp:
            # sum_{j in Fp} beta_j x_j.x_i + b = y_i - C x_i . sum_U y_j x_j  (i in Fp);  sum beta = -C sum_U y
            R = [lin.rows[i] for i in Fp]
            rows = [[Fraction(lin.dot(ri, rj), lin.KD) for rj in R] + ([F1] if intercept else [])
                    for ri in R]
            rhs = [y[i] - (C * Fraction(lin.dot(lin.rows[i], sU), lin.KD) if U else F0)
                   for i in Fp]
            if intercept:
                rows.append([F1] * len(Fp) + [F0])
                rhs.append(-C * sum((y[j] for j in U), 0) if U else F0)
            sol = solve_exact(rows, rhs, backend=lin.backend)
            if sol is None:
                return None
            for j, v in zip(Fp, sol):
                beta[j] = v
            b = sol[-1] if intercept else F0
        elif not U:
            return None
        else:  # every multiplier at C: b only has to lie in an interval
            if intercept and sum(beta.values(), F0) != 0:  # unbalanced: free the sample of U nearest its margin
                g, den = lin.scaled(weights(lin, beta), F0)
                j = max(U, key=lambda i: y[i] * g[i])
                U.remove(j)
                F = [j]
                continue
            L = [i for i in range(n) if i not in beta]
            b = b_interval(K, y, beta, n, set(L), set(U)) if intercept else F0
            if b is None:
                return None
        w = weights(lin, beta)
        g, den = lin.scaled(w, b)  # y_i f_i >= 1  <=>  y_i g_i >= den
        alpha = {j: y[j] * v for j, v in beta.items()}
        bad = [j for j in Fp if alpha[j] < 0 or (not hard and alpha[j] > C)]
        Fset, Uset = set(Fp), set(U)
        viol, vi = 0, None
        for i in range(n):
            if i in Fset:
                continue
            m = y[i] * g[i]
            if i in Uset:
                if m - den > viol:
                    viol, vi = m - den, i
            elif den - m > viol:
                viol, vi = den - m, i
        if not bad and vi is None:
            return tuple(alpha.get(i, F0) for i in range(n)), b
        if bad and vi is None and len(Fp) < len(F) and all(y[i] * g[i] == den for i in F):
            # (the expansion's equality over the integer rows, d equations: with a kernel's weights too, since
            # they are positive and diagonal, sum alpha_j y_j z_j = sum beta_j z_j is the same condition)
            a_F = alpha_lp(KernelMatrix(lin.rows, None, None, lin.backend), y, F, Fp, beta, C, not hard)
            if a_F is not None:
                return full_alpha(n, U, a_F, C), b
        F = next_working_set(Fp, U, Uset, bad, alpha, vi)
    return None


def weights(lin: IntegerRows, beta: dict) -> tuple:
    """w = sum_j beta_j x_j exactly (beta_j = alpha_j y_j), over one common denominator."""
    L = 1
    for v in beta.values():
        L = math.lcm(L, v.denominator)
    s = lin.sum_rows({j: int(v * L) for j, v in beta.items()})
    return tuple(Fraction(v, L * lin.D) for v in s)


def squared_newton(lin: IntegerRows, y, S0, *, C, intercept: bool, max_iter: int):
    """Seed 004's squared slacks, linear kernel, in the primal: on the set F of samples with alpha > 0
    (alpha_i = 2 C (1 - y_i f(x_i)) = 2 C xi_i), stationarity is the (d+1) x (d+1) system
    (I/(2C) + X_F^T X_F) w + X_F^T 1 b = X_F^T y_F,  1^T X_F w + |F| b = 1^T y_F  (b = 0 without intercept),
    solved exactly.  F is then replaced by {i : y_i f(x_i) < 1} (a Newton step on the piecewise quadratic
    primal); when a set repeats, one sample moves at a time (the most violated).  Returns (alpha, b) with
    every KKT condition met, or None after max_iter steps."""
    n, d, D = len(y), lin.d, lin.D
    F = sorted(set(S0))
    seen = set()
    single = False
    for _ in range(max_iter):
        key = frozenset(F)
        if key in seen:
            if single:
                return None
            single = True
        seen.add(key)
        if not F:
            return None
        m = d + (1 if intercept else 0)
        # integer normal equations over D: A = [Z_F, D 1]^T [Z_F, D 1], r = [Z_F, D 1]^T y_F
        A = [[0] * m for _ in range(m)]
        r = [0] * m
        for i in F:
            zi = lin.rows[i] + ([D] if intercept else [])
            yi = y[i]
            for a in range(m):
                za = zi[a]
                if za:
                    r[a] += yi * za
                    Aa = A[a]
                    for c in range(a, m):
                        Aa[c] += za * zi[c]
        for a in range(m):
            for c in range(a):
                A[a][c] = A[c][a]
        # with z_i = D x_i: [Z_F, D 1] (u, b) = D f_F, so (A + D^2/(2C) E) (u, b) = D r, E = diag(1/G_1, .., 1/G_d, 0)
        # (u = G w: f(x) = u . x + b, and ||w||^2 in feature space is sum_k u_k^2 / G_k)
        rows = [[Fraction(A[a][c]) + (D * D / (2 * C * lin.G[a]) if a == c and a < d else F0) for c in range(m)]
                for a in range(m)]
        sol = solve_exact(rows, [D * v for v in r], backend=lin.backend)
        if sol is None:
            return None
        w = tuple(sol[k] / lin.G[k] for k in range(d))
        b = sol[d] if intercept else F0
        g, den = lin.scaled(w, b)
        mar = [y[i] * g[i] for i in range(n)]
        Fs = set(F)
        out_bad = [i for i in F if mar[i] > den]
        in_bad = [i for i in range(n) if i not in Fs and mar[i] < den]
        if not out_bad and not in_bad:
            alpha = [F0] * n
            for i in F:
                alpha[i] = 2 * C * (1 - Fraction(mar[i], den))
            return tuple(alpha), b
        if not single:
            F = sorted([i for i in range(n) if mar[i] < den] + [i for i in F if mar[i] == den])
        else:
            cands = [(mar[i] - den, i) for i in out_bad] + [(den - mar[i], i) for i in in_bad]
            _, j = max(cands)
            F = sorted(Fs ^ {j})
    return None


def _subset_lcp(lin: IntegerRows, y, S: list[int], U: list[int], *, hard: bool, C, intercept: bool):
    """Lemke's method on the dual restricted to the samples S, the multipliers of U held at C (every other one
    at 0).  With z_i = D x_i (integral) and s_U = C sum_U y_j z_j, the LCP in (alpha_S, lambda_1, lambda_2[, nu])
    reads  mu_a = sum_c y_a y_c z_a.z_c / D^2 alpha_c + y_a z_a.s_U / D^2 - y_a lambda_1 + y_a lambda_2 + nu_a - 1
    >= 0 (complementary to alpha_a), +-(sum_S alpha_c y_c + C sum_U y_j) >= 0 (to lambda_1, lambda_2: the
    equality of the intercept), C - alpha_a >= 0 (to nu_a, hinge only); b = lambda_2 - lambda_1.
    Returns ({i: alpha_i} on S, b) or None (a secondary ray: no alpha on S balances the fixed part)."""
    D2 = lin.KD
    m = len(S)
    hinge = not hard
    sU = lin.sum_rows({j: y[j] for j in U})
    cU = (C * sum(y[j] for j in U)) if U else F0
    size = m + (2 if intercept else 0) + (m if hinge else 0)
    M = [[F0] * size for _ in range(size)]
    q = [F0] * size
    R = [lin.rows[i] for i in S]
    for a in range(m):
        ra, ya = R[a], y[S[a]]
        for c in range(a, m):
            v = Fraction(ya * y[S[c]] * lin.dot(ra, R[c]), D2)
            M[a][c] = M[c][a] = v
        q[a] = (C * Fraction(ya * lin.dot(ra, sU), D2) if U else F0) - 1
    dual_lcp_rows(M, q, [y[i] for i in S], intercept=intercept, hinge=hinge, C=C)
    if intercept:
        q[m], q[m + 1] = cU, -cU
    r = lemke(M, q)
    if r.status != "solved":
        return None
    return {i: r.z[a] for a, i in enumerate(S)}, ((r.z[m + 1] - r.z[m]) if intercept else F0)


def repair_subset(lin: IntegerRows, y, doubt, upper, *, hard: bool, C, intercept: bool, order=None,
                  max_rounds: int = 50, grow: int = 10, max_size: int = 120):
    """The exact optimum from a float guess that holds the samples ``upper`` at alpha = C, ``doubt`` free to move
    and every other sample at alpha = 0: Lemke's method on the doubtful samples (:func:`_subset_lcp`), then one
    exact pass over all samples (integer products): a sample held at 0 with y_i f(x_i) < 1, or at C with
    y_i f(x_i) > 1, violates its KKT condition; the ``grow`` worst join the doubtful set and the round repeats.
    When the fixed part cannot be balanced (no alpha on the doubtful set meets sum alpha_i y_i = 0), the
    samples of ``order`` (nearest the margin first, from the float guess) join it.  The doubtful set grows
    strictly every round, so this ends; it gives up (None) after ``max_rounds`` rounds or beyond ``max_size``
    samples (Lemke's dense tableau grows with the square of the set).  Returns (alpha over all samples, b) with
    every KKT condition met, or None."""
    n = len(y)
    S = list(dict.fromkeys(doubt))
    Sset = set(S)
    U = [] if hard else [j for j in dict.fromkeys(upper) if j not in Sset]
    order = list(order or ())
    for _ in range(max_rounds):
        if len(S) > max_size:
            return None
        Uset = set(U)
        res = _subset_lcp(lin, y, S, U, hard=hard, C=C, intercept=intercept)
        if res is None:
            extra = [i for i in order if i not in Sset][:grow]
            if not extra:
                return None
            S += extra
            Sset.update(extra)
            U = [j for j in U if j not in Sset]
            continue
        aS, b = res
        beta = {j: C * y[j] for j in U}
        for j, a in aS.items():
            if a:
                beta[j] = y[j] * a
        g, den = lin.scaled(weights(lin, beta), b)  # y_i f(x_i) >= 1  <=>  y_i g_i >= den
        viol = []
        for i in range(n):
            if i in Sset:
                continue
            m = y[i] * g[i]
            if i in Uset:
                if m > den:
                    viol.append((m - den, i))
            elif m < den:
                viol.append((den - m, i))
        if not viol:
            alpha = [F0] * n
            for j in U:
                alpha[j] = C
            for j, a in aS.items():
                alpha[j] = a
            return tuple(alpha), b
        viol.sort(reverse=True)
        extra = [i for _, i in viol[:grow]]
        S += extra
        Sset.update(extra)
        U = [j for j in U if j not in Sset]
    return None
