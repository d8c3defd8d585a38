"""The linear machine's fixed-increment rule (seed 003, "The multi-category case") on integer arrays.

The readable reference is the Fraction loop of :func:`exactlin.algorithms.multiclass.linear_machine`
(``cyclic_single_sample`` with its ``test``/``update``): W = (w_1, ..., w_c) = 0; at round k on the augmented
sample y_s of class i, with g_j = <w_j, y_s>, the rival j is the j != i with the largest g_j (the first in class
order on a tie); a mistake iff g_i - g_j <= 0 (the trace's score is g_i - g_j), and then
**w_i <- w_i + eta y_s, w_j <- w_j - eta y_s**.  :func:`machine_loop` returns the *same*
:class:`~exactlin.algorithms._loop.LoopResult` (the stacked W, converged, reason, updates, epochs, steps, the
mistakes' samples, the cycle, max_bits, last_update, cycle_step), the list of (sample, rival) pairs and the same
trace, computing on integers.  Why that is exact (the argument of :mod:`exactlin.algorithms._fast`, point by
point, for c weight vectors):

**1. Scaling to integers.**  Let L be the least positive integer with L y_sj an integer for all s, j (the lcm of
the denominators) and Y'_s = L y_s.  Put V_j = (L / eta) w_j.  Then V_j = 0 at the start, and a mistake changes

    V_i <- (L / eta)(w_i + eta y_s) = V_i + Y'_s,    V_j <- V_j - Y'_s,

so every V_j stays an integer vector (induction), and every score is a positive multiple of an integer one:

    g_j = <w_j, y_s> = (eta / L^2) G_j  with  G_j = <V_j, Y'_s>,  eta / L^2 > 0.

A positive factor preserves every comparison: the largest G_j among j != i is at the same j as the largest
g_j (and the first such j is the same), and g_i - g_j <= 0 iff G_i - G_j <= 0.  So both loops visit the same
samples, make the same mistakes against the same rivals in the same order and stop at the same step;
w_j = (eta / L) V_j and g_i - g_j = (eta / L^2)(G_i - G_j) recover the exact weights and scores.  The map
V -> W is a bijection, so the states (stacked V, position) repeat exactly when the states (stacked W, position)
do, and the cycle detection (the same :class:`~exactlin.algorithms._loop.CycleDetector`) sees the same first
repeat.

**2. Which machine integers compute every G_j exactly.**  With m_V >= max |V_jl| (an upper bound kept exactly:
one update changes each entry of the stacked V by at most m_Y = max |Y'_sl|, because it touches two different
blocks i != j) and d the augmented dimension, every product and partial sum of every G_j has magnitude at
most d m_Y m_V, so (checked before every block of scores):

* d m_Y m_V < 2^53: float64 (BLAS), every rounding exact (integers below 2^53 are float64 numbers);
* d m_Y m_V < 2^62: numpy int64, no overflow;
* otherwise: Python integers (numpy object arrays).

The rival is found by putting the sentinel -(d m_Y m_V + 1) (exact in each tier, below every score) on the own
class and taking the first argmax; the test compares the own score with the rival's (never subtracting in
float64); the recorded scores G_i - G_j are formed in int64 (|G_i - G_j| < 2^63) or Python integers.  The
weights are int64 while m_V < 2^62, else Python integers; the float64 copy of V is kept while m_V < 2^52.

**3. Chunked scan, same order.**  From position p the scores of the next block of samples are computed with
the current V (one product Y'_block V^t for all classes); the first mistake in the block is the cyclic pass's
next mistake, because every sample before it was tested with the same V and passed.  The update is applied
there and the scan resumes after it; the block size never changes which sample is tested with which V.

The trace (while the Tracer records: its default limit of steps, vectors while steps x c d stays below the
vector limit) is kept as integer scores and stacked V's and built into the same Steps when first read
(:func:`exactlin.algorithms._fast._build_trace`); ``trace=True`` is left to the reference loop.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from exactlin.algorithms import _fast, _loop
from exactlin.algorithms._fast import _as_int64, _build_trace, _Weights, integer_scaling
from exactlin.algorithms._loop import TRACE_STEP_LIMIT, CycleDetector, LoopResult
from exactlin.exact.rows import F64_EXACT, I64_HEADROOM
from exactlin.model.run import LazySteps

__all__ = ["machine_loop", "integer_machine", "undefined_samples", "KESLER_ENTRIES"]

#: the Kesler layout (one product per block for all rivals) is used while its n c (c d + 1) entries stay below this;
#: beyond, the scores G = Y V^t of all classes are computed per block and the rival found by a sentinel
KESLER_ENTRIES = 1 << 22


def _kesler_rows(Yl, labels: list, c: int, d: int):
    """The (n c) x (c d + 1) Kesler matrix of the integer samples ``Yl`` (an int64 or object array; None gives
    None): row s c + j (j != i = labels[s]) is y_s in block i, -y_s in block j, 0 in the last column; row s c + i
    is 0 but for a 1 in the last column.  Its entries are those of Yl, negated or 0 (no sum), so int64 stays int64.

    >>> _kesler_rows(np.array([[1, 2]]), [1], 2, 2).tolist()
    [[-1, -2, 1, 2, 0], [0, 0, 0, 0, 1]]
    """
    if Yl is None:
        return None
    n = len(Yl)
    K = np.zeros((n, c, c * d + 1), dtype=Yl.dtype)
    if Yl.dtype == object:
        K[...] = 0
    lab = np.asarray(labels, dtype=np.intp)
    for j in range(c):
        for b in range(c):  # y_s in block i for every row of sample s of class b; -y_s in block j
            rows = np.flatnonzero(lab == b)
            if b != j and len(rows):
                K[rows, j, b * d:(b + 1) * d] = Yl[rows]
                K[rows, j, j * d:(j + 1) * d] = -Yl[rows]
        K[lab == j, j, c * d] = 1
    return K.reshape(n * c, c * d + 1)


def machine_loop(Y, labels, c: int, eta, bounds, tracer):
    """The linear machine's cyclic pass on the augmented samples ``Y`` (rows of rationals or ExactRows) with
    class indices ``labels`` (0..c-1) from W = 0, in integers: ``(LoopResult, pairs)`` with ``pairs`` the
    (sample, rival) pair of every mistake, identical to the reference loop's, or ``None`` when the kernel is
    switched off (``_fast.ENABLED``) or every step is traced (``trace=True``).  See the module docstring.

    >>> from exactlin.algorithms._loop import Bounds, Tracer
    >>> Y = [(Fraction(1), Fraction(0)), (Fraction(0), Fraction(1)), (Fraction(-1), Fraction(-1))]
    >>> res, pairs = machine_loop(Y, [0, 1, 2], 3, Fraction(1), Bounds(), Tracer(False, 6))
    >>> tuple(map(int, res.w)), res.updates, pairs
    ((2, 0, -1, 1, -1, -1), 3, [(0, 1), (1, 0), (2, 0)])
    """
    if not _fast.ENABLED or tracer.mode is True:
        return None
    eta = Fraction(eta)
    if eta <= 0 or c < 2 or not len(Y):
        return None
    shape = getattr(Y, "shape", None)
    d = shape[1] if shape is not None else len(Y[0])
    L, Yl, _ = integer_scaling(Y, [0] * d, eta)
    return integer_machine(Yl, labels, c, eta, L, bounds, tracer)


def integer_machine(Yl, labels, c: int, eta: Fraction, L: int, bounds, tracer):
    """The loop of :func:`machine_loop` on the integer samples ``Yl`` = L y (an int64 array or rows of int);
    the weights it returns are the stacked w = (eta / L) V, as Fractions."""
    n = len(Yl)
    d = len(Yl[0])
    cd = c * d
    Y64, m_Y = _as_int64(Yl)
    Yf = Y64.astype(np.float64) if Y64 is not None and m_Y < F64_EXACT else None
    Yobj = None
    labels_list = [int(a) for a in labels]
    own_flat = np.arange(n, dtype=np.intp) * c + np.asarray(labels_list, dtype=np.intp)
    W = _Weights([0] * cd, eta, L)
    # the stacked V with one more entry, a constant 1 (the Kesler layout's extra column); v is a view of it
    ve = np.zeros(cd + 1, dtype=np.int64)
    ve[cd] = 1
    v = W.v = ve[:cd]
    big = False
    vfe = vf = None
    kes = n * c * (cd + 1) <= KESLER_ENTRIES
    dm = (2 if kes else 1) * d * m_Y
    if kes:
        K64, Kf, Kobj = _kesler_rows(Y64, labels_list, c, d), None, None
        if K64 is not None and m_Y < F64_EXACT:
            Kf = K64.astype(np.float64)
        own_mask = np.zeros((n, c), dtype=bool)
        own_mask[np.arange(n), labels_list] = True
    tiers = _fast.LAST_TIERS
    tiers.clear()
    tiers.update(float64=0, int64=0, python=0)
    rec_limit = TRACE_STEP_LIMIT if tracer.mode is None else 0

    max_epochs = bounds.max_epochs
    k_max = max_epochs * n
    max_steps = bounds.max_steps
    timed = bounds.max_seconds is not None
    max_updates = bounds.max_updates
    max_bits_bound = bounds.max_bits
    p_eta = W.p

    k = 0
    updates = 0
    last_k = 0
    clean = 0
    update_indices: list[int] = []
    pairs: list[tuple[int, int]] = []
    max_bits = W.bits()
    bits_next = max(W.q.bit_length(), 1)
    cycles = CycleDetector((v.tobytes(), 0))

    def to_python_ints():
        nonlocal Yobj, big, v, ve, vf, vfe, Kobj
        if Yobj is None:
            Yobj = np.array(Yl.tolist() if isinstance(Yl, np.ndarray) else Yl, dtype=object)
            if kes:
                Kobj = _kesler_rows(Yobj, labels_list, c, d)
        if not big:
            big = True
            ve = ve.astype(object)
            v = W.v = ve[:cd]
            vfe = vf = None

            def conv(state):
                return tuple(np.frombuffer(state[0], dtype=np.int64).tolist()), state[1]

            cycles.remap(conv)

    records: list[tuple] = []
    v_start = v.copy()

    def done(reason, epochs, cycle=None):
        if tracer.mode is None and k > rec_limit:
            tracer.complete = False
        if rec_limit:
            tracer.steps = LazySteps(min(k, rec_limit), lambda: _build_trace(records, v_start, W, n, cd, tracer.mode))
        res = LoopResult(W.fractions(), reason == "converged", reason, updates, epochs, k, update_indices, cycle,
                         max_bits, last_k, k if cycle is not None else None)
        return res, pairs

    block = 64
    ticking = bounds.progress is not None
    ticked = 0

    while True:
        if k >= k_max:
            return done("max_epochs", max_epochs)
        if max_steps is not None and k >= max_steps:
            return done("max_steps", (k - 1) // n + 1)
        if ticking and k > ticked:
            bounds.tick(k, updates, max_bits, work=k - ticked)
            ticked = k
        i = k % n
        recording = k < rec_limit
        length = min(n - i, n - clean, k_max - k, block)
        if max_steps is not None:
            length = min(length, max_steps - k)
        if recording:
            length = min(length, rec_limit - k)
        if timed:
            length = min(length, 4096 - k % 4096)
        # the tier of this block (module docstring, point 2)
        if dm * W.m_v >= F64_EXACT:
            W.exact_max()
        bound = dm * W.m_v
        if kes:
            # the Kesler layout: row s c + j holds y_s in block i and -y_s in block j (j != i; its score is
            # G_i - G_j), row s c + i only the constant 1; every row of samples i.. in one product
            lo, hi = i * c, (i + length) * c
            if bound < F64_EXACT and W.m_v < F64_EXACT and Kf is not None and not big:
                if vfe is None:
                    vfe = ve.astype(np.float64)
                    vf = vfe[:cd]
                M = Kf[lo:hi] @ vfe
                tiers["float64"] += 1
            elif bound < I64_HEADROOM and K64 is not None and not big:
                M = K64[lo:hi] @ ve
                tiers["int64"] += 1
            else:
                to_python_ints()
                M = Kobj[lo:hi].dot(ve)
                tiers["python"] += 1
            wrong = M <= 0
            f = int(wrong.argmax())
            j = f // c if wrong[f] else length
            if recording:
                Mr = M[:(j + 1) * c] if M.dtype != np.float64 else M[:(j + 1) * c].astype(np.int64)
                Mr = Mr.reshape(-1, c)
                # g_i - max_{j != i} g_j: the smallest margin over the rivals (the own row left out)
                margins = np.where(own_mask[i:i + len(Mr)], bound + 1, Mr).min(axis=1)
                if j:
                    records.append(("pass", k + 1, i, margins[:j]))
            if j < length:  # the rival: the smallest G_i - G_j (the largest g_j; the first j on a tie); the own
                # row's 1 is above that smallest margin, which is <= 0
                ri = int(M[j * c:(j + 1) * c].argmin())
        else:
            if bound < F64_EXACT and W.m_v < F64_EXACT and Yf is not None and not big:
                if vfe is None:
                    vfe = ve.astype(np.float64)
                    vf = vfe[:cd]
                G = Yf[i:i + length] @ vf.reshape(c, d).T
                tiers["float64"] += 1
            elif bound < I64_HEADROOM and Y64 is not None and not big:
                G = Y64[i:i + length] @ v.reshape(c, d).T
                tiers["int64"] += 1
            else:
                to_python_ints()
                G = Yobj[i:i + length].dot(v.reshape(c, d).T)
                tiers["python"] += 1
            # the own scores G_i (flat positions in the contiguous block of scores), then the sentinel in their place:
            # the largest remaining score is the rival's
            idx = own_flat[i:i + length] - i * c
            own = G.take(idx)
            G.put(idx, -(bound + 1))
            rv = G.max(axis=1)
            wrong = own <= rv
            j = int(wrong.argmax())
            if not wrong[j]:
                j = length
            if recording:
                if G.dtype == np.float64:  # exact integers below 2^53 in magnitude: their difference in int64
                    margins = own[:j + 1].astype(np.int64) - rv[:j + 1].astype(np.int64)
                else:
                    margins = own[:j + 1] - rv[:j + 1]
                if j:
                    records.append(("pass", k + 1, i, margins[:j]))
        k += j
        clean += j
        if j == length:
            if block < 8192:
                block *= 2
            if clean >= n:
                return done("converged", (k - 1) // n + 1)
            if timed and k % 4096 == 0 and bounds.out_of_time():
                return done("time_limit", (k - 1) // n + 1)
            continue
        # a mistake: sample ii (class ci) at round k, against the rival class ri
        block = max(16, min(8192, 2 * (j + 1)))
        ii = i + j
        ci = labels_list[ii]
        if not kes:
            ri = int(G[j].argmax())  # the first largest g_j, j != i (the sentinel is below all)
        k += 1
        epoch = (k - 1) // n + 1
        score = margins[j] if recording else None
        W.m_v += m_Y
        if not big and W.m_v >= I64_HEADROOM:
            to_python_ints()
        V = v.reshape(c, d)  # a view: the update changes v
        if big:
            y_s = Yobj[ii]
            V[ci] += y_s
            V[ri] -= y_s
        else:
            y_s = Y64[ii]
            V[ci] += y_s
            V[ri] -= y_s
            if vf is not None:
                if W.m_v < F64_EXACT >> 1:
                    Vf = vf.reshape(c, d)
                    y_s = Yf[ii]
                    Vf[ci] += y_s
                    Vf[ri] -= y_s
                else:
                    vfe = vf = None
        updates += 1
        last_k = k
        update_indices.append(ii)
        pairs.append((ii, ri))
        clean = 0
        if recording:
            records.append(("update", k, ii, score, v.copy() if k * cd <= _loop.TRACE_VECTOR_LIMIT else None))
        if (p_eta * W.m_v).bit_length() > max_bits or bits_next > max_bits:
            b = W.bits_above(max_bits)
            if b > max_bits:
                max_bits = b
                if max_bits_bound is not None and b > max_bits_bound:
                    return done("bit_limit", epoch)
        period = cycles.observe(((tuple(v.tolist()) if big else v.tobytes()), k % n))
        if period is not None:
            return done("cycle", epoch, update_indices[-period:])
        if max_updates is not None and updates >= max_updates:
            return done("max_updates", epoch)
        if timed and k % 4096 == 0 and bounds.out_of_time():
            return done("time_limit", epoch)


def undefined_samples(Y, W) -> list[int] | None:
    """The samples s whose largest score <w_j, y_s> is tied (the linear machine's decision is undefined there),
    in integers: with y = Y'/A and w_j = S_j/B (integers), <w_j, y_s> = <S_j, Y'_s> / (A B), a positive factor,
    so the ties are those of the integer scores (int64 when d max|Y'| max|S| < 2^62, else Python integers).
    ``None`` when the kernel is switched off (the caller decides in Fractions).

    >>> undefined_samples([(Fraction(1, 2), 0), (0, 0)], [(1, 0), (Fraction(1, 3), 1)])
    [1]
    """
    if not _fast.ENABLED or not len(Y):
        return None
    shape = getattr(Y, "shape", None)
    d = shape[1] if shape is not None else len(Y[0])
    _, Yl, _ = integer_scaling(Y, [0] * d, Fraction(1))
    _, S = integer_scaling(W, [0] * d, Fraction(1))[:2]
    Y64, m_Y = _as_int64(Yl)
    S64, m_S = _as_int64(S)
    if Y64 is not None and S64 is not None and d * m_Y * m_S < I64_HEADROOM:
        G = Y64 @ S64.T
    else:
        G = np.array(Yl.tolist() if isinstance(Yl, np.ndarray) else Yl, dtype=object).dot(
            np.array(S.tolist() if isinstance(S, np.ndarray) else S, dtype=object).T)
    top = G.max(axis=1)
    return [int(s) for s in np.flatnonzero((G == top[:, None]).sum(axis=1) != 1)]
