"""The CLI's fixed costs (issue 14, item 5): ``exactlin fit NAME`` imports that algorithm's module only (the
registry's index :data:`exactlin.algorithms.MODULE_OF`), not python-flint, sympy, matplotlib or the other
families; ``exactlin algorithms`` still lists every algorithm.  Each check runs in a fresh interpreter (the
test process has imported everything already)."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from exactlin.algorithms import FAMILIES, MODULE_OF, REGISTRY, all_specs

#: what no `fit` of an algorithm that does not use them may import
HEAVY = ("flint", "sympy", "matplotlib", "scipy", "mpmath", "subprocess", "importlib.abc", "exactlin.linalg")

CHILD = r"""
import contextlib, io, json, sys
from exactlin.cli import main
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    code = main(sys.argv[1:])
print(json.dumps({"code": code, "stdout": buf.getvalue(), "modules": sorted(sys.modules)}))
"""


def _child(*argv: str) -> dict:
    p = subprocess.run([sys.executable, "-c", CHILD, *argv], capture_output=True, text=True, check=True)
    return json.loads(p.stdout.splitlines()[-1])


def test_the_index_names_the_module_of_every_registered_algorithm():
    all_specs()  # every family loaded
    assert set(MODULE_OF) == set(REGISTRY)
    modules = {m for _, mods in FAMILIES.values() for m in mods}
    for name, spec in REGISTRY.items():
        assert MODULE_OF[name] in modules
        assert spec.func.rule.__module__ == f"exactlin.algorithms.{MODULE_OF[name]}", name


def _csv(tmp_path):
    # linearly separable by hand: label +1 iff x1 + x2 > 0 (no point on the line)
    rows = [(2, 1, 1), (1, 3, 1), (3, -1, 1), (-2, -1, -1), (-1, -3, -1), (1, -4, -1)]
    path = tmp_path / "d.csv"
    path.write_text("".join(f"{a},{b},{c}\n" for a, b, c in rows))
    return path, rows


def test_fit_perceptron_imports_its_own_module_only(tmp_path):
    path, rows = _csv(tmp_path)
    res = _child("fit", "perceptron", str(path), "--bias", "first", "--json")
    assert res["code"] == 0
    mods = res["modules"]
    fams = [m for m in mods if m.startswith("exactlin.algorithms.") and not m.split(".")[-1].startswith("_")]
    assert fams == ["exactlin.algorithms.perceptron"]
    assert not [m for m in mods if any(m == h or m.startswith(h + ".") for h in HEAVY)]
    # the answer is a separator of the file, checked here with Fractions (bias first: w = (w0, w1, w2))
    w = [Fraction(v) for v in json.loads(res["stdout"])["w"]]
    assert all(lab * (w[0] + w[1] * a + w[2] * b) > 0 for a, b, lab in rows)


@pytest.mark.parametrize("name", ["fisher", "mse"])
def test_fit_of_another_family_imports_that_family_only(tmp_path, name):
    path, _ = _csv(tmp_path)
    res = _child("fit", name, str(path), "--json")
    assert res["code"] == 0
    fams = {m.split(".")[2] for m in res["modules"] if m.startswith("exactlin.algorithms.")
            and not m.split(".")[2].startswith("_")}
    assert fams == {MODULE_OF[name]}


def test_a_name_in_other_letter_case_and_a_misspelt_name_still_work(tmp_path):
    path, _ = _csv(tmp_path)
    assert _child("fit", "Perceptron", str(path), "--json")["code"] == 0
    p = subprocess.run([sys.executable, "-m", "exactlin.cli", "fit", "perceptorn", str(path)], capture_output=True,
                       text=True)
    assert p.returncode == 2 and "did you mean perceptron" in p.stderr


def test_algorithms_still_lists_every_algorithm():
    res = _child("algorithms", "--json")
    assert res["code"] == 0
    assert {a["name"] for a in json.loads(res["stdout"])["algorithms"]} == set(MODULE_OF)


def test_exactlin_dot_name_imports_that_algorithm_only():
    code = ("import sys, exactlin; f = exactlin.fisher; g = exactlin.fixed_increment; "
            "print(f.__name__, g.__name__, ' '.join(m for m in sys.modules if m.startswith('exactlin.algorithms.') "
            "or m.split('.')[0] in ('sympy', 'matplotlib')))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    first, second, *mods = p.stdout.split()
    assert (first, second) == ("fisher", "fixed_increment")
    assert not [m for m in mods if not m.startswith("exactlin")]  # neither sympy nor matplotlib
    fams = {m.split(".")[2] for m in mods if not m.split(".")[2].startswith("_")}
    assert {"fisher", "perceptron_family"} <= fams
    assert not fams & {"svm", "separability", "multiclass", "mse", "ho_kashyap", "features", "winnow", "relaxation"}
