"""Exact and approximate side by side (exactlin/exact/format.py): the decimals are hand-computed, or checked with
the decimal module at high precision (an independent implementation of correct rounding)."""

from __future__ import annotations

import decimal
from fractions import Fraction

import pytest
import sympy

import exactlin.testing as T
from exactlin.exact import format as F


def test_one_implementation_of_decimal_str():
    assert T.decimal_str is F.decimal_str


def test_small_decimals_by_hand():
    assert F.decimal_str(Fraction(1, 3), 5) == "0.33333"
    assert F.decimal_str(Fraction(2, 3), 5) == "0.66667"
    assert F.decimal_str(Fraction(1, 8), 2) == "0.12"  # tie 0.125: to even
    assert F.decimal_str(Fraction(3, 8), 2) == "0.38"  # tie 0.375: to even
    assert F.decimal_str(Fraction(25, 2), 2) == "12"  # tie 12.5: to even
    assert F.decimal_str(Fraction(-5, 2), 1) == "-2"


def _decimal_reference(q: Fraction, digits: int) -> str:
    """Correct rounding by the decimal module: enough precision that the quotient is exact to well past the
    rounding digit, then one quantize with ROUND_HALF_EVEN."""
    with decimal.localcontext() as ctx:
        ctx.prec = 2000
        x = decimal.Decimal(q.numerator) / decimal.Decimal(q.denominator)
        e = x.adjusted()
        ctx.rounding = decimal.ROUND_HALF_EVEN
        return x.quantize(decimal.Decimal(1).scaleb(e - digits + 1))


def test_400_digit_rational_rounding_against_decimal_module():
    n = 3**839  # 401 digits
    d = 7**400 + 2  # 339 digits: q ~ 1.8e+62
    q = Fraction(n, d)
    for digits in (5, 17, 40):
        ref = _decimal_reference(q, digits)
        mant, exp = F.decimal_str(q, digits).split("e")
        assert decimal.Decimal(f"{mant}e{exp}") == ref  # the constructor is exact
        assert len(mant.replace(".", "")) == digits


def test_long_rational_shown_approximately_with_its_size():
    q = Fraction(10**411 + 7, 3 * 10**374 + 1)  # ~ 3.3333e+36; 412-digit numerator, 375-digit denominator
    assert F.text(q) == "≈ 3.3333e+36 (exact: a 412-digit numerator over a 375-digit denominator)"
    assert F.text((q, 1)) == "(≈3.3333e+36 (412/375 digits), 1)"
    assert F.latex(q).startswith("\\approx 3.3333 \\times 10^{36}")
    assert F.html(q) == F.text(q)
    assert F.fmt(q).startswith("1" + "0" * 410 + "7/")  # fmt stays exact
    with F.display(digits=8):
        assert F.text(q) == "≈ 3.3333333e+36 (exact: a 412-digit numerator over a 375-digit denominator)"
    with F.display(exact=True):
        assert F.text(q) == F.fmt(q)
    assert F.text(Fraction(12345678901234567890, 7)) == "12345678901234567890/7"  # 20 digits: exact


def test_irrationals_exact_and_decimal():
    assert F.text(sympy.sqrt(2) / 2) == "sqrt(2)/2 ≈ 0.70711"  # 0.7071067811...
    assert F.latex(sympy.sqrt(2) / 2) == "\\frac{\\sqrt{2}}{2} \\approx 0.70711"
    # Fisher with priors 0.9/0.1: 76/79 - log(9)/4 = 0.962025... - 0.549306... = 0.412719...
    assert F.text(sympy.Rational(76, 79) - sympy.log(9) / 4) == "76/79 - log(9)/4 ≈ 0.41272"
    assert F.text(sympy.pi) == "pi ≈ 3.1416"
    with F.display(digits=3):
        assert F.text(sympy.sqrt(3)) == "sqrt(3) ≈ 1.73"
    with F.display(exact=True):
        assert F.text(sympy.sqrt(2)) == "sqrt(2)"


def test_none_reads_as_a_dash():
    assert F.text(("A", "B", None)) == "(A, B, -)"


def test_display_rejects_bad_digits():
    from exactlin.errors import ExactlinError

    with pytest.raises(ExactlinError, match="digits"):
        with F.display(digits=0):
            pass
