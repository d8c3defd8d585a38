"""Worked examples and errata of the rest of the perceptron family and the multi-category case
(seeds 000, 001, 002 and 003).

Expected values in the checks are the lecture's printed numbers where it prints them, otherwise hand
derivations written out in the comments next to them (``source`` says which).
"""

from __future__ import annotations

from fractions import Fraction as F

from exactlin.algorithms.multiclass import linear_machine, linear_machine_decide, one_vs_rest, one_vs_rest_decide
from exactlin.algorithms.perceptron_family import (
    batch_perceptron,
    batch_pla,
    fixed_increment,
    perceptron_gd,
    pocket,
    variable_increment,
)
from exactlin.algorithms.relaxation import batch_relaxation, single_sample_relaxation
from exactlin.algorithms.voted import averaged_perceptron, predict_averaged, predict_voted, voted_perceptron
from exactlin.algorithms.winnow import balanced_winnow
from exactlin.lectures.errata import erratum, side_by_side
from exactlin.lectures.examples import Check, ExampleResult, example
from exactlin.lectures.notes import EX1_X, EX1_Y, EX2_X, EX2_Y, SEED000, SEED001, SEED002, SEED003
from exactlin.lectures.notes import dot as _dot

#: a three-class toy set for the multi-category examples
MC_X = [(1, 0), (0, 1), (-1, -1)]
MC_Y = ["A", "B", "C"]


def _v(*xs):
    return tuple(F(x) for x in xs)


def _fmt(v):
    from exactlin.exact.format import text

    return text(v)


# ---------------------------------------------------------------------------
# worked examples


@example("seed000-voted-averaged", title="Voted and averaged perceptron on Example 1: the (w_m, c_m) list after "
         "one pass", seed=SEED000, algorithm="voted-perceptron")
def voted_averaged_example() -> ExampleResult:
    voted = voted_perceptron(EX1_X, EX1_Y, max_epochs=1, trace=True)
    avg = averaged_perceptron(EX1_X, EX1_Y, max_epochs=1)
    lst = [(v["w"], v["c"]) for v in voted.extras["voted"]]
    # Hand derivation of the averaged vector (the notes print "[11]", having lost components):
    #   sum_i c_i w_i = 1*(0,0) + 1*(4,0) + 2*(3,-1) + 1*(1,-3)
    #                 = (0 + 4 + 6 + 1, 0 + 0 - 2 - 3) = (11, -5)
    checks = [
        Check("output after one pass: ((4,0),1), ((3,-1),2), ((1,-3),1)",
              [(_v(4, 0), 1), (_v(3, -1), 2), (_v(1, -3), 1)], lst[1:]),
        Check("w_1 = (0,0) (always), c_1 = 1", (_v(0, 0), 1), lst[0]),
        Check("averaged vector 0 + (4,0) + 2(3,-1) + (1,-3) (notes print [11])", _v(11, -5), avg.w,
              "hand derivation (the notes lost the second component)"),
        Check("round 3 is correct: y_3<w_3,x_3> = -(0*3 + 1*(-1)) = 1 > 0", F(1), voted.trace[2].score,
              "hand derivation"),
        Check("voted and averaged rules on x = (0,1): votes 0 + 0 - 2 - 1 -> -1; <(11,-5),(0,1)> = -5 -> -1",
              (-1, -1), (predict_voted(voted, (0, 1)), predict_averaged(avg, (0, 1))), "hand derivation"),
        Check("on x = (1,1) the rules agree: votes 0 + 1 + 2*1 + (-1) = 2 -> +1, <(11,-5),(1,1)> = 6 -> +1; on "
              "x = (1,3) they differ: votes 0 + 1 + 0 - 1 = 0 -> 0 (tied), <(11,-5),(1,3)> = -4 -> -1",
              (1, 1, 0, -1), (predict_voted(voted, (1, 1)), predict_averaged(avg, (1, 1)),
                              predict_voted(voted, (1, 3)), predict_averaged(avg, (1, 3))), "hand derivation"),
    ]
    return ExampleResult([voted, avg], checks, notes=[
        "After one pass the lecture's list is ((4,0),1), ((3,-1),2), ((1,-3),1), with w_1 = 0 and c_1 = 1 in "
        "front. The notes write the averaged vector as [0] + [4] + 2*[3] + [-3] = [11]: the brackets lost "
        "components (and mix first and second ones); the vector is (11,-5). See erratum seed000-averaged-vector."],
        data={"(w_m, c_m) list": lst, "averaged w": avg.w})


@example("seed003-fixed-increment-ex1", title="Algorithm 4 on Example 1 of seed 000 (bias first, normalized)",
         seed=SEED003, algorithm="fixed-increment")
def fixed_increment_example() -> ExampleResult:
    run = fixed_increment(EX1_X, EX1_Y, trace=True)
    # Hand derivation: normalized samples y1 = (1,4,0), y2 = -(1,1,1), y3 = -(1,0,1), y4 = (1,-2,-2).
    #   a = 0: a.y1 = 0 <= 0 -> a = (1,4,0); a.y2 = -5 -> a = (0,3,-1); a.y3 = 1 > 0;
    #   a.y4 = -6 + 2 = -4 -> a = (1,1,-3); pass 2: a.y = 5, 1, 2, 5 all > 0 -> converged.
    checks = [
        Check("corrections a(2), a(3), a(4)", [_v(1, 4, 0), _v(0, 3, -1), _v(1, 1, -3)],
              [s.w_after for s in run.trace if s.update], "hand derivation"),
        Check("scores a^t y_k of pass 2: 5, 1, 2, 5", [F(5), F(1), F(2), F(5)], [s.score for s in run.trace[4:8]],
              "hand derivation"),
        Check("converged: a = (1,1,-3) after 3 corrections in 2 passes", (_v(1, 1, -3), 3, 2, True),
              (run.w, run.updates, run.epochs, run.converged), "hand derivation"),
        Check("Theorem 5.1 bound R^2||a*||^2/gamma^2 with a* = (1,1,-3): 17*11/1^2", F(187),
              run.extras["monitor"].bound, "hand derivation: R^2 = ||(1,4,0)||^2 = 17, gamma = min(5,1,2,5)"),
    ]
    return ExampleResult([run], checks)


@example("seed003-variable-increment-ex1", title="Algorithm 5 with margin b = 1, eta = 1 on Example 1",
         seed=SEED003, algorithm="variable-increment")
def variable_increment_example() -> ExampleResult:
    run = variable_increment(EX1_X, EX1_Y, b=1, trace=True)
    # Hand derivation (test a^t y_k <= b = 1): a = 0 -> +y1 = (1,4,0); a.y2 = -5 -> (0,3,-1);
    #   a.y3 = 1 <= 1 -> (-1,3,-2); a.y4 = -1 - 6 + 4 = -3 -> (0,1,-4); pass 2: 4, 3, 4, 6 all > 1.
    checks = [
        Check("corrections", [_v(1, 4, 0), _v(0, 3, -1), _v(-1, 3, -2), _v(0, 1, -4)],
              [s.w_after for s in run.trace if s.update], "hand derivation"),
        Check("a^t y_3 = 1 = b is corrected (the margin test is <= b)", F(1), run.trace[2].score, "hand derivation"),
        Check("final a and its margins", (_v(0, 1, -4), [F(4), F(3), F(4), F(6)]),
              (run.w, [s.score for s in run.trace[4:8]]), "hand derivation"),
    ]
    return ExampleResult([run], checks)


@example("seed003-batch-perceptron-ex1", title="Algorithm 3 (batch perceptron, eta = 1) on Example 1",
         seed=SEED003, algorithm="batch-perceptron")
def batch_perceptron_example() -> ExampleResult:
    run = batch_perceptron(EX1_X, EX1_Y, trace=True)
    # Hand derivation: from a = 0 every sample is misclassified (a^t y = 0); their sum is
    #   (1,4,0) - (1,1,1) - (1,0,1) + (1,-2,-2) = (0,1,-4); then a^t y = 4, 3, 4, 6 > 0: Y_2 is empty.
    checks = [
        Check("Y_1 = all four samples, increment (0,1,-4)", ((0, 1, 2, 3), _v(0, 1, -4)),
              (run.trace[0].info["Y"], run.trace[0].info["increment"]), "hand derivation"),
        Check("J_p(a(1)) = 0 (every a^t y is 0)", F(0), run.trace[0].info["J_p"], "hand derivation"),
        Check("a = (0,1,-4), converged at iteration 2 (Y_2 empty)", (_v(0, 1, -4), 2, "converged"),
              (run.w, run.epochs, run.reason), "hand derivation"),
    ]
    return ExampleResult([run], checks)


@example("seed001-batch-pla-ex1", title="Batch PLA (alpha = 1, epsilon = 0) on Example 1", seed=SEED001,
         algorithm="batch-pla")
def batch_pla_example() -> ExampleResult:
    run = batch_pla(EX1_X, EX1_Y, trace=True)
    # Hand derivation: Delta = sum of all y_i x_i = (0,1,-4) (w = 0 gets sign 0 != y_i everywhere),
    #   Delta / N = (0,1/4,-1); w = (0,1/4,-1) gives w.x = -1/4... signs +1,-1,-1,+1: Delta = 0 next.
    checks = [
        Check("w after one iteration = Delta/4 = (0, 1/4, -1)", _v(0, F(1, 4), -1), run.trace[0].w_after,
              "hand derivation"),
        Check("then no sample is misclassified: Delta = 0, stop", ("converged", 2), (run.reason, run.epochs),
              "hand derivation"),
    ]
    return ExampleResult([run], checks)


@example("seed001-pocket-ex2", title="Pocket algorithm, T = 5, on Example 2 (not separable through the origin)",
         seed=SEED001, algorithm="pocket")
def pocket_example() -> ExampleResult:
    run = pocket(EX2_X, EX2_Y, bias="none", T=5, trace=True)
    # Hand derivation: PLA iterates (1,1), (0,2), (1,1), (0,0), (1,1) with
    #   E_in = 3/4 (x2, x3 on the boundary, x4 wrong), 1/2, 3/4, 1, 3/4; E_in(w(1) = 0) = 1.
    #   The pocket keeps (0,2) with E_in = 1/2.
    checks = [
        Check("PLA iterates", [_v(1, 1), _v(0, 2), _v(1, 1), _v(0, 0), _v(1, 1)], [s.w_after for s in run.trace],
              "hand derivation"),
        Check("E_in of the iterates", [F(3, 4), F(1, 2), F(3, 4), F(1), F(3, 4)], [s.score for s in run.trace],
              "hand derivation"),
        Check("pocket w = (0,2), E_in = 1/2", (_v(0, 2), F(1, 2)), (run.w, run.extras["E_in"]), "hand derivation"),
    ]
    return ExampleResult([run], checks)


@example("seed002-perceptron-gd-ex1", title="Gradient descent on R(w) from w = y_1 x_1 on Example 1 (bias last)",
         seed=SEED002, algorithm="perceptron-gd")
def perceptron_gd_example() -> ExampleResult:
    run = perceptron_gd(EX1_X, EX1_Y, trace=True)
    # Hand derivation: w = y1 x1 = (4,0,1); y_i x_i . w = 16+1 > 0, -5, -1, -7: V = {2,3,4},
    #   R(w) = 13; w + sum_V y_i x_i = (4,0,1) + (-1,-1,-1) + (0,-1,-1) + (-2,-2,1) = (1,-4,0);
    #   then y_i x_i . w = 4, 3, 4, 6 > 0: R = 0.
    checks = [
        Check("V_1 and R(w_1)", ((1, 2, 3), F(13)), (run.trace[0].info["Y"], run.trace[0].info["R"]),
              "hand derivation"),
        Check("w = (1,-4,0) after one step, then R(w) = 0", (_v(1, -4, 0), "converged"), (run.w, run.reason),
              "hand derivation"),
    ]
    return ExampleResult([run], checks)


@example("mitchell-threshold-unit", title="Threshold unit with 0/1 targets (Mitchell 1997, 4.4.2) on Example 1: the "
         "tie rule decides", seed=SEED000, algorithm="threshold-unit")
def threshold_unit_example() -> ExampleResult:
    from exactlin.algorithms.threshold_unit import threshold_unit

    T = [1, 0, 0, 1]  # Example 1's labels +1/-1 as targets 1/0
    ge = threshold_unit(EX1_X, T, trace=True)
    gt = threshold_unit(EX1_X, T, tie=">", trace=True)
    # Hand derivation, x~ = (1, x), w <- w + (t - o) x~, o = 1 iff net >= 0:
    #   w = 0: x1 net 0 -> o = 1 = t; x2 net 0 -> o = 1, t = 0: w = -(1,1,1); x3 net -2 ok; x4 net 3 ok;
    #   pass 2: x1 net -5 -> +(1,4,0) = (0,3,-1); x2 net 2 -> -(1,1,1) = (-1,2,-2); x3 net -3 ok;
    #   x4 net -1 -> +(1,-2,-2) = (0,0,-4); pass 3: nets 0, -4, -4, 8 -> o = 1, 0, 0, 1 = t: converged.
    #   x1 ends at net 0, correct only because the tie goes to o = 1.
    # With o = 1 iff net > 0 a zero net is a mistake for t = 1, exactly seed 003's Algorithm 4 on the normalized
    # samples: a = (1,1,-3) after 3 corrections (seed003-fixed-increment-ex1).
    checks = [
        Check("tie >=: the corrections", [_v(-1, -1, -1), _v(0, 3, -1), _v(-1, 2, -2), _v(0, 0, -4)],
              [s.w_after for s in ge.trace if s.update], "hand derivation"),
        Check("tie >=: converged, sample 1 at net 0, the last correction at round 8 of 12",
              (True, (0,), 8, 12), (ge.converged, ge.extras["on_boundary"], ge.extras["last_update_step"], ge.steps),
              "hand derivation"),
        Check("tie >: Algorithm 4's run", (_v(1, 1, -3), 3), (gt.w, gt.updates), "hand derivation"),
        Check("both predict the 0/1 targets", (tuple(T), tuple(T)), (ge.predict(EX1_X), gt.predict(EX1_X)),
              "hand derivation"),
    ]
    return ExampleResult([ge, gt], checks, notes=[
        "Mitchell, Machine Learning (1997), section 4.4.2: w_i <- w_i + eta (t - o) x_i with 0/1 targets. In the "
        "+1/-1 form (z = 2t - 1) it is the perceptron's update; only a zero net is treated differently: a mistake "
        "for one class only, so the theorem's monitor runs where the final w separates strictly (tie >)."])


@example("seed003-winnow", title="Balanced Winnow (alpha = 2) on two unit vectors", seed=SEED003,
         algorithm="balanced-winnow")
def winnow_example() -> ExampleResult:
    run = balanced_winnow([(1, 0), (0, 1)], [1, -1], bias="none", trace=True)
    # Hand derivation: a+ = a- = (1,1). Sample 1 ((1,0), +1): score 0 -> mistake; a+_i *= 2^{y_i}:
    #   a+ = (2,1), a-_i *= 2^{-y_i}: a- = (1/2,1). Sample 2 ((0,1), -1): score 1 - 1 = 0 -> mistake;
    #   a+ = (2,1/2), a- = (1/2,2). Pass 2: scores 2 - 1/2 = 3/2 > 0, 1/2 - 2 = -3/2 < 0: converged.
    checks = [
        Check("a+ and a- after the two corrections", (_v(2, F(1, 2)), _v(F(1, 2), 2)),
              (run.extras["a_plus"], run.extras["a_minus"]), "hand derivation"),
        Check("w = a+ - a- = (3/2, -3/2); scores of pass 2", (_v(F(3, 2), F(-3, 2)), [F(3, 2), F(-3, 2)]),
              (run.w, [s.score for s in run.trace[2:4]]), "hand derivation"),
    ]
    return ExampleResult([run], checks)


@example("seed003-relaxation", title="Single-sample and batch relaxation (b = 1, eta = 1) on two samples",
         seed=SEED003, algorithm="single-sample-relaxation")
def relaxation_example() -> ExampleResult:
    single = single_sample_relaxation([(1, 1), (1, -1)], [1, 1], bias="none", trace=True)
    batch = batch_relaxation([(1, 1), (1, -1)], [1, 1], bias="none", trace=True)
    # Hand derivation, single sample: a = 0, y1 = (1,1): a^t y1 = 0 < 1 -> a = (1 - 0)/2 (1,1) = (1/2,1/2),
    #   now a^t y1 = 1 = b exactly (eta = 1: (1 - eta)(0 - 1) = 0); y2 = (1,-1): a^t y2 = 0 -> a = (1,0).
    # Batch: Y_1 = {y1, y2}: a = (1/2)(1,1) + (1/2)(1,-1) = (1,0); then a^t y = 1 >= b for both.
    checks = [
        Check("single-sample corrections", [_v(F(1, 2), F(1, 2)), _v(1, 0)],
              [s.w_after for s in single.trace if s.update], "hand derivation"),
        Check("single-sample: a = (1,0), J_r = 0", (_v(1, 0), F(0)), (single.w, single.extras["J_r"]),
              "hand derivation"),
        Check("batch: a = (1,0) after one iteration", (_v(1, 0), 2, "converged"),
              (batch.w, batch.epochs, batch.reason), "hand derivation"),
    ]
    return ExampleResult([single, batch], checks)


@example("seed003-linear-machine", title="Linear machine (multi-class perceptron) on three classes",
         seed=SEED003, algorithm="linear-machine")
def linear_machine_example() -> ExampleResult:
    run = linear_machine(MC_X, MC_Y, bias="none", trace=True)
    # Hand derivation (W = 0; a tie g_j >= g_i is a mistake; rival j = largest g_j, first on a tie):
    #   A (1,0): g = 0,0,0 -> j = B: w_A = (1,0), w_B = (-1,0)
    #   B (0,1): g = 0,0,0 -> j = A: w_B = (-1,1), w_A = (1,-1)
    #   C (-1,-1): g = 0,0,0 -> j = A: w_C = (-1,-1), w_A = (2,0)
    #   pass 2: A: g = 2,-1,-1; B: 0,1,-1; C: -2,0,2: all correct.
    checks = [
        Check("W after one pass", (_v(2, 0), _v(-1, 1), _v(-1, -1)), run.extras["W"], "hand derivation"),
        Check("3 corrections, converged in 2 passes", (3, 2, True), (run.updates, run.epochs, run.converged),
              "hand derivation"),
        Check("decisions: A, B, C; x = (1,1) gives g = 2, 0, -2 -> A; x = (0,0) ties -> undefined",
              ["A", "B", "C", "A", None],
              [linear_machine_decide(run, x) for x in [*MC_X, (1, 1), (0, 0)]], "hand derivation"),
    ]
    return ExampleResult([run], checks)


@example("seed001-one-vs-rest", title="One-vs-rest with the perceptron on three classes", seed=SEED001,
         algorithm="one-vs-rest")
def one_vs_rest_example() -> ExampleResult:
    run = one_vs_rest(MC_X, MC_Y, bias="none")
    # Hand derivation (perceptron, test <= 0, cyclic):
    #   A vs rest, normalized (1,0), (0,-1), (1,1): (1,0), (1,-1), (2,0), then (2,-1) in pass 2 -> w_A = (2,-1)
    #   B vs rest, normalized (-1,0), (0,1), (1,1): (-1,0), (-1,1), (0,2), then (-1,2) -> w_B = (-1,2)
    #   C vs rest, normalized (-1,0), (0,-1), (-1,-1): (-1,0), (-1,-1) -> w_C = (-1,-1)
    #   x = (1,1): <w_A,x> = 1 > 0 and <w_B,x> = 1 > 0: two claims -> undefined.
    checks = [
        Check("W", (_v(2, -1), _v(-1, 2), _v(-1, -1)), run.extras["W"], "hand derivation"),
        Check("updates per class", [4, 4, 2], [r["updates"] for r in run.extras["runs"]], "hand derivation"),
        Check("decisions on the data, on (1,1) (two claims) and (0,0) (none)", ["A", "B", "C", None, None],
              [one_vs_rest_decide(run, x) for x in [*MC_X, (1, 1), (0, 0)]], "hand derivation"),
    ]
    return ExampleResult([run], checks)


# ---------------------------------------------------------------------------
# errata


def _ex1_normalized_first():
    """Seed 000's Example 1, augmented with a leading 1 and multiplied by its labels (seed 003's form)."""
    return [tuple(F(yi) * v for v in (1, *x)) for x, yi in zip(EX1_X, EX1_Y)]


@erratum("alg4-sign", seed=SEED003, where="Algorithm 4 (Fixed-increment single-sample Perceptron), line 3",
         notes_say='"if y_k is misclassified by a then a <- a - y_k" (on normalized samples)',
         correct="a <- a + y_k: on normalized samples a misclassified y_k has a^t y_k <= 0 and must be added "
                 "(the notes' own a(k+1) = a(k) + eta(k) y^k and Theorem 5.1 use +)")
def _e_alg4():
    Y = _ex1_normalized_first()
    a = (F(0),) * 3
    literal_scores = []
    clean = False
    for _ in range(10):  # ten passes of the literal rule
        clean = True
        for yk in Y:
            s = _dot(a, yk)
            if s <= 0:
                literal_scores.append(s)
                a = tuple(p - q for p, q in zip(a, yk))
                clean = False
        if clean:
            break
    run = fixed_increment(EX1_X, EX1_Y)
    printed = fixed_increment(EX1_X, EX1_Y, variant="printed", max_epochs=10)
    return {"holds": not clean and run.converged and printed.w == a and printed.reason == "max_epochs",
            "text": f"on seed 000's Example 1 (bias first, normalized) the literal a - y_k makes "
                    f"{len(literal_scores)} corrections in 10 passes without a clean pass; its scores a^t y_k "
                    f"only fall ({_fmt(literal_scores[:5])} ...), ending at a = {_fmt(a)}; a + y_k converges to "
                    f"{_fmt(run.w)} after {run.updates} corrections",
            "literal a after 10 passes": a, "correct a": run.w, **side_by_side(run, printed)}


@erratum("alg5-rule", seed=SEED003, where="Algorithm 5 (Variable increment Perceptron with margin), lines 3-4",
         notes_say='"if a^t y_k + b < 0 then a <- a - eta(k) y_k" ... "until a^t y_k + b <= 0 for all k"',
         correct="if a^t y_k <= b then a <- a + eta(k) y_k, until a^t y_k > b for all k (Duda-Hart-Stork's "
                 "rule; the margin b > 0 asks for a^t y > b, and a sample exactly at b is still corrected)")
def _e_alg5():
    Y = _ex1_normalized_first()
    out = {}
    for b in (F(1), F(0)):
        a = (F(0),) * 3
        corrections = 0
        for yk in Y * 3:  # three passes of the literal rule
            if _dot(a, yk) + b < 0:
                a = tuple(p - q for p, q in zip(a, yk))
                corrections += 1
        stops = all(_dot(a, yk) + b <= 0 for yk in Y)
        out[b] = (corrections, stops, a)
    run = variable_increment(EX1_X, EX1_Y, b=1)
    margins = [_dot(run.w, yk) for yk in Y]
    c1, s1, _ = out[F(1)]
    c0, s0, a0 = out[F(0)]
    printed = variable_increment(EX1_X, EX1_Y, b=1, variant="printed", max_epochs=3)
    printed0 = variable_increment(EX1_X, EX1_Y, b=0, variant="printed")
    return {"holds": (c1 == 0 and not s1 and c0 == 0 and s0 and run.converged and min(margins) > 1
                      and printed.updates == 0 and printed.reason == "max_epochs"
                      and printed0.reason == "criterion" and printed0.w == a0),
            "text": f"Example 1 (bias first, normalized), a = 0: with b = 1 the literal test a^t y + b < 0 never "
                    f"fires ({c1} corrections in 3 passes) and its stop 'a^t y + b <= 0 for all k' never holds, so "
                    f"it loops forever doing nothing; with b = 0 it stops at once with a = {_fmt(a0)}, which "
                    f"classifies nothing. The correct rule (a^t y <= b -> a + eta y) ends at {_fmt(run.w)} with "
                    f"a^t y_k = {_fmt(margins)} > b = 1",
            "correct a": run.w, "correct margins": margins, **side_by_side(run, printed),
            "printed run, b = 0": f"reason {printed0.reason} at step {printed0.steps}, a = {_fmt(printed0.w)}"}


@erratum("winnow-exponent", seed=SEED003, where="Algorithm 7 (Balanced Winnow), lines 3-4",
         notes_say='"a_i^+ <- alpha^{+y_i} a_i^+; a_i^- <- alpha^{-y_i} a_i^- for all i"; no do/until loop',
         correct="the exponent is y_{k,i}, the i-th component of the current sample y_k (y_i elsewhere in the "
                 "notes is the i-th sample, a vector); the listing also lacks its loop, so exactlin cycles over "
                 "the samples until a pass with no mistake, as in Algorithm 4 (eta(.) plays no part)")
def _e_winnow():
    ok = balanced_winnow(EX1_X, EX1_Y)
    # the misreading that takes the exponent to be the label (the same power for every component) keeps
    # a+ and a- proportional to (1,1,1), so a+ - a- can only be a multiple of (1,1,1)
    Y = [(F(1), *map(F, x)) for x in EX1_X]
    ap, am = [F(1)] * 3, [F(1)] * 3
    mistakes = 0
    clean = False
    for _ in range(20):
        clean = True
        for yk, zk in zip(Y, EX1_Y):
            s = _dot(ap, yk) - _dot(am, yk)
            if (s > 0) - (s < 0) != zk:
                ap = [F(2) ** zk * v for v in ap]
                am = [F(2) ** (-zk) * v for v in am]
                mistakes += 1
                clean = False
        if clean:
            break
    return {"holds": ok.converged and not clean,
            "text": f"Example 1 (bias first), alpha = 2: with the component exponents y_(k,i) Winnow converges "
                    f"after {ok.updates} mistakes to a+ = {_fmt(ok.extras['a_plus'])}, a- = "
                    f"{_fmt(ok.extras['a_minus'])}; reading the exponent as one number per sample (the label) "
                    f"makes {mistakes} mistakes in 20 passes without converging (a+ - a- stays a multiple of "
                    f"(1,1,1))",
            "component reading a+": ok.extras["a_plus"], "component reading a-": ok.extras["a_minus"]}


@erratum("seed000-averaged-vector", seed=SEED000, where="Voted and Averaged Perceptron, example prediction rules",
         notes_say='"sign[<[0] + [4] + 2*[3] + [-3], x>] = sign[<[11], x>]" (and the voted rule with '
                   '<[0],x>, <[4],x>, <[3],x>, <[-3],x>)',
         correct="the vectors are w_1 = (0,0), w_2 = (4,0), w_3 = (3,-1), w_4 = (1,-3) with c = 1, 1, 2, 1; the "
                 "averaged vector is (11,-5). The printed brackets lost components and mix first components "
                 "(4, 3) with a second one (-3): their sum is 7, not 11")
def _e_averaged():
    avg = averaged_perceptron(EX1_X, EX1_Y, max_epochs=1)
    printed = F(0) + 4 + 2 * 3 + (-3)
    firsts = sum(F(v["c"]) * v["w"][0] for v in avg.extras["voted"])
    seconds = sum(F(v["c"]) * v["w"][1] for v in avg.extras["voted"])
    x = (0, 1)
    return {"holds": avg.w == (11, -5) and printed == 7,
            "text": f"sum c_i w_i = {_fmt(avg.w)}: first components 0+4+2*3+1 = {_fmt(firsts)} (the printed 11), "
                    f"second components 0+0+2*(-1)+(-3) = {_fmt(seconds)} (lost); the printed brackets add up to "
                    f"{_fmt(printed)}. The lost component matters: on x = (0,1) the averaged rule gives "
                    f"sign({_fmt(_dot(avg.w, x))}) = -1, a vector (11, 0) would give 0",
            "averaged vector": avg.w, "printed bracket sum": printed}


@erratum("pocket-comparison", seed=SEED001, where="Pocket Algorithm, step 2",
         notes_say='"if E_in(w(t+1)) < E_in(w(t)), then w <- w(t+1)" ... "w is the best line found in T steps"',
         correct="compare with the pocket: if E_in(w(t+1)) < E_in(w_pocket) then w_pocket <- w(t+1). Comparing "
                 "with the previous PLA iterate w(t) can replace a better pocket by a worse vector")
def _e_pocket():
    run = pocket(EX2_X, EX2_Y, bias="none", T=5, trace=True)
    # the literal rule, on the same PLA iterates: keep w(t+1) whenever it beats the previous iterate w(t)
    E_prev = F(1)  # E_in(w(1) = 0): every sign is 0
    literal_w, literal_E = (F(0), F(0)), E_prev
    for s in run.trace:
        if s.score < E_prev:
            literal_w, literal_E = s.w_after, s.score
        E_prev = s.score
    printed = pocket(EX2_X, EX2_Y, bias="none", T=5, variant="printed")
    return {"holds": literal_E > run.extras["E_in"] and printed.w == literal_w and printed.extras["E_in"] == literal_E,
            "text": f"Example 2 of seed 000 (through the origin), T = 5: the PLA iterates have E_in = "
                    f"{_fmt([s.score for s in run.trace])}; the literal rule ends with w = {_fmt(literal_w)}, "
                    f"E_in = {_fmt(literal_E)} (step 5 beats step 4's E_in = 1), the pocket keeps "
                    f"{_fmt(run.w)} with E_in = {_fmt(run.extras['E_in'])}",
            "literal w": literal_w, "literal E_in": literal_E, "pocket w": run.w, "pocket E_in": run.extras["E_in"],
            **side_by_side(run, printed)}


@erratum("alg3-criterion", seed=SEED003, where="Algorithm 3 (Batch Perceptron), line 4",
         notes_say='"until eta(k) sum_{y in Y_k} y < theta"',
         correct="the left side is a vector; exactlin stops when its length is below theta, compared exactly as "
                 "||eta(k) sum y||^2 < theta^2. Read componentwise, the test stops on any increment whose "
                 "components are all below theta, however large it is")
def _e_alg3():
    # normalized samples (-1,1), (-1,-1) (labels +1, through the origin), start a = (3,0), theta = 1
    X, y, a0, theta = [(-1, 1), (-1, -1)], [1, 1], (3, 0), F(1)
    first = batch_perceptron(X, y, bias="none", a0=a0, max_epochs=1, trace=True)
    inc = first.trace[0].info["increment"]
    componentwise_stops = all(v < theta for v in inc)
    a_comp = first.w
    run = batch_perceptron(X, y, bias="none", a0=a0, theta=theta)
    misclassified = sum(1 for x in X if _dot(a_comp, x) <= 0)
    return {"holds": componentwise_stops and misclassified == 2 and run.converged and run.extras["separates"],
            "text": f"samples (-1,1), (-1,-1) (+1), a(1) = (3,0), theta = 1: the first increment is {_fmt(inc)}; "
                    f"componentwise every entry is < 1, so that reading stops at a = {_fmt(a_comp)}, which "
                    f"misclassifies both samples; ||increment||^2 = {_fmt(_dot(inc, inc))} >= 1, so exactlin "
                    f"continues to {_fmt(run.w)}, a solution",
            "componentwise stop": a_comp, "exactlin a": run.w}


@erratum("perceptron-gd-stop", seed=SEED002, where="Gradient descent on R(w), steps 1-2",
         notes_say='"while R(w) > 0: V = set of indices i s.t. y_i x_i < 0"',
         correct="V = {i : y_i x_i . w < 0} (the '. w' is missing). R(w) = 0 only says y_i x_i . w >= 0: samples "
                 "may sit on the boundary, even with w = 0; exactlin then stops with reason 'boundary', not "
                 "'converged'")
def _e_gd():
    run = perceptron_gd(EX2_X, EX2_Y, bias="none", trace=True)
    printed = perceptron_gd(EX2_X, EX2_Y, bias="none", variant="printed")
    return {"holds": run.w == (0, 0) and run.reason == "boundary" and printed.reason == "criterion"
            and printed.w == run.w,
            "text": f"Example 2 of seed 000 (through the origin), start w = y_1 x_1 = (1,1): V = {{4}} "
                    f"(y_4 x_4 . w = -2; samples 2 and 3 have 0, not < 0), so w <- (1,1) + (-1,-1) = "
                    f"{_fmt(run.w)}, where R(w) = 0: the loop ends with every sample on the boundary",
            "final w": run.w, "reason": run.reason, **side_by_side(run, printed)}


@erratum("alg9-listing", seed=SEED003, where="Algorithm 9 (Single-sample relaxation with margin)",
         notes_say='"begin initialize a, eta(.), k = 0 / begin init / e end" (the body is lost)',
         correct="do k <- (k+1) mod n; if a^t y^k < b then a <- a + eta (b - a^t y^k)/||y^k||^2 y^k; until "
                 "a^t y >= b for all samples (the notes' own update formula; 'misclassified' means a^t y < b, "
                 "where J_r > 0). The identity a^t(k+1)y^k - b = (1 - eta)(a^t(k)y^k - b) is checked at "
                 "every update")
def _e_alg9():
    run = single_sample_relaxation(EX1_X, EX1_Y, eta=F(3, 2))
    Y = _ex1_normalized_first()
    m = [_dot(run.w, yk) for yk in Y]
    return {"holds": run.converged and min(m) >= 1 and run.extras["identity_checked"] == run.updates,
            "text": f"Example 1 (bias first), b = 1, eta = 3/2: {run.updates} corrections, the identity held "
                    f"exactly at each; a = {_fmt(run.w)} with a^t y_k = {_fmt(m)} >= b",
            "a": run.w, "margins": m}


@erratum("alg8-misclassified", seed=SEED003, where="Algorithm 8 (Batch relaxation with margin), lines 1 and 6",
         notes_say='"initialize a, eta(.), k = 0" ... "if y_i is misclassified then Append y_j to Y_k"',
         correct="the margin b must be initialized too, the index is j, and 'misclassified' must mean a^t y_j < b "
                 "(the set over which J_r sums): with the perceptron's a^t y <= 0 the loop stops as soon as a "
                 "separates, however far below b the samples are")
def _e_alg8():
    Y = _ex1_normalized_first()
    eta, b = F(3, 2), F(1)
    a = (F(0),) * 3
    iterations = 0
    while iterations < 50:
        Yk = [y for y in Y if _dot(a, y) <= 0]  # the perceptron's "misclassified"
        if not Yk:
            break
        iterations += 1
        a = tuple(a[t] + sum(eta * (b - _dot(a, y)) / _dot(y, y) * y[t] for y in Yk) for t in range(3))
    literal = [_dot(a, y) for y in Y]
    run = batch_relaxation(EX1_X, EX1_Y, eta=eta, b=b)
    correct = [_dot(run.w, y) for y in Y]
    return {"holds": min(literal) < b and run.converged and min(correct) >= b,
            "text": f"Example 1 (bias first), b = 1, eta = 3/2: with 'misclassified' = a^t y <= 0 the loop stops "
                    f"after {iterations} iteration(s) at a^t y_k = {_fmt(literal)}, below the margin b = 1; with "
                    f"a^t y < b it ends after {run.epochs} iterations at a^t y_k = {_fmt(correct)}, all >= b",
            "perceptron-test a": a, "margin-test a": run.w}
