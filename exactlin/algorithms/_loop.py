"""Shared mechanics of the iterative algorithms: the trace recorder, the bounds,
and the cyclic single-sample pass with exact cycle detection.

Written once here so that every single-sample rule (seed 000's perceptron, seed
003's Algorithms 4, 5 and 9, the voted perceptron, Winnow) runs the same cyclic
order, the same stopping test and the same bounds.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from exactlin.errors import ParameterError
from exactlin.exact.format import quote
from exactlin.model.params import Param, at_least
from exactlin.model.progress import PROGRESS_EVERY, Progress
from exactlin.model.run import Step

__all__ = ["TRACE_STEP_LIMIT", "TRACE_VECTOR_LIMIT", "Tracer", "Bounds", "cyclic_single_sample", "LoopResult",
           "CycleDetector",
           "DEFAULT_MAX_EPOCHS", "DEFAULT_MAX_STEPS", "DEFAULT_BATCH_VISITS", "HK_BATCH_VISITS", "WH_BATCH_VISITS",
           "max_steps_param", "max_bits_param", "STOP", "STOP_CHOICES",
           "batch_steps_param", "batch_step_limit"]

#: steps recorded by default (``trace=None``); beyond this the trace is marked incomplete
TRACE_STEP_LIMIT = 10_000
#: full weight vectors are kept by default while (steps recorded) x d stays below this
TRACE_VECTOR_LIMIT = 200_000
DEFAULT_MAX_EPOCHS = 1000
#: the default budget of the exact single-sample rules that run on Fractions (Algorithms 4, 5, 7, 9, the
#: voted/averaged perceptron, the linear machine): this many rounds (reason ``max_steps``)
DEFAULT_MAX_STEPS = 50_000
#: the default budget of the exact batch rules (Algorithms 3 and 8, batch PLA, gradient descent on R(w)):
#: iterations worth this many sample visits, ceil(DEFAULT_BATCH_VISITS / n) iterations (reason ``max_steps``)
DEFAULT_BATCH_VISITS = 60_000
#: Ho-Kashyap's: an iteration multiplies by Y^+ (large denominators) and its numbers grow by hundreds of bits, so
#: an iteration costs several batch-perceptron iterations: ceil(HK_BATCH_VISITS / n) iterations
HK_BATCH_VISITS = 8_000
#: Widrow-Hoff's batch gradient rule: an iteration costs 2n inner products with growing rationals
WH_BATCH_VISITS = 10_000
#: states remembered exactly for cycle detection before switching to Brent's O(1)-memory method
CYCLE_TABLE_LIMIT = 1 << 14


class Tracer:
    """Records compact steps.

    ``trace=None`` (default): the first :data:`TRACE_STEP_LIMIT` steps, with full
    vectors while steps x d < :data:`TRACE_VECTOR_LIMIT`; ``trace=True``: every step
    with vectors; ``trace=False``: nothing (the Run still has its counts and the
    list of update indices, from which any step can be rebuilt by replay).
    """

    def __init__(self, trace: bool | None, d: int):
        self.mode = trace
        self.steps: list[Step] = []
        self.complete = trace is not False
        self.d = max(d, 1)

    def keep_vectors(self) -> bool:
        if self.mode is True:
            return True
        return (len(self.steps) + 1) * self.d <= TRACE_VECTOR_LIMIT

    def add(self, k: int, epoch: int, i: int | None, score: Any, update: bool, w_before=None, w_after=None,
            **info) -> None:
        if self.mode is False:
            return
        if self.mode is None and len(self.steps) >= TRACE_STEP_LIMIT:
            self.complete = False
            return
        vec = self.keep_vectors()
        self.steps.append(Step(k, epoch, i, score, update, w_before if vec else None, w_after if vec else None,
                               info))


#: the conventions of the clean stop of a cyclic single-sample rule (``stop`` of :func:`cyclic_single_sample`)
STOP_CHOICES = ("n-clean", "clean-epoch")
#: the ``stop`` row every cyclic single-sample rule of the perceptron family shares
STOP = Param(
    "stop", "choice", "n-clean",
    "when a clean run stops: 'n-clean' (default) after n rounds in a row without a mistake, wherever they "
    "start (the notes' \"until all patterns properly classified\" checked as early as the cyclic pass can); "
    "'clean-epoch' at the end of the first epoch, a pass over samples 1..n in order, without a mistake "
    "(Mitchell 1997 and many course handouts). Both return the same w; steps and epochs may differ",
    choices=STOP_CHOICES)


def max_steps_param(default: int | None = DEFAULT_MAX_STEPS, why: str = "") -> Param:
    """The ``max_steps`` row of a single-sample rule's table: a deterministic default budget in rounds."""
    doc = "stop after this many rounds, i.e. samples visited (reason max_steps)"
    if default is not None:
        doc += (f". Default {default:,}: the deterministic budget that ends a default call within seconds "
                f"(about {default // 2000} passes over 2,000 samples, {min(default // 100, DEFAULT_MAX_EPOCHS)} "
                "over 100; benchmarks/RESULTS.md, \"Default budgets\")" + (f"; {why}" if why else "")
                + ". Raise it, or pass max_steps=None in Python to be bounded by max_epochs alone")
    return Param("max_steps", "int", default, doc, at_least(1), none_is_value=default is not None)


def max_bits_param(default: int | None, what: str = "a weight's numerator or denominator", why: str = "") -> Param:
    """The ``max_bits`` row: stop when a number of the iterate exceeds this many bits (reason bit_limit); a
    rule whose iterates are rationals with growing denominators has a deterministic default."""
    doc = f"stop when {what} exceeds this many bits (reason bit_limit)"
    if default is not None:
        doc += (f". Default {default:,}: this rule's iterates are rationals whose denominators grow, and each "
                "step's cost grows with them; the default ends a default call within seconds"
                + (f" ({why})" if why else "") + ". Raise it, or pass max_bits=None in Python to switch it off")
    return Param("max_bits", "int", default, doc, at_least(1), none_is_value=default is not None)


def batch_steps_param(visits: int = DEFAULT_BATCH_VISITS) -> Param:
    """The ``max_steps`` row of a batch rule: by default ceil(visits / n) iterations (each visits n samples)."""
    return Param("max_steps", "int", None,
                 "stop after this many iterations (reason max_steps). Default (None): the deterministic budget "
                 f"ceil({visits:,} / n) iterations, i.e. {visits:,} sample visits ({-(-visits // 2000)} iterations "
                 f"on 2,000 samples, {min(-(-visits // 100), DEFAULT_MAX_EPOCHS)} on 100; an exact batch iteration "
                 "costs n exact inner products, so the budget scales with n; benchmarks/RESULTS.md, \"Default "
                 "budgets\"); give a number to set it (max_epochs bounds it too)", at_least(1))


def batch_step_limit(given: int | None, n: int, visits: int = DEFAULT_BATCH_VISITS) -> int:
    """The iterations a batch rule may run: ``given``, or by default ceil(visits / n)."""
    return given if given is not None else max(1, -(-visits // max(n, 1)))


@dataclass
class Bounds:
    """The explicit bounds every loop honours.  ``None`` means not bounded by that quantity,
    but ``max_epochs`` always has a value."""

    max_epochs: int = DEFAULT_MAX_EPOCHS
    max_updates: int | None = None
    max_bits: int | None = None
    max_seconds: float | None = None
    started: float = field(default_factory=time.monotonic)
    #: a bound on steps (rounds of a single-sample rule) where the table has one (reason max_steps)
    max_steps: int | None = None
    #: the progress callback (``progress=`` of every algorithm) and the algorithm's name for its records
    progress: Callable | None = None
    algorithm: str = ""
    _work: int = field(default=0, repr=False)
    _next: int = field(default=PROGRESS_EVERY, repr=False)

    def __post_init__(self):
        if self.max_epochs is None:
            raise ParameterError("max_epochs must be a whole number >= 1, got None (every loop is bounded)",
                                 parameter="max_epochs")
        for name in ("max_epochs", "max_updates", "max_bits", "max_steps"):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 1):
                raise ParameterError(f"{name} must be a whole number >= 1, got {quote(v)}", parameter=name)
        if self.max_seconds is not None and not self.max_seconds > 0:
            raise ParameterError(f"max_seconds must be > 0, got {quote(self.max_seconds)}", parameter="max_seconds")

    def budget(self) -> tuple:
        """The deterministic bounds in force, as (name, value) pairs (what a progress record shows)."""
        out = [("max_epochs", self.max_epochs)]
        for name in ("max_steps", "max_updates", "max_bits"):
            v = getattr(self, name)
            if v is not None:
                out.append((name, v))
        if self.max_seconds is not None:
            out.append(("max_seconds", self.max_seconds))
        return tuple(out)

    def tick(self, step: int, updates: int, max_bits: int | None, work: int = 1) -> None:
        """Count ``work`` sample visits (a single-sample round: 1; a batch iteration: n) and call the progress
        callback with a :class:`~exactlin.model.progress.Progress` record once per :data:`PROGRESS_EVERY`
        visits: at deterministic points of the run, never by the clock.  Callers in hot loops test
        ``bounds.progress is not None`` first."""
        if self.progress is None:
            return
        self._work += work
        if self._work >= self._next:
            self._next = self._work + PROGRESS_EVERY
            self.progress(Progress(self.algorithm, step, updates, max_bits, self.budget()))

    def out_of_time(self) -> bool:
        return self.max_seconds is not None and time.monotonic() - self.started > self.max_seconds


class CycleDetector:
    """The first exact repeat in the sequence of states of a stationary rule (a repeat proves the run
    would cycle forever).  The start state counts as state 0; :meth:`observe` takes states 1, 2, ...

    A table of every state while it holds fewer than :data:`CYCLE_TABLE_LIMIT` entries (the first repeat is
    found at once), then Brent's method with O(1) memory (a repeat is found within about twice the
    cycle's start plus its length).  ``observe`` returns the period p at the first repeat found: the
    last p steps form one cycle.
    """

    def __init__(self, start_state):
        self.limit = CYCLE_TABLE_LIMIT
        self.seen: dict | None = {start_state: 0}
        self.count = 0
        self.tortoise = None
        self.power = 1
        self.lam = 0

    def observe(self, state) -> int | None:
        self.count += 1
        if self.seen is not None:
            first = self.seen.get(state)
            if first is not None:
                return self.count - first
            if len(self.seen) < self.limit:
                self.seen[state] = self.count
            else:
                self.seen = None
                self.tortoise = state
            return None
        self.lam += 1
        if state == self.tortoise:
            return self.lam
        if self.lam == self.power:
            self.tortoise = state
            self.power *= 2
            self.lam = 0
        return None

    def remap(self, convert: Callable) -> None:
        """Re-key the remembered states (when the caller changes its state representation)."""
        if self.seen is not None:
            self.seen = {convert(st): c for st, c in self.seen.items()}
        if self.tortoise is not None:
            self.tortoise = convert(self.tortoise)


@dataclass
class LoopResult:
    w: tuple
    converged: bool
    reason: str
    updates: int
    epochs: int
    steps: int
    update_indices: list[int]
    cycle: list[int] | None = None  # indices of the updates in one period of a detected cycle
    max_bits: int = 0
    #: the step (round k) of the last correction, 0 when none was made; ``steps`` is where the run stopped
    last_update: int = 0
    #: the step at which the cycle was proved (with ``stop_on_cycle=False`` the run goes on past it)
    cycle_step: int | None = None


def _bits(w: Sequence) -> int:
    m = 0
    for q in w:
        b = max(abs(q.numerator).bit_length(), q.denominator.bit_length())
        if b > m:
            m = b
    return m


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
    """Visit samples 0, 1, ..., n-1, 0, 1, ... (the notes' cyclic order ``k <- (k+1) mod n``).

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
    if stop not in STOP_CHOICES:
        raise ParameterError(f"stop must be one of {', '.join(STOP_CHOICES)}, got {quote(stop)}", parameter="stop")
    epoch_stop = stop == "clean-epoch"
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
    max_bits = _bits(w)
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
            b = _bits(w)
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
