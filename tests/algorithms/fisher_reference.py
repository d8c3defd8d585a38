"""Fisher's discriminant by the textbook formulas of seed 003 (003_ffe0ec08819b37d8.txt, "Fisher Linear
Discriminant Analysis (FLDA)") in plain Fractions: the readable specification that
:func:`exactlin.algorithms.fisher.fisher` is tested against (tests/algorithms/test_fisher_exact.py).  It shares
no code with fisher's statistics (exactlin.exact.products), thresholds or classification."""

from __future__ import annotations

from fractions import Fraction

from exactlin.data.dataset import binary_labels
from exactlin.errors import InputError, SingularMatrixError
from exactlin.exact.numbers import dot, to_matrix
from exactlin.linalg.matrices import pinv, solve


def _quad(w, M) -> Fraction:
    """w^t M w."""
    return sum((w[i] * M[i][j] * w[j] for i in range(len(w)) for j in range(len(w))), Fraction(0))


def fisher_reference(X, y, *, positive=None, priors=None, threshold: str = "auto", singular: str = "error") -> dict:
    """Fisher's discriminant by the textbook formulas in plain Fractions, one sample at a time, the thresholds
    as sympy numbers and every decision by sympy's sign of y - y0: the readable specification :func:`fisher` is
    tested against (slow; not used by the library; it shares no code with fisher's statistics, thresholds or
    classification).  Returns ``w`` and the
    extras of :func:`fisher` (y0, thresholds, m1, m2, mt1, mt2, n1, n2, S1, S2, S_W, S_B, J, method,
    predictions, on_threshold, training_errors)."""
    rows = tuple(tuple(Fraction(v) for v in r) for r in to_matrix(X))
    z = binary_labels(list(y), positive)
    if isinstance(priors, str):
        priors = [Fraction(v) for v in priors.split(",")]
    priors = None if priors is None else tuple(Fraction(v) for v in priors)

    def stats(Dc):
        n, d = len(Dc), len(Dc[0])
        m = tuple(sum((x[j] for x in Dc), Fraction(0)) / n for j in range(d))
        S = tuple(tuple(sum(((x[i] - m[i]) * (x[j] - m[j]) for x in Dc), Fraction(0)) for j in range(d))
                  for i in range(d))
        return n, m, S

    n1, m1, S1 = stats([x for x, zi in zip(rows, z) if zi == 1])
    n2, m2, S2 = stats([x for x, zi in zip(rows, z) if zi == -1])
    d = len(m1)
    S_W = tuple(tuple(S1[i][j] + S2[i][j] for j in range(d)) for i in range(d))
    delta = tuple(a - b for a, b in zip(m1, m2))
    S_B = tuple(tuple(delta[i] * delta[j] for j in range(d)) for i in range(d))
    if not any(delta):
        raise InputError("the class means coincide")
    try:
        w, method = solve(S_W, delta, what="S_W"), "inverse"
    except SingularMatrixError:
        if singular != "pinv":
            raise
        w, method = tuple(sum((p * q for p, q in zip(row, delta)), Fraction(0)) for row in pinv(S_W)), "pinv"
        if not any(w):
            raise InputError("S_W^+ (m_1 - m_2) = 0") from None
    mt1, mt2 = dot(w, m1), dot(w, m2)
    den = _quad(w, S_W)
    J = _quad(w, S_B) / den if den != 0 else None
    # the thresholds by the textbook formulas as sympy numbers, and every decision by sympy's own sign of
    # y - y0 (independent of thresholds(), Threshold and the arb-based classification it checks)
    import sympy

    def R(q):
        return sympy.Rational(q.numerator, q.denominator)

    p1, p2 = (Fraction(1, 2), Fraction(1, 2)) if priors is None else priors
    half = (R(mt1) + R(mt2)) / 2
    ths = {"1": half, "2": (n1 * R(mt1) + n2 * R(mt2)) / (n1 + n2)}
    ths["3"] = half - sympy.log(R(p1 / p2)) / (n1 + n2 - 2) if n1 + n2 > 2 else None
    ths["3_as_printed"] = half + sympy.log(R(p1 / p2)) / (n1 + n2 - 2) if n1 + n2 > 2 else None
    which = threshold if threshold != "auto" else ("3" if priors is not None else "1")
    y0 = ths[which]
    signs = tuple(int(sympy.sign(R(dot(x, w)) - y0)) for x in rows)
    preds = tuple(1 if s > 0 else -1 for s in signs)  # "If y > y0, omega_1; otherwise omega_2"

    def plain(v):  # a rational threshold as a Fraction, as fisher() reports it
        return Fraction(int(v.p), int(v.q)) if v is not None and v.is_Rational else v

    return {"w": w, "y0": plain(y0), "threshold": which,
            "thresholds": {k: plain(v) for k, v in ths.items()},
            "m1": m1, "m2": m2, "mt1": mt1, "mt2": mt2, "n1": n1, "n2": n2, "S1": S1, "S2": S2, "S_W": S_W,
            "S_B": S_B, "J": J, "method": method, "predictions": preds,
            "on_threshold": tuple(i for i, s in enumerate(signs) if s == 0),
            "training_errors": sum(1 for p, zi in zip(preds, z) if p != zi)}
