"""Balanced Winnow, seed 003 (003_ffe0ec08819b37d8.txt) Algorithm 7, with exact powers of alpha.

The notes' listing::

    1 begin initialize a+, a-, eta(.), k <- 0, alpha > 1
    2 if sign[a+^t y_k - a-^t y_k] != z_k (pattern misclassified)
    3 then if z_k = +1 then a_i^+ <- alpha^{+y_i} a_i^+; a_i^- <- alpha^{-y_i} a_i^- for all i
    4 if z_k = -1 then a_i^+ <- alpha^{-y_i} a_i^+; a_i^- <- alpha^{+y_i} a_i^- for all i
    5 return a+, a-

Here y_k is the *unnormalized* augmented sample and z_k its label.  In the exponent, y_i is the i-th
component of y_k (y_{k,i}), not the i-th sample as the notes' notation y_i elsewhere means (erratum
``winnow-exponent``).  The listing has no loop: exactlin runs it as Algorithm 4 does (k <- (k+1) mod n,
until all patterns are properly classified), and eta(.) plays no part.
"""

from __future__ import annotations

from fractions import Fraction

from exactlin.algorithms import register
from exactlin.algorithms._contract import Checked, make_run
from exactlin.algorithms._loop import start_vector
from exactlin.algorithms.perceptron import STOP_ON_CYCLE
from exactlin.algorithms.perceptron_family import bound_params
from exactlin.engine.cyclic import cyclic
from exactlin.engine.powers import FractionPowers, PowerArith, integer_samples
from exactlin.errors import InputError, ParameterError
from exactlin.exact.format import text
from exactlin.model.params import Param, greater_than
from exactlin.model.run import Run
from exactlin.theory.certificates import gordan_from_counts, verify_gordan

__all__ = ["balanced_winnow", "exact_power"]

SEED = "003_ffe0ec08819b37d8.txt"

#: the largest power alpha^e (in bits) exact_power computes: a larger one is an InputError, not a hang
POWER_BIT_LIMIT = 100_000


def _exact_root(n: int, q: int) -> int | None:
    """The integer q-th root of n >= 0 if it is exact, else None.

    Integer arithmetic only (sympy's ``integer_nthroot``: floor of the root by integer Newton steps, and
    whether it is exact).  A float first guess would be wrong by more than 1 once the root has more than
    53 bits: 9^(61/2) = 3^61 was reported as irrational."""
    from sympy import integer_nthroot

    if n < 0:
        return None
    r, exact = integer_nthroot(n, q)
    return int(r) if exact else None


def exact_power(alpha: Fraction, e: Fraction) -> Fraction:
    """alpha^e exactly for a rational alpha > 0 and a rational exponent e, when the result is rational.

    >>> exact_power(Fraction(2), Fraction(-3))
    Fraction(1, 8)
    >>> exact_power(Fraction(4), Fraction(1, 2))
    Fraction(2, 1)
    """
    e = Fraction(e)
    bits = max(abs(alpha.numerator).bit_length(), alpha.denominator.bit_length())
    if abs(e.numerator) * bits > POWER_BIT_LIMIT * e.denominator:
        raise InputError(f"alpha^e = {text(alpha)}^e with e = {text(e)} would have about "
                         f"{text(abs(e.numerator) * bits // e.denominator)} bits (limit {POWER_BIT_LIMIT}); scale "
                         "the features down")
    if e.denominator != 1:
        # alpha^(p/q) (lowest terms) is rational iff alpha^(1/q) is: take the root first, so that alpha^p with a
        # 665-bit p (a 200-digit feature) is never computed
        p, q = _exact_root(alpha.numerator, e.denominator), _exact_root(alpha.denominator, e.denominator)
        if p is not None and q is not None:
            alpha = Fraction(p, q)
    else:
        p = q = 1
    if p is None or q is None:
        raise InputError(f"alpha^e = {text(alpha)}^e with e = {text(e)} is irrational: Balanced Winnow in exact "
                         "arithmetic needs integer "
                         "feature values (or an alpha whose powers at these exponents are rational)")
    base = alpha ** e.numerator if e.numerator >= 0 else 1 / alpha ** (-e.numerator)
    return Fraction(base)


PARAMS = (
    Param("alpha", "rational", Fraction(2), "promotion factor alpha > 1", greater_than(1)),
    Param("a_plus", "vector", None, "start vector a+ > 0 in every entry (default all ones)"),
    Param("a_minus", "vector", None, "start vector a- > 0 in every entry (default all ones)"),
    *bound_params(1024, "each promotion multiplies entries by alpha and each demotion divides them, so the bit "
                  "lengths grow with the number of updates"),
    STOP_ON_CYCLE,
)


def _powers(alpha: Fraction, Y, z) -> list[tuple]:
    """alpha^{z_k y_k,i} for every sample and component (the factors of a+), each distinct exponent computed once by
    :func:`exact_power` on the notes' y_{k,i} (its errors name that exponent)."""
    cache: dict = {}

    def power(v):
        p = cache.get(v)
        if p is None:
            p = cache[v] = exact_power(alpha, v)
        return p

    return [tuple(power(v) if zk == 1 else 1 / power(v) for v in yk) for yk, zk in zip(Y, z)]


@register("balanced-winnow", family="perceptron", seed=SEED, number="Algorithm 7", title="Balanced Winnow",
          params=PARAMS, bias_default="first", arithmetics=("fraction", "integer"),
          monitor="none: Winnow's updates are multiplicative; the perceptron convergence theorem does not apply")
def balanced_winnow(X, y, P: Checked) -> Run:
    """Balanced Winnow, seed 003 (``003_ffe0ec08819b37d8.txt``) Algorithm 7.

    Cyclically over the augmented samples y_k with labels z_k: if sign[a+^t y_k - a-^t y_k] != z_k
    (sign(0) = 0 counts as misclassified), then for every component i, with y_{k,i} the i-th component of
    y_k: z_k = +1: a_i^+ <- alpha^{+y_{k,i}} a_i^+, a_i^- <- alpha^{-y_{k,i}} a_i^-; z_k = -1: the exponents
    swap.  Until a pass with no mistake.  Powers are exact (an irrational power is an ``InputError``).

    ``Run.w`` is a+ - a- (the rule predicts sign((a+ - a-)^t y)); ``extras`` hold ``a_plus`` and
    ``a_minus``.  The trace's vectors are the state (a+ ; a-) concatenated.  In log space the update is
    log a+ += log(alpha) z_k y_k, so an exact repeat of the state (a cycle) means the corrections of one
    period sum to 0: a verified Gordan certificate of non-separability (``stop_on_cycle=False``: the run goes
    on to its bound with it).  No convergence monitor: Winnow's mistake bound is a different theorem.

    The loop is the engine's cyclic loop on the normalized samples z_k y_k (the test <a+ - a-, z_k y_k> <= 0, the
    update "multiply by alpha^{z_k y_k}": :mod:`exactlin.engine.powers`).  ``arithmetic="integer"`` keeps every
    weight as its start value times an integer power of alpha (integer samples only: for others it is a
    ParameterError); ``"fraction"`` multiplies Fractions; ``"auto"`` takes the first when the samples are integers.

    >>> r = balanced_winnow([(1, 0), (0, 1)], [1, -1], bias="none")
    >>> r.w, r.extras["a_plus"], r.extras["a_minus"]
    ((Fraction(3, 2), Fraction(-3, 2)), (Fraction(2, 1), Fraction(1, 2)), (Fraction(1, 2), Fraction(2, 1)))
    """
    prob = P.problem(X, y)
    Y, z, d, Z = prob.Y, prob.z, prob.d, prob.Z
    alpha = P["alpha"]
    ones = tuple(Fraction(1) for _ in range(d))
    ap = start_vector(P["a_plus"], d, "a_plus") if P["a_plus"] is not None else ones
    am = start_vector(P["a_minus"], d, "a_minus") if P["a_minus"] is not None else ones
    # Winnow's weights are positive: a multiplicative update never moves a zero weight (that component is lost),
    # and the cycle certificate reads the updates in log space, which needs every a_i > 0
    for name, vec in (("a_plus", ap), ("a_minus", am)):
        for i, v in enumerate(vec):
            if v <= 0:
                raise ParameterError(f"{name} must be > 0 in every entry (Winnow's weights are positive and "
                                     f"multiplied, never added to); {name}[{i}] = {v}", parameter=name)
    powers = _powers(alpha, Y, z)  # exact (or the InputError of an irrational power), whatever the arithmetic
    integer = integer_samples(Z) is not None
    used = P.arithmetic if P.arithmetic != "auto" else ("integer" if integer else "fraction")
    if used == "integer":
        if not integer:
            raise ParameterError("balanced-winnow computes in arithmetic='integer' only on integer samples (every "
                                 "weight is kept as an integer power of alpha); these have a non-integer entry: "
                                 "use arithmetic='fraction' (or 'auto')", parameter="arithmetic")
        rep = PowerArith(Z, ap + am, alpha)
    else:
        rep = FractionPowers(Z, ap + am, powers)
    tracer = P.tracer(2 * d)
    # the notes' test sign[a+^t y_k - a-^t y_k] != z_k is <a+ - a-, z_k y_k> <= 0; its score a+^t y_k - a-^t y_k
    res = cyclic(rep, P.bounds(), tracer, coef=1, stationary=True, stop_on_cycle=P["stop_on_cycle"],
                 score=lambda k, q: z[k] * q)
    P.record_arithmetic(rep.name, rep.tiers)
    a_plus, a_minus = res.w[:d], res.w[d:]
    w = tuple(p - m for p, m in zip(a_plus, a_minus))
    run = make_run(P, prob, w=w, converged=res.converged, reason=res.reason, updates=res.updates,
                   epochs=res.epochs, steps=res.steps, tracer=tracer, seed=SEED,
                   extras={"a_plus": a_plus, "a_minus": a_minus, "mistakes": res.update_indices,
                           "last_update_step": res.last_update,
                           "separates": not rep.all(rep.scores(0, prob.n), rep.threshold(0)),
                           "max_bits": res.max_bits, "monitor": None,
                           "monitor_note": "not applied: Winnow's multiplicative updates are not covered by the "
                                           "perceptron convergence theorem"})
    if res.cycle is not None:
        run.extras["certificate"] = verify_gordan(Z, gordan_from_counts(prob.n, res.cycle), source="cycle",
                                                  cycle=res.cycle, through_origin=P.bias == "none")
        run.extras["cycle_step"] = res.cycle_step
    return run
