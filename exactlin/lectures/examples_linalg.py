"""Worked examples and errata of seed 003's minimum-squared-error, Ho-Kashyap and Fisher sections and of
seed 004's circle lift.

Expected values are the lecture's printed numbers or hand derivations (said in ``source``).

Seed 003's pseudoinverse example prints only the normalized matrix Y.  With ``bias="first"`` (rows
z_i (1, x_i)), its rows (1,1,2) and (1,2,0) are omega_1 samples x = (1,2) and (2,0), and its rows
(-1,-3,-1) and (-1,-2,-3) are omega_2 samples x = (3,1) and (2,3), multiplied by -1.  The a printed, (11/3, -4/3, -2/3),
gives g(x) = 11/3 - (4/3) x1 - (2/3) x2, and -3 g(x) = 4 x1 + 2 x2 - 11: the hyperplane drawn.
"""

from __future__ import annotations

from fractions import Fraction as F

from exactlin.algorithms.features import lift_circle, with_features
from exactlin.algorithms.fisher import fisher, sign_c_plus_s_log
from exactlin.algorithms.ho_kashyap import ho_kashyap, ho_kashyap_mod1, ho_kashyap_mod2
from exactlin.algorithms.mse import lms, mse, widrow_hoff
from exactlin.errors import ParameterError
from exactlin.lectures.errata import erratum, side_by_side
from exactlin.lectures.examples import Check, ExampleResult, example
from exactlin.lectures.notes import MSE_X, MSE_Y, PINV_PRINTED, SEED003, SEED004, Y_PRINTED
from exactlin.linalg.matrices import inverse, matmul, pinv, transpose, verify_penrose

A_PRINTED = (F(11, 3), F(-4, 3), F(-2, 3))

#: seed 004's circle: inside the unit circle +1, outside -1
CIRCLE_X = [(0, 0), (F(1, 2), 0), (0, F(-1, 2)), (2, 0), (-2, 0), (0, 2), (0, -2), (F(3, 2), F(3, 2))]
CIRCLE_Y = [1, 1, 1, -1, -1, -1, -1, -1]

#: a hand-derivable Fisher set
FISHER_X = [(1, 0), (3, 0), (2, 1), (-1, 0), (-3, 0), (-2, -1)]
FISHER_Y = [1, 1, 1, -1, -1, -1]


def _tup(M):
    return tuple(tuple(F(v) for v in row) for row in M)


@example("seed003-pseudoinverse", title="MSE by the pseudoinverse: Y^+, a = Y^+ b and the hyperplane 4x1 + 2x2 = 11",
         seed=SEED003, algorithm="mse")
def ex_pseudoinverse() -> ExampleResult:
    run = mse(MSE_X, MSE_Y)
    Yp = run.extras["Y_pinv"]
    a = run.w
    checks = [
        Check("normalized Y from omega_1 = {(1,2),(2,0)}, omega_2 = {(3,1),(2,3)}, bias first", _tup(Y_PRINTED),
              run.problem.Z),
        Check("Y^+ = lim (Y^tY + eps I)^{-1} Y^t", PINV_PRINTED, Yp),
        Check("the four Penrose conditions hold (independent check)", True, verify_penrose(run.problem.Z, Yp),
              "verified: Penrose conditions (exactlin.linalg.matrices.verify_penrose)"),
        Check("a = Y^+ b with b = (1,1,1,1)", A_PRINTED, a),
        Check("hyperplane -3 a^t (1, x) = 4 x1 + 2 x2 - 11", (F(-11), F(4), F(2)), tuple(-3 * v for v in a)),
        Check("Y a = b exactly (so J_s(a) = 0 and every sample is classified correctly)", F(0), run.extras["J_s"],
              "hand derivation"),
        Check("Y^+ Y = I (full column rank)", _tup(((1, 0, 0), (0, 1, 0), (0, 0, 1))), matmul(Yp, run.problem.Z),
              "hand derivation"),
        Check("but Y Y^+ != I (the notes' remark): it is the 4x4 projector onto the column space", False,
              matmul(run.problem.Z, Yp) == _tup([[int(i == j) for j in range(4)] for i in range(4)])),
    ]
    return ExampleResult([run], checks, notes=[
        "The notes print Y already normalized; the data behind it are omega_1 = {(1,2), (2,0)} and "
        "omega_2 = {(3,1), (2,3)} with the constant 1 first.",
        "Here Y a = b exactly (b is in the column space of Y), so the MSE solution is also a separating vector "
        "with every margin a^t y_i = 1."], data={"Y": run.problem.Z, "Y_pinv": Yp, "a": a})


@example("seed003-ho-kashyap", title="Ho-Kashyap: separable at once, a proof of non-separability, and a run "
         "that needs iterations", seed=SEED003, algorithm="ho-kashyap")
def ex_ho_kashyap() -> ExampleResult:
    r1 = ho_kashyap(MSE_X, MSE_Y, trace=True)
    r2 = ho_kashyap([(0,), (1,), (2,)], [1, -1, 1], trace=True)
    r3 = ho_kashyap([(0,), (1,), (2,), (30,)], [1, 1, -1, -1], eta=F(1, 2), k_max=400)
    r4 = ho_kashyap_mod1([(0,), (1,), (2,), (30,)], [1, 1, -1, -1], eta=F(1, 2), k_max=400)
    r5 = ho_kashyap_mod2(MSE_X, MSE_Y, eta=F(1, 16), k_max=500)
    checks = [
        Check("seed 003's example: e(1) = Y a(1) - b = 0, a solution (the notes: 'e(k) = 0 and we have a "
              "solution')", ("separable", (0, 0, 0, 0)), (r1.extras["verdict"], r1.extras["e"]),
              "hand derivation: Y a(1) = b exactly (seed003-pseudoinverse), so e(1) = 0"),
        Check("x = 0 (+1), 1 (-1), 2 (+1): e = (-2/3, -4/3, -2/3) <= 0, a proof of non-separability",
              ("not_separable", (F(-2, 3), F(-4, 3), F(-2, 3))), (r2.extras["verdict"], r2.extras["e"]),
              "hand derivation: Y^tY = [[3,3],[3,5]], Y^t 1 = (1,1), a = (1/3, 0)"),
        Check("its Gordan certificate lambda = -e/sum(-e)", (F(1, 4), F(1, 2), F(1, 4)),
              r2.extras["certificate"].lam, "hand derivation"),
        Check("omega_1 = {0, 1}, omega_2 = {2, 30}: the MSE a misclassifies, Ho-Kashyap separates",
              "separable", r3.extras["verdict"], "hand derivation: 3/2 separates"),
        Check("Modification I runs the same iterates as Algorithm 11 (a(k) = Y^+ b(k))", r3.w, r4.w,
              "hand derivation: Y^+ e(k) = 0"),
        Check("Modification II with eta = 1/16 < 2/lambda_max(Y^tY) separates seed 003's example", "separable",
              r5.extras["verdict"], "hand derivation: a = (11/3,-4/3,-2/3) gives Y a = b > 0, so the data are "
              "separable"),
    ]
    return ExampleResult([r1, r2, r3, r4, r5], checks, notes=[
        "Algorithm 11 is run with b <- b + 2 eta e+ (the notes print 'b <- a + 2 eta e+'; see the erratum).",
        f"The third data set needs {r3.updates} updates of b before Y a > 0."])


@example("seed003-widrow-hoff", title="Widrow-Hoff and LMS approach Y^+ b exactly; the bit lengths grow",
         seed=SEED003, algorithm="widrow-hoff")
def ex_widrow_hoff() -> ExampleResult:
    wh = widrow_hoff(MSE_X, MSE_Y, eta1=F(1, 40), k_max=40, trace=True)
    lm = lms(MSE_X, MSE_Y, eta1=F(1, 10), k_max=40, trace=True)
    d = wh.extras["dist2"]
    checks = [
        Check("the limit is the MSE solution Y^+ b", A_PRINTED, wh.extras["a_star"]),
        Check("a(2) = a(1) - eta(1) Y^t(Y a(1) - b) = (1/40) Y^t b = (0, -1/20, -1/20)", (F(0), F(-1, 20), F(-1, 20)),
              wh.trace[0].w_after, "hand derivation: Y^t b = column sums of Y = (0, -2, -2)"),
        Check("||a(k) - Y^+ b||^2 decreases at every step (eta <= 1/40 < 2/lambda_max)", True,
              all(x > y for x, y in zip(d, d[1:])), "hand derivation: trace(Y^tY) = 36 > lambda_max"),
        Check("LMS a(2) = a(1) + eta(1)(b_1 - a^t y^1) y^1 = (1/10)(1, 1, 2)", (F(1, 10), F(1, 10), F(1, 5)),
              lm.trace[0].w_after, "hand derivation"),
    ]
    return ExampleResult([wh, lm], checks, notes=[
        f"After 40 steps ||a - Y^+ b||^2 = {d[-1]} (Widrow-Hoff); the numbers reached {wh.extras['max_bits']} bits "
        f"(Widrow-Hoff) and {lm.extras['max_bits']} bits (LMS). Use max_bits to bound them."])


@example("seed003-fisher", title="Fisher's discriminant on a hand-derivable set", seed=SEED003, algorithm="fisher")
def ex_fisher() -> ExampleResult:
    r = fisher(FISHER_X, FISHER_Y)
    e = r.extras
    checks = [
        Check("m1, m2", ((F(2), F(1, 3)), (F(-2), F(-1, 3))), (e["m1"], e["m2"]), "hand derivation"),
        Check("S_W = S_1 + S_2", _tup([[4, 0], [0, F(4, 3)]]), e["S_W"], "hand derivation"),
        Check("w = S_W^{-1}(m1 - m2)", (F(1), F(1, 2)), r.w, "hand derivation"),
        Check("J(w) = w^t S_B w / w^t S_W w = (169/9)/(13/3)", F(13, 3), e["J"], "hand derivation"),
        Check("y0^(1) = y0^(2) = 0 (symmetric classes)", (F(0), F(0)), (e["thresholds"]["1"], e["thresholds"]["2"]),
              "hand derivation"),
        Check("every training sample classified correctly", 0, e["training_errors"], "hand derivation"),
    ]
    return ExampleResult([r], checks)


@example("seed004-circle-lift", title="The circle: not linearly separable in the plane, separable after "
         "phi(x, y) = (x, y, x^2 + y^2)", seed=SEED004, algorithm="feature-map")
def ex_circle() -> ExampleResult:
    from exactlin.algorithms.perceptron import perceptron
    from exactlin.theory.certificates import verify_gordan

    before = perceptron(CIRCLE_X, CIRCLE_Y, bias="first")
    hk = ho_kashyap(CIRCLE_X, CIRCLE_Y)
    after = with_features("perceptron", lift_circle, name="circle", kind="circle")(CIRCLE_X, CIRCLE_Y,
                                                                                   bias="first")
    hk_after = with_features("ho-kashyap", lift_circle, name="circle")(CIRCLE_X, CIRCLE_Y, bias="first")
    verify_gordan(before.problem.Z, before.extras["certificate"].lam)
    checks = [
        Check("in the plane the perceptron cycles: a verified Gordan certificate", ("cycle", True),
              (before.reason, before.extras["certificate"].verified),
              "verified: Gordan (exactlin.theory.certificates.verify_gordan)"),
        Check("Ho-Kashyap in the plane: e <= 0, not separable", "not_separable", hk.extras["verdict"],
              "hand derivation: (0,0) (+1) is the midpoint of (-2,0) and (2,0) (-1)"),
        Check("phi((3/2, 3/2)) = (3/2, 3/2, 9/2)", (F(3, 2), F(3, 2), F(9, 2)), lift_circle([(F(3, 2), F(3, 2))])[0],
              "hand derivation"),
        Check("after the lift the perceptron converges", True, after.converged,
              "hand derivation: the plane z = 1 separates the lifted points (seed 004's argument)"),
        Check("after the lift Ho-Kashyap says separable", "separable", hk_after.extras["verdict"],
              "hand derivation: the plane z = 1 separates the lifted points"),
    ]
    return ExampleResult([before, hk, after, hk_after], checks, notes=[
        "Points inside the unit circle lie below z = 1 after the lift, points outside above it (seed 004): the "
        "plane z = 1, a = (1, 0, 0, -1) with the constant first, separates them."])


# ---------------------------------------------------------------------------
# errata


@erratum("seed003-ho-kashyap-b-update", seed=SEED003, where="Ho-Kashyap: the rule b(k+1) and Algorithm 11, line 5",
         notes_say='"b(k+1) = a(k) + 2 eta(k) e+(k)" and "b <- a + 2 eta(k) e+"',
         correct="b <- b + 2 eta e+: the notes' own derivation b(k+1) = b(k) - eta/2 [grad_b J_s - |grad_b J_s|] "
                 "with grad_b J_s = -2 e gives b + eta (e + |e|) = b + 2 eta e+ (checked by sympy in "
                 "exactlin.lectures.derivations.ho_kashyap_b_rule); a has d+1 entries and b has n")
def _e_hk_b():
    from exactlin.lectures.derivations import ho_kashyap_b_rule

    ho_kashyap_b_rule()
    a = A_PRINTED
    # a square, nonsingular Y (n = d+1), where "a + 2 eta e+" at least type-checks:
    # samples (1, 2) and (0, 1) with labels +1, bias none: Y = [[1, 2], [0, 1]], Y^+ = Y^{-1}
    Y = ((1, 2), (0, 1))
    b = (F(1), F(1))
    Yinv = inverse(Y)
    a_sq = tuple(sum((p * q for p, q in zip(row, b)), F(0)) for row in Yinv)
    e = tuple(sum((F(y) * x for y, x in zip(row, a_sq)), F(0)) - bi for row, bi in zip(Y, b))
    eta = F(1, 2)
    e_plus = tuple((v + abs(v)) / 2 for v in e)
    b_notes = tuple(ai + 2 * eta * ep for ai, ep in zip(a_sq, e_plus))
    b_right = tuple(bi + 2 * eta * ep for bi, ep in zip(b, e_plus))
    # both variants on that square Y with Algorithm 11's own stop (b_min = 0): e(1) = 0, so the listing
    # updates once and returns; printed: b(2) = a(1) = (-1, 1), a(2) = Y^{-1} b(2) = (-3, 1), Y a(2) = (-1, 1)
    corrected_run = ho_kashyap([(1, 2), (0, 1)], [1, 1], bias="none", stop="b_min", b_min=0)
    printed_run = ho_kashyap([(1, 2), (0, 1)], [1, 1], bias="none", stop="b_min", b_min=0, variant="printed")
    try:
        ho_kashyap(MSE_X, MSE_Y, variant="printed")
        undefined = False
    except ParameterError as err:
        undefined = "seed003-ho-kashyap-b-update" in str(err)
    holds = (len(a) == 3 and len(Y_PRINTED) == 4 and a_sq == (F(-1), F(1)) and b_notes == (F(-1), F(1))
             and b_right == b and ho_kashyap(MSE_X, MSE_Y).extras["verdict"] == "separable"
             and printed_run.extras["b"] == (-1, 1) and printed_run.w == (-3, 1)
             and printed_run.extras["verdict"] != "separable" and corrected_run.extras["verdict"] == "separable"
             and undefined)
    return {"holds": holds,
            "text": "on seed 003's example a = Y^+ b has 3 entries and b has 4, so 'a + 2 eta e+' is undefined. "
                    "With a square Y = [[1,2],[0,1]] and b(1) = (1,1): a = Y^{-1} b = (-1, 1), e = 0, and the "
                    "printed rule gives b(2) = a = (-1, 1), a negative margin (b must stay > 0 and never "
                    "decrease); b + 2 eta e+ keeps b = (1, 1)",
            "len(a)": 3, "len(b)": 4, "b(2) as printed": b_notes, "b(2) correct": b_right,
            **side_by_side(corrected_run, printed_run),
            "printed run on seed 003's example": "ParameterError: a has 3 entries and b 4 (undefined)"}


@erratum("seed003-fisher-y0-3-sign", seed=SEED003, where="Fisher: How to find y0?, the third threshold",
         notes_say='"y0^(3) = (m~1 + m~2)/2 + ln(P(w1)/P(w2))/(n1 + n2 - 2)"',
         correct="y0^(3) = (m~1 + m~2)/2 - ln(P(w1)/P(w2))/(n1 + n2 - 2): with the pooled covariance "
                 "S_W/(n1+n2-2) the Bayes rule decides w1 iff (n1+n2-2)(y - (m~1+m~2)/2) + ln(P1/P2) > 0; a larger "
                 "P(w1) must lower the threshold. exactlin computes the corrected y0^(3) (and reports the printed "
                 "one as thresholds['3_as_printed'])")
def _e_fisher_sign():
    # 1-D: omega_1 = {1, 3}, omega_2 = {-1, -3}; priors 9/10, 1/10. By hand: m1 = 2, m2 = -2, S_W = 4,
    # w = 1, m~ = +-2, n1 + n2 - 2 = 2, pooled variance sigma^2 = S_W/2 = 2.
    r = fisher([(1,), (3,), (-1,), (-3,)], [1, 1, -1, -1], priors=(F(9, 10), F(1, 10)))
    x = F(1, 2)
    # Bayes log posterior ratio for Gaussians N(m1, 2), N(m2, 2):
    # [(x - m2)^2 - (x - m1)^2] / (2 sigma^2) + ln 9 = [(5/2)^2 - (3/2)^2]/4 + ln 9 = 1 + ln 9 > 0: omega_1
    c = ((x + 2) ** 2 - (x - 2) ** 2) / 4
    bayes = sign_c_plus_s_log(c, 1, F(9))
    printed = sign_c_plus_s_log(x, -F(1, 2), F(9))  # sign(x - ln(9)/2)
    corrected = sign_c_plus_s_log(x, F(1, 2), F(9))  # sign(x + ln(9)/2)
    holds = bayes == 1 and printed == -1 and corrected == 1 and r.extras["thresholds"]["1"] == 0
    return {"holds": holds,
            "text": "omega_1 = {1, 3}, omega_2 = {-1, -3}, P(omega_1) = 9/10: w = 1, y0^(3) printed = ln(9)/2 "
                    "(about 1.10), corrected = -ln(9)/2. At x = 1/2 the Bayes log posterior ratio is 1 + ln 9 > 0 "
                    "(omega_1); the printed threshold says omega_2 (1/2 < ln(9)/2), the corrected one omega_1",
            "y0 printed": r.extras["thresholds"]["3_as_printed"], "y0 corrected": r.extras["thresholds"]["3"],
            "Bayes at x = 1/2": "omega_1"}


@erratum("seed003-pinv-limit-variable", seed=SEED003, where="Minimum squared error criterion, the limit definition",
         notes_say='"Y^+ = lim_{s -> 0} (Y^tY + epsilon I)^{-1} Y^t"',
         correct="lim_{epsilon -> 0}: the limit is over epsilon (as the example slide writes it); read literally "
                 "the expression does not depend on s, and for a fixed epsilon > 0 it is not Y^+")
def _e_limit():
    Y = _tup(Y_PRINTED)
    YtY = matmul(transpose(Y), Y)
    M = tuple(tuple(v + (1 if i == j else 0) for j, v in enumerate(row)) for i, row in enumerate(YtY))
    fixed = matmul(inverse(M), transpose(Y))  # epsilon = 1
    P = pinv(Y)
    return {"holds": fixed != P and P == PINV_PRINTED,
            "text": f"with epsilon = 1: (Y^tY + I)^(-1) Y^t has first row {fixed[0]}, while Y^+ has {P[0]}",
            "epsilon = 1": fixed, "Y^+": P}


@erratum("seed003-sample-mean", seed=SEED003, where="Fisher: sample mean",
         notes_say='"m_i = 1/n_i sum_{x in D_i} x^{-1}"',
         correct="m_i = (1/n_i) sum_{x in D_i} x (the next line, m~_i = w^t m_i = (1/n_i) sum w^t x, uses it); "
                 "x^{-1} is not even defined for a vector")
def _e_mean():
    r = fisher([(1,), (3,), (-1,), (-3,)], [1, 1, -1, -1])
    printed = (F(1) + F(1, 3)) / 2
    return {"holds": r.extras["m1"] == (F(2),) and printed == F(2, 3),
            "text": "omega_1 = {1, 3}: the mean is 2; the printed formula gives (1 + 1/3)/2 = 2/3",
            "m1": r.extras["m1"], "as printed": printed}
