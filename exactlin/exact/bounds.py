"""Exact sign decisions against irrational numbers of the form c + s ln q, by proven interval bounds.

One implementation, used by Fisher's discriminant (its threshold y0^(3) = c + s ln(P1/P2)) and by the
prediction models of :mod:`exactlin.model.models`: python-flint's ``arb`` (every operation returns an
interval proven to contain the exact result) at increasing precision, until the interval excludes 0.
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["sign_c_plus_s_log"]


def sign_c_plus_s_log(c: Fraction, s: Fraction, q: Fraction) -> int:
    """The sign of c + s ln(q) for rationals c, s and q > 0, decided exactly.

    If s = 0 or q = 1 it is the sign of c.  Otherwise ln q is irrational (e^r is transcendental for
    every nonzero rational r, Lindemann), so c + s ln q != 0, and ball arithmetic (python-flint's
    ``arb``: every operation returns an interval proven to contain the exact result) at increasing
    precision eventually returns a ball that excludes 0; its side is the sign.  Without python-flint,
    mpmath's interval arithmetic plays the same role.

    >>> sign_c_plus_s_log(Fraction(7, 10), Fraction(-1), Fraction(2))   # 0.7 - ln 2 > 0
    1
    """
    c, s, q = Fraction(c), Fraction(s), Fraction(q)
    if q <= 0:
        from exactlin.errors import ParameterError

        raise ParameterError(f"ln q needs q > 0, got q = {q}", parameter="q")
    if s == 0 or q == 1:
        return (c > 0) - (c < 0)
    prec = 64
    try:
        import flint
    except ImportError:  # pragma: no cover
        flint = None
    while prec <= 1 << 22:
        if flint is not None:
            old = flint.ctx.prec
            flint.ctx.prec = prec
            try:
                fq = lambda x: flint.arb(flint.fmpq(x.numerator, x.denominator))  # noqa: E731
                v = fq(c) + fq(s) * fq(q).log()
                if v > 0:
                    return 1
                if v < 0:
                    return -1
            finally:
                flint.ctx.prec = old
        else:  # pragma: no cover
            from mpmath import iv

            iv.prec = prec
            f = lambda x: iv.mpf(x.numerator) / x.denominator  # noqa: E731
            v = f(c) + f(s) * iv.log(f(q))
            if v.a > 0:
                return 1
            if v.b < 0:
                return -1
        prec *= 2
    raise ArithmeticError("could not decide the sign of c + s ln q")  # pragma: no cover
