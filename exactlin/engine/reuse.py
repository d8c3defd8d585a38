"""A representation that reuses its last full block of scores: for a rule that reads the scores of every sample
after each update (seed 001's pocket algorithm counts E_in(w(t+1))), the loop's next blocks, asked with the same
w, are slices of that read instead of new products.

The scores of a block depend only on w and the samples, so a slice of the scores of all samples computed with the
current w IS the block the representation would compute (the same integers, in the same units): the run is
unchanged, only fewer products are made.  Any update (``add``, ``add_many``) drops the stored scores.  Blocks that
cannot be sliced (a representation whose blocks are computed lazily) are asked from the representation as usual.
"""

from __future__ import annotations

from exactlin.engine.arith import Block

__all__ = ["Reusing"]


class Reusing:
    """``rep`` (any representation of :mod:`exactlin.engine.arith`) with :meth:`every` (the scores of all samples,
    kept until the next update) serving the next blocks; every other attribute is ``rep``'s."""

    def __init__(self, rep):
        self.rep = rep
        self._all = None
        # the representation's own answers, bound once (a loop asks for them at every block)
        for name in ("name", "n", "d", "tiers", "threshold", "first", "all", "count", "exact", "key", "bits",
                     "bits_above", "w", "snapshot", "fractions"):
            setattr(self, name, getattr(rep, name))

    def __getattr__(self, name):
        return getattr(self.rep, name)

    @property
    def rekey(self):
        return self.rep.rekey

    @rekey.setter
    def rekey(self, value) -> None:
        self.rep.rekey = value

    def every(self):
        """The scores of samples 0 .. n-1 with the current w."""
        if self._all is None:
            self._all = self.rep.scores(0, self.rep.n)
        return self._all

    def scores(self, i: int, length: int):
        s = self._all
        if type(s) is Block:
            return Block(s.values[i:i + length], s.tier, s.num, s.den)
        return self.rep.scores(i, length)

    def scan(self, i: int, length: int, t):
        """``(s, first(s, t))`` for the block ``s = scores(i, length)`` (served from the stored scores)."""
        s = self.scores(i, length)
        return s, self.first(s, t)

    def add(self, i: int, coef) -> None:
        self._all = None
        self.rep.add(i, coef)

    def add_many(self, idx, coefs) -> None:
        self._all = None
        self.rep.add_many(idx, coefs)
