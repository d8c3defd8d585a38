"""Hypothesis strategies for exact linear-classification data (needs the ``test`` extra: hypothesis).

Use them to test your own code against exactlin's ground truth::

    from hypothesis import given
    from exactlin.strategies import separable_data

    @given(separable_data())
    def test_my_perceptron(p):
        w = my_perceptron(p.X, p.y)
        assert all(yi * sum(a * b for a, b in zip(w, x)) > 0 for x, yi in zip(p.X, p.y))

``separable_data`` plants a separator w* with a known functional margin
gamma_min = min_i y_i <w*, x~_i> >= margin; ``nonseparable_data`` plants a
contradiction (the same point with both labels, or a point and its negation with
the same label through the origin), so no separator exists.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

try:
    from hypothesis import assume
    from hypothesis import strategies as st
except ImportError as e:  # pragma: no cover
    raise ImportError("exactlin.strategies needs hypothesis: pip install 'exactlin[test]'") from e

__all__ = ["rationals", "vectors", "PlantedData", "separable_data", "nonseparable_data", "labelled_data",
           "PlantedMulticlass", "separable_multiclass_data",
           "rational_matrices"]


def rationals(max_numerator: int = 20, max_denominator: int = 6) -> st.SearchStrategy[Fraction]:
    """Fractions p/q with |p| <= max_numerator and 1 <= q <= max_denominator."""
    return st.builds(Fraction, st.integers(-max_numerator, max_numerator), st.integers(1, max_denominator))


def vectors(d: int, elements: st.SearchStrategy | None = None) -> st.SearchStrategy[tuple]:
    return st.tuples(*([elements or st.integers(-9, 9)] * d))


def rational_matrices(max_rows: int = 5, max_cols: int = 4, elements=None) -> st.SearchStrategy:
    """Rational matrices of any shape up to the bounds, including zero rows and low rank."""
    el = elements or st.one_of(st.just(Fraction(0)), rationals(9, 4))
    return st.integers(1, max_rows).flatmap(
        lambda m: st.integers(1, max_cols).flatmap(
            lambda n: st.lists(st.lists(el, min_size=n, max_size=n).map(tuple), min_size=m, max_size=m).map(tuple)))


@dataclass(frozen=True)
class PlantedData:
    X: tuple  # feature vectors (tuples of Fractions or ints)
    y: tuple  # +1/-1
    bias: str  # the augmentation w_star lives in
    w_star: tuple | None  # a planted separator in the augmented space (None for non-separable data)
    gamma_min: Fraction | None  # min_i y_i <w*, x~_i> (functional margin of w*)

    def augmented(self) -> tuple:
        from exactlin.data.dataset import augment

        return augment(self.X, self.bias)


def _sign(v) -> int:
    return (v > 0) - (v < 0)


@st.composite
def separable_data(draw, *, min_n: int = 1, max_n: int = 12, min_d: int = 1, max_d: int = 4,
                   bias: str | None = None, margin: int = 1, coord: int = 9, rational: bool = False) -> PlantedData:
    """Linearly separable data with a planted separator w* and min_i y_i<w*, x~_i> >= margin.

    Coordinates are integers in [-coord, coord] (or small rationals with ``rational=True``).
    """
    from exactlin.data.dataset import augment

    bias = bias or draw(st.sampled_from(["none", "first", "last"]))
    d = draw(st.integers(min_d, max_d))
    da = d + (0 if bias == "none" else 1)
    w_star = draw(st.tuples(*([st.integers(-5, 5)] * da)))
    assume(any(w_star))
    el = rationals(coord, 4) if rational else st.integers(-coord, coord)
    pts = draw(st.lists(st.tuples(*([el] * d)), min_size=min_n, max_size=max_n))
    X, y = [], []
    for x in pts:
        s = sum(Fraction(a) * b for a, b in zip(w_star, augment([x], bias)[0]))
        if abs(s) >= margin:
            X.append(x)
            y.append(_sign(s))
    assume(len(X) >= min_n)
    Xa = augment(X, bias)
    gamma = min(yi * sum(Fraction(a) * b for a, b in zip(w_star, xa)) for xa, yi in zip(Xa, y))
    return PlantedData(tuple(X), tuple(y), bias, tuple(Fraction(v) for v in w_star), gamma)


@st.composite
def nonseparable_data(draw, *, max_n: int = 10, min_d: int = 1, max_d: int = 3, bias: str | None = None,
                      coord: int = 9) -> PlantedData:
    """Data with a planted contradiction, so that no w has y_i<w, x~_i> > 0 for all i:
    a point with both labels, or (through the origin) x and -x with the same label."""
    bias = bias or draw(st.sampled_from(["none", "first", "last"]))
    d = draw(st.integers(min_d, max_d))
    X = [tuple(x) for x in draw(st.lists(st.tuples(*([st.integers(-coord, coord)] * d)), max_size=max_n))]
    y = [draw(st.sampled_from([1, -1])) for _ in X]
    p = draw(st.tuples(*([st.integers(-coord, coord)] * d)))
    if bias == "none" and draw(st.booleans()):
        lab = draw(st.sampled_from([1, -1]))
        contradiction = [(p, lab), (tuple(-v for v in p), lab)]
    else:
        contradiction = [(p, 1), (p, -1)]
    for x, lab in contradiction:
        pos = draw(st.integers(0, len(X)))
        X.insert(pos, x)
        y.insert(pos, lab)
    return PlantedData(tuple(X), tuple(y), bias, None, None)


def labelled_data(max_n: int = 10, max_d: int = 3, classes=(1, -1)) -> st.SearchStrategy:
    """Any data (separable or not) with labels drawn from ``classes``."""
    return st.integers(1, max_d).flatmap(lambda d: st.lists(
        st.tuples(st.tuples(*([st.integers(-9, 9)] * d)), st.sampled_from(list(classes))), min_size=1,
        max_size=max_n).map(lambda rows: (tuple(r[0] for r in rows), tuple(r[1] for r in rows))))


@dataclass(frozen=True)
class PlantedMulticlass:
    X: tuple  # feature vectors (integer tuples)
    y: tuple  # class labels 0..c-1 (those that occur)
    bias: str  # the augmentation W_star lives in
    W_star: tuple  # one planted vector per class 0..c-1, in the augmented space
    gamma_min: Fraction  # min over samples of g_label - max_{j != label} g_j (>= margin)


@st.composite
def separable_multiclass_data(draw, *, min_classes: int = 2, max_classes: int = 4, max_n: int = 8,
                              max_d: int = 2, bias: str = "first", margin: int = 1,
                              coord: int = 5) -> PlantedMulticlass:
    """Data a linear machine separates: planted W* = (w_0, ..., w_{c-1}); each kept point's label is the class
    of its largest g_j = <w_j, x~>, ahead of every other class by at least ``margin``; at least two classes
    occur."""
    from exactlin.data.dataset import augment

    c = draw(st.integers(min_classes, max_classes))
    d = draw(st.integers(1, max_d))
    da = d + (0 if bias == "none" else 1)
    W = tuple(tuple(Fraction(v) for v in draw(st.tuples(*([st.integers(-4, 4)] * da)))) for _ in range(c))
    pts = draw(st.lists(st.tuples(*([st.integers(-coord, coord)] * d)), min_size=2, max_size=max_n))
    X, y, gaps = [], [], []
    for x in pts:
        xa = augment([x], bias)[0]
        g = [sum(a * b for a, b in zip(w, xa)) for w in W]
        top = max(g)
        rest = sorted(g)[-2]
        if top - rest >= margin:
            X.append(x)
            y.append(g.index(top))
            gaps.append(top - rest)
    assume(len(set(y)) >= 2)
    return PlantedMulticlass(tuple(X), tuple(y), bias, W, min(gaps))
