"""The pocket algorithm (seed 001) on integers: its PLA steps and its E_in evaluations on one integer matrix.

The readable reference is the Fraction loop in :func:`exactlin.algorithms.perceptron_family.pocket` (it still
runs for ``trace=True``, ``variant="printed"`` and with the kernel switched off, ``_fast.ENABLED = False``).
:func:`pocket_loop` below returns the same pocket, the same last PLA iterate, the same E_in values, reason,
step counts and trace, for the reasons that follow.

**1. One test decides both the PLA step and E_in.**  The labels z_i are +1 or -1 and the normalized samples
are Z_i = z_i Y_i.  sign(<w, Y_i>) != z_i  iff  z_i <w, Y_i> <= 0  iff  <w, Z_i> <= 0 (z_i = 1: the sign is
not +1 iff <w, Y_i> <= 0; z_i = -1: it is not -1 iff <w, Y_i> >= 0).  So the reference's PLA step (the next
sample in cyclic order with sign(w^T x_i) != y_i, then w <- w + y_i x_i = w + Z_i) is the perceptron's step
with eta = 1 on Z, and its E_in(w) is (the number of i with <w, Z_i> <= 0) / N.

**2. Scaling to integers** (as :mod:`exactlin.algorithms._fast`, point 1, with eta = 1): L is the least
positive integer with L Z_ij and L w_1j integers (:func:`._fast.integer_scaling`); Z' = L Z and v_t = L w_t
are integer vectors, v_{t+1} = v_t + Z'_i on a step, and <w_t, Z_i> = <v_t, Z'_i> / L^2 has the sign of the
integer s_i = <v_t, Z'_i>.  One vector of scores s = Z' v_t (one matrix-vector product) therefore gives
both E_in(w_t) = #{i : s_i <= 0} / N and, after the step that produced w_t, the next PLA step: the first i in
cyclic order from the position after the last step with s_i <= 0 (none: E_in = 0, reason ``converged``).
The reference evaluates E_in at the start and after every step, and searches the next mistake with the same
w, so each of its tests is one of these s_i.  w_t = v_t / L recovers the exact weights.

**3. Which machine integers compute s exactly** (checked before every product, m_v >= max_j |v_j| an upper
bound kept exactly, m_Z = max |Z'_ij|, d the number of columns): every product and partial sum of <v, Z'_i>
has magnitude <= d m_Z m_v, so

* d m_Z m_v < 2^53 (and m_v < 2^53, so v itself is a float64 number): float64 (BLAS); every rounding is of
  an integer below 2^53, hence exact, in any summation order;
* d m_Z m_v < 2^62: numpy int64 (no product or partial sum can overflow);
* otherwise: Python integers (numpy object arrays), unbounded.

The weights v are kept in int64 while m_v < 2^62 (m_v grows by at most m_Z per step, and the bound is
updated before the addition, so an int64 addition never overflows), else as Python ints.

**4. The rest of the semantics is bookkeeping on integers**: the pocket is replaced only when the new count
is strictly smaller (ties keep the older vector, as the reference's ``E < best_E``); ``t > max_epochs`` is
tested before the search, as in the reference; ``bit_limit`` uses the exact bit length of w = v / L
(:meth:`._fast._Weights.bits_above`, after the upper bound max(bits(m_v), bits(L)) says it could exceed);
``max_seconds`` is checked after every step; the progress callback gets the same records (``bits`` of w
computed exactly from v).  The trace's prefix is recorded compactly (step, sample, counts, v after the step
while vectors are kept) and its :class:`~exactlin.model.run.Step` records are built, through a fresh
:class:`~exactlin.algorithms._loop.Tracer` (the same policy), the first time it is read.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from exactlin.algorithms import _fast, _loop
from exactlin.algorithms._fast import _as_int64, _Weights, integer_scaling
from exactlin.algorithms._loop import TRACE_STEP_LIMIT, Tracer
from exactlin.exact.rows import F64_EXACT, I64_HEADROOM
from exactlin.model.run import LazySteps

__all__ = ["pocket_loop", "PocketResult", "LAST_TIERS", "HISTORY_LIMIT"]

#: score products computed in each tier by the last kernel run (for the tests and the benchmark)
LAST_TIERS: dict[str, int] = {}
#: E_in values kept in ``E_in_history`` (the start's included), as the reference keeps them
HISTORY_LIMIT = 10_000


@dataclass
class PocketResult:
    best: tuple  # the pocket (Fractions)
    best_E: Fraction
    best_t: int  # the iterate w(best_t) in the pocket (1: the start)
    w: tuple  # the last PLA iterate (Fractions)
    E_pla: Fraction
    history: list  # E_in of w(1), w(2), ... (at most HISTORY_LIMIT)
    reason: str
    steps: int  # PLA steps made (t_done)


class _Scores:
    """s = Z' v in the tier the bound of point 3 allows; the weights v live in ``W`` (a ``_fast._Weights``)."""

    def __init__(self, Zl, W):
        self.Zl = Zl
        self.n, self.d = len(Zl), len(Zl[0])
        self.Z64, self.m_Z = _as_int64(Zl)
        # the products as v^T Z'^T on a contiguous transpose (faster than Z' v for a tall Z'; the same integers)
        self.ZT64 = np.ascontiguousarray(self.Z64.T) if self.Z64 is not None else None
        self.ZfT = self.ZT64.astype(np.float64) if self.Z64 is not None and self.m_Z < F64_EXACT else None
        self.Zobj = None
        self.W = W
        self.dm = self.d * self.m_Z
        self.big = W.v.dtype == object

    def to_python_ints(self):
        if self.Zobj is None:
            Zl = self.Zl
            self.Zobj = np.array(Zl.tolist() if isinstance(Zl, np.ndarray) else Zl, dtype=object)
        if not self.big:
            self.big = True
            self.W.v = self.W.v.astype(object)

    def scores(self):
        W = self.W
        if self.dm * W.m_v >= F64_EXACT:
            W.exact_max()
        bound = self.dm * W.m_v
        if bound < F64_EXACT and W.m_v < F64_EXACT and self.ZfT is not None and not self.big:
            LAST_TIERS["float64"] += 1
            return W.v.astype(np.float64) @ self.ZfT
        if bound < I64_HEADROOM and self.Z64 is not None and not self.big:
            LAST_TIERS["int64"] += 1
            return W.v @ self.ZT64
        self.to_python_ints()
        LAST_TIERS["python"] += 1
        return self.Zobj.dot(W.v)

    def step(self, i: int):
        """v <- v + Z'_i, in int64 only while the bound m_v + m_Z < 2^62 proves it fits."""
        W = self.W
        W.m_v += self.m_Z
        if not self.big and W.m_v >= I64_HEADROOM:
            self.to_python_ints()
        if self.big:
            W.v = W.v + self.Zobj[i]
        else:
            W.v += self.Z64[i]


def pocket_loop(Z, w1: tuple, T: int, bounds, tracer) -> PocketResult | None:
    """Seed 001's pocket algorithm (the corrected comparison with the pocket's E_in) on the normalized samples
    ``Z`` from ``w1``, for at most ``T`` PLA steps, in integer arithmetic; ``None`` when the kernel is switched
    off (``_fast.ENABLED``) or ``trace=True`` (every step recorded: the reference loop does that).  See the
    module docstring for why the result is the reference's.

    >>> from exactlin.algorithms._loop import Bounds, Tracer
    >>> Z = [tuple(Fraction(a) for a in z) for z in [(1, 1), (-1, 1), (1, -1), (-1, -1)]]  # XOR, normalized
    >>> r = pocket_loop(Z, (Fraction(0), Fraction(0)), 5, Bounds(), Tracer(False, 2))
    >>> r.best, r.best_E, r.w, r.reason
    ((Fraction(0, 1), Fraction(2, 1)), Fraction(1, 2), (Fraction(1, 1), Fraction(1, 1)), 'max_steps')
    """
    if not _fast.ENABLED or tracer.mode is True:
        return None
    n = len(Z)
    if n == 0:
        return None
    one = Fraction(1)
    L, Zl, v1 = integer_scaling(Z, w1, one)
    W = _Weights(v1, one, L)
    S = _Scores(Zl, W)
    LAST_TIERS.clear()
    LAST_TIERS.update(float64=0, int64=0, python=0)

    def E(count) -> Fraction:
        return Fraction(count, n)

    s = S.scores()
    mask = s <= 0
    cnt = int(np.count_nonzero(mask))
    best_cnt, best_t, best_v = cnt, 1, None  # best_v None: the start w1
    history = [cnt]
    pos = 0
    reason, t_done = "max_steps", 0
    max_epochs = bounds.max_epochs
    max_bits = bounds.max_bits
    timed = bounds.max_seconds is not None
    ticking = bounds.progress is not None
    rec_limit = TRACE_STEP_LIMIT if tracer.mode is None else 0
    vec_limit = _loop.TRACE_VECTOR_LIMIT
    records: list[tuple] = []  # (t, i, count, pocket count before, better, v after or None)
    v_start = W.v.copy()
    for t in range(1, T + 1):
        if t > max_epochs:
            reason = "max_epochs"
            break
        if ticking and t > 1:
            bounds.tick(t - 1, t - 1, W.bits(), work=n)
        if cnt == 0:  # no misclassified sample: PLA has converged
            reason = "converged"
            break
        # the next misclassified sample in cyclic order from pos
        i = int(mask[pos:].argmax()) + pos if pos else int(mask.argmax())
        if not mask[i]:
            i = int(mask[:pos].argmax())
        S.step(i)
        pos = i + 1 if i + 1 < n else 0
        s = S.scores()
        mask = s <= 0
        cnt = int(np.count_nonzero(mask))
        if len(history) < HISTORY_LIMIT:
            history.append(cnt)
        better = cnt < best_cnt
        if t <= rec_limit:
            records.append((t, i, cnt, best_cnt, better, W.v.copy() if t * tracer.d <= vec_limit else None))
        if better:
            best_cnt, best_t, best_v = cnt, t + 1, W.v.copy()
        t_done = t
        if max_bits is not None and max(W.m_v.bit_length(), L.bit_length()) > max_bits \
                and W.bits_above(max_bits) > max_bits:
            reason = "bit_limit"
            break
        if timed and bounds.out_of_time():
            reason = "time_limit"
            break
    if rec_limit:
        if t_done > rec_limit:
            tracer.complete = False
        tracer.steps = LazySteps(min(t_done, rec_limit),
                                 lambda: _build_trace(records, v_start, L, n, tracer.mode, tracer.d))
    w = W.fractions()
    best = tuple(w1) if best_v is None else _fractions(best_v, L)
    return PocketResult(best, E(best_cnt), best_t, w, E(cnt), [E(c) for c in history], reason, t_done)


def _fractions(v, L: int) -> tuple:
    vals = v.tolist()
    return tuple(Fraction(a) for a in vals) if L == 1 else tuple(Fraction(a, L) for a in vals)


def _build_trace(records, v_start, L: int, n: int, mode, d: int) -> list:
    """The reference's Steps: ``tracer.add(t, t, i, E, True, w, w_new, E_in=E, pocket_E_in=best_E,
    pocketed=better)`` for every recorded step, through a fresh Tracer (its own vector policy)."""
    tracer = Tracer(mode, d)
    wf = _fractions(v_start, L) if tracer.keep_vectors() else None
    for t, i, cnt, best_cnt, better, v_after in records:
        E = Fraction(cnt, n)
        wa = _fractions(v_after, L) if v_after is not None else None
        tracer.add(t, t, i, E, True, wf, wa, E_in=E, pocket_E_in=Fraction(best_cnt, n), pocketed=better)
        wf = wa
    return tracer.steps
