"""Layer 3: prediction models, one small typed record per kind of decision rule.

Every algorithm sets ``Run.model`` where it builds its Run; ``Run.predict`` and ``Run.decision``
delegate to it, and so do the scikit-learn wrappers, the plots and ``compare``.  Nothing above this
layer decides by an algorithm's name.

=====================  ===================================================================================
model                  rule
=====================  ===================================================================================
:class:`LinearModel`   g(x) = <w, x~> (x augmented by the bias mode); positive label iff g > 0, negative
                       iff g < 0, **None** when g(x) = 0 (the notes leave the boundary undefined)
:class:`ThresholdUnitModel`  threshold unit (Mitchell 1997, 4.4.2): o = 1 iff <w, x~> >= 0 (or > 0), with
                       a bias input of +1 or -1; predicts the data's 0/1 labels, never None
:class:`ThresholdModel`  Fisher (seed 003): y = <w, x>; "If y > y0, omega_1; otherwise omega_2", so
                       y = y0 is omega_2; y0 = c + s ln q may be irrational (decided by proven bounds)
:class:`ArgmaxModel`   linear machine: the class with the largest g_c(x) = <w_c, x~>; a tie is None
:class:`OneVsRestModel`  one binary model per class: the class whose model alone says +1, else None
:class:`VoteModel`     voted perceptron (seed 000): sign(sum_k c_k sign(<w_k, x~>)); a tied vote is None
:class:`KernelModel`   kernel SVM: g(x) = sum_i alpha_i y_i K(x_i, x~) + b; g = 0 is None
:class:`FeatureMapModel`  phi (a named map: circle, poly, identity) then an inner model, on RAW samples
=====================  ===================================================================================

``decision(X)`` and ``predict(X)`` take one point (a scalar result) or many points (a list/array of
points: a tuple of results).  Every model is a frozen dataclass with value equality, registered as a
typed record, so a Run's JSON keeps it exactly (``to_dict``/``from_dict``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactlin.data.labels import distinct_labels, plain
from exactlin.errors import InputTypeError, ParameterError, ShapeError
from exactlin.exact.bounds import sign_c_plus_s_log
from exactlin.exact.numbers import dot, fmt, to_rational
from exactlin.model.serialize import from_jsonable, label_from_json, label_to_json, record, to_jsonable

__all__ = ["LinearModel", "ThresholdUnitModel", "ThresholdModel", "ArgmaxModel", "OneVsRestModel", "VoteModel",
           "KernelModel", "FeatureMapModel", "MODELS", "linear_model", "linear_form", "label_pair"]

_BIAS = ("none", "first", "last")
F0 = Fraction(0)


def _q(v) -> Fraction:
    """A rational read back from JSON ("p/q" text of any length, past Python's 4,300-digit limit)."""
    q = from_jsonable(v) if isinstance(v, str) else v
    return q if isinstance(q, Fraction) else Fraction(q)


# ---------------------------------------------------------------------------
# helpers


def _vec(v) -> tuple[Fraction, ...]:
    return tuple(_q(x) for x in v)


def _s(v) -> str:
    return fmt(_q(v))


def canonical_label(lab):
    """A model's label as the data had it (:mod:`exactlin.data.labels`): never retyped; a numpy scalar is the
    Python value it holds; None (no label) stays None."""
    return plain(lab)


def _keep_labels(model) -> None:
    """A binary model's two labels as the data had them (:func:`canonical_label`), never two that would be confused."""
    pos, neg = canonical_label(model.positive), canonical_label(model.negative)
    object.__setattr__(model, "positive", pos)
    object.__setattr__(model, "negative", neg)
    if pos is not None and neg is not None:
        _distinct((pos, neg))


def _distinct(classes) -> None:
    distinct_labels(classes)


def label_pair(problem) -> tuple[Any, Any]:
    """(positive, negative): the data's own labels of the +1 and the -1 class of a binary problem
    (``problem.data.y`` and ``problem.z``); 1 and -1 when a class is empty or no data are attached."""
    pos, neg = 1, -1
    data = getattr(problem, "data", None)
    z = getattr(problem, "z", None)
    y = getattr(data, "y", None)
    if y is None or z is None:
        return pos, neg
    seen_p = seen_n = False
    for lab, zi in zip(y, z):
        if zi == 1 and not seen_p:
            pos, seen_p = lab, True
        elif zi == -1 and not seen_n:
            neg, seen_n = lab, True
        if seen_p and seen_n:
            break
    return canonical_label(pos), canonical_label(neg)


def _is_scalar(v) -> bool:
    if isinstance(v, (str, bytes)):
        return True
    try:
        import numpy as np

        if isinstance(v, np.ndarray):
            return v.ndim == 0
    except ImportError:  # pragma: no cover
        pass
    return not hasattr(v, "__iter__")


def _points(X, d: int | None) -> tuple[list[tuple[Fraction, ...]], bool]:
    """(rows, single): one point (a flat sequence of numbers) or many (a sequence of points), exact."""
    try:
        import numpy as np

        if isinstance(X, np.ndarray):
            if X.ndim == 1:
                X, single = [X.tolist()], True
            elif X.ndim == 2:
                X, single = X.tolist(), False
            else:
                raise ShapeError(f"X must be one point or a 2-D array of points; got an array of shape {X.shape}")
            return _rows(X, d), single
    except ImportError:  # pragma: no cover
        pass
    if isinstance(X, (str, bytes)) or not hasattr(X, "__iter__"):
        raise InputTypeError(f"X must be a point (a sequence of numbers) or a sequence of points; got "
                             f"{type(X).__name__}")
    X = list(X)
    if not X:
        return [], False
    if _is_scalar(X[0]):
        return _rows([X], d), True
    return _rows(X, d), False


def _rows(X, d: int | None) -> list[tuple[Fraction, ...]]:
    out = []
    for i, row in enumerate(X):
        if _is_scalar(row):
            raise InputTypeError(f"sample {i + 1}: expected a point (a sequence of numbers), got {type(row).__name__}",
                                 row=i)
        vals = list(row)
        if d is not None and len(vals) != d:
            raise ShapeError(f"sample {i + 1} has {len(vals)} features; this model takes {d}", row=i)
        out.append(tuple(to_rational(v, row=i, column=j) for j, v in enumerate(vals)))
    return out


def _augment(x: tuple, bias: str) -> tuple:
    if bias == "first":
        return (Fraction(1), *x)
    if bias == "last":
        return (*x, Fraction(1))
    return x


def _sign(v) -> int:
    return (v > 0) - (v < 0)


def _check_bias(bias: str) -> str:
    if bias not in _BIAS:
        raise ParameterError(f"bias must be one of none, first, last; got {bias!r}", parameter="bias")
    return bias


def _features(n_aug: int, bias: str) -> int:
    return n_aug - (bias != "none")


class _Model:
    """Shared mechanics: one point -> scalar, many -> tuple."""

    def __repr__(self) -> str:  # numbers by the one formatting rule: exact at any length (repr(Fraction) is not)
        from dataclasses import fields

        from exactlin.exact.format import text

        def show(v):
            if isinstance(v, (int, Fraction)) and not isinstance(v, bool):
                return fmt(v)
            if isinstance(v, tuple):
                return "(" + ", ".join(show(x) for x in v) + ("," if len(v) == 1 else "") + ")"
            return repr(v) if isinstance(v, (str, bool, type(None))) else text(v)

        return f"{type(self).__name__}(" + ", ".join(f"{f.name}={show(getattr(self, f.name))}"
                                                    for f in fields(self)) + ")"

    def n_features(self) -> int | None:  # pragma: no cover - overridden
        return None

    def _decide_one(self, x):  # pragma: no cover - overridden
        raise NotImplementedError

    def _predict_one(self, x):  # pragma: no cover - overridden
        raise NotImplementedError

    def decision(self, X):
        """The exact decision value(s): one point -> a value, many -> a tuple."""
        rows, single = _points(X, self.n_features())
        out = tuple(self._decide_one(x) for x in rows)
        return out[0] if single else out

    def predict(self, X):
        """The label(s) the rule gives; None where the notes leave the point undefined."""
        rows, single = _points(X, self.n_features())
        out = tuple(self._predict_one(x) for x in rows)
        return out[0] if single else out

    def side(self, X):
        """+1 (the positive label), -1 (the negative label) or 0 (undefined) for one raw point, or a tuple
        of them for many (binary models)."""
        rows, single = _points(X, self.n_features())
        out = tuple(self._side(x) for x in rows)
        return out[0] if single else out

    def index(self, X):
        """The index into ``classes`` of the predicted class (None: undefined), for one point or many
        (multi-class models)."""
        rows, single = _points(X, self.n_features())
        out = tuple(self._choose(x) for x in rows)
        return out[0] if single else out


# ---------------------------------------------------------------------------
# binary models


class _SignModel(_Model):
    """A binary model that predicts by the sign of its decision: the positive label above 0, the negative below,
    None on 0 (the notes leave g(x) = 0 undefined)."""

    def _side(self, x) -> int:
        return _sign(self._decide_one(x))

    def _predict_one(self, x):
        s = self._side(x)
        return self.positive if s > 0 else self.negative if s < 0 else None


@record("linear-model")
@dataclass(frozen=True, repr=False)
class LinearModel(_SignModel):
    """g(x) = <w, x~>, x~ = x augmented by ``bias``; predict: ``positive`` iff g > 0, ``negative`` iff
    g < 0, None iff g(x) = 0 (the notes leave the boundary undefined)."""

    w: tuple
    bias: str = "none"
    positive: Any = 1
    negative: Any = -1

    def __post_init__(self):
        _keep_labels(self)
        object.__setattr__(self, "w", _vec(self.w))
        _check_bias(self.bias)

    def n_features(self) -> int:
        return _features(len(self.w), self.bias)

    def _decide_one(self, x) -> Fraction:
        return dot(self.w, _augment(x, self.bias))

    def to_dict(self) -> dict:
        return {"w": [_s(v) for v in self.w], "bias": self.bias, "positive": label_to_json(self.positive),
                "negative": label_to_json(self.negative)}

    @classmethod
    def from_dict(cls, d: dict) -> LinearModel:
        return cls(tuple(_q(v) for v in d["w"]), d.get("bias", "none"), label_from_json(d.get("positive", 1)),
                   label_from_json(d.get("negative", -1)))


@record("threshold-unit-model")
@dataclass(frozen=True, repr=False)
class ThresholdUnitModel(_Model):
    """A threshold unit with 0/1 outputs (Mitchell 1997, section 4.4.2): net = <w, x~> with x~ = x augmented
    by ``bias`` with the constant ``bias_input`` (1 or -1); o = 1 iff net >= 0 (``tie=">="``) or net > 0
    (``tie=">"``).  ``predict`` gives ``positive`` (target 1) or ``negative`` (target 0), never None: the unit
    always answers."""

    w: tuple
    bias: str = "first"
    bias_input: int = 1
    tie: str = ">="
    positive: Any = 1
    negative: Any = 0

    def __post_init__(self):
        _keep_labels(self)
        object.__setattr__(self, "w", _vec(self.w))
        _check_bias(self.bias)
        if self.bias_input not in (1, -1):
            raise ParameterError(f"bias_input must be 1 or -1, got {self.bias_input!r}", parameter="bias_input")
        if self.tie not in (">=", ">"):
            raise ParameterError(f"tie must be '>=' or '>', got {self.tie!r}", parameter="tie")

    def n_features(self) -> int:
        return _features(len(self.w), self.bias)

    def _decide_one(self, x) -> Fraction:
        xt = _augment(x, self.bias)
        if self.bias != "none" and self.bias_input == -1:
            j = 0 if self.bias == "first" else len(xt) - 1
            xt = tuple(-v if i == j else v for i, v in enumerate(xt))
        return dot(self.w, xt)

    def _side(self, x) -> int:
        net = self._decide_one(x)
        return 1 if (net >= 0 if self.tie == ">=" else net > 0) else -1

    def _predict_one(self, x):
        return self.positive if self._side(x) > 0 else self.negative

    def to_dict(self) -> dict:
        return {"w": [_s(v) for v in self.w], "bias": self.bias, "bias_input": self.bias_input, "tie": self.tie,
                "positive": label_to_json(self.positive), "negative": label_to_json(self.negative)}

    @classmethod
    def from_dict(cls, d: dict) -> ThresholdUnitModel:
        return cls(tuple(_q(v) for v in d["w"]), d.get("bias", "first"), d.get("bias_input", 1), d.get("tie", ">="),
                   label_from_json(d.get("positive", 1)), label_from_json(d.get("negative", 0)))


@record("threshold-model")
@dataclass(frozen=True, repr=False)
class ThresholdModel(_Model):
    """Fisher's rule (seed 003): y = <w, x> (no augmentation), y0 = c + s ln q; "If y > y0, omega_1;
    otherwise omega_2": ``positive`` iff y > y0, else ``negative`` (y = y0 is omega_2, never None).
    ``decision`` is y - y0 (a Fraction, or an exact sympy number when y0 is irrational); the side is
    decided exactly: a Fraction comparison for a rational y0, proven arb bounds otherwise."""

    w: tuple
    c: Fraction
    s: Fraction = F0
    q: Fraction = Fraction(1)
    positive: Any = 1
    negative: Any = -1

    def __post_init__(self):
        _keep_labels(self)
        object.__setattr__(self, "w", _vec(self.w))
        for k in ("c", "s", "q"):
            object.__setattr__(self, k, _q(getattr(self, k)))
        if self.q <= 0:
            raise ParameterError(f"threshold c + s ln q needs q > 0, got q = {fmt(self.q)}", parameter="q")

    @property
    def rational(self) -> bool:
        return self.s == 0 or self.q == 1

    @property
    def y0(self):
        """The threshold: a Fraction, or an exact sympy expression c + s ln q."""
        if self.rational:
            return self.c
        import sympy

        R = lambda v: sympy.Rational(v.numerator, v.denominator)  # noqa: E731
        return R(self.c) + R(self.s) * sympy.log(R(self.q))

    def n_features(self) -> int:
        return len(self.w)

    def _decide_one(self, x):
        y = dot(self.w, x)
        if self.rational:
            return y - self.c
        return y - self.y0

    def _side(self, x) -> int:
        return 1 if sign_c_plus_s_log(dot(self.w, x) - self.c, -self.s, self.q) > 0 else -1

    def _predict_one(self, x):
        return self.positive if self._side(x) > 0 else self.negative

    def to_dict(self) -> dict:
        return {"w": [_s(v) for v in self.w], "c": _s(self.c), "s": _s(self.s), "q": _s(self.q),
                "y0": to_jsonable(self.y0), "positive": label_to_json(self.positive),
                "negative": label_to_json(self.negative)}

    @classmethod
    def from_dict(cls, d: dict) -> ThresholdModel:
        return cls(tuple(_q(v) for v in d["w"]), _q(d["c"]), _q(d.get("s", "0")),
                   _q(d.get("q", "1")), label_from_json(d.get("positive", 1)),
                   label_from_json(d.get("negative", -1)))


@record("vote-model")
@dataclass(frozen=True, repr=False)
class VoteModel(_SignModel):
    """The voted perceptron (seed 000): sign(sum_k c_k sign(<w_k, x~>)); a tied vote (0) is None."""

    vectors: tuple  # ((w_k, c_k), ...)
    bias: str = "none"
    positive: Any = 1
    negative: Any = -1

    def __post_init__(self):
        _keep_labels(self)
        object.__setattr__(self, "vectors", tuple((_vec(w), int(c)) for w, c in self.vectors))
        _check_bias(self.bias)
        if not self.vectors:
            raise ParameterError("a vote needs at least one (w, c) pair", parameter="vectors")

    def n_features(self) -> int:
        return _features(len(self.vectors[0][0]), self.bias)

    def _decide_one(self, x) -> int:
        xa = _augment(x, self.bias)
        return sum(c * _sign(dot(w, xa)) for w, c in self.vectors)

    def to_dict(self) -> dict:
        return {"vectors": [{"w": [_s(v) for v in w], "c": c} for w, c in self.vectors], "bias": self.bias,
                "positive": label_to_json(self.positive), "negative": label_to_json(self.negative)}

    @classmethod
    def from_dict(cls, d: dict) -> VoteModel:
        return cls(tuple((tuple(_q(v) for v in e["w"]), int(e["c"])) for e in d["vectors"]),
                   d.get("bias", "none"), label_from_json(d.get("positive", 1)),
                   label_from_json(d.get("negative", -1)))


@record("kernel-model")
@dataclass(frozen=True, repr=False)
class KernelModel(_SignModel):
    """A kernel SVM (seeds 002, 004): g(x) = sum_i alpha_i y_i K(x_i, x~) + b with K(u, v) = <u, v> (linear)
    or (<u, v> + coef0)^degree (poly); x~ is x augmented by ``bias`` (the space the support vectors
    live in); ``positive`` iff g > 0, ``negative`` iff g < 0, None on g = 0."""

    support: tuple  # the support vectors x_i (in the augmented space)
    alpha: tuple
    y: tuple  # +1/-1 per support vector
    b: Fraction = F0
    kernel: str = "linear"
    degree: int = 1
    coef0: Fraction = F0
    bias: str = "none"
    positive: Any = 1
    negative: Any = -1

    def __post_init__(self):
        _keep_labels(self)
        object.__setattr__(self, "support", tuple(_vec(v) for v in self.support))
        object.__setattr__(self, "alpha", _vec(self.alpha))
        object.__setattr__(self, "y", tuple(int(v) for v in self.y))
        object.__setattr__(self, "b", _q(self.b))
        object.__setattr__(self, "coef0", _q(self.coef0))
        object.__setattr__(self, "degree", int(self.degree))
        _check_bias(self.bias)
        if self.kernel not in ("linear", "poly"):
            raise ParameterError(f"kernel must be linear or poly, got {self.kernel!r}", parameter="kernel")
        if not (len(self.support) == len(self.alpha) == len(self.y)):
            raise ShapeError("support, alpha and y must have one entry per support vector")

    def n_features(self) -> int | None:
        return _features(len(self.support[0]), self.bias) if self.support else None

    def _k(self, u, v) -> Fraction:
        g = dot(u, v)
        return g if self.kernel == "linear" else (g + self.coef0) ** self.degree

    def _decide_one(self, x) -> Fraction:
        xa = _augment(x, self.bias)
        return sum((a * yi * self._k(sv, xa) for sv, a, yi in zip(self.support, self.alpha, self.y)), F0) + self.b

    def to_dict(self) -> dict:
        return {"support": [[_s(v) for v in sv] for sv in self.support], "alpha": [_s(v) for v in self.alpha],
                "y": list(self.y), "b": _s(self.b), "kernel": self.kernel, "degree": self.degree,
                "coef0": _s(self.coef0), "bias": self.bias, "positive": label_to_json(self.positive),
                "negative": label_to_json(self.negative)}

    @classmethod
    def from_dict(cls, d: dict) -> KernelModel:
        return cls(tuple(tuple(_q(v) for v in sv) for sv in d["support"]),
                   tuple(_q(v) for v in d["alpha"]), tuple(d["y"]), _q(d["b"]), d["kernel"],
                   int(d["degree"]), _q(d["coef0"]), d.get("bias", "none"), label_from_json(d.get("positive", 1)),
                   label_from_json(d.get("negative", -1)))


@record("feature-map-model")
@dataclass(frozen=True, repr=False)
class FeatureMapModel(_Model):
    """phi then ``inner``: the map is data (``kind`` circle | poly | identity, ``degree`` for poly), so the
    model serializes; ``decision``/``predict`` take RAW samples and apply phi first."""

    kind: str
    inner: Any
    degree: int = 2
    d_in: int | None = None  # the number of raw features (None: any the map accepts)

    def __post_init__(self):
        from exactlin.exact.featuremaps import MAP_KINDS

        if self.kind not in MAP_KINDS:
            raise ParameterError(f"unknown feature map {self.kind!r}; known: {', '.join(MAP_KINDS)}",
                                 parameter="map")

    @property
    def positive(self):
        return getattr(self.inner, "positive", None)

    @property
    def negative(self):
        return getattr(self.inner, "negative", None)

    def n_features(self) -> int | None:
        return self.d_in if self.d_in is not None else (2 if self.kind == "circle" else None)

    def phi(self, x) -> tuple:
        from exactlin.exact.featuremaps import apply_map

        return apply_map(self.kind, self.degree, [x])[0]

    def _decide_one(self, x):
        return self.inner._decide_one(self.phi(x))

    def _side(self, x) -> int:
        return self.inner._side(self.phi(x))

    def _predict_one(self, x):
        return self.inner._predict_one(self.phi(x))

    def to_dict(self) -> dict:
        return {"kind": self.kind, "degree": self.degree, "d_in": self.d_in, "inner": to_jsonable(self.inner)}

    @classmethod
    def from_dict(cls, d: dict) -> FeatureMapModel:
        return cls(d["kind"], from_jsonable(d["inner"]), int(d.get("degree", 2)), d.get("d_in"))


# ---------------------------------------------------------------------------
# multi-class models


@record("argmax-model")
@dataclass(frozen=True, repr=False)
class ArgmaxModel(_Model):
    """The linear machine (seed 003): g_c(x) = <w_c, x~>; the class with the largest g_c; a tie for the
    largest is undefined in the notes: None.  ``decision`` is the tuple (g_1(x), ..., g_c(x))."""

    classes: tuple
    W: tuple
    bias: str = "none"

    def __post_init__(self):
        object.__setattr__(self, "classes", tuple(canonical_label(c) for c in self.classes))
        _distinct(self.classes)
        object.__setattr__(self, "W", tuple(_vec(w) for w in self.W))
        _check_bias(self.bias)
        if len(self.classes) != len(self.W) or not self.W:
            raise ShapeError(f"{len(self.classes)} classes but {len(self.W)} weight vectors")

    def n_features(self) -> int:
        return _features(len(self.W[0]), self.bias)

    def _decide_one(self, x) -> tuple:
        xa = _augment(x, self.bias)
        return tuple(dot(w, xa) for w in self.W)

    def _choose(self, x) -> int | None:
        g = self._decide_one(x)
        best = max(g)
        top = [j for j, v in enumerate(g) if v == best]
        return top[0] if len(top) == 1 else None

    def _predict_one(self, x):
        j = self._choose(x)
        return None if j is None else self.classes[j]

    def to_dict(self) -> dict:
        return {"classes": [label_to_json(c) for c in self.classes], "W": [[_s(v) for v in w] for w in self.W],
                "bias": self.bias}

    @classmethod
    def from_dict(cls, d: dict) -> ArgmaxModel:
        return cls(tuple(label_from_json(c) for c in d["classes"]), tuple(tuple(_q(v) for v in w) for w in d["W"]),
                   d.get("bias", "none"))


@record("one-vs-rest-model")
@dataclass(frozen=True, repr=False)
class OneVsRestModel(_Model):
    """One binary model per class (seed 001): class c claims x when its model's side is +1; the class is
    the one claimant, None when no model or more than one claims x.  ``decision`` is the tuple of the
    binary models' decisions."""

    classes: tuple
    models: tuple

    def __post_init__(self):
        object.__setattr__(self, "classes", tuple(canonical_label(c) for c in self.classes))
        _distinct(self.classes)
        object.__setattr__(self, "models", tuple(self.models))
        if len(self.classes) != len(self.models) or not self.models:
            raise ShapeError(f"{len(self.classes)} classes but {len(self.models)} binary models")

    def n_features(self) -> int | None:
        return self.models[0].n_features()

    def _decide_one(self, x) -> tuple:
        return tuple(m._decide_one(x) for m in self.models)

    def _choose(self, x) -> int | None:
        claims = [j for j, m in enumerate(self.models) if m._side(x) > 0]
        return claims[0] if len(claims) == 1 else None

    def _predict_one(self, x):
        j = self._choose(x)
        return None if j is None else self.classes[j]

    def to_dict(self) -> dict:
        return {"classes": [label_to_json(c) for c in self.classes],
                "models": [to_jsonable(m) for m in self.models]}

    @classmethod
    def from_dict(cls, d: dict) -> OneVsRestModel:
        return cls(tuple(label_from_json(c) for c in d["classes"]), tuple(from_jsonable(m) for m in d["models"]))


#: every model class
MODELS = (LinearModel, ThresholdUnitModel, ThresholdModel, VoteModel, KernelModel, FeatureMapModel, ArgmaxModel,
          OneVsRestModel)


def linear_form(model) -> tuple[list[tuple], list, str] | None:
    """(weight rows, offsets, bias mode) of a model whose decision is linear in its input space, g_r(x) =
    <rows[r], x~> + offsets[r] (the lifted space for a feature map, whose raw-sample rule is not linear);
    None for the vote and the kernel expansion (no single linear function).  Fisher's offset is -y0."""
    if isinstance(model, FeatureMapModel):
        return linear_form(model.inner)
    if isinstance(model, LinearModel):
        return [model.w], [0], model.bias
    if isinstance(model, ThresholdUnitModel):  # net = <w, x~>; the bias input -1 flips the bias weight
        if model.bias == "none" or model.bias_input == 1:
            return [model.w], [0], model.bias
        j = 0 if model.bias == "first" else len(model.w) - 1
        return [tuple(-v if i == j else v for i, v in enumerate(model.w))], [0], model.bias
    if isinstance(model, ThresholdModel):
        return [model.w], [-model.y0], "none"
    if isinstance(model, ArgmaxModel):
        return list(model.W), [0] * len(model.W), model.bias
    if isinstance(model, OneVsRestModel):
        rows = [linear_form(m) for m in model.models]
        if any(r is None or len(r[0]) != 1 for r in rows) or len({r[2] for r in rows}) != 1:
            return None
        return [r[0][0] for r in rows], [r[1][0] for r in rows], rows[0][2]
    return None


def linear_model(w, bias: str, problem=None) -> LinearModel | None:
    """The default model of a binary run with one weight vector ``w`` (None when ``w`` is None), with the
    problem's own labels (:func:`label_pair`)."""
    if w is None:
        return None
    pos, neg = label_pair(problem)
    return LinearModel(tuple(w), bias, pos, neg)
