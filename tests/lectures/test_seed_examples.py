"""The worked examples of exactlin/lectures/seed00*.py: every check holds, and the key values are recomputed
here independently (plain Fractions / sympy, expected values derived by hand in the comments)."""

from fractions import Fraction as F

import pytest
import sympy

from exactlin.lectures.examples import run_example

NEW = ["seed000-exercise-repeat-mistake", "seed000-exercise-voted-boundary", "seed000-sum-of-mistakes",
       "seed002-duality", "seed003-step-size", "seed003-relaxation-factor", "seed003-linear-machine-distance",
       "seed003-fisher-rank-sb", "seed003-pinv-limit", "seed004-margin-invariance"]

EX1 = [((4, 0), 1), ((1, 1), -1), ((0, 1), -1), ((-2, -2), 1)]


def dot(u, v):
    return sum(F(a) * F(b) for a, b in zip(u, v))


@pytest.mark.parametrize("id", NEW)
def test_new_example_checks_hold(id):
    res = run_example(id)
    assert res.checks and all(c.ok for c in res.checks), [c.what for c in res.checks if not c.ok]
    assert sum(len(n) for n in res.notes) < 1500  # short output


def reference_perceptron(data, eta=F(1)):
    """Seed 000's rule written out: returns the list of (sample index, w before) at each mistake and final w."""
    w = (F(0), F(0))
    mistakes = []
    while True:
        clean = True
        for i, (x, y) in enumerate(data):
            if y * dot(w, x) <= 0:
                mistakes.append((i, w))
                w = (w[0] + eta * y * x[0], w[1] + eta * y * x[1])
                clean = False
        if clean:
            return mistakes, w


def test_exercise_repeat_mistake_round2():
    mistakes, _ = reference_perceptron(EX1)
    i, w2 = mistakes[1]
    x, y = EX1[i]
    w3 = (w2[0] + y * x[0], w2[1] + y * x[1])
    # w_3 = (3,-1) and y_2 <w_3, x_2> = -(3 - 1) = -2: still a mistake
    assert (i, w3, y * dot(w3, x)) == (1, (3, -1), -2)
    res = run_example("seed000-exercise-repeat-mistake")
    assert [c.actual for c in res.checks][3] == [F(16), F(-2), F(4)]


def test_sum_of_mistakes_matches_reference():
    for eta in (F(1), F(1, 2)):
        mistakes, w = reference_perceptron(EX1, eta)
        total = tuple(sum(eta * EX1[i][1] * EX1[i][0][t] for i, _ in mistakes) for t in range(2))
        assert total == w == (eta * 1, eta * -3)
    res = run_example("seed000-sum-of-mistakes")
    assert res.runs[0].w == (1, -3) and res.runs[1].w == (F(1, 2), F(-3, 2))


def test_voted_boundary_values():
    # Example 1 after one pass: votes with weights 1 (4,0), 2 (3,-1), 1 (1,-3); x = (2,5): 1 + 2 - 1 = 2 > 0, while
    # <(11,-5), (2,5)> = -3 < 0
    sg = lambda v: (v > 0) - (v < 0)  # noqa: E731
    vote = sg(dot((4, 0), (2, 5))) + 2 * sg(dot((3, -1), (2, 5))) + sg(dot((1, -3), (2, 5)))
    assert (vote, dot((11, -5), (2, 5))) == (2, -3)
    res = run_example("seed000-exercise-voted-boundary")
    assert res.checks[2].actual == (1, -1)


def test_duality_sides():
    res = run_example("seed002-duality")
    sides = res.checks[0].actual
    # w = (1,-3) is on the positive side of all four w-space hyperplanes y_i x_i . w = 0: 4, 2, 3, 4 > 0
    assert [dot((1, -3), (y * x[0], y * x[1])) for x, y in EX1] == [4, 2, 3, 4]
    assert sides[-1] == [1, 1, 1, 1] and sides[0] == [0, 0, 0, 0]


@pytest.mark.parametrize("eta", [F(1, 10), F(3, 4), F(1), F(5, 4)])
def test_step_size_iterates(eta):
    # a(k+1) = a(k) - eta * 2 (a(k) - 1) on Y = (1,1)^t, b = (1,1)
    a, ref = F(0), []
    for _ in range(4):
        a = a - eta * 2 * (a - 1)
        ref.append(a)
    res = run_example("seed003-step-size")
    run = next(r for r in res.runs if r.trace[0].info["eta"] == eta)
    assert [s.w_after[0] for s in run.trace][:4] == ref


def test_relaxation_factor_identity():
    res = run_example("seed003-relaxation-factor")
    for run, eta in zip(res.runs, (F(1, 2), F(1), F(3, 2))):
        s = run.trace[0]
        a = tuple(eta * (1 - s.score) / 2 * v for v in (1, 1))  # a(1) = 0, y = (1,1), ||y||^2 = 2, b = 1
        assert s.w_after == a
        assert dot(a, (1, 1)) - 1 == (1 - eta) * (0 - 1)


def test_linear_machine_distance_squared():
    res = run_example("seed003-linear-machine-distance")
    d = res.data["d(x, H_AB)"]
    # (g_A - g_B)^2 / ||w_A - w_B||^2 = 2^2 / 10 = 2/5, and d = 2/sqrt(10) > 0
    assert sympy.simplify(d**2 - sympy.Rational(2, 5)) == 0
    assert d == 2 / sympy.sqrt(10)


def test_fisher_sb_rank():
    res = run_example("seed003-fisher-rank-sb")
    SB = res.runs[0].extras["S_B"]
    # m1 = (2, 1/3), m2 = (-2, -1/3): S_B = (4, 2/3)(4, 2/3)^t; a 2x2 with zero determinant and nonzero entries
    assert SB == ((16, F(8, 3)), (F(8, 3), F(4, 9)))
    assert SB[0][0] * SB[1][1] - SB[0][1] * SB[1][0] == 0


def test_pinv_limit_reference():
    # (Y^tY + eps I)^-1 Y^t at eps -> 0 for the rank-one Y = (1,2,1)^t (1,2): Y^tY = 6 (1,2)^t(1,2) has eigenvalues
    # 30 and 0; on the range the inverse is 1/30, so the limit is (1,2)^t (1,2,1) / 30
    res = run_example("seed003-pinv-limit")
    assert res.data["rank-deficient limit"] == tuple(tuple(F(a * b, 30) for b in (1, 2, 1)) for a in (1, 2))
    assert res.data["limit"][0] == (F(5, 4), F(13, 12), F(3, 4), F(7, 12))


def test_margin_invariance_kkt_by_hand():
    res = run_example("seed004-margin-invariance")
    base = [((0, 0), -1), ((1, 1), 1), ((-1, -1), -1), ((3, 2), 1)]
    variants = [base, base + [((5, 5), 1)], [base[0], base[1], base[3]], base[:3] + [((0, 4), 1)]]
    for r, data in zip(res.runs, variants):
        w, b = r.extras["w"], r.extras["b"]
        assert (w, b) == ((1, 1), -1)
        # KKT by hand: alpha = (1, 1) on (0,0), (1,1) gives w = -1*(0,0)... = (1,1) and sum alpha y = 0; every
        # other sample has y (w.x + b) > 1, so alpha = 0 there is complementary
        margins = [y * (dot((1, 1), x) - 1) for x, y in data]
        assert margins[:2] == [1, 1] and all(m > 1 for m in margins[2:])
