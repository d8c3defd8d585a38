"""Exact I/O: Runs, certificates and traces to JSON, CSV and LaTeX; vectors and matrices to sympy and numpy.

* JSON: :meth:`Run.to_json <exactlin.model.run.Run.to_json>` / :meth:`Run.from_json
  <exactlin.model.run.Run.from_json>` (rationals as exact strings such as ``"-4/3"``);
  certificates (the dicts in ``run.extras["certificate"]``) with :func:`certificate_to_json`
  / :func:`certificate_from_json`; a trace alone with :func:`trace_to_json` /
  :func:`trace_from_json`.
* Conversions: :func:`to_sympy` (a sympy ``Matrix``, exact), :func:`to_numpy` (a numpy
  object array of Fractions, exact) and, only when asked for, :func:`to_float_array`
  (float64: each entry correctly rounded, the result no longer exact).
* Traces: :func:`trace_csv` (exact strings) and :func:`trace_latex` (booktabs).
* Files: every writer goes through :func:`atomic_write_text` (a temporary file in the same
  directory, then ``os.replace``), so a reader never sees a half-written file.

>>> to_sympy((Fraction(1, 2), 3))
Matrix([
[1/2],
[  3]])
>>> to_numpy([[1, "2/3"]])
array([[Fraction(1, 1), Fraction(2, 3)]], dtype=object)
>>> to_float_array([Fraction(1, 3)])
array([0.33333333])
"""

from __future__ import annotations

import csv
import io as _io
import json
import logging
import os
import tempfile
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from exactlin.errors import InputError, ShapeError
from exactlin.exact.numbers import to_rational
from exactlin.model.run import Run, Step, from_jsonable, to_jsonable

__all__ = ["atomic_write_text", "to_sympy", "to_numpy", "to_float_array", "certificate_to_json",
           "certificate_from_json", "trace_to_json", "trace_from_json", "trace_csv", "trace_latex", "write_json",
           "read_run", "write_trace_csv", "write_trace_latex", "dataset_csv", "write_dataset_csv"]

log = logging.getLogger("exactlin")


def atomic_write_text(path: str | os.PathLike, text: str, *, encoding: str = "utf-8") -> Path:
    """Write ``text`` to ``path`` atomically: a temporary file in the same directory, flushed and
    synced, then ``os.replace`` (atomic on POSIX and Windows).  On failure the temporary file is
    removed and the old ``path`` (if any) is untouched."""
    p = Path(path)
    directory = p.parent if str(p.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding=encoding, newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if p.exists():
            try:
                os.chmod(tmp, p.stat().st_mode & 0o777)
            except OSError:  # pragma: no cover
                pass
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    log.debug("wrote %s (%d characters)", p, len(text))
    return p


# ---------------------------------------------------------------------------
# conversions


def _shape(obj: Any) -> tuple[list, int]:
    """Rows of exact numbers and the nesting depth (0 scalar, 1 vector, 2 matrix)."""
    if hasattr(obj, "tolist") and not isinstance(obj, (str, bytes)):
        obj = obj.tolist()
    if isinstance(obj, (list, tuple)):
        if obj and all(isinstance(r, (list, tuple)) or hasattr(r, "tolist") for r in obj):
            rows = [list(r.tolist() if hasattr(r, "tolist") else r) for r in obj]
            width = len(rows[0])
            for i, r in enumerate(rows):
                if len(r) != width:
                    raise ShapeError(f"ragged matrix: row {i} has {len(r)} entries, row 0 has {width}", row=i)
            return [[_exact(v) for v in r] for r in rows], 2
        return [_exact(v) for v in obj], 1
    return [_exact(obj)], 0


def _exact(v: Any):
    """An exact entry: Fractions and rationals by the one rule; irrational sympy numbers stay sympy."""
    if type(v).__module__.startswith("sympy") and not getattr(v, "is_Rational", False):
        if getattr(v, "is_number", False) and v.is_real is True and v.is_finite is True:
            return v
        raise InputError(f"{v} is not a finite real number (an exact matrix holds finite reals only)")
    return to_rational(v)


def to_sympy(obj: Any):
    """A scalar as a sympy ``Rational``, a vector as a column ``Matrix``, a matrix as a ``Matrix`` (exact)."""
    import sympy

    from exactlin.exact.numbers import to_sympy as scalar

    rows, depth = _shape(obj)
    if depth == 0:
        return scalar(rows[0])
    if depth == 1:
        return sympy.Matrix([[scalar(v)] for v in rows]) if rows else sympy.zeros(0, 1)
    return sympy.Matrix([[scalar(v) for v in r] for r in rows])


def to_numpy(obj: Any):
    """A numpy object array of exact Fractions, of the same shape (no float anywhere)."""
    import numpy as np

    rows, depth = _shape(obj)
    if depth == 0:
        out = np.empty((), dtype=object)
        out[()] = rows[0]
        return out
    if depth == 1:
        out = np.empty(len(rows), dtype=object)
        for i, v in enumerate(rows):
            out[i] = v
        return out
    out = np.empty((len(rows), len(rows[0])), dtype=object)
    for i, r in enumerate(rows):
        for j, v in enumerate(r):
            out[i, j] = v
    return out


def to_float_array(obj: Any):
    """float64 array, on request only: each entry is the float nearest to the exact value
    (``float(Fraction)`` rounds correctly); the result is a float approximation, not exact."""
    import numpy as np

    rows, depth = _shape(obj)
    if depth == 0:
        return np.float64(float(rows[0]))
    if depth == 1:
        return np.array([float(v) for v in rows], dtype=np.float64)
    return np.array([[float(v) for v in r] for r in rows], dtype=np.float64)


# ---------------------------------------------------------------------------
# JSON


def certificate_to_json(cert, *, indent: int | None = 2) -> str:
    """A certificate (``run.extras["certificate"]``, a typed record of :mod:`exactlin.model.certificates`) as JSON
    with exact rational strings and its ``record`` tag."""
    return json.dumps(to_jsonable(cert), indent=indent)


#: the text fields of a certificate: kept as text when an untagged (older) certificate dict is read
_CERT_TEXT_KEYS = ("kind", "meaning", "method", "note", "source", "features", "loss", "verdict")


def certificate_from_json(text: str):
    """Inverse of :func:`certificate_to_json`: a tagged certificate comes back as the same typed record (read back:
    nothing is re-verified; pass its fields to the verifier with your data to check it again); an untagged dict
    from older JSON comes back as a dict whose numbers are Fractions (ints stay ints) and text fields text."""
    raw = _loads(text, "a certificate")
    if not isinstance(raw, dict):
        raise InputError(f"a certificate must be a JSON object, got {type(raw).__name__}")
    if "record" in raw:
        from exactlin.model.certificates import CERTIFICATES

        tags = {c.record_tag for c in CERTIFICATES.values()}
        if raw["record"] not in tags:
            raise InputError(f"a certificate's record tag must be one of {', '.join(sorted(tags))}, got "
                             f"{raw['record']!r}")
        try:
            return from_jsonable(raw)
        except (KeyError, TypeError, ValueError) as e:
            raise InputError(f"a certificate: {type(e).__name__}: {e}") from None
    out = {}
    for k, v in raw.items():
        out[k] = v if k in _CERT_TEXT_KEYS else from_jsonable(v)
    return out


def trace_to_json(steps: Sequence[Step], *, indent: int | None = 2) -> str:
    """A trace (list of :class:`~exactlin.model.run.Step`) as a JSON list."""
    return json.dumps([s.to_dict() for s in steps], indent=indent)


def _loads(text: str, what: str):
    try:
        return json.loads(text)
    except (TypeError, ValueError) as e:
        raise InputError(f"{what}: not JSON ({e})") from None


def trace_from_json(text: str) -> list[Step]:
    raw = _loads(text, "a trace")
    if not isinstance(raw, list):
        raise InputError(f"a trace must be a JSON list of steps, got {type(raw).__name__}")
    try:
        return [Step.from_dict(d) for d in raw]
    except (KeyError, TypeError, AttributeError) as e:
        raise InputError(f"a trace step is malformed ({type(e).__name__}: {e})") from None


def write_json(run: Run, path: str | os.PathLike, *, trace: bool = True) -> Path:
    """Write a Run as JSON (atomically)."""
    return atomic_write_text(path, run.to_json(trace=trace) + "\n")


def read_run(path: str | os.PathLike) -> Run:
    """Read a Run written by :func:`write_json` (its dataset is not stored: ``problem`` is None)."""
    return Run.from_json(Path(path).read_text(encoding="utf-8"))


# ---------------------------------------------------------------------------
# traces and datasets as text


def trace_csv(run: Run, *, vectors: bool = True) -> str:
    """The trace as CSV: the columns of :func:`exactlin.render.report.trace_table`, every number exact."""
    from exactlin.exact.format import display
    from exactlin.render.report import trace_table

    with display(exact=True):  # machine-readable: every number in full, never its decimal approximation
        header, rows = trace_table(run, vectors=vectors)
    buf = _io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue()


def trace_latex(run: Run) -> str:
    """The trace as a booktabs LaTeX table (``\\usepackage{booktabs}``), exact fractions."""
    from exactlin.render.report import trace_latex as _latex

    return _latex(run)


def write_trace_csv(run: Run, path: str | os.PathLike) -> Path:
    return atomic_write_text(path, trace_csv(run))


def write_trace_latex(run: Run, path: str | os.PathLike) -> Path:
    return atomic_write_text(path, trace_latex(run) + "\n")


def dataset_csv(X: Any, y: Any = None) -> str:
    """A dataset as CSV that :func:`exactlin.data.dataset.parse_csv` reads back exactly (fractions as ``a/b``)."""
    from exactlin.data.dataset import as_dataset
    from exactlin.exact.format import fmt

    ds = as_dataset(X, y)
    buf = _io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    names = list(ds.feature_names or [f"x{j + 1}" for j in range(ds.d)])
    w.writerow([*names, ds.label_name or "y"])
    for x, lab in zip(ds.X, ds.y):
        w.writerow([*(fmt(v) for v in x), fmt(lab) if isinstance(lab, Fraction) else lab])
    return buf.getvalue()


def write_dataset_csv(X: Any, y: Any, path: str | os.PathLike) -> Path:
    return atomic_write_text(path, dataset_csv(X, y))
