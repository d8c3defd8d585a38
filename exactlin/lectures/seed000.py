"""Seed 000 (perceptron, its convergence proof, voted/averaged perceptron): the exercises answered, the final
w as a sum of mistakes, and the errata of the proof and its notation.

Expected values are the notes' printed numbers ("lecture"), hand derivations written in the comments, or
values computed inside the example by a method other than the algorithm under test ("independent: ...").
"""

from __future__ import annotations

from fractions import Fraction as F

from exactlin.algorithms.perceptron import perceptron
from exactlin.algorithms.voted import averaged_perceptron, predict_averaged, predict_voted, voted_perceptron
from exactlin.lectures.errata import erratum
from exactlin.lectures.examples import Check, ExampleResult, example
from exactlin.lectures.notes import EX1_X, EX1_Y, SEED000
from exactlin.lectures.notes import dot as _dot
from exactlin.lectures.notes import sign as _sign
from exactlin.lectures.notes import value_text as _fmt


@example("seed000-exercise-repeat-mistake", title="Exercise 1: can w_(t+1) still make a mistake on (x_t, y_t)? "
         "Yes: round 2 of Example 1", seed=SEED000, algorithm="perceptron")
def exercise_repeat_mistake() -> ExampleResult:
    run = perceptron(EX1_X, EX1_Y, trace=True)
    mistakes = [s for s in run.trace if s.update]
    after = [EX1_Y[s.i] * _dot(s.w_after, EX1_X[s.i]) for s in mistakes]
    # Hand derivation: y<w + y x, x> = y<w, x> + y^2 ||x||^2 = y<w, x> + ||x||^2, so w_(t+1) still errs on x_t
    # iff y_t<w_t, x_t> <= -||x_t||^2.  Round 2: y_2<w_2, x_2> = -<(4,0),(1,1)> = -4 and ||x_2||^2 = 2, so
    # y_2<w_3, x_2> = -4 + 2 = -2 <= 0: still a mistake (w_3 = (3,-1), <w_3, x_2> = 2 > 0 but y_2 = -1).
    # Round 1: 0 + 16 = 16 > 0; round 4: y_4<w_4, x_4> = <(3,-1),(-2,-2)> = -4, ||x_4||^2 = 8: -4 + 8 = 4 > 0.
    checks = [
        Check("the notes' round 2: w_3 = (3,-1)", (F(3), F(-1)), mistakes[1].w_after),
        Check("y_2<w_2,x_2> = -4 before the update", F(-4), mistakes[1].score, "hand derivation"),
        Check("y_2<w_3,x_2> = -4 + ||x_2||^2 = -2 after it: w_3 still misclassifies x_2", F(-2), after[1],
              "hand derivation"),
        Check("y_t<w_(t+1),x_t> at the three mistakes (rounds 1, 2, 4): 16, -2, 4", [F(16), F(-2), F(4)], after,
              "hand derivation"),
        Check("identity y<w_(t+1),x_t> = y<w_t,x_t> + ||x_t||^2 at every mistake", True,
              all(a == s.score + _dot(EX1_X[s.i], EX1_X[s.i]) for a, s in zip(after, mistakes)),
              "independent: recomputed from the trace with exact dot products"),
    ]
    return ExampleResult([run], checks, notes=[
        "Yes. An update adds ||x_t||^2 to y_t<w,x_t>; if the score was below -||x_t||^2 it stays <= 0. In "
        "Example 1, round 2 leaves w_3 = (3,-1) with y_2<w_3,x_2> = -2; round 4's update (w_5 = (1,-3)) happens "
        "to fix x_2 too (y_2<w_5,x_2> = 2)."])


@example("seed000-exercise-voted-boundary", title="Exercise 2: the averaged boundary is a hyperplane, the voted "
         "one need not be", seed=SEED000, algorithm="voted-perceptron")
def exercise_voted_boundary() -> ExampleResult:
    voted = voted_perceptron(EX1_X, EX1_Y, max_epochs=1)
    avg = averaged_perceptron(EX1_X, EX1_Y, max_epochs=1)
    # Hand derivation on Example 1 after one pass (w, c) = (0,1), ((4,0),1), ((3,-1),2), ((1,-3),1):
    #   averaged: sign<(11,-5), x>, the hyperplane 11 x1 - 5 x2 = 0 (linear in x, so always a hyperplane).
    #   voted: s1 = sign(x1), s2 = sign(3x1 - x2), s3 = sign(x1 - 3x2); vote = s1 + 2 s2 + s3.  In each of the six
    #   sectors cut by the three lines the vote is +4, +2, -2, -4, -2, +2 (going round), positive exactly when
    #   3x1 - x2 > 0: here the voted boundary happens to be the hyperplane 3x1 = x2 (w_3 has c = 2), a different
    #   one.  x = (2,5): vote 1 + 2*1 - 1 = 2 -> +1, averaged 22 - 25 = -3 -> -1.
    # In general it is no hyperplane: the notes' "c_1 = c_2 = c_3 = 1" (majority) with w = (2,0), (-1,2),
    # (-1,-2): (1,1) gets +,+,- -> +1; (1,-1) gets +,-,+ -> +1; their midpoint (1,0) gets +,-,- -> -1, so the
    # +1 region is not convex (a half-space is).
    W3 = [(2, 0), (-1, 2), (-1, -2)]

    def majority(x):
        return _sign(sum(_sign(_dot(w, x)) for w in W3))

    probe = [(1, 1), (1, -1), (1, 0)]
    checks = [
        Check("averaged vector (11,-5): boundary 11 x1 - 5 x2 = 0", (F(11), F(-5)), avg.w, "hand derivation"),
        Check("voted rule on x = (1,0), (0,1), (1,2), (1,4): +1, -1, +1, -1 (3x1 - x2 = 3, -1, 1, -1)",
              [1, -1, 1, -1], [predict_voted(voted, x) for x in [(1, 0), (0, 1), (1, 2), (1, 4)]],
              "hand derivation"),
        Check("x = (2,5): voted +1, averaged -1 (different boundaries)", (1, -1),
              (predict_voted(voted, (2, 5)), predict_averaged(avg, (2, 5))), "hand derivation"),
        Check("majority of w = (2,0), (-1,2), (-1,-2) on (1,1), (1,-1), (1,0): +1, +1, -1 (not convex)",
              [1, 1, -1], [majority(x) for x in probe], "hand derivation"),
    ]
    return ExampleResult([voted, avg], checks, notes=[
        "Averaged: sign<sum c_i w_i, x> is linear in x, so its boundary is always a hyperplane. Voted: a weighted "
        "majority of half-spaces; on Example 1 it is the half-plane 3x1 > x2 (w_3 = (3,-1) outvotes the rest), "
        "but with three equal votes the +1 region can be non-convex, so in general no hyperplane."])


@example("seed000-sum-of-mistakes", title="The final w is eta times the sum of y_i x_i over the mistakes (seeds 000, "
         "004)", seed=SEED000, algorithm="perceptron")
def sum_of_mistakes() -> ExampleResult:
    runs, checks = [], []
    # Hand derivation for Example 1: mistakes on samples 1, 2, 4 (0-based 0, 1, 3):
    #   (4,0) - (1,1) + (-2,-2) = (1,-3); seed 004's "final w = sum_i n_i x_i" with signed counts n = (1,-1,0,1).
    for eta, bias, expected in ((F(1), "none", (F(1), F(-3))), (F(1, 2), "none", (F(1, 2), F(-3, 2))),
                                (F(1), "first", None)):
        run = perceptron(EX1_X, EX1_Y, eta=eta, bias=bias, trace=True)
        runs.append(run)
        Z = [tuple(F(yi) * v for v in ((1, *x) if bias == "first" else x)) for x, yi in zip(EX1_X, EX1_Y)]
        total = tuple(sum((eta * Z[s.i][t] for s in run.trace if s.update), F(0)) for t in range(len(Z[0])))
        checks.append(Check(f"eta = {eta}, bias {bias}: w = eta sum over the mistakes of y_i x_i", total, run.w,
                            "independent: summed from the run's mistake list"))
        if expected is not None:
            checks.append(Check(f"eta = {eta}: w = {_fmt(expected)}", expected, run.w, "hand derivation"))
    counts = [sum(1 for s in runs[0].trace if s.update and s.i == i) for i in range(4)]
    checks.append(Check("signed counts n_i = y_i * (number of mistakes on i) = (1, -1, 0, 1)", [1, -1, 0, 1],
                        [c * yi for c, yi in zip(counts, EX1_Y)], "hand derivation"))
    return ExampleResult(runs, checks, notes=[
        "Every update adds eta y_i x_i, so w = eta sum_i m_i y_i x_i with m_i the mistakes on sample i; seed 004's "
        "'sum_i n_i x_i' holds with n_i = m_i y_i (signed), not with the counts themselves."])


# ---------------------------------------------------------------------------
# errata


@erratum("seed000-fact1-conclusion", seed=SEED000, where="Convergence proof, Fact 1",
         notes_say='"<w_t + y_t x_t, w*> = <w_t, w*> + y_t <x_t, w*> [brace: >= gamma] >= gamma"',
         correct="y_t <x_t, w*> >= gamma (the label belongs under the brace: <x_t, w*> itself is <= -gamma on a "
                 "negative sample), and the conclusion is >= <w_t, w*> + gamma, as Fact 1 states; the printed "
                 "'>= gamma' alone does not give <w_(K+1), w*> >= gamma K")
def _e_fact1():
    # Example 1 with the separator u = (1,-3) (||u||^2 = 10); everything is scaled by ||u||, so gamma ||u|| =
    # min y_i<x_i, u> = 2 stays rational.  Mistakes at x_1, x_2, x_4: <x, u> = 4, -2, 4 (x_2 is negative).
    u = (F(1), F(-3))
    g = min(F(yi) * _dot(x, u) for x, yi in zip(EX1_X, EX1_Y))
    run = perceptron(EX1_X, EX1_Y, trace=True)
    mistakes = [s for s in run.trace if s.update]
    brace = [_dot(EX1_X[s.i], u) for s in mistakes]
    proj = [_dot(s.w_after, u) for s in mistakes]
    holds = (g == 2 and brace == [4, -2, 4] and proj == [4, 6, 10]
             and all(p >= g * (k + 1) for k, p in enumerate(proj)) and min(brace) < 0)
    return {"holds": holds,
            "text": f"Example 1, w* = (1,-3)/sqrt(10) (values times sqrt(10)): gamma = {_fmt(g)}; at the mistakes "
                    f"<x_t, w*> = {_fmt(brace)} (negative on x_2, so the brace without y_t is false); "
                    f"<w_(t+1), w*> = {_fmt(proj)} >= gamma K = 2, 4, 6 -- the induction needs the "
                    "increment form <w_t, w*> + gamma",
            "<x_t, w*> at mistakes": brace, "<w_(t+1), w*>": proj, "gamma": g}


@erratum("seed000-theorem-unit-norm", seed=SEED000, where="Theorem (mistake bound 1/gamma^2), applied to the "
         "examples", notes_say='"if ||x_i|| <= 1 for all i ... perceptron makes <= 1/gamma^2 mistakes"',
         correct="the hypothesis ||x_i|| <= 1 is essential and the notes' own data violate it (||(4,0)|| = 4): "
                 "for general data the bound is R^2/gamma^2 (R = max ||x_i||, seed 004's r^2 |w*|^2)")
def _e_unit_norm():
    from exactlin.algorithms.svm import perceptron_bound

    # Hand derivation: the best separator through the origin of Example 1 is w* = (1/4,-5/4) with
    # min y<w*,x> = 1, so the best margin is gamma = 1/||w*||, gamma^2 = 8/13 and 1/gamma^2 = 13/8 < 3 = K.
    pb = perceptron_bound(EX1_X, EX1_Y, bias="none")
    gamma2 = 1 / pb["norm2_w_star"]
    K = perceptron(EX1_X, EX1_Y).updates
    R2 = max(_dot(x, x) for x in EX1_X)
    holds = gamma2 == F(8, 13) and K == 3 and 1 / gamma2 < K and R2 / gamma2 >= K
    return {"holds": holds,
            "text": f"Example 1: the largest margin is gamma^2 = {_fmt(gamma2)}, so 1/gamma^2 = {_fmt(1 / gamma2)}, "
                    f"yet the perceptron makes K = {K} mistakes; with R^2 = {_fmt(R2)} the bound R^2/gamma^2 = "
                    f"{_fmt(R2 / gamma2)} holds",
            "gamma^2": gamma2, "K": K, "R^2": R2}


@erratum("seed000-gamma-label", seed=SEED000, where="Geometric interpretation of the update, and the margin",
         notes_say='"w_(t+1) = w_t + gamma_t x_t", "Case 1: gamma_t = 1" ... later "margin ... gamma = min ..."',
         correct="the update is w_t + y_t x_t (gamma_t is an OCR/handwriting slip for the label y_t, as in the "
                 "algorithm); gamma is the margin from the next section on, a positive number, and w + gamma x "
                 "with gamma > 0 would move towards a negative sample")
def _e_gamma():
    # Round 2 of Example 1 (x_2 = (1,1), y_2 = -1, w_2 = (4,0)): with the label, y_2<w_3,x_2> = -4 + 2 = -2;
    # with gamma = 1/100 (the notes' margin example) in its place, w_3 = (4 + 1/100, 1/100) and
    # y_2<w_3,x_2> = -(4 + 2/100) = -4.02 < -4: the sample is pushed further to the wrong side.
    w2, x2, y2 = (F(4), F(0)), (F(1), F(1)), -1
    gamma = F(1, 100)
    with_label = tuple(a + y2 * b for a, b in zip(w2, x2))
    with_gamma = tuple(a + gamma * b for a, b in zip(w2, x2))
    before = y2 * _dot(w2, x2)
    s_label, s_gamma = y2 * _dot(with_label, x2), y2 * _dot(with_gamma, x2)
    run = perceptron(EX1_X, EX1_Y, trace=True)
    holds = with_label == run.trace[1].w_after and s_label > before > s_gamma
    return {"holds": holds,
            "text": f"round 2 of Example 1: y_2<w_2,x_2> = {_fmt(before)}; w_2 + y_2 x_2 = {_fmt(with_label)} "
                    f"raises it to {_fmt(s_label)}; w_2 + gamma x_2 with the margin gamma = 1/100 lowers it to "
                    f"{_fmt(s_gamma)}",
            "w + y x": with_label, "w + gamma x": with_gamma}


@erratum("seed000-index-meaning", seed=SEED000, where="Perceptron Example vs Voted Perceptron example",
         notes_say='Example 1: "w_5 = (1,-3)", w_t indexed by round; voted example: "Initially, w_0 = 0", '
                   '"w_4 = w_3 + y_4 x_4 = (1,-3)", w_m indexed by mistake',
         correct="w_t (one per round t, w_1 = 0) and w_m (one per mistake m, w_1 = 0; 'w_0' is a slip) are "
                 "different sequences with the same letter: w_4 is (3,-1) in Example 1 and (1,-3) in the voted "
                 "example. The voted/averaged sums run over the mistake-indexed w_m")
def _e_index():
    run = perceptron(EX1_X, EX1_Y, trace=True)
    by_round = [(F(0), F(0))] + [s.w_after for s in run.trace[:4]]  # w_1 .. w_5
    voted = voted_perceptron(EX1_X, EX1_Y, max_epochs=1)
    by_mistake = [v["w"] for v in voted.extras["voted"]]  # w_1 .. w_4
    cs = [v["c"] for v in voted.extras["voted"]]
    # summing c_m times the round-indexed w_m (the wrong reading) gives 0 + (4,0) + 2(3,-1) + (3,-1) = (13,-3)
    wrong = tuple(sum((F(c) * w[t] for c, w in zip(cs, by_round)), F(0)) for t in range(2))
    avg = averaged_perceptron(EX1_X, EX1_Y, max_epochs=1)
    holds = by_round[3] == (3, -1) and by_mistake[3] == (1, -3) and wrong == (13, -3) and avg.w == (11, -5)
    return {"holds": holds,
            "text": f"round-indexed w_4 = {_fmt(by_round[3])}, mistake-indexed w_4 = {_fmt(by_mistake[3])}; "
                    f"sum c_m w_m with the round-indexed vectors gives {_fmt(wrong)}, with the mistake-indexed "
                    f"ones {_fmt(avg.w)} (the averaged vector)",
            "round-indexed": by_round, "mistake-indexed": by_mistake}
