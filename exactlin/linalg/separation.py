"""Separability of normalized samples, decided exactly through one LP and its alternative (Gordan's theorem):

* either some w has <w, z_i> >= 1 for every i (a separator),
* or lambda >= 0, sum lambda = 1, sum_i lambda_i z_i = 0 (a Gordan certificate).

The method is the one exact LP solvers such as SoPlex and QSopt_ex take:

1. a **float candidate** from scipy's HiGHS (optional dependency, extra ``lp``);
2. the candidate's **active set / basis** is read off and **solved exactly** over the rationals;
3. the exact answer is **verified** by an independent checker (:mod:`exactlin.theory.certificates`);
4. when verification fails, or scipy is absent, the **exact fallback** solves the Gordan system
   ``[Z^T; 1^T] lambda = (0, 1), lambda >= 0`` with phase 1 of the exact simplex
   (:mod:`exactlin.linalg.lp`): feasible gives the certificate; infeasible gives the phase-1 duals (u, s) with
   Z u + s 1 <= 0 and s > 0 (Farkas), so w = -u/s separates.

A float solver is fast but only proposes; exact code decides.  ``backend`` chooses the exact representation:
``"flint"`` (python-flint; the revised simplex) or ``"sympy"`` (DomainMatrix solves; the ``Fraction`` tableau).

>>> r = separate([(1, 0), (0, 1)])
>>> r.kind, r.w
('separator', (Fraction(1, 1), Fraction(1, 1)))
>>> separate([(1, 1), (-1, -1)]).lam
(Fraction(1, 2), Fraction(1, 2))
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from exactlin.errors import ShapeError, VerificationError
from exactlin.exact.numbers import to_matrix
from exactlin.linalg.lp import independent_columns, simplex_of, solve_exact
from exactlin.theory.certificates import verify_gordan, verify_separator

__all__ = ["Separation", "separate", "float_separation_available"]

F0 = Fraction(0)
F1 = Fraction(1)


@dataclass
class Separation:
    """``kind`` is ``separator`` (``w`` with <w, z_i> >= 1 for all i) or ``gordan``
    (``lam``: lambda >= 0, sum 1, sum lambda_i z_i = 0); both verified exactly.
    ``method`` says which route produced it."""

    kind: str
    w: tuple | None = None
    lam: tuple | None = None
    method: str = ""
    notes: list = field(default_factory=list)


def float_separation_available() -> bool:
    try:
        import scipy.optimize  # noqa: F401
    except ImportError:
        return False
    return True


def _integer_rows(Z) -> list[list[int]]:
    """Each row multiplied by the positive lcm of its denominators: integer rows whose
    inner products have the same signs as those of Z's rows."""
    out = []
    for z in Z:
        den = 1
        for v in z:
            if v.denominator != 1:
                den = math.lcm(den, v.denominator)
        out.append([int(v * den) for v in z] if den != 1 else [v.numerator for v in z])
    return out


def _round_candidate(Zi, Z, wf) -> tuple | None:
    """Round a float separator to a short integer vector, check <w, z_i> > 0 exactly in integer
    arithmetic, and scale it so that min_i <w, z_i> >= 1 (an integer w already has that on
    integer data)."""
    top = max((abs(float(v)) for v in wf), default=0.0)
    if not top > 0:
        return None
    tries = []
    for den in (16, 1024, 1 << 20):  # short rationals first: a vertex of the LP often has them
        q = [Fraction(float(v) / top).limit_denominator(den) for v in wf]
        L = 1
        for v in q:
            L = math.lcm(L, v.denominator)
        tries.append([int(v * L) for v in q])
    for bits in (36, 52):
        s = float(1 << bits) / top
        tries.append([int(round(float(v) * s)) for v in wf])
    for w in tries:
        if not any(w):
            continue
        if all(sum(map(operator.mul, zi, w)) > 0 for zi in Zi):
            m = min(sum((a * b for a, b in zip(z, w)), F0) for z in Z) if any(
                v.denominator != 1 for z in Z for v in z) else min(sum(map(operator.mul, zi, w)) for zi in Zi)
            if m >= 1:
                return tuple(Fraction(v) for v in w)
            return tuple(Fraction(v) / m for v in w)
    return None


def _float_candidates(Z):
    """HiGHS on  max t  s.t.  <w, z_i> >= t,  -1 <= w_j <= 1,  0 <= t <= 1.

    t* > 0 proposes w; t* = 0 proposes the constraint duals lambda (with w = 0 in
    the box's interior, complementary slackness makes the box duals vanish, so
    sum lambda = 1 and sum lambda_i z_i = 0)."""
    import numpy as np
    from scipy.optimize import linprog

    Zf = np.array([[v.numerator / v.denominator for v in z] for z in Z], dtype=float)
    if not np.isfinite(Zf).all():
        raise OverflowError("entries beyond float range")
    n, d = Zf.shape
    A = np.hstack([-Zf, np.ones((n, 1))])
    cost = np.zeros(d + 1)
    cost[-1] = -1.0
    bounds = [(-1.0, 1.0)] * d + [(0.0, 1.0)]
    res = linprog(cost, A_ub=A, b_ub=np.zeros(n), bounds=bounds, method="highs")
    if res.status != 0:
        return None, None, None
    t = -res.fun
    w = res.x[:d]
    lam = -np.asarray(res.ineqlin.marginals) if res.ineqlin is not None else None
    return t, w, lam


def _vertex_candidate(Z, wf, t, *, backend: str | None, tol: float = 1e-7) -> tuple | None:
    """The exact vertex behind HiGHS's float optimum of  max t  s.t. <w, z_i> >= t, |w_j| <= 1, t <= 1:
    the constraints active in floats (within ``tol``) are solved exactly as equations in (w, t) on an
    independent subset; returns w / t if the exact vertex has t > 0 and <w, z_i> >= t for every i."""
    import numpy as np

    d = len(Z[0])
    Zf = np.array([[v.numerator / v.denominator for v in z] for z in Z], dtype=float)
    wf = np.asarray(wf, dtype=float)
    slack = Zf @ wf - t
    scale = max(1.0, float(np.abs(Zf).max()))
    rows, rhs = [], []
    for i in np.argsort(slack)[: 4 * (d + 1)]:
        if slack[i] <= tol * scale:
            rows.append(list(Z[int(i)]) + [-F1])
            rhs.append(F0)
    for j in range(d):
        if abs(abs(wf[j]) - 1.0) <= tol:
            r = [F0] * (d + 1)
            r[j] = F1
            rows.append(r)
            rhs.append(F1 if wf[j] > 0 else -F1)
    if t >= 1.0 - tol:
        rows.append([F0] * d + [F1])
        rhs.append(F1)
    if not rows:
        return None
    keep = independent_columns([list(c) for c in zip(*rows)], backend=backend)
    if len(keep) != d + 1:
        return None
    sol = solve_exact([rows[k] for k in keep], [rhs[k] for k in keep], backend=backend)
    if sol is None or sol[-1] <= 0:
        return None
    w, te = sol[:d], sol[-1]
    try:
        m = verify_separator(Z, w, margin=te, strict=False)
    except VerificationError:
        return None
    return tuple(v / m for v in w)


def _gordan_from_support(Z, support, *, backend: str | None) -> tuple | None:
    """Exact Gordan multipliers supported on ``support`` (a candidate from the float duals)."""
    d = len(Z[0])
    S = list(support)
    # Gordan system on S: [Z_S^T; 1^T] lambda_S = (0, ..., 0, 1)
    A = [[Z[i][j] for i in S] for j in range(d)] + [[F1] * len(S)]
    rhs = [F0] * d + [F1]
    lamS = None
    rows = independent_columns([list(r) for r in zip(*A)], backend=backend)  # independent rows of A
    if len(rows) == len(S):
        lamS = solve_exact([A[r] for r in rows], [rhs[r] for r in rows], backend=backend)
        if lamS is not None and (any(v < 0 for v in lamS) or any(
                sum((a * v for a, v in zip(A[r], lamS)), F0) != rhs[r] for r in range(d + 1))):
            lamS = None
    if lamS is None:
        r = simplex_of(backend)(A, rhs)
        if r.status != "optimal":
            return None
        lamS = r.x
    lam = [F0] * len(Z)
    for i, v in zip(S, lamS):
        lam[i] = v
    return tuple(lam)


def _exact_separation(Z, backend: str | None) -> Separation:
    d = len(Z[0])
    A = [[z[j] for z in Z] for j in range(d)] + [[F1] * len(Z)]
    rhs = [F0] * d + [F1]
    r = simplex_of(backend)(A, rhs)
    if r.status == "optimal":
        lam = r.x
        verify_gordan(Z, lam)
        return Separation("gordan", lam=lam,
                          method=f"exact simplex (anti-cycling: Bland's rule), {r.iterations} pivots")
    u, s = r.farkas[:d], r.farkas[d]
    # Farkas: Z u + s 1 <= 0 with s > 0, so w = -u / s has <w, z_i> >= 1
    w = tuple(-v / s for v in u)
    verify_separator(Z, w, margin=F1, strict=False)
    return Separation("separator", w=w, method=f"exact simplex (anti-cycling: Bland's rule) phase-1 duals, "
                      f"{r.iterations} pivots")


def separate(Z: Sequence[Sequence], *, use_float: bool = True, backend: str | None = None) -> Separation:
    """Decide exactly whether some w has <w, z_i> > 0 for every normalized sample z_i.

    Returns a verified separator scaled to min_i <w, z_i> = 1, or a verified Gordan
    certificate.  ``use_float=False`` (or scipy absent) runs only the exact simplex.
    """
    Z = list(to_matrix(Z, name="Z", allow_empty=True))
    if not Z:
        raise ShapeError("no samples: Z is empty")
    notes: list[str] = []
    if use_float and float_separation_available():
        try:
            t, wf, lamf = _float_candidates(Z)
        except (OverflowError, ValueError):  # entries beyond float range: the exact route only
            t, wf, lamf = None, None, None
        if t is not None:
            if t > 0:
                w = _round_candidate(_integer_rows(Z), Z, wf)
                if w is not None:
                    return Separation("separator", w=w, method="HiGHS candidate, rationalised and verified exactly")
                w = _vertex_candidate(Z, wf, t, backend=backend)
                if w is not None:
                    return Separation("separator", w=w, method="HiGHS vertex: active constraints solved exactly "
                                      "and verified", notes=notes)
                notes.append(f"HiGHS proposed a separator (t* = {t:.3g}) that failed the exact check")
            if lamf is not None:
                top = float(max(lamf)) if len(lamf) else 0.0
                if top > 0:
                    support = [i for i, v in enumerate(lamf) if v > 1e-9 * top]
                    if len(support) <= 4 * (len(Z[0]) + 1):
                        lam = _gordan_from_support(Z, support, backend=backend)
                        if lam is not None:
                            try:
                                verify_gordan(Z, lam)
                                return Separation("gordan", lam=lam, method="HiGHS duals: support solved exactly "
                                                  "and verified", notes=notes)
                            except VerificationError:
                                pass
                notes.append("HiGHS duals did not give a verified Gordan certificate")
        else:
            notes.append("HiGHS returned no solution")
    res = _exact_separation(Z, backend)
    res.notes = notes + res.notes
    return res


