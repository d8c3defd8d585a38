"""``--arithmetic auto|fraction|integer|flint`` on the fit-like commands (fit, explain, compare, separable): the exact
arithmetic an algorithm computes in, among the ones its registration declares (issue 22, item 2); another is
refused with exit 2 and one line naming the ones it has; the JSON records what was used under "arithmetic"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from exactlin.algorithms import ARITHMETICS, all_specs
from exactlin.cli.app import main

ROOT = Path(__file__).resolve().parents[2]
BINARY = str(ROOT / "examples" / "data" / "seed000-example1.csv")
MULTI = str(ROOT / "examples" / "data" / "three-classes.csv")
SPECS = all_specs()


def fit_json(capsys, spec, *extra):
    argv = ["fit", spec.name, MULTI if spec.multiclass else BINARY, "--json", *extra]
    if spec.multiclass:
        argv += ["--label-column", "class"]
    if spec.name == "fisher":  # S_W is singular on seed 000's four points: Fisher's pinv rule
        argv += ["--param", "singular=pinv"]
    code = main(argv)
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 else None), err


def test_fit_help_documents_arithmetic(capsys):
    assert main(["fit", "--help"]) == 0
    text = capsys.readouterr().out
    assert "--arithmetic {auto,fraction,integer,flint}" in text
    assert "exactlin fit svm-hard examples/data/seed000-example1.csv --arithmetic fraction --json" in text
    # the example runs as shown: the hard-margin SVM in the Fraction reference arithmetic
    assert main(["fit", "svm-hard", BINARY, "--arithmetic", "fraction", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["arithmetic"]["requested"] == d["arithmetic"]["used"] == "fraction"


@pytest.mark.parametrize("command", ["fit", "explain", "compare", "separable"])
def test_every_fit_like_command_takes_it(capsys, command):
    assert main([command, "--help"]) == 0
    assert "--arithmetic {auto,fraction,integer,flint}" in capsys.readouterr().out


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_fit_records_the_arithmetic_and_refuses_one_it_lacks(capsys, spec):
    code, auto, err = fit_json(capsys, spec)
    assert code == 0, err
    assert auto["arithmetic"]["requested"] == "auto"  # the default, recorded in the JSON
    for name in ARITHMETICS[1:]:
        code, d, err = fit_json(capsys, spec, "--arithmetic", name)
        if name in spec.arithmetics:
            assert code == 0, err
            assert d["arithmetic"]["requested"] == name and d["arithmetic"]["used"] == name
            assert d["w"] == auto["w"] and d["reason"] == auto["reason"]  # the same result on every arithmetic
        else:
            assert code == 2 and d is None
            assert f"{spec.name} does not compute in arithmetic={name!r}; it takes 'auto'" in err
            assert len(err.strip().splitlines()) == 1  # one line, no traceback


def test_an_unknown_arithmetic_is_a_usage_error(capsys):
    assert main(["fit", "perceptron", BINARY, "--arithmetic", "float"]) == 2
    assert "invalid choice: 'float'" in capsys.readouterr().err


def test_algorithms_show_lists_the_choices(capsys):
    assert main(["algorithms", "show", "perceptron", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    spec = next(s for s in SPECS if s.name == "perceptron")
    assert d["arithmetics"] == ["auto", *spec.arithmetics]
