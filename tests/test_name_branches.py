"""No renderer branches on an algorithm's name (issue 22, "the contract finished").

The surfaces that show a run (render, docsgen, cli, testing, lectures' exercises) decide by a property of the run
(its model, certificate, extras keys and their declared roles: exactlin.model.extras) or of the registry spec
(family, multiclass, iterative), never by comparing the algorithm's name with a literal.  Walked with ast: a
comparison of ``<x>.algorithm`` / ``algorithm`` / ``name`` with a string literal or a tuple/set/list of them, and
``<x>.algorithm.startswith/endswith(...)``."""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1] / "exactlin"
SURFACES = ("render", "docsgen", "cli", "testing", "lectures")


def _is_algorithm(node, aliases=frozenset()) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "algorithm") or \
        (isinstance(node, ast.Name) and (node.id == "algorithm" or node.id in aliases))


def _literal_names(node) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return True
    return isinstance(node, (ast.Tuple, ast.List, ast.Set)) and bool(node.elts) and \
        all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts)


def branches(source: str) -> list[str]:
    found = []
    tree = ast.parse(source)
    # a local name bound to an algorithm's name (``name = run.algorithm``) is that name
    aliases = frozenset(t.id for node in ast.walk(tree) if isinstance(node, ast.Assign) and _is_algorithm(node.value)
                        for t in node.targets if isinstance(t, ast.Name))
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_is_algorithm(s, aliases) for s in sides) and any(_literal_names(s) for s in sides):
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("startswith", "endswith") and _is_algorithm(node.func.value, aliases):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def test_no_surface_branches_on_an_algorithms_name():
    bad = []
    for pkg in SURFACES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            bad += [f"{path.relative_to(ROOT.parent)}: {b}" for b in branches(path.read_text())]
    assert not bad, "branches on an algorithm's name (use a property of the run or of its spec):\n" + "\n".join(bad)


def test_the_check_sees_each_form():
    assert branches('if run.algorithm == "fisher":\n    pass\n')
    assert branches('x = run.algorithm in ("svm-hard", "svm-soft-l2")\n')
    assert branches('if algorithm == "lms":\n    pass\n')
    assert branches('run.algorithm.startswith("ho-kashyap")\n')
    assert branches('name = run.algorithm\nif name.endswith("-gd"):\n    pass\n')
    assert not branches("cand = [r for r in runs if r.algorithm == spec.name]\n")  # matching a run to its spec
