"""Exact linear algebra over the rationals (layers 1-2): products, rank, rref, solve, inverse,
determinant, an exact positive-definiteness test, and the Moore-Penrose pseudoinverse of any
rational matrix of any shape and rank, with an independent checker of the four Penrose conditions.

Matrices go in as anything :func:`exactlin.exact.numbers.to_matrix` accepts (rows of ints, Fractions,
strings, sympy Rationals, numpy integer arrays) and come out as tuples of tuples of ``Fraction``;
:func:`to_sympy_matrix` hands a result to sympy.  The arithmetic runs in one of two exact representations,
chosen per call by ``backend=``: ``"flint"`` (python-flint's ``fmpz_mat``/``fmpq_mat``, multi-precision integers
and rationals; the default) or ``"sympy"`` (sympy's ``DomainMatrix`` over ``QQ``).  The backend changes the speed,
never a digit.  Integer products (A^t B) are :func:`exactlin.exact.products.gram`'s.

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
from fractions import Fraction
from typing import Any

import numpy as _np

from exactlin.errors import ParameterError, ShapeError, SingularMatrixError
from exactlin.exact.numbers import to_matrix, to_vector
from exactlin.exact.products import gram
from exactlin.exact.rows import I64_LIMIT, ExactRows

__all__ = [
    "BACKENDS",
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
    "int_solve",
    "inverse",
    "det",
    "leading_minors",
    "ldl",
    "is_symmetric",
    "is_positive_definite",
    "pinv",
    "pinv_solve",
    "gram",
    "integer_matrix",
    "verify_penrose",
    "to_sympy_matrix",
    "to_fmpq",
    "to_fraction",
    "arithmetic_backend",
]

Matrix = tuple[tuple[Fraction, ...], ...]

try:  # pragma: no cover - depends on the installation
    import flint as _flint
except ImportError:  # pragma: no cover
    _flint = None

#: the two exact representations of a rational matrix, chosen per call with ``backend=``: python-flint's
#: ``fmpq_mat``/``fmpz_mat`` and sympy's ``DomainMatrix`` over QQ; None is "flint" when it is installed
BACKENDS = ("flint", "sympy")


# ---------------------------------------------------------------------------
# conversion at the boundary


def to_fraction(x) -> Fraction:
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


def to_fmpq(q) -> Any:
    """A rational (Fraction or int) as python-flint's ``fmpq``."""
    if type(q) is not Fraction:
        q = Fraction(q)
    return _flint.fmpq(q.numerator, q.denominator)


def as_matrix(M: Any, name: str = "matrix") -> Matrix:
    """Convert a matrix (rows of exact numbers, a numpy integer array, a sympy Matrix, a flint matrix)
    to a tuple of tuples of ``Fraction``; ragged or empty input raises :class:`ShapeError`."""
    if _flint is not None and isinstance(M, (_flint.fmpq_mat, _flint.fmpz_mat)):
        if M.nrows() == 0 or M.ncols() == 0:
            raise ShapeError(f"{name} is empty")
        return tuple(tuple(to_fraction(v) for v in row) for row in M.tolist())
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


def _singular(what: str) -> SingularMatrixError:
    return SingularMatrixError(f"{what} is singular (determinant 0): it has no inverse")


class _Flint:
    """Rational matrices as python-flint's ``fmpq_mat``."""

    @staticmethod
    def of(A: Matrix):
        n, m = len(A), len(A[0])
        if all(v.denominator == 1 for row in A for v in row):
            return _flint.fmpq_mat(_flint.fmpz_mat(n, m, [v.numerator for row in A for v in row]))
        return _flint.fmpq_mat(n, m, [_flint.fmpq(v.numerator, v.denominator) for row in A for v in row])

    @staticmethod
    def rows(B) -> Matrix:
        return tuple(tuple(to_fraction(v) for v in row) for row in B.tolist())

    mul = staticmethod(operator.mul)

    @staticmethod
    def inv(B, what: str):
        try:
            return B.inv()
        except ZeroDivisionError:
            raise _singular(what) from None

    @staticmethod
    def rref(B):
        R, r = B.rref()
        rows = R.tolist()
        return R, tuple(next(j for j, v in enumerate(rows[i]) if v != 0) for i in range(r))

    @staticmethod
    def sub(B, rows, cols):
        L = B.tolist()
        return _flint.fmpq_mat([[L[i][j] for j in cols] for i in rows])

    @staticmethod
    def solve(A, B, what: str):
        try:
            return A.solve(B)
        except ZeroDivisionError:
            raise _singular(what) from None

    @staticmethod
    def int_solve(N: list[list[int]], rhs: list[int]):
        try:
            x = _flint.fmpz_mat(N).solve(_flint.fmpz_mat(len(rhs), 1, rhs))  # exact (fraction-free / Dixon p-adic)
        except ZeroDivisionError:
            return None
        return tuple(to_fraction(v) for v in x.entries())


class _Sympy:
    """Rational matrices as sympy's ``DomainMatrix`` over QQ."""

    @staticmethod
    def of(A: Matrix):
        from sympy import QQ
        from sympy.polys.matrices import DomainMatrix

        return DomainMatrix([[QQ(v.numerator, v.denominator) for v in row] for row in A], (len(A), len(A[0])), QQ)

    @staticmethod
    def rows(B) -> Matrix:
        return tuple(tuple(to_fraction(v) for v in row) for row in B.to_list())

    @staticmethod
    def mul(A, B):
        return A.matmul(B)

    @staticmethod
    def inv(B, what: str):
        from sympy.polys.matrices.exceptions import DMNonInvertibleMatrixError

        try:
            return B.inv()
        except DMNonInvertibleMatrixError:
            raise _singular(what) from None

    @staticmethod
    def rref(B):
        R, pivots = B.rref()
        return R, tuple(pivots)

    @staticmethod
    def sub(B, rows, cols):
        return B.extract(list(rows), list(cols))

    @staticmethod
    def solve(A, B, what: str):
        return _Sympy.inv(A, what).matmul(B)

    @staticmethod
    def int_solve(N: list[list[int]], rhs: list[int]):
        from sympy import QQ
        from sympy.polys.matrices import DomainMatrix

        d = len(N)
        Nd = DomainMatrix([[QQ(int(v)) for v in row] for row in N], (d, d), QQ)
        if Nd.rank() < d:
            return None
        x = Nd.lu_solve(DomainMatrix([[QQ(int(v))] for v in rhs], (d, 1), QQ))
        return tuple(to_fraction(row[0]) for row in x.to_list())


def arithmetic_backend(arithmetic: str) -> tuple[str, str]:
    """(backend, arithmetic used) for an algorithm's ``arithmetic=`` ("auto", "flint" or "fraction", see
    :data:`exactlin.algorithms._contract.ARITHMETICS`): "flint" is python-flint, "fraction" sympy's DomainMatrix
    over QQ (the rationals as fractions), "auto" python-flint when it is installed."""
    if arithmetic == "auto":
        arithmetic = "flint" if _flint is not None else "fraction"
    return {"flint": "flint", "fraction": "sympy"}[arithmetic], arithmetic


def _ops(backend: str | None):
    """The representation of ``backend`` (None: flint when it is installed, else sympy)."""
    if backend is None:
        backend = "flint" if _flint is not None else "sympy"
    if backend == "flint" and _flint is not None:
        return _Flint
    if backend == "sympy":
        return _Sympy
    if backend == "flint":  # pragma: no cover - python-flint is a runtime dependency
        raise ParameterError("backend='flint' needs python-flint, which is not installed", parameter="backend")
    raise ParameterError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}", parameter="backend")


# ---------------------------------------------------------------------------
# the basic operations


def transpose(A: Any) -> Matrix:
    A = as_matrix(A)
    return tuple(zip(*A))


def matmul(A: Any, B: Any, *, backend: str | None = None) -> Matrix:
    """A B, exactly.  Non-conformable shapes raise :class:`ShapeError`."""
    A, B = as_matrix(A, "A"), as_matrix(B, "B")
    if shape(A)[1] != shape(B)[0]:
        raise ShapeError(f"cannot multiply a {shape(A)[0]}x{shape(A)[1]} matrix by a "
                         f"{shape(B)[0]}x{shape(B)[1]} matrix: the inner dimensions differ")
    ops = _ops(backend)
    return ops.rows(ops.mul(ops.of(A), ops.of(B)))


def matvec(A: Any, v: Any) -> tuple[Fraction, ...]:
    """A v for a vector v, exactly."""
    A = as_matrix(A, "A")
    v = to_vector(v)
    if shape(A)[1] != len(v):
        raise ShapeError(f"cannot multiply a {shape(A)[0]}x{shape(A)[1]} matrix by a vector of length {len(v)}")
    return tuple(sum((a * b for a, b in zip(row, v)), Fraction(0)) for row in A)


def rank(A: Any, *, backend: str | None = None) -> int:
    return _ops(backend).of(as_matrix(A)).rank()


def rref(A: Any, *, backend: str | None = None) -> tuple[Matrix, tuple[int, ...]]:
    """The reduced row echelon form of A and its pivot columns (0-based).

    >>> R, piv = rref([[1, 2], [2, 4]]); [[str(v) for v in r] for r in R], piv
    ([['1', '2'], ['0', '0']], (0,))
    """
    ops = _ops(backend)
    R, piv = ops.rref(ops.of(as_matrix(A)))
    return ops.rows(R), piv


def _square(A: Matrix, what: str) -> int:
    n, m = shape(A)
    if n != m:
        raise ShapeError(f"{what} needs a square matrix, got {n}x{m}")
    return n


def det(A: Any, *, backend: str | None = None) -> Fraction:
    """The determinant, exactly (fraction-free elimination in flint or DomainMatrix)."""
    A = as_matrix(A)
    _square(A, "det")
    return to_fraction(_ops(backend).of(A).det())


def inverse(A: Any, *, what: str = "matrix", backend: str | None = None) -> Matrix:
    """A^{-1}; a singular A raises :class:`SingularMatrixError`."""
    A = as_matrix(A, what)
    _square(A, "inverse")
    ops = _ops(backend)
    return ops.rows(ops.inv(ops.of(A), what))


def solve(A: Any, b: Any, *, what: str = "matrix", backend: str | None = None) -> Any:
    """The solution x of A x = b for a square nonsingular A; ``b`` a vector (returns a vector)
    or a matrix (returns a matrix).  Singular A: :class:`SingularMatrixError`."""
    A = as_matrix(A, what)
    n = _square(A, "solve")
    is_vec = len(b) > 0 and not isinstance(b[0], (list, tuple)) and not (isinstance(b, _np.ndarray) and b.ndim == 2)
    B = tuple((x,) for x in to_vector(b)) if is_vec else as_matrix(b, "b")
    if len(B) != n:
        raise ShapeError(f"solve: A is {n}x{n} but b has {len(B)} rows")
    ops = _ops(backend)
    X = ops.rows(ops.solve(ops.of(A), ops.of(B), what))
    return tuple(r[0] for r in X) if is_vec else X


def int_solve(N: Any, rhs: Sequence[int], *, what: str = "matrix", backend: str | None = None
              ) -> tuple[Fraction, ...]:
    """The solution x of N x = rhs for a square integer matrix N (rows of ints) and an integer vector, exactly:
    flint's fraction-free ``fmpz_mat.solve``, or DomainMatrix's LU over QQ.  Singular N: :class:`SingularMatrixError`.

    >>> int_solve([[2, 1], [1, 3]], [3, 5])
    (Fraction(4, 5), Fraction(7, 5))
    """
    x = _ops(backend).int_solve([[int(v) for v in row] for row in N], [int(v) for v in rhs])
    if x is None:
        raise SingularMatrixError(f"{what} is singular (determinant 0): N x = b has no unique solution")
    return x


# ---------------------------------------------------------------------------
# symmetry and positive definiteness (no square root, no eigenvalue)


def is_symmetric(A: Any) -> bool:
    A = as_matrix(A)
    n, m = shape(A)
    return n == m and all(A[i][j] == A[j][i] for i in range(n) for j in range(i + 1, n))


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
    M, D = _integerize_rows(A)
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


def pinv(Y: Any, *, backend: str | None = None) -> Matrix:
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
    ops = _ops(backend)
    if ops is _Flint and n >= m:
        # fast path, exact: Y = Y'/D with Y' integral; if G = Y'^t Y' (computed exactly by gram) is
        # nonsingular, Y has full column rank and Y^+ = (Y^tY)^{-1} Y^t = D G^{-1} Y'^t.
        rows, D = _integerize_rows(Y)
        try:
            Ginv = _flint.fmpq_mat(_flint.fmpz_mat(gram(rows))).inv()
        except ZeroDivisionError:
            Ginv = None
        if Ginv is not None:
            P = Ginv * _flint.fmpq_mat(_flint.fmpz_mat(rows).transpose())
            return ops.rows(P * _flint.fmpq(D) if D != 1 else P)
    B = ops.of(Y)
    R, piv = ops.rref(B)
    r = len(piv)
    if r == 0:
        return zeros_matrix(m, n)
    mul, inv = ops.mul, ops.inv
    C = ops.sub(B, range(n), piv)
    CtC_inv = inv(mul(C.transpose(), C), "C^t C")
    if r == m:  # full column rank: F = I
        return ops.rows(mul(CtC_inv, C.transpose()))
    F = ops.sub(R, range(r), range(m))
    FFt_inv = inv(mul(F, F.transpose()), "F F^t")
    return ops.rows(mul(mul(F.transpose(), FFt_inv), mul(CtC_inv, C.transpose())))


def _integerize_rows(A: Matrix) -> tuple[list[list[int]], int]:
    """(rows of Python ints, D) with A = rows / D, D the least common denominator."""
    D = math.lcm(*{v._denominator for row in A for v in row})  # Fraction's slots: no property call per entry
    if D == 1:
        return [[v._numerator for v in row] for row in A], 1
    return [[v.numerator * (D // v.denominator) for v in row] for row in A], D


def integer_matrix(Y: Any, name: str = "matrix"):
    """(A, D) with Y = A / D, A an integer matrix (a numpy int64 array when every entry fits, else a list
    of lists of Python ints) and D >= 1 the least common denominator.  A numpy integer array or an ExactRows
    passes through unconverted; a vector becomes a column."""
    if isinstance(Y, ExactRows):  # already integers over a common denominator: no per-entry work
        return Y.num, Y.den
    if isinstance(Y, _np.ndarray) and Y.dtype.kind in "iu":
        if Y.ndim == 1:
            Y = Y.reshape(-1, 1)
        if Y.dtype.kind == "u" and Y.size and int(Y.max()) >= I64_LIMIT:  # astype(int64) would wrap around
            return [[int(v) for v in row] for row in Y.tolist()], 1
        return Y.astype(_np.int64, copy=False), 1
    vector = isinstance(Y, Sequence) and Y and not isinstance(Y[0], (list, tuple))
    rows, D = _integerize_rows(tuple((v,) for v in to_vector(Y)) if vector else as_matrix(Y, name))
    try:
        return _np.array(rows, dtype=_np.int64).reshape(len(rows), -1), D
    except OverflowError:  # an entry does not fit in int64: stay with Python ints
        return rows, D


def pinv_solve(Y: Any, b: Any = None, *, backend: str | None = None, tiers: dict | None = None
               ) -> tuple[Fraction, ...]:
    """a = Y^+ b exactly (b defaults to the all-ones vector, seed 003's choice); the MSE solution.

    Fast path when Y has full column rank (the usual MSE case, more samples than unknowns):
    then Y^+ b is the unique solution of the normal equations Y^tY a = Y^t b.  Y and b are scaled
    to integers by their common denominators D and E (Y = Y'/D, b = b'/E, so Y^+ b = (D/E) Y'^+ b');
    Y'^tY' and Y'^t b' are integer products computed exactly by :func:`gram` (float64 BLAS or
    int64 only when the bound check there proves no rounding and no overflow; ``tiers`` counts them); the integer
    system is solved exactly by :func:`int_solve` (flint or DomainMatrix, ``backend``).  If Y'^tY' is singular
    (Y rank deficient) the general full-rank-factorization route of :func:`pinv` is used instead; the answer is
    the same minimum-norm least-squares solution either way.

    ``Y`` may be a numpy integer array (no conversion to Fractions at all), or anything
    :func:`as_matrix` takes.  Returns a tuple of Fractions.
    """
    Yi, D = integer_matrix(Y, "Y")
    n = len(Yi)
    bi, E = (_np.ones((n, 1), dtype=_np.int64), 1) if b is None else integer_matrix(b, "b")
    if len(bi) != n or (len(bi) and len(bi[0]) != 1):
        raise ShapeError(f"Y has {n} rows but b has {len(bi)} entries" if len(bi) != n else "b must be a vector")
    scale = Fraction(D, E)
    x = _ops(backend).int_solve(gram(Yi, tiers=tiers), [row[0] for row in gram(Yi, bi, tiers=tiers)])
    if x is not None:
        return tuple(v * scale for v in x)
    # rank deficient: the general route
    Ym = as_matrix(Yi.tolist() if isinstance(Yi, _np.ndarray) else Yi, "Y")
    bv = [row[0] for row in (bi.tolist() if isinstance(bi, _np.ndarray) else bi)]
    P = pinv(Ym, backend=backend)
    return tuple(sum((p * q for p, q in zip(row, bv)), Fraction(0)) * scale for row in P)


# ---------------------------------------------------------------------------
# the independent checker


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
