"""Exact linear separability with a certificate either way (seeds 002 and 004).

Seed 002 (002_c246c20bba6fa4e1.txt) and seed 004 (004_f7c425a21563e0cd.txt) pose the
maximum-margin constraints y_i (w . x_i + b) >= 1; whether any (w, b) satisfies them
is a linear feasibility problem.  Its alternative (Gordan's theorem) is a vector
lambda >= 0, sum lambda = 1, with sum_i lambda_i y_i x~_i = 0 on the augmented samples.
:func:`separable` returns one of the two, checked exactly by
:mod:`exactlin.theory.certificates` before it is returned.  The LP method is in
:mod:`exactlin.linalg.separation` (HiGHS candidate -> exact solve -> exact check; exact
simplex with Bland's rule as the fallback).
"""

from __future__ import annotations

from fractions import Fraction

from exactlin.algorithms import register
from exactlin.algorithms._contract import Checked, make_run
from exactlin.data.dataset import split_bias
from exactlin.linalg.matrices import arithmetic_backend
from exactlin.linalg.separation import separate
from exactlin.model.params import Param
from exactlin.model.run import Run
from exactlin.theory.certificates import certify_separator, verify_gordan

SEED = "004_f7c425a21563e0cd.txt"

PARAMS = (
    Param("exact_only", "bool", False,
          "skip the float candidate (scipy HiGHS) and run only the exact simplex (Bland's rule)"),
)


def gordan_meaning(bias: str) -> str:
    where = " through the origin" if bias == "none" else ""
    return ("lambda >= 0, sum lambda = 1 and sum_i lambda_i y_i x~_i = 0: then sum_i lambda_i y_i <w, x~_i> = 0 "
            "for every w, so no w has y_i <w, x~_i> > 0 for all i (the data are not linearly separable"
            f"{where})")


@register("separable", family="margin", seed=SEED, number=None,
          title="Linear separability, decided exactly with a certificate", params=PARAMS, iterative=False,
          bias_default="first", arithmetics=("flint", "fraction"))
def separable(X, y, P: Checked) -> Run:
    """Decide whether some (w, b) has y_i (w . x_i + b) >= 1 for every sample (seeds 002 and 004's
    constraints), and prove the answer.

    On the augmented samples x~_i (``bias``: ``first``/``last`` add the constant 1,
    ``none`` separates through the origin) with z_i = y_i x~_i: either a vector w~
    with <w~, z_i> >= 1 for all i (``extras["w"]``, ``extras["b"]``; ``Run.w`` is w~ in
    the bias mode's layout), or a Gordan certificate ``extras["certificate"]``.
    ``extras["separable"]`` is the verdict; both are verified exactly before returning
    (``max_epochs`` and ``trace`` are accepted for the common signature and unused).

    >>> r = separable([(0, 0), (1, 1), (1, 0), (0, 1)], [1, 1, -1, -1])   # XOR
    >>> r.extras["separable"], r.extras["certificate"]["verified"]
    (False, True)
    >>> r = separable([(0,), (2,)], [-1, 1])
    >>> r.extras["separable"], r.reason
    (True, 'solved')
    """
    bias = P.bias
    prob = P.problem(X, y)
    Z = prob.Z
    backend, used = arithmetic_backend(P.arithmetic)
    res = separate(Z, use_float=not P["exact_only"], backend=backend)
    P.record_arithmetic(used)
    extras: dict = {"method": res.method}
    if res.notes:
        extras["notes"] = list(res.notes)
    if res.kind == "separator":
        w = res.w
        wf, b = split_bias(w, bias)
        # y_i <w, x~_i> >= 1, exactly
        cert = certify_separator(Z, w, margin=Fraction(1), strict=False, b=b if bias != "none" else None)
        extras.update({"separable": True, "w": wf, "b": b, "verified": True,
                       "min_functional_margin": cert.min_Ya, "certificate": cert})
        return make_run(P, prob, w=w, converged=True, reason="solved", extras=extras, seed=SEED)
    cert = verify_gordan(Z, res.lam, source="lp", support=True, through_origin=bias == "none")
    extras.update({"separable": False, "verified": True, "certificate": cert})
    return make_run(P, prob, w=None, converged=False, reason="not_separable", extras=extras, seed=SEED)
