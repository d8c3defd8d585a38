"""Exact linear algebra over the rationals (layers 1-2): products, rank, rref, solve, inverse,
determinant, an exact positive-definiteness test, and the Moore-Penrose pseudoinverse of any
rational matrix of any shape and rank, with an independent checker of the four Penrose conditions.

Matrices go in as anything :func:`exactlin.exact.numbers.to_matrix` accepts (rows of ints, Fractions,
strings, sympy Rationals, numpy integer arrays) and come out as tuples of tuples of ``Fraction``;
:func:`to_sympy_matrix` hands a result to sympy.  The arithmetic runs in python-flint
(``fmpz_mat``/``fmpq_mat``: exact multi-precision integers and rationals); when python-flint
cannot be imported it runs in sympy's ``DomainMatrix`` over ``QQ``.  Both are exact: the backend
changes the speed, never a digit.

Seed 003 (``003_ffe0ec08819b37d8.txt``, "Minimum Squared Error Procedures") defines
Y^+ = (Y^tY)^{-1} Y^t for full column rank and, in general, Y^+ = lim_{eps -> 0} (Y^tY + eps I)^{-1} Y^t.
That limit is the Moore-Penrose inverse: the unique P with

1. Y P Y = Y,   2. P Y P = P,   3. (Y P)^t = Y P,   4. (P Y)^t = P Y.

>>> Y = [[1, 1, 2], [1, 2, 0], [-1, -3, -1], [-1, -2, -3]]     # seed 003's example
>>> P = pinv(Y)
>>> [[str(v) for v in row] for row in P]
[['5/4', '13/12', '3/4', '7/12'], ['-1/2', '-1/6', '-1/2', '-1/6'], ['0', '-1/3', '0', '-1/3']]
>>> verify_penrose(Y, P)
True
>>> pinv_solve(Y, [1, 1, 1, 1])
(Fraction(11, 3), Fraction(-4, 3), Fraction(-2, 3))
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactlin.errors import InputTypeError, ShapeError, SingularMatrixError, VerificationError
from exactlin.exact.numbers import to_matrix, to_vector
from exactlin.exact.rows import F64_EXACT, I64_LIMIT, ExactRows

__all__ = [
    "BACKEND",
    "Matrix",
    "as_matrix",
    "shape",
    "identity",
    "zeros_matrix",
    "transpose",
    "matmul",
    "matvec",
    "rank",
    "rref",
    "solve",
    "inverse",
    "det",
    "leading_minors",
    "ldl",
    "is_symmetric",
    "is_positive_definite",
    "pinv",
    "pinv_limit",
    "PinvLimit",
    "pinv_solve",
    "gram",
    "integer_matrix",
    "verify_penrose",
    "to_sympy_matrix",
    "use_backend",
]

Matrix = tuple[tuple[Fraction, ...], ...]

try:  # pragma: no cover - depends on the installation
    import flint as _flint
except ImportError:  # pragma: no cover
    _flint = None

try:
    import numpy as _np
except ImportError:  # pragma: no cover
    _np = None

#: "flint" when python-flint is importable, otherwise "sympy" (DomainMatrix over QQ)
BACKEND = "flint" if _flint is not None else "sympy"

_blas_controller = None


@contextmanager
def _one_blas_thread():
    """Run a BLAS call on one thread when threadpoolctl is installed: for the thin products here
    (a few thousand rows, tens of columns) a multi-threaded BLAS on a small shared machine is often
    ten to a hundred times slower than one thread.  Speed only; the results are identical."""
    global _blas_controller
    try:
        if _blas_controller is None:
            from threadpoolctl import ThreadpoolController

            _blas_controller = ThreadpoolController()
        ctx = _blas_controller.limit(limits=1, user_api="blas")
    except Exception:  # threadpoolctl missing or unable to inspect the BLAS: run as is
        yield
        return
    with ctx:
        yield


#: the public name (the float guesses of :mod:`exactlin.linalg.guess` run their thin products under it too)
one_blas_thread = _one_blas_thread


@contextmanager
def use_backend(name: str):
    """Temporarily run the arithmetic in ``"flint"`` or ``"sympy"`` (for tests and benchmarks)."""
    global BACKEND
    if name not in ("flint", "sympy"):
        raise ValueError(f"unknown backend {name!r}")
    if name == "flint" and _flint is None:  # pragma: no cover
        raise RuntimeError("python-flint is not installed")
    old = BACKEND
    BACKEND = name
    try:
        yield
    finally:
        BACKEND = old


# ---------------------------------------------------------------------------
# conversion at the boundary


def _frac(x) -> Fraction:
    """A flint fmpq/fmpz, a sympy/gmpy QQ or ZZ element, or an int, as a Fraction."""
    if isinstance(x, Fraction):
        return x
    if isinstance(x, int):
        return Fraction(x)
    p = getattr(x, "p", None)
    if p is not None and not callable(p):
        return Fraction(int(p), int(x.q))
    num = getattr(x, "numerator", None)
    if num is not None:
        return Fraction(int(num), int(x.denominator))
    return Fraction(int(x))


def as_matrix(M: Any, name: str = "matrix") -> Matrix:
    """Convert a matrix (rows of exact numbers, a numpy integer array, a sympy Matrix, a flint matrix)
    to a tuple of tuples of ``Fraction``; ragged or empty input raises :class:`ShapeError`."""
    if _flint is not None and isinstance(M, (_flint.fmpq_mat, _flint.fmpz_mat)):
        if M.nrows() == 0 or M.ncols() == 0:
            raise ShapeError(f"{name} is empty")
        return tuple(tuple(_frac(v) for v in row) for row in M.tolist())
    mod = type(M).__module__
    if mod.startswith("sympy") and hasattr(M, "tolist"):
        M = M.tolist()
    if isinstance(M, ExactRows):
        M = M.rows()
    if isinstance(M, tuple) and M and all(type(r) is tuple for r in M):
        # fast path for the library's own tuples of Fractions
        w = len(M[0])
        if w and all(len(r) == w and all(type(v) is Fraction for v in r) for r in M):
            return M
    return to_matrix(M, name=name)


def shape(M: Sequence[Sequence]) -> tuple[int, int]:
    if isinstance(M, ExactRows):
        return M.shape
    M = as_matrix(M) if not (isinstance(M, tuple) and all(type(r) is tuple for r in M)) else M
    return (len(M), len(M[0]) if len(M) else 0)


def identity(n: int) -> Matrix:
    one, zero = Fraction(1), Fraction(0)
    return tuple(tuple(one if i == j else zero for j in range(n)) for i in range(n))


def zeros_matrix(n: int, m: int) -> Matrix:
    zero = Fraction(0)
    return tuple(tuple(zero for _ in range(m)) for _ in range(n))


def _is_integral(A: Matrix) -> bool:
    return all(v.denominator == 1 for row in A for v in row)


def _to_backend(A: Matrix):
    """A as an fmpq_mat (flint) or a DomainMatrix over QQ (sympy)."""
    n, m = shape(A)
    if BACKEND == "flint":
        if _is_integral(A):
            return _flint.fmpq_mat(_flint.fmpz_mat(n, m, [v.numerator for row in A for v in row]))
        return _flint.fmpq_mat(n, m, [_flint.fmpq(v.numerator, v.denominator) for row in A for v in row])
    from sympy import QQ
    from sympy.polys.matrices import DomainMatrix

    return DomainMatrix([[QQ(v.numerator, v.denominator) for v in row] for row in A], (n, m), QQ)


def _from_backend(B) -> Matrix:
    rows = B.tolist() if BACKEND == "flint" else B.to_list()
    return tuple(tuple(_frac(v) for v in row) for row in rows)


def _bshape(B) -> tuple[int, int]:
    return (B.nrows(), B.ncols()) if BACKEND == "flint" else B.shape


def _bT(B):
    return B.transpose()


def _bmul(A, B):
    return A * B if BACKEND == "flint" else A.matmul(B)


def _binv(B, what: str = "matrix"):
    if BACKEND == "flint":
        try:
            return B.inv()
        except ZeroDivisionError:
            raise SingularMatrixError(f"{what} is singular (determinant 0): it has no inverse") from None
    from sympy.polys.matrices.exceptions import DMNonInvertibleMatrixError

    try:
        return B.inv()
    except DMNonInvertibleMatrixError:
        raise SingularMatrixError(f"{what} is singular (determinant 0): it has no inverse") from None


def _brref(B) -> tuple[Any, tuple[int, ...]]:
    """(R, pivot columns) of the reduced row echelon form."""
    if BACKEND == "flint":
        R, r = B.rref()
        pivots = []
        rows = R.tolist()
        for i in range(r):
            for j, v in enumerate(rows[i]):
                if v != 0:
                    pivots.append(j)
                    break
        return R, tuple(pivots)
    R, pivots = B.rref()
    return R, tuple(pivots)


def _bsub_rows(B, rows: Sequence[int]):
    if BACKEND == "flint":
        L = B.tolist()
        return _flint.fmpq_mat([L[i] for i in rows]) if rows else None
    return B.extract(list(rows), list(range(B.shape[1])))


def _bsub_cols(B, cols: Sequence[int]):
    if BACKEND == "flint":
        L = B.tolist()
        return _flint.fmpq_mat([[row[j] for j in cols] for row in L])
    return B.extract(list(range(B.shape[0])), list(cols))


# ---------------------------------------------------------------------------
# the basic operations


def transpose(A: Any) -> Matrix:
    A = as_matrix(A)
    return tuple(zip(*A))


def matmul(A: Any, B: Any) -> Matrix:
    """A B, exactly.  Non-conformable shapes raise :class:`ShapeError`."""
    A, B = as_matrix(A, "A"), as_matrix(B, "B")
    if shape(A)[1] != shape(B)[0]:
        raise ShapeError(f"cannot multiply a {shape(A)[0]}x{shape(A)[1]} matrix by a "
                         f"{shape(B)[0]}x{shape(B)[1]} matrix: the inner dimensions differ")
    return _from_backend(_bmul(_to_backend(A), _to_backend(B)))


def matvec(A: Any, v: Any) -> tuple[Fraction, ...]:
    """A v for a vector v, exactly."""
    A = as_matrix(A, "A")
    v = to_vector(v)
    if shape(A)[1] != len(v):
        raise ShapeError(f"cannot multiply a {shape(A)[0]}x{shape(A)[1]} matrix by a vector of length {len(v)}")
    return tuple(sum((a * b for a, b in zip(row, v)), Fraction(0)) for row in A)


def rank(A: Any) -> int:
    A = as_matrix(A)
    B = _to_backend(A)
    return B.rank()


def rref(A: Any) -> tuple[Matrix, tuple[int, ...]]:
    """The reduced row echelon form of A and its pivot columns (0-based).

    >>> R, piv = rref([[1, 2], [2, 4]]); [[str(v) for v in r] for r in R], piv
    ([['1', '2'], ['0', '0']], (0,))
    """
    A = as_matrix(A)
    R, piv = _brref(_to_backend(A))
    return _from_backend(R), piv


def _square(A: Matrix, what: str) -> int:
    n, m = shape(A)
    if n != m:
        raise ShapeError(f"{what} needs a square matrix, got {n}x{m}")
    return n


def det(A: Any) -> Fraction:
    """The determinant, exactly (fraction-free elimination in flint or DomainMatrix)."""
    A = as_matrix(A)
    _square(A, "det")
    return _frac(_to_backend(A).det())


def inverse(A: Any, *, what: str = "matrix") -> Matrix:
    """A^{-1}; a singular A raises :class:`SingularMatrixError`."""
    A = as_matrix(A, what)
    _square(A, "inverse")
    return _from_backend(_binv(_to_backend(A), what))


def solve(A: Any, b: Any, *, what: str = "matrix") -> Any:
    """The solution x of A x = b for a square nonsingular A; ``b`` a vector (returns a vector)
    or a matrix (returns a matrix).  Singular A: :class:`SingularMatrixError`."""
    A = as_matrix(A, what)
    n = _square(A, "solve")
    is_vec = len(b) > 0 and not isinstance(b[0], (list, tuple)) and not (
        _np is not None and isinstance(b, _np.ndarray) and b.ndim == 2)
    if is_vec:
        v = to_vector(b)
        B = tuple((x,) for x in v)
    else:
        B = as_matrix(b, "b")
    if len(B) != n:
        raise ShapeError(f"solve: A is {n}x{n} but b has {len(B)} rows")
    if BACKEND == "flint":
        try:
            X = _to_backend(A).solve(_to_backend(B))
        except ZeroDivisionError:
            raise SingularMatrixError(f"{what} is singular (determinant 0): A x = b has no unique solution") \
                from None
        X = _from_backend(X)
    else:
        X = _from_backend(_bmul(_binv(_to_backend(A), what), _to_backend(B)))
    return tuple(r[0] for r in X) if is_vec else X


# ---------------------------------------------------------------------------
# symmetry and positive definiteness (no square root, no eigenvalue)


def is_symmetric(A: Any) -> bool:
    A = as_matrix(A)
    n, m = shape(A)
    return n == m and all(A[i][j] == A[j][i] for i in range(n) for j in range(i + 1, n))


def _common_denominator(A: Matrix) -> int:
    D = 1
    for row in A:
        for v in row:
            if v.denominator != 1:
                D = D * v.denominator // math.gcd(D, v.denominator)
    return D


def leading_minors(A: Any) -> list[Fraction]:
    """The leading principal minors Delta_1, ..., Delta_k of a square matrix, by Bareiss's
    fraction-free elimination without pivoting, stopping after the first that is zero.

    Exactness: A is scaled to an integer matrix D*A (D the common denominator).  In Bareiss's
    elimination without row exchanges the pivot of step k is exactly the k-th leading principal
    minor of D*A and every division is exact (Sylvester's identity), so the computation stays in
    Python integers; Delta_k(A) = Delta_k(D*A) / D^k.  When a pivot is zero the elimination cannot
    go on without pivoting; the list ends there (its last entry is that zero minor).

    >>> leading_minors([[2, -1], [-1, 2]])
    [Fraction(2, 1), Fraction(3, 1)]
    """
    A = as_matrix(A)
    n = _square(A, "leading_minors")
    D = _common_denominator(A)
    M = [[(v * D).numerator for v in row] for row in A]
    out: list[Fraction] = []
    prev = 1
    for k in range(n):
        p = M[k][k]
        out.append(Fraction(p, D ** (k + 1)))
        if p == 0:
            break
        for i in range(k + 1, n):
            for j in range(k + 1, n):
                M[i][j] = (p * M[i][j] - M[i][k] * M[k][j]) // prev
        prev = p
    return out


def ldl(A: Any) -> tuple[Matrix, tuple[Fraction, ...]]:
    """Exact A = L diag(D) L^t for a symmetric A whose leading minors are nonzero (no square roots:
    the rational form of Cholesky).  ``D_k = Delta_k / Delta_{k-1}``.  A zero leading minor raises
    :class:`SingularMatrixError`; a non-symmetric A raises :class:`ShapeError`.

    >>> L, D = ldl([[4, 2], [2, 3]]); D
    (Fraction(4, 1), Fraction(2, 1))
    """
    A = as_matrix(A)
    n = _square(A, "ldl")
    if not is_symmetric(A):
        raise ShapeError("ldl needs a symmetric matrix")
    L = [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
    Dv: list[Fraction] = []
    for j in range(n):
        d = A[j][j] - sum((L[j][k] * L[j][k] * Dv[k] for k in range(j)), Fraction(0))
        if d == 0:
            raise SingularMatrixError(f"leading principal minor {j + 1} is 0: no LDL^t factorization without "
                                      "pivoting")
        Dv.append(d)
        for i in range(j + 1, n):
            s = A[i][j] - sum((L[i][k] * L[j][k] * Dv[k] for k in range(j)), Fraction(0))
            L[i][j] = s / d
    return tuple(tuple(r) for r in L), tuple(Dv)


def is_positive_definite(A: Any) -> bool:
    """True iff A is symmetric and positive definite, decided exactly by Sylvester's criterion
    (every leading principal minor > 0, see :func:`leading_minors`).  No eigenvalue is computed.

    >>> is_positive_definite([[2, -1], [-1, 2]]), is_positive_definite([[1, 2], [2, 1]])
    (True, False)
    """
    A = as_matrix(A)
    if not is_symmetric(A):
        return False
    mins = leading_minors(A)
    return len(mins) == len(A) and all(m > 0 for m in mins)


# ---------------------------------------------------------------------------
# the Moore-Penrose pseudoinverse


def pinv(Y: Any) -> Matrix:
    """The Moore-Penrose pseudoinverse Y^+ of any rational matrix, exactly.

    Method (full-rank factorization): let R = rref(Y) with pivot columns p_1 < ... < p_r
    (r = rank Y).  Then Y = C F with C = the pivot columns of Y (n x r, full column rank) and
    F = the r nonzero rows of R (r x m, full row rank): row operations preserve every linear
    relation among the columns, and column j of R is sum_k F[k, j] e_k, so column j of Y is
    sum_k F[k, j] (column p_k of Y).  For such a factorization

        Y^+ = F^t (F F^t)^{-1} (C^t C)^{-1} C^t

    (C^t C and F F^t are r x r Gram matrices of independent vectors, hence invertible); one checks
    the four Penrose conditions directly, and P is unique, so this is seed 003's limit
    lim_{eps -> 0} (Y^tY + eps I)^{-1} Y^t.  Special cases: r = m gives (Y^tY)^{-1} Y^t (seed 003's
    formula), r = n gives Y^t (Y Y^t)^{-1}, r = 0 (the zero matrix) gives the m x n zero matrix.
    Every step is exact rational arithmetic in flint or DomainMatrix.  The result is an m x n
    tuple of tuples of Fractions; :func:`verify_penrose` checks it independently.
    """
    Y = as_matrix(Y, "Y")
    n, m = shape(Y)
    if BACKEND == "flint" and n >= m:
        # fast path, exact: Y = Y'/D with Y' integral; if G = Y'^t Y' (computed exactly by gram) is
        # nonsingular, Y has full column rank and Y^+ = (Y^tY)^{-1} Y^t = D G^{-1} Y'^t.
        rows, D = _integerize_rows(Y)
        G = gram(rows)
        try:
            Ginv = _flint.fmpq_mat(G).inv()
        except ZeroDivisionError:
            Ginv = None
        if Ginv is not None:
            P = Ginv * _flint.fmpq_mat(_flint.fmpz_mat(rows).transpose())
            if D != 1:
                P = P * _flint.fmpq(D)
            return _from_backend(P)
    B = _to_backend(Y)
    R, piv = _brref(B)
    r = len(piv)
    if r == 0:
        return zeros_matrix(m, n)
    C = _bsub_cols(B, piv)
    CtC_inv = _binv(_bmul(_bT(C), C), "C^t C")
    if r == m:  # full column rank: F = I
        return _from_backend(_bmul(CtC_inv, _bT(C)))
    F = _bsub_rows(R, range(r))
    FFt_inv = _binv(_bmul(F, _bT(F)), "F F^t")
    return _from_backend(_bmul(_bmul(_bT(F), FFt_inv), _bmul(CtC_inv, _bT(C))))


@dataclass(frozen=True)
class PinvLimit:
    """Seed 003's limit Y^+ = lim_{eps -> 0} (Y^tY + eps I)^{-1} Y^t, computed as the limit of a rational
    function of eps (:func:`pinv_limit`).

    ``det`` holds the coefficients of det(Y^tY + eps I) from eps^0 up to eps^m; ``order`` is k, the lowest power
    of eps with a nonzero coefficient (k = m - rank Y); ``numerator`` is N_k, the coefficient of eps^k in
    adj(Y^tY + eps I) Y^t (every lower coefficient is 0, checked); ``limit`` = N_k / det[k] (an m x n matrix
    of Fractions)."""

    det: tuple
    order: int
    numerator: tuple
    limit: tuple

    def lines(self) -> list[str]:
        """The derivation for people, one line each (the one number format, exact)."""
        from exactlin.exact.format import fmt

        def poly(cs):
            terms = [(fmt(c) if j == 0 else (("" if c == 1 else "-" if c == -1 else fmt(c) + " ")
                      + ("eps" if j == 1 else f"eps^{j}"))) for j, c in enumerate(cs) if c]
            return " + ".join(terms).replace("+ -", "- ") or "0"

        def mat(M):
            return "[" + "; ".join(", ".join(fmt(v) for v in row) for row in M) + "]"

        k = self.order
        head = f"det(Y^t Y + eps I) = {poly(self.det)}"
        if k == len(self.det) - 1:  # det = eps^m: Y = 0
            return [head, "Y = 0: (Y^t Y + eps I)^(-1) Y^t = Y^t / eps = 0 for every eps > 0",
                    f"Y^+ = {mat(self.limit)}"]
        return [head,
                f"lowest power of eps: eps^{k} (k = m - rank Y = {k}), coefficient {fmt(self.det[k])}",
                f"adj(Y^t Y + eps I) Y^t = eps^{k} N_{k} + (higher powers of eps): every lower coefficient is 0",
                f"N_{k} = {mat(self.numerator)}",
                f"Y^+ = lim N(eps) / det(eps) = N_{k} / {fmt(self.det[k])} = {mat(self.limit)}"]


def pinv_limit(Y: Any) -> PinvLimit:
    """lim_{eps -> 0} (Y^tY + eps I)^{-1} Y^t for any rational n x m matrix Y, computed as that limit
    (seed 003, "Pseudoinverse"), exactly, without the pseudoinverse formula of :func:`pinv`.

    Put G = Y^tY and A = -G.  Faddeev-LeVerrier gives det(eps I - A) = sum_j c_j eps^(m-j) (c_0 = 1,
    c_j = -tr(A B_(j-1)) / j) and adj(eps I - A) = sum_j eps^(m-1-j) B_j (B_0 = I, B_j = A B_(j-1) + c_j I),
    all in Fractions.  So (G + eps I)^{-1} Y^t = N(eps) / det(eps) with N(eps) = sum_j eps^(m-1-j) B_j Y^t, a
    matrix of polynomials.  det(eps) = eps^k q(eps) with q(0) != 0 (k = m - rank Y: G is symmetric
    positive semidefinite, so the multiplicity of the eigenvalue 0 is the nullity); the limit exists (it is a
    theorem: Tikhonov's limit is Y^+), so every coefficient of N below eps^k must be 0 -- checked here, an
    InvariantViolation otherwise -- and the limit is N_k / c_(m-k).  Cost O(m^4) Fraction operations plus the
    m products with Y^t: meant for teaching-size matrices (m up to a few dozen features).

    >>> r = pinv_limit([[1, 1], [1, 1]])
    >>> [str(c) for c in r.det], r.order, [[str(v) for v in row] for row in r.limit]
    (['0', '4', '1'], 1, [['1/4', '1/4'], ['1/4', '1/4']])
    """
    from exactlin.errors import InvariantViolation

    Ym = [[Fraction(v) for v in row] for row in as_matrix(Y, "Y")]
    n, m = len(Ym), len(Ym[0])
    Yt = [[Ym[i][j] for i in range(n)] for j in range(m)]
    A = [[-sum((Ym[t][i] * Ym[t][j] for t in range(n)), Fraction(0)) for j in range(m)] for i in range(m)]

    def mul(P, Q):
        cols = list(zip(*Q))
        return [[sum((a * b for a, b in zip(row, col)), Fraction(0)) for col in cols] for row in P]

    c = [Fraction(1)]
    B = [[Fraction(int(i == j)) for j in range(m)] for i in range(m)]  # B_0 = I
    Bs = [B]
    for j in range(1, m + 1):
        AB = mul(A, B)
        cj = -sum((AB[i][i] for i in range(m)), Fraction(0)) / j
        c.append(cj)
        if j < m:
            B = [[AB[r][s] + (cj if r == s else 0) for s in range(m)] for r in range(m)]
            Bs.append(B)
    # det(eps) = sum_j c_j eps^(m-j): coefficient of eps^p is c_(m-p)
    det = tuple(c[m - p] for p in range(m + 1))
    k = next(p for p in range(m + 1) if det[p] != 0)  # det[m] = c_0 = 1
    # N(eps) = sum_j eps^(m-1-j) B_j Y^t: coefficient of eps^p is B_(m-1-p) Y^t (p = 0..m-1)
    for p in range(min(k, m)):
        Np = mul(Bs[m - 1 - p], Yt)
        if any(v for row in Np for v in row):
            raise InvariantViolation(f"pinv_limit: the coefficient of eps^{p} in adj(Y^tY + eps I) Y^t is not 0 "
                                     f"although det(Y^tY + eps I) has the factor eps^{k}")
    if k == m:  # Y = 0 (G = 0, det = eps^m): N has degree < m, every coefficient 0, the limit is 0
        Nk = tuple(tuple(Fraction(0) for _ in range(n)) for _ in range(m))
        return PinvLimit(det, k, Nk, Nk)
    Nk = tuple(tuple(row) for row in mul(Bs[m - 1 - k], Yt))
    lim = tuple(tuple(v / det[k] for v in row) for row in Nk)
    return PinvLimit(det, k, Nk, lim)


def _int_array(A: Any):
    """(numpy int64 array or a list of lists of Python ints, D) with A = array / D; None if not possible."""
    if isinstance(A, ExactRows):  # already integers over a common denominator: no per-entry work
        return A.num, A.den
    if _np is not None and isinstance(A, _np.ndarray) and A.dtype.kind in "iu":
        if A.ndim == 1:
            A = A.reshape(-1, 1)
        if A.dtype.kind == "u" and A.size and int(A.max()) >= I64_LIMIT:  # astype(int64) would wrap around
            return [[int(v) for v in row] for row in A.tolist()], 1
        return A.astype(_np.int64, copy=False) if A.dtype != _np.int64 else A, 1
    return None


def _max_abs(A) -> int:
    if _np is not None and isinstance(A, _np.ndarray):
        if A.size == 0:
            return 0
        # int(...) of the int64 extremes, then abs in Python ints (abs(int64 min) would overflow)
        return max(abs(int(A.max())), abs(int(A.min())))
    return max((abs(v) for row in A for v in row), default=0)


def _check_integer_matrix(M: Any, name: str) -> None:
    """gram's documented input: a 2-D numpy integer array or a rectangular list of lists of Python ints."""
    if _np is not None and isinstance(M, _np.ndarray):
        if M.ndim != 2 or M.dtype.kind not in "iu":
            raise InputTypeError(f"gram: {name} must be a 2-D integer array, got shape {M.shape} of {M.dtype} "
                                 "(scale rationals with integer_matrix first)")
        return
    if not isinstance(M, (list, tuple)) or not all(isinstance(r, (list, tuple)) for r in M):
        raise InputTypeError(f"gram: {name} must be a list of rows of ints, got {type(M).__name__}")
    width = len(M[0]) if M else 0
    for i, r in enumerate(M):
        if len(r) != width:
            raise ShapeError(f"gram: {name} is ragged: row {i} has {len(r)} entries, row 0 has {width}", row=i)
        for j, v in enumerate(r):
            if type(v) is not int:
                raise InputTypeError(f"gram: {name} row {i}, column {j} is {type(v).__name__} {v!r}, not an int "
                                     "(scale rationals with integer_matrix first)", row=i, column=j)


def gram(A: Any, B: Any = None):
    """A^t B (A^t A when B is None) for integer matrices, exactly, as an ``fmpz_mat`` (flint) or a
    list of lists of Python ints (sympy backend).  ``A`` and ``B`` are numpy integer arrays or lists of
    lists of Python ints with the same number of rows.

    Exactness: with n rows, |A| <= M_A and |B| <= M_B, every entry of A^t B and every partial sum
    formed while computing it has magnitude <= n M_A M_B.

    * If n M_A M_B < 2**53 the product is computed in float64 (BLAS): every product and partial
      sum is an integer below 2**53, which float64 represents exactly, and IEEE arithmetic returns
      the exact result whenever it is representable, in whatever order BLAS adds; the result is
      then converted back to integers losslessly.
    * Else if n M_A M_B < 2**63 it is computed in numpy int64 (no wrap-around possible).
    * Else in exact multi-precision integers (flint ``fmpz_mat`` or Python ints).
    """
    same = B is None
    _check_integer_matrix(A, "A")
    if same:
        B = A
    else:
        _check_integer_matrix(B, "B")
        if len(A) != len(B):
            raise ShapeError(f"gram: A has {len(A)} rows but B has {len(B)}")
    n = len(A)
    bound = n * _max_abs(A) * _max_abs(B)
    if _np is not None and isinstance(A, _np.ndarray) and isinstance(B, _np.ndarray):
        if bound < F64_EXACT:
            Af = A.astype(_np.float64)
            Bf = Af if same else B.astype(_np.float64)
            with _one_blas_thread():
                P = Af.T @ Bf
            G = P.astype(_np.int64).tolist()
        elif bound < I64_LIMIT:
            G = (A.T @ B).tolist()
        else:
            G = None
        if G is not None:
            return _flint.fmpz_mat(G) if BACKEND == "flint" else G
    if _np is not None:
        A = A.tolist() if isinstance(A, _np.ndarray) else A
        B = B.tolist() if isinstance(B, _np.ndarray) else B
    if BACKEND == "flint":
        FA = _flint.fmpz_mat(A)
        FB = FA if same else _flint.fmpz_mat(B)
        return FA.transpose() * FB
    cols_a = list(zip(*A))
    cols_b = cols_a if same else list(zip(*B))
    return [[sum(x * y for x, y in zip(ca, cb)) for cb in cols_b] for ca in cols_a]


_num = operator.attrgetter("_numerator")  # Fraction's slots: C-level access, no property call
_den = operator.attrgetter("_denominator")


def _integerize_rows(A: Matrix) -> tuple[list[list[int]], int]:
    """(rows of Python ints, D) with A = rows / D, D the least common denominator."""
    dens: set[int] = set()
    for row in A:
        dens.update(map(_den, row))
    D = 1
    for q in dens:
        D = D * q // math.gcd(D, q)
    if D == 1:
        return [list(map(_num, row)) for row in A], 1
    return [[(v.numerator * (D // v.denominator)) for v in row] for row in A], D


def integer_matrix(Y: Any, name: str = "matrix"):
    """(A, D) with Y = A / D, A an integer matrix (a numpy int64 array when every entry fits, else a list
    of lists of Python ints) and D >= 1 the least common denominator.  A numpy integer array passes
    through unconverted; a vector becomes a column."""
    return _as_int_data(Y, name)


def _as_int_data(Y: Any, name: str):
    got = _int_array(Y)
    if got is not None:
        return got
    Ym = as_matrix(Y, name) if not (isinstance(Y, Sequence) and Y and not isinstance(Y[0], (list, tuple))) \
        else tuple((v,) for v in to_vector(Y))
    rows, D = _integerize_rows(Ym)
    if _np is not None:
        try:
            return _np.array(rows, dtype=_np.int64).reshape(len(rows), -1), D
        except OverflowError:  # an entry does not fit in int64: stay with Python ints
            pass
    return rows, D


def pinv_solve(Y: Any, b: Any = None) -> tuple[Fraction, ...]:
    """a = Y^+ b exactly (b defaults to the all-ones vector, seed 003's choice); the MSE solution.

    Fast path when Y has full column rank (the usual MSE case, more samples than unknowns):
    then Y^+ b is the unique solution of the normal equations Y^tY a = Y^t b.  Y and b are scaled
    to integers by their common denominators D and E (Y = Y'/D, b = b'/E, so Y^+ b = (D/E) Y'^+ b');
    Y'^tY' and Y'^t b' are integer products computed exactly by :func:`gram` (float64 BLAS or
    int64 only when the bound check there proves no rounding and no overflow); the integer system
    is solved exactly by flint's ``fmpz_mat.solve`` (or DomainMatrix), and the solution is checked
    against the normal equations.  If Y'^tY' is singular (Y rank deficient) the general
    full-rank-factorization route of :func:`pinv` is used instead; the answer is the same
    minimum-norm least-squares solution either way.

    ``Y`` may be a numpy integer array (no conversion to Fractions at all), or anything
    :func:`as_matrix` takes.  Returns a tuple of Fractions.
    """
    Yi, D = _as_int_data(Y, "Y")
    n = len(Yi)
    if b is None:
        bi, E = (_np.ones((n, 1), dtype=_np.int64) if _np is not None else [[1]] * n), 1
    else:
        bi, E = _as_int_data(b, "b")
    if len(bi) != n or (len(bi) and len(bi[0]) != 1):
        raise ShapeError(f"Y has {n} rows but b has {len(bi)} entries" if len(bi) != n else "b must be a vector")
    G = gram(Yi)
    c = gram(Yi, bi)
    scale = Fraction(D, E)
    if BACKEND == "flint":
        try:
            x = G.solve(c)  # fmpq_mat; exact (flint's fraction-free / Dixon p-adic solver)
        except ZeroDivisionError:
            x = None
        if x is not None:
            if _flint.fmpq_mat(G) * x != _flint.fmpq_mat(c):  # pragma: no cover - flint is exact
                raise VerificationError("normal equations not satisfied by the solver's answer")
            return tuple(_frac(v) * scale for v in x.entries())
    else:
        from sympy import QQ, ZZ
        from sympy.polys.matrices import DomainMatrix

        Gd = DomainMatrix([[ZZ(int(v)) for v in row] for row in G], (len(G), len(G)), ZZ).convert_to(QQ)
        cd = DomainMatrix([[ZZ(int(row[0]))] for row in c], (len(c), 1), ZZ).convert_to(QQ)
        if Gd.rank() == len(G):
            x = Gd.lu_solve(cd)
            return tuple(_frac(row[0]) * scale for row in x.to_list())
    # rank deficient: the general route
    Ym = as_matrix(Yi.tolist() if _np is not None and isinstance(Yi, _np.ndarray) else Yi, "Y")
    bv = [row[0] for row in (bi.tolist() if _np is not None and isinstance(bi, _np.ndarray) else bi)]
    P = pinv(Ym)
    return tuple(sum((p * q for p, q in zip(row, bv)), Fraction(0)) * scale for row in P)


# ---------------------------------------------------------------------------
# the independent checker


def _plain_matmul(A: Sequence[Sequence[Fraction]], B: Sequence[Sequence[Fraction]]) -> list[list[Fraction]]:
    Bt = list(zip(*B))
    return [[sum((a * b for a, b in zip(row, col)), Fraction(0)) for col in Bt] for row in A]


def verify_penrose(Y: Any, P: Any) -> bool:
    """Check the four Penrose conditions Y P Y = Y, P Y P = P, (Y P)^t = Y P, (P Y)^t = P Y exactly,
    with plain ``Fraction`` arithmetic written here (not the code that produced P).  Returns True or
    raises :class:`VerificationError` naming the failed condition and an entry where it fails."""
    from exactlin.theory.penrose import verify_penrose as penrose_certificate

    Y = [[Fraction(v) for v in row] for row in as_matrix(Y, "Y")]
    P = [[Fraction(v) for v in row] for row in as_matrix(P, "P")]
    penrose_certificate(Y, P)  # the independent check (exactlin.theory.penrose); its certificate is not needed here
    return True


def to_sympy_matrix(M: Any):
    """A matrix (or a vector, as a column) as a sympy ``Matrix`` of Rationals."""
    import sympy

    if isinstance(M, Sequence) and M and not isinstance(M[0], (list, tuple)):
        return sympy.Matrix([[sympy.Rational(v.numerator, v.denominator)] for v in to_vector(M)])
    A = as_matrix(M)
    return sympy.Matrix([[sympy.Rational(v.numerator, v.denominator) for v in row] for row in A])
