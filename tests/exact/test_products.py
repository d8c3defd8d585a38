"""Exact integer products (exactlin/exact/products.py): the tier each bound allows, and the results against plain
Python integer sums and hand-derived scatter matrices."""

import numpy as np
import pytest

from exactlin.errors import InputTypeError, ShapeError
from exactlin.exact.products import centred_scatter, class_scatter, column_sums, gram, sym_fractions


def _gram_py(A, B):
    return [[sum(a[i] * b[j] for a, b in zip(A, B)) for j in range(len(B[0]))] for i in range(len(A[0]))]


@pytest.mark.parametrize(("M", "tier"), [(3, "float64"), (1 << 26, "int64"), (1 << 31, "python")])
def test_gram_takes_the_tier_its_bound_allows(M, tier):
    # n = 3 rows with max |A| = M: the bound n M^2 is 27 < 2**53 (float64); 3 * 2**52 is in [2**53, 2**63)
    # (int64); 3 * 2**62 >= 2**63 (Python integers)
    A = [[M, -1], [2, M], [-M, 3]]
    tiers: dict = {}
    assert gram(np.array(A, dtype=np.int64), tiers=tiers) == _gram_py(A, A)
    assert tiers == {tier: 1}


def test_gram_of_two_matrices_and_of_python_rows():
    A, B = [[1, 2], [3, 4], [5, 6]], [[1], [0], [-1]]
    tiers: dict = {}
    # A^t B by hand: (1 - 5, 2 - 6) = (-4, -4)
    assert gram(A, B, tiers=tiers) == [[-4], [-4]]
    assert gram(np.array(A), np.array(B), tiers=tiers) == [[-4], [-4]]
    assert tiers == {"python": 1, "float64": 1}  # rows of Python ints: the exact integer product


def test_gram_refuses_what_is_not_an_integer_matrix():
    with pytest.raises(InputTypeError):
        gram(np.array([[0.5, 1.0]]))
    with pytest.raises(InputTypeError):
        gram([[1, 2.0]])
    with pytest.raises(ShapeError):
        gram([[1, 2], [3]])
    with pytest.raises(ShapeError):
        gram([[1], [2]], [[1]])


def test_column_sums_leave_int64_when_they_would_overflow():
    # 2 * 2**62 = 2**63 does not fit in int64: the sum is formed in Python integers
    A = np.array([[1 << 62, 1], [1 << 62, 2]], dtype=np.int64)
    tiers: dict = {}
    assert column_sums(A, tiers=tiers) == [1 << 63, 3] and tiers == {"python": 1}
    assert column_sums(np.array([[1, 2], [3, 4]]), tiers=tiers) == [4, 6] and tiers["int64"] == 1


def test_class_scatter_and_centred_scatter_by_hand():
    # rows (1, 2), (3, 4): mean m = (2, 3), x - m = -(1, 1) and (1, 1), so S = [[2, 2], [2, 2]];
    # class_scatter gives n S = 2 S (D = 1), centred_scatter n^2 S = 4 S, both with the sums s = (4, 6)
    A = np.array([[1, 2], [3, 4]], dtype=np.int64)
    assert class_scatter(A) == (2, [4, 6], [[4, 4], [4, 4]])
    assert centred_scatter(A) == ([4, 6], [[8, 8], [8, 8]])
    # the same class in Python integers beyond int64 (every entry times 2**70): S times 2**140
    big = np.array([[v << 70 for v in row] for row in A.tolist()], dtype=object)
    s, K = centred_scatter(big)
    assert s == [4 << 70, 6 << 70] and K == [[8 << 140, 8 << 140], [8 << 140, 8 << 140]]
    n, s2, Q = class_scatter(big)
    assert (n, s2, Q) == (2, [4 << 70, 6 << 70], [[4 << 140, 4 << 140], [4 << 140, 4 << 140]])


def test_sym_fractions_shares_the_mirrored_entries():
    M = sym_fractions([[2, 3], [3, 4]], 6)
    assert [[str(v) for v in r] for r in M] == [["1/3", "1/2"], ["1/2", "2/3"]]
    assert M[0][1] is M[1][0]
