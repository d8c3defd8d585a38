"""The integer representation of the arithmetic protocol (:mod:`exactlin.engine.arith`): w = (p / q) v with v an
integer vector, over the integer samples Z' = L z, computed in float32, float64, int64 or Python integers as the
bounds below allow (the *tiers*, counted in ``rep.tiers``).

**Why it is exact** (written once here; the loops rely on it).

*Scaling.*  Every input is rational.  Let L be the least positive integer with L z_ij integer for all i, j and
with (L / eta) w_1j integer (eta > 0 the ``step``, the rule's usual coefficient; 1 when not given).  Put
Z'_i = L z_i (integer vectors) and keep w = (p / q) v with v an integer vector, p / q > 0, starting from
p / q = eta / L and v_1 = (L / eta) w_1.  An update w <- w + c z_i is

    (p / q) v + c Z'_i / L = (p / q) (v + m Z'_i)   with   m = c q / (p L),

so when m is an integer (the perceptron: c = eta, m = 1) v <- v + m Z'_i stays integer; otherwise, with
m = a / e in lowest terms, v <- e v + a Z'_i and q <- e q (the scale p / q shrinks by e, w is unchanged).
A score is <w, z_j> = (p / (q L)) S_j with the integer S_j = <v, Z'_j>, and p / (q L) > 0, so

    <w, z_j> <= b   iff   S_j <= floor(b q L / p),      <w, z_j> < b   iff   S_j <= ceil(b q L / p) - 1,

integer thresholds: every test has the same outcome as on the Fractions, and w is recovered exactly as
(p / q) v.  While the scale has not changed, v determines w one to one, so ``key`` is v itself; after a
change it is the canonical pair (p' / q', v / g) with g the gcd of v's entries.

*Fingerprint.*  phi = <v, r> for fixed positive integer weights r_j < 256 (:func:`fingerprint_weights`),
kept exactly as a Python integer from the first ``fingerprint()`` on: an update adds m <Z'_i, r> (the n
numbers <Z'_i, r> computed once), a rescale by e multiplies it by e.  With E the product of the rescales
(q = q_0 E), w = p v / (q_0 E), so equal w give equal phi / E: the fingerprint is phi / E (the integer phi
while E = 1; an int and the equal Fraction hash alike, so no re-keying is needed).  It costs one integer
product per update instead of copying and hashing v.  A match is confirmed exactly (``combination_is_zero``: the
updates in between sum to 0); with one coefficient c != 0 for all of them that sum is (c / L) times the integer
sum of their rows Z'_i, zero iff that sum is.

*Tiers.*  With m_Z = max |Z'_ij|, m_v >= max |v_j| an upper bound kept exactly (an update adds |m| m_Z; a
rescale multiplies by e first) and d the number of columns, every product and every partial sum of S_j has
magnitude at most d m_Z m_v, so a block of scores is computed (checked before every block)

* in float32 (BLAS) when d m_Z m_v < 2^24 (then m_Z and m_v are below 2^24 too, when neither is 0): every
  entry, product and partial sum is an integer below 2^24, which float32's 24-bit significand holds exactly, so
  no rounding happens, in any summation order, with or without FMA or a wider accumulator (a matrix-vector
  product reads about half the memory of float64's: on 10,000 x 50 rows it is 3.6 times faster here);
* in float64 (BLAS) when d m_Z m_v < 2^53 and m_v < 2^53: every intermediate is an integer below 2^53, a
  float64 number, so no rounding happens, by the same argument;
* in numpy int64 when d m_Z m_v < 2^62: no product or partial sum can overflow;
* otherwise in Python integers (numpy object arrays), unbounded.

The scores of all samples at once (``scores_every``, ``marks_every``: for a rule that reads them after every
update, pocket's E_in) take the same tiers on a transposed copy of Z'.

A threshold t is compared in a tier after clamping it to that tier's bound M (2^24, 2^53 or 2^62): every score
of the tier has |S_j| < M, so "S_j <= t" and "S_j <= clamp(t)" agree, and the clamped integer is itself exact in
the tier's type.  v itself is held in int64 while m_v < 2^62 (one more int64 addition of a value below 2^62
cannot overflow; the bound is raised before each update), else as Python integers; one float copy of v is kept
for the float tier in use (float32 while m_v < 2^23, float64 while m_v < 2^52: an update adds integers below the
tier's bound to integers below it, exactly) and rebuilt from v when the tier changes.  While that copy is exact,
an update moves only the copy, and v is read back from it when next asked for (every entry of the copy is an
integer of magnitude <= m_v, below the tier's bound, so its conversion to int64 is exact): the common update is
one vector addition, not two.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from exactlin.engine.arith_base import Block, Cut, Speculation, integer_rows
from exactlin.errors import ParameterError
from exactlin.exact.rows import F32_EXACT, F64_EXACT, I64_HEADROOM, ExactRows

__all__ = ["IntegerArith", "fingerprint_weights", "one_for_all", "TIER_BOUND", "BLOCK_MIN_FLOAT", "BLOCK_MIN_EXACT",
           "F32_RETRY"]

#: the bound M of each tier (module docstring): every integer of magnitude below M is held exactly in that type
#: (int64: with the one bit of headroom an addition needs)
TIER_BOUND = {"float32": F32_EXACT, "float64": F64_EXACT, "int64": I64_HEADROOM}


def one_for_all(coefs: Sequence) -> bool:
    """Is ``coefs`` a list of one coefficient for every update (more than one)?  (``list.count`` compares by
    identity first: ``[c] * u`` is counted in C.)"""
    return len(coefs) > 1 and isinstance(coefs, list) and coefs.count(coefs[0]) == len(coefs)
_FLOAT = {"float32": np.float32, "float64": np.float64}


def fingerprint_weights(d: int) -> np.ndarray:
    """The fingerprint's weights r_1..r_d: fixed integers in [128, 255], the top 7 bits of SplitMix64's hash of j
    (a multiplicative hash, then its xor-shift-multiply finalizer), so that weights are unrelated and runs are
    deterministic.  (The multiplicative hash alone has the three-gap property: r_{j+k} - r_j takes at most three
    values for a fixed k, so a v made of blocks +w and -w -- the linear machine's Kesler layout,
    :mod:`exactlin.engine.machine` -- had fingerprints that shared most of their weight.)

    >>> fingerprint_weights(4).tolist()
    [241, 183, 131, 252]
    """
    z = np.arange(1, d + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)  # (uint64 arithmetic wraps mod 2^64)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z ^= z >> np.uint64(31)
    return (z >> np.uint64(57)).astype(np.int64) + 128


def _least_mv(dm: int, bound: int) -> int:
    """The least m_v with dm m_v >= bound (and at most bound): a tier's test "d m_Z m_v < bound and m_v < bound"
    as the one comparison m_v < _least_mv(d m_Z, bound)."""
    return bound if dm == 0 else min(bound, -(-bound // dm))


#: the cyclic loop's shortest block after a mistake (:mod:`exactlin.engine.cyclic`) on a float tier (a BLAS product
#: of 128 rows costs about as much as the call around it) and on the int64 / Python-integer tiers
BLOCK_MIN_FLOAT, BLOCK_MIN_EXACT = 128, 16
#: ... for d = 50 columns; a row's product costs about d times as much, so the float tiers' shortest block is
#: BLOCK_ENTRIES / d rows (between BLOCK_MIN_EXACT and BLOCK_MIN_FLOAT)
BLOCK_ENTRIES = 6400
#: the float32 tier is opened only when it holds v through this many updates m = 1 from v = 0 (m_v grows by m_Z
#: each): where it would close after a few blocks, converting Z' to float32 costs more than it saves
F32_UPDATES = 8
#: scores_every's float32 tier: calls without a new exact_max after one that found the tier closed
F32_RETRY = 16


class IntegerArith:
    """w = (p / q) v, v an integer vector, over the integer samples Z' = L z (see the module docstring)."""

    name = "integer"

    def __init__(self, Z, w1, *, step=None):
        step = Fraction(1) if step is None else Fraction(step)
        if step <= 0:
            raise ParameterError(f"the integer representation's step must be > 0, got {step}", parameter="step")
        L, Zl, v1 = integer_rows(Z, w1, step)
        self.L = L
        self.n = len(Zl)
        self.d = len(Zl[0]) if self.n else len(v1)
        try:
            Z64 = Zl if isinstance(Zl, np.ndarray) else np.array(Zl, dtype=np.int64)
            if isinstance(Z, ExactRows) and Z64 is Z.num:  # Z' = Z's numerators: their max |.| is known
                m_Z = Z.max_abs()
            else:
                m_Z = max(-int(Z64.min()), int(Z64.max())) if Z64.size else 0  # (np.abs(-2^63) overflows)
            if m_Z >= I64_HEADROOM:
                Z64 = None
        except OverflowError:
            Z64 = None
            m_Z = max((abs(a) for row in Zl for a in row), default=0)
        self.Z64 = Z64
        self.m_Z = m_Z
        # the ExactRows whose numerators Z' are (its shared float32 copy serves the float32 tier), or None
        self._rows = Z if isinstance(Z, ExactRows) and Z64 is not None and Z64 is Z.num else None
        self._Zfloat: dict = {}  # the float copies of Z' by tier, each built when first used
        self._ZTfloat: dict = {}  # ... of Z'^T (the float tiers' scans), each built when its tier is first used
        self._Zl = Zl
        self.Zobj = None  # the Python-integer copy, built when that tier is first needed
        self.p, self.q = step.numerator, step.denominator * L
        self.rescaled = False
        self._unit = step  # the coefficient c with multiplier m = 1 (c = p L / q)
        self.m_v = max((abs(a) for a in v1), default=0)
        self.big = self.m_v >= I64_HEADROOM or Z64 is None
        self._vstale = False  # v is behind the float copy vf (module docstring): the property v reads it back
        # the sum of the bound's increments |m| m_Z over all updates (never tightened): bits_above's own bound is
        # its last exact max plus what grew since, so reading the bit sizes never changes m_v (and the tiers)
        self.grown = 0
        self._bits_chk: tuple = (None, 0, 0)  # (q, the exact max |v_j| read then, grown then)
        if self.big:
            self._to_python()
            self.v = np.array(v1, dtype=object)
        else:
            self.v = np.array(v1, dtype=np.int64)
        # the float tier in use: ``vtier``, the float copy ``vf`` of v, Z's copy ``_Zt`` in that type, and the
        # bound ``_vt_mv`` of m_v below which the tier holds (0: none in use; :meth:`_use_float` sets them)
        self.vf = self.vtier = self._Zt = None
        self._vt_mv = 0
        self.tiers = {"float32": 0, "float64": 0, "int64": 0, "python": 0}
        # the cyclic loop's shortest block after a mistake (exactlin.engine.cyclic) while a float tier serves
        self.block_min = self._block_min_float = max(BLOCK_MIN_EXACT,
                                                     min(BLOCK_MIN_FLOAT, BLOCK_ENTRIES // max(self.d, 1)))
        self.rekey = None
        self._cuts: dict = {}
        self._last_cut: dict = {}
        self._cut1: tuple = (None, None, None, None)  # the last (t, q, tier, cut) of _cut: a one-slot memo
        # the float tiers' tests (d m_Z m_v < 2^24; d m_Z m_v < 2^53 and m_v < 2^53) as one comparison each,
        # m_v < _f32_mv and m_v < _f64_mv, decided here once (d m_Z is constant; 0 when the tier is closed: Z'
        # past the tier's bound, or v held as Python ints)
        dm = self.d * m_Z
        closed = Z64 is None or self.big
        self._f32_mv = 0 if closed or m_Z >= F32_EXACT else _least_mv(dm, F32_EXACT)
        if self._f32_mv < F32_UPDATES * m_Z:  # (a float32 copy of Z' costs a pass over the data: opened only
            self._f32_mv = 0  # when the tier can last F32_UPDATES unit updates from v = 0)
        self._f64_mv = 0 if closed or m_Z >= F64_EXACT else _least_mv(dm, F64_EXACT)
        self._last_coef: tuple = (None, None)  # (coef, its multiplier m) of the last add with an integer m
        self._bits_lim: tuple = (None, None, -1)  # bits_above's memo
        self._n2 = None  # ||Z'_i||^2, for speculate
        self.phi = None  # the fingerprint <v, r> (module docstring), kept from the first fingerprint() on
        self._Zr: list | None = None  # <Z'_i, r>
        self.E = 1  # the product of the rescales

    # -- reading -----------------------------------------------------------------------------------------
    @property
    def v(self) -> np.ndarray:
        """The integer vector v (int64, or Python integers once ``big``); after updates that moved only the float
        copy vf, read back from it, exactly (module docstring)."""
        if self._vstale:
            self._v = self.vf.astype(np.int64)
            self._vstale = False
        return self._v

    @v.setter
    def v(self, value: np.ndarray) -> None:
        self._v = value
        self._vstale = False

    def _to_python(self) -> None:
        if self.Zobj is None:
            Zl = self._Zl
            self.Zobj = np.array(Zl.tolist() if isinstance(Zl, np.ndarray) else Zl, dtype=object)

    def _widen(self) -> None:
        """Hold v as Python integers from now on (m_v may reach 2^62); old cycle keys are mapped by ``rekey``."""
        if self.big:
            return
        self._to_python()
        self.big = True
        self._f32_mv = self._f64_mv = 0  # the float tiers are closed for good
        self.v = self.v.astype(object)
        self.drop_float()
        if not self.rescaled:
            self.rekey = lambda old: tuple(_key_values(old))

    @property
    def Zf(self) -> np.ndarray | None:
        """The float64 copy of Z' (None when the tier is closed), built on first use."""
        return self._Zf("float64") if self.Z64 is not None and self.m_Z < F64_EXACT else None

    def _Zf(self, tier: str) -> np.ndarray:
        """Z' in the tier's float type, row by row (n x d), built once."""
        Zt = self._Zfloat.get(tier)
        if Zt is None:
            Zt = self._Zfloat[tier] = self.Z64.astype(_FLOAT[tier])
        return Zt

    def _ZT(self, tier: str) -> np.ndarray:
        """Z'^T in the tier's float type, C-contiguous (d x n), built once: the float tiers' copy.  A block's
        scores are v^T Z'^T[:, i:i+length], d long sums (BLAS reads a short-rowed block about 1.3 to 2.8 times
        faster this way than as the block's rows times v, the more so the fewer the columns); an update adds
        the column Z'^T[:, i].  The float32 copy is the one the data's ExactRows shares (``float32_t``)."""
        ZT = self._ZTfloat.get(tier)
        if ZT is None:
            ZT = self._rows.float32_t() if tier == "float32" and self._rows is not None else None
            if ZT is None:
                ZT = np.ascontiguousarray(self.Z64.T, dtype=_FLOAT[tier])
            self._ZTfloat[tier] = ZT
        return ZT

    def _use_float(self, tier: str) -> None:
        """Make ``tier`` the float tier in use (the caller checked its bound: ``m_v < _f32_mv`` or
        ``m_v < _f64_mv``): the float copy of v in that type (exact: every |v_j| <= m_v is below the bound)."""
        if self.vtier != tier:
            self.vf = self.v.astype(_FLOAT[tier])
            self.vtier, self._Zt = tier, self._ZT(tier)
            self._vt_mv = self._f32_mv if tier == "float32" else self._f64_mv

    def _float_scores(self, i: int, length: int, tier: str) -> np.ndarray:
        """The scores in the float tier ``tier`` (its bound checked by the caller)."""
        self._use_float(tier)
        self.tiers[tier] += 1
        return self.vf @ self._Zt[:, i:i + length]

    def drop_float(self) -> None:
        """Forget the float copy of v (v changed in a way the copy does not follow); rebuilt when next used."""
        if self._vstale:  # v is read back from the copy first
            self.v  # noqa: B018
        self.vf = self.vtier = self._Zt = None
        self._vt_mv = 0

    def _float_tier(self) -> str | None:
        """The float tier whose bound holds now (module docstring), or None.  Where the bound m_v does not admit
        the float32 tier (open for these data) it is first made exact (:meth:`exact_max`, once per state of v):
        the tier chosen is then a function of v alone, whatever else read v before."""
        m_v = self.m_v
        if m_v < self._f32_mv:
            return "float32"
        if self._f32_mv and self._tight != self.grown:
            self._tight = self.grown
            m_v = self.exact_max()
            if m_v < self._f32_mv:
                return "float32"
        if m_v < self._f64_mv:
            return "float64"
        return None

    _tight = -1  # the value of ``grown`` when _float_tier last made m_v exact

    def scan(self, i: int, length: int, t: Cut) -> tuple[Block, int]:
        """``(s, first(s, t))`` with ``s = scores(i, length)``: the cyclic loop's question at every block, in one
        call (on a float tier, the common case, the test is made here without the calls of :meth:`first`)."""
        if not (self.m_v < self._vt_mv and length):  # not the float tier in use (the common case): choose again
            tier = self._float_tier()
            if tier is None or not length:
                self.block_min = BLOCK_MIN_EXACT  # int64 or Python integers: a row costs more, shorter blocks
                s = self.scores(i, length)
                return s, self.first(s, t)
            self._use_float(tier)
            self.block_min = self._block_min_float  # (a float tier again, e.g. after exact_max tightened m_v)
        tier = self.vtier
        self.tiers[tier] += 1
        vals = self.vf @ self._Zt[:, i:i + length]
        memo = self._cut1
        c = memo[3] if memo[0] is t and memo[2] == tier and memo[1] == self.q else self._cut(t, tier)
        wrong = vals <= c
        j = wrong.argmax()  # the first True, or 0 when there is none
        return Block(vals, tier, self.p, self.q * self.L), (int(j) if wrong[j] else length)

    def find(self, i: int, length: int, t: Cut) -> int:
        """``first(scores(i, length), t)`` alone, for a loop that reads no score of the block: on the float tier in
        use, the test of :meth:`scan` without building the Block; elsewhere :meth:`scan`'s answer."""
        if self.m_v < self._vt_mv and length:  # the float tier in use, as in scan
            tier = self.vtier
            self.tiers[tier] += 1
            vals = self.vf @ self._Zt[:, i:i + length]
            memo = self._cut1
            wrong = vals <= (memo[3] if memo[0] is t and memo[2] == tier and memo[1] == self.q else
                             self._cut(t, tier))
            j = wrong.argmax()  # the first True, or 0 when there is none
            return int(j) if wrong[j] else length
        return self.scan(i, length, t)[1]

    def scores(self, i: int, length: int) -> Block:
        tier = self._float_tier()  # the common case, tested in one comparison per tier (see __init__)
        dm = self.d * self.m_Z
        if tier is None and dm * self.m_v >= F64_EXACT:
            self.exact_max()  # the bound m_v may be loose: read the exact max |v_j|, then decide again
            tier = self._float_tier()
        if tier is not None:
            return Block(self._float_scores(i, length, tier), tier, self.p, self.q * self.L)
        bound = dm * self.m_v
        if not self.big and bound < I64_HEADROOM:
            self.tiers["int64"] += 1
            return Block(self.Z64[i:i + length] @ self.v, "int64", self.p, self.q * self.L)
        self._to_python()
        self.tiers["python"] += 1
        v = self.v if self.big else self.v.astype(object)
        return Block(self.Zobj[i:i + length].dot(v), "python", self.p, self.q * self.L)

    @staticmethod
    def threshold(b=0, strict: bool = False) -> Cut:
        return Cut(Fraction(b), strict)

    def _cut(self, t: Cut, tier: str):
        """The integer threshold of ``t`` at the current scale, clamped to ``tier`` (module docstring)."""
        memo = self._cut1  # the same threshold as the last call (a loop's test, block after block)
        if memo[0] is t and memo[2] == tier and memo[1] == self.q:
            return memo[3]
        memo = self._last_cut.get((id(t), tier))  # a loop tests the same few thresholds: no hashing of t
        if memo is not None and memo[0] is t and memo[1] == self.q:
            self._cut1 = memo
            return memo[3]
        key = (t, self.p, self.q)
        c = self._cuts.get(key)
        if c is None:
            x = t.b * self.q * self.L / self.p
            c = math.floor(x) if not t.strict else math.ceil(x) - 1
            if len(self._cuts) > 64:
                self._cuts.clear()
            self._cuts[key] = c
        M = TIER_BOUND.get(tier)
        if M is not None:
            c = max(-M, min(c, M))
            if tier in _FLOAT:  # an integer of magnitude <= M: exact in the tier's type
                c = float(c)
        if len(self._last_cut) > 8:
            self._last_cut.clear()
        self._last_cut[(id(t), tier)] = self._cut1 = (t, self.q, tier, c)
        return c

    def _wrong(self, s: Block, t: Cut) -> np.ndarray:
        wrong = s.values <= self._cut(t, s.tier)
        return wrong.astype(bool) if s.tier == "python" else wrong  # object arrays compare to objects

    def first(self, s: Block, t: Cut) -> int:
        tier = s.tier
        wrong = s.values <= self._cut(t, tier)
        if tier == "python":
            wrong = wrong.astype(bool)
        if not len(wrong):
            return 0
        j = wrong.argmax()  # the first True, or 0 when there is none
        return int(j) if wrong[j] else len(wrong)

    def all(self, s: Block, t: Cut) -> list[int]:
        return np.flatnonzero(self._wrong(s, t)).tolist()

    def count(self, s: Block, t: Cut) -> int:
        return int(np.count_nonzero(self._wrong(s, t)))

    # the scores of all samples at once (scores_every, marks_every), on the float tiers' copies Z'^T; a class
    # default: how many calls to wait before the next exact_max after one that left the float32 tier closed
    _f32_wait = 0

    def _v_as(self, tier: str) -> np.ndarray:
        """v in the float type of ``tier`` (the caller checked that tier's bound, so every entry converts exactly):
        the float copy itself where it is of that type, else converted from it or from v."""
        vf = self.vf
        if vf is not None and self.vtier == tier:
            return vf
        return (vf if vf is not None else self.v).astype(_FLOAT[tier])

    def _every(self) -> tuple[np.ndarray, str]:
        """The scores of samples 0 .. n-1 and their tier, computed as v^T Z'^T on a contiguous transpose of Z'
        (BLAS makes a tall n x d product about twice as fast as d long sums than as n short ones): in float32
        while d m_Z m_v < 2^24, else in float64 on its tier's test (the module docstring's tiers: Z' and v
        convert to the tier's type exactly, and every product and partial sum is an integer it holds), else as
        ``scores(0, n)``: the same integers as ``scores(0, n)`` in every case.

        The bound m_v only grows with the updates; when it closes the float32 tier it is made exact
        (``exact_max``), and after a call that found the tier really closed the next :data:`F32_RETRY` calls do
        not try again (the test stays exact: it is only asked less often)."""
        f32_mv = self._f32_mv
        if f32_mv and self.n:
            if self.m_v >= f32_mv:
                if self._f32_wait:
                    self._f32_wait -= 1
                elif self.exact_max() >= f32_mv:
                    self._f32_wait = F32_RETRY
            if self.m_v < f32_mv:
                self.tiers["float32"] += 1
                return self._v_as("float32") @ self._ZT("float32"), "float32"
        if self.m_v < self._f64_mv and self.n:  # the float64 tier's test, as in scores
            self.tiers["float64"] += 1
            return self._v_as("float64") @ self._ZT("float64"), "float64"
        s = self.scores(0, self.n)
        return s.values, s.tier

    def scores_every(self) -> Block:
        """``scores(0, n)``, computed its fastest way (:meth:`_every`)."""
        values, tier = self._every()
        return Block(values, tier, self.p, self.q * self.L)

    def marks_every(self, t: Cut) -> np.ndarray:
        """A boolean array, True exactly at the samples j (of all n) with the test ``t`` on <w, z_j>: the tests
        of :meth:`all` on ``scores_every()``, without building the block."""
        if self.m_v < self._f32_mv and self.n:  # the float32 tier's common case, as _every takes it
            self.tiers["float32"] += 1
            values, tier = self._v_as("float32") @ self._ZT("float32"), "float32"
        else:
            values, tier = self._every()
        memo = self._cut1  # the threshold of the last call, as in scan
        c = memo[3] if memo[0] is t and memo[2] == tier and memo[1] == self.q else self._cut(t, tier)
        return values <= c if tier != "python" else (values <= c).astype(bool)

    def exact(self, s: Block, j: int) -> Fraction:
        return Fraction(s.num * int(s.values[j]), s.den)

    # -- writing -----------------------------------------------------------------------------------------
    def _multiplier(self, coef) -> Fraction:
        return Fraction(coef) * self.q / (self.p * self.L)

    def _rescale(self, e: int) -> None:
        """v <- e v, q <- e q (w unchanged)."""
        if not self.rescaled:  # the keys so far are v at this scale: map them to the canonical form
            self.rescaled = True
            p0, q0 = self.p, self.q
            self.rekey = lambda old: self._canonical(_key_values(old), p0, q0)
        self.m_v *= e
        if not self.big and (self.m_v >= I64_HEADROOM or e >= I64_HEADROOM):  # (e itself must fit: v may be 0)
            self._widen()
        self.v = self.v * e
        if self.phi is not None:
            self.phi *= e
        self.E *= e
        self.drop_float()
        self.q *= e
        self._unit = Fraction(self.p * self.L, self.q)
        self._cuts.clear()
        self._last_coef = (None, None)

    def add(self, i: int, coef) -> None:
        last = self._last_coef
        if coef is last[0]:  # the same coefficient object as the last update (a constant step): m known
            m = last[1]
        elif coef == self._unit:
            m = 1
            self._last_coef = (coef, 1)
        elif coef == -self._unit:
            m = -1
            self._last_coef = (coef, -1)
        else:
            m = self._multiplier(coef)
            if m.denominator != 1:
                self._rescale(m.denominator)
            m = m.numerator
        if not self.m_Z:  # z_i = 0: w does not move
            return
        if self.phi is not None:
            self.phi += m * self._Zr[i]
        g = abs(m) * self.m_Z
        self.m_v += g
        self.grown += g
        if not self.big and self.m_v >= I64_HEADROOM:
            self._widen()
        if self.big:
            self.v = self.v + (self.Zobj[i] if m == 1 else m * self.Zobj[i])
            return
        tier = self.vtier
        if tier is not None and self.m_v < TIER_BOUND[tier] >> 1:  # the float copy alone moves while it stays exact
            z = self._Zt[:, i]  # in its type; v is read back from it when asked for (module docstring)
            if m == 1:
                self.vf += z
            elif m == -1:
                self.vf -= z
            else:
                self.vf += m * z
            self._vstale = True
            return
        if tier is not None:
            self.drop_float()  # (v read back from the copy first)
        if m == 1:
            self.v += self.Z64[i]
        elif m == -1:
            self.v -= self.Z64[i]
        else:
            self.v += m * self.Z64[i]

    def add_many(self, idx: Sequence[int], coefs: Sequence) -> None:
        if one_for_all(coefs):  # an integer multiplier at once
            m = self._integer_multiplier(coefs[0])
            if m is not None:
                self._add_same(idx, m)
                return
        ms = [self._multiplier(c) for c in coefs]
        e = math.lcm(*(m.denominator for m in ms)) if ms else 1
        if e != 1:
            self._rescale(e)
            ms = [m * e for m in ms]
        ints = [int(m) for m in ms]
        if not self.m_Z:
            return
        if self.phi is not None:
            self.phi += sum(m * self._Zr[i] for m, i in zip(ints, idx))
        g = sum(abs(m) for m in ints) * self.m_Z
        self.m_v += g
        self.grown += g
        if not self.big and self.m_v >= I64_HEADROOM:
            self._widen()
        if not ints:
            return
        if self.big:
            self.v = self.v + np.array(ints, dtype=object) @ self.Zobj[list(idx)]
        else:
            # |sum| <= sum |m| m_Z <= m_v < 2^62: the int64 products and sums cannot overflow
            self.v += np.array(ints, dtype=np.int64) @ self.Z64[list(idx)]
        self.drop_float()

    def _integer_multiplier(self, coef) -> int | None:
        """The multiplier m of ``coef`` when it is an integer (no rescale needed), else None."""
        last = self._last_coef
        if coef is last[0]:
            return last[1]
        m = self._multiplier(coef)
        return int(m) if m.denominator == 1 else None

    def _add_same(self, idx: Sequence[int], m: int) -> None:
        """v <- v + m sum_{i in idx} Z'_i (``add_many`` with one coefficient, whose multiplier m is an integer)."""
        if not self.m_Z or not len(idx):
            return
        if self.phi is not None:
            self.phi += m * sum(self._Zr[i] for i in idx)
        g = abs(m) * len(idx) * self.m_Z
        self.m_v += g
        self.grown += g
        if not self.big and self.m_v >= I64_HEADROOM:
            self._widen()
        if self.big:
            self.v = self.v + m * self.Zobj[list(idx)].sum(axis=0)
        else:  # |m sum Z'_i| <= |m| len(idx) m_Z <= m_v < 2^62: no int64 operation overflows
            self.v += m * self.Z64[list(idx)].sum(axis=0)
        self.drop_float()

    def speculate(self, i: int, length: int, hyp: np.ndarray, coef, t: Cut, watch: tuple | None = None):
        """The rounds on samples i .. i+length-1 *if* exactly the rounds where ``hyp`` is True update
        (w <- w + coef z_j) -- a hypothesis, e.g. "as in the last epoch" -- decided exactly, without changing w.

        With v_0 the current v, m the multiplier of ``coef`` and P_j = sum_{l < j, hyp_l} Z'_{i+l}, the state
        before round j of the block would be v_0 + m P_j, so its score is S_j = <v_0, Z'_{i+j}> + m <P_j,
        Z'_{i+j}>: one product and one row-wise product for the whole block.  The hypothesis holds for the
        rounds before the first j where "S_j <= t" (the rule's test) differs from hyp_j; those rounds are
        exactly the rounds the one-by-one loop makes.  Every value is an integer of magnitude at most
        d m_Z (m_v + |m| length m_Z), computed in int64 when that is below 2^62; otherwise (or when m is not an
        integer, or q > 1: the bits of w are then not read from max |v_j| alone) this returns None and the loop
        scans as usual.

        Returns a :class:`Speculation`: ``stop`` (the first round that differs, ``length`` when none), ``at``
        (the offsets of the updates before it), the bits of w after them (``bits_above``, ``first_bits_over``), with
        ``watch = (j, t_w)`` the test "<w, z_j> <= t_w" after each update (``watched``, booleans), and the
        states after the updates on request (``state(u)``).
        """
        m = self._integer_multiplier(coef)
        if m is None or self.big or self.Z64 is None or self.q != 1 or not length:
            return None
        bound = self.m_v + abs(m) * length * self.m_Z
        if self.d * self.m_Z * bound >= I64_HEADROOM:
            return None
        Zb = self.Z64[i:i + length]
        inc = Zb * hyp[:, None]
        np.cumsum(inc, axis=0, out=inc)  # P_{j+1}: the updates through round j (in place: no second array)
        # the block's products with one vector (v_0, and z_j for the watch) in float64 (BLAS) where every product
        # and partial sum is an integer below 2^53 (d m_Z bound covers them): exact, as the tiers' argument
        ZTb = self._ZT("float64")[:, i:i + length] if self.d * self.m_Z * bound < F64_EXACT else None

        def times(u: np.ndarray) -> np.ndarray:  # Zb u, exactly, as int64
            return (u.astype(np.float64) @ ZTb).astype(np.int64) if ZTb is not None else Zb @ u

        # <P_j, Z'_j> = <P_{j+1}, Z'_j> - hyp_j ||Z'_j||^2
        S = times(self.v) + m * (np.einsum("ij,ij->i", inc, Zb) - hyp * self._norms2()[i:i + length])
        self.tiers["speculated"] = self.tiers.get("speculated", 0) + 1  # (in int64)
        differ = (S <= self._cut(t, "int64")) != hyp
        stop = int(differ.argmax())
        if not differ[stop]:
            stop = length
        at = np.flatnonzero(hyp[:stop])
        watched = None
        if watch is not None:
            j, tw = watch
            # <P_{u+1}, z_j> = sum_{l <= u} hyp_l <Z'_{i+l}, z_j>: a running sum of one product, not inc z_j
            g = times(self.Z64[j])
            g *= hyp
            np.cumsum(g, out=g)
            watched = (int(self.v @ self.Z64[j]) + m * g[at]) <= self._cut(tw, "int64")
        return Speculation(stop, at, watched, self.p, self.q, inc, m, self.v.copy(), self.m_Z,
                           Block(S, "int64", self.p, self.q * self.L))

    def apply(self, sp: Speculation, count: int, idx: Sequence[int]) -> None:
        """Make the first ``count`` updates of the speculation ``sp`` (on the samples ``idx``): v becomes the
        state after the last of them, v0 + m P, which speculate computed exactly (no other change happened to v
        in between: the loop applies a speculation right after making it)."""
        if not count:
            return
        if self.phi is not None:
            self.phi += sp.m * sum(self._Zr[i] for i in idx)
        self.v = sp.state(count - 1)[0]
        self.grown += count * abs(sp.m) * self.m_Z  # (>= what the count updates can add to any |v_j|)
        self.exact_max()
        self.drop_float()

    def _norms2(self) -> np.ndarray:
        """||Z'_i||^2 for every sample (int64: at most d m_Z^2, below 2^62 wherever speculate runs)."""
        if self._n2 is None:
            self._n2 = np.einsum("ij,ij->i", self.Z64, self.Z64)
        return self._n2

    # -- the state ---------------------------------------------------------------------------------------
    def exact_max(self) -> int:
        """Make the bound m_v exact: max |v_j|."""
        self.m_v = self._vmax()
        return self.m_v

    def _vmax(self) -> int:
        """max |v_j|, read without changing the bound m_v."""
        v = self.vf if self._vstale else self.v  # (the float copy's entries are v's, exactly, while v is behind it)
        return int(np.abs(v).max()) if v.size else 0

    def fingerprint(self):
        """phi / E (module docstring): equal for equal w."""
        if self.phi is None:
            self._start_fingerprint()
        return self.phi if self.E == 1 else Fraction(self.phi, self.E)

    def _start_fingerprint(self) -> None:
        r = fingerprint_weights(self.d)
        dm = self.d * self.m_Z * 255  # >= max |<Z'_i, r>| and every partial sum
        if self._f32_mv and dm < F32_EXACT:  # the float copy of Z' the scans use: exact below 2^24 (2^53)
            self._Zr = (r.astype(np.float32) @ self._ZT("float32")).astype(np.int64).tolist()
        elif self._f64_mv and dm < F64_EXACT:
            self._Zr = (r.astype(np.float64) @ self._ZT("float64")).astype(np.int64).tolist()
        elif self.Z64 is not None and dm < I64_HEADROOM:
            self._Zr = (self.Z64 @ r).tolist()
        else:
            self._to_python()
            self._Zr = self.Zobj.dot(np.array(r.tolist(), dtype=object)).tolist()
        self.phi = sum(int(a) * int(b) for a, b in zip(self.v.tolist(), r.tolist()))

    def combination_is_zero(self, idx: Sequence[int], coefs: Sequence) -> bool:
        """Exactly: sum_m coefs[m] z_{idx[m]} = 0?  (In integers: coefs scaled by the lcm D of their
        denominators, then sum_m (D coefs[m]) Z'_{idx[m]} in int64 while sum |D coefs[m]| m_Z < 2^62.  With one
        coefficient c for all -- a constant step --, the sum is c sum_m z_{idx[m]} = (c / L) sum_m Z'_{idx[m]}: zero
        iff c = 0 or the integer sum is, in int64 while len(idx) m_Z < 2^62.)"""
        if one_for_all(coefs):
            if not coefs[0]:
                return True
            if self.Z64 is not None and len(idx) * self.m_Z < I64_HEADROOM:
                return not self.Z64[np.asarray(idx, dtype=np.intp)].sum(axis=0).any()
        cs = [Fraction(c) for c in coefs]
        D = math.lcm(*(c.denominator for c in cs)) if cs else 1
        a = [c.numerator * (D // c.denominator) for c in cs]
        if not a:
            return True
        if self.Z64 is not None and sum(abs(x) for x in a) * self.m_Z < I64_HEADROOM:
            total = np.array(a, dtype=np.int64) @ self.Z64[list(idx)]
        else:
            self._to_python()
            total = np.array(a, dtype=object) @ self.Zobj[list(idx)]
        return not any(total.tolist())

    def key(self):
        if self.rescaled:
            return self._canonical(self.v.tolist(), self.p, self.q)
        return tuple(self.v.tolist()) if self.big else self.v.tobytes()

    @staticmethod
    def _canonical(vals: list[int], p: int, q: int):
        g = math.gcd(*vals)
        if g == 0:  # w = 0, whatever the scale
            return Fraction(0), tuple(vals)
        if g > 1:
            vals = [a // g for a in vals]
        return Fraction(p * g, q), tuple(vals)

    def bits(self) -> int:
        """:func:`fraction_bits` of w = p v / q, computed from v."""
        p, q = self.p, self.q
        m = self._vmax()
        if q == 1:
            return max((p * m).bit_length(), 1) if m else 1
        if not self.big and p * m < I64_HEADROOM and q < I64_HEADROOM:
            num = p * self.v
            g = np.gcd(num, q)
            return max(int(np.abs(num // g).max()).bit_length(), int((q // g).max()).bit_length(), 1)
        out = 1
        for a in self.v.tolist():
            g = math.gcd(p * a, q)
            out = max(out, abs(p * a // g).bit_length(), (q // g).bit_length())
        return out

    def bits_after(self, coef):
        """For a run from the current w whose every update is w + coef z_i: a function ``f(idx)`` giving, for
        the updated samples' indices ``idx`` (in order), the largest :meth:`bits` over the states after those
        updates -- what :meth:`bits_above` after each update would have found, computed once at the end; or
        None where this representation does not offer it (coef's multiplier m is not an integer, or q != 1).

        Exact: with m an integer no update rescales, so the states are v_t = v_0 + m (Z'_{idx_1} + ... +
        Z'_{idx_t}) at the fixed scale p / q = p, and bits(v_t) = bitlen(p max_j |v_t,j|) (at least 1).  With
        top = m_0 + |m| U m_Z (m_0 = max |v_0,j|, U updates; a bound on every |v_t,j| and every partial sum) the
        states are formed in float32 on the scans' float32 copy of Z' when top < 2^24, in float64 when
        top < 2^53 (integers those types hold exactly, in any order), else in Python integers."""
        m = self._integer_multiplier(coef)
        if m is None or self.q != 1:
            return None
        v0 = [int(a) for a in self.v.tolist()]
        m0 = max((abs(a) for a in v0), default=0)
        p = self.p

        def bits(idx) -> int:
            idx = np.asarray(idx, dtype=np.int64)
            U = len(idx)
            if not U or not m or not self.m_Z:
                return max((p * m0).bit_length(), 1) if m0 else 1
            top = m0 + abs(m) * U * self.m_Z  # >= every |v_t,j|
            M = m0
            ZT32 = self._ZTfloat.get("float32")
            if self.Z64 is not None and top < F64_EXACT:
                # float32 throughout on the scans' copy Z'^T when top < 2^24, else float64; the states as columns
                ftype = np.float32 if ZT32 is not None and top < F32_EXACT else np.float64
                V = np.array(v0, dtype=ftype)[:, None]
                for start in range(0, U, 4096):
                    chunk = idx[start:start + 4096]
                    S = (ZT32[:, chunk].astype(ftype, copy=False) if ZT32 is not None else  # (a gather: a new
                         self.Z64[chunk].T.astype(ftype))  # array, d x chunk)
                    np.cumsum(S, axis=1, out=S)
                    if m != 1:
                        S *= m
                    S += V
                    M = max(M, int(np.abs(S).max()))
                    V = S[:, -1:].copy()
            else:  # Python integers (rare: the states leave float64)
                self._to_python()
                V = np.array(v0, dtype=object)
                for i in idx.tolist():
                    V = V + m * self.Zobj[i]
                    M = max(M, max(abs(a) for a in V.tolist()))
            return max((p * M).bit_length(), 1) if M else 1

        return bits

    def bits_above(self, current: int) -> int:
        """max(current, bits()), looking only at the entries that could exceed ``current``."""
        lim = self._bits_lim  # (current, q, the largest max |v_j| with bitlen(p max) <= current), or a stale triple
        chk = self._bits_chk  # the bound of max |v_j|: m_v, or the last exact read plus what grew since
        bound = min(self.m_v, chk[1] + self.grown - chk[2]) if chk[0] is self.q else self.m_v
        if lim[0] == current and lim[1] is self.q and bound <= lim[2]:
            return current
        p, q = self.p, self.q
        # an upper bound first: a reduced numerator divides p v_j, a reduced denominator divides q
        if q.bit_length() <= current:
            self._bits_lim = (current, q, ((1 << current) - 1) // p)
            if bound <= self._bits_lim[2]:
                return current
        m = self._vmax()
        self._bits_chk = (q, m, self.grown)
        if max((p * m).bit_length(), q.bit_length()) <= current:
            return current
        if q == 1 or q.bit_length() > current:
            return max(current, self.bits())
        thr = 1 << current
        vals = [a for a in self.v.tolist() if abs(p * a) >= thr]
        out = current
        for a in vals:
            g = math.gcd(p * a, q)
            out = max(out, abs(p * a // g).bit_length(), (q // g).bit_length())
        return out

    def w(self) -> tuple:
        return self.fractions(self.snapshot())

    def snapshot(self):
        if self._vstale:  # read back from the float copy: a new array already (v itself stays behind)
            return self.vf.astype(np.int64), self.p, self.q
        return self.v.copy(), self.p, self.q

    @staticmethod
    def fractions(snap) -> tuple:
        v, p, q = snap
        vals = v.tolist()
        if p == 1 and q == 1:
            return tuple(Fraction(a) for a in vals)
        return tuple(Fraction(p * a, q) for a in vals)


def _key_values(old) -> list[int]:
    """The entries of v from a key taken before a change of representation (int64 bytes or a tuple)."""
    return np.frombuffer(old, dtype=np.int64).tolist() if isinstance(old, bytes) else list(old)
