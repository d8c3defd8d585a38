"""The package has no import cycle at all, and its layers hold (the contracts of pyproject.toml).

grimp builds the import graph of every exactlin module, imports inside functions included; Tarjan's algorithm
(written here, independent of grimp and import-linter) finds its strongly connected components, and every one
must be a single module.  A synthetic graph with a cycle shows the checker is not vacuous.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import tomllib

import grimp
import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of ``graph`` (node -> nodes it imports), iteratively."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    out.append(sorted(comp))
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The components of more than one module, and single modules that import themselves."""
    return [c for c in strongly_connected(graph) if len(c) > 1 or c[0] in graph.get(c[0], ())]


@pytest.fixture(scope="module")
def import_graph() -> dict[str, set[str]]:
    g = grimp.build_graph("exactlin", include_external_packages=False)
    return {m: set(g.find_modules_directly_imported_by(m)) for m in g.modules}


def test_checker_flags_a_synthetic_cycle():
    # a -> b -> c -> a is one component of three (hand-built); d -> a hangs off it; e imports itself
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}, "f": set()}
    assert sorted(cycles(graph)) == [["a", "b", "c"], ["e"]]
    assert sorted(strongly_connected(graph)) == [["a", "b", "c"], ["d"], ["e"], ["f"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_checker_flags_the_old_cycles():
    # the cycles the tree had before its layers were enforced: numbers <-> rows, and
    # run -> render.plot -> algorithms.features -> algorithms._loop -> run
    old = {"exactlin.exact.numbers": {"exactlin.exact.rows"}, "exactlin.exact.rows": {"exactlin.exact.numbers"},
           "exactlin.model.run": {"exactlin.render.plot"}, "exactlin.render.plot": {"exactlin.algorithms.features"},
           "exactlin.algorithms.features": {"exactlin.algorithms._loop"},
           "exactlin.algorithms._loop": {"exactlin.model.run"}}
    assert sorted(cycles(old)) == [
        ["exactlin.algorithms._loop", "exactlin.algorithms.features", "exactlin.model.run", "exactlin.render.plot"],
        ["exactlin.exact.numbers", "exactlin.exact.rows"]]


def test_the_graph_is_the_whole_package(import_graph):
    # not vacuous: every module file of the package is in the graph, with the imports we know it has
    files = {".".join(p.relative_to(ROOT).with_suffix("").parts) for p in (ROOT / "exactlin").rglob("*.py")}
    files = {f.removesuffix(".__init__") for f in files}
    assert files <= set(import_graph)
    assert len(import_graph) >= 60
    assert "exactlin.exact.format" in import_graph["exactlin.exact.rows"]
    assert "exactlin.model.run" in import_graph["exactlin.engine.trace"]


def test_no_import_cycle(import_graph):
    assert cycles(import_graph) == []


def _lint_imports(cwd, *args) -> subprocess.CompletedProcess:
    code = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(cwd), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, env=env, capture_output=True, text=True)


def test_import_linter_contracts_kept():
    # the contracts of pyproject.toml, as scripts/check.sh runs them
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    assert [c["name"] for c in config["contracts"]] == ["layers: imports point down only",
                                                         "the exact layer: format < rows < numbers",
                                                         "the stand-alone checker imports nothing from exactlin",
                                                         "verifiers never import a producer"]
    res = _lint_imports(ROOT)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "Contracts: 4 kept, 0 broken." in res.stdout


def test_import_linter_flags_an_upward_import(tmp_path):
    # a synthetic package whose low layer imports its high one: the same kind of contract is BROKEN
    pkg = tmp_path / "layeredpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "high.py").write_text("from layeredpkg import low\n")
    (pkg / "low.py").write_text("def f():\n    from layeredpkg import high  # inside a function: still seen\n")
    (tmp_path / ".importlinter").write_text("[importlinter]\nroot_package = layeredpkg\n\n"
                                            "[importlinter:contract:1]\nname = layers\ntype = layers\n"
                                            "layers =\n    layeredpkg.high\n    layeredpkg.low\n")
    res = _lint_imports(tmp_path, "--config", str(tmp_path / ".importlinter"))
    assert res.returncode == 1, res.stdout + res.stderr
    assert "BROKEN" in res.stdout and "layeredpkg.low -> layeredpkg.high" in res.stdout
