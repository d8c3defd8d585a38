"""Tests of exactlin.linalg.guess: the float guesses are hints that can never hurt a run (a guess that crashes,
hangs or prints costs only itself), and on small hand-derived problems they name the right samples."""

from __future__ import annotations

import time
from fractions import Fraction as F

import pytest

from exactlin.linalg import guess

np = pytest.importorskip("numpy")


def test_a_crashing_printing_child_costs_only_the_guess(monkeypatch, capfd):
    # the child prints to both streams, then aborts (what HiGHS did: 35,084 "error" lines, then "double free")
    monkeypatch.setattr(guess, "_SVC_CHILD", "import os, sys\nprint('error\\n' * 1000)\n"
                                             "sys.stderr.write('double free or corruption\\n')\nos.abort()\n")
    assert guess.svc_guess([(0, 0), (2, 0)], [-1, 1], kernel="linear", degree=1, coef0=0, loss="hard", C=None) is None
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_a_hanging_child_is_stopped_at_its_time_limit(monkeypatch):
    monkeypatch.setattr(guess, "_SVC_CHILD", "import time\ntime.sleep(60)\n")
    t = time.perf_counter()
    assert guess.svc_guess([(0, 0), (2, 0)], [-1, 1], kernel="linear", degree=1, coef0=0, loss="hard", C=None,
                           timeout=1.0) is None
    assert time.perf_counter() - t < 30  # (not a timing assert on exactlin: the limit must have stopped the child)


def test_a_child_writing_garbage_is_a_failed_guess(monkeypatch):
    monkeypatch.setattr(guess, "_SVC_CHILD", "import sys\nsys.stdout.write('not a pickle')\n")
    assert guess.svc_guess([(0, 0), (2, 0)], [-1, 1], kernel="linear", degree=1, coef0=0, loss="hard", C=None) is None


def test_svm_runs_on_when_the_svc_child_crashes(monkeypatch, capfd):
    # a kernel SVM with SVC's child crashing and no numpy guess: the exact route answers, and nothing is printed
    import exactlin.algorithms.svm as svm_mod
    from exactlin.algorithms.svm import svm_soft

    monkeypatch.setattr(guess, "_SVC_CHILD", "import os\nprint('error')\nos.abort()\n")
    monkeypatch.setattr(svm_mod, "MONOMIALS_MAX", 0)  # (the kernel's own numpy guess off)
    X = [(i % 7 - 3, (3 * i) % 5 - 2) for i in range(32)]
    y = [1 if a * b > 0 else -1 for a, b in X]
    r = svm_soft(X, y, kernel="poly", degree=2, C=1)
    assert r.extras["kkt"]["verified"] and "scikit-learn" not in r.extras["method"]
    assert any("SVC gave no guess" in note for note in r.extras["notes"])
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_hinge_guess_names_both_samples_of_the_two_point_problem():
    # x = 0 (-1) and x = 2 (+1): the hard margin w = 1, b = -1 puts both on the margin (seed 004's picture);
    # with C = 10 (above the multipliers 1/2) both are free
    free, upper, order, who = guess.hinge_guess([(F(0),), (F(2),)], [-1, 1], F(10), True)
    assert sorted(free) == [0, 1] and upper == [] and sorted(order) == [0, 1] and "Huber" in who


def test_squared_guess_on_the_two_point_problem():
    # svm-soft-l2's doctest: w = 4/5, slack 1/5 on both samples, so both lie inside their margin
    free, upper, order, _ = guess.squared_guess([(F(0),), (F(2),)], [-1, 1], F(1), True)
    assert sorted(free) == [0, 1] and upper == []


def test_values_too_large_for_float64_give_no_guess():
    assert guess.float_rows([(F(10) ** 400,)]) is None
    assert guess.hinge_guess([(F(10) ** 400,), (F(0),)], [1, -1], F(1), True) is None
