"""Layer 1: the one number-formatting rule, for every renderer.

A rational prints exactly, at any length (Python's ``str(int)`` refuses integers beyond 4,300 digits; every
function here goes through :func:`int_to_str`, which does not):

* plain text (:func:`fmt` for one number, :func:`text` for nested values): ``3``, ``-4/3``, ``(1, -1/2)``;
* LaTeX (:func:`latex`): an integer's digits, a fraction as LaTeX's fraction command with the sign in front;
* HTML (:func:`html`): the plain text, escaped;
* markdown (:func:`markdown`): the LaTeX form as inline math (between dollar signs).

The rule for every renderer: an integer (``int``, a Fraction with denominator 1, a sympy Integer) prints its
digits; a rational prints ``numerator/denominator`` in lowest terms with the sign in front; ``True``/``False``
print ``yes``/``no``; ``None`` (a value the notes leave undefined) prints ``-``;
tuples, lists and the exact row types print as ``(a, b, ...)``;
dicts as ``{key: value, ...}``; other sympy numbers print as sympy prints them; anything else by ``str``.

Exact and approximate, side by side (every surface a person reads: :func:`text`, :func:`latex`, :func:`html`,
:func:`markdown`, so the CLI, the notebook reprs, the docs site and the plots' labels): a rational whose
numerator or denominator has more than ``DISPLAY["max_digits"]`` digits prints as its correctly rounded decimal
and its size, ``≈ 1.2346e+37 (exact: a 412-digit numerator over a 375-digit denominator)``; an irrational
(sympy) number prints its exact form followed by ``≈ 0.70711``, a decimal whose correct rounding is proven with
interval arithmetic (python-flint arb balls; no float is ever involved).  :func:`display` (the CLI's global
``--digits N`` and ``--exact``) sets the number of significant digits, or turns approximations off; :func:`fmt`
is always exact, and JSON never goes through this module's approximations.

This module imports nothing from exactlin above :mod:`exactlin.errors`, so every layer (the rows, the data, the
records, the renderers and the documentation site) can use it.

>>> from fractions import Fraction
>>> fmt(Fraction(-4, 3)), text((1, Fraction(-1, 2))), html({"w": (1, 2)})
('-4/3', '(1, -1/2)', '{w: (1, 2)}')
"""

from __future__ import annotations

import html as _html
import math
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

__all__ = ["int_to_str", "fmt", "text", "exact_text", "latex", "latex_text", "html", "markdown", "decimal_str",
           "approx", "size_text", "display", "DISPLAY", "ndigits", "quote"]

#: how numbers are shown to a person: ``digits`` significant digits in an approximation; a rational whose
#: numerator or denominator has more than ``max_digits`` digits is shown approximately (with its size);
#: ``exact``: no approximations at all (every number exactly, irrationals without their decimal)
DISPLAY: dict[str, Any] = {"digits": 5, "max_digits": 20, "exact": False}


@contextmanager
def display(*, digits: int | None = None, exact: bool | None = None, max_digits: int | None = None
            ) -> Iterator[dict]:
    """Set :data:`DISPLAY` for the ``with`` block (the CLI wraps each command in it); restored afterwards."""
    from exactlin.errors import ParameterError

    for name, v in (("digits", digits), ("max_digits", max_digits)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 1):
            raise ParameterError(f"{name} must be a positive integer, got {v}", parameter=name)
    saved = dict(DISPLAY)
    if digits is not None:
        DISPLAY["digits"] = digits
    if max_digits is not None:
        DISPLAY["max_digits"] = max_digits
    if exact is not None:
        DISPLAY["exact"] = bool(exact)
    try:
        yield DISPLAY
    finally:
        DISPLAY.clear()
        DISPLAY.update(saved)


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
    """q as an exact rational number (int, Fraction, sympy Rational), else None: an ``int`` when its value is
    an integer (a Fraction with denominator 1 too), so every rule below sees one kind of integer; a Fraction
    otherwise."""
    if isinstance(q, bool):
        return None
    if isinstance(q, int):
        return int(q)
    if isinstance(q, Fraction):
        return q.numerator if q.denominator == 1 else q
    if type(q).__module__.startswith("sympy"):
        p, d = getattr(q, "p", None), getattr(q, "q", None)
        if getattr(q, "is_Rational", False) and p is not None and d is not None:
            return Fraction(int(p), int(d)) if int(d) != 1 else int(p)
    return None


def ndigits(n: int | Fraction) -> int:
    """The number of decimal digits of abs(n) (1 for 0), without printing it; ``n`` an integer (an ``int``, or
    a Fraction whose denominator is 1)."""
    if isinstance(n, Fraction):
        if n.denominator != 1:
            raise TypeError(f"ndigits: {n} is not an integer (count its numerator's and denominator's digits)")
        n = n.numerator
    n = abs(n)
    if n < 10:
        return 1
    e = max(1, int((n.bit_length() - 1) * 0.30102999566398120))  # 10^(e-1) <= n, off by at most one or two
    while 10**e <= n:
        e += 1
    while e > 1 and 10 ** (e - 1) > n:
        e -= 1
    return e


# ---------------------------------------------------------------------------
# correctly rounded decimals (exact integer arithmetic)


def _round_half_even(n: int, d: int) -> int:
    """n / d (d > 0) rounded to the nearest integer, ties to even, exactly."""
    q, r = divmod(n, d)
    if 2 * r > d or (2 * r == d and q % 2 == 1):
        q += 1
    return q


def _exponent(q: Fraction) -> int:
    """e with 10^e <= q < 10^(e+1), for q > 0 (exact comparisons; a bit-length estimate to start)."""
    n, d = q.numerator, q.denominator
    e = math.floor((n.bit_length() - d.bit_length()) * 0.30102999566398120)
    while True:  # the estimate is off by at most 1 or 2
        if e >= 0:
            lo_ok, hi_ok = n >= d * 10**e, n < d * 10 ** (e + 1)
        else:
            lo_ok, hi_ok = n * 10**-e >= d, n * 10**-e < d * 10
        if not lo_ok:
            e -= 1
        elif not hi_ok:
            e += 1
        else:
            return e


def as_fraction(v: Any, what: str) -> Fraction:
    """A real number as the exact rational it is (a float is its binary value, not its decimal repr)."""
    from exactlin.errors import ParameterError

    if isinstance(v, Fraction):
        return v
    if isinstance(v, bool):
        raise ParameterError(f"{what}: bool {v!r} is not a number", parameter=what)
    if isinstance(v, int):
        return Fraction(v)
    try:
        import numpy as np

        if isinstance(v, np.integer):
            return Fraction(int(v))
        if isinstance(v, np.floating):
            v = float(v)
    except ImportError:  # pragma: no cover - numpy is a dependency
        pass
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ParameterError(f"{what}: {v!r} is not a finite number", parameter=what)
        return Fraction(v)
    if hasattr(v, "is_Rational") and v.is_Rational:  # an exact sympy rational
        return Fraction(int(v.p), int(v.q))
    raise ParameterError(f"{what}: {v!r} ({type(v).__name__}) is not a rational number; an irrational exact value "
                         "(e.g. Fisher's threshold y0^(3) with ln(P1/P2)) cannot be compared here", parameter=what)


def decimal_str(q: Any, digits: int = 17) -> str:
    """``q`` as a decimal correctly rounded to ``digits`` significant digits (round half to even), by exact
    integer arithmetic.  Trailing zeros are dropped when the decimal is exactly q; positional notation for
    exponents in [-6, 20], scientific (``1.2345e-30``) beyond.  A float argument is read as the exact binary
    rational it is.

    >>> decimal_str(Fraction(1, 3), 5), decimal_str(Fraction(2, 3), 5), decimal_str(Fraction(-9)), decimal_str(0)
    ('0.33333', '0.66667', '-9', '0')
    >>> decimal_str(Fraction(1, 8), 2), decimal_str(Fraction(3, 8), 2), decimal_str(Fraction(10**40, 3), 3)
    ('0.12', '0.38', '3.33e+39')
    """
    from exactlin.errors import ParameterError

    if isinstance(digits, bool) or not isinstance(digits, int) or digits < 1:
        raise ParameterError(f"digits must be a positive integer, got {digits!r}", parameter="digits")
    q = as_fraction(q, "q")
    if q == 0:
        return "0"
    sign = "-" if q < 0 else ""
    q = abs(q)
    e = _exponent(q)
    shift = digits - 1 - e  # m = round(q * 10^shift) has `digits` digits
    n, d = q.numerator, q.denominator
    if shift >= 0:
        m = _round_half_even(n * 10**shift, d)
        exact = (n * 10**shift) % d == 0
    else:
        m = _round_half_even(n, d * 10**-shift)
        exact = n % (d * 10**-shift) == 0
    if m == 10**digits:  # rounded up to the next power of ten
        m //= 10
        e += 1
    s = int_to_str(m)
    if exact:
        s = s.rstrip("0") or "0"
    if -6 <= e <= 20:
        if e >= 0:
            intpart, frac = s[: e + 1].ljust(e + 1, "0"), s[e + 1:]
        else:
            intpart, frac = "0", "0" * (-e - 1) + s
        return sign + intpart + ("." + frac if frac else "")
    mant = s[0] + ("." + s[1:] if len(s) > 1 else "")
    return f"{sign}{mant}e{'+' if e >= 0 else '-'}{abs(e):02d}"


# ---------------------------------------------------------------------------
# irrational numbers: a decimal whose rounding is proven with arb balls


def _arb(e: Any):
    """A python-flint arb ball containing the sympy number e (at the current arb precision); ValueError for
    anything outside the supported functions."""
    import flint
    import sympy

    if e.is_Rational:
        return flint.arb(flint.fmpq(int(e.p), int(e.q)))
    if e is sympy.pi:
        return flint.arb.pi()
    if e is sympy.E:
        return flint.arb(1).exp()
    if e.is_Add:
        total = flint.arb(0)
        for a in e.args:
            total += _arb(a)
        return total
    if e.is_Mul:
        prod = flint.arb(1)
        for a in e.args:
            prod *= _arb(a)
        return prod
    if e.is_Pow:
        base, ex = e.args
        if ex.is_Integer:
            b = _arb(base)
            return b ** int(ex) if int(ex) >= 0 else 1 / (b ** (-int(ex)))
        if ex == sympy.Rational(1, 2):
            return _arb(base).sqrt()
        if ex == sympy.Rational(-1, 2):
            return 1 / _arb(base).sqrt()
        return _arb(base) ** _arb(ex)
    funcs = {sympy.log: "log", sympy.exp: "exp", sympy.sin: "sin", sympy.cos: "cos", sympy.atan: "atan"}
    if e.func in funcs and len(e.args) == 1:
        return getattr(_arb(e.args[0]), funcs[e.func])()
    raise ValueError(f"no interval evaluation for {e.func}")


def _arf_fraction(a) -> Fraction:
    m, x = a.mid().man_exp()
    m, x = int(m), int(x)
    return Fraction(m * 2**x) if x >= 0 else Fraction(m, 2**-x)


def _irrational_decimal(v: Any, digits: int) -> str | None:
    """The decimal of a real sympy number correctly rounded to ``digits`` significant digits, proven: the arb
    ball's two ends round to the same decimal; None when that cannot be shown (a complex value, an unsupported
    function, a value too close to a rounding boundary or to 0)."""
    try:
        import flint
    except ImportError:  # pragma: no cover - python-flint is a dependency
        return None
    saved = flint.ctx.prec
    try:
        for prec in (64 + 4 * digits, 256 + 8 * digits, 2048):
            flint.ctx.prec = prec
            try:
                ball = _arb(v)
            except (ValueError, TypeError, ZeroDivisionError, AttributeError):
                return None
            if not ball.is_finite():
                return None
            mid, rad = _arf_fraction(ball.mid()), _arf_fraction(ball.rad())
            lo, hi = mid - rad, mid + rad
            if lo <= 0 <= hi:
                continue
            a, b = decimal_str(lo, digits), decimal_str(hi, digits)
            if a == b:
                return a
        return None
    finally:
        flint.ctx.prec = saved


# ---------------------------------------------------------------------------
# the display rule


def size_text(q: Any) -> str:
    """The size of an exact rational in words: ``a 412-digit integer``, ``a 412-digit numerator over a 375-digit
    denominator``."""
    r = as_fraction(q, "q")
    if r.denominator == 1:
        return f"a {ndigits(r.numerator)}-digit integer"
    return f"a {ndigits(r.numerator)}-digit numerator over a {ndigits(r.denominator)}-digit denominator"


def _long(r: Fraction | int) -> bool:
    m = DISPLAY["max_digits"]
    if isinstance(r, int):
        return r.bit_length() > 3.33 * m and ndigits(r) > m
    return (max(r.numerator.bit_length(), r.denominator.bit_length()) > 3.33 * m
            and max(ndigits(r.numerator), ndigits(r.denominator)) > m)


def approx(v: Any, digits: int | None = None) -> str | None:
    """The correctly rounded decimal a person reads next to an exact number: a rational's by exact integer
    arithmetic, an irrational sympy number's proven with arb balls; None for anything else (or an irrational
    whose rounding cannot be proven)."""
    digits = DISPLAY["digits"] if digits is None else digits
    r = _rational(v)
    if r is not None:
        return decimal_str(r, digits)
    if type(v).__module__.startswith("sympy") and getattr(v, "is_number", False) and not getattr(v, "free_symbols",
                                                                                                  None):
        return _irrational_decimal(v, digits)
    return None


#: an irrational's exact form is shown in full up to this many characters (``--exact`` shows it always)
MAX_EXPR_CHARS = 60


def _readable(v: Any, r: Fraction | int | None, *, nested: bool) -> tuple[str, str] | None:
    """(decimal, size note) when v is shown approximately under :data:`DISPLAY`, else None."""
    if DISPLAY["exact"]:
        return None
    if r is not None:
        if not _long(r):
            return None
        d = decimal_str(r, DISPLAY["digits"])
        if nested:
            size = (f"{ndigits(r)} digits" if isinstance(r, int) else
                    f"{ndigits(r.numerator)}/{ndigits(r.denominator)} digits")
            return d, size
        return d, "exact: " + size_text(r)
    return None


def _irrational(v: Any) -> bool:
    return (type(v).__module__.startswith("sympy") and getattr(v, "is_number", False)
            and not getattr(v, "is_Rational", False) and not DISPLAY["exact"])


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


def quote(v: Any) -> str:
    """A value inside an error message: a string quoted (``'cat'``), a number exactly as a person writes it
    (``3/2``, never ``Fraction(3, 2)``), anything else by its repr."""
    if isinstance(v, str):
        return repr(v)
    if isinstance(v, bool) or v is None:
        return repr(v)
    if _rational(v) is not None:
        return fmt(v)
    if type(v).__module__.startswith("sympy"):
        return str(v)
    return repr(v)


def _is_seq(v: Any) -> bool:
    return isinstance(v, Sequence) and not isinstance(v, (str, bytes))


def text(v: Any, *, _nested: bool = False) -> str:
    """Plain text of a value: numbers by :func:`fmt` (long rationals and irrationals with their decimal, by
    :data:`DISPLAY`), sequences ``(a, b)``, dicts ``{k: v}``, bools yes/no, None ``-``."""
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if _is_seq(v):
        return "(" + ", ".join(text(x, _nested=True) for x in v) + ")"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{k}: {text(x, _nested=True)}" for k, x in v.items()) + "}"
    r = _rational(v)
    shown = _readable(v, r, nested=_nested)
    if shown is not None:
        return f"≈{shown[0]} ({shown[1]})" if _nested else f"≈ {shown[0]} ({shown[1]})"
    if r is None and _irrational(v):
        exact = str(v)
        d = approx(v)
        if d is None:
            return exact
        if len(exact) > MAX_EXPR_CHARS:
            return f"≈ {d} (exact: a {len(exact)}-character expression; --exact prints it)"
        return f"{exact} ≈ {d}"
    return fmt(v)


def exact_text(v: Any) -> str:
    """The plain text of :func:`text` with every number exact, whatever :data:`DISPLAY` says: what the
    machine-readable formats (CSV) write, so that they read back to the same exact values."""
    with display(exact=True):
        return text(v)


def _latex_decimal(d: str) -> str:
    if "e" in d:
        mant, ex = d.split("e")
        return f"{mant} \\times 10^{{{int(ex)}}}"
    return d


def latex(v: Any, *, _nested: bool = False) -> str:
    """LaTeX of a value (math mode): a fraction by LaTeX's fraction command; sequences ``(a, b)``; other sympy
    values as sympy writes them (followed by their decimal); long rationals by their decimal (:data:`DISPLAY`)."""
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    r = _rational(v)
    shown = _readable(v, r, nested=_nested)
    if shown is not None:
        return f"\\approx {_latex_decimal(shown[0])}\\ \\text{{({shown[1]})}}"
    if isinstance(r, Fraction) and r.denominator != 1:
        sign = "-" if r < 0 else ""
        return f"{sign}\\frac{{{int_to_str(abs(r.numerator))}}}{{{int_to_str(r.denominator)}}}"
    if r is not None:
        return fmt(r)
    if _is_seq(v):
        return "(" + ", ".join(latex(x, _nested=True) for x in v) + ")"
    if isinstance(v, Mapping):
        return "\\{" + ", ".join(f"{latex_text(k)}: {latex(x, _nested=True)}" for k, x in v.items()) + "\\}"
    if type(v).__module__.startswith("sympy"):
        import sympy

        exact = sympy.latex(v)
        d = approx(v) if _irrational(v) else None
        if d is None:
            return exact
        if len(str(v)) > MAX_EXPR_CHARS:
            return f"\\approx {_latex_decimal(d)}\\ \\text{{(exact: a {len(str(v))}-character expression)}}"
        return f"{exact} \\approx {_latex_decimal(d)}"
    return latex_text(v)


def latex_text(v: Any) -> str:
    """A label or name inside LaTeX: its ``str`` with the characters LaTeX treats specially escaped."""
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in str(v))


_LATEX_SPECIAL = {"\\": "\\textbackslash{}", "~": "\\textasciitilde{}", "^": "\\textasciicircum{}",
                  "\u2248": "\\ensuremath{\\approx}",
                  **{ch: "\\" + ch for ch in "_&%#${}"}}


def html(v: Any) -> str:
    """HTML of a value: the plain text of :func:`text`, escaped."""
    return _html.escape(text(v))


def markdown(v: Any) -> str:
    """Markdown of a value: its LaTeX as inline math, between dollar signs (the docs site renders it as MathML)."""
    return f"${latex(v)}$"
