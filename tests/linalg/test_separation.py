"""Tests of exactlin.linalg.separation: separability decided exactly, a verified separator or Gordan certificate
from the float candidate and from the exact simplex alone, on both exact backends."""

from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactlin.data.dataset import augment, normalize
from exactlin.linalg.separation import separate
from exactlin.strategies import nonseparable_data, separable_data
from exactlin.theory.certificates import verify_gordan, verify_separator


def test_separate_xor_seed000_example2_through_origin():
    # seed 000 Example 2: ((1,1),1), ((1,-1),-1), ((-1,1),-1), ((-1,-1),1); through the origin the
    # normalized samples are (1,1), (-1,1), (1,-1), (-1,-1) and they sum to 0: lambda = 1/4 each works
    Z = normalize([(1, 1), (1, -1), (-1, 1), (-1, -1)], [1, -1, -1, 1])
    for use_float in (True, False):
        r = separate(Z, use_float=use_float)
        assert r.kind == "gordan"
        verify_gordan(Z, r.lam)


def test_separate_simple_separator():
    r = separate([(1, 0), (0, 1)], use_float=False)
    assert r.kind == "separator"
    assert verify_separator([(1, 0), (0, 1)], r.w, margin=F(1), strict=False) >= 1


@given(separable_data(max_n=10))
def test_separable_data_get_a_verified_separator(p):
    Z = normalize(augment(p.X, p.bias), p.y)
    for use_float in (True, False):
        r = separate(Z, use_float=use_float)
        assert r.kind == "separator"
        verify_separator(Z, r.w, margin=F(1), strict=False)


@given(nonseparable_data(max_n=8))
def test_planted_contradiction_gets_a_verified_gordan_certificate(p):
    Z = normalize(augment(p.X, p.bias), p.y)
    for use_float in (True, False):
        r = separate(Z, use_float=use_float)
        assert r.kind == "gordan"
        verify_gordan(Z, r.lam)


@given(st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), min_size=1, max_size=7))
def test_float_and_exact_routes_agree(Z):
    assert separate(Z).kind == separate(Z, use_float=False).kind


@given(st.one_of(separable_data(max_n=10), nonseparable_data(max_n=8)), st.booleans())
def test_both_backends_give_the_same_separation(p, use_float):
    # python-flint's revised simplex and the Fraction tableau take the same pivots (the same rules on the same
    # exact numbers), and the float route's exact solves are the same systems: the results are equal, field by field
    Z = normalize(augment(p.X, p.bias), p.y)
    r = separate(Z, use_float=use_float, backend="flint")
    assert separate(Z, use_float=use_float, backend="sympy") == r
    (verify_separator(Z, r.w, margin=F(1), strict=False) if r.kind == "separator" else verify_gordan(Z, r.lam))


def test_no_scipy_falls_back(monkeypatch):
    import exactlin.linalg.separation as sep

    monkeypatch.setattr(sep, "float_separation_available", lambda: False)
    r = sep.separate([(1, 1), (-1, -1)])
    assert r.kind == "gordan" and "exact simplex" in r.method


def test_empty_is_an_error():
    from exactlin.errors import ExactlinError

    with pytest.raises(ExactlinError, match="no samples"):
        separate([])


def test_vertex_candidate_solves_the_active_set_exactly():
    # max t s.t. <w, z_i> >= t, |w_j| <= 1: for z = (1, 0), (0, 1), (1, 1) the vertex is w = (1, 1), t = 1.
    # A float w perturbed in the 12th digit still identifies the active set; the exact solve repairs it.
    from exactlin.linalg.separation import _vertex_candidate

    Z = [(F(1), F(0)), (F(0), F(1)), (F(1), F(1))]
    w = _vertex_candidate(Z, [1 - 1e-12, 1 - 3e-12], 1 - 2e-12, backend=None)
    assert w == (F(1), F(1))
