"""Layer 1: the one number-formatting rule, for every renderer.

A rational prints exactly, at any length (Python's ``str(int)`` refuses integers beyond 4,300 digits; every
function here goes through :func:`int_to_str`, which does not):

* plain text (:func:`fmt` for one number, :func:`text` for nested values): ``3``, ``-4/3``, ``(1, -1/2)``;
* LaTeX (:func:`latex`): an integer's digits, a fraction as LaTeX's fraction command with the sign in front;
* HTML (:func:`html`): the plain text, escaped;
* markdown (:func:`markdown`): the LaTeX form as inline math (between dollar signs).

The rule for every renderer: an integer (``int``, a Fraction with denominator 1, a sympy Integer) prints its
digits; a rational prints ``numerator/denominator`` in lowest terms with the sign in front; ``True``/``False``
print ``yes``/``no``; ``None`` prints nothing; tuples, lists and the exact row types print as ``(a, b, ...)``;
dicts as ``{key: value, ...}``; other sympy numbers print as sympy prints them; anything else by ``str``.

This module imports nothing from exactlin, so every layer (the rows, the data, the records, the renderers and
the documentation site) can use it.

>>> from fractions import Fraction
>>> fmt(Fraction(-4, 3)), text((1, Fraction(-1, 2))), html({"w": (1, 2)})
('-4/3', '(1, -1/2)', '{w: (1, 2)}')
"""

from __future__ import annotations

import html as _html
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

__all__ = ["int_to_str", "fmt", "text", "latex", "latex_text", "html", "markdown"]


def int_to_str(n: int) -> str:
    """str(n) without Python's 4300-digit limit (divide and conquer)."""
    if n < 0:
        return "-" + int_to_str(-n)
    if n.bit_length() <= 13000:
        return str(n)
    k = int(n.bit_length() * 0.30103) // 2
    hi, lo = divmod(n, 10**k)
    return int_to_str(hi) + int_to_str(lo).rjust(k, "0")


def _rational(q: Any) -> Fraction | int | None:
    """q as an int or Fraction when it is an exact rational number (int, Fraction, sympy Rational), else None."""
    if isinstance(q, bool):
        return None
    if isinstance(q, (int, Fraction)):
        return q
    if type(q).__module__.startswith("sympy"):
        p, d = getattr(q, "p", None), getattr(q, "q", None)
        if getattr(q, "is_Rational", False) and p is not None and d is not None:
            return Fraction(int(p), int(d)) if int(d) != 1 else int(p)
    return None


def fmt(q: Any) -> str:
    """Exact string of one number: ``"3"``, ``"-4/3"``.  Other sympy numbers print as sympy does."""
    r = _rational(q)
    if isinstance(r, Fraction):
        if r.denominator == 1:
            return int_to_str(r.numerator)
        return f"{int_to_str(r.numerator)}/{int_to_str(r.denominator)}"
    if r is not None:
        return int_to_str(r)
    return str(q)


def _is_seq(v: Any) -> bool:
    return isinstance(v, Sequence) and not isinstance(v, (str, bytes))


def text(v: Any) -> str:
    """Plain text of a value: numbers by :func:`fmt`, sequences ``(a, b)``, dicts ``{k: v}``, bools yes/no."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if _is_seq(v):
        return "(" + ", ".join(text(x) for x in v) + ")"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{k}: {text(x)}" for k, x in v.items()) + "}"
    return fmt(v)


def latex(v: Any) -> str:
    """LaTeX of a value (math mode): a fraction by LaTeX's fraction command; sequences ``(a, b)``; other sympy
    values as sympy writes them."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    r = _rational(v)
    if isinstance(r, Fraction) and r.denominator != 1:
        sign = "-" if r < 0 else ""
        return f"{sign}\\frac{{{int_to_str(abs(r.numerator))}}}{{{int_to_str(r.denominator)}}}"
    if r is not None:
        return fmt(r)
    if _is_seq(v):
        return "(" + ", ".join(latex(x) for x in v) + ")"
    if isinstance(v, Mapping):
        return "\\{" + ", ".join(f"{latex_text(k)}: {latex(x)}" for k, x in v.items()) + "\\}"
    if type(v).__module__.startswith("sympy"):
        import sympy

        return sympy.latex(v)
    return latex_text(v)


def latex_text(v: Any) -> str:
    """A label or name inside LaTeX: its ``str`` with the characters LaTeX treats specially escaped."""
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in str(v))


_LATEX_SPECIAL = {"\\": "\\textbackslash{}", **{ch: "\\" + ch for ch in "_&%#${}"}}


def html(v: Any) -> str:
    """HTML of a value: the plain text of :func:`text`, escaped."""
    return _html.escape(text(v))


def markdown(v: Any) -> str:
    """Markdown of a value: its LaTeX as inline math, between dollar signs (the docs site renders it as MathML)."""
    return f"${latex(v)}$"
