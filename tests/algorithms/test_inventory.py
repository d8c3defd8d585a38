"""The inventory, pinned: every algorithm, CLI command, worked example and erratum, written out here.

A new one must be added to this file explicitly; a module that fails to import (a misspelled entry in a
module list too) is an error, never a silently shorter registry.
"""

import argparse
import importlib

import pytest

import exactlin.algorithms as algorithms
from exactlin.algorithms import all_specs
from exactlin.cli import app
from exactlin.lectures import errata, examples

ALGORITHMS = {
    "perceptron", "fixed-increment", "variable-increment", "batch-perceptron", "batch-pla", "pocket",
    "perceptron-gd", "voted-perceptron", "averaged-perceptron", "balanced-winnow", "single-sample-relaxation",
    "batch-relaxation",
    "threshold-unit",  # other courses' convention (issue 15, item 5): Mitchell 1997, 4.4.2
    "mse", "widrow-hoff", "lms", "ho-kashyap", "ho-kashyap-mod1", "ho-kashyap-mod2",
    "fisher",
    "linear-machine", "one-vs-rest",
    "separable", "svm-hard", "svm-soft", "svm-soft-l2",
    "feature-map",
}

CLI_COMMANDS = {"algorithms", "check", "compare", "docs", "errata", "examples", "exercise", "explain", "fit", "predict",
                "separable"}

EXAMPLES = {
    "seed000-example1", "seed000-example1-strict", "seed000-example2", "seed000-example2-gordan", "seed000-margin",
    "seed000-voted-averaged", "seed001-batch-pla-ex1", "seed001-one-vs-rest", "seed001-pocket-ex2",
    "seed002-perceptron-gd-ex1", "seed003-batch-perceptron-ex1", "seed003-fisher", "seed003-fixed-increment-ex1",
    "seed003-ho-kashyap", "seed003-linear-machine", "seed003-pseudoinverse", "seed003-relaxation",
    "seed003-variable-increment-ex1", "seed003-widrow-hoff", "seed003-winnow", "seed004-circle-lift",
    "seed004-circle-svm", "seed004-svm-box", "seed004-svm-diagonal", "seed004-theorem", "seed004-tightest-bound",
    "sklearn-18606",
    # every claim of the notes demonstrated
    "seed000-exercise-repeat-mistake", "seed000-exercise-voted-boundary", "seed000-sum-of-mistakes", "seed002-duality",
    "seed003-step-size", "seed003-relaxation-factor", "seed003-linear-machine-distance", "seed003-fisher-rank-sb",
    "seed003-pinv-limit", "seed004-margin-invariance",
    # other courses' conventions (issue 15, item 5)
    "mitchell-threshold-unit",
}

ERRATA = {
    "alg3-criterion", "alg4-sign", "alg5-rule", "alg8-misclassified", "alg9-listing", "perceptron-gd-stop",
    "pocket-comparison", "seed000-augmented-hyperplane", "seed000-averaged-vector", "seed000-margin-labels",
    "seed002-margin-maximized", "seed003-fisher-y0-3-sign", "seed003-ho-kashyap-b-update",
    "seed003-pinv-limit-variable", "seed003-sample-mean", "seed004-alpha-iff", "seed004-slack-correct",
    "seed004-strict-constraints", "seed004-strict-start", "seed004-update-missing-label", "winnow-exponent",
    # the errata completed by a second reading of the notes
    "seed000-fact1-conclusion", "seed000-theorem-unit-norm", "seed000-gamma-label", "seed000-index-meaning",
    "seed001-pla-missing-update", "seed001-batch-pla-reset", "seed001-batch-pla-cancel", "seed003-lms-stop",
    "seed003-hk-nonseparable-untested", "seed004-add-away", "seed004-soft-margin-c",
}


def test_algorithms():
    names = [s.name for s in all_specs()]
    assert len(names) == len(set(names)) == 27
    assert set(names) == ALGORITHMS


def test_every_family_module_registers_something():
    modules = {s.func.__module__ for s in all_specs()}
    listed = {f"exactlin.algorithms.{m}" for _, mods in algorithms.FAMILIES.values() for m in mods}
    assert modules == listed


def _commands(parser: argparse.ArgumentParser) -> set[str]:
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert len(subs) == 1
    return set(subs[0].choices)


def test_cli_commands():
    assert _commands(app.build_parser()) == CLI_COMMANDS


def test_examples():
    ids = [e.id for e in examples.all_examples()]
    assert len(ids) == len(set(ids))
    assert set(ids) == EXAMPLES


def test_errata():
    ids = [e.id for e in errata.all_errata()]
    assert len(ids) == len(set(ids))
    assert set(ids) == ERRATA


def test_misspelled_family_module_raises(monkeypatch):
    families = {k: (title, tuple(mods)) for k, (title, mods) in algorithms.FAMILIES.items()}
    families["fisher"] = (families["fisher"][0], ("fishr",))
    monkeypatch.setattr(algorithms, "FAMILIES", families)
    monkeypatch.setattr(algorithms, "_loaded", False)
    with pytest.raises(ModuleNotFoundError, match="fishr"):
        algorithms.load_all()


def test_misspelled_cli_plugin_raises(monkeypatch):
    monkeypatch.setattr(app, "COMMANDS", (*app.COMMANDS, "exactlin.cli.separabel"))
    with pytest.raises(ModuleNotFoundError, match="separabel"):
        app.build_parser()


@pytest.mark.parametrize("module, attr, load", [
    (examples, "EXAMPLE_MODULES", examples.all_examples),
    (errata, "ERRATA_MODULES", errata.all_errata),
])
def test_misspelled_example_or_errata_module_raises(monkeypatch, module, attr, load):
    monkeypatch.setattr(module, attr, (*getattr(module, attr), "exactlin.lectures.examples_percepton"))
    with pytest.raises(ModuleNotFoundError, match="examples_percepton"):
        load()


def test_import_error_inside_a_module_propagates(monkeypatch):
    # a module that exists but fails on import (its own missing dependency) is an error too
    real = importlib.import_module

    def failing(name, *a, **k):
        if name == "exactlin.algorithms.winnow":
            raise ModuleNotFoundError("No module named 'some_dependency'", name="some_dependency")
        return real(name, *a, **k)

    monkeypatch.setattr(importlib, "import_module", failing)
    monkeypatch.setattr(algorithms, "_loaded", False)
    with pytest.raises(ModuleNotFoundError, match="some_dependency"):
        algorithms.load_all()
