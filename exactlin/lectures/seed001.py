"""Seed 001 (PLA, batch PLA, pocket): errata of the algorithm listings.

Each demonstration runs the listing as printed with exact Fractions (exactlin does not implement the
printed slips) next to exactlin's algorithm.
"""

from __future__ import annotations

from fractions import Fraction as F

from exactlin.algorithms.perceptron import perceptron
from exactlin.algorithms.perceptron_family import batch_pla
from exactlin.lectures.errata import erratum, side_by_side
from exactlin.lectures.notes import EX1_X, EX1_Y, EX2_X, EX2_Y, SEED001
from exactlin.lectures.notes import dot as _dot
from exactlin.lectures.notes import sign as _sign
from exactlin.lectures.notes import value_text as _fmt


def _aug(X):
    return [(F(1), *map(F, x)) for x in X]


@erratum("seed001-pla-missing-update", seed=SEED001, where="Perceptron Learning Algorithm, steps 2-3",
         notes_say='"2. Receive a x_i in D for which sign(w^T x) != y_i  3. If there is still a x_i ... repeat '
                   'Step 2"',
         correct="step 2 must update w <- w + y_i x_i (and test sign(w^T x_i), not x); as printed w never changes, "
                 "so from w = 0 every sample stays misclassified and step 3 repeats forever")
def _e_pla_update():
    X = _aug(EX1_X)
    w = (F(0),) * 3
    received = 0
    for _ in range(5):  # five passes of the listing as printed: receive, no update
        for x, yi in zip(X, EX1_Y):
            if _sign(_dot(w, x)) != yi:
                received += 1
    still = sum(1 for x, yi in zip(X, EX1_Y) if _sign(_dot(w, x)) != yi)
    run = perceptron(EX1_X, EX1_Y, bias="first")
    return {"holds": still == 4 and received == 20 and run.converged,
            "text": f"Example 1 with the 1 prepended, w = 0: the printed steps receive {received} misclassified "
                    f"samples in 5 passes and w stays {_fmt(w)} ({still} of 4 still misclassified); with the "
                    f"update w + y_i x_i the PLA stops at {_fmt(run.w)} after {run.updates} updates",
            "w as printed": w, "PLA w": run.w}


@erratum("seed001-batch-pla-reset", seed=SEED001, where="Batch PLA, steps 1-2",
         notes_say='"1. Initialize w ... Delta = (0, ..0)  2. do For i = 1..N ... Delta <- Delta + y_i x_i; '
                   'Delta <- Delta/N; w <- w + alpha Delta while ||Delta||_2 > epsilon"',
         correct="Delta must be reset to 0 at the start of every do-iteration (exactlin does): as printed the old "
                 "Delta is carried over, so w keeps moving after every sample is classified and with epsilon = 0 "
                 "the loop never ends")
def _e_batch_reset():
    X = _aug(EX1_X)
    N = len(X)
    w, delta = (F(0),) * 3, (F(0),) * 3
    ws = []
    for _ in range(4):  # four do-iterations as printed (no reset)
        for x, yi in zip(X, EX1_Y):
            if _sign(_dot(w, x)) != yi:
                delta = tuple(d + yi * v for d, v in zip(delta, x))
        delta = tuple(d / N for d in delta)
        w = tuple(a + d for a, d in zip(w, delta))
        ws.append(w)
    errors_after_1 = sum(1 for x, yi in zip(X, EX1_Y) if _sign(_dot(ws[0], x)) != yi)
    run = batch_pla(EX1_X, EX1_Y)
    printed = batch_pla(EX1_X, EX1_Y, variant="printed", max_epochs=4)
    # Hand derivation: Delta_1 = (0,1,-4)/4 = (0,1/4,-1) classifies all four; then Delta is divided by 4 again
    # and again: w = (0, 1/4, -1) (1 + 1/4 + 1/16 + 1/64) = (0, 85/256, -85/64) after four iterations.
    holds = (ws[0] == (0, F(1, 4), -1) and errors_after_1 == 0 and ws[3] == (0, F(85, 256), F(-85, 64))
             and run.w == (0, F(1, 4), -1) and run.reason == "converged" and printed.w == ws[3])
    return {"holds": holds,
            "text": f"Example 1 (1 prepended), alpha = 1, epsilon = 0: after iteration 1 w = {_fmt(ws[0])} "
                    f"classifies every sample, but the unreset Delta keeps being added: w = {_fmt(ws[1])}, "
                    f"{_fmt(ws[2])}, {_fmt(ws[3])}, ... and ||Delta|| > 0 forever; with the reset Delta = 0 in "
                    f"iteration 2 and exactlin stops at {_fmt(run.w)}",
            "w without reset": ws, "exactlin w": run.w, **side_by_side(run, printed)}


@erratum("seed001-batch-pla-cancel", seed=SEED001, where="Batch PLA, stop test",
         notes_say='"while ||Delta||_2 > epsilon"; "TERMINATION: w is \'close enough\' a line separating the two '
                   'classes"',
         correct="Delta = (1/N) sum of y_i x_i over the misclassified samples can be 0 (or small) while samples "
                 "are misclassified, because their terms cancel; the loop then stops with a w that separates "
                 "nothing. exactlin reports such a stop as reason 'cycle' (a fixed point with mistakes), never "
                 "'converged'")
def _e_batch_cancel():
    # Example 2 of seed 000 through the origin: from w = 0 all four samples are misclassified (sign 0 != y)
    # and y_i x_i = (1,1), (-1,1), (1,-1), (-1,-1) sum to 0: Delta = 0 <= epsilon at once.
    delta = tuple(sum((F(yi) * F(x[t]) for x, yi in zip(EX2_X, EX2_Y)), F(0)) / 4 for t in range(2))
    run = batch_pla(EX2_X, EX2_Y, bias="none")
    wrong = sum(1 for x, yi in zip(EX2_X, EX2_Y) if _sign(_dot(run.w, x)) != yi)
    holds = delta == (0, 0) and run.w == (0, 0) and wrong == 4 and run.reason == "cycle"
    return {"holds": holds,
            "text": f"Example 2 of seed 000 through the origin, w = 0: all 4 samples misclassified, Delta = "
                    f"{_fmt(delta)}, so 'while ||Delta|| > epsilon' ends the loop with w = {_fmt(run.w)}, which "
                    f"misclassifies {wrong} of 4; exactlin stops there too but says reason '{run.reason}'",
            "Delta": delta, "w": run.w, "reason": run.reason}
