"""Layer 3: the small record a long run hands to a progress callback.

Every registered algorithm takes ``progress=callable`` (see :mod:`exactlin.algorithms._contract`).  The
shared loops call it with a :class:`Progress` record while they run -- counted deterministically in work
(every :data:`PROGRESS_EVERY` sample visits: a single-sample step is one visit, a batch iteration is n), never
by the clock -- and the entry point calls it once more at the end with ``final=True`` and the stop reason.
What a callback does with the records (a terminal line throttled in time: :mod:`exactlin.render.progress`)
is its own business; the run's result never depends on it.

>>> p = Progress("perceptron", 1000, 12, 5, (("max_epochs", 1000), ("max_updates", 100000)))
>>> p.step, p.updates, p.max_bits, p.final
(1000, 12, 5, False)
>>> p.budget_text()
'max_epochs=1000, max_updates=100000'
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Progress", "PROGRESS_EVERY"]

#: a progress callback is called at most once per this many sample visits of work (about 0.2 s of the slowest
#: exact single-sample rule on this project's 2-core benchmark machine; the display throttles further in time)
PROGRESS_EVERY = 1000


@dataclass(frozen=True)
class Progress:
    """Where a run is: ``algorithm`` (its registered name), ``step`` (steps so far: rounds of a single-sample
    rule, iterations of a batch rule), ``updates`` (updates so far), ``max_bits`` (the largest bit length of a
    numerator or denominator in the iterates so far; None where the loop does not measure it), ``budget`` (the
    deterministic bounds in force, as (name, value) pairs), and at the end ``final=True`` with the stop
    ``reason`` (one of :data:`exactlin.model.run.REASONS`)."""

    algorithm: str
    step: int
    updates: int
    max_bits: int | None
    budget: tuple = ()
    final: bool = False
    reason: str | None = None

    def budget_text(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.budget)
