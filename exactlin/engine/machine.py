"""The linear machine's c weight vectors (seed 003, ``003_ffe0ec08819b37d8.txt``, "The multi-category case") as a
representation of the arithmetic protocol (:mod:`exactlin.engine.arith`), over any representation of one vector.

The machine holds W = (w_1; ...; w_c), one weight vector per class, each in its own representation of the augmented
samples y_s (``bases``, all built alike: the same samples, start 0 and step eta, hence the same units).  For sample
s of class i the scores are g_j = <w_j, y_s>; the *rival* is the j != i with the largest g_j, the first in class
order on a tie; the sample is a mistake iff g_i - g_rival <= 0 (a tie leaves the classification undefined), and the
machine's score of s is that margin.  This is the perceptron on Kesler's vectors (y_s in block i, -y_s in block
rival), so ``add(s, c)`` is **w_i <- w_i + c y_s, w_rival <- w_rival - c y_s** with the rival of s under the current
W: two rows touched, the pair (s, rival) recorded in ``pairs``.  The state (``w``, ``key``, ``snapshot``) is the
stacked W, c d entries.

**Exactness.**  The bases' raw scores are exact integers (or Fractions) in one unit u > 0 (the same scaling: the
same samples, start and step, and an update of ±eta never rescales), so the largest g_j is at the same j as the
largest raw score and g_i - g_j <= 0 iff raw_i <= raw_j: the comparisons of raw scores decide the rival and the
test exactly, with no subtraction (a float64 difference of two numbers below 2^53 could round).  Raw scores of
different tiers are compared after an exact conversion (float64 values are integers below 2^53: exact in int64;
int64 values are exact as Python integers).  The margin itself is formed exactly, base by base (``exact``).
"""

from __future__ import annotations

import numpy as np

__all__ = ["MachineArith"]


def _common(values: list) -> list:
    """Raw integer score arrays of several tiers in one exact dtype (float64 -> int64 -> Python integers)."""
    kinds = {v.dtype for v in values}
    if len(kinds) == 1:
        return values
    if np.dtype(object) in kinds:
        return [v if v.dtype == object else v.astype(np.int64).astype(object) for v in values]
    return [v.astype(np.int64) for v in values]


class _MBlock:
    """The c bases' blocks for samples i .. i+length-1, their own classes, and (once tested) the rivals."""

    __slots__ = ("i", "blocks", "own", "rivals", "wrong")

    def __init__(self, i: int, blocks: list, own, rivals=None, wrong=None):
        self.i, self.blocks, self.own, self.rivals, self.wrong = i, blocks, own, rivals, wrong

    def __len__(self) -> int:
        return len(self.own)

    def __getitem__(self, sl: slice) -> _MBlock:
        start, stop, _ = sl.indices(len(self.own))
        return _MBlock(self.i + start, [b[sl] for b in self.blocks], self.own[sl],
                       None if self.rivals is None else self.rivals[sl],
                       None if self.wrong is None else self.wrong[sl])

    def copy(self) -> _MBlock:
        return _MBlock(self.i, [b.copy() for b in self.blocks], self.own, self.rivals, self.wrong)


class MachineArith:
    """W = (w_1; ...; w_c) over the augmented samples ``Y`` with class indices ``labels`` (0..c-1); ``make(Y, w1,
    step=...)`` builds the representation of one vector (e.g. :class:`~exactlin.engine.arith.IntegerArith`)."""

    def __init__(self, make, Y, labels, c: int, *, step=1):
        self.bases = [make(Y, (0,) * (Y.shape[1] if hasattr(Y, "shape") else len(Y[0])), step=step)
                      for _ in range(c)]
        self.name = self.bases[0].name
        self.c = c
        self.labels = np.asarray(labels, dtype=np.intp)
        self.n = len(self.labels)
        self.dd = self.bases[0].d
        self.d = c * self.dd
        self.pairs: list[tuple[int, int]] = []  # (sample, rival) of every update
        self._pending = None  # (sample, rival, version) found by the last test
        self._version = 0

    @property
    def tiers(self) -> dict:
        out: dict = {}
        for b in self.bases:
            for k, v in b.tiers.items():
                out[k] = out.get(k, 0) + v
        return out

    @property
    def rekey(self):
        fns = [b.rekey for b in self.bases]
        if not any(fns):
            return None
        return lambda old: tuple(f(k) if f is not None else k for f, k in zip(fns, old))

    @rekey.setter
    def rekey(self, value) -> None:
        if value is None:
            for b in self.bases:
                b.rekey = None

    # -- scores

    def scores(self, i: int, length: int) -> _MBlock:
        return _MBlock(i, [b.scores(i, length) for b in self.bases], self.labels[i:i + length])

    @staticmethod
    def threshold(b=0, strict: bool = False):
        if b:
            raise ValueError("the linear machine's test is g_i - g_rival <= 0 (b = 0)")
        return strict

    def _raw(self, s: _MBlock):
        """The raw scores as one (length x c) array of one exact dtype, or None (bases without a common unit)."""
        blocks = s.blocks
        if not all(hasattr(b, "values") for b in blocks):
            return None
        units = {(getattr(b, "num", 1), getattr(b, "den", 1)) for b in blocks}
        if len(units) != 1:
            return None
        return np.column_stack(_common([b.values for b in blocks]))

    def _test(self, s: _MBlock, strict: bool) -> None:
        """The rivals and the mistakes of a whole block (vectorized when the bases' raw scores allow)."""
        if s.wrong is not None:
            return
        G = self._raw(s)
        m = len(s.own)
        if G is None:
            g = [[self.bases[k].exact(b, j) for k, b in enumerate(s.blocks)] for j in range(m)]
            rivals, wrong = [], []
            for j in range(m):
                own = s.own[j]
                r = max((k for k in range(self.c) if k != own), key=lambda k: (g[j][k], -k))
                rivals.append(r)
                wrong.append(g[j][own] < g[j][r] if strict else g[j][own] <= g[j][r])
            s.rivals, s.wrong = np.array(rivals, dtype=np.intp), np.array(wrong, dtype=bool)
            return
        rows = np.arange(m)
        own = G[rows, s.own]
        if self.c == 2:
            rivals = 1 - s.own
            rv = G[rows, rivals]
        else:
            if G.dtype == np.float64:
                low = -np.inf
            elif G.dtype == np.int64:
                low = np.iinfo(np.int64).min  # every int64-tier score is above -2^62
            else:
                low = min(G.min(), 0) - 1
            H = G.copy()
            H[rows, s.own] = low
            rivals = H.argmax(axis=1)  # the first largest among the other classes
            rv = H[rows, rivals]
        wrong = own < rv if strict else own <= rv
        s.rivals, s.wrong = rivals, np.asarray(wrong, dtype=bool)

    def first(self, s: _MBlock, strict) -> int:
        self._test(s, strict)
        wrong = s.wrong
        if not len(wrong):
            return 0
        j = int(wrong.argmax())
        if not wrong[j]:
            return len(wrong)
        self._pending = (s.i + j, int(s.rivals[j]), self._version)
        return j

    def all(self, s: _MBlock, strict) -> list[int]:
        self._test(s, strict)
        return np.flatnonzero(s.wrong).tolist()

    def rival(self, s: _MBlock, j: int) -> int:
        self._test(s, False)
        return int(s.rivals[j])

    def exact(self, s: _MBlock, j: int):
        """The margin g_own - g_rival of sample i + j, exactly."""
        r = self.rival(s, j)
        own = int(s.own[j])
        return self.bases[own].exact(s.blocks[own], j) - self.bases[r].exact(s.blocks[r], j)

    def undefined(self) -> list[int]:
        """The samples whose largest score g_j (over every class) is tied: the machine's decision is undefined
        there (the notes: "in case of ties, the classification is undefined")."""
        s = self.scores(0, self.n)
        G = self._raw(s)
        if G is None:
            G = [[self.bases[k].exact(b, j) for k, b in enumerate(s.blocks)] for j in range(self.n)]
            return [j for j, g in enumerate(G) if g.count(max(g)) != 1]
        top = G.max(axis=1)
        return np.flatnonzero((G == top[:, None]).sum(axis=1) != 1).tolist()

    # -- updates

    def add(self, i: int, coef) -> None:
        """w_own <- w_own + coef y_i, w_rival <- w_rival - coef y_i, the rival of sample i under the current W."""
        p = self._pending
        if p is not None and p[0] == i and p[2] == self._version:
            r = p[1]
        else:
            r = self.rival(self.scores(i, 1), 0)
        own = int(self.labels[i])
        self.bases[own].add(i, coef)
        self.bases[r].add(i, -coef)
        self.pairs.append((i, r))
        self._version += 1
        self._pending = None

    # -- the state

    def key(self):
        return tuple(b.key() for b in self.bases)

    def bits(self) -> int:
        return max(b.bits() for b in self.bases)

    def bits_above(self, current: int) -> int:
        for b in self.bases:
            current = b.bits_above(current)
        return current

    def w(self) -> tuple:
        return tuple(x for b in self.bases for x in b.w())

    def snapshot(self):
        return tuple(b.snapshot() for b in self.bases)

    def fractions(self, snap) -> tuple:
        return tuple(x for b, sn in zip(self.bases, snap) for x in b.fractions(sn))
