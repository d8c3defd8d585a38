"""Layer 2: datasets of exact vectors and labels; augmentation; normalized samples; CSV.

Conventions of the notes:

* ``bias="none"``: through the origin, as in seed 000 (000_478cb53c624e7eb5.txt).
* ``bias="first"``: a constant 1 prepended, y = (1, x), as in seeds 001, 003 and 004.
* ``bias="last"``: a constant 1 appended, (x, 1), as in seed 002.
* "normalized" samples (seed 003): every augmented sample multiplied by its label,
  so that a separating vector a satisfies a^t y_i > 0 for every i.

>>> augment([(4, 0)], "first")
((Fraction(1, 1), Fraction(4, 1), Fraction(0, 1)),)
>>> normalize([(1, 2)], [-1])
((Fraction(-1, 1), Fraction(-2, 1)),)
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

import numpy as np

from exactlin.data.labels import (  # noqa: F401  (the label policy, public here too)
    as_label,
    binary_labels,
    class_labels,
    distinct_labels,
    find_label,
    label_from_text,
    label_matcher,
    label_text,
    labels_from_texts,
    same_label,
    sign_of_label,
)
from exactlin.errors import CSVError, InputError, InputTypeError, LabelError, ParameterError, ShapeError
from exactlin.exact.format import quote
from exactlin.exact.numbers import FloatRule, Vector, parse_rational, to_matrix
from exactlin.exact.rows import I64_HEADROOM, I64_LIMIT, ExactRows, from_fraction_rows

__all__ = [
    "BiasMode",
    "BIAS_MODES",
    "Dataset",
    "as_dataset",
    "binary_labels",
    "label_matcher",
    "class_labels",
    "distinct_labels",
    "find_label",
    "label_text",
    "same_label",
    "sign_of_label",
    "augment",
    "check_bias",
    "normalize",
    "read_csv",
    "parse_csv",
    "parse_csv_reference",
    "parse_csv_bytes",
    "detect_delimiter",
    "DELIMITERS",
]

BiasMode = Literal["none", "first", "last"]
BIAS_MODES: tuple[str, ...] = ("none", "first", "last")


@dataclass(frozen=True)
class Dataset:
    """Exact feature vectors ``X`` and their labels ``y``.

    ``X`` is a sequence of exact rows (tuples of Fractions): a tuple, or for integer numpy input an
    :class:`~exactlin.exact.rows.ExactRows`, which holds the int64 array and builds the Fractions
    only when a row is read (integer kernels read ``X.num`` and ``X.den`` instead).
    """

    X: Sequence[Vector]
    y: tuple[Hashable, ...]
    feature_names: tuple[str, ...] | None = None
    label_name: str | None = None
    source: str | None = None
    #: for a CSV: the 1-based file line of each sample (error messages name lines, not row indices)
    lines: tuple[int, ...] | None = field(default=None, compare=False, repr=False)

    @property
    def n(self) -> int:
        return len(self.X)

    @property
    def d(self) -> int:
        if isinstance(self.X, ExactRows):  # no Fraction is built
            return self.X.shape[1]
        return len(self.X[0]) if self.X else 0

    def classes(self) -> tuple:
        return class_labels(self.y)

    def __len__(self) -> int:
        return len(self.X)

    def _repr_html_(self) -> str:  # notebooks
        from exactlin.exact.format import html

        head = "".join(f"<th>{html(h)}</th>" for h in (self.feature_names or [f"x{j+1}" for j in range(self.d)]))
        rows = "".join(
            "<tr><td>{}</td>{}<td>{}</td></tr>".format(i + 1, "".join(f"<td>{html(v)}</td>" for v in x), html(lab))
            for i, (x, lab) in enumerate(zip(self.X, self.y))
        )
        # samples numbered from 1, as everywhere a person reads (Python indexes them from 0)
        return f"<table><tr><th>i</th>{head}<th>{self.label_name or 'y'}</th></tr>{rows}</table>"

    def _repr_latex_(self) -> str:  # notebooks: a booktabs table with exact fractions
        from exactlin.exact.format import latex as q

        names = self.feature_names or [f"x_{{{j + 1}}}" for j in range(self.d)]
        head = " & ".join(["$i$", *(f"${h}$" if self.feature_names is None else h for h in names),
                           self.label_name or "$y$"])
        body = [" & ".join([str(i + 1), *(f"${q(v)}$" for v in x), q(lab)]) + r" \\"
                for i, (x, lab) in enumerate(zip(self.X, self.y))]
        return "\n".join([r"\begin{tabular}{r" + "r" * self.d + "l}", r"\toprule", head + r" \\", r"\midrule",
                          *body, r"\bottomrule", r"\end{tabular}"])


def _labels(y: Any) -> tuple:
    """The labels as a tuple of hashable Python values (numpy integer arrays in one step: integers are
    never missing, NaN or unhashable)."""
    try:
        import numpy as np

        if isinstance(y, np.ndarray) and y.ndim == 1 and y.dtype.kind in "iu":
            return tuple(y.tolist())
    except ImportError:  # pragma: no cover
        pass
    return tuple(as_label(lab, i) for i, lab in enumerate(y))


def as_dataset(X: Any, y: Any, *, floats: FloatRule = "repr") -> Dataset:
    """Build a Dataset from anything the conversion rule accepts (a Dataset passes through)."""
    if isinstance(X, Dataset):
        if y is not None:
            raise ShapeError("give either a Dataset or X and y, not both")
        return X
    Xe = to_matrix(X, floats=floats)
    if not isinstance(Xe, ExactRows):  # exact rows of Fractions: keep them, and their integers beside them
        Xe = from_fraction_rows(Xe) or Xe
    if y is None:
        raise ShapeError("labels y are missing")
    if isinstance(y, (str, bytes)) or not isinstance(y, Iterable):
        raise InputTypeError(f"y must be a sequence of labels, got {type(y).__name__}")
    ys = _labels(y)
    if len(ys) != len(Xe):
        raise ShapeError(f"X has {len(Xe)} rows but y has {len(ys)} labels")
    return Dataset(Xe, ys)


def check_bias(bias: str) -> str:
    if bias not in BIAS_MODES:
        raise ParameterError(f"bias must be one of none, first, last; got {bias!r}", parameter="bias")
    return bias


def augment(X: Sequence[Sequence], bias: str) -> Sequence[Vector]:
    """Augment every sample with a constant 1 (``first``/``last``) or leave it (``none``)."""
    check_bias(bias)
    one = Fraction(1)
    X = to_matrix(X, allow_empty=True)  # the conversion rule; ragged rows are an error
    if isinstance(X, ExactRows):  # integers over a common denominator D: the constant 1 is D / D
        if bias == "none" or X.den < I64_LIMIT:
            return X.augmented(bias)
        X = X.rows()  # D / D would not fit in int64 (scaled(K, D) takes any D): the Fraction rows
    if bias == "none":
        return X
    if bias == "first":
        return tuple((one, *x) for x in X)
    return tuple((*x, one) for x in X)


def split_bias(w: Sequence, bias: str) -> tuple[tuple, Fraction]:
    """Split an augmented weight vector into (weights on the features, intercept)."""
    check_bias(bias)
    if bias == "none":
        return tuple(w), Fraction(0)
    if bias == "first":
        return tuple(w[1:]), w[0]
    return tuple(w[:-1]), w[-1]


def normalize(Y: Sequence[Sequence], z: Sequence[int], *, negative=None) -> Sequence[Vector]:
    """Seed 003's normalized samples: each (augmented) sample multiplied by its +1/-1 label.  ``negative``:
    the labels' signs already checked, as :func:`~exactlin.data.labels.negative_mask` gives them (a boolean
    array, True where z_i = -1), used for integer rows instead of reading ``z`` again."""
    Y = to_matrix(Y, name="Y", allow_empty=True)
    if negative is not None and isinstance(Y, ExactRows):
        return Y.signed(negative)
    if isinstance(z, (str, bytes)) or not isinstance(z, Iterable):
        raise InputTypeError(f"the labels must be a sequence of +1/-1, got {type(z).__name__}")
    z = tuple(z)
    if len(Y) != len(z):
        raise ShapeError(f"{len(Y)} samples but {len(z)} labels")
    signs = list(z) if set(map(type, z)) == {int} and set(z) <= {1, -1} else []
    for i, zi in enumerate(z if not signs else ()):
        s = sign_of_label(zi)
        if s is None:
            raise LabelError(f"label {quote(zi)} of sample {i + 1} is not +1 or -1", row=i)
        signs.append(s)
    if isinstance(Y, ExactRows):  # in int64: -x fits because ExactRows entries are > -2**63
        return Y.signed(signs)
    negated: dict[int, Fraction] = {}  # -v for each distinct entry object, computed once (entries are immutable)

    def neg(v: Fraction) -> Fraction:
        r = negated.get(id(v))
        if r is None:
            r = negated[id(v)] = -v
        return r

    return tuple(yi if s == 1 else tuple(neg(v) for v in yi) for yi, s in zip(Y, signs))


# ---------------------------------------------------------------------------
# CSV


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _line_number(prefix: str | bytes) -> int:
    """The 1-based line on which the text after ``prefix`` starts (\r\n, \r and \n end lines)."""
    nl = b"\n" if isinstance(prefix, bytes) else "\n"
    cr = b"\r" if isinstance(prefix, bytes) else "\r"
    return prefix.count(nl) + prefix.count(cr) - prefix.count(cr + nl) + 1


#: the delimiters :func:`detect_delimiter` chooses among, with their names for messages
DELIMITERS: dict[str, str] = {",": "','", ";": "';'", "\t": "tab"}


def _delimiter_name(delimiter: str) -> str:
    return DELIMITERS.get(delimiter, repr(delimiter))


def detect_delimiter(text: str, *, sample: int = 50) -> str:
    """The delimiter of CSV ``text``: ``,``, ``;`` or tab, decided by counting on the first ``sample`` rows
    (``#`` comments and blank lines skipped; quoted text ignored).

    The rule: a candidate that occurs the same nonzero number of times on every sampled row is consistent;
    among consistent candidates tab wins, then ``;`` (a decimal comma inside ``;`` files is common, a ``;``
    inside a comma file is not), then ``,``.  With no consistent candidate: the one with the most
    occurrences on the first row; ``,`` when none occurs at all.

    >>> detect_delimiter("x1;x2;y\\n1,5;2;1\\n0;1;-1\\n")
    ';'
    >>> detect_delimiter("1\\t2\\t1\\n")
    '\\t'
    >>> detect_delimiter("4,0,1\\n1,1,-1\\n")
    ','
    """
    rows: list[str] = []
    head = text[: 1 << 16]  # the sample comes from the first 64 KiB (a partial last line is left out)
    lines = _LINE_BREAK.split(head)
    if len(head) < len(text) and len(lines) > 1:
        lines.pop()
    for line in lines:
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        rows.append(re.sub(r'"[^"]*"', "", line) if '"' in line else line)
        if len(rows) >= sample:
            break
    if not rows:
        return ","
    for cand in ("\t", ";", ","):
        counts = {r.count(cand) for r in rows}
        if len(counts) == 1 and counts.pop() > 0:
            return cand
    first = rows[0]
    best = max(("\t", ";", ","), key=lambda c: (first.count(c), c == ","))
    return best if first.count(best) else ","


def parse_csv(text: str, *, source: str | None = None, delimiter: str | None = ",",
              label_column: int | str | None = None, labels: bool = True) -> Dataset:
    """Parse CSV text: feature columns then the label; ``#`` comments; an optional header (a first row none
    of whose feature cells is a number: a first row with a bad cell among numbers is an error, not a header).

    ``delimiter``: one character (default ``,``), or None to detect ``,``, ``;`` or tab
    (:func:`detect_delimiter`).  ``label_column``: which column holds the label, a 1-based index (an int, or
    a string of digits) or a header name; default (None) the last column.  The other columns are the
    features, in file order.  ``labels=False``: every column is a feature (new points to predict); the
    labels are then None.

    >>> ds = parse_csv("x1,x2,y\\n# Example 1 of seed 000\\n4,0,1\\n1,1,-1\\n")
    >>> ds.X[0], ds.X[1], ds.y
    ((Fraction(4, 1), Fraction(0, 1)), (Fraction(1, 1), Fraction(1, 1)), (1, -1))
    >>> ds.X.num.tolist(), ds.X.den  # the cells went straight into integers over one denominator
    ([[4, 0], [1, 1]], 1)
    >>> ds = parse_csv("label;x1;x2\\nb;1;2\\na;3;4\\n", delimiter=None, label_column="label")
    >>> ds.y, ds.feature_names, ds.X[1]
    (('b', 'a'), ('x1', 'x2'), (Fraction(3, 1), Fraction(4, 1)))
    """
    if not labels:
        if label_column is not None:
            raise ParameterError("a label column and labels=False conflict", parameter="label_column")
        return _parse_csv(text, source, reference=False, delimiter=delimiter, unlabeled=True)
    return _parse_csv(text, source, reference=False, delimiter=delimiter, label_column=label_column)


def _label_index(label_column: int | str, first: list[str], where: str, first_line: int) -> int:
    """The 0-based index of the label column in rows as wide as ``first`` (the first row)."""
    width = len(first)
    names = [c.strip() for c in first]
    if isinstance(label_column, str) and label_column.strip() in names:
        return names.index(label_column.strip())
    index: int | None = None
    if isinstance(label_column, bool):
        index = None
    elif isinstance(label_column, int):
        index = label_column
    elif isinstance(label_column, str) and label_column.strip().lstrip("-").isdigit():
        index = int(label_column.strip())
    if index is None:
        raise CSVError(f"label column {label_column!r}{where}: no such column in the header (line {first_line}: "
                       f"{', '.join(repr(n) for n in names)}); give a header name or a 1-based index",
                       line=first_line)
    if index < 0:
        index += width + 1  # -1: the last column
    if not 1 <= index <= width:
        raise CSVError(f"label column {label_column!r}{where}: the rows have {width} columns; a 1-based index is "
                       f"1..{width}", line=first_line)
    return index - 1


def _parse_csv(text: str, source: str | None, *, reference: bool, delimiter: str | None = ",",
               label_column: int | str | None = None, unlabeled: bool = False) -> Dataset:
    where = f" in {source}" if source else ""
    if delimiter is None:
        delimiter = detect_delimiter(text)
    elif not isinstance(delimiter, str) or len(delimiter) != 1 or delimiter in "\r\n\"#":
        raise ParameterError(f"delimiter {delimiter!r}: expected one character such as ',', ';' or a tab "
                             "(not a quote, '#' or a line break)", parameter="delimiter")
    rows: list[tuple[int, list[str]]] = []
    # \r\n, \r or \n end a line (as editors and Python's text mode count); without \r: str.split, the same
    lines = _LINE_BREAK.split(text) if "\r" in text else text.split("\n")
    for lineno, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if "#" in line and '"' not in line:
            line = line.split("#", 1)[0]
        if '"' in line or "\x00" in line or reference:
            try:
                cells = next(csv.reader(io.StringIO(line), delimiter=delimiter))
            except csv.Error as e:
                raise CSVError(f"line {lineno}{where}: {e}", line=lineno) from None
        else:  # no quote: the csv module's cells are the text between delimiters (the line holds no line break)
            cells = line.split(delimiter)
        if all(not c.strip() for c in cells):
            continue
        if unlabeled:  # a placeholder label: the rows then parse as features and a label; the labels are dropped
            cells.append("?")
        rows.append((lineno, cells))
    if not rows:
        raise CSVError(f"no data rows{where}: expected feature columns then a label on each line", line=None)
    header = None
    first_line, first = rows[0]
    label_at = None  # the 0-based label column when it is not the last one
    if label_column is not None:
        k = _label_index(label_column, first, where, first_line)
        if k != len(first) - 1:
            label_at = k
            n = len(first)
            rows = [(ln, cells[:k] + cells[k + 1:] + [cells[k]] if len(cells) == n else cells)
                    for ln, cells in rows]
            first = rows[0][1]
    if len(first) >= 2:
        def numeric_like(c: str) -> bool:
            try:
                parse_rational(c)
                return True
            except InputError:
                return c.strip().lower().lstrip("+-") in ("nan", "inf", "infinity")

        # a header names every feature column: no feature cell of it reads as a number.  A first row with
        # some numeric cells and some not is data with a bad cell, reported below with its line and column
        # (never silently dropped as a "header").
        if not any(numeric_like(c) for c in first[:-1]):
            header = tuple(c.strip() for c in first)
            rows = rows[1:]
    if not rows:
        raise CSVError(f"line {first_line}{where}: only a header, no data rows", line=first_line)
    width = len(header) if header else len(rows[0][1])
    if width < 2:
        raise CSVError(
            f"line {rows[0][0]}{where}: a row needs at least one feature column and a label column"
            + (f" (delimiter {_delimiter_name(delimiter)}; another delimiter? --delimiter)" if delimiter else ""),
            line=rows[0][0],
        )
    if reference:
        return _reference_dataset(rows, width, header, where, source, delimiter, label_at, unlabeled)
    X = _fast_matrix(rows, width)
    if X is None:  # a bad cell, a ragged row, an empty label: the reference raises the error it names
        return _reference_dataset(rows, width, header, where, source, delimiter, label_at, unlabeled)
    if unlabeled:
        return Dataset(X, (None,) * len(rows), feature_names=header[:-1] if header else None, source=source,
                       lines=tuple(lineno for lineno, _cells in rows))
    return Dataset(
        X,
        tuple(labels_from_texts([cells[-1] for _lineno, cells in rows])),
        feature_names=header[:-1] if header else None,
        label_name=header[-1] if header else None,
        source=source,
        lines=tuple(lineno for lineno, _cells in rows),
    )


def parse_csv_reference(text: str, *, source: str | None = None, delimiter: str | None = ",",
                        label_column: int | str | None = None) -> Dataset:
    """:func:`parse_csv` with every cell converted on its own by :func:`parse_rational` (one Fraction per
    cell): the readable reference the fast path must equal (tests compare the two), and the path that
    reports a bad cell's line and column."""
    return _parse_csv(text, source, reference=True, delimiter=delimiter, label_column=label_column)


def _reference_dataset(rows, width, header, where, source, delimiter=",", label_at=None,
                       unlabeled=False) -> Dataset:
    """The rows one Fraction per cell; ``label_at``: the label's 0-based column in the file when the rows were
    reordered to put it last (so that messages name the file's own columns)."""

    def col(j: int) -> int:  # the 1-based file column of reordered column j (0-based)
        if label_at is None:
            return j + 1
        if j == width - 1:
            return label_at + 1
        return j + 1 if j < label_at else j + 2

    X: list[Vector] = []
    y: list[Hashable] = []
    lines: list[int] = []
    for lineno, cells in rows:
        if len(cells) != width:
            u = 1 if unlabeled else 0
            raise CSVError(
                f"line {lineno}{where}: {len(cells) - u} cells, expected {width - u} ("
                + ("features, no label column" if unlabeled else "features then the label")
                + f"; delimiter {_delimiter_name(delimiter)})",
                line=lineno,
            )
        vec = []
        for j, c in enumerate(cells[:-1]):
            try:
                vec.append(parse_rational(c))
            except InputError as e:
                msg = str(e).replace("at row", "at line")
                raise CSVError(f"line {lineno}, column {col(j)}{where}: {c.strip()!r} is not a number "
                               "(expected an integer, a decimal such as 0.01, or a fraction such as -3/4)"
                               if "not a number" in msg else f"line {lineno}, column {col(j)}{where}: {msg}",
                               line=lineno, column=col(j) - 1) from None
        label = cells[-1]
        if not label.strip():
            raise CSVError(f"line {lineno}, column {col(width - 1)}{where}: the label is empty", line=lineno,
                           column=col(width - 1) - 1)
        X.append(tuple(vec))
        y.append(label_from_text(label))
        lines.append(lineno)
    if unlabeled:
        return Dataset(tuple(X), (None,) * len(X), feature_names=header[:-1] if header else None, source=source,
                       lines=tuple(lines))
    return Dataset(
        tuple(X),
        tuple(y),
        feature_names=header[:-1] if header else None,
        label_name=header[-1] if header else None,
        source=source,
        lines=tuple(lines),
    )


# The fast path: CSV cells straight into int64 numerators over one common denominator.
#
# Each *distinct* cell text is tokenized once by _CELL, a strict ASCII subset of what Fraction(str) accepts
# (sign, integer digits, fraction digits, exponent, or p/q; spaces and tabs around), into an exact pair
# (numerator, denominator) computed the way Fraction computes it; a distinct text _CELL does not take (Unicode
# digits, underscores, very long digit runs or exponents, ...) is converted by parse_rational itself.  The
# common denominator L is the lcm of the denominators.  Bit budget: the int64 matrix is used only when
# L < I64_HEADROOM (2**62) and every numerator value * L / denominator is below it in magnitude (checked on Python ints
# before numpy sees them); otherwise the rows are tuples of Fractions, one Fraction per distinct cell text
# (shared), so a file holding 1e-100000 beside 1e100000 never builds 200,000-digit integers per cell.  Any
# cell that parse_rational rejects, a row of the wrong width or an empty label sends the whole file to the
# reference path, which raises the error (with its line and column) exactly as before.

_CELL = re.compile(r"[ \t]*([-+]?)(?=[0-9]|\.[0-9])([0-9]{0,300})"
                   r"(?:/([0-9]{1,300})|(?:\.([0-9]{0,300}))?(?:[eE]([-+]?[0-9]{1,3}))?)[ \t]*")


def _cell_pair(c: str) -> tuple[int, int] | None:
    """The exact value of one cell text as (numerator, denominator > 0), or None when parse_rational rejects it."""
    m = _CELL.fullmatch(c)
    if m is not None:
        sign, num, den, dec, exp = m.groups()
        if den is not None:
            q = int(den)
            if q:  # p/0: the reference names the error
                p = int(num)
                return (-p if sign == "-" else p), q
        else:
            n = int(num + dec) if dec else int(num or "0")
            q = 10 ** len(dec) if dec else 1
            if exp is not None:
                e = int(exp)
                if e >= 0:
                    n *= 10**e
                else:
                    q *= 10**-e
            return (-n if sign == "-" else n), q
    try:
        v = parse_rational(c)
    except InputError:
        return None
    return v.numerator, v.denominator


def _fast_matrix(rows: list[tuple[int, list[str]]], width: int) -> Sequence[Vector] | None:
    """The feature matrix of ``rows`` (see above): an ExactRows, or rows of Fractions beyond the int64 budget;
    None when some row or cell is bad (the reference path then reports it)."""
    d = width - 1
    flat: list[str] = []
    extend = flat.extend
    for _lineno, cells in rows:
        if len(cells) != width or not cells[-1].strip():
            return None
        extend(cells[:-1])
    pairs: dict[str, tuple[int, int]] = {}
    for c in set(flat):
        pr = _cell_pair(c)
        if pr is None:
            return None
        pairs[c] = pr
    L = 1
    for _n, q in pairs.values():
        if L % q:
            L = L * q // math.gcd(L, q)
            if L >= I64_HEADROOM:
                break
    values: dict[str, int] = {}
    if L < I64_HEADROOM:
        for c, (n, q) in pairs.items():
            v = n * (L // q) if n.bit_length() < 63 else I64_HEADROOM
            if not -I64_HEADROOM < v < I64_HEADROOM:
                break
            values[c] = v
    if len(values) != len(pairs):  # beyond the int64 budget: one Fraction per distinct cell text
        frac = {c: Fraction(n, q) for c, (n, q) in pairs.items()}
        get = frac.__getitem__
        return tuple(tuple(map(get, cells[:-1])) for _lineno, cells in rows)
    get = values.__getitem__
    arr = np.fromiter(map(get, flat), dtype=np.int64, count=len(flat)).reshape(len(rows), d)
    # the least common denominator: L / gcd(L, every numerator) (as for rows given as Fractions)
    g = math.gcd(L, int(np.gcd.reduce(np.fromiter(values.values(), dtype=np.int64))))
    if g > 1:
        arr //= g
        L //= g
    return ExactRows._trusted(arr, L)


def read_csv(path: str | Path, *, delimiter: str | None = ",", label_column: int | str | None = None) -> Dataset:
    """Read a CSV file (UTF-8, an optional BOM): feature columns then the label (``delimiter`` and
    ``label_column`` as in :func:`parse_csv`)."""
    p = Path(path)
    return parse_csv_bytes(read_bytes(p), source=str(p), delimiter=delimiter, label_column=label_column)


def read_bytes(path: str | Path) -> bytes:
    """A data file's bytes, or a CSVError naming the file (missing, a directory, unreadable)."""
    p = Path(path)
    try:
        return p.read_bytes()
    except FileNotFoundError:
        raise CSVError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise CSVError(f"{p}: is a directory, not a CSV file") from None
    except OSError as e:
        raise CSVError(f"{p}: cannot be read ({e.strerror})") from None


def parse_csv_bytes(raw: bytes, *, source: str, delimiter: str | None = ",",
                    label_column: int | str | None = None, labels: bool = True) -> Dataset:
    """:func:`parse_csv` of the bytes of a file or of standard input (UTF-8, an optional BOM)."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        lineno = _line_number(raw[: e.start])
        raise CSVError(f"{source}: line {lineno} is not valid UTF-8", line=lineno) from None
    if "\x00" in text:
        lineno = _line_number(text[: text.index("\x00")])
        raise CSVError(f"{source}: line {lineno} contains a NUL byte; is this a CSV file?", line=lineno)
    return parse_csv(text, source=source, delimiter=delimiter, label_column=label_column, labels=labels)
