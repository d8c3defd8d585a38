"""Exact products of integer matrices at BLAS speed: A^t B, column sums, the centred scatter of a class.

The integer sibling of :func:`exactlin.exact.rows.int_matvec`.  Every function takes an integer matrix (a numpy
integer array, a numpy object array of Python ints, or rows of Python ints) and returns Python ints, computed on
the cheapest tier a bound proves exact:

* **float64** when every product and partial sum is an integer of magnitude below :data:`F64_EXACT` (2**53):
  float64 represents each exactly, and IEEE arithmetic returns the exact result whenever it is representable,
  in whatever order BLAS adds;
* **int64** when every one is below :data:`I64_LIMIT` (2**63): no wrap-around is possible;
* **python**: Python integers (python-flint's ``fmpz_mat`` for the products, when it is installed).

``tiers``, when given, is a dict that counts the tier each product took (``run.arithmetic["tiers"]``).

>>> gram([[1, 2], [3, 4]])
[[10, 14], [14, 20]]
>>> class_scatter(np.array([[1, 2], [3, 4]]))  # n A^t A - s s^t = n D^2 S (D = 1, S = [[2, 2], [2, 2]])
(2, [4, 6], [[4, 4], [4, 4]])
"""

from __future__ import annotations

from contextlib import contextmanager
from fractions import Fraction
from typing import Any

import numpy as np

from exactlin.errors import InputTypeError, ShapeError
from exactlin.exact.rows import F64_EXACT, I64_LIMIT

__all__ = ["gram", "column_sums", "centred_scatter", "class_scatter", "sym_fractions", "int_array", "max_abs",
           "one_blas_thread"]

_blas_controller = None


@contextmanager
def one_blas_thread():
    """Run a BLAS call on one thread when threadpoolctl is installed: for the thin products here (a few thousand
    rows, tens of columns) a multi-threaded BLAS on a small shared machine is often ten to a hundred times slower
    than one thread.  Speed only; the results are identical."""
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


def _count(tiers: dict | None, tier: str) -> None:
    if tiers is not None:
        tiers[tier] = tiers.get(tier, 0) + 1


def max_abs(A) -> int:
    """max |A_ij| as a Python int (0 for an empty matrix; no int64 overflow at -2**63)."""
    if isinstance(A, np.ndarray):
        return max(abs(int(A.max())), abs(int(A.min()))) if A.size else 0
    return max((abs(v) for row in A for v in row), default=0)


def int_array(A) -> np.ndarray:
    """An integer matrix as a 2-D numpy array: int64 as given, else an object array of Python ints."""
    if isinstance(A, np.ndarray):
        return A
    return np.array(A, dtype=object).reshape(len(A), -1)


def _is_i64(A) -> bool:
    return isinstance(A, np.ndarray) and A.dtype == np.int64


def _check_integer_matrix(M: Any, name: str) -> None:
    """gram's documented input: a 2-D numpy integer array or a rectangular list of lists of Python ints."""
    if isinstance(M, np.ndarray):
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


def gram(A: Any, B: Any = None, *, tiers: dict | None = None) -> list[list[int]]:
    """A^t B (A^t A when B is None) for integer matrices with the same number of rows, exactly, as lists of
    Python ints.  With n rows, |A| <= M_A and |B| <= M_B, every entry and every partial sum has magnitude
    <= n M_A M_B: the tier (module docstring) follows from that bound."""
    same = B is None
    _check_integer_matrix(A, "A")
    if same:
        B = A
    else:
        _check_integer_matrix(B, "B")
        if len(A) != len(B):
            raise ShapeError(f"gram: A has {len(A)} rows but B has {len(B)}")
    bound = len(A) * max_abs(A) * max_abs(B)
    if _is_i64(A) and _is_i64(B):
        if bound < F64_EXACT:
            _count(tiers, "float64")
            Af = A.astype(np.float64)
            Bf = Af if same else B.astype(np.float64)
            with one_blas_thread():
                return (Af.T @ Bf).astype(np.int64).tolist()
        if bound < I64_LIMIT:
            _count(tiers, "int64")
            return (A.T @ B).tolist()
    _count(tiers, "python")
    A = A.tolist() if isinstance(A, np.ndarray) else A
    B = A if same else (B.tolist() if isinstance(B, np.ndarray) else B)
    try:
        import flint
    except ImportError:  # pragma: no cover - python-flint is a runtime dependency
        cols_a, cols_b = list(zip(*A)), list(zip(*B))
        return [[sum(x * y for x, y in zip(ca, cb)) for cb in cols_b] for ca in cols_a]
    FA = flint.fmpz_mat([[int(v) for v in r] for r in A])
    FB = FA if same else flint.fmpz_mat([[int(v) for v in r] for r in B])
    return [[int(v) for v in row] for row in (FA.transpose() * FB).tolist()]


def column_sums(A: np.ndarray, *, tiers: dict | None = None) -> list[int]:
    """The column sums of an integer matrix as Python ints (int64 when n max|A| < 2**63, else Python ints)."""
    if _is_i64(A) and A.shape[0] * max_abs(A) < I64_LIMIT:
        _count(tiers, "int64")
        return [int(v) for v in A.sum(axis=0).tolist()]
    _count(tiers, "python")
    return [int(v) for v in A.astype(object).sum(axis=0).tolist()]


def class_scatter(A: np.ndarray, *, tiers: dict | None = None) -> tuple[int, list[int], list[list[int]]]:
    """(n, s, Q) for the samples of one class, the rows of X = A / D: s the column sums and
    Q = n A^t A - s s^t = n D^2 S with S = sum (x - m)(x - m)^t (seed 003's S_i: sum x x^t - s s^t / n for the
    rows x of X), by :func:`gram`."""
    n = A.shape[0]
    s = column_sums(A, tiers=tiers)
    G = gram(A if _is_i64(A) else A.tolist(), tiers=tiers)
    d = len(s)
    return n, s, [[n * G[i][j] - s[i] * s[j] for j in range(d)] for i in range(d)]


def centred_scatter(A: np.ndarray) -> tuple[list[int], list[list[int]]]:
    """(s, K) for one class, by other code than :func:`class_scatter` (for verifiers): s the column sums
    (float64 dot with a ones vector when n max|A| < 2**53, so every partial sum is an exactly represented
    integer; else Python ints), and K = C^t C with C = n A - 1 s^t the centred samples times n, so
    K = n^2 D^2 S.  C^t C is formed in float64 when n max|C|^2 < 2**53, in int64 when it is < 2**63, else in
    Python ints."""
    n = A.shape[0]
    m = max_abs(A)
    if _is_i64(A) and n * m < F64_EXACT:
        with one_blas_thread():
            s = [int(v) for v in (np.ones(n) @ A.astype(np.float64)).tolist()]
    else:
        s = [sum(int(v) for v in col) for col in A.T.tolist()]
    cmax = n * m + max((abs(v) for v in s), default=0)
    if _is_i64(A) and cmax < I64_LIMIT:
        C = A * np.int64(n) - np.array(s, dtype=np.int64)
        bound = n * cmax * cmax
        if bound < F64_EXACT:
            Cf = C.astype(np.float64)
            with one_blas_thread():
                K = (Cf.T @ Cf).astype(np.int64).tolist()
        elif bound < I64_LIMIT:
            K = (C.T @ C).tolist()
        else:
            Co = C.astype(object)
            K = Co.T.dot(Co).tolist()
    else:
        Co = A.astype(object) * n - np.array(s, dtype=object)
        K = Co.T.dot(Co).tolist()
    return s, [[int(v) for v in row] for row in K]


def sym_fractions(M: list[list[int]], den: int) -> tuple[tuple[Fraction, ...], ...]:
    """The symmetric matrix M / den as Fractions, each entry above the diagonal built once and shared with its
    mirror (Fractions are immutable; the values are those of ``M[i][j] / den``)."""
    d = len(M)
    rows = [[None] * d for _ in range(d)]
    for i in range(d):
        Mi, ri = M[i], rows[i]
        for j in range(i, d):
            ri[j] = rows[j][i] = Fraction(Mi[j], den)
    return tuple(tuple(r) for r in rows)
