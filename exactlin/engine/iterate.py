"""The iterate loop, written once (issue 22): Ho-Kashyap (Algorithm 11 and Modifications I, II, and the listing
as printed), Widrow-Hoff and LMS of seed 003 (``003_ffe0ec08819b37d8.txt``) run their rules here, over one small
vector arithmetic with interchangeable exact representations.

A rule is written once, as the notes print it, on vectors ``v`` and matrices ``M`` of one representation::

    v + w, v - w, v * c, v / m, abs(v)      entrywise (c a scalar of the representation or an int, m an int)
    v @ w                                   the inner product, a scalar
    M @ v, M.T, M.row(i)                    matrix times column, the transpose, row i as a column
    v.normal()                              the same column in its normal form (one per value; see same)
    v.same(w)                               equality of two columns in normal form
    v.positive(), v.nonpositive(), v.zero() every entry > 0, <= 0, = 0
    v.min(), v.max_abs()                    min_i v_i and max_i |v_i|, scalars
    v.bits_above(top)                       max(top, the largest bit length of a reduced numerator or denominator)

and the representation itself (:class:`FractionVectors`, :class:`FlintVectors`) makes them from Fractions and
gives them back: ``vector(values)``, ``matrix(rows)``, ``scalar(x)``, ``fraction(s)``, ``fractions(v)``.

* ``"fraction"``: tuples of Fractions (:class:`FVec`, :class:`FMat`), the readable reference;
* ``"flint"``: python-flint integers, a column as integer numerators over one common denominator
  (:class:`QV`, :class:`QM`), the scalars unreduced p / q (:class:`QS`); the default (``"auto"``).

Every representation gives the same Run field for field: every number that reaches a Run is a reduced
``Fraction`` (:meth:`FlintVectors.fractions`), every test is the same exact comparison, the bit budget sees the
same bit lengths (:meth:`QV.bits_above` is exact), so every stop happens at the same step
(``tests/engine/test_iterate.py`` runs every rule on every representation and compares the whole Runs).

:func:`iterate` is the loop (budgets, clock, progress, the step counter and the last update) and
:class:`Recorder` the trace (the Tracer's own record and vector policy; the Steps, with Fractions, are built the
first time the trace is read, :class:`exactlin.model.run.LazySteps`).
"""

from __future__ import annotations

import operator
from fractions import Fraction

import flint

from exactlin.exact.numbers import fdot, max_bit_length
from exactlin.model.run import LazySteps, Step

__all__ = ["ARITHMETICS", "vectors", "FractionVectors", "FlintVectors", "FVec", "FMat", "QV", "QM", "QS", "Recorder",
           "Body", "iterate"]

#: the representations the iterate rules compute in (``arithmetic=``; "auto" is flint)
ARITHMETICS = ("fraction", "flint")


def vectors(arithmetic: str) -> FractionVectors | FlintVectors:
    """The representation ``arithmetic=`` asks for ("auto": flint, the fast one)."""
    return FractionVectors() if arithmetic == "fraction" else FlintVectors()


# ---------------------------------------------------------------------------------------------------
# the reference: tuples of Fractions


class FVec(tuple):
    """A column of Fractions (a tuple), with the vector arithmetic of the protocol."""

    __slots__ = ()

    def __add__(self, other):
        return FVec(map(operator.add, self, other))

    def __sub__(self, other):
        return FVec(map(operator.sub, self, other))

    def __mul__(self, c):
        return FVec(v * c for v in self)

    __rmul__ = __mul__

    def __truediv__(self, m):
        return FVec(v / m for v in self)

    def __abs__(self):
        return FVec(map(abs, self))

    def __matmul__(self, other) -> Fraction:
        return fdot(self, other)

    def normal(self):
        return self

    def same(self, other) -> bool:
        return tuple.__eq__(self, other)

    def positive(self) -> bool:
        return all(v > 0 for v in self)

    def nonpositive(self) -> bool:
        return all(v <= 0 for v in self)

    def zero(self) -> bool:
        return not any(self)

    def min(self) -> Fraction:
        return min(self)

    def max_abs(self) -> Fraction:
        return max(map(abs, self))

    def bits_above(self, top: int) -> int:
        return max(top, max_bit_length(self))


class FMat:
    """A matrix as rows of Fractions; ``M @ v`` multiplies a column."""

    __slots__ = ("rows",)

    def __init__(self, rows):
        self.rows = tuple(tuple(r) for r in rows)

    def __matmul__(self, v) -> FVec:
        return FVec(fdot(r, v) for r in self.rows)

    @property
    def T(self) -> FMat:
        return FMat(zip(*self.rows))

    def row(self, i: int) -> FVec:
        return FVec(self.rows[i])


class FractionVectors:
    """The reference representation: vectors are tuples of Fractions, scalars Fractions."""

    name = "fraction"
    Vector = FVec

    @staticmethod
    def vector(values) -> FVec:
        return FVec(values)

    @staticmethod
    def matrix(rows) -> FMat:
        return FMat(rows)

    @staticmethod
    def scalar(x) -> Fraction:
        return Fraction(x)

    @staticmethod
    def fraction(s) -> Fraction:
        return s

    @staticmethod
    def fractions(v, prev=None, prev_fracs=None) -> tuple[Fraction, ...]:
        return tuple(v)


# ---------------------------------------------------------------------------------------------------
# python-flint: integer numerators over one common denominator
#
# Ho-Kashyap's b, e and a share one large denominator (that of Y^+ to the power k): as fmpq columns every product
# and comparison would reduce each entry on its own (flint's fmpq_mat products of such columns cost 50 ms on
# 100 x 10); held as integer numerators over one common denominator, Y a, e and Y^+ b are integer matrix products
# and the tests are signs of integers.  No entry is reduced on its own while a loop runs:
#
# * a column's normal form is N / L with L the LEAST common denominator (:meth:`QV.normal`):
#   L / gcd(L, N_1, ..., N_n) is the least common denominator of the fractions N_i / L (it divides L; and if
#   N_i / L = M_i / L' for all i with L' | L then L / L' divides L and every N_i).  The chained gcd costs one gcd
#   of full-size numbers (L with N_1) and then only reductions of N_i modulo a short number, where reducing every
#   entry costs n full-size gcds.  Two normal columns are equal iff their L and N are equal (the representation of
#   a column's values is unique), so the "changed" test compares integers.
# * the bit budget (:meth:`QV.bits_above`): the reduced numerator of N_i / L is |N_i| / g_i and its reduced
#   denominator L / g_i with g_i = gcd(N_i, L) >= 1, so bit_length(N_i / L) <= u_i = max(bitlen N_i, bitlen L)
#   (bit lengths are monotone).  The running maximum max(top, bits(v)) is therefore exact if g_i is computed only
#   for the entries with u_i above the running maximum, taken in decreasing order of u_i and stopping at the first
#   u_i <= the maximum so far (no later entry can raise it): usually one or two gcds.
# * the signs and comparisons: L > 0, so v_i > 0 iff N_i > 0, and min/max are taken on the numerators.
# * a scalar (an inner product, min v, max |v|) is an unreduced p / q (:class:`QS`), reduced once when it becomes
#   a Fraction (an fmpq, which flint keeps reduced with a positive denominator: :func:`frac` needs no gcd).
# * sums: when one denominator divides the other (e = Y a - b has a multiple of a's and b's denominators, and so
#   has every vector the rules add to a or b) a division finds the common one, else a gcd (:meth:`QV._common`).
# * the trace keeps the columns (immutable integer matrices, shared between consecutive steps) and builds its
#   Fractions the first time it is read (:class:`Recorder`).

fmpq = flint.fmpq
fmpz = flint.fmpz
fmpz_mat = flint.fmpz_mat
_new = object.__new__


def q(v) -> flint.fmpq:
    """A Fraction or int as an fmpq."""
    if isinstance(v, int):
        return fmpq(v)
    return fmpq(v.numerator, v.denominator)


def frac(x: flint.fmpq) -> Fraction:
    """An fmpq as a Fraction; flint keeps it reduced with a positive denominator, so no gcd is needed."""
    f = _new(Fraction)
    f._numerator = int(x.p)
    f._denominator = int(x.q)
    return f


class QS:
    """A rational p / q with q > 0, kept unreduced: the flint representation's scalars (an inner product, min v,
    max |v|, the parameters).  Sums and products are integer products (no gcd of full-size numbers, which costs ten
    times a product); comparisons are signs of cross products (q > 0); the value is reduced only when it becomes a
    Fraction (:meth:`fraction`)."""

    __slots__ = ("p", "q")

    def __init__(self, p, q=1):
        self.p, self.q = p, q

    @classmethod
    def of(cls, x) -> QS:
        """A Fraction, an int or a QS as a QS."""
        if isinstance(x, QS):
            return x
        if isinstance(x, int):
            return cls(fmpz(x), fmpz(1))
        return cls(fmpz(x.numerator), fmpz(x.denominator))

    def __add__(self, other) -> QS:
        o = other if type(other) is QS else QS.of(other)
        if self.q == o.q:
            return QS(self.p + o.p, self.q)
        return QS(self.p * o.q + o.p * self.q, self.q * o.q)

    __radd__ = __add__

    def __neg__(self) -> QS:
        return QS(-self.p, self.q)

    def __sub__(self, other) -> QS:
        o = other if type(other) is QS else QS.of(other)
        if self.q == o.q:
            return QS(self.p - o.p, self.q)
        return QS(self.p * o.q - o.p * self.q, self.q * o.q)

    def __rsub__(self, other) -> QS:
        return QS.of(other) - self

    def __mul__(self, other) -> QS:
        o = other if type(other) is QS else QS.of(other)
        return QS(self.p * o.p, self.q * o.q)

    __rmul__ = __mul__

    def _sign(self, other) -> int:
        if type(other) is int and other == 0:  # the rules' usual comparison (c != 0)
            d = self.p
        else:
            o = other if type(other) is QS else QS.of(other)
            d = self.p * o.q - o.p * self.q
        return (d > 0) - (d < 0)

    def __lt__(self, other) -> bool:
        return self._sign(other) < 0

    def __le__(self, other) -> bool:
        return self._sign(other) <= 0

    def __gt__(self, other) -> bool:
        return self._sign(other) > 0

    def __ge__(self, other) -> bool:
        return self._sign(other) >= 0

    def __eq__(self, other) -> bool:
        return self._sign(other) == 0

    def __ne__(self, other) -> bool:
        return self._sign(other) != 0

    __hash__ = None

    def fraction(self) -> Fraction:
        return frac(fmpq(self.p, self.q))


def _numer_denom(rows) -> tuple[flint.fmpz_mat, flint.fmpz]:
    """Rows of rationals (at least one row and one column) as integer numerators over the lcm of the reduced
    denominators."""
    return flint.fmpq_mat(len(rows), len(rows[0]), [q(v) for row in rows for v in row]).numer_denom()


class QV:
    """A column of rationals N / L: ``N`` an fmpz_mat column, ``L`` > 0 an fmpz (a common denominator, not
    necessarily the least; :meth:`normal` makes it the least)."""

    __slots__ = ("N", "L")

    def __init__(self, N, L):
        self.N, self.L = N, L

    @classmethod
    def of(cls, values) -> QV:
        N, L = _numer_denom([[v] for v in values])  # L the lcm of the reduced denominators: normal
        return cls(N, L)

    def normal(self) -> QV:
        """The same column over its least common denominator: divide N and L by gcd(L, N_1, ..., N_n)."""
        g = self.L
        ent = self.N.entries()
        for x in ent:
            g = g.gcd(x)
            if g == 1:
                return self
        return QV(fmpz_mat(len(ent), 1, [x // g for x in ent]), self.L // g)

    def same(self, other: QV) -> bool:
        """Equality of two columns in normal form (:meth:`normal`): their integers are equal."""
        return self.L == other.L and self.N == other.N

    def _common(self, other: QV):
        """(N, N', L'') with self = N / L'' and other = N' / L'': one denominator dividing the other (the rules' usual
        case: e's denominator is a multiple of b's and of a's) costs a division, else the gcd of the two."""
        L, M = self.L, other.L
        if L == M:
            return self.N, other.N, L
        t, r = divmod(M, L) if M > L else divmod(L, M)
        if r == 0:
            return (self.N * t, other.N, M) if M > L else (self.N, other.N * t, L)
        g = L.gcd(M)
        return self.N * (M // g), other.N * (L // g), L // g * M

    def __add__(self, other: QV) -> QV:
        x, y, L = self._common(other)
        return QV(x + y, L)

    def __sub__(self, other: QV) -> QV:
        x, y, L = self._common(other)
        return QV(x - y, L)

    def __mul__(self, c) -> QV:
        if isinstance(c, int):
            return QV(self.N * c, self.L)
        return QV(self.N * c.p, self.L * c.q)  # c a QS

    __rmul__ = __mul__

    def __truediv__(self, m: int) -> QV:
        return QV(self.N, self.L * m)

    def __abs__(self) -> QV:
        return QV(fmpz_mat(self.N.nrows(), 1, [abs(x) for x in self.N.entries()]), self.L)

    def __matmul__(self, other: QV) -> QS:
        return QS((self.N.transpose() * other.N)[0, 0], self.L * other.L)

    def positive(self) -> bool:
        return all(x > 0 for x in self.N.entries())

    def nonpositive(self) -> bool:
        return all(x <= 0 for x in self.N.entries())

    def zero(self) -> bool:
        return all(x == 0 for x in self.N.entries())

    def min(self) -> QS:
        return QS(min(self.N.entries()), self.L)

    def max_abs(self) -> QS:
        return QS(max(abs(x) for x in self.N.entries()), self.L)

    def bits_above(self, top: int) -> int:
        """max(top, the largest bit length of a reduced entry), exactly, reducing only the entries that could
        raise it (bit_length(N_i / L) <= max(bitlen N_i, bitlen L): see the comment above :class:`QV`)."""
        L = self.L
        bl = L.bit_length()
        ent = self.N.entries()
        if bl > top:
            cand = ent
        else:
            cand = [x for x in ent if x.bit_length() > top]
            if not cand:
                return top
        for x in sorted(cand, key=lambda x: x.bit_length(), reverse=True):
            if max(x.bit_length(), bl) <= top:
                break
            g = x.gcd(L)
            b = max(x.bit_length(), bl) if g == 1 else max((x // g).bit_length(), (L // g).bit_length())
            top = max(top, b)
        return top

    def fractions(self) -> tuple[Fraction, ...]:
        """The entries as reduced Fractions."""
        L = self.L
        return tuple(frac(fmpq(x, L)) for x in self.N.entries())

    def fractions_from(self, prev: QV, prev_fracs) -> tuple[Fraction, ...]:
        """:meth:`fractions`, reusing ``prev_fracs`` (the Fractions of ``prev``, a column of the same length) where
        the value is unchanged (N_i / L = P_i / M iff N_i M = P_i L: two products instead of a gcd of full-size
        numbers; Ho-Kashyap's b keeps every entry whose e_i <= 0)."""
        L, M = self.L, prev.L
        return tuple(f if x * M == px * L else frac(fmpq(x, L))
                     for x, px, f in zip(self.N.entries(), prev.N.entries(), prev_fracs))


class QM:
    """A rational matrix as integer numerators ``N`` (fmpz_mat) over one denominator ``D``; ``M @ v`` for a
    :class:`QV` v."""

    __slots__ = ("N", "D", "_rows")

    def __init__(self, N, D):
        self.N, self.D = N, D
        self._rows = None

    @classmethod
    def of(cls, rows) -> QM:
        return cls(*_numer_denom(rows))

    def __matmul__(self, v: QV) -> QV:
        return QV(self.N * v.N, self.D * v.L)

    @property
    def T(self) -> QM:
        return QM(self.N.transpose(), self.D)

    def row(self, i: int) -> QV:
        """Row i as a column (over the matrix's denominator; the rows are cut once)."""
        if self._rows is None:
            N, d = self.N, self.N.ncols()
            self._rows = [QV(fmpz_mat(d, 1, [N[r, j] for j in range(d)]), self.D) for r in range(N.nrows())]
        return self._rows[i]


class FlintVectors:
    """python-flint: vectors are :class:`QV` columns, matrices :class:`QM`, scalars :class:`QS`."""

    name = "flint"
    Vector = QV

    @staticmethod
    def vector(values) -> QV:
        return QV.of(values)

    @staticmethod
    def matrix(rows) -> QM:
        return QM.of(rows)

    @staticmethod
    def scalar(x) -> QS:
        return QS.of(x)

    @staticmethod
    def fraction(s: QS) -> Fraction:
        return s.fraction()

    @staticmethod
    def fractions(v: QV, prev: QV | None = None, prev_fracs=None) -> tuple[Fraction, ...]:
        if prev is not None:
            return v.fractions_from(prev, prev_fracs)
        return v.fractions()


# ---------------------------------------------------------------------------------------------------
# the trace and the loop


class Recorder:
    """The trace of an iterate rule in the representation's own numbers: the tracer records each step by its own
    policy (``Tracer.add``: which steps, which keep their vectors, when the trace is incomplete) with the vectors and
    scalars as they are; :meth:`finish` hands it the same Steps with Fractions, built the first time the trace is
    read (:class:`exactlin.model.run.LazySteps`).

    ``reuse`` maps an info key to another whose Fractions it may reuse where a value is unchanged (Ho-Kashyap's
    ``b_after`` from ``b``).  An info value may be a callable: computed when read (LMS's distance to Y^+ b)."""

    __slots__ = ("tracer", "rep", "_reuse", "add")

    def __init__(self, tracer, rep, *, reuse: dict | None = None):
        self.tracer, self.rep = tracer, rep
        self._reuse = reuse or {}
        #: add(k, epoch, i, score, update, before, after, **info): one step, recorded by the tracer's policy
        self.add = tracer.add

    def finish(self) -> None:
        if self.tracer.mode is False:
            return
        raw, rep, reuse = self.tracer.steps, self.rep, self._reuse

        def build() -> list[Step]:
            cache: dict = {}

            def conv(v, prev=None):
                if callable(v):
                    v = v()
                if v is None or isinstance(v, (int, Fraction)):
                    return v
                if not isinstance(v, rep.Vector):
                    return rep.fraction(v)
                got = cache.get(id(v))
                if got is None:  # v kept alive with its id
                    old = cache.get(id(prev)) if prev is not None else None
                    got = cache[id(v)] = (v, rep.fractions(v, prev, old[1]) if old else rep.fractions(v))
                return got[1]

            return [Step(s.k, s.epoch, s.i, conv(s.score), s.update, conv(s.w_before), conv(s.w_after),
                         {key: conv(val, s.info.get(reuse.get(key))) for key, val in s.info.items()})
                    for s in raw]

        self.tracer.steps = LazySteps(len(raw), build)


def iterate(body, *, bounds, limit: int, budget: float, max_bits: int | None, bits: str, work: int = 1):
    """The iterate loop: ``k`` from 1 while no stop; returns (k, last, reason), ``last`` the last step that changed
    the iterate.

    ``body`` is one rule's iteration: ``body.before()`` (a stop decided on the current iterate before the next
    update, or None), ``body.step(k)`` (the k-th update and its record: (changed, a stop or None)), and its sizes
    ``body.top_bits`` (the largest bit length so far) and ``body.bits`` (the iterate's after the last step).

    The budgets, in this order: ``limit`` steps (reason ``max_steps`` when ``budget`` is reached, else
    ``max_epochs``), ``max_bits`` (``bits="before"``: the largest size so far, tested before each step, as
    Ho-Kashyap does; ``"after"``: the new iterate's size after each step, as Widrow-Hoff and LMS do), the clock;
    ``work`` sample visits per step for the progress records."""
    k = last = 0
    while True:
        reason = body.before()
        if reason is not None:
            break
        if k >= limit:
            reason = "max_steps" if k >= budget else "max_epochs"
            break
        if bits == "before" and max_bits is not None and body.top_bits > max_bits:
            reason = "bit_limit"
            break
        if bounds.out_of_time():
            reason = "time_limit"
            break
        if bounds.progress is not None and k:
            bounds.tick(k, k, body.top_bits, work=work)
        k += 1
        changed, reason = body.step(k)
        if changed:
            last = k
        if reason is not None:
            break
        if bits == "after" and max_bits is not None and body.bits > max_bits:
            reason = "bit_limit"
            break
    return k, last, reason


class Body:
    """The defaults of an iteration for :func:`iterate`: nothing decided before a step."""

    top_bits = 0
    bits = 0

    def before(self) -> str | None:
        return None

    def step(self, k: int) -> tuple[bool, str | None]:  # pragma: no cover - every rule has its own
        raise NotImplementedError

