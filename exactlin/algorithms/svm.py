"""Exact maximum-margin classifiers: hard-margin SVM, seed 004's squared-slack soft margin, the
hinge-loss C-SVM, polynomial kernels, and the tightest perceptron bound.

Seed 002 (002_c246c20bba6fa4e1.txt, "Maximum Margin Classifiers") and seed 004
(004_f7c425a21563e0cd.txt, "Finding a maximum margin classifier", "Soft margin
optimization", "SVM after transformation"):

    minimize ||w||^2 / 2  subject to  y_i (w . x_i + b) >= 1                       [svm-hard]
    minimize ||w||^2 / 2 + C sum xi_i^2  s.t.  y_i (w . x_i + b) >= 1 - xi_i      [svm-soft-l2] (seed 004: C = 1)
    minimize ||w||^2 / 2 + C sum xi_i    s.t.  y_i (w . x_i + b) >= 1 - xi_i, xi >= 0   [svm-soft]

and the dual decision function sign(sum_{i in sv} y_i alpha_i K(x_i, z) + b).

This module states the problems, maps primal and dual, and certifies; the solvers live in the linear-algebra
layer.  Method (nothing uncertified is ever returned):

1. a float guess of the active set (:mod:`exactlin.linalg.guess`): for a linear SVM, and for a polynomial
   kernel solved as the linear SVM over its monomials (weights :func:`monomial_weights`), Newton's method on
   the (Huber-smoothed or squared-slack) primal in numpy; otherwise scikit-learn's ``SVC`` in a child process
   with a time limit.  A guess that fails, hangs, crashes or prints costs only itself;
2. the exact solve of the KKT equations on the guessed sets (python-flint, or with ``arithmetic="fraction"``
   sympy's DomainMatrix and Python integers; over the integers for the linear and monomial route,
   :mod:`exactlin.linalg.qp_linear`; over the rationals with the kernel matrix otherwise, :mod:`exactlin.linalg.qp`),
   on an affinely independent subset of the free samples (duplicates and more support vectors than dimensions are
   handled there);
3. exact repair when the guess is off: one-sample active-set steps (bounded), then Lemke's method on the
   samples in doubt only (the guessed free ones and those nearest the margin), every other multiplier held at
   its guessed bound, checked over all samples in one pass of integer products;
4. the exact fallback: Lemke's complementary pivoting (lexicographic, so it terminates) on the dual's KKT
   system, an LCP (:func:`exactlin.linalg.lp.lemke`), on a working subset grown by the violated samples;
5. the independent exact KKT check (:func:`exactlin.theory.kkt.verify_kkt`).

Non-separable data (hard margin): a Run with ``converged=False``, reason
``not_separable`` and the verified Gordan certificate of :mod:`.separability`.
"""

from __future__ import annotations

import math
from fractions import Fraction

from exactlin.algorithms import register
from exactlin.algorithms._contract import Checked, make_run
from exactlin.algorithms._loop import binary_problem
from exactlin.errors import LabelError, ParameterError, VerificationError
from exactlin.exact.format import quote
from exactlin.linalg.guess import closest_pair, hinge_guess, squared_guess, svc_guess
from exactlin.linalg.matrices import arithmetic_backend
from exactlin.linalg.qp import KernelMatrix, active_set, b_interval, lemke_chunked
from exactlin.linalg.qp_linear import IntegerRows, hinge_active_set, repair_subset, squared_newton, weights
from exactlin.linalg.separation import separate
from exactlin.model.models import KernelModel, label_pair, linear_model
from exactlin.model.params import Conflict, Param, at_least, nonnegative, positive
from exactlin.model.run import Run
from exactlin.theory.certificates import verify_gordan
from exactlin.theory.kkt import verify_kkt

__all__ = ["svm_hard", "svm_soft", "svm_soft_l2", "perceptron_bound", "poly_kernel", "decision_function",
           "monomials"]

SEED = "004_f7c425a21563e0cd.txt"
F0 = Fraction(0)
F1 = Fraction(1)

_KERNEL_PARAMS = (
    Param("kernel", "choice", "linear", "linear, or poly: K(x, z) = (x . z + coef0)^degree",
          choices=("linear", "poly")),
    Param("degree", "int", 2, "degree of the polynomial kernel", at_least(1)),
    Param("coef0", "rational", Fraction(1), "constant of the polynomial kernel (>= 0 keeps K positive semidefinite)",
          nonnegative),
    Param("exact_only", "bool", False,
          "skip every float guess (numpy, scikit-learn) and solve exactly from the start (Lemke's method)"),
)
#: degree and coef0 belong to the polynomial kernel
KERNEL_CONFLICTS = (
    Conflict("degree", "kernel", lambda g, e: e.get("kernel") != "poly",
             "degree is the polynomial kernel's; it does not apply to kernel={kernel} (pass kernel=poly, or drop "
             "degree)"),
    Conflict("coef0", "kernel", lambda g, e: e.get("kernel") != "poly",
             "coef0 is the polynomial kernel's; it does not apply to kernel={kernel} (pass kernel=poly, or drop "
             "coef0)"),
)

#: from this many samples on, a linear SVM works over the integers with w (never the n x n Gram matrix), from
#: its own float guess (below it, the exact route alone: the active-set steps, then Lemke's method)
LINEAR_SCALE_N = 30
#: scikit-learn's SVC (in a child process) guesses a kernel SVM's support vectors from this many samples on
SVC_MIN_N = 30
#: exact one-sample repair steps tried from the linear float guess before Lemke's method on the doubtful samples
REPAIR_STEPS = 40
#: the C of the float hinge-loss guess that stands for the hard margin (any C above every multiplier gives it)
HARD_GUESS_C = 10 ** 6

PARAMS_HARD = _KERNEL_PARAMS
PARAMS_SOFT = (Param("C", "rational", Fraction(1), "weight of the slack penalty", positive),) + _KERNEL_PARAMS
PARAMS_SOFT_L2 = (Param("C", "rational", Fraction(1),
                        "weight of sum xi_i^2 (seed 004's objective ||w||^2/2 + sum xi_i^2 is C = 1)", positive),
                  ) + _KERNEL_PARAMS


def poly_kernel(degree: int = 2, coef0=1):
    """K(x, z) = (x . z + coef0)^degree, exactly.

    >>> poly_kernel(2, 1)((1, 2), (3, "1/2"))
    Fraction(25, 1)
    """
    if isinstance(degree, bool) or int(degree) != degree or degree < 1:
        raise ParameterError(f"degree must be >= 1, got {quote(degree)}", parameter="degree")
    c = Fraction(coef0) if not isinstance(coef0, str) else Fraction(coef0)
    degree = int(degree)

    def K(x, z):
        return (sum((Fraction(a) * Fraction(b) for a, b in zip(x, z)), F0) + c) ** degree

    K.degree, K.coef0 = degree, c
    return K


def monomials(x, degree: int, coef0) -> tuple:
    """The monomials x^k behind the polynomial kernel: (x . z + c)^p = sum_k m_k c^(p-|k|) x^k z^k with
    positive multinomial weights m_k, over |k| <= p when c > 0 (|k| = p when c = 0).  Feature space
    vectors are these monomials scaled by sqrt(m_k c^(p-|k|)) > 0, so the two are separable together
    and a Gordan certificate on the monomials is one in feature space too.

    >>> monomials((2, 3), 2, 1)
    (Fraction(1, 1), Fraction(2, 1), Fraction(3, 1), Fraction(4, 1), Fraction(6, 1), Fraction(9, 1))
    """
    from itertools import combinations_with_replacement

    x = tuple(Fraction(v) for v in x)
    out = []
    for t in range(0 if Fraction(coef0) > 0 else degree, degree + 1):
        for idx in combinations_with_replacement(range(len(x)), t):
            v = F1
            for j in idx:
                v *= x[j]
            out.append(v)
    return tuple(out)


def monomial_weights(d: int, degree: int, coef0) -> tuple:
    """The positive weights G_k with (x . z + c)^p = sum_k G_k x^k z^k, in the order of :func:`monomials`:
    G_k = c^(p - |k|) p! / ((p - |k|)! k_1! ... k_d!) (the multinomial theorem on (x_1 z_1 + ... + x_d z_d + c)^p).

    >>> monomial_weights(2, 2, 1)  # 1, x1, x2, x1^2, x1 x2, x2^2
    (Fraction(1, 1), Fraction(2, 1), Fraction(2, 1), Fraction(1, 1), Fraction(2, 1), Fraction(1, 1))
    """
    from collections import Counter
    from itertools import combinations_with_replacement

    c = Fraction(coef0)
    out = []
    for t in range(0 if c > 0 else degree, degree + 1):
        for idx in combinations_with_replacement(range(d), t):
            m = math.factorial(degree) // math.factorial(degree - t)
            for k in Counter(idx).values():
                m //= math.factorial(k)
            out.append(m * c ** (degree - t))
    return tuple(out)


#: the polynomial kernel is solved as a linear SVM over its monomials while there are at most this many
MONOMIALS_MAX = 400


class _NotSeparable(Exception):
    def __init__(self, sep, Zs):
        self.sep, self.Zs = sep, Zs


def _linear_at_scale(Xg, y, K: KernelMatrix, lin: IntegerRows, *, loss: str, C, intercept: bool, method: list,
                     notes: list, separable=None):
    """A linear SVM from its float guess (:mod:`exactlin.linalg.guess`), repaired exactly over the integers
    (:mod:`exactlin.linalg.qp_linear`): the one-sample active-set steps from the guessed sets, then Lemke's method
    on the samples whose status is in doubt (the guessed free ones and those nearest the margin), every other
    multiplier held at its guessed bound.  ``Xg``: the rows the float guess sees (a kernel's feature rows);
    ``lin``: the same rows as exact integers (with the kernel's weights).  ``separable``: for the hard margin, a
    check of separability run before the repair when the guess leaves samples inside their margin (the data are
    then likely not separable; the check raises _NotSeparable with its certificate).  (alpha, b), or None when
    the guess or its repair fails."""
    n, d = len(y), lin.d
    if loss == "squared":
        g = squared_guess(Xg, y, C, intercept)
    else:  # the hard margin is the hinge loss with a C above every multiplier (1e6: float guess only)
        g = hinge_guess(Xg, y, HARD_GUESS_C if loss == "hard" else C, intercept)
    if g is None:
        notes.append("no float guess of the linear SVM's active set (numpy missing or values too large)")
        return None
    free, upper, order, who = g
    if loss == "hard":
        if upper and separable is not None:
            separable()
        free, upper = list(free) + list(upper), []
    if loss == "squared":
        sol = squared_newton(lin, y, free, C=C, intercept=intercept, max_iter=2 * n + 20)
        if sol is not None:
            method.append(f"{who} guessed the samples inside their margin; Newton's method on the primal then ran "
                          "exactly over the integers, each step one (d+1) x (d+1) solve")
        else:
            notes.append(f"the float guess ({who}) did not lead to a KKT point")
        return sol
    hard = loss == "hard"
    sol = hinge_active_set(lin, K, y, free or closest_pair(Xg, y, True), upper, hard=hard, C=C, intercept=intercept,
                           max_iter=REPAIR_STEPS)
    if sol is not None:
        method.append(f"{who} guessed the active set; the KKT equations were solved exactly over the integers, "
                      "with exact active-set repair steps")
    else:
        doubt = list(dict.fromkeys(list(free) + order[:2 * (d + 1) + 10]))
        sol = repair_subset(lin, y, doubt, upper, hard=hard, C=C, intercept=intercept, order=order)
        if sol is not None:
            method.append(f"{who} guessed the active set; exact Lemke complementary pivoting solved the dual on the "
                          "samples in doubt (the guessed free ones and those nearest the margin, grown by the "
                          "violated ones), every other multiplier held at its guessed bound, checked over the "
                          "integers")
    if sol is None:
        notes.append(f"the float guess ({who}) did not lead to a KKT point")
    return sol


def _kernel_in_features(X, y, K: KernelMatrix, *, degree: int, coef0, loss: str, C, intercept: bool, method: list,
                        notes: list, separable=None):
    """A polynomial kernel SVM as the linear SVM over its monomials (seed 004, "SVM after transformation"): the
    integer monomial rows with the kernel's weights G_k (:func:`monomial_weights`), so K(x_i, x_j) is an exact
    integer-weighted dot product and the linear route's float guess and exact repair apply unchanged."""
    import numpy as np

    Phi = [monomials(x, degree, coef0) for x in X]
    G = monomial_weights(len(X[0]), degree, coef0)
    lin = IntegerRows(Phi, metric=G, backend=K.backend)
    with np.errstate(all="ignore"):
        Pf = np.array([[float(v) for v in r] for r in Phi]) * np.sqrt(np.array([float(g) for g in G]))
    sol = _linear_at_scale(Pf, y, K, lin, loss=loss, C=C, intercept=intercept, method=method, notes=notes,
                           separable=separable)
    if sol is not None:
        method[-1] = (method[-1] + f"; the kernel as a linear SVM over its {len(G)} monomials, each weighted by its "
                      "multinomial coefficient")
    return sol


def _solve(X, y, *, loss: str, C, kind: str, degree: int, coef0, exact_only: bool, intercept: bool, name: str,
           backend: str | None = None):
    """The exact optimum (alpha, b, kernel, method, notes) of one SVM problem on features X (the intercept,
    if any, is b); raises _NotSeparable with a verified Gordan certificate for infeasible hard margins."""
    n = len(y)
    if len(set(y)) < 2 and (loss != "hard" or intercept):
        only = "+1" if y[0] == 1 else "-1"
        raise LabelError(f"{name} needs samples of both classes; every label is {only} (a single class has no "
                         "separating hyperplane to maximise)")
    kfun = None if kind == "linear" else poly_kernel(degree, coef0)
    K = KernelMatrix(X, kfun, C if loss == "squared" else None, backend)
    method: list[str] = []
    notes: list[str] = []
    sep = None

    def check_separable():
        feats = X if kfun is None else [monomials(x, degree, coef0) for x in X]
        Zs = [tuple(yi * v for v in (tuple(x) + ((F1,) if intercept else ()))) for x, yi in zip(feats, y)]
        s_ = separate(Zs, use_float=not exact_only, backend=backend)
        if s_.kind == "gordan":
            verify_gordan(Zs, s_.lam)
            raise _NotSeparable(s_, Zs)
        return s_

    def checked():  # the hard margin's separability, decided once (raises _NotSeparable with the certificate)
        nonlocal sep
        if sep is None:
            sep = check_separable()

    sol = None
    scale = kfun is None and not exact_only and n > LINEAR_SCALE_N
    feats = (kfun is not None and not exact_only and n > SVC_MIN_N
             and len(monomials(X[0], degree, coef0)) <= MONOMIALS_MAX)
    if kfun is None and loss == "hard" and not scale:
        checked()  # decided first: non-separable data need no QP at all (and have no optimum)
    hard_check = checked if loss == "hard" else None
    lin = None  # the rows as one integer matrix (the linear kernel at scale)
    if scale:
        lin = IntegerRows(X, backend=backend)
        sol = _linear_at_scale(X, y, K, lin, loss=loss, C=C, intercept=intercept, method=method, notes=notes,
                               separable=hard_check)
    elif feats:
        sol = _kernel_in_features(X, y, K, degree=degree, coef0=coef0, loss=loss, C=C, intercept=intercept,
                                  method=method, notes=notes, separable=hard_check)
    if sol is None and loss == "hard" and (scale or feats):
        checked()  # the float route failed: no slow exact route on data that may not be separable
    start: list[int] = []
    if sol is None and not exact_only and n > SVC_MIN_N:
        guess = svc_guess(X, y, kernel=kind, degree=degree, coef0=coef0, loss=loss, C=C)
        if guess is not None:
            free, upper = guess
            start = list(free) + list(upper)
            sol = active_set(K, y, free or closest_pair(X, y, kfun is None), upper, loss=loss, C=C,
                             intercept=intercept, max_iter=2 * n + 20)
            if sol is not None:
                method.append("scikit-learn SVC (in a child process) guessed the support vectors; the KKT equations "
                              "were solved exactly, with exact active-set and LP repair steps")
            else:
                notes.append("the float guess (scikit-learn SVC) did not lead to a KKT point")
        else:
            notes.append("scikit-learn SVC gave no guess (not installed, failed or timed out)")
    if sol is None:
        start = start or closest_pair(X, y, kfun is None)
        sol = active_set(K, y, start, (), loss=loss, C=C, intercept=intercept, max_iter=2 * n + 20)
        if sol is not None:
            method.append("exact active-set steps from the closest pair of opposite samples, with exact LP repair "
                          "steps")
    if sol is None:
        if loss == "hard":
            checked()  # (with a kernel: on its monomial features)
        sol = lemke_chunked(K, y, start, loss=loss, C=C, intercept=intercept)
        method.append("exact Lemke complementary pivoting on the dual KKT system (working subset grown by the "
                      "violated samples)")
        if sol is None:  # cannot happen: the problem is feasible (checked above for the hard margin)
            raise VerificationError(f"{name}: Lemke's method ended on a secondary ray on a feasible problem")
    alpha, b = sol
    if loss == "hinge" and intercept and not any(0 < a < C for a in alpha):
        # no free multiplier: b is not unique (every b of an interval is optimal); return the interval's midpoint
        b_ = b_interval(K, y, {j: y[j] * alpha[j] for j in range(n) if alpha[j]}, n,
                        {i for i in range(n) if not alpha[i]}, {i for i in range(n) if alpha[i] == C})
        b = b if b_ is None else b_
    return alpha, b, K, "; ".join(method), notes, lin


def _finish(name, prob, bias, P, loss, C, intercept, out, X, y, seed) -> Run:
    alpha, b, K, method, notes, lin = out
    n = len(y)
    kind = P["kernel"]
    sv = [i for i in range(n) if alpha[i]]
    extras: dict = {}
    if kind == "linear":
        lin = lin or IntegerRows(X, backend=K.backend)
        w = weights(lin, {i: alpha[i] * y[i] for i in sv}) if sv else tuple(F0 for _ in X[0])
        kkt = verify_kkt(X, y, alpha, b, w=w, loss=loss, C=C, intercept=intercept)
        if intercept:
            W = (b, *w) if bias == "first" else (*w, b)
        else:
            W = w
        extras["w"] = w
        extras["w_features"] = w  # the feature weights (JSON's "w" is the augmented Run.w)
    else:
        kfun = poly_kernel(P["degree"], P["coef0"])
        kkt = verify_kkt(X, y, alpha, b, kernel=kfun, loss=loss, C=C, intercept=intercept)
        W = None
        extras["kernel"] = {"kind": "poly", "degree": P["degree"], "coef0": P["coef0"],
                            "K": "(x . z + coef0)^degree"}
    import sympy

    norm2 = kkt.norm2_w
    from exactlin.exact.numbers import to_sympy

    extras.update({
        "b": b,
        "alpha": tuple(alpha),
        "support_vectors": sv,
        "norm2_w": norm2,
        "kkt": kkt,
        "method": method,
    })
    if norm2 > 0:
        nw = sympy.sqrt(to_sympy(norm2))
        extras["margin"] = sympy.radsimp(1 / nw)
        extras["slab_width"] = sympy.radsimp(2 / nw)
        extras["margin_squared"] = 1 / norm2
    if loss != "hard":
        extras["xi"] = kkt.xi
        extras["objective"] = kkt.primal_objective
    if notes:
        extras["notes"] = notes
    if not intercept and bias != "none":
        extras["note"] = "no intercept"
    if W is not None:
        model = linear_model(W, bias, prob)
    else:  # the dual form: K(x_i, x) on the samples the kernel saw (raw x with an intercept, else x~)
        model = KernelModel(tuple(tuple(X[i]) for i in sv), tuple(alpha[i] for i in sv), tuple(y[i] for i in sv),
                            b, "poly", P["degree"], P["coef0"], "none" if intercept else bias, *label_pair(prob))
    return make_run(P, prob, w=W, converged=True, reason="solved", extras=extras, seed=seed, model=model)


def _fit(name, X, y, P: Checked, loss, intercept=None):
    bias = P.bias
    prob = P.problem(X, y)
    if intercept is None:
        intercept = bias != "none"
    C = P.get("C")
    backend, used = arithmetic_backend(P.arithmetic)  # the exact solves: python-flint or sympy's DomainMatrix
    P.record_arithmetic(used)
    X = prob.data.X if intercept else prob.Y
    y_ = list(prob.z)
    try:
        out = _solve(X, y_, loss=loss, C=C, kind=P["kernel"], degree=P["degree"], coef0=P["coef0"],
                     exact_only=P["exact_only"], intercept=intercept, name=name, backend=backend)
    except _NotSeparable as e:
        sep, Zs = e.sep, e.Zs
        features = None
        if P["kernel"] != "linear":
            rel = "<=" if P["coef0"] > 0 else "="
            features = (f"the monomials of degree {rel} {P['degree']} (kernel (x . z + {P['coef0']})^"
                        f"{P['degree']}); feature space rescales them by positive constants, so the "
                        "certificate holds there too")
        cert = verify_gordan(Zs, sep.lam, source="lp", support=True, through_origin=bias == "none",
                             features=features)
        return make_run(P, prob, w=None, converged=False, reason="not_separable",
                        extras={"separable": False, "certificate": cert, "method": sep.method}, seed=SEED)
    return _finish(name, prob, bias, P, loss, C, intercept, out, X, y_, SEED)


@register("svm-hard", family="margin", seed=SEED, number="Finding a maximum margin classifier",
          title="Hard-margin SVM (maximum margin classifier), exact and KKT-certified", params=PARAMS_HARD,
          conflicts=KERNEL_CONFLICTS, iterative=False, bias_default="first", arithmetics=("flint", "fraction"))
def svm_hard(X, y, P: Checked) -> Run:
    """The hard-margin SVM of seeds 002 and 004: minimize ||w||^2/2 subject to y_i (w . x_i + b) >= 1.

    ``bias="first"``/``"last"``: b is the intercept and ``Run.w`` is (b, w) / (w, b), so
    ``Run.decision`` gives w . x + b; ``bias="none"``: no intercept (through the origin).
    Extras: ``w``, ``b``, ``alpha`` (exact multipliers), ``support_vectors`` (indices with
    alpha > 0), ``margin`` = 1/||w|| and ``slab_width`` = 2/||w|| (exact sympy numbers), ``kkt``
    (the independent check's report, ``verified: True``).  Not separable: ``converged=False``,
    reason ``not_separable``, ``extras["certificate"]`` (Gordan, verified).
    (``max_epochs`` and ``trace`` are accepted for the common signature and unused.)

    >>> r = svm_hard([(0, 0), (2, 0)], [-1, 1])
    >>> r.extras["w"], r.extras["b"], r.extras["margin"]
    ((Fraction(1, 1), Fraction(0, 1)), Fraction(-1, 1), 1)
    """
    return _fit("svm-hard", X, y, P, "hard")


@register("svm-soft", family="margin", seed=SEED, number="Soft margin optimization (hinge loss)",
          title="Soft-margin C-SVM (hinge loss), exact and KKT-certified", params=PARAMS_SOFT,
          conflicts=KERNEL_CONFLICTS, iterative=False, bias_default="first", arithmetics=("flint", "fraction"))
def svm_soft(X, y, P: Checked) -> Run:
    """The standard C-SVM: minimize ||w||^2/2 + C sum xi_i subject to y_i (w . x_i + b) >= 1 - xi_i,
    xi_i >= 0 (the usual soft margin; seed 004 writes the squared slacks, see ``svm-soft-l2``).

    Extras as ``svm-hard`` plus ``xi`` (slacks) and ``objective``; 0 <= alpha_i <= C.

    Hand derivation for the doctest: at C = 1 both x = 1 (+1) and x = 1/2 (-1) sit inside the margin, so
    alpha = (0, 1, 1) = (0, C, C), w = 1 * 1 - 1 * 1/2 = 1/2, and every b in [-5/4, -1] is optimal (b is
    not unique when no multiplier is strictly between 0 and C); exactlin returns the interval's midpoint.

    >>> r = svm_soft([(0,), (1,), ("1/2",)], [-1, 1, -1], C=1)
    >>> r.extras["w"], r.extras["b"], r.extras["alpha"]
    ((Fraction(1, 2),), Fraction(-9, 8), (Fraction(0, 1), Fraction(1, 1), Fraction(1, 1)))
    """
    return _fit("svm-soft", X, y, P, "hinge")


@register("svm-soft-l2", family="margin", seed=SEED, number="Soft margin optimization",
          title="Seed 004's soft margin: ||w||^2/2 + C sum xi_i^2, exact and KKT-certified", params=PARAMS_SOFT_L2,
          conflicts=KERNEL_CONFLICTS, iterative=False, bias_default="first", arithmetics=("flint", "fraction"))
def svm_soft_l2(X, y, P: Checked) -> Run:
    """Seed 004's soft margin: minimize ||w||^2/2 + C sum xi_i^2 subject to y_i (w . x_i + b) >= 1 - xi_i
    (C = 1 is the seed's objective; the constraint xi_i >= 0 is implied at the optimum).

    At the optimum xi_i = alpha_i / (2C): the dual is the hard-margin dual with kernel K + I/(2C).

    Hand derivation: by symmetry b = -w and both points have slack 1 - w, so the objective is
    w^2/2 + 2 (1 - w)^2, minimal at w = 4/5.

    >>> r = svm_soft_l2([(0,), (2,)], [-1, 1])
    >>> r.extras["w"], r.extras["b"], r.extras["xi"]
    ((Fraction(4, 5),), Fraction(-4, 5), (Fraction(1, 5), Fraction(1, 5)))
    """
    return _fit("svm-soft-l2", X, y, P, "squared")


def decision_function(run: Run, z):
    """g(z) = sum_{i in sv} y_i alpha_i K(x_i, z) + b exactly, from an SVM Run (seed 004's dual form);
    for a linear SVM this equals ``run.decision(z)``.

    >>> r = svm_hard([(0,), (3,)], [-1, 1], kernel="poly", degree=2)
    >>> decision_function(r, (3,)) >= 1
    True

    The run's model evaluates it (:class:`~exactlin.model.models.KernelModel` for a kernel, the linear
    model otherwise), so a run read back from JSON evaluates it too."""
    if run.model is None:
        raise ParameterError(f"{run.algorithm} ({run.reason}): this run has no decision function",
                             parameter="algorithm")
    return run.model.decision(z)


def perceptron_bound(X, y=None, bias: str = "none", *, positive=None) -> dict:
    """The tightest bound the convergence theorem of seed 004 gives: m <= R^2 ||w*||^2 over all w*
    with y_i <w*, x~_i> >= 1, attained by the minimum-norm such w* -- the hard-margin SVM
    *without* intercept on the augmented samples x~_i (the perceptron's bias weight is part of
    w*, so it is penalised too).

    Returns ``{"bound": R^2 ||w*||^2, "w_star": w* (augmented, usable as the perceptron's
    ``w_star``), "R2": R^2, "norm2_w_star": ||w*||^2, "kkt": ...}``.

    >>> perceptron_bound([(1, 0), (0, 1)], [1, 1])["bound"]
    Fraction(2, 1)
    """
    prob = binary_problem(X, y, bias=bias, positive=positive)
    y_ = list(prob.z)
    try:
        alpha, _, _, method, _, _ = _solve(prob.Y, y_, loss="hard", C=None, kind="linear", degree=1, coef0=F0,
                                        exact_only=False, intercept=False, name="perceptron_bound")
    except _NotSeparable as e:
        raise VerificationError("not linearly separable" + (" through the origin" if bias == "none" else "")
                                + f": Gordan certificate lambda = ({', '.join(str(v) for v in e.sep.lam)}) "
                                "(verified), so no w* exists and the theorem gives no bound") from None
    n, d = len(y_), len(prob.Y[0])
    w = tuple(sum((alpha[i] * y_[i] * prob.Y[i][k] for i in range(n) if alpha[i]), F0) for k in range(d))
    kkt = verify_kkt(prob.Y, y_, alpha, F0, w=w, loss="hard", intercept=False)
    R2 = max(sum((v * v for v in x), F0) for x in prob.Y)
    norm2 = kkt.norm2_w
    return {"bound": R2 * norm2, "w_star": w, "R2": R2, "norm2_w_star": norm2, "alpha": alpha, "kkt": kkt,
            "bias": bias, "method": method}

