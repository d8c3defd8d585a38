"""The fast exact verifier of mse() (normal equations, residual e, J_s, separates) against plain
Fraction arithmetic written here, on random integer and rational Y, default and given b, and wrong
solutions that must be rejected."""

import json
import pickle
from fractions import Fraction as F

import numpy as np
import pytest
import sympy
from hypothesis import assume, given
from hypothesis import strategies as st

from exactlin.algorithms.mse import ExactVector, _check_least_squares, _gram_times_limbs, mse
from exactlin.errors import VerificationError
from exactlin.exact.numbers import fmt
from exactlin.exact.rows import ExactRows

# ---------------------------------------------------------------------------
# references: plain Fractions and sympy, nothing from exactlin's linear algebra


def ref_residual(Y, a, b):
    return tuple(sum((y * x for y, x in zip(row, a)), F(0)) - bi for row, bi in zip(Y, b))


def ref_normal_ok(Y, e):
    return all(sum((row[j] * ei for row, ei in zip(Y, e)), F(0)) == 0 for j in range(len(Y[0])))


def sympy_pinv_solution(Y, b):
    M = sympy.Matrix([[sympy.Rational(v.numerator, v.denominator) for v in row] for row in Y])
    x = M.pinv() * sympy.Matrix([sympy.Rational(v.numerator, v.denominator) for v in b])
    return tuple(F(int(v.p), int(v.q)) for v in x)


@st.composite
def problems(draw, max_n=6, max_d=3, max_entry=9, max_den=4):
    """(A, D, Y, b or None, B as Fractions): Y = A / D, A a numpy int64 array or rows of Python ints."""
    n = draw(st.integers(1, max_n))
    d = draw(st.integers(1, max_d))
    rows = draw(st.lists(st.lists(st.integers(-max_entry, max_entry), min_size=d, max_size=d),
                         min_size=n, max_size=n))
    D = draw(st.integers(1, max_den))
    Y = [[F(v, D) for v in row] for row in rows]
    given_b = draw(st.booleans())
    b = tuple(draw(st.lists(st.fractions(min_value=F(1, 5), max_value=5, max_denominator=7), min_size=n,
                            max_size=n))) if given_b else None
    as_numpy = draw(st.booleans())
    A = np.array(rows, dtype=np.int64).reshape(n, d) if as_numpy else rows
    return A, D, Y, b, b if b is not None else (F(1),) * n


def _assert_matches_reference(A, D, Y, a, b, bv):
    e, J, separates, ok = _check_least_squares(A, D, a, b)
    e_ref = ref_residual(Y, a, bv)
    ok_ref = ref_normal_ok(Y, e_ref)
    assert ok == ok_ref
    assert separates == all(ei + bi > 0 for ei, bi in zip(e_ref, bv))
    assert len(e) == len(e_ref)
    if ok_ref:
        assert J == sum((v * v for v in e_ref), F(0))
        assert e == e_ref and tuple(e) == e_ref and [e[i] for i in range(len(e))] == list(e_ref)
    else:
        assert J is None
    return ok


@given(problems())
def test_verifier_accepts_the_exact_solution(p):
    A, D, Y, b, bv = p
    a = sympy_pinv_solution(Y, bv)
    assert _assert_matches_reference(A, D, Y, a, b, bv)


@given(problems(), st.data())
def test_verifier_rejects_a_wrong_solution(p, data):
    A, D, Y, b, bv = p
    a = list(sympy_pinv_solution(Y, bv))
    # Y^t(Y(a + delta u_j) - b) = delta Y^t Y u_j, nonzero iff column j of Y is nonzero
    nonzero_cols = [j for j in range(len(Y[0])) if any(row[j] for row in Y)]
    assume(nonzero_cols)
    j = data.draw(st.sampled_from(nonzero_cols))
    a[j] += data.draw(st.sampled_from([F(1, 7), F(-1), F(1, 10**40)]))
    assert not _assert_matches_reference(A, D, Y, tuple(a), b, bv)


@given(problems(), st.lists(st.fractions(max_denominator=50), min_size=3, max_size=3))
def test_verifier_on_arbitrary_vectors(p, a):
    A, D, Y, b, bv = p
    a = tuple(a[: len(Y[0])])  # d <= 3
    _assert_matches_reference(A, D, Y, a, b, bv)


def test_large_entries_take_the_plain_integer_route():
    # m = 2**40: n d m^2 >= 2**52, so no limb width s >= 1 exists; the int_matvec route is used
    big = 1 << 40
    rows = [[big, 1], [1, -big], [big + 3, 2]]
    A = np.array(rows, dtype=np.int64)
    assert _gram_times_limbs(A, [1, 1]) is None
    Y = [[F(v) for v in row] for row in rows]
    a = sympy_pinv_solution(Y, (F(1),) * 3)
    assert _assert_matches_reference(A, 1, Y, a, None, (F(1),) * 3)
    a_bad = (a[0] + 1, a[1])
    assert not _assert_matches_reference(A, 1, Y, a_bad, None, (F(1),) * 3)


@given(st.integers(1, 7), st.integers(1, 4), st.data())
def test_limb_products_and_signs(n, d, data):
    rows = data.draw(st.lists(st.lists(st.integers(-9, 9), min_size=d, max_size=d), min_size=n, max_size=n))
    P = data.draw(st.lists(st.one_of(st.integers(-3, 3), st.integers(-(1 << 300), 1 << 300)), min_size=d,
                           max_size=d))
    A = np.array(rows, dtype=np.int64).reshape(n, d)
    AtAP, sign = _gram_times_limbs(A, P)
    AP = [sum(x * p for x, p in zip(row, P)) for row in rows]
    assert AtAP == [sum(rows[i][j] * AP[i] for i in range(n)) for j in range(d)]
    assert sign.tolist() == [(v > 0) - (v < 0) for v in AP]


def test_limb_signs_at_carry_boundaries():
    # (A P)_i near multiples of 2**(s k), and exactly 0, with P spanning several limbs
    A = np.array([[1, 0], [0, 1], [1, -1], [1, 1], [-1, 0]], dtype=np.int64)
    s = 52 - (5 * 2 * 1).bit_length()
    for P in ([1 << (3 * s), 1 << (3 * s)], [(1 << (3 * s)) - 1, 1 << (3 * s)], [-(1 << (2 * s)), 1],
              [0, 0], [1, -(1 << (5 * s))]):
        AtAP, sign = _gram_times_limbs(A, P)
        AP = [sum(x * p for x, p in zip(row, P)) for row in A.tolist()]
        assert sign.tolist() == [(v > 0) - (v < 0) for v in AP]
        assert AtAP == [sum(A.tolist()[i][j] * AP[i] for i in range(5)) for j in range(2)]


def test_deferred_residual_is_checked_when_read():
    # a wrong a on the limb route: the check fails, and reading e (built on first read) fails its own check
    A = np.array([[1, 2], [2, 0], [-3, -1], [-2, -3]], dtype=np.int64)
    e, J, separates, ok = _check_least_squares(A, 1, (F(1), F(0)), None)
    assert not ok and J is None and len(e) == 4
    with pytest.raises(VerificationError, match="not orthogonal"):
        e[0]


# ---------------------------------------------------------------------------
# mse() end to end against the references


def _ints(n, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.integers(-9, 10, size=(n, d))
    y = np.where(rng.integers(0, 2, size=n) == 1, 1, -1)
    return X, y


@pytest.mark.parametrize("b_given", [False, True])
def test_mse_extras_match_plain_fractions(b_given):
    X, y = _ints(60, 4, 5)
    b = [F(1 + (i % 3), 1 + (i % 2)) for i in range(60)] if b_given else None
    r = mse(X, y, b=b) if b_given else mse(X, y)
    Y = [tuple(F(int(z)) * v for v in (1, *map(int, row))) for row, z in zip(X, y)]  # normalized, bias first
    bv = tuple(b) if b_given else (F(1),) * 60
    assert r.w == sympy_pinv_solution(Y, bv)
    e_ref = ref_residual(Y, r.w, bv)
    assert ref_normal_ok(Y, e_ref)
    assert r.extras["e"] == e_ref and r.extras["J_s"] == sum((v * v for v in e_ref), F(0))
    assert r.extras["separates"] == all(ei + bi > 0 for ei, bi in zip(e_ref, bv))
    assert r.extras["b"] == bv
    d = json.loads(r.to_json(trace=False))
    assert d["e"] == [fmt(v) for v in e_ref] and d["J_s"] == fmt(r.extras["J_s"])


def test_mse_rational_data_and_exact_rows_input():
    # rational samples (ExactRows num/den) and the same samples as Fractions give the same exact run
    X, y = _ints(40, 3, 7)
    R = ExactRows(X, 6)
    r1 = mse(R, y)
    Xf = [[F(int(v), 6) for v in row] for row in X]
    r2 = mse(Xf, y)
    Y = [tuple(F(int(z)) * v for v in (F(1), *row)) for row, z in zip(Xf, y)]
    assert r1.w == r2.w == sympy_pinv_solution(Y, (F(1),) * 40)
    e_ref = ref_residual(Y, r1.w, (F(1),) * 40)
    assert r1.extras["e"] == r2.extras["e"] == e_ref
    assert r1.extras["J_s"] == r2.extras["J_s"] == sum((v * v for v in e_ref), F(0))


def test_mse_separating_solution():
    # separable with Y a = b exactly: every sample is classified correctly, J_s = 0
    r = mse([(0,), (1,), (2,), (3,)], [1, 1, -1, -1])
    Y = [(F(1), F(0)), (F(1), F(1)), (F(-1), F(-2)), (F(-1), F(-3))]
    e_ref = ref_residual(Y, r.w, (F(1),) * 4)
    assert r.extras["separates"] == all(v + 1 > 0 for v in e_ref)
    assert r.extras["J_s"] == sum((v * v for v in e_ref), F(0))


def test_exact_vector_sequence_behaviour():
    v = ExactVector([2, -3, 0], 4)
    assert len(v) == 3 and v[0] == F(1, 2) and v[1:] == (F(-3, 4), F(0))
    assert v == (F(1, 2), F(-3, 4), F(0)) and v != (F(1, 2), F(-3, 4))
    assert v == ExactVector([4, -6, 0], 8) and v != ExactVector([4, -6, 1], 8)
    assert list(v) == [F(1, 2), F(-3, 4), F(0)] and str(v) == "(1/2, -3/4, 0)"
    assert hash(v) == hash((F(1, 2), F(-3, 4), F(0)))
    assert pickle.loads(pickle.dumps(v)) == v
    assert v.to_dict() == ["1/2", "-3/4", "0"]
    calls = []
    w = ExactVector(lambda: calls.append(1) or [1, 2], 3, n=2)
    assert len(w) == 2 and not calls
    assert w == (F(1, 3), F(2, 3)) and calls == [1]
    with pytest.raises(ValueError):
        ExactVector([1], 0)
