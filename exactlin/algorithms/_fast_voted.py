"""The voted and averaged perceptrons of seed 000 on the perceptron's integer kernel.

The readable reference is ``perceptron_family._voted`` with the kernel switched off: the Fraction loop
:func:`exactlin.algorithms._loop.cyclic_single_sample` with the perceptron's rule (a mistake iff
<w_m, z_i> <= 0, then w_{m+1} = w_m + z_i, from w_1 = 0) and an ``on_step`` callback that keeps the lecture's
list: m = 1, w_1 = 0, c_1 = 1; on a mistake append (w_{m+1}, 1); on a correct round c_m <- c_m + 1.
:func:`voted_loop` below returns the same LoopResult, the same (w_m, c_m) list and the same averaged vector
sum_m c_m w_m, without a Fraction loop.  Why that is exact:

**1. The sequence w_1, w_2, ... is the perceptron's**, with eta = 1, w_1 = 0, the test ``<= 0`` and no margin:
exactly the iteration :func:`exactlin.algorithms._fast.integer_loop` runs (its module docstring proves that
run identical to ``cyclic_single_sample`` with that rule, field for field: w, converged, reason, updates,
epochs, steps, the mistakes, cycle, cycle_step, max_bits, last_update and the recorded trace, for every
bound and every tier float64 / int64 / Python ints).  So the kernel gives the mistakes i_1, ..., i_U (sample
indices, in order) and K, the number of rounds the run executed (``steps``).

**2. The rounds of the mistakes are determined by their sample indices.**  Round k visits sample
(k - 1) mod n.  Let k_1 < ... < k_U be the mistake rounds and k_0 = 0.  Between two consecutive mistakes
every round is correct, and after n consecutive correct rounds w passes every sample, so no mistake follows
(with either clean stop, ``stop="n-clean"`` or ``"clean-epoch"``), so
1 <= k_m - k_{m-1} <= n; together with k_m - 1 = i_m (mod n) that fixes

    k_m = k_{m-1} + ((i_m - i_{m-1} - 1) mod n) + 1      (i_0 = -1, i.e. k_1 = i_1 + 1).

The last one is checked against the kernel's ``last_update`` (k_U), an independent count.

**3. The survival counts.**  The reference calls ``on_step`` once for every round it executes, before any
stop test of that round (a cycle, bit_limit, max_updates or time_limit stop comes after the round's
``on_step``; a max_epochs or max_steps stop comes before the round, which is then not executed).  c_1 starts
at 1, and the entry appended at the m-th mistake starts at 1; each correct round adds 1 to the newest entry.
So, for every stop,

    c_m = k_m - k_{m-1}   (m = 1..U),       c_{U+1} = K + 1 - k_U,

(the k_m - k_{m-1} - 1 correct rounds before the m-th mistake plus the starting 1; after the last mistake
the K - k_U rounds that followed it).  At a cycle, bit_limit or max_updates stop K = k_U, so the last
c = 1; at convergence K - k_U = n; without any mistake c_1 = K + 1.  Their sum is K + 1.

**4. The vectors in integers.**  With L the kernel's scale (Z'_i = L z_i integers; eta = 1 and w_1 = 0
give v_1 = 0), w_m = V_m / L with V_1 = 0 and V_{m+1} = V_m + Z'_{i_m} (a prefix sum, integers).  Its entries
satisfy |V_m| <= (m - 1) max|Z'|, so the prefix sums are taken in int64 when U max|Z'| < 2^62 (no partial sum
can overflow), else in Python integers.  The averaged vector is, exchanging the two sums,

    sum_m c_m w_m = (1 / L) sum_j (sum_{m > j} c_m) Z'_{i_j} = (1 / L) sum_j (K + 1 - k_j) Z'_{i_j},

since sum_{m <= j} c_m = k_j by point 3: one coefficient per sample (the sum of K + 1 - k_j over its
mistakes), and one product of that coefficient vector with Z', in Python integers.  Each Fraction is built
from these integers once (p / L, reduced), equal in value to the reference's Fraction sums.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from exactlin.algorithms import _fast
from exactlin.errors import InvariantViolation
from exactlin.exact.rows import I64_HEADROOM
from exactlin.model.models import VoteModel
from exactlin.model.run import LazySteps

__all__ = ["voted_loop", "VotedResult", "survival_counts", "mistake_rounds"]

_ONE = Fraction(1)


def mistake_rounds(indices, n: int) -> list[int]:
    """The rounds k_1 < ... < k_U of a cyclic run's mistakes, from their sample indices (module docstring,
    point 2).

    >>> mistake_rounds([0, 1, 3, 0, 0], 4)  # rounds 1, 2, 4, then sample 0 at round 5, again at round 9
    [1, 2, 4, 5, 9]
    """
    out = []
    k = 0
    prev = -1
    for i in indices:
        k += (i - prev - 1) % n + 1
        out.append(k)
        prev = i
    return out


def survival_counts(rounds, steps: int) -> list[int]:
    """c_1, ..., c_{U+1} from the mistake rounds and the rounds executed (module docstring, point 3).

    >>> survival_counts([1, 2, 4], 4), survival_counts([1, 2, 4], 8), survival_counts([], 3)
    ([1, 1, 2, 1], [1, 1, 2, 5], [4])
    """
    out = []
    prev = 0
    for k in rounds:
        out.append(k - prev)
        prev = k
    out.append(steps + 1 - prev)
    return out


class _Rationals(dict):
    """a -> Fraction(a, L), each value built once: the iterates share their entries (a Fraction is immutable,
    as ``exact.numbers.zeros`` shares one zero), so a list of many vectors costs one dict lookup per entry."""

    def __init__(self, L: int):
        super().__init__()
        self.L = L

    def __missing__(self, a: int) -> Fraction:
        q = self[a] = Fraction(a) if self.L == 1 else Fraction(a, self.L)
        return q


class VotedResult:
    """What :func:`voted_loop` returns: ``res`` (the LoopResult), ``counts`` (c_1, ..., c_{U+1}),
    ``averaged`` (sum_m c_m w_m, Fractions), and the vectors w_1, ..., w_{U+1} as tuples of Fractions, built
    from their integers V_m the first time :meth:`vectors` is called; :meth:`voted` is the lecture's list
    of {"w": w_m, "c": c_m} (the Run's ``extras["voted"]``), a sequence built when first read."""

    def __init__(self, res, V, L: int, counts: list[int], averaged: tuple):
        self.res, self.counts, self.averaged = res, counts, averaged
        self._V, self._L = V, L
        self._vectors: list | None = None

    def vectors(self) -> list:
        if self._vectors is None:
            get = _Rationals(self._L).__getitem__
            self._vectors = [tuple(map(get, r)) for r in self._V.tolist()]
            self._V = None
        return self._vectors

    def voted(self) -> LazySteps:
        return LazySteps(len(self.counts), lambda: [{"w": w, "c": c} for w, c in zip(self.vectors(), self.counts)])

    def vote_model(self, bias: str, positive, negative) -> VoteModel:
        """``VoteModel(tuple(zip(vectors, counts)), bias, positive, negative)``.  Its ``__post_init__`` makes
        every w a tuple of Fractions and every c an int; here they already are, so the model is checked on
        its first pair (bias, labels, a nonempty vote) and then given the whole tuple, without converting
        each entry again (the same value, equal field for field)."""
        vecs = self.vectors()
        model = VoteModel(((vecs[0], self.counts[0]),), bias, positive, negative)
        object.__setattr__(model, "vectors", tuple(zip(vecs, self.counts)))
        return model


def voted_loop(Z, bounds, tracer, stop="n-clean"):
    """The voted perceptron's run on the integer kernel, a :class:`VotedResult`: the LoopResult of
    ``cyclic_single_sample`` with the perceptron's rule from w_1 = 0, the counts c_m, the averaged vector
    sum_m c_m w_m and the vectors w_m; or None where the reference loop must run (the kernel switched off,
    or ``trace=True``).  See the module docstring for why it is identical.

    Seed 000's example after one pass (the lecture's list, and the averaged vector (11, -5)):

    >>> from exactlin.algorithms._loop import Bounds, Tracer
    >>> Z = [tuple(Fraction(a) for a in z) for z in [(4, 0), (-1, -1), (0, -1), (-2, -2)]]
    >>> r = voted_loop(Z, Bounds(max_epochs=1), Tracer(False, 2))
    >>> [(tuple(map(int, w)), c) for w, c in zip(r.vectors(), r.counts)], r.averaged
    ([((0, 0), 1), ((4, 0), 1), ((3, -1), 2), ((1, -3), 1)], (Fraction(11, 1), Fraction(-5, 1)))
    """
    if not _fast.ENABLED or tracer.mode is True:
        return None
    n = len(Z)
    shape = getattr(Z, "shape", None)
    d = shape[1] if shape is not None else len(Z[0])
    L, Zl, v1 = _fast.integer_scaling(Z, (0,) * d, _ONE)
    res = _fast.integer_loop(Zl, v1, _ONE, L, False, bounds, tracer, stop=stop)
    indices = res.update_indices
    rounds = mistake_rounds(indices, n)
    if (rounds[-1] if rounds else 0) != res.last_update:
        raise InvariantViolation("the voted perceptron's mistake rounds do not end at the kernel's last update")
    counts = survival_counts(rounds, res.steps)
    Z64, m_Z = _fast._as_int64(Zl)
    U = len(indices)
    # V_1 = 0, V_{m+1} = V_m + Z'_{i_m}: int64 while U m_Z < 2^62 (point 4), else Python ints
    if Z64 is not None and U * m_Z < I64_HEADROOM:
        V = np.zeros((U + 1, d), dtype=np.int64)
        if U:
            np.cumsum(Z64[np.asarray(indices, dtype=np.int64)], axis=0, out=V[1:])
    else:
        Zo = np.array(Zl.tolist() if isinstance(Zl, np.ndarray) else Zl, dtype=object)
        V = np.zeros((U + 1, d), dtype=object)
        if U:
            V[1:] = np.cumsum(Zo[indices], axis=0)
    last = V[-1].tolist()
    if any(Fraction(a, L) != w for a, w in zip(last, res.w)):  # w_{U+1} = V_{U+1} / L is the kernel's final w
        raise InvariantViolation("the voted perceptron's last vector is not the kernel's final w")
    # sum_m c_m w_m = (1/L) sum_i coef_i Z'_i with coef_i = sum of K + 1 - k_j over the mistakes j at sample i
    K1 = res.steps + 1
    coef = [0] * n
    for i, k in zip(indices, rounds):
        coef[i] += K1 - k
    rows_Z = Zl.tolist() if isinstance(Zl, np.ndarray) else Zl
    acc = [0] * d
    for c, zr in zip(coef, rows_Z):
        if c:
            for j, a in enumerate(zr):
                acc[j] += c * a
    averaged = tuple(Fraction(a, L) for a in acc)
    return VotedResult(res, V, L, counts, averaged)
