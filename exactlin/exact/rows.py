"""Exact rational matrices held as integers: the representation the fast paths compute on.

An :class:`ExactRows` is the matrix ``num / den``: ``num`` a read-only 2-D numpy ``int64`` array,
``den >= 1`` a Python int (a common denominator, not necessarily the least).  It *is* a sequence of
exact rows (tuples of ``Fraction``) for every reader that wants Fractions -- they are built the first
time a row is read, once, and shared -- while an algorithm with an integer kernel reads ``num`` and
``den`` and never builds a Fraction at all.  Integer numpy input becomes an ExactRows without any
per-entry work (one copy, so a later change to the caller's array cannot change the data); rational
data can be given directly as ``ExactRows(num, den)`` (also exported as :func:`scaled`).

Why it stays exact: the entries are integers held in int64 (the constructor refuses anything that is
not an integer of magnitude below 2**63, so nothing was rounded on the way in); every derived
ExactRows (augmentation, normalization by +1/-1 labels, row selection) is formed by integer
operations whose results are proven to fit in int64 before they are formed (negation is safe because
-2**63 is refused); and the rational value of entry (i, j) is always ``Fraction(num[i, j], den)``.

:func:`int_matvec` computes ``M v`` for an int64 matrix ``M`` and a vector ``v`` of *arbitrary* Python
integers, exactly and at BLAS speed: v is split into signed limbs of s bits, each limb column is
multiplied in float64 where a bound proves every product and partial sum is an integer below 2**53
(so IEEE arithmetic is exact in any summation order), the limb products are carried into digits in
int64, and each result is read from its digits' bytes as one Python integer.

>>> R = ExactRows([[1, 2], [3, -4]], 2)
>>> R[1]
(Fraction(3, 2), Fraction(-2, 1))
>>> A = R.augmented("first")
>>> A.num.tolist(), A.den
([[2, 1, 2], [2, 3, -4]], 2)
>>> int_matvec(np.array([[1, 2], [3, -4]]), [10**30, -1]) == [10**30 - 2, 3 * 10**30 + 4]
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction

import numpy as np

from exactlin.errors import InputError, InputTypeError, ShapeError
from exactlin.exact.format import fmt

__all__ = ["ExactRows", "ExactVector", "scaled", "int_matvec", "as_exact_rows", "F32_EXACT", "F64_EXACT",
           "I64_LIMIT", "I64_HEADROOM"]

# The exactness bounds, defined here once (the lowest layer that needs them) and imported everywhere else.
# Each is an exclusive bound on a magnitude: a value v is safe in its representation when |v| < bound.
#: float64 holds every integer of magnitude < 2**53 exactly (a product or partial sum proven below this
#: is computed exactly by IEEE arithmetic, in any order)
F64_EXACT = 1 << 53
#: float32 holds every integer of magnitude < 2**24 exactly (its significand has 24 bits), by the same argument
F32_EXACT = 1 << 24
#: int64 holds every integer of magnitude < 2**63; ExactRows entries have magnitude < 2**63 (so -x never
#: overflows int64).  Use it for a value that is checked after its last int64 operation.
I64_LIMIT = 1 << 63
#: one bit of headroom below I64_LIMIT: two values of magnitude < 2**62 add (or subtract) to one of magnitude
#: < 2**63, so a value bounded by this may take one more int64 addition before the next check
I64_HEADROOM = 1 << 62


def fraction_rows(rows: list[list[int]], den: int = 1) -> tuple[tuple[Fraction, ...], ...]:
    """Rows of integers over ``den`` as tuples of Fractions, each distinct value built once and shared
    (Fractions are immutable); integer data usually has few distinct values, so this is mostly dict lookups."""
    cache: dict[int, Fraction] = {}
    get = cache.get
    out = []
    for r in rows:
        row = []
        for v in r:
            q = get(v)
            if q is None:
                q = cache[v] = Fraction(v, den)
            row.append(q)
        out.append(tuple(row))
    return tuple(out)


class ExactRows(Sequence):
    """The exact matrix ``num / den`` (see the module docstring), a sequence of rows of Fractions."""

    __slots__ = ("num", "den", "_rows", "_max", "_f32")

    def __init__(self, num, den: int = 1):
        if isinstance(den, bool) or not isinstance(den, (int, np.integer)):
            raise InputTypeError(f"ExactRows: den must be a positive integer, got {type(den).__name__} {den!r}")
        den = int(den)
        if den < 1:
            raise InputError(f"ExactRows: den must be >= 1, got {den}")
        if isinstance(num, np.ndarray):
            if num.dtype.kind not in "iu":
                raise InputTypeError(f"ExactRows: num must hold integers, got dtype {num.dtype} "
                                     "(floats are converted by the conversion rule, not here)")
            if num.dtype.kind == "u" and num.size and int(num.max()) >= I64_LIMIT:
                raise InputError("ExactRows: an entry of num is >= 2**63; give such data as Fractions or ints")
            arr = np.array(num, dtype=np.int64, copy=True)
        else:
            if isinstance(num, (str, bytes)) or not isinstance(num, Iterable):
                raise InputTypeError(f"ExactRows: num must be a 2-D integer array or rows of integers, got "
                                     f"{type(num).__name__}")
            rows = []
            for i, r in enumerate(num):
                if isinstance(r, (str, bytes)) or not isinstance(r, Iterable):
                    raise ShapeError(f"ExactRows: num must be 2-D (rows of integers); row {i} is "
                                     f"{type(r).__name__} {r!r}", row=i)
                rows.append(list(r))
            for i, r in enumerate(rows):
                for j, v in enumerate(r):
                    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                        raise InputTypeError(f"ExactRows: num row {i}, column {j} is {type(v).__name__} {v!r}, "
                                             "not an integer", row=i, column=j)
                    if not -I64_LIMIT < int(v) < I64_LIMIT:
                        raise InputError(f"ExactRows: num row {i}, column {j} does not fit in int64", row=i,
                                         column=j)
            widths = {len(r) for r in rows}
            if len(widths) > 1:
                raise ShapeError("ExactRows: num is ragged")
            arr = np.array(rows, dtype=np.int64).reshape(len(rows), widths.pop() if widths else 0)
        if arr.ndim != 2:
            raise ShapeError(f"ExactRows: num must be 2-D, got shape {arr.shape}")
        if arr.size and int(arr.min()) == -I64_LIMIT:
            raise InputError("ExactRows: an entry of num is -2**63; give such data as Fractions or ints")
        self._init(arr, den)

    def _init(self, arr: np.ndarray, den: int) -> None:
        arr.flags.writeable = False
        self.num = arr
        self.den = den
        self._rows = None
        self._max = None
        self._f32 = None

    @classmethod
    def _trusted(cls, arr: np.ndarray, den: int) -> ExactRows:
        """From an int64 array this module made (entries proven in (-2**63, 2**63)); no copy."""
        self = cls.__new__(cls)
        self._init(arr, den)
        return self

    # -- the sequence of exact rows ------------------------------------------------------------------
    def rows(self) -> tuple[tuple[Fraction, ...], ...]:
        """The rows as tuples of Fractions (built once, on first use)."""
        if self._rows is None:
            self._rows = fraction_rows(self.num.tolist(), self.den)
        return self._rows

    def __len__(self) -> int:
        return self.num.shape[0]

    def __getitem__(self, i):
        return self.rows()[i]

    def __iter__(self):
        return iter(self.rows())

    def __bool__(self) -> bool:
        return self.num.shape[0] > 0

    def __eq__(self, other) -> bool:
        if isinstance(other, ExactRows):
            if self.num.shape != other.num.shape:
                return False
            if self.den == other.den:
                return bool(np.array_equal(self.num, other.num))
            return self.rows() == other.rows()
        if isinstance(other, (tuple, list)):
            return self.rows() == tuple(tuple(r) for r in other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.rows())

    def __repr__(self) -> str:
        return f"ExactRows({self.num.tolist()!r}, {self.den})" if self.num.size <= 64 else \
            f"<ExactRows {self.num.shape[0]} x {self.num.shape[1]} / {self.den}>"

    def tolist(self) -> list[list[Fraction]]:
        """The rows as lists of Fractions (as numpy's ``tolist``, for readers of array-likes)."""
        return [list(r) for r in self.rows()]

    def __reduce__(self):
        return (ExactRows, (self.num, self.den))

    # -- integer views ---------------------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, int]:
        return self.num.shape

    def max_abs(self) -> int:
        """max |num_ij| (0 when empty), a Python int."""
        if self._max is None:
            self._max = max(int(self.num.max()), -int(self.num.min())) if self.num.size else 0
        return self._max

    def float32_t(self) -> np.ndarray | None:
        """``num``'s transpose as a read-only C-contiguous float32 array (columns x rows), built once and shared
        by its readers (the engine's scans, the convergence monitor's products: a product with a vector is fastest
        on this layout); None when some |num_ij| >= 2**24.  Exact: float32 holds every integer of magnitude below
        2**24.  (What is computed on it is exact only under its reader's own bound.)"""
        if self._f32 is None:
            if self.max_abs() >= F32_EXACT:
                return None
            f = np.ascontiguousarray(self.num.T, dtype=np.float32)
            f.flags.writeable = False
            self._f32 = f
        return self._f32

    def augmented(self, bias: str) -> ExactRows:
        """The samples with a constant 1 (= den / den) first or last; ``none``: self."""
        if bias == "none":
            return self
        if self.den >= I64_LIMIT:  # scaled(K, D) takes any D; data.augment then uses the Fraction rows
            raise InputError("ExactRows: the common denominator does not fit in int64")
        col = np.full((self.num.shape[0], 1), self.den, dtype=np.int64)
        parts = (col, self.num) if bias == "first" else (self.num, col)
        out = ExactRows._trusted(np.hstack(parts), self.den)
        if self._max is not None:  # the new column holds den
            out._max = max(self._max, self.den)
        return out

    def signed(self, z) -> ExactRows:
        """Row i multiplied by z_i in {+1, -1} (seed 003's normalized samples); ``z`` the signs, or a boolean
        numpy array True where z_i = -1.  Exact: -x fits (|x| < 2**63)."""
        neg = z if isinstance(z, np.ndarray) and z.dtype == np.bool_ else np.asarray(z, dtype=np.int64) < 0
        if len(neg) != self.num.shape[0]:
            raise ShapeError(f"{self.num.shape[0]} samples but {len(neg)} labels")
        sign = np.ones(len(neg), dtype=np.int64)
        sign[neg] = -1
        num = self.num * sign[:, None]  # (one pass: cheaper than a copy negated where z_i = -1)
        out = ExactRows._trusted(num, self.den)
        out._max = self._max  # a sign changes no magnitude
        return out

    def take(self, indices) -> ExactRows:
        """The rows at ``indices`` (a list of ints or a boolean mask)."""
        return ExactRows._trusted(self.num[np.asarray(indices)], self.den)

    def scaled_to(self, L: int):
        """``num * (L // den)``, the matrix times L, for a multiple L of den: an int64 array when every
        entry provably fits, else a numpy object array of Python ints."""
        if L % self.den:
            raise ValueError(f"{L} is not a multiple of the denominator {self.den}")
        f = L // self.den
        if f == 1:
            return self.num
        if self.max_abs() * f < I64_LIMIT:
            return self.num * np.int64(f)
        return self.num.astype(object) * f


class ExactVector(Sequence):
    """The exact vector ``nums / den`` (Python integers over one integer den >= 1), a sequence of
    Fractions built on first use.

    Reducing a Fraction costs a gcd of full-size numbers: the MSE residual of a 2000-sample problem has
    2000 entries of ~800 bits, and reducing them all costs several times the whole solve.  Callers that
    never read the entries pay nothing; indexing builds one Fraction, iteration builds (and keeps) them
    all.  ``nums`` may also be a function of no arguments returning the integers, called on first use
    (then ``n``, the length, is given).  It compares equal to the tuple of its Fractions and to an equal
    ExactVector, prints as a tuple, and becomes a JSON list of exact strings via ``to_dict``
    (:func:`exactlin.model.run.to_jsonable`).
    """

    __slots__ = ("_nums", "_make", "_n", "den", "_fr")

    def __init__(self, nums, den: int, *, n: int | None = None):
        den = int(den)
        if den < 1:
            raise ValueError(f"ExactVector: den must be >= 1, got {den}")
        self.den = den
        self._fr = None
        if callable(nums):
            if n is None:
                raise ValueError("ExactVector: give the length n with a deferred nums")
            self._nums, self._make, self._n = None, nums, int(n)
        else:
            self._nums = tuple(int(v) for v in nums)
            self._make, self._n = None, len(self._nums)

    @property
    def nums(self) -> tuple[int, ...]:
        """The numerators (computed on first use when deferred)."""
        if self._nums is None:
            nums = tuple(int(v) for v in self._make())
            if len(nums) != self._n:  # pragma: no cover - a deferred producer of the wrong length
                raise ShapeError(f"ExactVector: expected {self._n} entries, got {len(nums)}")
            self._nums, self._make = nums, None
        return self._nums

    def fractions(self) -> tuple[Fraction, ...]:
        """The entries as a tuple of Fractions (built once)."""
        if self._fr is None:
            den = self.den
            self._fr = tuple(Fraction(v, den) for v in self.nums)
        return self._fr

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i):
        if self._fr is not None or isinstance(i, slice):
            return self.fractions()[i]
        return Fraction(self.nums[i], self.den)

    def __iter__(self):
        return iter(self.fractions())

    def __eq__(self, other) -> bool:
        if isinstance(other, ExactVector):
            return self._n == other._n and all(u * other.den == v * self.den for u, v in zip(self.nums, other.nums))
        if isinstance(other, tuple):
            return self.fractions() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.fractions())

    def __str__(self) -> str:
        return "(" + ", ".join(fmt(v) for v in self.fractions()) + ")"

    def __repr__(self) -> str:
        return repr(self.fractions()) if self._n <= 16 else f"<ExactVector of {self._n} entries>"

    def __reduce__(self):
        return (ExactVector, (self.nums, self.den))

    def to_dict(self) -> list[str]:
        """The JSON form (exact strings such as ``"-4/3"``), as for a tuple of Fractions."""
        return [fmt(v) for v in self.fractions()]


def scaled(num, den: int = 1) -> ExactRows:
    """The exact rational matrix ``num / den`` (``num`` integers), accepted wherever data are:
    ``perceptron(scaled(K, 250), y)`` is the data K/250 without building a Fraction per entry."""
    return ExactRows(num, den)


def as_exact_rows(X) -> ExactRows | None:
    """X as an ExactRows without per-entry work when that is possible (X already is one, or X is a
    numpy integer array that fits int64), else None."""
    if isinstance(X, ExactRows):
        return X
    if isinstance(X, np.ndarray) and X.dtype.kind in "iu" and X.ndim == 2:
        if X.dtype.kind == "u" and X.size and int(X.max()) >= I64_LIMIT:
            return None
        arr = np.array(X, dtype=np.int64, copy=True)
        lo = int(arr.min()) if arr.size else 0
        if lo == -I64_LIMIT:
            return None
        out = ExactRows._trusted(arr, 1)
        out._max = max(-lo, int(arr.max())) if arr.size else 0  # known now: max_abs costs nothing later
        return out
    return None


def from_fraction_rows(rows: tuple) -> ExactRows | None:
    """Rows already converted to Fractions (tuples of Fractions, equal lengths) as an ExactRows that keeps
    those very rows (nothing is rebuilt), with num = L rows for L the least common denominator; None when
    an entry of num would not fit in int64 (the caller keeps the tuples)."""
    if not rows or not rows[0]:
        return None
    try:
        dens = {q._denominator for r in rows for q in r}  # Fraction's slots: no property call per entry
        L = math.lcm(*dens)
        if L == 1:
            flat = [q._numerator for r in rows for q in r]
        else:
            mult = {b: L // b for b in dens}
            flat = [q._numerator * mult[q._denominator] for r in rows for q in r]
    except AttributeError:  # not all Fractions
        return None
    if L >= I64_LIMIT:
        return None
    try:
        arr = np.array(flat, dtype=np.int64).reshape(len(rows), len(rows[0]))
    except (OverflowError, ValueError):
        return None
    if arr.size and int(arr.min()) == -I64_LIMIT:
        return None
    out = ExactRows._trusted(arr, L)
    out._rows = rows
    return out


def int_matvec(M: np.ndarray, v: Sequence[int]) -> list[int]:
    """``M v`` exactly, as a list of Python ints, for an integer array ``M`` (n x d) and a vector ``v``
    of d Python integers of any size.

    With m = max |M_ij| and s the largest limb width with d m (2**s - 1) < 2**53, write
    |v_j| = sum_k c_jk 2**(s k) with 0 <= c_jk < 2**s.  Then (M v)_i = sum_k 2**(s k) (M C_k)_i with
    C_k = (sign(v_j) c_jk)_j, and every product and partial sum of M C_k is an integer of magnitude
    <= d m (2**s - 1) < 2**53, so the float64 product (BLAS, any order) is exact.  s is rounded down to
    whole bytes; the limb products R_k (|R_k| < 2**53) are carried into digits D_k in [0, 2**s) in int64
    (t = R_k + carry, D_k = t mod 2**s, carry = floor(t / 2**s): |carry| < 2**(53 - s) + 1, so t fits),
    and each result is int.from_bytes of its digits plus carry 2**(s K).  When s < 8 (entries of M too
    large) the product is computed in Python integers.
    """
    M = np.asarray(M)
    n, d = M.shape
    v = [int(a) for a in v]
    if len(v) != d:
        raise ShapeError(f"int_matvec: M has {d} columns but v has {len(v)} entries")
    if n == 0:
        return []
    m = max(int(M.max()), -int(M.min())) if M.size else 0
    vmax = max((abs(a) for a in v), default=0)
    if m == 0 or vmax == 0:
        return [0] * n
    dm = d * m
    s = 52 - dm.bit_length()  # d m 2**s <= 2**(bits(dm) + s) <= 2**52 < 2**53
    Mf = M.astype(np.float64)
    if dm * vmax < F64_EXACT:
        return [int(x) for x in (Mf @ np.array(v, dtype=np.float64)).tolist()]
    s = (s // 8) * 8  # whole bytes, so the recombined limbs can be read with int.from_bytes
    if s < 8:
        return [int(x) for x in M.astype(object).dot(np.array(v, dtype=object))]
    K = (vmax.bit_length() + s - 1) // s
    mask = (1 << s) - 1
    nb = s // 8
    # the limbs c_jk: the bytes of |v_j| (little-endian, K nb bytes each) regrouped nb at a time
    raw = np.frombuffer(b"".join(abs(a).to_bytes(K * nb, "little") for a in v), dtype=np.uint8)
    padded = np.zeros((d, K, 8), dtype=np.uint8)
    padded[:, :, :nb] = raw.reshape(d, K, nb)
    C = padded.view("<u8").reshape(d, K).astype(np.float64)  # limbs < 2**s <= 2**52: exact in float64
    C *= np.array([-1.0 if a < 0 else 1.0 for a in v]).reshape(d, 1)
    R = (Mf @ C).astype(np.int64)  # exact integers of magnitude < 2**53
    # carries: digits D_k in [0, 2**s) and a final carry c with  sum_k R_k 2**(s k) = sum_k D_k 2**(s k)
    # + c 2**(s K); every intermediate is below 2**53 + 2**(53 - s) in magnitude, so int64 is exact
    D = np.empty((n, K), dtype=np.int64)
    carry = np.zeros(n, dtype=np.int64)
    m64 = np.int64(mask)
    for k in range(K):
        t = R[:, k] + carry
        D[:, k] = t & m64  # two's complement: t mod 2**s, in [0, 2**s)
        carry = t >> s  # floor(t / 2**s)
    raw = np.ascontiguousarray(D.astype("<u8").view(np.uint8).reshape(n, K, 8)[:, :, :nb]).reshape(n, K * nb)
    shift = s * K
    from_bytes = int.from_bytes
    out = []
    for row, c in zip(raw, carry.tolist()):
        x = from_bytes(row.tobytes(), "little")
        out.append(x + (c << shift) if c else x)
    return out


def lcm_denominators(values) -> int:
    """The least common denominator of rationals (ints count as n/1)."""
    return math.lcm(*(Fraction(v).denominator for v in values)) if values else 1
