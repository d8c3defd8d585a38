"""The one number-formatting rule (exactlin/exact/format.py), through every renderer.

Expected strings are written by hand from the rule (digits, ``p/q`` in lowest terms, ``-\\frac{p}{q}``); the
5,000-digit numbers are built by arithmetic whose decimal digits are known without printing them
(10**5000 - 1 is 5,000 nines; 10**4400 is a one and 4,400 zeros), since Python's own str() refuses them.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from exactlin.data.dataset import as_dataset
from exactlin.docsgen import site
from exactlin.exact import format as F
from exactlin.exact.numbers import fmt as numbers_fmt
from exactlin.exact.rows import ExactRows, ExactVector
from exactlin.model.run import Run, Step
from exactlin.render import report

P = 10**5000 - 1  # 5,000 nines
Q = 10**4400  # gcd(P, Q) = 1: P is odd and ends in 9, so neither 2 nor 5 divides it
BIG = Fraction(-P, Q)
NINES = "9" * 5000
TEN = "1" + "0" * 4400
BIG_TEXT = f"-{NINES}/{TEN}"
BIG_LATEX = f"-\\frac{{{NINES}}}{{{TEN}}}"


def test_python_refuses_what_the_rule_prints():
    with pytest.raises(ValueError):
        str(P)
    assert F.int_to_str(P) == NINES
    assert F.int_to_str(-Q) == "-" + TEN


@pytest.mark.parametrize("value, text, latex", [
    (0, "0", "0"),
    (-3, "-3", "-3"),
    (Fraction(6, 2), "3", "3"),
    (Fraction(-4, 3), "-4/3", "-\\frac{4}{3}"),
    (Fraction(1, 7), "1/7", "\\frac{1}{7}"),
    (sympy.Integer(-12), "-12", "-12"),
    (sympy.Rational(-4, 6), "-2/3", "-\\frac{2}{3}"),
    (sympy.sqrt(2), "sqrt(2)", "\\sqrt{2}"),
])
def test_scalars(value, text, latex):
    assert F.fmt(value) == text
    with F.display(exact=True):  # --exact: the exact forms alone
        assert F.text(value) == text
        assert F.latex(value) == latex
        assert F.markdown(value) == f"${latex}$"
        assert F.html(value) == text
    if value != sympy.sqrt(2):  # short rationals read the same either way
        assert F.text(value) == text and F.latex(value) == latex and F.html(value) == text
    else:  # an irrational: its exact form and its decimal (sqrt 2 = 1.41421356...)
        assert F.text(value) == "sqrt(2) ≈ 1.4142" and F.latex(value) == "\\sqrt{2} \\approx 1.4142"


def test_nested_values_bools_none():
    v = (1, Fraction(-1, 2), (Fraction(3, 4), True))
    assert F.text(v) == "(1, -1/2, (3/4, yes))"
    assert F.latex(v) == "(1, -\\frac{1}{2}, (\\frac{3}{4}, yes))"
    assert F.text({"w": [1, 2], "ok": False}) == "{w: (1, 2), ok: no}"
    assert F.text(None) == "-" and F.latex(None) == "-"  # a value left undefined reads as a dash
    assert F.html({"a<b": Fraction(1, 2)}) == "{a&lt;b: 1/2}"


def test_exact_vector_and_rows_print_by_the_rule():
    import numpy as np

    rows = ExactRows(np.array([[1, -3], [2, 5]], dtype=np.int64), 2)  # entries over one denominator 2
    assert F.text(rows) == "((1/2, -3/2), (1, 5/2))"
    assert F.latex(rows[0]) == "(\\frac{1}{2}, -\\frac{3}{2})"
    assert isinstance(rows[0], (tuple, ExactVector))


def test_latex_text_escapes():
    assert F.latex_text("a_b & 50% #1 {x} $") == "a\\_b \\& 50\\% \\#1 \\{x\\} \\$"
    assert F.latex_text("\\") == "\\textbackslash{}"
    assert F.latex("cat_1") == "cat\\_1"


@pytest.fixture
def exact_display():
    """``--exact``: every number in full (the default shows a 5,000-digit rational by its decimal)."""
    with F.display(exact=True):
        yield


def test_5000_digit_rational_shown_by_its_decimal_by_default():
    # -(10^5000 - 1)/10^4400 = -(10^600 - 10^-4400): five significant digits round to -1.0000e+600
    assert F.text(BIG) == "≈ -1.0000e+600 (exact: a 5000-digit numerator over a 4401-digit denominator)"
    assert F.fmt(BIG) == BIG_TEXT  # fmt is always exact


def test_5000_digit_rational_every_rule(exact_display):
    assert F.fmt(BIG) == BIG_TEXT
    assert numbers_fmt(BIG) == BIG_TEXT  # the old import path is the same function
    assert F.text((BIG, 1)) == f"({BIG_TEXT}, 1)"
    assert F.latex(BIG) == BIG_LATEX
    assert F.html(BIG) == BIG_TEXT
    assert F.markdown(BIG) == f"${BIG_LATEX}$"
    assert F.fmt(sympy.Integer(P)) == NINES
    assert F.latex(sympy.Rational(-P, Q)) == BIG_LATEX
    assert F.fmt(P * P).startswith("9" * 4999 + "8") and len(F.fmt(P * P)) == 10000  # (10^n-1)^2 = 9..980..01


def _big_run() -> Run:
    ds = as_dataset([(BIG, 1), (1, 0)], [1, -1])
    from types import SimpleNamespace

    step = Step(k=1, epoch=1, i=0, score=BIG, update=True, w_before=(0, 0), w_after=(BIG, 1))
    return Run(algorithm="perceptron", w=(BIG, 1), bias="none", converged=True, reason="converged", updates=1,
               epochs=1, steps=1, params={"eta": BIG}, trace=[step], extras={"b": BIG},
               problem=SimpleNamespace(data=ds, Y=ds.X))


def test_5000_digit_rational_every_renderer(exact_display):
    run = _big_run()
    assert report.fmt_value(BIG) == BIG_TEXT and report.latex_value(BIG) == BIG_LATEX
    text = report.run_text(run)
    assert f"w = ({BIG_TEXT}, 1)" in text and f"b: {BIG_TEXT}" in text and f"eta={BIG_TEXT}" in text
    latex = report.trace_latex(run)
    assert f"${BIG_LATEX}$" in latex and f"$({BIG_LATEX}, 1)$" in latex
    assert run._repr_latex_() == latex
    html = report.run_html(run)
    assert f"<td>{BIG_TEXT}</td>" in html and f"<td>({BIG_TEXT}, 1)</td>" in html
    assert run._repr_html_() == html
    md = site.run_summary(run)
    assert f"$w = ({BIG_LATEX}, 1)$" in md and f"* `b`: ${BIG_LATEX}$" in md
    assert site.value_md(BIG) == f"${BIG_LATEX}$"


def test_5000_digit_rational_dataset_reprs(exact_display):
    ds = as_dataset([(BIG, 1), (Fraction(1, 2), 0)], ["cat_a", "dog"])
    latex = ds._repr_latex_()
    assert f"${BIG_LATEX}$ & $1$ & cat\\_a" in latex
    assert "$\\frac{1}{2}$ & $0$ & dog" in latex
    html = ds._repr_html_()
    assert f"<td>{BIG_TEXT}</td><td>1</td><td>cat_a</td>" in html


def test_site_and_report_share_the_summary_extras():
    run = Run(algorithm="x", w=(1,), bias="none", converged=True, reason="converged",
              extras={"y0": Fraction(1, 3), "final_w": (1, 2), "margin": None})
    assert report.summary_extras(run) == [("y0", Fraction(1, 3)), ("final_w", (1, 2))]
    text = report.run_text(run)
    assert "y0: 1/3" in text and "final_w: (1, 2)" in text and "margin" not in text
    md = site.run_summary(run)
    assert "* `y0`: $\\frac{1}{3}$" in md and "* `final_w`: $(1, 2)$" in md and "margin" not in md


def test_an_integer_valued_fraction_is_an_integer_to_every_rule():
    """Issue 20: a Fraction with denominator 1 and more than 20 digits crashed ndigits (reached from _readable);
    it prints as the integer it is (its decimal and size by the display rule, its digits exactly in --exact)."""
    from exactlin.exact.format import display, exact_text, html, latex, markdown, ndigits, text

    q = Fraction(10**23)
    assert ndigits(q) == 24 and ndigits(Fraction(-10**23)) == 24
    with pytest.raises(TypeError):
        ndigits(Fraction(1, 3))
    assert text(q) == "≈ 1e+23 (exact: a 24-digit integer)"  # 10^23 is exactly 1e+23: no trailing zeros
    assert text((q, 2)) == "(≈1e+23 (24 digits), 2)"
    assert "24 digits" in latex((q, 2)) and "24 digits" in html((q, 2)) and "24 digits" in markdown((q, 2))
    assert exact_text((q, Fraction(1, 3))) == "(100000000000000000000000, 1/3)"
    with display(exact=True):
        assert text(q) == "100000000000000000000000"


def test_latex_text_escapes_every_special_character():
    from exactlin.exact.format import latex_text

    assert latex_text("||w_t+1||^2 ~ 50% & $#{}\\") == \
        "||w\\_t+1||\\textasciicircum{}2 \\textasciitilde{} 50\\% \\& \\$\\#\\{\\}\\textbackslash{}"
