"""Exact JSON for every record of exactlin: rationals as strings such as "-4/3" (any length, past Python's
4,300-digit limit), and typed records tagged so that they come back as the same type.

A typed record (a prediction model, a certificate, a monitor report) is a class with ``to_dict`` and a
``from_dict`` classmethod, registered with :func:`record` under a tag.  :func:`to_jsonable` writes its dict
with the tag under the key ``"record"``; :func:`from_jsonable` rebuilds the class from that tag.  Record
classes live in this layer (``exactlin.model``), so that reading JSON never needs a higher layer.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from exactlin.exact.format import fmt
from exactlin.exact.rows import ExactRows

__all__ = ["record", "RECORDS", "to_jsonable", "from_jsonable"]

#: tag -> record class
RECORDS: dict[str, type] = {}

#: the key that carries a record's tag in its JSON object
TAG = "record"


def record(tag: str):
    """Class decorator: register a typed record under ``tag`` for exact JSON round trips."""

    def deco(cls):
        if RECORDS.get(tag, cls) is not cls:
            raise ValueError(f"record tag {tag!r} registered twice")
        RECORDS[tag] = cls
        cls.record_tag = tag
        return cls

    return deco


def to_jsonable(v: Any) -> Any:
    """Exact JSON form: rationals become strings such as "-4/3"; sympy numbers their sympy string."""
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, int):  # counts and indices stay JSON integers
        return v
    if isinstance(v, Fraction):
        return fmt(v)
    if isinstance(v, float):  # never produced by exactlin; kept visible rather than hidden
        raise TypeError(f"float {v!r} in a result: exactlin results must be exact")
    if isinstance(v, dict):
        return {str(k): to_jsonable(x) for k, x in v.items()}
    tag = getattr(type(v), "record_tag", None)
    if tag is not None:
        return {TAG: tag, **v.to_dict()}
    if isinstance(v, (list, tuple, ExactRows)) or _is_sequence(v):  # a lazy trace is listed, as the list it is
        return [to_jsonable(x) for x in v]
    if hasattr(v, "to_dict"):
        return v.to_dict()
    mod = type(v).__module__
    if mod.startswith("sympy"):
        if hasattr(v, "tolist"):
            return [[to_jsonable(x) for x in row] for row in v.tolist()]
        return str(v)
    try:
        import numpy as np

        if isinstance(v, np.integer):
            return int(v)
        if isinstance(v, np.ndarray):
            return [to_jsonable(x) for x in v.tolist()]
    except ImportError:  # pragma: no cover
        pass
    return str(v)


_LONG_RATIONAL = re.compile(r"-?[0-9]+(?:/[0-9]*[1-9][0-9]*)?\Z")


def from_jsonable(v: Any) -> Any:
    """Inverse of :func:`to_jsonable` for rationals: "-4/3" becomes Fraction(-4, 3); other strings stay."""
    if isinstance(v, str):
        try:
            return Fraction(v)
        except (ValueError, ZeroDivisionError):
            if len(v) > 4000 and _LONG_RATIONAL.match(v):  # beyond Python's 4300-digit str->int limit
                from exactlin.exact.numbers import parse_long_rational

                return parse_long_rational(v)
            return v
    if isinstance(v, list):
        return [from_jsonable(x) for x in v]
    if isinstance(v, dict):
        tag = v.get(TAG)
        if isinstance(tag, str) and tag in RECORDS:
            return RECORDS[tag].from_dict({k: x for k, x in v.items() if k != TAG})
        return {k: from_jsonable(x) for k, x in v.items()}
    return v


def _is_sequence(v) -> bool:
    from collections.abc import Sequence

    return isinstance(v, Sequence) and not isinstance(v, (str, bytes))
