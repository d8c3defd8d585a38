"""benchmarks.run's size overrides (``--set``) and its named ratios (``Workload.ratios``, per step): the ratio is
the quotient of the two medians, per step each divided by its Run's steps (values made up here, not timed)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from benchmarks.issue22 import no_stop_workload, printed_workload
from benchmarks.run import accepted, main, named_ratios, parse_overrides
from benchmarks.workloads import Ratio


def test_overrides_are_python_literals_and_go_only_where_taken():
    o = parse_overrides(["option_max_steps=5000", "option_max_updates=None", "n=20"])
    assert o == {"option_max_steps": 5000, "option_max_updates": None, "n": 20}
    assert accepted(printed_workload, o) == {"option_max_steps": 5000, "n": 20}
    assert accepted(no_stop_workload, o) == {"option_max_updates": None, "n": 20}


def test_an_override_no_selected_workload_takes_is_an_error():
    with pytest.raises(SystemExit):
        main(["--smoke", "--only", "mse", "--set", "option_max_steps=5"])


def test_named_ratios_per_step_and_plain():
    w = SimpleNamespace(ratios=[Ratio("a/b per step", "a", "b", "<= 2", per_step=True), Ratio("a/b", "a", "b"),
                                Ratio("a/c", "a", "c")])
    rows = [{"impl": "a", "median_s": 3.0, "steps": 100}, {"impl": "b", "median_s": 1.0, "steps": 1000},
            {"impl": "c", "error": "ValueError: x"}]
    got = {r["label"]: r["value"] for r in named_ratios(w, rows)}
    # per step: (3 / 100) / (1 / 1000) = 30; plain: 3 / 1 = 3; against an implementation that failed: none
    assert got == {"a/b per step": pytest.approx(30.0), "a/b": pytest.approx(3.0), "a/c": None}
