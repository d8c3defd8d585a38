"""The one conversion rule (exactlin/exact/numbers.py). Expected values are hand-derived."""

import decimal
from fractions import Fraction as F

import numpy as np
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from exactlin.errors import InputError, InputTypeError, ShapeError
from exactlin.exact.numbers import add, dot, fmt, norm2, parse_rational, scale, sub, to_matrix, to_rational, to_vector


@pytest.mark.parametrize("value, expected", [
    (3, F(3)), (F(-3, 4), F(-3, 4)), (sympy.Rational(-4, 3), F(-4, 3)), (sympy.Integer(7), F(7)),
    (np.int64(-5), F(-5)), (np.int8(3), F(3)), ("0.01", F(1, 100)), ("-3/4", F(-3, 4)), (" 7/14 ", F(1, 2)),
    ("1e-3", F(1, 1000)), ("+2", F(2)), (decimal.Decimal("0.1"), F(1, 10)),
    (0.1, F(1, 10)), (np.float64(0.1), F(1, 10)), (np.float32(0.1), F(1, 10)), (-0.0, F(0)), (2.5, F(5, 2)),
])
def test_accepted_values(value, expected):
    assert to_rational(value) == expected
    assert type(to_rational(value)) is F


def test_float_rules():
    # 0.1 is 3602879701896397 / 2^55 in binary
    assert to_rational(0.1, floats="exact") == F(3602879701896397, 36028797018963968)
    assert to_rational(0.1, floats="repr") == F(1, 10)
    with pytest.raises(InputTypeError, match="floats are rejected"):
        to_rational(0.1, floats="reject")
    # a subnormal keeps its exact value under "exact" and its shortest repr under "repr"
    assert to_rational(5e-324, floats="exact") == F(1, 2 ** 1074)
    assert to_rational(5e-324) == F(5, 10 ** 324)


@pytest.mark.parametrize("value, exc, fragment", [
    (float("nan"), InputError, "not a finite number"), (float("inf"), InputError, "not a finite number"),
    ("nan", InputError, "not a finite number"), ("-inf", InputError, "not a finite number"),
    (decimal.Decimal("NaN"), InputError, "not a finite number"), (np.float64("nan"), InputError, "finite"),
    (True, InputTypeError, "bool"), (np.bool_(False), InputTypeError, "bool"), (None, InputTypeError, "None"),
    (1 + 2j, InputTypeError, "complex"), (np.complex128(1), InputTypeError, "complex"),
    ("abc", InputError, "not a number"), ("1/0", InputError, "divides by zero"), ("", InputError, "empty"),
    (sympy.sqrt(2), InputError, "not a rational"), (object(), InputTypeError, "not a number"),
])
def test_rejected_values(value, exc, fragment):
    with pytest.raises(exc, match=fragment):
        to_rational(value, row=2, column=1)


def test_error_names_row_and_column():
    with pytest.raises(InputError, match="sample 2, feature 1") as e:
        to_matrix([[1, 2], ["x", 3]])
    assert e.value.row == 1 and e.value.column == 0
    assert isinstance(e.value, ValueError)


def test_matrix_shapes():
    with pytest.raises(ShapeError, match="ragged: sample 2 has 1 features"):
        to_matrix([[1, 2], [3]])
    with pytest.raises(ShapeError, match="empty"):
        to_matrix([])
    with pytest.raises(ShapeError, match="no columns"):
        to_matrix([[]])
    assert to_matrix(np.array([[1, 2], [3, 4]])) == ((F(1), F(2)), (F(3), F(4)))
    with pytest.raises(ShapeError, match="2-D"):
        to_matrix(np.zeros(3))


def test_vector_ops_exact():
    u, v = (F(1, 2), F(-1, 3)), (F(2), F(3))
    assert dot(u, v) == F(0)  # 1 - 1
    assert add(u, v) == (F(5, 2), F(8, 3))
    assert sub(u, v) == (F(-3, 2), F(-10, 3))
    assert scale(F(3), u) == (F(3, 2), F(-1))
    assert norm2(u) == F(1, 4) + F(1, 9)
    assert fmt(F(-4, 3)) == "-4/3" and fmt(F(6, 2)) == "3"
    with pytest.raises(ShapeError):
        dot((1,), (1, 2))


@given(st.fractions(), st.sampled_from(["repr", "exact"]))
def test_fraction_strings_round_trip(q, rule):
    assert parse_rational(fmt(q)) == q
    assert to_rational(str(q), floats=rule) == q


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_float_repr_rule_is_what_python_prints(x):
    assert to_rational(x) == F(repr(x))
    assert to_rational(x, floats="exact") == F(x)


def test_to_vector_numpy_int_array():
    assert to_vector(np.array([1, -2], dtype=np.int32)) == (F(1), F(-2))
