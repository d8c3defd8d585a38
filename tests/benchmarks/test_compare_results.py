"""benchmarks/compare_results.py: every ratio it re-measures is the one RESULTS.md records (the value is written in
the section it names, and both implementations exist in the workload), and it flags exactly the ratios more than
the tolerance worse.  Never asserts a time."""

from __future__ import annotations

import json

import pytest

from benchmarks.compare_results import RATIOS, Recorded, _fmt, main, parse_ratio, report, section_text
from benchmarks.workloads import WORKLOADS


@pytest.mark.parametrize("r", [r for r in RATIOS if r.recorded], ids=lambda r: r.label)
def test_every_recorded_value_is_written_in_its_section_of_results_md(r):
    assert f"{r.recorded}" in section_text(r.section), (r.section, r.recorded)


def test_each_ratio_names_two_implementations_of_its_workload():
    for key in sorted({r.key for r in RATIOS}):
        module, factory, _full, small = WORKLOADS[key]
        w = factory(**small)
        names = {i.name for i in w.exactlin + w.anchors}
        for r in RATIOS:
            if r.key == key:
                assert {r.num, r.den} <= names, (r.label, names)


def test_parse_ratio_reads_both_notations():
    assert parse_ratio("1.55x") == 1.55
    assert parse_ratio("1/533") == 1 / 533
    assert parse_ratio("0.188x") == 0.188


def test_a_ratio_more_than_ten_percent_worse_is_flagged_and_no_other():
    rec = Recorded("w", "a", "b", "1.50x", "s")
    target = Recorded("w", "c", "d", "", "s", target=2.0)
    # 1.50 * 1.10 = 1.65: 1.64 is within 10%, 1.66 is not; lower is better
    assert report({rec: 1.64, target: 1.9}, 0.10, compare=True)[1] == 0
    text, flagged = report({rec: 1.66, target: 2.1}, 0.10, compare=True)
    assert flagged == 2 and "WORSE by more than 10%" in text and "misses the target" in text
    assert report({rec: 0.5}, 0.10, compare=True)[1] == 0  # an improvement
    assert report({rec: "not available (gone)"}, 0.10, compare=True)[1] == 1  # not measured: flagged too


def test_the_script_runs_at_smoke_size(capsys):
    assert main(["--smoke", "--clock", "cpu", "--only", "fixed-increment", "issue22-no-stop-on-cycle"]) == 0
    out = capsys.readouterr().out
    assert "fixed-increment: fixed_increment() / perceptron(bias=first) | 1.01x |" in out
    assert "2 ratios in" in out and "0 flagged" in out


def test_save_then_compare_against_the_saved_run(tmp_path, capsys):
    saved = tmp_path / "before.json"
    assert main(["--smoke", "--only", "fixed-increment", "--save", str(saved)]) == 0
    capsys.readouterr()
    assert main(["--smoke", "--only", "fixed-increment", "--against", str(saved)]) == 0
    out = capsys.readouterr().out
    assert "| ratio | recorded (earlier run) |" in out
    (row,) = [line for line in out.splitlines() if line.startswith("| fixed-increment:")]
    value = json.loads(saved.read_text())["ratios"]["fixed-increment: fixed_increment() / perceptron(bias=first)"]
    assert row.split("|")[2].strip() == _fmt(value)  # the saved run's value, not RESULTS.md's


def test_against_flags_a_ratio_worse_than_the_earlier_run():
    r = RATIOS[0]
    text, flagged = report({r: 2.0}, 0.10, compare=True, against={r.label: 1.5})
    assert flagged == 1 and "| 1.5x | 2x | +33% |" in text
