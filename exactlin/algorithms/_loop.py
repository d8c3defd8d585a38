"""Rule-level helpers of the iterative algorithms: the binary problem (:func:`binary_problem`), the start vector
(:func:`start_vector`) and the representation a rule computes in (:func:`representation`).

The loops themselves and what they share (the trace, the bounds, cycle detection, the budget rows) are the engine's:
:mod:`exactlin.engine.cyclic`, :mod:`exactlin.engine.trace`.  The names of :mod:`exactlin.engine.trace` are
re-exported here while modules not yet on the engine still import them from here (transitional).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from exactlin.engine.arith import fraction_bits, make_arith
from exactlin.engine.trace import (  # noqa: F401  (transitional re-exports, see the module docstring)
    CYCLE_TABLE_LIMIT,
    DEFAULT_BATCH_VISITS,
    DEFAULT_MAX_EPOCHS,
    DEFAULT_MAX_STEPS,
    HK_BATCH_VISITS,
    STOP,
    STOP_CHOICES,
    TRACE_STEP_LIMIT,
    TRACE_VECTOR_LIMIT,
    WH_BATCH_VISITS,
    Bounds,
    CycleDetector,
    LoopResult,
    Tracer,
    batch_step_limit,
    batch_steps_param,
    check_stop,
    max_bits_param,
    max_steps_param,
)
from exactlin.errors import ParameterError

__all__ = ["BinaryProblem", "binary_problem", "start_vector", "representation", "cyclic_single_sample"]

#: what ``arithmetic="auto"`` means for a rule that does not say otherwise: integers over one denominator
AUTO = "integer"

_bits = fraction_bits  # transitional: read by _fast_batch


def representation(P, Z, w1, *, step=None, auto: str = AUTO):
    """The representation (:func:`exactlin.engine.arith.make_arith`) of the samples ``Z`` and the start ``w1`` in
    the arithmetic the call asked for (``P.arithmetic``; ``"auto"``: ``auto``), ``step`` the rule's usual
    coefficient.  The rule records ``P.record_arithmetic(rep.name, rep.tiers)`` when its loop is done."""
    return make_arith(auto if P.arithmetic == "auto" else P.arithmetic, Z, w1, step=step)


def cyclic_single_sample(
    n: int,
    w1: tuple,
    test: Callable[[tuple, int, int], tuple[Any, bool]],
    update: Callable[[tuple, int, int, Any], tuple],
    bounds: Bounds,
    tracer: Tracer,
    *,
    stationary: bool,
    on_step: Callable[[int, int, bool, tuple, tuple], None] | None = None,
    step_info: Callable[[int, int, Any], dict] | None = None,
    stop_on_cycle: bool = True,
    stop: str = "n-clean",
    until: Callable[[tuple], str | None] | None = None,
) -> LoopResult:
    """TRANSITIONAL: the Fraction loop the linear machine, relaxation and Winnow still run until they move onto
    :func:`exactlin.engine.cyclic.cyclic` (then it goes).  Visit samples 0, 1, ..., n-1, 0, 1, ... (the notes'
    cyclic order ``k <- (k+1) mod n``).

    At round k (1-based) on sample i: ``score, wrong = test(w, i, k)``; if wrong,
    ``w <- update(w, i, u, score)`` where u is the number of this update (1-based).
    Stops when n consecutive rounds made no update (the current w passes every
    sample: converged), when a bound is hit, or -- for a stationary rule (update and
    test independent of k) -- when the state (w, position) after an update repeats
    an earlier one exactly (Brent's cycle detection, O(1) memory): the run would
    then repeat forever.  With ``stop_on_cycle=False`` the first cycle found is kept
    (``cycle``, ``cycle_step``) and the run goes on repeating it until a bound stops it.
    ``last_update`` is the round of the last correction (the notes' convention for "the
    step at which the algorithm stopped"); ``steps`` the round at which the run ended.

    ``stop`` is the convention of the clean stop (:data:`STOP`): ``"n-clean"`` (default) stops after n
    consecutive rounds without an update, wherever they start; ``"clean-epoch"`` stops only at the end of
    an epoch (rounds (e-1)n+1 .. en, the samples in their order 1..n) in which no update was made
    (Mitchell's and many handouts' "until a full pass makes no mistake").  Both stop on the same w.

    ``until(w)``, a printed listing's do-until test, replaces both: it is evaluated after every round as
    the listing does (after round 1 and after every update: w is unchanged in between, so is the test)
    and returns the stop reason when it holds, else None.
    """
    epoch_stop = check_stop(stop)
    w = w1
    k = 0
    updates = 0
    last = 0
    clean = 0  # consecutive rounds without an update
    update_indices: list[int] = []
    # exact cycle detection over the states (w, next position) after updates, the start included:
    # a table of every state while it is small (the first repeat is found at once), then
    # Brent's algorithm with O(1) memory
    cycles = CycleDetector((w, 0)) if stationary else None
    found: list[int] | None = None
    found_at: int | None = None
    max_bits = fraction_bits(w)
    max_steps = bounds.max_steps
    ticking = bounds.progress is not None

    def result(converged, reason, epochs):
        return LoopResult(w, converged, reason, updates, epochs, k, update_indices,
                          found, max_bits, last, found_at)

    while True:
        epoch = k // n + 1
        if epoch > bounds.max_epochs:
            return result(False, "max_epochs", bounds.max_epochs)
        if max_steps is not None and k >= max_steps:
            return result(False, "max_steps", (k - 1) // n + 1)
        if ticking and k:  # k rounds done: records at k = 1000, 2000, ...
            bounds.tick(k, updates, max_bits)
        i = k % n
        k += 1
        score, wrong = test(w, i, k)
        if wrong:
            w_new = update(w, i, updates + 1, score)
            updates += 1
            last = k
            update_indices.append(i)
            tracer.add(k, epoch, i, score, True, w, w_new, **(step_info(k, i, score) if step_info else {}))
            if on_step:
                on_step(k, i, True, w, w_new)
            w = w_new
            clean = 0
            b = fraction_bits(w)
            if b > max_bits:
                max_bits = b
                if bounds.max_bits is not None and b > bounds.max_bits:
                    return result(False, "bit_limit", epoch)
            if until is not None and (why := until(w)) is not None:  # the listing's do-until, after the round
                return result(why == "converged", why, epoch)
            if cycles is not None:
                period = cycles.observe((w, k % n))
                if period is not None:
                    found, found_at = update_indices[-period:], k
                    if stop_on_cycle:
                        return result(False, "cycle", epoch)
                    cycles = None  # proved: the run now repeats this period until a bound stops it
            if bounds.max_updates is not None and updates >= bounds.max_updates:
                # the bound is hit: converged only if w now passes every sample
                return result(False, "max_updates", epoch)
        else:
            tracer.add(k, epoch, i, score, False, w, w, **(step_info(k, i, score) if step_info else {}))
            if on_step:
                on_step(k, i, False, w, w)
            clean += 1
            if until is not None:
                if k == 1 and (why := until(w)) is not None:  # w unchanged since the last test otherwise
                    return result(why == "converged", why, 1)
            elif epoch_stop:
                if k % n == 0 and last <= k - n:  # the epoch ending here made no update
                    return result(True, "converged", k // n)
            elif clean >= n:
                return result(True, "converged", (k - 1) // n + 1)
        if bounds.max_seconds is not None and bounds.out_of_time():  # every round: one step can be slow
            return result(False, "time_limit", epoch)


@dataclass
class BinaryProblem:
    """A binary problem ready for an algorithm: the Dataset, the augmented samples ``Y``
    (rows x~_i), the +1/-1 labels ``z`` and the normalized samples ``Z`` (rows z_i x~_i)."""

    data: Any
    bias: str
    Y: tuple
    z: tuple
    Z: tuple

    @property
    def n(self) -> int:
        return len(self.Y)

    @property
    def d(self) -> int:
        shape = getattr(self.Y, "shape", None)  # ExactRows: no Fraction is built
        return shape[1] if shape is not None else len(self.Y[0])


def binary_problem(X, y, *, bias: str, positive=None, floats: str = "repr") -> BinaryProblem:
    """Convert, label and augment once, by the rules of layers 1 and 2."""
    from exactlin.data.dataset import as_dataset, augment, binary_labels, check_bias, normalize

    check_bias(bias)
    ds = as_dataset(X, y, floats=floats)
    z = binary_labels(ds.y, positive)
    Y = augment(ds.X, bias)
    return BinaryProblem(ds, bias, Y, z, normalize(Y, z))


def start_vector(w0, d: int, name: str = "w0") -> tuple:
    from exactlin.exact.numbers import to_vector, zeros

    if w0 is None:
        return zeros(d)
    v = to_vector(w0)
    if len(v) != d:
        raise ParameterError(f"{name} has {len(v)} entries but the (augmented) samples have {d}; "
                             "remember the bias entry", parameter=name)
    return v
