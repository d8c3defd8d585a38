"""Exercises with answer keys (exactlin.lectures.exercises): determinism by seed, the readability bounds on 200
seeds per algorithm, and every answer key recomputed by a small Fraction reference written here."""

import subprocess
import sys
from fractions import Fraction as F

import pytest

from exactlin.errors import ExactlinError, ParameterError
from exactlin.lectures.exercises import EXERCISES, GENERATOR_ID, ExRandom, exercise_doc, generate
from exactlin.render.explain import render

SEEDS = range(200)


# ----------------------------------------------------------------------------- references (independent, in Fractions)
def dot(u, v):
    return sum((F(a) * F(b) for a, b in zip(u, v)), F(0))


def aug(x, bias):
    return {"none": tuple(x), "first": (1,) + tuple(x)}[bias]


def ref_single_sample(X, y, bias):
    """The perceptron of seed 000 / Algorithm 4 from 0: cyclic, mistake iff y<w,x> <= 0, w += y x."""
    w = [F(0)] * len(aug(X[0], bias))
    K, clean = 0, 0
    i = 0
    ws = []
    while clean < len(X):
        z = [y[i] * v for v in aug(X[i], bias)]
        if dot(w, z) <= 0:
            w = [a + b for a, b in zip(w, z)]
            ws.append(tuple(w))
            K, clean = K + 1, 0
        else:
            clean += 1
        i = (i + 1) % len(X)
    return tuple(w), K, ws


def ref_batch(X, y):
    a = [F(0)] * (len(X[0]) + 1)
    its, ws = 0, []
    while True:
        Z = [[yi * v for v in aug(x, "first")] for x, yi in zip(X, y)]
        wrong = [z for z in Z if dot(a, z) <= 0]
        if not wrong:
            return tuple(a), its, ws
        a = [p + sum(z[j] for z in wrong) for j, p in enumerate(a)]
        its += 1
        ws.append(tuple(a))


def solve(A, b):
    n = len(A)
    m = [[F(v) for v in r] + [F(c)] for r, c in zip(A, b)]
    for c in range(n):
        p = next(r for r in range(c, n) if m[r][c] != 0)
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [u - f * v for u, v in zip(m[r], m[c])]
    return tuple(m[r][n] / m[r][r] for r in range(n))


def ref_mse(Z, b):
    d = len(Z[0])
    return solve([[sum(F(r[i]) * r[j] for r in Z) for j in range(d)] for i in range(d)],
                 [sum(F(r[i]) * bi for r, bi in zip(Z, b)) for i in range(d)])


def normalized(X, y):
    return [tuple(yi * v for v in aug(x, "first")) for x, yi in zip(X, y)]


def small(v, num, den):
    if isinstance(v, (tuple, list)) or (hasattr(v, "__iter__") and not isinstance(v, str)):
        return all(small(x, num, den) for x in v)
    q = F(v)
    return abs(q.numerator) <= num and q.denominator <= den


# ----------------------------------------------------------------------------- the checks per algorithm
def check_perceptron(ex, bias):
    w, K, ws = ref_single_sample(ex.X, ex.y, bias)
    assert tuple(ex.run.w) == w and ex.run.updates == K
    assert 3 <= K <= 6 and small(ws, 12, 1)  # the readability bounds
    mistakes = [tuple(s.w_after) for s in ex.run.trace if s.update]
    assert mistakes == ws


def ref_threshold_unit(X, t):
    """Mitchell's rule (1997, 4.4.2) from w = 0: o = 1 iff w.(1, x) >= 0, w += (t - o)(1, x), cyclically."""
    w = [F(0)] * (len(X[0]) + 1)
    K, clean, i, ws = 0, 0, 0, []
    while clean < len(X):
        xt = aug(X[i], "first")
        o = 1 if dot(w, xt) >= 0 else 0
        if o != t[i]:
            w = [a + (t[i] - o) * v for a, v in zip(w, xt)]
            ws.append(tuple(w))
            K, clean = K + 1, 0
        else:
            clean += 1
        i = (i + 1) % len(X)
    return tuple(w), K, ws


def check_threshold_unit(ex):
    assert set(ex.y) == {0, 1}  # 0/1 targets, both present
    w, K, ws = ref_threshold_unit(ex.X, ex.y)
    assert tuple(ex.run.w) == w and ex.run.updates == K and 2 <= K <= 6 and small(ws, 12, 1)
    assert ex.run.predict(ex.X) == tuple(ex.y)  # the data's own 0/1 labels


def check_batch(ex):
    a, its, ws = ref_batch(ex.X, ex.y)
    assert tuple(ex.run.w) == a and 2 <= its <= 4 and small(ws, 20, 1)


def check_mse(ex):
    Z = normalized(ex.X, ex.y)
    a = ref_mse(Z, [1] * len(Z))
    assert tuple(ex.run.w) == a
    assert small(a, 99, 99) and small(ex.run.extras["Y_pinv"], 99, 99)
    # Y^+ b = a for b = 1, and Y^+ Y = I (full column rank)
    P = ex.run.extras["Y_pinv"]
    d = len(Z[0])
    assert all(sum((F(P[i][k]) * Z[k][j] for k in range(len(Z))), F(0)) == (i == j) for i in range(d) for j in range(d))


def check_lms(ex):
    a = [F(0)] * (len(ex.X[0]) + 1)
    for k in range(1, len(ex.X) + 1):  # eta(k) = 1/k, b = 1, one pass
        z = [ex.y[k - 1] * v for v in aug(ex.X[k - 1], "first")]
        a = [p + F(1, k) * (1 - dot(a, z)) * q for p, q in zip(a, z)]
        assert tuple(ex.run.trace[k - 1].w_after) == tuple(a)
        assert small(a, 99, 99)
    assert tuple(ex.run.w) == tuple(a)


def check_hk(ex):
    Z = normalized(ex.X, ex.y)
    b = [F(1)] * len(Z)
    for k in range(3):
        updates = k
        a = ref_mse(Z, b)
        Ya = [dot(r, a) for r in Z]
        e = [u - v for u, v in zip(Ya, b)]
        if all(v > 0 for v in Ya):
            verdict = "separable"
            break
        if all(v <= 0 for v in e) and any(e):
            verdict = "not_separable"
            break
        b = [bi + (v + abs(v)) / 2 for bi, v in zip(b, e)]  # b + 2 eta e+ with eta = 1/2
    else:
        pytest.fail("reference Ho-Kashyap needed more than 2 updates")
    assert 1 <= updates <= 2  # 2 or 3 iterations
    assert ex.run.extras["verdict"] == verdict and tuple(ex.run.w) == a and ex.run.updates == updates


def check_fisher(ex):
    P = [x for x, c in zip(ex.X, ex.y) if c == 1]
    N = [x for x, c in zip(ex.X, ex.y) if c == -1]
    d = len(ex.X[0])
    m1 = [sum(F(p[j]) for p in P) / len(P) for j in range(d)]
    m2 = [sum(F(p[j]) for p in N) / len(N) for j in range(d)]
    SW = [[sum((p[a] - m[a]) * (p[c] - m[c]) for S, m in ((P, m1), (N, m2)) for p in S) for c in range(d)]
          for a in range(d)]
    w = solve(SW, [u - v for u, v in zip(m1, m2)])
    assert tuple(ex.run.w) == w and small(w, 12, 4)
    assert ex.run.extras["y0"] == (dot(w, m1) + dot(w, m2)) / 2


def check_linear_machine(ex):
    classes = sorted(set(ex.y))
    d = len(ex.X[0]) + 1
    W = {c: [F(0)] * d for c in classes}
    K, clean, i = 0, 0, 0
    while clean < len(ex.X):
        x, c = aug(ex.X[i], "first"), ex.y[i]
        g = {o: dot(W[o], x) for o in classes}
        rivals = [o for o in classes if o != c and g[o] >= g[c]]
        if rivals:
            top = max(g[o] for o in rivals)
            j = next(o for o in classes if o in rivals and g[o] == top)  # the first rival with the top score
            W[c] = [u + v for u, v in zip(W[c], x)]
            W[j] = [u - v for u, v in zip(W[j], x)]
            K, clean = K + 1, 0
        else:
            clean += 1
        i = (i + 1) % len(ex.X)
    assert ex.run.updates == K and 3 <= K <= 6
    assert [tuple(w) for w in ex.run.extras["W"]] == [tuple(W[c]) for c in ex.run.extras["classes"]]


def check_separable(ex):
    Z = normalized(ex.X, ex.y)
    lam = [F(v) for v in ex.run.extras["certificate"]["lambda"]]
    assert all(v >= 0 for v in lam) and sum(lam) == 1
    assert all(sum(lam[i] * Z[i][j] for i in range(len(Z))) == 0 for j in range(len(Z[0])))
    assert small(lam, 12, 12)


def check_svm(ex):
    w, b, al = ex.run.extras["w"], ex.run.extras["b"], [F(a) for a in ex.run.extras["alpha"]]
    X, y = ex.X, ex.y
    g = [yi * (dot(w, x) + b) for x, yi in zip(X, y)]
    assert all(v >= 1 for v in g)
    sv = [i for i, a in enumerate(al) if a > 0]
    assert 2 <= len(sv) <= 3 and all(g[i] == 1 for i in sv)
    assert all(a >= 0 for a in al) and sum(a * yi for a, yi in zip(al, y)) == 0
    assert tuple(sum(a * yi * x[j] for a, yi, x in zip(al, y, X)) for j in range(len(w))) == tuple(w)
    # KKT with alpha >= 0, the constraints and complementary slackness: optimal (convex QP); margin^2 = 1/||w||^2
    assert ex.run.extras["margin_squared"] == 1 / dot(w, w) and small(ex.run.extras["margin_squared"], 99, 99)


CHECKS = {
    "perceptron": lambda ex: check_perceptron(ex, "none"),
    "fixed-increment": lambda ex: check_perceptron(ex, "first"),
    "threshold-unit": check_threshold_unit,
    "batch-perceptron": check_batch,
    "mse": check_mse,
    "lms": check_lms,
    "ho-kashyap": check_hk,
    "fisher": check_fisher,
    "linear-machine": check_linear_machine,
    "separable": check_separable,
    "svm-hard": check_svm,
}


def test_every_exercise_has_a_reference_check():
    assert set(CHECKS) == set(EXERCISES)


@pytest.mark.parametrize("algorithm", sorted(CHECKS))
def test_bounds_and_answer_keys_on_200_seeds(algorithm):
    for seed in SEEDS:
        ex = generate(algorithm, seed=seed)
        assert ex.ok, (algorithm, seed)
        assert all(ok for _, ok in ex.checks)
        assert all(isinstance(v, int) for x in ex.X for v in x)  # small integers
        assert all(abs(v) <= 3 for x in ex.X for v in x)
        CHECKS[algorithm](ex)


@pytest.mark.parametrize("algorithm", sorted(CHECKS))
@pytest.mark.parametrize("difficulty", ["medium", "hard"])
def test_other_difficulties(algorithm, difficulty):
    for seed in range(3):
        ex = generate(algorithm, seed=seed, difficulty=difficulty)
        CHECKS[algorithm](ex)


def test_same_seed_same_bytes_different_seeds_differ():
    a = render(exercise_doc(generate("perceptron", seed=7), answers=True), "markdown")
    b = render(exercise_doc(generate("perceptron", seed=7), answers=True), "markdown")
    c = render(exercise_doc(generate("perceptron", seed=8), answers=True), "markdown")
    assert a == b and a != c
    assert GENERATOR_ID in a and "seed 7" in a


def test_same_bytes_in_a_subprocess():
    code = ("import sys; from exactlin.cli.exercise import exercise_output as o; "
            "sys.stdout.write(o('fisher', seed=11, fmt='latex', answers=True))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    from exactlin.cli.exercise import exercise_output

    assert out == exercise_output("fisher", seed=11, fmt="latex", answers=True)


def test_generator_draws_only_from_random():
    # ExRandom's integers are floor(u m) for the guaranteed random() sequence: recomputed here
    import random

    r, g = random.Random(5), ExRandom(5)
    for m in (2, 7, 13):
        assert g.below(m) == int(r.random() * m)
    assert [ExRandom(3).integer(-3, 3) for _ in range(1)] == [ExRandom(3).integer(-3, 3)]


def test_size_option():
    ex = generate("perceptron", seed=1, size=(5, 3))
    assert len(ex.X) == 5 and all(len(x) == 3 for x in ex.X)


def test_bad_input():
    with pytest.raises(ParameterError, match="no exercise for algorithm 'pocket'"):
        generate("pocket")
    with pytest.raises(ParameterError, match="difficulty 'extreme'"):
        generate("mse", difficulty="extreme")
    with pytest.raises(ParameterError, match="size 1x2"):
        generate("mse", size=(1, 2))
    with pytest.raises(ExactlinError, match="seed -1"):
        generate("mse", seed=-1)


def test_answers_section_separate():
    ex = generate("separable", seed=2)
    q = render(exercise_doc(ex), "markdown")
    qa = render(exercise_doc(ex, answers=True), "markdown")
    assert "Answer key" not in q and qa.startswith(q.rstrip("\n")) and "## Answer key" in qa
    assert "Gordan" in qa and "not linearly separable" in qa


def test_instructors_page_matches_the_command_byte_for_byte():
    import re
    from pathlib import Path

    from exactlin.cli.exercise import exercise_output

    page = (Path(__file__).resolve().parents[2] / "docs" / "instructors.md").read_text()
    blocks = re.findall(r"<!-- exactlin exercise (\S+) --seed (\d+) --answers -->\n(.*?)<!-- end -->", page, re.S)
    assert len(blocks) == 2
    for algorithm, seed, text in blocks:
        assert text == exercise_output(algorithm, seed=int(seed), answers=True)


# ----------------------------------------------------------------------------- answer keys an instructor hands out
#: what a key must not show: internal parameters and budgets, the reason texts of other families, counters that
#: mean nothing for a closed-form answer, a kernel's settings under the linear kernel, the notes by seed number
KEY_FORBIDDEN = ("max_updates", "max_steps", "max_epochs", "stop_on_cycle", "variant", "corrected", "tightest",
                 "exact_only", "monitor", "(Ho-Kashyap)", "(one-vs-rest)", "(single-sample rules)",
                 "Updates K = 0", "passes 0", "degree", "coef0", "seed 00", "Seed 00", "No iteration")


@pytest.mark.parametrize("algorithm", sorted(EXERCISES))
def test_answer_keys_hold_no_internals(algorithm):
    for seed in range(3):
        ex = generate(algorithm, seed=seed)
        key = render(exercise_doc(ex, answers=True), "markdown")
        key = key.replace(f"seed {seed}, difficulty", "")  # the exercise's own --seed, printed in its header
        found = [w for w in KEY_FORBIDDEN if w in key]
        assert not found, (algorithm, seed, found)


#: the exercises whose rule is the shared cyclic loop: their statement names its stop rule, n clean rounds in a row
CYCLIC = ("perceptron", "fixed-increment", "threshold-unit", "linear-machine")


@pytest.mark.parametrize("algorithm", CYCLIC)
def test_the_statement_states_the_stop_rule_the_key_follows(algorithm):
    for seed in range(10):
        ex = generate(algorithm, seed=seed)
        q = render(exercise_doc(ex), "markdown")
        n = len(ex.X)
        assert f"Stop as soon as $n = {n}$ rounds in a row make no" in q
        assert "full pass" not in q
        # the key's trace: the run ends with exactly n steps without an update, right after the last update
        flags = [s.update for s in ex.run.trace]
        assert flags[-n:] == [False] * n and (len(flags) == n or flags[-n - 1])
        key = render(exercise_doc(ex, answers=True), "markdown")
        last = ex.run.trace[-1].k
        assert f"Steps {last - n + 1} to {last}, the last {n} in a row, made no mistake" in key


def test_the_svm_key_derives_its_answer():
    ex = generate("svm-hard", seed=1)
    assert ex.X == [(2, 0), (2, 1), (-1, 0), (2, 2)] and ex.y == [-1, 1, 1, 1]
    key = render(exercise_doc(ex, answers=True), "markdown")
    # by hand: on S = {1, 2, 3} the constraints are equations: -(2 w1 + b) = 1, 2 w1 + w2 + b = 1, -w1 + b = 1, so
    # w2 = 2, w1 = -2/3, b = 1/3; w = sum alpha_i y_i x_i with sum alpha_i y_i = 0 gives alpha = (20/9, 2, 2/9);
    # ||w||^2 = 4/9 + 4 = 40/9; sample 4: (2,2) scores -4/3 + 4 + 1/3 = 3 > 1
    assert "Active set" in key and "$S = \\{1, 2, 3\\}$" in key
    assert "\\begin{pmatrix} 4 & -4 & 2 & -1 \\\\ -4 & 5 & -2 & 1 \\\\ 2 & -2 & 1 & 1 \\\\ -1 & 1 & 1 & 0 " \
           "\\end{pmatrix}" in key  # y_i y_j <x_i, x_j> and y_i, then the row sum_j alpha_j y_j = 0
    assert ("$\\alpha_{1} = \\frac{20}{9}$, $\\alpha_{2} = 2$, $\\alpha_{3} = \\frac{2}{9}$, $b = \\frac{1}{3}$"
            in key)
    assert "= (-\\frac{2}{3}, 2)$" in key and "$\\lVert w\\rVert^2 = \\frac{40}{9}$" in key
    assert "| 4 | $1$ | $3$ | > 1 |" in key and "Every KKT condition holds" in key
    # w once, as its feature part, next to b: never the augmented (b, w) beside b again
    assert "- $w = (-\\frac{2}{3}, 2)$ (the feature weights)" in key and "(\\frac{1}{3}, -\\frac{2}{3}, 2)" not in key


def test_keys_name_the_notes_by_title_and_state_only_the_exercise_parameters():
    key = render(exercise_doc(generate("perceptron", seed=3), answers=True), "markdown")
    assert "lecture notes: The perceptron and its convergence proof" in key
    assert "Parameters: $\\eta = 1$." in key
    hk = render(exercise_doc(generate("ho-kashyap", seed=1), answers=True), "markdown")
    assert "Parameters: $\\eta = \\frac{1}{2}$." in hk and "k_max" not in hk


def test_the_fisher_key_checks_samples_against_its_threshold():
    ex = generate("fisher", seed=1)
    assert ex.X == [(-1, 0), (-1, -1), (-3, 3), (-2, 1)] and ex.y == [1, 1, -1, -1]
    key = render(exercise_doc(ex, answers=True), "markdown")
    # by hand: w = (5, 1), y_0 = -8; g = w^t x - y_0 = -5 + 8 = 3, -6 + 8 = 2, -12 + 8 = -4, -9 + 8 = -1
    assert "- $w = (5, 1)$" in key and "- $y_0 = -8$" in key
    assert "| 1 | $3$ | $3$ | correct |" in key and "| 4 | $-1$ | $1$ | correct |" in key
    assert "WRONG" not in key and "4 of 4 samples on the correct side" in key
