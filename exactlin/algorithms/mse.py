"""Minimum squared error procedures of seed 003 (003_ffe0ec08819b37d8.txt), exactly.

* ``mse``: the pseudoinverse solution a = Y^+ b ("Minimum Squared Error Procedures", "Pseudoinverse").
* ``widrow-hoff``: the gradient rule a(k+1) = a(k) - eta(k) Y^t (Y a(k) - b), eta(k) = eta(1)/k.
* ``lms``: Algorithm 10 (LMS), the single-sample rule a <- a + eta(k) (b_k - a^t y^k) y^k.

Y is the matrix of *normalized* augmented samples (seed 003's convention: row i is z_i (1, x_i), so
that a separating a has Y a > 0), b > 0 the margin vector (all ones by default, as in the notes'
example).  Every quantity is an exact rational; the iterative rules report how large their numbers
grow (``extras["max_bits"]``) and stop cleanly at an optional bit-length bound.
"""

from __future__ import annotations

import math
from fractions import Fraction
from math import lcm
from operator import mul

import numpy as np

from exactlin.algorithms import register
from exactlin.algorithms._contract import Checked, make_run
from exactlin.algorithms._loop import start_vector
from exactlin.engine.iterate import ARITHMETICS, Body, Recorder, iterate, vectors
from exactlin.engine.trace import WH_BATCH_VISITS, batch_step_limit
from exactlin.errors import ParameterError, ShapeError, VerificationError
from exactlin.exact.numbers import fdot, to_vector
from exactlin.exact.rows import ExactVector, int_matvec
from exactlin.linalg.matrices import arithmetic_backend, integer_matrix, pinv, pinv_solve
from exactlin.model.params import MAX_SECONDS, Conflict, Param, Schedule, at_least, positive
from exactlin.model.run import Run

SEED = "003_ffe0ec08819b37d8.txt"

#: the pseudoinverse itself is put in the result when Y has at most this many entries
PINV_ENTRIES_LIMIT = 400

MSE_PARAMS = (
    Param("b", "vector", None, "the margin vector b > 0, one entry per sample (default all ones)"),
    Param("pinv", "bool", None, "include the matrix Y^+ in the result (default: when Y has at most "
          f"{PINV_ENTRIES_LIMIT} entries)"),
)


def _margin_vector(b, n: int) -> tuple[Fraction, ...]:
    if b is None:
        return (_ONE,) * n  # one shared Fraction(1): Fractions are immutable
    b = to_vector(b)
    if len(b) != n:
        raise ShapeError(f"b has {len(b)} entries but there are {n} samples: b needs one margin per sample")
    for i, v in enumerate(b):
        if v <= 0:
            raise ParameterError(f"b must be > 0 in every entry (seed 003: b_i are positive constants); "
                                 f"b[{i}] = {v}", parameter="b")
    return b


_ONE = Fraction(1)


def _int_matvec(A, v) -> list[int]:
    """A v exactly for an integer matrix A (numpy int64 array or rows of Python ints)."""
    if isinstance(A, np.ndarray):
        return int_matvec(A, v)
    return [sum(map(mul, row, v)) for row in A]


def _int_transpose(A):
    return A.T if isinstance(A, np.ndarray) else [list(c) for c in zip(*A)]


def _residual_ints(A, D: int, P, B, L: int) -> list[int]:
    """E = A P - D B (B None: all entries L), exactly, and the check A^t E = 0 (both by int_matvec)."""
    AP = _int_matvec(A, P)
    DL = D * L
    E = [x - DL for x in AP] if B is None else [x - D * q for x, q in zip(AP, B)]
    if any(_int_matvec(_int_transpose(A), E)):
        raise VerificationError("MSE: the residual e = Ya - b is not orthogonal to the columns of Y")
    return E


def _gram_times_limbs(A: np.ndarray, P: list[int]):
    """(A^t A P as a list of Python ints, the signs of A P) for an int64 array A and integers P, or None
    when A's entries are too large for the limb bound below (the caller then uses int_matvec).

    Exactness.  n x d = A's shape, m = max |A_ij| >= 1, and s >= 1 the largest integer with
    n d m^2 2**s <= 2**52.  Write |P_j| in base 2**s: P_j = sum_k 2**(s k) C_jk with C_jk = sign(P_j) c_jk,
    0 <= c_jk < 2**s.  Then |(A C)_ik| <= d m (2**s - 1) < 2**52 and |(A^t (A C))_jk| <= n m d m (2**s - 1)
    < 2**52, and so is every partial sum of either product (a partial sum is bounded by the sum of the
    absolute values of its terms): every intermediate is an integer below 2**53, which float64 holds
    exactly, so both float64 products (BLAS, any order, with or without FMA) are exact.  Then
    A^t A P = A^t (A P) = sum_k 2**(s k) A^t (A C)_k, recombined in Python integers.  A^t A itself is
    never formed: this shares no code and no intermediate with :func:`exactlin.exact.products.gram`.

    Signs of (A P)_i = sum_k 2**(s k) R_ik, R = A C: carry from the lowest limb up in int64,
    t = R_ik + c, digit t mod 2**s, c' = floor(t / 2**s) (|c| <= 2**(53 - s) + 1, so t fits in int64).
    At the end (A P)_i = c 2**(s K) + sum_k digit_k 2**(s k) with 0 <= sum_k digit_k 2**(s k) < 2**(s K):
    positive iff c > 0 or (c = 0 and some digit is nonzero), negative iff c < 0, zero otherwise.
    """
    n, d = A.shape
    m = max(int(A.max()), -int(A.min())) if A.size else 0
    if m == 0:
        return [0] * d, np.zeros(n, dtype=np.int64)
    s = 52 - (n * d * m * m).bit_length()  # n d m^2 < 2**bits, so n d m^2 2**s < 2**52
    if s < 1:
        return None
    K = max(1, (max(abs(p) for p in P).bit_length() + s - 1) // s)
    mask = (1 << s) - 1
    C = np.array([[((abs(p) >> (s * k)) & mask) * (-1 if p < 0 else 1) for k in range(K)] for p in P],
                 dtype=np.float64).reshape(d, K)
    Af = A.astype(np.float64)
    R = Af @ C
    S = (Af.T @ R).astype(np.int64).tolist()
    out = []
    for row in S:
        x = 0
        for k in range(K - 1, -1, -1):  # Horner in base 2**s
            x = (x << s) + row[k]
        out.append(x)
    Ri = R.astype(np.int64)
    carry = np.zeros(n, dtype=np.int64)
    nonzero = np.zeros(n, dtype=bool)
    m64 = np.int64(mask)
    for k in range(K):
        t = Ri[:, k] + carry
        nonzero |= (t & m64) != 0
        carry = t >> s
    sign = np.sign(carry)
    sign[(carry == 0) & nonzero] = 1
    return out, sign


def _check_least_squares(A, D: int, a, b) -> tuple[ExactVector, Fraction | None, bool, bool]:
    """Check the normal equations Y^t (Y a - b) = 0 for Y = A / D exactly, and return
    (e, J_s, separates, ok): e = Y a - b, J_s = ||e||^2 (None when the check fails), separates = whether
    Y a > 0 in every entry, ok = whether the normal equations hold.

    ``A`` is an integer matrix (numpy int64 array, or rows of Python ints) and ``D >= 1`` an integer;
    ``a`` is a vector of Fractions; ``b`` a vector of Fractions, or None for the all-ones vector.  This is
    the verifier of :func:`mse`: it shares no code with :func:`exactlin.exact.products.gram` or
    :func:`exactlin.linalg.matrices.pinv_solve`, which produced ``a``.

    Exactness.  Let L be the least common denominator of the entries of a and b, P = L a and B = L b
    (integer vectors; B = (L, ..., L) when b is all ones).  Then

        Y a - b = (A P) / (D L) - B / L = (A P - D B) / (D L) = E / (D L),   E := A P - D B,

    and Y^t (Y a - b) = A^t E / (D^2 L), so the normal equations hold iff the integer vector
    A^t E = A^t A P - D A^t B is zero.  Every product below is an exact integer computation:

    * numpy A with small entries (the usual case): A^t A P = A^t (A P) by float64 limbs that provably
      never round (:func:`_gram_times_limbs`), A^t B by :func:`exactlin.exact.rows.int_matvec` (the
      column sums times L when b is all ones, in int64: |sum| <= n max|A| < 2**52); compared in Python
      integers.  E itself is not needed for the check and is only built when e is read (see e below).
    * otherwise: E = A P - D B and A^t E by int_matvec (Python integers for rows of Python ints).

    From E (or without it):

    * separates: (Y a)_i = e_i + b_i = (A P)_i / (D L) with D L > 0, so Y a > 0 iff every (A P)_i > 0;
      the signs come from the limbs (exact, see :func:`_gram_times_limbs`) or from A P itself.
    * J_s: once Y^t e = 0 holds, ||e||^2 = e^t (Y a - b) = (Y^t e)^t a - e^t b = -e^t b, and
      e^t b = B^t E / (D L^2) = ((A^t B)^t P - D ||B||^2) / (D L^2): one dot product of d integers.
    * e = E / (D L), an :class:`ExactVector`.  On the limb path its numerators are computed on first
      read by int_matvec, E = A P - D B, and checked again there: A^t E = 0 (int_matvec of A^t by E; a
      failure raises :class:`VerificationError`).
    """
    dens = [q.denominator for q in a]
    if b is not None:
        dens += [q.denominator for q in b]
    L = lcm(*dens) if dens else 1
    P = [q.numerator * (L // q.denominator) for q in a]
    B = None if b is None else [q.numerator * (L // q.denominator) for q in b]
    n, DL = len(A), D * L
    got = _gram_times_limbs(A, P) if isinstance(A, np.ndarray) and A.ndim == 2 and A.shape[0] else None
    if got is not None:
        AtAP, sign = got
        if B is None:
            AtB = [L * v for v in A.sum(axis=0).tolist()]
        else:
            AtB = int_matvec(A.T, B)
        ok = all(x == D * y for x, y in zip(AtAP, AtB))
        separates = bool((sign > 0).all())
        e = ExactVector(lambda: _residual_ints(A, D, P, B, L), DL, n=n)
    else:
        AP = _int_matvec(A, P)
        E = [x - DL for x in AP] if B is None else [x - D * q for x, q in zip(AP, B)]
        ok = not any(_int_matvec(_int_transpose(A), E))
        separates = all(x > 0 for x in AP)
        AtB = _int_matvec(_int_transpose(A), [L] * n if B is None else B)
        e = ExactVector(E, DL)
    if not ok:
        return e, None, separates, False
    BtB = n * L * L if B is None else sum(q * q for q in B)
    J = Fraction(D * BtB - sum(map(mul, AtB, P)), D * L * L)
    return e, J, separates, True


@register("mse", family="mse", seed=SEED, number="Pseudoinverse (Minimum Squared Error)",
          title="MSE solution a = Y^+ b (pseudoinverse)", params=MSE_PARAMS, iterative=False,
          bias_default="first", arithmetics=("flint", "fraction"))
def mse(X, y, P: Checked) -> Run:
    """The minimum-squared-error solution a = Y^+ b of seed 003 (``003_ffe0ec08819b37d8.txt``,
    "Minimum Squared Error Procedures" / "Pseudoinverse").

    Y: the normalized augmented samples (rows z_i (1, x_i) with ``bias="first"``); b: the margin
    vector (default all ones).  a minimises J_s(a) = ||Y a - b||^2; it is computed exactly by
    :func:`exactlin.linalg.matrices.pinv_solve` (normal equations when Y has full column rank, the
    Moore-Penrose inverse otherwise: the minimum-norm minimiser) on the integer matrix A = D Y (an
    ExactRows' numerators as they are), and checked by independent exact integer code: Y^t (Y a - b) = 0
    (:func:`_check_least_squares`, which also gives the extras below without a Fraction per sample).

    Extras: ``b``, ``J_s`` (= ||Y a - b||^2), ``e`` (= Y a - b, an :class:`ExactVector`: a sequence of
    Fractions built when read, equal to the tuple of them), ``separates`` (Y a > 0), ``Y_pinv`` (Y^+ as
    exact rows, when small or asked for; checked by the four Penrose conditions).

    >>> r = mse([(1, 2), (2, 0), (3, 1), (2, 3)], [1, 1, -1, -1])     # seed 003's example
    >>> [str(v) for v in r.w]
    ['11/3', '-4/3', '-2/3']
    """
    prob = P.problem(X, y)
    Y = prob.Z
    b = _margin_vector(P["b"], prob.n)
    b_given = None if P["b"] is None else b
    # Y = A / D with A integer (ExactRows: its numerators, no per-entry work); (A / D)^+ = D A^+
    A, D = integer_matrix(Y, "Y")
    backend, used = arithmetic_backend(P.arithmetic)  # the exact solve: python-flint or sympy's DomainMatrix
    tiers: dict = {}  # the tiers of the integer products Y^tY, Y^tb (exactlin.exact.products.gram)
    a = pinv_solve(A, b_given, backend=backend, tiers=tiers)
    P.record_arithmetic(used, tiers)
    if D != 1:
        a = tuple(v * D for v in a)
    e, J, separates, normal_ok = _check_least_squares(A, D, a, b_given)
    if not normal_ok:  # pragma: no cover - the solver is exact
        raise VerificationError("MSE: the computed a does not satisfy the normal equations Y^t(Ya - b) = 0")
    extras = {"b": b, "e": e, "J_s": J, "separates": separates}
    # the size from A, not prob.d: reading a row of an ExactRows builds all its Fractions
    n_entries = A.size if isinstance(A, np.ndarray) else len(A) * len(A[0])
    want_pinv = P["pinv"] if P["pinv"] is not None else n_entries <= PINV_ENTRIES_LIMIT
    if want_pinv:
        from exactlin.theory.penrose import verify_penrose

        Yp = pinv(Y, backend=backend)
        extras["penrose"] = verify_penrose(Y, Yp)
        if tuple(fdot(row, b) for row in Yp) != a:  # pragma: no cover - both routes are exact
            raise VerificationError("MSE: Y^+ b differs from the normal-equations solution")
        extras["Y_pinv"] = Yp
        extras["penrose_verified"] = True
    return make_run(P, prob, w=a, converged=True, reason="solved", extras=extras, seed=SEED)


# ---------------------------------------------------------------------------
# iterative rules


#: a given schedule eta replaces the default eta1/k
ETA_CONFLICTS = (
    Conflict("eta", "eta1", lambda g, e: "eta1" in g,
             "eta1 is eta(1) of the default schedule eta(k) = eta1/k, which a given eta replaces; give one of them "
             "(eta=c/k alone is the default schedule with eta1=c)"),
)

WH_PARAMS = (
    Param("eta", "schedule", None, "step size eta(k); default eta1/k (seed 003: eta(k) = eta(1)/k)"),
    Param("eta1", "rational", Fraction(1), "eta(1) of the default schedule eta(k) = eta(1)/k", positive),
    Param("b", "vector", None, "the margin vector b > 0 (default all ones)"),
    Param("a0", "vector", None, "start vector a(1) (default 0; seed 003: arbitrary)"),
    Param("theta", "rational", None, "stop when ||eta(k) Y^t(Y a - b)||^2 < theta^2 (Algorithm 1's criterion)",
          positive),
    Param("k_max", "int", None, "stop after this many iterations (reason max_steps). Default (None): the "
          f"deterministic budget ceil({WH_BATCH_VISITS:,} / n) iterations ({WH_BATCH_VISITS // 2000} on "
          f"2,000 samples, {WH_BATCH_VISITS // 100} on 100; max_epochs when n <= 10): an iteration costs 2n exact "
          "inner products with growing rationals "
          "(benchmarks/RESULTS.md, \"Default budgets\")", at_least(1)),
    Param("max_bits", "int", 4096, "stop when a numerator or denominator of a(k) exceeds this many bits (reason "
          "bit_limit; the default keeps a default run to seconds: raise it, or pass max_bits=None in Python, "
          "for longer exact runs)", at_least(1), none_is_value=True),
    MAX_SECONDS,
)

LMS_PARAMS = (
    Param("eta", "schedule", None, "step size eta(k); default eta1/k"),
    Param("eta1", "rational", Fraction(1), "eta(1) of the default schedule eta(k) = eta(1)/k", positive),
    Param("b", "vector", None, "the margin vector b > 0 (default all ones)"),
    Param("a0", "vector", None, "start vector a(1) (default 0)"),
    Param("theta", "rational", None, "stop when ||eta(k)(b_k - a^t y^k) y^k||^2 < theta^2 (Algorithm 10, line 4)",
          positive),
    Param("k_max", "int", None, "stop after this many single-sample steps (reason max_steps)", at_least(1)),
    Param("max_bits", "int", 4096, "stop when a numerator or denominator of a(k) exceeds this many bits (reason "
          "bit_limit; the default keeps a default run to seconds: raise it, or pass max_bits=None in Python, "
          "for longer exact runs)", at_least(1), none_is_value=True),
    MAX_SECONDS,
    Param("distance", "choice", "auto", "when the trace records ||a(k) - Y^+ b||^2: every step, auto (every step "
          "while a(k) has at most 256 bits, then at the end of each pass: the exact distance of huge iterates costs "
          "more than the step itself), or off", choices=("auto", "every", "off")),
)


def _schedule(P: dict) -> Schedule:
    if P["eta"] is not None:
        return P["eta"]
    eta1 = P["eta1"]
    return Schedule(lambda k, _e=eta1: _e / k, name="eta")


def _schedule_text(P: dict) -> str:
    return str(P["eta"]) if P["eta"] is not None else f"{P['eta1']}/k"


def _check_eta(v: Fraction, k: int) -> Fraction:
    if v <= 0:
        raise ParameterError(f"eta({k}) = {v} must be > 0", parameter="eta")
    return v


class GradientIteration(Body):
    """Widrow-Hoff's iteration for :func:`exactlin.engine.iterate.iterate` on one representation's vectors:
    a(k+1) = a(k) - eta(k) Y^t (Y a(k) - b), with J_s(a(k)) and ||a(k+1) - Y^+ b||^2 at every step; stops
    (criterion) when the gradient is 0 or ||eta(k) Y^t (Y a - b)||^2 < theta^2."""

    def __init__(self, rep, Y, b, a, a_star, eta, theta, rec):
        self.rep, self.eta, self.rec = rep, eta, rec
        self.Y = rep.matrix(Y)
        self.Yt = self.Y.T
        self.b, self.a, self.a_star = rep.vector(b), rep.vector(a), rep.vector(a_star)
        self.theta2 = None if theta is None else rep.scalar(theta * theta)
        gap = self.a - self.a_star
        self.dists = [rep.fraction(gap @ gap)]
        self.top_bits = self.bits = self.a.bits_above(0)

    def step(self, k: int) -> tuple[bool, str | None]:
        eta_k = _check_eta(self.eta(k), k)
        r = self.Y @ self.a - self.b  # Y a - b
        g = self.Yt @ r  # Y^t (Y a - b) = grad J_s / 2
        step = g * self.rep.scalar(eta_k)
        a_new = (self.a - step).normal()  # a(k+1) = a(k) - eta(k) Y^t (Y a(k) - b)
        J = r @ r
        gap = a_new - self.a_star
        dist = self.rep.fraction(gap @ gap)
        moved = not step.zero()
        self.rec.add(k, k, None, J, moved, self.a, a_new, eta=eta_k, J_s=J, dist2=dist)
        self.a = a_new
        self.dists.append(dist)
        self.bits = a_new.bits_above(0)
        self.top_bits = max(self.top_bits, self.bits)
        if g.zero() or self.theta2 is not None and step @ step < self.theta2:
            return moved, "criterion"
        return moved, None

    def J_s(self) -> Fraction:
        r = self.Y @ self.a - self.b
        return self.rep.fraction(r @ r)


class SingleSampleIteration(Body):
    """LMS's iteration for :func:`exactlin.engine.iterate.iterate` on one representation's vectors:
    a <- a + eta(k) (b_k - a^t y^k) y^k with y^k the samples in cyclic order; stops (criterion) when
    ||eta(k) (b_k - a^t y^k) y^k||^2 < theta^2.  The trace's ||a(k) - Y^+ b||^2 (``distance``) is computed when
    the trace is read."""

    def __init__(self, rep, Y, b, a, a_star, eta, theta, rec, *, distance: str, limit: int):
        self.rep, self.eta, self.rec, self.distance, self.limit = rep, eta, rec, distance, limit
        self.Y = rep.matrix(Y)
        self.n = len(b)
        self.rows = [self.Y.row(i) for i in range(self.n)]
        self.norms = [y @ y for y in self.rows]  # ||y^k||^2
        self.b = [rep.scalar(v) for v in b]
        self.a, self.a_star = rep.vector(a), rep.vector(a_star)
        self.theta2 = None if theta is None else rep.scalar(theta * theta)
        self.top_bits = self.bits = self.a.bits_above(0)
        self.bits_per_step: list[int] = []

    def dist2(self, a):
        gap = a - self.a_star
        return gap @ gap

    def step(self, k: int) -> tuple[bool, str | None]:
        i, n = (k - 1) % self.n, self.n
        eta_k = _check_eta(self.eta(k), k)
        y = self.rows[i]
        resid = self.b[i] - y @ self.a  # b_k - a^t y^k
        c = self.rep.scalar(eta_k) * resid
        a_new = (self.a + y * c).normal()  # a <- a + eta(k) (b_k - a^t y^k) y^k
        self.bits = bits = a_new.bits_above(0)
        self.bits_per_step.append(bits)
        self.top_bits = max(self.top_bits, bits)
        info = {"eta": eta_k, "bits": bits}
        if self.distance == "every" or self.distance == "auto" and (bits <= 256 or k % n == 0 or k == self.limit):
            info["dist2"] = lambda a=a_new: self.dist2(a)  # computed when the trace is read
        moved = c != 0
        self.rec.add(k, (k - 1) // n + 1, i, resid, moved, self.a, a_new, **info)
        self.a = a_new
        if self.theta2 is not None and c * c * self.norms[i] < self.theta2:  # ||c y^k||^2 < theta^2
            return moved, "criterion"
        return moved, None


@register("widrow-hoff", family="mse", seed=SEED, number="Widrow-Hoff gradient rule (MSE)",
          title="Widrow-Hoff batch gradient descent on J_s, eta(k) = eta(1)/k", params=WH_PARAMS,
          conflicts=ETA_CONFLICTS, bias_default="first", arithmetics=ARITHMETICS)
def widrow_hoff(X, y, P: Checked) -> Run:
    """The gradient rule for J_s of seed 003 (``003_ffe0ec08819b37d8.txt``, after "Pseudoinverse"):

        a(1) arbitrary,  a(k+1) = a(k) - eta(k) Y^t (Y a(k) - b),  eta(k) = eta(1)/k,

    which, the notes say, converges to a limiting a with Y^t(Ya - b) = 0, i.e. to the MSE solution.
    Every iterate is exact; the trace records for each k the step eta(k), J_s(a(k)), and
    ``dist2`` = ||a(k) - Y^+ b||^2 (exact), showing a(k) approach Y^+ b.  One iteration is one epoch.

    Stops: ``criterion`` when ||eta(k) Y^t(Y a - b)||^2 < theta^2 (theta given) or the gradient is 0
    (then a(k) = a minimiser exactly); ``max_steps`` at k_max; ``max_epochs``; ``bit_limit`` when a
    numerator or denominator exceeds ``max_bits``.  ``extras["max_bits"]``: the largest bit length seen.

    >>> r = widrow_hoff([(1, 2), (2, 0), (3, 1), (2, 3)], [1, 1, -1, -1], k_max=3, eta1="1/40")
    >>> r.reason, r.steps, r.extras["dist2"][-1] < r.extras["dist2"][0]
    ('max_steps', 3, True)
    """
    prob = P.problem(X, y)
    Y, n, d = prob.Z, prob.n, prob.d
    b = _margin_vector(P["b"], n)
    a_star = pinv_solve(Y, b, backend=arithmetic_backend(P.arithmetic)[0])
    rep = vectors(P.arithmetic)
    tracer = P.tracer(d)
    rec = Recorder(tracer, rep)
    body = GradientIteration(rep, Y, b, start_vector(P["a0"], d, "a0"), a_star, _schedule(P), P["theta"], rec)
    bounds = P.bounds()  # max_bits is checked by the loop, after each step
    budget = bounds.max_steps = batch_step_limit(P["k_max"], n, WH_BATCH_VISITS)  # the default when k_max is None
    k, last, reason = iterate(body, bounds=bounds, limit=min(budget, P.max_epochs), budget=budget,
                              max_bits=P["max_bits"], bits="after", work=n)
    rec.finish()
    P.record_arithmetic(rep.name, {rep.name: k})
    extras = {"b": b, "a_star": a_star, "dist2": body.dists, "max_bits": body.top_bits, "eta": _schedule_text(P),
              "last_update_step": last, "J_s": body.J_s()}
    # a step with a zero gradient moves nothing and stops the loop: steps 1..last are exactly the updates
    return make_run(P, prob, w=rep.fractions(body.a), converged=reason == "criterion", reason=reason, updates=last,
                    epochs=k, steps=k, tracer=tracer, extras=extras, seed=SEED, params={"k_max": budget})


@register("lms", family="mse", seed=SEED, number="Algorithm 10", title="LMS (Widrow-Hoff single-sample rule)",
          params=LMS_PARAMS, conflicts=ETA_CONFLICTS, bias_default="first", arithmetics=ARITHMETICS)
def lms(X, y, P: Checked) -> Run:
    """Algorithm 10 (LMS) of seed 003 (``003_ffe0ec08819b37d8.txt``), exactly:

        a(1) arbitrary;  k <- k + 1;  a <- a + eta(k) (b_k - a^t y^k) y^k
        until ||eta(k) (b_k - a^t y^k) y^k|| < theta

    with y^k the normalized samples in cyclic order (k-th step uses sample (k-1) mod n) and
    eta(k) = eta(1)/k by default.  The criterion is decided exactly on squared norms (< theta^2).
    The iterates' numerators and denominators grow with k: ``extras["max_bits"]`` is the largest bit
    length reached, ``extras["bits"]`` the bit length after every step, and ``max_bits`` stops the run
    with reason ``bit_limit``.  The trace shows ``dist2`` = ||a(k) - Y^+ b||^2 exactly (``distance``: at every
    step, or by default at every step while the numbers are small and then once per pass).
    Other stops: ``max_steps`` (k_max single steps), ``max_epochs`` (passes through the data).

    >>> r = lms([(1, 2), (2, 0), (3, 1), (2, 3)], [1, 1, -1, -1], k_max=8, eta1="1/10")
    >>> r.reason, r.steps, r.extras["max_bits"] > 0
    ('max_steps', 8, True)
    """
    prob = P.problem(X, y)
    Y, n, d = prob.Z, prob.n, prob.d
    b = _margin_vector(P["b"], n)
    a_star = pinv_solve(Y, b, backend=arithmetic_backend(P.arithmetic)[0])
    k_max = P["k_max"]
    limit = P.max_epochs * n if k_max is None else min(k_max, P.max_epochs * n)
    rep = vectors(P.arithmetic)
    tracer = P.tracer(d)
    rec = Recorder(tracer, rep)
    body = SingleSampleIteration(rep, Y, b, start_vector(P["a0"], d, "a0"), a_star, _schedule(P), P["theta"], rec,
                                 distance=P["distance"], limit=limit)
    bounds = P.bounds()  # max_bits is checked by the loop, after each step
    k, last, reason = iterate(body, bounds=bounds, limit=limit, budget=math.inf if k_max is None else k_max,
                              max_bits=P["max_bits"], bits="after")
    rec.finish()
    P.record_arithmetic(rep.name, {rep.name: k})
    extras = {"b": b, "a_star": a_star, "dist2_final": rep.fraction(body.dist2(body.a)), "max_bits": body.top_bits,
              "bits": body.bits_per_step, "eta": _schedule_text(P), "last_update_step": last}
    return make_run(P, prob, w=rep.fractions(body.a), converged=reason == "criterion", reason=reason, updates=k,
                    epochs=(k - 1) // n + 1 if k else 0, steps=k, tracer=tracer, extras=extras, seed=SEED)


__all__ = ["mse", "widrow_hoff", "lms", "ExactVector"]
