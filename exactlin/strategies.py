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

Data with known exact answers for the other families: ``mse_data`` (a planted a = Y^+ b, consistent,
or overdetermined with a residual orthogonal to the columns of Y), ``fisher_data`` (classes built so that
w = S_W^-1 (m_1 - m_2) is a planted vector) and ``svm_data`` (a planted hard-margin optimum w, b with its
support vectors and a KKT certificate alpha).  Each returns the data and the known answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

try:
    from hypothesis import assume
    from hypothesis import strategies as st
except ImportError as e:  # pragma: no cover
    raise ImportError("exactlin.strategies needs hypothesis: pip install 'exactlin[test]'") from e

from exactlin.exact.numbers import dot

__all__ = ["rationals", "vectors", "PlantedData", "separable_data", "nonseparable_data", "labelled_data",
           "PlantedMulticlass", "separable_multiclass_data",
           "rational_matrices", "PlantedMSE", "mse_data", "PlantedFisher", "fisher_data", "PlantedSVM",
           "svm_data", "check_svm_kkt"]


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


# ---------------------------------------------------------------------------
# data with KNOWN EXACT ANSWERS for MSE, Fisher and the hard-margin SVM.  Every construction below is checked
# by plain Fraction arithmetic written here (it shares no code with the algorithms it is meant to test).


def _rref(M: list[list[Fraction]]) -> tuple[list[list[Fraction]], list[int]]:
    """Reduced row echelon form and pivot columns, by plain Gauss-Jordan elimination in Fractions."""
    A = [[Fraction(v) for v in r] for r in M]
    pivots: list[int] = []
    r = 0
    ncols = len(A[0]) if A else 0
    for c in range(ncols):
        p = next((i for i in range(r, len(A)) if A[i][c] != 0), None)
        if p is None:
            continue
        A[r], A[p] = A[p], A[r]
        pv = A[r][c]
        A[r] = [v / pv for v in A[r]]
        for i in range(len(A)):
            if i != r and A[i][c] != 0:
                f = A[i][c]
                A[i] = [a - f * b for a, b in zip(A[i], A[r])]
        pivots.append(c)
        r += 1
        if r == len(A):
            break
    return A, pivots


def _rank(M) -> int:
    return len(_rref(M)[1]) if M else 0


def _null_space(M: list[list[Fraction]]) -> list[tuple[Fraction, ...]]:
    """A basis of {v : M v = 0} (one vector per free column of the RREF)."""
    R, piv = _rref(M)
    n = len(M[0])
    basis = []
    for f in (c for c in range(n) if c not in piv):
        v = [Fraction(0)] * n
        v[f] = Fraction(1)
        for row, pc in zip(R, piv):
            v[pc] = -row[f]
        basis.append(tuple(v))
    return basis


def _matvec(M, v) -> tuple[Fraction, ...]:
    return tuple(dot(r, v) for r in M)


def _transpose(M) -> list[list]:
    return [list(c) for c in zip(*M)]


@dataclass(frozen=True)
class PlantedMSE:
    """Data whose minimum-squared-error solution is known by construction.

    ``X``, ``y``, ``bias``: what to give ``exactlin.mse(X, y, bias=bias, b=b)``; ``Y`` the normalized augmented
    samples (row i is y_i (x~_i)), full column rank; ``a`` the planted solution; ``b`` the margin vector
    (> 0); ``r`` the residual part of b with Y^t r = 0 (zero for the consistent variant), so b = Y a + r and,
    Y having full column rank, a = Y^+ b is the unique least-squares solution; ``e`` = Y a - b = -r and
    ``J_s`` = ||r||^2."""

    X: tuple
    y: tuple
    bias: str
    Y: tuple
    a: tuple
    b: tuple
    r: tuple
    J_s: Fraction

    @property
    def e(self) -> tuple:
        return tuple(-v for v in self.r)


@st.composite
def mse_data(draw, *, overdetermined: bool | None = None, max_n: int = 8, max_d: int = 3,
             bias: str | None = None, coord: int = 6) -> PlantedMSE:
    """Integer samples with a planted MSE answer a (small rationals).

    Labels are the signs of x~_i . a (points with x~_i . a = 0 are dropped), so Y a > 0; with
    ``overdetermined`` False, b = Y a (consistent: J_s = 0); with True (more samples than unknowns), b = Y a + r
    for a nonzero r in the left null space of Y (Y^t r = 0), scaled so that b stays > 0: the least-squares
    answer is still a, with J_s = ||r||^2.  ``None`` draws either.
    """
    from exactlin.data.dataset import augment

    bias = bias or draw(st.sampled_from(["none", "first", "last"]))
    over = draw(st.booleans()) if overdetermined is None else overdetermined
    d = draw(st.integers(1, max_d))
    da = d + (0 if bias == "none" else 1)
    a = tuple(draw(st.lists(rationals(5, 3), min_size=da, max_size=da)))
    assume(any(a))
    n_min = da + 1 if over else da
    pts = draw(st.lists(st.tuples(*([st.integers(-coord, coord)] * d)), min_size=n_min, max_size=max(max_n, n_min)))
    X, y, Y = [], [], []
    for x in pts:
        xa = tuple(Fraction(v) for v in augment([x], bias)[0])
        s = dot(xa, a)
        if s != 0:
            lab = 1 if s > 0 else -1
            X.append(x)
            y.append(lab)
            Y.append(tuple(lab * v for v in xa))
    assume(len(Y) >= n_min and _rank(Y) == da)
    Ya = _matvec(Y, a)
    assert all(v > 0 for v in Ya)
    r = (Fraction(0),) * len(Y)
    if over:
        null = _null_space(_transpose(Y))  # left null space of Y: dimension n - da >= 1
        assert null
        coeffs = draw(st.lists(st.integers(-3, 3), min_size=len(null), max_size=len(null)))
        assume(any(coeffs))
        r = tuple(sum((c * v[i] for c, v in zip(coeffs, null)), Fraction(0)) for i in range(len(Y)))
        assume(any(r))
        # scale r so that b = Y a + r > 0: |t r_i| <= (Y a)_i / 2
        t = min(Ya) / (2 * max(abs(v) for v in r))
        t *= Fraction(draw(st.integers(1, 4)), 4)
        r = tuple(t * v for v in r)
    b = tuple(p + q for p, q in zip(Ya, r))
    assert all(v > 0 for v in b)
    assert all(dot(col, r) == 0 for col in _transpose(Y))  # Y^t r = 0: a satisfies the normal equations
    return PlantedMSE(tuple(X), tuple(y), bias, tuple(Y), a, b, r, dot(r, r))


@dataclass(frozen=True)
class PlantedFisher:
    """Two classes built so that Fisher's w = S_W^-1 (m_1 - m_2) is the planted ``w``.

    Class omega_1 (label +1) is m_1 +- u_j, class omega_2 (label -1) is m_2 +- v_j, so the class means are
    exactly m_1, m_2 and S_W = 2 (sum_j u_j u_j^t + sum_j v_j v_j^t) (nonsingular); m_1 = m_2 + S_W w.  Known:
    ``w``, ``m1``, ``m2``, ``S_W``, J(w) = w^t S_W w (= w^t (m_1 - m_2)), and the threshold y0^(1) =
    (w^t m_1 + w^t m_2) / 2."""

    X: tuple
    y: tuple
    w: tuple
    m1: tuple
    m2: tuple
    S_W: tuple
    J: Fraction
    y0: Fraction


@st.composite
def fisher_data(draw, *, max_d: int = 3, max_pairs: int = 3, coord: int = 4) -> PlantedFisher:
    """Data whose Fisher direction is a planted small rational vector (see :class:`PlantedFisher`)."""
    d = draw(st.integers(1, max_d))
    vec = st.tuples(*([st.integers(-coord, coord)] * d))
    U = draw(st.lists(vec, min_size=1, max_size=max_pairs))
    V = draw(st.lists(vec, min_size=1, max_size=max_pairs))
    S = [[2 * sum((Fraction(u[i] * u[j]) for u in (*U, *V)), Fraction(0)) for j in range(d)] for i in range(d)]
    assume(_rank(S) == d)
    w = tuple(draw(st.lists(rationals(4, 3), min_size=d, max_size=d)))
    assume(any(w))
    m2 = tuple(Fraction(v) for v in draw(vec))
    delta = _matvec(S, w)
    m1 = tuple(p + q for p, q in zip(m2, delta))
    X, y = [], []
    for m, vs, lab in ((m1, U, 1), (m2, V, -1)):
        for v in vs:
            for s in (1, -1):
                X.append(tuple(mi + s * vi for mi, vi in zip(m, v)))
                y.append(lab)
    # the construction, checked: the means, the scatter and S_W w = m_1 - m_2
    for m, lab in ((m1, 1), (m2, -1)):
        pts = [x for x, t in zip(X, y) if t == lab]
        assert tuple(sum(c) / len(pts) for c in zip(*pts)) == m
    Sc = [[sum(((x[i] - (m1 if t == 1 else m2)[i]) * (x[j] - (m1 if t == 1 else m2)[j]) for x, t in zip(X, y)),
               Fraction(0)) for j in range(d)] for i in range(d)]
    assert Sc == S
    J = dot(w, delta)
    return PlantedFisher(tuple(X), tuple(y), w, m1, m2, tuple(map(tuple, S)), J, (dot(w, m1) + dot(w, m2)) / 2)


@dataclass(frozen=True)
class PlantedSVM:
    """Separable data whose hard-margin SVM optimum (w, b) is planted, with a KKT certificate.

    The support vectors (indices ``support``) lie on y_i (w . x_i + b) = 1, every other point strictly outside
    (y_i (w . x_i + b) > 1); ``alpha`` (one per sample, > 0 exactly on ``support``) satisfies alpha >= 0,
    sum_i alpha_i y_i = 0 and w = sum_i alpha_i y_i x_i: the KKT conditions, sufficient for this convex problem,
    so (w, b) is THE optimum (w is unique by strict convexity; b too, as there are support vectors of both
    classes).  alpha itself need not be unique.  ``margin_squared`` = 1 / ||w||^2."""

    X: tuple
    y: tuple
    w: tuple
    b: Fraction
    alpha: tuple
    support: tuple
    margin_squared: Fraction


def check_svm_kkt(X, y, w, b, alpha) -> None:
    """Raise AssertionError unless (w, b, alpha) satisfy the hard-margin KKT conditions on (X, y): primal
    feasibility y_i (w.x_i + b) >= 1, alpha_i >= 0, complementary slackness alpha_i (y_i (w.x_i + b) - 1) = 0,
    stationarity w = sum alpha_i y_i x_i and sum alpha_i y_i = 0 (plain Fractions, written here)."""
    for i, (x, t, a) in enumerate(zip(X, y, alpha)):
        m = t * (dot(w, x) + b)
        assert m >= 1, f"sample {i}: y(w.x + b) = {m} < 1"
        assert a >= 0, f"alpha_{i} = {a} < 0"
        assert a == 0 or m == 1, f"sample {i}: alpha = {a} > 0 but y(w.x + b) = {m} != 1"
    assert sum((a * t for a, t in zip(alpha, y)), Fraction(0)) == 0, "sum alpha_i y_i != 0"
    for k in range(len(w)):
        assert sum((a * t * x[k] for a, t, x in zip(alpha, y, X)), Fraction(0)) == w[k], f"w_{k} != sum alpha y x"


@st.composite
def svm_data(draw, *, max_d: int = 3, max_others: int = 8, coord: int = 6) -> PlantedSVM:
    """Hard-margin SVM data with a planted optimum (see :class:`PlantedSVM`).

    Construction: c_- on the plane w.x + b = -1 and c_+ = c_- + 2 w / ||w||^2 on w.x + b = 1, so that
    c_+ - c_- = 2w/||w||^2; the positive support vectors are c_+ + d_j with directions d_j orthogonal to w
    whose convex combination (equal weights) is 0 (one point; a pair +-d; or d1, d2, -d1-d2), likewise the
    negative ones around c_-; alpha_i = (||w||^2 / 2) / (number on that side).  Then sum alpha_i y_i x_i =
    (||w||^2 / 2)(c_+ - c_-) = w.  Other integer points are kept when |w.x + b| > 1, labelled by the side.
    """
    d = draw(st.integers(1, max_d))
    w = tuple(Fraction(v) for v in draw(st.tuples(*([st.integers(-3, 3)] * d))))
    assume(any(w))
    b = Fraction(draw(st.integers(-6, 6)), draw(st.integers(1, 3)))
    ww = dot(w, w)
    q = tuple(Fraction(v) for v in draw(st.tuples(*([st.integers(-coord, coord)] * d))))
    c_minus = tuple(qi - (dot(w, q) + b + 1) / ww * wi for qi, wi in zip(q, w))
    c_plus = tuple(ci + 2 * wi / ww for ci, wi in zip(c_minus, w))

    def around(c):
        k = draw(st.integers(1, 3 if d > 1 else 1))
        if k == 1:
            return [c]
        ds = []
        for _ in range(k - 1):  # integer directions orthogonal to w: (w.w) v - (w.v) w
            v = draw(st.tuples(*([st.integers(-2, 2)] * d)))
            ds.append(tuple(ww * vi - dot(w, v) * wi for vi, wi in zip(v, w)))
        ds.append(tuple(-sum(col) for col in zip(*ds)))
        return [tuple(ci + di for ci, di in zip(c, dd)) for dd in ds]

    pos, neg = around(c_plus), around(c_minus)
    X = [*pos, *neg]
    y = [1] * len(pos) + [-1] * len(neg)
    alpha = [ww / 2 / len(pos)] * len(pos) + [ww / 2 / len(neg)] * len(neg)
    others = draw(st.lists(st.tuples(*([st.integers(-coord, coord)] * d)), max_size=max_others))
    for x in others:
        g = dot(w, x) + b
        if abs(g) > 1:
            X.append(tuple(Fraction(v) for v in x))
            y.append(1 if g > 0 else -1)
            alpha.append(Fraction(0))
    # shuffle, so that the support vectors are not always first
    order = draw(st.permutations(range(len(X))))
    X = [X[i] for i in order]
    y = [y[i] for i in order]
    alpha = [alpha[i] for i in order]
    check_svm_kkt(X, y, w, b, alpha)  # the construction IS the optimum
    support = tuple(i for i, a in enumerate(alpha) if a > 0)
    return PlantedSVM(tuple(X), tuple(y), w, b, tuple(alpha), support, 1 / ww)
