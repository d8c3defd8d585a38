"""The package's top level (exactlin/__init__.py, exactlin/__main__.py): the lazily looked-up algorithms are
listed by dir() (issue 20, item 5), the old flat module paths are gone (issue 22, item 6), ``python -m exactlin``
is the command."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import exactlin
from exactlin.algorithms import all_specs


def test_dir_lists_every_algorithm_and_each_is_the_attribute():
    names = dir(exactlin)
    assert {"perceptron", "svm_hard", "ho_kashyap", "fisher", "linear_machine"} <= set(names)
    for spec in all_specs():  # walk the registry: an algorithm added later is listed without a word here
        assert spec.func.__name__ in names, spec.name
        assert getattr(exactlin, spec.func.__name__) is spec.func
    assert {"Run", "to_rational", "__version__", "ExactlinError"} <= set(names)  # and the module's own names
    assert names == sorted(names)


def test_star_import_gives_every_algorithm():
    # exactlin.ALGORITHMS (the star import's list) is the registry's functions, no more and no fewer
    assert sorted(exactlin.ALGORITHMS) == sorted({spec.func.__name__ for spec in all_specs()})
    ns: dict = {}
    exec("from exactlin import *", ns)  # noqa: S102
    for spec in all_specs():
        assert ns[spec.func.__name__] is spec.func, spec.name
    assert ns["Run"] is exactlin.Run and ns["scaled"] is exactlin.scaled


def test_dir_names_only_what_getattr_gives():
    for name in dir(exactlin):
        getattr(exactlin, name)
    with pytest.raises(AttributeError, match="no attribute 'perceptorn'"):
        exactlin.perceptorn  # noqa: B018


@pytest.mark.parametrize("old", ["exactlin.numbers", "exactlin.exact_rows", "exactlin.runs", "exactlin.params",
                                 "exactlin.theory.lp", "exactlin.examples", "exactlin.errata",
                                 "exactlin.derivations", "exactlin.report", "exactlin.plot"])
def test_the_old_module_paths_are_gone(old):
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(old)
    assert not any(type(f).__module__.startswith("exactlin") for f in sys.meta_path)


def test_python_dash_m_exactlin_is_the_command():
    p = subprocess.run([sys.executable, "-m", "exactlin", "--version"], capture_output=True, text=True, check=True)
    assert p.stdout.strip() == f"exactlin {exactlin.__version__}"
    p = subprocess.run([sys.executable, "-m", "exactlin", "fitt"], capture_output=True, text=True)
    assert p.returncode == 2 and "did you mean fit?" in p.stderr
