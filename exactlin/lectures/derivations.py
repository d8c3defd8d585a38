"""Symbolic derivations of seed 003 (003_ffe0ec08819b37d8.txt), each checked by sympy.

Every function returns the derivation as a list of :class:`DerivationStep` (a sentence and a sympy
object) and *asserts* the identity it derives (``simplify(lhs - rhs) == 0``); a failure raises
:class:`~exactlin.errors.VerificationError`.  The dimensions are small but the entries are free
symbols, so each check is the general identity in that dimension, not a numeric spot check.

* :func:`gradient_Js` -- grad J_s(a) = 2 Y^t (Y a - b), J_s = ||Y a - b||^2;
* :func:`gradient_Jp` -- grad J_p(a) = -sum_{y in Y} y, J_p = sum_{y in Y} (-a^t y);
* :func:`fisher_maximizer` -- grad J(w) = 0 at w = S_W^{-1}(m_1 - m_2), and J there is
  (m_1 - m_2)^t S_W^{-1} (m_1 - m_2);
* :func:`distance_to_hyperplane` -- r = g(x)/||w|| for x = x_p + r w/||w|| with g(x_p) = 0;
* :func:`distance_origin` -- d(0, H) = w_0/||w|| (signed).
* :func:`ho_kashyap_b_rule` -- b - eta/2 [grad_b J_s - |grad_b J_s|] = b + 2 eta e+ (the erratum's
  derivation).

>>> [s.text for s in gradient_Js()][-1]
'checked: grad J_s - 2 Y^t (Y a - b) simplifies to 0'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from exactlin.errors import VerificationError

__all__ = ["DerivationStep", "gradient_Js", "gradient_Jp", "fisher_maximizer", "distance_to_hyperplane",
           "distance_origin", "ho_kashyap_b_rule", "ALL_DERIVATIONS"]


@dataclass
class DerivationStep:
    text: str
    expr: Any = None

    def latex(self) -> str:
        import sympy

        return sympy.latex(self.expr) if self.expr is not None else ""


def _check(diff, what: str) -> None:
    import sympy

    def zero(v) -> bool:
        # rational functions: cancel decides v == 0 exactly; other expressions: simplify
        return sympy.cancel(sympy.together(v)) == 0 or sympy.simplify(v) == 0

    ok = all(zero(v) for v in diff) if hasattr(diff, "applyfunc") else zero(diff)
    if not ok:
        raise VerificationError(f"derivation check failed: {what}")


def gradient_Js(n: int = 3, d: int = 2) -> list[DerivationStep]:
    """grad J_s = 2 Y^t (Y a - b) (seed 003, "Pseudoinverse"), for a symbolic n x d matrix Y."""
    import sympy

    Y = sympy.Matrix(n, d, lambda i, j: sympy.Symbol(f"Y_{i + 1}{j + 1}", real=True))
    a = sympy.Matrix(d, 1, lambda i, _: sympy.Symbol(f"a_{i + 1}", real=True))
    b = sympy.Matrix(n, 1, lambda i, _: sympy.Symbol(f"b_{i + 1}", real=True))
    r = Y * a - b
    J = (r.T * r)[0]
    grad = sympy.Matrix([sympy.diff(J, ai) for ai in a])
    claim = 2 * Y.T * (Y * a - b)
    steps = [
        DerivationStep("J_s(a) = ||Y a - b||^2 = sum_i (a^t y_i - b_i)^2", sympy.Eq(sympy.Symbol("J_s"), J)),
        DerivationStep("differentiate with respect to each a_j", grad),
        DerivationStep("the claimed gradient 2 Y^t (Y a - b)", claim),
    ]
    _check(grad - claim, "grad J_s = 2 Y^t (Y a - b)")
    steps.append(DerivationStep("setting it to 0 gives the normal equations Y^t Y a = Y^t b",
                                sympy.Eq(Y.T * Y * a, Y.T * b)))
    steps.append(DerivationStep("checked: grad J_s - 2 Y^t (Y a - b) simplifies to 0"))
    return steps


def gradient_Jp(m: int = 3, d: int = 3) -> list[DerivationStep]:
    """grad J_p = -sum_{y in Y} y for the perceptron criterion J_p(a) = sum_{y in Y} (-a^t y) over a fixed
    set Y of m misclassified samples (seed 003, "Perceptron criterion")."""
    import sympy

    a = sympy.Matrix(d, 1, lambda i, _: sympy.Symbol(f"a_{i + 1}", real=True))
    ys = [sympy.Matrix(d, 1, lambda i, _, k=k: sympy.Symbol(f"y{k + 1}_{i + 1}", real=True)) for k in range(m)]
    J = sum((-(a.T * y)[0] for y in ys), sympy.Integer(0))
    grad = sympy.Matrix([sympy.diff(J, ai) for ai in a])
    claim = -sum(ys, sympy.zeros(d, 1))
    _check(grad - claim, "grad J_p = -sum y")
    return [
        DerivationStep("J_p(a) = sum over the misclassified set of -a^t y", sympy.Eq(sympy.Symbol("J_p"), J)),
        DerivationStep("differentiate with respect to each a_j (the set is fixed near a)", grad),
        DerivationStep("= -sum_{y in Y} y", claim),
        DerivationStep("so gradient descent a - eta grad J_p is a + eta sum y (batch perceptron)"),
        DerivationStep("checked: grad J_p + sum y simplifies to 0"),
    ]


def fisher_maximizer() -> list[DerivationStep]:
    """At w* = S_W^{-1}(m_1 - m_2) the gradient of J(w) = w^t S_B w / w^t S_W w vanishes, and
    J(w*) = (m_1 - m_2)^t S_W^{-1} (m_1 - m_2) (seed 003, FLDA), for a symbolic symmetric 2 x 2 S_W."""
    import sympy

    s11, s12, s22 = sympy.symbols("s_11 s_12 s_22", real=True)
    d1, d2 = sympy.symbols("delta_1 delta_2", real=True)
    w1, w2 = sympy.symbols("w_1 w_2", real=True)
    S_W = sympy.Matrix([[s11, s12], [s12, s22]])
    delta = sympy.Matrix([d1, d2])
    S_B = delta * delta.T
    w = sympy.Matrix([w1, w2])
    J = (w.T * S_B * w)[0] / (w.T * S_W * w)[0]
    grad = sympy.Matrix([sympy.diff(J, v) for v in (w1, w2)])
    w_star = S_W.inv() * delta
    at = grad.subs({w1: w_star[0], w2: w_star[1]})
    _check(at, "grad J(S_W^{-1} delta) = 0")
    J_star = J.subs({w1: w_star[0], w2: w_star[1]})
    q = (delta.T * S_W.inv() * delta)[0]
    _check(J_star - q, "J(w*) = delta^t S_W^{-1} delta")
    return [
        DerivationStep("J(w) = w^t S_B w / w^t S_W w with S_B = delta delta^t, delta = m_1 - m_2",
                       sympy.Eq(sympy.Symbol("J"), J)),
        DerivationStep("its gradient", grad),
        DerivationStep("S_B w = delta (delta^t w) is always along delta, so try w* = S_W^{-1} delta", w_star),
        DerivationStep("the gradient at w* simplifies to 0", at.applyfunc(sympy.cancel)),
        DerivationStep("and J(w*) = delta^t S_W^{-1} delta", sympy.cancel(q)),
        DerivationStep("checked: both identities simplify to 0 (the scale of w is immaterial: J(c w) = J(w))"),
    ]


def distance_to_hyperplane() -> list[DerivationStep]:
    """r = g(x)/||w||: x = x_p + r w/||w|| with g(x_p) = 0 gives g(x) = r ||w|| (seed 003, "Geometric
    analysis"), in the plane with symbolic w, w_0, r and x_p on H."""
    import sympy

    w1, w2, w0, r, t = sympy.symbols("w_1 w_2 w_0 r t", real=True)
    w = sympy.Matrix([w1, w2])
    norm = sympy.sqrt(w1 ** 2 + w2 ** 2)
    # a point of H: g(x_p) = 0; parametrize H (w != 0; take w_1 != 0 by symmetry)
    x_p = sympy.Matrix([(-w0 - w2 * t) / w1, t])
    g = lambda x: (w.T * x)[0] + w0  # noqa: E731
    _check(g(x_p), "g(x_p) = 0")
    x = x_p + r * w / norm
    _check(g(x) - r * norm, "g(x) = r ||w||")
    return [
        DerivationStep("g(x) = w^t x + w_0; a point of H", x_p),
        DerivationStep("g(x_p) = 0", sympy.simplify(g(x_p))),
        DerivationStep("x = x_p + r w/||w||", x),
        DerivationStep("g(x) = w^t x_p + w_0 + r w^t w/||w|| = r ||w||", sympy.simplify(g(x))),
        DerivationStep("therefore r = g(x)/||w||", sympy.Eq(r, sympy.simplify(g(x)) / norm)),
        DerivationStep("checked: g(x) - r ||w|| simplifies to 0"),
    ]


def distance_origin() -> list[DerivationStep]:
    """d(0, H) = w_0/||w|| (signed): r = g(0)/||w|| and g(0) = w_0 (seed 003, "Geometric analysis")."""
    import sympy

    w1, w2, w0 = sympy.symbols("w_1 w_2 w_0", real=True)
    norm = sympy.sqrt(w1 ** 2 + w2 ** 2)
    g0 = w1 * 0 + w2 * 0 + w0
    r = g0 / norm
    # the foot of the perpendicular from 0: x_p = -r w/||w|| lies on H
    x_p = sympy.Matrix([-r * w1 / norm, -r * w2 / norm])
    _check(w1 * x_p[0] + w2 * x_p[1] + w0, "the foot -r w/||w|| lies on H")
    _check(x_p[0] ** 2 + x_p[1] ** 2 - w0 ** 2 / norm ** 2, "|x_p|^2 = w_0^2/||w||^2")
    return [
        DerivationStep("r = g(x)/||w|| at x = 0: g(0) = w_0", sympy.Eq(sympy.Symbol("r"), r)),
        DerivationStep("the foot of the perpendicular x_p = -r w/||w|| lies on H", x_p),
        DerivationStep("its distance from 0 is |w_0|/||w||: d(0, H) = w_0/||w|| as a signed distance"),
        DerivationStep("checked: both identities simplify to 0"),
    ]


def ho_kashyap_b_rule(n: int = 3) -> list[DerivationStep]:
    """b(k+1) = b(k) - eta/2 [grad_b J_s - |grad_b J_s|] with grad_b J_s = -2 (Y a - b) = -2 e equals
    b + 2 eta e+, e+ = (e + |e|)/2 (seed 003, Ho-Kashyap): the rule the notes' Algorithm 11 misprints."""
    import sympy

    eta = sympy.Symbol("eta", positive=True)
    e = [sympy.Symbol(f"e_{i + 1}", real=True) for i in range(n)]
    b = [sympy.Symbol(f"b_{i + 1}", real=True) for i in range(n)]
    grad = [-2 * v for v in e]
    lhs = [bi - eta / 2 * (g - sympy.Abs(g)) for bi, g in zip(b, grad)]
    rhs = [bi + 2 * eta * (v + sympy.Abs(v)) / 2 for bi, v in zip(b, e)]
    for u, v in zip(lhs, rhs):
        _check(u - v, "b - eta/2 (grad - |grad|) = b + 2 eta e+")
    return [
        DerivationStep("grad_b J_s = -2 (Y a - b) = -2 e", sympy.Matrix(grad)),
        DerivationStep("b - (eta/2) [grad_b J_s - |grad_b J_s|]", sympy.Matrix(lhs)),
        DerivationStep("= b + eta (e + |e|) = b + 2 eta e+  (|-2 e| = 2|e|)", sympy.Matrix(rhs)),
        DerivationStep("checked: the difference simplifies to 0 -- b, not a, is updated"),
    ]


ALL_DERIVATIONS = {
    "gradient-Js": gradient_Js,
    "gradient-Jp": gradient_Jp,
    "fisher-maximizer": fisher_maximizer,
    "distance-to-hyperplane": distance_to_hyperplane,
    "distance-origin": distance_origin,
    "ho-kashyap-b-rule": ho_kashyap_b_rule,
}
