"""Fast exact paths: the perceptron's cyclic pass in integer arithmetic, and an independent
integer replay of its convergence monitor.

The readable reference is :func:`exactlin.algorithms._loop.cyclic_single_sample` run with the
Fraction rule of :mod:`exactlin.algorithms.perceptron`.  The function :func:`perceptron_loop`
below returns the *same* :class:`~exactlin.algorithms._loop.LoopResult` (w, converged, reason,
updates, epochs, steps, the list of mistakes, the cycle, max_bits) and records the same
trace steps, but it computes on integers.  Why that is exact:

**1. Scaling to integers (always applies: every input is rational).**
Let the normalized samples be z_i (rationals), the start w_1, the step eta = p/q > 0.
Let L be the least positive integer with L z_ij and L w_1j / eta integers for all i, j
(the lcm of the denominators of those numbers).  Put Z'_i = L z_i (integer vectors) and
v_t = (L / eta) w_t.  Then v_1 is an integer vector, and on a mistake

    v_{t+1} = (L / eta)(w_t + eta z_i) = v_t + Z'_i,

so every v_t is an integer vector (induction), and the test has the same sign:

    <w_t, z_i> = (eta / L^2) <v_t, Z'_i>,   with eta / L^2 > 0,

so "<w_t, z_i> <= 0" iff "<v_t, Z'_i> <= 0" (and the same for "< 0").  With a margin b >= 0
(seed 003's Algorithm 5, the test "<w_t, z_i> <= b"):  <w_t, z_i> <= b  iff  <v_t, Z'_i> <= T with
T = b L^2 / eta >= 0, and since <v_t, Z'_i> is an integer that is  <v_t, Z'_i> <= floor(T)  (an integer
threshold t).  A tier below never sees |<v_t, Z'_i>| reach its limit M (2^53 or 2^62, point 2), so there
"<= t" and "<= min(t, M)" agree for every score, and min(t, M) is exactly a float64 and an int64 number.
The runs therefore visit the same samples, make the same mistakes in the same order and stop at the same
step; w_t = (eta / L) v_t recovers the exact weights.  With w_1 = 0 and eta = 1 this is the
scale-equivariance of the perceptron (scaling every sample by L scales every iterate by L);
a start w_1 != 0 is scaled with the samples, and eta is factored out, so no case is excluded.
The map v -> w is a bijection, so the states (v, position) repeat exactly when the states
(w, position) do: the cycle detection sees the same first repeat.

**2. Which machine integers compute <v, Z'_i> exactly** (checked before every block of scores,
with m_v >= max_j |v_j| an upper bound kept exactly and m_Z = max |Z'_ij|):

* d m_Z m_v < 2^53: float64 (BLAS).  Every product and every partial sum of the dot product is
  an integer of magnitude <= d m_Z m_v < 2^53, and such integers are float64 numbers, so
  every rounding is exact (any summation order, with or without FMA);
* d m_Z m_v < 2^62: numpy int64 (no product or partial sum can overflow);
* otherwise: Python integers (numpy object arrays), unbounded.

The weights v themselves are kept in int64 while m_v + m_Z < 2^62, else as Python ints.

**3. Chunked scan, same order.**  From position i the scores of the next block of samples
i, i+1, ... (never past the end of the data) are computed with the current v; the first
mistake j of the block is the next mistake of the cyclic pass, because every sample before
it was tested with the same v and passed.  The update is applied there and the scan goes on
from j + 1.  Blocks grow while they are clean and shrink after a mistake; their size never
changes which samples are tested with which v.

The trace: while the :class:`~exactlin.algorithms._loop.Tracer` still records (its default
limit of steps), every step of the prefix is recorded with its exact Fraction score and (while
the tracer keeps vectors) Fraction weight vectors, as the reference does; ``trace=True``
(every step) is left to the reference loop.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from exactlin.algorithms import _loop
from exactlin.algorithms._loop import TRACE_STEP_LIMIT, CycleDetector, LoopResult, Tracer
from exactlin.errors import ParameterError
from exactlin.exact.rows import F64_EXACT, I64_HEADROOM, ExactRows
from exactlin.model.run import LazySteps

__all__ = ["ENABLED", "perceptron_loop", "integer_scaling", "replay_monitor", "separates", "above"]

#: set to False to send every run through the reference loop (tests compare the two)
ENABLED = True
#: blocks of scores computed in each tier by the last fast run (for the tests and the benchmarks)
LAST_TIERS: dict[str, int] = {}

# The integer kernel bounds its int64 values by I64_HEADROOM (2**62, not 2**63): a score or weight proven
# below it may take one more int64 addition (w + z) before the next check.  float64 tiers use F64_EXACT.


def integer_scaling(Z, w1, eta):
    """L, the integer samples Z' = L z and v_1 = (L / eta) w_1 (a list of int).

    Z' is an int64 array when its entries fit, else a list of lists of Python ints.

    >>> L, Zi, v1 = integer_scaling([(Fraction(1, 2), 1)], (0, 0), Fraction(1))
    >>> L, Zi.tolist(), v1
    (2, [[1, 2]], [0, 0])
    """
    eta = Fraction(eta)
    if isinstance(Z, ExactRows) and not any(w1):  # w_1 = 0: L = den, v_1 = 0
        return Z.den, Z.num, [0] * Z.shape[1]
    u1 = [Fraction(a) / eta for a in w1]
    if isinstance(Z, ExactRows):  # integers over a common denominator already: Z' = (L / den) num
        L = math.lcm(Z.den, *(q.denominator for q in u1))
        Zi = Z.scaled_to(L)
        if Zi.dtype == object:
            Zi = Zi.tolist()
        return L, Zi, [q.numerator * (L // q.denominator) for q in u1]
    n, d = len(Z), len(Z[0])
    # Fraction's private slots, kept on purpose (issue 22 measured the public properties): .numerator and
    # .denominator cost a Python call per entry (integer_scaling on 2,000 x 11 Fraction rows: 1.9 ms -> 3.2 ms),
    # and they would let other rationals past the AttributeError below (python-flint's fmpq.numerator is an
    # fmpz, not an int), where the slots send every non-Fraction entry to the exact as_integer_ratio path.
    try:
        den_flat = [q._denominator for row in Z for q in row]
        flat = [q._numerator for row in Z for q in row]
    except AttributeError:  # ints or other rationals among the entries
        pairs = [Fraction(q).as_integer_ratio() for row in Z for q in row]
        den_flat = [b for _, b in pairs]
        flat = [a for a, _ in pairs]
    dens = set(den_flat)
    L = math.lcm(*dens, *(q.denominator for q in u1))
    if dens != {1}:  # Z' = L z entry by entry
        mult = {b: L // b for b in dens}
        flat = [a * mult[b] for a, b in zip(flat, den_flat)]
    elif L != 1:
        flat = [a * L for a in flat]
    try:
        Zi = np.array(flat, dtype=np.int64).reshape(n, d)
    except OverflowError:
        Zi = [flat[r * d:(r + 1) * d] for r in range(n)]
    v1 = [q.numerator * (L // q.denominator) for q in u1]
    return L, Zi, v1


def _max_abs(rows) -> int:
    m = 0
    for r in rows:
        for a in r:
            if a > m:
                m = a
            elif -a > m:
                m = -a
    return m


def _as_int64(Zi):
    """(Z' as an int64 array or None, max |Z'_ij|)."""
    if isinstance(Zi, np.ndarray) and Zi.dtype == np.int64:
        arr = Zi
    else:
        try:
            arr = np.array(Zi, dtype=np.int64)
        except OverflowError:
            return None, _max_abs(Zi)
    if not arr.size:
        return arr, 0
    lo, hi = int(arr.min()), int(arr.max())
    if lo <= -I64_HEADROOM or hi >= I64_HEADROOM:
        return None, max(-lo, hi)
    return arr, max(-lo, hi)


class _Weights:
    """The integer weights v and the exact conversions back to the Fraction weights w = (eta / L) v."""

    def __init__(self, v1, eta: Fraction, L: int):
        self.p, self.q = eta.numerator, eta.denominator * L  # w = p v / q, p and q coprime up to L
        self.L, self.eta = L, eta
        if not any(v1):  # the usual start w_1 = 0
            self.m_v, self.v = 0, np.zeros(len(v1), dtype=np.int64)
        else:
            self.m_v = _max_abs([v1])  # an upper bound on max |v_j|, exact after exact_max()
            self.v = np.array(v1, dtype=np.int64) if self.m_v < I64_HEADROOM else np.array(v1, dtype=object)

    def fractions(self) -> tuple:
        p, q = self.p, self.q
        if p == 1 and q == 1:
            return tuple(Fraction(a) for a in self.v.tolist())
        return tuple(Fraction(p * a, q) for a in self.v.tolist())

    def score(self, s) -> Fraction:
        """<w, z_i> from s = <v, Z'_i>:  (eta / L^2) s."""
        if self.p == 1 and self.q == 1:
            return Fraction(int(s))
        return Fraction(self.eta.numerator * int(s), self.eta.denominator * self.L * self.L)

    def exact_max(self) -> int:
        self.m_v = int(np.abs(self.v).max()) if self.v.size else 0
        return self.m_v

    def bits_upper(self) -> int:
        """An upper bound on bits(w): a reduced numerator divides p v_j, a reduced denominator divides q."""
        return max((self.p * self.m_v).bit_length(), self.q.bit_length(), 1)

    def bits(self) -> int:
        """``exactlin.algorithms._loop._bits(w)``, computed from v: the largest bit length of a reduced
        numerator or denominator of an entry of w = p v / q."""
        p, q = self.p, self.q
        m = self.exact_max()
        if q == 1:
            return max((p * m).bit_length(), 1)
        if p * m < I64_HEADROOM and q < I64_HEADROOM and self.v.dtype != object:
            num = p * self.v
            g = np.gcd(num, q)
            return max(int(np.abs(num // g).max()).bit_length(), int((q // g).max()).bit_length(), 1)
        out = 1
        for a in self.v.tolist():
            g = math.gcd(p * a, q)
            out = max(out, abs(p * a // g).bit_length(), (q // g).bit_length())
        return out

    def bits_above(self, current: int) -> int:
        """``max(current, bits())``, looking only at the entries that could exceed ``current``.

        A reduced numerator of p v_j / q has at most bitlen(p |v_j|) bits and a reduced denominator at most
        bitlen(q); so when bitlen(q) <= current, only entries with p |v_j| >= 2**current can raise the
        maximum, and only their gcds are computed (usually a few entries, not all d).
        """
        p, q = self.p, self.q
        m = self.exact_max()
        if max((p * m).bit_length(), q.bit_length()) <= current:
            return current
        if q == 1 or q.bit_length() > current:
            return max(current, self.bits())
        thr = 1 << current  # < 2**62 here: p m >= 2**current and p m < 2**62 on the int64 branch
        if self.v.dtype != object and p * m < I64_HEADROOM:
            vals = self.v[np.abs(self.v) * p >= thr].tolist()
        else:
            vals = [a for a in self.v.tolist() if abs(p * a) >= thr]
        if not vals:
            return current
        # the gcds of the candidates in int64, as bits() does for all entries
        if p * m < I64_HEADROOM and q < I64_HEADROOM:
            num = p * np.array(vals, dtype=np.int64)
            g = np.gcd(num, q)
            return max(current, int(np.abs(num // g).max()).bit_length(), int((q // g).max()).bit_length())
        out = current
        for a in vals:
            g = math.gcd(p * a, q)
            out = max(out, abs(p * a // g).bit_length(), (q // g).bit_length())
        return out


def perceptron_loop(Z, w1, eta, strict: bool, bounds, tracer, *, on_mistake=None, margin=0, stop="n-clean"):
    """The perceptron's cyclic pass on the normalized samples ``Z`` in integer arithmetic.

    Same contract as ``cyclic_single_sample(len(Z), w1, test, update, bounds, tracer, stationary=True)``
    with the perceptron's Fraction test (``<w, z_i> <= 0``, or ``< 0`` when ``strict``) and update
    (``w + eta z_i``); ``on_mistake(k, i, True, w_before, w_after)`` is called at every mistake with
    Fraction vectors (the perceptron's online monitor ignores the other steps).  ``margin`` b >= 0 makes the
    test ``<w, z_i> <= b`` (seed 003's Algorithm 5; not with ``strict``); ``bounds.max_steps`` is honoured
    as the reference does (reason ``max_steps``), and so is ``stop`` (``"n-clean"`` or ``"clean-epoch"``, the
    clean stop of the reference: blocks never cross the end of the data, so an epoch ends with a block and
    its test "no update since round k - n" is the reference's).  Returns ``None`` when
    the fast path is switched off or ``trace=True`` (every step recorded: the reference does that).
    See the module docstring for why the result is identical.

    >>> from exactlin.algorithms._loop import Bounds, Tracer
    >>> Z = [tuple(Fraction(a) for a in z) for z in [(4, 0), (-1, -1), (0, -1), (-2, -2)]]
    >>> r = perceptron_loop(Z, (Fraction(0), Fraction(0)), Fraction(1), False, Bounds(), Tracer(False, 2))
    >>> r.w, r.updates, r.update_indices, r.reason
    ((Fraction(1, 1), Fraction(-3, 1)), 3, [0, 1, 3], 'converged')
    """
    if not ENABLED or tracer.mode is True:
        return None
    eta = Fraction(eta)
    margin = Fraction(margin)
    if margin < 0 or (margin and strict) or eta <= 0:
        return None
    L, Zl, v1 = integer_scaling(Z, w1, eta)
    return integer_loop(Zl, v1, eta, L, strict, bounds, tracer, on_mistake=on_mistake, margin=margin, stop=stop)


def integer_loop(Zl, v1, eta: Fraction, L: int, strict: bool, bounds, tracer, *, on_mistake=None, margin=0,
                 stop="n-clean"):
    """The loop of :func:`perceptron_loop` on integer samples ``Zl`` = L z (a list of lists of int or an
    int64 array) from v_1 = (L / eta) w_1; the weights it returns are w = (eta / L) v, as Fractions."""
    if stop not in _loop.STOP_CHOICES:
        raise ParameterError(f"stop must be one of {', '.join(_loop.STOP_CHOICES)}, got {stop!r}",
                                   parameter="stop")
    epoch_stop = stop == "clean-epoch"
    n = len(Zl)
    d = len(Zl[0])
    Z64, m_Z = _as_int64(Zl)
    Zf = Z64.astype(np.float64) if Z64 is not None and m_Z < F64_EXACT else None
    Zobj = None  # built when the Python-integer tier is first needed
    W = _Weights(v1, eta, L)
    v = W.v
    big = v.dtype == object
    vf = None  # v as float64, kept while its entries are integers below 2^52
    dm = d * m_Z
    tiers = LAST_TIERS
    tiers.clear()
    tiers.update(float64=0, int64=0, python=0)
    rec_limit = TRACE_STEP_LIMIT if tracer.mode is None else 0  # mode False: nothing is recorded

    max_epochs = bounds.max_epochs
    k_max = max_epochs * n
    max_steps = bounds.max_steps
    # the integer threshold t = floor(b L^2 / eta) of the test <v, Z'_i> <= t (module docstring, point 1),
    # and its clamps to the float64 and int64 tiers
    margin = Fraction(margin)
    thr = (margin * L * L / eta).__floor__() if margin else 0
    thr_f, thr_i = float(min(thr, F64_EXACT)), min(thr, I64_HEADROOM)
    timed = bounds.max_seconds is not None
    max_updates = bounds.max_updates
    max_bits_bound = bounds.max_bits
    p_eta = W.p

    k = 0
    updates = 0
    last_k = 0  # the round of the last mistake
    clean = 0
    update_indices: list[int] = []
    max_bits = W.bits()
    bits_next = max(W.q.bit_length(), 1)  # bits(w) <= max(bits(p m_v), bits(q)) (module docstring)
    # exact cycle detection, as the reference: a table of the states (v, next position) after updates
    # (the start included) while it is small, then Brent's method
    cycles = CycleDetector(((tuple(v.tolist()) if big else v.tobytes()), 0))

    def to_python_ints():
        nonlocal Zobj, big, v, vf
        if Zobj is None:
            Zobj = np.array(Zl.tolist() if isinstance(Zl, np.ndarray) else Zl, dtype=object)
        if not big:
            big = True
            v = W.v = v.astype(object)
            vf = None

            def conv(state):
                return tuple(np.frombuffer(state[0], dtype=np.int64).tolist()), state[1]

            cycles.remap(conv)

    # the recorded prefix, compactly: ("pass", k0, i0, scores) for rounds k0, k0+1, ... without an update,
    # ("update", k, i, score, v after or None); the Step records are built from these when first read
    records: list[tuple] = []
    v_start = v.copy()

    def done(reason, epochs, cycle=None):
        if tracer.mode is None and k > rec_limit:
            tracer.complete = False
        if rec_limit:
            tracer.steps = LazySteps(min(k, rec_limit), lambda: _build_trace(records, v_start, W, n, d, tracer.mode))
        return LoopResult(W.fractions(), reason == "converged", reason, updates, epochs, k, update_indices, cycle,
                          max_bits, last_k, k if cycle is not None else None)

    block = 64
    ticking = bounds.progress is not None
    ticked = 0  # rounds already counted for the progress callback (records once per PROGRESS_EVERY rounds)

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
        length = min(n - i, n if epoch_stop else n - clean, k_max - k, block)
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
        if bound < F64_EXACT and W.m_v < F64_EXACT and Zf is not None and not big:
            if vf is None:
                vf = v.astype(np.float64)
            s = Zf[i:i + length] @ vf
            t = thr_f
            tiers["float64"] += 1
        elif bound < I64_HEADROOM and Z64 is not None and not big:
            s = Z64[i:i + length] @ v
            t = thr_i
            tiers["int64"] += 1
        else:
            to_python_ints()
            s = Zobj[i:i + length].dot(v)
            t = thr
            tiers["python"] += 1
        wrong = (s < 0) if strict else (s <= t)
        j = int(wrong.argmax())
        if not wrong[j]:
            j = length  # no mistake in this block
        if recording and j:
            records.append(("pass", k + 1, i, s[:j].copy()))
        k += j
        clean += j
        if j == length:  # the whole block passed
            if block < 8192:
                block *= 2
            if (k % n == 0 and last_k <= k - n) if epoch_stop else clean >= n:
                return done("converged", (k - 1) // n + 1)
            if timed and k % 4096 == 0 and bounds.out_of_time():
                return done("time_limit", (k - 1) // n + 1)
            continue
        # a mistake: sample ii at round k
        block = max(16, min(8192, 2 * (j + 1)))
        ii = i + j
        k += 1
        epoch = (k - 1) // n + 1
        w_before = W.fractions() if on_mistake is not None else None
        score = s[j] if recording else None
        # the update v <- v + Z'_i: in int64 only while it provably fits, in float64 while below 2^52
        W.m_v += m_Z
        if not big and W.m_v >= I64_HEADROOM:
            to_python_ints()
        if big:
            v = W.v = v + Zobj[ii]
        else:
            v += Z64[ii]
            if vf is not None:
                if W.m_v < F64_EXACT >> 1:
                    vf += Zf[ii]
                else:
                    vf = None
        updates += 1
        last_k = k
        update_indices.append(ii)
        clean = 0
        w_after = W.fractions() if on_mistake is not None else None
        if recording:  # the weights after the update are kept while the trace keeps vectors (k d <= limit)
            records.append(("update", k, ii, score, v.copy() if k * d <= _loop.TRACE_VECTOR_LIMIT else None))
        if on_mistake is not None:
            on_mistake(k, ii, True, w_before, w_after)
        if (p_eta * W.m_v).bit_length() > max_bits or bits_next > max_bits:
            # bits can only have grown past max_bits if their upper bound did
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


def _build_trace(records, v_start, W, n: int, d: int, mode) -> list:
    """The Step records of the recorded prefix, from the loop's compact records: the same steps, in the
    same order, through a fresh Tracer (so the policy of what is kept -- vectors while k d stays below
    the limit -- is the Tracer's own), with exact Fraction scores <w, z_i> = (eta / L^2) s and weights
    w = (eta / L) v."""
    tracer = Tracer(mode, d)
    p, q = W.p, W.q
    e_num, e_den = W.eta.numerator, W.eta.denominator * W.L * W.L
    unit = p == 1 and q == 1

    def frac(arr) -> tuple:
        vals = arr.tolist()
        return tuple(Fraction(a) for a in vals) if unit else tuple(Fraction(p * a, q) for a in vals)

    def score(x) -> Fraction:
        return Fraction(int(x)) if unit else Fraction(e_num * int(x), e_den)

    wf = frac(v_start) if tracer.keep_vectors() else None
    for rec in records:
        if rec[0] == "pass":
            _, k0, i0, scores = rec
            for jj, sc in enumerate(scores.tolist()):
                kk = k0 + jj
                tracer.add(kk, (kk - 1) // n + 1, i0 + jj, score(sc), False, wf, wf)
        else:
            _, k, i, sc, v_after = rec
            wa = frac(v_after) if v_after is not None else None
            tracer.add(k, (k - 1) // n + 1, i, score(sc), True, wf, wa)
            wf = wa
    return tracer.steps


# ---------------------------------------------------------------------------------------------------------
# The convergence monitor's replay in integers.
#
# A verifier: this section shares no code with the loop above (its own scaling, its own replay from the
# list of mistakes, its own inner products), so a slip in the fast loop cannot hide here.  It computes the
# same MonitorReport as ``perceptron.monitor_run``'s Fraction replay through ConvergenceMonitor:
#
#   z_i = Zs_i / A,  w* = s / B,  w_t = V_t / Q  with  V_t = Q w_1 + c S_t,  S_t = sum of Zs over the
#   first t - 1 mistakes,  c = Q eta / A  (A, B, Q positive integers making Zs, s, V_t, c integers),
#
# so <w_t, w*> = <V_t, s> / (Q B),  ||w_t||^2 = ||V_t||^2 / Q^2,  <w*, z_i> = <s, Zs_i> / (B A),
# ||z_i||^2 = ||Zs_i||^2 / A^2.  Fact 1 at every mistake is one comparison with the smallest increment of
# <V_t, s>, Fact 2 one with the largest increment of ||V_t||^2 (the right-hand sides are constants), and
# the quadratic mistake bound, a convex function of K on the K where a + K eta gamma >= 0, holds for every
# K in 1..K_final iff it holds at both ends of that range.  On any failure, or when a quantity could leave
# int64, it returns None and the reference replay runs (and raises its own error).

_MON_CACHE: list = []


def _monitor_ints(Z):
    """(A, Zs) with Zs = A z an int64 array, or None when it does not fit; cached for one monitor_run."""
    if _MON_CACHE and _MON_CACHE[0] is Z:
        return _MON_CACHE[1]
    if isinstance(Z, ExactRows):  # z = num / den, num int64 with entries > -2**63
        return Z.den, Z.num
    try:  # Fraction and int both have as_integer_ratio
        ratios = [[q.as_integer_ratio() for q in row] for row in Z]
    except AttributeError:
        ratios = [[Fraction(q).as_integer_ratio() for q in row] for row in Z]
    A = math.lcm(*{b for row in ratios for _, b in row})
    rows = [[a * (A // b) for a, b in row] for row in ratios] if A != 1 else [[a for a, _ in row] for row in ratios]
    try:
        Zs = np.array(rows, dtype=np.int64)
    except OverflowError:
        Zs = None
    fits = Zs is not None and not (Zs.size and (int(Zs.min()) <= -I64_HEADROOM or int(Zs.max()) >= I64_HEADROOM))
    out = (A, Zs) if fits else None
    _MON_CACHE[:] = [Z, out]
    return out


def _release():
    _MON_CACHE.clear()


def _scale_vector(w):
    """(B, s) with w = s / B, s a list of Python ints."""
    w = [a if type(a) is Fraction else Fraction(a) for a in w]
    B = math.lcm(*(a.denominator for a in w)) if w else 1
    return B, [a.numerator * (B // a.denominator) for a in w]


def separates(w, Z) -> bool:
    """Exactly: does <w, z> > 0 hold for every sample z of ``Z``?  (Integer arithmetic when it fits.)

    >>> separates((1, -3), [(4, 0), (-1, -1), (0, -1), (-2, -2)])
    True
    """
    ints = _monitor_ints(Z) if ENABLED else None
    B, s = _scale_vector(w)
    if ints is not None:
        A, Zs = ints
        m_s = max((abs(a) for a in s), default=0)
        m_Z = int(np.abs(Zs).max()) if Zs.size else 0
        if m_s < I64_HEADROOM and len(s) * m_s * m_Z < I64_HEADROOM:  # m_s alone too: m_Z may be 0
            ok = bool((Zs @ np.array(s, dtype=np.int64) > 0).all())
        else:
            ok = bool((Zs.astype(object).dot(np.array(s, dtype=object)) > 0).all())
    else:
        ok = all(sum((a * Fraction(b) for a, b in zip(w, z)), Fraction(0)) > 0 for z in Z)
    if not ok:
        _release()
    return ok


def above(w, Z, b=0) -> bool:
    """Exactly: does <w, z> > b hold for every sample z of ``Z``?  (b rational.)  With z = Zs / A and
    w = s / B (Zs, s integers), <w, z> > b iff <s, Zs> > b A B iff <s, Zs> > floor(b A B), an integer
    comparison; in int64 when d max|s| max|Zs| < 2^62 (then |<s, Zs>| < 2^62, and the threshold is clamped to
    [-2^62, 2^62] without changing any comparison), else in Python integers.  Leaves no cache behind.

    >>> Z = [(4, 0), (-1, -1), (0, -1), (-2, -2)]  # scores 4, 2, 3, 4
    >>> above((1, -3), Z, 1), above((1, -3), Z, 2), above((1, -3), Z, Fraction(19, 10))
    (True, False, True)
    """
    b = Fraction(b)
    cached = bool(_MON_CACHE) and _MON_CACHE[0] is Z
    ints = _monitor_ints(Z) if ENABLED and len(Z) else None
    if not cached:
        _release()
    if ints is None:
        return all(sum((Fraction(a) * Fraction(c) for a, c in zip(w, z)), Fraction(0)) > b for z in Z)
    A, Zs = ints
    B, s = _scale_vector(w)
    t = (b * A * B).__floor__()
    m_s = max((abs(a) for a in s), default=0)
    m_Z = int(np.abs(Zs).max()) if Zs.size else 0
    if m_s < I64_HEADROOM and len(s) * m_s * m_Z < I64_HEADROOM:  # m_s alone too: when every z is 0, m_Z = 0
        return bool((Zs @ np.array(s, dtype=np.int64) > max(-I64_HEADROOM, min(t, I64_HEADROOM))).all())
    return bool((Zs.astype(object).dot(np.array(s, dtype=object)) > t).all())


def replay_monitor(Z, w_star, *, eta, w1, indices, final_w, source):
    """The MonitorReport of the Fraction replay in ``perceptron.monitor_run``, or None where that replay
    must run instead (a check fails there with its own message, or a number would leave int64)."""
    if not ENABLED:
        return None
    try:
        return _replay_monitor(Z, w_star, eta, w1, indices, final_w, source)
    finally:
        _release()


def _replay_monitor(Z, w_star, eta, w1, indices, final_w, source):
    from exactlin.theory.monitor import ConvergenceMonitor

    ints = _monitor_ints(Z)
    if ints is None or not Z:
        return None
    A, Zs = ints
    n, d = Zs.shape
    eta = Fraction(eta)
    w_star = tuple(v if type(v) is Fraction else Fraction(v) for v in w_star)
    w1 = tuple(v if type(v) is Fraction else Fraction(v) for v in (w1 if w1 is not None else [0] * d))
    if len(w_star) != d or len(w1) != d or eta <= 0:
        return None
    B, s = _scale_vector(w_star)
    e = eta / A
    Q = math.lcm(e.denominator, *(a.denominator for a in w1))
    c = Q * e.numerator // e.denominator
    U1 = [a.numerator * (Q // a.denominator) for a in w1]
    K = len(indices)
    m_Z = int(np.abs(Zs).max()) if Zs.size else 0
    m_s = max((abs(a) for a in s), default=0)
    m_V = max((abs(a) for a in U1), default=0) + c * K * m_Z  # |V_t| <= |V_1| + c t m_Z
    if max(m_s, d * m_s * m_Z, d * m_Z * m_Z, m_V, d * m_V * m_V, d * m_V * m_s) >= I64_HEADROOM:
        return None
    s64 = np.array(s, dtype=np.int64)
    margins = Zs @ s64  # B A <w*, z_i>
    g_int = int(margins.min())
    if g_int <= 0:
        return None  # not a separator: ConvergenceMonitor raises
    R_int = int(np.einsum("ij,ij->i", Zs, Zs).max())  # A^2 R^2
    # V_t for t = 1..K+1, in chunks (the iterates are never all held at once)
    idx = np.asarray(indices, dtype=np.int64)
    V = np.array(U1, dtype=np.int64)
    P_prev = int(V @ s64)
    N_prev = int(V @ V)
    P_list, N_list = [P_prev], [N_prev]
    dP_min = dN_max = None
    for start in range(0, K, 4096):
        Vs = V + c * np.cumsum(Zs[idx[start:start + 4096]], axis=0)
        P = Vs @ s64
        N = np.einsum("ij,ij->i", Vs, Vs)
        dP = np.diff(P, prepend=P_prev)
        dN = np.diff(N, prepend=N_prev)
        lo, hi = int(dP.min()), int(dN.max())
        dP_min = lo if dP_min is None else min(dP_min, lo)
        dN_max = hi if dN_max is None else max(dN_max, hi)
        if len(P_list) <= ConvergenceMonitor.ROW_LIMIT:
            P_list.extend(P.tolist())
            N_list.extend(N.tolist())
        V = Vs[-1]
        P_prev, N_prev = int(P[-1]), int(N[-1])
    # the final w
    # the final w: V / Q == final_w, compared in integers (final_w_j = p / q equals V_j / Q iff q divides Q
    # and V_j = p Q / q, Fractions being in lowest terms)
    for a, q in zip(V.tolist(), final_w):
        q = Fraction(q)
        if Q % q.denominator or a != q.numerator * (Q // q.denominator):
            return None
    g = Fraction(g_int, B * A)
    R2 = Fraction(R_int, A * A)
    if K:
        # Fact 1: (P_{t+1} - P_t) / (Q B) >= eta g  for every t;  Fact 2: (N_{t+1} - N_t) / Q^2 <= eta^2 R2
        if Fraction(dP_min, Q * B) < eta * g or Fraction(dN_max, Q * Q) > eta * eta * R2:
            return None
    mon = ConvergenceMonitor.__new__(ConvergenceMonitor)
    mon.w_star, mon.gamma_min, mon.R2 = w_star, g, R2
    mon.nw2 = Fraction(sum(a * a for a in s), B * B)
    mon.eta, mon.w1, mon.source = eta, w1, source
    # <w_1, w*> = <U_1, s> / (Q B) and ||w_1||^2 = ||U_1||^2 / Q^2, in Python integers
    mon.a = Fraction(sum(a * b for a, b in zip(U1, s)), Q * B)
    mon.w12 = w12 = Fraction(sum(a * a for a in U1), Q * Q)
    # the quadratic bound at both ends of the K where a + K eta g >= 0 (convexity)
    if K:
        K0 = 1 if mon.a >= 0 else max(1, math.ceil(-mon.a / (eta * g)))
        if K0 <= K and not (mon._quadratic_holds(K0) and mon._quadratic_holds(K)):
            return None
    step_p, step_n = eta * g, eta * eta * R2
    QB, QQ = Q * B, Q * Q
    a0 = mon.a

    def build_rows():  # the per-mistake rows, as exact Fractions, when the report is first read
        return [{"t": t, "K": t, "proj": Fraction(P_list[t], QB), "proj_lower": a0 + t * step_p,
                 "norm2": Fraction(N_list[t], QQ), "norm2_upper": w12 + t * step_n}
                for t in range(1, min(K, ConvergenceMonitor.ROW_LIMIT) + 1)]

    mon.rows = LazySteps(min(K, ConvergenceMonitor.ROW_LIMIT), build_rows)
    mon.K = K
    return mon.report()
