"""Issue 14: deterministic default budgets, and the progress callback every algorithm takes.

Expected values come from the documented rules, not from a run: a single-sample rule's records come after
1,000, 2,000, ... rounds; a batch rule's after the iterations whose n sample visits reach the next 1,000; the
final record repeats the Run's own counts with ``final=True``; the default budgets are the numbers the
parameter tables state (50,000 rounds; ceil(60,000 / n) batch iterations; ceil(8,000 / n) Ho-Kashyap
iterations; ...)."""

from __future__ import annotations

import pytest

from benchmarks.budget_data import make
from exactlin.algorithms import all_specs, get
from exactlin.engine.trace import (
    DEFAULT_BATCH_VISITS,
    DEFAULT_MAX_STEPS,
    HK_BATCH_VISITS,
    WH_BATCH_VISITS,
    batch_step_limit,
)
from exactlin.errors import ParameterError
from exactlin.model.progress import PROGRESS_EVERY, Progress
from exactlin.model.run import REASONS

NOISY_100 = make("noisy", 100)
#: the representations of the rules on the engine's cyclic loop: every budget holds on each
ARITHS = ("fraction", "integer", "flint")


def _collect(name, X, y, **kw):
    recs: list[Progress] = []
    run = get(name).func(X, y, progress=recs.append, **kw)
    return run, recs


@pytest.mark.parametrize("arith", ARITHS)
def test_single_sample_records_every_1000_rounds_and_a_final_one(arith):
    X, y = NOISY_100
    run, recs = _collect("fixed-increment", X, y, max_steps=5500, arithmetic=arith)
    # 5% of the labels flipped: not separable, so the budget of 5,500 rounds ends it
    assert run.reason == "max_steps" and run.steps == 5500 and not run.converged
    assert [p.step for p in recs] == [1000, 2000, 3000, 4000, 5000, 5500]
    assert all(not p.final for p in recs[:-1]) and recs[-1].final
    assert recs[-1].reason == "max_steps"
    assert recs[-1].updates == run.updates and recs[-1].max_bits == run.extras["max_bits"]
    ups = [p.updates for p in recs]
    assert ups == sorted(ups) and ups[0] >= 1
    assert all(p.algorithm == "fixed-increment" for p in recs)
    assert ("max_steps", 5500) in recs[0].budget and ("max_epochs", 1000) in recs[0].budget


def test_batch_records_count_n_visits_per_iteration():
    X, y = NOISY_100
    run, recs = _collect("batch-perceptron", X, y, max_steps=25)
    # n = 100: 10 iterations are 1,000 sample visits
    assert run.reason == "max_steps" and run.epochs == 25
    assert [p.step for p in recs] == [10, 20, 25] and recs[-1].final


@pytest.mark.parametrize("arith", ARITHS)
def test_fast_perceptron_kernel_reports_too(arith):
    X, y = NOISY_100
    run, recs = _collect("perceptron", X, y, max_epochs=35, arithmetic=arith)
    steps = [p.step for p in recs]
    assert steps == sorted(steps) and steps[-1] == run.steps == 3500
    # at least PROGRESS_EVERY rounds between two records (the kernel scans in blocks)
    assert all(b - a >= PROGRESS_EVERY for a, b in zip(steps[:-2], steps[1:-1]))
    assert len(steps) - 1 == 3  # 1000, 2000, 3000 (3500 rounds), then the final record


@pytest.mark.parametrize("spec", all_specs(), ids=[s.name for s in all_specs()])
def test_every_algorithm_sends_one_final_record(spec):
    X, y = make("separable", 30)
    if spec.name == "feature-map":  # its default map lifts points of the plane
        X = [row[:2] for row in X]
    recs = []
    run = spec.func(X, y, progress=recs.append)
    finals = [p for p in recs if p.final]
    assert len(finals) == 1 and recs[-1] is finals[0]
    assert finals[0].reason == run.reason in REASONS
    assert finals[0].step == run.steps and finals[0].updates == run.updates


def test_progress_must_be_callable():
    with pytest.raises(ParameterError, match="progress must be None or a callable") as info:
        get("perceptron").func([(1, 0)], [1], progress=3)
    assert info.value.parameter == "progress"


def test_the_callback_does_not_change_the_run():
    X, y = NOISY_100
    a = get("single-sample-relaxation").func(X, y, max_steps=3000)
    b = get("single-sample-relaxation").func(X, y, max_steps=3000, progress=lambda p: None)
    assert a.w == b.w and a.reason == b.reason and a.steps == b.steps and a.to_json() == b.to_json()


def test_default_budget_numbers_are_the_documented_ones():
    # ceil(visits / n), by hand
    assert batch_step_limit(None, 2000) == 30 and DEFAULT_BATCH_VISITS == 60_000
    assert batch_step_limit(None, 7) == 8572  # ceil(60000 / 7) = 8571.4... -> 8572
    assert batch_step_limit(None, 2000, HK_BATCH_VISITS) == 4
    assert batch_step_limit(None, 100, WH_BATCH_VISITS) == 100
    assert batch_step_limit(12, 2000) == 12
    tables = {s.name: {p.name: p for p in s.params} for s in all_specs()}
    for name in ("fixed-increment", "variable-increment", "voted-perceptron", "averaged-perceptron",
                 "single-sample-relaxation", "balanced-winnow"):
        assert tables[name]["max_steps"].default == DEFAULT_MAX_STEPS == 50_000, name
        assert "50,000" in tables[name]["max_steps"].doc
    assert tables["linear-machine"]["max_steps"].default == 25_000
    for name in ("single-sample-relaxation", "balanced-winnow", "batch-relaxation"):
        assert tables[name]["max_bits"].default == 1024, name
    for name in ("ho-kashyap", "ho-kashyap-mod1", "ho-kashyap-mod2"):
        assert tables[name]["max_bits"].default == 4096, name
        assert "ceil(8,000 / n)" in tables[name]["k_max"].doc
    for name in ("batch-perceptron", "batch-pla", "perceptron-gd", "batch-relaxation"):
        assert "ceil(60,000 / n)" in tables[name]["max_steps"].doc, name


@pytest.mark.parametrize("arith", ARITHS)
def test_default_budget_ends_a_non_separable_run_at_50000_rounds(arith):
    X, y = make("noisy", 2000)
    run = get("fixed-increment").func(X, y, trace=False, arithmetic=arith)
    assert run.reason == "max_steps" and run.steps == 50_000 and run.epochs == 25  # 25 passes of 2,000


def test_batch_default_budget_is_ceil_visits_over_n():
    X, y = make("noisy", 1500)
    run = get("batch-pla").func(X, y, trace=False)
    assert run.reason == "max_steps" and run.epochs == 40  # ceil(60000 / 1500)


@pytest.mark.parametrize("arith", ARITHS)
def test_max_steps_none_switches_the_single_sample_budget_off(arith):
    X, y = NOISY_100
    run = get("fixed-increment").func(X, y, max_steps=None, max_epochs=3, arithmetic=arith)
    assert run.reason == "max_epochs" and run.steps == 300


def test_perceptron_default_update_budget():
    # 1,000 passes over 2,000 noisy samples would make over 350,000 mistakes; the default budget is 100,000.
    # On the integer representation only: 100,000 updates take about a minute on Fractions; the max_updates
    # stop is the one loop's on every representation (tests/engine/test_cyclic.py draws it on each)
    X, y = make("noisy", 2000)
    run = get("perceptron").func(X, y, trace=False, arithmetic="integer")
    assert run.reason == "max_updates" and run.updates == 100_000 and not run.converged
    assert get("perceptron").func(X, y, trace=False, max_updates=None, max_epochs=2).reason == "max_epochs"
