"""The hand-written newcomer pages (Getting started, the how-to pages) and the generator's additions for them:
live blocks and the notes' titles (the algorithm pages' derivations: tests/docsgen/test_algopages.py).

These run without mkdocs: the browser and build tests (tests/docs) cover the built site."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
from pathlib import Path

import pytest

from exactlin.docsgen import site

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SEEDS = Path("/work/shared/seeds")
NEW_PAGES = ["getting-started.md", "howto/train-on-csv.md", "howto/scikit-learn.md", "howto/read-a-certificate.md",
             "howto/compare-with-floats.md", "howto/property-tests.md"]
LIVE = re.compile(r"<!-- exactlin:(run ?[^\n]*?|file [^\n]*?) -->|<!-- exactlin:python\n.*?\n-->", re.S)


@pytest.fixture(scope="module")
def expanded():
    """Every new page with its live blocks filled (as the build fills them)."""
    site._MARKERS["<!-- exactlin:readme-install -->"] = site.readme_install()
    out = {}
    for rel in NEW_PAGES:
        md = (DOCS / rel).read_text(encoding="utf-8")
        out[rel] = site.page_markdown(md, rel)
    return out


@pytest.mark.parametrize("rel", NEW_PAGES)
def test_every_code_block_is_a_live_block(rel):
    """No fenced code in the source of a new page: every command, file and snippet is written as a live marker,
    so what the page shows is what ran (the README's install commands come from the README)."""
    md = (DOCS / rel).read_text(encoding="utf-8")
    assert "```" not in LIVE.sub("", md), f"{rel} has a fenced block that is not run at build time"
    assert LIVE.search(md), f"{rel} runs nothing"
    assert "$" not in LIVE.sub("", md), f"{rel} has a literal $ (it would be read as math)"


@pytest.mark.parametrize("rel", NEW_PAGES)
def test_no_live_block_failed(expanded, rel):
    assert "!!! failure" not in expanded[rel], expanded[rel][expanded[rel].find("!!! failure"):][:600]
    assert "[exit status 0]" in expanded[rel] or "Output:" in expanded[rel]
    assert "$" not in re.sub(r"EXLMATH\d+X", "", expanded[rel])


def _main(argv, cwd):
    from exactlin.cli import main

    out, err = io.StringIO(), io.StringIO()
    old = os.getcwd()
    os.environ["COLUMNS"] = "100"
    try:
        os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    finally:
        os.chdir(old)
        os.environ.pop("COLUMNS", None)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("rel", NEW_PAGES)
def test_shown_commands_match_a_fresh_run_byte_for_byte(expanded, rel, tmp_path):
    """Each console block's command, run again here through exactlin.cli.main in a fresh copy of
    examples/data, prints exactly the output the page shows."""
    import shutil

    shutil.copytree(ROOT / "examples" / "data", tmp_path / "examples" / "data")
    blocks = re.findall(r"```console\n(exactlin[^\n]*)\n(.*?)\n\[exit status (\S+)\]\n```", expanded[rel], re.S)
    for cmd, shown, status in blocks:
        code, out, err = _main(shlex.split(cmd)[1:], tmp_path)
        text = out + (("\n" if out and not out.endswith("\n") else "") + "[stderr]\n" + err if err else "")
        assert str(code) == status, cmd
        assert text.rstrip() == shown, cmd


@pytest.mark.parametrize("rel", NEW_PAGES)
def test_python_blocks_run_and_print_what_is_shown(expanded, rel, tmp_path):
    """The page's python blocks, executed here in one namespace (in page order), print what the page shows."""
    import shutil

    shutil.copytree(ROOT / "examples" / "data", tmp_path / "examples" / "data")
    md = expanded[rel]
    ns: dict = {"__name__": "docs_check"}
    for m in re.finditer(r"```python\n(.*?)\n```\n(?:\nOutput:\n\n```text\n(.*?)\n?```\n)?", md, re.S):
        out = io.StringIO()
        old = os.getcwd()
        try:
            os.chdir(tmp_path)
            with contextlib.redirect_stdout(out):
                exec(compile(m.group(1), rel, "exec"), ns)  # noqa: S102 - the page's example code
        finally:
            os.chdir(old)
        if m.group(2) is not None and "GridSearchCV" not in m.group(1):
            assert out.getvalue().rstrip() == m.group(2).rstrip(), m.group(1)


def test_getting_started_shows_the_lecture_values(expanded):
    page = expanded["getting-started.md"]
    # seed 000, Example 1: the perceptron ends at w = (1, -3) after 3 updates (the lecture's rounds)
    assert "w = (1, -3)" in page and "(Fraction(1, 1), Fraction(-3, 1)) converged 3" in page
    # XOR through the origin: the 4 corrections of one cycle sum to 0 (hand derivation: (0,0), -(1,1), (0,1),
    # (1,0)), so lambda = (1/4, 1/4, 1/4, 1/4)
    assert "lambda = (1/4, 1/4, 1/4, 1/4)" in page
    # the README's two install commands, as the README has them
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    cmds = [ln for ln in readme.splitlines() if ln.startswith("python3 -m venv ")][:2]
    assert len(cmds) == 2 and "```sh\n" + "\n".join(cmds) + "\n```" in page


def test_getting_started_is_after_home_and_howtos_are_in_the_nav():
    src = (ROOT / "exactlin" / "docsgen" / "site.py").read_text(encoding="utf-8")
    assert src.index('{"Home": "index.md"}') < src.index('{"Getting started": "getting-started.md"}') \
        < src.index('{"Algorithms":')
    paths = [next(iter(d.values())) for d in site.howto_nav()]
    for rel in NEW_PAGES[1:]:
        assert rel in paths
    titles = [next(iter(d)) for d in site.howto_nav()]
    assert "How to read a certificate" in titles


def test_live_python_failure_is_reported(caplog):
    out = site.live_python("raise ValueError('boom')", "test-failure")
    assert "!!! failure" in out and "ValueError: boom" in out
    assert any("failed" in r.getMessage() for r in caplog.records)


# ---------------------------------------------------------------------------
# the notes' titles


def test_every_note_has_a_title_numbered_like_its_file():
    from exactlin.lectures import notes

    seeds = [notes.SEED000, notes.SEED001, notes.SEED002, notes.SEED003, notes.SEED004]
    assert set(notes.NOTE_TITLES) == set(seeds)
    for s in seeds:
        assert notes.NOTE_TITLES[s].startswith(f"Seed {s[:3]} — ")
        assert notes.cite_note(s) == f"{notes.NOTE_TITLES[s]} (`{s}`)"
    assert notes.cite_note("999_unknown.txt") == "`999_unknown.txt`"


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the lecture notes are not on this machine")
@pytest.mark.parametrize("seed,words", [
    ("000_478cb53c624e7eb5.txt", ["Perceptron", "Converge", "Voted", "Margin"]),
    ("001_5ccb68c426482a98.txt", ["Non-Separable", "Batch PLA", "Pocket", "gradient descent", "Multiclass"]),
    ("002_c246c20bba6fa4e1.txt", ["Perceptron", "gradient descent", "stochastic"]),
    ("003_ffe0ec08819b37d8.txt", ["Fisher", "Winnow", "relaxation", "Ho-Kashyap", "LMS", "multi-category"]),
    ("004_f7c425a21563e0cd.txt", ["Lecture 19", "Theorem", "margin", "Soft margin"]),
])
def test_titles_name_what_the_notes_are_about(seed, words):
    """Each title's topics are read from the note's own headings: every topic word occurs in the note and in
    its title."""
    from exactlin.lectures.notes import NOTE_TITLES

    text = (SEEDS / seed).read_text(encoding="utf-8").lower()
    for w in words:
        assert w.lower() in text, (seed, w)
        assert w.lower().split()[0] in NOTE_TITLES[seed].lower(), (seed, w)


def test_generated_pages_cite_notes_with_their_titles():
    from exactlin.algorithms import REGISTRY, all_specs
    from exactlin.lectures.notes import NOTE_TITLES

    all_specs()
    pages = {"errata": site.errata_page(), "proof": site.proof_page([], {})}
    for name in ("perceptron", "ho-kashyap", "svm-hard", "batch-pla", "perceptron-gd"):
        pages[name] = site.algorithm_page(REGISTRY[name], {}, {}, None)
    for key, md in pages.items():
        md = re.sub(r"^```.*?^```", "", md, flags=re.M | re.S)  # a docstring shown verbatim is code
        for seed, title in NOTE_TITLES.items():
            for m in re.finditer(re.escape(f"`{seed}`"), md):
                assert md[:m.start()].endswith(f"{title} ("), (key, md[max(0, m.start() - 120):m.end()])
    assert NOTE_TITLES["001_5ccb68c426482a98.txt"] in pages["batch-pla"]


def test_the_extras_page_is_generated_from_the_schema():
    # the reference page of Run.extras: every declared key, under its family's title (exactlin.model.extras)
    from exactlin.algorithms import FAMILIES
    from exactlin.model.extras import COMMON, FAMILY_KEYS

    page = site.extras_page()
    for title, _ in FAMILIES.values():
        assert f"## {title}" in page
    for keys in (COMMON, *FAMILY_KEYS.values()):
        for name, key in keys.items():
            cell = key.meaning.replace("|", "\\|")  # a norm's bars, escaped in a table cell
            assert f"| `{name}` | {key.kind.replace('|', ' or ')} | {cell} |" in page
