"""The convergence monitor's reports as typed records (the monitor itself is :mod:`exactlin.theory.monitor`).

They live in this layer so that reading a Run's JSON never imports theory: ``{"record": "monitor-report", ...}``
and ``{"record": "batch-monitor-report", ...}`` come back as the same frozen reports, every number exact, the
per-mistake rows included.  Untagged reports (JSON written before the tags) are rebuilt by :func:`monitor_from_dict`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from exactlin.errors import InputError
from exactlin.model.serialize import from_jsonable, record, to_jsonable

__all__ = ["MonitorReport", "BatchMonitorReport", "monitor_from_dict"]


@record("monitor-report")
@dataclass(frozen=True)
class MonitorReport:
    """The convergence monitor's report (made by :class:`exactlin.theory.monitor.ConvergenceMonitor`): w*, its
    margin gamma_min, R^2, ||w*||^2, eta, the mistake bound, K, and one row per checked mistake (the first
    10,000): t, K, <w_t+1, w*> with its lower bound, ||w_t+1||^2 with its upper bound."""

    w_star: tuple
    w_star_source: str
    gamma_min: Fraction
    R2: Fraction
    norm2_w_star: Fraction
    eta: Fraction
    bound: object  # Fraction when w_1 = 0, else an exact sympy expression
    K: int
    checked: int
    holds: bool
    rows: Sequence = ()

    def __post_init__(self):
        if type(self.rows) is list:  # the canonical form of a list in a result is a tuple (see serialize.canonical)
            object.__setattr__(self, "rows", tuple(self.rows))

    @property
    def slack(self):
        return self.bound - self.K

    def to_dict(self) -> dict:
        return {
            "w_star": to_jsonable(self.w_star),
            "w_star_source": self.w_star_source,
            "gamma_min": to_jsonable(self.gamma_min),
            "R2": to_jsonable(self.R2),
            "norm2_w_star": to_jsonable(self.norm2_w_star),
            "eta": to_jsonable(self.eta),
            "bound": to_jsonable(self.bound),
            "K": self.K,
            "slack": to_jsonable(self.slack),
            "mistakes_checked": self.checked,
            "theorem_holds": self.holds,
            "rows": [to_jsonable(r) for r in self.rows],
        }

    @classmethod
    def from_dict(cls, d: dict) -> MonitorReport:
        """Inverse of :meth:`to_dict` (numbers as :func:`exactlin.model.run.from_jsonable` or :meth:`to_dict` leave
        them): the same report, exactly, rows included (JSON written before rows were kept reads back with none)."""
        return cls(w_star=tuple(_exact(v, "w_star") for v in d["w_star"]), w_star_source=d["w_star_source"],
                   gamma_min=_exact(d["gamma_min"], "gamma_min"), R2=_exact(d["R2"], "R2"),
                   norm2_w_star=_exact(d["norm2_w_star"], "norm2_w_star"), eta=_exact(d["eta"], "eta"),
                   bound=_exact_bound(d["bound"]), K=_count(d["K"], "K"),
                   checked=_count(d["mistakes_checked"], "mistakes_checked"),
                   holds=_flag(d["theorem_holds"], "theorem_holds"), rows=_rows(d.get("rows", ())))


@record("batch-monitor-report")
@dataclass(frozen=True)
class BatchMonitorReport:
    """What :func:`batch_monitor` checked; the attribute names follow :class:`MonitorReport`
    (``K`` is the number M of corrections, the quantity the batch bound limits)."""

    w_star: tuple
    w_star_source: str
    gamma_min: Fraction
    R2: Fraction
    norm2_w_star: Fraction
    n: int
    bound: object  # Fraction from a(1) = 0, an exact sympy number otherwise, None with varying coefficients
    K: int  # corrections M = sum_k |Y_k|
    iterations: int  # iterations that corrected something
    checked: int
    holds: bool = True

    @property
    def slack(self):
        return None if self.bound is None else self.bound - self.K

    def to_dict(self) -> dict:
        return {"w_star": to_jsonable(self.w_star), "w_star_source": self.w_star_source,
                "gamma_min": to_jsonable(self.gamma_min), "R2": to_jsonable(self.R2),
                "norm2_w_star": to_jsonable(self.norm2_w_star), "bound": to_jsonable(self.bound),
                "corrections_M": self.K, "iterations_K": self.iterations, "slack": to_jsonable(self.slack),
                "iterations_checked": self.checked, "theorem_holds": self.holds, "n": self.n,
                "checked": "batch Facts 1 and 2 and Cauchy-Schwarz at every iteration; the bound on M at the end"}

    @classmethod
    def from_dict(cls, d: dict) -> BatchMonitorReport:
        """Inverse of :meth:`to_dict`, exactly (``n`` is None when the JSON predates it)."""
        n = d.get("n")
        return cls(w_star=tuple(_exact(v, "w_star") for v in d["w_star"]), w_star_source=d["w_star_source"],
                   gamma_min=_exact(d["gamma_min"], "gamma_min"), R2=_exact(d["R2"], "R2"),
                   norm2_w_star=_exact(d["norm2_w_star"], "norm2_w_star"),
                   n=_count(n, "n") if n is not None else None, bound=_exact_bound(d["bound"]),
                   K=_count(d["corrections_M"], "corrections_M"), iterations=_count(d["iterations_K"], "iterations_K"),
                   checked=_count(d["iterations_checked"], "iterations_checked"),
                   holds=_flag(d["theorem_holds"], "theorem_holds"))


def _exact(v, key: str) -> Fraction:
    """A rational of a monitor report read back from JSON (a Fraction, an int or its exact string)."""
    if isinstance(v, bool) or not isinstance(v, (int, Fraction, str)):
        raise InputError(f"monitor.{key}: expected an exact rational, got {v!r}")
    q = from_jsonable(v) if isinstance(v, str) else Fraction(v)
    if not isinstance(q, Fraction):
        raise InputError(f"monitor.{key}: {v!r} is not an exact rational")
    return q


def _count(v, key: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise InputError(f"monitor.{key}: expected a whole number >= 0, got {v!r}")
    return v


def _flag(v, key: str) -> bool:
    if not isinstance(v, bool):
        raise InputError(f"monitor.{key}: expected true or false, got {v!r}")
    return v


#: the text of an exact bound that is not rational: what sympy prints for p/q + c sqrt(D)/r (numbers, sqrt,
#: + - * / and parentheses; no other name, no power operator), so nothing else ever reaches sympy's parser
_BOUND_TEXT = re.compile(r"(?:[0-9+\-*/() ]|sqrt)+")

#: a radicand with more digits than this is kept unevaluated (sympy would try to factor it), as
#: :func:`largest_root_of_square_bound` builds it
_BIG_DIGITS = 77


def _exact_bound(v):
    """The mistake bound read back: None, a Fraction, the exact sympy number of its tagged tree, or (JSON written
    before the tags) the exact sympy number its text denotes."""
    if v is None:
        return None
    if isinstance(v, dict) and v.get("record") == "sympy":
        try:
            return from_jsonable(v)
        except (TypeError, ValueError) as e:
            raise InputError(f"monitor.bound: {e}") from None
    if not isinstance(v, (int, Fraction, str)) and type(v).__module__.startswith("sympy"):
        return v  # already read back
    if isinstance(v, (int, Fraction)) and not isinstance(v, bool):
        return Fraction(v)
    if not isinstance(v, str) or not _BOUND_TEXT.fullmatch(v) or "**" in v:
        raise InputError(f"monitor.bound: {v!r} is not an exact number (a rational, or p/q + c sqrt(D)/r)")
    q = from_jsonable(v)
    if isinstance(q, Fraction):
        return q
    import sympy

    try:
        if max((len(m) for m in re.findall(r"[0-9]+", v)), default=0) > _BIG_DIGITS:
            return sympy.parse_expr(v, evaluate=False)  # exact, unevaluated: no factoring of a huge radicand
        return sympy.sympify(v, rational=True)
    except (sympy.SympifyError, SyntaxError, TypeError, ValueError):
        raise InputError(f"monitor.bound: {v!r} is not an exact number") from None


def _rows(rows) -> tuple:
    """The per-mistake rows read back: dicts of exact numbers (t and K whole numbers)."""
    if not isinstance(rows, (list, tuple)):
        raise InputError(f"monitor.rows: expected a list of rows, got {type(rows).__name__}")
    out = []
    for j, r in enumerate(rows):
        if not isinstance(r, dict):
            raise InputError(f"monitor.rows[{j}]: expected an object, got {type(r).__name__}")
        out.append({k: (v if isinstance(v, int) and not isinstance(v, bool) else _exact(v, f"rows[{j}].{k}"))
                    for k, v in r.items()})
    return tuple(out)


def monitor_from_dict(d):
    """A monitor report rebuilt from its JSON form (:meth:`MonitorReport.to_dict` or
    :meth:`BatchMonitorReport.to_dict`); None stays None, a dict of neither form is returned unchanged."""
    if isinstance(d, dict):
        if "mistakes_checked" in d:
            return MonitorReport.from_dict(d)
        if "corrections_M" in d:
            return BatchMonitorReport.from_dict(d)
    return d


