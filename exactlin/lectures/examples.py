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
from exactlin.model.serialize import canonical

__all__ = ["Check", "SOURCE_KINDS", "source_kind", "ExampleResult", "Example", "EXAMPLES", "example", "get_example",
           "all_examples", "run_example"]


#: the provenance vocabulary of :attr:`Check.source`: (kind, the prefixes that name it).
#: "lecture": the notes PRINT the expected value (plain ``"lecture"``, or ``"lecture: <the notes' words>"``);
#: "hand derivation": derived by hand, the derivation written in a comment next to the check;
#: "verified": an independent exact verifier certifies the result (``"verified: <which verifier>"``);
#: "independent": computed inside the example by a different method than the algorithm under test
#: (``"independent: <how>"``).
SOURCE_KINDS = (("lecture", ("lecture: ", "lecture (")), ("hand derivation", ("hand derivation",)),
                ("verified", ("verified: ",)), ("independent", ("independent: ",)))


def source_kind(source: str) -> str:
    """The provenance kind of a check's ``source`` ("lecture", "hand derivation", "verified", "independent");
    a :class:`~exactlin.errors.ParameterError` for anything outside the vocabulary."""
    if isinstance(source, str):
        if source == "lecture":
            return "lecture"
        for kind, prefixes in SOURCE_KINDS:
            for p in prefixes:
                if source.startswith(p) and (len(source) > len(p) or p == "hand derivation"):
                    return kind
    from exactlin.errors import ParameterError

    allowed = "'lecture', 'lecture: <the notes' words>', 'hand derivation ...', 'verified: <verifier>', " \
              "'independent: <method>'"
    raise ParameterError(f"Check source {source!r} is not in the provenance vocabulary: use {allowed}",
                         parameter="source")


@dataclass
class Check:
    """One comparison: ``expected`` is what the lecture (or a hand derivation) says; ``actual`` what exactlin got.

    ``source`` says where ``expected`` comes from, in the vocabulary of :data:`SOURCE_KINDS`: "lecture" only
    when the notes print that value.
    """

    what: str
    expected: Any
    actual: Any
    source: str = "lecture"

    def __post_init__(self) -> None:
        try:
            source_kind(self.source)
        except ValueError as e:
            from exactlin.errors import ParameterError

            raise ParameterError(f"check {self.what!r}: {e}", parameter="source") from None

    @property
    def kind(self) -> str:
        """The provenance kind: "lecture", "hand derivation", "verified" or "independent"."""
        return source_kind(self.source)

    @property
    def ok(self) -> bool:
        # a list and a tuple of the same values are the same printed sequence (results hold tuples, the notes'
        # values are often written as lists)
        return canonical(self.expected) == canonical(self.actual)

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
    "exactlin.lectures.examples_linalg", "exactlin.lectures.examples_margin",
    "exactlin.lectures.seed000", "exactlin.lectures.seed001", "exactlin.lectures.seed002",
    "exactlin.lectures.seed003", "exactlin.lectures.seed004")


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
