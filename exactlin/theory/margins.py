"""Exact margins and radius (seed 000, 000_478cb53c624e7eb5.txt; seed 002; seed 004).

Irrational quantities stay exact sympy expressions; their squares are rationals.

>>> m = margin((1, 0), [(1, -1), (-1, -1), ("0.01", 0), (-1, 0)])
>>> m.value, m.squared
(1/100, Fraction(1, 10000))
>>> signed_margin((1, 1), [(1, 0), (0, 1)], [1, 1]).value
sqrt(2)/2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from exactlin.errors import InputError, InputTypeError, ShapeError
from exactlin.exact.numbers import dot, norm2, to_matrix, to_vector

__all__ = ["Margin", "margin", "signed_margin", "radius_squared", "functional_margin", "exact_sqrt"]


def exact_sqrt(q: Fraction):
    """sqrt(q) as an exact sympy number (rational when q is a perfect square)."""
    import sympy

    return sympy.sqrt(sympy.Rational(q.numerator, q.denominator))


@dataclass(frozen=True)
class Margin:
    """A margin min_i s_i / ||w||: ``numerator`` = min_i s_i (rational), ``norm2`` = ||w||^2,
    ``argmin`` the samples attaining it.  ``value`` is exact (sympy); ``squared`` is
    sign * numerator^2 / ||w||^2, a rational, for comparisons without square roots."""

    numerator: Fraction
    norm2: Fraction
    argmin: tuple[int, ...]

    @property
    def value(self):
        import sympy

        return sympy.Rational(self.numerator.numerator, self.numerator.denominator) / exact_sqrt(self.norm2)

    @property
    def squared(self) -> Fraction:
        s = self.numerator * self.numerator / self.norm2
        return s if self.numerator >= 0 else -s

    def __str__(self) -> str:
        return str(self.value)


def _prep(w, X) -> tuple[tuple, tuple]:
    wv = to_vector(w)
    Xm = to_matrix(X)
    if len(Xm[0]) != len(wv):
        raise ShapeError(f"w has {len(wv)} entries but the samples have {len(Xm[0])}")
    if norm2(wv) == 0:
        raise InputError("the margin of w = 0 is undefined (division by ||w|| = 0)")
    return wv, Xm


def _labels(y, n: int) -> tuple[int, ...]:
    from exactlin.data.dataset import binary_labels

    if isinstance(y, (str, bytes)) or not hasattr(y, "__len__"):
        raise InputTypeError(f"y must be a sequence of +1/-1 labels, got {type(y).__name__}")
    if len(y) != n:
        raise ShapeError(f"{n} samples but {len(y)} labels")
    return binary_labels(y)


def margin(w: Sequence, X: Sequence[Sequence]) -> Margin:
    """Seed 000's margin of w with respect to S: min_i |<w, x_i>| / ||w|| (labels play no part)."""
    wv, Xm = _prep(w, X)
    vals = [abs(dot(wv, x)) for x in Xm]
    m = min(vals)
    return Margin(m, norm2(wv), tuple(i for i, v in enumerate(vals) if v == m))


def functional_margin(w: Sequence, X: Sequence[Sequence], y: Sequence[int]) -> Fraction:
    """min_i y_i <w, x_i> (no division): positive iff w separates the samples."""
    wv = to_vector(w)
    Xm = to_matrix(X)
    z = _labels(y, len(Xm))
    if len(Xm[0]) != len(wv):
        raise ShapeError(f"w has {len(wv)} entries but the samples have {len(Xm[0])}")
    return min(yi * dot(wv, x) for x, yi in zip(Xm, z))


def signed_margin(w: Sequence, X: Sequence[Sequence], y: Sequence[int]) -> Margin:
    """The geometric margin min_i y_i <w, x_i> / ||w||: negative when w misclassifies a sample."""
    wv, Xm = _prep(w, X)
    z = _labels(y, len(Xm))
    vals = [yi * dot(wv, x) for x, yi in zip(Xm, z)]
    m = min(vals)
    return Margin(m, norm2(wv), tuple(i for i, v in enumerate(vals) if v == m))


def radius_squared(X: Sequence[Sequence]) -> Fraction:
    """R^2 = max_i ||x_i||^2 (seed 002's "radius of data", squared so that it stays rational)."""
    return max(norm2(x) for x in to_matrix(X))
