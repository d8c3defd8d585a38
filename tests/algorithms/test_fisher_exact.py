"""Fisher's integer fast paths (class statistics, the independent verification, the classification filter)
against the plain-Fraction textbook reference and against hand-derived values."""

import math
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactlin.algorithms import fisher as fmod
from exactlin.algorithms.fisher import Threshold, classify, fisher, verify_direction
from exactlin.data.dataset import Dataset
from exactlin.errors import InputError, SingularMatrixError, VerificationError
from exactlin.exact.products import column_sums
from exactlin.exact.rows import ExactRows
from exactlin.strategies import rationals
from tests.algorithms.fisher_reference import fisher_reference

FIELDS = ("y0", "threshold", "thresholds", "m1", "m2", "mt1", "mt2", "n1", "n2", "S1", "S2", "S_W", "S_B", "J",
          "method", "predictions", "on_threshold", "training_errors")


def same_as_reference(X, y, **params):
    """fisher(X, y) and fisher_reference(X, y) agree on w and every extra, or raise the same error."""
    try:
        ref = fisher_reference(X, y, **{k: v for k, v in params.items() if k != "arithmetic"})
    except (SingularMatrixError, InputError) as e:
        with pytest.raises(type(e)):
            fisher(X, y, **params)
        return None
    r = fisher(X, y, **params)
    assert r.w == ref["w"]
    for k in FIELDS:
        assert r.extras[k] == ref[k], k
    return r


@st.composite
def two_class_data(draw, rational=False, max_n=7, max_d=3):
    d = draw(st.integers(1, max_d))
    el = rationals(9, 5) if rational else st.integers(-9, 9)
    n1, n2 = draw(st.integers(1, max_n)), draw(st.integers(1, max_n))
    shift = draw(st.tuples(*[st.integers(-3, 3)] * d))
    X = [tuple(draw(el) + (shift[j] if i < n1 else 0) for j in range(d)) for i in range(n1 + n2)]
    y = [1] * n1 + [-1] * n2
    order = draw(st.permutations(range(n1 + n2)))
    return [X[i] for i in order], [y[i] for i in order]


PARAMS = st.sampled_from([{}, {"threshold": "2"}, {"singular": "pinv"}, {"priors": "9/10,1/10"},
                          {"priors": "1/3,2/3", "threshold": "3"}, {"priors": "1/2,1/2"},
                          {"priors": "5/7,2/7", "threshold": "1"}])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(two_class_data(), PARAMS)
def test_integer_data_matches_reference(data, params):
    X, y = data
    r = same_as_reference(X, y, **params)
    if r is not None:
        # the same data as a numpy integer array and as a Dataset over an ExactRows give the same run
        for Xn in (np.array(X, dtype=np.int64), Dataset(ExactRows(np.array(X, dtype=np.int64), 1), tuple(y))):
            r2 = fisher(Xn, y if not isinstance(Xn, Dataset) else None, **params)
            assert r2.w == r.w and all(r2.extras[k] == r.extras[k] for k in FIELDS)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(two_class_data(rational=True), PARAMS)
def test_rational_data_matches_reference(data, params):
    X, y = data
    r = same_as_reference(X, y, **params)
    if r is not None:
        # the same rationals as one ExactRows num / den (den the common denominator)
        den = math.lcm(*(v.denominator for row in X for v in row))
        num = np.array([[int(v * den) for v in row] for row in X], dtype=np.int64)
        r2 = fisher(Dataset(ExactRows(num, den), tuple(y)), None, **params)
        assert r2.w == r.w and all(r2.extras[k] == r.extras[k] for k in FIELDS)


def test_point_exactly_on_the_threshold():
    # by hand: omega_1 = {0, 4}, omega_2 = {-2, -2}: m1 = 2, m2 = -2, S1 = 8, S2 = 0, w = 4/8 = 1/2,
    # m~1 = 1, m~2 = -1, y0^(1) = 0; x = 0 projects onto y0 exactly: the notes' rule "if y > y0, omega_1;
    # otherwise omega_2" sends it to omega_2 (-1), one training error, and it is listed on the threshold
    r = fisher([(0,), (4,), (-2,), (-2,)], [1, 1, -1, -1])
    assert r.w == (F(1, 2),) and r.extras["y0"] == 0
    assert r.extras["predictions"] == (-1, 1, -1, -1) and r.extras["training_errors"] == 1
    assert r.extras["on_threshold"] == (0,)


def test_on_threshold_with_wide_weights():
    # omega_2 is omega_1 reflected through the origin, so m2 = -m1, S2 = S1 and y0^(1) = y0^(2) = w^t 0 = 0:
    # the origin (in both classes) projects exactly onto y0 and goes to omega_2 (-1), whatever w is.  The entries are
    # large enough that L w needs more bits than the float64 filter holds (the split W = 2**e H + R, e > 0).
    rng = np.random.default_rng(11)
    P = rng.integers(-1000, 1001, size=(60, 5))
    P[0] = 0
    X = np.vstack([P, -P])
    y = [1] * 60 + [-1] * 60
    for thr in ("1", "2"):
        r = fisher(X, y, threshold=thr)
        assert r.extras["y0"] == 0
        assert r.extras["predictions"][0] == -1 and r.extras["predictions"][60] == -1
        # the samples on the threshold, found here in plain Fractions: w^t x = 0 = y0 (the origin, twice)
        on = tuple(i for i in range(len(X)) if sum(F(int(a)) * b for a, b in zip(X[i], r.w)) == 0)
        assert 0 in on and 60 in on and r.extras["on_threshold"] == on
        # the other points: the sign of <x, w>, decided here in plain Fractions (y <= 0 is omega_2)
        for i in (1, 2, 61, 100):
            g = sum(F(int(a)) * b for a, b in zip(X[i], r.w))
            assert r.extras["predictions"][i] == (1 if g > 0 else -1)
    W, L = fmod._integer_vector(r.w)
    b = 52 - (5 * 1000).bit_length()
    assert max(abs(v).bit_length() for v in W) > b  # the e > 0 branch of classify was taken
    ref = fisher_reference(X, y)
    assert r.extras["predictions"] == ref["predictions"] and r.w == ref["w"]


def test_unequal_priors_irrational_threshold_large_data():
    rng = np.random.default_rng(5)
    y = np.where(rng.integers(0, 2, size=300) == 1, 1, -1)
    X = rng.integers(-9, 10, size=(300, 4)) + np.where(y[:, None] > 0, 1, 0) * np.array([2, 0, 1, 0])
    for pri in ("9/10,1/10", "1/100,99/100"):
        r = fisher(X, y, priors=pri)
        ref = fisher_reference(X, y, priors=pri)
        assert r.extras["threshold"] == "3" and r.w == ref["w"]
        assert r.extras["predictions"] == ref["predictions"]
        assert r.extras["training_errors"] == ref["training_errors"]
        assert r.extras["on_threshold"] == ()  # y0^(3) is irrational: never equal to a projection


# ---------------------------------------------------------------------------------------------------------
# classify alone: random integer matrices and weights, thresholds placed on or next to a projection


@st.composite
def classify_case(draw):
    n = draw(st.integers(1, 12))
    d = draw(st.integers(1, 4))
    size = draw(st.sampled_from([9, 1 << 20, 1 << 50, 1 << 70]))  # 1 << 50: d m >= 2**51; 1 << 70: Python ints
    A = [[draw(st.integers(-size, size)) for _ in range(d)] for _ in range(n)]
    wbits = draw(st.sampled_from([3, 40, 200]))
    W = [draw(st.integers(-(1 << wbits), 1 << wbits)) for _ in range(d)]
    D = draw(st.integers(1, 50))
    L = draw(st.integers(1, 10 ** 6))
    k = draw(st.integers(0, n - 1))
    yk = F(sum(a * b for a, b in zip(A[k], W)), D * L)  # the projection of point k
    kind = draw(st.sampled_from(["on", "near", "far", "log_near", "log"]))
    q = draw(st.sampled_from([F(9), F(1, 3), F(7, 5)]))
    s = draw(st.sampled_from([F(-1, 7), F(1, 2), F(3)]))
    if kind == "on":
        th = Threshold(yk)
    elif kind == "near":
        th = Threshold(yk + draw(st.sampled_from([F(1, 10 ** 30), F(-1, 10 ** 30), F(1, 3)])))
    elif kind == "far":
        th = Threshold(draw(rationals(10 ** 6, 7)))
    elif kind == "log_near":
        # y0 = yk + s (ln q - r), r a 30-digit rational approximation of ln q: y0 is within ~1e-29 |s| of yk
        r = F(round(F(math.log(q)) * 10 ** 15), 10 ** 15)
        th = Threshold(yk - s * r, s, q)
    else:
        th = Threshold(draw(rationals(50, 7)), s, q)
    return A, D, W, L, th


@settings(max_examples=300, deadline=None)
@given(classify_case())
def test_classify_matches_exact_comparison(case):
    A, D, W, L, th = case
    arr = np.array(A, dtype=np.int64) if max(abs(v) for r in A for v in r) < 1 << 62 else np.array(A, dtype=object)
    got = classify(arr, D, W, L, th).tolist()
    # the definition: sign(<x_i, w> - y0) with x_i = A_i / D and w = W / L, in Fractions (Threshold.compare is the
    # exact comparison, with refined ball arithmetic when y0 is irrational)
    want = [th.compare(sum((F(a, D) * F(b, L) for a, b in zip(row, W)), F(0))) for row in A]
    assert got == want


# ---------------------------------------------------------------------------------------------------------
# the verification


def _classes():
    rng = np.random.default_rng(2)
    A1 = rng.integers(-9, 10, size=(40, 3))
    A2 = rng.integers(-9, 10, size=(30, 3)) + 2
    return A1, A2


def test_verification_accepts_the_true_w_and_rejects_a_wrong_one():
    A1, A2 = _classes()
    st_ = fmod.fisher_direction(A1, A2)
    W, L = fmod._integer_vector(st_["w"])
    assert verify_direction(A1, A2, 1, W, L)
    # the same direction over the same data scaled by 1/3 (X = A / 3): w scales by 3
    assert verify_direction(A1, A2, 3, [3 * v for v in W], L)
    for bad in ([W[0] + 1, *W[1:]], [2 * v for v in W], [-v for v in W]):
        with pytest.raises(VerificationError, match="S_W w != m_1 - m_2"):
            verify_direction(A1, A2, 1, bad, L)
    with pytest.raises(VerificationError, match="S_W w != m_1 - m_2"):
        verify_direction(A1, A2, 1, W, L + 1)
    # wrong claimed sums or scatter are caught too
    s1, s2 = column_sums(A1), column_sums(A2)
    with pytest.raises(VerificationError, match="class sums"):
        verify_direction(A1, A2, 1, W, L, sums=([s1[0] + 1, *s1[1:]], s2))
    n1, n2 = len(A1), len(A2)
    N = [[int(v * n1 * n2) for v in row] for row in st_["S_W"]]
    assert verify_direction(A1, A2, 1, W, L, sums=(s1, s2), scatter=N)
    N[1][2] += 1
    with pytest.raises(VerificationError, match=r"S_W\[1\]\[2\]"):
        verify_direction(A1, A2, 1, W, L, scatter=N)


def test_verification_independent_of_the_solver(monkeypatch):
    A1, A2 = _classes()
    good = fmod.fisher_direction(A1, A2)["w"]
    # an answer off in the last place of one entry
    monkeypatch.setattr(fmod, "int_solve", lambda N, rhs, **k: (good[0] + F(1, 10 ** 12), *good[1:]))
    with pytest.raises(VerificationError, match="S_W w != m_1 - m_2"):
        fmod.fisher_direction(A1, A2)
    X = np.vstack([A1, A2])
    y = [1] * len(A1) + [-1] * len(A2)
    with pytest.raises(VerificationError):
        fisher(X, y)
    # a wrong gram (the producer's product) is caught by the independent scatter check
    monkeypatch.undo()
    def wrong_scatter(A, tiers=None):  # n A^t A - s s^t, off by one in every entry
        n, s = len(A), A.sum(axis=0).tolist()
        return n, s, [[n * int(g) - a * b + 1 for g, b in zip(row, s)] for row, a in zip((A.T @ A).tolist(), s)]

    monkeypatch.setattr(fmod, "class_scatter", wrong_scatter)
    with pytest.raises(VerificationError):
        fisher(X, y)


def test_large_entries_paths():
    # entries beyond the float64 filter (d m >= 2**51: int_matvec) and beyond int64 (Python ints, object arrays)
    rng = np.random.default_rng(4)
    base = rng.integers(-9, 10, size=(12, 2)).tolist()
    y = [1] * 6 + [-1] * 6
    for scale in (1 << 50, 1 << 70):
        X = [tuple(v * scale + (j + 1) * i for j, v in enumerate(row)) for i, row in enumerate(base)]
        same_as_reference(X, y)
        same_as_reference(X, y, priors="2/3,1/3")


def test_fast_path_builds_no_fraction_rows_and_problem_is_lazy():
    rng = np.random.default_rng(8)
    y = [1] * 50 + [-1] * 50
    X = rng.integers(-9, 10, size=(100, 3)) + np.array([[1, 0, 0]] * 50 + [[0, 0, 0]] * 50)
    R = ExactRows(X, 1)
    r = fisher(Dataset(R, tuple(y)), None)
    assert R._rows is None  # no Fraction row was built
    # the Run's problem still gives the samples and the normalized samples z_i x_i when read
    assert r.problem.z == tuple(y) and r.problem.bias == "none"
    assert [tuple(row) for row in r.problem.Y] == [tuple(F(int(v)) for v in row) for row in X]
    assert [tuple(row) for row in r.problem.Z] == [tuple(F(int(v) * zi) for v in row) for row, zi in zip(X, y)]


@pytest.mark.parametrize("arithmetic", ["flint", "fraction"])
def test_direction_mixed_denominators_on_every_backend(arithmetic):
    X1 = [(F(1, 3), 2), (F(5, 3), -1), (2, F(2, 3)), (F(-1, 3), 1)]  # denominator 3
    X2 = [(-1, 0), (-3, 1), (-2, -1), (0, -2)]  # integers
    X, y = X1 + X2, [1] * 4 + [-1] * 4
    ref = fisher_reference(X, y)
    got = fmod.fisher_direction(X1, X2, backend={"flint": "flint", "fraction": "sympy"}[arithmetic])
    assert got["w"] == ref["w"] and got["S_W"] == ref["S_W"] and got["m1"] == ref["m1"]
    assert got["S1"] == ref["S1"] and got["S_B"] == ref["S_B"]
    r = same_as_reference(X, y, priors="3/4,1/4", arithmetic=arithmetic)
    assert r.arithmetic["used"] == arithmetic


def test_int64_scatter_path():
    # n max|C|^2 is above 2**53 but below 2**63: the verifier's centred product runs in int64
    rng = np.random.default_rng(6)
    A1 = rng.integers(-(1 << 15), 1 << 15, size=(300, 2))
    A2 = rng.integers(-(1 << 15), 1 << 15, size=(200, 2)) + 999
    n = len(A1)
    cmax = n * int(np.abs(A1).max()) + int(np.abs(A1.sum(axis=0)).max())
    assert 1 << 53 <= n * cmax * cmax < 1 << 63
    X, y = np.vstack([A1, A2]), [1] * len(A1) + [-1] * len(A2)
    same_as_reference(X, y)
