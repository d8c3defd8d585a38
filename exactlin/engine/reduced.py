"""Rational iterates over one denominator, kept in lowest terms by the smooth-gcd reduction: the representation of
seed 003's relaxation rules (``003_ffe0ec08819b37d8.txt``, Algorithms 8 and 9), whose coefficient
eta (b - a^t y) / ||y||^2 is a new rational at every update.

**The state.**  Let L be the least positive integer with L z_i integer for every row and Z'_i = L z_i (Python
integers).  The iterate is a = v / D with v an integer vector and D > 0 in lowest terms (gcd(D, v_1, ..., v_d) = 1),
so (v, D) is unique for a and the cycle detection (:meth:`ReducedArith.key`) sees exactly the repeats of a.  The
score of row i is <a, z_i> = t / (D L) with t = <v, Z'_i> an integer, so the test <a, z_i> < b (b = b_p / b_q) is
b_q t < b_p D L, integers only (D L b_q > 0).

**An update** a + c z_i with c = p / q in lowest terms: with g = gcd(p, L), p' = p / g, L' = L / g and
M = lcm(D, q L'), a + c z_i = (v (M / D) + p' (M / (q L')) Z'_i) / M, integers only, then brought to lowest terms by
:func:`reduce_with_bits`.  Relaxation's c = eta (b - a^t z_i) / ||z_i||^2 has q dividing e_q b_q D N_i (N_i =
||Z'_i||^2, eta = e_p / e_q), so M stays about the size of D.  The bit length of entry j is that of v_j / D reduced,
i.e. of v_j / g_j and D / g_j with g_j = gcd(v_j, D): the reference's ``bits`` exactly.

**The reduction without long gcds** (:func:`reduce_with_bits`): the common factor and the g_j have a part on the
primes below 200, found by gcds with a short number, and a part on larger primes, which all divide a known short
number R (the invariant: every prime >= 200 of D divides R; an update adds the primes >= 200 of q that R lacks,
:meth:`ReducedArith._absorb`, usually none after the first pass: those of e_q, b_q and the N_i).  When
gcd(v_j mod R, R) = 1 no large prime is shared and g_j is known with no gcd of two long numbers.  The gcds with
short numbers are themselves taken on residues (:class:`Mods`): the representation keeps D and the v_j modulo
R P (P the product of the primes below 200), updated with the state (v M / D + h Z'_i mod R P: one long modulus,
h mod R P, per update), so that the small primes of every entry, the tests against R and the reduction of a score
are gcds of numbers of the size of R P, whatever the size of D.
"""

from __future__ import annotations

import math
from fractions import Fraction
from operator import mul
from typing import NamedTuple

import numpy as np

from exactlin.engine.arith import Cut, integer_rows

__all__ = ["ReducedArith", "LazyBlock", "Mods", "reduce_with_bits", "frac_bits", "nonsmooth"]

#: the product of the primes below 200
_SMALL_PRIMES = math.prod(p for p in range(2, 200) if all(p % q for q in range(2, int(p ** 0.5) + 1)))


#: n / d already in lowest terms (d > 0) as a Fraction, without the gcd Fraction() would compute again: Python 3.12+
#: has Fraction._from_coprime_ints, 3.11 the keyword _normalize=False (both private; checked by the doctest of
#: :meth:`ReducedArith.exact` and by every run's equality with the Fraction reference)
_coprime = getattr(Fraction, "_from_coprime_ints", None) or (lambda n, d: Fraction(n, d, _normalize=False))


def _smooth_gcd(x: int, D: int, Ds: int) -> int:
    """The part of gcd(x, D) made of the primes of ``Ds``, a product of distinct primes below 200 that divide D
    (``gcd(D, _SMALL_PRIMES)`` for all of them): each round divides x and D by the primes of Ds they still share;
    only divisions of a long number by a short one."""
    part = 1
    t = math.gcd(x, Ds)
    while t > 1:
        part *= t
        x //= t
        D //= t
        t = math.gcd(math.gcd(x, t), D)
    return part


def nonsmooth(x: int) -> int:
    """|x| without its prime factors below 200.

    >>> nonsmooth(2 ** 5 * 3 * 211 * 401)
    84611
    """
    x = abs(x)
    g = math.gcd(x, _SMALL_PRIMES)
    while g > 1:
        x //= g
        g = math.gcd(x, g)
    return x


class Mods(NamedTuple):
    """D and v_1, ..., v_d modulo M = R times the product of the primes below 200, for an R divisible by every
    prime >= 200 of D (:class:`ReducedArith` keeps them across updates: one long modulus per update instead of one
    per entry).  Every gcd of v_j or D (or of a score <v, Z'_i>) with a divisor of M is the gcd of its residue."""

    R: int
    M: int
    D: int
    v: list[int]

    @classmethod
    def of(cls, v, D: int, R: int) -> Mods:
        M = R * _SMALL_PRIMES
        return cls(R, M, D % M, [x % M for x in v])

    def update(self, f: int, h: int, z) -> Mods:
        """The residues of (v f + h z, D f)."""
        M = self.M
        hm = h % M
        return Mods(self.R, M, self.D * f % M, [(x * f + hm * y) % M for x, y in zip(self.v, z)])


def _qbits(a: int, s: int) -> int:
    """The bit length of |a| // s (s >= 1) without the division: with e = bits(|a|) - bits(s), |a| // s has e or
    e + 1 bits, and e + 1 exactly when |a| >= s 2^e, i.e. when floor(|a| / 2^e) >= s (s is an integer): one shift.

    >>> [_qbits(a, s) == (abs(a) // s).bit_length() for a, s in ((1000, 7), (-1024, 4), (5, 6), (5, 5), (0, 3))]
    [True, True, True, True, True]
    """
    a = abs(a)
    e = a.bit_length() - s.bit_length()
    if e < 0:
        return 0
    return e + 1 if a >> e >= s else e


def _bits(x: int, D: int, g: int) -> int:
    """max(bits(x / g), bits(D / g)): the bit length of the entry x / D reduced by g (x.bit_length() is |x|'s)."""
    if g == 1:
        return max(x.bit_length(), D.bit_length())
    return max(_qbits(x, g), _qbits(D, g))


def reduce_with_bits(v: list[int], D: int, R: int, current: int, mods: Mods | None = None):
    """(v / G, D / G, bits) with G = gcd(D, v_1, ..., v_d) (lowest terms) and bits = max(current, the largest
    bit length of an entry v_j / D in lowest terms), exact whenever it exceeds ``current``.

    ``R`` is a positive integer divisible by every prime >= 200 that divides D.  Entry j in lowest terms is
    (v_j / g_j) / (D / g_j) with g_j = gcd(v_j, D), its part on the primes below 200 times its part on larger
    primes (which all divide R).  Three facts make it cheap, with Ds = gcd(D, the product of the primes below 200)
    (the small primes of D, each once) and s_j = gcd(v_j, Ds) (those g_j holds: a gcd with a short number):

    * s_j divides g_j, so max(bits(v_j / s_j), bits(D / s_j)) bounds entry j from above (s_j = 1: the bound is
      max(bits(v_j), bits(D)), exact for the small primes).  Entries are taken largest bound first and the exact
      g_j computed only while a bound exceeds the best exact value found (usually once): its small part by
      :func:`_smooth_gcd` (only when s_j > 1), its large part is 1 when gcd(v_j mod R, R) = 1 (else the full gcd);
    * a prime below 200 divides G iff it divides Ds and every s_j, i.e. the primes below 200 of G are those of
      gcd(Ds, s_1, ..., s_d) (short gcds only; usually none).  When there are some, G's part on them (that of
      gcd(v_1, D), :func:`_smooth_gcd`, taken gcd with v_2, v_3, ...: one short modulus each) is divided out first,
      and Ds and the s_j taken again, so that the bounds below are not all loose by the same common factor;
    * G's part on primes >= 200 divides that of every g_j, so it is 1 when one entry's is (the first checked
      usually says so).

    Otherwise G = gcd(D, v_1, ..., v_d) in full.

    ``mods``, when given, holds D and the v_j modulo a multiple M of R and of the primes below 200
    (:class:`Mods`): then Ds, the s_j and the tests gcd(v_j, R) = 1 are gcds of short numbers only
    (gcd(x, Ds) = gcd(x mod M, Ds) and gcd(x, R) = gcd(x mod M, R), as Ds and R divide M).

    >>> reduce_with_bits([6, 9], 12, 1, 0)
    ([2, 3], 4, 3)
    """
    if mods is not None:
        Ds = math.gcd(mods.D, _SMALL_PRIMES)
        s = [math.gcd(x, Ds) for x in mods.v] if Ds > 1 else [1] * len(v)
    else:
        Ds = math.gcd(D, _SMALL_PRIMES)
        s = [math.gcd(x, Ds) for x in v] if Ds > 1 else [1] * len(v)
    small = Ds  # the primes below 200 of G
    for sj in s:
        if small == 1:
            break
        small = math.gcd(sj, small)
    if small > 1:  # divide by G's part on them first (the bounds below are then close)
        G = _smooth_gcd(v[0], D, small)
        for x in v[1:]:
            G = math.gcd(x, G)
        v = [x // G for x in v]
        D //= G
        mods = None  # they were those of the v_j and D before the division
        Ds = math.gcd(D, _SMALL_PRIMES)
        s = [math.gcd(x, Ds) for x in v] if Ds > 1 else [1] * len(v)
    # the bit length of entry j does not depend on the representation of v_j / D: the same after dividing by G
    cand = sorted(((_bits(x, D, sj), j) for j, (x, sj) in enumerate(zip(v, s))), reverse=True)

    res = mods.v if mods is not None else None

    def known(j):  # no prime >= 200 divides both v_j and D
        return R == 1 or math.gcd(v[j] % R if res is None else res[j], R) == 1

    best = current
    some_known = False
    for ub, j in cand:
        if ub <= best:
            break
        x = v[j]
        if known(j):
            some_known = True
            g = 1 if s[j] == 1 else _smooth_gcd(x, D, s[j])  # gcd(x, s_j) = s_j: the same first round as with Ds
        else:
            g = math.gcd(x, D)
        best = max(best, _bits(x, D, g))
    if some_known or any(known(j) for _, j in cand):
        return v, D, best  # what is left of G has no prime >= 200 either
    G = math.gcd(D, *v)
    if G != 1:
        v = [x // G for x in v]
        D //= G
    return v, D, best


def frac_bits(v, D: int, current: int) -> int:
    """max(current, the largest bit length of an entry v_j / D in lowest terms): exact whenever that exceeds
    ``current``.  Any divisor l_j of g_j = gcd(v_j, D) gives the upper bound max(bits(v_j / l_j), bits(D / l_j));
    l_j = the part of g_j on the primes below 200 is cheap; the exact g_j is computed only for entries whose
    bound exceeds the best value found so far (largest bound first), so usually once.

    >>> frac_bits([6, 9], 12, 0)
    3
    """
    if max(D.bit_length(), max((abs(x) for x in v), default=0).bit_length()) <= current:
        return current
    Ds = math.gcd(D, _SMALL_PRIMES)
    cand = []
    for x in v:
        part = _smooth_gcd(x, D, Ds) if Ds > 1 else 1
        cand.append((_bits(x, D, part), x))
    cand.sort(key=lambda c: c[0], reverse=True)
    best = current
    for ub, x in cand:
        if ub <= best:
            break
        g = math.gcd(x, D)
        best = max(best, _bits(x, D, g))
    return best


class LazyBlock:
    """Integer scores of rows i .. i + length - 1 for one state, each computed when first read by ``compute(row,
    state)`` (a relaxation or Winnow run corrects most rows it visits, so a block's later scores are rarely
    needed).  ``state`` is immutable; a slice is a block of the same state (the trace recorder keeps slices)."""

    __slots__ = ("i", "length", "state", "compute", "t")

    def __init__(self, i: int, length: int, state, compute):
        self.i, self.length, self.state, self.compute = i, length, state, compute
        self.t: list[int] = []

    def __len__(self) -> int:
        return self.length

    def value(self, j: int) -> int:
        t = self.t
        while len(t) <= j:
            t.append(self.compute(self.i + len(t), self.state))
        return t[j]

    def __getitem__(self, sl: slice) -> LazyBlock:
        start, stop, _ = sl.indices(self.length)
        out = LazyBlock(self.i + start, max(stop - start, 0), self.state, self.compute)
        out.t = [self.value(j) for j in range(start, min(stop, len(self.t)))]
        return out

    def copy(self) -> LazyBlock:
        return self[:]


class ReducedArith:
    """The arithmetic protocol (:mod:`exactlin.engine.arith`) on a = v / D in lowest terms (module docstring);
    the tier is Python integers throughout (``tiers``: blocks of scores asked for)."""

    name = "integer"

    def __init__(self, Z, w1, *, step=None):
        a1 = [x if type(x) is Fraction else Fraction(x) for x in w1]
        L, Zi, _ = integer_rows(Z, [0] * len(a1), 1)
        self.L = L
        self.Z = Zi.tolist() if isinstance(Zi, np.ndarray) else [[int(x) for x in r] for r in Zi]
        self.n = len(self.Z)
        self.d = len(a1)
        D = math.lcm(*(x.denominator for x in a1)) if a1 else 1
        v, D, _ = reduce_with_bits([x.numerator * (D // x.denominator) for x in a1], D, 1, 0)
        self.v, self.D = tuple(v), D
        self.R = math.lcm(nonsmooth(D), nonsmooth(L))  # every prime >= 200 of D divides R (and those of L)
        self._seen = frac_bits(self.v, D, 0)  # the largest bits() of every state so far (a running maximum)
        self._last = (self._seen, self._seen)  # (running maximum before the last update, after it)
        self._mods: Mods | None = None  # the residues of the state (taken at the first update)
        self.tiers = {"python": 0}
        self.rekey = None

    # -- scores

    def _score(self, i: int, state) -> int:
        return sum(map(mul, self.Z[i], state[0]))

    def scores(self, i: int, length: int) -> LazyBlock:
        self.tiers["python"] += 1
        return LazyBlock(i, length, self._state(), self._score)

    def _state(self) -> tuple:
        """(v, D, their residues or None): a block's state."""
        return self.v, self.D, self._mods

    @staticmethod
    def threshold(b=0, strict: bool = False) -> Cut:
        return Cut(Fraction(b), strict)

    def _tester(self, s: LazyBlock, t: Cut):
        """The test <a, z_j> <= b (< b) of the block's state: b_q t_j <= b_p D L (<)."""
        bq, rhs = t.b.denominator, t.b.numerator * s.state[1] * self.L
        if t.strict:
            return lambda j: bq * s.value(j) < rhs
        return lambda j: bq * s.value(j) <= rhs

    def first(self, s: LazyBlock, t: Cut) -> int:
        test = self._tester(s, t)
        for j in range(len(s)):
            if test(j):
                return j
        return len(s)

    def all(self, s: LazyBlock, t: Cut) -> list[int]:
        test = self._tester(s, t)
        return [j for j in range(len(s)) if test(j)]

    def count(self, s: LazyBlock, t: Cut) -> int:
        return len(self.all(s, t))

    def exact(self, s: LazyBlock, j: int) -> Fraction:
        """<a, z_j> = t / (D L), reduced without a gcd of two long numbers when no prime >= 200 is shared (every
        prime >= 200 of D L divides R); the primes below 200 by short gcds.  With the state's residues
        (:class:`Mods`) t mod M is a short dot product, and both tests are gcds of short numbers.

        >>> rep = ReducedArith([(Fraction(3, 2), 5)], (Fraction(1, 3), Fraction(2, 7)))
        >>> rep.exact(rep.scores(0, 1), 0)
        Fraction(27, 14)
        """
        t, D = s.value(j), s.state[1]
        den = D * self.L
        mods = s.state[2]
        if mods is not None:  # R, M of the state: R covers the primes >= 200 of den then (R only grows)
            tm = sum(map(mul, self.Z[s.i + j], mods.v)) % mods.M
            if math.gcd(tm, mods.R) == 1:
                shared = math.gcd(tm, mods.D * self.L % mods.M, _SMALL_PRIMES)  # the small primes of t and den
                g = _smooth_gcd(t, den, shared) if shared > 1 else 1
            else:
                g = math.gcd(t, den)
        else:
            R = self.R
            if R == 1 or math.gcd(t % R, R) == 1:
                Ds = math.gcd(den, _SMALL_PRIMES)
                g = _smooth_gcd(t, den, Ds) if Ds > 1 else 1
            else:
                g = math.gcd(t, den)
        return _coprime(t // g, den // g)

    # -- updates

    def _absorb(self, f: int) -> None:
        """Keep the invariant when D is multiplied by f: every prime >= 200 of f divides R."""
        r = nonsmooth(f)
        g = math.gcd(r, self.R)
        while g > 1:
            r //= g
            g = math.gcd(r, g)
        if r > 1:
            self.R *= r

    def _set(self, v: list[int], D: int, mods: Mods | None = None) -> None:
        before = self._seen
        v, D2, bits = reduce_with_bits(v, D, self.R, before, mods)
        self._mods = mods if D2 == D else None  # residues of the unreduced v, D: kept when nothing was divided
        self.v, self.D = tuple(v), D2
        self._seen = bits
        self._last = (before, bits)

    def add(self, i: int, coef) -> None:
        """a <- a + coef z_i."""
        coef = coef if type(coef) is Fraction else Fraction(coef)
        p, q = coef.numerator, coef.denominator
        if not p:
            return
        g = math.gcd(p, self.L)
        p, Lq = p // g, q * (self.L // g)  # coef z_i = p Z'_i / Lq
        D = self.D
        g = math.gcd(D, Lq)
        f = Lq // g  # M = lcm(D, Lq) = D f; f is short (relaxation: it divides L e_q b_q N_i)
        self._absorb(f)
        h = p * (D // g)  # M / Lq
        mods = self._mods
        if mods is None or mods.R != self.R:  # the first update, or R took new primes
            mods = Mods.of(self.v, D, self.R)
        z = self.Z[i]
        self._set([x * f + h * y for x, y in zip(self.v, z)], D * f, mods.update(f, h, z))

    def add_many(self, idx, coefs) -> None:
        """a <- a + sum_j coefs_j z_{idx_j}, over the common denominator of the terms, reduced once."""
        terms = []
        M = self.D
        for i, c in zip(idx, coefs):
            c = c if type(c) is Fraction else Fraction(c)
            if c:
                g = math.gcd(c.numerator, self.L)
                Lq = c.denominator * (self.L // g)
                f = Lq // math.gcd(M, Lq)
                self._absorb(f)
                M *= f
                terms.append((i, c.numerator // g, Lq))
        if not terms:
            return
        out = [x * (M // self.D) for x in self.v]
        for i, p, Lq in terms:
            h = p * (M // Lq)
            out = [x + h * z for x, z in zip(out, self.Z[i])]
        self._set(out, M)

    # -- the state

    def key(self):
        return self.v, self.D

    def bits(self) -> int:
        return frac_bits(self.v, self.D, 0)

    def bits_above(self, current: int) -> int:
        before, after = self._last
        if current >= after:  # after >= bits() of the current state
            return current
        if after > before:  # after is the current state's bits, exactly
            return after
        return frac_bits(self.v, self.D, current)

    def w(self) -> tuple:
        return self.fractions(self.snapshot())

    def snapshot(self):
        return self.v, self.D

    def fractions(self, snap) -> tuple:
        v, D = snap
        return tuple(Fraction(x, D) for x in v)
