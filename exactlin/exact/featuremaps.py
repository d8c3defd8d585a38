"""Pure feature maps phi (seed 004's circle lift, polynomial monomials), exact and free of any algorithm.

They live in this low layer so that a prediction model (:class:`exactlin.model.models.FeatureMapModel`)
can apply its map, described as data (a name and a degree), without importing the algorithms.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations_with_replacement
from typing import Any

from exactlin.errors import ParameterError, ShapeError
from exactlin.exact.numbers import to_matrix

__all__ = ["lift_circle", "polynomial_features", "polynomial_feature_names", "apply_map", "MAP_KINDS"]

#: the named maps a model can carry
MAP_KINDS = ("circle", "poly", "identity")


def lift_circle(X: Any) -> tuple[tuple[Fraction, ...], ...]:
    """Seed 004's phi: (x, y) -> (x, y, x^2 + y^2), exactly.

    >>> lift_circle([(1, 2), ("1/2", 0)])
    ((Fraction(1, 1), Fraction(2, 1), Fraction(5, 1)), (Fraction(1, 2), Fraction(0, 1), Fraction(1, 4)))
    """
    M = to_matrix(X)
    if len(M[0]) != 2:
        raise ShapeError(f"lift_circle maps points of the plane (x, y); the samples have {len(M[0])} features")
    return tuple((x, y, x * x + y * y) for x, y in M)


def _monomials(d: int, degree: int) -> list[tuple[int, ...]]:
    out = []
    for deg in range(1, degree + 1):
        for combo in combinations_with_replacement(range(d), deg):
            out.append(combo)
    return out


def polynomial_feature_names(d: int, degree: int, names: tuple[str, ...] | None = None) -> list[str]:
    """Names of :func:`polynomial_features`' columns, e.g. ``['x1', 'x2', 'x1^2', 'x1*x2', 'x2^2']``."""
    names = names or tuple(f"x{j + 1}" for j in range(d))
    out = []
    for combo in _monomials(d, degree):
        parts = []
        for j in sorted(set(combo)):
            p = combo.count(j)
            parts.append(names[j] + (f"^{p}" if p > 1 else ""))
        out.append("*".join(parts))
    return out


def polynomial_features(X: Any, degree: int) -> tuple[tuple[Fraction, ...], ...]:
    """All monomials of the features of total degree 1, ..., ``degree`` (no constant: the bias
    augmentation adds it), exactly.

    >>> polynomial_features([(2, 3)], 2)
    ((Fraction(2, 1), Fraction(3, 1), Fraction(4, 1), Fraction(6, 1), Fraction(9, 1)),)
    """
    if isinstance(degree, bool) or not isinstance(degree, int) or degree < 1:
        raise ParameterError(f"degree must be a whole number >= 1, got {degree!r}", parameter="degree")
    M = to_matrix(X)
    mons = _monomials(len(M[0]), degree)
    out = []
    for x in M:
        row = []
        for combo in mons:
            v = Fraction(1)
            for j in combo:
                v *= x[j]
            row.append(v)
        out.append(tuple(row))
    return tuple(out)


def apply_map(kind: str, degree: int, X: Any) -> tuple[tuple[Fraction, ...], ...]:
    """phi(X) for the map named ``kind`` (circle, poly of ``degree``, identity), exactly."""
    if kind == "circle":
        return lift_circle(X)
    if kind == "poly":
        return polynomial_features(X, degree)
    if kind == "identity":
        return tuple(tuple(r) for r in to_matrix(X))
    raise ParameterError(f"unknown feature map {kind!r}; known: {', '.join(MAP_KINDS)}", parameter="map")
