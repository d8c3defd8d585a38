"""The records every loop shares (exactlin/engine/trace.py): the memory limits of the trace and of the exact cycle
table are values the Tracer, the CycleDetector and a loop's Bounds receive (Limits), never module constants patched
by a test.  Expected values are hand derivations written in the comments."""

from __future__ import annotations

import math

import pytest

from exactlin.engine.trace import (
    CYCLE_TABLE_LIMIT,
    TRACE_STEP_LIMIT,
    TRACE_VECTOR_LIMIT,
    Bounds,
    CycleDetector,
    Limits,
    Tracer,
)
from exactlin.errors import ParameterError


def test_limits_default_to_the_module_constants_and_are_checked():
    assert Limits() == Limits(TRACE_STEP_LIMIT, TRACE_VECTOR_LIMIT, CYCLE_TABLE_LIMIT)
    assert Bounds().cycle_table == CYCLE_TABLE_LIMIT
    t = Tracer(None, 3)
    assert (t.step_limit, t.vector_limit) == (TRACE_STEP_LIMIT, TRACE_VECTOR_LIMIT)
    for name in ("trace_steps", "trace_vectors", "cycle_table"):
        for bad in (0, -4, True, 2.0, None):
            with pytest.raises(ParameterError, match=f"{name} must be a whole number >= 1"):
                Limits(**{name: bad})


def test_tracer_policy_under_given_limits():
    # d = 2, step_limit 3, vector_limit 4: the k-th step keeps its vectors while 2k <= 4 (steps 1 and 2);
    # steps past the third are not kept and the trace says it is incomplete
    t = Tracer(None, 2, step_limit=3, vector_limit=4)
    for k in range(1, 6):
        t.add(k, 1, 0, k, True, (k, 0), (k + 1, 0))
    assert [s.k for s in t.steps] == [1, 2, 3] and t.complete is False
    assert [s.w_before for s in t.steps] == [(1, 0), (2, 0), None]
    fresh = t.fresh()
    assert fresh.steps == [] and (fresh.mode, fresh.d, fresh.step_limit, fresh.vector_limit) == (None, 2, 3, 4)
    # trace=True keeps every step with its vectors whatever the limits; trace=False keeps nothing
    every = Tracer(True, 2, step_limit=1, vector_limit=1)
    for k in range(1, 4):
        every.add(k, 1, 0, k, True, (k, 0), (k, 0))
    assert len(every.steps) == 3 and every.steps[2].w_after == (3, 0) and every.complete
    assert (every.cap, Tracer(False, 2, step_limit=5).cap, t.cap) == (math.inf, 0, 3)


def test_cycle_table_limit():
    # the states a, b, c, a, b, c, ... (start a): the table finds the repeat of a at the 3rd observation; with a
    # table of 1 state Brent's method takes over at b (tortoise b; c: power 2, tortoise c; a; b: power 4, tortoise
    # b; c; a; b: the repeat, 3 steps after the tortoise) and proves the same period at the 7th
    def first_repeat(detector):
        for count, state in enumerate("bcabcabcabc", 1):
            p = detector.observe(state)
            if p is not None:
                return count, p

    assert first_repeat(CycleDetector("a")) == (3, 3)
    assert first_repeat(CycleDetector("a", 1)) == (7, 3)


def test_with_limits_takes_limits_only():
    from exactlin.algorithms import get
    from exactlin.errors import InputTypeError

    with pytest.raises(InputTypeError, match="with_limits takes an exactlin.engine.trace.Limits, got 7"):
        get("perceptron").func.with_limits(7)
    # the limited function is the algorithm's, with its signature and arithmetics
    f = get("perceptron").func.with_limits(Limits(trace_steps=2))
    assert f.arithmetics == get("perceptron").func.arithmetics and "eta" in f.__signature__.parameters


def test_the_layout_and_history_limits_are_checked_and_reach_their_rules(monkeypatch):
    from exactlin.algorithms import get
    from exactlin.engine import machine
    from exactlin.errors import ParameterError

    for name in ("machine_entries", "history"):
        with pytest.raises(ParameterError, match=f"{name} must be a whole number >= 1"):
            Limits(**{name: 0})
    # the same linear machine in both layouts (Kesler: 3 samples x 2 rivals x 3 classes x 2 = 36 entries)
    X, y = [(1, 0), (0, 1), (-1, -1)], ["A", "B", "C"]
    lm = get("linear-machine").func
    made = []  # which layout each call built (a spy on the two classes, not a switch)
    for cls in (machine.KeslerArith, machine.MachineArith):
        monkeypatch.setattr(cls, "__init__", lambda self, *a, _i=cls.__init__, _n=cls.__name__, **k:
                            (made.append(_n), _i(self, *a, **k))[1])
    kesler = lm(X, y, bias="none")
    apart = lm.with_limits(Limits(machine_entries=35))(X, y, bias="none")
    assert made == ["KeslerArith", "MachineArith"] and kesler == apart
