"""Seed 002 (perceptron risk, gradient descent, "w space"): the x-space / w-space duality on the notes' data."""

from __future__ import annotations

from fractions import Fraction as F

from exactlin.algorithms.perceptron import perceptron
from exactlin.lectures.examples import Check, ExampleResult, example
from exactlin.lectures.notes import EX1_X, EX1_Y, SEED002
from exactlin.lectures.notes import dot as _dot
from exactlin.lectures.notes import sign as _sign


@example("seed002-duality", title="x-space / w-space duality: each sample is a hyperplane in w-space; w is right "
         "on sample i iff it lies on the positive side of y_i x_i", seed=SEED002, algorithm="perceptron")
def duality() -> ExampleResult:
    run = perceptron(EX1_X, EX1_Y, trace=True)
    iterates = [(F(0), F(0))] + [s.w_after for s in run.trace if s.update]  # 0, (4,0), (3,-1), (1,-3)
    # side of w relative to the w-space hyperplane {z : x_i . z = 0} with normal y_i x_i
    sides = [[_sign(_dot(w, tuple(yi * v for v in x))) for x, yi in zip(EX1_X, EX1_Y)] for w in iterates]
    # the classifier's own verdict in x-space: sign(w . x_i) == y_i
    correct = [[1 if _sign(_dot(w, x)) == yi else -1 if _sign(_dot(w, x)) == -yi else 0
                for x, yi in zip(EX1_X, EX1_Y)] for w in iterates]
    # Hand derivation (normals y_i x_i = (4,0), (-1,-1), (0,-1), (-2,-2)):
    #   w = 0 lies on all four hyperplanes (side 0); w = (4,0): 16 > 0, -4, 0, -8 -> (+, -, 0, -);
    #   w = (3,-1): 12, -2, 1, -4 -> (+, -, +, -); w = (1,-3): 4, 2, 3, 4 -> all + (the solution region).
    # Point/hyperplane duality: x = (1,3) lies on the x-space hyperplane of w = (3,-1) (3 - 3 = 0) iff w lies on
    # the w-space hyperplane of x: the same number x . w = 0.
    checks = [
        Check("sides of the w-space hyperplanes y_i x_i . z = 0 for w = 0, (4,0), (3,-1), (1,-3)",
              [[0, 0, 0, 0], [1, -1, 0, -1], [1, -1, 1, -1], [1, 1, 1, 1]], sides, "hand derivation"),
        Check("positive side in w-space == correct classification in x-space, for every iterate and sample",
              sides, correct, "independent: sign(w . x_i) compared with y_i"),
        Check("every round updates iff w_t is not strictly on the positive side of sample i's hyperplane",
              [_dot(s.w_before, tuple(EX1_Y[s.i] * v for v in EX1_X[s.i])) <= 0 for s in run.trace],
              [s.update for s in run.trace], "independent: side recomputed from w_t, against the trace's updates"),
        Check("point x = (1,3) on the hyperplane of w = (3,-1) iff w on the hyperplane of x", (F(0), F(0)),
              (_dot((3, -1), (1, 3)), _dot((1, 3), (3, -1))), "hand derivation"),
    ]
    return ExampleResult([run], checks, notes=[
        "Seed 002's table: a hyperplane {z: w.z = 0} in x-space is the point w in w-space, and a sample x is the "
        "hyperplane {z: x.z = 0} in w-space. The perceptron walks in w-space across these hyperplanes until it "
        "reaches the cone where every y_i x_i . w > 0: here at w = (1,-3)."])
