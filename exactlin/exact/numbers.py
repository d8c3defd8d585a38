"""Layer 1: the one conversion rule, and the exact vector operations every algorithm needs.

The rule (stated once, used everywhere; nothing above this module converts numbers):

==========================  ===================================================
input                        becomes
==========================  ===================================================
``int``, numpy integer       the same integer, as a ``Fraction``
``Fraction``, sympy          the same rational number
``Rational``/``Integer``
``decimal.Decimal``          its exact value (``Decimal("0.1")`` is 1/10)
``str``                      an integer ``"-3"``, a decimal ``"0.01"`` (= 1/100),
                             a fraction ``"-3/4"``, or scientific ``"1e-3"``
float / numpy float          ``floats="repr"`` (default): the shortest decimal
                             that round-trips, i.e. what the user typed
                             (0.1 becomes 1/10); ``floats="exact"``: the exact
                             binary value (0.1 becomes 3602879701896397/36028797018963968);
                             ``floats="reject"``: a ``InputTypeError``
==========================  ===================================================

NaN and infinities (float, Decimal or string) raise ``InputError``; ``bool``,
``None``, complex numbers and other objects raise ``InputTypeError``.
Irrational sympy numbers (``sqrt(2)``) are not data: ``InputError``.

>>> to_rational("0.01")
Fraction(1, 100)
>>> to_rational(0.1)
Fraction(1, 10)
>>> to_rational(0.1, floats="exact")
Fraction(3602879701896397, 36028797018963968)
>>> to_rational("-3/4")
Fraction(-3, 4)
>>> dot((Fraction(1, 2), 3), (4, Fraction(1, 3)))
Fraction(3, 1)
"""

from __future__ import annotations

import decimal
import math
import numbers as _numbers
import re
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any, Literal

from exactlin.errors import InputError, InputTypeError, ShapeError
from exactlin.exact.format import fmt, int_to_str
from exactlin.exact.rows import ExactRows, as_exact_rows, fraction_rows

__all__ = ["fdot",
    "FloatRule",
    "FLOAT_RULES",
    "Vector",
    "to_rational",
    "to_vector",
    "to_matrix",
    "parse_rational",
    "fmt",
    "fmt_vector",
    "dot",
    "dots",
    "add",
    "sub",
    "scale",
    "norm2",
    "zeros",
    "is_zero",
    "to_sympy",
    "bit_length",
    "max_bit_length",
    "int_to_str",
    "parse_long_rational",
    "check_input_size",
    "INPUT_DIGITS",
]

FloatRule = Literal["repr", "exact", "reject"]
FLOAT_RULES: tuple[str, ...] = ("repr", "exact", "reject")
Vector = tuple[Fraction, ...]

try:  # numpy is a runtime dependency, but keep the rule importable without it
    import numpy as _np
except ImportError:  # pragma: no cover
    _np = None


def _where(row: int | None, column: int | None) -> str:
    parts = []
    if row is not None:
        parts.append(f"sample {row + 1}")  # a person counts samples and features from 1 (.row/.column: 0-based)
    if column is not None:
        parts.append(f"feature {column + 1}")
    return (" at " + ", ".join(parts)) if parts else ""


#: resource guards on one number's text: the decimal exponent of "1e5000" (10**e has 3.3 e bits) and the
#: characters of one cell; beyond either the number is rejected, not computed (10**999999999 would never end)
MAX_EXPONENT = 100_000
MAX_NUMBER_CHARS = 100_000
#: the input-size limit, checked once for every algorithm (its contract, before any work) so that no default call
#: on up to 100 samples runs for long whatever the size of the entries (issue 20): one number of the input (a
#: numerator or a denominator, of a sample's entry or of a parameter) has at most ``INPUT_DIGITS`` digits, and
#: the digits beyond :data:`MACHINE_DIGITS` summed over all of them are at most ``INPUT_TOTAL_FACTOR`` times that.
#: Every algorithm's ``input_digits=N`` (the CLI's ``--input-digits N``) raises both for one call.  Why 300: the
#: exact SVM solvers on six ill-conditioned points took 3 to 6 s with 300-digit entries and 52 s (svm-soft-l2) with
#: 600-digit ones on the 2-core reference machine (issue 20's measurements are in CHANGELOG.md).
INPUT_DIGITS = 300
INPUT_TOTAL_FACTOR = 20
#: the digits of a machine integer (2**64 has 20): numbers this short never count towards the total
MACHINE_DIGITS = 20
#: a number of at most this many bits has at most MACHINE_DIGITS digits (2**66 < 10**20)
_SHORT_BITS = 66
_EXPONENT = re.compile(r"[eE]([-+]?[0-9_]+)\Z")
_LONG_NUMBER = re.compile(r"(?P<sign>[-+]?)(?=\d|\.\d)(?P<num>\d*)(?:/(?P<den>\d+)|(?:\.(?P<dec>\d*))?"
                          r"(?:[eE](?P<exp>[-+]?\d+))?)\Z")


def _digits_to_int(digits: str) -> int:
    """int(digits) without Python's 4300-digit limit (divide and conquer, so never quadratic)."""
    if len(digits) <= 4000:
        return int(digits)
    k = len(digits) // 2
    return _digits_to_int(digits[:-k]) * 10**k + _digits_to_int(digits[-k:])


def parse_long_rational(text: str) -> Fraction:
    """An exact rational from a canonical string ("-4/3") of any length (JSON results read back)."""
    q = _parse_long(text.strip())
    if q is None:
        raise InputError(f"{text[:40]!r}... is not a rational number")
    return q


def _parse_long(s: str) -> Fraction | None:
    m = _LONG_NUMBER.match(s)
    if m is None:
        return None
    num = _digits_to_int(m["num"] or "0")
    den = 1
    if m["den"] is not None:
        den = _digits_to_int(m["den"])
        if den == 0:
            raise ZeroDivisionError
    else:
        if m["dec"]:
            num = num * 10 ** len(m["dec"]) + _digits_to_int(m["dec"])
            den = 10 ** len(m["dec"])
        if m["exp"] is not None:
            e = int(m["exp"])
            if e >= 0:
                num *= 10**e
            else:
                den *= 10**-e
    q = Fraction(num, den)
    return -q if m["sign"] == "-" else q


def parse_rational(text: str, *, row: int | None = None, column: int | None = None) -> Fraction:
    """Parse an integer, decimal, fraction or scientific string exactly.

    >>> parse_rational(" 7/14 ")
    Fraction(1, 2)
    >>> parse_rational("1e-3")
    Fraction(1, 1000)
    """
    s = text.strip()
    if not s:
        raise InputError(f"empty cell{_where(row, column)}", row=row, column=column)
    low = s.lower().lstrip("+-")
    if low in ("nan", "inf", "infinity", "snan"):
        raise InputError(f"{text!r} is not a finite number{_where(row, column)}", row=row, column=column)
    if len(s) > MAX_NUMBER_CHARS:
        raise InputError(f"a cell of {len(s)} characters{_where(row, column)} is longer than the limit of "
                         f"{MAX_NUMBER_CHARS} characters for one number", row=row, column=column)
    m = _EXPONENT.search(s)
    if m is not None:
        try:
            e = int(m.group(1).replace("_", ""))
        except ValueError:
            e = 0
        if abs(e) > MAX_EXPONENT:
            raise InputError(f"{s[:40]!r}{'...' if len(s) > 40 else ''}: the exponent {m.group(1)} is beyond "
                             f"+-{MAX_EXPONENT}{_where(row, column)}, too large to compute exactly",
                             row=row, column=column)
    try:
        if len(s) > 4000:
            q = _parse_long(s)
            if q is not None:
                return q
        return Fraction(s)
    except ZeroDivisionError:
        raise InputError(f"{text!r} divides by zero{_where(row, column)}", row=row, column=column) from None
    except ValueError:
        raise InputError(
            f"{text!r} is not a number (expected an integer, a decimal such as 0.01, "
            f"or a fraction such as -3/4){_where(row, column)}",
            row=row,
            column=column,
        ) from None


def _from_float(x: float, shortest: str, floats: str, row, column) -> Fraction:
    if math.isnan(x) or math.isinf(x):
        raise InputError(f"{x!r} is not a finite number{_where(row, column)}", row=row, column=column)
    if floats == "repr":
        return Fraction(shortest)
    if floats == "exact":
        return Fraction(x)
    if floats == "reject":
        raise InputTypeError(
            f"float {shortest} given{_where(row, column)} but floats are rejected "
            "(pass an int, a Fraction or a string such as '1/10', or use floats='repr')",
            row=row,
            column=column,
        )
    raise InputError(f"unknown float rule {floats!r}; expected one of {', '.join(FLOAT_RULES)}")


def to_rational(
    value: Any, *, floats: FloatRule = "repr", row: int | None = None, column: int | None = None
) -> Fraction:
    """Convert one value to an exact ``Fraction`` by the module's rule."""
    # bool first: it is an int subclass, but True as a feature is almost always a mistake
    if isinstance(value, bool) or (_np is not None and isinstance(value, _np.bool_)):
        raise InputTypeError(f"bool {value!r}{_where(row, column)} is not a number", row=row, column=column)
    if type(value) is Fraction:
        return value
    if type(value) is int:
        return Fraction(value)
    if value is None:
        raise InputTypeError(f"missing value (None){_where(row, column)}", row=row, column=column)
    if type(value) is float:
        return _from_float(value, repr(value), floats, row, column)
    if isinstance(value, str):
        return parse_rational(value, row=row, column=column)
    if _np is not None:
        if isinstance(value, _np.integer):
            return Fraction(int(value))
        if isinstance(value, _np.floating):
            x = float(value)
            shortest = str(value) if math.isfinite(x) else repr(x)
            return _from_float(x, shortest, floats, row, column)
        if isinstance(value, _np.complexfloating):
            raise InputTypeError(f"complex {value!r}{_where(row, column)} is not a real number", row=row, column=column)
    if isinstance(value, complex):
        raise InputTypeError(f"complex {value!r}{_where(row, column)} is not a real number", row=row, column=column)
    if isinstance(value, float):  # other float subclasses
        return _from_float(float(value), repr(float(value)), floats, row, column)
    if isinstance(value, decimal.Decimal):
        if not value.is_finite():
            raise InputError(f"{value!r} is not a finite number{_where(row, column)}", row=row, column=column)
        if abs(value.as_tuple().exponent) > MAX_EXPONENT:
            raise InputError(f"Decimal {value}: the exponent is beyond +-{MAX_EXPONENT}{_where(row, column)}, too "
                             "large to compute exactly", row=row, column=column)
        return Fraction(value)
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(int(value))
    # sympy numbers (checked by duck typing so that sympy is imported only when used)
    mod = type(value).__module__
    if mod.startswith("sympy"):
        if getattr(value, "is_Rational", False):
            return Fraction(int(value.p), int(value.q))
        if getattr(value, "is_Float", False):
            return _from_float(float(value), repr(float(value)), floats, row, column)
        raise InputError(
            f"{value} is not a rational number{_where(row, column)}; exactlin's data must be rational",
            row=row,
            column=column,
        )
    if mod.startswith("flint"):
        try:
            return Fraction(int(value.p), int(value.q))  # fmpq
        except AttributeError:
            return Fraction(int(value))  # fmpz
    if isinstance(value, _numbers.Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    raise InputTypeError(
        f"{type(value).__name__} {value!r}{_where(row, column)} is not a number", row=row, column=column
    )


def to_vector(values: Any, *, floats: FloatRule = "repr", row: int | None = None) -> Vector:
    """Convert a sequence (list, tuple, 1-D numpy array) to a tuple of Fractions."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise InputTypeError(f"expected a sequence of numbers{_where(row, None)}, got {type(values).__name__}", row=row)
    if _np is not None and isinstance(values, _np.ndarray):
        if values.ndim != 1:
            raise ShapeError(f"expected a 1-D vector{_where(row, None)}, got an array of shape {values.shape}", row=row)
        if values.dtype.kind in "iu":
            return tuple(Fraction(v) for v in values.tolist())
    if type(values) is tuple and all(type(v) is Fraction for v in values):
        return values  # already exact: tuples and Fractions are immutable, so it is shared, not copied
    if type(values) is list and all(type(v) is Fraction for v in values):
        return tuple(values)  # already exact (a copy of the list, so later changes to it do not leak in)
    return tuple(to_rational(v, floats=floats, row=row, column=j) for j, v in enumerate(values))


def to_matrix(rows: Any, *, floats: FloatRule = "repr", name: str = "X",
              allow_empty: bool = False) -> Sequence[Vector]:
    """Convert rows to a tuple of equal-length exact vectors; ragged or empty input is an error.

    Integer numpy arrays (that fit int64) and :class:`~exactlin.exact.rows.ExactRows` become an
    ExactRows: a sequence of the same exact rows whose Fractions are built only when read, so integer
    kernels never pay a per-entry conversion.
    """
    if isinstance(rows, ExactRows) or (_np is not None and isinstance(rows, _np.ndarray)):
        if isinstance(rows, _np.ndarray) and rows.ndim != 2:
            raise ShapeError(f"{name} must be 2-D, got an array of shape {rows.shape}")
        er = as_exact_rows(rows)
        if er is not None:
            if (not len(er) or er.shape[1] == 0) and not (allow_empty and not len(er)):
                raise ShapeError(f"{name} is empty: at least one sample is needed" if not len(er)
                                 else f"{name} row 0 has no columns")
            return er
        if rows.dtype.kind in "iu":  # beyond int64: Python integers
            out = fraction_rows(rows.tolist())
            if not out and not allow_empty:
                raise ShapeError(f"{name} is empty: at least one sample is needed")
            return out
    if isinstance(rows, (str, bytes)) or not isinstance(rows, Iterable):
        raise InputTypeError(f"{name} must be a sequence of rows, got {type(rows).__name__}")
    out = []
    width = None
    for i, r in enumerate(rows):
        if isinstance(r, (str, bytes)) or not isinstance(r, Iterable):
            raise InputTypeError(f"{name}: sample {i + 1} is {type(r).__name__} {r!r}, not a sequence of numbers",
                                 row=i)
        v = to_vector(r, floats=floats, row=i)
        if width is None:
            width = len(v)
            if width == 0:
                raise ShapeError(f"{name} row 0 has no columns", row=0)
        elif len(v) != width:
            raise ShapeError(f"{name} is ragged: sample {i + 1} has {len(v)} features, sample 1 has {width}", row=i)
        out.append(v)
    if not out and not allow_empty:
        raise ShapeError(f"{name} is empty: at least one sample is needed")
    return tuple(out)


# ---------------------------------------------------------------------------
# formatting


def fmt_vector(v: Sequence[Any]) -> list[str]:
    return [fmt(x) for x in v]


# ---------------------------------------------------------------------------
# exact vector operations (tuples of Fractions or ints)


def dot(u: Sequence, v: Sequence):
    """Exact inner product <u, v>."""
    if len(u) != len(v):
        raise ShapeError(f"dot product of vectors of lengths {len(u)} and {len(v)}")
    return sum((a * b for a, b in zip(u, v)), Fraction(0))


def fdot(u: Sequence, v: Sequence) -> Fraction:
    """Exact inner product of two sequences of rationals (Fraction or int), as a Fraction, computed in integer
    arithmetic over one running denominator (one reduction at the end, instead of a gcd per term: the sum of
    int-valued Fractions costs no gcd at all).  No length check (the algorithms' own loops call it).

    >>> fdot((Fraction(1, 2), 3), (Fraction(2, 3), Fraction(-1, 6)))
    Fraction(-1, 6)
    """
    num, den = 0, 1
    for a, b in zip(u, v):
        q = a.denominator * b.denominator
        p = a.numerator * b.numerator
        if q == den:
            num += p
        elif q == 1:
            num += p * den
        else:
            g = math.gcd(den, q)
            num = num * (q // g) + p * (den // g)
            den = den // g * q
    return Fraction(num, den)


def dots(rows: Sequence[Sequence], w: Sequence) -> tuple[Fraction, ...]:
    """<x, w> for every row x, exactly, in integer arithmetic.

    With M the common denominator of the rows' entries and L that of w, M x and L w are integer
    vectors and <x, w> = <M x, L w> / (M L): one Fraction per row instead of one per product.

    >>> dots([(Fraction(1, 2), 1), (3, Fraction(-1, 3))], (2, Fraction(3, 4)))
    (Fraction(7, 4), Fraction(23, 4))
    """
    from math import lcm
    from operator import mul

    F = Fraction
    w = [v if type(v) is F else F(v) for v in w]
    rows = [r if type(r) is tuple and all(type(v) is F for v in r) else [v if type(v) is F else F(v) for v in r]
            for r in rows]
    for i, r in enumerate(rows):
        if len(r) != len(w):
            raise ShapeError(f"sample {i + 1} has {len(r)} entries but w has {len(w)}", row=i)
    M = lcm(*(v.denominator for r in rows for v in r)) if rows else 1
    L = lcm(*(v.denominator for v in w)) if w else 1
    W = [v.numerator * (L // v.denominator) for v in w]
    ML = M * L
    return tuple(Fraction(sum(map(mul, [v.numerator * (M // v.denominator) for v in r], W)), ML) for r in rows)


def add(u: Sequence, v: Sequence) -> Vector:
    if len(u) != len(v):
        raise ShapeError(f"sum of vectors of lengths {len(u)} and {len(v)}")
    return tuple(a + b for a, b in zip(u, v))


def sub(u: Sequence, v: Sequence) -> Vector:
    if len(u) != len(v):
        raise ShapeError(f"difference of vectors of lengths {len(u)} and {len(v)}")
    return tuple(a - b for a, b in zip(u, v))


def scale(c, v: Sequence) -> Vector:
    return tuple(c * a for a in v)


def norm2(v: Sequence):
    """Squared Euclidean norm ||v||^2, exact (no square root is ever taken)."""
    return sum((a * a for a in v), Fraction(0))


def zeros(d: int) -> Vector:
    return (Fraction(0),) * d  # one shared zero: Fractions are immutable


def is_zero(v: Sequence) -> bool:
    return all(a == 0 for a in v)


def to_sympy(q):
    """A Fraction (or int) as a sympy Rational."""
    import sympy

    if isinstance(q, Fraction):
        return sympy.Rational(q.numerator, q.denominator)
    return sympy.sympify(q)


def bit_length(q) -> int:
    """Largest bit length of the numerator and denominator of a rational."""
    q = Fraction(q)
    return max(abs(q.numerator).bit_length(), q.denominator.bit_length())


def max_bit_length(values: Iterable) -> int:
    m = 0
    for q in values:
        b = bit_length(q)
        if b > m:
            m = b
    return m


def _sizes(q: Fraction) -> tuple[int, int]:
    """(digits of the longer of numerator and denominator, digits beyond MACHINE_DIGITS of both together)."""
    from exactlin.exact.format import ndigits

    n, d = q.numerator, q.denominator
    if n.bit_length() <= _SHORT_BITS and d.bit_length() <= _SHORT_BITS:
        return 1, 0

    def digits(m: int) -> int:  # exact up to 100,000 bits; beyond, the bit-length estimate (never a huge power)
        return ndigits(m) if m.bit_length() <= 100_000 else int(m.bit_length() * 0.30102999566398120) + 1

    dn, dd = digits(n), digits(d)
    return max(dn, dd), max(0, dn - MACHINE_DIGITS) + max(0, dd - MACHINE_DIGITS)


def check_input_size(numbers: Iterable[tuple[str, Fraction]], limit: int | None = None) -> None:
    """Refuse, at once, an input whose numbers are beyond the input-size limit (:data:`INPUT_DIGITS`, or
    ``limit`` for this call): ``numbers`` gives ``(where, value)`` pairs, ``where`` naming the number for the
    message (``"sample 1, feature 2"``, ``"parameter eta"``).  Raises :class:`~exactlin.errors.InputSizeError`,
    one line naming the number, its size, the limit and how to raise it.

    >>> try:
    ...     check_input_size([("sample 1, feature 1", Fraction(10**1000))])
    ... except ValueError as e:
    ...     print(str(e)[:97])
    sample 1, feature 1 is a number of 1001 digits, beyond the input-size limit of 300 digits for one
    """
    from exactlin.errors import InputSizeError

    limit = INPUT_DIGITS if limit is None else limit
    total_limit = INPUT_TOTAL_FACTOR * limit
    total = 0
    for where, q in numbers:
        longest, beyond = _sizes(q)
        if longest > limit:
            about = "about " if max(q.numerator.bit_length(), q.denominator.bit_length()) > 100_000 else ""
            raise InputSizeError(f"{where} is a number of {about}{longest} digits, beyond the input-size limit of "
                                 f"{limit} digits for one number; input_digits={longest} (on the command line "
                                 f"--input-digits {longest}) raises it for one call (a longer input may take long)")
        total += beyond
        if total > total_limit:
            need = -(-total // INPUT_TOTAL_FACTOR)
            raise InputSizeError(f"the input's numbers have more than {total_limit} digits beyond the first "
                                 f"{MACHINE_DIGITS} of each (the limit: {INPUT_TOTAL_FACTOR} x input_digits = "
                                 f"{INPUT_TOTAL_FACTOR} x {limit}), counted up to {where}; input_digits={need} or "
                                 f"more (on the command line --input-digits N) raises it for one call (a "
                                 "longer input may take long)")
