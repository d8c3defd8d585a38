"""Exact linear algebra: seed 003's pseudoinverse example, Penrose conditions on random matrices of every
rank, the fast MSE path against the normal equations, positive definiteness without eigenvalues."""

from fractions import Fraction as F

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import exactlin.linalg.matrices as L
from exactlin.errors import ShapeError, SingularMatrixError, VerificationError
from exactlin.strategies import rational_matrices

# seed 003 (003_ffe0ec08819b37d8.txt), "Example" under Minimum Squared Error Procedures
Y_SEED = [[1, 1, 2], [1, 2, 0], [-1, -3, -1], [-1, -2, -3]]
P_SEED = [[F(5, 4), F(13, 12), F(3, 4), F(7, 12)],
          [F(-1, 2), F(-1, 6), F(-1, 2), F(-1, 6)],
          [F(0), F(-1, 3), F(0), F(-1, 3)]]
A_SEED = (F(11, 3), F(-4, 3), F(-2, 3))


@pytest.mark.parametrize("backend", ["flint", "sympy"])
def test_seed003_pseudoinverse_to_the_digit(backend):
    P = L.pinv(Y_SEED, backend=backend)
    assert [list(r) for r in P] == P_SEED
    assert L.verify_penrose(Y_SEED, P)
    assert L.pinv_solve(Y_SEED, [1, 1, 1, 1], backend=backend) == A_SEED
    assert L.pinv_solve(Y_SEED, backend=backend) == A_SEED  # b defaults to all ones
    assert L.pinv_solve(np.array(Y_SEED), backend=backend) == A_SEED


def test_seed003_limit_definition_agrees():
    # seed 003: Y^+ = lim_{eps -> 0} (Y^tY + eps I)^{-1} Y^t, evaluated symbolically by sympy
    eps = sympy.Symbol("eps", positive=True)
    Y = sympy.Matrix(Y_SEED)
    limit = ((Y.T * Y + eps * sympy.eye(3)).inv() * Y.T).applyfunc(lambda e: sympy.limit(e, eps, 0))
    assert limit == L.to_sympy_matrix(L.pinv(Y_SEED))


def test_rank_deficient_limit_definition():
    # a rank-1 matrix: (Y^tY)^{-1} does not exist, but the limit does; hand derivation:
    # Y = u v^t with u = (1,2), v = (1,1): Y^+ = v u^t / (|u|^2 |v|^2) = [[1,2],[1,2]] / 10
    Y = [[1, 1], [2, 2]]
    assert [list(r) for r in L.pinv(Y)] == [[F(1, 10), F(2, 10)], [F(1, 10), F(2, 10)]]
    eps = sympy.Symbol("eps", positive=True)
    Ys = sympy.Matrix(Y)
    limit = ((Ys.T * Ys + eps * sympy.eye(2)).inv() * Ys.T).applyfunc(lambda e: sympy.limit(e, eps, 0))
    assert limit == L.to_sympy_matrix(L.pinv(Y))


def test_special_shapes():
    assert L.pinv([[0]]) == ((F(0),),)
    assert L.pinv([[F(-2, 3)]]) == ((F(-3, 2),),)
    assert L.pinv([[0, 0, 0], [0, 0, 0]]) == L.zeros_matrix(3, 2)
    # a row vector (full row rank): Y^+ = Y^t / |Y|^2 (hand derivation)
    assert L.pinv([[1, 2, 2]]) == ((F(1, 9),), (F(2, 9),), (F(2, 9),))


def _rational():
    return st.fractions(min_value=-5, max_value=5, max_denominator=4)


@st.composite
def matrices_of_rank(draw):
    n = draw(st.integers(1, 5))
    m = draw(st.integers(1, 5))
    r = draw(st.integers(0, min(n, m)))
    if r == 0:
        return [[F(0)] * m for _ in range(n)]
    C = [[draw(_rational()) for _ in range(r)] for _ in range(n)]
    Fm = [[draw(_rational()) for _ in range(m)] for _ in range(r)]
    M = [[sum((C[i][k] * Fm[k][j] for k in range(r)), F(0)) for j in range(m)] for i in range(n)]
    if draw(st.booleans()):  # force a zero row
        M[draw(st.integers(0, n - 1))] = [F(0)] * m
    return M


@settings(max_examples=25)
@given(matrices_of_rank())
def test_penrose_conditions_every_rank(M):
    P = L.pinv(M)
    assert L.verify_penrose(M, P)
    assert L.pinv(M, backend="sympy") == P  # both backends, same exact digits
    # the pseudoinverse of the pseudoinverse is the matrix
    assert [list(r) for r in L.pinv(P)] == [[F(v) for v in r] for r in M]


@settings(max_examples=25)
@given(matrices_of_rank(), st.data())
def test_pinv_solve_is_pinv_times_b(M, data):
    b = [data.draw(_rational()) for _ in range(len(M))]
    P = L.pinv(M)
    expected = tuple(sum((p * q for p, q in zip(row, b)), F(0)) for row in P)
    assert L.pinv_solve(M, b) == expected


@settings(max_examples=25)
@given(st.integers(3, 8), st.integers(1, 3), st.data())
def test_mse_equals_normal_equations_full_column_rank(n, d, data):
    # full column rank: a = Y^+ b is the unique solution of Y^tY a = Y^t b (seed 003's derivation)
    Y = [[data.draw(st.integers(-6, 6)) for _ in range(d)] for _ in range(n)]
    if sympy.Matrix(Y).rank() < d:
        return
    b = [data.draw(_rational()) for _ in range(n)]
    a = L.pinv_solve(Y, b)
    Ys, bs = sympy.Matrix(Y), sympy.Matrix([sympy.Rational(v.numerator, v.denominator) for v in b])
    sol = (Ys.T * Ys).LUsolve(Ys.T * bs)
    assert [sympy.Rational(v.numerator, v.denominator) for v in a] == list(sol)


def test_fast_path_integer_bounds():
    # entries large enough that float64 and int64 are both unsafe: the exact fallbacks must be used
    big = 2 ** 40
    Y = [[big, 1], [1, big], [big, big + 1]]
    a = L.pinv_solve(Y)
    Ys = sympy.Matrix(Y)
    assert list(a) == [F(int(v.p), int(v.q)) for v in (Ys.T * Ys).LUsolve(Ys.T * sympy.ones(3, 1))]
    G = L.gram(np.array(Y, dtype=np.int64))
    assert G == [[int(v) for v in row] for row in (Ys.T * Ys).tolist()]


def test_gram_numpy_matches_python():
    rng = np.random.default_rng(1)
    A = rng.integers(-9, 10, size=(300, 7))
    G = L.gram(A)
    expected = [[sum(int(A[k, i]) * int(A[k, j]) for k in range(300)) for j in range(7)] for i in range(7)]
    assert G == expected


def test_basic_ops():
    A = [[1, 2], [3, 4]]
    assert L.det(A) == -2
    assert L.inverse(A) == ((F(-2), F(1)), (F(3, 2), F(-1, 2)))
    assert L.solve(A, [1, 1]) == (F(-1), F(1))
    assert L.matmul(A, [[1], [1]]) == ((F(3),), (F(7),))
    assert L.transpose(A) == ((F(1), F(3)), (F(2), F(4)))
    assert L.rank([[1, 2], [2, 4]]) == 1
    R, piv = L.rref([[0, 2, 4], [0, 1, 2], [1, 0, 0]])
    assert piv == (0, 1) and R[2] == (0, 0, 0)
    assert L.matvec(A, [1, F(1, 2)]) == (F(2), F(5))


def test_positive_definite_exact():
    assert L.is_positive_definite([[2, -1, 0], [-1, 2, -1], [0, -1, 2]])  # minors 2, 3, 4 (hand)
    assert L.leading_minors([[2, -1, 0], [-1, 2, -1], [0, -1, 2]]) == [2, 3, 4]
    assert not L.is_positive_definite([[1, 0], [0, 0]])  # semidefinite only
    assert not L.is_positive_definite([[1, 2], [3, 4]])  # not symmetric
    assert not L.is_positive_definite([[0, 1], [1, 5]])  # Delta_1 = 0
    # (2/eta) I - Y^tY for seed 003's Y: Y^tY = [[4,8,6],[8,18,11],[6,11,14]]; eta = 1/100 is fine,
    # eta = 1 is not (Delta_1 = 2 - 4 < 0)
    YtY = L.matmul(L.transpose(Y_SEED), Y_SEED)
    assert YtY == tuple(tuple(F(v) for v in r) for r in [[4, 8, 6], [8, 18, 11], [6, 11, 14]])
    M = [[(200 if i == j else 0) - YtY[i][j] for j in range(3)] for i in range(3)]
    assert L.is_positive_definite(M)
    M1 = [[(2 if i == j else 0) - YtY[i][j] for j in range(3)] for i in range(3)]
    assert not L.is_positive_definite(M1)
    Lm, D = L.ldl([[4, 2], [2, 3]])
    assert Lm == ((1, 0), (F(1, 2), 1)) and D == (4, 2)


def test_errors():
    with pytest.raises(ShapeError, match="inner dimensions"):
        L.matmul([[1, 2]], [[1, 2]])
    with pytest.raises(SingularMatrixError, match="singular"):
        L.inverse([[1, 2], [2, 4]])
    with pytest.raises(SingularMatrixError, match="singular"):
        L.solve([[1, 2], [2, 4]], [1, 1])
    with pytest.raises(ShapeError, match="square"):
        L.det([[1, 2, 3]])
    with pytest.raises(ShapeError, match="ragged"):
        L.pinv([[1, 2], [1]])
    with pytest.raises(ShapeError, match="rows but b"):
        L.pinv_solve([[1, 2], [3, 4]], [1, 2, 3])
    with pytest.raises(VerificationError, match="Penrose condition 1"):
        L.verify_penrose([[1, 0], [0, 1]], [[2, 0], [0, 1]])
    with pytest.raises(VerificationError, match="is 2x2"):
        L.verify_penrose([[1, 0, 0], [0, 1, 0]], [[1, 0], [0, 1]])


@given(rational_matrices(max_rows=5, max_cols=5))
def test_penrose_on_library_strategy(M):
    # exactlin.strategies.rational_matrices: any shape, zero rows, low rank (the users' generator)
    P = L.pinv(M)
    assert L.verify_penrose(M, P)
    assert L.rank(P) == L.rank(M)
