"""Hostile-input fuzzing of every public Python entry point.

Every call either returns an exact result (checked here: no float anywhere, Fractions in w, a known stop
reason, certificates that re-verify independently, a JSON round trip) or raises an ``ExactlinError``
subclass (also a ValueError/TypeError) whose message names the offending row/column/parameter.  Anything
else -- IndexError, ZeroDivisionError, AttributeError, RecursionError, a raw TypeError, a hang -- fails.

Every registered algorithm is fuzzed through the registry (``all_specs()``), so a new algorithm module is
fuzzed as soon as it registers.  The example budget is fixed and derandomized: CI is deterministic.
The number of cases tried per entry point is printed at the end of the session (tests/conftest.py).
"""

from __future__ import annotations

import dataclasses
import decimal
import json
import random
import signal
from contextlib import contextmanager
from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactlin.algorithms import all_specs
from exactlin.data.dataset import as_dataset, augment, binary_labels, class_labels, normalize
from exactlin.engine.trace import TRACE_STEP_LIMIT
from exactlin.errors import ExactlinError, InputError, InputTypeError, ParameterError
from exactlin.exact.numbers import parse_rational, to_matrix, to_rational, to_vector
from exactlin.exact.rows import ExactRows
from exactlin.model.params import Schedule
from exactlin.model.run import REASONS, LazySteps, Run, Step
from exactlin.model.serialize import IndexList
from exactlin.theory.certificates import verify_gordan, verify_separator
from exactlin.theory.margins import functional_margin, margin, radius_squared, signed_margin

#: the fixed budget: the same cases on every machine and every run
FUZZ = settings(max_examples=60, derandomize=True, database=None, deadline=None, print_blob=False,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])
#: seeded cases per registered algorithm
ALGO_CASES = 60

#: a call taking longer than this is a hang (every bound in the calls below is tiny)
HANG_SECONDS = 20


class Hang(BaseException):  # BaseException: no `except Exception` in the library can swallow it
    pass


@contextmanager
def no_hang(seconds: float = HANG_SECONDS):
    def handler(signum, frame):
        raise Hang(f"call did not return within {seconds} s")

    old = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def call(count, entry: str, fn, *args, **kw):
    """Run one fuzz case: returns ("ok", result) or ("error", ExactlinError); anything else fails the test."""
    try:
        with no_hang():
            result = fn(*args, **kw)
    except ExactlinError as e:
        assert isinstance(e, (ValueError, TypeError)), f"{type(e).__name__} is neither ValueError nor TypeError"
        check_message(e)
        count(entry, "error")
        return "error", e
    count(entry, "ok")
    return "ok", result


def check_message(e: ExactlinError) -> None:
    msg = str(e)
    assert msg.strip(), f"{type(e).__name__} with an empty message"
    assert "\n" not in msg.strip(), f"multi-line message: {msg!r}"
    row, col = getattr(e, "row", None), getattr(e, "column", None)
    line = getattr(e, "line", None)
    if line is not None:
        assert f"line {line}" in msg, f"message does not name line {line}: {msg!r}"
    elif row is not None:  # a sample is named from 1 ("sample 3" for .row == 2); a matrix's row by its index
        assert f"sample {row + 1}" in msg or f"row {row}" in msg, f"message does not name row {row}: {msg!r}"
    if col is not None and line is None:  # a sample's feature from 1; a matrix's column by its index
        assert f"feature {col + 1}" in msg or f"column {col}" in msg, f"message does not name column {col}: {msg!r}"
    if isinstance(e, ParameterError) and e.parameter is not None:
        assert e.parameter in msg, f"message does not name parameter {e.parameter!r}: {msg!r}"


# ---------------------------------------------------------------------------
# exactness checks


def assert_exact(obj, path: str = "run", depth: int = 0) -> None:
    """No float (Python, numpy, Decimal, sympy Float) anywhere in a result."""
    assert depth < 60, f"{path}: nesting too deep"
    if obj is None or isinstance(obj, (bool, str, Fraction)):
        return
    if isinstance(obj, float) or isinstance(obj, np.floating) or isinstance(obj, decimal.Decimal):
        raise AssertionError(f"inexact {type(obj).__name__} {obj!r} at {path}")
    if isinstance(obj, (int, np.integer)):
        return
    if isinstance(obj, np.ndarray):
        assert obj.dtype.kind in "iub" or obj.dtype == object, f"{path}: array of dtype {obj.dtype}"
        for j, v in enumerate(obj.ravel().tolist()):
            assert_exact(v, f"{path}[{j}]", depth + 1)
        return
    if isinstance(obj, dict):
        for k, v in obj.items():
            assert_exact(v, f"{path}[{k!r}]", depth + 1)
        return
    if isinstance(obj, (list, tuple, set, frozenset, LazySteps, ExactRows, IndexList)):  # lazy ones built here
        for j, v in enumerate(obj):
            assert_exact(v, f"{path}[{j}]", depth + 1)
        return
    if isinstance(obj, sympy.Basic):
        assert not obj.atoms(sympy.Float), f"sympy Float inside {obj} at {path}"
        return
    if isinstance(obj, Schedule):
        return
    if dataclasses.is_dataclass(obj):
        for f in dataclasses.fields(obj):
            if f.name in ("problem", "data"):  # the input, not the result
                continue
            assert_exact(getattr(obj, f.name), f"{path}.{f.name}", depth + 1)
        return
    if hasattr(obj, "to_dict"):
        assert_exact(obj.to_dict(), f"{path}.to_dict()", depth + 1)
        return
    if type(obj).__name__ in ("fmpz", "fmpq", "fmpz_mat", "fmpq_mat") and type(obj).__module__.startswith("flint"):
        return  # python-flint's exact integers, rationals and matrices over them
    raise AssertionError(f"unexpected {type(obj).__name__} {obj!r} at {path}")


def assert_json_exact(d, path="json") -> None:
    if isinstance(d, float):
        raise AssertionError(f"float {d!r} in JSON at {path}")
    if isinstance(d, dict):
        for k, v in d.items():
            assert_json_exact(v, f"{path}.{k}")
    elif isinstance(d, list):
        for j, v in enumerate(d):
            assert_json_exact(v, f"{path}[{j}]")


def check_run(run, spec, *, d_aug: int | None, trace_mode) -> None:
    assert isinstance(run, Run), f"{spec.name} returned {type(run).__name__}, not a Run"
    assert run.reason in REASONS, f"unknown reason {run.reason!r}"
    assert isinstance(run.converged, bool)
    for name in ("updates", "epochs", "steps"):
        v = getattr(run, name)
        assert isinstance(v, int) and not isinstance(v, bool) and v >= 0, f"{name} = {v!r}"
    if run.w is not None:
        assert all(type(v) is Fraction for v in run.w), f"w entries not all Fractions: {run.w!r}"
        if d_aug is not None and not spec.multiclass and spec.family != "features":  # features: w in feature space
            assert len(run.w) == d_aug, f"w has {len(run.w)} entries, the augmented samples {d_aug}"
    W = run.extras.get("W")
    if W is not None:
        for row in W:
            assert all(type(v) is Fraction for v in row), f"W entries not all Fractions: {row!r}"
    assert_exact(run.w, "run.w")
    assert_exact(run.params, "run.params")
    assert_exact(run.extras, "run.extras")
    assert all(isinstance(s, Step) for s in run.trace)
    assert_exact(run.trace, "run.trace")
    if trace_mode is None:
        assert len(run.trace) <= TRACE_STEP_LIMIT
    d = run.to_dict()
    text = json.dumps(d, allow_nan=False)
    assert_json_exact(json.loads(text))
    back = Run.from_json(text)
    assert back.w == (tuple(run.w) if run.w is not None else None)
    assert back.reason == run.reason and back.updates == run.updates


def independent_Z(X, y, bias, positive):
    """The normalized samples z_i = y_i x~_i, computed here without exactlin's data layer
    (valid inputs only: the generator's exact values)."""
    if positive is None:
        lab = [1 if int(v) == 1 else -1 for v in y]
    else:
        lab = [1 if (v == positive or str(v) == str(positive)) else -1 for v in y]
    out = []
    for x, s in zip(X, lab):
        xa = list(x)
        if bias == "first":
            xa = [Fraction(1)] + xa
        elif bias == "last":
            xa = xa + [Fraction(1)]
        out.append(tuple(s * v for v in xa))
    return out


def check_certificate(run, Z) -> None:
    cert = run.extras.get("certificate")
    if not cert:
        return
    assert cert.get("verified") is True, f"certificate not marked verified: {cert!r}"
    if cert.get("kind") == "gordan":
        lam = [Fraction(v) for v in cert["lambda"]]
        # re-verify from scratch, on samples computed by the test
        assert len(lam) == len(Z) and all(v >= 0 for v in lam) and sum(lam) == 1
        for j in range(len(Z[0])):
            assert sum(v * z[j] for v, z in zip(lam, Z)) == 0, "Gordan certificate does not verify"


# ---------------------------------------------------------------------------
# hostile cells: (value, status, value under floats="repr", value under floats="exact")
#   status "exact": accepted by every float rule; "float": accepted unless floats="reject";
#   "bad": always rejected

BIG = 10**199 + 7


def _exact(v, q=None):
    q = Fraction(v) if q is None else q
    return (v, "exact", q, q)


EXACT_CELLS = [
    _exact(0), _exact(1), _exact(-1), _exact(3), _exact(-7),
    _exact(Fraction(1, 3)), _exact(Fraction(-22, 7)),
    _exact(Fraction(BIG * 3 + 1, BIG * 2 + 9)),  # 200-digit numerator and denominator
    _exact(Fraction(-(10**200) + 1, 10**199 + 3)),
    _exact(10**200 + 1),
    _exact("0.01", Fraction(1, 100)), _exact("-3/4", Fraction(-3, 4)), _exact(" 7/14 ", Fraction(1, 2)),
    _exact("1e-3", Fraction(1, 1000)), _exact("+2", Fraction(2)), _exact("-0", Fraction(0)),
    _exact("0.0", Fraction(0)), _exact(str(BIG) + "/" + str(BIG + 2), Fraction(BIG, BIG + 2)),
    _exact("1" + "0" * 5000, Fraction(10**5000)),  # longer than Python's 4300-digit str->int limit
    _exact("1e5000", Fraction(10**5000)),
    _exact(np.int64(5), Fraction(5)), _exact(np.int8(-3), Fraction(-3)), _exact(np.uint64(2**63), Fraction(2**63)),
    _exact(decimal.Decimal("0.1"), Fraction(1, 10)), _exact(decimal.Decimal("-0"), Fraction(0)),
    _exact(sympy.Rational(1, 3), Fraction(1, 3)), _exact(sympy.Integer(-4), Fraction(-4)),
]

FLOAT_CELLS = [
    (0.1, "float", Fraction(1, 10), Fraction(3602879701896397, 36028797018963968)),
    (-0.0, "float", Fraction(0), Fraction(0)),
    (5e-324, "float", Fraction(5, 10**324), Fraction(1, 2**1074)),  # the smallest subnormal
    (2.2250738585072014e-308, "float", Fraction(22250738585072014, 10**324), Fraction(1, 2**1022)),
    (1.5, "float", Fraction(3, 2), Fraction(3, 2)),
    (-2.75, "float", Fraction(-11, 4), Fraction(-11, 4)),
    (1e300, "float", Fraction(10**300), Fraction(1e300)),
    (np.float64(0.1), "float", Fraction(1, 10), Fraction(3602879701896397, 36028797018963968)),
    (np.float32(0.5), "float", Fraction(1, 2), Fraction(1, 2)),
    (np.float64(-0.0), "float", Fraction(0), Fraction(0)),
]

BAD_CELLS = [
    float("nan"), float("inf"), float("-inf"), np.nan, np.float32("inf"), np.float64("-inf"),
    complex(1, 2), 1j, np.complex128(1), None, True, False, np.bool_(True),
    "abc", "", "   ", "1/0", "nan", "-inf", "Infinity", "0x10", "1e999999999", "-1e-999999999", "1/2/3", "1..2",
    decimal.Decimal("NaN"), decimal.Decimal("-Infinity"), decimal.Decimal("1e999999999"),
    sympy.sqrt(2), sympy.pi, sympy.nan, sympy.zoo, sympy.Symbol("x"),
    b"1", bytearray(b"1"), [1], (1, 2), {}, object(),
]

bad_cells = st.sampled_from(BAD_CELLS).map(lambda v: (v, "bad", None, None))
good_cells = st.one_of(st.sampled_from(EXACT_CELLS), st.sampled_from(FLOAT_CELLS),
                       st.integers(-50, 50).map(_exact),
                       st.fractions(max_denominator=12).map(_exact))
small_cells = st.one_of(st.integers(-5, 5).map(_exact), st.fractions(max_denominator=4).filter(
    lambda q: abs(q) < 10).map(_exact))
float_rules = st.sampled_from(["repr", "exact", "reject"])


# picks: one description of a random choice, drawn either by hypothesis (shrinkable) or by a seeded Random
class Choice:
    def __init__(self, seq):
        self.seq = list(seq)

    def strategy(self):
        return st.sampled_from(self.seq)

    def sample(self, rng):
        return rng.choice(self.seq)


class Int:
    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi

    def strategy(self):
        return st.integers(self.lo, self.hi)

    def sample(self, rng):
        return rng.randint(self.lo, self.hi)


class Bool(Int):
    def __init__(self):
        super().__init__(0, 1)

    def strategy(self):
        return st.booleans()

    def sample(self, rng):
        return rng.random() < 0.5


#: cells of more than 700 bits (10**5000): fuzzed through the conversion functions, kept out of algorithm runs
#: (algorithms get the 200-digit rationals; exact linear algebra on 16,000-bit entries is slow, not wrong)
HUGE_CELLS = [c for c in EXACT_CELLS if max(abs(c[2].numerator), c[2].denominator).bit_length() > 700]
ALGO_EXACT_CELLS = [c for c in EXACT_CELLS if c not in HUGE_CELLS]


class CellPick:
    def __init__(self, small: bool = False, huge: bool = True, bad: bool = False):
        self.small, self.huge, self.bad = small, huge, bad

    def strategy(self):
        if self.bad:
            return bad_cells
        if self.small:
            return small_cells
        return st.one_of(small_cells, small_cells, good_cells if self.huge else st.one_of(
            st.sampled_from(ALGO_EXACT_CELLS), st.sampled_from(FLOAT_CELLS)))

    def sample(self, rng):
        if self.bad:
            return (rng.choice(BAD_CELLS), "bad", None, None)
        r = rng.random()
        if self.small or r < 0.6:
            if rng.random() < 0.5:
                return _exact(rng.randint(-5, 5))
            return _exact(Fraction(rng.randint(-9, 9), rng.randint(1, 4)))
        if r < 0.8:
            return rng.choice(ALGO_EXACT_CELLS if not self.huge else EXACT_CELLS)
        return rng.choice(FLOAT_CELLS)


def expected(cell, rule):
    v, status, rep, ex = cell
    if status == "bad" or (status == "float" and rule == "reject"):
        return None
    return rep if rule == "repr" else ex


@FUZZ
@given(cell=st.one_of(good_cells, bad_cells), rule=float_rules, row=st.sampled_from([None, 0, 3]),
       col=st.sampled_from([None, 0, 2]))
def test_fuzz_to_rational(fuzz_count, cell, rule, row, col):
    kind, out = call(fuzz_count, "to_rational", to_rational, cell[0], floats=rule, row=row, column=col)
    want = expected(cell, rule)
    if want is None:
        assert kind == "error", f"{cell[0]!r} (floats={rule}) was accepted as {out!r}"
        if isinstance(out, (InputError, InputTypeError)) and row is not None:
            assert out.row == row and f"sample {row + 1}" in str(out)
    else:
        assert kind == "ok", f"{cell[0]!r} (floats={rule}) rejected: {out}"
        assert type(out) is Fraction and out == want


@FUZZ
@given(text=st.one_of(
    st.text(max_size=30),
    st.text(alphabet="0123456789+-./eE_ ", max_size=25),
    st.fractions().map(str),
    st.decimals(allow_nan=True, allow_infinity=True).map(str),
    st.floats().map(repr),
    st.integers().map(str)))
def test_fuzz_parse_rational(fuzz_count, text):
    kind, out = call(fuzz_count, "parse_rational", parse_rational, text, row=4, column=1)
    if kind == "ok":
        assert type(out) is Fraction
        try:
            ref = Fraction(text.strip())
        except (ValueError, ZeroDivisionError):
            ref = None
        if ref is not None:
            assert out == ref
    else:
        # .row 4, .column 1 (0-based), named from 1 in the message
        assert isinstance(out, InputError) and "sample 5" in str(out) and "feature 2" in str(out)


# ---------------------------------------------------------------------------
# hostile datasets


@dataclasses.dataclass(repr=False)
class Case:
    X: object
    y: object
    bad: str | None  # why the input must be rejected (by every entry point that converts it), or None
    floats: list  # positions of float cells (rejected under floats="reject")
    Xq: list | None  # the exact matrix under floats="repr" (valid inputs)
    Xe: list | None  # ... under floats="exact"
    labels: list | None
    labels_pm1: bool  # every label is an accepted +1/-1 form
    n: int
    d: int

    def __repr__(self) -> str:  # safe for numbers beyond Python's 4300-digit repr limit
        return f"Case(X={_short(self.X)}, y={_short(self.y)}, bad={self.bad!r}, n={self.n}, d={self.d})"


def _short(v) -> str:
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_short(x) for x in v) + "]"
    if isinstance(v, np.ndarray):
        return f"array({_short(v.tolist())})"
    if isinstance(v, Fraction) and max(abs(v.numerator), v.denominator).bit_length() > 200:
        return f"Fraction(<{v.numerator.bit_length()} bits>/<{v.denominator.bit_length()} bits>)"
    if isinstance(v, int) and v.bit_length() > 200:
        return f"<{v.bit_length()}-bit int>"
    if isinstance(v, str) and len(v) > 60:
        return repr(v[:30] + "..." + v[-10:])
    try:
        return repr(v)
    except ValueError:
        return f"<{type(v).__name__}>"


GOOD_PM1 = [1, -1, Fraction(1), Fraction(-1), "1", "-1", "+1", np.int64(1), np.int8(-1)]


def _sign(v) -> int:
    return 1 if v == 1 or v in ("1", "+1") else -1


def one_form_per_sign(drawn: list, like: list | None = None) -> list:
    """The drawn +1/-1 forms with every sample of a sign written as the first form drawn for it (in ``like``,
    else in ``drawn``): a data set has one label per class (issue 20: "1" and 1 are two labels, never merged).
    As many draws as before, so the other draws of a case stay as they were."""
    first: dict = {}
    for v in [*(like or []), *drawn]:
        first.setdefault(_sign(v), v)
    return [first[_sign(v)] for v in drawn]


def _py(v):
    return v.item() if isinstance(v, np.generic) else v


def _ident(v):
    """A label's identity under issue 20's policy: its type and value, a numpy scalar as its Python value."""
    v = _py(v)
    return (type(v), repr(v) if isinstance(v, float) else v)


def _text(v):
    v = _py(v)
    return repr(v) if isinstance(v, float) else str(v)


def confusable(labels) -> bool:
    """Two different labels that are equal values (1 and Fraction(1)) or of the same text (1 and "1")."""
    distinct = list({_ident(v): _py(v) for v in labels}.values())
    return any(a == b or _text(a) == _text(b) for i, a in enumerate(distinct) for b in distinct[i + 1:])


def pm1_labels(labels) -> bool:
    """Labels binary_labels takes without positive: +1/-1 forms, one form (one label) for each sign."""
    if not all(any(lab is g or (type(lab) is type(g) and lab == g) for g in GOOD_PM1) for lab in labels):
        return False
    forms = {_ident(v) for v in labels}
    plus = [f for f in forms if f[1] == 1 or f[1] in ("1", "+1")]
    return len(plus) <= 1 and len(forms) - len(plus) <= 1 and not confusable(labels)
OTHER_LABELS = [0, 2, "cat", "dog", Fraction(1, 2), 1.5, "", " "]
BAD_LABELS = [None, float("nan"), np.float32("nan"), [1], {1: 2}]


def make_case(draw, *, allow_bad: bool = True, small: bool = False, huge: bool = True) -> Case:
    """A dataset, valid or hostile; ``draw`` takes a Pick (hypothesis-driven or seeded-random)."""
    shape = draw(Choice(["normal", "normal", "normal", "wide", "one"] + (["empty"] if allow_bad else [])))
    if shape == "wide":
        n, d = draw(Int(1, 3)), draw(Int(8, 40))
    elif shape == "one":
        n, d = 1, draw(Int(1, 4))
    elif shape == "empty":
        n, d = draw(Choice([(0, 0), (0, 2), (2, 0)]))
    else:
        n, d = draw(Int(2, 7)), draw(Int(1, 4))
    cell = CellPick(small, huge)
    grid = [[draw(cell) for _ in range(d)] for _ in range(n)]
    bad = None
    if n == 0:
        bad = "empty X"
    elif d == 0:
        bad = "rows with no columns"
    # degenerate but valid data
    if n >= 1 and d >= 1 and draw(Bool()):
        trick = draw(Choice(["zeros", "dup", "zero_row"]))
        if trick == "zeros":
            grid = [[_exact(0) for _ in range(d)] for _ in range(n)]
        elif trick == "zero_row":
            grid[draw(Int(0, n - 1))] = [_exact(0) for _ in range(d)]
        elif trick == "dup" and n >= 2:
            grid[1] = list(grid[0])
    # labels
    label_kind = draw(Choice(["pm1", "pm1", "pm1", "one_class", "opposite_dup", "other", "bad"]
                                      if allow_bad else ["pm1", "pm1", "one_class", "opposite_dup"]))
    if label_kind in ("pm1", "opposite_dup"):  # one form for +1, one for -1 (issue 20: labels never merged)
        labels = one_form_per_sign([draw(Choice(GOOD_PM1)) for _ in range(n)])
        if label_kind == "opposite_dup" and n >= 2:
            grid[1] = list(grid[0])
            labels[0], labels[1] = one_form_per_sign([1, -1], like=labels)
    elif label_kind == "one_class":
        labels = [1] * n
    elif label_kind == "other":
        labels = [draw(Choice(GOOD_PM1 + OTHER_LABELS)) for _ in range(n)]
    else:
        labels = one_form_per_sign([draw(Choice(GOOD_PM1)) for _ in range(n)])
        if n:
            labels[draw(Int(0, n - 1))] = draw(Choice(BAD_LABELS))
            bad = bad or "unusable label"
    labels_pm1 = pm1_labels(labels)
    # hostile structure
    if allow_bad and n >= 1 and d >= 1:
        corruption = draw(Choice([None] * 5 + ["cell", "ragged", "length", "row_type", "y_type"]))
        if corruption == "cell":
            grid[draw(Int(0, n - 1))][draw(Int(0, d - 1))] = draw(CellPick(bad=True))
            bad = bad or "bad cell"
        elif corruption == "ragged" and n >= 2:
            i = draw(Int(0, n - 1))
            if d == 1 or draw(Bool()):
                grid[i] = grid[i] + [_exact(1)]
            else:
                grid[i] = grid[i][:-1]
            bad = bad or "ragged"
        elif corruption == "length":
            labels = labels + [1] if draw(Bool()) or n == 0 else labels[:-1]
            bad = bad or "length mismatch"
    cells_ok = all(c[1] != "bad" for row in grid for c in row)
    floats = [(i, j) for i, row in enumerate(grid) for j, c in enumerate(row) if c[1] == "float"]
    container = draw(Choice(["list", "list", "tuple", "numpy", "rows_numpy"]))
    vals = [[c[0] for c in row] for row in grid]
    if container == "tuple":
        X = tuple(tuple(r) for r in vals)
    elif container == "numpy" and bad is None and cells_ok:
        try:
            X = np.array(vals, dtype=object) if n and d else np.zeros((n, d), dtype=np.int64)
        except ValueError:
            X = vals
    elif container == "rows_numpy":
        X = [np.array(r, dtype=object) for r in vals]
    else:
        X = vals
    y = labels
    ytype = draw(Choice(["list"] * 6 + ["numpy", "tuple", "str", "none", "scalar"]))
    if ytype == "numpy" and labels_pm1 and labels:
        labels = [int(v) for v in labels]
        y = np.array(labels)
    elif ytype == "tuple":
        y = tuple(labels)
    elif allow_bad and ytype == "str":
        y, bad = "".join("1" for _ in labels), bad or "y is a string"
    elif allow_bad and ytype == "none":
        y, bad = None, bad or "y missing"
    elif allow_bad and ytype == "scalar":
        y, bad = 1, bad or "y is a scalar"
    if allow_bad and draw(Int(0, 19)) == 19:
        X, bad = draw(Choice([None, 5, "1,2", [1, 2, 3], {"a": 1}])), bad or "X not a matrix"
    if not cells_ok:
        bad = bad or "bad cell"
    good = bad is None
    Xq = [[c[2] for c in row] for row in grid] if good else None
    Xe = [[c[3] for c in row] for row in grid] if good else None
    return Case(X, y, bad, floats, Xq, Xe, labels, labels_pm1, n, d)


@st.composite
def cases(draw, **kw):
    return make_case(lambda pick: draw(pick.strategy()), **kw)


@FUZZ
@given(case=cases(), rule=float_rules)
def test_fuzz_as_dataset(fuzz_count, case, rule):
    kind, out = call(fuzz_count, "as_dataset", as_dataset, case.X, case.y, floats=rule)
    if case.bad is not None:
        assert kind == "error", f"{case.bad}: accepted"
        return
    if rule == "reject" and case.floats:
        assert kind == "error", "a float cell was accepted under floats='reject'"
        i, j = case.floats[0]
        assert out.row == i and out.column == j, f"wrong position named: {out}"
        return
    assert kind == "ok", f"valid data rejected: {out}"
    want = case.Xq if rule == "repr" else case.Xe
    assert [list(r) for r in out.X] == want
    assert all(type(v) is Fraction for r in out.X for v in r)
    assert len(out.y) == case.n


@FUZZ
@given(case=cases(), positive=st.sampled_from([None, None, 1, "cat", -1, "1", 0]))
def test_fuzz_binary_labels(fuzz_count, case, positive):
    y = case.y if isinstance(case.y, (list, tuple)) else case.labels
    kind, out = call(fuzz_count, "binary_labels", binary_labels, y, positive)
    if kind == "ok":
        assert len(out) == len(y) and all(type(v) is int and v in (1, -1) for v in out)
    if positive is None:
        assert (kind == "ok") == case.labels_pm1 or not isinstance(y, list) or y != case.labels, \
            f"labels {y!r}: {kind} {out!r}"


@FUZZ
@given(labels=st.lists(st.one_of(st.sampled_from(GOOD_PM1 + OTHER_LABELS + [None, 3.5, (1, 2), "x"]),
                                 st.integers(-3, 3)), max_size=8))
def test_fuzz_class_labels(fuzz_count, labels):
    kind, out = call(fuzz_count, "class_labels", class_labels, labels)
    if confusable(labels):  # issue 20: two labels that would be confused are an error naming both, never merged
        assert kind == "error" and "would be confused" in str(out)
        return
    assert kind == "ok"
    assert len(set(out)) == len(out) and set(out) == set(labels)
    # deterministic: the same input gives the same order
    assert class_labels(list(labels)) == out


@FUZZ
@given(case=cases(), bias=st.sampled_from(["none", "first", "last", "middle", None, 1, ""]))
def test_fuzz_augment(fuzz_count, case, bias):
    kind, out = call(fuzz_count, "augment", augment, case.X, bias)
    if bias not in ("none", "first", "last") or (case.bad and case.bad != "unusable label"
                                                  and case.bad != "length mismatch"
                                                  and "y" not in case.bad.split()[0]):
        if bias not in ("none", "first", "last"):
            assert kind == "error"
        if case.bad in ("bad cell", "ragged", "X not a matrix"):
            assert kind == "error", f"{case.bad}: augment accepted {out!r}"
        return
    if case.Xq is None:
        return
    assert kind == "ok", out
    extra = 0 if bias == "none" else 1
    assert all(len(r) == case.d + extra for r in out)
    assert all(type(v) is Fraction for r in out for v in r)
    for r, q in zip(out, case.Xq):
        core = r if bias == "none" else (r[1:] if bias == "first" else r[:-1])
        assert list(core) == q
        if bias != "none":
            assert (r[0] if bias == "first" else r[-1]) == 1


@FUZZ
@given(case=cases(), data=st.data())
def test_fuzz_normalize(fuzz_count, case, data):
    z = data.draw(st.one_of(
        st.lists(st.sampled_from([1, -1]), min_size=case.n, max_size=case.n),
        st.lists(st.sampled_from([1, -1, 1, -1, 0, 2, "x", None, 1.0]), max_size=8)))
    kind, out = call(fuzz_count, "normalize", normalize, case.X, z)
    if kind == "ok":
        assert len(out) == len(z)
        assert all(type(v) is Fraction for r in out for v in r)
    if case.Xq is not None and len(z) == case.n and all(v in (1, -1) and type(v) is int for v in z):
        assert kind == "ok", out
        assert [list(r) for r in out] == [[s * v for v in row] for row, s in zip(case.Xq, z)]
    if case.bad in ("bad cell", "ragged") or any(not (type(v) is int and v in (1, -1)) for v in z):
        assert kind == "error", f"normalize accepted {case.bad or z!r}"


vectors = st.lists(st.one_of(small_cells.map(lambda c: c[0]), st.sampled_from([0, 0, "1/2", 0.25])),
                   min_size=0, max_size=6)


@FUZZ
@given(case=cases(), data=st.data(),
       which=st.sampled_from(["margin", "signed_margin", "functional_margin", "radius_squared"]))
def test_fuzz_margins(fuzz_count, case, data, which):
    w = data.draw(st.one_of(
        st.lists(small_cells.map(lambda c: c[0]), min_size=case.d, max_size=case.d),
        st.lists(small_cells.map(lambda c: c[0]), min_size=case.d, max_size=case.d),
        vectors, st.sampled_from([None, "12", [float("nan")], [None, 1], [[1]]])))
    y = case.y
    if which == "margin":
        kind, out = call(fuzz_count, "margins", margin, w, case.X)
    elif which == "signed_margin":
        kind, out = call(fuzz_count, "margins", signed_margin, w, case.X, y)
    elif which == "functional_margin":
        kind, out = call(fuzz_count, "margins", functional_margin, w, case.X, y)
    else:
        kind, out = call(fuzz_count, "margins", radius_squared, case.X)
    if case.bad in ("bad cell", "ragged", "empty X", "X not a matrix"):
        assert kind == "error", f"{which} accepted {case.bad}"
    if kind == "ok":
        assert_exact(out if not hasattr(out, "squared") else (out.numerator, out.norm2, out.squared, out.value))
    if kind == "ok" and which in ("signed_margin", "functional_margin"):
        assert case.Xq is not None and case.labels_pm1, f"{which} accepted labels {y!r} / data {case.bad}"


@FUZZ
@given(case=cases(allow_bad=False, small=True), w=vectors, strict=st.booleans(),
       marg=st.sampled_from([0, Fraction(1, 2), 1, -1]), hostile=st.sampled_from([None] * 6 + ["Z", "w"]))
def test_fuzz_verify_separator(fuzz_count, case, w, strict, marg, hostile):
    if not case.labels_pm1 or not case.n or not case.d:
        return
    Z = independent_Z(case.Xq, case.labels, "none", None)
    if hostile == "Z":
        Z = [list(z) for z in Z]
        Z[0] = Z[0] + ["x"] if len(Z) > 1 else ["nan"] * len(Z[0])
    elif hostile == "w":
        w = list(w)[:-1] + [None] if w else [None]
    kind, out = call(fuzz_count, "verify_separator", verify_separator, Z, w, margin=marg, strict=strict)
    if hostile is not None:
        assert kind == "error"
        return
    wq = [Fraction(str(v)) if isinstance(v, (str, float)) else Fraction(v) for v in w]
    if len(wq) != case.d:
        assert kind == "error"
        return
    vals = [sum(a * b for a, b in zip(wq, z)) for z in Z]
    ok = all(v > marg for v in vals) if strict else all(v >= marg for v in vals)
    assert (kind == "ok") == ok, f"verifier says {kind} ({out}), independent check says {ok}"
    if ok:
        assert out == min(vals)


@FUZZ
@given(case=cases(allow_bad=False, small=True), counts=st.lists(st.integers(0, 3), max_size=8),
       hostile=st.sampled_from([None] * 6 + ["neg", "str", "ragged", "empty"]))
def test_fuzz_verify_gordan(fuzz_count, case, counts, hostile):
    if not case.labels_pm1 or not case.n or not case.d:
        return
    Z = independent_Z(case.Xq, case.labels, "none", None)
    counts = (counts + [0] * case.n)[: case.n]
    total = sum(counts)
    lam = [Fraction(c, total) if total else Fraction(0) for c in counts]
    if hostile == "neg":
        lam[0] = -lam[0] - 1
    elif hostile == "str":
        lam[0] = "x"
    elif hostile == "ragged":
        Z = [list(z) for z in Z]
        Z[-1] = Z[-1][:-1] if len(Z[-1]) > 1 else Z[-1] + [Fraction(1)]
    elif hostile == "empty":
        Z, lam = [], []
    kind, out = call(fuzz_count, "verify_gordan", verify_gordan, Z, lam)
    if hostile is not None:
        assert kind == "error"
        return
    ok = total > 0 and all(sum(v * z[j] for v, z in zip(lam, Z)) == 0 for j in range(case.d))
    assert (kind == "ok") == ok, f"verifier says {kind} ({out}), independent check says {ok}"


@FUZZ
@given(spec=st.one_of(
    st.sampled_from(["1", "1/k", "2/(k+1)", "1/k**2", "k", "1/2", "0.1", "-1/k", "0", "1/(k-1)", "sqrt(k)",
                     "log(k)", "x", "k*x", "1/", "", "  ", "nan", "inf", "zoo", "k^2", "1e-3", "2**k",
                     "10**100000", "9**9**9", "factorial(k)", "Matrix([1])", "[1]", "lambda: 1"]),
    st.text(alphabet="k0123456789+-*/(). ", max_size=12),
    st.sampled_from([1, Fraction(1, 2), 0.5, None, True, float("nan"), -1, "abc"])))
def test_fuzz_schedule(fuzz_count, spec):
    def build_and_eval():
        s = Schedule(spec)
        return [s(k) for k in (1, 2, 3)]

    kind, out = call(fuzz_count, "Schedule", build_and_eval)
    if kind == "ok":
        assert all(type(v) is Fraction for v in out), out


@FUZZ
@given(values=st.lists(st.one_of(good_cells, bad_cells), max_size=5), rule=float_rules)
def test_fuzz_to_vector(fuzz_count, values, rule):
    kind, out = call(fuzz_count, "to_vector", to_vector, [c[0] for c in values], floats=rule, row=2)
    want = [expected(c, rule) for c in values]
    if any(v is None for v in want):
        assert kind == "error"
        assert out.row == 2 and "sample 3" in str(out)
        j = want.index(None)
        if isinstance(out, (InputError, InputTypeError)) and out.column is not None:
            assert out.column == j
    else:
        assert kind == "ok" and list(out) == want


@FUZZ
@given(case=cases(), rule=float_rules)
def test_fuzz_to_matrix(fuzz_count, case, rule):
    kind, out = call(fuzz_count, "to_matrix", to_matrix, case.X, floats=rule)
    if case.bad in ("bad cell", "ragged", "empty X", "X not a matrix", "rows with no columns"):
        assert kind == "error"
    elif case.Xq is not None and not (rule == "reject" and case.floats):
        assert kind == "ok" and [list(r) for r in out] == (case.Xq if rule == "repr" else case.Xe)


# ---------------------------------------------------------------------------
# every registered algorithm, through the registry

SPECS = {s.name: s for s in all_specs()}


def _param_value(draw, p, d_aug, hostile_case):
    """A value for one parameter: usually plausible, sometimes (in hostile cases) hostile."""
    hostile = hostile_case and draw(Int(0, 3)) == 3
    if hostile:
        return draw(Choice([None, "abc", float("nan"), -1, 0, True, [1, 2], complex(1, 1), "1/0",
                                     Fraction(-1, 2), 10**40, "", object()]))
    k = p.kind
    if k == "rational":
        return draw(Choice([Fraction(1), Fraction(1, 2), Fraction(2), Fraction(1, 3), "1/10", 1, 0.5]))
    if k == "int":
        if p.name in ("max_bits",):
            return draw(Int(1, 400))
        return draw(Int(1, 6))
    if k == "vector":
        n = d_aug if draw(Int(0, 4)) != 4 else d_aug + draw(Choice([-1, 1]))
        return tuple(draw(Int(-3, 3)) for _ in range(max(n, 0)))
    if k == "matrix":
        return tuple(tuple(draw(Int(-3, 3)) for _ in range(d_aug)) for _ in range(d_aug))
    if k == "schedule":
        return draw(Choice(["1", "1/k", "1/2", "2/(k+1)", "1/k**2", Fraction(1, 2), "sqrt(k)", "-1/k"]))
    if k == "bool":
        return draw(Choice([True, False, "true", "no"]))
    if k == "choice":
        return draw(Choice(list(p.choices) + ["bogus"]))
    return draw(Choice(["1", "cat", "-1", ""]))


def make_algo_inputs(draw, spec):
    hostile = draw(Int(0, 9)) >= 6  # 60% of the cases run on valid data, 40% on hostile input
    case = make_case(draw, allow_bad=hostile, huge=False)
    bias = draw(Choice([spec.bias_default, "none", "first", "last"] + (["middle"] if hostile and draw(
        Int(0, 4)) == 4 else [])))
    d_aug = case.d + (0 if bias == "none" else 1)
    params = {}
    for p in spec.params:
        if draw(Int(0, 2)) == 2:
            params[p.name] = _param_value(draw, p, d_aug, hostile)
    if hostile and draw(Int(0, 9)) == 9:
        params["no_such_param"] = 1
    kw = {"bias": bias, "floats": draw(Choice(["repr", "repr", "exact"] + (["reject"] if hostile else []))),
          "trace": draw(Choice([None, None, True, False]))}
    if spec.iterative:
        kw["max_epochs"] = draw(Int(1, 4)) if not hostile or draw(Bool()) else draw(
            Choice([1, 0, -1, True, 2.5, "3", None]))
    positive = None
    if not spec.multiclass:
        positive = draw(Choice([None, None, None, 1, "cat", -1]))
        if positive is not None:
            kw["positive"] = positive
    return case, kw, params, bias, positive, d_aug


def _algo_expect_error(spec, case, kw, params, positive) -> str | None:
    """Why this call must raise (None: it may return a Run or raise a documented error)."""
    if case.bad is not None:
        return case.bad
    if kw["bias"] not in ("none", "first", "last"):
        return "bad bias"
    if "no_such_param" in params:
        return "unknown parameter"
    if kw["floats"] == "reject" and case.floats:
        return "float rejected"
    if spec.iterative and (kw["max_epochs"] is True or kw["max_epochs"] in (0, -1, 2.5, "3")):
        return f"max_epochs={kw['max_epochs']!r}"
    if not spec.multiclass and positive is None and not case.labels_pm1:
        return "labels not +1/-1"
    if not spec.multiclass and positive is not None:
        others: list = []
        for v in case.labels:
            if not (v == positive or str(v) == str(positive)) and v not in others:
                others.append(v)
        if len(others) > 1:
            return "more than two labels"
    return None


def _fuzz_algorithm(fuzz_count, name, seed):
    spec = SPECS[name]
    rng = random.Random(f"{name}:{seed}")
    case, kw, params, bias, positive, d_aug = make_algo_inputs(lambda pick: pick.sample(rng), spec)
    kind, out = call(fuzz_count, name, spec.func, case.X, case.y, **kw, **params)
    must = _algo_expect_error(spec, case, kw, params, positive)
    if must is not None:
        assert kind == "error", f"{name} accepted bad input ({must}): {out!r}"
        return
    if kind == "error":
        return
    check_run(out, spec, d_aug=d_aug, trace_mode=kw.get("trace"))
    if not spec.multiclass and spec.family != "features" and case.Xq is not None and case.n and case.d:
        X = case.Xq if kw["floats"] == "repr" else case.Xe
        Z = independent_Z(X, case.labels, bias, positive)
        check_certificate(out, Z)
        if out.reason == "converged" and out.w is not None and name not in NOT_A_SEPARATOR_ON_CONVERGED:
            bad = [i for i, z in enumerate(Z) if sum(a * b for a, b in zip(out.w, z)) <= 0]
            assert not bad, f"{name} says converged but w = {out.w} misclassifies samples {bad}"
        if out.reason == "converged" and name == "threshold-unit":
            # o = t on every sample: z net > 0, or net = 0 on the class the tie rule sends there
            x0 = Fraction(out.params["bias_input"])
            for i, z in enumerate(Z):
                zs = [v for v in z]
                if bias in ("first", "last"):
                    zs[0 if bias == "first" else -1] *= x0
                net_z = sum(a * b for a, b in zip(out.w, zs))  # = z * net
                side = 1 if (zs[0 if bias == "first" else -1] * x0 > 0) else -1 if bias != "none" else None
                assert net_z >= 0, f"threshold-unit converged but sample {i} has z net = {net_z} < 0"
                if net_z == 0 and side is not None:
                    assert (side > 0) == (out.params["tie"] == ">="), f"sample {i} at net 0 on the wrong class"


#: algorithms whose reported w need not separate when reason == "converged" (documented reason each)
NOT_A_SEPARATOR_ON_CONVERGED: dict[str, str] = {
    "threshold-unit": "a zero net is correct for one class (o = 1 iff net >= 0, or iff net > 0), so a converged "
                      "unit may leave samples of that class at net = 0; its own check follows",
}


#: bugs this fuzzer found in modules still being written (fixed as they are found); strict xfail: once one
#: is fixed the test fails until its entry is removed here
KNOWN_BUGS: dict[str, str] = {}


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=KNOWN_BUGS[n])) if n in KNOWN_BUGS else n
    for n in sorted(SPECS)])
def test_fuzz_algorithm(fuzz_count, name):
    """ALGO_CASES seeded cases per registered algorithm (seeded Random, not hypothesis: one algorithm call
    costs far less than hypothesis's bookkeeping of a few hundred draws, and the budget must fit CI).
    A failure names its seed: rerun with _fuzz_algorithm(count, name, seed)."""
    for seed in range(ALGO_CASES):
        try:
            _fuzz_algorithm(fuzz_count, name, seed)
        except (AssertionError, Exception, Hang) as e:
            raise AssertionError(f"{name}, fuzz seed {seed}: {type(e).__name__}: {e}") from e
