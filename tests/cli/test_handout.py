"""The main job as a handout: bare ``exactlin`` stays short (a line or two per worked example), also with many
more examples; the docs site's example pages stay small."""

from __future__ import annotations

import pytest

from exactlin.cli.app import main
from exactlin.lectures.examples import all_examples
from exactlin.render.report import main_job_text


def test_bare_exactlin_is_a_handout(capsys):
    code = main([])
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert code == 0
    assert len(lines) < 300
    assert len(out.encode()) < 50_000
    assert max(len(line) for line in lines) <= 200
    n = len(all_examples())
    assert f"{n} of {n} worked examples reproduced and verified" in out
    assert "exactlin examples show ID" in out


@pytest.fixture(scope="module")
def results():
    return [(ex, ex.func()) for ex in all_examples()]


def test_handout_stays_short_with_60_examples(results):
    items = (results * (60 // len(results) + 1))[:60]
    text, failed = main_job_text(items)
    assert not failed
    assert len(text.splitlines()) < 300 and len(text.encode()) < 50_000
    assert max(len(line) for line in text.splitlines()) <= 200


def test_a_failure_is_printed_in_full(results):
    from dataclasses import replace

    from exactlin.lectures.examples import Check, ExampleResult

    ex, res = results[0]
    bad = ExampleResult(runs=res.runs, checks=[*res.checks, Check("a made-up check", 1, 2, "hand derivation: 1")])
    text, failed = main_job_text([(replace(ex), bad)])
    assert failed == [ex.id]
    assert "FAILED a made-up check: expected 1 (hand derivation: 1), got 2" in text
    assert "0 of 1 worked examples reproduced and verified; FAILED: " + ex.id in text


def test_digits_and_exact_flags(capsys):
    assert main(["--digits", "3", "examples", "show", "seed000-margin"]) in (0, 1)
    assert main(["--exact", "examples"]) == 0
    capsys.readouterr()


def test_site_example_pages_under_200_kb(results):
    from exactlin.docsgen import site

    site.GENERATED.clear()
    site.examples_pages([ex for ex, _ in results], {ex.id: res for ex, res in results})
    pages = {k: v for k, v in site.GENERATED.items() if k.startswith("examples/") and k.endswith(".md")}
    assert len(pages) == len(results) + 1
    for key, md in pages.items():
        assert len(md.encode()) < 200_000, key
    site.GENERATED.clear()


def test_a_top_level_option_value_is_not_taken_for_a_command(capsys):
    # `exactlin --digits 3 examples ...`: the 3 is --digits' value (the "did you mean" check took it for a command)
    assert main(["--digits", "3", "examples"]) == 0
    assert "unknown command" not in capsys.readouterr().err
    assert main(["--digits", "3", "exampels"]) == 2
    assert "did you mean examples" in capsys.readouterr().err
