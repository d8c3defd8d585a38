"""The algorithm contract, enforced once for every registered algorithm.

:func:`exactlin.algorithms.register` wraps each algorithm's rule in :func:`entry_point`.  The entry point

* binds the call to a signature GENERATED from the parameter table (``X, y=None, *, bias, positive, floats,
  max_epochs, trace`` and then every row of the table with its default), so ``help()``,
  :func:`inspect.signature` and editors show the real keyword parameters;
* rejects an unknown keyword with a :class:`~exactlin.errors.ParameterError` naming it (and the closest
  known name, by :mod:`difflib`);
* validates every given value by its :class:`~exactlin.model.params.Param`, checks the conflicts the table
  declares, checks the common keywords, fills the defaults;
* calls the rule with ONE checked parameter object, :class:`Checked`, which also builds the run's
  :class:`~exactlin.engine.trace.Bounds` and :class:`~exactlin.engine.trace.Tracer` under the call's
  :class:`~exactlin.engine.trace.Limits` (the defaults; another with the function's ``with_limits``).

The rule itself only computes: ``rule(X, y, P)``.  After it returns, the entry point applies the one params
policy (:func:`complete_params`: every table row with its effective value, and ``max_epochs``) and records
``run.arithmetic``; :func:`make_run` is the one place a rule's Run is assembled.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from exactlin.errors import ParameterError
from exactlin.exact.numbers import check_input_size
from exactlin.model.params import Conflict, Param, check_conflicts

__all__ = ["COMMON_KWARGS", "ARITHMETICS", "Checked", "entry_point", "check_call", "parameter_table_doc",
           "signature_for", "make_run", "complete_params"]

#: the keywords every registered algorithm takes besides its table (a multi-class one has no ``positive``)
COMMON_KWARGS = ("bias", "positive", "floats", "max_epochs", "trace", "progress", "input_digits", "arithmetic")

#: the exact arithmetics an algorithm may compute in (``arithmetic=``): "auto" lets the algorithm choose from the
#: data; "fraction" is the readable reference (tuples of Fractions), "integer" integers over one denominator on the
#: float64/int64/Python-int tiers, "flint" python-flint rationals.  An algorithm declares the ones it has
#: (``register(..., arithmetics=...)``); asking for another is a ParameterError, never a silent fall-back
ARITHMETICS = ("auto", "fraction", "integer", "flint")

_COMMON_DOC = {
    "bias": "where the constant 1 of the augmented samples goes: none, first or last",
    "positive": "the label that becomes +1 (default: by the labels' own rule, see binary_labels)",
    "floats": "how a float in the data is read: repr (its shortest repr, 0.1 = 1/10), exact (its binary value) "
              "or reject",
    "max_epochs": "stop after this many passes over the data, or iterations of a batch rule (every loop is "
                  "bounded; None: the default)",
    "trace": "None: the first steps (with vectors while small); True: every step; False: none",
    "progress": "None, or a callable that receives a Progress record (exactlin.model.progress: algorithm, step, "
                "updates, max_bits, budget) every 1,000 sample visits of work and once at the end (final=True, "
                "with the stop reason); exactlin.render.progress.ProgressLine shows them on a terminal",
    "input_digits": "the input-size limit: at most this many digits in one number of the data or the parameters, "
                    "and 20 times as many beyond the first 20 digits of each, summed (None: "
                    "exactlin.exact.numbers.INPUT_DIGITS, 300); a longer input is refused at once with an "
                    "InputSizeError, so that no call runs for long",
    "arithmetic": "the exact arithmetic to compute in: auto (the algorithm chooses from the data), fraction (the "
                  "readable reference, tuples of Fractions), integer (integers over one denominator, on float64, "
                  "int64 or Python integers as exactness bounds allow) or flint (python-flint rationals); the "
                  "choices an algorithm has are in its table's notes; every choice gives the same Run, and "
                  "run.arithmetic records the one used with its tiers",
}


class Checked(Mapping):
    """The checked parameters of one call: the table's values (defaults filled in) as a read-only mapping,
    the common keywords as attributes, and the names given explicitly (``given``)."""

    __slots__ = ("algorithm", "bias", "positive", "floats", "max_epochs", "trace", "progress", "_values", "given",
                 "last_bounds", "input_digits", "arithmetic", "used_arithmetic", "limits")

    def __init__(self, algorithm: str, values: dict[str, Any], given: frozenset[str], *, bias: str, positive,
                 floats: str, max_epochs: int, trace: bool | None, progress: Callable | None = None,
                 input_digits: int | None = None, arithmetic: str = "auto", limits=None):
        from exactlin.engine.trace import Limits

        self.algorithm = algorithm
        self._values = dict(values)
        self.given = given
        self.bias = bias
        self.positive = positive
        self.floats = floats
        self.max_epochs = max_epochs
        self.trace = trace
        self.progress = progress
        self.input_digits = input_digits
        self.arithmetic = arithmetic
        #: the memory limits of the run's records (:class:`~exactlin.engine.trace.Limits`): trace, cycle table
        self.limits = limits if limits is not None else Limits()
        #: what the rule computed in, set by :meth:`record_arithmetic` (the entry point copies it to run.arithmetic)
        self.used_arithmetic: dict | None = None
        self.last_bounds = None  # the Bounds the rule built (a batch rule fills in its default budget there)

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return (f"Checked({self.algorithm!r}, {self._values!r}, bias={self.bias!r}, positive={self.positive!r}, "
                f"floats={self.floats!r}, max_epochs={self.max_epochs!r}, trace={self.trace!r})")

    def replace(self, **values) -> Checked:
        """These parameters with some values set by the rule itself (e.g. the stop a printed listing implies);
        ``given`` is unchanged, so the values the caller gave stay distinguishable."""
        out = Checked(self.algorithm, {**self._values, **values}, self.given, bias=self.bias, positive=self.positive,
                      floats=self.floats, max_epochs=self.max_epochs, trace=self.trace, progress=self.progress,
                      input_digits=self.input_digits, arithmetic=self.arithmetic, limits=self.limits)
        return out

    def effective(self, **values) -> dict[str, Any]:
        """The run's ``params``, by the one policy every algorithm follows: every row of the table with the value
        the run used (the default when not given; ``values`` are the ones the rule settled itself, e.g. a batch
        rule's budget or the strict test a variant implies), and ``max_epochs``."""
        return {**self._values, **values, "max_epochs": self.max_epochs}

    def record_arithmetic(self, used: str, tiers: Mapping[str, int] | None = None) -> None:
        """Record the arithmetic the rule computed in and the work each tier did (``run.arithmetic``)."""
        self.used_arithmetic = {"requested": self.arithmetic, "used": used, "tiers": dict(tiers or {})}

    def bounds(self):
        """The run's :class:`~exactlin.engine.trace.Bounds` (its clock starts now) from ``max_epochs`` and
        the table's ``max_updates``/``max_bits``/``max_steps``/``max_seconds`` where it has them, with the
        progress callback and the cycle table's limit."""
        from exactlin.engine.trace import Bounds

        secs = self._values.get("max_seconds")
        self.last_bounds = Bounds(max_epochs=self.max_epochs, max_updates=self._values.get("max_updates"),
                                  max_bits=self._values.get("max_bits"),
                                  max_seconds=float(secs) if secs is not None else None,
                                  max_steps=self._values.get("max_steps"), progress=self.progress,
                                  algorithm=self.algorithm, cycle_table=self.limits.cycle_table)
        return self.last_bounds

    def tracer(self, d: int):
        """The run's :class:`~exactlin.engine.trace.Tracer` for d-vectors, under ``trace`` and the limits."""
        from exactlin.engine.trace import Tracer

        return Tracer(self.trace, d, step_limit=self.limits.trace_steps, vector_limit=self.limits.trace_vectors)

    def problem(self, X, y):
        """The binary problem (:func:`~exactlin.algorithms._loop.binary_problem`) under these keywords."""
        from exactlin.algorithms._loop import binary_problem

        return binary_problem(X, y, bias=self.bias, positive=self.positive, floats=self.floats)


def make_run(P: Checked, prob, *, w, converged: bool, reason: str, updates: int = 0, epochs: int = 0,
             steps: int = 0, tracer=None, extras: dict | None = None, seed: str | None = None, model: Any = "linear",
             params: dict | None = None, algorithm: str | None = None, trace: Sequence | None = None,
             trace_complete: bool = True):
    """The one place a registered algorithm's :class:`~exactlin.model.run.Run` is assembled.

    ``params`` are the values the rule settled itself (merged into :meth:`Checked.effective`: every table row
    with its effective value); the trace and its completeness come from ``tracer`` (none: a closed-form result,
    an empty complete trace), or, for a run that gathers the steps of other runs (one-vs-rest), from ``trace``
    and ``trace_complete``; ``model`` is the prediction model, by default the linear rule sign(<w, x~>) with
    the problem's own labels (None: a run without a classifier, e.g. a proof of non-separability);
    ``algorithm`` defaults to the registered name; the arithmetic the rule recorded
    (:meth:`Checked.record_arithmetic`) becomes ``run.arithmetic``."""
    from exactlin.model.models import linear_model
    from exactlin.model.run import Run

    if tracer is not None and trace is not None:
        raise TypeError("make_run takes a tracer or a trace, not both")
    if isinstance(model, str) and model == "linear":
        model = linear_model(w, P.bias, prob) if w is not None else None
    if tracer is not None:
        trace, trace_complete = tracer.steps, tracer.complete
    return Run(algorithm or P.algorithm, w, P.bias, converged, reason, updates, epochs, steps,
               params=P.effective(**(params or {})),
               trace=trace if trace is not None else [],
               trace_complete=trace_complete,
               extras=dict(extras or {}), seed=seed, problem=prob, model=model, arithmetic=P.used_arithmetic)


def complete_params(run, P: Checked) -> None:
    """The params policy, applied once to every registered algorithm's Run (by the entry point, whatever the
    rule recorded): ``run.params`` holds every row of the table and ``max_epochs``, each with its effective
    value -- the value the rule settled where it recorded one (a batch rule's budget, the strict test a variant
    implies), else :meth:`Checked.effective` (the given value, or the table's default) -- in the table's order."""
    params = getattr(run, "params", None)
    if params is None:
        return
    full = {**P.effective(), **params}
    params.clear()
    params.update(full)


def _suggest(name: str, known: Sequence[str]) -> str:
    import difflib  # only on an error: not imported by every call's module

    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _check_common(algorithm: str, kw: dict[str, Any]) -> None:
    from exactlin.data.dataset import check_bias
    from exactlin.exact.numbers import FLOAT_RULES

    check_bias(kw["bias"])
    if "floats" in kw and kw["floats"] not in FLOAT_RULES:
        raise ParameterError(f"floats must be one of {', '.join(FLOAT_RULES)}; got {kw['floats']!r}",
                             parameter="floats")
    me = kw["max_epochs"]
    if isinstance(me, bool) or not isinstance(me, int) or me < 1:
        raise ParameterError(f"max_epochs must be a whole number >= 1, got {me!r}", parameter="max_epochs")
    t = kw["trace"]
    if not (t is None or t is True or t is False):
        raise ParameterError(f"trace must be None, True or False, got {t!r}", parameter="trace")
    pr = kw.get("progress")
    if pr is not None and not callable(pr):
        raise ParameterError(f"progress must be None or a callable taking a Progress record, got {pr!r}",
                             parameter="progress")
    ar = kw.get("arithmetic", "auto")
    if ar not in ARITHMETICS:
        raise ParameterError(f"arithmetic must be one of {', '.join(ARITHMETICS)}, got {ar!r}", parameter="arithmetic")
    nd = kw.get("input_digits")
    if nd is not None and (isinstance(nd, bool) or not isinstance(nd, int) or nd < 1):
        raise ParameterError(f"input_digits must be None or a whole number >= 1, got {nd!r}", parameter="input_digits")


def check_call(algorithm: str, table: Sequence[Param], conflicts: Sequence[Conflict], common: Sequence[str],
               defaults: dict[str, Any], kwargs: dict[str, Any]) -> Checked:
    """Validate the keyword arguments of one call; returns the :class:`Checked` parameters."""
    rows = {p.name: p for p in table}
    known = (*common, *rows)
    for k in kwargs:
        if k not in rows and k not in common:
            raise ParameterError(f"{algorithm} has no parameter {k!r}{_suggest(k, known)}; its parameters are: "
                                 f"{', '.join(rows) or '(none)'}", parameter=k)
    kw = {c: kwargs.get(c, defaults[c]) for c in common}
    if kw.get("max_epochs", 0) is None:  # None: the default bound (every loop is bounded)
        kw["max_epochs"] = defaults["max_epochs"]
    _check_common(algorithm, kw)
    checked: dict[str, Any] = {}
    for k, v in kwargs.items():
        p = rows.get(k)
        if p is None:
            continue
        if v is None and not p.none_is_value:
            continue  # None means "the default"
        checked[k] = p.validate(v) if v is not None else None
    check_conflicts(table, checked, algorithm, conflicts)
    values = {p.name: checked[p.name] if p.name in checked else p.default for p in table}
    return Checked(algorithm, values, frozenset(checked), bias=kw["bias"], positive=kw.get("positive"),
                   floats=kw.get("floats", "repr"), max_epochs=kw["max_epochs"], trace=kw.get("trace"),
                   progress=kw.get("progress"), input_digits=kw.get("input_digits"),
                   arithmetic=kw.get("arithmetic", "auto"))


def signature_for(table: Sequence[Param], common: Sequence[str], defaults: dict[str, Any]) -> inspect.Signature:
    P = inspect.Parameter
    params = [P("X", P.POSITIONAL_OR_KEYWORD), P("y", P.POSITIONAL_OR_KEYWORD, default=None)]
    params += [P(c, P.KEYWORD_ONLY, default=defaults[c]) for c in common]
    params += [P(p.name, P.KEYWORD_ONLY, default=p.default) for p in table]
    return inspect.Signature(params, return_annotation="Run")


def _kind_text(p: Param) -> str:
    if p.kind == "choice":
        return "{" + ", ".join(repr(c) for c in p.choices) + "}"
    return p.kind


def _default_text(v) -> str:
    from fractions import Fraction

    if isinstance(v, Fraction):
        return str(v)
    return repr(v)


def parameter_table_doc(table: Sequence[Param], common: Sequence[str], defaults: dict[str, Any]) -> str:
    """The numpydoc "Parameters" section of an algorithm, generated from its table."""
    lines = ["Parameters", "----------", "X : rows of exact numbers (int, Fraction, str, float), or a Dataset",
             "    the samples", "y : labels", "    one label per sample (None when X is a Dataset)"]
    for c in common:
        lines += [f"{c} : keyword, default {defaults[c]!r}", f"    {_COMMON_DOC[c]}"]
    for p in table:
        lines += [f"{p.name} : {_kind_text(p)}, default {_default_text(p.default)}", f"    {p.doc}"]
    return "\n".join(lines)


def _final_progress(algorithm: str, P: Checked, run, iterative: bool) -> None:
    """The last record a progress callback receives: the run's counts, ``final=True`` and its reason (the budget:
    the bounds the rule ran under; none for a closed-form or optimiser algorithm)."""
    from exactlin.model.progress import Progress

    bits = run.extras.get("max_bits") if hasattr(run, "extras") else None
    if not iterative:
        budget = ()
    else:
        budget = (P.last_bounds or P.bounds()).budget()
    P.progress(Progress(algorithm, getattr(run, "steps", 0), getattr(run, "updates", 0),
                        bits if isinstance(bits, int) and not isinstance(bits, bool) else None, budget, final=True,
                        reason=getattr(run, "reason", None)))


#: the algorithm whose call is running (None outside every call): the input-size limit is checked once, on the
#: user's call, with the user's input_digits, never again on the runs an algorithm makes of another
_INSIDE: contextvars.ContextVar[str | None] = contextvars.ContextVar("exactlin_algorithm_call", default=None)


def _numbers_of(where: str, v: Any, floats: str) -> Iterator[tuple[str, Any]]:
    """(where, Fraction) for each exact number in one entry or parameter value (a sequence: each element);
    a value the conversion rule refuses is skipped here (the rule raises its own error), a float is short."""
    from fractions import Fraction

    from exactlin.errors import ExactlinError
    from exactlin.exact.numbers import to_rational

    if isinstance(v, bool) or v is None or isinstance(v, float):
        return
    if isinstance(v, int):
        if v.bit_length() > 66:
            yield where, Fraction(v)
        return
    if isinstance(v, Fraction):
        yield where, v
        return
    if isinstance(v, (list, tuple)):
        for j, x in enumerate(v):
            yield from _numbers_of(f"{where}[{j + 1}]", x, floats)
        return
    if isinstance(v, str) or type(v).__module__.split(".")[0] in ("decimal", "sympy", "flint"):
        try:
            yield where, to_rational(v, floats=floats if floats in ("repr", "exact") else "repr")
        except (ExactlinError, ValueError, TypeError):
            return


def _input_numbers(X, P: Checked) -> Iterator[tuple[str, Any]]:
    """The numbers of one call's input, each with where it is: the samples' entries (an integer numpy array or
    :class:`~exactlin.exact.rows.ExactRows` holds machine integers only, so it is not walked) and the numeric
    parameters.  Rows that are not rows are left to the rule's own error."""
    from exactlin.exact.rows import ExactRows

    rows = getattr(X, "X", X)  # a Dataset: its exact rows
    if isinstance(rows, ExactRows) or getattr(rows, "dtype", None) is not None and rows.dtype.kind in "iuf":
        rows = ()
    elif hasattr(rows, "to_numpy") and not isinstance(rows, (list, tuple)):  # a DataFrame
        rows = rows.to_numpy()
        rows = () if rows.dtype.kind in "iuf" else rows
    from fractions import Fraction

    try:
        for i, row in enumerate(rows):
            if isinstance(row, (str, bytes)) or not hasattr(row, "__iter__"):
                continue
            for j, v in enumerate(row):
                t = type(v)  # the common short numbers first, without a call (this loop sees every entry)
                if t is int and v.bit_length() <= 66 or t is Fraction and v.numerator.bit_length() <= 66 \
                        and v.denominator.bit_length() <= 66:
                    continue
                yield from _numbers_of(f"sample {i + 1}, feature {j + 1}", v, P.floats)
    except TypeError:  # X is not iterable: the rule says so
        pass
    for name, v in P.items():
        yield from _numbers_of(f"parameter {name}", v, P.floats)


def entry_point(algorithm: str, rule: Callable, table: Sequence[Param], conflicts: Sequence[Conflict], *,
                multiclass: bool, bias_default: str, iterative: bool = True,
                arithmetics: Sequence[str] = ()) -> Callable:
    """The public function of a registered algorithm: checks the call once, then runs ``rule(X, y, P)``.

    ``arithmetics`` are the exact arithmetics the rule implements besides "auto" (:data:`ARITHMETICS`); an
    ``arithmetic=`` it does not have is a ParameterError naming the ones it has.  What the rule records with
    ``P.record_arithmetic`` becomes ``run.arithmetic``.

    ``entry.with_limits(limits)`` is the same function under other memory limits of the run's records
    (:class:`~exactlin.engine.trace.Limits`: the steps and vectors the default trace keeps, the size of the exact
    cycle table); they never change a result, only how much of the trace is kept and how soon a cycle is found."""
    from exactlin.engine.trace import DEFAULT_MAX_EPOCHS

    common = tuple(c for c in COMMON_KWARGS if not (multiclass and c == "positive"))
    defaults = {"bias": bias_default, "positive": None, "floats": "repr", "max_epochs": DEFAULT_MAX_EPOCHS,
                "trace": None, "progress": None, "input_digits": None, "arithmetic": "auto"}
    arithmetics = tuple(arithmetics)
    table = tuple(table)
    sig = signature_for(table, common, defaults)

    def call(args, kwargs, limits):
        if len(args) > 2:
            raise TypeError(f"{rule.__name__}() takes X and y positionally; every other parameter is a keyword "
                            f"({len(args)} positional arguments given)")
        for k in kwargs:
            if k not in sig.parameters:
                raise ParameterError(f"{algorithm} has no parameter {k!r}"
                                     f"{_suggest(k, [n for n in sig.parameters if n not in ('X', 'y')])}; its "
                                     f"parameters are: {', '.join(p.name for p in table) or '(none)'}", parameter=k)
        bound = sig.bind(*args, **kwargs)
        X = bound.arguments.pop("X")
        y = bound.arguments.pop("y", None)
        P = check_call(algorithm, table, conflicts, common, defaults, bound.arguments)
        if limits is not None:
            P.limits = limits
        if P.arithmetic != "auto" and P.arithmetic not in arithmetics:
            has = ", ".join(repr(a) for a in ("auto", *arithmetics))
            raise ParameterError(f"{algorithm} does not compute in arithmetic={P.arithmetic!r}; it takes {has}",
                                 parameter="arithmetic")
        outer = _INSIDE.get() is None
        if outer:  # the user's call (an algorithm run by another, e.g. one-vs-rest's binary runs, is inside it)
            check_input_size(_input_numbers(X, P), P.input_digits)  # before any work: refused at once
            token = _INSIDE.set(algorithm)
        try:
            run = rule(X, y, P)
        finally:
            if outer:
                _INSIDE.reset(token)
        if getattr(run, "arithmetic", None) is None and hasattr(run, "arithmetic"):
            # what the rule recorded; a rule that records nothing (it has one exact method) says so: used None
            run.arithmetic = P.used_arithmetic or {"requested": P.arithmetic, "used": None, "tiers": {}}
        complete_params(run, P)
        if P.progress is not None:
            _final_progress(algorithm, P, run, iterative)
        return run

    @functools.wraps(rule)
    def entry(*args, **kwargs):
        return call(args, kwargs, None)

    def with_limits(limits) -> Callable:
        """This algorithm under the memory limits ``limits`` (an :class:`exactlin.engine.trace.Limits`)."""
        from exactlin.engine.trace import Limits
        from exactlin.errors import InputTypeError

        if not isinstance(limits, Limits):
            raise InputTypeError(f"with_limits takes an exactlin.engine.trace.Limits, got {limits!r}")

        @functools.wraps(entry)
        def limited(*args, **kwargs):
            return call(args, kwargs, limits)

        return limited

    entry.__signature__ = sig
    entry.with_limits = with_limits
    doc = inspect.cleandoc(rule.__doc__ or "")
    entry.__doc__ = (doc + "\n\n" if doc else "") + parameter_table_doc(table, common, defaults)
    entry.rule = rule
    entry.arithmetics = ("auto", *arithmetics)
    return entry
