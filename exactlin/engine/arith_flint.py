"""python-flint rationals: the third representation of the arithmetic protocol (:mod:`exactlin.engine.arith`).

w and the samples are held as numpy object arrays of ``flint.fmpq`` (FLINT's reduced rationals, arithmetic in C);
a block of scores is one ``Z[i:i+m] . w`` over those objects.  Nothing is scaled and nothing is rounded: every
entry is the exact rational the reference holds as a Fraction (fmpq keeps lowest terms, as Fraction does), so
every score, every test and every state is the reference's, and ``fractions`` reads them back as Fractions.  It
suits the rules whose coefficients are rationals that change every step (no common scale to keep); python-flint
is imported when the representation is first made.

>>> from fractions import Fraction
>>> rep = FlintArith([(Fraction(4), Fraction(0)), (Fraction(-1), Fraction(-1))], (0, 0))
>>> rep.add(0, Fraction(1, 2)); s = rep.scores(0, 2)
>>> rep.w(), [rep.exact(s, j) for j in range(2)], rep.first(s, rep.threshold(0))
((Fraction(2, 1), Fraction(0, 1)), [Fraction(8, 1), Fraction(-2, 1)], 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from exactlin.engine.arith import REPRESENTATIONS, Cut

__all__ = ["FlintArith"]


def _fmpq(x):
    from flint import fmpq

    if type(x) is Fraction or type(x) is int:
        a, b = x.as_integer_ratio()
        return fmpq(a, b)
    return fmpq(*Fraction(x).as_integer_ratio())


def _fraction(x) -> Fraction:
    return Fraction(int(x.p), int(x.q))


class FlintArith:
    """w and the samples as python-flint rationals (module docstring)."""

    name = "flint"

    def __init__(self, Z, w1, *, step=None):
        cache: dict = {}

        def conv(x):
            q = cache.get(x)
            if q is None:
                q = cache[x] = _fmpq(x)
            return q

        rows = [[conv(x) for x in row] for row in Z]
        self.n = len(rows)
        self.d = len(rows[0]) if rows else len(w1)
        self.Z = np.empty((self.n, self.d), dtype=object)
        if self.n:
            self.Z[:, :] = rows
        self.v = np.empty(self.d, dtype=object)
        self.v[:] = [_fmpq(x) for x in w1]
        self.tiers = {"flint": 0}
        self.rekey = None

    def scores(self, i: int, length: int) -> np.ndarray:
        self.tiers["flint"] += 1
        return self.Z[i:i + length].dot(self.v)

    @staticmethod
    def threshold(b=0, strict: bool = False) -> Cut:
        return Cut(_fmpq(b), strict)

    @staticmethod
    def _wrong(s: np.ndarray, t: Cut) -> np.ndarray:
        return np.asarray((s < t.b) if t.strict else (s <= t.b), dtype=bool)

    def first(self, s, t: Cut) -> int:
        wrong = self._wrong(s, t)
        if not len(wrong):
            return 0
        j = int(wrong.argmax())
        return j if wrong[j] else len(wrong)

    def all(self, s, t: Cut) -> list[int]:
        return np.flatnonzero(self._wrong(s, t)).tolist()

    def count(self, s, t: Cut) -> int:
        return int(np.count_nonzero(self._wrong(s, t)))

    def marks_every(self, t: Cut) -> np.ndarray:
        return self._wrong(self.scores(0, self.n), t)

    @staticmethod
    def exact(s, j: int) -> Fraction:
        return _fraction(s[j])

    def add(self, i: int, coef) -> None:
        if coef == 1:
            self.v = self.v + self.Z[i]
        elif coef == -1:
            self.v = self.v - self.Z[i]
        else:
            self.v = self.v + _fmpq(coef) * self.Z[i]

    def add_many(self, idx: Sequence[int], coefs: Sequence) -> None:
        if not len(idx):
            return
        c = np.empty(len(idx), dtype=object)
        c[:] = [_fmpq(x) for x in coefs]
        self.v = self.v + c.dot(self.Z[list(idx)])

    def key(self):
        return tuple(self.v.tolist())

    def bits(self) -> int:
        m = 0
        for x in self.v.tolist():
            b = max(abs(x.p).bit_length(), x.q.bit_length())
            if b > m:
                m = b
        return m

    def bits_above(self, current: int) -> int:
        return max(current, self.bits())

    def w(self) -> tuple:
        return self.fractions(self.v)

    def snapshot(self):
        return self.v  # never changed in place: every update makes a new array

    @staticmethod
    def fractions(snap) -> tuple:
        return tuple(_fraction(x) for x in snap.tolist())


REPRESENTATIONS["flint"] = FlintArith
