"""A faithful JSON round trip of every Run: ``Run.from_json(run.to_json()) == run`` for every registered algorithm
(walked from the registry), compared over every dataclass field of Run (so fields added later are included),
and with the types of the values kept: Fractions stay Fractions, texts stay texts ("1" is not Fraction(1)),
exact sympy numbers come back as the same sympy objects, Schedules as Schedules, certificates and monitor
reports as their typed records."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction as F

import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactlin.algorithms import all_specs
from exactlin.errors import ExactlinError
from exactlin.model.params import Schedule
from exactlin.model.run import Run
from exactlin.strategies import nonseparable_data, separable_data, separable_multiclass_data

SPECS = all_specs()
NAMES = [s.name for s in SPECS]
BY_NAME = {s.name: s for s in SPECS}


def _types(a, b, path="run"):
    """The values are equal AND of the same kinds (an independent structural walk, not Run.__eq__)."""
    if isinstance(a, (bool, str)) or isinstance(b, (bool, str)):
        assert type(a) is type(b) and a == b, f"{path}: {a!r} vs {b!r}"
    elif isinstance(a, sympy.Basic) or isinstance(b, sympy.Basic):
        assert isinstance(b, sympy.Basic) and isinstance(a, sympy.Basic), f"{path}: {a!r} vs {b!r}"
        # sympy's == is structural: the same tree (not only the same value)
        assert type(a) is type(b) and a == b and a.args == b.args, f"{path}: {type(a).__name__} vs {type(b).__name__}"
    elif isinstance(a, (int, F)) and not isinstance(a, bool):
        assert isinstance(b, (int, F)) and a == b, f"{path}: {a!r} vs {b!r}"
    elif isinstance(a, dict):
        assert isinstance(b, dict) and set(a) == set(b), f"{path}: keys {sorted(a)} vs {sorted(b)}"
        for k in a:
            _types(a[k], b[k], f"{path}[{k!r}]")
    elif dataclasses.is_dataclass(a) and not isinstance(a, type):
        assert type(a) is type(b), f"{path}: {type(a).__name__} vs {type(b).__name__}"
        for f in dataclasses.fields(a):
            if f.compare:
                _types(getattr(a, f.name), getattr(b, f.name), f"{path}.{f.name}")
    elif isinstance(a, Schedule):
        assert isinstance(b, Schedule) and a == b and str(a) == str(b), f"{path}: {a!r} vs {b!r}"
    elif a is None:
        assert b is None, f"{path}: None vs {b!r}"
    else:  # a sequence (tuple, a lazy trace, ExactRows): item by item
        a, b = list(a), list(b)
        assert len(a) == len(b), f"{path}: {len(a)} vs {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b)):
            _types(x, y, f"{path}[{i}]")


def assert_faithful(run: Run) -> Run:
    text = run.to_json()
    json.loads(text)  # plain JSON
    back = Run.from_json(text)
    for f in dataclasses.fields(Run):  # every field, including those added after this test was written
        if f.compare:
            assert getattr(back, f.name) == getattr(run, f.name), f"Run.{f.name} differs after the round trip"
    assert back == run
    _types(run, back)
    assert Run.from_json(back.to_json()) == back
    return back


#: a short bound keeps the iterative rules (relaxation, LMS: growing denominators) to a fraction of a second
EPOCHS = 12


def _call(name, X, y, **kw):
    spec = BY_NAME[name]
    if spec.iterative:
        kw["max_epochs"] = EPOCHS
    if not spec.multiclass and "positive" not in kw and not set(y) <= {1, -1}:
        kw["positive"] = y[0]
    try:
        return spec.func(X, y, **kw)
    except ExactlinError:  # an honest refusal of this input (e.g. Fisher with coincident means): nothing to write
        return None


# -- fixed cases: each must produce a Run (no refusal), hand-checked data -------------------------------------
SEP = ([(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1])  # seed 000, Example 1
XOR = ([(0, 0), (1, 1), (0, 1), (1, 0)], [1, 1, -1, -1])
MULTI = ([(0, 0), (3, 0), (0, 3), (1, 0), (4, 1), (1, 4)], ["a", "b", "c", "a", "b", "c"])
TEXT_LABELS = ([(0, 0), (3, 0), (0, 3), (1, 0)], ["1", "2", "1", "2"])  # labels that read as numbers


@pytest.mark.parametrize("name", NAMES)
def test_fixed_cases_round_trip(name):
    cases = [SEP, TEXT_LABELS] + ([MULTI] if BY_NAME[name].multiclass else []) + ([XOR] if name != "fisher" else [])
    for X, y in cases:
        kw = {} if BY_NAME[name].multiclass or y is not TEXT_LABELS[1] else {"positive": "1"}
        if BY_NAME[name].iterative:
            kw["max_epochs"] = EPOCHS
        run = BY_NAME[name].func(X, y, **kw)
        assert_faithful(run)


def test_text_labels_stay_text_and_int_labels_stay_int():
    from exactlin.algorithms.multiclass import linear_machine

    back = assert_faithful(linear_machine(*TEXT_LABELS))
    assert back.extras["classes"] == ("1", "2") and all(type(c) is str for c in back.extras["classes"])
    back = assert_faithful(linear_machine([(0, 0), (3, 0), (0, 3)], [1, 2, 1]))
    assert back.extras["classes"] == (1, 2) and all(type(c) is int for c in back.extras["classes"])


def test_svm_margin_and_feature_weights_come_back():
    from exactlin.algorithms.svm import svm_hard

    # hand derivation: (0,0) labelled -1 and (1,1) labelled +1: w = (1, 1), b = -1, margin 1/||w|| = sqrt(2)/2
    run = svm_hard([(0, 0), (1, 1)], [-1, 1])
    back = assert_faithful(run)
    assert back.extras["margin"] == sympy.sqrt(2) / 2 and isinstance(back.extras["margin"], sympy.Basic)
    assert back.extras["w"] == (1, 1) and back.extras["kkt"] == run.extras["kkt"]


def test_fisher_y0_with_log_comes_back_as_the_same_sympy_number():
    from exactlin.algorithms.fisher import fisher

    # tests/algorithms/test_fisher.py's set with priors 9/10, 1/10: y0 = -log(9)/4 (hand derivation there)
    X = [(1, 0), (3, 0), (2, 1), (-1, 0), (-3, 0), (-2, -1)]
    run = fisher(X, [1, 1, 1, -1, -1, -1], priors="9/10,1/10")
    back = assert_faithful(run)
    assert sympy.simplify(back.extras["y0"] + sympy.log(9) / 4) == 0


def test_readme_perceptron_example_keeps_its_monitor_rows():
    from exactlin import perceptron

    run = perceptron([(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1])
    back = assert_faithful(run)
    rows = back.extras["monitor"].rows
    # hand derivation: the mistakes at rounds 1, 2, 4 take w to (4,0), (3,-1), (1,-3); with w* = (1,-3):
    # <w, w*> = 4, 6, 10 and ||w||^2 = 16, 10, 10
    assert [(r["K"], r["proj"], r["norm2"]) for r in rows] == [(1, 4, 16), (2, 6, 10), (3, 10, 10)]


def test_schedule_param_comes_back_as_a_schedule():
    from exactlin.algorithms.perceptron_family import variable_increment

    run = variable_increment(*SEP, eta="1/k")
    back = assert_faithful(run)
    assert isinstance(back.params["eta"], Schedule) and back.params["eta"](4) == F(1, 4)


def test_numbers_beyond_4300_digits():
    from exactlin.exact.numbers import fmt

    big = F(7**20000 + 1, 3**9000)
    huge_int = 10**5000 + 7
    huge_text = fmt(huge_int)  # str() refuses past 4,300 digits
    run = Run("perceptron", (big, F(1)), "none", False, "max_epochs", 1, 1, 1,
              extras={"b": big, "v": (huge_int, -big), "m": sympy.sqrt(2) * sympy.Integer(huge_int),
                      "label": huge_text})
    back = assert_faithful(run)
    assert back.extras["label"] == huge_text and type(back.extras["label"]) is str
    assert back.extras["v"] == (huge_int, -big)


def test_a_tampered_sympy_tree_is_refused_not_evaluated():
    from exactlin.model.serialize import from_jsonable

    for tree in (["__import__", "1"], ["Symbol", "x"], ["Pow", "2"], "x + 1", ["Mul", ["Add", "1"], "os"]):
        with pytest.raises((ValueError, TypeError)):
            from_jsonable({"record": "sympy", "expr": "?", "tree": tree})


# -- generated data, every algorithm (hypothesis) ------------------------------------------------------------
SLOW = settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("name", NAMES)
@SLOW
@given(data=st.one_of(separable_data(max_n=6, max_d=2, rational=True), nonseparable_data(max_n=5, max_d=2)),
       text=st.booleans())
def test_generated_binary_round_trip(name, data, text):
    y = data.y
    if text:  # the same labels as texts that read as numbers
        y = tuple("1" if v == 1 else "-1" for v in y)
        run = _call(name, data.X, y, **({} if BY_NAME[name].multiclass else {"positive": "1"}))
    else:
        run = _call(name, data.X, y)
    if run is not None:
        assert_faithful(run)


@pytest.mark.parametrize("name", [s.name for s in SPECS if s.multiclass])
@SLOW
@given(data=separable_multiclass_data(max_n=6))
def test_generated_multiclass_round_trip(name, data):
    X, y = data.X, data.y
    run = _call(name, X, tuple(f"c{v}" for v in y))
    if run is not None:
        assert_faithful(run)
