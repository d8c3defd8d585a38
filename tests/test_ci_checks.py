"""The CI step of scripts/check.sh that runs pylint's duplicate-code check against a baseline that only shrinks
(.ci/duplicate_code.py): a duplicate planted in a temporary package is reported and fails the step, a baseline
line covers exactly its blocks, and a baseline line whose duplicate is gone fails too.  The expected module
pairs are the planted files' names (pylint names a module by its dotted path from the working directory)."""

from __future__ import annotations

import importlib.util
import io
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("ci_duplicate_code", ROOT / ".ci" / "duplicate_code.py")
dup = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = dup
_spec.loader.exec_module(dup)

# eight statements that are not a signature, an import, a comment or a docstring: pylint compares these
BODY = """
    total = 0
    for i, v in enumerate(values):
        if v > limit:
            total += i * v
        elif v < -limit:
            total -= i
        else:
            total += 1
    return total
"""


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    pkg = tmp_path / "planted"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for name, text in files.items():
        (pkg / f"{name}.py").write_text(text)
    return pkg


def _check(tmp_path: Path, pkg: Path, baseline_text: str) -> tuple[int, str]:
    baseline = tmp_path / "baseline.txt"
    baseline.write_text(baseline_text)
    out = io.StringIO()
    rc = dup.check(Path(pkg.name), baseline, cwd=pkg.parent, out=out)
    return rc, out.getvalue()


@pytest.fixture
def planted(tmp_path):
    return _package(tmp_path, {"alpha": f"def score(values, limit):{BODY}",
                               "beta": f"def other_name(values, limit):{BODY}",
                               "gamma": "def unrelated(x):\n    return x + 1\n"})


def test_a_planted_duplicate_fails_the_step_and_is_printed(tmp_path, planted):
    rc, out = _check(tmp_path, planted, "")
    assert rc == 1
    assert "NEW duplicate code (1 block(s) beyond the baseline) between planted.alpha planted.beta" in out
    assert "total -= i" in out  # the duplicated text itself, to write it once
    assert "planted.gamma" not in out


def test_a_baseline_line_allows_exactly_its_blocks(tmp_path, planted):
    rc, out = _check(tmp_path, planted, "# today\n1 planted.beta planted.alpha\n")  # order of modules is free
    assert rc == 0, out
    assert "1 block(s), all in the baseline" in out


def test_a_baseline_line_whose_duplicate_is_gone_fails(tmp_path, planted):
    (planted / "beta.py").write_text("def other_name(values, limit):\n    return sum(values) - limit\n")
    rc, out = _check(tmp_path, planted, "1 planted.alpha planted.beta\n")
    assert rc == 1
    assert "allows 1 more block(s) between planted.alpha planted.beta than pylint finds now" in out


def test_a_second_block_between_listed_modules_is_new(tmp_path):
    second = BODY.replace("total", "acc")
    pkg = _package(tmp_path, {"alpha": f"def f(values, limit):{BODY}\n\ndef g(values, limit):{second}",
                              "beta": f"def f(values, limit):{BODY}\n\nX = 1\n\n\ndef g(values, limit):{second}"})
    rc, out = _check(tmp_path, pkg, "1 planted.alpha planted.beta\n")
    assert rc == 1
    assert "NEW duplicate code (1 block(s) beyond the baseline) between planted.alpha planted.beta" in out


def test_no_duplicate_and_an_empty_baseline_pass(tmp_path):
    pkg = _package(tmp_path, {"alpha": f"def score(values, limit):{BODY}", "gamma": "X = 1\n"})
    rc, out = _check(tmp_path, pkg, "")
    assert rc == 0, out
    assert "0 block(s)" in out


def test_the_report_parser_groups_blocks_by_their_modules():
    # a report in pylint's format, written by hand: two blocks, the second one across three files
    report = ("************* Module planted.alpha\n"
              "planted/alpha.py:1:0: R0801: Similar lines in 2 files\n"
              "==planted.beta:[3:12]\n==planted.alpha:[1:10]\n    total = 0 (duplicate-code)\n"
              "planted/alpha.py:1:0: R0801: Similar lines in 3 files\n"
              "==planted.c:[0:7]\n==planted.a:[0:7]\n==planted.b:[2:9]\n    x = 1 (duplicate-code)\n")
    assert [k for k, _ in dup.blocks(report)] == ["planted.alpha planted.beta", "planted.a planted.b planted.c"]


def test_the_committed_baseline_names_only_the_loops_being_rewritten():
    # issue 22 allows the copies inside exactlin/algorithms/ (and the engine's copy of _fast.py, which replaces it)
    # until the loops are written once; elsewhere the package has no duplicate (exactlin/errors.py and
    # exactlin/__init__.py share one list of errors)
    allowed = dup.read_baseline(dup.BASELINE)
    for key in allowed:
        assert all(m.startswith(("exactlin.algorithms.", "exactlin.engine.")) for m in key.split()), key
