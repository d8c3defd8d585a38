"""The exact active-set solver of the SVM duals (any kernel), and Lemke's method on them.

The problem (seed 004, "Finding a maximum margin classifier", "Soft margin optimization"): the dual of

    minimize ||w||^2 / 2 [+ C sum xi_i | + C sum xi_i^2]  subject to  y_i f(x_i) >= 1 [- xi_i]

in the multipliers alpha (0 <= alpha_i [<= C]), f(x) = sum_j alpha_j y_j K(x_j, x) + b.  With the free set F
(y_i f(x_i) = 1) and the upper set U (alpha_i = C) guessed, the KKT conditions are the square linear system
:func:`eqp` solves exactly; :func:`active_set` repairs a wrong guess one sample at a time (bounded), and
:func:`lemke_chunked` solves the dual's KKT system -- a linear complementarity problem -- by Lemke's
complementary pivoting (:func:`exactlin.linalg.lp.lemke`, lexicographic, so it terminates) on a working subset
grown by the violated samples.  Nothing here is trusted: the SVMs check every answer with
:func:`exactlin.theory.kkt.verify_kkt`.

The kernel matrix K'_ij = K(x_i, x_j) (+ delta_ij / (2 C) for the squared slacks) is built lazily
(:class:`KernelMatrix`), so only the entries the iteration touches are computed.
"""

from __future__ import annotations

import math
from fractions import Fraction

from exactlin.linalg.lp import independent_columns, lemke, simplex_of, solve_exact

__all__ = ["KernelMatrix", "affine_values", "eqp", "b_interval", "alpha_lp", "active_set", "lemke_dual",
           "lemke_chunked"]

F0 = Fraction(0)
F1 = Fraction(1)


def affine_values(X, w, b) -> list[Fraction]:
    """<w, x_i> + b for every row, exactly; over the integers (one common denominator for w and b)
    when the rows are integral, which is the same number computed faster."""
    import operator

    L = b.denominator
    for v in w:
        L = math.lcm(L, v.denominator)
    if all(v.denominator == 1 for x in X for v in x):
        wi = [int(v * L) for v in w]
        bi = int(b * L)
        return [Fraction(sum(map(operator.mul, wi, [v.numerator for v in x])) + bi, L) for x in X]
    return [sum((a * c for a, c in zip(w, x)), F0) + b for x in X]


class KernelMatrix:
    """Exact kernel entries K'_ij = K(x_i, x_j) (+ delta_ij / (2 C) for the squared slacks), cached; ``backend``:
    the exact representation of the solves on it (:mod:`exactlin.linalg.matrices`)."""

    def __init__(self, X, kfun, l2C, backend: str | None = None):
        self.X = X
        self.backend = backend
        self.kfun = kfun  # None: linear
        self.diag = None if l2C is None else 1 / (2 * l2C)
        self.cache: dict = {}

    def base(self, i, j):
        key = (i, j) if i <= j else (j, i)
        v = self.cache.get(key)
        if v is None:
            xi, xj = self.X[i], self.X[j]
            if self.kfun is None:
                v = F0
                for a, b in zip(xi, xj):
                    v += a * b
            else:
                v = self.kfun(xi, xj)
            self.cache[key] = v
        return v

    def __call__(self, i, j):
        v = self.base(i, j)
        if self.diag is not None and i == j:
            v = v + self.diag
        return v

    def values(self, beta: dict, b):
        """f_i = sum_j beta_j K(x_j, x_i) + b for every i (without the diagonal term)."""
        n = len(self.X)
        if self.kfun is None:
            d = len(self.X[0])
            w = [F0] * d
            for j, bj in beta.items():
                if bj:
                    xj = self.X[j]
                    for k in range(d):
                        w[k] += bj * xj[k]
            return affine_values(self.X, w, b)
        sv = [j for j, v in beta.items() if v]
        return [sum((beta[j] * self.base(j, i) for j in sv), F0) + b for i in range(n)]


def eqp(K: KernelMatrix, y, F: list[int], U: list[int], C, intercept: bool):
    """Solve the KKT equations with free set F (y_i f'(x_i) = 1) and upper set U (alpha = C) exactly.

    Returns (beta dict on F' and U, b, F') with F' an affinely independent subset of F
    (greedy in F's order), or None if the system is singular."""
    if F:
        G = [[K(i, j) + (1 if intercept else 0) for j in F] for i in F]
        Fp = [F[c] for c in independent_columns(G, backend=K.backend)]
    else:
        Fp = []
    beta = {j: C * y[j] for j in U}
    if not Fp:
        return None if not U else (beta, None, Fp)
    rows, rhs = [], []
    for i in Fp:
        rows.append([K(i, j) for j in Fp] + ([F1] if intercept else []))
        rhs.append(y[i] - sum((beta[j] * K(j, i) for j in U), F0))
    if intercept:
        rows.append([F1] * len(Fp) + [F0])
        rhs.append(-sum((beta[j] for j in U), F0))
    sol = solve_exact(rows, rhs, backend=K.backend)
    if sol is None:
        return None
    for j, v in zip(Fp, sol):
        beta[j] = v
    b = sol[-1] if intercept else F0
    return beta, b, Fp


def b_interval(K, y, beta, n, L, U):
    """With no free multiplier, b only needs y_i f(x_i) >= 1 (i in L, alpha_i = 0) and y_i f(x_i) <= 1
    (i in U, alpha_i = C): with c_i = 1 - y_i g_i these read y_i b >= c_i or y_i b <= c_i, i.e. a lower or an
    upper bound y_i c_i on b.  Returns an exact b in that interval, or None when it is empty."""
    g = K.values(beta, F0)
    lo, hi = None, None
    for i in range(n):
        if i not in L and i not in U:
            continue
        bound = (1 - y[i] * g[i]) * y[i]
        if (i in L) == (y[i] == 1):
            lo = bound if lo is None or bound > lo else lo
        else:
            hi = bound if hi is None or bound < hi else hi
    if lo is not None and hi is not None and lo > hi:
        return None
    if lo is None and hi is None:
        return F0
    if lo is None:
        return hi
    if hi is None:
        return lo
    return (lo + hi) / 2


def alpha_lp(K: KernelMatrix, y, Fall: list[int], Fp: list[int], beta: dict, C, hinge: bool):
    """Degenerate optimum: (w, b) solved on the independent subset Fp is right, but its multipliers have a
    negative entry.  Find alpha >= 0 (<= C for the hinge loss) on all of Fall with the same expansion,
    by the exact simplex:  sum_j alpha_j y_j x_j = sum_{j in Fp} beta_j x_j (linear kernel; with a kernel
    the Gram-matrix form sum_j K_ij alpha_j y_j = sum_{j in Fp} K_ij beta_j for i in Fall, equivalent because
    null(G) = null(Phi)), and sum_j alpha_j y_j = sum_{j in Fp} beta_j."""
    m = len(Fall)
    rows, rhs = [], []
    if K.kfun is None:
        d = len(K.X[0])
        for k in range(d):
            rows.append([y[j] * K.X[j][k] for j in Fall])
            rhs.append(sum((beta[j] * K.X[j][k] for j in Fp), F0))
    else:
        for i in Fall:
            rows.append([y[j] * K.base(i, j) for j in Fall])
            rhs.append(sum((beta[j] * K.base(i, j) for j in Fp), F0))
    rows.append([Fraction(y[j]) for j in Fall])
    rhs.append(sum((beta[j] for j in Fp), F0))
    if hinge:  # alpha_j + s_j = C
        rows = [r + [F0] * m for r in rows]
        for t in range(m):
            r = [F0] * (2 * m)
            r[t] = r[m + t] = F1
            rows.append(r)
            rhs.append(C)
    res = simplex_of(K.backend)(rows, rhs)
    if res.status != "optimal":
        return None
    return {j: res.x[t] for t, j in enumerate(Fall)}


def full_alpha(n: int, U, free: dict, C) -> tuple:
    """The whole dual vector: C on the samples at their bound U, the free values, 0 elsewhere."""
    out = [F0] * n
    for j in U:
        out[j] = C
    for j, v in free.items():
        out[j] = v
    return tuple(out)


def next_working_set(Fp: list[int], U: list[int], Uset: set, bad: list[int], alpha: dict, vi) -> list[int]:
    """One active-set move (shared by :func:`active_set` and ``qp_linear.hinge_active_set``): a free multiplier out
    of [0, C] leaves F (the most negative to 0, else the largest to its bound C, joining U); otherwise the most
    violating sample ``vi`` joins F (leaving U if it was there).  ``U`` is updated in place."""
    F = list(Fp)
    if bad:
        neg = [j for j in bad if alpha[j] < 0]
        if neg:
            F.remove(min(neg, key=lambda j: alpha[j]))
        else:
            j = max(bad, key=lambda j: alpha[j])
            F.remove(j)
            U.append(j)
        return F
    if vi in Uset:
        U.remove(vi)
    F.append(vi)
    return F


def active_set(K: KernelMatrix, y, S0: list[int], U0=(), *, loss: str, C, intercept: bool, max_iter: int):
    """Exact active-set iteration from the guess S0 (free set; U0: multipliers at C, hinge loss).

    Each step solves the KKT equations on the current sets exactly.  If (w, b) is then primal
    feasible with every free sample on the margin but a multiplier is out of range (a degenerate
    optimum: more support vectors than affinely independent ones), valid multipliers are found by
    the exact LP :func:`alpha_lp`.  Otherwise the most negative multiplier is dropped (or one above C
    moves to the upper set), else the most violated constraint is added.  Returns (alpha, b)
    satisfying every KKT condition, or None when a set repeats, a system is singular, or max_iter
    steps pass (the caller then falls back to Lemke's method)."""
    n = len(y)
    hinge = loss == "hinge"
    U: list[int] = list(dict.fromkeys(U0)) if hinge else []
    F = [i for i in dict.fromkeys(S0) if i not in U]
    seen = set()
    for _ in range(max_iter):
        key = (tuple(sorted(F)), tuple(sorted(U)))
        if key in seen:
            return None
        seen.add(key)
        res = eqp(K, y, F, U, C, intercept)
        if res is None:
            return None
        beta, b, Fp = res
        if b is None:  # hinge, every multiplier at a bound
            if intercept and sum(beta.values(), F0) != 0:
                return None
            L = [i for i in range(n) if i not in beta]
            b = b_interval(K, y, beta, n, set(L), set(U)) if intercept else F0
            if b is None:
                return None
        alpha = {j: y[j] * v for j, v in beta.items()}
        f = K.values(beta, b)

        def margin(i, f=f, alpha=alpha):
            m = y[i] * f[i]
            return m + alpha[i] * K.diag if (K.diag is not None and i in alpha) else m

        bad = [j for j in Fp if alpha[j] < 0 or (hinge and alpha[j] > C)]
        Fset, Uset = set(Fp), set(U)  # samples of F outside Fp have alpha = 0: checked like the others
        viol, vi = F0, None
        for i in range(n):
            if i in Fset:
                continue
            m = margin(i)
            if i in Uset:
                if m - 1 > viol:
                    viol, vi = m - 1, i
            elif 1 - m > viol:
                viol, vi = 1 - m, i
        if not bad and vi is None:
            return tuple(alpha.get(i, F0) for i in range(n)), b
        if bad and vi is None and len(Fp) < len(F) and all(margin(i) == 1 for i in F):
            a_F = alpha_lp(K, y, F, Fp, beta, C, hinge)
            if a_F is not None:
                return full_alpha(n, U, a_F, C), b
        F = next_working_set(Fp, U, Uset, bad, alpha, vi)
    return None


def dual_lcp_rows(M: list, q: list, ys: list, *, intercept: bool, hinge: bool, C) -> None:
    """Fill, in place, the rows of the SVM dual's LCP that do not depend on the kernel, for m = len(ys) multipliers
    (shared by :func:`lemke_dual` and ``qp_linear``'s subset LCP): with an intercept, the pair lambda_1, lambda_2
    of the equality sum alpha_a y_a = (const) (columns and rows m, m + 1; their q entries are the caller's); for
    the hinge, nu_a of C - alpha_a >= 0 (columns and rows o + a, q = C)."""
    m = len(ys)
    if intercept:
        for a in range(m):
            M[a][m], M[a][m + 1] = Fraction(-ys[a]), Fraction(ys[a])
            M[m][a], M[m + 1][a] = Fraction(ys[a]), Fraction(-ys[a])
    if hinge:
        o = m + (2 if intercept else 0)
        for a in range(m):
            M[a][o + a] = F1
            M[o + a][a] = -F1
            q[o + a] = C


def lemke_dual(K: KernelMatrix, y, *, loss: str, C, intercept: bool, idx=None):
    """The dual's KKT system on the samples ``idx`` (default all) as an LCP in (alpha, lambda_1, lambda_2[, nu]),
    solved by Lemke's method.

    mu = Q alpha - y lambda_1 + y lambda_2 + nu - 1 >= 0  (complementary to alpha),
    y^T alpha >= 0, -y^T alpha >= 0 (to lambda_1, lambda_2: the equality sum alpha_i y_i = 0),
    C - alpha >= 0 (to nu, hinge only); b = lambda_2 - lambda_1.  Returns (alpha over all samples, b)."""
    N = len(y)
    idx = list(range(N)) if idx is None else list(idx)
    yy = [y[i] for i in idx]
    n = len(idx)
    hinge = loss == "hinge"
    m = n + (2 if intercept else 0) + (n if hinge else 0)
    M = [[F0] * m for _ in range(m)]
    q = [F0] * m
    for a_, i in enumerate(idx):
        for c_, j in enumerate(idx):
            M[a_][c_] = yy[a_] * yy[c_] * K(i, j)
        q[a_] = -F1
    dual_lcp_rows(M, q, yy, intercept=intercept, hinge=hinge, C=C)
    r = lemke(M, q)
    if r.status != "solved":
        return None
    alpha = [F0] * N
    for a_, i in enumerate(idx):
        alpha[i] = r.z[a_]
    b = (r.z[n + 1] - r.z[n]) if intercept else F0
    return tuple(alpha), b


def lemke_chunked(K: KernelMatrix, y, S0, *, loss: str, C, intercept: bool, limit: int | None = None):
    """Lemke's method on a working subset S, grown by the most violated samples until every sample
    outside S satisfies its KKT conditions with alpha = 0 (y_i f(x_i) >= 1); then the subset's optimum is
    the whole problem's.  S grows strictly each round, so this ends (at worst with S = everything).
    With ``limit``: None as soon as S would have more than ``limit`` samples (the caller then goes on)."""
    n = len(y)
    S = sorted(set(S0))
    while True:
        if limit is not None and len(S) > limit:
            return None
        sol = lemke_dual(K, y, loss=loss, C=C, intercept=intercept, idx=S)
        if sol is None:
            return None
        alpha, b = sol
        f = K.values({j: y[j] * alpha[j] for j in S if alpha[j]}, b)
        Sset = set(S)
        viol = sorted(((1 - y[i] * f[i], i) for i in range(n) if i not in Sset and y[i] * f[i] < 1), reverse=True)
        if not viol:
            return alpha, b
        S = sorted(Sset | {i for _, i in viol[:10]})
