"""Issue 15, items 1-5: the lecture as printed (variant="printed"), Ho-Kashyap's b_min stop, the stop
conventions (last_update_step, stop_on_cycle, the batch criterion), relaxation's test, the threshold unit,
Fisher's scatter and perceptron-gd from any start.

Every expected value is a hand derivation (in the comment beside it) or an independent plain-Fraction
reference written in this file; none is taken from exactlin's own output.
"""

from fractions import Fraction as F

import pytest

from exactlin.algorithms.fisher import fisher
from exactlin.algorithms.ho_kashyap import ho_kashyap, ho_kashyap_mod1
from exactlin.algorithms.perceptron import perceptron
from exactlin.algorithms.perceptron_family import (
    batch_perceptron,
    batch_pla,
    fixed_increment,
    perceptron_gd,
    pocket,
    variable_increment,
)
from exactlin.algorithms.relaxation import batch_relaxation, single_sample_relaxation
from exactlin.algorithms.threshold_unit import threshold_unit
from exactlin.errors import ExactlinError, ParameterError
from exactlin.model.certificates import GordanCertificate
from exactlin.model.models import ThresholdUnitModel
from exactlin.model.run import Run

#: seed 000, Example 1 and Example 2
EX1_X, EX1_Y = [(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1]
EX2_X, EX2_Y = [(1, 1), (1, -1), (-1, 1), (-1, -1)], [1, -1, -1, 1]
XOR_X, XOR_Y = [(0, 0), (0, 1), (1, 0), (1, 1)], [-1, 1, 1, -1]


def v(*xs):
    return tuple(F(x) for x in xs)


def dot(u, w):
    return sum((F(a) * F(b) for a, b in zip(u, w)), F(0))


def roundtrip(run):
    back = Run.from_json(run.to_json())
    assert back == run
    return back


# ---------------------------------------------------------------------------
# item 1: variant="printed"


def test_perceptron_printed_update_without_label_cycles_back_to_zero():
    # Hand derivation, seed 004's "w <- w + x_i" on Example 1 (test y<w,x> <= 0, bias none):
    # pass 1: w = 0 -> +(4,0) = (4,0); x2: -1*(4+0) = -4 -> (5,1); x3: -(1) -> (5,2); x4: 1*(-10-4) -> (3,0)
    # pass 2: x1: 12 > 0; x2: -3 -> (4,1); x3: -1 -> (4,2); x4: -12 -> (2,0)
    # pass 3: x1: 8; x2 -> (3,1); x3 -> (3,2); x4 -> (1,0);  pass 4: x1: 4; x2 -> (2,1); x3 -> (2,2); x4 -> (0,0)
    # after round 16 the state (w, position) = ((0,0), 0) is the start: 4 + 3 + 3 + 3 = 13 updates.
    # (issue 20: the listing's own test is strict, so the test <= 0 is asked for explicitly here)
    r = perceptron(EX1_X, EX1_Y, variant="printed", strict=False, trace=True)
    assert [s.w_after for s in r.trace if s.update][:4] == [v(4, 0), v(5, 1), v(5, 2), v(3, 0)]
    assert (r.reason, r.updates, r.steps, r.w) == ("cycle", 13, 16, v(0, 0))
    assert r.params["variant"] == "printed" and r.extras["erratum"] == "seed004-update-missing-label"
    assert "certificate" not in r.extras  # a cycle of the printed rule proves nothing about the data
    assert "never stops" in r.extras["printed_note"] and r.extras["monitor"] is None
    assert perceptron(EX1_X, EX1_Y).params["variant"] == "corrected"
    roundtrip(r)
    # the listing by itself (seed 004: "< 0" / "> 0"): from w = 0 nothing is a mistake, one clean scan of the
    # four samples and it returns w = 0 (reason boundary: every sample has score 0)
    r = perceptron(EX1_X, EX1_Y, variant="printed")
    assert (r.reason, r.updates, r.steps, r.w, r.params["strict"]) == ("boundary", 0, 4, v(0, 0), True)


def test_fixed_increment_printed_sign_moves_away():
    # normalized, bias first: y1 = (1,4,0), y2 = (-1,-1,-1), y3 = (-1,0,-1), y4 = (1,-2,-2)
    # a - y_k from a = 0: y1 (score 0) -> a = (-1,-4,0); then y2.a = 5, y3.a = 1, y4.a = 7 > 0;
    # every later pass corrects only y1 (its score falls to -17, -34, ...): after 5 passes a = -5 y1,
    # the last correction at round 17 (pass 5, first round), and no pass is ever clean.
    r = fixed_increment(EX1_X, EX1_Y, variant="printed", max_epochs=5)
    assert (r.reason, r.updates, r.w) == ("max_epochs", 5, v(-5, -20, 0))
    assert r.extras["last_update_step"] == 17 and r.steps == 20
    assert r.extras["erratum"] == "alg4-sign" and "max_epochs" in r.extras["printed_note"]


def test_variable_increment_printed_listing():
    # b = 0, a = 0: line 3 (a.y + 0 < 0) never fires, line 4 (a.y + 0 <= 0 for all) holds after round 1
    r = variable_increment(EX1_X, EX1_Y, b=0, variant="printed")
    assert (r.reason, r.updates, r.steps, r.w) == ("criterion", 0, 1, v(0, 0, 0))
    assert r.extras["separates"] is False and "wrong side" in r.extras["printed_note"]
    # b = 1, a = 0: a.y + 1 = 1 > 0 for every sample: no correction, the until-test never holds
    r = variable_increment(EX1_X, EX1_Y, b=1, variant="printed", max_epochs=3)
    assert (r.reason, r.updates, r.steps) == ("max_epochs", 0, 12)
    assert "no progress" in r.extras["printed_note"] and r.extras["erratum"] == "alg5-rule"


def test_batch_pla_printed_never_resets_delta():
    # Hand derivation (also erratum seed001-batch-pla-reset): Delta_1 = (0,1,-4)/4 classifies all four,
    # then Delta is divided by 4 again and again: w = (0,1/4,-1)(1 + 1/4 + 1/16 + 1/64) = (0,85/256,-85/64)
    r = batch_pla(EX1_X, EX1_Y, variant="printed", max_epochs=4)
    assert r.w == v(0, F(85, 256), F(-85, 64)) and r.reason == "max_epochs"
    assert r.extras["Delta"] == v(0, F(1, 256), F(-1, 64)) and r.extras["last_update_step"] == 4
    # epsilon = 1/20: ||Delta_k||^2 = 17/16 / 16^(k-1) <= 1/400 first at k = 4 (17/65536 * 16 = 17/4096 > 1/400
    # at k = 3; 17/65536 <= 1/400 at k = 4)
    r = batch_pla(EX1_X, EX1_Y, variant="printed", epsilon=F(1, 20))
    assert (r.reason, r.epochs) == ("criterion", 4)


def test_pocket_printed_compares_with_previous_iterate():
    # independent reference: PLA on Example 2 (through the origin), T = 5, keep w(t+1) when it beats w(t)
    X, z = [v(*x) for x in EX2_X], EX2_Y

    def E(w):
        return F(sum(1 for x, zi in zip(X, z) if (dot(w, x) > 0) - (dot(w, x) < 0) != zi), 4)

    w, pos, kept, kept_E, prev = v(0, 0), 0, v(0, 0), E(v(0, 0)), E(v(0, 0))
    for _ in range(5):
        for off in range(4):
            i = (pos + off) % 4
            if (dot(w, X[i]) > 0) - (dot(w, X[i]) < 0) != z[i]:
                break
        w = tuple(a + z[i] * b for a, b in zip(w, X[i]))
        pos = (i + 1) % 4
        if E(w) < prev:
            kept, kept_E = w, E(w)
        prev = E(w)
    r = pocket(EX2_X, EX2_Y, bias="none", T=5, variant="printed")
    assert (r.w, r.extras["E_in"]) == (kept, kept_E)
    assert r.extras["E_in"] > pocket(EX2_X, EX2_Y, bias="none", T=5).extras["E_in"]  # the erratum's point
    assert r.extras["erratum"] == "pocket-comparison"


def test_perceptron_gd_printed_stop_and_any_start():
    # Example 2 through the origin from y_1 x_1 = (1,1): V = {4} (y4 x4 . w = -2), w = (0,0), R = 0
    printed = perceptron_gd(EX2_X, EX2_Y, bias="none", variant="printed")
    assert (printed.reason, printed.converged, printed.w) == ("criterion", True, v(0, 0))
    assert "[0, 1, 2, 3]" in printed.extras["printed_note"]
    assert perceptron_gd(EX2_X, EX2_Y, bias="none").reason == "boundary"
    # from w = 0 (bias last): test "<" -> V empty, stops at once; "<=" -> w = sum of y_i x~_i
    # y_i x~_i = (4,0,1), (-1,-1,-1), (0,-1,-1), (-2,-2,1): sum (1,-4,0), whose scores 4, 3, 4, 6 are > 0
    strict = perceptron_gd(EX1_X, EX1_Y, w0=(0, 0, 0))
    assert (strict.reason, strict.w, strict.updates) == ("boundary", v(0, 0, 0), 0)
    assert "none is in V" in strict.extras["first_step"]
    loose = perceptron_gd(EX1_X, EX1_Y, w0=(0, 0, 0), test="<=")
    assert (loose.reason, loose.w, loose.updates) == ("converged", v(1, -4, 0), 1)
    assert "first step" in loose.extras["first_step"]


def test_variant_is_a_checked_choice():
    with pytest.raises(ParameterError, match="variant"):
        perceptron(EX1_X, EX1_Y, variant="literal")


# ---------------------------------------------------------------------------
# item 2: Ho-Kashyap with Algorithm 11's stop


def _solve(A, b):
    """Gauss-Jordan on Fractions (A square, invertible): the reference's own linear solver."""
    n = len(A)
    M = [list(map(F, row)) + [F(bi)] for row, bi in zip(A, b)]
    for c in range(n):
        p = next(r for r in range(c, n) if M[r][c] != 0)
        M[c], M[p] = M[p], M[c]
        M[c] = [x / M[c][c] for x in M[c]]
        for r in range(n):
            if r != c and M[r][c] != 0:
                f = M[r][c]
                M[r] = [x - f * y for x, y in zip(M[r], M[c])]
    return [M[r][n] for r in range(n)]


def _hk_reference(Y, eta, b_min, k_max):
    """Algorithm 11 as listed (with b + 2 eta e+): a = Y^+ b via the normal equations (Y full column rank)."""
    d = len(Y[0])
    YtY = [[sum(y[i] * y[j] for y in Y) for j in range(d)] for i in range(d)]

    def pinv_b(b):
        return _solve(YtY, [sum(y[i] * bi for y, bi in zip(Y, b)) for i in range(d)])

    b = [F(1)] * len(Y)
    a = pinv_b(b)
    for k in range(1, k_max + 1):
        e = [dot(a, y) - bi for y, bi in zip(Y, b)]
        b = [bi + 2 * eta * (ei + abs(ei)) / 2 for bi, ei in zip(b, e)]
        a = pinv_b(b)
        if all(abs(ei) <= b_min for ei in e):
            return a, b, e, k, "criterion"
    return a, b, e, k_max, "max_steps"


@pytest.mark.parametrize("b_min", [F(1, 2), F(1, 10), F(1, 100)])
def test_ho_kashyap_b_min_stop_matches_the_listing(b_min):
    Y = [v(1, 4, 0), v(-1, -1, -1), v(-1, 0, -1), v(1, -2, -2)]  # Example 1, bias first, normalized
    a, b, e, k, reason = _hk_reference(Y, F(1, 2), b_min, 40)
    r = ho_kashyap(EX1_X, EX1_Y, b_min=b_min, stop="b_min", k_max=40)
    assert (r.w, r.extras["b"], r.extras["e"], r.steps, r.reason) == (tuple(a), tuple(b), tuple(e), k, reason)
    # a(1) = Y^+ 1 already separates: the default stop ends before any update, whatever b_min
    assert ho_kashyap(EX1_X, EX1_Y, b_min=b_min).steps == 0
    assert r.extras["separator_at"] == 1 and r.extras["verdict"] == "separable"
    m1 = ho_kashyap_mod1(EX1_X, EX1_Y, b_min=b_min, stop="b_min", k_max=40)
    assert (m1.w, m1.steps, m1.reason) == (tuple(a), k, reason)  # Modification I: the same iterates
    roundtrip(r)


def test_ho_kashyap_b_min_runs_differ_by_b_min():
    runs = {bm: ho_kashyap(EX1_X, EX1_Y, b_min=bm, stop="b_min", k_max=40) for bm in (F(1, 2), F(1, 10))}
    assert runs[F(1, 2)].steps == 1 and runs[F(1, 10)].steps == 2  # (the reference above, checked per b_min)


def test_ho_kashyap_b_min_certificate_and_errors():
    # (0,), (1,), (2,) with labels 1, -1, 1 (bias first) is not separable: e(1) <= 0, e != 0 at k = 1
    r = ho_kashyap([(0,), (1,), (2,)], [1, -1, 1], b_min=0, stop="b_min")
    assert (r.reason, r.steps) == ("not_separable", 1)
    assert isinstance(r.extras["certificate"], GordanCertificate)
    with pytest.raises(ParameterError, match="b_min"):
        ho_kashyap(EX1_X, EX1_Y, stop="b_min")


def test_ho_kashyap_printed_b_update_is_undefined_unless_square():
    with pytest.raises(ParameterError, match="seed003-ho-kashyap-b-update"):
        ho_kashyap(EX1_X, EX1_Y, variant="printed")  # a has 3 entries, b 4
    # n = d = 2: Y = [(1,1), (-1,-2)] is invertible, Y^{-1} = [(2,1), (-1,-1)], a(1) = Y^{-1} (1,1) = (3,-2) and
    # e(1) = 0.  The listing by itself (issue 20: its own stop, b_min = 0): line 5 b <- a + 2 eta e+ = (3,-2),
    # line 6 a <- Y^{-1} b = (6-2, -3+2) = (4,-1), line 7 |e(1)| = 0 <= 0 returns them; Y a = (3,-2) is no separator
    r = ho_kashyap([(1,), (2,)], [1, -1], variant="printed")
    assert (r.reason, r.w, r.extras["b"], r.steps) == ("criterion", (4, -1), (3, -2), 1)
    assert r.extras["erratum"] == "seed003-ho-kashyap-b-update" and not r.converged


# ---------------------------------------------------------------------------
# item 3: stop conventions


def test_last_update_step_beside_steps():
    # seed 000 Example 1 (hand derivation in the README's quickstart): mistakes at rounds 1, 2, 4; a clean
    # pass of rounds 5-8 ends the run
    r = perceptron(EX1_X, EX1_Y)
    assert (r.steps, r.extras["last_update_step"]) == (8, 4)
    assert roundtrip(r).extras["last_update_step"] == 4
    # Algorithm 3 on Example 1: iteration 1 corrects, iteration 2 finds Y_k empty
    b = batch_perceptron(EX1_X, EX1_Y)
    assert (b.epochs, b.extras["last_update_step"]) == (2, 1)


def test_stop_on_cycle_false_keeps_cycling():
    # Example 2 through the origin: mistakes at rounds 1 (+(1,1)), 2 (-(1,-1) -> (0,2)), 3 (-(-1,1) -> (1,1)),
    # 4 (+(-1,-1) -> (0,0)): the state ((0,0), 0) repeats at round 4, and every pass repeats it
    stop = perceptron(EX2_X, EX2_Y)
    assert (stop.reason, stop.steps) == ("cycle", 4)
    go = perceptron(EX2_X, EX2_Y, stop_on_cycle=False, max_epochs=5, trace=True)
    assert (go.reason, go.steps, go.updates, go.extras["cycle_step"]) == ("max_epochs", 20, 20, 4)
    ws = [s.w_after for s in go.trace]
    assert ws[:4] == ws[4:8] == ws[16:20] == [v(1, 1), v(0, 2), v(1, 1), v(0, 0)]
    assert isinstance(go.extras["certificate"], GordanCertificate)
    roundtrip(go)


def test_batch_perceptron_theta_criterion_on_xor():
    # XOR, bias first, a = 0: every sample has score 0, Y_1 = all four, sum of the normalized samples
    # (1,0,0) + (-1,0,-1)... : -(1,0,0) + (1,0,1) + (1,1,0) - (1,1,1) = (0,0,0): a zero increment
    r = batch_perceptron(XOR_X, XOR_Y, theta=1)
    assert (r.reason, r.converged, r.epochs, r.w) == ("criterion", True, 1, v(0, 0, 0))
    assert isinstance(r.extras["certificate"], GordanCertificate)
    assert batch_perceptron(XOR_X, XOR_Y).reason == "cycle"  # theta = 0: no criterion, the repeat


# ---------------------------------------------------------------------------
# item 4: relaxation's test


@pytest.mark.parametrize("algo", [single_sample_relaxation, batch_relaxation])
def test_relaxation_le_test_stalls_at_b(algo):
    # (1,1), (1,-1), labels +1, bias none, b = 1, eta = 1: a = 0 -> y1: c = (1 - 0)/2 -> a = (1/2,1/2);
    # y2: a.y2 = 0 -> a = (1,0) (single-sample; the batch step adds both halves at once: also (1,0)).
    # Then a.y1 = a.y2 = 1 = b exactly: "<" is done, "<=" fires with correction 0 forever.
    lt = algo([(1, 1), (1, -1)], [1, 1], bias="none")
    le = algo([(1, 1), (1, -1)], [1, 1], bias="none", test="<=")
    assert (lt.reason, lt.w) == ("converged", v(1, 0))
    assert (le.reason, le.converged, le.w, le.extras["at_b"]) == ("stalled", False, v(1, 0), (0, 1))
    assert "certificate" not in le.extras and "no proof" in le.extras["stalled_note"]
    roundtrip(le)


def test_relaxation_le_without_a_sample_at_b_converges():
    # eta = 3/2 over-relaxes past b: a.y > b for both samples at the end, so "<=" converges too
    r = single_sample_relaxation([(1, 1), (1, -1)], [1, 1], bias="none", test="<=", eta=F(3, 2))
    assert r.reason == "converged" and all(dot(r.w, y) > 1 for y in [(1, 1), (1, -1)])


# ---------------------------------------------------------------------------
# item 5: the threshold unit, Fisher's scatter


def _unit_reference(X, t, tie, x0, eta=F(1), max_epochs=50):
    """Mitchell's rule w <- w + eta (t - o) x~ with x~ = (x0, x), cyclic passes until one is clean."""
    Xa = [(F(x0),) + tuple(map(F, x)) for x in X]
    w = (F(0),) * len(Xa[0])
    k = last = 0
    for _ in range(max_epochs):
        clean = True
        for x, ti in zip(Xa, t):
            k += 1
            net = dot(w, x)
            o = 1 if (net >= 0 if tie == ">=" else net > 0) else 0
            if o != ti:
                w = tuple(a + eta * (ti - o) * b for a, b in zip(w, x))
                clean, last = False, k
        if clean:
            return w, last
    raise AssertionError("no convergence")


@pytest.mark.parametrize("tie", [">=", ">"])
@pytest.mark.parametrize("x0", [1, -1])
def test_threshold_unit_matches_mitchells_rule(tie, x0):
    T = [1, 0, 0, 1]
    w, last = _unit_reference(EX1_X, T, tie, x0)
    r = threshold_unit(EX1_X, T, tie=tie, bias_input=x0)
    assert (r.w, r.extras["last_update_step"], r.reason) == (w, last, "converged")
    assert r.predict(EX1_X) == tuple(T)
    assert isinstance(r.model, ThresholdUnitModel)
    roundtrip(r)


def test_threshold_unit_tie_and_monitor():
    # Hand derivation (tie >=, x0 = 1): mistakes at rounds 2 (x2, net 0 -> o = 1, t = 0), 5, 6, 8:
    # w = (-1,-1,-1), (0,3,-1), (-1,2,-2), (0,0,-4); x1 ends at net 0, correct for t = 1 under ">=" only
    r = threshold_unit(EX1_X, [1, 0, 0, 1], trace=True)
    assert [s.w_after for s in r.trace if s.update] == [v(-1, -1, -1), v(0, 3, -1), v(-1, 2, -2), v(0, 0, -4)]
    assert r.extras["on_boundary"] == (0,) and r.extras["monitor"] is None
    assert "net = 0" in r.extras["monitor_note"]
    # tie ">": a zero net is a mistake for t = 1, so it runs as Algorithm 4 (hand derivation in
    # examples_family: a = (1,1,-3), 3 corrections) and the monitor applies: R^2 ||w*||^2 / gamma^2 = 17*11/1
    g = threshold_unit(EX1_X, [1, 0, 0, 1], tie=">")
    assert g.w == v(1, 1, -3) and g.extras["monitor"].bound == 187 and g.extras["monitor"].holds
    # a zero net predicts the positive label with ">=", the negative with ">"
    assert r.model.predict((0, 0)) == 1 and r.model.predict((0, 1)) == 0  # net 0 -> o = 1; net -4 -> 0
    assert ThresholdUnitModel(v(0, 0, 0), "first").predict((3, 3)) == 1
    assert ThresholdUnitModel(v(0, 0, 0), "first", tie=">").predict((3, 3)) == 0


def test_threshold_unit_xor_cycle_certificate():
    r = threshold_unit(XOR_X, [0, 1, 1, 0])
    assert r.reason == "cycle" and isinstance(r.extras["certificate"], GordanCertificate)


def test_fisher_scatter_conventions():
    # Hand derivation: class 1 (0,0),(2,0),(0,2): m1 = (2/3,2/3), S1 = [[8/3,-4/3],[-4/3,8/3]];
    # class 2 (5,5),(7,5): m2 = (6,5), S2 = [[2,0],[0,0]]; m1 - m2 = (-16/3,-13/3).
    # n-1: S1/2 + S2/1 = [[10/3,-2/3],[-2/3,4/3]]; w = (-5/2,-9/2): 10/3(-5/2) - 2/3(-9/2) = -16/3,
    #      -2/3(-5/2) + 4/3(-9/2) = -13/3.
    # n:   S1/3 + S2/2 = [[17/9,-4/9],[-4/9,8/9]]; det = 136/81 - 16/81 = 120/81 = 40/27;
    #      w = (27/40) [[8/9,4/9],[4/9,17/9]] (-16/3,-13/3) = (27/40)(-180/27, -285/27) = (-9/2, -57/8).
    X, y = [(0, 0), (2, 0), (0, 2), (5, 5), (7, 5)], [1, 1, 1, -1, -1]
    r1 = fisher(X, y, scatter="n-1")
    assert r1.w == v(F(-5, 2), F(-9, 2)) and r1.extras["S_W"] == ((F(10, 3), F(-2, 3)), (F(-2, 3), F(4, 3)))
    rn = fisher(X, y, scatter="n")
    assert rn.w == v(F(-9, 2), F(-57, 8))
    rs = fisher(X, y)
    assert rs.extras["scatter"] == "sum" and rs.extras["S_W"] == ((F(14, 3), F(-4, 3)), (F(-4, 3), F(8, 3)))
    # J = (w.(m1-m2))^2 / w^t S_W' w with S_W' the matrix used; for n-1: w.(m1-m2) = 40/3 + 39/2 = 197/6,
    # and S_W' w = m1 - m2 gives w^t S_W' w = 197/6 as well: J = 197/6
    assert r1.extras["J"] == F(197, 6)
    with pytest.raises(ExactlinError, match="one sample"):
        fisher([(0, 0), (2, 1), (5, 5)], [1, -1, -1], scatter="n-1")
