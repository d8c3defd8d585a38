"""Fisher's linear discriminant of seed 003 (003_ffe0ec08819b37d8.txt, "Fisher Linear Discriminant
Analysis (FLDA)"), exactly.

m_i = (1/n_i) sum_{x in D_i} x;  S_i = sum_{x in D_i} (x - m_i)(x - m_i)^t;  S_W = S_1 + S_2;
S_B = (m_1 - m_2)(m_1 - m_2)^t;  w = S_W^{-1} (m_1 - m_2);  J(w) = w^t S_B w / w^t S_W w;
and the thresholds on y = w^t x (decide omega_1 iff y > y0):

* y0^(1) = (m~_1 + m~_2) / 2,
* y0^(2) = (n_1 m~_1 + n_2 m~_2) / (n_1 + n_2) = m~,
* y0^(3) = (m~_1 + m~_2) / 2 - ln(P(omega_1)/P(omega_2)) / (n_1 + n_2 - 2)

with m~_i = w^t m_i.  The notes print y0^(3) with "+ ln(...)": the Bayes rule for two Gaussians with
the pooled covariance S_W/(n_1+n_2-2) gives "-" (a larger prior for omega_1 must move the threshold
*down*, towards m~_2); erratum ``fisher-y0-3-sign`` shows a point the printed rule misclassifies.
y0^(3) is irrational unless the priors are equal: it is kept as an exact sympy expression, and every
classification against it is decided exactly by ball arithmetic with a proven error bound
(python-flint's ``arb``), refined until the sign is certain (it always is: ln q is irrational for a
rational q != 1, so y never equals y0^(3)).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..errors import InputError, LabelError, ParameterError, ShapeError, SingularMatrixError, VerificationError
from ..linalg import gram, integer_matrix, pinv, solve, verify_penrose
from ..numbers import dots, fmt, to_vector
from ..params import Param, check_params
from ..runs import Run
from . import register
from ._loop import DEFAULT_MAX_EPOCHS

SEED = "003_ffe0ec08819b37d8.txt"

PARAMS = (
    Param("priors", "vector", None, "P(omega_1), P(omega_2) > 0 for y0^(3) (default equal priors: ln 1 = 0); "
          "CLI: priors=9/10,1/10"),
    Param("threshold", "choice", "auto", "which y0 classifies: 1, 2 or 3 (auto: 3 when priors are given, "
          "else 1)", choices=("auto", "1", "2", "3")),
    Param("singular", "choice", "error", "a singular S_W: 'error' (SingularMatrixError) or 'pinv' "
          "(w = S_W^+ (m_1 - m_2), said in the result)", choices=("error", "pinv")),
)


# ---------------------------------------------------------------------------
# exact statistics


def class_statistics(Xc: Any) -> tuple[int, tuple[Fraction, ...], tuple[tuple[Fraction, ...], ...]]:
    """(n_i, m_i, S_i) of one class, exactly.

    Fast and exact: the rows are scaled to integers (X = A / D) and
    S_i = sum (x - m)(x - m)^t = (A^tA - s s^t / n) / D^2 with s = sum of the rows of A; A^tA is
    computed by :func:`exactlin.linalg.gram` (float64 or int64 only where a bound check proves the
    result exact) and the column sums in Python integers (or int64 when n max|A| < 2**63).
    """
    A, D = integer_matrix(Xc, "X")
    n = len(A)
    if n == 0:
        raise ShapeError("a class has no samples")
    G = gram(A)
    Gl = [[int(v) for v in row] for row in (G.tolist() if hasattr(G, "tolist") else G)]
    try:
        import numpy as np

        if isinstance(A, np.ndarray) and n * max(abs(int(A.max())), abs(int(A.min()))) < (1 << 63):
            s = [int(v) for v in A.sum(axis=0).tolist()]
        else:
            raise TypeError
    except (ImportError, TypeError):
        rows = A.tolist() if hasattr(A, "tolist") else A
        s = [sum(int(r[j]) for r in rows) for j in range(len(rows[0]))]
    d = len(s)
    D2 = D * D
    m = tuple(Fraction(s[j], n * D) for j in range(d))
    S = tuple(tuple(Fraction(Gl[i][j] * n - s[i] * s[j], n * D2) for j in range(d)) for i in range(d))
    return n, m, S


def fisher_direction(X1: Any, X2: Any, *, singular: str = "error") -> dict:
    """Fisher's w = S_W^{-1}(m_1 - m_2) and the statistics, for the samples of two classes (rows; numpy
    integer arrays are taken without conversion).  Returns a dict with n1, n2, m1, m2, S1, S2, S_W, S_B, w,
    method ("inverse" or "pinv")."""
    n1, m1, S1 = class_statistics(X1)
    n2, m2, S2 = class_statistics(X2)
    d = len(m1)
    if len(m2) != d:
        raise ShapeError(f"the classes have {d} and {len(m2)} features")
    S_W = tuple(tuple(S1[i][j] + S2[i][j] for j in range(d)) for i in range(d))
    delta = tuple(u - v for u, v in zip(m1, m2))
    if not any(delta):
        raise InputError("the class means coincide (m_1 = m_2): w = S_W^{-1}(m_1 - m_2) = 0 gives no direction")
    S_B = tuple(tuple(delta[i] * delta[j] for j in range(d)) for i in range(d))
    method = "inverse"
    try:
        w = solve(S_W, delta, what="S_W")
    except SingularMatrixError:
        if singular != "pinv":
            raise SingularMatrixError(
                "S_W (the within-class scatter) is singular, so w = S_W^{-1}(m_1 - m_2) does not exist; a feature "
                "may be constant within both classes or the samples too few. Use singular=pinv (CLI: --param "
                "singular=pinv) for w = S_W^+ (m_1 - m_2)") from None
        P = pinv(S_W)
        verify_penrose(S_W, P)  # independent: plain Fraction products, all four conditions
        w = tuple(sum((p * q for p, q in zip(row, delta)), Fraction(0)) for row in P)
        method = "pinv"
        if not any(w):
            # S_W^+ is positive semidefinite, so w = S_W^+ delta = 0 exactly when delta is orthogonal to the range of
            # S_W: then no direction is given (w^t S_B w / w^t S_W w is 0/0), though J is unbounded along the
            # component of delta in the null space of S_W
            raise InputError(
                "S_W^+ (m_1 - m_2) = 0: m_1 - m_2 lies in the null space of the singular S_W (no within-class "
                "scatter along it), so the pseudoinverse gives no direction; J(w) is unbounded for any w in that "
                "null space with w^t (m_1 - m_2) != 0 (for example m_1 - m_2 itself)") from None
    else:
        # independent check of the solver's answer, with plain Fractions: S_W w = m_1 - m_2
        for i in range(d):
            lhs = sum((S_W[i][j] * w[j] for j in range(d)), Fraction(0))
            if lhs != delta[i]:  # pragma: no cover - the solver is exact
                raise VerificationError(f"Fisher: S_W w != m_1 - m_2 in row {i}: {lhs} != {delta[i]}")
    return {"n1": n1, "n2": n2, "m1": m1, "m2": m2, "S1": S1, "S2": S2, "S_W": S_W, "S_B": S_B, "w": w,
            "delta": delta, "method": method}


def _quad(w, M) -> Fraction:
    return sum((w[i] * M[i][j] * w[j] for i in range(len(w)) for j in range(len(w)) if M[i][j]), Fraction(0))


# ---------------------------------------------------------------------------
# exact decisions against c + s ln q


def sign_c_plus_s_log(c: Fraction, s: Fraction, q: Fraction) -> int:
    """The sign of c + s ln(q) for rationals c, s and q > 0, decided exactly.

    If s = 0 or q = 1 it is the sign of c.  Otherwise ln q is irrational (e^r is transcendental for
    every nonzero rational r, Lindemann), so c + s ln q != 0, and ball arithmetic (python-flint's
    ``arb``: every operation returns an interval proven to contain the exact result) at increasing
    precision eventually returns a ball that excludes 0; its side is the sign.  Without python-flint,
    mpmath's interval arithmetic plays the same role.
    """
    c, s, q = Fraction(c), Fraction(s), Fraction(q)
    if q <= 0:
        raise ValueError("ln q needs q > 0")
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


class Threshold:
    """y0 = c + s ln(q), exact (s = 0 for the rational thresholds)."""

    def __init__(self, c: Fraction, s: Fraction = Fraction(0), q: Fraction = Fraction(1)):
        self.c, self.s, self.q = Fraction(c), Fraction(s), Fraction(q)

    @property
    def rational(self) -> bool:
        return self.s == 0 or self.q == 1

    def value(self):
        """A Fraction, or an exact sympy expression when irrational."""
        if self.rational:
            return self.c
        import sympy

        R = lambda x: sympy.Rational(x.numerator, x.denominator)  # noqa: E731
        return R(self.c) + R(self.s) * sympy.log(R(self.q))

    def compare(self, y: Fraction) -> int:
        """sign(y - y0), exactly."""
        return sign_c_plus_s_log(Fraction(y) - self.c, -self.s, self.q)


def thresholds(mt1: Fraction, mt2: Fraction, n1: int, n2: int, priors=None) -> dict[str, Threshold | None]:
    """The three thresholds of seed 003 on the projected means m~_1, m~_2 (y0^(3) with the corrected
    sign, and ``"3_as_printed"`` with the notes' sign, for the erratum)."""
    half = (mt1 + mt2) / 2
    out: dict[str, Threshold | None] = {"1": Threshold(half), "2": Threshold((n1 * mt1 + n2 * mt2) / (n1 + n2))}
    p1, p2 = (Fraction(1, 2), Fraction(1, 2)) if priors is None else priors
    if n1 + n2 - 2 > 0:
        out["3"] = Threshold(half, Fraction(-1, n1 + n2 - 2), p1 / p2)
        out["3_as_printed"] = Threshold(half, Fraction(1, n1 + n2 - 2), p1 / p2)
    else:
        out["3"] = out["3_as_printed"] = None
    return out


def _check_priors(pr) -> tuple[Fraction, Fraction] | None:
    if pr is None:
        return None
    pr = to_vector(pr)
    if len(pr) != 2:
        raise ParameterError(f"priors needs two values P(omega_1), P(omega_2); got {len(pr)}", parameter="priors")
    if pr[0] <= 0 or pr[1] <= 0:
        raise ParameterError(f"priors must be > 0, got {fmt(pr[0])}, {fmt(pr[1])}", parameter="priors")
    return pr[0], pr[1]


@register("fisher", family="fisher", seed=SEED, number="Fisher Linear Discriminant Analysis (FLDA)",
          title="Fisher's linear discriminant", params=PARAMS, iterative=False, bias_default="none")
def fisher(X, y=None, *, bias: str = "none", positive=None, floats: str = "repr",
           max_epochs: int = DEFAULT_MAX_EPOCHS, trace: bool | None = None, **params) -> Run:
    """Fisher's linear discriminant of seed 003 (``003_ffe0ec08819b37d8.txt``, "Fisher Linear
    Discriminant Analysis (FLDA)"), exactly: m_i, S_i, S_W = S_1 + S_2, S_B, w = S_W^{-1}(m_1 - m_2),
    J(w) = w^t S_B w / w^t S_W w, and the thresholds y0^(1), y0^(2), y0^(3) (see the module docstring;
    y0^(3) with the corrected sign).  omega_1 is the +1 class (or ``positive``); decide omega_1 iff
    w^t x > y0, decided exactly even when y0 is irrational.

    ``w`` (the Run's weights) lives in the feature space itself (bias ``none``): the threshold y0 plays
    the bias's role, so g(x) = w^t x - y0.  Extras: ``y0`` (the chosen threshold: a Fraction, or an exact
    sympy expression), ``threshold`` (which), ``thresholds`` (all, y0^(3) also as printed), ``m1``,
    ``m2``, ``S1``, ``S2``, ``S_W``, ``S_B``, ``J``, ``method`` ("inverse", or "pinv" when asked for
    with a singular S_W), ``predictions`` (+1/-1/0 per sample) and ``training_errors``.

    >>> r = fisher([(1,), (3,), (-1,), (-3,)], [1, 1, -1, -1])
    >>> r.w, r.extras["y0"], r.extras["J"]
    ((Fraction(1, 1),), Fraction(0, 1), Fraction(4, 1))
    """
    P = check_params(PARAMS, {k: v for k, v in params.items() if v is not None}, "fisher")
    P = {p.name: P.get(p.name, p.default) for p in PARAMS}
    if bias != "none":
        raise ParameterError(f"fisher projects x itself: bias must be none (the threshold y0 plays the bias's "
                             f"role), got {bias!r}", parameter="bias")
    from ..data import as_dataset, binary_labels

    ds = as_dataset(X, y, floats=floats)
    z = binary_labels(ds.y, positive)
    D1 = [x for x, zi in zip(ds.X, z) if zi == 1]
    D2 = [x for x, zi in zip(ds.X, z) if zi == -1]
    for name, Dc, lab in (("omega_1", D1, "+1" if positive is None else repr(positive)),
                          ("omega_2", D2, "-1" if positive is None else "the other label")):
        if not Dc:
            raise LabelError(f"Fisher's discriminant needs samples of both classes; class {name} (label {lab}) "
                             "is empty")
    priors = _check_priors(P["priors"])
    st = fisher_direction(D1, D2, singular=P["singular"])
    w = st["w"]
    mt1 = sum((a * b for a, b in zip(w, st["m1"])), Fraction(0))
    mt2 = sum((a * b for a, b in zip(w, st["m2"])), Fraction(0))
    den = _quad(w, st["S_W"])
    J = _quad(w, st["S_B"]) / den if den != 0 else None
    th = thresholds(mt1, mt2, st["n1"], st["n2"], priors)
    which = P["threshold"] if P["threshold"] != "auto" else ("3" if priors is not None else "1")
    chosen = th[which]
    if chosen is None:
        raise ParameterError("y0^(3) needs n_1 + n_2 > 2 (it divides by n_1 + n_2 - 2)", parameter="threshold")
    preds = tuple(chosen.compare(proj) for proj in dots(ds.X, w))
    errors = sum(1 for p, zi in zip(preds, z) if p != zi)
    extras = {
        "y0": chosen.value(), "threshold": which,
        "thresholds": {k: (t.value() if t is not None else None) for k, t in th.items()},
        "m1": st["m1"], "m2": st["m2"], "mt1": mt1, "mt2": mt2, "n1": st["n1"], "n2": st["n2"],
        "S1": st["S1"], "S2": st["S2"], "S_W": st["S_W"], "S_B": st["S_B"], "J": J, "method": st["method"],
        "predictions": preds, "training_errors": errors,
    }
    if st["method"] == "pinv":
        extras["note"] = "S_W is singular: w = S_W^+ (m_1 - m_2) (Moore-Penrose pseudoinverse), as asked"
    if J is None:
        extras["note_J"] = "w^t S_W w = 0: zero within-class scatter along w, J(w) is unbounded"
    P_out = {k: v for k, v in P.items() if v is not None}
    from ..algorithms._loop import BinaryProblem
    from ..data import augment, normalize

    Yaug = augment(ds.X, "none")
    prob = BinaryProblem(ds, "none", Yaug, z, normalize(Yaug, z))
    return Run("fisher", w, "none", True, "solved", 0, 0, 0, params=P_out, trace=[], trace_complete=True,
               extras=extras, seed=SEED, problem=prob)


__all__ = ["fisher", "fisher_direction", "class_statistics", "thresholds", "Threshold", "sign_c_plus_s_log"]
