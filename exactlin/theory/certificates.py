"""Certificates and their exact verifiers.

These functions check a claim from scratch with plain Fraction arithmetic; they
do not call the code that produced the claim.

* a separator: y_i <w, x~_i> > 0 (or >= a margin) for every sample;
* Gordan's alternative: lambda >= 0, sum lambda = 1, sum_i lambda_i y_i x~_i = 0
  proves that no w has y_i <w, x~_i> > 0 for all i.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from exactlin.errors import VerificationError
from exactlin.exact.numbers import to_matrix, to_rational, to_vector

__all__ = ["verify_separator", "verify_gordan", "gordan_from_counts"]


def _dot(u, v):
    s = Fraction(0)
    for a, b in zip(u, v, strict=True):
        s += a * b
    return s


def verify_separator(Z: Sequence[Sequence], w: Sequence, *, margin: Fraction = Fraction(0),
                     strict: bool = True) -> Fraction:
    """Check <w, z_i> > margin (strict) or >= margin for every normalized sample z_i = y_i x~_i.

    Returns min_i <w, z_i>; raises VerificationError naming the first failing sample.
    """
    Z, w, margin = to_matrix(Z, name="Z", allow_empty=True), to_vector(w), to_rational(margin)
    if not Z:
        raise VerificationError("no samples to verify against")
    worst = None
    for i, z in enumerate(Z):
        if len(z) != len(w):
            raise VerificationError(f"sample {i + 1} has {len(z)} entries but w has {len(w)}")
        s = _dot(w, z)
        ok = s > margin if strict else s >= margin
        if not ok:
            op = ">" if strict else ">="
            raise VerificationError(f"not a separator: sample {i + 1} has y<w,x> = {s}, needs {op} {margin}")
        worst = s if worst is None or s < worst else worst
    return worst


def verify_gordan(Z: Sequence[Sequence], lam: Sequence) -> None:
    """Check a Gordan certificate of non-separability on normalized samples z_i = y_i x~_i:
    lambda_i >= 0, sum lambda_i = 1, sum_i lambda_i z_i = 0 (all exact)."""
    Z, lam = to_matrix(Z, name="Z", allow_empty=True), to_vector(lam)
    if not Z:
        raise VerificationError("no samples to verify against")
    if len(lam) != len(Z):
        raise VerificationError(f"certificate has {len(lam)} multipliers for {len(Z)} samples")
    lam = [Fraction(v) for v in lam]
    for i, v in enumerate(lam):
        if v < 0:
            raise VerificationError(f"certificate multiplier lambda_{i + 1} = {v} is negative (sample {i + 1})")
    if sum(lam) != 1:
        raise VerificationError(f"certificate multipliers sum to {sum(lam)}, not 1")
    d = len(Z[0])
    for j in range(d):
        s = Fraction(0)
        for v, z in zip(lam, Z):
            if v:
                s += v * z[j]
        if s != 0:
            raise VerificationError(f"certificate: component {j} of sum lambda_i y_i x_i is {s}, not 0")


def gordan_from_counts(n: int, indices: Sequence[int]) -> tuple[Fraction, ...]:
    """lambda_i = (times sample i occurs in ``indices``) / len(indices)."""
    counts = [0] * n
    for i in indices:
        counts[i] += 1
    total = len(indices)
    return tuple(Fraction(c, total) for c in counts)
