"""Seed 000's voted and averaged perceptrons (``000_478cb53c624e7eb5.txt``, "Voted Perceptron", "Averaged
Perceptron").

The run is the perceptron's (eta = 1, w_1 = 0, a mistake iff <w_m, z_i> <= 0, then w_{m+1} = w_m + z_i), on the
engine's cyclic loop :func:`exactlin.engine.cyclic.cyclic` in any representation.  The lecture's list
(w_1, c_1), ..., (w_m, c_m) -- m = 1, w_1 = 0, c_1 = 1; on a mistake append (w_{m+1}, 1); on a correct round
c_m <- c_m + 1 -- and the averaged vector sum_m c_m w_m are rebuilt from the run's mistakes afterwards, in
integers, whatever representation ran the loop.  Why that is the lecture's list exactly:

**1. The sequence w_1, w_2, ... is the perceptron's**, so the loop gives the mistakes i_1, ..., i_U (sample
indices, in order) and K, the number of rounds the run executed (``steps``).

**2. The rounds of the mistakes are determined by their sample indices.**  Round k visits sample
(k - 1) mod n.  Let k_1 < ... < k_U be the mistake rounds and k_0 = 0.  Between two consecutive mistakes every
round is correct, and after n consecutive correct rounds w passes every sample, so no mistake follows (with
either clean stop, and when the run goes on through a proved cycle), so 1 <= k_m - k_{m-1} <= n; together with
k_m - 1 = i_m (mod n) that fixes

    k_m = k_{m-1} + ((i_m - i_{m-1} - 1) mod n) + 1      (i_0 = -1, i.e. k_1 = i_1 + 1).

The last one is checked against the loop's ``last_update`` (k_U), an independent count.

**3. The survival counts.**  Every executed round is either a mistake (it appends an entry with c = 1) or a
correct round (it adds 1 to the newest entry); a stop on a cycle, bit_limit, max_updates or time_limit comes
after its round, a max_epochs or max_steps stop before a round that is then not executed.  c_1 starts at 1.
So, for every stop,

    c_m = k_m - k_{m-1}   (m = 1..U),       c_{U+1} = K + 1 - k_U,

(the k_m - k_{m-1} - 1 correct rounds before the m-th mistake plus the starting 1; after the last mistake the
K - k_U rounds that followed it).  Their sum is K + 1.

**4. The vectors in integers.**  With L the least common denominator of the samples (Z'_i = L z_i integers),
w_m = V_m / L with V_1 = 0 and V_{m+1} = V_m + Z'_{i_m} (a prefix sum, integers).  Its entries satisfy
|V_m| <= (m - 1) max|Z'|, so the prefix sums are taken in int64 when U max|Z'| < 2^62 (no partial sum can
overflow), else in Python integers.  The averaged vector is, exchanging the two sums,

    sum_m c_m w_m = (1 / L) sum_j (sum_{m > j} c_m) Z'_{i_j} = (1 / L) sum_j (K + 1 - k_j) Z'_{i_j},

since sum_{m <= j} c_m = k_j by point 3: one coefficient per sample (the sum of K + 1 - k_j over its
mistakes), and one product of that coefficient vector with Z', in Python integers.  Each Fraction is built from
these integers once (p / L, reduced), equal in value to the lecture's Fraction sums.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from exactlin.algorithms import register
from exactlin.algorithms._contract import Checked, make_run
from exactlin.algorithms._loop import representation
from exactlin.algorithms.perceptron import (
    ARITHMETICS,
    MONITOR_CONFLICTS,
    MONITOR_PARAMS,
    STOP_ON_CYCLE,
    cycle_certificate,
    monitor_run,
)
from exactlin.algorithms.perceptron_family import BOUND_PARAMS
from exactlin.engine.arith import integer_rows
from exactlin.engine.cyclic import cyclic
from exactlin.engine.trace import STOP
from exactlin.errors import InvariantViolation, ParameterError
from exactlin.exact.numbers import fdot, zeros
from exactlin.exact.rows import I64_HEADROOM
from exactlin.model.models import VoteModel, label_pair, linear_model
from exactlin.model.run import LazySteps, Run
from exactlin.theory.certificates import gordan_from_counts

__all__ = ["voted_perceptron", "averaged_perceptron", "predict_voted", "predict_averaged", "mistake_rounds",
           "survival_counts", "VotedList"]

SEED000 = "000_478cb53c624e7eb5.txt"

VOTED_PARAMS = (*MONITOR_PARAMS, *BOUND_PARAMS, STOP_ON_CYCLE, STOP)


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
    """a -> Fraction(a, L), each value built once: the iterates share their entries (a Fraction is immutable),
    so a list of many vectors costs one dict lookup per entry."""

    def __init__(self, L: int):
        super().__init__()
        self.L = L

    def __missing__(self, a: int) -> Fraction:
        q = self[a] = Fraction(a) if self.L == 1 else Fraction(a, self.L)
        return q


class VotedList:
    """The lecture's list from a finished run (module docstring): ``counts`` (c_1, ..., c_{U+1}), ``averaged``
    (sum_m c_m w_m, Fractions) and the vectors w_1, ..., w_{U+1}, built from their integers V_m the first time
    :meth:`vectors` is called; :meth:`voted` is the list of {"w": w_m, "c": c_m} (``extras["voted"]``), built
    when first read.

    Seed 000's example after one pass (the lecture's list, and the averaged vector (11, -5)):

    >>> Z = [tuple(Fraction(a) for a in z) for z in [(4, 0), (-1, -1), (0, -1), (-2, -2)]]
    >>> r = VotedList(Z, [0, 1, 3], 4, (Fraction(1), Fraction(-3)), 4)
    >>> [(tuple(map(int, w)), c) for w, c in zip(r.vectors(), r.counts)], r.averaged
    ([((0, 0), 1), ((4, 0), 1), ((3, -1), 2), ((1, -3), 1)], (Fraction(11, 1), Fraction(-5, 1)))
    """

    def __init__(self, Z, indices: list[int], steps: int, final_w: tuple, last_update: int):
        n = len(Z)
        shape = getattr(Z, "shape", None)
        d = shape[1] if shape is not None else len(Z[0])
        L, Zl, _ = integer_rows(Z, (0,) * d, 1)
        rounds = mistake_rounds(indices, n)
        if (rounds[-1] if rounds else 0) != last_update:
            raise InvariantViolation("the voted perceptron's mistake rounds do not end at the run's last update")
        self.counts = survival_counts(rounds, steps)
        U = len(indices)
        m_Z = int(np.abs(Zl).max()) if isinstance(Zl, np.ndarray) and Zl.size else \
            max((abs(a) for row in Zl for a in row), default=0)
        # V_1 = 0, V_{m+1} = V_m + Z'_{i_m}: int64 while U m_Z < 2^62 (point 4), else Python ints
        if isinstance(Zl, np.ndarray) and U * m_Z < I64_HEADROOM:
            V = np.zeros((U + 1, d), dtype=np.int64)
            if U:
                np.cumsum(Zl[np.asarray(indices, dtype=np.int64)], axis=0, out=V[1:])
        else:
            Zo = np.array(Zl.tolist() if isinstance(Zl, np.ndarray) else Zl, dtype=object)
            V = np.zeros((U + 1, d), dtype=object)
            if U:
                V[1:] = np.cumsum(Zo[list(indices)], axis=0)
        if any(Fraction(a, L) != w for a, w in zip(V[-1].tolist(), final_w)):  # w_{U+1} = V_{U+1} / L
            raise InvariantViolation("the voted perceptron's last vector is not the run's final w")
        # sum_m c_m w_m = (1/L) sum_i coef_i Z'_i with coef_i = sum of K + 1 - k_j over the mistakes j at sample i
        K1 = steps + 1
        coef = [0] * n
        for i, k in zip(indices, rounds):
            coef[i] += K1 - k
        acc = [0] * d
        for c, zr in zip(coef, Zl.tolist() if isinstance(Zl, np.ndarray) else Zl):
            if c:
                for j, a in enumerate(zr):
                    acc[j] += c * a
        self.averaged = tuple(Fraction(a, L) for a in acc)
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


def _voted(X, y, P: Checked) -> Run:
    name = P.algorithm
    prob = P.problem(X, y)
    Z = prob.Z
    w1 = zeros(prob.d)
    tracer = P.tracer(prob.d)
    rep = representation(P, Z, w1, step=1)
    res = cyclic(rep, P.bounds(), tracer, coef=1, stop=P["stop"], stop_on_cycle=P["stop_on_cycle"])
    P.record_arithmetic(rep.name, rep.tiers)
    lst = VotedList(Z, res.update_indices, res.steps, res.w, res.last_update)
    averaged = lst.averaged
    model = (linear_model(averaged, P.bias, prob) if name == "averaged-perceptron"
             else lst.vote_model(P.bias, *label_pair(prob)))
    run = make_run(P, prob, w=averaged if name == "averaged-perceptron" else None, converged=res.converged,
                   reason=res.reason, updates=res.updates, epochs=res.epochs, steps=res.steps, tracer=tracer,
                   seed=SEED000, model=model,
                   extras={"voted": lst.voted(), "final_w": res.w, "averaged_w": averaged,
                           "mistakes": res.update_indices, "max_bits": res.max_bits,
                           "last_update_step": res.last_update})
    if res.cycle is not None:
        run.extras["certificate"] = cycle_certificate(Z, gordan_from_counts(prob.n, res.cycle), res.cycle, P.bias)
        run.extras["cycle_step"] = res.cycle_step
    if P["monitor"]:
        # the (w_m) sequence is the perceptron's: the theorem applies to it unchanged
        w_saved = run.w
        run.w = res.w
        try:
            monitor_run(run, Z, eta=Fraction(1), w1=w1, w_star=P["w_star"])
        finally:
            run.w = w_saved
    return run


@register("voted-perceptron", family="perceptron", seed=SEED000, number="Voted Perceptron",
          title="Voted perceptron (seed 000)", params=VOTED_PARAMS, conflicts=MONITOR_CONFLICTS, bias_default="none",
          arithmetics=ARITHMETICS,
          monitor="the perceptron's theorem on the sequence w_1, w_2, ... (it is the perceptron's)")
def voted_perceptron(X, y, P: Checked) -> Run:
    """Voted perceptron, seed 000 (``000_478cb53c624e7eb5.txt``, "Voted Perceptron").

    Initially m = 1, w_1 = 0, c_1 = 1; for t = 1, 2, ... (cyclic passes): if y_t <w_m, x_t> <= 0 then
    w_{m+1} = w_m + y_t x_t, m = m + 1, c_m = 1; else c_m = c_m + 1.  Output (w_1, c_1), ..., (w_m, c_m) in
    ``extras["voted"]``, w_1 = 0 included as the lecture lists it.  Prediction
    (:func:`predict_voted`): sign(sum_i c_i sign(<w_i, x>)).  No single vector predicts, so ``Run.w`` is
    None; ``extras["final_w"]`` is w_m (the perceptron's output).  Passes run until one makes no mistake
    (the perceptron's stop), a cycle, or ``max_epochs`` (``max_epochs=1`` is the lecture's one pass).
    A cycle (the state (w_m, position) repeats exactly) stops with reason ``cycle`` and a verified Gordan
    certificate; ``stop_on_cycle=False`` keeps running it until a bound, with the certificate and
    ``extras["cycle_step"]``.  The run is the perceptron's, on the engine's cyclic loop (any ``arithmetic``);
    the (w_m, c_m) list is rebuilt from its mistakes in integers (the module docstring proves it the lecture's).

    >>> r = voted_perceptron([(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1], max_epochs=1)
    >>> [(tuple(map(int, v["w"])), v["c"]) for v in r.extras["voted"]]
    [((0, 0), 1), ((4, 0), 1), ((3, -1), 2), ((1, -3), 1)]
    """
    return _voted(X, y, P)


@register("averaged-perceptron", family="perceptron", seed=SEED000, number="Averaged Perceptron",
          title="Averaged perceptron (seed 000)", params=VOTED_PARAMS, conflicts=MONITOR_CONFLICTS, bias_default="none",
          arithmetics=ARITHMETICS,
          monitor="the perceptron's theorem on the sequence w_1, w_2, ... (it is the perceptron's)")
def averaged_perceptron(X, y, P: Checked) -> Run:
    """Averaged perceptron, seed 000 (``000_478cb53c624e7eb5.txt``, "Averaged Perceptron").

    The voted perceptron's algorithm (same (w_m, c_m) list, in ``extras["voted"]``); prediction
    sign(<sum_i c_i w_i, x>), so ``Run.w`` is the averaged vector sum_i c_i w_i (unnormalized, as the
    notes write it; dividing by sum c_i does not change any sign).  The lecture's example after one pass
    gives 0 + (4,0) + 2(3,-1) + (1,-3) = (11,-5); the notes print "[11]" (erratum ``averaged-vector``).
    Stops, ``stop_on_cycle`` and the arithmetic as for :func:`voted_perceptron`.

    >>> averaged_perceptron([(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1], max_epochs=1).w
    (Fraction(11, 1), Fraction(-5, 1))
    """
    return _voted(X, y, P)


def _augmented(run: Run, x):
    from exactlin.data.dataset import augment
    from exactlin.exact.numbers import to_vector

    return augment([to_vector(x)], run.bias)[0]


def predict_voted(run: Run, x) -> int:
    """The voted rule sign(sum_i c_i sign(<w_i, x>)) for a raw sample x (augmented by the run's bias);
    0 when the vote is tied (undecided, as sign(0)).  The run's model decides
    (:class:`~exactlin.model.models.VoteModel`)."""
    return run.model.side(x)


def predict_averaged(run: Run, x) -> int:
    """The averaged rule sign(<sum_i c_i w_i, x>) for a raw sample x (augmented by the run's bias); 0 on the
    boundary.  It reads the run's averaged vector ``extras["averaged_w"]``, which a voted and an averaged
    run both carry (the same (w_m, c_m) list), so on a voted run it answers for the averaged rule, not the
    vote (that is :func:`predict_voted`)."""
    avg = run.extras.get("averaged_w")
    if avg is None:
        raise ParameterError(f"predict_averaged needs a voted or averaged perceptron run (extras['averaged_w']); "
                             f"got a {run.algorithm} run", parameter="run")
    v = fdot(avg, _augmented(run, x))
    return (v > 0) - (v < 0)
