"""Exact linear programming and the linear complementarity problem.

:func:`simplex` solves min c^T x subject to A x = b, x >= 0 exactly: the two-phase revised simplex over the
rationals (python-flint), most-negative-reduced-cost pivoting that switches for good to **Bland's rule** after a
run of degenerate pivots, so termination is guaranteed (Bland 1977) and it can never cycle;
:func:`simplex_tableau` is the same method on a dense ``Fraction`` tableau, the readable reference.
:mod:`exactlin.linalg.separation` decides separability with them.

Why not sympy's ``linprog``/``lpmin``: they returned an infeasible "solution" on
seed 000's XOR data (sympy issue 28089); why not pycddlib's GMP mode: it needs
system libraries (libcdd-dev, libgmp-dev) at install time; why not z3: 37 s on one
max-margin LP.

:func:`lemke` solves the linear complementarity problem w = M z + q, w, z >= 0,
w.z = 0 exactly (Lemke's complementary pivoting with the lexicographic rule, so it
terminates); for positive semidefinite M + M^T it finds a solution whenever one
exists.  The SVMs use it as their exact fallback (the KKT system of a convex QP is
an LCP).

>>> simplex([(1, 1)], [2], [1, 2]).x
(Fraction(2, 1), Fraction(0, 1))
>>> lemke([[2, 0], [0, 2]], [-2, 4]).z
(Fraction(1, 1), Fraction(0, 1))
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from exactlin.errors import ExactlinError, ShapeError, SingularMatrixError
from exactlin.exact.numbers import to_matrix, to_vector
from exactlin.linalg.matrices import rref, solve, to_fmpq, to_fraction

__all__ = ["LPResult", "simplex", "simplex_tableau", "solve_exact", "independent_columns", "lemke", "LCPResult",
           "nonneg_solution", "simplex_of"]

F0 = Fraction(0)
F1 = Fraction(1)
#: consecutive degenerate pivots after which :func:`simplex` switches to Bland's rule for good
DEGENERATE_SWITCH = 50


# ---------------------------------------------------------------------------
# exact square systems and independent columns


_NO_B = object()


def _checked(A, b=_NO_B, *, name: str = "A", bname: str = "b", square: bool = False):
    """A (and b) by the conversion rule, their shapes checked: a ShapeError names the mismatch instead of a raw
    IndexError/OverflowError deeper down (found by fuzzing)."""
    A = to_matrix(A, name=name, allow_empty=True)
    if square and A and len(A[0]) != len(A):
        raise ShapeError(f"{name} must be square, got {len(A)}x{len(A[0])}")
    if b is _NO_B:
        return A, None
    b = to_vector(b)
    if len(b) != len(A):
        raise ShapeError(f"{bname} has {len(b)} entries but {name} has {len(A)} rows")
    return A, b


def solve_exact(A: Sequence[Sequence], b: Sequence, *, backend: str | None = None) -> tuple[Fraction, ...] | None:
    """The exact solution of the square system A x = b, or None when A is singular
    (:func:`exactlin.linalg.matrices.solve` in ``backend``)."""
    A, b = _checked(A, b, square=True)
    if not A:
        return ()
    try:
        return solve(A, b, backend=backend)
    except SingularMatrixError:
        return None


def independent_columns(G: Sequence[Sequence], *, backend: str | None = None) -> list[int]:
    """Indices of a maximal linearly independent set of columns of G, greedily from the left
    (the pivot columns of the exact reduced row echelon form)."""
    G, _ = _checked(G, name="G")
    if not G or not G[0]:
        return []
    return list(rref(G, backend=backend)[1])


# ---------------------------------------------------------------------------
# exact simplex (Dantzig's rule, then Bland's rule on degeneracy)


@dataclass
class LPResult:
    """Result of :func:`simplex`: ``status`` is ``optimal``, ``infeasible`` or ``unbounded``.

    ``x`` the optimal vertex; ``y`` the duals of the equality rows (c^T x = b^T y at
    the optimum); ``farkas`` for an infeasible problem a y with A^T y <= 0 and b^T y > 0;
    ``basis`` the basic column indices; ``iterations`` the pivots taken.
    """

    status: str
    x: tuple | None = None
    y: tuple | None = None
    objective: Fraction | None = None
    farkas: tuple | None = None
    basis: tuple = ()
    iterations: int = 0


def _pivot(T: list[list[Fraction]], r: int, q: int) -> None:
    row = T[r]
    p = row[q]
    if p != 1:
        inv = 1 / p
        row = [v * inv if v else v for v in row]
        T[r] = row
    nz = [j for j, v in enumerate(row) if v]
    for i, other in enumerate(T):
        if i == r:
            continue
        f = other[q]
        if f:
            for j in nz:
                other[j] -= f * row[j]


def simplex(A: Sequence[Sequence], b: Sequence, c: Sequence | None = None, *,
            max_iter: int | None = None, rule: str = "dantzig") -> LPResult:
    """min c^T x subject to A x = b, x >= 0, exactly: the two-phase *revised* simplex.

    The basis B (m x m) is solved exactly with python-flint at every pivot (x_B = B^-1 b,
    duals y = B^-T c_B, the entering column B^-1 A_q); pricing c_j - y.A_j runs over the
    integers (y on one common denominator, each column scaled by its own positive
    denominator, which keeps the sign).  The pivot rules and the termination argument are
    those of :func:`simplex_tableau`: Dantzig's rule, switching for good to Bland's rule after
    :data:`DEGENERATE_SWITCH` consecutive degenerate pivots (``rule="bland"``: Bland throughout);
    the leaving variable is the smallest basic index among tied ratios.

    ``c=None`` is a pure feasibility problem.  ``max_iter`` is a safety bound that raises if reached.

    >>> r = simplex([(1, 1)], [2], [1, 2])
    >>> r.status, r.x, r.objective
    ('optimal', (Fraction(2, 1), Fraction(0, 1)), Fraction(2, 1))
    >>> simplex([(1, 1)], [-1]).status
    'infeasible'
    """
    import flint

    A, b = _checked(A, b)
    if c is not None:
        from exactlin.exact.numbers import to_vector

        c = to_vector(c)
        if A and len(c) != len(A[0]):
            raise ShapeError(f"c has {len(c)} entries but A has {len(A[0])} columns")
    m = len(A)
    n = len(A[0]) if m else 0
    c = [F0] * n if c is None else [Fraction(v) for v in c]
    sign = [-1 if Fraction(b[i]) < 0 else 1 for i in range(m)]
    bb = [Fraction(b[i]) * sign[i] for i in range(m)]
    cols: list[list[Fraction]] = [[Fraction(A[i][j]) * sign[i] for i in range(m)] for j in range(n)]
    for i in range(m):  # artificials
        e = [F0] * m
        e[i] = F1
        cols.append(e)
    N = n + m
    colint, colscale = [], []
    for col in cols:
        L = 1
        for v in col:
            if v.denominator != 1:
                L = math.lcm(L, v.denominator)
        colint.append([int(v * L) for v in col])
        colscale.append(L)
    basis = [n + i for i in range(m)]
    its = 0
    bm = flint.fmpq_mat(m, 1, [to_fmpq(v) for v in bb])

    def bmat():
        return flint.fmpq_mat(m, m, [to_fmpq(cols[basis[k]][i]) for i in range(m) for k in range(m)])

    def solve_cols(B, vec):
        x = B.solve(flint.fmpq_mat(m, 1, [to_fmpq(v) for v in vec]))
        return [to_fraction(x[i, 0]) for i in range(m)]

    def run(cost: list[Fraction], allowed: int) -> tuple[str, list[Fraction]]:
        nonlocal its
        bland = rule == "bland"
        degenerate = 0
        while True:
            B = bmat()
            xb = B.solve(bm)
            xB = [to_fraction(xb[i, 0]) for i in range(m)]
            y = solve_cols(B.transpose(), [cost[k] for k in basis])
            D = 1
            for v in y:
                D = math.lcm(D, v.denominator)
            Y = [int(v * D) for v in y]
            q, best_rc = None, F0
            inb = set(basis)
            for j in range(allowed):
                if j in inb:
                    continue
                val = sum(map(int.__mul__, Y, colint[j])) if any(Y) else 0
                cj = cost[j]
                num = D * colscale[j] * cj - val if cj else Fraction(-val)  # = D s_j (c_j - y.A_j)
                if num < 0:
                    if bland:
                        q = j
                        break
                    rc = Fraction(num) / colscale[j]  # exact: floats could overflow on huge data
                    if q is None or rc < best_rc:
                        q, best_rc = j, rc
            if q is None:
                return "optimal", y
            d = solve_cols(B, cols[q])
            r, best = None, None
            for i in range(m):
                if d[i] > 0:
                    ratio = xB[i] / d[i]
                    if best is None or ratio < best or (ratio == best and basis[i] < basis[r]):
                        best, r = ratio, i
            if r is None:
                return "unbounded", y
            if best == 0:
                degenerate += 1
                if degenerate > DEGENERATE_SWITCH:
                    bland = True  # for good: from here on Bland's rule, which cannot cycle
            else:
                degenerate = 0
            basis[r] = q
            its += 1
            if max_iter is not None and its > max_iter:
                raise ExactlinError(f"simplex exceeded {max_iter} pivots")

    def values() -> list[Fraction]:
        xb = bmat().solve(bm)
        x = [F0] * N
        for i, k in enumerate(basis):
            x[k] = to_fraction(xb[i, 0])
        return x

    cost1 = [F0] * n + [F1] * m
    _, y1 = run(cost1, N)
    x = values()
    phase1 = sum(x[n:], F0)
    if phase1 > 0:
        return LPResult("infeasible", farkas=tuple(v * sg for v, sg in zip(y1, sign)), basis=tuple(basis),
                        iterations=its)
    # drive artificials (at level 0) out of the basis where some original column can replace them
    for pos in range(m):
        if basis[pos] >= n:
            B = bmat()
            for j in range(n):
                if j in basis:
                    continue
                if solve_cols(B, cols[j])[pos] != 0:
                    basis[pos] = j
                    break
    cost2 = c + [F0] * m
    status, y2 = run(cost2, n)
    x = values()
    if status == "unbounded":
        return LPResult("unbounded", x=tuple(x[:n]), basis=tuple(basis), iterations=its)
    obj = sum((ci * xi for ci, xi in zip(c, x)), F0)
    return LPResult("optimal", x=tuple(x[:n]), y=tuple(v * sg for v, sg in zip(y2, sign)), objective=obj,
                    basis=tuple(basis), iterations=its)


def simplex_tableau(A: Sequence[Sequence], b: Sequence, c: Sequence | None = None, *,
            max_iter: int | None = None, rule: str = "dantzig") -> LPResult:
    """min c^T x subject to A x = b, x >= 0, exactly (two-phase tableau simplex).

    ``c=None`` is a pure feasibility problem.  Pivoting: ``rule="bland"`` is Bland's rule
    throughout (smallest index enters; among tied ratios the smallest basic index leaves);
    the default ``"dantzig"`` takes the most negative reduced cost, usually far fewer pivots,
    and switches to Bland's rule for good after :data:`DEGENERATE_SWITCH` consecutive
    degenerate pivots.  Termination is certain either way: a non-degenerate pivot strictly
    improves the objective, so no basis recurs across one; a run of degenerate Dantzig pivots
    is bounded; and once Bland's rule is on it cannot cycle (Bland 1977).
    ``max_iter`` (default: none) is a safety bound that raises if reached.

    The readable reference implementation (dense tableau); :func:`simplex` is the revised
    form used in practice, and the tests check that both agree.

    >>> simplex_tableau([(1, 1)], [2], [1, 2]).x
    (Fraction(2, 1), Fraction(0, 1))
    """
    m = len(A)
    n = len(A[0]) if m else 0
    if c is None:
        c = [F0] * n
    c = [Fraction(v) for v in c]
    sign = []
    T: list[list[Fraction]] = []
    for i in range(m):
        s = -1 if Fraction(b[i]) < 0 else 1
        sign.append(s)
        row = [Fraction(v) * s for v in A[i]]
        art = [F0] * m
        art[i] = F1
        T.append(row + art + [Fraction(b[i]) * s])
    basis = [n + i for i in range(m)]
    its = 0

    def run(cost: list[Fraction], allowed: int) -> str:
        nonlocal its
        # reduced-cost row: cost - c_B^T B^-1 A, kept as an extra row
        z = list(cost) + [F0]
        for i, bi in enumerate(basis):
            cb = cost[bi]
            if cb:
                Ti = T[i]
                for j in range(len(z)):
                    if Ti[j]:
                        z[j] -= cb * Ti[j]
        bland = rule == "bland"
        degenerate = 0
        while True:
            if bland:
                q = next((j for j in range(allowed) if z[j] < 0), None)
            else:  # Dantzig: the most negative reduced cost
                q, zq = None, F0
                for j in range(allowed):
                    if z[j] < zq:
                        q, zq = j, z[j]
            if q is None:
                T.append(z)  # keep for the duals
                return "optimal"
            r = None
            best = None
            for i in range(m):
                a = T[i][q]
                if a > 0:
                    ratio = T[i][-1] / a
                    if best is None or ratio < best or (ratio == best and basis[i] < basis[r]):
                        best, r = ratio, i
            if r is None:
                T.append(z)
                return "unbounded"
            if best == 0:
                degenerate += 1
                if degenerate > DEGENERATE_SWITCH:
                    bland = True  # for good: from here on Bland's rule, which cannot cycle
            else:
                degenerate = 0
            T.append(z)
            _pivot(T, r, q)
            z = T.pop()
            basis[r] = q
            its += 1
            if max_iter is not None and its > max_iter:
                raise ExactlinError(f"simplex exceeded {max_iter} pivots")

    # phase 1: minimize the sum of the artificials
    cost1 = [F0] * n + [F1] * m
    run(cost1, n + m)
    z1 = T.pop()
    phase1 = -z1[-1]
    if phase1 > 0:
        # duals of phase 1: y_i = 1 - (reduced cost of artificial i), on the sign-flipped rows
        y = tuple((F1 - z1[n + i]) * sign[i] for i in range(m))
        return LPResult("infeasible", farkas=y, basis=tuple(basis), iterations=its)
    # drive remaining artificials out of the basis
    for i in range(m):
        if basis[i] >= n:
            q = next((j for j in range(n) if T[i][j] != 0), None)
            if q is not None:
                _pivot(T, i, q)
                basis[i] = q
    keep = [i for i in range(m) if basis[i] < n]  # rows still holding an artificial are redundant
    status = run(c + [F0] * m, n)
    z2 = T.pop()
    x = [F0] * n
    for i in keep:
        x[basis[i]] = T[i][-1]
    if status == "unbounded":
        return LPResult("unbounded", x=tuple(x), basis=tuple(basis), iterations=its)
    y = tuple((F0 - z2[n + i]) * sign[i] for i in range(m))
    obj = sum((ci * xi for ci, xi in zip(c, x)), F0)
    return LPResult("optimal", x=tuple(x), y=y, objective=obj, basis=tuple(basis), iterations=its)


def simplex_of(backend: str | None):
    """The exact simplex of ``backend``: :func:`simplex` (revised, python-flint), or for ``"sympy"`` the
    ``Fraction`` tableau :func:`simplex_tableau`; the same pivots on the same exact numbers, so the same result."""
    return simplex_tableau if backend == "sympy" else simplex


def nonneg_solution(A: Sequence[Sequence], b: Sequence) -> tuple | None:
    """Some x >= 0 with A x = b exactly (a basic one), or None if there is none."""
    r = simplex(A, b)
    return r.x if r.status == "optimal" else None


# ---------------------------------------------------------------------------
# linear complementarity: Lemke's method, lexicographic


@dataclass
class LCPResult:
    status: str  # "solved" or "ray" (no solution found: for monotone M, the LCP is infeasible)
    z: tuple | None
    w: tuple | None
    pivots: int


def lemke(M: Sequence[Sequence], q: Sequence, *, max_pivots: int | None = None) -> LCPResult:
    """Solve w = M z + q, w >= 0, z >= 0, w_i z_i = 0 exactly (Lemke, covering vector 1).

    The lexicographic ratio test (on the rows of [q | B^-1]) excludes cycling, so the
    method ends after finitely many pivots: with a solution, or on a secondary ray
    (for M + M^T positive semidefinite that proves the LCP has no solution).

    >>> lemke([[2, 0], [0, 2]], [-2, 4]).z
    (Fraction(1, 1), Fraction(0, 1))
    """
    M, q = _checked(M, q, name="M", bname="q", square=True)
    n = len(q)
    q = list(q)
    if all(v >= 0 for v in q):
        return LCPResult("solved", tuple([F0] * n), tuple(q), 0)
    # columns: w_0..w_{n-1}, z_0..z_{n-1}, z0 (index 2n), rhs (index 2n+1)
    T = []
    for i in range(n):
        row = [F0] * (2 * n + 2)
        row[i] = F1
        for j in range(n):
            v = Fraction(M[i][j])
            if v:
                row[n + j] = -v
        row[2 * n] = -F1
        row[2 * n + 1] = q[i]
        T.append(row)
    basis = list(range(n))

    def lexkey(i, col):
        a = T[i][col]
        return [T[i][-1] / a] + [T[i][k] / a for k in range(n)]

    # initial pivot: z0 enters at the lexicographically most negative q
    r = min(range(n), key=lambda i: [T[i][-1]] + [T[i][k] for k in range(n)])
    _pivot(T, r, 2 * n)
    leaving = basis[r]
    basis[r] = 2 * n
    pivots = 1
    while True:
        entering = leaving + n if leaving < n else leaving - n
        cands = [i for i in range(n) if T[i][entering] > 0]
        if not cands:
            return LCPResult("ray", None, None, pivots)
        r = min(cands, key=lambda i: lexkey(i, entering))
        _pivot(T, r, entering)
        leaving = basis[r]
        basis[r] = entering
        pivots += 1
        if leaving == 2 * n:
            break
        if max_pivots is not None and pivots > max_pivots:
            raise ExactlinError(f"Lemke's method exceeded {max_pivots} pivots")
    vals = [F0] * (2 * n + 1)
    for i, bv in enumerate(basis):
        vals[bv] = T[i][-1]
    return LCPResult("solved", tuple(vals[n:2 * n]), tuple(vals[:n]), pivots)
