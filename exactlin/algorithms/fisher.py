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

How it is computed (integers throughout; see :func:`fisher_direction`, :func:`verify_direction` and
:func:`classify`): the data are read as an integer matrix A over one denominator D (X = A / D; an
:class:`~exactlin.exact.rows.ExactRows` gives them at no cost), the classes are split by boolean masks,
and with s_i the column sums of class i and G_i = A_i^t A_i,

    Q_i = n_i G_i - s_i s_i^t = n_i D^2 S_i,   N = n_2 Q_1 + n_1 Q_2 = n_1 n_2 D^2 S_W,
    N w = D (n_2 s_1 - n_1 s_2)   (S_W w = m_1 - m_2 multiplied by n_1 n_2 D^2),

the statistics formed by :mod:`exactlin.exact.products` and the system solved exactly by
:func:`exactlin.linalg.matrices.int_solve` (python-flint, or sympy's DomainMatrix with ``arithmetic="fraction"``).
The answer is checked by independent code (centred samples, another product, other
sums), and every training point is classified from its integer projection (A (L w))_i, L the common
denominator of w, through a proven integer filter (:func:`classify`), exactly.
The textbook computation in plain Fractions, the readable specification the tests compare with, is
``tests/algorithms/fisher_reference.py``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from exactlin.algorithms import register
from exactlin.algorithms._contract import Checked, make_run
from exactlin.errors import InputError, LabelError, ParameterError, ShapeError, SingularMatrixError, VerificationError
from exactlin.exact.bounds import sign_c_plus_s_log
from exactlin.exact.format import fmt
from exactlin.exact.numbers import to_vector
from exactlin.exact.products import centred_scatter, class_scatter, int_array, max_abs, one_blas_thread, sym_fractions
from exactlin.exact.rows import I64_HEADROOM, I64_LIMIT, int_matvec
from exactlin.linalg.matrices import arithmetic_backend, int_solve, integer_matrix, pinv, solve
from exactlin.model.models import ThresholdModel, label_pair
from exactlin.model.params import Param
from exactlin.model.run import Run
from exactlin.theory.penrose import verify_penrose

SEED = "003_ffe0ec08819b37d8.txt"

PARAMS = (
    Param("priors", "vector", None, "P(omega_1), P(omega_2) > 0 for y0^(3) (default equal priors: ln 1 = 0); "
          "CLI: priors=9/10,1/10"),
    Param("threshold", "choice", "auto", "which y0 classifies: 1, 2 or 3 (auto: 3 when priors are given, "
          "else 1)", choices=("auto", "1", "2", "3")),
    Param("singular", "choice", "error", "a singular S_W: 'error' (SingularMatrixError) or 'pinv' "
          "(w = S_W^+ (m_1 - m_2), said in the result)", choices=("error", "pinv")),
    Param("scatter", "choice", "sum", "the within-class matrix: 'sum' (seed 003: S_W = S_1 + S_2), 'n' "
          "(S_1/n_1 + S_2/n_2, the class covariances) or 'n-1' (S_1/(n_1-1) + S_2/(n_2-1), the unbiased ones); "
          "w = (that matrix)^{-1} (m_1 - m_2), J uses it too", choices=("sum", "n", "n-1")),
)


def _scaled_direction(st: dict, scatter: str, singular: str, backend: str) -> tuple[tuple, Any, str]:
    """w = S_W'^{-1} (m_1 - m_2) with S_W' = S_1/c_1 + S_2/c_2 (c_i = n_i or n_i - 1), checked exactly:
    S_W' w = m_1 - m_2 is recomputed entry by entry (or the Penrose conditions for the pseudoinverse).
    Returns (w, S_W', method)."""
    n1, n2 = st["n1"], st["n2"]
    c1, c2 = (n1, n2) if scatter == "n" else (n1 - 1, n2 - 1)
    if c1 == 0 or c2 == 0:
        which = "omega_1" if c1 == 0 else "omega_2"
        raise ParameterError(f"scatter=n-1 divides S_i by n_i - 1, but class {which} has one sample; use scatter=n "
                             "or sum", parameter="scatter")
    S1, S2, delta = st["S1"], st["S2"], st["delta"]
    d = len(delta)
    M = tuple(tuple(S1[i][j] / c1 + S2[i][j] / c2 for j in range(d)) for i in range(d))
    try:
        w = tuple(solve(M, list(delta), what="S_W", backend=backend))
        method = "inverse"
    except SingularMatrixError:
        if singular != "pinv":
            raise SingularMatrixError(f"the within-class matrix S_1/{'n_1' if scatter == 'n' else '(n_1-1)'} + "
                                      f"S_2/{'n_2' if scatter == 'n' else '(n_2-1)'} is singular; use singular=pinv"
                                      ) from None
        Pm = pinv(M, backend=backend)
        verify_penrose(M, Pm)
        w = tuple(sum((p * q for p, q in zip(row, delta)), Fraction(0)) for row in Pm)
        method = "pinv"
        if not any(w):
            raise InputError("S_W'^+ (m_1 - m_2) = 0: no direction (m_1 - m_2 in the null space)") from None
    if method == "inverse":
        for i in range(d):  # independent check: S_W' w = m_1 - m_2, exactly
            if sum((M[i][j] * w[j] for j in range(d)), Fraction(0)) != delta[i]:
                raise VerificationError(f"Fisher (scatter={scatter}): S_W' w != m_1 - m_2 in row {i}")
    return w, M, method


# ---------------------------------------------------------------------------
# the direction, from the integer statistics of exactlin.exact.products


def _int_data(X: Any, name: str = "X") -> tuple[np.ndarray, int]:
    """(A, D) with X = A / D: A an int64 array when every entry fits, else a numpy object array of Python ints.
    No per-entry work for an ExactRows or a numpy integer array."""
    A, D = integer_matrix(X, name)
    return int_array(A), D


def _is_i64(A: np.ndarray) -> bool:
    return A.dtype == np.int64


def _integer_vector(w) -> tuple[list[int], int]:
    """(W, L) with w = W / L, L the least common denominator of w."""
    w = [Fraction(v) for v in w]
    L = math.lcm(*(v.denominator for v in w))
    return [v.numerator * (L // v.denominator) for v in w], L


def _direction(A1: np.ndarray, A2: np.ndarray, D: int, singular: str, backend: str | None = None,
               tiers: dict | None = None) -> dict:
    """The Fisher direction of the integer classes A_1 / D and A_2 / D (see the module docstring):
    the statistics as Fractions, w, and the integer pieces (s_i, N, W, L) the caller reuses."""
    n1, n2 = A1.shape[0], A2.shape[0]
    if n1 == 0 or n2 == 0:
        raise ShapeError("a class has no samples")
    d = A1.shape[1]
    if A2.shape[1] != d:
        raise ShapeError(f"the classes have {d} and {A2.shape[1]} features")
    _, s1, Q1 = class_scatter(A1, tiers=tiers)  # Q_1 = n_1 A_1^t A_1 - s_1 s_1^t = n_1 D^2 S_1
    _, s2, Q2 = class_scatter(A2, tiers=tiers)  # n_2 D^2 S_2
    N = [[n2 * Q1[i][j] + n1 * Q2[i][j] for j in range(d)] for i in range(d)]  # n_1 n_2 D^2 S_W
    dnum = [n2 * a - n1 * b for a, b in zip(s1, s2)]  # n_1 n_2 D (m_1 - m_2)
    if not any(dnum):
        raise InputError("the class means coincide (m_1 = m_2): w = S_W^{-1}(m_1 - m_2) = 0 gives no direction")
    n12D = n1 * n2 * D
    m1 = tuple(Fraction(v, n1 * D) for v in s1)
    m2 = tuple(Fraction(v, n2 * D) for v in s2)
    S1 = sym_fractions(Q1, n1 * D * D)
    S2 = sym_fractions(Q2, n2 * D * D)
    S_W = sym_fractions(N, n12D * D)
    delta = tuple(Fraction(v, n12D) for v in dnum)
    S_B = sym_fractions([[a * b for b in dnum] for a in dnum], n12D * n12D)
    method, penrose = "inverse", None
    try:
        w = int_solve(N, [D * v for v in dnum], what="S_W", backend=backend)
    except SingularMatrixError:
        if singular != "pinv":
            raise SingularMatrixError(
                "S_W (the within-class scatter) is singular, so w = S_W^{-1}(m_1 - m_2) does not exist; a feature "
                "may be constant within both classes or the samples too few. Use singular=pinv (CLI: --param "
                "singular=pinv) for w = S_W^+ (m_1 - m_2)") from None
        P = pinv(S_W, backend=backend)
        penrose = verify_penrose(S_W, P)  # independent (exactlin.theory.penrose): all four conditions
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
    W, L = _integer_vector(w)
    # independent check of the answer against the data (centred samples, other code): the scatter matrices,
    # the class sums, and S_W w = m_1 - m_2 (the pinv answer was checked by the Penrose conditions)
    verify_direction(A1, A2, D, W, L, equation=method == "inverse", sums=(s1, s2), scatter=N)
    return {"n1": n1, "n2": n2, "m1": m1, "m2": m2, "S1": S1, "S2": S2, "S_W": S_W, "S_B": S_B, "w": w,
            "delta": delta, "method": method, "_W": W, "_L": L, "_s1": s1, "_s2": s2, "_dnum": dnum,
            "_penrose": penrose}


def _common_denominator(A1: np.ndarray, D1: int, A2: np.ndarray, D2: int):
    """The two integer matrices over the same denominator lcm(D1, D2) (int64 where it provably fits)."""
    D = math.lcm(D1, D2)

    def up(A, f):
        if f == 1:
            return A
        if _is_i64(A) and max_abs(A) * f < I64_LIMIT:
            return A * np.int64(f)
        return A.astype(object) * f

    return up(A1, D // D1), up(A2, D // D2), D


def fisher_direction(X1: Any, X2: Any, *, singular: str = "error", backend: str | None = None) -> dict:
    """Fisher's w = S_W^{-1}(m_1 - m_2) and the statistics, for the samples of two classes (rows; numpy
    integer arrays and ExactRows are taken without conversion).  Returns a dict with n1, n2, m1, m2, S1, S2,
    S_W, S_B, w, delta, method ("inverse" or "pinv").

    Exact: the classes are scaled to integers over one denominator D and every statistic is formed in
    integers (module docstring) by :func:`exactlin.exact.products.class_scatter`, the system
    N w = D (n_2 s_1 - n_1 s_2) solved exactly by :func:`exactlin.linalg.matrices.int_solve` in ``backend``
    (python-flint's fraction-free solver by default, or sympy's DomainMatrix).  The result is checked by
    :func:`verify_direction`, which shares none of that code.
    """
    A1, D1 = _int_data(X1, "X1")
    A2, D2 = _int_data(X2, "X2")
    if A1.shape[0] == 0 or A2.shape[0] == 0:
        raise ShapeError("a class has no samples")
    A1, A2, D = _common_denominator(A1, D1, A2, D2)
    st = _direction(A1, A2, D, singular, backend)
    return {k: v for k, v in st.items() if not k.startswith("_")}


def verify_direction(X1: Any, X2: Any, D: int, W, L: int, *, equation: bool = True, sums=None,
                     scatter=None) -> bool:
    """Check a claimed Fisher direction w = W / L for the classes X_1 / D and X_2 / D (integer matrices, or
    anything :func:`exactlin.linalg.matrices.integer_matrix` takes with D = 1), exactly and independently of the code
    that computed it: the scatter is recomputed from the centred samples
    (:func:`exactlin.exact.products.centred_scatter`: other sums, another product, no gram, no solver).
    With K_i = n_i^2 D^2 S_i and s_i the class sums:

    * ``equation``: S_W w = m_1 - m_2, i.e. n_2^2 K_1 W + n_1^2 K_2 W = n_1 n_2 D L (n_2 s_1 - n_1 s_2)
      (the equation multiplied by n_1^2 n_2^2 D^2 L: integers on both sides);
    * ``sums`` (s_1, s_2 claimed): equal to the recomputed sums;
    * ``scatter`` (N claimed = n_1 n_2 D^2 S_W): n_1 n_2 N = n_2^2 K_1 + n_1^2 K_2 entrywise.

    Raises :class:`VerificationError` on the first failure, returns True otherwise."""
    A1 = X1 if isinstance(X1, np.ndarray) else _int_data(X1, "X1")[0]
    A2 = X2 if isinstance(X2, np.ndarray) else _int_data(X2, "X2")[0]
    n1, n2 = A1.shape[0], A2.shape[0]
    d = A1.shape[1]
    t1, K1 = centred_scatter(A1)
    t2, K2 = centred_scatter(A2)
    if sums is not None and (list(sums[0]) != t1 or list(sums[1]) != t2):
        raise VerificationError("Fisher: the class sums (the means m_1, m_2) differ from an independent recomputation")
    a, b = n2 * n2, n1 * n1
    if scatter is not None:
        nn = n1 * n2
        for i in range(d):
            for j in range(d):
                if nn * scatter[i][j] != a * K1[i][j] + b * K2[i][j]:
                    raise VerificationError(f"Fisher: S_W[{i}][{j}] differs from an independent recomputation")
    if equation:
        W = [int(v) for v in W]
        c = n1 * n2 * D * L
        for i in range(d):
            lhs = sum(a * k1 * v + b * k2 * v for k1, k2, v in zip(K1[i], K2[i], W))
            rhs = c * (n2 * t1[i] - n1 * t2[i])
            if lhs != rhs:
                raise VerificationError(f"Fisher: S_W w != m_1 - m_2 in row {i} (checked in integers, independently)")
    return True


def _quad(w, M) -> Fraction:
    return sum((w[i] * M[i][j] * w[j] for i in range(len(w)) for j in range(len(w)) if M[i][j]), Fraction(0))


# ---------------------------------------------------------------------------
# exact decisions against c + s ln q


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


def _floor_arb(x) -> int:
    """floor of an exact arb (a dyadic number), as a Python int."""
    man, exp = x.man_exp()
    man, exp = int(man), int(exp)
    return man << exp if exp >= 0 else man >> -exp


def _bits(x: Fraction) -> int:
    """An upper bound on log2 |x| + 1 (at least 1)."""
    return max(1, abs(x.numerator).bit_length() - x.denominator.bit_length() + 1)


def _bracket(th: Threshold, scale: Fraction) -> tuple[int, int]:
    """Integers lo <= hi with lo <= scale y0 < hi + 1, for y0 = c + s ln q (scale > 0).

    Rational y0: lo = hi = floor(scale y0), exactly.  Irrational: one ball enclosure V of scale y0 by
    python-flint's ``arb`` (each operation returns an interval proven to contain the exact result), at a
    precision of 64 bits beyond the magnitude, so hi - lo <= 1 in practice; lo = floor(lower(V)),
    hi = floor(upper(V)).  The bracket is valid at any precision (the precision only decides how wide it
    is); without python-flint it is the trivial bracket, and :func:`classify` then decides every point
    by :meth:`Threshold.compare`."""
    c = th.c * scale
    if th.rational:
        f = c.numerator // c.denominator
        return f, f
    s, q = th.s * scale, th.q
    try:
        import flint
    except ImportError:  # pragma: no cover
        return -I64_HEADROOM, I64_HEADROOM
    prec = max(_bits(c), _bits(s) + max(q.numerator, q.denominator).bit_length().bit_length()) + 64
    old = flint.ctx.prec
    try:
        for _ in range(4):
            flint.ctx.prec = prec
            def arb(x: Fraction):
                return flint.arb(flint.fmpq(x.numerator, x.denominator))

            v = arb(c) + arb(s) * arb(q).log()
            lo, hi = _floor_arb(v.lower()), _floor_arb(v.upper())
            if hi - lo <= 1:
                break
            prec *= 2
    finally:
        flint.ctx.prec = old
    return lo, hi


#: bracket ends are clipped to this: |h| + r < 2**53 there, so no comparison changes
_CLIP = I64_HEADROOM


def classify(A: np.ndarray, D: int, W, L: int, th: Threshold) -> np.ndarray:
    """sign(y_i - y0) for every row of X = A / D and y_i = <x_i, w>, w = W / L (W integers), as an
    int64 array; the same as ``th.compare(y_i)`` for every i, without a Fraction per point.

    Exactness.  y_i - y0 has the sign of P_i - T with P_i = (A W)_i (an integer) and T = D L y0, because
    D L > 0.  Let m = max |A|, d the number of columns, b = 52 - bitlength(d m) >= 1 and
    e = max(0, max_j bitlength |W_j| - b).  Write W_j = 2**e H_j + R_j with H_j = floor(W_j / 2**e) and
    0 <= R_j < 2**e, so |H_j| <= 2**b and

        P_i = 2**e h_i + rho_i,   h_i = sum_j A_ij H_j,   |rho_i| <= 2**e r_i,   r_i = sum_j |A_ij|

    (r_i := 0 when e = 0: then R = 0).  Every product and partial sum of h_i is an integer of magnitude
    <= d m 2**b <= 2**52, so the float64 product (BLAS, any summation order) is exact.  With integers
    lo <= T / 2**e < hi + 1 (:func:`_bracket`):

    * h_i - r_i > hi  implies  P_i >= 2**e (h_i - r_i) >= 2**e (hi + 1) > T:  +1;
    * h_i + r_i < lo  implies  P_i <= 2**e (h_i + r_i) <= 2**e (lo - 1) < T:  -1;
    * otherwise (|h_i - T/2**e| <= r_i + 1, rare) P_i is formed exactly in Python integers and decided by
      :meth:`Threshold.compare` (exact: a Fraction comparison, or refined ball arithmetic for y0^(3)).

    So a rational threshold gives 0 exactly when y_i = y0 (such points are never decided by the filter),
    and an irrational one never 0.  When d m >= 2**51 (or A holds Python ints), P = A W is computed exactly
    (:func:`exactlin.exact.rows.int_matvec`, or Python integers) and the same bracket decides.
    """
    n, d = A.shape
    DL = D * L
    W = [int(v) for v in W]
    b = 52 - (d * max_abs(A)).bit_length() if _is_i64(A) else 0
    if b >= 1:
        e = max(0, max(abs(v).bit_length() for v in W) - b)
        H = np.array([v >> e for v in W], dtype=np.float64)
        with one_blas_thread():
            h = (A.astype(np.float64) @ H).astype(np.int64)
        r = np.abs(A).sum(axis=1) if e else 0
        lo, hi = _bracket(th, Fraction(DL, 1 << e))
        lo, hi = min(max(lo, -_CLIP), _CLIP), min(max(hi, -_CLIP), _CLIP)
        above = (h - r) > hi
        below = (h + r) < lo
        preds = np.where(above, 1, -1).astype(np.int64)
        todo = np.flatnonzero(~(above | below)).tolist()

        def exact(i: int) -> int:
            return sum(int(a) * v for a, v in zip(A[i].tolist(), W))
    else:
        P = int_matvec(A, W) if _is_i64(A) else [int(v) for v in A.dot(np.array(W, dtype=object)).tolist()]
        lo, hi = _bracket(th, Fraction(DL))
        preds = np.array([1 if p > hi else -1 for p in P], dtype=np.int64).reshape(n)
        todo = [i for i, p in enumerate(P) if lo <= p <= hi]
        exact = P.__getitem__
    for i in todo:
        preds[i] = th.compare(Fraction(exact(i), DL))
    return preds


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
          title="Fisher's linear discriminant", params=PARAMS, iterative=False, bias_default="none",
          arithmetics=("flint", "fraction"))
def fisher(X, y, P: Checked) -> Run:
    """Fisher's linear discriminant of seed 003 (``003_ffe0ec08819b37d8.txt``, "Fisher Linear
    Discriminant Analysis (FLDA)"), exactly: m_i, S_i, S_W = S_1 + S_2, S_B, w = S_W^{-1}(m_1 - m_2),
    J(w) = w^t S_B w / w^t S_W w, and the thresholds y0^(1), y0^(2), y0^(3) (see the module docstring;
    y0^(3) with the corrected sign).  omega_1 is the +1 class (or ``positive``); the notes' rule: "If
    y > y0, omega_1; otherwise omega_2" (seed 003), decided exactly even when y0 is irrational, so a point
    with y = y0 exactly (possible only for a rational y0) goes to omega_2 and is listed in ``on_threshold``.

    ``w`` (the Run's weights) lives in the feature space itself (bias ``none``): the threshold y0 plays
    the bias's role, so g(x) = w^t x - y0.  Extras: ``y0`` (the chosen threshold: a Fraction, or an exact
    sympy expression), ``threshold`` (which), ``thresholds`` (all, y0^(3) also as printed), ``m1``,
    ``scatter`` chooses the within-class matrix (other courses' conventions): ``sum`` (seed 003, S_1 + S_2),
    ``n`` (S_1/n_1 + S_2/n_2) or ``n-1`` (S_1/(n_1 - 1) + S_2/(n_2 - 1)); ``extras["S_W"]`` is the one used.
    With equal class sizes the three give parallel directions; otherwise they differ.

    ``m2``, ``S1``, ``S2``, ``S_W``, ``S_B``, ``J``, ``method`` ("inverse", or "pinv" when asked for
    with a singular S_W), ``predictions`` (+1 for omega_1, -1 for omega_2, per sample), ``on_threshold``
    (the indices of the samples with y = y0 exactly, which the rule sends to omega_2) and ``training_errors``.

    >>> r = fisher([(1,), (3,), (-1,), (-3,)], [1, 1, -1, -1])
    >>> r.w, r.extras["y0"], r.extras["J"]
    ((Fraction(1, 1),), Fraction(0, 1), Fraction(4, 1))
    """
    bias, positive, floats = P.bias, P.positive, P.floats
    if bias != "none":
        raise ParameterError(f"fisher projects x itself: bias must be none (the threshold y0 plays the bias's "
                             f"role), got {bias!r}", parameter="bias")
    from exactlin.data.dataset import as_dataset, binary_labels

    ds = as_dataset(X, y, floats=floats)
    z = binary_labels(ds.y, positive)
    A, D = _int_data(ds.X, "X")  # no per-entry work for an ExactRows (integer numpy input)
    zarr = np.fromiter(z, dtype=np.int8, count=len(z))
    pos = zarr == 1
    n1 = int(np.count_nonzero(pos))
    for name, nc, lab in (("omega_1", n1, "+1" if positive is None else repr(positive)),
                          ("omega_2", len(z) - n1, "-1" if positive is None else "the other label")):
        if not nc:
            raise LabelError(f"Fisher's discriminant needs samples of both classes; class {name} (label {lab}) "
                             "is empty")
    priors = _check_priors(P["priors"])
    scatter = P["scatter"]
    backend, used = arithmetic_backend(P.arithmetic)  # the exact solves: python-flint or sympy's DomainMatrix
    tiers: dict = {}  # the tiers of the integer statistics (exactlin.exact.products)
    st = _direction(A[pos], A[~pos], D, P["singular"] if scatter == "sum" else "pinv", backend, tiers)
    P.record_arithmetic(used, tiers)
    if scatter != "sum":
        w_s, M_s, method_s = _scaled_direction(st, scatter, P["singular"], backend)
        st = {**st, "w": w_s, "S_W": M_s, "method": method_s, "_W": _integer_vector(w_s)[0],
              "_L": _integer_vector(w_s)[1]}
    w, W, L, n2 = st["w"], st["_W"], st["_L"], st["n2"]
    mt1 = Fraction(sum(a * b for a, b in zip(W, st["_s1"])), L * n1 * D)  # w^t m_1 = W^t s_1 / (L n_1 D)
    mt2 = Fraction(sum(a * b for a, b in zip(W, st["_s2"])), L * n2 * D)
    if st["method"] == "inverse" and scatter == "sum":
        # S_W w = m_1 - m_2 (verified), so w^t S_W w = w^t (m_1 - m_2), and w^t S_B w = (w^t (m_1 - m_2))^2
        wd = Fraction(sum(a * b for a, b in zip(W, st["_dnum"])), L * n1 * n2 * D)
        J = wd * wd / wd if wd != 0 else None
    else:
        den = _quad(w, st["S_W"])
        J = _quad(w, st["S_B"]) / den if den != 0 else None
    th = thresholds(mt1, mt2, n1, n2, priors)
    which = P["threshold"] if P["threshold"] != "auto" else ("3" if priors is not None else "1")
    chosen = th[which]
    if chosen is None:
        raise ParameterError("y0^(3) needs n_1 + n_2 > 2 (it divides by n_1 + n_2 - 2)", parameter="threshold")
    sign = classify(A, D, W, L, chosen)  # sign(y - y0) per sample, exactly
    pred = np.where(sign > 0, 1, -1)  # y > y0: omega_1; otherwise (y <= y0) omega_2
    preds = tuple(pred.tolist())
    errors = int(np.count_nonzero(pred != zarr))
    extras = {
        "y0": chosen.value(), "threshold": which,
        "thresholds": {k: (t.value() if t is not None else None) for k, t in th.items()},
        "m1": st["m1"], "m2": st["m2"], "mt1": mt1, "mt2": mt2, "n1": n1, "n2": n2,
        "S1": st["S1"], "S2": st["S2"], "S_W": st["S_W"], "S_B": st["S_B"], "J": J, "method": st["method"],
        "scatter": scatter,
        "predictions": preds, "on_threshold": tuple(np.flatnonzero(sign == 0).tolist()), "training_errors": errors,
    }
    if st["method"] == "pinv":
        extras["note"] = "S_W is singular: w = S_W^+ (m_1 - m_2) (Moore-Penrose pseudoinverse), as asked"
        if st.get("_penrose") is not None:
            extras["penrose"] = st["_penrose"]
    if J is None:
        extras["note_J"] = "w^t S_W w = 0: zero within-class scatter along w, J(w) is unbounded"
    prob = _problem(ds, z)
    return make_run(P, prob, w=w, converged=True, reason="solved", extras=extras, seed=SEED,
                    model=ThresholdModel(w, chosen.c, chosen.s, chosen.q, *label_pair(prob)))


def _problem(ds, z):
    """The Run's BinaryProblem (bias none).  For integer data ds.X is an ExactRows, so Y is ds.X itself and Z
    its rows times the labels in int64: no Fraction row is built unless someone reads them."""
    from exactlin.algorithms._loop import BinaryProblem
    from exactlin.data.dataset import augment, normalize

    Y = augment(ds.X, "none")
    return BinaryProblem(ds, "none", Y, z, normalize(Y, z))


__all__ = ["fisher", "fisher_direction", "verify_direction", "classify", "thresholds", "Threshold",
           "sign_c_plus_s_log"]
