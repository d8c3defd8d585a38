"""Tests of exactlin.linalg.lp: the exact simplex (Bland), the exact solves, Lemke (separability:
test_separation.py).

Expected values are hand-derived (comments say how) or checked by an independent certificate
(duality: c^T x = b^T y with A^T y <= c; Farkas; the Gordan and separator verifiers)."""

from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactlin.linalg.lp import independent_columns, lemke, simplex, solve_exact


def _dot(u, v):
    return sum((F(a) * F(b) for a, b in zip(u, v)), F(0))


def test_simplex_textbook_vertex():
    # max x1 + x2 s.t. x1 + 2 x2 <= 4, 3 x1 + x2 <= 6 (slacks s1, s2): the two constraints meet at
    # x2 = 6/5, x1 = 8/5 (solve by hand), value 14/5
    A = [(1, 2, 1, 0), (3, 1, 0, 1)]
    r = simplex(A, [4, 6], [-1, -1, 0, 0])
    assert r.status == "optimal"
    assert r.x[:2] == (F(8, 5), F(6, 5))
    assert r.objective == F(-14, 5)
    # the duals prove optimality independently: A^T y <= c and b^T y = c^T x
    assert all(_dot(col, r.y) <= c for col, c in zip(zip(*A), [-1, -1, 0, 0]))
    assert _dot([4, 6], r.y) == r.objective


def test_simplex_beale_cycling_example_terminates():
    # Beale's (1955) LP on which the textbook most-negative rule cycles; Bland's rule must not.
    # Hand-checked optimum: x4 = 1, x6 = 1, x1 = 3/4, value -3/4 - 1/2 = -5/4.
    A = [(1, 0, 0, F(1, 4), -8, -1, 9), (0, 1, 0, F(1, 2), -12, F(-1, 2), 3), (0, 0, 1, 0, 0, 1, 0)]
    b = [0, 0, 1]
    c = [0, 0, 0, F(-3, 4), 20, F(-1, 2), 6]
    r = simplex(A, b, c, max_iter=1000)
    assert r.status == "optimal"
    assert r.objective == F(-5, 4)
    assert all(_dot(col, r.y) <= ci for col, ci in zip(zip(*A), c))
    assert _dot(b, r.y) == F(-5, 4)


def test_simplex_infeasible_gives_farkas():
    # x1 + x2 = -1 with x >= 0 is impossible; y = (-1) is a Farkas certificate: A^T y <= 0, b^T y > 0
    A, b = [(1, 1)], [-1]
    r = simplex(A, b)
    assert r.status == "infeasible"
    assert all(_dot(col, r.farkas) <= 0 for col in zip(*A))
    assert _dot(b, r.farkas) > 0


def test_simplex_unbounded():
    # min -x1 s.t. x1 - x2 = 0: x1 = x2 = t for any t >= 0
    assert simplex([(1, -1)], [0], [-1, 0]).status == "unbounded"


@pytest.mark.parametrize("backend", ["flint", "sympy"])
def test_solve_exact_and_singular(backend):
    assert solve_exact([(2, 1), (1, 3)], [3, 5], backend=backend) == (F(4, 5), F(7, 5))  # Cramer: (9-5)/5, (10-3)/5
    assert solve_exact([(1, 2), (2, 4)], [1, 2], backend=backend) is None


def test_independent_columns_greedy():
    # columns 0 and 1 are equal; column 2 is independent
    assert independent_columns([(1, 1, 0), (2, 2, 1)]) == [0, 2]


def test_lemke_small_qp():
    # min (1/2) z^T diag(2, 2) z + (-2, 4) z, z >= 0: z1 = 1 (unconstrained minimiser), z2 = 0
    r = lemke([[2, 0], [0, 2]], [-2, 4])
    assert r.status == "solved" and r.z == (F(1), F(0)) and r.w == (F(0), F(4))


def test_lemke_ray_on_infeasible():
    # w = -z - 1 >= 0 has no solution with z >= 0
    assert lemke([[-1]], [-1]).status == "ray"


@given(st.lists(st.lists(st.integers(-3, 3), min_size=4, max_size=4), min_size=1, max_size=3),
       st.lists(st.integers(-4, 4), min_size=3, max_size=3), st.lists(st.integers(-2, 3), min_size=4, max_size=4),
       st.sampled_from(["dantzig", "bland"]))
def test_revised_simplex_agrees_with_the_tableau_reference(A, b, c, rule):
    from exactlin.linalg.lp import simplex_tableau

    b = b[:len(A)]
    r1, r2 = simplex(A, b, c, rule=rule), simplex_tableau(A, b, c)
    assert r1.status == r2.status
    if r1.status == "optimal":
        assert r1.objective == r2.objective
        assert all(sum(F(a) * x for a, x in zip(row, r1.x)) == bi for row, bi in zip(A, b))
        assert all(x >= 0 for x in r1.x)
    if r1.status == "infeasible":
        assert all(_dot(col, r1.farkas) <= 0 for col in zip(*A)) and _dot(b, r1.farkas) > 0
