"""Every registered worked example reproduces the lecture; every erratum's demonstration holds."""

import pytest

from exactlin.lectures.errata import all_errata
from exactlin.lectures.examples import all_examples


@pytest.mark.parametrize("ex", all_examples(), ids=lambda e: e.id)
def test_example_reproduces_lecture(ex):
    res = ex.func()
    failed = [f"{c.what}: expected {c.expected}, got {c.actual}" for c in res.checks if not c.ok]
    assert not failed, failed
    assert res.checks, "an example must check something"


@pytest.mark.parametrize("e", all_errata(), ids=lambda e: e.id)
def test_erratum_demonstration(e):
    demo = e.demonstrate()
    assert demo["holds"] is True, demo
    assert demo["text"]
    assert e.notes_say and e.correct and e.seed.endswith(".txt")
