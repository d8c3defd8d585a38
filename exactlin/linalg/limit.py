"""Seed 003's definition of the pseudoinverse, computed as written: Y^+ = lim_{eps -> 0} (Y^tY + eps I)^{-1} Y^t
(``003_ffe0ec08819b37d8.txt``, "Pseudoinverse"), for any rational matrix, in exact Fractions, with the derivation
for people (:meth:`PinvLimit.lines`).  :func:`exactlin.linalg.matrices.pinv` computes the same matrix by the
full-rank factorization; the tests check that both agree with sympy's own limit.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactlin.errors import InvariantViolation
from exactlin.linalg.matrices import as_matrix

__all__ = ["PinvLimit", "pinv_limit"]


@dataclass(frozen=True)
class PinvLimit:
    """Seed 003's limit Y^+ = lim_{eps -> 0} (Y^tY + eps I)^{-1} Y^t, computed as the limit of a rational
    function of eps (:func:`pinv_limit`).

    ``det`` holds the coefficients of det(Y^tY + eps I) from eps^0 up to eps^m; ``order`` is k, the lowest power
    of eps with a nonzero coefficient (k = m - rank Y); ``numerator`` is N_k, the coefficient of eps^k in
    adj(Y^tY + eps I) Y^t (every lower coefficient is 0, checked); ``limit`` = N_k / det[k] (an m x n matrix
    of Fractions)."""

    det: tuple
    order: int
    numerator: tuple
    limit: tuple

    def lines(self) -> list[str]:
        """The derivation for people, one line each (the one number format, exact)."""
        from exactlin.exact.format import fmt

        def poly(cs):
            terms = [(fmt(c) if j == 0 else (("" if c == 1 else "-" if c == -1 else fmt(c) + " ")
                      + ("eps" if j == 1 else f"eps^{j}"))) for j, c in enumerate(cs) if c]
            return " + ".join(terms).replace("+ -", "- ") or "0"

        def mat(M):
            return "[" + "; ".join(", ".join(fmt(v) for v in row) for row in M) + "]"

        k = self.order
        head = f"det(Y^t Y + eps I) = {poly(self.det)}"
        if k == len(self.det) - 1:  # det = eps^m: Y = 0
            return [head, "Y = 0: (Y^t Y + eps I)^(-1) Y^t = Y^t / eps = 0 for every eps > 0",
                    f"Y^+ = {mat(self.limit)}"]
        return [head,
                f"lowest power of eps: eps^{k} (k = m - rank Y = {k}), coefficient {fmt(self.det[k])}",
                f"adj(Y^t Y + eps I) Y^t = eps^{k} N_{k} + (higher powers of eps): every lower coefficient is 0",
                f"N_{k} = {mat(self.numerator)}",
                f"Y^+ = lim N(eps) / det(eps) = N_{k} / {fmt(self.det[k])} = {mat(self.limit)}"]


def pinv_limit(Y: Any) -> PinvLimit:
    """lim_{eps -> 0} (Y^tY + eps I)^{-1} Y^t for any rational n x m matrix Y, computed as that limit
    (seed 003, "Pseudoinverse"), exactly, without the pseudoinverse formula of :func:`pinv`.

    Put G = Y^tY and A = -G.  Faddeev-LeVerrier gives det(eps I - A) = sum_j c_j eps^(m-j) (c_0 = 1,
    c_j = -tr(A B_(j-1)) / j) and adj(eps I - A) = sum_j eps^(m-1-j) B_j (B_0 = I, B_j = A B_(j-1) + c_j I),
    all in Fractions.  So (G + eps I)^{-1} Y^t = N(eps) / det(eps) with N(eps) = sum_j eps^(m-1-j) B_j Y^t, a
    matrix of polynomials.  det(eps) = eps^k q(eps) with q(0) != 0 (k = m - rank Y: G is symmetric
    positive semidefinite, so the multiplicity of the eigenvalue 0 is the nullity); the limit exists (it is a
    theorem: Tikhonov's limit is Y^+), so every coefficient of N below eps^k must be 0 -- checked here, an
    InvariantViolation otherwise -- and the limit is N_k / c_(m-k).  Cost O(m^4) Fraction operations plus the
    m products with Y^t: meant for teaching-size matrices (m up to a few dozen features).

    >>> r = pinv_limit([[1, 1], [1, 1]])
    >>> [str(c) for c in r.det], r.order, [[str(v) for v in row] for row in r.limit]
    (['0', '4', '1'], 1, [['1/4', '1/4'], ['1/4', '1/4']])
    """
    Ym = [[Fraction(v) for v in row] for row in as_matrix(Y, "Y")]
    n, m = len(Ym), len(Ym[0])
    Yt = [[Ym[i][j] for i in range(n)] for j in range(m)]
    A = [[-sum((Ym[t][i] * Ym[t][j] for t in range(n)), Fraction(0)) for j in range(m)] for i in range(m)]

    def mul(P, Q):
        cols = list(zip(*Q))
        return [[sum((a * b for a, b in zip(row, col)), Fraction(0)) for col in cols] for row in P]

    c = [Fraction(1)]
    B = [[Fraction(int(i == j)) for j in range(m)] for i in range(m)]  # B_0 = I
    Bs = [B]
    for j in range(1, m + 1):
        AB = mul(A, B)
        cj = -sum((AB[i][i] for i in range(m)), Fraction(0)) / j
        c.append(cj)
        if j < m:
            B = [[AB[r][s] + (cj if r == s else 0) for s in range(m)] for r in range(m)]
            Bs.append(B)
    # det(eps) = sum_j c_j eps^(m-j): coefficient of eps^p is c_(m-p)
    det = tuple(c[m - p] for p in range(m + 1))
    k = next(p for p in range(m + 1) if det[p] != 0)  # det[m] = c_0 = 1
    # N(eps) = sum_j eps^(m-1-j) B_j Y^t: coefficient of eps^p is B_(m-1-p) Y^t (p = 0..m-1)
    for p in range(min(k, m)):
        Np = mul(Bs[m - 1 - p], Yt)
        if any(v for row in Np for v in row):
            raise InvariantViolation(f"pinv_limit: the coefficient of eps^{p} in adj(Y^tY + eps I) Y^t is not 0 "
                                     f"although det(Y^tY + eps I) has the factor eps^{k}")
    if k == m:  # Y = 0 (G = 0, det = eps^m): N has degree < m, every coefficient 0, the limit is 0
        Nk = tuple(tuple(Fraction(0) for _ in range(n)) for _ in range(m))
        return PinvLimit(det, k, Nk, Nk)
    Nk = tuple(tuple(row) for row in mul(Bs[m - 1 - k], Yt))
    lim = tuple(tuple(v / det[k] for v in row) for row in Nk)
    return PinvLimit(det, k, Nk, lim)
