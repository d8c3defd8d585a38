"""docsgen.stepthrough (issue 21, item 4): the step-through block of a worked example's run has one frame per
update plus the start, only the first shown without JavaScript, buttons and its script, and nothing fetched.

Seed 000 Example 1 (000_478cb53c624e7eb5.txt): the perceptron makes 3 updates (rounds 1, 2 and 4), so 4 frames."""

from __future__ import annotations

import re

from exactlin import perceptron, svm_hard
from exactlin.docsgen.stepthrough import SCRIPT, stepthrough_html, stepthrough_md

X = [(4, 0), (1, 1), (0, 1), (-2, -2)]
Y = [1, -1, -1, 1]


def test_frames_are_the_updates_plus_the_start():
    run = perceptron(X, Y, bias="none", trace=True)
    block = stepthrough_html(run)
    frames = re.findall(r'<div class="exactlin-frame"( hidden)?>', block)
    assert len(frames) == run.updates + 1 == 4
    assert frames == ["", " hidden", " hidden", " hidden"]  # without JavaScript: the start
    assert block.count("<svg") == 5 and "\n\n" not in block  # a shared background + 4 overlays; one HTML block
    assert 'class="exactlin-prev' in block and 'class="exactlin-next' in block
    assert "http" not in block and "src=" not in block  # nothing is fetched


def test_markdown_section_and_script():
    run = perceptron(X, Y, bias="none", trace=True)
    md = stepthrough_md(run)
    assert md.startswith("### Step through the run") and SCRIPT in md
    assert "3 updates" in md
    assert "fetch" not in SCRIPT and "http" not in SCRIPT


def test_runs_without_updates_have_none():
    assert stepthrough_html(svm_hard(X, Y)) is None and stepthrough_md(svm_hard(X, Y)) == ""
    run = perceptron([(1, 0, 0), (0, 1, 0), (0, 0, 1)], [1, -1, 1], trace=True)  # three features
    assert stepthrough_html(run) is None


def test_a_run_with_the_same_frames_points_to_the_first():
    a = perceptron(X, Y, bias="none", trace=True)
    b = perceptron(X, Y, bias="none", trace=True)  # the same updates
    seen: dict = {}
    first, second = stepthrough_md(a, seen, "Run 1"), stepthrough_md(b, seen, "Run 2")
    assert "exactlin-steps" in first and "exactlin-steps" not in second
    assert "The same 3 updates, frame for frame, as Run 1" in second
