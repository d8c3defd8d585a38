"""Balanced Winnow's multiplicative weights (seed 003, ``003_ffe0ec08819b37d8.txt``, Algorithm 7) as representations
of the arithmetic protocol (:mod:`exactlin.engine.arith`).

Winnow keeps two positive vectors a+ and a-; its test is sign((a+ - a-)^t y_k) != z_k, i.e. on the normalized
sample z = z_k y_k **<a+ - a-, z> <= 0**, and its update multiplies: a+_j <- alpha^{z_j} a+_j, a-_j <- alpha^{-z_j} a-_j
(the notes' alpha^{+-y_{k,i}} with the sign of the label).  In log space that is the perceptron's update
log a+ <- log a+ + log(alpha) z.  So here ``add(i, m)`` means **multiply by alpha^{m z_i}** (and a- by
alpha^{-m z_i}); the weight vector a representation holds, reads back (``w``, ``snapshot``) and compares (``key``)
is the state (a+ ; a-) of 2d entries, and its scores are <a+ - a-, z_j>.

* :class:`FractionPowers` (``"fraction"``, the reference): a+ and a- as tuples of Fractions, multiplied by the
  powers alpha^{z_ij} the rule computed once (``powers[i][j]``, exact; an irrational power is the rule's error).
* :class:`PowerArith` (``"integer"``, integer samples only): every weight is a_j = s_j alpha^{e_j} with s_j its start
  value and e_j an integer exponent; an update adds m z_i to e (a- has -e).  With alpha = p / q (lowest terms,
  p > q >= 1), s_j = u_j / w_j, W the lcm of the w_j, E = min of the 2d exponents and M their maximum, the integers
  T_j = u_j (W / w_j) p^{e_j - E} q^{M - e_j} satisfy a_j = T_j p^E / (W q^M), one positive factor for every j, so
  <a+ - a-, z> = t p^E / (W q^M) with the integer t = sum_j z_j (T+_j - T-_j): the same sign, hence the same
  mistakes, and the exact score from t.  alpha > 1 makes e -> a one to one, so the exponents repeat exactly when
  the weights do (``key`` is e).  With every s_j = 1, a_j = p^e / q^e in lowest terms (p, q coprime), whose bit
  length is that of p^{|e|}; otherwise each entry's reduced bit length is computed exactly.
"""

from __future__ import annotations

import math
from fractions import Fraction
from operator import mul

from exactlin.engine.arith import Cut, fraction_bits
from exactlin.engine.reduced import LazyBlock
from exactlin.exact.numbers import fdot

__all__ = ["FractionPowers", "PowerArith", "integer_samples"]


def integer_samples(Z) -> list[list[int]] | None:
    """The rows ``Z`` as lists of Python ints, or None when an entry is not an integer.

    >>> integer_samples([(1, -2)]), integer_samples([(Fraction(1, 2), 1)])
    ([[1, -2]], None)
    """
    num, den = getattr(Z, "num", None), getattr(Z, "den", None)
    if num is not None and den is not None:  # exact.rows.ExactRows
        if den != 1:
            return None
        return num.tolist()
    rows = []
    for r in Z:
        row = []
        for x in r:
            x = x if type(x) is Fraction else Fraction(x)
            if x.denominator != 1:
                return None
            row.append(x.numerator)
        rows.append(row)
    return rows


class _Winnow:
    """What the two representations share: the 2d-entry state (a+ ; a-), the test on <a+ - a-, z>."""

    @staticmethod
    def threshold(b=0, strict: bool = False) -> Cut:
        return Cut(Fraction(b), strict)

    def first(self, s: LazyBlock, t: Cut) -> int:
        for j in range(len(s)):
            if self._holds(s, j, t):
                return j
        return len(s)

    def all(self, s: LazyBlock, t: Cut) -> list[int]:
        return [j for j in range(len(s)) if self._holds(s, j, t)]

    def count(self, s: LazyBlock, t: Cut) -> int:
        return len(self.all(s, t))

    def _holds(self, s: LazyBlock, j: int, t: Cut) -> bool:
        if t.b:
            q = self.exact(s, j)
            return q < t.b if t.strict else q <= t.b
        q = s.value(j)  # b = 0: the sign of the raw score is the sign of the score (compared with the int 0)
        return q < 0 if t.strict else q <= 0

    def w(self) -> tuple:
        return self.fractions(self.snapshot())

    def bits_above(self, current: int) -> int:
        return max(current, self.bits())


class FractionPowers(_Winnow):
    """The reference: (a+ ; a-) as a tuple of 2d Fractions; ``powers[i]`` = (alpha^{z_i1}, ..., alpha^{z_id})."""

    name = "fraction"

    def __init__(self, Z, start, powers):
        self.Z = tuple(tuple(x if type(x) is Fraction else Fraction(x) for x in r) for r in Z)
        self.n = len(self.Z)
        self.d = len(start)
        self.half = self.d // 2
        self.state = tuple(Fraction(x) for x in start)
        self.up = [tuple(powers[i]) for i in range(self.n)]
        self.down = [tuple(1 / u for u in row) for row in self.up]
        self._diff = None  # a+ - a-, computed when first scored
        self.tiers = {"fraction": 0}
        self.rekey = None

    def _score(self, i: int, diff) -> Fraction:
        return fdot(diff, self.Z[i])

    def scores(self, i: int, length: int) -> LazyBlock:
        self.tiers["fraction"] += 1
        if self._diff is None:
            h = self.half
            self._diff = tuple(p - m for p, m in zip(self.state[:h], self.state[h:]))
        return LazyBlock(i, length, self._diff, self._score)

    @staticmethod
    def exact(s: LazyBlock, j: int) -> Fraction:
        return Fraction(s.value(j))

    def add(self, i: int, m) -> None:
        """a+ <- alpha^{m z_i} a+, a- <- alpha^{-m z_i} a- (m a whole number)."""
        up, down = (self.up[i], self.down[i]) if m > 0 else (self.down[i], self.up[i])
        h = self.half
        a_p, a_m = self.state[:h], self.state[h:]
        for _ in range(abs(int(m))):
            a_p = tuple(f * a for f, a in zip(up, a_p))
            a_m = tuple(f * a for f, a in zip(down, a_m))
        self.state = a_p + a_m
        self._diff = None

    def key(self):
        return self.state

    def bits(self) -> int:
        return fraction_bits(self.state)

    def snapshot(self):
        return self.state

    @staticmethod
    def fractions(snap) -> tuple:
        return snap


class PowerArith(_Winnow):
    """(a+ ; a-) as start values times integer powers of alpha (module docstring); the samples must be integers
    (:func:`integer_samples`; ValueError otherwise: the rule then chooses the reference or says why not)."""

    name = "integer"

    def __init__(self, Z, start, alpha):
        Zi = integer_samples(Z)
        if Zi is None:
            raise ValueError("PowerArith needs integer samples")
        self.Z = Zi
        self.n = len(Zi)
        self.d = len(start)
        self.half = h = self.d // 2
        alpha = Fraction(alpha)
        self.alpha = alpha
        self.p, self.q = alpha.numerator, alpha.denominator
        self.s = tuple(Fraction(x) for x in start)
        self.W = math.lcm(*(x.denominator for x in self.s)) if self.s else 1
        self.S = [x.numerator * (self.W // x.denominator) for x in self.s]
        self.unit = all(x == 1 for x in self.s)
        self.shift = self.p.bit_length() - 1 if self.q == 1 and self.p & (self.p - 1) == 0 else None
        self._pbits: dict[int, int] = {}
        self.e = (0,) * h
        self._weights()
        self.tiers = {"python": 0}
        self.rekey = None

    def _weights(self) -> None:
        """The current exponents' diff and M (:meth:`_diff`)."""
        self.diff, self.M = self._diff(self.e)

    def _diff(self, e: tuple) -> tuple[tuple, int]:
        """(diff, M) of the exponents e: diff_j = T+_j - T-_j, and M for the common factor p^{-M} / (W q^M)."""
        h = self.half
        M = max((abs(x) for x in e), default=0)  # the 2d exponents are e and -e: E = -M
        S, p, q = self.S, self.p, self.q
        if self.shift is not None:
            sh = self.shift
            T = [u << (sh * (x + M)) for u, x in zip(S, e)] + [u << (sh * (M - x)) for u, x in zip(S[h:], e)]
        else:
            T = ([u * p ** (x + M) * q ** (M - x) for u, x in zip(S, e)]
                 + [u * p ** (M - x) * q ** (M + x) for u, x in zip(S[h:], e)])
        return tuple(a - b for a, b in zip(T[:h], T[h:])), M

    def _score(self, i: int, state) -> int:
        e = state[0]
        diff = self.diff if e == self.e else self._diff(e)[0]  # a block of an earlier state: its own diff again
        return sum(map(mul, self.Z[i], diff))

    def scores(self, i: int, length: int) -> LazyBlock:
        """A block's state is the exponents (e, M), not the long integers diff: the trace keeps every block it
        records, and e is short (the diff of the current e is at hand; an earlier block's is computed again)."""
        self.tiers["python"] += 1
        return LazyBlock(i, length, (self.e, self.M), self._score)

    def exact(self, s: LazyBlock, j: int) -> Fraction:
        M = s.state[1]  # the score is t p^{-M} / (W q^M)
        return Fraction(s.value(j), self.W * (self.p * self.q) ** M)

    def add(self, i: int, m) -> None:
        """e <- e + m z_i: a+ <- alpha^{m z_i} a+, a- <- alpha^{-m z_i} a-."""
        m = int(m)
        self.e = tuple(x + m * z for x, z in zip(self.e, self.Z[i]))
        self._weights()

    def key(self):
        return self.e

    def bits(self) -> int:
        if self.unit:
            M = self.M
            if self.shift is not None:
                return M * self.shift + 1
            b = self._pbits.get(M)
            if b is None:
                b = self._pbits[M] = (self.p ** M).bit_length()
            return b
        return fraction_bits(self.w())

    def snapshot(self):
        return self.e

    def fractions(self, snap) -> tuple:
        a = self.alpha
        h = self.half
        return (tuple(sj * a ** x for sj, x in zip(self.s[:h], snap))
                + tuple(sj * a ** -x for sj, x in zip(self.s[h:], snap)))
