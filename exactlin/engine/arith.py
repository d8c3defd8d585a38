"""The arithmetic protocol of the loops, and its interchangeable exact representations.

A loop of :mod:`exactlin.engine` (cyclic single-sample, batch) never computes on numbers itself: it asks a
*representation* of "the samples z_1..z_n and the current weight vector w" for what the lecture's rule needs, and
every representation answers with the same exact values, so a rule written once gives the same Run on each (the
test suites of ``tests/engine/`` check it field for field).  The representation is chosen by the caller
(``arithmetic=`` of every algorithm), never by a module switch:

* :class:`FractionArith` (``"fraction"``): tuples of :class:`fractions.Fraction`, the readable reference;
* :class:`IntegerArith` (``"integer"``): integers over one denominator, computed in float32, float64, int64 or
  Python integers as the bounds below allow (the *tiers*, counted in ``rep.tiers``).

The protocol (``rep`` a representation, ``i`` a sample index from 0, ``s`` a block of scores)::

    rep.scores(i, length)      the scores <w, z_j>, j = i .. i+length-1, in the representation's own units
    rep.threshold(b, strict)   the test "<w, z_j> <= b" (or "< b"), in those units (an opaque value)
    rep.first(s, t)            the first j of the block where the test holds, len(s) when none does
    rep.scan(i, length, t)     optional: (s, rep.first(s, t)) with s = rep.scores(i, length), in one call (the
                               cyclic loop's question at every block; a representation without it is asked both)
    rep.find(i, length, t)     optional: rep.first(rep.scores(i, length), t) alone (the loop's question when it
                               reads no score of the block)
    rep.all(s, t)              every j of the block where it holds, in order
    rep.count(s, t)            how many j of the block it holds for (len(all), without the list)
    rep.scores_every()         optional: scores(0, n), the scores of all samples, computed its fastest way
    rep.marks_every(t)         optional: a boolean array over all n samples, True exactly at the j that
                               rep.all(rep.scores(0, n), t) lists
    rep.exact(s, j)            the exact score <w, z_{i+j}> (a Fraction)
    rep.add(i, coef)           w <- w + coef z_i                       (coef a rational of any sign)
    rep.add_many(idx, coefs)   w <- w + sum_m coefs[m] z_{idx[m]}
    rep.key()                  hashable, equal exactly when w is (cycle detection); ``rep.rekey`` is set to a
                               function mapping old keys to new ones when the representation of w changes
    rep.fingerprint()          optional: hashable, equal when w is (not conversely), cheaper than key; the loop
                               then confirms a match by ``rep.combination_is_zero(idx, coefs)``: is
                               sum_m coefs[m] z_{idx[m]} = 0 (the updates between two states: they are equal iff so)
    rep.bits()                 the largest bit length of a reduced numerator or denominator of w
    rep.bits_above(current)    max(current, bits()), cheap when bits() cannot exceed current
    rep.w()                    w as a tuple of Fractions
    rep.snapshot()             a cheap copy of the state (for trace records); rep.fractions(snap) reads it back

Why each representation is exact is written once, in its own module: the integer representation's argument (the
scaling, the tiers, the fingerprint) in :mod:`exactlin.engine.arith_int`.

>>> Z = [(Fraction(4), Fraction(0)), (Fraction(-1), Fraction(-1))]
>>> for rep in (FractionArith(Z, (0, 0)), IntegerArith(Z, (0, 0))):
...     rep.add(0, Fraction(1, 2)); s = rep.scores(0, 2)
...     print(rep.name, rep.w(), [rep.exact(s, j) for j in range(2)], rep.first(s, rep.threshold(0)))
fraction (Fraction(2, 1), Fraction(0, 1)) [Fraction(8, 1), Fraction(-2, 1)] 1
integer (Fraction(2, 1), Fraction(0, 1)) [Fraction(8, 1), Fraction(-2, 1)] 1
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from exactlin.engine.arith_base import Block, Cut, Speculation, fraction_bits, integer_rows
from exactlin.engine.arith_int import IntegerArith, fingerprint_weights
from exactlin.errors import ParameterError
from exactlin.exact.numbers import fdot

__all__ = ["FractionArith", "IntegerArith", "Block", "Cut", "Speculation", "make_arith", "integer_rows",
           "REPRESENTATIONS", "fraction_bits", "fingerprint_weights"]


def _fraction_rows(Z) -> tuple:
    return tuple(tuple(x if type(x) is Fraction else Fraction(x) for x in row) for row in Z)


# ---------------------------------------------------------------------------------------------------------
# the reference: tuples of Fractions


class _LazyScores:
    """A block of Fraction scores, each computed when first read (the reference pays for what it tests)."""

    __slots__ = ("rep", "i", "n", "vals")

    def __init__(self, rep: FractionArith, i: int, length: int):
        self.rep, self.i, self.n = rep, i, length
        self.vals: list[Fraction] = []

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, j: int) -> Fraction:
        vals = self.vals
        while len(vals) <= j:
            z = self.rep.Z[self.i + len(vals)]
            vals.append(fdot(self.rep.w_, z))  # one reduction per score, not one per term
        return vals[j]


class FractionArith:
    """The readable reference: w and the samples as tuples of Fractions, every operation as the notes write it."""

    name = "fraction"

    def __init__(self, Z, w1, *, step=None):
        self.Z = _fraction_rows(Z)
        self.n = len(self.Z)
        self.d = len(self.Z[0]) if self.Z else len(w1)
        self.w_ = tuple(x if type(x) is Fraction else Fraction(x) for x in w1)
        self.tiers = {"fraction": 0}
        self.rekey = None

    def scores(self, i: int, length: int) -> _LazyScores:
        self.tiers["fraction"] += 1
        return _LazyScores(self, i, length)

    @staticmethod
    def threshold(b=0, strict: bool = False) -> Cut:
        return Cut(Fraction(b), strict)

    @staticmethod
    def first(s, t: Cut) -> int:
        b = t.b
        for j in range(len(s)):
            v = s[j]
            if (v < b) if t.strict else (v <= b):
                return j
        return len(s)

    @staticmethod
    def all(s, t: Cut) -> list[int]:
        b = t.b
        return [j for j in range(len(s)) if ((s[j] < b) if t.strict else (s[j] <= b))]

    def count(self, s, t: Cut) -> int:
        return len(self.all(s, t))

    @staticmethod
    def exact(s, j: int) -> Fraction:
        return s[j]

    def add(self, i: int, coef) -> None:
        z = self.Z[i]
        if coef == 1:
            self.w_ = tuple(a + x for a, x in zip(self.w_, z))
        elif coef == -1:
            self.w_ = tuple(a - x for a, x in zip(self.w_, z))
        else:
            c = Fraction(coef)
            self.w_ = tuple(a + c * x for a, x in zip(self.w_, z))

    def add_many(self, idx: Sequence[int], coefs: Sequence) -> None:
        inc = [Fraction(0)] * self.d
        for i, c in zip(idx, coefs):
            for t, x in enumerate(self.Z[i]):
                inc[t] += c * x
        self.w_ = tuple(a + x for a, x in zip(self.w_, inc))

    def key(self):
        return self.w_

    def bits(self) -> int:
        return fraction_bits(self.w_)

    def bits_above(self, current: int) -> int:
        return max(current, self.bits())

    def w(self) -> tuple:
        return self.w_

    def snapshot(self):
        return self.w_  # immutable

    @staticmethod
    def fractions(snap) -> tuple:
        return snap


#: the representations by the name ``arithmetic=`` gives them
REPRESENTATIONS: dict[str, type] = {"fraction": FractionArith, "integer": IntegerArith}


def make_arith(name: str, Z, w1, *, step=None):
    """The representation ``name`` ("fraction" or "integer"; others register themselves in
    :data:`REPRESENTATIONS`) of the samples ``Z`` and the start ``w1``."""
    try:
        cls = REPRESENTATIONS[name]
    except KeyError:
        raise ParameterError(f"no representation {name!r}; known: {', '.join(REPRESENTATIONS)}",
                             parameter="arithmetic") from None
    return cls(Z, w1, step=step)
