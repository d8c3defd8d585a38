"""The worked-examples registry: every lecture example, reproduced and checked against the lecture.

Each example is a function registered with :func:`example`; it runs exactlin and
returns an :class:`ExampleResult` whose ``checks`` compare what the lecture
printed (or a hand derivation, said so) with what exactlin computed.  Bare
``exactlin`` runs them all; ``exactlin examples show ID`` runs one.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from exactlin.model.run import Run

__all__ = ["Check", "ExampleResult", "Example", "EXAMPLES", "example", "get_example", "all_examples", "run_example"]


@dataclass
class Check:
    """One comparison: ``expected`` is what the lecture (or a hand derivation) says; ``actual`` what exactlin got."""

    what: str
    expected: Any
    actual: Any
    source: str = "lecture"

    @property
    def ok(self) -> bool:
        return self.expected == self.actual

    def to_dict(self) -> dict:
        from exactlin.model.serialize import to_jsonable

        return {"what": self.what, "expected": to_jsonable(self.expected), "actual": to_jsonable(self.actual),
                "source": self.source, "ok": self.ok}


@dataclass
class ExampleResult:
    runs: list[Run]
    checks: list[Check]
    notes: list[str] = field(default_factory=list)  # what the lecture printed vs what is right, and why
    data: dict = field(default_factory=dict)  # extra exact results (matrices, margins) for display

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)


@dataclass
class Example:
    id: str
    title: str
    seed: str
    func: Callable[[], ExampleResult]
    algorithm: str | None = None


EXAMPLES: dict[str, Example] = {}

#: modules that register examples (skipped while they do not exist)
EXAMPLE_MODULES = ("exactlin.lectures.examples_perceptron", "exactlin.lectures.examples_family",
    "exactlin.lectures.examples_linalg", "exactlin.lectures.examples_margin")


def example(id: str, *, title: str, seed: str, algorithm: str | None = None) -> Callable:
    def deco(func):
        if id in EXAMPLES:
            raise ValueError(f"example {id!r} registered twice")
        EXAMPLES[id] = Example(id, title, seed, func, algorithm)
        return func

    return deco


def _load() -> None:
    """Import every module of :data:`EXAMPLE_MODULES`; an import error (a misspelled module too) propagates."""
    for m in EXAMPLE_MODULES:
        importlib.import_module(m)


def all_examples() -> list[Example]:
    _load()
    return list(EXAMPLES.values())


def get_example(id: str) -> Example:
    _load()
    if id not in EXAMPLES:
        from exactlin.errors import ParameterError

        raise ParameterError(f"no worked example {id!r}; `exactlin examples` lists them: {', '.join(EXAMPLES)}",
                             parameter="example")
    return EXAMPLES[id]


def run_example(id: str) -> ExampleResult:
    return get_example(id).func()
