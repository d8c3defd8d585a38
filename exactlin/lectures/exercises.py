"""Exercises with answer keys: a small data set whose worked solution stays readable by hand, drawn from a seed.

``generate(ALGORITHM, seed=N, size=(n, d), difficulty=...)`` draws candidate data sets from its own generator
(:class:`ExRandom`, id :data:`GENERATOR_ID`) until the run of the registered algorithm meets the exercise's
readability bounds (small integers, few updates, small numerators and denominators), runs it, and verifies the
answer twice: the run's own verification (certificates, KKT, Penrose, the convergence monitor) and the checks
written here, which recompute the final answer's defining property from the data (a separator separates, the
pseudoinverse solution solves the normal equations, the Fisher direction solves S_W w = m1 - m2, the Gordan
multipliers sum the normalized samples to 0, the SVM's KKT system holds).

Determinism: the same (algorithm, seed, size, difficulty) gives the same exercise byte for byte on every Python and
dependency version.  The generator draws integers only through ``random.Random(seed).random()``, the one method
whose sequence Python guarantees across versions (``randrange``/``choice`` are not guaranteed: their algorithm
changed before); a uniform double from ``random()`` is an exact multiple of 2^-53, so ``floor(u * m)`` is exact.
No float ever enters a data set or a result: floats only pick integers.  An algorithm that calls a float solver
for a guess (the hard-margin SVM's scikit-learn start) is accepted only when its exact answer is unique (the
support vectors' augmented rows are linearly independent, and they are exactly the samples at margin 1), and the
separability exercise runs the exact LP only.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from exactlin.algorithms import get
from exactlin.errors import ExactlinError, ParameterError
from exactlin.exact.format import text
from exactlin.lectures.notes import notes_title
from exactlin.render.explain import Doc, M, algorithm_title, explain_blocks, mv, solve_square

__all__ = ["GENERATOR_ID", "EXERCISES", "DIFFICULTIES", "ExRandom", "Exercise", "generate", "exercise_doc",
           "exercise_dict", "GenerationError", "MAX_ATTEMPTS"]

#: the generator's id, printed with every exercise: bump it whenever a change alters any generated exercise
#: exgen-2: the same data as exgen-1; the statements state the stop rule their keys follow, in typeset mathematics
GENERATOR_ID = "exgen-2"
DIFFICULTIES = ("easy", "medium", "hard")
#: candidates drawn before giving up (deterministic: the same seed fails the same way)
MAX_ATTEMPTS = 3000


class GenerationError(ExactlinError, ValueError):
    """No candidate met the readability bounds within :data:`MAX_ATTEMPTS`."""


class ExRandom:
    """Integers from ``random.Random(seed).random()`` only (its sequence is guaranteed across Python versions)."""

    def __init__(self, seed: int):
        self._r = random.Random(seed)

    def below(self, m: int) -> int:
        """An integer in [0, m): floor(u m) for u = random(), an exact multiple of 2^-53 (m < 2^20 here)."""
        return int(self._r.random() * m)

    def integer(self, lo: int, hi: int) -> int:
        """An integer in [lo, hi]."""
        return lo + self.below(hi - lo + 1)

    def choice(self, seq):
        return seq[self.below(len(seq))]


# ----------------------------------------------------------------------------- exact helpers (independent)
def _dot(u, v):
    """<u, v> exactly (ints stay ints: the data are integers; Fractions where the weights are)."""
    # not exact.numbers.dot on purpose: that one always returns a Fraction, and the exercises keep int answers
    s = 0
    for a, b in zip(u, v):
        s += a * b
    return s


def _aug(x, bias: str) -> tuple:
    x = tuple(x)
    return {"none": x, "first": (1,) + x, "last": x + (1,)}[bias]


def _small(v, num: int, den: int) -> bool:
    """Every rational in v (nested) has |numerator| <= num and denominator <= den."""
    if v is None:
        return True
    if not isinstance(v, (int, Fraction, str)) and hasattr(v, "__iter__"):
        return all(_small(x, num, den) for x in v)
    q = Fraction(v)
    return abs(q.numerator) <= num and q.denominator <= den


def _mse_solution(Z, b):
    """a = (Z^t Z)^-1 Z^t b from the normal equations (None when Z^t Z is singular)."""
    d = len(Z[0])
    A = [[sum(r[i] * r[j] for r in Z) for j in range(d)] for i in range(d)]
    rhs = [sum(r[i] * bi for r, bi in zip(Z, b)) for i in range(d)]
    return solve_square(A, rhs)


def _rank(rows) -> int:
    """Rank by exact Gaussian elimination."""
    m = [list(map(Fraction, r)) for r in rows]
    rank, cols = 0, len(m[0]) if m else 0
    for c in range(cols):
        piv = next((r for r in range(rank, len(m)) if m[r][c] != 0), None)
        if piv is None:
            continue
        m[rank], m[piv] = m[piv], m[rank]
        for r in range(len(m)):
            if r != rank and m[r][c] != 0:
                f = m[r][c] / m[rank][c]
                m[r] = [a - f * b for a, b in zip(m[r], m[rank])]
        rank += 1
    return rank


def _planted(rng: ExRandom, n: int, d: int, R: int, bias: bool, labels=(1, -1)):
    """n points in [-R, R]^d labelled by a random small separator (no point on it); both labels present."""
    while True:
        w = tuple(rng.integer(-3, 3) for _ in range(d))
        if any(w):
            break
    w0 = rng.integer(-2, 2) if bias else 0
    X, y = [], []
    while len(X) < n:
        x = tuple(rng.integer(-R, R) for _ in range(d))
        g = _dot(w, x) + w0
        if g == 0 or x in X or not any(x):
            continue
        X.append(x)
        y.append(labels[0] if g > 0 else labels[1])
    return X, y


def _random_labels(rng: ExRandom, n: int, d: int, R: int):
    X, y = [], []
    while len(X) < n:
        x = tuple(rng.integer(-R, R) for _ in range(d))
        if x in X:
            continue
        X.append(x)
        y.append(rng.choice((1, -1)))
    return X, y


# ----------------------------------------------------------------------------- the exercises
@dataclass(frozen=True)
class ExerciseSpec:
    name: str  # the registry's algorithm name
    sizes: dict  # difficulty -> (n, d, R)
    draw: Callable  # (rng, n, d, R) -> (X, y) or None
    kwargs: dict  # keyword arguments of the algorithm call
    accept: Callable  # (run, X, y) -> bool: the readability bounds
    check: Callable  # (run, X, y) -> list[(what, ok)]: the independent re-check of the final answer
    question: Callable  # (X, y, kwargs) -> list of paragraphs (segment lists)
    bounds: str  # the readability bounds, in words
    pre: Callable | None = None  # (X, y) -> bool: a cheap exact pre-check before the run (rejects early)
    stated: tuple = ()  # the parameters the question states (the answer key's setup lists these, nothing else)
    per_size: Callable | None = None  # n -> keyword arguments that depend on the number of samples (a budget)


EXERCISES: dict[str, ExerciseSpec] = {}


def _register(spec: ExerciseSpec) -> None:
    EXERCISES[spec.name] = spec


def _two_labels(y) -> bool:
    return 1 in y and -1 in y


def _binary_draw(bias: bool):
    def draw(rng, n, d, R):
        X, y = _planted(rng, n, d, R, bias)
        return (X, y) if _two_labels(y) else None
    return draw


def _all_w(run) -> list:
    return [s.w_after for s in run.trace if s.w_after is not None]


def _separates(w, X, y, bias) -> bool:
    return all(yi * _dot(w, _aug(x, bias)) > 0 for x, yi in zip(X, y))


def _sum_of_mistakes(run, X, y, bias, eta=1) -> bool:
    """w_final = w_1 + eta * sum over the mistakes of y_i x~_i (seed 000: w is a sum of mistakes)."""
    d = len(_aug(X[0], bias))
    w = [Fraction(0)] * d
    for i in run.extras.get("mistakes", []):
        w = [a + eta * y[i] * b for a, b in zip(w, _aug(X[i], bias))]
    return tuple(w) == tuple(run.w)


def _cyclic_stop(n: int, what: str = "a mistake") -> list:
    """The stop rule of the cyclic single-sample loop, as the key follows it: n clean rounds in a row."""
    return [" Stop as soon as ", M(f"n = {n}", f"n = {n}"), f" rounds in a row make no {what.split()[-1]}: then the "
            "current weights classify every sample correctly (this can happen in the middle of a pass)."]


def _w(*segs) -> list:
    """A check's statement: text and math segments."""
    return list(segs)


# perceptron (seed 000), no bias -------------------------------------------------------------------------------------
def _q_perceptron(X, y, kw):
    return [["Run the perceptron on these examples, taken cyclically ", M("x_1, x_2, \\dots", "x_1, x_2, ..."),
             ", starting from ", M("w_1 = 0", "w_1 = 0"), " with no bias term: at round ", M("t", "t"), ", if ",
             M("y_t \\langle w_t, x_t \\rangle \\le 0", "y_t <w_t, x_t> <= 0"), " set ",
             M("w_{t+1} = w_t + y_t x_t", "w_{t+1} = w_t + y_t x_t"), ".", *_cyclic_stop(len(X))],
            ["Give ", M("w", "w"), " after every update, the number of mistakes ", M("K", "K"), ", the final ",
             M("w", "w"), ", and check the convergence theorem: ",
             M("K \\le R^2 \\lVert w^*\\rVert^2 / \\gamma^2", "K <= R^2 ||w*||^2 / gamma^2"),
             " with ", M("w^*", "w*"), " the final ", M("w", "w"), "."]]


def _perceptron_accept(run, X, y):
    return run.converged and 3 <= run.updates <= 6 and run.epochs <= 4 and _small(_all_w(run), 12, 1)


def _perceptron_check(run, X, y, bias="none"):
    return [(_w("the final ", M("w", "w"), " separates every sample: ",
                M("y_i \\langle w, \\tilde x_i \\rangle > 0", "y_i <w, x~_i> > 0")), _separates(run.w, X, y, bias)),
            (_w("the final ", M("w", "w"), " is ", M("w_1", "w_1"), " plus the sum of ",
                M("y_i \\tilde x_i", "y_i x~_i"), " over the mistakes"), _sum_of_mistakes(run, X, y, bias)),
            (_w("the convergence theorem holds: ",
                M("K \\le R^2 \\lVert w^*\\rVert^2 / \\gamma^2", "K <= R^2 ||w*||^2 / gamma^2")),
             run.extras["monitor"] is not None and run.extras["monitor"].holds
             and run.updates <= run.extras["monitor"].bound)]


_register(ExerciseSpec("perceptron", {"easy": (4, 2, 3), "medium": (6, 2, 4), "hard": (8, 3, 4)},
                       _binary_draw(False), {"bias": "none", "max_epochs": 5}, _perceptron_accept, _perceptron_check,
                       _q_perceptron, "converges in 3 to 6 updates within 4 passes; every w_t has integer "
                       "entries of size at most 12", stated=("eta",)))


# fixed-increment (seed 003, Algorithm 4) ----------------------------------------------------------------------------
def _q_fixed(X, y, kw):
    return [["Augment each sample with a leading 1 and normalize (replace the samples labelled -1 by their "
             "negatives): ", M("y_i = \\ell_i (1, x_i)", "y_i = l_i (1, x_i)"), ". Run the fixed-increment "
             "single-sample perceptron (Algorithm 4) from ", M("a_1 = 0", "a_1 = 0"), ", samples in cyclic order: "
             "if ", M("a_k^t y_k \\le 0", "a_k^t y_k <= 0"), " then ", M("a_{k+1} = a_k + y_k", "a_{k+1} = a_k + y_k"),
             ".", *_cyclic_stop(len(X))],
            ["Give ", M("a", "a"), " after every update, the number of updates, the final ", M("a", "a"),
             ", and check that it separates the data."]]


_register(ExerciseSpec("fixed-increment", {"easy": (4, 2, 3), "medium": (6, 2, 4), "hard": (8, 3, 4)},
                       _binary_draw(True), {"bias": "first", "max_epochs": 5}, _perceptron_accept,
                       lambda run, X, y: _perceptron_check(run, X, y, "first"), _q_fixed,
                       "converges in 3 to 6 updates within 4 passes; every a_k has integer entries of size at "
                       "most 12"))


# the threshold unit with 0/1 targets (Mitchell 1997, section 4.4.2) --------------------------------------------------
def _q_threshold_unit(X, y, kw):
    return [["The targets are ", M("t = 1", "t = 1"), " and ", M("t = 0", "t = 0"), ". Augment each sample with a "
             "leading bias input 1: ",
             M("\\tilde x_i = (1, x_i)", "x~_i = (1, x_i)"), ". Run the perceptron training rule of the threshold "
             "unit from ", M("w = 0", "w = 0"), ", samples in cyclic order: the output is ",
             M("o = 1", "o = 1"), " if ", M("w \\cdot \\tilde x_i \\ge 0", "w . x~_i >= 0"), " and ",
             M("o = 0", "o = 0"), " otherwise; then ",
             M("w \\leftarrow w + \\eta (t_i - o) \\tilde x_i", "w <- w + eta (t_i - o) x~_i"), " with ",
             M("\\eta = 1", "eta = 1"), ".", *_cyclic_stop(len(X), "an update")],
            ["Give ", M("w", "w"), " after every update, the number of updates, the final ", M("w", "w"),
             ", and the output on every sample. Note that a zero net input is a mistake for a sample with ",
             M("t = 0", "t = 0"), " only."]]


def _threshold_unit_check(run, X, y):
    w = [Fraction(0)] * (len(X[0]) + 1)  # Mitchell's rule replayed here, from w = 0, tie o = 1 iff net >= 0
    clean, i, K = 0, 0, 0
    while clean < len(X) and K <= 50:
        xt = _aug(X[i], "first")
        o = 1 if _dot(w, xt) >= 0 else 0
        if o != y[i]:
            w = [a + (y[i] - o) * v for a, v in zip(w, xt)]
            K, clean = K + 1, 0
        else:
            clean += 1
        i = (i + 1) % len(X)
    outputs = [1 if _dot(run.w, _aug(x, "first")) >= 0 else 0 for x in X]
    return [(_w("the rule replayed from ", M("w = 0", "w = 0"), " ends at the same ", M("w", "w"),
                " after the same number of updates"), tuple(w) == tuple(run.w) and K == run.updates),
            (_w("the final ", M("w", "w"), " outputs ", M("o = t", "o = t"), " on every sample"), outputs == list(y))]


def _tu_draw(rng, n, d, R):
    X, y = _planted(rng, n, d, R, True, labels=(1, 0))
    return (X, y) if 1 in y and 0 in y else None


_register(ExerciseSpec("threshold-unit", {"easy": (4, 2, 3), "medium": (6, 2, 4), "hard": (8, 3, 4)},
                       _tu_draw, {"bias": "first", "max_epochs": 5},
                       lambda run, X, y: run.converged and 2 <= run.updates <= 6 and _small(_all_w(run), 12, 1),
                       _threshold_unit_check, _q_threshold_unit,
                       "converges in 2 to 6 updates within 4 passes; every w has integer entries of size at most 12",
                       stated=("eta",)))


# batch perceptron (seed 003, Algorithm 3) ---------------------------------------------------------------------------
def _q_batch(X, y, kw):
    return [["Augment with a leading 1 and normalize. Run the batch perceptron (Algorithm 3) with ",
             M("\\eta(k) = 1", "eta(k) = 1"), ", ", M("\\theta = 0", "theta = 0"), " from ", M("a = 0", "a = 0"),
             ": at each iteration ",
             M("a \\leftarrow a + \\sum_{y \\in \\mathcal{Y}_k} y", "a <- a + sum_{y in Y_k} y"),
             " over the set ", M("\\mathcal{Y}_k", "Y_k"), " of samples with ", M("a^t y \\le 0", "a^t y <= 0"),
             ". Stop at the first iteration whose set ", M("\\mathcal{Y}_k", "Y_k"), " is empty."],
            ["Give the misclassified set and ", M("a", "a"), " after every iteration, and the final ", M("a", "a"),
             "."]]


def _batch_accept(run, X, y):
    return run.converged and 2 <= run.updates <= 4 and _small(_all_w(run), 20, 1)


def _batch_check(run, X, y):
    a = [Fraction(0)] * (len(X[0]) + 1)
    ok_sets = True
    for s in run.trace:  # each update adds exactly the samples with a^t y <= 0 (recomputed here)
        wrong = [i for i, (x, yi) in enumerate(zip(X, y)) if yi * _dot(a, _aug(x, "first")) <= 0]
        if s.update:
            for i in wrong:
                a = [p + y[i] * q for p, q in zip(a, _aug(X[i], "first"))]
        ok_sets &= tuple(a) == tuple(s.w_after)
    return [(_w("the final ", M("a", "a"), " separates every sample: ", M("a^t y_i > 0", "a^t y_i > 0")),
             _separates(run.w, X, y, "first")),
            (_w("every iteration adds exactly the misclassified samples (replayed here)"), ok_sets)]


_register(ExerciseSpec("batch-perceptron", {"easy": (4, 2, 3), "medium": (6, 2, 4), "hard": (8, 3, 4)},
                       _binary_draw(True), {"bias": "first", "max_epochs": 6}, _batch_accept, _batch_check, _q_batch,
                       "converges in 2 to 4 iterations; every a has integer entries of size at most 20",
                       stated=("eta", "theta")))


# MSE / pseudoinverse (seed 003) -------------------------------------------------------------------------------------
def _q_mse(X, y, kw):
    return [["Form the matrix Y whose rows are the normalized augmented samples ",
             M("\\ell_i (1, x_i)", "l_i (1, x_i)"), ", take ", M("b = (1, \\dots, 1)^t", "b = (1, ..., 1)^t"),
             " and compute the minimum squared-error solution ",
             M("a = Y^\\dagger b = (Y^t Y)^{-1} Y^t b", "a = Y^+ b = (Y^t Y)^-1 Y^t b"), "."],
            ["Give the pseudoinverse, ", M("a", "a"), ", the error vector ", M("e = Y a - b", "e = Y a - b"),
             ", and say whether ", M("a", "a"), " separates the data."]]


def _mse_accept(run, X, y):
    return _small(run.extras["Y_pinv"], 99, 99) and _small(run.w, 99, 99) and _small(run.extras["e"], 99, 99)


def _normal_equations(Ya, b, a) -> bool:
    """Y^t Y a = Y^t b, recomputed from the rows."""
    d = len(a)
    lhs = [sum((r[j] * _dot(r, a) for r in Ya), Fraction(0)) for j in range(d)]
    rhs = [sum((r[j] * bi for r, bi in zip(Ya, b)), Fraction(0)) for j in range(d)]
    return lhs == rhs


def _mse_check(run, X, y):
    Ya = [tuple(yi * v for v in _aug(x, "first")) for x, yi in zip(X, y)]
    b = [Fraction(1)] * len(X)
    e = tuple(_dot(r, run.w) - bi for r, bi in zip(Ya, b))
    return [(_w(M("a", "a"), " solves the normal equations ", M("Y^t Y a = Y^t b", "Y^t Y a = Y^t b")),
             _normal_equations(Ya, b, run.w)),
            (_w(M("e = Y a - b", "e = Y a - b"), " as reported"), e == tuple(run.extras["e"])),
            (_w(M("Y", "Y"), " has full column rank (so ", M("Y^\\dagger = (Y^t Y)^{-1} Y^t", "Y^+ = (Y^t Y)^-1 Y^t"),
                ")"), _rank(Ya) == len(Ya[0]))]


def _full_rank_draw(rng, n, d, R):
    X, y = _random_labels(rng, n, d, R)
    if not _two_labels(y) or _rank([_aug(x, "first") for x in X]) < d + 1:
        return None
    return X, y


def _mse_pre(X, y) -> bool:
    Z = [tuple(yi * v for v in _aug(x, "first")) for x, yi in zip(X, y)]
    a = _mse_solution(Z, [1] * len(Z))
    return a is not None and _small(a, 99, 99) and _small([_dot(r, a) for r in Z], 99, 99)


_register(ExerciseSpec("mse", {"easy": (4, 2, 2), "medium": (5, 2, 3), "hard": (6, 2, 3)},
                       _full_rank_draw, {"bias": "first"}, _mse_accept, _mse_check, _q_mse,
                       "every entry of Y^+, a and e has numerator and denominator under 100", _mse_pre))


# LMS (seed 003, Algorithm 10): a few steps --------------------------------------------------------------------------
def _q_lms(X, y, kw):
    return [["Normalize the augmented samples ", M("y_i = \\ell_i (1, x_i)", "y_i = l_i (1, x_i)"),
             " and run the LMS rule (Algorithm 10) with ", M("b = (1, \\dots, 1)^t", "b = (1, ..., 1)^t"), ", ",
             M("a(1) = 0", "a(1) = 0"), " and ", M("\\eta(k) = 1/k", "eta(k) = 1/k"), ": ",
             M("a \\leftarrow a + \\eta(k) (b_k - a^t y^k) y^k", "a <- a + eta(k) (b_k - a^t y^k) y^k"),
             f", samples in cyclic order, for {kw['k_max']} steps."],
            ["Give a after every step."]]


def _lms_accept(run, X, y):
    return run.steps == len(X) and _small(_all_w(run), 99, 99)


def _lms_check(run, X, y):
    a = [Fraction(0)] * (len(X[0]) + 1)
    ok = True
    for k, s in enumerate(run.trace, start=1):  # replayed here with eta(k) = 1/k
        i = (k - 1) % len(X)
        yk = [y[i] * v for v in _aug(X[i], "first")]
        a = [p + Fraction(1, k) * (1 - _dot(a, yk)) * q for p, q in zip(a, yk)]
        ok &= tuple(a) == tuple(s.w_after)
    return [(_w("every step replayed here with ", M("\\eta(k) = 1/k", "eta(k) = 1/k"), " gives the same ",
                M("a", "a")), ok and len(run.trace) == len(X))]


def _lms_draw(rng, n, d, R):
    X, y = _random_labels(rng, n, d, R)
    return (X, y) if _two_labels(y) else None


EXERCISES_LMS_KW = {"bias": "first", "eta1": 1}
_register(ExerciseSpec("lms", {"easy": (3, 2, 2), "medium": (4, 2, 2), "hard": (5, 2, 3)},
                       _lms_draw, EXERCISES_LMS_KW, _lms_accept, _lms_check, _q_lms,
                       "one pass (k_max = n steps); every a(k) has numerators and denominators under 100",
                       stated=("eta1", "k_max"), per_size=lambda n: {"k_max": n}))


# Ho-Kashyap (seed 003, Algorithm 11) --------------------------------------------------------------------------------
def _q_hk(X, y, kw):
    return [["Normalize the augmented samples into the rows of Y. Run Ho-Kashyap (Algorithm 11) with ",
             M("b(1) = (1, \\dots, 1)^t", "b(1) = (1, ..., 1)^t"), " and ", M("\\eta = 1/2", "eta = 1/2"), ": ",
             M("a = Y^\\dagger b", "a = Y^+ b"), ", ", M("e = Y a - b", "e = Y a - b"), ", ",
             M("b \\leftarrow b + 2\\eta e^+", "b <- b + 2 eta e+"), " with ",
             M("e^+ = (e + |e|)/2", "e+ = (e + |e|)/2"),
             "."],
            ["Stop when ", M("Y a > 0", "Y a > 0"), " (separable) or when ", M("e \\le 0", "e <= 0"), " with ",
             M("e \\ne 0", "e != 0"), " (not separable). Give ", M("b", "b"), ", ", M("a", "a"), " and ", M("e", "e"),
             " at each iteration and the verdict with its certificate."]]


def _hk_accept(run, X, y):
    return (run.extras.get("verdict") in ("separable", "not_separable") and 1 <= run.updates <= 2
            and _small(run.w, 99, 999) and _small(run.extras.get("b"), 99, 99))


def _hk_check(run, X, y):
    Ya = [tuple(yi * v for v in _aug(x, "first")) for x, yi in zip(X, y)]
    b = run.extras["b"]
    out = [(_w("the final ", M("a", "a"), " solves the normal equations ", M("Y^t Y a = Y^t b", "Y^t Y a = Y^t b"),
               " for the final ", M("b", "b")), _normal_equations(Ya, b, run.w))]
    if run.extras["verdict"] == "separable":
        out.append((_w(M("Y a > 0", "Y a > 0"), ": ", M("a", "a"), " separates every sample"),
                    all(_dot(r, run.w) > 0 for r in Ya)))
    else:
        lam = run.extras["certificate"]["lambda"]
        out.append((_gordan_what("\\tilde x_i", "x~_i"), _gordan_ok(Ya, lam)))
    return out


def _gordan_what(tex: str, plain: str) -> list:
    return _w("Gordan: ", M("\\lambda \\ge 0", "lambda >= 0"), ", ", M("\\sum_i \\lambda_i = 1", "sum_i lambda_i = 1"),
              ", ", M(f"\\sum_i \\lambda_i y_i {tex} = 0", f"sum_i lambda_i y_i {plain} = 0"), " (recomputed here)")


def _gordan_ok(Z, lam) -> bool:
    lam = [Fraction(v) for v in lam]
    return (all(v >= 0 for v in lam) and sum(lam) == 1
            and all(sum((lam[i] * Z[i][j] for i in range(len(Z))), Fraction(0)) == 0 for j in range(len(Z[0]))))


def _adj3(G):
    """The adjugate of a 3 x 3 integer matrix (integers only)."""
    (a, b, c), (d, e, f), (g, h, i) = G
    return [[e * i - f * h, c * h - b * i, b * f - c * e],
            [f * g - d * i, a * i - c * g, c * d - a * f],
            [d * h - e * g, b * g - a * h, a * e - b * d]]


def _hk_draw(rng, n, d, R):
    """Full-rank data whose first MSE solution a = Y^+ 1 decides nothing yet (neither Y a > 0 nor e <= 0), so
    Ho-Kashyap needs at least one update of b.  Decided in integers: with G = Y^t Y, a = adj(G) Y^t 1 / det G
    and det G > 0, so Y a has the signs of u = Y adj(G) Y^t 1, and e <= 0 iff u <= det G."""
    drawn = _full_rank_draw(rng, n, d, R)
    if drawn is None:
        return None
    Z = [tuple(yi * v for v in _aug(x, "first")) for x, yi in zip(*drawn)]
    if len(Z[0]) != 3:
        a = _mse_solution(Z, [1] * n)
        u, D = [_dot(r, a) for r in Z], 1
    else:
        G = [[sum(r[i] * r[j] for r in Z) for j in range(3)] for i in range(3)]
        D = (G[0][0] * (G[1][1] * G[2][2] - G[1][2] * G[2][1])
             - G[0][1] * (G[1][0] * G[2][2] - G[1][2] * G[2][0])
             + G[0][2] * (G[1][0] * G[2][1] - G[1][1] * G[2][0]))
        r1 = [sum(r[i] for r in Z) for i in range(3)]
        a = [_dot(row, r1) for row in _adj3(G)]
        u = [_dot(r, a) for r in Z]
    if all(v > 0 for v in u) or all(v <= D for v in u):
        return None
    return drawn


_register(ExerciseSpec("ho-kashyap", {"easy": (4, 2, 2), "medium": (4, 2, 3), "hard": (5, 2, 2)},
                       _hk_draw, {"bias": "first", "k_max": 3}, _hk_accept, _hk_check, _q_hk,
                       "a verdict after 2 or 3 iterations (1 or 2 updates of b); a's denominators under 1000 and "
                       "b's under 100, numerators under 100", stated=("eta",)))


# Fisher (seed 003) --------------------------------------------------------------------------------------------------
def _q_fisher(X, y, kw):
    return [["Compute the class means ", M("m_1", "m_1"), " (label +1) and ", M("m_2", "m_2"), " (label -1), the "
             "scatter matrices ", M("S_1, S_2", "S_1, S_2"), " and ",
             M("S_W = S_1 + S_2", "S_W = S_1 + S_2"), ", Fisher's direction ", M("w = S_W^{-1}(m_1 - m_2)",
                                                                                "w = S_W^-1 (m_1 - m_2)"),
             ", the projected means and the threshold ", M("y_0", "y_0"), " (midpoint of the projected means)."],
            ["Classify every training sample by ", M("w^t x > y_0", "w^t x > y_0"), "."]]


def _fisher_accept(run, X, y):
    ex = run.extras
    return (ex.get("method") == "inverse" and _small(run.w, 12, 4) and _small(ex["S_W"], 30, 4)
            and _small(ex["y0"], 99, 12) and not ex.get("on_threshold"))


def _fisher_check(run, X, y):
    P = [tuple(map(Fraction, x)) for x, yi in zip(X, y) if yi == 1]
    N = [tuple(map(Fraction, x)) for x, yi in zip(X, y) if yi == -1]
    d = len(X[0])
    m1 = [sum((p[j] for p in P), Fraction(0)) / len(P) for j in range(d)]
    m2 = [sum((p[j] for p in N), Fraction(0)) / len(N) for j in range(d)]
    SW = [[sum(((p[a] - m[a]) * (p[b] - m[b]) for S, m in ((P, m1), (N, m2)) for p in S), Fraction(0))
           for b in range(d)] for a in range(d)]
    lhs = [_dot(row, run.w) for row in SW]
    y0 = (_dot(run.w, m1) + _dot(run.w, m2)) / 2
    return [(_w(M("S_W w = m_1 - m_2", "S_W w = m_1 - m_2"), " (means and scatter recomputed here)"),
             lhs == [a - b for a, b in zip(m1, m2)]),
            (_w(M("y_0 = w^t (m_1 + m_2) / 2", "y_0 = w^t (m_1 + m_2) / 2")), y0 == run.extras["y0"])]


def _fisher_draw(rng, n, d, R):
    X, y = _random_labels(rng, n, d, R)
    if y.count(1) < 2 or y.count(-1) < 2:
        return None
    return X, y


_register(ExerciseSpec("fisher", {"easy": (4, 2, 3), "medium": (5, 2, 2), "hard": (6, 2, 2)},
                       _fisher_draw, {"bias": "none", "threshold": "1"}, _fisher_accept, _fisher_check, _q_fisher,
                       "w has numerators at most 12 and denominators at most 4; S_W entries small; y_0's "
                       "denominator at most 12; no sample on the threshold"))


# linear machine (seed 003) ------------------------------------------------------------------------------------------
def _q_lm(X, y, kw):
    return [["Three classes. Augment each sample with a leading 1 and run the linear machine's fixed-increment "
             "rule from all weight vectors 0, samples in cyclic order: when sample ", M("y", "y"), " of class i has ",
             M("a_i^t y \\le a_j^t y", "a_i^t y <= a_j^t y"), " for some ", M("j \\ne i", "j != i"), ", set ",
             M("a_i \\leftarrow a_i + y", "a_i <- a_i + y"), " and ", M("a_j \\leftarrow a_j - y", "a_j <- a_j - y"),
             " (", M("j", "j"), " the rival with the largest score).", *_cyclic_stop(len(X))],
            ["Give the weight vectors after every update and the final classifier."]]


def _lm_draw(rng, n, d, R):
    W = [tuple(rng.integer(-2, 2) for _ in range(d + 1)) for _ in range(3)]
    X, y = [], []
    tries = 0
    while len(X) < n and tries < 50:
        tries += 1
        x = tuple(rng.integer(-R, R) for _ in range(d))
        g = [_dot(w, _aug(x, "first")) for w in W]
        top = max(g)
        if x in X or g.count(top) > 1:
            continue
        X.append(x)
        y.append(g.index(top))
    if len(X) < n or len(set(y)) < 3:
        return None
    return X, y


def _lm_accept(run, X, y):
    return run.converged and 3 <= run.updates <= 6 and _small(run.extras["W"], 12, 1)


def _lm_check(run, X, y):
    W = dict(zip(run.extras["classes"], run.extras["W"]))
    ok = all(all(_dot(W[c], _aug(x, "first")) > _dot(W[o], _aug(x, "first")) for o in W if o != c)
             for x, c in zip(X, y))
    total = [sum((W[c][j] for c in W), Fraction(0)) for j in range(len(X[0]) + 1)]
    return [(_w("every sample scores strictly highest under its own class"), ok),
            (_w("the weight vectors sum to 0 (each update adds ", M("y", "y"),
                " to one and subtracts it from another)"),
             all(t == 0 for t in total))]


_register(ExerciseSpec("linear-machine", {"easy": (3, 2, 2), "medium": (5, 2, 3), "hard": (6, 2, 3)},
                       _lm_draw, {"bias": "first", "max_epochs": 6}, _lm_accept, _lm_check, _q_lm,
                       "converges in 3 to 6 updates; weights are integers of size at most 12"))


# separability with a Gordan certificate (seed 004) ------------------------------------------------------------------
def _q_sep(X, y, kw):
    return [["Is there a hyperplane ", M("w^t x + b = 0", "w^t x + b = 0"), " with ",
             M("y_i (w^t x_i + b) > 0", "y_i (w^t x_i + b) > 0"), " for every sample? If not, give multipliers ",
             M("\\lambda_i \\ge 0", "lambda_i >= 0"), " with ", M("\\sum_i \\lambda_i = 1", "sum_i lambda_i = 1"),
             " and ", M("\\sum_i \\lambda_i y_i (1, x_i) = 0", "sum_i lambda_i y_i (1, x_i) = 0"),
             " (a Gordan certificate) and explain why they prove that no such hyperplane exists."]]


def _sep_accept(run, X, y):
    cert = run.extras.get("certificate")
    return (run.extras.get("separable") is False and cert is not None and _small(cert["lambda"], 12, 12)
            and len(cert.get("support", ())) <= 4)


def _sep_check(run, X, y):
    Z = [tuple(yi * v for v in _aug(x, "first")) for x, yi in zip(X, y)]
    return [(_gordan_what("(1, x_i)", "(1, x_i)"), _gordan_ok(Z, run.extras["certificate"]["lambda"]))]


_register(ExerciseSpec("separable", {"easy": (4, 2, 1), "medium": (5, 2, 2), "hard": (6, 2, 2)},
                       _lms_draw, {"bias": "first", "exact_only": True}, _sep_accept, _sep_check, _q_sep,
                       "not separable, with Gordan multipliers of numerators and denominators at most 12 on at "
                       "most 4 samples"))


# hard-margin SVM (seed 004) -----------------------------------------------------------------------------------------
def _q_svm(X, y, kw):
    return [["Find the maximum-margin separating hyperplane ", M("w^t x + b = 0", "w^t x + b = 0"),
             ": minimize ", M("\\tfrac12 \\lVert w\\rVert^2", "||w||^2 / 2"), " subject to ",
             M("y_i (w^t x_i + b) \\ge 1", "y_i (w^t x_i + b) >= 1"), "."],
            ["Give the support vectors, the multipliers ", M("\\alpha_i", "alpha_i"), ", ", M("w", "w"), ", ",
             M("b", "b"), " and the margin ", M("1/\\lVert w\\rVert", "1/||w||"), ", and check the KKT conditions."]]


def _svm_unique(run, X, y) -> bool:
    w, b = run.extras["w"], run.extras["b"]
    active = [i for i, (x, yi) in enumerate(zip(X, y)) if yi * (_dot(w, x) + b) == 1]
    sv = [i for i, a in enumerate(run.extras["alpha"]) if a > 0]
    return active == sv and _rank([_aug(X[i], "first") for i in sv]) == len(sv)


def _svm_accept(run, X, y):
    ex = run.extras
    nsv = sum(1 for a in ex["alpha"] if a > 0)
    return (2 <= nsv <= 3 and _small(ex["alpha"], 20, 20) and _small(ex["w"], 9, 9) and _small(ex["b"], 9, 9)
            and _small(ex["margin_squared"], 99, 99) and _svm_unique(run, X, y))


def _svm_check(run, X, y):
    ex = run.extras
    w, b, al = ex["w"], ex["b"], [Fraction(a) for a in ex["alpha"]]
    d = len(X[0])
    return [(_w(M("y_i (w^t x_i + b) \\ge 1", "y_i (w^t x_i + b) >= 1"), " for every sample"),
             all(yi * (_dot(w, x) + b) >= 1 for x, yi in zip(X, y))),
            (_w(M("w = \\sum_i \\alpha_i y_i x_i", "w = sum_i alpha_i y_i x_i"), ", ",
                M("\\sum_i \\alpha_i y_i = 0", "sum_i alpha_i y_i = 0"), " and ", M("\\alpha \\ge 0", "alpha >= 0")),
             all(a >= 0 for a in al) and sum((a * yi for a, yi in zip(al, y)), Fraction(0)) == 0
             and tuple(sum((a * yi * x[j] for a, yi, x in zip(al, y, X)), Fraction(0)) for j in range(d))
             == tuple(w)),
            (_w(M("\\alpha_i > 0", "alpha_i > 0"), " only where ", M("y_i (w^t x_i + b) = 1", "y_i (w^t x_i + b) = 1"),
                " (complementary slackness)"),
             all(a == 0 or yi * (_dot(w, x) + b) == 1 for a, x, yi in zip(al, X, y))),
            (_w("the margin's square is ", M("1 / \\lVert w\\rVert^2", "1/||w||^2")),
             Fraction(1) / _dot(w, w) == ex["margin_squared"])]


_register(ExerciseSpec("svm-hard", {"easy": (4, 2, 2), "medium": (5, 2, 3), "hard": (6, 2, 3)},
                       _binary_draw(True), {"bias": "first"}, _svm_accept, _svm_check, _q_svm,
                       "2 or 3 support vectors, unique multipliers (numerators and denominators at most 20), w and "
                       "b with numerators and denominators at most 9, margin squared with both under 100"))


# ----------------------------------------------------------------------------- generation
@dataclass
class Exercise:
    algorithm: str
    seed: int
    difficulty: str
    n: int
    d: int
    X: list
    y: list
    kwargs: dict
    run: Any
    attempts: int
    checks: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(ok for _, ok in self.checks) and self.run_verified

    @property
    def run_verified(self) -> bool:
        cert = self.run.extras.get("certificate")
        return not cert or bool(cert.get("verified"))


def generate(algorithm: str, *, seed: int = 0, size: tuple[int, int] | None = None,
             difficulty: str = "easy") -> Exercise:
    """Draw the exercise for ``algorithm`` from ``seed`` (see the module docstring)."""
    if algorithm not in EXERCISES:
        raise ParameterError(f"no exercise for algorithm {algorithm!r}; exercises exist for: "
                             f"{', '.join(sorted(EXERCISES))}", parameter="algorithm")
    if difficulty not in DIFFICULTIES:
        raise ParameterError(f"difficulty {difficulty!r}: expected one of {', '.join(DIFFICULTIES)}",
                             parameter="difficulty")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ParameterError(f"seed {seed!r}: expected an integer >= 0", parameter="seed")
    spec = EXERCISES[algorithm]
    n, d, R = spec.sizes[difficulty]
    if size is not None:
        n, d = size
        if not (2 <= n <= 12 and 1 <= d <= 4):
            raise ParameterError(f"size {n}x{d}: expected N in 2..12 samples and D in 1..4 features",
                                 parameter="size")
    func = get(algorithm).func
    rng = ExRandom(seed)
    kwargs = {**spec.kwargs, **(spec.per_size(n) if spec.per_size is not None else {})}
    for attempt in range(1, MAX_ATTEMPTS + 1):
        drawn = spec.draw(rng, n, d, R)
        if drawn is None:
            continue
        X, y = drawn
        if spec.pre is not None and not spec.pre(X, y):
            continue
        try:
            run = func(X, y, trace=True, **kwargs)
        except ExactlinError:  # e.g. a singular scatter matrix: not a readable exercise
            continue
        if not spec.accept(run, X, y):
            continue
        checks = [(what if isinstance(what, list) else [what], bool(ok)) for what, ok in spec.check(run, X, y)]
        ex = Exercise(algorithm, seed, difficulty, n, d, X, y, kwargs, run, attempt, checks)
        if not ex.ok:
            from exactlin.errors import VerificationError

            failed = "; ".join(_plain(what) for what, ok in checks if not ok)
            raise VerificationError(f"exercise {algorithm} seed {seed}: the answer key failed its check: {failed}")
        return ex
    raise GenerationError(f"exercise {algorithm} seed {seed} ({difficulty}, size {n}x{d}): no data set met the "
                          f"readability bounds ({spec.bounds}) in {MAX_ATTEMPTS} attempts; try another seed or size")


# ----------------------------------------------------------------------------- documents
def _header(ex: Exercise) -> str:
    return (f"generator {GENERATOR_ID}, algorithm {ex.algorithm}, seed {ex.seed}, difficulty {ex.difficulty}, "
            f"size {ex.n}x{ex.d}")


def question_doc(ex: Exercise, *, level: int = 2) -> Doc:
    spec = EXERCISES[ex.algorithm]
    doc = Doc("")
    doc.h(level, "Exercise")
    doc.p(f"({_header(ex)})")
    if get(ex.algorithm).multiclass:  # the registry's property: a class per sample, not a label +1/-1
        doc.table(["i", M("x_i", "x_i"), "class"], [[str(i + 1), mv(x), mv(c)] for i, (x, c) in
                                                    enumerate(zip(ex.X, ex.y))])
    else:
        doc.table(["i", M("x_i", "x_i"), M("\\ell_i", "l_i") if ex.kwargs.get("bias") == "first" else M("y_i", "y_i")],
                  [[str(i + 1), mv(x), mv(c)] for i, (x, c) in enumerate(zip(ex.X, ex.y))])
    for para in spec.question(ex.X, ex.y, ex.kwargs):
        doc.p(*para)
    return doc


def answer_doc(ex: Exercise, *, level: int = 2) -> Doc:
    doc = Doc("")
    doc.h(level, "Answer key")
    doc.extend(explain_blocks(ex.run, level=level + 1, notes=notes_title(get(ex.algorithm).seed),
                              show_params=EXERCISES[ex.algorithm].stated))
    doc.h(level + 1, "Independent checks of the answer")
    doc.ul([list(what) + [": " + ("ok" if ok else "FAILED")] for what, ok in ex.checks])
    return doc


def exercise_doc(ex: Exercise, *, answers: bool = False) -> Doc:
    title = f"Exercise: {algorithm_title(ex.algorithm)}"
    doc = Doc(title)
    doc.extend(question_doc(ex))
    if answers:
        doc.extend(answer_doc(ex))
    return doc


def _plain(segs) -> str:
    return "".join(s.plain if isinstance(s, M) else s for s in segs)


def exercise_dict(ex: Exercise, *, answers: bool = False) -> dict:
    from exactlin._version import __version__
    from exactlin.model.serialize import to_jsonable

    d = {"exactlin_version": __version__, "generator": GENERATOR_ID, "algorithm": ex.algorithm, "seed": ex.seed,
         "difficulty": ex.difficulty, "size": [ex.n, ex.d], "X": to_jsonable([tuple(x) for x in ex.X]),
         "y": to_jsonable(list(ex.y), text=True), "params": {k: to_jsonable(v) for k, v in ex.kwargs.items()},
         "question": "\n".join(_plain(p) for p in EXERCISES[ex.algorithm].question(ex.X, ex.y, ex.kwargs))}
    if answers:
        run = ex.run.to_dict()
        run.pop("method", None)  # how a solver found it (e.g. a float guess's library): not part of the answer
        d["answers"] = {"run": run, "checks": [{"what": _plain(w), "ok": ok} for w, ok in ex.checks],
                        "verified": ex.ok, "final": text(ex.run.w) if ex.run.w is not None else None}
    return d
