"""What every loop of the engine shares: the trace (:class:`Tracer`, and :class:`Recorder`, its compact form for the
chunked loops), the bounds (:class:`Bounds`, the budget rows of the parameter tables), the exact cycle detection
(:class:`CycleDetector`) and the result of a single-sample loop (:class:`LoopResult`).

Written once here so that every loop (the cyclic single-sample loop of :mod:`exactlin.engine.cyclic`, the batch
and iterate loops) runs the same stopping tests, the same bounds and the same trace policy, whatever the
representation it computes in (:mod:`exactlin.engine.arith`).

The trace policy (:class:`Tracer`): ``trace=None`` keeps the first ``step_limit`` steps, with the weight vectors
while (steps recorded) x d stays below ``vector_limit``; ``trace=True`` every step with vectors; ``trace=False``
nothing.  The limits, and the size of the exact cycle table (:class:`CycleDetector`), are values the Tracer and
the loop's :class:`Bounds` receive (:class:`Limits`; by default :data:`TRACE_STEP_LIMIT`, :data:`TRACE_VECTOR_LIMIT`
and :data:`CYCLE_TABLE_LIMIT`); the caller of an algorithm sets them with ``algorithm.with_limits(Limits(...))``.
A chunked loop does not build a :class:`~exactlin.model.run.Step` per round while it runs: its :class:`Recorder`
keeps the raw scores of each block of rounds (in the representation's own units) and a snapshot of the weights after
each recorded update (``rep.snapshot()``), and the Step records are built from those through a fresh :class:`Tracer`
(so the policy is the Tracer's own) the first time the trace is read (:class:`~exactlin.model.run.LazySteps`): the
same list, equal step for step, that :meth:`Tracer.add` called at every round would have given.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from exactlin.errors import ParameterError
from exactlin.exact.format import quote
from exactlin.model.params import Param, at_least
from exactlin.model.progress import PROGRESS_EVERY, Progress
from exactlin.model.run import LazySteps, Step

__all__ = ["TRACE_STEP_LIMIT", "TRACE_VECTOR_LIMIT", "Limits", "Tracer", "Recorder", "Bounds", "LoopResult",
           "CycleDetector", "DEFAULT_MAX_EPOCHS", "DEFAULT_MAX_STEPS", "DEFAULT_BATCH_VISITS", "HK_BATCH_VISITS",
           "WH_BATCH_VISITS", "CYCLE_TABLE_LIMIT", "max_steps_param", "max_bits_param", "STOP", "STOP_CHOICES",
           "check_stop", "batch_steps_param", "batch_step_limit"]

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
#: the linear machine's Kesler layout while its n (c - 1) c d entries stay within this (:class:`Limits`)
KESLER_ENTRIES = 1 << 22
#: the values of a per-step history kept (the pocket's E_in_history; :class:`Limits`)
HISTORY_LIMIT = 10_000


@dataclass(frozen=True)
class Limits:
    """The memory a run's records may take: the steps and the vector entries the default trace keeps
    (:class:`Tracer`'s ``step_limit`` and ``vector_limit``) and the states the exact cycle table holds before
    Brent's method takes over (:class:`CycleDetector`'s ``limit``, through :attr:`Bounds.cycle_table`).  Each
    limit is a whole number >= 1; none changes a result, only how much of the trace (or of a history) is kept,
    how soon a cycle is proved and which layout the linear machine's weights take (``machine_entries``,
    ``history``)."""

    trace_steps: int = TRACE_STEP_LIMIT
    trace_vectors: int = TRACE_VECTOR_LIMIT
    cycle_table: int = CYCLE_TABLE_LIMIT
    #: the linear machine's Kesler layout (one product for every rival) while its n (c - 1) c d entries stay
    #: within this, else the c weight vectors apart (:func:`exactlin.engine.machine.machine_arith`)
    machine_entries: int = KESLER_ENTRIES
    #: the values of a per-step history a run keeps (the pocket's E_in_history)
    history: int = HISTORY_LIMIT

    def __post_init__(self):
        for name in ("trace_steps", "trace_vectors", "cycle_table", "machine_entries", "history"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ParameterError(f"{name} must be a whole number >= 1, got {quote(v)}", parameter=name)


class Tracer:
    """Records compact steps.

    ``trace=None`` (default): the first ``step_limit`` steps, with full vectors while
    steps x d <= ``vector_limit``; ``trace=True``: every step with vectors; ``trace=False``:
    nothing (the Run still has its counts and the list of update indices, from which any
    step can be rebuilt by replay).  ``cap`` is how many steps it records (0, ``step_limit``
    or infinity), what a compact recorder keeps.
    """

    def __init__(self, trace: bool | None, d: int, *, step_limit: int = TRACE_STEP_LIMIT,
                 vector_limit: int = TRACE_VECTOR_LIMIT):
        self.mode = trace
        self.steps: list[Step] = []
        self.complete = trace is not False
        self.d = max(d, 1)
        self.step_limit, self.vector_limit = step_limit, vector_limit
        self.cap = 0 if trace is False else (step_limit if trace is None else float("inf"))

    def fresh(self) -> Tracer:
        """An empty Tracer with this one's policy (a compact recorder builds its Steps through one)."""
        return Tracer(self.mode, self.d, step_limit=self.step_limit, vector_limit=self.vector_limit)

    def keep_vectors(self) -> bool:
        """Whether the next step recorded keeps its vectors: the k-th keeps them while k d <= ``vector_limit``."""
        return self.mode is True or (len(self.steps) + 1) * self.d <= self.vector_limit

    def add(self, k: int, epoch: int, i: int | None, score: Any, update: bool, w_before=None, w_after=None,
            **info) -> None:
        if self.mode is False:
            return
        if self.mode is None and len(self.steps) >= self.step_limit:
            self.complete = False
            return
        vec = self.keep_vectors()
        self.steps.append(Step(k, epoch, i, score, update, w_before if vec else None, w_after if vec else None,
                               info))


#: the conventions of the clean stop of a cyclic single-sample rule (``stop`` of :func:`exactlin.engine.cyclic.cyclic`)
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
    #: the states a stationary rule's exact cycle table holds (:class:`CycleDetector`; :class:`Limits`)
    cycle_table: int = CYCLE_TABLE_LIMIT
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

    A table of every state while it holds fewer than ``limit`` entries (the first repeat is
    found at once), then Brent's method with O(1) memory (a repeat is found within about twice the
    cycle's start plus its length).  ``observe`` returns the period p at the first repeat found: the
    last p steps form one cycle.

    With ``confirm`` the states given are *fingerprints*: equal states have equal fingerprints, but equal
    fingerprints need not be equal states, so every match is decided by ``confirm(a, b)`` (are states a and b,
    by their numbers, exactly equal?) before it counts.  States before the first repeat are distinct, so the
    one earlier state a new state can equal is found among the earlier states with its fingerprint, and the
    repeat reported is the one the exact states give.
    """

    def __init__(self, start_state, limit: int = CYCLE_TABLE_LIMIT,
                 confirm: Callable[[int, int], bool] | None = None):
        self.limit = limit
        self.seen: dict | None = {start_state: 0}
        self.more: dict = {}  # fingerprints shared by distinct states: the later states' numbers (confirm only)
        self.confirm = confirm
        self.count = 0
        self.tortoise = None
        self.tortoise_at = 0
        self.power = 1
        self.lam = 0

    def observe(self, state) -> int | None:
        self.count += 1
        if self.seen is not None:
            first = self.seen.get(state)
            if first is not None:
                if self.confirm is None:
                    return self.count - first
                for a in (first, *self.more.get(state, ())):
                    if self.confirm(a, self.count):
                        return self.count - a
                self.more.setdefault(state, []).append(self.count)
                return None
            if len(self.seen) < self.limit:
                self.seen[state] = self.count
            else:
                self.seen = None
                self.more = {}
                self.tortoise, self.tortoise_at = state, self.count
            return None
        self.lam += 1
        if state == self.tortoise and (self.confirm is None or self.confirm(self.tortoise_at, self.count)):
            return self.lam
        if self.lam == self.power:
            self.tortoise, self.tortoise_at = state, self.count
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




def check_stop(stop: str) -> bool:
    """Check a ``stop`` value (:data:`STOP_CHOICES`); True for ``"clean-epoch"``."""
    if stop not in STOP_CHOICES:
        raise ParameterError(f"stop must be one of {', '.join(STOP_CHOICES)}, got {quote(stop)}", parameter="stop")
    return stop == "clean-epoch"


class Recorder:
    """The trace of a chunked loop, kept compactly while the loop runs (module docstring).

    The loop reports the rounds it records in blocks: :meth:`block` for rounds k0+1 .. k0+m on samples
    i0 .. i0+m-1 with the raw scores ``s[:m]`` of the representation's block (no update among them), and
    :meth:`update` for the round k that made an update on sample i, with the raw score ``s[j]``; :meth:`finish`
    hands the tracer its steps, a :class:`~exactlin.model.run.LazySteps` built on first read.  ``rounds(k)`` is
    how many of the rounds after k are still recorded (0: none, the loop need not report them).

    ``score(i, q)`` maps the exact score <w, z_i> to the score the rule reports (default: q itself, the
    perceptron's y<w, x>); ``n`` is the number of samples (epoch = (k - 1) // n + 1).  The blocks are kept as
    the representation gave them and turned into Fractions by ``rep.exact(block, j)`` at build time: a block's
    scores keep their meaning after w changes (:mod:`exactlin.engine.arith`: a block carries its unit; the
    reference's lazy block reads only scores it already computed).
    """

    def __init__(self, tracer: Tracer, rep, n: int, score: Callable | None = None):
        self.tracer, self.rep, self.n, self.score = tracer, rep, n, score
        self.limit = tracer.cap
        # an update at round k keeps its vector when the Tracer would keep the vectors of step k
        self.vec_rounds = float("inf") if tracer.mode is True else tracer.vector_limit // tracer.d
        self.records: list[tuple] = []
        self.start = rep.snapshot() if self.limit else None

    def rounds(self, k: int):
        """How many rounds after round k are still recorded."""
        return self.limit - k if k < self.limit else 0

    def block(self, k0: int, i0: int, s, m: int, infos: list | None = None) -> None:
        """Rounds k0+1 .. k0+m passed, on samples i0 .. i0+m-1, with the scores ``s[0:m]``."""
        self.records.append((k0, i0, s, 0, m, None, infos))

    def update(self, k: int, i: int, s, j: int, info: dict | None = None) -> None:
        """Round k updated w on sample i, whose score is ``s[j]``; called after the update."""
        snap = self.rep.snapshot() if k <= self.vec_rounds else None
        self.records.append((k - 1, i, s, j, 1, (snap,), [info] if info is not None else None))

    def speculated(self, k0: int, i0: int, sp, rounds: int, count: int) -> None:
        """Rounds k0+1 .. k0+rounds on samples i0 .. made at once (``IntegerArith.speculate``'s ``sp``): the
        first ``count`` updates at the offsets ``sp.at``, every score in ``sp.s``, the states by ``sp.state``."""
        prev, s = 0, sp.s
        for u in range(count):
            a = int(sp.at[u])
            if a > prev:
                self.records.append((k0 + prev, i0 + prev, s, prev, a - prev, None, None))
            snap = sp.state(u) if k0 + a + 1 <= self.vec_rounds else None
            self.records.append((k0 + a, i0 + a, s, a, 1, (snap,), None))
            prev = a + 1
        if rounds > prev:
            self.records.append((k0 + prev, i0 + prev, s, prev, rounds - prev, None, None))

    def finish(self, k: int) -> None:
        """The loop ended after round k: the tracer's steps (built on first read) and its completeness."""
        tracer = self.tracer
        if tracer.mode is None and k > self.limit:
            tracer.complete = False
        if self.limit:
            tracer.steps = LazySteps(min(k, self.limit), self._build)

    def _build(self) -> list[Step]:
        tracer = self.tracer.fresh()
        rep, n, score, exact = self.rep, self.n, self.score, self.rep.exact
        fractions = rep.fractions
        w = fractions(self.start) if tracer.keep_vectors() else None
        for k0, i0, s, j0, m, after, infos in self.records:
            for jj in range(m):
                k, i = k0 + jj + 1, i0 + jj
                q = exact(s, j0 + jj)
                if score is not None:
                    q = score(i, q)
                info = infos[jj] if infos is not None else None
                if after is None:
                    tracer.add(k, (k - 1) // n + 1, i, q, False, w, w, **(info or {}))
                else:
                    w_after = fractions(after[0]) if after[0] is not None else None
                    tracer.add(k, (k - 1) // n + 1, i, q, True, w, w_after, **(info or {}))
                    w = w_after
        self.records = None
        return tracer.steps
