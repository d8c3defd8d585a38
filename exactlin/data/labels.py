"""Layer 2: the one label policy, used by Python, the CLI, JSON, saved models and every prediction.

A class label is any hashable value; exactlin never converts it.  The rules:

* **Identity and type.** A label keeps its type and value from the data to every prediction: ``"01"``, ``"1"``
  and ``1`` are three labels, ``0.5`` stays a float, ``Fraction(1, 2)`` stays a Fraction.  A numpy scalar is
  the Python value it holds (``np.int64(1)`` is ``1``, ``np.str_("a")`` is ``"a"``).
* **Text.** Every label has one text, :func:`label_text`: a string is itself, a number as Python writes it
  (``1``, ``0.5``, ``1/2``, ``True``).  In a file a label *is* its text: a CSV label cell is read as the
  string it holds, except that the plain decimal text of an integer (``1``, ``-1``, ``42``; not ``01``,
  ``+1`` or ``1.0``) is that integer, whose text is that same string (:func:`label_from_text`).  A label
  in a file matches a model's label when the cell's text equals that label's text (a model trained in
  Python on 1/-1, or on 0.5/1.5, predicts on a CSV).
* **Never merged.** Two different labels of one data set that Python or a file could not tell apart, equal as
  values (``1`` and ``1.0``, ``True`` and ``1``, ``0.5`` and ``Fraction(1, 2)``) or written the same way
  (``1`` and ``"1"``), are a :class:`~exactlin.errors.LabelError` naming both (:func:`distinct_labels`).
* **+1 and -1.** A binary algorithm's classes are +1/-1.  Without ``positive``, the data's two labels must read
  as +1 and -1 (the numbers 1 and -1 of any type, or texts such as ``1``, ``+1``, ``-1``, ``1.0``), one label
  for each (``1`` and ``+1`` together are two labels that both read as +1: an error); with ``positive``,
  that label is +1 and the one other label -1.  ``positive`` names a label of the data by identity or, when
  none is identical, by text (``--positive 01`` on the CLI, ``positive="1"`` for the int label 1).
* **JSON.** A Run's JSON, a model's and a saved model file write each label with its type
  (:func:`exactlin.model.serialize.label_to_json`): int, bool and text as they are, a text that reads as a
  number, a float and a Fraction tagged; a label of another hashable type (a tuple...) is written as its text.

>>> distinct_labels(["01", 1, "01"])
('01', 1)
>>> distinct_labels([1, "1"])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
exactlin.errors.LabelError: labels 1 (int, sample 1) and '1' (str, sample 2) would be confused (the same text); ...
>>> label_from_text("01"), label_from_text("-1"), label_from_text("0.5")
('01', -1, '0.5')
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable, Iterable, Sequence
from fractions import Fraction
from typing import Any

from exactlin.errors import InputError, InputTypeError, LabelError
from exactlin.exact.format import fmt, quote

__all__ = ["plain", "as_label", "label_text", "label_name", "same_label", "distinct_labels", "class_labels",
           "find_label", "label_matcher", "binary_labels", "negative_mask", "label_from_text", "labels_from_texts",
           "sign_of_label"]


def plain(lab: Any) -> Any:
    """A numpy scalar as the Python value it holds (``np.int64(1)`` is ``1``); any other value unchanged."""
    if type(lab).__module__ == "numpy" and getattr(lab, "ndim", None) == 0 and hasattr(lab, "item"):
        return lab.item()
    return lab


def as_label(lab: Any, i: int | None = None) -> Hashable:
    """One label as exactlin keeps it: a numpy scalar becomes the Python value it holds; None, NaN and an
    unhashable value are errors (``i``: the 0-based sample, for the message)."""
    lab = plain(lab)
    where = "" if i is None else f" of sample {i + 1}"
    if lab is None:
        raise InputTypeError(f"label{where} is missing (None)", row=i)
    if isinstance(lab, float) and math.isnan(lab):
        raise InputError(f"label{where} is NaN", row=i)
    try:
        hash(lab)
    except TypeError:
        raise InputTypeError(f"label{where} ({quote(lab)}) is not hashable", row=i) from None
    return lab


def _hashable(lab: Any, i: int) -> Hashable:
    lab = plain(lab)
    try:
        hash(lab)
    except TypeError:
        raise InputTypeError(f"label of sample {i + 1} ({quote(lab)}) is not hashable", row=i) from None
    return lab


def label_text(lab: Any) -> str:
    """The text of a label: a string itself, an int or Fraction exactly (``-3``, ``1/2``), a float by its repr
    (``0.5``), a bool ``True``/``False``; anything else by ``str``.

    >>> label_text("01"), label_text(1), label_text(Fraction(1, 2)), label_text(0.5), label_text(True)
    ('01', '1', '1/2', '0.5', 'True')
    """
    lab = plain(lab)
    if isinstance(lab, str):
        return lab
    if isinstance(lab, bool):
        return repr(lab)
    if isinstance(lab, (int, Fraction)):
        return fmt(lab)
    if isinstance(lab, float):
        return repr(lab)
    return str(lab)


def label_name(lab: Any) -> str:
    """A label in a message, with its type: ``'1' (str)``, ``1 (int)``, ``1/2 (Fraction)``."""
    return f"{quote(lab) if not isinstance(lab, float) else repr(lab)} ({type(lab).__name__})"


def _named(lab: Any, i: int) -> str:
    return f"{label_name(lab)[:-1]}, sample {i + 1})"


def _key(lab: Any) -> tuple:
    """The identity of a label: its type and value (a float by its repr, so that -0.0 is not 0.0)."""
    return (type(lab), repr(lab) if isinstance(lab, float) else lab)


def same_label(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` are the same label: the same type and value (numpy scalars as Python values).

    >>> same_label(1, 1), same_label(1, 1.0), same_label(1, "1"), same_label(True, 1)
    (True, False, False, False)
    """
    return _key(as_label(a)) == _key(as_label(b))


#: label types whose distinct values never collide: a data set of one of these types alone cannot confuse
_SIMPLE = frozenset({int, str, Fraction, bool})


def distinct_labels(y: Iterable) -> tuple:
    """The distinct labels of ``y`` in order of first appearance, after checking that no two of them would be
    confused (equal as values or of the same text): such a pair is a LabelError naming both."""
    y = y if isinstance(y, (list, tuple)) else list(y)
    types = set(map(type, y))
    if len(types) <= 1 and types <= _SIMPLE:  # one type whose equality is identity: hashing decides, in C
        return tuple(dict.fromkeys(y))
    y = [_hashable(lab, i) for i, lab in enumerate(y)]  # numpy scalars as Python values
    types = set(map(type, y))
    if float in types:  # -0.0 is not 0.0: the float by its repr
        first: dict = {}
        for lab in y:
            first.setdefault(_key(lab), lab)
        labels = list(first.values())
    else:
        labels = [lab for _t, lab in dict.fromkeys(zip(map(type, y), y))]
    if len({type(lab) for lab in labels}) > 1 or (labels and type(labels[0]) not in _SIMPLE):
        by_value: dict = {}
        by_text: dict[str, Any] = {}
        for lab in labels:
            for table, k, why in ((by_value, lab, "equal values"), (by_text, label_text(lab), "the same text")):
                other = table.get(k, _NONE)
                if other is not _NONE:
                    i, j = _first(y, other), _first(y, lab)
                    raise LabelError(f"labels {_named(other, i)} and {_named(lab, j)} would be confused ({why}); "
                                     "exactlin keeps labels apart and never merges them: give the classes distinct "
                                     "labels", row=j)
                table[k] = lab
    return tuple(labels)


_NONE = object()


def _first(y, lab) -> int:
    """The 0-based index of the first sample labelled ``lab``."""
    k = _key(lab)
    return next(i for i, v in enumerate(y) if _key(v) == k)


def class_labels(y: Sequence[Hashable]) -> tuple:
    """The distinct labels (:func:`distinct_labels`) in a documented order: sorted when they are mutually
    comparable, otherwise in order of first appearance."""
    seen = distinct_labels(y)
    try:
        return tuple(sorted(seen))
    except (TypeError, ValueError):  # ValueError: numpy arrays compared with other labels
        return seen


def find_label(labels: Iterable, wanted: Any) -> Any:
    """The label among ``labels`` that ``wanted`` names: the identical one, else the one whose text is
    ``wanted``'s text; None when none is.  A label equal in value but not identical nor of the same text
    (``1`` for ``1.0``) is a LabelError naming both: never merged.

    >>> find_label(["01", 1], "01"), find_label([1, -1], "1"), find_label(["1", "-1"], 1)
    ('01', 1, '1')
    """
    wanted = as_label(wanted)
    labels = list(labels)
    k = _key(wanted)
    for lab in labels:
        if _key(lab) == k:
            return lab
    text = label_text(wanted)
    by_text = [lab for lab in labels if label_text(lab) == text]
    if len(by_text) == 1:
        return by_text[0]
    for lab in labels:
        if lab == wanted:
            raise LabelError(f"the label {label_name(wanted)} is not a label of the data, and would be confused "
                             f"with the data's label {label_name(lab)} (an equal value, another type); "
                             "give the label exactly as the data has it")
    return None


def label_matcher(positive: Hashable):
    """``is_pos(lab)``: whether a label is the one ``positive`` names: identical to it, or of the same text
    (:func:`label_text`) -- the rule by which ``--positive 01`` names the file's label ``01``, and a file label
    matches a model label.

    >>> is_pos = label_matcher("0.5")
    >>> is_pos("0.5"), is_pos(0.5), is_pos(Fraction(1, 2)), is_pos(1)
    (True, True, False, False)
    """
    positive = as_label(positive)
    k = _key(positive)
    text = label_text(positive)

    def is_pos(lab) -> bool:
        return _key(lab) == k or label_text(lab) == text

    return is_pos


_PLUS_MINUS_ONE = re.compile(r"([+-]?)1(?:\.0+)?")


def sign_of_label(lab: Any) -> int | None:
    """+1 or -1 for a label that reads as one without ``positive`` (the number 1 or -1 of any numeric type
    but bool, or a text that reads as that number: ``1``, ``+1``, ``-1``, ``1.0``); None otherwise."""
    if isinstance(lab, bool):
        return None
    if isinstance(lab, (int, Fraction, float)) and lab in (1, -1):  # floats are input: 1.0 is exactly 1
        return int(lab)
    if isinstance(lab, str):  # a text that reads as the number 1 or -1: 1, +1, -1, 1.0, -1.00
        m = _PLUS_MINUS_ONE.fullmatch(lab.strip())
        return None if m is None else -1 if m.group(1) == "-" else 1
    if plain(lab) is not lab:
        return sign_of_label(plain(lab))
    return None


def negative_mask(y: Any, positive: Hashable | None = None):
    """For labels given as a 1-D numpy integer array holding only +1 and -1 (and no ``positive``): the boolean
    array ``y < 0``, True exactly where :func:`binary_labels` gives -1 (it maps +1 to +1 and -1 to -1); else
    None (the labels then go through :func:`binary_labels`'s checks).  Vectorized: no Python object per label.

    >>> import numpy as np
    >>> negative_mask(np.array([1, -1, -1])).tolist(), negative_mask(np.array([1, 2])), negative_mask([1, -1])
    ([False, True, True], None, None)
    """
    if positive is not None or type(y).__module__ != "numpy" or getattr(y, "ndim", 0) != 1 or y.dtype.kind not in "iu":
        return None
    neg = y == -1  # (an unsigned array holds no -1: all False)
    return neg if bool((neg | (y == 1)).all()) else None


def binary_labels(y: Sequence[Hashable], positive: Hashable | None = None) -> tuple[int, ...]:
    """Map labels to +1/-1 (see the module docstring).

    Without ``positive`` the labels must be +1 and -1 (numbers, or texts that read as them: "1", "+1", "-1",
    "1.0"), one label for each sign.  With ``positive`` that label becomes +1 and the one other label -1.

    >>> binary_labels(["cat", "dog", "cat"], positive="cat")
    (1, -1, 1)
    """
    if positive is None:
        # the common case, in one pass (a list or tuple only: an iterator would be consumed by the test)
        if isinstance(y, (list, tuple)) and set(map(type, y)) == {int} and set(y) <= {1, -1}:
            return tuple(y)
        y = list(y)
        by_sign: dict[int, Any] = {}
        for lab in distinct_labels(y):
            v = sign_of_label(lab)
            if v is None:
                i = next(j for j, x in enumerate(y) if same_label(x, lab))
                raise LabelError(
                    f"label {quote(lab)} of sample {i + 1} is not +1 or -1; binary algorithms take +1/-1 labels, "
                    "or any two labels with positive=LABEL (CLI: --positive LABEL); for more than two "
                    "classes use linear-machine or one-vs-rest",
                    row=i,
                )
            if v in by_sign:
                raise LabelError(f"labels {label_name(by_sign[v])} and {label_name(lab)} both read as "
                                 f"{'+1' if v > 0 else '-1'}; exactlin does not merge two labels: say which is "
                                 "positive with positive=LABEL (CLI: --positive LABEL)")
            by_sign[v] = lab
        # distinct labels are never equal (distinct_labels), so a dict keyed by the label itself is exact
        return tuple(map({lab: v for v, lab in by_sign.items()}.__getitem__, y))
    y = list(y)
    seen = distinct_labels(y)
    pos = find_label(seen, positive)
    if pos is None:
        raise LabelError(f"the positive label {quote(positive)} does not occur among the labels "
                         f"({', '.join(quote(v) for v in seen[:5])}{', ...' if len(seen) > 5 else ''})")
    others = [lab for lab in seen if not same_label(lab, pos)]
    if len(others) > 1:
        i = next(j for j, x in enumerate(y) if same_label(x, others[1]))
        raise LabelError(
            f"more than two labels: {quote(pos)}, {quote(others[0])} and {quote(others[1])} "
            f"(sample {i + 1}); "
            "binary algorithms take two classes; for more use linear-machine or one-vs-rest",
            row=i,
        )
    signs = {lab: -1 for lab in others}
    signs[pos] = 1  # distinct labels are never equal (distinct_labels): a dict keyed by the label is exact
    return tuple(map(signs.__getitem__, y))


#: the plain decimal text of an integer: read from a file as that integer (its text is the same string)
_INT_TEXT = re.compile(r"-?(?:0|[1-9][0-9]{0,4000})\Z")


def label_from_text(cell: str) -> Hashable:
    """A label read from a file: the cell's text (spaces around it dropped), or the integer it is when the text
    is an integer's own decimal text (``-1``, ``42``; ``01``, ``+1``, ``1.0`` stay texts).  Either way
    ``label_text(label_from_text(t)) == t.strip()``: a label is its text."""
    s = cell.strip()
    return int(s) if _INT_TEXT.match(s) and s != "-0" else s


def labels_from_texts(cells: Iterable[str]) -> list[Hashable]:
    """:func:`label_from_text` of each cell, computed once per distinct text."""
    memo: dict[str, Hashable] = {}
    out = []
    for cell in cells:
        v = memo.get(cell, memo)
        if v is memo:
            v = memo[cell] = label_from_text(cell)
        out.append(v)
    return out
