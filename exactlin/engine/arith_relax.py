"""Seed 003's relaxation iterates (Algorithms 8 and 9) over one denominator: a representation of the arithmetic
protocol (:mod:`exactlin.engine.arith`) whose coefficients eta (b - a^t y) / ||y||^2 are rationals that change at
every correction.

**The representation.**  Let L be the least positive integer with L z_i integer for every normalized sample,
Z'_i = L z_i and N_i = ||Z'_i||^2 (integers; N_i > 0: a zero sample is refused by the rule before).  The iterate
is a = v / D with v an integer vector and D > 0, kept in lowest terms (gcd(D, v_1, ..., v_d) = 1, so (v, D) is
unique for a: :meth:`OverOneDenominator.key` repeats exactly when a does, and the cycle detection sees the
reference's repeats).  The scores are integers t_i = <Z'_i, v>, with a^t z_i = t_i / (D L); all of them at once
are one python-flint ``fmpz_mat`` product Z' v.

**The test.**  With b = b_p / b_q, a^t z_i < b is  b_q t_i < b_p D L  (D L b_q > 0), so the same samples are
corrected (``<=`` likewise).

**A batch correction** (Algorithm 8) sum_{i in Y} c_i z_i with c_i = eta (b - a^t z_i) / ||z_i||^2 and
eta = e_p / e_q: with r_i = b_p D L - b_q t_i (> 0 on Y) substituting ||z_i||^2 = N_i / L^2 and z_i = Z'_i / L gives
c_i = e_p r_i L / (e_q b_q D N_i), i.e. the increment e_p S / (e_q b_q D M) with M = lcm of the N_i on Y and
S = Z'^t u, u_i = r_i M / N_i (0 off Y); so a' = (v e_q b_q M + e_p S) / (D e_q b_q M): integers only, one product
on flint, then brought to lowest terms.  A single correction (Algorithm 9) is the case Y = {i}.  Any other
coefficients (Fractions c_i = p_i / q_i) are added the same way over Q = lcm of the q_i:
a' = (v Q L + D sum_i p_i (Q / q_i) Z'_i) / (D Q L).

**Lowest terms and the bit lengths** (:func:`reduce_with_bits`).  The bit length of entry j is that of v_j / g_j
and D / g_j with g_j = gcd(v_j, D): the reference's ``max_bits`` exactly.  The g_j and the common factor are found
without a gcd of two long numbers in the usual case: their part on the primes below 200 from short gcds, their part
on larger primes (which all divide a known short number R: those of N_i, b_q, e_q, the q_i and the start's
denominator) from residues mod R.
"""

from __future__ import annotations

import math
from fractions import Fraction

import flint

__all__ = ["OverOneDenominator", "RelaxationCoefficients", "reduce_with_bits", "frac_bits", "nonsmooth",
           "relaxation_coefficients"]

#: the product of the primes below 200
_SMALL_PRIMES = math.prod(p for p in range(2, 200) if all(p % q for q in range(2, int(p ** 0.5) + 1)))


def _smooth_gcd(x: int, D: int, Ds: int) -> int:
    """The part of gcd(x, D) made of primes below 200 (``Ds`` = gcd(D, their product)): each round divides
    x and D by the small primes they still share; only divisions of a long number by a short one."""
    out = 1
    t = math.gcd(x, Ds)
    while t > 1:
        out *= t
        x //= t
        D //= t
        t = math.gcd(math.gcd(x, t), D)
    return out


def nonsmooth(x: int) -> int:
    """x without its prime factors below 200."""
    x = abs(x)
    g = math.gcd(x, _SMALL_PRIMES)
    while g > 1:
        x //= g
        g = math.gcd(x, g)
    return x


def reduce_with_bits(v: list[int], D: int, R: int, current: int):
    """(v / G, D / G, bits) with G = gcd(D, v_1, ..., v_d) (lowest terms) and bits = max(current, the largest
    bit length of an entry v_j / D in lowest terms), exact whenever it exceeds ``current``.

    ``R`` is a positive integer divisible by every prime >= 200 that divides D.  For each entry,
    g_j = gcd(v_j, D) is its part on the primes below 200 (exact) times its part on larger primes, which all
    divide R: when gcd(v_j mod R, R) = 1 that part is 1 and g_j is known exactly with no gcd of two long
    numbers; otherwise the bound from the small part is used and the exact gcd computed only if that entry can
    still give the maximum.  The small part of G is the gcd of the entries' small parts; its large part is 1 as
    soon as one entry's is."""
    Ds = math.gcd(D, _SMALL_PRIMES)
    if Ds > 1:
        # T = the part of D on the primes below 200, each to at most the 8th power: gcd(v_j, T) is the small part
        # of g_j unless it holds a prime to the 8th power (then T may have cut it: computed in full)
        D7 = Ds ** 7
        T = math.gcd(D, D7 * Ds)
        lo = []
        for x in v:
            g = math.gcd(x, T)
            if math.gcd(g // math.gcd(g, D7), Ds) > 1:  # a prime to the 8th power: T may have cut it
                g = _smooth_gcd(x, D, Ds)
            lo.append(g)
    else:
        lo = [1] * len(v)
    # the bit length of entry j does not depend on the representation: it is computed before dividing by G
    cand = sorted(((max((abs(x) // g).bit_length(), (D // g).bit_length()), j) for j, (x, g) in enumerate(zip(v, lo))),
                  reverse=True)

    def known(j):  # no prime >= 200 divides both v_j and D: g_j = lo_j
        return R == 1 or math.gcd(v[j] % R, R) == 1

    best = current
    some_known = False
    for ub, j in cand:
        if ub <= best:
            break
        if known(j):
            best, some_known = ub, True
            break
        g = math.gcd(v[j], D)
        best = max(best, (abs(v[j]) // g).bit_length(), (D // g).bit_length())
    if not some_known:
        some_known = any(known(j) for _, j in cand)
    # G's part on primes >= 200 divides that of every g_j, so it is 1 when one entry's is
    G = math.gcd(*lo) if some_known else math.gcd(D, *v)
    if G != 1:
        v = [x // G for x in v]
        D //= G
    return v, D, best


def frac_bits(v: list[int], D: int, current: int) -> int:
    """max(current, the largest bit length of an entry v_j / D in lowest terms): exact whenever that exceeds
    ``current`` (so the running maximum and the bit_limit stop are the reference's).

    Entry j in lowest terms is (v_j / g_j) / (D / g_j) with g_j = gcd(v_j, D).  Any divisor l_j of g_j gives the
    upper bound max(bits(v_j / l_j), bits(D / l_j)); l_j = the part of g_j made of primes below 200 (usually all
    of it) is cheap.  The exact g_j is computed only for entries whose bound exceeds the best value found so far
    (largest bound first), so usually once."""
    if max(D.bit_length(), max(abs(x) for x in v).bit_length() if v else 0) <= current:
        return current
    Ds = math.gcd(D, _SMALL_PRIMES)
    cand = []
    for x in v:
        lo = _smooth_gcd(x, D, Ds) if Ds > 1 else 1
        cand.append((max((abs(x) // lo).bit_length(), (D // lo).bit_length()), x))
    cand.sort(key=lambda c: c[0], reverse=True)
    best = current
    for ub, x in cand:
        if ub <= best:
            break
        g = math.gcd(x, D)
        best = max(best, (abs(x) // g).bit_length(), (D // g).bit_length())
    return best


def _integer_rows(Z) -> tuple[int, list[list[int]]]:
    """(L, Z' = L Z as lists of Python ints), L the least common denominator of the entries."""
    num = getattr(Z, "num", None)
    if num is not None:  # exact.rows.ExactRows: integers over one denominator already
        return Z.den, [[int(x) for x in r] for r in num.tolist()]
    pairs = [[q.as_integer_ratio() if type(q) in (Fraction, int) else Fraction(q).as_integer_ratio() for q in row]
             for row in Z]
    L = math.lcm(*(b for row in pairs for _, b in row)) if pairs else 1
    return L, [[a * (L // b) for a, b in row] for row in pairs]


class RelaxationCoefficients(list):
    """The coefficients c_i = eta (b - a^t z_i) / ||z_i||^2 of one correction, as Fractions (the list), with
    the criterion J_r of the samples corrected (:meth:`J_r`).  :class:`OverOneDenominator` keeps them as
    integers and builds the Fractions only when the list is read."""

    def __init__(self, values=(), J_r=None):
        super().__init__(values)
        self._J = J_r

    def J_r(self) -> Fraction:
        """J_r over the corrected samples: 1/2 sum_i (a^t z_i - b)^2 / ||z_i||^2."""
        return self._J


class _IntegerRelaxationCoefficients(RelaxationCoefficients):
    """c_i = e_p r_i L / (e_q b_q D N_i) kept as the integers r_i (module docstring)."""

    def __init__(self, idx, r, ep, eq, bq, D, L, N):
        super().__init__()
        self.idx, self.r, self.ep, self.eq, self.bq, self.D, self.L, self.N = idx, r, ep, eq, bq, D, L, N
        self._built = False

    def _build(self):
        if not self._built:
            self._built = True
            ep, den, L, N = self.ep, self.eq * self.bq * self.D, self.L, self.N
            list.extend(self, (Fraction(ep * ri * L, den * N[i]) for i, ri in zip(self.idx, self.r)))

    def __len__(self):
        return len(self.idx)

    def __iter__(self):
        self._build()
        return list.__iter__(self)

    def __getitem__(self, s):
        self._build()
        return list.__getitem__(self, s)

    def __eq__(self, other):
        self._build()
        return list.__eq__(self, other)

    __hash__ = None

    def J_r(self) -> Fraction:
        # (a^t z_i - b)^2 / ||z_i||^2 = r_i^2 / (b_q^2 D^2 N_i)
        q = self.bq * self.bq * self.D * self.D
        return sum((Fraction(ri * ri, q * self.N[i]) for i, ri in zip(self.idx, self.r)), Fraction(0)) / 2


def relaxation_coefficients(rep, s, idx, eta: Fraction, b: Fraction, norms) -> RelaxationCoefficients:
    """Algorithm 8's (and 9's) coefficients eta (b - a^t z_i) / ||z_i||^2 for the samples ``idx`` of the block of
    scores ``s`` of ``rep`` (``norms`` the ||z_i||^2 as Fractions), in the representation's own form."""
    if isinstance(rep, OverOneDenominator):
        return rep.relaxation_coefficients(s, idx, eta, b)
    exact = [rep.exact(s, i) for i in idx]
    return RelaxationCoefficients([eta * (b - q) / norms[i] for q, i in zip(exact, idx)],
                                  sum(((q - b) ** 2 / norms[i] for q, i in zip(exact, idx)), Fraction(0)) / 2)


class OverOneDenominator:
    """w = v / D in lowest terms (module docstring): the relaxation rules' representation ``"flint"``.

    Implements the arithmetic protocol (scores, threshold, first, all, exact, add, add_many, key, bits,
    bits_above, w, snapshot, fractions) and what the batch loop asks besides (:meth:`partial_bits`,
    :meth:`delta_norm2`, :meth:`exact_sum`); the products with the samples run on python-flint ``fmpz_mat``."""

    name = "flint"

    def __init__(self, Z, w1, *, b: Fraction = Fraction(0)):
        self.L, Zi = _integer_rows(Z)
        self.Zi = Zi
        self.n = n = len(Zi)
        self.d = d = len(w1)
        self.Zm = flint.fmpz_mat(n, d, [x for r in Zi for x in r]) if n else None
        self.ZmT = self.Zm.transpose() if n else None
        self.N = [sum(x * x for x in r) for r in Zi]
        w1 = [Fraction(x) for x in w1]
        D = math.lcm(*(x.denominator for x in w1)) if w1 else 1
        self.v = [x.numerator * (D // x.denominator) for x in w1]
        self.D = D
        b = Fraction(b)
        # divisible by every prime >= 200 of D: those of D(1), b_q, the N_i, and the coefficients' denominators
        self.R = math.lcm(nonsmooth(D), nonsmooth(b.denominator), nonsmooth(self.L),
                          *(nonsmooth(x) for x in set(self.N)))
        self._seen: set = set()
        self._bits = frac_bits(self.v, D, 0)
        self.tiers = {"flint": 0}

    # -- the protocol -------------------------------------------------------------------------------------

    def scores(self, i: int, length: int) -> list[int]:
        """t_j = <Z'_j, v>: a^t z_j = t_j / (D L)."""
        self.tiers["flint"] += 1
        v = self.v
        if length == 1:
            return [sum(x * y for x, y in zip(self.Zi[i], v))]
        t = [int(x) for x in (self.Zm * flint.fmpz_mat(self.d, 1, v)).entries()]
        return t if i == 0 and length == self.n else t[i:i + length]

    def threshold(self, b, strict: bool = False):
        b = Fraction(b)
        return (b.numerator, b.denominator, strict)

    def all(self, s, t) -> list[int]:
        bp, bq, strict = t
        BDL = bp * self.D * self.L
        if strict:
            return [j for j, x in enumerate(s) if x * bq < BDL]
        return [j for j, x in enumerate(s) if x * bq <= BDL]

    def first(self, s, t) -> int:
        bp, bq, strict = t
        BDL = bp * self.D * self.L
        for j, x in enumerate(s):
            if (x * bq < BDL) if strict else (x * bq <= BDL):
                return j
        return len(s)

    def exact(self, s, j: int) -> Fraction:
        return Fraction(s[j], self.D * self.L)

    def exact_sum(self, s, idx) -> Fraction:
        return Fraction(sum(s[j] for j in idx), self.D * self.L)

    def add(self, i: int, coef) -> None:
        self.add_many([i], [coef])

    def add_many(self, idx, coefs) -> None:
        """w <- w + sum_j coefs_j z_{idx_j}, brought to lowest terms."""
        if isinstance(coefs, _IntegerRelaxationCoefficients) and coefs.D == self.D:
            S, m = self._relaxation_sum(idx, coefs, len(idx))
            self._note(coefs.eq)
            v_new = [x * m + y for x, y in zip(self.v, S)]
            D_new = self.D * m
        else:
            cs = [Fraction(c) for c in coefs]
            Q = math.lcm(*(c.denominator for c in cs)) if cs else 1
            self._note(Q)
            u = [0] * self.n
            for i, c in zip(idx, cs):
                u[i] += c.numerator * (Q // c.denominator)
            S = self._combine(u)
            m = Q * self.L
            v_new = [x * m + self.D * y for x, y in zip(self.v, S)]
            D_new = self.D * m
        self.v, self.D, self._bits = reduce_with_bits(v_new, D_new, self.R, self._bits)

    def key(self):
        return (tuple(self.v), self.D)

    def bits(self) -> int:
        return self._bits

    def bits_above(self, current: int) -> int:
        return max(current, self._bits)

    def w(self) -> tuple:
        return self.fractions((self.v, self.D))

    def snapshot(self):
        return (self.v, self.D)  # v is replaced, never changed in place

    def fractions(self, snap) -> tuple:
        v, D = snap
        return tuple(Fraction(x, D) for x in v)

    # -- what the batch loop asks besides -------------------------------------------------------------------

    def partial_bits(self, idx, coefs, bound: int):
        """The bit length of the increment's partial sum over the first 64 m samples of ``idx``, for the first m
        where it exceeds ``bound`` (None if none does)."""
        for m in range(64, len(idx) + 1, 64):
            if isinstance(coefs, _IntegerRelaxationCoefficients) and coefs.D == self.D:
                S, mult = self._relaxation_sum(idx, coefs, m)
                bits = frac_bits(S, self.D * mult, 0)
            else:
                inc = [Fraction(0)] * self.d
                for i, c in zip(idx[:m], coefs[:m]):
                    for t in range(self.d):
                        inc[t] += c * Fraction(self.Zi[i][t], self.L)
                bits = max(max(abs(q.numerator).bit_length(), q.denominator.bit_length()) for q in inc)
            if bits > bound:
                return bits
        return None

    def delta_norm2(self, before) -> tuple[int, int]:
        """||a - a(before)||^2 = num / den: v / D - v0 / D0 = (v D0 - v0 D) / (D D0)."""
        v0, D0 = before
        D = self.D
        return sum((x * D0 - y * D) ** 2 for x, y in zip(self.v, v0)), (D * D0) ** 2

    def relaxation_coefficients(self, s, idx, eta, b) -> RelaxationCoefficients:
        eta, b = Fraction(eta), Fraction(b)
        BDL = b.numerator * self.D * self.L
        bq = b.denominator
        r = [BDL - bq * s[i] for i in idx]
        return _IntegerRelaxationCoefficients(idx, r, eta.numerator, eta.denominator, bq, self.D, self.L, self.N)

    # -- internals -------------------------------------------------------------------------------------------

    def _note(self, q: int) -> None:
        if q not in self._seen:  # R: divisible by every prime >= 200 of D
            self._seen.add(q)
            self.R = math.lcm(self.R, nonsmooth(q))

    def _combine(self, u: list[int]) -> list[int]:
        """Z'^t u."""
        if self.d * self.n <= 64:
            return [sum(u[i] * self.Zi[i][t] for i in range(self.n) if u[i]) for t in range(self.d)]
        return [int(x) for x in (self.ZmT * flint.fmpz_mat(self.n, 1, u)).entries()]

    def _relaxation_sum(self, idx, coefs, m: int):
        """(e_p S, e_q b_q M) for the first m samples of idx: the increment is e_p S / (D e_q b_q M)."""
        N = self.N
        M = math.lcm(*(N[i] for i in idx))
        u = [0] * self.n
        for i, ri in zip(idx[:m], coefs.r[:m]):
            u[i] = ri * (M // N[i])
        ep = coefs.ep
        return [ep * x for x in self._combine(u)], coefs.eq * coefs.bq * M
