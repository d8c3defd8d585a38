"""Regressions found reviewing the integer-preserving data layer (ExactRows): each expected value is
computed here with plain Fractions / Python integers, never taken from the code under test."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from exactlin import perceptron, scaled
from exactlin.data.dataset import augment, binary_labels
from exactlin.linalg.matrices import integer_matrix, pinv_solve


def test_binary_labels_accepts_an_iterator():
    # the +1/-1 fast path tested the types with one pass over y, which consumed an iterator: () came back
    assert binary_labels(iter([1, -1, 1])) == (1, -1, 1)
    assert binary_labels(v for v in (-1, 1)) == (-1, 1)


@pytest.mark.parametrize("den", [2**63, 2**70 + 3])
@pytest.mark.parametrize("bias", ["first", "last"])
def test_augment_with_a_denominator_beyond_int64(den, bias):
    # scaled(K, D) accepts any D >= 1, but the constant column D / D cannot be held in int64
    K = [[1, 2], [-3, 5]]
    got = augment(scaled(np.array(K), den), bias)
    rows = [[Fraction(v, den) for v in r] for r in K]
    want = tuple(tuple([Fraction(1)] + r if bias == "first" else r + [Fraction(1)]) for r in rows)
    assert tuple(tuple(r) for r in got) == want


def test_perceptron_on_scaled_data_with_a_huge_denominator_and_bias():
    K = np.array([[4, 0], [1, 1], [0, 1], [-2, -2]])
    y = [1, -1, -1, 1]
    den = 2**64
    r = perceptron(scaled(K, den), y, bias="first")
    # the same run by hand on the Fraction samples y_i (1, x_i / den): cyclic, w <- w + z_i on <w, z_i> <= 0
    Z = [tuple(yi * v for v in (Fraction(1),) + tuple(Fraction(int(a), den) for a in x)) for x, yi in zip(K, y)]
    w = (Fraction(0),) * 3
    clean, i, updates = 0, 0, 0
    while clean < len(Z):
        if sum(a * b for a, b in zip(w, Z[i])) <= 0:
            w = tuple(a + b for a, b in zip(w, Z[i]))
            clean, updates = 0, updates + 1
        else:
            clean += 1
        i = (i + 1) % len(Z)
    assert r.converged and r.w == w and r.updates == updates


def test_integer_matrix_does_not_wrap_uint64_beyond_int64():
    A = np.array([[2**63], [1]], dtype=np.uint64)
    M, D = integer_matrix(A)
    assert D == 1 and [[int(v) for v in row] for row in M] == [[2**63], [1]]
    # Y^+ b for a single column y: y^t b / y^t y
    assert pinv_solve(A) == (Fraction(2**63 + 1, 2**126 + 1),)


def test_to_jsonable_lists_a_lazy_trace():
    # the fast perceptron's default trace is a LazySteps; to_jsonable turned it into its repr string
    from exactlin.model.serialize import to_jsonable

    r = perceptron(np.array([[4, 0], [1, 1], [0, 1], [-2, -2]]), [1, -1, -1, 1])
    got = to_jsonable(r.trace)
    assert isinstance(got, list) and len(got) == r.steps
    # seed 000's example: mistakes at rounds 1, 2 and 4 (samples 0, 1, 3), w_after (1, -3) at the last one
    assert [s["update"] for s in got][:4] == [True, True, False, True]
    assert got[3]["w_after"] == ["1", "-3"]
    assert to_jsonable(r.extras["monitor"].rows)[0]["t"] == 1
