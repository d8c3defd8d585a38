"""CSV cells parse straight into integers over one common denominator.

The fast path of ``parse_csv`` must give a Dataset equal to the per-cell reference ``parse_csv_reference``
(one ``parse_rational`` per cell, the old path) on every input -- same exact values, labels, header,
``lines`` -- or raise the same error (class, message, line, column).  Hand-derived cases check the integers
and the denominator, the int64 budget and the fall-back to Fractions.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactlin.data.dataset import parse_csv, parse_csv_reference
from exactlin.errors import CSVError
from exactlin.exact.rows import I64_HEADROOM, ExactRows

# cells: what the strict tokenizer takes, and what it leaves to parse_rational (Unicode digits, underscores,
# spaces around '/', long digit runs, big exponents) or what is not a number at all
_digits = st.text("0123456789", min_size=0, max_size=25)
_sign = st.sampled_from(["", "+", "-"])
_space = st.sampled_from(["", "", "", " ", "  ", "\t", "\u00a0"])


@st.composite
def cells(draw):
    kind = draw(st.integers(0, 40))  # bad or odd cells (kinds 39, 40) are rare
    sign = draw(_sign)
    if kind <= 9:  # integer
        body = draw(st.text("0123456789", min_size=1, max_size=25))
    elif kind <= 19:  # decimal, maybe with an exponent
        a, b = draw(_digits), draw(_digits)
        if not a and not b:
            a = "0"
        body = f"{a}.{b}" if draw(st.booleans()) or not b else f"{a}{b}"
        if draw(st.booleans()):
            body += draw(st.sampled_from(["e", "E"])) + draw(_sign) + str(draw(st.integers(0, 450)))
    elif kind <= 29:  # p/q
        p, q = (draw(st.text("0123456789", min_size=1, max_size=22)) for _ in range(2))
        body = f"{p}/{q}"
    elif kind == 39:  # what Fraction takes beyond the strict tokenizer, or nearly
        body = draw(st.sampled_from(["1_000", "\u0663", "1 / 2", "1e1_0", "1.", ".5", "5e", "0x10", "1.d",
                                     "1" * 350, "2e-100001", "1e99999", "1/2/3", "--1", "inf", "nan", "", "1,5"]))
    elif kind <= 38:  # few distinct values, as real data
        return draw(st.sampled_from(["0", "1", "1/2", "0.25", "-3/250", "0.004", '"-7"', '" 2/3 "']))
    else:
        body = draw(st.text(max_size=6))
    return draw(_space) + sign + body + draw(_space)


_labels = st.sampled_from(["1", "-1", "+1", "cat", "0.5", "1/2", "2e0", '"-1"', '"a,b"'] * 4 + ["", " "])


@st.composite
def csv_texts(draw):
    d = draw(st.integers(1, 4))
    n = draw(st.integers(1, 6))
    eol = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    out = []
    if draw(st.booleans()):
        out.append(",".join(f"x{j}" for j in range(d)) + ",y")
    for _ in range(n):
        width = d if draw(st.integers(0, 40)) else draw(st.integers(0, d + 1))  # sometimes ragged
        row = ",".join([*(draw(cells()) for _ in range(width)), draw(_labels)])
        out.append(row + draw(st.sampled_from(["", "", "", "", "", "", " # comment", "\n", "\n# c\n", "\n  \n"])))
    return eol.join(out) + draw(st.sampled_from(["", eol]))


def _outcome(parse, text):
    try:
        ds = parse(text, source="t.csv")
    except CSVError as e:
        return ("error", type(e), str(e), e.line, getattr(e, "column", None))
    rows = tuple(tuple(r) for r in ds.X)
    return ("ok", rows, [(type(v), v) for v in ds.y], ds.feature_names, ds.label_name, ds.source, ds.lines)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(csv_texts())
def test_fast_parse_equals_the_per_cell_reference(text):
    fast, ref = _outcome(parse_csv, text), _outcome(parse_csv_reference, text)
    assert fast == ref
    if fast[0] == "ok":
        assert parse_csv(text) == parse_csv_reference(text)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(st.lists(st.fractions(), min_size=2, max_size=2), min_size=1, max_size=5), st.data())
def test_every_written_form_of_a_rational_reads_back_exactly(rows, data):
    """Each value written as p/q, as an integer or as a decimal with an exponent (when its denominator is
    2^a 5^b): the reference value is the Fraction itself, independent of both parsers."""

    def written(q: Fraction) -> str:
        if q.denominator == 1 and data.draw(st.booleans()):
            return str(q.numerator)
        den, a, b = q.denominator, 0, 0
        while den % 2 == 0:
            den, a = den // 2, a + 1
        while den % 5 == 0:
            den, b = den // 5, b + 1
        if den == 1 and data.draw(st.booleans()):  # q = N / 10^k exactly
            k = max(a, b)
            N = q.numerator * 10**k // q.denominator
            shift = data.draw(st.integers(-3, 3))  # N e-k written as (N 10^shift) e(-k - shift)
            if shift >= 0:
                return f"{N * 10**shift}e{-k - shift}"
            s = str(abs(N)).rjust(-shift + 1, "0")
            return f"{'-' if N < 0 else ''}{s[:shift]}.{s[shift:]}e{-k - shift}"
        return f"{q.numerator}/{q.denominator}"

    text = "".join(",".join([*(written(v) for v in r), "1"]) + "\n" for r in rows)
    ds = parse_csv(text)
    assert tuple(tuple(r) for r in ds.X) == tuple(tuple(r) for r in rows), text


def test_cells_become_integers_over_the_least_common_denominator():
    # by hand: 0.004 = 8/2000, 3/250 = 24/2000, -1.5e-3 = -3/2000, 2 = 4000/2000; lcm(250, 250, 2000, 1) = 2000
    ds = parse_csv("0.004,3/250,1\n-1.5e-3,2,-1\n")
    assert isinstance(ds.X, ExactRows)
    assert ds.X.den == 2000 and ds.X.num.tolist() == [[8, 24], [-3, 4000]]
    assert ds.X[1] == (Fraction(-3, 2000), Fraction(2))
    # 0.50 and 1/2 are the same value; the denominator is the least one (2), not 100
    ds = parse_csv("0.50,1/2,1\n")
    assert ds.X.den == 2 and ds.X.num.tolist() == [[1, 1]]


def test_the_int64_budget_and_the_fall_back_to_fractions():
    # 2^62 - 1 is inside the budget, 2^62 is not: the rows are then Fractions (one per distinct cell text)
    ds = parse_csv(f"{I64_HEADROOM - 1},-1,1\n")
    assert isinstance(ds.X, ExactRows) and ds.X.num.tolist() == [[I64_HEADROOM - 1, -1]]
    ds = parse_csv(f"{I64_HEADROOM},-1,1\n")
    assert not isinstance(ds.X, ExactRows) and ds.X == ((Fraction(2**62), Fraction(-1)),)
    # 1e-100000 beside 1e100000: the common denominator would have 332,193 bits; no such integers are built
    ds = parse_csv("1e-100000,1e100000,1\n0,1,-1\n")
    assert not isinstance(ds.X, ExactRows)
    assert ds.X[0] == (Fraction(1, 10**100000), Fraction(10**100000))
    assert ds == parse_csv_reference("1e-100000,1e100000,1\n0,1,-1\n")
    # a denominator of 2^62 (lcm beyond the budget) with small numerators also falls back
    ds = parse_csv(f"1/{2**62},1/3,1\n")
    assert ds.X == ((Fraction(1, 2**62), Fraction(1, 3)),)


@pytest.mark.parametrize("text, fragment", [
    ("1,2,1\n3,abc,-1\n", "line 2, column 2 in t.csv: 'abc' is not a number"),
    ("1,2,1\n3,1/0,-1\n", "line 2, column 2 in t.csv: '1/0' divides by zero"),
    ("1,2,1\n3,4\n", "line 2 in t.csv: 2 cells, expected 3"),
    ("1,2,1\n3,4, \n", "line 2, column 3 in t.csv: the label is empty"),
    ("1,2,1\n3,1e999999,1\n", "line 2, column 2 in t.csv:"),
])
def test_bad_cells_are_named_as_by_the_reference(text, fragment):
    with pytest.raises(CSVError) as fast:
        parse_csv(text, source="t.csv")
    with pytest.raises(CSVError) as ref:
        parse_csv_reference(text, source="t.csv")
    assert fragment in str(fast.value)
    assert (str(fast.value), fast.value.line) == (str(ref.value), ref.value.line)
