"""The README is executable (issue 20, item 6) and says what the code does (item 5).

Every command of the README's shell blocks (```sh, ```bash, ```shell) and every Python block runs, in the
order the README shows them, in one temporary directory holding a copy of ``examples/``: a command exits 0
with no traceback, or with the status its own trailing comment gives (``# exit status 2``); Python blocks are
doctests (``>>>``), run in one namespace, or plain code, executed.  ``exactlin`` is the console script
(pyproject's ``[project.scripts]`` entry point, on the PATH first; this checkout on PYTHONPATH).  A block
whose line above it reads ``<!-- README test: not run (REASON) -->`` is skipped, and may hold only install,
CI, docs-build and full-benchmark lines (checked below): a new line anywhere else is run without a word here.

Besides: every ``exactlin.…`` name the README writes resolves, every file and test it cites exists, and its
algorithm table is the registry's."""

from __future__ import annotations

import doctest
import os
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

_FENCE = re.compile(r"^```(?P<lang>[\w-]*)[ \t]*\n(?P<body>.*?)^```[ \t]*$", re.M | re.S)
_SKIP = re.compile(r"^<!-- README test: not run \((?P<why>[^)]+)\) -->$")
_STATUS = re.compile(r"#[^#\n]*\bexit status (?P<code>\d+)\b[^#\n]*$")
SHELL = ("sh", "bash", "shell")
#: what a skipped block may hold: installing, the CI script, building the docs, the benchmarks at full size
SKIPPABLE = re.compile(r"pip install|scripts/check\.sh|\.ci/|mkdocs build|-m benchmarks\.")


@dataclass
class Block:
    lang: str
    body: str
    line: int  # of the opening fence, 1-based
    skipped: str | None  # the reason of its marker

    def commands(self) -> list[tuple[int, str]]:
        """(line, command) of a shell block: lines joined at a trailing backslash; blank and comment lines
        dropped."""
        out, pending, start = [], "", 0
        for i, raw in enumerate(self.body.splitlines(), self.line + 1):
            if not pending:
                start = i
            if raw.rstrip().endswith("\\"):
                pending += raw.rstrip()[:-1] + " "
                continue
            cmd = (pending + raw).strip()
            pending = ""
            if cmd and not cmd.startswith("#"):
                out.append((start, cmd))
        assert not pending, f"README.md:{start}: a command ends in a backslash"
        return out


def readme_blocks(text: str | None = None) -> list[Block]:
    text = README.read_text(encoding="utf-8") if text is None else text
    blocks = []
    for m in _FENCE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        before = text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1].strip()
        skip = _SKIP.match(before)
        blocks.append(Block(m.group("lang"), m.group("body"), line, skip.group("why") if skip else None))
    return blocks


def expected_status(command: str) -> int:
    m = _STATUS.search(command)
    return int(m.group("code")) if m else 0


def _console_script(bindir: Path) -> None:
    """``exactlin`` as pip installs it: a script calling pyproject's entry point with this interpreter."""
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    module, func = scripts["exactlin"].split(":")
    exe = bindir / "exactlin"
    exe.write_text(f"#!{sys.executable}\nimport sys\nfrom {module} import {func}\nsys.exit({func}())\n")
    exe.chmod(0o755)


def test_the_parser_reads_blocks_markers_and_statuses():
    text = ("x\n```sh\nexactlin a \\\n    --b  # c\n# a comment\n\nexactlin d  # bad input: exit status 2\n```\n"
            "<!-- README test: not run (it installs) -->\n```sh\npip install x\n```\n```python\n>>> 1\n1\n```\n")
    a, b, c = readme_blocks(text)
    assert (a.lang, a.line, a.skipped, b.skipped, c.lang) == ("sh", 2, None, "it installs", "python")
    assert a.commands() == [(3, "exactlin a      --b  # c"), (7, "exactlin d  # bad input: exit status 2")]
    assert [expected_status(cmd) for _, cmd in a.commands()] == [0, 2]


def test_the_readme_runs_in_order(tmp_path, monkeypatch):
    blocks = readme_blocks()
    work = tmp_path / "work"
    shutil.copytree(ROOT / "examples", work / "examples")
    bindir = tmp_path / "bin"
    bindir.mkdir()
    _console_script(bindir)
    env = {**os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}",
           "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]),
           "EXACTLIN_NO_PROGRESS": "1"}
    monkeypatch.chdir(work)
    globs: dict = {"__name__": "README"}
    ran = {"shell": 0, "python": 0}
    for block in blocks:
        if block.skipped is not None:
            continue
        if block.lang in SHELL:
            for line, cmd in block.commands():
                p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=work, env=env, capture_output=True,
                                   text=True, timeout=300)
                where = f"README.md:{line}: `{cmd}`"
                assert "Traceback" not in p.stdout + p.stderr, f"{where} printed a traceback:\n{p.stderr[-3000:]}"
                assert p.returncode == expected_status(cmd), f"{where} exited {p.returncode}:\n{p.stderr[-3000:]}"
                ran["shell"] += 1
        elif block.lang == "python":
            if ">>>" in block.body:
                test = doctest.DocTestParser().get_doctest(block.body, globs, f"README.md:{block.line}",
                                                           str(README), block.line)
                runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
                runner.run(test, clear_globs=False)
                assert runner.failures == 0, f"README.md:{block.line}: the doctest fails (its report above)"
            else:
                exec(compile(block.body, f"README.md:{block.line}", "exec"), globs)  # noqa: S102
            ran["python"] += 1
    # the "Using it" block alone holds about 20 commands; the Python example of "Numbering"
    assert ran["shell"] >= 15 and ran["python"] >= 1, ran
    assert (work / "model.json").is_file() and (work / "ex1.tex").is_file()  # files the README's commands write


def test_skipped_blocks_hold_only_install_ci_docs_and_benchmark_lines():
    skipped = [b for b in readme_blocks() if b.skipped is not None]
    assert skipped  # the quickstart installs
    for b in skipped:
        assert b.lang in SHELL, f"README.md:{b.line}: only shell blocks are skipped"
        for line, cmd in b.commands():
            assert SKIPPABLE.search(cmd), f"README.md:{line}: `{cmd}` is marked not run but installs nothing"
    marked = len(re.findall(r"<!-- README test: not run", README.read_text(encoding="utf-8")))
    assert marked == len(skipped), "a marker that is not on the line above a block"


# ---------------------------------------------------------------------------
# the README says what the code does


def _backticked(text: str) -> set[str]:
    return set(re.findall(r"`([^`\n]+)`", text))


def _resolve(dotted: str):
    import importlib

    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return obj
    raise ModuleNotFoundError(dotted)


def test_every_exactlin_name_the_readme_writes_resolves():
    names = sorted(t for t in _backticked(README.read_text(encoding="utf-8"))
                   if re.fullmatch(r"exactlin(\.[A-Za-z_]\w*)+", t))
    assert "exactlin.exact.numbers.to_rational" in names and len(names) >= 10
    for name in names:
        try:
            _resolve(name)
        except (ImportError, AttributeError) as e:
            pytest.fail(f"README.md names `{name}`, which does not exist ({e})")


def test_every_file_and_test_the_readme_cites_exists():
    cited = sorted(t for t in _backticked(README.read_text(encoding="utf-8"))
                   if re.match(r"(tests|docs|examples|exactlin|scripts)/[\w./-]*(::\w+)?$", t))
    assert len(cited) >= 20
    for ref in cited:
        path, _, func = ref.partition("::")
        assert (ROOT / path).exists(), f"README.md cites {path}, which does not exist"
        if func:
            assert re.search(rf"^def {func}\(", (ROOT / path).read_text(encoding="utf-8"), re.M), ref
    # `::name` after a cited file: a test of the file cited just before it in the same table cell
    for m in re.finditer(r"`(tests/[\w/]+\.py)::\w+`((?:, `::\w+`)+)", README.read_text(encoding="utf-8")):
        body = (ROOT / m.group(1)).read_text(encoding="utf-8")
        for func in re.findall(r"`::(\w+)`", m.group(2)):
            assert re.search(rf"^def {func}\(", body, re.M), f"{m.group(1)}::{func}"


def test_the_algorithm_table_is_the_registry():
    from exactlin.algorithms import all_specs

    rows = {}
    for line in README.read_text(encoding="utf-8").splitlines():
        m = re.fullmatch(r"\| `([a-z0-9-]+)` \| (.*) \| (.*) \| (none|first|last) \|", line)
        if m:
            rows[m.group(1)] = m.groups()[1:]
    specs = {s.name: s for s in all_specs()}
    assert set(rows) == set(specs)
    for name, (title, notes, bias) in rows.items():
        spec = specs[name]
        assert spec.title.replace("|", "\\|") in title, name
        assert spec.seed in notes and bias == spec.bias_default, name


def test_the_readme_says_what_fisher_transform_returns():
    # issue 20: the README said `ExactFisher().transform` returns Fractions; it returns float64 (a transformer's
    # contract), `transform_exact` the Fractions.  Seed 000 Example 1 through the origin: Fisher's w is a multiple
    # of S_W^-1 (m1 - m2); whatever w is, transform is float(w.x) of transform_exact's exact w.x
    np = pytest.importorskip("numpy")
    pytest.importorskip("sklearn")
    from fractions import Fraction

    from exactlin.sklearn import ExactFisher

    text = " ".join(README.read_text(encoding="utf-8").split())
    assert "`ExactFisher().transform(X)` is the projection w.x as float64" in text
    X, y = np.array([[4, 0], [1, 1], [0, 1], [-2, -2]]), [1, -1, -1, 1]
    est = ExactFisher().fit(X, y)
    assert est.transform(X).dtype == np.float64
    exact = est.transform_exact(X)
    assert all(isinstance(v, Fraction) for v in exact[:, 0])
    w = est.scalings_[:, 0].tolist()
    assert exact[:, 0].tolist() == [w[0] * a + w[1] * b for a, b in X.tolist()]
    assert est.transform(X)[:, 0].tolist() == [float(v) for v in exact[:, 0]]
