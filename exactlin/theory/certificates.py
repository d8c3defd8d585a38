"""Certificates and their exact verifiers.

These functions check a claim from scratch with plain Fraction arithmetic; they
do not call the code that produced the claim.

* a separator: y_i <w, x~_i> > 0 (or >= a margin) for every sample;
* Gordan's alternative: lambda >= 0, sum lambda = 1, sum_i lambda_i y_i x~_i = 0
  proves that no w has y_i <w, x~_i> > 0 for all i.

The verifiers return the typed certificates of :mod:`exactlin.model.certificates` (the only code that may make
them): a certificate exists only when its check passed.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from exactlin.errors import VerificationError
from exactlin.exact.numbers import dot, to_matrix, to_rational, to_vector
from exactlin.model.certificates import (
    MINT,
    GordanCertificate,
    HoKashyapVerdict,
    KeslerGordanCertificate,
    SeparatorCertificate,
)

__all__ = ["verify_separator", "certify_separator", "verify_gordan", "verify_kesler_gordan", "verify_ho_kashyap",
           "gordan_from_counts"]


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
        s = dot(w, z)
        ok = s > margin if strict else s >= margin
        if not ok:
            op = ">" if strict else ">="
            raise VerificationError(f"not a separator: sample {i + 1} has y<w,x> = {s}, needs {op} {margin}")
        worst = s if worst is None or s < worst else worst
    return worst


def certify_separator(Z: Sequence[Sequence], a: Sequence, *, margin: Fraction = Fraction(0), strict: bool = True,
                      b=None) -> SeparatorCertificate:
    """:func:`verify_separator`, returning the typed certificate (a, min_i <a, z_i>, the margin it beat, and the
    intercept ``b`` where the caller's bias mode has one)."""
    worst = verify_separator(Z, a, margin=margin, strict=strict)
    return SeparatorCertificate(a=tuple(to_vector(a)), min_Ya=worst, margin=to_rational(margin), strict=strict,
                                b=None if b is None else to_rational(b), _token=MINT)


def verify_gordan(Z: Sequence[Sequence], lam: Sequence, *, source: str = "given", cycle: Sequence[int] | None = None,
                  e: Sequence | None = None, through_origin: bool = False, features: str | None = None,
                  support: bool = False) -> GordanCertificate:
    """Check a Gordan certificate of non-separability on normalized samples z_i = y_i x~_i:
    lambda_i >= 0, sum lambda_i = 1, sum_i lambda_i z_i = 0 (all exact); raise VerificationError naming what
    fails, else return the :class:`~exactlin.model.certificates.GordanCertificate` (with where lambda came from:
    ``source`` "cycle" with its ``cycle``, "lp" (``support=True`` lists the i with lambda_i > 0), "ho-kashyap"
    with its ``e``)."""
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
    return GordanCertificate(lam=tuple(lam), source=source, cycle=None if cycle is None else tuple(cycle),
                             support=tuple(i for i, v in enumerate(lam) if v) if support else None,
                             e=None if e is None else tuple(to_vector(e)), through_origin=through_origin,
                             features=features, _token=MINT)


def verify_kesler_gordan(K: Sequence[Sequence], lam: Sequence, kesler_pairs: Sequence) -> KeslerGordanCertificate:
    """A Gordan certificate on the Kesler vectors K of a linear machine (same check as :func:`verify_gordan`),
    with the (sample, class) pairs of the period it came from."""
    g = verify_gordan(K, lam)
    return KeslerGordanCertificate(lam=g.lam, kesler_pairs=tuple(tuple(int(x) for x in p) for p in kesler_pairs),
                                   _token=MINT)


def verify_ho_kashyap(Z: Sequence[Sequence], a: Sequence, e: Sequence) -> HoKashyapVerdict:
    """Ho-Kashyap's verdict on a and e = Y a - b, decided here from scratch: separable when every <a, z_i> > 0
    (a separator certificate); not separable when e <= 0, e != 0 and lambda = -e / sum(-e) passes
    :func:`verify_gordan` (then Y^t e = 0); undecided otherwise."""
    Z, a, e = to_matrix(Z, name="Z", allow_empty=True), tuple(to_vector(a)), tuple(to_vector(e))
    if len(e) != len(Z):
        raise VerificationError(f"e has {len(e)} entries for {len(Z)} samples")
    if Z and all(dot(a, z) > 0 for z in Z):
        return HoKashyapVerdict(verdict="separable", e=e, certificate=certify_separator(Z, a), _token=MINT)
    if any(e) and all(v <= 0 for v in e):
        s = -sum(e, Fraction(0))
        lam = tuple(-v / s for v in e)
        try:
            g = verify_gordan(Z, lam, source="ho-kashyap", e=e)
        except VerificationError:
            g = None
        if g is not None:
            return HoKashyapVerdict(verdict="not_separable", e=e, certificate=g, _token=MINT)
    return HoKashyapVerdict(verdict="undecided", e=e, _token=MINT)


def gordan_from_counts(n: int, indices: Sequence[int]) -> tuple[Fraction, ...]:
    """lambda_i = (times sample i occurs in ``indices``) / len(indices)."""
    counts = [0] * n
    for i in indices:
        counts[i] += 1
    total = len(indices)
    return tuple(Fraction(c, total) for c in counts)
