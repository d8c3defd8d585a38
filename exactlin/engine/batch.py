"""The ONE batch loop: a(k+1) = a(k) + sum_{j in Y_k} c_j z_j, k = 1, 2, ..., over the arithmetic protocol.

Seed 003's Algorithm 3 (batch perceptron) and Algorithm 8 (batch relaxation), seed 001's batch PLA and seed 002's
gradient descent on R(w) are this loop; a rule is what the notes print for it, a :class:`BatchRule`:

* the test of Y_k, a threshold: Y_k = {j : a^t z_j <= b} (``strict``: < b) on the normalized samples z_j;
* the coefficients c_j > 0 of the samples in Y_k at iteration k (and what the trace shows of them);
* an optional criterion on the increment, ||sum_{Y_k} c_j z_j||^2 ``op`` T, the notes' do-until test.

The loop owns everything else, once: the empty Y_k (reason ``converged``), the exact repeat of a stationary
rule (reason ``cycle``, with the coefficients of one period as Gordan weights; ``stop_on_cycle=False`` keeps the
first certificate and goes on), the criterion (checked after the update, as the notes' do-until loops do; with
``criterion_first`` it is checked before the cycle's stop on the iteration that proved the repeat), every budget
(the batch budget ``max_steps`` = :func:`~exactlin.engine.trace.batch_step_limit`, ``max_epochs``,
``max_updates``, ``max_seconds``, and ``max_bits`` -- also within an iteration, on the partial increment after
every 64 corrections, so that a sum whose terms have different denominators stops before it is paid for), the
progress ticks, the trace (the step of iteration k: the score |Y_k|, ``Y`` and the ``increment``, with the rule's
information) and the history (Y_k, c) of every iteration, which the convergence monitor replays.

**Why every representation gives the same run.** The loop asks the representation only for exact facts: which
samples pass the test (``all``), whether the state repeats (``key``: equal iff a is equal), the bit length of a
(``bits_above``) and of a partial increment (``partial_bits``), and ||a(k+1) - a(k)||^2 (``delta_norm2``, an
integer numerator and denominator). Each representation proves these exact in its own module: the Fraction
reference computes them as written; the scaled integers (:mod:`exactlin.engine.arith`, with the batch sums of
:class:`BatchIntegerArith` below) on float32/float64/int64/Python integers within proven bounds; python-flint's
reduced rationals (:class:`BatchFlintArith`) as the reference's values; the relaxation's integers over one
denominator (:mod:`exactlin.engine.arith_relax`) in lowest terms. Every decision of the loop (the empty Y_k, a
repeat, a criterion, a bound) is then taken on the same exact values in the same order, so the runs are
equal field for field. The trace keeps each recorded iteration's states as the representation's snapshots; its
Steps (Fraction vectors, the increment a(k+1) - a(k), the rule's information, computed from them) are built when
the trace is first read.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from exactlin.engine import trace
from exactlin.engine.arith import Block, FractionArith, IntegerArith, fraction_bits
from exactlin.engine.arith_flint import FlintArith
from exactlin.engine.arith_int import TIER_BOUND
from exactlin.exact.rows import F64_EXACT, I64_HEADROOM

__all__ = ["BatchRule", "BatchResult", "batch_loop", "settle_at_bound", "gordan_weights", "Repeated",
           "BatchFractionArith", "BatchIntegerArith", "BatchFlintArith", "batch_arith"]


@dataclass
class BatchResult:
    a: tuple
    converged: bool
    reason: str
    iterations: int
    updates: int  # iterations that changed a
    history: list = field(default_factory=list)  # per iteration: (indices in Y_k, their coefficients)
    certificate_lambda: tuple | None = None
    cycle: list | None = None  # iterations of one period
    max_bits: int = 0
    last_update: int = 0  # the iteration of the last change of a (0: none)
    cycle_step: int | None = None  # the iteration at which the repeat was proved


class BatchRule:
    """What a batch rule is: the test of Y_k, its coefficients, its criterion.  Subclass and set:

    ``b``, ``strict``: Y_k = {j : a^t z_j <= b} (``strict``: < b);
    ``stationary``: the coefficients do not depend on k (then a repeat of a is a cycle);
    ``constant``: the one coefficient c of every correction, or None (the Gordan weights are then counts);
    ``criterion``: None or (op, T): stop when ||increment||^2 op T, op "<" or "<=";
    ``criterion_first``: the criterion decides an iteration that also proved a repeat;
    ``stop_on_empty``: an empty Y_k stops the run (``converged``); False when the rule's correction can still
    move a (a printed listing that carries its increment over iterations);
    ``criterion_before_bits``: the criterion is taken right after the update, before the bit length (a printed
    do-while's order; the partial sums' bit check is then not made either);

    and define :meth:`coefficients` (called at every iteration, Y_k empty or not), or :meth:`correction` for a
    correction over other samples than Y_k.
    """

    b: Fraction = Fraction(0)
    strict: bool = False
    stationary: bool = True
    constant: Fraction | None = None
    criterion: tuple | None = None
    criterion_first: bool = False
    stop_on_empty: bool = True
    criterion_before_bits: bool = False

    def correction(self, rep, s, idx: list, k: int, record: bool) -> tuple[list, list, dict | Callable]:
        """(the samples the increment adds, their coefficients, the trace's information): by default Y_k itself,
        with :meth:`coefficients`."""
        coefs, info = self.coefficients(rep, s, idx, k, record)
        return idx, coefs, info

    def coefficients(self, rep, s, idx: list, k: int, record: bool) -> tuple[list, dict | Callable]:
        """(the coefficients c_j of the samples ``idx`` = Y_k at iteration k, the trace's information for the
        step: a dict, or a function ``info(a, increment)`` of the step's a(k) and a(k+1) - a(k) (Fractions)
        returning it, called when the trace is read; only needed when ``record``).  ``s`` are the scores of every
        sample in ``rep``'s units.  Empty ``idx``: ([], the converged step's information, a dict)."""
        raise NotImplementedError

    def finish(self, rep) -> None:
        """Called once when the loop stops (a rule may check the last update here)."""


def gordan_weights(history, n: int, constant=None) -> tuple:
    """lambda_j = (sum of j's coefficients over ``history``) / (sum of all of them): the corrections of one period
    of a repeat sum to 0 with these positive weights (with one constant coefficient c, count_j / sum count)."""
    if constant is not None:
        counts = [0] * n
        for Ys, _ in history:
            for j in Ys:
                counts[j] += 1
        total = sum(counts)
        return tuple(Fraction(x, total) for x in counts)
    weight = [Fraction(0)] * n
    for Ys, cs in history:
        for j, c in zip(Ys, cs):
            weight[j] += c
    total = sum(weight)
    return tuple(w / total for w in weight)


class _Records:
    """The trace of a batch run, kept compactly: per recorded iteration (k, Y_k, the state before, the state after
    or None, changed, the rule's information); the Steps are built through a fresh Tracer when first read.  The
    loop records iterations 1 .. ``limit`` (:meth:`add`) and tells :meth:`finish` how many it made in all."""

    def __init__(self, tracer, rep):
        self.tracer, self.rep = tracer, rep
        self.mode = tracer.mode
        self.limit = tracer.cap
        self.items: list = []

    def add(self, k, idx, before, after, changed, info) -> None:
        self.items.append((k, idx, before, after, changed, info))

    def finish(self, iterations: int) -> None:
        from exactlin.model.run import LazySteps

        tracer = self.tracer
        if self.mode is None and iterations > self.limit:
            tracer.complete = False
        if self.mode is not False:
            tracer.steps = LazySteps(len(self.items), self._build)

    def _build(self) -> list:
        tracer = self.tracer.fresh()
        fractions = self.rep.fractions
        for k, idx, before, after, changed, info in self.items:
            keep = tracer.keep_vectors()
            a = fractions(before)
            if after is None:
                tracer.add(k, k, None, 0, False, a if keep else None, a if keep else None, Y=[], **info)
                continue
            a_new = fractions(after) if changed else a
            inc = tuple(y - x for x, y in zip(a, a_new))
            if callable(info):
                info = info(a, inc)
            tracer.add(k, k, None, len(idx), changed, a if keep else None, a_new if keep else None, Y=list(idx),
                       increment=inc, **info)
        return tracer.steps


def batch_loop(rep, rule: BatchRule, bounds, tracer, *, stop_on_cycle: bool = True) -> BatchResult:
    """Run the batch rule ``rule`` on the representation ``rep`` (its start state a(1)) for k = 1, 2, ...

    At iteration k: Y_k = the samples passing the rule's test; an empty Y_k stops (``converged``); else
    a(k+1) = a(k) + sum_{j in Y_k} c_j z_j with the rule's coefficients.  Then, in this order: the bit length of
    a(k+1) (``bit_limit``), an exact repeat for a stationary rule (``cycle``, Gordan weights of one period; with
    ``rule.criterion_first`` a criterion that holds on that iteration stops with ``criterion`` and the
    certificate), the criterion (``criterion``), ``max_updates``, ``max_seconds``.  The budget: ``max_steps``
    iterations (set on ``bounds``: by default ceil(DEFAULT_BATCH_VISITS / n)) and ``max_epochs``.  See the module
    docstring for why every representation gives the same result."""
    n = rep.n
    test = rep.threshold(rule.b, strict=rule.strict)
    key = rep.key()
    cycles = trace.CycleDetector(key, bounds.cycle_table) if rule.stationary else None
    history: list = []
    updates = 0
    last = 0
    lam = found = found_at = None
    max_bits = rep.bits()
    limit = bounds.max_steps = trace.batch_step_limit(bounds.max_steps, n)
    ticking = bounds.progress is not None
    bits_bound = bounds.max_bits
    timed = bounds.max_seconds is not None
    rep.rekey = None
    records = _Records(tracer, rep)
    record = records.limit  # iterations 1 .. record are recorded (0: none)
    crit = rule.criterion
    keep_before = False  # whether the criterion reads a(k) (else a(k) is kept only for the trace)
    if crit is not None:
        op, T = crit[0], Fraction(crit[1])
        if op == "<" and T <= 0:
            crit = None  # ||increment||^2 < 0 never holds
        zero_test = op == "<=" and T == 0  # ||increment||^2 <= 0: the increment is 0, a did not change
        keep_before = crit is not None and not zero_test  # the criterion reads a(k)

        Tn, Td = T.numerator, T.denominator

        def criterion(changed, before):
            if zero_test:
                return not changed
            num, den = rep.delta_norm2(before) if changed else (0, 1)  # ||increment||^2 = num / den, den > 0
            return num * Td < Tn * den if op == "<" else num * Td <= Tn * den

    def result(converged, reason, k):  # k: the iterations made, each of which reached its trace record
        rule.finish(rep)
        records.finish(k)
        return BatchResult(rep.w(), converged, reason, k, updates, history, lam, found, max_bits, last, found_at)

    after = None  # the snapshot of a(k + 1) taken for the trace, reused as the next iteration's a(k)
    for k in range(1, bounds.max_epochs + 1):
        if k > limit:
            return result(False, "max_steps", k - 1)
        if ticking and k > 1:  # k - 1 iterations done, n sample visits each
            bounds.tick(k - 1, updates, max_bits, work=n)
        s = rep.scores(0, n)
        idx = rep.all(s, test)
        want = k <= record
        sup, coefs, info = rule.correction(rep, s, idx, k, want)
        if not idx and rule.stop_on_empty:
            if want:
                records.add(k, idx, rep.snapshot(), None, False, info)
            return result(True, "converged", k)
        if bits_bound is not None and len(sup) >= 64 and not rule.criterion_before_bits:
            # a sum of corrections with different denominators (Algorithm 8: one ||y||^2 each) can outgrow the
            # bound within one iteration: stop before the rest of the sum is paid for; a is a(k)
            b = rep.partial_bits(sup, coefs, bits_bound)
            if b is not None:
                max_bits = max(b, max_bits)
                return result(False, "bit_limit", k - 1)
        if after is None and (want or keep_before):
            after = rep.snapshot()
        before, after = after, None  # a(k): the state the last iteration left (nothing moved a since)
        if sup:
            rep.add_many(sup, coefs)
        history.append((sup, coefs))
        if rep.rekey is not None:  # the representation of a changed: the keys seen so far are mapped to the new one
            if cycles is not None:
                cycles.remap(rep.rekey)
            key = rep.rekey(key)
            rep.rekey = None
        new_key = rep.key()
        changed = new_key != key
        key = new_key
        if changed:
            updates += 1
            last = k
        if want:
            after = rep.snapshot()
            records.add(k, idx, before, after, changed, info)
        if rule.criterion_before_bits and crit is not None and criterion(changed, before):
            return result(True, "criterion", k)
        nb = rep.bits_above(max_bits)
        if nb > max_bits:
            max_bits = nb
            if bits_bound is not None and nb > bits_bound:
                return result(False, "bit_limit", k)
        met = None
        if cycles is not None:
            period = cycles.observe(key)
            if period is not None:
                first = k - period
                lam = gordan_weights(history[first:], n, rule.constant)
                found, found_at = list(range(first + 1, k + 1)), k
                cycles = None
                if rule.criterion_first and crit is not None:
                    met = criterion(changed, before)
                    if met:
                        return result(True, "criterion", k)
                if stop_on_cycle:
                    return result(False, "cycle", k)
        if crit is not None and not rule.criterion_before_bits and (
                met if met is not None else criterion(changed, before)):
            return result(True, "criterion", k)
        if bounds.max_updates is not None and updates >= bounds.max_updates:
            return result(False, "max_updates", k)
        if timed and bounds.out_of_time():  # every iteration: one can be slow
            return result(False, "time_limit", k)
    if bounds.max_epochs >= limit:  # both bounds end at the same iteration: the budget (the tighter rule) names it
        return result(False, "max_steps", limit)
    return result(False, "max_epochs", bounds.max_epochs)


def settle_at_bound(res: BatchResult, empty: Callable[[tuple], bool]) -> BatchResult:
    """A budget that ends a batch run on a solution ends it converged: when the last iteration the budget
    allowed (max_epochs or max_steps) moved a to a vector whose Y_{k+1} is empty (``empty(a)``, the rule's
    own test), the run would stop at the next check without changing a, so it reports ``converged`` at the
    iterations it ran (``max_epochs=1`` whose first step separates converges after one iteration)."""
    if res.reason in ("max_epochs", "max_steps") and empty(res.a):
        res.converged, res.reason = True, "converged"
    return res


# ---------------------------------------------------------------------------------------------------------
# the representations, with what the batch loop asks besides the protocol


class Repeated(list):
    """The coefficients of a correction that are all one value c (``value``): a list of len(Y_k) times c, which a
    representation may add as c times one batch sum."""

    __slots__ = ("value",)

    def __init__(self, value, n: int):
        self.value = value
        self += [value] * n


def _partial_bits_fractions(row, d: int, idx, coefs, bound: int):
    """:meth:`BatchFractionArith.partial_bits` on Fractions: the partial sums of c_j z_j, ``row(i)`` = z_i."""
    inc = [Fraction(0)] * d
    for m, (i, c) in enumerate(zip(idx, coefs), 1):
        for t, x in enumerate(row(i)):
            inc[t] += c * x
        if m % 64 == 0:
            b = fraction_bits(inc)
            if b > bound:
                return b
    return None


def _delta_norm2_fractions(a_new, a) -> tuple[int, int]:
    d2 = sum(((x - y) ** 2 for x, y in zip(a_new, a)), Fraction(0))
    return d2.numerator, d2.denominator


class BatchFractionArith(FractionArith):
    """The Fraction reference with the batch loop's questions answered as written."""

    def partial_bits(self, idx, coefs, bound: int):
        """The bit length of the partial increment sum_{m <= 64 r} c_m z_{idx_m} for the first r where it exceeds
        ``bound``, or None."""
        return _partial_bits_fractions(self.Z.__getitem__, self.d, idx, coefs, bound)

    def delta_norm2(self, before) -> tuple[int, int]:
        """||a - a(before)||^2 = num / den (den > 0), a the current state."""
        return _delta_norm2_fractions(self.w_, before)

    def exact_sum(self, s, idx) -> Fraction:
        """sum_{j in idx} <a, z_j>, exactly."""
        return sum((s[j] for j in idx), Fraction(0))


class BatchIntegerArith(IntegerArith):
    """The scaled integers (:class:`~exactlin.engine.arith.IntegerArith`) with the batch sum of one constant
    coefficient in one product.

    **The batch sum.**  For coefficients all equal to c with an integer multiplier m (c z_j = (p / q) m Z'_j;
    m = 1 for the representation's unit, the step it was built with), w + c sum_{j in Y} z_j = (p / q)(v + m S')
    with the integer vector S' = sum_{j in Y} Z'_j.  Each entry and every partial sum of S' has magnitude at most
    |Y| m_Z (the terms off Y are exactly 0 in the masked product Z'^T 1_Y), and |m S'_j| <= |m| |Y| m_Z =: g, the
    growth of the bound m_v.  So:

    * while the float copy vf of v serves a float tier (float32 or float64, bound M = 2^24 or 2^53) and
      |Y| m_Z < M and the new bound m_v + g < M / 2 (the copy's own rule in :mod:`exactlin.engine.arith`), S' is
      summed in that type (``sum:float32``, ``sum:float64``), multiplied by m and added to vf: every operand,
      product, partial sum and result is an integer below M, held exactly, so vf stays v's exact copy and only vf
      moves (v is read back from it when asked for);
    * else S' is computed in float64 while |Y| m_Z < 2^53, in int64 sums while |Y| m_Z < 2^62, else in Python
      integers (``sum:float64`` and so on), and v + m S' in int64 while m_v + g < 2^62 (the bound is raised
      first), else v becomes Python integers.

    Any other coefficients go through the protocol's :meth:`add_many`.  The float sums are Z'^T 1_Y on the float
    tiers' contiguous copy Z'^T (d x n, the one the scores v^T Z'^T read): d long sums, which BLAS does about
    twice as fast as a 0/1 row vector times the n short rows of Z' on a tall batch problem (2000 x 10).

    **The partial increments** (the bit check every 64 corrections): c sum_{m <= 64 r} z_{j_m} = (p / q) P_r with
    P_r the partial sums of S'; a reduced numerator divides p P_rj and a reduced denominator divides q, so when
    bitlen(p |Y| m_Z) and bitlen(q) are within the bound none can exceed it and nothing is computed."""

    def __init__(self, Z, w1, *, step=None):
        super().__init__(Z, w1, step=step)
        self.tiers.update({"sum:float32": 0, "sum:float64": 0, "sum:int64": 0, "sum:python": 0})
        self._mask = self._mask_idx = None

    def scores(self, i: int, length: int) -> Block:
        """The protocol's scores; while the bound m_v stays below the bound of the float tier in use (m_v < 2^24 /
        (d m_Z) for float32, m_v < 2^53 / (d m_Z) and m_v < 2^53 for float64, the module docstring of
        :mod:`exactlin.engine.arith`), that tier computes them again without choosing anew: every product and
        partial sum is an integer it holds, so the scores are the same integers (as the cyclic loop's ``scan``)."""
        if self.m_v < self._vt_mv:
            tier = self.vtier
            self.tiers[tier] += 1
            ZT = self._Zt if i == 0 and length == self.n else self._Zt[:, i:i + length]
            return Block(self.vf @ ZT, tier, self.p, self.q * self.L)
        return super().scores(i, length)

    def all(self, s, t) -> list[int]:
        wrong = self._wrong(s, t)
        idx = wrong.nonzero()[0].tolist()
        self._mask, self._mask_idx = wrong, idx  # the batch sum of exactly these samples reuses the mask
        return idx

    def _indicator(self, idx, dtype) -> np.ndarray:
        """1_Y for Y = ``idx``, in ``dtype`` (from the mask of :meth:`all` when idx is its answer); a sample listed
        r times counts r times (the protocol's sum over idx), so Z'^T 1_Y = sum_{j in idx} Z'_j with every partial
        sum still at most len(idx) m_Z."""
        if idx is self._mask_idx:
            return self._mask.astype(dtype)
        return np.bincount(np.asarray(idx, dtype=np.intp), minlength=self.n).astype(dtype)

    def _unit_sum(self, idx):
        """S' = sum_{j in idx} Z'_j in the tier its bound allows (class docstring), as int64 or Python integers."""
        nk = len(idx)
        if self.Z64 is not None and self.m_Z < F64_EXACT and nk * self.m_Z < F64_EXACT:
            self.tiers["sum:float64"] += 1
            return (self._ZT("float64") @ self._indicator(idx, np.float64)).astype(np.int64)
        if self.Z64 is not None and nk * self.m_Z < I64_HEADROOM:
            self.tiers["sum:int64"] += 1
            return self.Z64[idx].sum(axis=0)
        self._to_python()
        self.tiers["sum:python"] += 1
        return self.Zobj[idx].sum(axis=0)

    def add_many(self, idx, coefs) -> None:
        if not isinstance(coefs, Repeated):
            super().add_many(idx, coefs)
            return
        if not idx or not self.m_Z:  # nothing moves (every z_j = 0)
            return
        c = coefs.value
        last = self._last_coef  # (the coefficient object of the last call, its integer multiplier at this scale)
        if c is last[0]:
            m = last[1]
        else:  # c z_j = (p / q) m Z'_j; a fractional m rescales v first (the protocol's add)
            m = self._multiplier(c)
            if m.denominator != 1:
                self._rescale(m.denominator)  # (forgets _last_coef: the scale changed)
            else:
                self._last_coef = (c, int(m))
            m = m.numerator
        if self.phi is not None:  # the fingerprint follows v (exactlin.engine.arith)
            self.phi += m * sum(self._Zr[j] for j in idx)
        nk = len(idx)
        grow = abs(m) * nk * self.m_Z  # >= max |m S'_j|
        tier = self.vtier
        if tier is not None:
            M = TIER_BOUND[tier]
            if nk * self.m_Z < M and self.m_v + grow < M >> 1:  # only the exact float copy moves (class docstring)
                self.m_v += grow
                self.grown += grow
                self.tiers["sum:" + tier] += 1
                S = self._Zt @ self._indicator(idx, tier)  # Z'^T 1_Y (the tier's copy Z'^T, d x n)
                if m != 1:
                    S *= m
                self.vf += S
                self._vstale = True
                return
        S = self._unit_sum(idx)
        self.m_v += grow
        self.grown += grow
        if not self.big and (S.dtype == object or self.m_v >= I64_HEADROOM):
            self.m_v = self.exact_max() + grow
            if self.m_v >= I64_HEADROOM or S.dtype == object:
                self._widen()
        if self.big and S.dtype != object:
            S = S.astype(object)
        self.v = self.v + (S if m == 1 else m * S)  # int64: |v + m S'| <= m_v < 2^62
        self.drop_float()

    def partial_bits(self, idx, coefs, bound: int):
        if not isinstance(coefs, Repeated):
            L, Zl = self.L, self._Zl
            return _partial_bits_fractions(lambda i: [Fraction(int(x), L) for x in Zl[i]], self.d, idx, coefs, bound)
        # c sum_{m <= 64 r} z_{j_m} = cn P_r / cd with P_r the partial sums of the Z'_j, cn / cd = c / L
        c = Fraction(coefs.value)
        cn, cd = c.numerator, c.denominator * self.L
        if max((abs(cn) * len(idx) * self.m_Z).bit_length(), cd.bit_length()) <= bound:
            return None
        self._to_python()
        part = np.cumsum(self.Zobj[idx], axis=0)
        for r in range(64, len(idx) + 1, 64):
            b = 0
            for x in part[r - 1].tolist():
                g = math.gcd(cn * x, cd)
                b = max(b, abs(cn * x // g).bit_length(), (cd // g).bit_length())
            if b > bound:
                return b
        return None

    def delta_norm2(self, before) -> tuple[int, int]:
        v0, p0, q0 = before
        if (p0, q0) != (self.p, self.q):
            return _delta_norm2_fractions(self.w(), self.fractions(before))
        if self.v.dtype == v0.dtype == np.int64:  # |v_j|, |v0_j| < 2^62: the difference fits
            diff = (self.v - v0).tolist()
        else:
            diff = (self.v.astype(object) - v0.astype(object)).tolist()
        return self.p * self.p * sum(x * x for x in diff), self.q * self.q

    def exact_sum(self, s, idx) -> Fraction:
        vals = s.values[idx]
        if vals.dtype == np.float64:  # integers below 2^53: exact in int64
            vals = vals.astype(np.int64)
        return Fraction(s.num * sum(int(x) for x in vals.tolist()), s.den)


def _fmpq(x):
    from flint import fmpq

    return fmpq(*Fraction(x).as_integer_ratio())


class BatchFlintArith(FlintArith):
    """python-flint rationals (:class:`~exactlin.engine.arith_flint.FlintArith`): the batch sum of one constant
    coefficient as c times one sum of rows, the loop's questions answered on the fmpq values (exact, reduced)."""

    def add_many(self, idx, coefs) -> None:
        if isinstance(coefs, Repeated) and idx:
            self.v = self.v + _fmpq(coefs.value) * self.Z[idx].sum(axis=0)
        else:
            super().add_many(idx, coefs)

    def partial_bits(self, idx, coefs, bound: int):
        Z = self.Z
        return _partial_bits_fractions(lambda i: self.fractions(Z[i]), self.d, idx, coefs, bound)

    def delta_norm2(self, before) -> tuple[int, int]:
        diff = self.v - before
        d2 = (diff * diff).sum() if len(diff) else _fmpq(0)
        return int(d2.p), int(d2.q)

    def exact_sum(self, s, idx) -> Fraction:
        return sum((self.exact(s, j) for j in idx), Fraction(0))


def batch_arith(name: str, Z, w1, *, step=None):
    """The representation ``name`` ("fraction", "integer" or "flint") of the samples ``Z`` and the start ``w1`` for
    the batch loop (``step``: the rule's constant coefficient, which the integer representation scales by)."""
    from exactlin.errors import ParameterError

    cls = {"fraction": BatchFractionArith, "integer": BatchIntegerArith, "flint": BatchFlintArith}.get(name)
    if cls is None:
        raise ParameterError(f"the batch rules compute in arithmetic 'fraction', 'integer' or 'flint', not {name!r}",
                             parameter="arithmetic")
    return cls(Z, w1, step=step)
