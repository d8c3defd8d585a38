"""The ONE cyclic single-sample loop: every single-sample rule of the perceptron family runs it, on any
representation of :mod:`exactlin.engine.arith` (Fractions, scaled integers, python-flint rationals).

The loop (the notes' cyclic order ``k <- (k+1) mod n``, seed 000's rounds t = 1, 2, ...): at round k on sample
i = (k - 1) mod n the rule's test is **<w, z_i> <= b** (or ``< b`` when ``strict``), optionally refined by an exact
``accept(i, q)``; on a mistake **w <- w + c z_i** with the rule's coefficient c (a constant, one constant per
sample, or ``coef(i, u, k, q)`` of the update count u, the round k and the exact score q).  It stops

* ``converged`` when the clean stop holds (``stop="n-clean"``: n consecutive rounds without an update;
  ``"clean-epoch"``: an epoch, rounds (e-1)n+1 .. en, without an update), or when a printed listing's do-until
  test (``until``, :class:`Until`) holds: it replaces both, and is evaluated after round 1 and after every
  update, as the listing does (w is unchanged in between, and so is the test);
* ``cycle`` for a ``stationary`` rule when the state (w, next position) after an update repeats an earlier one
  exactly (:class:`~exactlin.engine.trace.CycleDetector`; the start counts): the run would repeat forever.  With
  ``stop_on_cycle=False`` the first cycle is kept (``cycle``, ``cycle_step``) and the run goes on;
* on a bound: ``max_epochs``, ``max_steps``, ``max_updates``, ``bit_limit`` (a reduced numerator or denominator
  of w exceeds ``max_bits``), ``time_limit``.

``last_update`` is the round of the last correction, ``steps`` the round the run ended at.

**The chunked scan, and why it is the cyclic pass exactly.**  From round k (sample i = k mod n) the loop asks
the representation for the scores of a *block* of samples i, i+1, ..., i+m-1 (``rep.scores(i, m)``), all with
the current w, and for the first j of the block where the rule's test holds (``rep.first``; both in one call,
``rep.scan``, where the representation offers it, or ``rep.find`` for
the first alone where nothing reads the block's scores; ``accept`` may reject candidates, then the search goes on
after them).  The rounds k+1 .. k+j are exactly the rounds of the
pass that make no update: each tests its sample with the same w (nothing changed w in between) and passes.
Round k+j+1 is the next mistake: it is tested with that same w, the update is applied there and the scan goes
on from sample i+j+1 with the new w.  So the block's length changes nothing about which sample is tested with
which w; it only decides how many scores are computed at once.  The loop chooses the lengths so that every
stop is taken at the very round the round-by-round loop takes it:

* a block never crosses the end of the data (so an epoch ends with a block, where the ``clean-epoch`` test
  "no update since round k - n" is taken), nor the round where n clean rounds are complete (``n-clean``), nor
  ``max_epochs * n``, ``max_steps``, the end of the recorded prefix of the trace, nor a multiple of 4096 rounds
  when ``max_seconds`` is set (the clock is read at the end
  of every block and after every update: a timed run stops at a round that depends on the clock in any loop);
* with ``until`` the first block is round 1 alone (the listing tests after round 1);
* the per-update tests (bits, ``until``, cycle, ``max_updates``, the clock) follow every update in the order
  the round-by-round loop takes them: bits, until, cycle, updates, clock.

The scores are exact in every representation (:mod:`exactlin.engine.arith` proves the integer tiers exact, and
that its test on raw scores is the test on <w, z_i>), so the run -- w, converged, reason, counts, the mistakes,
the cycle, max_bits, last_update, the trace -- is the same in every representation, field for field.  A
progress callback receives its records after rounds 1000, 2000, ... (:data:`~exactlin.model.progress.
PROGRESS_EVERY`) exactly, each sent from the block that passes that round with the state after it (a plain block
updates at its last round only; a speculated block's updates are counted by their offsets), where the run goes
on past it: the blocks do not end there, so a run's blocks and work are the same with or without the callback.

**Speculation: blocks of updates at once.**  A rule that corrects at almost every round (Algorithm 4 as
printed) makes a block of one round per call.  For a rule whose rounds need no observation one by one (no
cycle table -- the rule is not stationary, or proves it never repeats a state --, no trace callback, no
monitor, one constant coefficient) on a representation that offers ``rep.speculate``, the loop asks instead
"what if exactly the rounds that updated at the last visit of these samples update again?" (in the first
epoch: every round).  :meth:`~exactlin.engine.arith.IntegerArith.speculate` computes, for the whole block, the
score every round would see under that hypothesis (prefix sums of the hypothesized updates: one product)
and the first round where the rule's test disagrees with it.  Every round before that one is exactly the
round the one-by-one loop makes (each sees the state the hypothesis gives it, and the hypothesis held for
every round before it), so the loop applies them at once -- except that it stops right before any update
at which a per-update test would act (the ``max_updates`` budget, ``max_bits``, the listing's until test
when its witness no longer breaks it), and leaves that update to the round-by-round path, which then takes
every test in order.  The recorded trace, the counts, max_bits and the state are those of the one-by-one
loop; tests/engine/test_cyclic.py checks the runs against the Fraction reference, which never speculates.

**Signature** (kept stable: pocket, the linear machine, relaxation and Winnow run on it too):
``cyclic(rep, bounds, tracer, *, b=0, strict=False, coef=1, stationary=True, stop="n-clean",
stop_on_cycle=True, until=None, accept=None, score=None, step_info=None, on_mistake=None, after_update=None,
track_bits=True) -> LoopResult``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from exactlin.engine.trace import Bounds, CycleDetector, LoopResult, Recorder, Tracer, check_stop
from exactlin.model.progress import PROGRESS_EVERY
from exactlin.model.serialize import IndexList

__all__ = ["cyclic", "Until"]

#: blocks start at this many samples, double while clean up to BLOCK_MAX, and restart near the last mistake (twice
#: its distance from the block's start, at least BLOCK_MIN, or the representation's ``block_min`` where it has one:
#: a representation whose scores cost little per row next to the cost of a call asks for longer blocks)
BLOCK_START, BLOCK_MIN, BLOCK_MAX = 64, 16, 8192
#: a speculated block (``rep.speculate``) starts at this many rounds after a round that broke the hypothesis
SPEC_START = 256
#: a timed run's blocks end at multiples of this many rounds
TIMED_BLOCK = 4096


@dataclass(frozen=True)
class Until:
    """A printed listing's do-until test over all samples, in the loop's own terms: with ``every=True`` it
    holds when **every** sample has <w, z_j> <= b (``< b`` when ``strict``); with ``every=False`` when **no**
    sample has it.  ``reason`` is the stop reason when it holds (``converged`` makes the run converged).

    Seed 003's Algorithm 4 as printed, "until all patterns properly classified": ``Until(0, every=False,
    reason="converged")`` (no a^t y_j <= 0); Algorithm 5 as printed, "until a^t y_k + b <= 0 for all k":
    ``Until(-b, every=True, reason="criterion")``.

    The loop keeps a *witness*, the last sample found to break the test, and tries it first: a listing's test
    after an update is usually broken by the sample just corrected or by the same one as before, so the whole
    scan runs only when the witness passes (the test is then decided exactly by the scan).
    """

    b: Any = 0
    strict: bool = False
    every: bool = False
    reason: str = "converged"


class _UntilTest:
    def __init__(self, spec: Until, rep):
        self.spec, self.rep = spec, rep
        self.refresh()
        self.witness = 0

    def refresh(self) -> None:
        """Read the test in the representation's units again (after a coefficient that may change them)."""
        self.t = self.rep.threshold(Fraction(self.spec.b), self.spec.strict)

    def _broken(self, i: int, m: int, t) -> int | None:
        """The first sample of the block i .. i+m-1 that breaks the test, or None."""
        rep = self.rep
        s = rep.scores(i, m)
        if self.spec.every:  # broken where the test is false
            hits = rep.all(s, t)
            if len(hits) == m:
                return None
            j = next((j for j, h in enumerate(hits) if j != h), len(hits))
            return i + j
        j = rep.first(s, t)
        return i + j if j < m else None

    def holds(self) -> bool:
        rep, t = self.rep, self.t
        if self._broken(self.witness, 1, t) is not None:
            return False
        n = rep.n
        for i in range(0, n, BLOCK_MAX):
            j = self._broken(i, min(BLOCK_MAX, n - i), t)
            if j is not None:
                self.witness = j
                return False
        return True


def cyclic(rep, bounds: Bounds, tracer: Tracer, *, b=0, strict: bool = False, coef: Any = 1,
           stationary: bool = True, stop: str = "n-clean", stop_on_cycle: bool = True, until: Until | None = None,
           accept: Callable[[int, Fraction], bool] | None = None, score: Callable[[int, Fraction], Any] | None = None,
           step_info: Callable[[int, int, bool], dict] | None = None,
           on_mistake: Callable[[int, int, bool, tuple, tuple], None] | None = None,
           after_update: Callable[[int, int], None] | None = None, track_bits: bool = True) -> LoopResult:
    """Run the cyclic single-sample rule on the representation ``rep`` (module docstring).

    ``b``, ``strict``: the test <w, z_i> <= b (< b); ``accept(i, q)``: an exact refinement of it (a candidate
    the test finds is a mistake only when accept says so; the test must find every mistake).  ``coef``: the
    update's coefficient c in w + c z_i: a number, a sequence (one per sample) or ``coef(i, u, k, q)`` with u the
    update's number (1-based), k its round and q the exact score.  ``stationary``: the rule does not depend on k
    or u (then an exact repeat of (w, position) is a proved cycle).  ``score(i, q)``: the trace's score for the
    exact score q (default q).  ``step_info(k, i, update)``: the rule's other quantities of a recorded step (a
    dict for the Step's ``info``).  ``on_mistake(k, i, True, w_before, w_after)``: called at every update with
    Fraction vectors (the online convergence monitor).  ``after_update(k, i)``: called after the update of round k on
    sample i, before the per-update tests, to read the representation (pocket's E_in, relaxation's identity).
    ``track_bits=False``: the rule does not report the result's ``max_bits`` (it is then the start's), so the
    bit sizes are read after an update only for a ``max_bits`` bound or a progress callback.
    Returns a :class:`~exactlin.engine.trace.LoopResult`.
    """
    epoch_stop = check_stop(stop)
    n = rep.n
    b = Fraction(b)
    if callable(coef):
        coef_of, coef_fn = None, coef
    elif isinstance(coef, Sequence):
        coef_of, coef_fn = coef, None
    else:
        coef_of, coef_fn = None, None
    const = None if (coef_fn is not None or coef_of is not None) else coef
    needs_q = coef_fn is not None
    recorder = Recorder(tracer, rep, n, score)
    until_test = _UntilTest(until, rep) if until is not None else None

    k = 0  # rounds done
    updates = 0
    last_k = 0  # the round of the last update
    clean = 0  # rounds in a row without an update
    update_indices: list[int] = []
    chunks: list = []  # the updates before update_indices, as int64 arrays (speculated blocks)
    found: list[int] | None = None
    found_at: int | None = None
    # the states (w, next position) of a stationary rule: by rep.key(), or by the representation's cheaper
    # fingerprint, a match then confirmed exactly (the updates in between sum to 0: the two w are equal)
    fingerprint = getattr(rep, "fingerprint", None)
    coef_log: list | None = [] if stationary and fingerprint is not None and coef_fn is not None else None

    def same_w(a: int, b: int) -> bool:  # are w after update a and after update b equal?  (a < b)
        idx = update_indices[a:b]
        cs = coef_log[a:b] if coef_log is not None else (
            [coef_of[i] for i in idx] if coef_of is not None else [const] * len(idx))
        return rep.combination_is_zero(idx, cs)

    state = fingerprint if fingerprint is not None else rep.key
    cycles = (CycleDetector((state(), 0), bounds.cycle_table, same_w if fingerprint is not None else None)
              if stationary else None)
    max_bits = rep.bits()
    max_epochs = bounds.max_epochs
    k_max = max_epochs * n
    max_steps = bounds.max_steps
    max_updates = bounds.max_updates
    bits_bound = bounds.max_bits
    timed = bounds.max_seconds is not None
    ticking = bounds.progress is not None
    ticked = 0
    t = rep.threshold(b, strict)
    block = BLOCK_START

    def tick_to(upto: int, u: int, bits: int, last: int) -> int:
        """The progress records after rounds B = 1000, 2000, ... in (last, upto], with u updates and bit size
        ``bits`` there (the state after round B); returns the last B sent.  A record is sent where the run goes on
        past its round, as a round-by-round loop sends it, without ending a block there: the blocks, and so the
        work counted in each tier, are the same with or without records."""
        B = last - last % PROGRESS_EVERY + PROGRESS_EVERY
        while B <= upto:
            bounds.tick(B, u, bits, work=B - last)
            last = B
            B += PROGRESS_EVERY
        return last

    def done(converged: bool, reason: str, epochs: int) -> LoopResult:
        recorder.finish(k)
        idx = np.asarray(update_indices, dtype=np.int64)
        if chunks:  # (speculated blocks' updates, kept as arrays)
            idx = np.concatenate([*chunks, idx])
        bits = max(max_bits, later(idx)) if later is not None else max_bits
        return LoopResult(rep.w(), converged, reason, updates, epochs, k, IndexList(idx), found, bits, last_k,
                          found_at)

    scan = getattr(rep, "scan", None)  # scores and first in one call, where the representation offers it
    if scan is None:
        scores, first = rep.scores, rep.first

        def scan(i: int, length: int, t):
            s = scores(i, length)
            return s, first(s, t)
    # speculation (module docstring): for a rule whose updates need no observation one by one (no cycle table,
    # no trace, no callback, one coefficient) on a representation that offers it; ``pattern`` holds which
    # sample updated at its last round; ``dense``: the last blocks scanned both began with a mistake (corrections
    # at consecutive rounds), or the last speculation held to its end
    speculate = getattr(rep, "speculate", None)
    pattern = (np.ones(n, dtype=bool) if speculate is not None and cycles is None and const is not None
               and accept is None and on_mistake is None and after_update is None and step_info is None
               and not timed else None)
    # the bit sizes after each update: read one by one only where a test acts on them (a max_bits bound, the
    # progress records); a rule that only reports them asks the representation for all at once at the end
    # where it offers that (``rep.bits_after``: the same maximum), unless blocks are speculated (each block's
    # states are then read at once, and most blocks are decided by a bound without reading them)
    later = None
    if track_bits and bits_bound is None and not ticking and const is not None and pattern is None:
        bits_after = getattr(rep, "bits_after", None)
        later = bits_after(const) if bits_after is not None else None
    track_bits = (track_bits and later is None) or bits_bound is not None or ticking
    dense = ahead = False  # (ahead: the last block scanned began with a mistake)
    spec_block = SPEC_START  # a speculated block's length: doubles while the hypothesis holds
    k_stop = k_max if max_steps is None else min(k_max, max_steps)  # no block runs past either bound
    rec_limit = recorder.limit
    # where nothing reads a score of the block (a block the trace does not record, no accept, no coefficient of
    # q), the representation may answer the first hit alone (``rep.find``), without building the block
    find = getattr(rep, "find", None) if accept is None and not needs_q else None
    clean_cap = until_test is None and not epoch_stop  # n - clean rounds left before the n-clean stop
    while True:
        if k >= k_stop:  # k_stop = min(k_max, max_steps)
            if k >= k_max:
                return done(False, "max_epochs", max_epochs)
            return done(False, "max_steps", (k - 1) // n + 1)
        if ticking and k >= ticked + PROGRESS_EVERY:  # the records after rounds 1000, 2000, ... <= k (the run
            ticked = tick_to(k, updates, max_bits, ticked)  # goes on past k: it did not stop above)
        i = k % n
        length = n - i  # min(n - i, block, k_stop - k), without a call per block
        if block < length:
            length = block
        if k_stop - k < length:
            length = k_stop - k
        if clean_cap:
            if n - clean < length:
                length = n - clean
        elif until_test is not None and k == 0:
            length = 1  # the listing tests after round 1
        rec = rec_limit - k if k < rec_limit else 0
        if rec and rec < length:
            length = rec
        if timed:
            length = min(length, TIMED_BLOCK - k % TIMED_BLOCK)
        adv = 0
        if dense and pattern is not None:  # the rounds as in the last epoch (the first: every round updates)?
            if not rec and block < spec_block:  # (where only the data's end bounds it)
                length = min(n - i, spec_block, k_stop - k, n - clean if clean_cap else n)
            sp = speculate(i, length, pattern[i:i + length], const, t,
                           None if until_test is None else (until_test.witness, until_test.t))
            if sp is not None:
                # apply the updates that no per-update test stops at: the budget, the bits, the listing's until
                # (false after an update when its witness breaks it, as _UntilTest.holds decides first)
                u = safe = len(sp.at)
                if max_updates is not None:
                    safe = min(safe, max_updates - updates - 1)
                if bits_bound is not None:
                    safe = min(safe, sp.first_bits_over(bits_bound))
                if until_test is not None and u:
                    broken = ~sp.watched if until.every else sp.watched
                    safe = min(safe, u if broken.all() else int(broken.argmin()))
                safe = max(safe, 0)
                adv = int(sp.at[safe]) if safe < u else sp.stop  # rounds applied: up to the next stop
                if ticking and k + adv > ticked + PROGRESS_EVERY:  # records after the rounds B < k + adv of the
                    at = sp.at[:safe]  # block: the updates at rounds <= B (offset a is round k + a + 1) counted
                    B = ticked + PROGRESS_EVERY
                    while B < k + adv:
                        c = int(np.searchsorted(at, B - k))  # (the offsets a < B - k)
                        ticked = tick_to(B, updates + c, sp.bits_above(c, max_bits), ticked)
                        B += PROGRESS_EVERY
                if adv and rec:
                    recorder.speculated(k, i, sp, adv, safe)
                if adv and safe:
                    idx = sp.at[:safe] + i
                    rep.apply(sp, safe, idx)
                    if update_indices:  # (no cycle table reads them here: the loop speculates only without one)
                        chunks.append(np.asarray(update_indices, dtype=np.int64))
                        update_indices.clear()
                    chunks.append(idx)
                    updates += safe
                    last = int(sp.at[safe - 1]) + 1  # the block's round of the last update applied
                    last_k, clean = k + last, adv - last
                    max_bits = sp.bits_above(safe, max_bits)
                elif adv:
                    clean += adv
                k += adv
        if adv:
            passed = adv == length
            dense = passed
            spec_block = min(2 * spec_block, BLOCK_MAX) if passed else SPEC_START
        else:
            if find is not None and not rec:  # (a recorded block's scores go into the trace)
                s, j = None, find(i, length, t)
            else:
                s, j = scan(i, length, t)
            if accept is not None and j < length:  # the first candidate the rule's exact test accepts
                j = next((c for c in rep.all(s, t) if accept(i + c, rep.exact(s, c))), length)
            if rec and j:
                recorder.block(k, i, s, j, [step_info(k + jj + 1, i + jj, False) for jj in range(j)]
                               if step_info is not None else None)
            k += j
            clean += j
            passed = j == length
            # the records after the rounds this block passed: up to round k when an update follows (the run goes
            # on past it), else before k (the next block's start sends k's, if the run goes on)
            if ticking and k - passed >= ticked + PROGRESS_EVERY:
                ticked = tick_to(k - passed, updates, max_bits, ticked)
            if pattern is not None:
                pattern[i:i + j] = False
                dense, ahead = ahead and j == 0, j == 0
        if passed:  # the whole block passed
            if block < BLOCK_MAX:
                block *= 2
            if until_test is not None:
                if k == 1 and until_test.holds():
                    return done(until.reason == "converged", until.reason, 1)
            elif epoch_stop:
                if k % n == 0 and last_k <= k - n:  # the epoch ending here made no update
                    return done(True, "converged", k // n)
            elif clean >= n:
                return done(True, "converged", (k - 1) // n + 1)
            if timed and bounds.out_of_time():
                return done(False, "time_limit", (k - 1) // n + 1)
            continue
        if adv:  # speculation stopped before a round that differs or needs its tests: the next block scans it
            continue
        # a mistake: sample ii at round k
        block = 2 * (j + 1) if j < BLOCK_MAX // 2 else BLOCK_MAX  # max(block_min, min(BLOCK_MAX, 2 (j + 1)))
        block_min = getattr(rep, "block_min", BLOCK_MIN)
        if block < block_min:
            block = block_min
        ii = i + j
        k += 1
        epoch = (k - 1) // n + 1
        q = rep.exact(s, j) if needs_q else None
        c = const if const is not None else (coef_of[ii] if coef_of is not None else coef_fn(ii, updates + 1, k, q))
        w_before = rep.w() if on_mistake is not None else None
        rep.add(ii, c)
        if coef_log is not None:
            coef_log.append(c)
        if rep.rekey is not None:  # the representation changed how it holds w: map the remembered states
            if cycles is not None and fingerprint is None:  # (a fingerprint needs no re-keying)
                cycles.remap(lambda st, f=rep.rekey: (f(st[0]), st[1]))
            rep.rekey = None
        updates += 1
        last_k = k
        update_indices.append(ii)
        clean = 0
        if pattern is not None:
            pattern[ii] = True
        if after_update is not None:
            after_update(k, ii)
        if rec:
            recorder.update(k, ii, s, j, step_info(k, ii, True) if step_info is not None else None)
        if on_mistake is not None:
            on_mistake(k, ii, True, w_before, rep.w())
        if track_bits:
            bits = rep.bits_above(max_bits)
            if bits > max_bits:
                max_bits = bits
                if bits_bound is not None and bits > bits_bound:
                    return done(False, "bit_limit", epoch)
        if until_test is not None and until_test.holds():  # the listing's do-until, after the round
            return done(until.reason == "converged", until.reason, epoch)
        if cycles is not None:
            period = cycles.observe((state(), k % n))
            if period is not None:
                found, found_at = update_indices[-period:], k
                if stop_on_cycle:
                    return done(False, "cycle", epoch)
                cycles = None  # proved: the run now repeats this period until a bound stops it
        if max_updates is not None and updates >= max_updates:
            return done(False, "max_updates", epoch)
        if timed and bounds.out_of_time():
            return done(False, "time_limit", epoch)
        if const is None:  # the units of the scores may change with a varying coefficient
            t = rep.threshold(b, strict)
            if until_test is not None:
                until_test.refresh()
