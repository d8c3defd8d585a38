"""No module of exactlin uses another module's private name (issue 22, "the contract finished").

A name that starts with one underscore is its module's own; a piece that another module needs is made public
within its layer (``exactlin.exact.format.as_fraction``, ``exactlin.model.models.canonical_label``,
``exactlin.render.report.spec_of``, ...).  Walked with :mod:`ast` over every ``exactlin/**/*.py``:

* ``from exactlin.x import _name`` (a private function, constant or submodule) in any other module;
* ``from exactlin.pkg._mod import Name`` / ``import exactlin.pkg._mod`` outside the package ``pkg`` (a private
  module is its package's own);
* ``mod._name`` where ``mod`` is another exactlin module bound by an import.

Dunder names (``__version__``) are public.
"""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1] / "exactlin"

#: importer module -> the reason it may still import private names (each "rewritten by the engine work (issue 22)"
#: while the loops were being rewritten; none is left)
ALLOWED: dict[str, str] = {}  # emptied after the merge of the engine work (issue 22): nothing needs it


def module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def is_module(dotted: str) -> bool:
    rel = pathlib.Path(*dotted.split(".")[1:])
    base = ROOT.joinpath(rel)
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def package_of(module: str, path: pathlib.Path) -> str:
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def private_module_outside(target: str, importer_pkg: str) -> bool:
    """``target`` has a private component whose package does not contain the importer."""
    parts = target.split(".")
    for k, part in enumerate(parts):
        if private(part):
            owner = ".".join(parts[:k])  # the package the private module belongs to
            if not (importer_pkg == owner or importer_pkg.startswith(owner + ".")):
                return True
    return False


def violations(source: str, module: str, path: pathlib.Path) -> list[str]:
    tree = ast.parse(source)
    pkg = package_of(module, path)
    found: list[str] = []
    modules: dict[str, str] = {}  # local name -> the exactlin module it is bound to
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                and node.module.split(".")[0] == "exactlin":
            if node.module != module and private_module_outside(node.module, pkg):
                found.append(f"line {node.lineno}: from {node.module} import ... (a private module of another "
                             "package)")
            for a in node.names:
                full = f"{node.module}.{a.name}"
                if private(a.name) and node.module != module:
                    found.append(f"line {node.lineno}: from {node.module} import {a.name}")
                if is_module(full):
                    modules[a.asname or a.name] = full
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "exactlin":
                    if private_module_outside(a.name, pkg):
                        found.append(f"line {node.lineno}: import {a.name} (a private module of another package)")
                    if a.asname:
                        modules[a.asname] = a.name
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr) and isinstance(node.value, ast.Name):
            target = modules.get(node.value.id)
            if target is not None and target != module:
                found.append(f"line {node.lineno}: {node.value.id}.{node.attr} ({target})")
    return found


def test_no_module_uses_another_modules_private_name():
    bad = []
    for path in sorted(ROOT.rglob("*.py")):
        module = module_name(path)
        if module in ALLOWED:
            continue
        bad += [f"{path.relative_to(ROOT.parent)}: {v}" for v in violations(path.read_text(), module, path)]
    assert not bad, "private names used across modules (make the piece public within its layer):\n" + \
        "\n".join(bad)


def test_the_allowlist_names_real_modules_each_with_its_reason():
    for module, why in ALLOWED.items():
        assert is_module(module), module
        assert why.startswith("rewritten by the engine work (issue 22)"), module


def test_the_check_sees_each_kind_of_use():
    # the checker itself: every form it forbids is found, and the allowed forms are not (a check that cannot fail
    # would prove nothing)
    here = ROOT / "cli" / "fit.py"
    assert violations("from exactlin.render.report import _spec\n", "exactlin.cli.fit", here) == \
        ["line 1: from exactlin.render.report import _spec"]
    assert violations("from exactlin.algorithms import _fast\n", "exactlin.cli.fit", here)
    assert violations("from exactlin.algorithms._loop import binary_problem\n", "exactlin.cli.fit", here)
    assert violations("import exactlin.algorithms._loop\n", "exactlin.cli.fit", here)
    assert violations("from exactlin.render import report\nreport._spec(1)\n", "exactlin.cli.fit", here) == \
        ["line 2: report._spec (exactlin.render.report)"]
    assert violations("import exactlin.render.report as r\nr._spec(1)\n", "exactlin.cli.fit", here)
    # allowed: public names, dunders, a private module inside its own package, one's own private names
    algo = ROOT / "algorithms" / "svm.py"
    assert not violations("from exactlin.algorithms._contract import Checked\n", "exactlin.algorithms.svm", algo)
    assert not violations("from exactlin._version import __version__\n", "exactlin.cli.fit", here)
    assert not violations("from exactlin.render.report import spec_of\n", "exactlin.cli.fit", here)
    assert not violations("import exactlin.cli.fit as f\nf._own()\n", "exactlin.cli.fit", here)


def test_the_engine_trace_names_are_imported_from_their_module():
    # the names of exactlin.engine.trace (the trace, the bounds, the budget rows) have one home: no module imports
    # them from a module that re-exports them (algorithms/_loop.py did, "transitionally", until issue 22's tidy)
    import importlib

    from exactlin.engine import trace

    names = set(trace.__all__)
    bad = []
    for path in sorted([*ROOT.rglob("*.py"), *(ROOT.parent / "tests").rglob("*.py"),
                        *(ROOT.parent / "benchmarks").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("exactlin") \
                    and node.module != "exactlin.engine.trace":
                bad += [f"{path.relative_to(ROOT.parent)}:{node.lineno}: {a.name} from {node.module}"
                        for a in node.names if a.name in names  # the same object (iterate has its own Recorder)
                        and getattr(importlib.import_module(node.module), a.name, None) is getattr(trace, a.name)]
    assert not bad, "\n".join(bad)
