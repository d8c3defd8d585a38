"""The extras schema (exactlin.model.extras): every key every algorithm records is declared, with its kind.

Walks the registry: every algorithm on small data sets (separable, XOR, a degenerate one) under several options
(bias, the full trace, a tight budget, every choice and flipped flag of its table), and every worked example;
a key the schema does not declare for the run's family, or a value of another kind, fails.
"""

from __future__ import annotations

import pytest

from exactlin.algorithms import all_specs
from exactlin.errors import ExactlinError
from exactlin.model import extras as schema
from exactlin.model.run import Run
from exactlin.render.report import extra_meaning, extras_problems, short_reason

SPECS = all_specs()
IDS = [s.name for s in SPECS]
X4 = [(1, 2), (2, 0), (3, 1), (2, 3)]  # separable with a bias (x1 + x2 < 4 for +1), not through the origin
Y4 = [1, 1, -1, -1]
XOR = [(0, 0), (1, 1), (1, 0), (0, 1)]  # not linearly separable
YX = [1, 1, -1, -1]
SMALL = [(0, 0), (1, 0), (0, 1)]
YS = [1, -1, -1]


def options(spec):
    out = [{}, {"bias": "first"}, {"trace": True}, {"max_epochs": 2}]
    for p in spec.params:
        if p.kind == "choice":
            out += [{p.name: c} for c in p.choices if c != p.default]
        if p.kind == "bool" and p.default is not None:
            out.append({p.name: not p.default})
    return out


def runs_of(spec):
    for X, y in ((X4, Y4), (XOR, YX), (SMALL, YS)):
        if spec.multiclass:
            y = [1, 2, 3, 1][:len(X)]
        for kw in options(spec):
            if spec.name == "fisher":  # S_W is singular on most of these: Fisher's pinv rule
                kw = {"singular": "pinv", **kw}
            try:
                yield kw, spec.func(X, y, **kw)
            except ExactlinError:  # a combination the table refuses, or data the rule cannot take
                continue


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_every_extras_key_is_declared_with_its_kind(spec):
    seen = 0
    for kw, run in runs_of(spec):
        assert extras_problems(run) == [], (spec.name, kw)
        seen += 1
    assert seen >= 3, spec.name


def test_every_worked_example_keeps_the_schema():
    from exactlin.lectures.examples import all_examples

    for ex in all_examples():
        for run in ex.func().runs:
            assert extras_problems(run) == [], (ex.id, run.algorithm)


def test_an_undeclared_key_or_kind_is_found():
    # the check itself can fail: a key no family declares, and a declared key holding another kind
    from exactlin import perceptron

    run = perceptron(X4, Y4)
    run.extras["no_such_key"] = 1
    run.extras["max_bits"] = "many"
    found = extras_problems(run)
    assert any("extras['no_such_key'] is not declared" in p for p in found)
    assert any("extras['max_bits'] = str is not of kind int" in p for p in found)


def test_every_kind_is_known_and_every_key_has_a_meaning():
    for keys in (schema.COMMON, *schema.FAMILY_KEYS.values()):
        for name, key in keys.items():
            assert all(k in schema.KINDS for k in key.kind.split("|")), name
            assert key.meaning.strip(), name
    from exactlin.algorithms import FAMILIES

    assert set(schema.FAMILY_KEYS) == set(FAMILIES)
    # a family's key does not repeat a common one (one meaning per key per run)
    for keys in schema.FAMILY_KEYS.values():
        assert not set(keys) & set(schema.COMMON)


def test_meaning_follows_the_family():
    # "b" is Ho-Kashyap's margin vector in the MSE family and the intercept of a maximum-margin classifier
    from exactlin import mse
    from exactlin.algorithms.svm import svm_hard

    assert "margin vector" in extra_meaning(mse(X4, Y4), "b")
    assert "intercept" in extra_meaning(svm_hard(X4, Y4), "b")


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_json_round_trip_keeps_every_key_in_its_kind(spec):
    for _, run in runs_of(spec):
        back = Run.from_json(run.to_json())
        assert set(back.extras) == set(run.extras)
        assert extras_problems(back) == [], spec.name
        break


def test_an_untagged_monitor_is_read_back_by_its_kind():
    # JSON written before the monitor reports were tagged: the schema's kind "monitor" rebuilds the report
    from exactlin import perceptron
    from exactlin.model.monitor import MonitorReport

    first = perceptron(X4, Y4, bias="first")
    assert first.converged  # its w separates, so the monitor applies with it as w*
    run = perceptron(X4, Y4, bias="first", w_star=first.w)
    d = run.to_dict()
    assert isinstance(run.extras["monitor"], MonitorReport)
    d["monitor"] = {k: v for k, v in d["monitor"].items() if k != "__type__"}
    assert isinstance(Run.from_dict(d).extras["monitor"], MonitorReport)


@pytest.mark.parametrize("name, expected", [
    # what "converged" means (report.short_reason), read from the run itself: the notes' stop of each kind
    ("perceptron", "a full pass with no mistake"),       # seed 000: a pass over the data without a mistake
    ("linear-machine", "a full pass with no mistake"),
    ("batch-perceptron", "no sample left to correct"),   # seed 003 Algorithm 3: Y_k empty
    ("ho-kashyap", "Y a > 0 on every sample"),           # seed 003: Ho-Kashyap stops when Y a > 0
    ("one-vs-rest", "every binary run converged"),
])
def test_converged_text_is_read_from_the_run(name, expected):
    from exactlin.algorithms import get

    spec = get(name)
    y = [1, 2, 3, 1] if spec.multiclass else Y4
    for trace in (None, False):  # with and without a trace
        run = spec.func(X4, y, bias="first", trace=trace)
        assert run.reason == "converged", (name, run.reason)
        assert short_reason(run) == expected, (name, trace)


def test_the_docs_page_lists_every_key():
    from exactlin.algorithms import FAMILIES

    page = schema.markdown({f: t for f, (t, _) in FAMILIES.items()})
    for keys in (schema.COMMON, *schema.FAMILY_KEYS.values()):
        for name in keys:
            assert f"| `{name}` |" in page
    assert "## Fisher's linear discriminant" in page


@pytest.mark.parametrize("name, X, y, kwargs, keys", [
    # the keys only some paths record, each reached on purpose
    ("variable-increment", X4, Y4, {"bias": "first", "eta": "1/k"}, {"etas"}),        # a schedule, not a constant
    # a^t y = b = 1 exactly once corrected with eta = 1 and the test <=: the rule fires forever, moving nothing
    ("single-sample-relaxation", [(1,), (2,)], [1, 1], {"eta": 1, "b": 1, "test": "<="}, {"at_b", "stalled_note"}),
    ("perceptron", XOR, YX, {"bias": "first", "tightest_bound": True},                # XOR: no w*, so no bound
     {"tightest_bound", "tightest_bound_note"}),
    ("perceptron", [(1, 2), (2, 0)], [1, -1], {"tightest_bound": True}, {"tightest_bound"}),
])
def test_the_rare_keys_keep_the_schema(name, X, y, kwargs, keys):
    from exactlin.algorithms import get

    run = get(name).func(X, y, **kwargs)
    assert keys <= set(run.extras), sorted(run.extras)
    assert extras_problems(run) == []
