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

Two layouts, the same answers: :class:`KeslerArith` holds the stacked W in ONE representation over the c - 1
Kesler vectors of every sample (y_s in block i, -y_s in block j, j != i in class order), whose scores are the
margins g_i - g_j themselves: a block of samples is one block of their Kesler scores, the sample's margin the
smallest of its c - 1 (the rival the first j reaching it), a mistake a sample with a Kesler score <= 0, the update
one ``add`` of the rival's Kesler vector.  :class:`MachineArith` holds the c vectors apart (memory c d instead of
n (c - 1) c d) and compares their scores.

**Exactness.**  The bases' raw scores are exact integers (or Fractions) in one unit u > 0 (the same scaling: the
same samples, start and step, and an update of ±eta never rescales), so the largest g_j is at the same j as the
largest raw score and g_i - g_j <= 0 iff raw_i <= raw_j: the comparisons of raw scores decide the rival and the
test exactly, with no subtraction (a float64 difference of two numbers below 2^53 could round).  Raw scores of
different tiers are compared after an exact conversion (float64 values are integers below 2^53: exact in int64;
int64 values are exact as Python integers).  The margin itself is formed exactly, base by base (``exact``).

*The Kesler layout on its base's fast paths.*  An update of the machine is one update of its base, w <- w + c K_row
with the row of (sample, rival) (recorded in ``rows``; ``pairs`` reads them back), so what the base proves about
its own runs holds for the machine's:

* ``find``: the base's first row with a Kesler score <= 0 (exact in the base) lies in the first sample whose
  smallest Kesler score is <= 0, i.e. the first mistake: its index is the row's divided by c - 1.  With c = 2 that
  row is the sample's only one, so its rival is known without a score (the other class); with more classes the
  rival is read at the update from the sample's c - 1 exact scores, as when ``first`` found it.
* ``bits_after``: the machine's updates from now on are the base's updates of the recorded rows with the one
  coefficient c, so the base's largest bit size over its states is the machine's (the stacked W is the base's w).
* ``fingerprint``: the base's, of the stacked W: equal for equal W.  A match is confirmed exactly by
  ``combination_is_zero`` on the updates in between: W after update a equals W after update b iff the sum of
  their Kesler vectors (times c) is 0, the rows being the recorded ones (a sample's Kesler vector depends on its
  rival at that update, so the samples alone would not say which).  :class:`MachineArith` confirms it base by
  base: w_k's part of that sum is c times the samples of class k updated minus those updated with rival k.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from exactlin.engine.trace import KESLER_ENTRIES
from exactlin.exact.rows import ExactRows, from_fraction_rows

__all__ = ["MachineArith", "KeslerArith", "machine_arith"]

def machine_arith(make, Y, labels, c: int, *, step=1, kesler_entries: int = KESLER_ENTRIES):
    """The linear machine's representation: :class:`KeslerArith` (one block of scores for every rival at once)
    while its n (c - 1) c d entries stay within ``kesler_entries`` (:attr:`~exactlin.engine.trace.Limits.
    machine_entries`), else :class:`MachineArith`, the c vectors apart (the same answers; one product per block
    or c)."""
    n, d = len(Y), (Y.shape[1] if hasattr(Y, "shape") else len(Y[0]))
    cls = KeslerArith if n * (c - 1) * c * d <= kesler_entries else MachineArith
    return cls(make, Y, labels, c, step=step)


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
        self._coef = self._neg = None

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

    def _raw(self, s: _MBlock) -> list | None:
        """The c raw score arrays in one exact dtype, or None (bases without numpy blocks of a common unit)."""
        blocks = s.blocks
        try:
            vals = [b.values for b in blocks]
            unit = blocks[0].num, blocks[0].den
            if any((b.num, b.den) != unit for b in blocks):
                return None
        except AttributeError:
            return None
        return _common(vals)

    def _test(self, s: _MBlock, strict: bool) -> None:
        """The mistakes of a whole block, and their rivals (vectorized when the bases' raw scores allow)."""
        if s.wrong is not None:
            return
        vals = self._raw(s)
        m = len(s.own)
        if vals is None or not m:  # (an empty block: no score to take a minimum of)
            g = [[self.bases[k].exact(b, j) for k, b in enumerate(s.blocks)] for j in range(m)]
            rivals, wrong = [], []
            for j in range(m):
                own = s.own[j]
                r = max((k for k in range(self.c) if k != own), key=lambda k: (g[j][k], -k))
                rivals.append(r)
                wrong.append(g[j][own] < g[j][r] if strict else g[j][own] <= g[j][r])
            s.rivals, s.wrong = np.array(rivals, dtype=np.intp), np.array(wrong, dtype=bool)
            return
        if self.c == 2:  # the rival is the other class
            v0, v1 = vals
            s.rivals = 1 - s.own
            s.wrong = np.where(s.own == 0, v0 < v1, v1 < v0) if strict else np.where(s.own == 0, v0 <= v1, v1 <= v0)
            return
        G = np.column_stack(vals)
        rows = np.arange(m)
        own = G[rows, s.own]
        if G.dtype == np.float64:
            low = -np.inf
        elif G.dtype == np.int64:
            low = np.iinfo(np.int64).min  # every int64-tier score is above -2^62
        else:
            low = min(G.min(), 0) - 1
        G[rows, s.own] = low
        rivals = G.argmax(axis=1)  # the first largest among the other classes
        rv = G[rows, rivals]
        s.rivals, s.wrong = rivals, np.asarray(own < rv if strict else own <= rv, dtype=bool)

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

    def count(self, s: _MBlock, strict) -> int:
        return len(self.all(s, strict))

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
        G = np.column_stack(G)
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
        if coef is not self._coef:
            self._coef, self._neg = coef, -coef
        self.bases[own].add(i, coef)
        self.bases[r].add(i, self._neg)
        self.pairs.append((i, r))
        self._version += 1
        self._pending = None

    # -- the state

    def key(self):
        return tuple(b.key() for b in self.bases)

    @property
    def fingerprint(self):
        """The bases' fingerprints, where they have them (else AttributeError): equal for equal W (each w_j is
        equal then).  A match is confirmed by :meth:`combination_is_zero`."""
        fps = [b.fingerprint for b in self.bases]
        return lambda: tuple(f() for f in fps)

    def combination_is_zero(self, idx, coefs) -> bool:
        """Exactly: is sum_m coefs[m] K_m = 0, K_m the Kesler vector of update number u - len(idx) + m (u the
        updates made; their samples are ``idx``)?  Block by block: w_k's part is sum coefs[m] y_{s_m} over the
        updates of class k's samples minus the same sum over the updates whose rival is k, one
        ``combination_is_zero`` of base k (``pairs`` records the rivals)."""
        last = self.pairs[len(self.pairs) - len(idx):] if len(idx) else []
        if [s for s, _ in last] != list(idx):
            raise ValueError("the samples given are not those of the machine's last updates")
        parts: list = [([], []) for _ in self.bases]
        for (s, r), cf in zip(last, coefs):
            for k, sign in ((int(self.labels[s]), cf), (r, -cf)):
                parts[k][0].append(s)
                parts[k][1].append(sign)
        return all(b.combination_is_zero(ix, cs) for b, (ix, cs) in zip(self.bases, parts))

    @property
    def block_min(self) -> int:
        """The cyclic loop's shortest block after a mistake: the first base's, where it has one (the bases are
        built alike)."""
        return self.bases[0].block_min

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


class _KBlock:
    """The Kesler scores of samples i .. i+length-1 (``rows``: c - 1 per sample)."""

    __slots__ = ("i", "rows", "length")

    def __init__(self, i: int, rows, length: int):
        self.i, self.rows, self.length = i, rows, length

    def __len__(self) -> int:
        return self.length


def _kesler_rows(Y, labels, c: int):
    """The n (c - 1) Kesler vectors, c - 1 per sample in class order of the rival: an ExactRows (integers over the
    samples' denominator) when the samples fit in int64, else tuples of Fractions."""
    n = len(labels)
    E = Y if isinstance(Y, ExactRows) else from_fraction_rows(tuple(tuple(r) for r in Y))
    if E is not None:
        num, d = E.num, E.num.shape[1]
        K = np.zeros((n, c - 1, c * d), dtype=np.int64)
        for s in range(n):
            i = labels[s]
            for r, j in enumerate(k for k in range(c) if k != i):
                K[s, r, i * d:(i + 1) * d] = num[s]
                K[s, r, j * d:(j + 1) * d] = -num[s]  # |num| < 2^63: its negation fits
        return ExactRows(K.reshape(n * (c - 1), c * d), E.den)
    d = len(Y[0])
    zero = Fraction(0)
    out = []
    for s in range(n):
        y, i = tuple(Fraction(x) for x in Y[s]), labels[s]
        for j in range(c):
            if j != i:
                row = [zero] * (c * d)
                row[i * d:(i + 1) * d] = y
                row[j * d:(j + 1) * d] = [-x for x in y]
                out.append(tuple(row))
    return tuple(out)


class KeslerArith:
    """The stacked W in one representation over the Kesler vectors (module docstring); ``make(K, w1, step=...)``
    builds it (e.g. :class:`~exactlin.engine.arith.IntegerArith`)."""

    def __init__(self, make, Y, labels, c: int, *, step=1):
        self.c = c
        self.labels = [int(a) for a in labels]
        self.n = len(self.labels)
        d = Y.shape[1] if hasattr(Y, "shape") else len(Y[0])
        self.d = c * d
        self.base = make(_kesler_rows(Y, self.labels, c), (0,) * self.d, step=step)
        self.name = self.base.name
        self._own = np.asarray(self.labels, dtype=np.int64)
        self.rows: list[int] = []  # the Kesler row of every update (``pairs`` reads them as (sample, rival))
        self._pending = None  # (sample, its rival's offset among its c - 1 Kesler rows) found by the last test

    @property
    def tiers(self) -> dict:
        return self.base.tiers

    @property
    def rekey(self):
        return self.base.rekey

    @rekey.setter
    def rekey(self, value) -> None:
        self.base.rekey = value

    def scores(self, i: int, length: int) -> _KBlock:
        m = self.c - 1
        return _KBlock(i, self.base.scores(i * m, length * m), length)

    def threshold(self, b=0, strict: bool = False):
        if b:
            raise ValueError("the linear machine's test is g_i - g_rival <= 0 (b = 0)")
        return self.base.threshold(0, strict)

    def _row(self, s: _KBlock, j: int) -> int:
        """The Kesler row (in the block) of sample j's rival: its smallest score, the first on a tie."""
        m = self.c - 1
        if m == 1:
            return j
        vals = getattr(s.rows, "values", None)
        if vals is not None:
            return j * m + int(vals[j * m:(j + 1) * m].argmin())
        q = [self.base.exact(s.rows, j * m + r) for r in range(m)]
        return j * m + q.index(min(q))

    def _rival(self, s: _KBlock, row: int) -> int:
        r, own = row % (self.c - 1), self.labels[s.i + row // (self.c - 1)]
        return r if r < own else r + 1

    def first(self, s: _KBlock, t) -> int:
        f = self.base.first(s.rows, t)
        m = self.c - 1
        if f == len(s.rows):
            return s.length
        j = f // m
        self._pending = (s.i + j, self._row(s, j) - j * m)
        return j

    @property
    def find(self):
        """``first(scores(i, length), t)`` alone (the loop's question where it reads no score): the base's
        ``find`` on the block's Kesler rows, where the base has one (else AttributeError, as for a missing
        method).  The first row with a score <= 0 is a row of the first mistaken sample (a sample is a mistake
        iff its smallest Kesler score is <= 0); with c = 2 that row is the rival's (one row per sample), with
        more classes the rival is read at the update (``add``: the sample's c - 1 scores)."""
        base_find, m = self.base.find, self.c - 1

        def find(i: int, length: int, t) -> int:
            f = base_find(i * m, length * m, t)
            if f == length * m:
                return length
            j = f // m
            self._pending = (i + j, 0) if m == 1 else None
            return j

        return find

    @property
    def block_min(self) -> int:
        """The cyclic loop's shortest block after a mistake, in samples: the base's (where it has one), which
        counts Kesler rows, c - 1 per sample."""
        return -(-self.base.block_min // (self.c - 1))

    def all(self, s: _KBlock, t) -> list[int]:
        return sorted({f // (self.c - 1) for f in self.base.all(s.rows, t)})

    def count(self, s: _KBlock, t) -> int:
        return len(self.all(s, t))

    def rival(self, s: _KBlock, j: int) -> int:
        return self._rival(s, self._row(s, j))

    def exact(self, s: _KBlock, j: int):
        """The margin g_own - g_rival of sample i + j: the Kesler score of its rival's row."""
        return self.base.exact(s.rows, self._row(s, j))

    def add(self, i: int, coef) -> None:
        """w_own <- w_own + coef y_i, w_rival <- w_rival - coef y_i (the Kesler vector of sample i and its rival)."""
        p = self._pending  # (the test that found sample i, since the last update)
        off = p[1] if p is not None and p[0] == i else self._row(self.scores(i, 1), 0)
        row = i * (self.c - 1) + off
        self.base.add(row, coef)
        self.rows.append(row)
        self._pending = None

    @property
    def pairs(self) -> list[tuple[int, int]]:
        """(sample, rival) of every update, read from its Kesler row s (c - 1) + r: the rival is r, or r + 1 from
        the sample's own class on (its rows skip it)."""
        rows = np.asarray(self.rows, dtype=np.int64)
        s, r = np.divmod(rows, self.c - 1)
        return list(zip(s.tolist(), (r + (r >= self._own[s])).tolist()))

    def undefined(self) -> list[int]:
        """The samples whose largest score g_j is tied (the machine's decision is undefined there): with m the
        sample's smallest Kesler score g_own - g_j, a tie at the top is m = 0 (the own class ties a rival) or m < 0
        reached twice (two rivals tie above the own class)."""
        m = self.c - 1
        s = self.base.scores(0, self.n * m)
        vals = getattr(s, "values", None)
        if vals is None:
            vals = np.array([self.base.exact(s, r) for r in range(self.n * m)], dtype=object)
        G = vals.reshape(self.n, m)
        low = G.min(axis=1)
        twice = (G == low[:, None]).sum(axis=1) >= 2
        return np.flatnonzero((low == 0) | ((low < 0) & twice)).tolist()

    def key(self):
        return self.base.key()

    @property
    def fingerprint(self):
        """The base's fingerprint of the stacked W, where it has one (else AttributeError): equal for equal W.
        A match is confirmed by :meth:`combination_is_zero`."""
        return self.base.fingerprint

    def _update_rows(self, start: int, idx) -> np.ndarray:
        """The Kesler rows of the updates ``start``, ``start + 1``, ... (the last one made); ``idx`` must be their
        samples, in order (the loop's record of the same updates): row s (c - 1) + r is sample s's."""
        rows = np.asarray(self.rows[start:], dtype=np.int64)
        if not np.array_equal(rows // (self.c - 1), np.asarray(idx, dtype=np.int64)):
            raise ValueError("the samples given are not those of the machine's last updates")
        return rows

    def combination_is_zero(self, idx, coefs) -> bool:
        """Exactly: is sum_m coefs[m] K_m = 0, K_m the Kesler vector of update number u - len(idx) + m (u the
        updates made; the sum of the last len(idx) updates, whose samples are ``idx``)?  A sample's Kesler
        vector depends on its rival at the update, which ``rows`` records: the cyclic loop's confirmation of a
        fingerprint match asks about the updates since an earlier state up to the current one."""
        return self.base.combination_is_zero(self._update_rows(len(self.rows) - len(idx), idx), coefs)

    def bits(self) -> int:
        return self.base.bits()

    def bits_above(self, current: int) -> int:
        return self.base.bits_above(current)

    def bits_after(self, coef):
        """The base's ``bits_after`` (None where it has none): ``f(idx)``, the largest bits over the states after
        the updates from now on, whose samples are ``idx`` (in order); their Kesler rows are ``rows``."""
        after = getattr(self.base, "bits_after", None)
        f = after(coef) if after is not None else None
        if f is None:
            return None
        start = len(self.rows)
        return lambda idx: f(self._update_rows(start, idx))

    def w(self) -> tuple:
        return self.base.w()

    def snapshot(self):
        return self.base.snapshot()

    def fractions(self, snap) -> tuple:
        return self.base.fractions(snap)
