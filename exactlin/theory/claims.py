"""exactlin's own verdict on a saved result (:mod:`exactlin.model.claims`): every claim re-checked from the embedded
rows with the verifiers of this layer (:func:`verify_separator`, :func:`verify_gordan`, :func:`verify_kkt`,
:func:`verify_penrose`, :func:`functional_margin`, :func:`radius_squared`).

The stand-alone checker ``exactlin/exactlin_check.py`` does the same with nothing but the standard library; the
tests require the two verdicts to agree on every single-number change of a result.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations_with_replacement
from math import prod

from exactlin.data.dataset import augment
from exactlin.errors import ExactlinError, VerificationError
from exactlin.exact.featuremaps import apply_map
from exactlin.exact.numbers import dot, norm2, to_matrix, to_rational, to_vector
from exactlin.model.claims import FORMAT, rows_sha256
from exactlin.theory.certificates import verify_gordan, verify_separator
from exactlin.theory.kkt import verify_kkt
from exactlin.theory.margins import functional_margin, radius_squared
from exactlin.theory.penrose import verify_penrose

__all__ = ["verify_result"]


def _need(ok: bool, msg: str) -> None:
    if not ok:
        raise VerificationError(msg)


class _Data:
    def __init__(self, d: dict):
        data = d["data"]
        self.rows = [tuple(to_vector(r)) for r in data["rows"]]
        self.labels = list(data["labels"])
        self.positive = data["options"].get("positive")
        self.sha = data["sha256"]

    def x(self, c):
        f = c.get("features")
        if f and f.get("min_degree", 1) != 1:  # a polynomial kernel's monomials of degree min_degree..p
            lo, p = int(f["min_degree"]), int(f["degree"])
            _need(0 <= lo <= p, "min_degree outside 0..degree")
            mons = [t for k in range(lo, p + 1) for t in combinations_with_replacement(range(len(self.rows[0])), k)]
            return [tuple(prod((x[j] for j in t), start=Fraction(1)) for t in mons) for x in self.rows]
        return list(apply_map(f["map"], f.get("degree", 2), self.rows)) if f else self.rows

    def xt(self, c):
        X = [tuple(r) for r in augment(self.x(c), c["bias"])]
        if c.get("bias_input", 1) == -1 and c["bias"] != "none":  # a threshold unit's x_0 = -1
            j = 0 if c["bias"] == "first" else len(X[0]) - 1
            X = [tuple(-v if k == j else v for k, v in enumerate(x)) for x in X]
        return X

    def y(self, c):
        pos = c.get("positive", self.positive)
        return [1 if t == pos else -1 for t in self.labels]

    def z(self, c):
        return [tuple(s * v for v in x) for s, x in zip(self.y(c), self.xt(c))]

    def kesler(self, c, pairs=None):
        classes = list(c["classes"])
        _need(all(t in classes for t in self.labels), "a label is not among the classes")
        cls = [classes.index(t) for t in self.labels]
        X, k = self.xt(c), len(classes)
        d = len(X[0])
        pairs = pairs if pairs is not None else [(s, j) for s in range(len(X)) for j in range(k) if j != cls[s]]
        out = []
        for s, j in pairs:
            v = [Fraction(0)] * (k * d)
            v[cls[s] * d:(cls[s] + 1) * d] = X[s]
            v[j * d:(j + 1) * d] = [-t for t in X[s]]
            out.append(tuple(v))
        return cls, out


def _augmented_w(w, b, bias):
    return (b, *w) if bias == "first" else (*w, b) if bias == "last" else tuple(w)


def _separator(c, D):
    b = to_rational(c["b"]) if c["bias"] != "none" else Fraction(0)
    a = _augmented_w(to_vector(c["w"]), b, c["bias"])
    m = verify_separator(D.z(c), a, margin=to_rational(c.get("above", "0")), strict=c.get("strict", True))
    _need(m == to_rational(c["min_functional_margin"]), "the minimum functional margin differs")


def _gordan(c, D):
    verify_gordan(D.z(c), to_vector(c["lambda"]))


def _cycle(c, D):
    Z = D.z(c)
    idx = list(c["samples"])
    _need(bool(idx) and all(0 <= i < len(Z) for i in idx), "cycle samples out of range")
    _need(all(sum((Z[i][j] for i in idx), Fraction(0)) == 0 for j in range(len(Z[0]))), "the period does not sum to 0")


def _kesler_gordan(c, D):
    pairs = [tuple(p) for p in c["pairs"]]
    k = len(c["classes"])
    _need(all(0 <= s < len(D.rows) and 0 <= j < k for s, j in pairs), "a pair is out of range")
    lam = to_vector(c["lambda"])
    _need(len(lam) == len(pairs), "one multiplier per pair")
    cls, V = D.kesler(c, pairs)
    _need(all(j != cls[s] for s, j in pairs), "a pair names the sample's own class")
    verify_gordan(V, lam)


def _kkt(c, D):
    kern = c["kernel"]
    kernel = None
    if kern["kind"] == "poly":
        p, c0 = int(kern["degree"]), to_rational(kern["coef0"])

        def kernel(u, v):
            return (dot(u, v) + c0) ** p
    _need("w" not in c or len(c["w"]) == len(D.rows[0]), "w has the wrong length")
    cert = verify_kkt(D.rows, D.y(c), to_vector(c["alpha"]), to_rational(c["b"]),
                      w=to_vector(c["w"]) if "w" in c else None, kernel=kernel, loss=c["loss"],
                      C=to_rational(c["C"]) if "C" in c else None, intercept=c["intercept"])
    _need(cert.primal_objective == to_rational(c["primal_objective"]), "the primal objective differs")
    _need(cert.dual_objective == to_rational(c["dual_objective"]), "the dual objective differs")
    if "margin_squared" in c:
        _need(cert.norm2_w != 0 and 1 / cert.norm2_w == to_rational(c["margin_squared"]), "margin^2 != 1/||w||^2")


def _penrose(c, D):
    Y = to_matrix(c["Y"])
    _need(list(Y) == D.z(c), "Y is not the data's matrix of y_i x~_i")
    P = to_matrix(c["Y_pinv"])
    verify_penrose(Y, P)
    if "a" in c:
        m = to_vector(c["margins"])
        _need(len(m) == len(Y), "one margin per sample")
        _need(tuple(to_vector(c["a"])) == tuple(dot(r, m) for r in P), "a != Y^+ b")


def _fisher(c, D):
    y = D.y(c)
    one = [x for x, t in zip(D.rows, y) if t == 1]
    two = [x for x, t in zip(D.rows, y) if t == -1]
    d = len(D.rows[0])

    def mean(A):
        return tuple(sum((x[j] for x in A), Fraction(0)) / len(A) for j in range(d))

    m1, m2 = mean(one), mean(two)
    SW = tuple(tuple(sum(((x[i] - m[i]) * (x[j] - m[j]) for A, m in ((one, m1), (two, m2)) for x in A),
                         Fraction(0)) for j in range(d)) for i in range(d))
    _need(to_vector(c["m1"]) == m1 and to_vector(c["m2"]) == m2, "the class means differ")
    _need(to_matrix(c["S_W"]) == SW, "S_W differs")
    w = to_vector(c["w"])
    _need(len(w) == d and tuple(dot(r, w) for r in SW) == tuple(a - b for a, b in zip(m1, m2)), "S_W w != m1 - m2")
    if "y0" in c:
        t1, t2 = dot(w, m1), dot(w, m2)
        want = {"1": (t1 + t2) / 2, "3": (t1 + t2) / 2,
                "2": (len(one) * t1 + len(two) * t2) / (len(one) + len(two))}[c["threshold"]]
        _need(to_rational(c["y0"]) == want, "y0 differs")


def _bound(c, D):
    Z = D.kesler(c)[1] if c.get("space") == "kesler" else D.z(c)
    ws = to_vector(c["w_star"])
    gamma = functional_margin(ws, Z, [1] * len(Z))
    R2, n2 = radius_squared(Z), norm2(ws)
    _need(gamma == to_rational(c["gamma"]) and gamma > 0, "gamma differs or is not > 0")
    _need(R2 == to_rational(c["R2"]) and n2 == to_rational(c["norm2_w_star"]), "R^2 or ||w*||^2 differs")
    _need(to_rational(c["bound"]) == R2 * n2 / (gamma * gamma), "the bound differs")


def _errors(c, D):
    y = D.y(c)
    if c["model"] == "linear":
        a = to_vector(c["a"])
        X = D.xt(c)
        _need(len(a) == len(X[0]), "a has the wrong length")
        tie = c.get("tie", "none")
        g = [dot(a, x) for x in X]
        side = [(1 if v > 0 else -1 if v < 0 else 0) if tie == "none" else (1 if (v >= 0 if tie == ">=" else v > 0)
                                                                          else -1) for v in g]
        wrong = [i for i, s in enumerate(side) if s != y[i]]
    elif c["model"] == "threshold":
        w, y0 = to_vector(c["w"]), to_rational(c["y0"])
        _need(len(w) == len(D.rows[0]), "w has the wrong length")
        wrong = [i for i, x in enumerate(D.rows) if (1 if dot(w, x) > y0 else -1) != y[i]]
    elif c["model"] in ("vote", "kernel"):
        X = D.xt(c)

        def sign(v):
            return 1 if v > 0 else -1 if v < 0 else 0
        if c["model"] == "vote":
            pairs = [(to_vector(v["w"]), int(v["c"])) for v in c["vectors"]]
            _need(bool(pairs) and all(len(w) == len(X[0]) for w, _ in pairs), "a voting vector has the wrong length")
            g = [sum(k * sign(dot(w, x)) for w, k in pairs) for x in X]
        else:
            kern, sup, al, ys = c["kernel"], to_matrix(c["support"]), to_vector(c["alpha"]), [int(t) for t in c["y"]]
            _need(len(sup) == len(al) == len(ys) and len(sup[0]) == len(X[0]), "support, alpha, y shapes")
            p, c0 = int(kern.get("degree", 1)), to_rational(kern.get("coef0", 0))

            def K(u, v):
                return dot(u, v) if kern["kind"] == "linear" else (dot(u, v) + c0) ** p
            g = [sum((a * t * K(v, x) for v, a, t in zip(sup, al, ys)), Fraction(0)) + to_rational(c.get("b", 0))
                 for x in X]
        wrong = [i for i, v in enumerate(g) if sign(v) != y[i]]
    else:
        cls, _ = D.kesler(c, [])
        W, X = to_matrix(c["W"]), D.xt(c)
        _need(len(W) == len(c["classes"]) and len(W[0]) == len(X[0]), "W has the wrong shape")
        wrong = []
        for i, x in enumerate(X):
            g = [dot(w, x) for w in W]
            if g.count(max(g)) != 1 or g.index(max(g)) != cls[i]:
                wrong.append(i)
    _need(sorted(set(c["errors"])) == wrong, "the misclassified samples differ")


_CHECKS = {"separator": _separator, "gordan": _gordan, "cycle": _cycle, "kesler-gordan": _kesler_gordan,
           "kkt": _kkt, "penrose": _penrose, "fisher": _fisher, "convergence-bound": _bound,
           "training-errors": _errors}


def verify_result(d: dict) -> list[tuple[str, bool]]:
    """[("data", holds), (kind, holds) per claim] for a saved result's dict, by exactlin's verifiers.  A claim
    whose witness has the wrong shape (a dropped entry, a sample out of range) fails; an unknown format raises
    :class:`~exactlin.errors.VerificationError`."""
    if d.get("result_format") != FORMAT:
        raise VerificationError(f"not an {FORMAT} result")
    D = _Data(d)
    out = [("data", rows_sha256(D.rows, D.labels) == D.sha)]
    for c in d["claims"]:
        try:
            _CHECKS[c["kind"]](c, D)
            ok = True
        except (ExactlinError, IndexError):
            ok = False
        out.append((c["kind"], ok))
    return out
