"""Worked examples and errata of the perceptron lectures (seeds 000 and 004).

Expected values in the checks are the lecture's printed numbers, or a hand
derivation where the lecture stops (said in ``source``).
"""

from __future__ import annotations

from fractions import Fraction as F

from exactlin.algorithms.perceptron import perceptron
from exactlin.lectures.errata import erratum, side_by_side
from exactlin.lectures.examples import Check, ExampleResult, example
from exactlin.lectures.notes import EX1_X, EX1_Y, EX2_X, EX2_Y, SEED000, SEED004
from exactlin.theory.margins import margin, signed_margin

#: seed 000, the margin example S
MARGIN_X = [(1, -1), (-1, -1), ("0.01", 0), (-1, 0)]
MARGIN_Y = [1, 1, 1, -1]


def _f(v):
    from exactlin.render.report import fmt_value

    return fmt_value(v)


def _v(*xs):
    return tuple(F(x) for x in xs)


@example("seed000-example1", title="Perceptron, Example 1: four rounds, then a clean pass", seed=SEED000,
         algorithm="perceptron")
def example1() -> ExampleResult:
    run = perceptron(EX1_X, EX1_Y, trace=True)
    w = [s.w_after for s in run.trace]  # w_{t+1} after round t
    scores = [s.score for s in run.trace]
    checks = [
        Check("w_2 after round 1 (y_1<w_1,x_1> = 0 is a mistake)", _v(4, 0), w[0]),
        Check("w_3 = (4, 0) - (1, 1)", _v(3, -1), w[1]),
        Check("w_4 = w_3 (round 3 is correct)", _v(3, -1), w[2]),
        Check("w_5 = (3, -1) + (-2, -2)", _v(1, -3), w[3]),
        Check("scores y_t<w_t,x_t> of rounds 1-4: 0, < 0, > 0, < 0 (hand: 0, -4, 1, -4)",
              (F(0), F(-4), F(1), F(-4)), tuple(scores[:4]), "hand derivation of the lecture's rounds"),
        Check("pass 2 scores with w = (1,-3): 4, 2, 3, 4 (no mistake, so the run stops)",
              (F(4), F(2), F(3), F(4)), tuple(scores[4:8]), "hand derivation (the lecture stops after round 4)"),
        Check("converged after 3 mistakes in 2 passes", (True, 3, 2), (run.converged, run.updates, run.epochs),
              "hand derivation"),
        Check("mistake bound R^2||w*||^2/gamma_min^2 with w* = (1,-3): 16*10/2^2", F(40),
              run.extras["monitor"].bound, "hand derivation (seed 004's bound, w* = the final w)"),
    ]
    return ExampleResult([run], checks, notes=[
        "The lecture stops after round 4 with w_5 = (1,-3); one more pass makes no mistake, so the perceptron "
        "has converged to w = (1,-3), which separates all four samples (smallest y<w,x> is 2)."])


@example("seed000-example1-strict", title="Example 1 with the strict test y<w,x> < 0 of seeds 002/004",
         seed=SEED000, algorithm="perceptron")
def example1_strict() -> ExampleResult:
    run = perceptron(EX1_X, EX1_Y, strict=True, trace=True)
    checks = [
        Check("from w = 0 every score is 0, so nothing is a mistake: w stays 0", _v(0, 0), run.w, "hand derivation"),
        Check("no update is made", 0, run.updates, "hand derivation"),
        Check("stop reason: a clean cycle with samples on the boundary, not a separator", "boundary", run.reason,
              "hand derivation"),
    ]
    return ExampleResult([run], checks, notes=[
        "Seeds 002 and 004 test y<w,x> < 0. Started at w = 0 that rule never fires: the run stops at once with "
        "w = 0, which classifies no sample (see the erratum seed004-strict-start)."])


@example("seed000-example2", title="Perceptron, Example 2: back to w = 0, a proof of non-separability",
         seed=SEED000, algorithm="perceptron")
def example2() -> ExampleResult:
    run = perceptron(EX2_X, EX2_Y, trace=True)
    w = [s.w_after for s in run.trace]
    cert = run.extras.get("certificate")  # a GordanCertificate (exactlin.model.certificates)
    checks = [
        Check("w_2 = w_1 + y_1 x_1", _v(1, 1), w[0]),
        Check("w_3 = (1,1) - (1,-1)", _v(0, 2), w[1]),
        Check("w_4 = (0,2) - (-1,1)", _v(1, 1), w[2]),
        Check("w_5 = (1,1) + (-1,-1) = 0", _v(0, 0), w[3]),
        Check("the state (w = 0, next sample 1) repeats: stop with a cycle", "cycle", run.reason, "hand derivation"),
        Check("Gordan certificate: lambda = (1/4, 1/4, 1/4, 1/4), sum lambda_i y_i x_i = 0",
              (F(1, 4),) * 4, cert.lam if cert else (), "hand derivation: the four updates sum to 0"),
        Check("certificate verified", True, cert is not None and cert.verified,
              "verified: Gordan (exactlin.theory.certificates.verify_gordan)"),
    ]
    return ExampleResult([run], checks, notes=[
        "After one pass the weights are back at w = 0 and the next pass would repeat it forever. The four "
        "updates y_i x_i sum to zero, so no w has y_i<w,x_i> > 0 for all i: the data are not linearly separable "
        "through the origin (Gordan's alternative)."])


@example("seed000-margin", title="The margin example: margin 1/100, and w = (1,0) misclassifies a sample",
         seed=SEED000)
def margin_example() -> ExampleResult:
    m = margin((1, 0), MARGIN_X)
    sm = signed_margin((1, 0), MARGIN_X, MARGIN_Y)
    import sympy

    checks = [
        Check("margin of w = (1,0) w.r.t. S (min |<w,x>|/||w||)", sympy.Rational(1, 100), m.value),
        Check("attained at x_3 = (0.01, 0) (index 3, 1-based)", (2,), m.argmin, "lecture: |<w,x_3>|/||w|| = 0.01"),
        Check("signed margin min y<w,x>/||w|| (hand: sample 2 gives -1)", sympy.Integer(-1), sm.value,
              "hand derivation"),
        Check("((-1,-1), +1) is misclassified by w = (1,0): y<w,x> = -1", F(-1), F(1) * (1 * -1 + 0 * -1),
              "hand derivation"),
    ]
    return ExampleResult([], checks, notes=[
        "The lecture's margin ignores the labels (|<w,x>|), so it is 1/100 even though w = (1,0) puts "
        "((-1,-1), +1) on the wrong side: the signed (geometric) margin is -1. See erratum seed000-margin-labels."],
        data={"margin": m.value, "margin squared": m.squared, "signed margin": sm.value})


@example("seed004-theorem", title="The convergence theorem instantiated on Example 1 (seeds 000 and 004)",
         seed=SEED004, algorithm="perceptron")
def theorem_example() -> ExampleResult:
    # a reference separator chosen by hand: w* = (1, -3) has y_i<w*,x_i> = 4, 2, 3, 4
    run = perceptron(EX1_X, EX1_Y, w_star=(1, -3), trace=True)
    rep = run.extras["monitor"]
    checks = [
        Check("gamma_min = min_i y_i<w*,x_i> for w* = (1,-3)", F(2), rep.gamma_min, "hand derivation"),
        Check("R^2 = max ||x_i||^2 = ||(4,0)||^2", F(16), rep.R2, "hand derivation"),
        Check("bound R^2 ||w*||^2 / gamma_min^2 = 16*10/4", F(40), rep.bound, "hand derivation"),
        Check("K = 3 mistakes, within the bound", 3, rep.K,
              "hand derivation: the notes' rounds 1, 2 and 4 are the mistakes; pass 2 (not in the notes) is clean"),
        Check("Facts 1 and 2 held at every mistake", True, rep.holds,
              "verified: convergence monitor (exactlin.theory.monitor)"),
    ]
    return ExampleResult([run], checks, notes=[
        "Seed 000 states K <= 1/gamma^2 for ||x|| <= 1 and ||w*|| = 1; seed 004 states m <= r^2|w*|^2 for "
        "y_i w*.x_i >= 1. Both are K <= R^2 ||w*||^2 / gamma_min^2 with gamma_min = min_i y_i<w*,x_i>: "
        "scaling x by 1/R and w* by 1/gamma_min turns one into the other."],
        data={"rows (t, K, <w_t+1,w*>, lower bound, ||w_t+1||^2, upper bound)": [
            (r["t"], r["K"], r["proj"], r["proj_lower"], r["norm2"], r["norm2_upper"]) for r in rep.rows]})


# ---------------------------------------------------------------------------
# errata


@erratum("seed004-update-missing-label", seed=SEED004, where="Perceptron algorithm, update line",
         notes_say='"Update w to w + x_i" for any misclassified (x_i, y_i)',
         correct="w <- w + y_i x_i: a misclassified negative sample must be subtracted (seed 000's rule, and "
                 "seed 004's own proof, which uses (w + x_i y_i))")
def _e_update():
    # the literal rule on Example 1 of seed 000: add x_i whatever its label, for up to 50 passes
    from exactlin.render.report import fmt_value

    X, y = EX1_X, EX1_Y
    w = (F(0), F(0))
    literal = []
    clean_pass = False
    for _ in range(50):
        clean_pass = True
        for x, yi in zip(X, y):
            if yi * (w[0] * x[0] + w[1] * x[1]) <= 0:
                w = (w[0] + x[0], w[1] + x[1])
                literal.append(w)
                clean_pass = False
        if clean_pass:
            break
    correct = perceptron(X, y)
    # the listing as printed (strict test, w + x_i) from w = 0 returns w = 0 at once (erratum
    # seed004-strict-start); from w = (0, 1), where its strict test fires on (1, 1), its update w + x_i never
    # stops: the state (w, position) repeats after 13 updates
    at_zero = perceptron(X, y, variant="printed")
    printed = perceptron(X, y, variant="printed", w0=(0, 1))
    return {"holds": correct.converged and not clean_pass and at_zero.w == (0, 0) and at_zero.updates == 0
            and printed.reason == "cycle" and not printed.converged,
            "text": "on seed 000's Example 1 (test <= 0), the literal 'w + x_i' rule makes "
                    f"{len(literal)} updates in 50 passes without ever completing a clean pass (it ends at "
                    f"{fmt_value(literal[-1])}); w + y_i x_i converges to {fmt_value(correct.w)} after "
                    f"{correct.updates} updates. The listing as printed (strict test) returns w = 0 at once from "
                    f"w = 0; started at w = (0, 1) it makes {printed.updates} updates and returns to an earlier "
                    f"state at step {printed.steps} (reason {printed.reason}): it never stops",
            "literal rule weights after the first updates": literal[:6],
            "correct rule final w": correct.w, **side_by_side(correct, printed)}


@erratum("seed004-strict-start", seed=SEED004, where="Perceptron algorithm and its theorem",
         notes_say='"Initialize w = <0,...,0>" and update while "y_i = +1, and <w.x_i> < 0, or y_i = -1, and '
                   '<w.x_i> > 0"',
         correct="test y_i<w,x_i> <= 0 (seed 000's rule): with the strict test from w = 0 nothing is ever "
                 "misclassified, so the algorithm returns w = 0, contradicting the theorem's promise of "
                 "(w.x_i) y_i > 0 for all i; exactlin's default is <= 0 and strict=True reports reason 'boundary'")
def _e_strict():
    strict = perceptron(EX1_X, EX1_Y, strict=True)
    normal = perceptron(EX1_X, EX1_Y)
    printed = perceptron(EX1_X, EX1_Y, variant="printed")  # the listing itself: its strict test by default
    return {"holds": strict.w == (0, 0) and strict.reason == "boundary" and normal.converged
            and printed.w == (0, 0) and printed.updates == 0 and printed.reason == "boundary",
            "text": f"on seed 000's Example 1: strict test -> w = {_f(strict.w)} after "
                    f"{strict.updates} updates (reason {strict.reason}); test <= 0 -> w = "
                    f"{_f(normal.w)}, converged; the printed listing (variant printed) -> w = {_f(printed.w)} "
                    f"after {printed.updates} updates and {printed.steps} steps (reason {printed.reason})",
            "strict final w": strict.w, "non-strict final w": normal.w, "printed listing final w": printed.w}


@erratum("seed000-margin-labels", seed=SEED000, where="Measure of Separability: Margin (example)",
         notes_say='margin of w wrt S is "min |<w,x>|/||w||"; example with w = (1,0) gives "margin = 0.01"',
         correct="the value 1/100 is right for the definition as printed, but that definition ignores the labels: "
                 "w = (1,0) misclassifies ((-1,-1), +1). The theorem needs the signed margin min y<w,x>/||w|| of a "
                 "separator; for this w it is -1")
def _e_margin():
    m = margin((1, 0), MARGIN_X)
    sm = signed_margin((1, 0), MARGIN_X, MARGIN_Y)
    return {"holds": m.squared == F(1, 10000) and sm.numerator == -1,
            "text": f"unsigned margin {m.value}; signed margin {sm.value} (sample 2, ((-1,-1), +1), is on the "
                    "wrong side)",
            "unsigned margin": m.value, "signed margin": sm.value}


@erratum("seed000-augmented-hyperplane", seed=SEED000,
         where="Linear Classification by a Hyperplane not thru Origin",
         notes_say='after z_i = [1; x_i]: "Separating hyperplane: alpha^T z + b >= 0"',
         correct="after augmentation the bias is absorbed: w = (b, alpha) in R^(d+1) and the hyperplane is "
                 "w^T z = 0 (alpha^T z is not even defined: alpha has d entries, z has d+1)")
def _e_aug():
    # a separator not through the origin for 1-D data: x > 2 is +1
    X, y = [(1,), (3,)], [-1, 1]
    run = perceptron(X, y, bias="first")
    b, alpha = run.w[0], run.w[1:]
    ok = all(yi * (b + alpha[0] * F(x[0])) > 0 for x, yi in zip(X, y))
    return {"holds": ok and run.converged,
            "text": f"1-D data x=1 (-1), x=3 (+1) with z = (1, x): the perceptron finds w = (b, alpha) = "
                    f"{_f(run.w)}; w^T z = alpha x + b separates them",
            "w": run.w}
