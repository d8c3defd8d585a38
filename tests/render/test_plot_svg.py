"""The pictures, checked on the SVG they render to (issue 16, item 7): the legend lies inside the figure, an SVM's
margin lines are w.x + b = +1 and -1, its support vectors are circled at their coordinates.  The SVG is rendered
with a fixed hashsalt and no date, then parsed as XML; the expected lines and points are derived by hand."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from fractions import Fraction as F

import pytest

pytest.importorskip("matplotlib")

from exactlin import perceptron  # noqa: E402
from exactlin.render.plot import plot_run, run_svg  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}"
EX1_X = [(4, 0), (1, 1), (0, 1), (-2, -2)]  # seed 000, Example 1
EX1_Y = [1, -1, -1, 1]
# scikit-learn issue 18606's points: by hand (tests/integrations/test_sklearn_idioms.py) the hard margin is
# w = (-2, -2), b = 9 with all three points support vectors
I18606_X = [(F(3, 2), F(5, 2)), (F(5, 2), F(3, 2)), (F(5, 2), F(5, 2))]
I18606_Y = [1, 1, -1]


def _render(run):
    """(the parsed SVG root, the axes, the figure height in pt): a 72-dpi figure, so that display coordinates are
    the SVG's points (y measured from the bottom)."""
    import matplotlib
    from matplotlib.figure import Figure

    with matplotlib.rc_context({"svg.hashsalt": "exactlin-test", "svg.fonttype": "none"}):
        fig = Figure(figsize=(5.5, 4.6), dpi=72)
        ax = fig.add_subplot()
        plot_run(run, ax=ax)
        buf = io.StringIO()
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    return ET.fromstring(buf.getvalue()), ax, fig.get_figheight() * 72


def _group(root, gid):
    found = [g for g in root.iter() if g.get("id") == gid]
    assert len(found) == 1, f"one element with id {gid!r} expected, found {len(found)}"
    return found[0]


def _numbers(d: str) -> list[float]:
    return [float(t) for t in re.findall(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", d)]


def _path_points(d: str) -> list[tuple[float, float]]:
    v = _numbers(d)
    return list(zip(v[0::2], v[1::2]))


def _to_data(ax, height, x, y):
    return ax.transData.inverted().transform((x, height - y))


def test_legend_lies_inside_the_figure():
    root, _, height = _render(perceptron(EX1_X, EX1_Y, bias="first", trace=True))
    width = float(root.get("width").removesuffix("pt"))
    assert abs(float(root.get("height").removesuffix("pt")) - height) < 1e-6
    legend = _group(root, "legend")
    frame = [p for p in legend.iter(f"{SVG}path") if p.get("d", "").rstrip().endswith("z")]
    assert frame, "the legend has a frame"
    for x, y in _path_points(frame[0].get("d")):
        assert 0 <= x <= width and 0 <= y <= height
    # the texts of the legend too (their transforms place them)
    for t in legend.iter(f"{SVG}text"):
        m = re.search(r"translate\(([-\d.e]+) ([-\d.e]+)\)", t.get("transform", ""))
        if m:
            assert 0 <= float(m.group(1)) <= width and 0 <= float(m.group(2)) <= height


def test_run_svg_keeps_the_legend_inside():
    svg = run_svg(perceptron(EX1_X, EX1_Y, bias="first", trace=True))
    root = ET.fromstring(svg)
    width, height = (float(root.get(k).removesuffix("pt")) for k in ("width", "height"))
    frame = [p for p in _group(root, "legend").iter(f"{SVG}path") if p.get("d", "").rstrip().endswith("z")]
    for x, y in _path_points(frame[0].get("d")):
        assert 0 <= x <= width and 0 <= y <= height


def test_svm_margin_lines_are_w_dot_x_plus_b_equal_plus_minus_one():
    from exactlin.algorithms.svm import svm_hard

    run = svm_hard(I18606_X, I18606_Y)
    root, ax, height = _render(run)
    for gid, level in (("margin-plus", 1), ("margin-minus", -1)):
        paths = list(_group(root, gid).iter(f"{SVG}path"))
        pts = _path_points(paths[0].get("d"))
        assert len(pts) == 2
        for x, y in pts:
            u, v = _to_data(ax, height, x, y)
            # by hand: g(x) = -2u - 2v + 9; the SVG rounds coordinates to 1e-6 pt
            assert -2 * u - 2 * v + 9 == pytest.approx(level, abs=1e-3)
        (u0, v0), (u1, v1) = (_to_data(ax, height, *p) for p in pts)
        assert abs(u1 - u0) > 0.25  # a real segment across the picture (u + v = 5 cuts the corner), not a point


def test_svm_support_vectors_are_circled_at_their_coordinates():
    from exactlin.algorithms.svm import svm_hard

    run = svm_hard(I18606_X, I18606_Y)
    root, ax, height = _render(run)
    group = _group(root, "support-vectors")
    uses = list(group.iter(f"{SVG}use"))
    got = sorted((round(float(u), 6), round(float(v), 6))
                 for u, v in (_to_data(ax, height, float(e.get("x")), float(e.get("y"))) for e in uses))
    assert got == [(1.5, 2.5), (2.5, 1.5), (2.5, 2.5)]  # all three points, by hand
    # the marker is a circle: its path's curve end points lie at one distance from its centre
    ref = uses[0].get(f"{XLINK}href").lstrip("#")
    marker = _group(root, ref)
    pts = _path_points(marker.get("d"))
    ends = [pts[0]] + pts[3::3]  # M p0, then C c1 c2 p for each cubic Bezier piece
    radii = [(x * x + y * y) ** 0.5 for x, y in ends]
    assert len(radii) >= 4 and max(radii) - min(radii) < 1e-3 * max(radii)
    # drawn without fill (a ring around the sample's own marker)
    style = uses[0].get("style", "") + group.get("style", "")
    assert "fill: none" in style or "fill:none" in style or "fill-opacity: 0" in style


def test_perceptron_pictures_have_no_margins():
    root, _, _ = _render(perceptron(EX1_X, EX1_Y, bias="first", trace=True))
    ids = {e.get("id") for e in root.iter()}
    assert not {"margin-plus", "margin-minus", "support-vectors"} & ids
