"""Exact maximum-margin classifiers: hard-margin SVM, seed 004's squared-slack soft margin, the
hinge-loss C-SVM, polynomial kernels, and the tightest perceptron bound.

Seed 002 (002_c246c20bba6fa4e1.txt, "Maximum Margin Classifiers") and seed 004
(004_f7c425a21563e0cd.txt, "Finding a maximum margin classifier", "Soft margin
optimization", "SVM after transformation"):

    minimize ||w||^2 / 2  subject to  y_i (w . x_i + b) >= 1                       [svm-hard]
    minimize ||w||^2 / 2 + C sum xi_i^2  s.t.  y_i (w . x_i + b) >= 1 - xi_i      [svm-soft-l2] (seed 004: C = 1)
    minimize ||w||^2 / 2 + C sum xi_i    s.t.  y_i (w . x_i + b) >= 1 - xi_i, xi >= 0   [svm-soft]

and the dual decision function sign(sum_{i in sv} y_i alpha_i K(x_i, z) + b).

Method (nothing uncertified is ever returned):

1. a float solver's guess of the active set (scikit-learn's ``SVC`` when installed);
2. the exact solve of the KKT equations on that set (python-flint, over the rationals):
   sum_{j in S} beta_j K_ij + b = y_i (i in S), sum_j beta_j = 0, alpha_j = y_j beta_j, on an
   affinely independent subset of S (so that the system is nonsingular: duplicates and
   more support vectors than dimensions are handled here);
3. an exact active-set repair when the guess is off (drop a negative multiplier, add the
   most violated constraint; bounded); for the linear kernel at scale, when these one-sample steps
   cycle from a small guess (svm-soft on separable data), Lemke's method on the guessed samples,
   grown by the violated ones (capped at LEMKE_SUBSET_MAX samples);
4. the exact fallback: Lemke's complementary pivoting (lexicographic, so it terminates)
   on the dual's KKT system, an LCP (:func:`exactlin.linalg.lp.lemke`);
5. the independent exact KKT check (:func:`exactlin.theory.kkt.verify_kkt`).

Non-separable data (hard margin): a Run with ``converged=False``, reason
``not_separable`` and the verified Gordan certificate of :mod:`.separability`.
"""

from __future__ import annotations

import math
from fractions import Fraction

from exactlin.algorithms import register
from exactlin.algorithms._contract import Checked
from exactlin.algorithms._loop import binary_problem
from exactlin.errors import LabelError, ParameterError, VerificationError
from exactlin.exact.format import quote
from exactlin.linalg.lp import independent_columns, lemke, separate, solve_exact
from exactlin.model.models import KernelModel, label_pair, linear_model
from exactlin.model.params import Conflict, Param, at_least, nonnegative, positive
from exactlin.model.run import Run
from exactlin.theory.certificates import verify_gordan
from exactlin.theory.kkt import verify_kkt

__all__ = ["svm_hard", "svm_soft", "svm_soft_l2", "perceptron_bound", "poly_kernel", "decision_function",
           "monomials"]

SEED = "004_f7c425a21563e0cd.txt"
F0 = Fraction(0)
F1 = Fraction(1)

_KERNEL_PARAMS = (
    Param("kernel", "choice", "linear", "linear, or poly: K(x, z) = (x . z + coef0)^degree",
          choices=("linear", "poly")),
    Param("degree", "int", 2, "degree of the polynomial kernel", at_least(1)),
    Param("coef0", "rational", Fraction(1), "constant of the polynomial kernel (>= 0 keeps K positive semidefinite)",
          nonnegative),
    Param("exact_only", "bool", False,
          "skip the float guess (scikit-learn) and solve exactly from the start (Lemke's method)"),
)
#: degree and coef0 belong to the polynomial kernel
KERNEL_CONFLICTS = (
    Conflict("degree", "kernel", lambda g, e: e.get("kernel") != "poly",
             "degree is the polynomial kernel's; it does not apply to kernel={kernel} (pass kernel=poly, or drop "
             "degree)"),
    Conflict("coef0", "kernel", lambda g, e: e.get("kernel") != "poly",
             "coef0 is the polynomial kernel's; it does not apply to kernel={kernel} (pass kernel=poly, or drop "
             "coef0)"),
)

#: from this many samples on, a linear SVM works over the integers with w (never the n x n Gram matrix), from
#: its own float guess (below it, the general path: scikit-learn's SVC guess and the exact kernel form)
LINEAR_SCALE_N = 30

#: the linear path's float guess is handed to Lemke's method on a working subset (when the exact repair steps do
#: not reach a KKT point) only while it names at most this many samples, and the subset may grow only to
#: LEMKE_SUBSET_MAX: Lemke's dense Fraction tableau costs seconds from about 40 samples on (noisy 200 x 5 at
#: C = 1/1000, a 45-sample guess: about 10 s a round), so larger guesses go on to the next guess instead
LEMKE_SUBSET_N = 30
LEMKE_QUICK = 20  # a subset this small is tried with Lemke before the next float guess
LEMKE_SUBSET_MAX = 40

PARAMS_HARD = _KERNEL_PARAMS
PARAMS_SOFT = (Param("C", "rational", Fraction(1), "weight of the slack penalty", positive),) + _KERNEL_PARAMS
PARAMS_SOFT_L2 = (Param("C", "rational", Fraction(1),
                        "weight of sum xi_i^2 (seed 004's objective ||w||^2/2 + sum xi_i^2 is C = 1)", positive),
                  ) + _KERNEL_PARAMS


def poly_kernel(degree: int = 2, coef0=1):
    """K(x, z) = (x . z + coef0)^degree, exactly.

    >>> poly_kernel(2, 1)((1, 2), (3, "1/2"))
    Fraction(25, 1)
    """
    if isinstance(degree, bool) or int(degree) != degree or degree < 1:
        raise ParameterError(f"degree must be >= 1, got {quote(degree)}", parameter="degree")
    c = Fraction(coef0) if not isinstance(coef0, str) else Fraction(coef0)
    degree = int(degree)

    def K(x, z):
        return (sum((Fraction(a) * Fraction(b) for a, b in zip(x, z)), F0) + c) ** degree

    K.degree, K.coef0 = degree, c
    return K


def monomials(x, degree: int, coef0) -> tuple:
    """The monomials x^k behind the polynomial kernel: (x . z + c)^p = sum_k m_k c^(p-|k|) x^k z^k with
    positive multinomial weights m_k, over |k| <= p when c > 0 (|k| = p when c = 0).  Feature space
    vectors are these monomials scaled by sqrt(m_k c^(p-|k|)) > 0, so the two are separable together
    and a Gordan certificate on the monomials is one in feature space too.

    >>> monomials((2, 3), 2, 1)
    (Fraction(1, 1), Fraction(2, 1), Fraction(3, 1), Fraction(4, 1), Fraction(6, 1), Fraction(9, 1))
    """
    from itertools import combinations_with_replacement

    x = tuple(Fraction(v) for v in x)
    out = []
    for t in range(0 if Fraction(coef0) > 0 else degree, degree + 1):
        for idx in combinations_with_replacement(range(len(x)), t):
            v = F1
            for j in idx:
                v *= x[j]
            out.append(v)
    return tuple(out)


# ---------------------------------------------------------------------------
# the exact dual core


def _affine_values(X, w, b) -> list[Fraction]:
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


class _Kern:
    """Exact kernel entries K'_ij = K(x_i, x_j) (+ delta_ij / (2 C) for the squared slacks), cached."""

    def __init__(self, X, kfun, l2C):
        self.X = X
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
            return _affine_values(self.X, w, b)
        sv = [j for j, v in beta.items() if v]
        return [sum((beta[j] * self.base(j, i) for j in sv), F0) + b for i in range(n)]


def _eqp(K: _Kern, y, F: list[int], U: list[int], C, intercept: bool):
    """Solve the KKT equations with free set F (y_i f'(x_i) = 1) and upper set U (alpha = C) exactly.

    Returns (beta dict on F' and U, b, F') with F' an affinely independent subset of F
    (greedy in F's order), or None if the system is singular."""
    if F:
        G = [[K(i, j) + (1 if intercept else 0) for j in F] for i in F]
        Fp = [F[c] for c in independent_columns(G)]
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
    sol = solve_exact(rows, rhs)
    if sol is None:
        return None
    for j, v in zip(Fp, sol):
        beta[j] = v
    b = sol[-1] if intercept else F0
    return beta, b, Fp


def _b_interval(K, y, beta, n, L, U):
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


def _alpha_lp(K: _Kern, y, Fall: list[int], Fp: list[int], beta: dict, C, hinge: bool):
    """Degenerate optimum: (w, b) solved on the independent subset Fp is right, but its multipliers have a
    negative entry.  Find alpha >= 0 (<= C for the hinge loss) on all of Fall with the same expansion,
    by the exact simplex:  sum_j alpha_j y_j x_j = sum_{j in Fp} beta_j x_j (linear kernel; with a kernel
    the Gram-matrix form sum_j K_ij alpha_j y_j = sum_{j in Fp} K_ij beta_j for i in Fall, equivalent because
    null(G) = null(Phi)), and sum_j alpha_j y_j = sum_{j in Fp} beta_j."""
    from exactlin.linalg.lp import simplex

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
    res = simplex(rows, rhs)
    if res.status != "optimal":
        return None
    return {j: res.x[t] for t, j in enumerate(Fall)}


def _active_set(K: _Kern, y, S0: list[int], U0=(), *, loss: str, C, intercept: bool, max_iter: int):
    """Exact active-set iteration from the guess S0 (free set; U0: multipliers at C, hinge loss).

    Each step solves the KKT equations on the current sets exactly.  If (w, b) is then primal
    feasible with every free sample on the margin but a multiplier is out of range (a degenerate
    optimum: more support vectors than affinely independent ones), valid multipliers are found by
    the exact LP :func:`_alpha_lp`.  Otherwise the most negative multiplier is dropped (or one above C
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
        res = _eqp(K, y, F, U, C, intercept)
        if res is None:
            return None
        beta, b, Fp = res
        if b is None:  # hinge, every multiplier at a bound
            if intercept and sum(beta.values(), F0) != 0:
                return None
            L = [i for i in range(n) if i not in beta]
            b = _b_interval(K, y, beta, n, set(L), set(U)) if intercept else F0
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
            a_F = _alpha_lp(K, y, F, Fp, beta, C, hinge)
            if a_F is not None:
                out = [F0] * n
                for j in U:
                    out[j] = C
                for j, v in a_F.items():
                    out[j] = v
                return tuple(out), b
        F = list(Fp)
        if bad:
            neg = [j for j in bad if alpha[j] < 0]
            if neg:
                F.remove(min(neg, key=lambda j: alpha[j]))
            else:
                j = max(bad, key=lambda j: alpha[j])
                F.remove(j)
                U.append(j)
            continue
        if vi in Uset:
            U.remove(vi)
        F.append(vi)
    return None


def _lemke_dual(K: _Kern, y, *, loss: str, C, intercept: bool, idx=None):
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
    if intercept:
        for i in range(n):
            M[i][n] = Fraction(-yy[i])
            M[i][n + 1] = Fraction(yy[i])
            M[n][i] = Fraction(yy[i])
            M[n + 1][i] = Fraction(-yy[i])
    if hinge:
        o = n + (2 if intercept else 0)
        for i in range(n):
            M[i][o + i] = F1
            M[o + i][i] = -F1
            q[o + i] = C
    r = lemke(M, q)
    if r.status != "solved":
        return None
    alpha = [F0] * N
    for a_, i in enumerate(idx):
        alpha[i] = r.z[a_]
    b = (r.z[n + 1] - r.z[n]) if intercept else F0
    return tuple(alpha), b


def _lemke_chunked(K: _Kern, y, S0, *, loss: str, C, intercept: bool, limit: int | None = None):
    """Lemke's method on a working subset S, grown by the most violated samples until every sample
    outside S satisfies its KKT conditions with alpha = 0 (y_i f(x_i) >= 1); then the subset's optimum is
    the whole problem's.  S grows strictly each round, so this ends (at worst with S = everything).
    With ``limit``: None as soon as S would have more than ``limit`` samples (the caller then goes on)."""
    n = len(y)
    S = sorted(set(S0))
    while True:
        if limit is not None and len(S) > limit:
            return None
        sol = _lemke_dual(K, y, loss=loss, C=C, intercept=intercept, idx=S)
        if sol is None:
            return None
        alpha, b = sol
        f = K.values({j: y[j] * alpha[j] for j in S if alpha[j]}, b)
        Sset = set(S)
        viol = sorted(((1 - y[i] * f[i], i) for i in range(n) if i not in Sset and y[i] * f[i] < 1), reverse=True)
        if not viol:
            return alpha, b
        S = sorted(Sset | {i for _, i in viol[:10]})


# ---------------------------------------------------------------------------
# the linear kernel at scale: everything over the integers, w instead of the n x n Gram matrix


class _Lin:
    """The rows x_i over one common denominator D as an integer matrix (python-flint ``fmpz_mat``), so that
    every decision value w . x_i + b comes from one exact matrix-vector product over the integers and the
    Gram matrix is only ever formed on the few free samples (the linear kernel never needs the n x n one)."""

    def __init__(self, X):
        import flint

        D = 1
        for x in X:
            for v in x:
                if v.denominator != 1:
                    D = math.lcm(D, v.denominator)
        self.D = D
        self.n, self.d = len(X), len(X[0])
        self.rows = [[v.numerator * (D // v.denominator) for v in x] for x in X]
        self.Z = flint.fmpz_mat(self.rows) if self.d else None

    def scaled(self, w, b):
        """(g, den): D L (w . x_i + b) = g_i with den = D L, L the common denominator of w and b (all integers)."""
        import flint

        L = b.denominator
        for v in w:
            L = math.lcm(L, v.denominator)
        wz = [int(v * L) for v in w]
        bz = int(b * L) * self.D
        g = [int(t) + bz for t in (self.Z * flint.fmpz_mat(self.d, 1, wz)).entries()]
        return g, self.D * L

    def sum_rows(self, coef: dict):
        """sum_j coef_j z_j (z_j = D x_j, integral) for integer coefficients."""
        s = [0] * self.d
        for j, c in coef.items():
            if c:
                r = self.rows[j]
                for k in range(self.d):
                    s[k] += c * r[k]
        return s


def _fmpq_solve(rows, rhs):
    """The exact solution of a square system (Fractions/ints), or None when it is singular."""
    import flint

    from exactlin.linalg.lp import _fmpq

    m = len(rows)
    A = flint.fmpq_mat(m, m, [_fmpq(Fraction(v)) for r in rows for v in r])
    if A.rank() < m:
        return None
    x = A.solve(flint.fmpq_mat(m, 1, [_fmpq(Fraction(v)) for v in rhs]))
    return [Fraction(int(x[i, 0].p), int(x[i, 0].q)) for i in range(m)]


def _lin_independent(lin: _Lin, F: list[int], intercept: bool) -> list[int]:
    """An affinely (with an intercept; else linearly) independent subset of the samples F, greedy in F's order."""
    if not F:
        return []
    cols = [[*lin.rows[i], lin.D] if intercept else list(lin.rows[i]) for i in F]
    return [F[c] for c in independent_columns([list(r) for r in zip(*cols)])]


def _lin_hinge(lin: _Lin, K: _Kern, y, S0, U0, *, hard: bool, C, intercept: bool, max_iter: int):
    """The exact active-set iteration of :func:`_active_set` for the linear kernel (hard margin or hinge loss)
    over the integers: the KKT equations on the free set F (y_i f(x_i) = 1; alpha = C on U) are solved on an
    affinely independent subset of F with the Gram matrix of that subset only, the upper set entering
    through its sum C sum_U y_j x_j, and every margin comes from one integer matrix-vector product.
    Returns (alpha, b) satisfying every KKT condition, or None (a set repeats, max_iter steps)."""
    n = len(y)
    D = lin.D
    U: list[int] = [] if hard else list(dict.fromkeys(U0))
    Uset0 = set(U)
    F = [i for i in dict.fromkeys(S0) if i not in Uset0]
    seen = set()
    for _ in range(max_iter):
        key = (frozenset(F), frozenset(U))
        if key in seen:
            return None
        seen.add(key)
        Fp = _lin_independent(lin, F, intercept)
        sU = lin.sum_rows({j: y[j] for j in U})  # D sum_U y_j x_j
        beta = {j: C * y[j] for j in U}
        if Fp:
            # sum_{j in Fp} beta_j x_j.x_i + b = y_i - C x_i . sum_U y_j x_j  (i in Fp);  sum beta = -C sum_U y
            R = [lin.rows[i] for i in Fp]
            rows = [[Fraction(sum(a * c for a, c in zip(ri, rj)), D * D) for rj in R] + ([F1] if intercept else [])
                    for ri in R]
            rhs = [y[i] - (C * Fraction(sum(a * c for a, c in zip(lin.rows[i], sU)), D * D) if U else F0)
                   for i in Fp]
            if intercept:
                rows.append([F1] * len(Fp) + [F0])
                rhs.append(-C * sum((y[j] for j in U), 0) if U else F0)
            sol = _fmpq_solve(rows, rhs)
            if sol is None:
                return None
            for j, v in zip(Fp, sol):
                beta[j] = v
            b = sol[-1] if intercept else F0
        elif not U:
            return None
        else:  # every multiplier at C: b only has to lie in an interval
            if intercept and sum(beta.values(), F0) != 0:  # unbalanced: free the sample of U nearest its margin
                g, den = lin.scaled(_lin_w(lin, beta), F0)
                j = max(U, key=lambda i: y[i] * g[i])
                U.remove(j)
                F = [j]
                continue
            L = [i for i in range(n) if i not in beta]
            b = _b_interval(K, y, beta, n, set(L), set(U)) if intercept else F0
            if b is None:
                return None
        w = _lin_w(lin, beta)
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
            a_F = _alpha_lp(K, y, F, Fp, beta, C, not hard)
            if a_F is not None:
                out = [F0] * n
                for j in U:
                    out[j] = C
                for j, v in a_F.items():
                    out[j] = v
                return tuple(out), b
        F = list(Fp)
        if bad:
            neg = [j for j in bad if alpha[j] < 0]
            if neg:
                F.remove(min(neg, key=lambda j: alpha[j]))
            else:
                j = max(bad, key=lambda j: alpha[j])
                F.remove(j)
                U.append(j)
            continue
        if vi in Uset:
            U.remove(vi)
        F.append(vi)
    return None


def _lin_w(lin: _Lin, beta: dict) -> tuple:
    """w = sum_j beta_j x_j exactly (beta_j = alpha_j y_j), over one common denominator."""
    L = 1
    for v in beta.values():
        L = math.lcm(L, v.denominator)
    s = lin.sum_rows({j: int(v * L) for j, v in beta.items()})
    return tuple(Fraction(v, L * lin.D) for v in s)


def _lin_squared(lin: _Lin, y, S0, *, C, intercept: bool, max_iter: int):
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
        # with z_i = D x_i: [Z_F, D 1] (w, b) = D f_F, so (A + D^2/(2C) E) (w, b) = D r, E = diag(1, .., 1, 0)
        rows = [[Fraction(A[a][c]) + (D * D / (2 * C) if a == c and a < d else F0) for c in range(m)]
                for a in range(m)]
        sol = _fmpq_solve(rows, [D * v for v in r])
        if sol is None:
            return None
        w = tuple(sol[:d])
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


def _lin_guess(X, y, *, loss: str, C, intercept: bool, highs: bool = False):
    """A float guess of the active set for the linear kernel: (free, upper, who) or None.

    Squared slacks: Newton's method on the piecewise quadratic primal in float64 (each step one (d+1) x (d+1)
    solve; a handful of steps).  Hard margin and hinge loss: the primal QP (w, b, xi) by HiGHS's QP solver
    (scipy's bundled HiGHS), which, unlike scikit-learn's SVC, does not stall on unscaled data.  Only a guess:
    the exact iteration after it decides."""
    try:
        import numpy as np

        Xf = np.array([[v.numerator / v.denominator for v in x] for x in X], dtype=float)
    except (ImportError, OverflowError):
        return None
    if not np.isfinite(Xf).all() or np.abs(Xf).max() > 1e150 or not Xf.size:
        return None
    yf = np.array(y, dtype=float)
    n, d = Xf.shape
    Xa = np.hstack([Xf, np.ones((n, 1))]) if intercept else Xf
    if loss == "squared":
        reg = np.eye(Xa.shape[1]) / (2 * float(C))
        if intercept:
            reg[-1, -1] = 0.0
        F = np.ones(n, dtype=bool)
        for _ in range(100):
            A = Xa[F]
            try:
                u = np.linalg.solve(reg + A.T @ A, A.T @ yf[F])
            except np.linalg.LinAlgError:
                return None
            Fn = yf * (Xa @ u) < 1
            if (Fn == F).all():
                break
            F = Fn
        return [int(i) for i in np.flatnonzero(F)], [], "Newton's method on the primal (float64)"
    if loss == "hinge" and not highs:
        return _huber_newton(Xa, yf, float(C), intercept)
    return _highs_guess(Xa, yf, loss=loss, C=C, n=n, d=d)


def _huber_newton(Xa, yf, C: float, intercept: bool):
    """Float guess for the hinge loss: Newton's method (backtracking) on the primal with the hinge smoothed
    quadratically on (0, h] (Huber), h = 1, 1/10, ..., 1e-9, each stage warm-started; at small h the samples
    in the quadratic zone are the free ones (0 < alpha < C) and those beyond it the ones at C.  (free, upper,
    who), or None."""
    import numpy as np

    n, k = Xa.shape
    E = np.ones(k)
    if intercept:
        E[-1] = 0.0
    u = np.zeros(k)
    yX = yf[:, None] * Xa

    def obj(u, h):
        t = 1 - yX @ u
        return 0.5 * (E * u * u).sum() + C * np.where(t > h, t - h / 2, np.where(t > 0, t * t / (2 * h), 0.0)).sum()

    h = 1.0
    with np.errstate(all="ignore"):
        for _ in range(10):
            for _ in range(60):
                t = 1 - yX @ u
                q, lin = (t > 0) & (t <= h), t > h
                g = E * u - C * (yX[lin].sum(0) + (t[q] / h) @ yX[q])
                H = np.diag(E) + (C / h) * (yX[q].T @ yX[q]) + 1e-12 * np.eye(k)
                try:
                    step = np.linalg.solve(H, -g)
                except np.linalg.LinAlgError:
                    return None
                f0, s, slope = obj(u, h), 1.0, float(g @ step)
                while s > 1e-12 and obj(u + s * step, h) > f0 + 1e-4 * s * slope:
                    s /= 2
                u = u + s * step
                t2 = 1 - yX @ u
                if s == 1.0 and ((t2 > 0) & (t2 <= h) == q).all() and ((t2 > h) == lin).all():
                    break
            h /= 10
    if not np.isfinite(u).all():
        return None
    t = 1 - yX @ u
    h *= 10
    free = [int(i) for i in np.argsort(-t) if 0 < t[i] <= h]
    tol = h
    if not free:  # the zone emptied in float64: the samples nearest their margin
        tol = max(h, 1e-7)
        free = [int(i) for i in np.argsort(np.abs(t)) if abs(t[i]) <= tol]
    upper = [int(i) for i in np.flatnonzero(t > tol)]
    return free, upper, "Newton's method on the Huber-smoothed primal (float64)"


def _highs_guess(Xa, yf, *, loss: str, C, n: int, d: int):
    """Float guess by HiGHS's QP solver on the primal (w, b, xi) (hard margin, or the hinge loss)."""
    import numpy as np

    try:
        import scipy.sparse as sp
        from scipy.optimize._highspy import _core as hc
    except ImportError:
        return None
    try:
        hinge = loss == "hinge"
        k = Xa.shape[1]
        nc = k + (n if hinge else 0)
        lp = hc.HighsLp()
        lp.num_col_, lp.num_row_ = nc, n
        lp.col_cost_ = np.concatenate([np.zeros(k), float(C) * np.ones(n)]) if hinge else np.zeros(k)
        lp.col_lower_ = np.concatenate([np.full(k, -np.inf), np.zeros(n)]) if hinge else np.full(k, -np.inf)
        lp.col_upper_ = np.full(nc, np.inf)
        lp.row_lower_, lp.row_upper_ = np.ones(n), np.full(n, np.inf)
        Yx = yf[:, None] * Xa
        Ac = sp.csc_matrix(np.hstack([Yx, np.eye(n)]) if hinge else Yx)
        lp.a_matrix_.start_, lp.a_matrix_.index_, lp.a_matrix_.value_ = Ac.indptr, Ac.indices, Ac.data
        lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = nc, n
        H = hc.HighsHessian()
        H.dim_, H.format_ = nc, hc.HessianFormat.kTriangular
        H.start_ = np.concatenate([np.arange(d + 1), np.full(nc - d, d)]).astype(np.int32)
        H.index_, H.value_ = np.arange(d, dtype=np.int32), np.ones(d)
        m = hc.HighsModel()
        m.lp_, m.hessian_ = lp, H
        h = hc._Highs()
        h.setOptionValue("output_flag", False)
        # a deterministic bound (never the clock): HiGHS's QP solver was seen to run forever on a small separable
        # hard-margin set (benchmarks' svm smoke workload, 40 x 3); a guess that hits it is simply not used
        h.setOptionValue("qp_iteration_limit", 20 * (n + k) + 1000)
        h.setOptionValue("simplex_iteration_limit", 20 * (n + k) + 1000)
        h.passModel(m)
        h.run()
        if h.getModelStatus() != hc.HighsModelStatus.kOptimal:
            return None
        a = np.abs(np.array(h.getSolution().row_dual))
    except Exception:  # noqa: BLE001 - a float guess is only a hint (scipy's HiGHS bindings are private)
        return None
    top = float(a.max()) if n else 0.0
    if not top > 0:
        return None
    if hinge:
        Cf = float(C)
        upper = [int(i) for i in np.flatnonzero(a >= Cf * (1 - 1e-7))]
        fr = [int(i) for i in np.flatnonzero((a > 1e-9 * Cf) & (a < Cf * (1 - 1e-7)))]
    else:
        upper, fr = [], [int(i) for i in np.flatnonzero(a > 1e-9 * top)]
    fr.sort(key=lambda i: -a[i])
    return fr, upper, "HiGHS's QP solver on the primal (float64)"


def _float_guess(X, y, *, kind, degree, coef0, loss, C, n):
    """(free, upper): the indices scikit-learn's SVC takes as support vectors, by decreasing alpha
    (for the hinge loss split into 0 < alpha < C and alpha = C), or None when scikit-learn is not
    installed or fails.  Only a guess: everything after it is exact."""
    try:
        import numpy as np
        from sklearn.svm import SVC
    except ImportError:
        return None
    try:
        Xf = np.array([[v.numerator / v.denominator for v in x] for x in X], dtype=float)
    except OverflowError:
        return None
    if not np.isfinite(Xf).all() or np.abs(Xf).max() > 1e150:
        return None
    yf = np.array(y)
    import warnings

    try:
        ctx = warnings.catch_warnings()
        ctx.__enter__()
        warnings.simplefilter("ignore")
        if loss == "squared":
            if kind == "linear":
                Kf = Xf @ Xf.T
            else:
                Kf = (Xf @ Xf.T + float(coef0)) ** degree
            Kf = Kf + np.eye(n) / (2 * float(C))
            clf = SVC(kernel="precomputed", C=1e10, tol=1e-10, max_iter=10 ** 6).fit(Kf, yf)
        else:
            Cf = 1e10 if loss == "hard" else float(C)
            if kind == "linear":
                clf = SVC(kernel="linear", C=Cf, tol=1e-10, max_iter=10 ** 6)
            else:
                clf = SVC(kernel="poly", degree=degree, gamma=1.0, coef0=float(coef0), C=Cf, tol=1e-10,
                          max_iter=10 ** 6)
            clf.fit(Xf, yf)
    except Exception:  # noqa: BLE001 - a float guess is only a hint
        return None
    finally:
        ctx.__exit__(None, None, None)
    sup = [int(i) for i in clf.support_]
    a = np.abs(clf.dual_coef_[0])
    if loss == "hinge":
        Cf = float(C)
        free = [(i, v) for i, v in zip(sup, a) if v < Cf * (1 - 1e-7)]
        upper = [i for i, v in zip(sup, a) if v >= Cf * (1 - 1e-7)]
        return [i for i, _ in sorted(free, key=lambda t: -t[1])], upper
    top = float(a.max()) if len(a) else 0.0
    order = sorted(((i, v) for i, v in zip(sup, a) if v > 1e-9 * top), key=lambda t: -t[1])
    return [i for i, _ in order], []


def _closest_pair(X, y, K: _Kern) -> list[int]:
    """A start for the exact methods (only a heuristic: any start gives the exact optimum)."""
    import numpy as np

    pos = [i for i in range(len(y)) if y[i] == 1]
    neg = [i for i in range(len(y)) if y[i] == -1]
    try:
        Xf = np.array([[v.numerator / v.denominator for v in x] for x in X], dtype=float)
    except OverflowError:
        return ([pos[0]] if pos else []) + ([neg[0]] if neg else [])
    if not np.isfinite(Xf).all() or np.abs(Xf).max() > 1e150:
        return ([pos[0]] if pos else []) + ([neg[0]] if neg else [])
    if not pos or not neg:  # one class (only without intercept): start from the shortest sample
        return [int(np.argmin((Xf ** 2).sum(1)))]
    if K.kfun is None:
        D = ((Xf[pos][:, None, :] - Xf[neg][None, :, :]) ** 2).sum(-1)
        a, c = np.unravel_index(int(np.argmin(D)), D.shape)
        return [pos[a], neg[c]]
    return [pos[0], neg[0]]


class _NotSeparable(Exception):
    def __init__(self, sep, Zs):
        self.sep, self.Zs = sep, Zs


def _solve(X, y, *, loss: str, C, kind: str, degree: int, coef0, exact_only: bool, intercept: bool, name: str):
    """The exact optimum (alpha, b, kernel, method, notes) of one SVM problem on features X (the intercept,
    if any, is b); raises _NotSeparable with a verified Gordan certificate for infeasible hard margins."""
    n = len(y)
    if len(set(y)) < 2 and (loss != "hard" or intercept):
        only = "+1" if y[0] == 1 else "-1"
        raise LabelError(f"{name} needs samples of both classes; every label is {only} (a single class has no "
                         "separating hyperplane to maximise)")
    kfun = None if kind == "linear" else poly_kernel(degree, coef0)
    K = _Kern(X, kfun, C if loss == "squared" else None)
    method: list[str] = []
    notes: list[str] = []
    sep = None

    def check_separable():
        feats = X if kfun is None else [monomials(x, degree, coef0) for x in X]
        Zs = [tuple(yi * v for v in (tuple(x) + ((F1,) if intercept else ()))) for x, yi in zip(feats, y)]
        s_ = separate(Zs, use_float=not exact_only)
        if s_.kind == "gordan":
            verify_gordan(Zs, s_.lam)
            raise _NotSeparable(s_, Zs)
        return s_

    sol = None
    if kfun is None and loss == "hard":
        sep = check_separable()  # decided first: non-separable data need no QP at all (and have no optimum)
    scale = kfun is None and not exact_only and n > LINEAR_SCALE_N
    tried: list[tuple] = []  # the float guesses whose repair steps did not reach a KKT point

    def lin_finish(sol, who, via_lemke):
        if sol is not None and loss == "hinge" and intercept and not any(0 < a < C for a in sol[0]):
            # no free multiplier: b is not unique; return its interval's midpoint, as the general path does
            a_ = sol[0]
            b_ = _b_interval(K, y, {j: y[j] * a_[j] for j in range(n) if a_[j]}, n,
                             {i for i in range(n) if not a_[i]}, {i for i in range(n) if a_[i] == C})
            sol = sol if b_ is None else (a_, b_)
        if sol is not None and via_lemke:
            method.append(f"{who} guessed the active set; the exact active-set repair steps did not reach a "
                          "KKT point, so exact Lemke complementary pivoting solved the dual on the guessed "
                          "samples (working subset grown by the violated samples)")
        elif sol is not None:
            method.append(f"{who} guessed the active set; the KKT equations were solved exactly over the "
                          "integers (python-flint), with exact active-set repair steps")
        return sol

    for second in ((False, True) if scale and loss == "hinge" else (False,) if scale else ()):
        if sol is not None:
            break
        lg = _lin_guess(X, y, loss=loss, C=C, intercept=intercept, highs=second)
        if lg is not None:
            free, upper, who = lg
            lin = _Lin(X)
            if loss == "squared":
                sol = _lin_squared(lin, y, free, C=C, intercept=intercept, max_iter=2 * n + 20)
            else:
                sol = _lin_hinge(lin, K, y, free or _closest_pair(X, y, K), upper, hard=loss == "hard", C=C,
                                 intercept=intercept, max_iter=2 * n + 20)
            sol = lin_finish(sol, who, False)
            if sol is None and len(set(free) | set(upper)) <= LEMKE_QUICK:
                # the repair steps (one sample at a time, no step length) can wander or cycle from a guess that
                # is nearly right (svm-soft on separable data: a few free samples guessed at C); Lemke's method
                # on the guessed samples, grown by the violated ones, solves it exactly and always ends.  Here
                # only while the subset stays small (a fraction of a second); larger subsets wait until every
                # float guess has failed (below), since Lemke's dense Fraction tableau costs seconds from ~40 on
                sol = lin_finish(_lemke_chunked(K, y, list(free) + list(upper) + _closest_pair(X, y, K),
                                                loss=loss, C=C, intercept=intercept, limit=LEMKE_QUICK), who, True)
            if sol is None:
                tried.append(lg)
                notes.append(f"the float guess ({who}) did not lead to a KKT point")
    for free, upper, who in tried:
        if sol is not None:
            break
        if len(set(free) | set(upper)) <= LEMKE_SUBSET_N:
            sol = lin_finish(_lemke_chunked(K, y, list(free) + list(upper) + _closest_pair(X, y, K), loss=loss,
                                            C=C, intercept=intercept, limit=LEMKE_SUBSET_MAX), who, True)
    guess = None
    if not exact_only and sol is None:
        guess = _float_guess(X, y, kind=kind, degree=degree, coef0=coef0, loss=loss, C=C, n=n)
    start: list[int] = []
    if guess is not None:
        free, upper = guess
        start = list(free) + list(upper)
        sol = _active_set(K, y, free or _closest_pair(X, y, K), upper, loss=loss, C=C, intercept=intercept,
                          max_iter=2 * n + 20)
        if sol is not None:
            method.append("scikit-learn SVC guessed the support vectors; the KKT equations were solved exactly "
                          "(python-flint), with exact active-set and LP repair steps")
        else:
            notes.append("the float guess did not lead to a KKT point")
    if sol is None:
        if loss == "hard" and sep is None:
            sep = check_separable()  # (with a kernel: on its monomial features)
        sol = _lemke_chunked(K, y, start + _closest_pair(X, y, K), loss=loss, C=C, intercept=intercept)
        method.append("exact Lemke complementary pivoting on the dual KKT system (working subset grown by the "
                      "violated samples)")
        if sol is None:  # cannot happen: the problem is feasible (checked above for the hard margin)
            raise VerificationError(f"{name}: Lemke's method ended on a secondary ray on a feasible problem")
    alpha, b = sol
    return alpha, b, K, "; ".join(method), notes


def _finish(name, prob, bias, P, loss, C, intercept, out, X, y, seed) -> Run:
    alpha, b, K, method, notes = out
    n = len(y)
    kind = P["kernel"]
    sv = [i for i in range(n) if alpha[i]]
    extras: dict = {}
    if kind == "linear":
        w = _lin_w(_Lin(X), {i: alpha[i] * y[i] for i in sv}) if sv else tuple(F0 for _ in X[0])
        kkt = verify_kkt(X, y, alpha, b, w=w, loss=loss, C=C, intercept=intercept)
        if intercept:
            W = (b, *w) if bias == "first" else (*w, b)
        else:
            W = w
        extras["w"] = w
        extras["w_features"] = w  # the feature weights (JSON's "w" is the augmented Run.w)
    else:
        kfun = poly_kernel(P["degree"], P["coef0"])
        kkt = verify_kkt(X, y, alpha, b, kernel=kfun, loss=loss, C=C, intercept=intercept)
        W = None
        extras["kernel"] = {"kind": "poly", "degree": P["degree"], "coef0": P["coef0"],
                            "K": "(x . z + coef0)^degree"}
    import sympy

    norm2 = kkt.norm2_w
    from exactlin.exact.numbers import to_sympy

    extras.update({
        "b": b,
        "alpha": tuple(alpha),
        "support_vectors": sv,
        "norm2_w": norm2,
        "kkt": kkt,
        "method": method,
    })
    if norm2 > 0:
        nw = sympy.sqrt(to_sympy(norm2))
        extras["margin"] = sympy.radsimp(1 / nw)
        extras["slab_width"] = sympy.radsimp(2 / nw)
        extras["margin_squared"] = 1 / norm2
    if loss != "hard":
        extras["xi"] = kkt.xi
        extras["objective"] = kkt.primal_objective
    if notes:
        extras["notes"] = notes
    if not intercept and bias != "none":
        extras["note"] = "no intercept"
    if W is not None:
        model = linear_model(W, bias, prob)
    else:  # the dual form: K(x_i, x) on the samples the kernel saw (raw x with an intercept, else x~)
        model = KernelModel(tuple(tuple(X[i]) for i in sv), tuple(alpha[i] for i in sv), tuple(y[i] for i in sv),
                            b, "poly", P["degree"], P["coef0"], "none" if intercept else bias, *label_pair(prob))
    return Run(name, W, bias, True, "solved", params=dict(P), extras=extras, seed=seed, problem=prob, model=model)


def _fit(name, X, y, P: Checked, loss, intercept=None):
    bias = P.bias
    prob = P.problem(X, y)
    if intercept is None:
        intercept = bias != "none"
    C = P.get("C")
    X = prob.data.X if intercept else prob.Y
    y_ = list(prob.z)
    try:
        out = _solve(X, y_, loss=loss, C=C, kind=P["kernel"], degree=P["degree"], coef0=P["coef0"],
                     exact_only=P["exact_only"], intercept=intercept, name=name)
    except _NotSeparable as e:
        sep, Zs = e.sep, e.Zs
        features = None
        if P["kernel"] != "linear":
            rel = "<=" if P["coef0"] > 0 else "="
            features = (f"the monomials of degree {rel} {P['degree']} (kernel (x . z + {P['coef0']})^"
                        f"{P['degree']}); feature space rescales them by positive constants, so the "
                        "certificate holds there too")
        cert = verify_gordan(Zs, sep.lam, source="lp", support=True, through_origin=bias == "none",
                             features=features)
        return Run(name, None, bias, False, "not_separable", params=dict(P),
                   extras={"separable": False, "certificate": cert, "method": sep.method},
                   seed=SEED, problem=prob)
    return _finish(name, prob, bias, P, loss, C, intercept, out, X, y_, SEED)


@register("svm-hard", family="margin", seed=SEED, number="Finding a maximum margin classifier",
          title="Hard-margin SVM (maximum margin classifier), exact and KKT-certified", params=PARAMS_HARD,
          conflicts=KERNEL_CONFLICTS, iterative=False, bias_default="first")
def svm_hard(X, y, P: Checked) -> Run:
    """The hard-margin SVM of seeds 002 and 004: minimize ||w||^2/2 subject to y_i (w . x_i + b) >= 1.

    ``bias="first"``/``"last"``: b is the intercept and ``Run.w`` is (b, w) / (w, b), so
    ``Run.decision`` gives w . x + b; ``bias="none"``: no intercept (through the origin).
    Extras: ``w``, ``b``, ``alpha`` (exact multipliers), ``support_vectors`` (indices with
    alpha > 0), ``margin`` = 1/||w|| and ``slab_width`` = 2/||w|| (exact sympy numbers), ``kkt``
    (the independent check's report, ``verified: True``).  Not separable: ``converged=False``,
    reason ``not_separable``, ``extras["certificate"]`` (Gordan, verified).
    (``max_epochs`` and ``trace`` are accepted for the common signature and unused.)

    >>> r = svm_hard([(0, 0), (2, 0)], [-1, 1])
    >>> r.extras["w"], r.extras["b"], r.extras["margin"]
    ((Fraction(1, 1), Fraction(0, 1)), Fraction(-1, 1), 1)
    """
    return _fit("svm-hard", X, y, P, "hard")


@register("svm-soft", family="margin", seed=SEED, number="Soft margin optimization (hinge loss)",
          title="Soft-margin C-SVM (hinge loss), exact and KKT-certified", params=PARAMS_SOFT,
          conflicts=KERNEL_CONFLICTS, iterative=False, bias_default="first")
def svm_soft(X, y, P: Checked) -> Run:
    """The standard C-SVM: minimize ||w||^2/2 + C sum xi_i subject to y_i (w . x_i + b) >= 1 - xi_i,
    xi_i >= 0 (the usual soft margin; seed 004 writes the squared slacks, see ``svm-soft-l2``).

    Extras as ``svm-hard`` plus ``xi`` (slacks) and ``objective``; 0 <= alpha_i <= C.

    Hand derivation for the doctest: at C = 1 both x = 1 (+1) and x = 1/2 (-1) sit inside the margin, so
    alpha = (0, 1, 1) = (0, C, C), w = 1 * 1 - 1 * 1/2 = 1/2, and every b in [-5/4, -1] is optimal (b is
    not unique when no multiplier is strictly between 0 and C); exactlin returns the interval's midpoint.

    >>> r = svm_soft([(0,), (1,), ("1/2",)], [-1, 1, -1], C=1)
    >>> r.extras["w"], r.extras["b"], r.extras["alpha"]
    ((Fraction(1, 2),), Fraction(-9, 8), (Fraction(0, 1), Fraction(1, 1), Fraction(1, 1)))
    """
    return _fit("svm-soft", X, y, P, "hinge")


@register("svm-soft-l2", family="margin", seed=SEED, number="Soft margin optimization",
          title="Seed 004's soft margin: ||w||^2/2 + C sum xi_i^2, exact and KKT-certified", params=PARAMS_SOFT_L2,
          conflicts=KERNEL_CONFLICTS, iterative=False, bias_default="first")
def svm_soft_l2(X, y, P: Checked) -> Run:
    """Seed 004's soft margin: minimize ||w||^2/2 + C sum xi_i^2 subject to y_i (w . x_i + b) >= 1 - xi_i
    (C = 1 is the seed's objective; the constraint xi_i >= 0 is implied at the optimum).

    At the optimum xi_i = alpha_i / (2C): the dual is the hard-margin dual with kernel K + I/(2C).

    Hand derivation: by symmetry b = -w and both points have slack 1 - w, so the objective is
    w^2/2 + 2 (1 - w)^2, minimal at w = 4/5.

    >>> r = svm_soft_l2([(0,), (2,)], [-1, 1])
    >>> r.extras["w"], r.extras["b"], r.extras["xi"]
    ((Fraction(4, 5),), Fraction(-4, 5), (Fraction(1, 5), Fraction(1, 5)))
    """
    return _fit("svm-soft-l2", X, y, P, "squared")


def decision_function(run: Run, z):
    """g(z) = sum_{i in sv} y_i alpha_i K(x_i, z) + b exactly, from an SVM Run (seed 004's dual form);
    for a linear SVM this equals ``run.decision(z)``.

    >>> r = svm_hard([(0,), (3,)], [-1, 1], kernel="poly", degree=2)
    >>> decision_function(r, (3,)) >= 1
    True

    The run's model evaluates it (:class:`~exactlin.model.models.KernelModel` for a kernel, the linear
    model otherwise), so a run read back from JSON evaluates it too."""
    if run.model is None:
        raise ParameterError(f"{run.algorithm} ({run.reason}): this run has no decision function",
                             parameter="algorithm")
    return run.model.decision(z)


def perceptron_bound(X, y=None, bias: str = "none", *, positive=None) -> dict:
    """The tightest bound the convergence theorem of seed 004 gives: m <= R^2 ||w*||^2 over all w*
    with y_i <w*, x~_i> >= 1, attained by the minimum-norm such w* -- the hard-margin SVM
    *without* intercept on the augmented samples x~_i (the perceptron's bias weight is part of
    w*, so it is penalised too).

    Returns ``{"bound": R^2 ||w*||^2, "w_star": w* (augmented, usable as the perceptron's
    ``w_star``), "R2": R^2, "norm2_w_star": ||w*||^2, "kkt": ...}``.

    >>> perceptron_bound([(1, 0), (0, 1)], [1, 1])["bound"]
    Fraction(2, 1)
    """
    prob = binary_problem(X, y, bias=bias, positive=positive)
    y_ = list(prob.z)
    try:
        alpha, _, _, method, _ = _solve(prob.Y, y_, loss="hard", C=None, kind="linear", degree=1, coef0=F0,
                                        exact_only=False, intercept=False, name="perceptron_bound")
    except _NotSeparable as e:
        raise VerificationError("not linearly separable" + (" through the origin" if bias == "none" else "")
                                + f": Gordan certificate lambda = ({', '.join(str(v) for v in e.sep.lam)}) "
                                "(verified), so no w* exists and the theorem gives no bound") from None
    n, d = len(y_), len(prob.Y[0])
    w = tuple(sum((alpha[i] * y_[i] * prob.Y[i][k] for i in range(n) if alpha[i]), F0) for k in range(d))
    kkt = verify_kkt(prob.Y, y_, alpha, F0, w=w, loss="hard", intercept=False)
    R2 = max(sum((v * v for v in x), F0) for x in prob.Y)
    norm2 = kkt.norm2_w
    return {"bound": R2 * norm2, "w_star": w, "R2": R2, "norm2_w_star": norm2, "alpha": alpha, "kkt": kkt,
            "bias": bias, "method": method}

