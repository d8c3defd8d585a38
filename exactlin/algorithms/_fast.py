"""What the integer kernels not yet on the engine still share (transitional).

The perceptron's integer loop that lived here is gone: every single-sample rule of the perceptron family runs
the ONE cyclic loop :func:`exactlin.engine.cyclic.cyclic` over a representation of :mod:`exactlin.engine.arith`
(its integer representation holds the exactness argument that was written here), and the integer checks of the
results (``separates``, ``above``, the convergence monitor's replay) are verifiers in
:mod:`exactlin.theory.replay`.  What remains -- the scaling of the samples to integers, the weights v with their
bit counts, the trace builder -- is used by the batch kernel (``_fast_batch``) until it moves onto the engine's
batch loop; this module goes with it.  ``ENABLED`` switches that kernel off (its tests compare it with the
readable loop); it goes with it too.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from exactlin.engine.trace import Tracer
from exactlin.exact.rows import I64_HEADROOM, ExactRows
from exactlin.theory.replay import above, release, replay_monitor, separates
from exactlin.theory.replay import monitor_ints as _monitor_ints  # noqa: F401  (read by _fast_batch)

__all__ = ["ENABLED", "integer_scaling", "replay_monitor", "separates", "above"]

#: set to False to send the remaining kernels' runs through their reference loops (their tests compare the two)
ENABLED = True
_release = release  # read by _fast_batch


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
