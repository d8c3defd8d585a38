"""Issue 20 item 4: every ``variant="printed"`` is the notes' listing, line by line, by itself.

Each listing is transcribed here independently from the notes' text (quoted with its seed file), in plain
Fractions, and whole runs are compared on generated data: the returned vector, the number of corrections, the
round at which the run ended and whether the listing's own stop fired.  "While there exists" is the first such
sample in cyclic order.  Also issue 20 item 5 (predict_averaged, Run ==, a batch rule's first step) and the
budgets a printed run honours.
"""

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactlin.algorithms.perceptron import perceptron
from exactlin.algorithms.perceptron_family import (
    batch_perceptron,
    batch_pla,
    fixed_increment,
    perceptron_gd,
    pocket,
    variable_increment,
)
from exactlin.algorithms.voted import averaged_perceptron, predict_averaged, predict_voted, voted_perceptron

EPOCHS = 6
#: the representations the rules on the engine's cyclic loop compute in: every listing holds on each
ARITHS = ("fraction", "integer", "flint")


def dot(u, v):
    return sum((F(a) * F(b) for a, b in zip(u, v)), F(0))


def aug(x, bias):
    x = tuple(F(v) for v in x)
    return {"none": x, "first": (F(1),) + x, "last": x + (F(1),)}[bias]


@st.composite
def data(draw, max_n=6):
    n = draw(st.integers(2, max_n))
    X = draw(st.lists(st.tuples(st.integers(-4, 4), st.integers(-4, 4)), min_size=n, max_size=n))
    y = draw(st.lists(st.sampled_from([1, -1]), min_size=n, max_size=n))
    if len(set(y)) < 2:  # both labels present
        y[0] = -y[1]
    return X, y


# ---------------------------------------------------------------------------------------------------------
# seed 004 (004_f7c425a21563e0cd.txt), "Perceptron algorithm":
#   Initialize w = <0, 0, ..., 0>
#   While there exists (x_i, y_i) such that y_i = +1, and <w . x_i> < 0, or y_i = -1, and <w . x_i> > 0
#   Update w to w + x_i


def seed004_listing(X, y, bias, max_rounds):
    """(w, updates, rounds examined, stopped by the while-test)."""
    Xs = [aug(x, bias) for x in X]
    n = len(Xs)
    w = (F(0),) * len(Xs[0])
    pos = rounds = updates = 0
    while True:
        found = None
        for off in range(n):  # the first such sample in cyclic order, from where the last scan stopped
            if rounds == max_rounds:
                return w, updates, rounds, False
            rounds += 1
            j = (pos + off) % n
            s = dot(w, Xs[j])
            if (y[j] == 1 and s < 0) or (y[j] == -1 and s > 0):
                found = j
                break
        if found is None:
            return w, updates, rounds, True
        w = tuple(a + b for a, b in zip(w, Xs[found]))  # w + x_i, as printed
        updates += 1
        pos = (found + 1) % n


@pytest.mark.parametrize("arith", ARITHS)
@settings(max_examples=60)
@given(data(), st.sampled_from(["none", "first", "last"]))
def test_perceptron_printed_is_seed004s_listing(arith, d, bias):
    X, y = d
    r = perceptron(X, y, bias=bias, variant="printed", stop_on_cycle=False, max_epochs=EPOCHS, arithmetic=arith)
    w, updates, rounds, stopped = seed004_listing(X, y, bias, EPOCHS * len(X))
    assert (r.w, r.updates, r.steps) == (w, updates, rounds)
    assert (r.reason in ("converged", "boundary")) == stopped
    assert r.params["strict"] is True  # the listing's test, without being asked for


@pytest.mark.parametrize("arith", ARITHS)
def test_issue20_reproducer_printed_returns_zero_at_once(arith):
    # seed 004 from w = 0: y<w,x> = 0 for both samples, neither "< 0" nor "> 0": the while-test fails at once
    r = perceptron([[3], [-2]], [-1, 1], bias="last", variant="printed", max_epochs=5, arithmetic=arith)
    assert (r.w, r.updates, r.steps, r.reason) == ((0, 0), 0, 2, "boundary")


# ---------------------------------------------------------------------------------------------------------
# seed 003 (003_ffe0ec08819b37d8.txt), Algorithm 4 (Fixed-increment single-sample Perceptron):
#   1 begin initialize a, k = 0
#   2 do k <- (k+1) mod n
#   3 if y_k is misclassified by a then a <- a - y_k
#   4 until all patterns properly classified
# on the normalized samples y_k = z_k x~_k, "misclassified" read as a^t y_k <= 0.


def normalized(X, y, bias):
    return [tuple(zi * v for v in aug(x, bias)) for x, zi in zip(X, y)]


def alg4_listing(Y, max_rounds):
    n = len(Y)
    a = (F(0),) * len(Y[0])
    rounds = updates = 0
    while rounds < max_rounds:
        k = rounds % n  # k <- (k + 1) mod n, the samples 1, 2, ..., n, 1, ...
        rounds += 1
        if dot(a, Y[k]) <= 0:
            a = tuple(p - q for p, q in zip(a, Y[k]))  # a - y_k, as printed
            updates += 1
        if all(dot(a, yk) > 0 for yk in Y):  # until, after the round
            return a, updates, rounds, True
    return a, updates, rounds, False


@pytest.mark.parametrize("arith", ARITHS)
@settings(max_examples=60)
@given(data())
def test_fixed_increment_printed_is_algorithm_4(arith, d):
    X, y = d
    r = fixed_increment(X, y, variant="printed", stop_on_cycle=False, max_epochs=EPOCHS, arithmetic=arith)
    a, updates, rounds, stopped = alg4_listing(normalized(X, y, "first"), EPOCHS * len(X))
    assert (r.w, r.updates, r.steps, r.converged) == (a, updates, rounds, stopped)


# ---------------------------------------------------------------------------------------------------------
# seed 003, Algorithm 5 (Variable increment Perceptron with margin):
#   1 begin initialize a, criterion theta, margin b, eta(.), k = 0
#   2 do k <- k + 1
#   3 if a^t y_k + b < 0 then a <- a - eta(k) y_k
#   4 until a^t y_k + b <= 0 for all k


def alg5_listing(Y, b, eta, a, max_rounds):
    n = len(Y)
    rounds = updates = 0
    while rounds < max_rounds:
        k = rounds % n
        rounds += 1
        if dot(a, Y[k]) + b < 0:
            a = tuple(p - eta * q for p, q in zip(a, Y[k]))
            updates += 1
        if all(dot(a, yk) + b <= 0 for yk in Y):
            return a, updates, rounds, True
    return a, updates, rounds, False


@pytest.mark.parametrize("arith", ARITHS)
@settings(max_examples=60)
@given(data(), st.integers(-2, 2), st.sampled_from([F(1), F(1, 2), F(3)]),
       st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.integers(-3, 3)))
def test_variable_increment_printed_is_algorithm_5(arith, d, b, eta, a0):
    X, y = d
    b = abs(b)  # the table's margin b >= 0
    r = variable_increment(X, y, variant="printed", b=b, eta=eta, a0=a0, stop_on_cycle=False, max_epochs=EPOCHS,
                             arithmetic=arith)
    a, updates, rounds, stopped = alg5_listing(normalized(X, y, "first"), b, eta, tuple(map(F, a0)),
                                               EPOCHS * len(X))
    assert (r.w, r.updates, r.steps, r.reason == "criterion") == (a, updates, rounds, stopped)


@pytest.mark.parametrize("arith", ARITHS)
def test_variable_increment_printed_honours_max_steps(arith):
    # issue 20: b = 1 from a = 0 never corrects and never meets its until-test; the budget max_steps = 40 ends it
    r = variable_increment([(4, 0), (-1, -1), (0, -1), (-2, -2)], [1, 1, 1, 1], variant="printed", a0=(0, 0), b=1,
                           eta=1, max_steps=40, bias="none", arithmetic=arith)
    assert (r.reason, r.steps, r.updates) == ("max_steps", 40, 0)


# ---------------------------------------------------------------------------------------------------------
# seed 001 (001_5ccb68c426482a98.txt), Batch PLA:
#   1. Initialize w ... t = 1, Delta = (0, ..0)
#   2. do  For i = 1, 2, ..., N  if sign(w^T . x_i) != y_i, then Delta <- Delta + y_i x_i
#          Delta <- Delta / N ;  w <- w + alpha Delta
#      while ||Delta||_2 > epsilon


def sign(v):
    return (v > 0) - (v < 0)


def batch_pla_listing(X, y, alpha, eps, iterations):
    Xs = [aug(x, "first") for x in X]
    N = len(Xs)
    w = (F(0),) * len(Xs[0])
    delta = (F(0),) * len(Xs[0])  # once, before the do
    for k in range(1, iterations + 1):
        for x, yi in zip(Xs, y):
            if sign(dot(w, x)) != yi:
                delta = tuple(dd + yi * v for dd, v in zip(delta, x))
        delta = tuple(dd / N for dd in delta)
        w = tuple(a + alpha * dd for a, dd in zip(w, delta))
        if not dot(delta, delta) > eps * eps:
            return w, k, True
    return w, iterations, False


@settings(max_examples=40)
@given(data(), st.sampled_from([F(0), F(1, 10), F(1, 2)]), st.sampled_from([F(1), F(1, 3)]))
def test_batch_pla_printed_is_the_listing(d, eps, alpha):
    X, y = d
    r = batch_pla(X, y, variant="printed", epsilon=eps, alpha=alpha, max_epochs=EPOCHS)
    w, k, stopped = batch_pla_listing(X, y, alpha, eps, EPOCHS)
    assert (r.w, r.epochs, r.reason == "criterion") == (w, k, stopped)


def test_batch_pla_printed_honours_max_steps():
    # Example 1 (seed 000): Delta never reaches 0 (erratum seed001-batch-pla-reset); the batch budget ends it
    r = batch_pla([(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1], variant="printed", max_steps=3)
    assert (r.reason, r.epochs) == ("max_steps", 3)


# ---------------------------------------------------------------------------------------------------------
# seed 001, Pocket Algorithm:
#   2. for t = 1, 2, ..., T
#      Run PLA for one update to obtain w(t+1);  Evaluate E_in(w(t+1))
#      if E_in(w(t+1)) < E_in(w(t)), then w <- w(t+1)
# (PLA: "Receive a x_i for which sign(w^T x) != y_i", the next one in cyclic order)


def pocket_listing(X, y, T):
    Xs = [aug(x, "first") for x in X]
    N = len(Xs)

    def E(w):
        return F(sum(1 for x, yi in zip(Xs, y) if sign(dot(w, x)) != yi), N)

    w_pla = (F(0),) * len(Xs[0])
    kept, prev, pos = w_pla, E(w_pla), 0
    for _ in range(T):
        for off in range(N):
            i = (pos + off) % N
            if sign(dot(w_pla, Xs[i])) != y[i]:
                break
        else:
            return kept
        w_pla = tuple(a + y[i] * v for a, v in zip(w_pla, Xs[i]))
        pos = (i + 1) % N
        if E(w_pla) < prev:
            kept = w_pla
        prev = E(w_pla)
    return kept


@settings(max_examples=40)
@given(data(), st.integers(1, 12))
def test_pocket_printed_is_the_listing(d, T):
    X, y = d
    assert pocket(X, y, T=T, variant="printed").w == pocket_listing(X, y, T)


# ---------------------------------------------------------------------------------------------------------
# seed 002 (002_c246c20bba6fa4e1.txt), gradient descent on R(w):
#   1) arbitrary w != 0 (good choice is any y_i x_i)
#   2) while R(w) > 0:  V = set of indices i s.t. y_i x_i . w < 0;  w = w + xi sum_{i in V} y_i x_i
#   3) return w


def gd_listing(X, y, xi, iterations):
    Y = normalized(X, y, "last")
    w = Y[0]
    for _ in range(iterations):
        V = [i for i, z in enumerate(Y) if dot(z, w) < 0]
        if not V:  # R(w) = 0
            return w, True
        w = tuple(a + xi * sum((Y[i][j] for i in V), F(0)) for j, a in enumerate(w))
    return w, not [i for i, z in enumerate(Y) if dot(z, w) < 0]


@settings(max_examples=40)
@given(data(), st.sampled_from([F(1), F(1, 2)]))
def test_perceptron_gd_printed_is_the_listing(d, xi):
    X, y = d
    # the listing starts from y_1 x~_1, never 0 with the bias entry (bias last, seed 002's convention)
    r = perceptron_gd(X, y, variant="printed", xi=xi, stop_on_cycle=False, max_epochs=EPOCHS)
    w, stopped = gd_listing(X, y, xi, EPOCHS)
    assert (r.w, r.reason == "criterion") == (w, stopped)


# ---------------------------------------------------------------------------------------------------------
# issue 20 item 5


EX1_X, EX1_Y = [(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1]
POINTS = [(1, 0), (2, 5), (1, 3), (0, -1), (-1, 0)]


@pytest.mark.parametrize("arith", ARITHS)
def test_predict_averaged_answers_for_the_averaged_rule_on_a_voted_run(arith):
    # seed 000, Example 1 after one epoch: (w_m, c_m) = (0,0)1, (4,0)1, (3,-1)2, (1,-3)1.
    # averaged vector 0 + (4,0) + 2(3,-1) + (1,-3) = (11,-5): scores 11, -3, -4, 5, -11 -> (1,-1,-1,1,-1)
    # voted at (1,3): sign(4) + 2 sign(0) + sign(-8) = 0; at (2,5): 1 + 2 sign(1) + sign(-13) = 2 -> 1
    voted = voted_perceptron(EX1_X, EX1_Y, max_epochs=1, arithmetic=arith)
    avg = averaged_perceptron(EX1_X, EX1_Y, max_epochs=1, arithmetic=arith)
    assert tuple(predict_averaged(voted, p) for p in POINTS) == (1, -1, -1, 1, -1)
    assert tuple(predict_averaged(avg, p) for p in POINTS) == (1, -1, -1, 1, -1)
    assert tuple(predict_voted(voted, p) for p in POINTS) == (1, 1, 0, 1, -1)


@pytest.mark.parametrize("arith", ARITHS)
def test_run_equality_compares_types(arith):
    import dataclasses

    r = perceptron(EX1_X, EX1_Y, arithmetic=arith)
    assert r == dataclasses.replace(r)
    assert r != dataclasses.replace(r, converged=1)
    assert r != dataclasses.replace(r, updates=float(r.updates))
    assert r != dataclasses.replace(r, params={**r.params, "eta": 1.0})
    assert r != dataclasses.replace(r, params={**r.params, "eta": 1})  # Fraction(1) is not the int 1 either


def test_batch_rule_whose_first_step_separates_converges_within_max_epochs_1():
    # Algorithm 3 on Example 1 (bias first, normalized, a = 0): every a^t y = 0 <= 0, so a(2) = sum y =
    # (1,4,0)+(-1,-1,-1)+(-1,0,-1)+(1,-2,-2) = (0,1,-4), whose scores 4, 3, 4, 6 are all > 0: a separator
    r = batch_perceptron(EX1_X, EX1_Y, max_epochs=1)
    assert (r.w, r.reason, r.converged, r.epochs) == ((0, 1, -4), "converged", True, 1)
    r = batch_pla(EX1_X, EX1_Y, max_epochs=1)  # the same sum divided by N = 4
    assert (r.w, r.reason) == ((0, F(1, 4), -1), "converged")
    # Algorithm 8 (b = 1, eta = 1) on (1,1), (1,-1), both +1, no bias, a = 0: both scores 0 < 1, a(2) =
    # (1 - 0)/2 (1,1) + (1 - 0)/2 (1,-1) = (1,0), whose scores 1, 1 >= b: Y_2 would be empty
    from exactlin.algorithms.relaxation import batch_relaxation

    r = batch_relaxation([(1, 1), (1, -1)], [1, 1], bias="none", max_epochs=1)
    assert (r.w, r.reason, r.epochs) == ((1, 0), "converged", 1)


# ---------------------------------------------------------------------------------------------------------
# seed 003, Algorithm 11 (Ho-Kashyap), as listed:
#   begin initialize a, b, eta(.) < 1, criteria b_min, k_max
#     do k <- k+1;  e <- Ya - b;  e+ <- 1/2(e + Abs[e]);  b <- a + 2 eta(k) e+;  a <- Y^dagger b
#        if Abs[e] <= b_min then return a, b and exit
#     until k = k_max
#   Print NO SOLUTION FOUND
# (a(1) = Y^dagger b(1) as the notes' a(k) = Y^dagger b(k); b(1) = 1; defined only when n = d: b and a are
# added.)  Y^dagger from sympy's own pinv, not exactlin's.


def hk_listing(Y, eta, b_min, k_max):
    import sympy

    Yp = sympy.Matrix(Y).pinv()
    Yp = [[F(int(sympy.fraction(v)[0]), int(sympy.fraction(v)[1])) for v in Yp.row(i)] for i in range(Yp.rows)]
    b = (F(1),) * len(Y)
    a = tuple(dot(row, b) for row in Yp)
    for k in range(1, k_max + 1):
        e = tuple(dot(yr, a) - bi for yr, bi in zip(Y, b))
        e_plus = tuple((v + abs(v)) / 2 for v in e)
        b = tuple(ai + 2 * eta * ep for ai, ep in zip(a, e_plus))
        a = tuple(dot(row, b) for row in Yp)
        if all(abs(v) <= b_min for v in e):
            return a, b, k, True
    return a, b, k_max, False


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), min_size=3, max_size=3),
       st.lists(st.sampled_from([1, -1]), min_size=3, max_size=3), st.sampled_from([F(0), F(1, 2)]),
       st.booleans())
def test_ho_kashyap_printed_is_algorithm_11(X, y, b_min, collinear):
    from exactlin.algorithms.ho_kashyap import ho_kashyap

    if collinear:  # a singular Y (three collinear points): e != 0 and the listing really iterates
        X = [X[0], X[1], tuple(2 * p - q for p, q in zip(X[1], X[0]))]
    r = ho_kashyap(X, y, variant="printed", b_min=b_min, k_max=8, eta=F(1, 2))
    a, b, k, stopped = hk_listing(normalized(X, y, "first"), F(1, 2), b_min, 8)
    assert (r.w, r.extras["b"], r.steps, r.reason == "criterion") == (a, b, k, stopped)


def test_ho_kashyap_printed_by_itself_uses_the_listings_stop():
    from exactlin.algorithms.ho_kashyap import ho_kashyap

    # Y = ((1, 2), (0, 1)) square, b(1) = (1, 1), a(1) = Y^{-1} b = (-1, 1), e(1) = 0: line 5 gives
    # b(2) = a(1) = (-1, 1), a(2) = Y^{-1} b(2) = (-3, 1), and line 7 (|e| = 0 <= b_min = 0) returns them
    r = ho_kashyap([(1, 2), (0, 1)], [1, 1], bias="none", variant="printed")
    assert (r.w, r.extras["b"], r.steps, r.reason, r.params["stop"]) == ((-3, 1), (-1, 1), 1, "criterion", "b_min")
