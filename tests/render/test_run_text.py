"""The whole result in text (report.run_text): what --json carries, readable, and nothing that means nothing for
the algorithm.  Expected values are derived by hand in the comments."""

from __future__ import annotations

from fractions import Fraction as F

import exactlin  # noqa: F401  (registers the views)
from exactlin.algorithms import get
from exactlin.lectures.examples import run_example
from exactlin.render.report import run_text

X1, Y1 = [(0,), (2,)], [-1, 1]  # hard margin by hand: w = 1, b = -1, alpha = (1/2, 1/2), both support vectors


def test_svm_text_shows_support_vectors_alpha_kkt_objective():
    text = run_text(get("svm-soft").func(X1, Y1, bias="first"))
    assert "w = (-1, 1)   (bias entry first: features (1), intercept -1)" in text
    assert "support vectors (samples): (1, 2)" in text  # both samples, numbered from 1
    assert "alpha: (1/2, 1/2)" in text
    assert "KKT conditions (hinge loss): verified yes" in text
    assert "objective: 1/2" in text  # 1/2 ||w||^2 + C sum xi = 1/2 + 0
    assert "updates:" not in text and "epochs:" not in text  # a closed form: no counts
    assert "degree" not in text and "coef0" not in text  # a linear kernel has no kernel parameters
    assert "reason: solved (solved exactly and verified)" in text
    assert len(max(text.split("\n"), key=len)) < 200  # one short reason, not the generic text


def test_svm_kernel_parameters_shown_for_a_polynomial_kernel():
    text = run_text(get("svm-hard").func(X1, Y1, bias="first", kernel="poly"))
    assert "kernel=poly, degree=2, coef0=1" in text


def test_fisher_text_shows_J_means_S_W_and_the_threshold():
    # by hand: m1 = (1, 0), m2 = (0, 3), S1 = [[2, 0], [0, 0]], S2 = [[0, 0], [0, 2]], S_W = 2 I,
    # w = S_W^-1 (m1 - m2) = (1/2, -3/2); J = (w.(m1 - m2))^2 / w^t S_W w = 25 / 5 = 5;
    # projected means 1/2 and -9/2, y0^(1) = their midpoint -2
    text = run_text(get("fisher").func([(0, 0), (2, 0), (0, 2), (0, 4)], [1, 1, -1, -1]))
    assert "w = (1/2, -3/2)" in text
    assert "J(w) = w^t S_B w / w^t S_W w: 5" in text
    assert "m1 = (1, 0), m2 = (0, 3); projected: 1/2, -9/2" in text
    assert "S_W: ((2, 0), (0, 2))" in text
    assert "y0: -2" in text and "threshold deciding: y0^(1)" in text


def test_pocket_text_shows_E_in_and_training_errors():
    # seed 001, Example 2 with T = 5 (hand derivation in the example): the pocket keeps w = (0, 2), E_in = 1/2,
    # i.e. 2 of the 4 samples misclassified
    run = run_example("seed001-pocket-ex2").runs[0]
    text = run_text(run, trace=False)
    assert "E_in (pocket weights): 1/2" in text
    assert "training errors: 2 of 4" in text


def test_cycle_certificate_in_text_numbers_samples_from_1():
    run = run_example("seed000-example2").runs[0]
    cycle = run.extras["certificate"]["cycle"]
    text = run_text(run, trace=False)
    assert "cycle = (" + ", ".join(str(i + 1) for i in cycle) + ")" in text  # JSON and Python keep 0-based
    assert min(cycle) == 0
    assert "training errors: 4 of 4" in text  # it stops at w = 0: every sample has score 0


def test_labels_mapping_with_positive_and_no_zero_counts_for_closed_forms():
    X = [(2, 1), (1, 3), (-1, -1), (-2, 1)]
    run = get("perceptron").func(X, ["cat", "cat", "dog", "dog"], positive="cat")
    assert "labels: +1 = cat, -1 = dog" in run_text(run)
    mse = run_text(get("mse").func(X, ["cat", "cat", "dog", "dog"], positive="dog", bias="first"))
    assert "labels: +1 = dog, -1 = cat" in mse
    assert "updates:" not in mse


def test_long_traces_show_head_and_tail():
    from exactlin.render.report import TRACE_ROWS, head_tail

    rows = [[str(k)] for k in range(1, 101)]
    shown = head_tail(rows, TRACE_ROWS, 2)
    assert len(shown) == TRACE_ROWS + 1
    assert shown[TRACE_ROWS // 2][1] == f"{100 - TRACE_ROWS} rows left out (the JSON has them all)"
    assert shown[0] == ["1"] and shown[-1] == ["100"]
    assert head_tail(rows[:10], TRACE_ROWS, 2) == rows[:10]


def test_big_numbers_read_as_decimals_in_text():
    big = F(10**60 + 1, 3)
    from exactlin.model.run import Run

    run = Run(algorithm="perceptron", w=(big, 1), bias="none", converged=True, reason="converged")
    text = run_text(run)
    # (10^60 + 1)/3 = 3.333...e+59: five significant digits 3.3333e+59; 61-digit numerator over a 1-digit one
    assert "w = (≈3.3333e+59 (61/1 digits), 1)" in text
