"""Rational iterates on python-flint (issue 14, item 2): the loops of Ho-Kashyap (and Modifications I, II),
Widrow-Hoff and LMS on flint numbers instead of tuples of Fractions (Widrow-Hoff on ``fmpq_mat`` columns;
Ho-Kashyap and LMS on integer ``fmpz_mat`` numerators over one least common denominator, :class:`QV`).

Each function here runs exactly the iteration of the readable ``Fraction`` loop it replaces (in
``exactlin.algorithms.ho_kashyap`` and ``exactlin.algorithms.mse``), with the same tests in the same order, and
hands back the same values: every flint number that reaches a Run (the iterates, b, e, the trace's scores and
vectors, ``max_bits``) is converted back to a reduced ``Fraction`` at the boundary, and the bit-length budget
sees the same numbers (the bit length of the reduced numerator and denominator,
:func:`exactlin.exact.numbers.bit_length`: ``fmpq.height_bits()`` on reduced fmpq, :func:`bits_above` on a
:class:`QV`, exact by the bound proved at the Ho-Kashyap section), so every stop happens at the same step.

The readable loops stay the reference: ``ENABLED = False`` (module switch, as ``_fast.ENABLED``) runs them, and
``tests/algorithms/test_flint_mse.py`` checks that both give the same Run, field for field.  The trace is
supported in every mode: Widrow-Hoff converts a step the tracer records at once; Ho-Kashyap and LMS keep the
step's integer columns (the Tracer's own record and vector policy, :class:`_Rec`) and build the Fraction Steps
the first time the trace is read (:class:`exactlin.model.run.LazySteps`), equal to the reference's.
"""

from __future__ import annotations

import math
from fractions import Fraction

import flint

from exactlin.algorithms import _loop
from exactlin.model.run import LazySteps, Step

#: switch the flint loops off (the readable Fraction loops run instead); for the tests and the benchmark
ENABLED = True

fmpq = flint.fmpq
fmpq_mat = flint.fmpq_mat
_new = object.__new__


def q(v) -> flint.fmpq:
    """A Fraction or int as an fmpq."""
    if isinstance(v, int):
        return fmpq(v)
    return fmpq(v.numerator, v.denominator)


def col(vec) -> flint.fmpq_mat:
    """A vector of rationals as an n x 1 fmpq_mat."""
    return fmpq_mat(len(vec), 1, [q(v) for v in vec])


def mat(rows) -> flint.fmpq_mat:
    """Rows of rationals (at least one row, one column) as an fmpq_mat."""
    return fmpq_mat(len(rows), len(rows[0]), [q(v) for row in rows for v in row])


def frac(x: flint.fmpq) -> Fraction:
    """An fmpq as a Fraction; flint keeps it reduced with a positive denominator, so no gcd is needed."""
    f = _new(Fraction)
    f._numerator = int(x.p)
    f._denominator = int(x.q)
    return f


def fracs(M: flint.fmpq_mat) -> tuple[Fraction, ...]:
    """The entries of a column (or any matrix, row by row) as a tuple of Fractions."""
    return tuple(frac(x) for x in M.entries())


def bits(M: flint.fmpq_mat) -> int:
    """max_bit_length of the entries (the largest bit length of a reduced numerator or denominator)."""
    return max((x.height_bits() for x in M.entries()), default=0)


def sq(M: flint.fmpq_mat) -> flint.fmpq:
    """||M||^2 of a column."""
    return (M.transpose() * M)[0, 0]


def is_zero(M: flint.fmpq_mat) -> bool:
    return all(x == 0 for x in M.entries())


def absolute(M: flint.fmpq_mat) -> flint.fmpq_mat:
    """|M| entrywise (a column)."""
    return fmpq_mat(M.nrows(), 1, [abs(x) for x in M.entries()])


def _recording(tracer) -> bool:
    """Whether ``tracer.add`` records the next step (else it only marks the trace incomplete)."""
    return tracer.mode is True or (tracer.mode is None and len(tracer.steps) < _loop.TRACE_STEP_LIMIT)


# ---------------------------------------------------------------------------------------------------
# Ho-Kashyap (exactlin.algorithms.ho_kashyap._hk_loop / _hk_listing_loop)
#
# Ho-Kashyap's b, e and a share one large denominator (that of Y^+ to the power k): as fmpq columns every
# product and comparison would reduce each entry on its own (flint's fmpq_mat products of such columns cost
# 50 ms on 100 x 10); held as integer numerators over one common denominator, Y a, e and Y^+ b are integer
# matrix products and the tests are signs of integers.  No entry is reduced on its own while the loop runs:
#
# * a and b are kept in the canonical form N / L with L the LEAST common denominator (:meth:`QV.canon`):
#   L / gcd(L, N_1, ..., N_n) is the least common denominator of the fractions N_i / L (it divides L; and if
#   N_i / L = M_i / L' for all i with L' | L then L / L' divides L and every N_i).  The chained gcd costs one
#   gcd of full-size numbers (L with N_1) and then only reductions of N_i modulo a short number, where
#   reducing every entry costs n full-size gcds.  Two canonical columns are equal iff their L and N are
#   equal (the representation of a column's values is unique), so the "changed" test compares integers.
# * the bit budget (:func:`bits_above`): the reduced numerator of N_i / L is |N_i| / g_i and its reduced
#   denominator L / g_i with g_i = gcd(N_i, L) >= 1, so bit_length(N_i / L) <= u_i = max(bitlen N_i, bitlen L)
#   (bit lengths are monotone).  The running maximum max(top, bits(a), bits(b)) is therefore exact if g_i is
#   computed only for the entries with u_i above the running maximum, taken in decreasing order of u_i and
#   stopping at the first u_i <= the maximum so far (no later entry can raise it): usually one or two gcds.
# * the trace keeps the columns (immutable integer matrices, shared between consecutive steps) and builds its
#   Steps, with reduced Fractions, the first time it is read (:class:`exactlin.model.run.LazySteps`); the
#   record and vector policy is the Tracer's own (:class:`_Rec`).


class QV:
    """A column of rationals N / L: ``N`` an fmpz_mat column, ``L`` > 0 an fmpz (a common denominator, not
    necessarily the least; :meth:`canon` makes it the least)."""

    __slots__ = ("N", "L")

    def __init__(self, N, L):
        self.N, self.L = N, L

    @classmethod
    def of(cls, vec) -> QV:
        N, L = col(vec).numer_denom()  # L the lcm of the reduced denominators: canonical
        return cls(N, L)

    def canon(self) -> QV:
        """The same column over its least common denominator: divide N and L by gcd(L, N_1, ..., N_n)."""
        g = self.L
        ent = self.N.entries()
        for x in ent:
            g = g.gcd(x)
            if g == 1:
                return self
        return QV(flint.fmpz_mat(len(ent), 1, [x // g for x in ent]), self.L // g)

    def fq(self) -> flint.fmpq_mat:
        """The column as a reduced fmpq_mat."""
        return fmpq_mat(self.N) / self.L

    def fracs(self) -> tuple[Fraction, ...]:
        """The entries as reduced Fractions."""
        L = self.L
        return tuple(frac(fmpq(x, L)) for x in self.N.entries())

    def fracs_from(self, prev: QV, prev_fracs) -> tuple[Fraction, ...]:
        """:meth:`fracs`, reusing ``prev_fracs`` (the Fractions of ``prev``, a column of the same length) where
        the value is unchanged (N_i / L = P_i / M iff N_i M = P_i L: two products instead of a gcd of full-size
        numbers; Ho-Kashyap's b keeps every entry whose e_i <= 0)."""
        L, M = self.L, prev.L
        return tuple(f if x * M == px * L else frac(fmpq(x, L))
                     for x, px, f in zip(self.N.entries(), prev.N.entries(), prev_fracs))

    def _common(self, other):
        if self.L == other.L:
            return self.N, other.N, self.L
        g = self.L.gcd(other.L)
        return self.N * (other.L // g), other.N * (self.L // g), self.L // g * other.L

    def __add__(self, other: QV) -> QV:
        x, y, L = self._common(other)
        return QV(x + y, L)

    def __sub__(self, other: QV) -> QV:
        x, y, L = self._common(other)
        return QV(x - y, L)

    def __mul__(self, c: flint.fmpq) -> QV:
        return QV(self.N * c.p, self.L * c.q)

    def __abs__(self) -> QV:
        return QV(flint.fmpz_mat(self.N.nrows(), 1, [abs(x) for x in self.N.entries()]), self.L)

    def same(self, other: QV) -> bool:
        """Equality of two CANONICAL columns (:meth:`canon`): their integers are equal."""
        return self.L == other.L and self.N == other.N


def bits_above(V: QV, top: int) -> int:
    """max(top, max_bit_length of V's entries), exactly, reducing only the entries that could raise it (see
    the comment above: bit_length(N_i / L) <= max(bitlen N_i, bitlen L))."""
    L = V.L
    bl = L.bit_length()
    ent = V.N.entries()
    if bl > top:
        cand = ent
    else:
        cand = [x for x in ent if x.bit_length() > top]
        if not cand:
            return top
    cand = sorted(cand, key=lambda x: x.bit_length(), reverse=True)
    for x in cand:
        if max(x.bit_length(), bl) <= top:
            break
        g = x.gcd(L)
        if g == 1:
            b = max(x.bit_length(), bl)
        else:
            b = max((x // g).bit_length(), (L // g).bit_length())
        if b > top:
            top = b
    return top


class QM:
    """A rational matrix as integer numerators ``N`` (fmpz_mat) over one denominator ``D``; ``M * v`` for a
    :class:`QV` v."""

    __slots__ = ("N", "D")

    def __init__(self, rows):
        self.N, self.D = mat(rows).numer_denom()

    def __mul__(self, v: QV) -> QV:
        return QV(self.N * v.N, self.D * v.L)


def qmat(rows) -> QM:
    return QM(rows)


class _Rec:
    """The Tracer's policy (``_loop.Tracer.add``) on compact records: which steps are recorded, which keep
    vectors, when the trace is incomplete; :meth:`finish` hands the tracer the lazily built Steps."""

    __slots__ = ("tracer", "records", "_limit")

    def __init__(self, tracer, cap=math.inf):
        self.tracer = tracer
        self.records: list = []
        self._limit = math.inf if tracer.mode is True else (
            0 if tracer.mode is False else min(cap, _loop.TRACE_STEP_LIMIT))

    def recording(self) -> bool:
        if len(self.records) < self._limit:
            return True
        if self.tracer.mode is None:
            self.tracer.complete = False
        return False

    def keep_vectors(self) -> bool:
        return self.tracer.mode is True or (len(self.records) + 1) * self.tracer.d <= _loop.TRACE_VECTOR_LIMIT

    def finish(self, build_one) -> None:
        if self.tracer.mode is False:
            return
        records = self.records

        def build():
            cache: dict = {}

            def conv(V, prev=None):
                if V is None:
                    return None
                got = cache.get(id(V))
                if got is None:
                    if prev is not None and id(prev) in cache:  # reuse the Fractions of unchanged entries
                        fr = V.fracs_from(prev, cache[id(prev)][1])
                    else:
                        fr = V.fracs()
                    got = cache[id(V)] = (V, fr)  # V kept alive with its id
                return got[1]

            return [build_one(r, conv) for r in records]

        self.tracer.steps = LazySteps(len(records), build)


def _hk_step(r, conv) -> Step:
    """The Step ``tracer.add(k, k, None, min(Y a), changed, a, a_new, b=b, e=e, b_after=b_new)`` records."""
    k, lo, L, changed, A, A_new, B, E, B_new = r
    return Step(k, k, None, frac(fmpq(lo, L)), changed, conv(A), conv(A_new),
                {"b": conv(B), "e": conv(E), "b_after": conv(B_new, B)})


def _gordan_possible(E: QV, ZtN) -> bool:
    """e <= 0, e != 0 and Y^t e = 0 (gordan_from_error's conditions), on the integer numerators."""
    ent = E.N.entries()
    return not any(x > 0 for x in ent) and any(x != 0 for x in ent) and all(x == 0 for x in (ZtN * E.N).entries())


def _hk_verdict(Z, ZtN, Ya, A, E, verify):
    """The Fraction loop's ``_verdict``: the cheap tests (Y a > 0; e <= 0, e != 0, Y^t e = 0) on integers,
    then the independent verifier on the Fractions."""
    if not all(x > 0 for x in Ya.N.entries()) and not _gordan_possible(E, ZtN):
        return None, None
    v = verify(Z, A.fracs(), E.fracs())
    if v.verdict == "undecided":
        return None, None
    return v.verdict, v.certificate


def _within(E: QV, bmin: flint.fmpq) -> bool:
    """|e_i| <= b_min for every i."""
    lim = bmin.p * E.L
    return all(abs(x) * bmin.q <= lim for x in E.N.entries())


def hk_loop(Z, tracer, bounds, a, b, step, *, limit, k_budget, b_min, max_bits, verify):
    """``_hk_loop``'s iteration (stop=separator) with a, b, e as :class:`QV` columns; ``step(A, B, E, absE)``
    is the procedure's update on them.  Returns (a, b, e, k, last, reason, verdict, cert, top_bits) with
    Fractions."""
    Zm = QM(Z)
    ZtN = Zm.N.transpose()
    A, B = QV.of(a), QV.of(b)
    bmin = None if b_min is None else q(b_min)
    top_bits = bits_above(B, bits_above(A, 0))
    rec = _Rec(tracer)
    k = last = 0
    while True:
        Ya = Zm * A
        E = Ya - B
        verdict, cert = _hk_verdict(Z, ZtN, Ya, A, E, verify)
        if verdict == "separable":
            reason = "converged"
            break
        if verdict == "not_separable":
            reason = "not_separable"
            break
        if bmin is not None and _within(E, bmin):
            reason = "criterion"
            break
        if k >= limit:
            reason = "max_steps" if k >= k_budget else "max_epochs"
            break
        if max_bits is not None and top_bits > max_bits:
            reason = "bit_limit"
            break
        if bounds.out_of_time():
            reason = "time_limit"
            break
        if bounds.progress is not None and k:
            bounds.tick(k, k, top_bits, work=len(Z))
        k += 1
        A_new, B_new = step(A, B, E, abs(E))
        A_new, B_new = A_new.canon(), B_new.canon()
        changed = not (B_new.same(B) and A_new.same(A))
        if changed:
            last = k
        if rec.recording():
            vec = rec.keep_vectors()
            rec.records.append((k, min(Ya.N.entries()), Ya.L, changed, A if vec else None, A_new if vec else None,
                                B, E, B_new))
        A, B = A_new, B_new
        top_bits = bits_above(B, bits_above(A, top_bits))
    rec.finish(_hk_step)
    return A.fracs(), B.fracs(), E.fracs(), k, last, reason, verdict, cert, top_bits


def hk_listing_loop(Z, tracer, bounds, a, b, step, *, limit, k_max, b_min, max_bits, verify,
                    certificate_stops=True):
    """``_hk_listing_loop``'s iteration (stop=b_min, Algorithm 11 as listed) on :class:`QV` columns.  Returns
    (a, b, e, k, last, reason, verdict, cert, top_bits, separator_at) with Fractions.  ``certificate_stops=False``
    (the printed listing) records the first verified certificate and runs on."""
    Zm = QM(Z)
    ZtN = Zm.N.transpose()
    A, B = QV.of(a), QV.of(b)
    bmin = q(b_min)
    top_bits = bits_above(B, bits_above(A, 0))
    rec = _Rec(tracer)
    k = last = 0
    separator_at = None
    cert = None
    E = Zm * A - B
    while True:
        if k >= limit:
            reason = "max_steps" if k_max is not None and k >= k_max else "max_epochs"
            break
        if max_bits is not None and top_bits > max_bits:
            reason = "bit_limit"
            break
        if bounds.out_of_time():
            reason = "time_limit"
            break
        k += 1
        Ya = Zm * A
        E = Ya - B  # e <- Y a - b
        if separator_at is None and all(x > 0 for x in Ya.N.entries()):
            separator_at = k
        if cert is None and _gordan_possible(E, ZtN):
            v = verify(Z, A.fracs(), E.fracs())
            if v.verdict == "not_separable":
                cert = v.certificate
                if certificate_stops:
                    if rec.recording():
                        Av = A if rec.keep_vectors() else None
                        rec.records.append((k, min(Ya.N.entries()), Ya.L, False, Av, Av, B, E, B))
                    reason = "not_separable"
                    break
        A_new, B_new = step(A, B, E, abs(E))
        A_new, B_new = A_new.canon(), B_new.canon()
        changed = not (B_new.same(B) and A_new.same(A))
        if changed:
            last = k
        if rec.recording():
            vec = rec.keep_vectors()
            rec.records.append((k, min(Ya.N.entries()), Ya.L, changed, A if vec else None, A_new if vec else None,
                                B, E, B_new))
        A, B = A_new, B_new
        top_bits = bits_above(B, bits_above(A, top_bits))
        if _within(E, bmin):  # line 7
            reason = "criterion"
            break
    rec.finish(_hk_step)
    if cert is not None:
        verdict = "not_separable"
    else:
        Ya = Zm * A
        verdict, cert = _hk_verdict(Z, ZtN, Ya, A, Ya - B, verify)
        verdict = verdict or "undecided"
    return A.fracs(), B.fracs(), E.fracs(), k, last, reason, verdict, cert, top_bits, separator_at


# ---------------------------------------------------------------------------------------------------
# Widrow-Hoff and LMS (exactlin.algorithms.mse)


def widrow_hoff_loop(Y, b, a, a_star, eta, check_eta, tracer, bounds, *, limit, k_budget, theta, max_bits):
    """``widrow_hoff``'s iteration on flint columns.  Returns (a, k, last, reason, converged, dists, top_bits,
    J_s) with Fractions."""
    n = len(Y)
    Yq = mat(Y)
    Yt = Yq.transpose()
    B, A, S = col(b), col(a), col(a_star)
    th2 = None if theta is None else q(theta) * q(theta)
    dists = [frac(sq(A - S))]
    top_bits = bits(A)
    k = last = 0
    reason, converged = None, False
    while reason is None:
        if k >= limit:
            reason = "max_steps" if k >= k_budget else "max_epochs"
            break
        if bounds.out_of_time():
            reason = "time_limit"
            break
        if bounds.progress is not None and k:
            bounds.tick(k, k, top_bits, work=n)
        k += 1
        ek = check_eta(eta(k), k)
        R = Yq * A - B  # Y a - b
        G = Yt * R  # Y^t (Y a - b)
        step = G * q(ek)
        A_new = A - step
        J = frac(sq(R))
        dist = frac(sq(A_new - S))
        moved = not is_zero(step)
        if _recording(tracer):
            vec = tracer.keep_vectors()
            tracer.add(k, k, None, J, moved, fracs(A) if vec else None, fracs(A_new) if vec else None, eta=ek,
                       J_s=J, dist2=dist)
        else:
            tracer.add(k, k, None, J, moved)
        if A_new != A:
            last = k
        A = A_new
        dists.append(dist)
        bk = bits(A)
        top_bits = max(top_bits, bk)
        if is_zero(G):
            reason, converged = "criterion", True
            break
        if th2 is not None and sq(step) < th2:
            reason, converged = "criterion", True
            break
        if max_bits is not None and bk > max_bits:
            reason = "bit_limit"
    J_s = frac(sq(Yq * A - B))
    return fracs(A), k, last, reason, converged, dists, top_bits, J_s


def lms_loop(Y, b, a, a_star, eta, check_eta, tracer, bounds, *, limit, k_max, theta, max_bits, dist_mode):
    """``lms``'s iteration (one sample per step, cyclic) with a as a canonical :class:`QV` column N / L and the
    samples as integer rows N_i over one denominator D, no reduction of single entries.  With
    b_i = b_p / b_q, eta(k) = e_p / e_q and t = N_i . N (an integer), a^t y^k = t / (D L), so

        r = b_p D L - b_q t,   b_k - a^t y^k = r / (b_q D L),   c = eta(k) (b_k - a^t y^k) = e_p r / (e_q b_q D L),
        a + c y^k = (e_q b_q D^2 N + e_p r N_i) / (e_q b_q D^2 L)          (then :meth:`QV.canon`),

    ``c != 0`` iff r != 0, and the criterion ||c y^k||^2 < theta^2 (theta = h_p / h_q) is
    (e_p r)^2 ||N_i||^2 h_q^2 < h_p^2 (e_q b_q D^2 L)^2 in integers.  The bit length after each step
    (``extras["bits"]``, exact at every step) is :func:`bits_above` (a, 0): only the entries whose unreduced
    size could exceed the largest reduced size found so far are reduced.  The trace (residual, vectors, dist2)
    is built when read.  Returns (a, k, last, reason, converged, bits_per_step, top_bits, dist2_final) with
    Fractions."""
    n = len(Y)
    Ym = QM(Y)
    D = Ym.D
    d = Ym.N.ncols()
    rows = [flint.fmpz_mat(1, d, [Ym.N[i, j] for j in range(d)]) for i in range(n)]
    cols = [r.transpose() for r in rows]
    norms = [(r * c)[0, 0] for r, c in zip(rows, cols)]  # ||N_i||^2
    D2 = D * D
    Bpq = [(flint.fmpz(v.numerator), flint.fmpz(v.denominator)) for v in map(Fraction, b)]
    A, S = QV.of(a), col(a_star)
    th = None if theta is None else (flint.fmpz(Fraction(theta).numerator) ** 2,
                                     flint.fmpz(Fraction(theta).denominator) ** 2)
    top_bits = bits_above(A, 0)
    bits_per_step: list[int] = []
    rec = _Rec(tracer, 10_000)  # as lms() has it
    k = last = 0
    reason, converged = None, False
    while True:
        if k >= limit:
            reason = "max_steps" if k_max is not None and k >= k_max else "max_epochs"
            break
        if bounds.out_of_time():
            reason = "time_limit"
            break
        if bounds.progress is not None and k:
            bounds.tick(k, k, top_bits)
        i = k % n
        k += 1
        ek = check_eta(eta(k), k)
        ep, eq = flint.fmpz(ek.numerator), flint.fmpz(ek.denominator)
        bp, bq = Bpq[i]
        L = A.L
        t = (rows[i] * A.N)[0, 0]
        DL = D * L
        r = bp * DL - bq * t
        mult = eq * bq * D2
        if r != 0:
            A_new = QV(A.N * mult + cols[i] * (ep * r), mult * L).canon()
        else:
            A_new = A
        bk = bits_above(A_new, 0)
        bits_per_step.append(bk)
        top_bits = max(top_bits, bk)
        if rec.recording():
            dist = dist_mode == "every" or (dist_mode == "auto" and (bk <= 256 or k % n == 0 or k == limit))
            vec = rec.keep_vectors()
            rec.records.append((k, i, r, bq * DL, r != 0, A if vec else None, A_new if vec else None, ek, bk,
                                A_new if dist else None))
        if r != 0:
            last = k
        A = A_new
        if th is not None and (ep * r) ** 2 * norms[i] * th[1] < th[0] * (mult * L) ** 2:
            reason, converged = "criterion", True
            break
        if max_bits is not None and bk > max_bits:
            reason = "bit_limit"
            break

    def one(rc, conv):
        k, i, rn, rd, moved, Ab, Aa, ek, bk, Ad = rc
        info = {"eta": ek, "bits": bk}
        if Ad is not None:
            info["dist2"] = frac(sq(Ad.fq() - S))
        return Step(k, (k - 1) // n + 1, i, frac(fmpq(rn, rd)), moved, conv(Ab), conv(Aa), info)

    rec.finish(one)
    return A.fracs(), k, last, reason, converged, bits_per_step, top_bits, frac(sq(A.fq() - S))


__all__ = ["ENABLED", "hk_loop", "hk_listing_loop", "widrow_hoff_loop", "lms_loop"]
