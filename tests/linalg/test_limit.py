"""Seed 003's limit Y^+ = lim_{eps -> 0} (Y^tY + eps I)^{-1} Y^t (exactlin/linalg/limit.py): the notes' example,
hand-derived rank-deficient cases, and sympy's own limit with the Penrose conditions on random low-rank matrices."""

from fractions import Fraction as F

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactlin.linalg.limit import pinv_limit
from exactlin.linalg.matrices import verify_penrose

# ---------------------------------------------------------------------------------------------------------
# issue 21 item 5(b): seed 003's limit Y^+ = lim_{eps -> 0} (Y^tY + eps I)^{-1} Y^t for any Y


def test_pinv_limit_seed003_example():
    # seed 003, "Example": the printed Y^+ (5/4 13/12 3/4 7/12; -1/2 -1/6 -1/2 -1/6; 0 -1/3 0 -1/3)
    Y = [[1, 1, 2], [1, 2, 0], [-1, -3, -1], [-1, -2, -3]]
    r = pinv_limit(Y)
    assert r.order == 0 and r.limit == (
        (F(5, 4), F(13, 12), F(3, 4), F(7, 12)), (F(-1, 2), F(-1, 6), F(-1, 2), F(-1, 6)),
        (0, F(-1, 3), 0, F(-1, 3)))


def test_pinv_limit_rank_deficient_by_hand():
    # Y = (1 1; 1 1): G = (2 2; 2 2), det(G + eps I) = eps^2 + 4 eps = eps (eps + 4), adj(G + eps I) Y^t =
    # (eps + 2 - 2, ...) = eps (1 1; 1 1): the limit is (1 1; 1 1) / 4
    r = pinv_limit([[1, 1], [1, 1]])
    assert (r.det, r.order, r.numerator) == ((0, 4, 1), 1, ((1, 1), (1, 1)))
    assert r.limit == ((F(1, 4), F(1, 4)), (F(1, 4), F(1, 4)))
    # rank 1, Y = u v^t with u = (1, 2, 0), v = (1, 2): Y^+ = Y^t / ||Y||_F^2 = Y^t / 25
    r = pinv_limit([[1, 2], [2, 4], [0, 0]])
    assert r.order == 1 and r.limit == ((F(1, 25), F(2, 25), 0), (F(2, 25), F(4, 25), 0))
    # Y = 0: (eps I)^{-1} 0 = 0 for every eps
    r = pinv_limit([[0, 0, 0]])
    assert r.order == 3 and r.limit == ((0,), (0,), (0,))
    assert any("Y^+ =" in line for line in r.lines())


@st.composite
def low_rank(draw):
    n, m = draw(st.integers(1, 4)), draw(st.integers(1, 3))
    r = draw(st.integers(0, min(n, m)))
    U = draw(st.lists(st.lists(st.integers(-3, 3), min_size=r, max_size=r), min_size=n, max_size=n))
    V = draw(st.lists(st.lists(st.integers(-3, 3), min_size=m, max_size=m), min_size=r, max_size=r))
    return [[sum(U[i][t] * V[t][j] for t in range(r)) for j in range(m)] for i in range(n)]


@settings(max_examples=25, deadline=None)
@given(low_rank())
def test_pinv_limit_is_sympys_limit_and_satisfies_penrose(Y):
    # the limit taken by sympy itself (a rational function of eps, cancelled, then eps = 0), and the four
    # Penrose conditions checked by exactlin.theory.penrose: two computations that share nothing with it
    eps = sympy.Symbol("eps", positive=True)
    Ys = sympy.Matrix(Y)
    M = ((Ys.T * Ys + eps * sympy.eye(Ys.shape[1])).inv() * Ys.T).applyfunc(lambda e: sympy.cancel(e).subs(eps, 0))
    r = pinv_limit(Y)
    assert [[sympy.Rational(v.numerator, v.denominator) for v in row] for row in r.limit] == M.tolist()
    assert verify_penrose(Y, r.limit)
    assert r.order == Ys.shape[1] - Ys.rank()
