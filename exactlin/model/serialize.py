"""Exact JSON for every record of exactlin: rationals as strings such as "-4/3" (any length, past Python's
4,300-digit limit), and typed records tagged so that they come back as the same type.

A typed record (a prediction model, a certificate, a monitor report) is a class with ``to_dict`` and a
``from_dict`` classmethod, registered with :func:`record` under a tag.  :func:`to_jsonable` writes its dict
with the tag under the key ``"record"``; :func:`from_jsonable` rebuilds the class from that tag.  Record
classes live in this layer (``exactlin.model``), so that reading JSON never needs a higher layer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from exactlin.data.labels import plain
from exactlin.exact.format import fmt
from exactlin.exact.rows import ExactRows

__all__ = ["record", "RECORDS", "to_jsonable", "from_jsonable", "canonical", "sympy_to_tree", "sympy_from_tree",
           "label_to_json", "label_from_json", "IndexList"]

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


def to_jsonable(v: Any, *, text: bool = False) -> Any:
    """Exact JSON form: rationals become strings such as "-4/3"; exact sympy numbers a tagged expression tree;
    typed records their tagged dict.  Idempotent: JSON already made (strings, tagged dicts) passes unchanged.

    ``text=True`` is for Python values that may hold class labels (a Run's extras, params and trace): a text that
    reads as a number ("1") is then written ``{"record": "str", "text": "1"}`` so that it comes back as the text
    it is, never as Fraction(1), and a float (a label such as 0.5: never a result) ``{"record": "float",
    "text": "0.5"}``, so that it comes back as the float it is (:mod:`exactlin.data.labels`)."""
    if v is None or isinstance(v, bool):
        return v
    if isinstance(v, str):
        return {TAG: "str", "text": v} if text and _reads_as_number(v) else v
    if isinstance(v, int):  # counts and indices stay JSON integers (past 4,000 digits: an exact string)
        return v if v.bit_length() < 13_000 else {TAG: "int", "text": fmt(Fraction(v))}  # reads back as an int
    if isinstance(v, Fraction):
        return fmt(v)
    if isinstance(v, float):  # a label (text=True); never produced by exactlin as a result: kept visible
        if text:
            return {TAG: "float", "text": repr(v)}
        raise TypeError(f"float {v!r} in a result: exactlin results must be exact")
    if isinstance(v, dict):
        if isinstance(v.get(TAG), str) and v[TAG] in RECORDS:  # already the JSON form of a record
            return v
        return {str(k): to_jsonable(x, text=text) for k, x in v.items()}
    tag = getattr(type(v), "record_tag", None)
    if tag is not None:
        return {TAG: tag, **v.to_dict()}
    if type(v) is IndexList:  # int64 entries: JSON integers
        return v.tolist()
    if isinstance(v, (list, tuple, ExactRows)) or _is_sequence(v):  # a lazy trace is listed, as the list it is
        return [to_jsonable(x, text=text) for x in v]
    if hasattr(v, "to_dict"):
        return v.to_dict()
    mod = type(v).__module__
    if mod.startswith("sympy"):
        if hasattr(v, "tolist"):
            return [[to_jsonable(x) for x in row] for row in v.tolist()]
        # an exact sympy number: its text for people, its expression tree for the exact read-back
        return {TAG: "sympy", "expr": _sympy_text(v), "tree": sympy_to_tree(v)}
    try:
        import numpy as np

        if isinstance(v, np.integer):
            return int(v)
        if isinstance(v, np.generic) and text:  # a numpy label is the Python value it holds
            return to_jsonable(v.item(), text=True)
        if isinstance(v, np.ndarray):
            return [to_jsonable(x) for x in v.tolist()]
    except ImportError:  # pragma: no cover
        pass
    return str(v)


_LONG_RATIONAL = re.compile(r"-?[0-9]+(?:/[0-9]*[1-9][0-9]*)?\Z")


def from_jsonable(v: Any) -> Any:
    """Inverse of :func:`to_jsonable`: "-4/3" becomes Fraction(-4, 3), other strings stay; a JSON array becomes a
    tuple (the canonical form of vectors, matrices and index lists: see :func:`canonical`); a tagged object
    becomes its record."""
    if isinstance(v, str):
        try:
            return Fraction(v)
        except (ValueError, ZeroDivisionError):
            if len(v) > 4000 and _LONG_RATIONAL.match(v):  # beyond Python's 4300-digit str->int limit
                from exactlin.exact.numbers import parse_long_rational

                return parse_long_rational(v)
            return v
    if isinstance(v, list):
        return tuple(from_jsonable(x) for x in v)
    if isinstance(v, dict):
        tag = v.get(TAG)
        if tag == "int" and isinstance(v.get("text"), str) and len(v) == 2:  # an int past 4,000 digits
            from exactlin.exact.numbers import parse_long_rational

            return int(parse_long_rational(v["text"]))
        if isinstance(tag, str) and tag in RECORDS:
            return RECORDS[tag].from_dict({k: x for k, x in v.items() if k != TAG})
        return {k: from_jsonable(x) for k, x in v.items()}
    return v


def _is_sequence(v) -> bool:
    from collections.abc import Sequence

    return isinstance(v, Sequence) and not isinstance(v, (str, bytes))


def _reads_as_number(v: str) -> bool:
    if len(v) > 100_000:
        return False
    try:
        Fraction(v)
        return True
    except (ValueError, ZeroDivisionError):
        return len(v) > 4000 and bool(_LONG_RATIONAL.match(v))


@record("str")
class _Text:
    """A text that reads as a number (a class label "1"), written as ``{"record": "str", "text": "1"}`` so that it
    comes back as the text it is, never as Fraction(1)."""

    @staticmethod
    def from_dict(d: dict) -> str:
        t = d.get("text")
        if not isinstance(t, str):
            raise TypeError(f"a tagged text needs a string 'text', got {t!r}")
        return t


@record("float")
class _Float:
    """A float label (never a result), written ``{"record": "float", "text": "0.5"}``: its repr, read back as the
    same float."""

    @staticmethod
    def from_dict(d: dict) -> float:
        t = d.get("text")
        if not isinstance(t, str):
            raise TypeError(f"a tagged float needs a string 'text', got {t!r}")
        return float(t)


@record("fraction")
class _Fraction:
    """A Fraction label in a model's label fields, written ``{"record": "fraction", "text": "1/2"}`` (there a
    plain string is always a text label)."""

    @staticmethod
    def from_dict(d: dict) -> Fraction:
        t = d.get("text")
        q = from_jsonable(t) if isinstance(t, str) else None
        if not isinstance(q, Fraction):
            raise TypeError(f"a tagged fraction needs a rational 'text', got {t!r}")
        return q


@record("int")
class _Int(_Fraction):
    """An int label too long for a JSON integer (past 4,000 digits), ``{"record": "int", "text": "..."}``."""

    @staticmethod
    def from_dict(d: dict) -> int:
        q = _Fraction.from_dict(d)
        if q.denominator != 1:
            raise TypeError(f"a tagged int needs an integer 'text', got {d.get('text')!r}")
        return q.numerator


def label_to_json(lab: Any) -> Any:
    """A class label's exact JSON form, keeping its type (:mod:`exactlin.data.labels`): an int, a bool, a text
    as they are (a text that reads as a number tagged ``"str"``), a Fraction tagged ``"fraction"``, a float
    tagged ``"float"``; a numpy scalar as the Python value it holds; any other label by its text."""
    lab = plain(lab)
    if isinstance(lab, Fraction):
        return {TAG: "fraction", "text": fmt(lab)}
    if isinstance(lab, int) and not isinstance(lab, bool) and lab.bit_length() >= 13_000:
        return {TAG: "int", "text": fmt(Fraction(lab))}
    if lab is None or isinstance(lab, (bool, int, str, float)):
        return to_jsonable(lab, text=True)
    return str(lab)


def label_from_json(v: Any) -> Any:
    """Inverse of :func:`label_to_json`.  A plain JSON string is always the text it is (model files written
    before the tags held every label that way), never a number."""
    if isinstance(v, str) or v is None or isinstance(v, (bool, int)):
        return v
    if isinstance(v, float):  # a JSON number with a point: only in hand-written files
        return v
    return from_jsonable(v)


# ---------------------------------------------------------------------------
# exact sympy numbers: an expression tree over rationals, read back without any eval

#: the sympy heads a tree may use (anything else is refused on both write and read)
_HEADS = ("Add", "Mul", "Pow", "log", "exp", "UnevaluatedExpr")
_CONSTANTS = {"pi": "pi", "E": "E", "ImaginaryUnit": "I"}


def _sympy_text(v) -> str:
    try:
        return str(v)
    except ValueError:  # an integer past Python's 4300-digit str limit inside the expression
        return "<exact expression; see tree>"


def sympy_to_tree(v):
    """An exact sympy number as a JSON tree: a rational leaf is its "p/q" string, a constant is ``["pi"]``,
    any other node is ``[head, arg, ...]`` with head one of Add, Mul, Pow, log, exp, UnevaluatedExpr."""
    import sympy

    if isinstance(v, sympy.Rational):
        return fmt(Fraction(int(v.p), int(v.q)))
    name = type(v).__name__
    if name in _CONSTANTS:
        return [_CONSTANTS[name]]
    head = "log" if isinstance(v, sympy.log) else "exp" if isinstance(v, sympy.exp) else \
        "UnevaluatedExpr" if isinstance(v, sympy.UnevaluatedExpr) else name
    if head not in _HEADS:
        raise TypeError(f"sympy {name} {v} is not an exact number exactlin writes (rationals, + * ^, log, exp)")
    return [head, *(sympy_to_tree(a) for a in v.args)]


def sympy_from_tree(t, depth: int = 0):
    """Inverse of :func:`sympy_to_tree`: the same sympy object (built with evaluate=False, node by node, so the
    tree is reproduced exactly); no text ever reaches a parser."""
    import sympy

    if depth > 200:
        raise ValueError("sympy tree nested too deeply")
    if isinstance(t, str):
        q = from_jsonable(t)
        if not isinstance(q, Fraction):
            raise ValueError(f"sympy tree leaf {t!r} is not a rational")
        return sympy.Rational(q.numerator, q.denominator) if q.denominator != 1 else sympy.Integer(q.numerator)
    if not isinstance(t, (list, tuple)) or not t or not isinstance(t[0], str):
        raise ValueError(f"not a sympy tree node: {t!r}")
    head, args = t[0], [sympy_from_tree(a, depth + 1) for a in t[1:]]
    if head in ("pi", "E", "I") and not args:
        return {"pi": sympy.pi, "E": sympy.E, "I": sympy.I}[head]
    if head == "Add":
        return sympy.Add(*args, evaluate=False)
    if head == "Mul":
        return sympy.Mul(*args, evaluate=False)
    if head == "Pow" and len(args) == 2:
        return sympy.Pow(*args, evaluate=False)
    if head == "log" and len(args) == 1:
        return sympy.log(args[0], evaluate=False)
    if head == "exp" and len(args) == 1:
        return sympy.exp(args[0], evaluate=False)
    if head == "UnevaluatedExpr" and len(args) == 1:
        return sympy.UnevaluatedExpr(args[0])
    raise ValueError(f"sympy tree head {head!r} with {len(args)} arguments is not allowed")


@record("sympy")
class _SympyNumber:
    """``{"record": "sympy", "expr": "sqrt(2)/2", "tree": [...]}``: ``expr`` is for people, ``tree`` is read."""

    @staticmethod
    def from_dict(d: dict):
        if "tree" not in d:
            raise ValueError("a sympy record needs its 'tree'")
        return sympy_from_tree(d["tree"])


class IndexList(Sequence):
    """A run's list of sample indices (its mistakes: millions of them in a long run), held as one int64 array and
    read as the tuple of ints it stands for: it compares equal to that tuple (and to an equal IndexList), indexes
    and iterates as Python ints, converts to numpy at no cost (``np.asarray``) and is written to JSON as the list;
    :func:`canonical` keeps it whole (no Python int is made for an entry nobody reads)."""

    __slots__ = ("arr",)

    def __init__(self, arr):
        a = np.asarray(arr, dtype=np.int64).reshape(-1)
        a.flags.writeable = False
        self.arr = a

    def __len__(self) -> int:
        return len(self.arr)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return IndexList(self.arr[i])
        return int(self.arr[i])

    def __iter__(self):
        return iter(self.arr.tolist())

    def __array__(self, dtype=None, copy=None):
        return self.arr if dtype is None else self.arr.astype(dtype)

    def __eq__(self, other) -> bool:
        if isinstance(other, IndexList):
            return bool(np.array_equal(self.arr, other.arr))
        if isinstance(other, (tuple, list)):
            return len(other) == len(self.arr) and all(type(x) is int for x in other) and \
                self.arr.tolist() == list(other)
        return NotImplemented

    __hash__ = None

    def __repr__(self) -> str:
        return repr(tuple(self.arr.tolist())) if len(self.arr) <= 16 else f"<IndexList of {len(self.arr)} indices>"

    def __reduce__(self):
        return (IndexList, (self.arr.tolist(),))

    def tolist(self) -> list[int]:
        return self.arr.tolist()


def canonical(v: Any) -> Any:
    """The canonical in-memory form of a result value, the one its JSON reads back as: every list or tuple is a
    tuple (vectors, matrices, index lists alike), dicts are plain dicts of canonical values; everything else (numbers,
    records, lazy sequences such as ExactRows that compare equal to tuples) is kept."""
    if type(v) is IndexList:
        return v
    if type(v) is list or type(v) is tuple:
        if set(map(type, v)) <= {int}:  # an index list or an integer vector: already canonical entries
            return tuple(v)
        return tuple(canonical(x) for x in v)
    if type(v) is dict:
        return {k: canonical(x) for k, x in v.items()}
    return v
