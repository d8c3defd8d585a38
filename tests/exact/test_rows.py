"""ExactRows (an exact matrix held as int64 numerators over one denominator), int_matvec, and the data
layer's use of them: every view must equal the plain-Fraction computation on the same data."""

from __future__ import annotations

import pickle
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactlin.data.dataset import as_dataset, augment, normalize
from exactlin.errors import InputError, InputTypeError, ShapeError
from exactlin.exact.numbers import to_matrix
from exactlin.exact.rows import ExactRows, int_matvec, scaled
from exactlin.model.run import LazySteps, Step, to_jsonable

ENTRY = st.integers(-(2**62), 2**62) | st.integers(-9, 9)


@st.composite
def int_matrices(draw, entries=ENTRY):
    n = draw(st.integers(1, 6))
    d = draw(st.integers(1, 5))
    return [[draw(entries) for _ in range(d)] for _ in range(n)]


@given(int_matrices(), st.integers(1, 10**20))
def test_rows_are_the_fractions(M, den):
    R = ExactRows(np.array(M, dtype=np.int64), den)
    assert R.shape == (len(M), len(M[0])) and len(R) == len(M)
    assert R._rows is None  # shape and len build nothing
    expect = tuple(tuple(Fraction(a, den) for a in row) for row in M)
    assert R == expect and tuple(R) == expect and R[-1] == expect[-1] and R[1:] == expect[1:]
    assert all(type(v) is Fraction for row in R for v in row)
    assert pickle.loads(pickle.dumps(R)) == R
    assert to_jsonable(R) == [[str(v) if v.denominator != 1 else str(v.numerator) for v in row] for row in expect]


@given(int_matrices(st.integers(-9, 9)), st.sampled_from(["none", "first", "last"]), st.integers(1, 12),
       st.data())
def test_augment_and_normalize_equal_the_fraction_route(M, bias, den, data):
    z = data.draw(st.lists(st.sampled_from([1, -1]), min_size=len(M), max_size=len(M)))
    R = scaled(np.array(M), den)
    Xq = [[Fraction(a, den) for a in row] for row in M]
    A = augment(R, bias)
    assert isinstance(A, ExactRows)
    assert A == augment(Xq, bias)
    N = normalize(A, z)
    assert isinstance(N, ExactRows)
    assert N == normalize(augment(Xq, bias), z)
    # the signs given as a boolean mask (True where z_i = -1): the same rows
    assert normalize(A, z, negative=np.array([v == -1 for v in z])) == N


def test_the_callers_array_is_copied_and_read_only():
    K = np.array([[1, 2], [3, 4]])
    R = to_matrix(K)
    assert isinstance(R, ExactRows)
    K[0, 0] = 99
    assert R[0] == (Fraction(1), Fraction(2))
    with pytest.raises(ValueError):
        R.num[0, 0] = 5


def test_dataset_from_numpy_equals_dataset_from_lists():
    K = np.array([[4, 0], [1, 1], [0, 1], [-2, -2]])
    y = np.array([1, -1, -1, 1])
    a, b = as_dataset(K, y), as_dataset(K.tolist(), y.tolist())
    assert isinstance(a.X, ExactRows) and a.X._rows is None and a.d == 2 and a.n == 4
    assert a == b and a.y == (1, -1, -1, 1) and all(type(v) is int for v in a.y)


@pytest.mark.parametrize("bad,err,msg", [
    (np.array([[1.5, 2.0]]), InputTypeError, "integers"),
    (np.array([[-(2**63)]], dtype=np.int64), InputError, "2\\*\\*63"),
    (np.array([[2**63]], dtype=np.uint64), InputError, "2\\*\\*63"),
    ([[1, 2], [3]], ShapeError, "ragged"),
    ([[1, 0.5]], InputTypeError, "row 0, column 1"),
    (np.array([1, 2]), ShapeError, "2-D"),
])
def test_bad_numerators_are_clear_errors(bad, err, msg):
    with pytest.raises(err, match=msg):
        ExactRows(bad)


@pytest.mark.parametrize("den", [0, -3, 1.5, True])
def test_bad_denominators(den):
    with pytest.raises((InputError, InputTypeError), match="den"):
        ExactRows([[1]], den)


def test_uint64_and_int64_extremes_fall_back_to_python_integers():
    big = np.array([[2**63 + 1, 0]], dtype=np.uint64)
    rows = to_matrix(big)
    assert not isinstance(rows, ExactRows) and rows == ((Fraction(2**63 + 1), Fraction(0)),)
    low = np.array([[-(2**63), 1]], dtype=np.int64)
    assert to_matrix(low) == ((Fraction(-(2**63)), Fraction(1)),)


@settings(max_examples=200)
@given(st.integers(1, 30), st.integers(1, 8), st.sampled_from([1, 9, 1000, 2**20, 2**40, 2**62 - 1]),
       st.integers(0, 900), st.randoms(use_true_random=False))
def test_int_matvec_is_exact(n, d, mag, bits, rnd):
    M = np.array([[rnd.randint(-mag, mag) for _ in range(d)] for _ in range(n)], dtype=np.int64)
    v = [rnd.randint(-(2**bits), 2**bits) for _ in range(d)]
    expect = [sum(int(M[i, j]) * v[j] for j in range(d)) for i in range(n)]
    assert int_matvec(M, v) == expect
    u = [rnd.randint(-(2**bits), 2**bits) for _ in range(n)]  # the transpose (a strided view)
    assert int_matvec(M.T, u) == [sum(int(M[i, j]) * u[i] for i in range(n)) for j in range(d)]


def test_int_matvec_carries_across_limbs():
    # entries that make every limb product land exactly on the carry boundaries, both signs
    M = np.array([[1, -1], [-1, 1], [3, 3]], dtype=np.int64)
    for v in ([2**300 - 1, 1], [-(2**300), 2**300 - 1], [2**43, -(2**43)], [0, -(2**900) + 1]):
        assert int_matvec(M, v) == [v[0] - v[1], v[1] - v[0], 3 * (v[0] + v[1])]


def test_lazy_steps_build_once_and_behave_as_the_list():
    calls = []
    steps = [Step(1, 1, 0, Fraction(0), True), Step(2, 1, 1, Fraction(3), False)]

    def build():
        calls.append(1)
        return list(steps)

    L = LazySteps(2, build)
    assert len(L) == 2 and bool(L) and not calls
    assert L == steps and L[1] == steps[1] and list(L) == steps and L[:1] == steps[:1]
    assert calls == [1]
    assert pickle.loads(pickle.dumps(L)) == steps


def test_float32_transpose_is_exact_shared_and_read_only():
    # 2^24 - 1 = 16,777,215 is the largest magnitude float32 holds with every integer below it: kept exactly;
    # 2^24 + 1 would round (to 2^24), so a matrix holding it has no float32 copy
    R = ExactRows(np.array([[2**24 - 1, -3], [0, -(2**24 - 1)]]), 5)
    T = R.float32_t()
    assert T.dtype == np.float32 and T.shape == (2, 2) and T.flags.c_contiguous
    assert T.tolist() == [[2**24 - 1, 0], [-3, -(2**24 - 1)]]  # the transpose of num, exactly (den is not applied)
    assert R.float32_t() is T  # built once, shared by its readers
    with pytest.raises(ValueError):
        T[0, 0] = 1
    assert ExactRows(np.array([[2**24 + 1, 0]])).float32_t() is None
    assert ExactRows(np.array([[-(2**24), 0]])).float32_t() is None  # |x| >= 2^24: no copy (the bound is strict)
