"""render.plot's scenes (issue 21, item 4): the step-through frames of a run, their SVG and the LaTeX picture.

Expected values by hand from seed 000 Example 1 (000_478cb53c624e7eb5.txt; x = (4, 0), (1, 1), (0, 1), (-2, -2),
labels 1, -1, -1, 1; no bias, w_1 = 0): round 1 tests sample 1, <0, x> = 0: a mistake, w = (4, 0); round 2
sample 2, y<w, x> = -4: a mistake, w = (3, -1); round 3 sample 3, y<w, x> = 1: correct; round 4 sample 4,
y<w, x> = -4: a mistake, w = (1, -3); then a clean pass.  3 updates, so 4 frames."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from exactlin import batch_perceptron, lms, perceptron, svm_hard
from exactlin.errors import ExactlinError, ShapeError
from exactlin.render.plot import MAX_FRAMES, run_scene, scene_latex, scene_svg, step_scenes

X = [(4, 0), (1, 1), (0, 1), (-2, -2)]
Y = [1, -1, -1, 1]
SVG = "{http://www.w3.org/2000/svg}"


def _on(line, w):
    """Both end points of a drawn segment satisfy <w, (1, u, v)> = 0 (w with its bias first) or <w, (u, v)> = 0."""
    for u, v in line:
        g = w[0] + w[1] * u + w[2] * v if len(w) == 3 else w[0] * u + w[1] * v
        assert float(g) == pytest.approx(0, abs=1e-9)


def test_one_frame_per_update_with_the_sample_and_the_mistake():
    run = perceptron(X, Y, bias="none", trace=True)
    frames = step_scenes(run)
    assert len(frames) == run.updates + 1 == 4
    assert frames[0].lines == [] and frames[0].rings == []  # w = 0: no boundary yet
    assert frames[0].title == "start: w = (0, 0)"
    expected = [(0, (4, 0), None), (1, (3, -1), (4, 0)), (3, (1, -3), (3, -1))]  # (sample, w after, w before)
    for fr, (i, w, before) in zip(frames[1:], expected):
        assert fr.rings == [(i, "mistake")]
        kinds = dict(fr.lines)
        _on(kinds["boundary"], w)
        if before is None:
            assert "previous" not in kinds
        else:
            _on(kinds["previous"], before)
        assert fr.title.endswith(f"w = ({w[0]}, {w[1]})")
    assert "sample 4 tested: a mistake" in frames[3].title
    assert all(fr.box == frames[0].box for fr in frames)  # the same axes in every frame


def test_a_batch_update_circles_every_mistake_it_sums():
    # batch perceptron from w = 0 with the bias first: every y x~ has <0, y x~> = 0, so all 4 are mistakes
    run = batch_perceptron(X, Y, bias="first", trace=True)
    frames = step_scenes(run)
    assert len(frames) == run.updates + 1
    assert sorted(frames[1].rings) == [(i, "mistake") for i in range(4)]
    assert "batch update (4 samples misclassified before it)" in frames[1].title


def test_lms_corrects_samples_already_right():
    # LMS (eta_k = 1/k, b = 1, bias first) from w = 0: step 1 tests sample 1, <0, x~> = 0: a mistake, w = (1, 4, 0);
    # step 2 sample 2 (label -1): <w, (1, 1, 1)> = 5 > 0: a mistake, w = (-2, 1, -3); step 3 sample 3 (label -1):
    # <w, (1, 0, 1)> = -5 < 0, already right, yet LMS updates toward b: a correction, circled orange
    run = lms(X, Y, bias="first", trace=True, max_epochs=2)
    frames = step_scenes(run)
    assert len(frames) == run.updates + 1
    assert [fr.rings for fr in frames[1:4]] == [[(0, "mistake")], [(1, "mistake")], [(2, "tested")]]
    assert "sample 3 tested: corrected" in frames[3].title


def test_every_iterative_binary_algorithm_steps_through_or_says_why():
    from exactlin.algorithms import all_specs
    from exactlin.cli.common import fit_with_status
    from exactlin.data.dataset import Dataset

    ds = Dataset(X, Y)
    stepped = []
    for spec in all_specs():
        if not spec.iterative or spec.multiclass:
            continue
        try:
            run = fit_with_status(spec.func, ds, None, bias=spec.bias_default, trace=True)
        except ExactlinError:
            continue  # e.g. an algorithm that needs a parameter: not a picture question
        if not any(s.update for s in run.trace):
            continue
        try:
            frames = step_scenes(run)
        except ExactlinError as e:
            assert str(e).count("\n") == 0
            continue
        assert len(frames) == run.updates + 1 <= MAX_FRAMES + 1, spec.name
        stepped.append(spec.name)
    assert {"perceptron", "batch-perceptron", "ho-kashyap-mod2", "threshold-unit", "pocket",
            "balanced-winnow"} <= set(stepped)


def test_balanced_winnow_steps_through_w_plus_minus_w_minus():
    # seed003-winnow (003_ffe0ec08819b37d8.txt, Algorithm 7), by hand: x = (1, 0) (+1), (0, 1) (-1), no bias,
    # alpha = 2, w+ = w- = (1, 1).  Sample 1: <w+ - w-, x> = 0, a mistake: w+ = (2, 1), w- = (1/2, 1), so
    # w = (3/2, 0) (boundary x1 = 0).  Sample 2: <(3/2, 0), (0, 1)> = 0, a mistake: w+ = (2, 1/2), w- = (1/2, 2),
    # w = (3/2, -3/2) (boundary x1 = x2).  Then a clean pass: 2 updates, 3 frames.
    from exactlin.lectures.examples import run_example

    (run,) = [r for r in run_example("seed003-winnow").runs if r.algorithm == "balanced-winnow"]
    frames = step_scenes(run)
    assert len(frames) == run.updates + 1 == 3
    assert [f.rings for f in frames] == [[], [(0, "mistake")], [(1, "mistake")]]
    (b1,) = [ln for k, ln in frames[1].lines if k == "boundary"]
    (b2,) = [ln for k, ln in frames[2].lines if k == "boundary"]
    _on(b1, (1, 0))
    _on(b2, (1, -1))
    assert "w = w+ - w- = (3/2, -3/2)" in frames[2].title


def test_scene_svg_is_xml_with_the_boundary_and_the_samples():
    run = perceptron(X, Y, bias="none", trace=True)
    root = ET.fromstring(scene_svg(step_scenes(run)[2]))
    lines = [e for e in root.iter(f"{SVG}line") if e.get("class") in ("boundary", "previous")]
    assert sorted(e.get("class") for e in lines) == ["boundary", "previous"]
    samples = [g for g in root.iter(f"{SVG}g") if g.get("class") == "sample"]
    assert [g.get("data-i") for g in samples] == ["1", "2", "3", "4"]
    assert [g.get("data-label") for g in samples] == ["1", "-1", "-1", "1"]
    assert len([c for c in root.iter(f"{SVG}circle") if c.get("class") == "mistake"]) == 1
    assert not [e for e in root.iter() if e.get("id")]  # no ids: many frames share a page


def test_final_scene_of_an_svm_has_margins_and_support_vectors():
    # by hand (tests/cli/test_fit_plot.py): g(x) = x1/3 - x2 - 1/3, support vectors samples 1, 2, 4
    sc = run_scene(svm_hard(X, Y))
    kinds = [k for k, _ in sc.lines]
    assert kinds == ["boundary", "margin", "margin"]
    for (_kind, seg), level in zip(sc.lines, (0, 1, -1)):
        for u, v in seg:
            assert u / 3 - v - 1 / 3 == pytest.approx(level, abs=1e-9)
    assert sorted(sc.rings) == [(0, "support"), (1, "support"), (3, "support")]


def test_scene_latex_is_a_kernel_picture():
    tex = scene_latex(run_scene(svm_hard(X, Y)))
    assert tex.count("\\begin{picture}") == tex.count("\\end{picture}") == 1
    assert "\\usepackage" not in tex and "tikz" not in tex  # nothing beyond the LaTeX kernel
    assert tex.count("\\circle{4}") == 3  # the support vectors
    assert len(re.findall(r"\\qbezier\[120\]", tex)) == 2  # the margins, dotted
    assert "$g(x) = \\pm 1$" in tex


def test_three_features_are_a_clear_error():
    run = perceptron([(1, 0, 0), (0, 1, 0), (0, 0, 1)], [1, -1, 1], trace=True)
    with pytest.raises(ShapeError, match="two-dimensional .* 3 features"):
        run_scene(run)
    with pytest.raises(ShapeError):
        step_scenes(run)


def _inside(poly, p) -> bool:
    """p strictly inside the convex polygon (the same side of every edge)."""
    sides = []
    for k in range(len(poly)):
        (a, b), (c, d) = poly[k - 1], poly[k]
        sides.append((c - a) * (p[1] - b) - (d - b) * (p[0] - a))
    return all(s > 0 for s in sides) or all(s < 0 for s in sides)


def test_a_linear_machine_steps_through_its_regions():
    # seed 003's linear machine example (003_*.txt): x = (1, 0) A, (0, 1) B, (-1, -1) C, no bias, W = 0.  By hand:
    # step 1, sample 1: all three scores 0, a tie, so a mistake; step 2, sample 2 under w_A = (1, 0), w_B = (-1, 0),
    # w_C = 0: scores 0, 0, 0, a mistake; step 3, sample 3 under w_A = (1, -1), w_B = (-1, 1), w_C = 0: scores
    # 0, 0, 0, a mistake; then every sample wins in its own class, so 3 updates and 4 frames.
    from exactlin import linear_machine

    run = linear_machine([(1, 0), (0, 1), (-1, -1)], ["A", "B", "C"], trace=True)
    frames = step_scenes(run)
    assert len(frames) == run.updates + 1 == 4
    assert frames[0].regions == []  # W = 0: every class ties everywhere, no region
    assert [fr.rings for fr in frames[1:]] == [[(0, "mistake")], [(1, "mistake")], [(2, "mistake")]]
    last = frames[-1]
    assert sorted(c for c, _ in last.regions) == [0, 1, 2]
    for c, poly in last.regions:  # each sample inside its own class's region
        assert _inside(poly, last.points[c])
    root = ET.fromstring(scene_svg(last))
    assert sorted(p.get("data-class") for p in root.iter(f"{SVG}polygon")) == ["A", "B", "C"]


def test_one_feature_data_step_through_on_the_axis():
    # by hand, bias first, w = 0: sample 1 (x~ = (1, 1)): <w, x~> = 0, a mistake, w = (1, 1); sample 2 (1, 2): 3 > 0;
    # sample 3 (1, -1), label -1: <w, x~> = 0, a mistake, w = (0, 2); then a clean pass: 2 updates, 3 frames.  The
    # boundaries 1 + x = 0 and 2 x = 0 are the vertical lines x = -1 and x = 0.
    run = perceptron([(1,), (2,), (-1,)], [1, 1, -1], bias="first", trace=True)
    frames = step_scenes(run)
    assert len(frames) == run.updates + 1 == 3
    assert [p[1] for p in frames[0].points] == [0.0, 0.0, 0.0]
    for fr, (i, x) in zip(frames[1:], [(0, -1), (2, 0)]):
        assert fr.rings == [(i, "mistake")]
        (a, b), (c, d) = dict(fr.lines)["boundary"]
        assert a == pytest.approx(x) and c == pytest.approx(x) and b != d
    with pytest.raises(ShapeError, match="two-dimensional"):  # fit --plot draws two features only
        from exactlin.render.plot import save_figure

        save_figure(run, "never-written.svg")


def test_a_feature_map_run_steps_through_curves_in_the_original_plane():
    # seed004-circle-lift (004_*.txt: phi(x, y) = (x, y, x^2 + y^2), constant first).  The last update gives
    # w = (2, -3/2, 0, -15/4) (the frame's exact title), so by hand the boundary 2 - 3/2 x - 15/4 (x^2 + y^2) = 0
    # is the circle (x + 1/5)^2 + y^2 = 8/15 + 1/25 = 43/75 of the plane: every drawn piece lies on it (up to the
    # display grid); the update before, w = (1, -2, 0, -4), is the dashed circle (x + 1/4)^2 + y^2 = 1/4 + 1/16.
    from exactlin.lectures.examples import run_example

    run = [r for r in run_example("seed004-circle-lift").runs if r.extras.get("feature_map") == "circle"
           and r.algorithm == "perceptron"][0]
    frames = step_scenes(run)
    assert len(frames) == run.updates + 1 == 5
    last = frames[-1]
    assert last.title.endswith("w = (2, -3/2, 0, -15/4)") and len(last.points[0]) == 2
    for kind, r2, c in (("boundary", 43 / 75, -1 / 5), ("previous", 5 / 16, -1 / 4)):
        segs = [ln for k, ln in last.lines if k == kind]
        assert len(segs) > 8
        for seg in segs:
            for u, v in seg:
                assert ((u - c) ** 2 + v ** 2) ** 0.5 == pytest.approx(r2 ** 0.5, abs=0.03)
    assert all(len(kinds) == 1 and kinds[0][1] == "mistake" for kinds in (f.rings for f in frames[1:]))


def test_one_vs_rest_steps_through_each_class_against_the_rest():
    # seed001-one-vs-rest (001_*.txt), by hand: x = (1, 0) A, (0, 1) B, (-1, -1) C, no bias, perceptron per class.
    # A vs rest: (1, 0) z=+1 g=0 -> w=(1,0); (0, 1) z=-1 g=0 -> (1,-1); (-1,-1) z=-1 g=0 -> (2,0); pass 2:
    # (0, 1) z=-1 g=0 -> (2,-1), then clean: 4 updates.  B: 4, C: 2 (the example's own check), so 11 frames;
    # frame 4 (A's last) draws 2u - v = 0 solid and u = 0 (w = (2, 0)) dashed.
    from exactlin.lectures.examples import run_example

    (run,) = [r for r in run_example("seed001-one-vs-rest").runs if r.algorithm == "one-vs-rest"]
    frames = step_scenes(run)
    assert len(frames) == run.updates + 1 == 11
    a4 = frames[4]
    assert a4.title.startswith("class A against the rest") and a4.title.endswith("w_A = (2, -1)")
    assert a4.rings == [(1, "mistake")] and a4.names == ["A", "B", "C"]
    (cur,) = [ln for k, ln in a4.lines if k == "boundary"]
    (prev,) = [ln for k, ln in a4.lines if k == "previous"]
    _on(cur, (2, -1))
    _on(prev, (2, 0))
    assert frames[5].title.startswith("class B against the rest")
    assert [k for k, _ in frames[5].lines] == ["boundary"]  # B starts from w = 0: no line before its first update
