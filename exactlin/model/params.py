"""Parameter tables: every algorithm declares its parameters once (name, kind, default, rule).

The CLI's ``--param NAME=VALUE`` and the Python keyword arguments go through the
same table, so a parameter is parsed and checked in one place.  Kinds:

``rational``      an exact number: ``1/2``, ``0.1`` (= 1/10), ``3``
``int``           a whole number
``vector``        comma-separated rationals: ``0,1,-1/2``
``matrix``        rows separated by ``;``: ``1,0;0,1``
``schedule``      a sequence eta(k) as an expression in ``k``: ``1``, ``1/k``, ``2/(k+1)``
``bool``          ``true``/``false``
``choice``        one of a fixed set of words
``str``           free text (e.g. a label)

>>> s = Schedule("1/k"); s(3)
Fraction(1, 3)
>>> Schedule("1/2").constant
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactlin.errors import ExactlinError, ParameterError
from exactlin.exact.format import quote
from exactlin.exact.numbers import parse_rational, to_rational
from exactlin.model.serialize import record

__all__ = ["MAX_SECONDS", "Param", "Schedule", "as_schedule", "parse_param_value", "check_params", "positive",
           "Conflict", "check_conflicts",
           "nonnegative",
           "at_least", "in_open_interval", "greater_than"]


@record("schedule")
class Schedule:
    """An exact step-size sequence eta(k), k = 1, 2, ...  Built from a number (constant),
    a string expression in ``k`` (evaluated exactly by sympy), or a Python callable."""

    def __init__(self, spec: Any, *, name: str = "eta"):
        self.name = name
        self._cache: dict[int, Fraction] = {}
        if isinstance(spec, Schedule):
            self.text, self._f, self.constant, self._value = spec.text, spec._f, spec.constant, spec._value
            self._callable = spec._callable
            return
        self._value = None
        self._callable = False
        if callable(spec) and not isinstance(spec, str):
            self.text = getattr(spec, "__name__", "callable")
            self._f = spec
            self._callable = True
            self.constant = False
            return
        if isinstance(spec, str):
            text = spec.strip()
            try:
                value = parse_rational(text)
            except ExactlinError:
                value = None
            if value is not None:
                self._set_constant(value, text)
                return
            import sympy

            k = sympy.Symbol("k", positive=True, integer=True)
            _check_expression_size(text, name, k)
            try:
                expr = sympy.sympify(text.replace("^", "**"), locals={"k": k}, rational=True)
            except (sympy.SympifyError, SyntaxError, TypeError, ValueError):
                raise ParameterError(f"{name}={text!r} is not a number or an expression in k such as 1/k",
                                     parameter=name) from None
            if not isinstance(expr, sympy.Expr) or expr.free_symbols - {k}:
                extra = (", ".join(sorted(str(s) for s in expr.free_symbols - {k}))
                         if isinstance(expr, sympy.Expr) else text)
                raise ParameterError(f"{name}={text!r} may use only the step number k (found {extra})",
                                     parameter=name)
            if not expr.free_symbols:
                if not expr.is_Rational:
                    raise ParameterError(f"{name}={text!r} is not a rational number", parameter=name)
                self._set_constant(Fraction(int(expr.p), int(expr.q)), text)
                return
            self.text = text
            self.constant = False

            def ev(kk: int, _expr=expr, _k=k) -> Fraction:
                v = _expr.subs(_k, kk)
                if not v.is_Rational:
                    raise ParameterError(f"{name}({kk}) = {v} is not rational; exactlin steps must be exact "
                                         "rationals", parameter=name)
                return Fraction(int(v.p), int(v.q))

            self._f = ev
            return
        self._set_constant(to_rational(spec, row=None), None)

    def _set_constant(self, value: Fraction, text: str | None):
        self.constant = True
        self._value = value
        self.text = text if text is not None else str(value)
        self._f = lambda k: value

    def __call__(self, k: int) -> Fraction:
        if self._value is not None:
            return self._value
        v = self._cache.get(k)
        if v is None:
            v = self._f(k)
            v = v if isinstance(v, Fraction) else to_rational(v)
            if len(self._cache) < 4096:
                self._cache[k] = v
        return v

    @property
    def value(self) -> Fraction | None:
        """The constant value, or None for a varying schedule."""
        return self._value

    def __repr__(self) -> str:
        return f"Schedule({self.text!r})"

    def __str__(self) -> str:
        return self.text

    def __eq__(self, other) -> bool:
        if not isinstance(other, Schedule):
            return NotImplemented
        if self.constant != other.constant:
            return False
        if self.constant:
            return self._value == other._value and self.text == other.text
        if self._callable or other._callable:  # a Python function: equal only to itself
            return self._f is other._f
        return self.text == other.text

    def __hash__(self) -> int:
        return hash(("Schedule", self.text))

    def to_dict(self) -> dict:  # JSON form: {"record": "schedule", "expr": "1/k", "name": "eta"}
        return {"expr": self.text, "name": self.name}

    @classmethod
    def from_dict(cls, d: dict) -> Schedule:
        """Read back: the schedule parsed again from its text (a Python callable's schedule cannot come back)."""
        expr = d.get("expr")
        if not isinstance(expr, str):
            raise ParameterError(f"a schedule needs its text 'expr', got {expr!r}", parameter=str(d.get("name")))
        return cls(expr, name=str(d.get("name", "eta")))


#: resource guard on schedule expressions: the text's length and a numeric exponent's size (9**9**9 would never
#: finish evaluating)
MAX_EXPRESSION_CHARS = 200
MAX_EXPONENT = 10_000


#: the only characters a schedule expression may use: numbers, k, + - * / ^ ( ) and spaces. sympy parses
#: text with Python's eval, so nothing else (names, attributes, calls, strings) ever reaches it
_SCHEDULE_TEXT = re.compile(r"[0-9k+\-*/^(). ]+")


def _check_expression_size(text: str, name: str, k) -> None:
    import sympy

    if not _SCHEDULE_TEXT.fullmatch(text):
        bad = sorted({c for c in text if not _SCHEDULE_TEXT.fullmatch(c)})
        raise ParameterError(f"{name}={text!r}: a schedule is a number or an expression in k built from numbers, "
                             f"k, + - * / ^ and parentheses (not {' '.join(repr(c) for c in bad)})", parameter=name)
    if len(text) > MAX_EXPRESSION_CHARS:
        raise ParameterError(f"{name}: the expression has {len(text)} characters, more than the limit of "
                             f"{MAX_EXPRESSION_CHARS}", parameter=name)
    try:
        tree = sympy.parse_expr(text.replace("^", "**"), local_dict={"k": k}, evaluate=False)
    except Exception:  # noqa: BLE001 -- sympify below reports malformed text
        return
    for node in sympy.preorder_traversal(tree):
        if isinstance(node, sympy.Pow) and node.exp.has(k):
            _check_exponent_in_k(node.exp, text, name, k)
        if isinstance(node, sympy.Pow) and not node.exp.free_symbols:
            e = node.exp
            if (not e.is_Number and e.has(sympy.Pow)) or (e.is_Number and abs(e) > MAX_EXPONENT):
                raise ParameterError(f"{name}={text!r}: the exponent {e} is too large to compute exactly (the "
                                     f"limit: a number up to {MAX_EXPONENT}, not itself a power)", parameter=name)


def _check_exponent_in_k(e, text: str, name: str, k) -> None:
    """An exponent that grows with k must grow at most linearly, with a coefficient within the numeric limit:
    then eta(k) has O(MAX_EXPONENT * k) bits, a size bounded by the text and the run's own bounds.  2^2^k
    (2^k bits at step k) or 2^(k^3) would outgrow any memory, so they are refused before any step runs."""
    import sympy

    try:
        poly = sympy.Poly(e, k)
    except sympy.PolynomialError:
        poly = None
    if poly is None or poly.degree() > 1 or not all(c.is_Number for c in poly.coeffs()):
        raise ParameterError(f"{name}={text!r}: the exponent {e} grows faster than linearly in k, so eta(k) would "
                             "soon have more digits than memory holds (an exponent in k may be a*k + b with "
                             f"numbers |a|, |b| <= {MAX_EXPONENT})", parameter=name)
    if any(abs(c) > MAX_EXPONENT for c in poly.coeffs()):
        raise ParameterError(f"{name}={text!r}: the exponent {e} has a coefficient beyond the limit of "
                             f"{MAX_EXPONENT}", parameter=name)


def as_schedule(spec: Any, name: str = "eta") -> Schedule:
    return spec if isinstance(spec, Schedule) else Schedule(spec, name=name)


# ---------------------------------------------------------------------------
# checks (each returns an error message or None)


def positive(v) -> str | None:
    return None if v > 0 else "must be > 0"


def nonnegative(v) -> str | None:
    return None if v >= 0 else "must be >= 0"


def at_least(m) -> Callable:
    def check(v):
        return None if v >= m else f"must be >= {m}"

    return check


def greater_than(m) -> Callable:
    def check(v):
        return None if v > m else f"must be > {m}"

    return check


def in_open_interval(lo, hi) -> Callable:
    def check(v):
        return None if lo < v < hi else f"must satisfy {lo} < value < {hi}"

    return check


@dataclass(frozen=True)
class Param:
    """One row of an algorithm's parameter table."""

    name: str
    kind: str
    default: Any
    doc: str
    check: Callable | None = None
    choices: tuple = ()
    #: an explicit None is a value of its own (e.g. max_bits=None switches a default guard off) instead of
    #: "the default"
    none_is_value: bool = False

    def parse(self, text: str) -> Any:
        return parse_param_value(self, text)

    def validate(self, value: Any) -> Any:
        """Convert a Python value to the parameter's exact type and check it."""
        if value is None:
            return None
        name = self.name
        try:
            if self.kind == "rational":
                value = to_rational(value)
            elif self.kind == "int":
                if isinstance(value, bool) or int(value) != value:
                    raise ParameterError(f"{name} must be a whole number, got {quote(value)}", parameter=name)
                value = int(value)
            elif self.kind == "vector":
                if isinstance(value, str):
                    value = parse_param_value(self, value)
                value = tuple(to_rational(v) for v in value)
            elif self.kind == "matrix":
                if isinstance(value, str):
                    value = parse_param_value(self, value)
                value = tuple(tuple(to_rational(v) for v in row) for row in value)
            elif self.kind == "schedule":
                value = as_schedule(value, name)
            elif self.kind == "bool":
                if isinstance(value, str):
                    value = parse_param_value(self, value)
                value = bool(value)
            elif self.kind == "choice":
                if value not in self.choices:
                    raise ParameterError(f"{name} must be one of {', '.join(map(str, self.choices))}; "
                                         f"got {quote(value)}",
                                         parameter=name)
        except ParameterError:
            raise
        except (ExactlinError, TypeError, ValueError) as e:
            raise ParameterError(f"parameter {name}: {e}", parameter=name) from None
        if self.check is not None:
            target = value
            if self.kind == "schedule":
                target = value.value if value.constant else None
            if target is not None:
                msg = self.check(target)
                if msg:
                    raise ParameterError(f"{name} {msg}, got {fmt_any(target)}", parameter=name)
        return value


def fmt_any(v) -> str:
    from exactlin.exact.format import fmt

    if isinstance(v, (tuple, list)):
        return ",".join(fmt(x) for x in v)
    return fmt(v)


def parse_param_value(p: Param, text: str) -> Any:
    """Parse the text of ``--param NAME=VALUE`` by the parameter's kind (then call ``validate``)."""
    name = p.name
    t = text.strip()
    try:
        if p.kind == "rational":
            return parse_rational(t)
        if p.kind == "int":
            q = parse_rational(t)
            if q.denominator != 1:
                raise ParameterError(f"{name} must be a whole number, got {quote(t)}", parameter=name)
            return int(q)
        if p.kind == "vector":
            return tuple(parse_rational(c) for c in t.split(","))
        if p.kind == "matrix":
            return tuple(tuple(parse_rational(c) for c in row.split(",")) for row in t.split(";"))
        if p.kind == "schedule":
            return Schedule(t, name=name)
        if p.kind == "bool":
            low = t.lower()
            if low in ("1", "true", "yes", "on"):
                return True
            if low in ("0", "false", "no", "off"):
                return False
            raise ParameterError(f"{name} must be true or false, got {quote(t)}", parameter=name)
        if p.kind == "choice":
            if t not in [str(c) for c in p.choices]:
                raise ParameterError(f"{name} must be one of {', '.join(map(str, p.choices))}; got {quote(t)}",
                                     parameter=name)
            return next(c for c in p.choices if str(c) == t)
        return t
    except ParameterError:
        raise
    except ExactlinError as e:
        raise ParameterError(f"parameter {name}: {e}", parameter=name) from None


def check_params(table: Sequence[Param], given: dict[str, Any], algorithm: str,
                 conflicts: Sequence[Conflict] = ()) -> dict[str, Any]:
    """Validate ``given`` against ``table``: unknown names are errors, and so are conflicting settings
    (``conflicts``, declared next to the table); returns the exact values.  (The registered algorithms get
    this from their entry point, :mod:`exactlin.algorithms._contract`.)"""
    names = {p.name: p for p in table}
    out = {}
    for k, v in given.items():
        if k not in names:
            raise ParameterError(
                f"{algorithm} has no parameter {k!r}; its parameters are: {', '.join(names) or '(none)'}",
                parameter=k)
        out[k] = names[k].validate(v)
    check_conflicts(table, out, algorithm, conflicts)
    return out


@dataclass(frozen=True)
class Conflict:
    """Two settings that contradict each other: giving ``first`` explicitly while ``applies(given, effective)``
    (``given``: the explicitly given, validated values; ``effective``: with the table's defaults filled in) is a
    :class:`ParameterError` naming both, never a silent choice of one.  Each algorithm module declares its
    conflicts next to its parameter table and registers them with the table."""

    first: str
    second: str
    applies: Callable[[dict, dict], bool]
    why: str


def check_conflicts(table: Sequence[Param], given: dict[str, Any], algorithm: str,
                    conflicts: Sequence[Conflict] = ()) -> None:
    """Raise a :class:`ParameterError` naming both parameters when ``given`` (validated values; None means
    "not given") holds a pair of ``conflicts``."""
    names = {p.name for p in table}
    g = {k: v for k, v in given.items() if v is not None}
    eff = {p.name: g.get(p.name, p.default) for p in table}
    for c in conflicts:
        if c.first in g and c.first in names and c.second in names and c.applies(g, eff):
            why = c.why.format(**{k: v for k, v in eff.items() if isinstance(v, (str, bool, int))})
            raise ParameterError(f"{algorithm}: {c.first} and {c.second} conflict: {why}", parameter=c.first)


#: the time guard every iterative algorithm declares (one row, shared by their parameter tables)
MAX_SECONDS = Param("max_seconds", "rational", None,
                    "stop after this many seconds of run time (reason time_limit)", positive)
