"""An independent exact check of the four Penrose conditions of a pseudoinverse.

Plain ``Fraction`` products written here; nothing is shared with the code that computes Y^+
(:func:`exactlin.linalg.matrices.pinv`, a full-rank factorization in python-flint).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from exactlin.errors import VerificationError
from exactlin.exact.numbers import to_rational
from exactlin.model.certificates import MINT, PENROSE_CONDITIONS, PenroseCertificate

__all__ = ["verify_penrose"]


def _rows(M, name: str) -> list[list[Fraction]]:
    rows = [[v if isinstance(v, Fraction) else to_rational(v) for v in r] for r in M]
    if not rows or not rows[0] or any(len(r) != len(rows[0]) for r in rows):
        raise VerificationError(f"{name} must be a non-empty rectangular matrix")
    return rows


def _mul(A, B) -> list[list[Fraction]]:
    Bt = list(zip(*B))
    return [[sum((a * b for a, b in zip(row, col)), Fraction(0)) for col in Bt] for row in A]


def verify_penrose(Y: Sequence[Sequence], P: Sequence[Sequence]) -> PenroseCertificate:
    """Check Y P Y = Y, P Y P = P, (Y P)^t = Y P, (P Y)^t = P Y exactly; raise :class:`VerificationError` naming the
    failed condition and an entry where it fails, else return the
    :class:`~exactlin.model.certificates.PenroseCertificate`."""
    Y, P = _rows(Y, "Y"), _rows(P, "P")
    n, m = len(Y), len(Y[0])
    if (len(P), len(P[0])) != (m, n):
        raise VerificationError(f"P is {len(P)}x{len(P[0])} but the pseudoinverse of a {n}x{m} matrix is {m}x{n}")
    YP, PY = _mul(Y, P), _mul(P, Y)
    checks = ((_mul(YP, Y), Y), (_mul(PY, P), P), ([list(c) for c in zip(*YP)], YP), ([list(c) for c in zip(*PY)], PY))
    for k, (lhs, rhs) in enumerate(checks):
        for i, (r1, r2) in enumerate(zip(lhs, rhs)):
            for j, (u, v) in enumerate(zip(r1, r2)):
                if u != v:
                    raise VerificationError(f"Penrose condition {k + 1}: {PENROSE_CONDITIONS[k]} fails at entry "
                                            f"({i}, {j}): {u} != {v}")
    return PenroseCertificate(rows=n, cols=m, _token=MINT)
