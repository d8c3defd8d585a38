"""What the representations of :mod:`exactlin.engine.arith` share: the test as a rule states it (:class:`Cut`), a
block of integer scores with its unit (:class:`Block`), the problem's integer rows over one denominator
(:func:`integer_rows`), what a speculated block found (:class:`Speculation`, see
:meth:`~exactlin.engine.arith_int.IntegerArith.speculate`) and the bit length of rationals (:func:`fraction_bits`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np

from exactlin.exact.rows import ExactRows

__all__ = ["Cut", "Block", "Speculation", "fraction_bits", "integer_rows"]


def fraction_bits(w: Sequence) -> int:
    """The largest bit length of a reduced numerator or denominator among the rationals ``w`` (0 for none)."""
    m = 0
    for x in w:
        q = x if type(x) is Fraction else Fraction(x)
        b = max(abs(q.numerator).bit_length(), q.denominator.bit_length())
        if b > m:
            m = b
    return m


class Cut(NamedTuple):
    """The test "<w, z> <= b" (``strict``: "< b") as a rule states it; a representation reads it in its units."""

    b: Fraction
    strict: bool


def integer_rows(Z, w1, step) -> tuple[int, Any, list[int]]:
    """(L, Z', v_1): L the least positive integer with L z_ij and (L / step) w_1j integers, Z' = L Z (an int64
    array when its entries fit, else a list of lists of Python ints) and v_1 = (L / step) w_1.

    >>> L, Zi, v1 = integer_rows([(Fraction(1, 2), 1)], (0, 0), Fraction(1))
    >>> L, Zi.tolist(), v1
    (2, [[1, 2]], [0, 0])
    """
    step = Fraction(step)
    if isinstance(Z, ExactRows) and not any(w1):  # w_1 = 0: L = den, v_1 = 0
        return Z.den, Z.num, [0] * Z.shape[1]
    u1 = [Fraction(a) / step for a in w1]
    if isinstance(Z, ExactRows):  # integers over a common denominator already: Z' = (L / den) num
        L = math.lcm(Z.den, *(q.denominator for q in u1))
        Zi = Z.scaled_to(L)
        return L, (Zi.tolist() if Zi.dtype == object else Zi), [q.numerator * (L // q.denominator) for q in u1]
    n, d = len(Z), len(Z[0])
    pairs = [x.as_integer_ratio() if type(x) in (Fraction, int) else Fraction(x).as_integer_ratio()
             for row in Z for x in row]
    dens = {b for _, b in pairs}
    L = math.lcm(*dens, *(q.denominator for q in u1))
    flat = [a * (L // b) for a, b in pairs] if L != 1 else [a for a, _ in pairs]
    try:
        Zi = np.array(flat, dtype=np.int64).reshape(n, d)
    except OverflowError:
        Zi = [flat[r * d:(r + 1) * d] for r in range(n)]
    return L, Zi, [q.numerator * (L // q.denominator) for q in u1]


class Block:
    """A block of integer scores S_j = <v, Z'_j> (``values``), the tier that computed them and their unit: the
    exact score is ``num * S_j / den`` (the scale of the time it was computed: a block read later, e.g. by a
    trace recorder after a rescale, still converts exactly)."""

    __slots__ = ("values", "tier", "num", "den")

    def __init__(self, values: np.ndarray, tier: str, num: int = 1, den: int = 1):
        self.values, self.tier, self.num, self.den = values, tier, num, den

    def __len__(self) -> int:
        return len(self.values)


class Speculation(NamedTuple):
    """What :meth:`IntegerArith.speculate` found (its docstring): the rounds before ``stop`` follow the
    hypothesis, with updates at the offsets ``at``; after update u the state is v0 + m inc[at[u]]."""

    stop: int
    at: np.ndarray
    watched: np.ndarray | None
    p: int
    q: int
    inc: np.ndarray
    m: int
    v0: np.ndarray
    m_Z: int
    s: Block  # the scores of the block's rounds (exact for the rounds before stop)

    def state(self, u: int):
        """The snapshot (``IntegerArith.snapshot``'s form) after update u (0-based)."""
        return self.v0 + self.m * self.inc[self.at[u]], self.p, self.q

    def _vmax(self, count: int) -> np.ndarray:
        """max |v_j| after each of the first ``count`` updates."""
        return np.abs(self.v0 + self.m * self.inc[self.at[:count]]).max(axis=1)

    def _upper(self, count: int) -> int:
        """An upper bound of bits(w) after any of the first ``count`` updates: bitlen(p (max|v0_j| + |m| count
        m_Z)) (q = 1)."""
        return (self.p * (int(np.abs(self.v0).max(initial=0)) + abs(self.m) * count * self.m_Z)).bit_length()

    def first_bits_over(self, bound: int) -> int:
        """The first update after which bits(w) > ``bound`` (len(at) when none).  With q = 1 (speculate's
        condition) bits(w) = bitlen(p max|v_j|) (p v_j / 1 is reduced), so bits(w) <= bound iff
        max|v_j| <= (2^bound - 1) // p."""
        if self._upper(len(self.at)) <= bound:
            return len(self.at)
        over = self._vmax(len(self.at)) > ((1 << bound) - 1) // self.p
        return int(over.argmax()) if over.any() else len(self.at)

    def bits_above(self, count: int, current: int) -> int:
        """max(current, bits(w) over the states after the first ``count`` updates), bits(w) = bitlen(p max|v_j|)
        (at least 1) for q = 1; computed only when the upper bound exceeds ``current``."""
        if not count or self._upper(count) <= current:
            return current
        return max(current, (self.p * int(self._vmax(count).max())).bit_length(), 1)
