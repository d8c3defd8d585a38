"""The errata: every place where the lecture notes and the correct algorithm disagree.

Each erratum records what the notes print (a short excerpt, attributed to the seed
file), what exactlin implements instead, and a function that produces the numeric
demonstration; ``tests/lectures/test_examples.py`` runs every demonstration and the docs
site renders them at build time.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Erratum", "ERRATA", "erratum", "all_errata", "side_by_side"]


@dataclass
class Erratum:
    id: str
    seed: str
    where: str  # e.g. "Algorithm 11, line 5"
    notes_say: str  # short excerpt
    correct: str  # what exactlin implements, and why
    demonstrate: Callable[[], dict]  # returns {"holds": bool, "text": str, ...exact values}


ERRATA: dict[str, Erratum] = {}
ERRATA_MODULES = ("exactlin.lectures.examples_perceptron", "exactlin.lectures.examples_family",
    "exactlin.lectures.examples_linalg", "exactlin.lectures.examples_margin",
    "exactlin.lectures.seed000", "exactlin.lectures.seed001", "exactlin.lectures.seed002",
    "exactlin.lectures.seed003", "exactlin.lectures.seed004")


def erratum(id: str, *, seed: str, where: str, notes_say: str, correct: str) -> Callable:
    def deco(func):
        if id in ERRATA:
            raise ValueError(f"erratum {id!r} registered twice")
        ERRATA[id] = Erratum(id, seed, where, notes_say, correct, func)
        return func

    return deco


def side_by_side(corrected, printed) -> dict:
    """The two variants of an algorithm on the erratum's data, for a demonstration dict: each run's outcome
    (reason, w, corrections, the step of the last one, the step the run ended) and the printed run's note."""
    from exactlin.exact.format import fmt

    def outcome(r):
        w = "-" if r.w is None else "(" + ", ".join(fmt(v) for v in r.w) + ")"
        return (f"{r.algorithm} variant={r.params.get('variant', 'corrected')}: reason {r.reason}, w = {w}, "
                f"{r.updates} corrections, last at step {r.extras.get('last_update_step')}, ended at step {r.steps}")

    return {"corrected run": outcome(corrected), "printed run": outcome(printed),
            "printed note": printed.extras.get("printed_note", "")}


def all_errata() -> list[Erratum]:
    for m in ERRATA_MODULES:  # an import error (a misspelled module too) propagates
        importlib.import_module(m)
    return list(ERRATA.values())
