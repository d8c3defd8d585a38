"""Generalized linear discriminants (seed 003, "Generalized Linear Discriminant Functions"; seed 004,
004_f7c425a21563e0cd.txt, "Geometric tranformation"): a feature map phi followed by any linear algorithm.

seed 003: g(x) = w_1 f_1(x) + ... + w_N f_N(x) + w_{N+1}, "find a hyperplane in feature space";
seed 004: phi(x, y) = (x, y, x^2 + y^2) lifts the points inside the unit circle below z = 1 and the
points outside above it, so a plane separates what no line could.

* :func:`lift_circle` -- seed 004's phi;
* :func:`polynomial_features` -- every monomial of total degree 1..degree (graded, then lexicographic
  on exponents, largest first: x1, x2, x1^2, x1 x2, x2^2, ...), exact;
* :func:`with_features` -- compose a feature map with any registered algorithm;
* the registered algorithm ``feature-map`` makes the composition reachable from the CLI
  (``--param algorithm=perceptron --param map=circle``).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from exactlin.algorithms import register
from exactlin.algorithms._contract import Checked
from exactlin.data.dataset import Dataset, as_dataset
from exactlin.errors import ParameterError
from exactlin.exact.featuremaps import lift_circle, polynomial_feature_names, polynomial_features
from exactlin.exact.numbers import to_matrix
from exactlin.model.models import FeatureMapModel
from exactlin.model.params import Conflict, Param, at_least
from exactlin.model.params import positive as positive_value
from exactlin.model.run import Run

SEED = "004_f7c425a21563e0cd.txt"

__all__ = ["lift_circle", "polynomial_features", "polynomial_feature_names", "with_features", "feature_map",
           "FEATURE_MAPS"]


#: named feature maps for the CLI
FEATURE_MAPS: dict[str, Callable] = {
    "circle": lift_circle,
    "identity": lambda X: to_matrix(X),
}


def feature_map(name: str, degree: int = 2) -> Callable:
    """A feature map by name: ``circle`` (seed 004), ``poly`` (degree ``degree``), ``identity``."""
    if name == "poly":
        return lambda X: polynomial_features(X, degree)
    if name not in FEATURE_MAPS:
        raise ParameterError(f"unknown feature map {name!r}; known: circle, poly, identity", parameter="map")
    return FEATURE_MAPS[name]


def _mapped_dataset(X, y, phi: Callable, floats: str, map_name: str) -> Dataset:
    ds = as_dataset(X, y, floats=floats)
    Xm = phi(ds.X)
    return Dataset(tuple(tuple(Fraction(v) for v in row) for row in Xm), ds.y, None, ds.label_name,
                   (ds.source or "data") + f" mapped by {map_name}")


def with_features(algorithm: str, phi: Callable, *, name: str | None = None, kind: str | None = None,
                  degree: int = 2, limits=None) -> Callable:
    """Compose a feature map ``phi`` (rows -> rows) with the registered algorithm ``algorithm``.

    The returned function takes the same arguments as the algorithm (``X, y=None, **kwargs``), runs it
    on phi(X), and records ``extras["feature_map"]`` (its name) and ``extras["original_X"]``.  The Run's
    weights live in the feature space (augmented as ``bias`` says).  With ``kind`` (circle, poly with
    ``degree``, identity: the map described as data) ``Run.model`` becomes a
    :class:`~exactlin.model.models.FeatureMapModel` that predicts RAW samples; without it (an arbitrary
    callable phi) the model stays the inner algorithm's, on phi(x).  ``limits``: the memory limits of the inner
    run's records (:class:`~exactlin.engine.trace.Limits`; default the defaults).

    >>> f = with_features("perceptron", lift_circle, name="circle")
    >>> r = f([(0, 0), (2, 0), (-2, 0), (0, 2), (0, -2)], [1, -1, -1, -1, -1], bias="first")
    >>> r.converged, r.extras["feature_map"]
    (True, 'circle')
    """
    from exactlin.algorithms import get

    spec = get(algorithm)
    func = spec.func if limits is None else spec.func.with_limits(limits)
    label = name or getattr(phi, "__name__", "phi")

    def run(X, y=None, *, floats: str = "repr", **kwargs) -> Run:
        ds = as_dataset(X, y, floats=floats)
        mapped = _mapped_dataset(ds, None, phi, floats, label)
        r = func(mapped, None, floats=floats, **kwargs)
        r.extras["feature_map"] = label
        r.extras["original_X"] = ds.X
        if kind is not None and r.model is not None:
            r.model = FeatureMapModel(kind, r.model, degree, len(ds.X[0]) if len(ds.X) else None)
        return r

    run.__name__ = f"{spec.func.__name__}_with_{label}"
    run.__doc__ = f"{spec.name} on phi(X) with phi = {label} (see exactlin.algorithms.features.with_features)."
    return run


PARAMS = (
    Param("algorithm", "str", "perceptron", "the registered algorithm to run on phi(X)"),
    Param("map", "choice", "circle", "the feature map: circle (seed 004: (x, y) -> (x, y, x^2 + y^2)), poly "
          "(all monomials up to degree), identity", choices=("circle", "poly", "identity")),
    Param("degree", "int", 2, "degree of the poly map", at_least(1)),
    Param("max_bits", "int", None, "passed to the algorithm: stop when a number exceeds this many bits",
          at_least(1)),
    Param("max_seconds", "rational", None, "passed to the algorithm: stop after this many seconds",
          positive_value),
)


#: degree belongs to the poly map
MAP_CONFLICTS = (
    Conflict("degree", "map", lambda g, e: e.get("map") != "poly",
             "degree is the poly map's; it does not apply to map={map} (pass map=poly, or drop degree)"),
)


@register("feature-map", family="features", seed=SEED, number="Geometric transformation (phi)",
          title="Feature map phi followed by a linear algorithm", params=PARAMS, conflicts=MAP_CONFLICTS,
          bias_default="first", arithmetics=("fraction", "integer", "flint"))
def feature_map_run(X, y, P: Checked) -> Run:
    """Seed 004 (``004_f7c425a21563e0cd.txt``, "Geometric tranformation") and seed 003 ("Generalized
    Linear Discriminant Functions"): map every sample by phi, then run ``algorithm`` on the images
    with its default parameters.  ``w`` lives in the feature space.

    >>> r = feature_map_run([(0, 0), (2, 0), (-2, 0), (0, 2), (0, -2)], [1, -1, -1, -1, -1])
    >>> r.algorithm, r.converged, r.extras["inner_algorithm"]
    ('feature-map', True, 'perceptron')
    """
    bias, positive, floats, max_epochs, trace = P.bias, P.positive, P.floats, P.max_epochs, P.trace
    from exactlin.algorithms import get

    inner = get(P["algorithm"])
    if inner.multiclass or inner.name == "feature-map":
        raise ParameterError(f"feature-map runs a binary algorithm; {inner.name!r} is not one", parameter="algorithm")
    phi = feature_map(P["map"], P["degree"])
    label = P["map"] if P["map"] != "poly" else f"poly{P['degree']}"
    # the arithmetic goes to the inner rule (one it lacks is its ParameterError); the run records what it used
    kwargs = {"bias": bias, "positive": positive, "trace": trace, "arithmetic": P.arithmetic}
    if inner.iterative:
        kwargs["max_epochs"] = max_epochs
    for lim in ("max_bits", "max_seconds"):
        if P[lim] is not None:
            if lim not in {p.name for p in inner.params}:
                raise ParameterError(f"{lim} cannot be passed to {inner.name}, which has no such limit",
                                     parameter=lim)
            kwargs[lim] = P[lim]
    r = with_features(inner.name, phi, name=label, kind=P["map"], degree=P["degree"],
                      limits=P.limits)(X, y, floats=floats, **kwargs)
    r.extras["inner_algorithm"] = inner.name
    r.extras["inner_params"] = dict(r.params)
    r.algorithm = "feature-map"
    r.params.clear()  # the params policy: this table's rows (the entry point completes them); the inner rule's
    return r          # own parameters are in extras["inner_params"]
