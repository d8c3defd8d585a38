"""Batch relaxation's representation (seed 003, Algorithm 8): a = v / D in lowest terms, as
:class:`~exactlin.engine.reduced.ReducedArith` keeps it (that module proves the representation and its smooth-gcd
reduction), with the products of a batch iteration on python-flint and the relaxation's coefficients kept as
integers.

**The scores.**  All n scores t = Z' v at once are one ``fmpz_mat`` product; a^t z_i = t_i / (D L) and the test
a^t z_i < b is b_q t_i < b_p D L (D L b_q > 0), so the same samples are corrected.

**A batch correction** sum_{i in Y} c_i z_i with c_i = eta (b - a^t z_i) / ||z_i||^2 and eta = e_p / e_q: with
r_i = b_p D L - b_q t_i (> 0 on Y), N_i = ||Z'_i||^2, substituting ||z_i||^2 = N_i / L^2 and z_i = Z'_i / L gives
c_i = e_p r_i L / (e_q b_q D N_i), i.e. the increment e_p S / (e_q b_q D M) with M = lcm of the N_i on Y and
S = Z'^t u, u_i = r_i M / N_i (0 off Y); so a' = (v e_q b_q M + e_p S) / (D e_q b_q M): integers only, one product
on flint, then one reduction to lowest terms (the primes >= 200 of e_q b_q M join R first: ReducedArith's
invariant).  The partial increments of the bit check (every 64 corrections) are the same sum with u cut after the
first 64 m samples.  Any other coefficients go through :meth:`ReducedArith.add_many`.
"""

from __future__ import annotations

import math
from fractions import Fraction

import flint

from exactlin.engine.reduced import LazyBlock, ReducedArith, frac_bits

__all__ = ["BatchReducedArith", "RelaxationCoefficients", "relaxation_coefficients"]


class RelaxationCoefficients(list):
    """The coefficients c_i = eta (b - a^t z_i) / ||z_i||^2 of one correction, as Fractions (the list), with
    the criterion J_r of the samples corrected (:meth:`J_r`).  :class:`BatchReducedArith` keeps them as
    integers and builds the Fractions only when the list is read."""

    def __init__(self, values=(), J_r=None):
        super().__init__(values)
        self._J = J_r

    def J_r(self) -> Fraction:
        """J_r over the corrected samples: 1/2 sum_i (a^t z_i - b)^2 / ||z_i||^2."""
        return self._J


class _IntegerRelaxationCoefficients(RelaxationCoefficients):
    """c_i = e_p r_i L / (e_q b_q D N_i) kept as the integers r_i (module docstring)."""

    def __init__(self, idx, r, ep, eq, bq, D, L, N):
        super().__init__()
        self.idx, self.r, self.ep, self.eq, self.bq, self.D, self.L, self.N = idx, r, ep, eq, bq, D, L, N
        self.M = None
        self._built = False

    def _build(self):
        if not self._built:
            self._built = True
            ep, den, L, N = self.ep, self.eq * self.bq * self.D, self.L, self.N
            list.extend(self, (Fraction(ep * ri * L, den * N[i]) for i, ri in zip(self.idx, self.r)))

    def __len__(self):
        return len(self.idx)

    def __iter__(self):
        self._build()
        return list.__iter__(self)

    def __getitem__(self, s):
        self._build()
        return list.__getitem__(self, s)

    def __eq__(self, other):
        self._build()
        return list.__eq__(self, other)

    __hash__ = None

    def J_r(self) -> Fraction:
        # (a^t z_i - b)^2 / ||z_i||^2 = r_i^2 / (b_q^2 D^2 N_i)
        q = self.bq * self.bq * self.D * self.D
        return sum((Fraction(ri * ri, q * self.N[i]) for i, ri in zip(self.idx, self.r)), Fraction(0)) / 2


def relaxation_coefficients(rep, s, idx, eta: Fraction, b: Fraction, norms) -> RelaxationCoefficients:
    """Algorithm 8's (and 9's) coefficients eta (b - a^t z_i) / ||z_i||^2 for the samples ``idx`` of the block of
    scores ``s`` of ``rep`` (``norms()`` the ||z_i||^2 as Fractions, asked for only where needed), in the
    representation's own form."""
    if isinstance(rep, BatchReducedArith):
        return rep.relaxation_coefficients(s, idx, eta, b)
    N = norms()
    exact = [rep.exact(s, i) for i in idx]
    return RelaxationCoefficients([eta * (b - q) / N[i] for q, i in zip(exact, idx)],
                                  sum(((q - b) ** 2 / N[i] for q, i in zip(exact, idx)), Fraction(0)) / 2)


class BatchReducedArith(ReducedArith):
    """:class:`~exactlin.engine.reduced.ReducedArith` for the batch loop (module docstring)."""

    def __init__(self, Z, w1, *, step=None):
        super().__init__(Z, w1, step=step)
        n, d = self.n, self.d
        self.Zm = flint.fmpz_mat(n, d, [x for r in self.Z for x in r]) if n else None
        self.ZmT = self.Zm.transpose() if n else None
        self.N = [sum(x * x for x in r) for r in self.Z]
        self.tiers["flint"] = 0
        for x in set(self.N):  # a correction's denominator e_q b_q M holds the N_i: R takes their primes once
            self._absorb(x)
        self._absorbed = set()

    def _products(self, M, cols: int, u: list[int]) -> list[int]:
        self.tiers["flint"] += 1
        return [int(x) for x in (M * flint.fmpz_mat(cols, 1, u)).entries()]

    def scores(self, i: int, length: int) -> LazyBlock:
        """The scores t_j = <Z'_j, v> of the block, all of them by one product (a batch reads every one)."""
        block = LazyBlock(i, length, self._state(), self._score)
        if length > 1:
            t = self._products(self.Zm, self.d, list(self.v))
            block.t = t if i == 0 and length == self.n else t[i:i + length]
        return block

    def all(self, s, t) -> list[int]:
        if len(s.t) < len(s):  # a block computed lazily
            return super().all(s, t)
        bq, rhs = t.b.denominator, t.b.numerator * s.state[1] * self.L
        if t.strict:
            return [j for j, x in enumerate(s.t) if bq * x < rhs]
        return [j for j, x in enumerate(s.t) if bq * x <= rhs]

    def exact_sum(self, s, idx) -> Fraction:
        return Fraction(sum(s.value(j) for j in idx), s.state[1] * self.L)

    def relaxation_coefficients(self, s, idx, eta, b) -> RelaxationCoefficients:
        eta, b = Fraction(eta), Fraction(b)
        D = s.state[1]
        BDL = b.numerator * D * self.L
        bq = b.denominator
        r = [BDL - bq * s.value(i) for i in idx]
        return _IntegerRelaxationCoefficients(idx, r, eta.numerator, eta.denominator, bq, D, self.L, self.N)

    def _relaxation_sum(self, idx, coefs, m: int):
        """(e_p S, e_q b_q M) for the first m samples of idx: the increment is e_p S / (D e_q b_q M)."""
        N = self.N
        M = coefs.M
        if M is None:  # the lcm of the N_i on Y, once per correction
            M = coefs.M = math.lcm(*(N[i] for i in idx))
        u = [0] * self.n
        for i, ri in zip(idx[:m], coefs.r[:m]):
            u[i] = ri * (M // N[i])
        ep = coefs.ep
        return [ep * x for x in self._products(self.ZmT, self.n, u)], coefs.eq * coefs.bq * M

    def _own(self, coefs) -> bool:
        return isinstance(coefs, _IntegerRelaxationCoefficients) and coefs.D == self.D

    def add_many(self, idx, coefs) -> None:
        if not self._own(coefs):
            super().add_many(idx, coefs)
            return
        S, m = self._relaxation_sum(idx, coefs, len(idx))
        for f in (coefs.eq, coefs.bq):  # m = e_q b_q M: the N_i's primes are in R already
            if f not in self._absorbed:
                self._absorbed.add(f)
                self._absorb(f)
        self._set([x * m + y for x, y in zip(self.v, S)], self.D * m)

    def partial_bits(self, idx, coefs, bound: int):
        """The bit length of the increment's partial sum over the first 64 m samples of ``idx``, for the first m
        where it exceeds ``bound`` (None if none does)."""
        for m in range(64, len(idx) + 1, 64):
            if self._own(coefs):
                S, mult = self._relaxation_sum(idx, coefs, m)
                bits = frac_bits(S, self.D * mult, 0)
            else:
                inc = [Fraction(0)] * self.d
                for i, c in zip(idx[:m], coefs[:m]):
                    for t in range(self.d):
                        inc[t] += c * Fraction(self.Z[i][t], self.L)
                bits = max(max(abs(q.numerator).bit_length(), q.denominator.bit_length()) for q in inc)
            if bits > bound:
                return bits
        return None

    def delta_norm2(self, before) -> tuple[int, int]:
        """||a - a(before)||^2 = num / den: v / D - v0 / D0 = (v D0 - v0 D) / (D D0)."""
        v0, D0 = before
        D = self.D
        return sum((x * D0 - y * D) ** 2 for x, y in zip(self.v, v0)), (D * D0) ** 2
