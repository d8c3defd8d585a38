"""A representation that reuses its last full block of scores: for a rule that reads the scores of every sample
after each update (seed 001's pocket algorithm counts E_in(w(t+1))), the loop's next blocks, asked with the same
w, are slices of that read instead of new products.

The scores of a block depend only on w and the samples, so a slice of the scores of all samples computed with the
current w IS the block the representation would compute (the same integers, in the same units): the run is
unchanged, only fewer products are made.  Any update (``add``, ``add_many``) drops the stored scores.  Blocks that
cannot be sliced (a representation whose blocks are computed lazily) are asked from the representation as usual.

**One read serves the count and the search** (the old pocket kernel's fusion, kept on the protocol).
:meth:`Reusing.count_every` counts the samples where a test t holds (the pocket's N E_in(w), t: <w, z_i> <= 0)
from the representation's *marks* of all samples (``rep.marks_every(t)``, a boolean array, True exactly where
``rep.all(rep.scores(0, n), t)`` lists j), and keeps them.  The loop's next search with the same test
(:meth:`Reusing.find`, or :meth:`Reusing.scan`, before any update) is then the first mark of the block's slice:
the first j of the block where the test holds, which is ``rep.first`` of that block by the definition of the
marks (``find`` answers it without building the block, where the loop reads no score of it).  A test is the
same when it is the same object or an equal one (``rep.threshold`` is a value of (b, strict): two equal
thresholds are one test).  A representation without ``marks_every`` is asked ``count`` and ``first`` as usual;
one with ``scores_every`` is asked it for the scores of all samples (the same block as ``scores(0, n)``,
computed its fastest way).
"""

from __future__ import annotations

import numpy as np

from exactlin.engine.arith import Block

__all__ = ["Reusing"]


class Reusing:
    """``rep`` (any representation of :mod:`exactlin.engine.arith`) with :meth:`every` (the scores of all samples,
    kept until the next update) serving the next blocks; every other attribute is ``rep``'s."""

    def __init__(self, rep):
        self.rep = rep
        self._all = None
        self._marks = None  # rep.marks_every(self._t) with the current w
        self._t = self._alias = None  # the test of the marks, and an equal threshold object the loop asks with
        self.rekey = rep.rekey  # the representation's key map, handed to the loop after an update (see add)
        rep.rekey = None
        # the representation's own answers, bound once (a loop asks for them at every block)
        for name in ("name", "n", "d", "tiers", "threshold", "first", "all", "count", "exact", "key", "bits",
                     "bits_above", "w", "snapshot", "fractions"):
            setattr(self, name, getattr(rep, name))
        self._scores_every = getattr(rep, "scores_every", None) or (lambda: rep.scores(0, rep.n))
        self._marks_every = getattr(rep, "marks_every", None)

    def __getattr__(self, name):
        return getattr(self.rep, name)

    @property
    def block_min(self) -> int:
        """The representation's shortest block (read by the loop after every update: a property, not a lookup
        through ``__getattr__``)."""
        return self.rep.block_min

    def every(self):
        """The scores of samples 0 .. n-1 with the current w."""
        if self._all is None:
            self._all = self._scores_every()
        return self._all

    def count_every(self, t) -> int:
        """``count(every(), t)``: on how many samples the test ``t`` holds with the current w; the marks are kept
        for the next :meth:`find` or :meth:`scan` with the same test (module docstring)."""
        marks_every = self._marks_every
        if marks_every is None:
            return self.count(self.every(), t)
        marks = self._marks = marks_every(t)
        if t is not self._t:
            self._t, self._alias = t, None
        return int(np.count_nonzero(marks))

    def scores(self, i: int, length: int):
        s = self._all
        if type(s) is Block:
            return Block(s.values[i:i + length], s.tier, s.num, s.den)
        if type(s) is np.ndarray:  # a block that is an array of exact scores (python-flint's)
            return s[i:i + length]
        return self.rep.scores(i, length)

    def scan(self, i: int, length: int, t):
        """``(s, first(s, t))`` for the block ``s = scores(i, length)`` (served from the stored scores, and the
        first from the stored marks when the test is theirs)."""
        s = self.scores(i, length)
        if self._marks is not None and length and (t is self._alias or t is self._t or self._same(t)):
            return s, self.find(i, length, t)
        return s, self.first(s, t)

    def find(self, i: int, length: int, t) -> int:
        """``first(scores(i, length), t)``, from the stored marks when the test is theirs (no block is built)."""
        marks = self._marks
        if marks is not None and length and (t is self._alias or t is self._t or self._same(t)):
            m = marks[i:i + length]
            j = m.argmax()  # the first True, or 0 when there is none
            return int(j) if m[j] else length
        return self.first(self.scores(i, length), t)

    def _same(self, t) -> bool:
        if t == self._t:
            self._alias = t
            return True
        return False

    def add(self, i: int, coef) -> None:
        self._all = self._marks = None
        rep = self.rep
        rep.add(i, coef)
        if rep.rekey is not None:  # the loop reads (and clears) this object's rekey
            self.rekey, rep.rekey = rep.rekey, None

    def add_many(self, idx, coefs) -> None:
        self._all = self._marks = None
        rep = self.rep
        rep.add_many(idx, coefs)
        if rep.rekey is not None:
            self.rekey, rep.rekey = rep.rekey, None
