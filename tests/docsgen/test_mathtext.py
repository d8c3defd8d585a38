"""The prose check and the ASCII-formula typesetter of the docs (exactlin.docsgen.mathtext).

Expected LaTeX is written by hand from the ASCII each example restates (seed 000's rule, seed 003's relaxation
identity and pseudoinverse limit)."""

from __future__ import annotations

import pytest

from exactlin.docsgen.mathtext import ascii_md, ascii_tex, nav_title, plain_math, prose


@pytest.mark.parametrize("text", [
    "the update is w <- w + eta x", "a score <= 0", "b >= 1", "J = sum_{y in Y} y", "a^t y", "x~_i has a bias",
    "the weight w_t of round t", "y_i &lt;= 0 (escaped as HTML)", r"a\_i <= 0 (with a Markdown escape)",
])
def test_plain_mathematics_in_prose_is_found(text):
    assert plain_math(f"Some words. {text}. More words.")


@pytest.mark.parametrize("text", [
    "`w <- w + eta x` in code", "```text\na <= b\nsum_{i} a^t\n```", "<code>x~</code> in HTML code",
    r"$a^t y \le b$ in math", r"$$\sum_{i} w_t$$", '<a href="x.html#t-w_t" title="w_t">a link</a>',
    "the theta and the total",
    "a step of 1/2; an opposite sign", "<!-- exactlin:run fit perceptron a.csv -->",
])
def test_code_math_and_markup_are_not_prose(text):
    assert plain_math(text) == [], prose(text)


def test_seed000s_rule_is_typeset():
    # seed 000, The Perceptron Algorithm: if y_t <w_t, x_t> <= 0 then w_{t+1} = w_t + y_t x_t
    md = ascii_md("a mistake iff y_t <w_t, x_t> <= 0, then w_{t+1} = w_t + eta y_t x_t")
    assert md == (r"a mistake iff $y_t \langle w_t, x_t \rangle \le 0$, then $w_{t+1} = w_t + \eta y_t x_t$")
    assert plain_math(md) == []


def test_relaxation_identity_and_pseudoinverse_limit():
    # seed 003: a^t(k+1) y^k - b = (1 - eta)(a^t(k) y^k - b);  Y^+ = lim_{eps -> 0} (Y^tY + eps I)^{-1} Y^t
    assert ascii_md("Under-relaxation: a^t(k+1) y - b = (1 - eta)(a^t(k) y - b), and eta >= 2") == (
        r"Under-relaxation: $a^t(k+1) y - b = (1 - \eta )(a^t(k) y - b)$, and $\eta \ge 2$")
    assert ascii_tex("Y^+ = lim_(eps -> 0) (Y^tY + eps I)^(-1) Y^t") == (
        r"Y^+ = \lim _{\varepsilon \to 0} (Y^tY + \varepsilon I)^{-1} Y^t")


def test_words_stay_words_and_articles_stay_out_of_formulas():
    assert ascii_md("a proof of non-separability") == "a proof of non-separability"
    assert ascii_md("the margin test is <= b") == r"the margin test is $\le b$"
    assert ascii_md("with a margin b > 0") == r"with a margin $b > 0$"


def test_untranslatable_formula_becomes_code_not_text():
    md = ascii_md("oops x_{ <= 1")
    assert "<code>" in md and plain_math(md) == []


def test_html_cells_are_escaped():
    assert ascii_md("x < y & z", html_cell=True).count("&amp;") == 1


def test_nav_titles_use_unicode_symbols():
    assert nav_title("rank(S_B) <= 1, eta >= 2, Y^t, x~") == "rank(S_B) ≤ 1, η ≥ 2, Yᵗ, x̃"


def test_names_from_the_code_are_code_not_subscripts():
    # 'not_separable' is a verdict's name, not "not" with the subscript "separable"; w_pocket and gamma_min are symbols
    assert ascii_md("verdict 'not_separable' after max_updates") == (
        "verdict '<code>not_separable</code>' after <code>max_updates</code>")
    assert ascii_md("w_pocket <- w and gamma_min > 0") == (
        r"$w_{\mathrm{pocket}} \leftarrow w$ and $\gamma _{\min} > 0$")
