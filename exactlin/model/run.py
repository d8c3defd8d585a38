"""Layer 3: the one record every algorithm returns.

A :class:`Run` holds the exact final weights, whether the run converged and
*why it stopped* (one of :data:`REASONS`), the counts (updates K, epochs, steps),
the parameters it used (exact), a compact trace of :class:`Step` records, and
algorithm-specific results in ``extras`` (an intercept ``b``, a threshold ``y0``,
one vector per class, a certificate, ...).  The CLI, the docs generator, JSON
export and the tests treat every algorithm through this one type.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any

from exactlin._version import __version__
from exactlin.exact.format import fmt
from exactlin.exact.rows import ExactRows, ExactVector
from exactlin.model.models import LinearModel  # (importing it also registers every model record for JSON)
from exactlin.model.serialize import IndexList, canonical, from_jsonable, to_jsonable
from exactlin.model.views import view

__all__ = ["Step", "Run", "REASONS", "to_jsonable", "from_jsonable"]

#: Why a run stopped.  Every loop in exactlin ends with one of these.
REASONS: dict[str, str] = {
    "converged": "every sample is classified correctly, checked exactly: a full pass with no mistake (single-sample "
                 "rules), no sample left to correct (batch rules, pocket), Y a > 0 on every sample (Ho-Kashyap), "
                 "every binary run converged (one-vs-rest)",
    "criterion": "the algorithm's stopping criterion (theta, epsilon, b_min) was met",
    "solved": "solved in closed form or by an exact optimiser, and verified",
    "cycle": "the weights returned exactly to an earlier state: a proof that the run never converges",
    "not_separable": "a verified certificate shows the data are not linearly separable",
    "max_epochs": "the bound on passes (epochs/iterations) was reached before convergence",
    "max_updates": "the bound on updates was reached before convergence",
    "max_steps": "the bound on steps (T or k_max) was reached",
    "bit_limit": "a number in the iterate exceeded the bit-length limit",
    "time_limit": "the time limit was reached",
    "boundary": "the rule made no update in a full cycle, yet some samples lie on the boundary (score 0): "
                "w does not separate them (the strict test y<w,x> < 0 from w = 0 stops here at once)",
    "no_mistakes": "no sample was misclassified at the start: nothing to do",
    "undefined": "the algorithm's rule is undefined here (e.g. a zero-norm sample)",
    "stalled": "the rule still fires but no longer moves the weights (every correction is exactly 0, e.g. "
               "relaxation with the test a^t y <= b and eta = 1 once samples sit exactly at b): a fixed point that "
               "is neither the rule's own stop nor a proof of non-separability",
}


@dataclass
class Step:
    """One step of a trace.

    ``k`` is the step number (1-based; the lecture's round t for single-sample rules,
    the iteration for batch rules), ``epoch`` the pass it belongs to, ``i`` the sample
    index (0-based; ``None`` for batch steps), ``score`` the quantity the rule tests
    (for the perceptron y<w,x>), ``update`` whether the weights changed.  ``w_before``
    and ``w_after`` are kept when the trace keeps vectors; ``info`` holds the rule's
    other exact quantities (eta, the batch sum, E_in, ...).
    """

    k: int
    epoch: int
    i: int | None
    score: Any
    update: bool
    w_before: tuple | None = None
    w_after: tuple | None = None
    info: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.info:
            self.info = canonical(self.info)  # lists as tuples, the form JSON reads back

    def to_dict(self) -> dict:
        d = {"k": self.k, "epoch": self.epoch, "i": self.i, "score": to_jsonable(self.score), "update": self.update}
        if self.w_before is not None:
            d["w_before"] = to_jsonable(self.w_before)
        if self.w_after is not None:
            d["w_after"] = to_jsonable(self.w_after)
        if self.info:
            d["info"] = to_jsonable(self.info, text=True)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> Step:
        return cls(
            k=d["k"],
            epoch=d["epoch"],
            i=d["i"],
            score=from_jsonable(d["score"]),
            update=d["update"],
            w_before=tuple(from_jsonable(d["w_before"])) if "w_before" in d else None,
            w_after=tuple(from_jsonable(d["w_after"])) if "w_after" in d else None,
            info=from_jsonable(d.get("info", {})),
        )


class LazySteps(Sequence):
    """A list built the first time it is read: a trace whose :class:`Step` records are built from
    compact records (also the convergence monitor's per-mistake rows).

    A fast loop keeps only integers while it runs (the scores of the recorded steps, the weights after
    each recorded update) and hands ``build``, a function that turns them into the same list of Steps
    the reference loop records; ``n`` is that list's length, known without building it.  Reading any
    element, iterating or comparing builds the list once; ``len`` never does.
    """

    __slots__ = ("_n", "_build", "_steps")

    def __init__(self, n: int, build):
        self._n = n
        self._build = build
        self._steps: list[Step] | None = None

    def steps(self) -> list[Step]:
        if self._steps is None:
            steps = self._build()
            if len(steps) != self._n:  # pragma: no cover - the builders are tested against the reference
                raise RuntimeError(f"trace builder made {len(steps)} steps, expected {self._n}")
            self._steps, self._build = steps, None
        return self._steps

    def __len__(self) -> int:
        return self._n

    def __bool__(self) -> bool:
        return self._n > 0

    def __getitem__(self, i):
        return self.steps()[i]

    def __iter__(self):
        return iter(self.steps())

    def __eq__(self, other) -> bool:
        if isinstance(other, LazySteps):
            other = other.steps()
        if isinstance(other, (list, tuple)):
            return self.steps() == list(other)
        return NotImplemented

    __hash__ = None  # a list's semantics: mutable-looking, unhashable

    def __repr__(self) -> str:
        return repr(self.steps()) if self._steps is not None else f"<trace of {self._n} steps, built on first read>"

    def __reduce__(self):  # pickles (and deep-copies) as the plain list it stands for
        return (list, (self.steps(),))


def same(a, b) -> bool:
    """Equal in value *and* type, all the way down (tuples, lists, dicts, dataclasses): True and 1, 3 and 3.0,
    Fraction(1) and 1.0 are different results.  A lazily built trace counts as the list it stands for."""
    if isinstance(a, LazySteps) or isinstance(b, LazySteps):  # a list however it is held (as LazySteps.__eq__)
        a = list(a.steps() if isinstance(a, LazySteps) else a) if isinstance(a, (LazySteps, list, tuple)) else a
        b = list(b.steps() if isinstance(b, LazySteps) else b) if isinstance(b, (LazySteps, list, tuple)) else b
    # exact rows and vectors held as integers over a denominator are the tuples of Fractions they stand for
    if isinstance(a, ExactRows):
        a = tuple(tuple(r) for r in a)
    elif isinstance(a, ExactVector):
        a = tuple(a)
    if isinstance(b, ExactRows):
        b = tuple(tuple(r) for r in b)
    elif isinstance(b, ExactVector):
        b = tuple(b)
    # an index list held as int64 is the tuple of ints it stands for
    if isinstance(a, IndexList) and isinstance(b, IndexList):
        return a == b
    if isinstance(a, IndexList):
        a = tuple(a.tolist())
    if isinstance(b, IndexList):
        b = tuple(b.tolist())
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):  # a Run's extras/params are one dict subclass
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if is_dataclass(a):
        return all(same(getattr(a, f.name), getattr(b, f.name)) for f in fields(a) if f.compare)
    eq = a == b
    if isinstance(eq, bool):
        return eq
    try:  # an array compares entry by entry
        return bool(eq.all())
    except AttributeError:
        return bool(eq)


@dataclass(eq=False)
class Run:
    """The result of one algorithm on one dataset.  Two Runs are equal when every field but ``problem`` is
    equal in value and in type (:func:`same`): ``converged`` True is not 1, ``updates`` 3 is not 3.0."""

    algorithm: str
    w: tuple | None
    bias: str
    converged: bool
    reason: str
    updates: int = 0
    epochs: int = 0
    steps: int = 0
    params: dict = field(default_factory=dict)
    trace: list[Step] = field(default_factory=list)
    trace_complete: bool = True
    extras: dict = field(default_factory=dict)
    seed: str | None = None
    source: str | None = None
    #: the prediction model (:mod:`exactlin.model.models`): what ``predict``/``decision`` use
    model: Any = None
    #: the problem the run solved (augmented samples ``Y``, labels ``z`` and the Dataset); not serialized
    problem: Any = field(default=None, repr=False, compare=False)
    #: how the data were parsed (delimiter, header, label_column, positive), recorded in a saved result's data
    data_options: dict | None = field(default=None, repr=False, compare=False)
    #: a saved result's ``result_format``, ``data`` and ``claims`` as read back (written again by ``to_dict``)
    carried: dict | None = field(default=None, repr=False, compare=False)
    #: the exact arithmetic the run computed in (``arithmetic=`` of every algorithm): ``{"requested": "auto",
    #: "used": "integer", "tiers": {"float64": 12, "int64": 0, "python": 0}}``, the tiers being the blocks of
    #: work each tier did (``"used": None``: the algorithm has one exact method and records no choice).  Not part
    #: of the result's value: the same call on every arithmetic gives equal Runs
    arithmetic: dict | None = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        if self.reason not in REASONS:
            raise ValueError(f"unknown stop reason {self.reason!r}")
        # the canonical form, the one JSON reads back (lists are tuples), also for extras set after construction
        self.extras = _Canonical(self.extras)
        self.params = _Canonical(self.params)
        if self.w is not None and type(self.w) is list:
            self.w = tuple(self.w)
        if self.model is None and self.w is not None:  # a Run built by hand: the default rule sign(<w, x~>)
            self.model = LinearModel(tuple(self.w), self.bias)

    def __eq__(self, other) -> bool:
        if not isinstance(other, Run):
            return NotImplemented
        return same(self, other)

    __hash__ = None  # mutable, compared by value

    # ------------------------------------------------------------------
    @property
    def reason_text(self) -> str:
        return REASONS[self.reason]

    def _model(self):
        if self.model is None:
            from exactlin.errors import ParameterError

            raise ParameterError(f"{self.algorithm} ({self.reason}): this run has no prediction model "
                                 "(e.g. a proof of non-separability has no classifier)", parameter="model")
        return self.model

    def decision(self, X):
        """The model's exact decision value(s) (:mod:`exactlin.model.models`): g(x) = <w, x~> for a linear
        run, y - y0 for Fisher, the vote, the kernel expansion, one g_c per class...  One point gives a
        value, a list/array of points a tuple."""
        return self._model().decision(X)

    def predict(self, X):
        """The model's label(s) for one point or many: the data's own labels (+1/-1 by default); None where
        the notes leave the point undefined (g(x) = 0, a tied vote, a tie between classes...)."""
        return self._model().predict(X)

    # ------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "exactlin_version": __version__,
            "algorithm": self.algorithm,
            "bias": self.bias,
            "w": to_jsonable(self.w) if self.w is not None else None,
            "converged": self.converged,
            "reason": self.reason,
            "reason_text": self.reason_text,
            "updates": self.updates,
            "epochs": self.epochs,
            "steps": self.steps,
            "params": to_jsonable(self.params, text=True),
            **{k: to_jsonable(v, text=True) for k, v in self.extras.items() if k not in _RESERVED},
            **({"extras_shadowed": to_jsonable(shadowed, text=True)}
               if (shadowed := {k: v for k, v in self.extras.items() if k in _RESERVED}) else {}),
            "trace_complete": self.trace_complete,
            "trace": [s.to_dict() for s in self.trace],
            "seed": self.seed,
            **({"model": to_jsonable(self.model)} if self.model is not None else {}),
            **({"arithmetic": to_jsonable(self.arithmetic)} if self.arithmetic is not None else {}),
            **self._carried(),
        }

    def _carried(self) -> dict:
        """The data and the claims a checker re-checks (:mod:`exactlin.model.claims`)."""
        from exactlin.model.claims import carried

        return carried(self, self.data_options) or dict(self.carried or {})

    def to_json(self, *, trace: bool = True, indent: int | None = 2) -> str:
        d = self.to_dict()
        if not trace:
            d.pop("trace")
        return json.dumps(d, indent=indent)

    @classmethod
    def from_dict(cls, d: dict) -> Run:
        known = {"exactlin_version", "algorithm", "bias", "w", "converged", "reason", "reason_text", "updates",
                 "epochs", "steps", "params", "trace_complete", "trace", "seed", "model", "extras_shadowed",
                 "result_format", "data", "claims", "arithmetic"}
        from exactlin.model.extras import decode

        extras = {k: from_jsonable(v) for k, v in d.items() if k not in known}
        # extras whose names a Run field takes in JSON (the SVMs' feature weights extras["w"]), kept apart
        extras.update({k: from_jsonable(v) for k, v in (d.get("extras_shadowed") or {}).items()})
        # each key in its declared kind (exactlin.model.extras): e.g. an untagged monitor report (JSON written
        # before the tags) becomes a report again
        extras = {k: decode(k, v) for k, v in extras.items()}
        w = d.get("w")
        model = from_jsonable(d["model"]) if d.get("model") is not None else None
        if model is None and w is not None:  # JSON written before Run.model existed: the default linear rule
            from exactlin.model.models import LinearModel

            model = LinearModel(tuple(from_jsonable(w)), d["bias"])
        return cls(
            algorithm=d["algorithm"],
            w=tuple(from_jsonable(w)) if w is not None else None,
            bias=d["bias"],
            converged=d["converged"],
            reason=d["reason"],
            updates=d.get("updates", 0),
            epochs=d.get("epochs", 0),
            steps=d.get("steps", 0),
            params=from_jsonable(d.get("params", {})),
            trace=[Step.from_dict(s) for s in d.get("trace", [])],
            trace_complete=d.get("trace_complete", True),
            extras=extras,
            seed=d.get("seed"),
            model=model,
            carried={k: d[k] for k in ("result_format", "data", "claims") if k in d} or None,
            arithmetic=from_jsonable(d["arithmetic"]) if d.get("arithmetic") is not None else None,
        )

    @classmethod
    def from_json(cls, text: str) -> Run:
        return cls.from_dict(json.loads(text))

    def summary(self) -> str:
        w = "(" + ", ".join(fmt(v) for v in self.w) + ")" if self.w is not None else "-"
        return (f"{self.algorithm}: w = {w}, converged={self.converged} ({self.reason}), "
                f"updates={self.updates}, epochs={self.epochs}")

    def __repr__(self) -> str:
        return f"<Run {self.summary()}>"

    # the views below are registered by the render layer (exactlin.model.views; ``import exactlin`` does it)
    def _repr_html_(self) -> str:
        return view("html")(self)

    def _repr_latex_(self) -> str:
        return view("latex")(self)

    def plot(self, ax=None, **kw):
        """Draw the data and decision boundary (needs the ``plot`` extra: matplotlib)."""
        return view("plot")(self, ax=ax, **kw)


class _Canonical(dict):
    """A Run's ``extras`` and ``params``: a dict whose values are kept in their canonical form
    (:func:`exactlin.model.serialize.canonical`: lists become tuples), so that a Run equals its JSON read back."""

    def __init__(self, *a, **kw):
        super().__init__()
        self.update(*a, **kw)

    def __setitem__(self, key, value):
        super().__setitem__(key, canonical(value))

    def update(self, *a, **kw):
        for k, v in dict(*a, **kw).items():
            self[k] = v

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def __reduce__(self):
        return (_Canonical, (dict(self),))


_RESERVED = {"result_format", "data", "claims",  # a saved result's carried block (exactlin.model.claims)
             "exactlin_version", "algorithm", "bias", "w", "converged", "reason", "updates", "epochs", "steps",
             "params", "trace", "trace_complete", "seed", "reason_text", "model", "arithmetic"}
