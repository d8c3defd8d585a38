"""``exactlin fit ... --plot FILE.svg|FILE.png`` (issue 21, item 4): the figure file of a linear, an SVM and a
Fisher run, parsed; the errors for a bad file name, for data that are not two-dimensional and without
matplotlib.

Expected lines, derived by hand on seed 000 Example 1 (000_478cb53c624e7eb5.txt; x = (4, 0), (1, 1), (0, 1),
(-2, -2), labels 1, -1, -1, 1):

* perceptron, no bias (the lecture's run): w = (1, -3), the boundary x1 - 3 x2 = 0.
* hard-margin SVM, bias: the three samples 1, 2, 4 on the margins, y_i (w.x_i + b) = 1:  4 a + b = 1,
  -(a + c + b) = 1, -2 a - 2 c + b = 1 give a = 1/3, c = -1, b = -1/3; sample 3: w.x + b = -4/3 <= -1.  The
  boundary is x1/3 - x2 - 1/3 = 0, the margins the same = +1 and -1.
* Fisher: m_+ = (1, -1), m_- = (1/2, 1); S_W = [[37/2, 6], [6, 2]] (det 1), S_W^-1 (m_+ - m_-) = (13, -40);
  the threshold is the midpoint of the projected means, y0 = (w.m_+ + w.m_-)/2 = (53 - 67/2)/2 = 39/4.
"""

from __future__ import annotations

import re
import struct
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction as F

import pytest

from exactlin.cli.app import main

pytest.importorskip("matplotlib")

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}"
EX1 = [((4, 0), 1), ((1, 1), -1), ((0, 1), -1), ((-2, -2), 1)]


@pytest.fixture
def ex1(tmp_path):
    p = tmp_path / "ex1.csv"
    p.write_text("x1,x2,y\n" + "".join(f"{a},{b},{y}\n" for (a, b), y in EX1))
    return p


def run_cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _group(root, gid):
    found = [g for g in root.iter() if g.get("id") == gid]
    assert len(found) == 1, f"one element with id {gid!r} expected, found {len(found)}"
    return found[0]


def _marker_positions(group) -> list[tuple[float, float]]:
    return [(float(u.get("x")), float(u.get("y"))) for u in group.iter(f"{SVG}use")]


def _line_ends(group) -> list[tuple[float, float]]:
    (path,) = list(group.iter(f"{SVG}path"))
    v = [float(t) for t in re.findall(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", path.get("d"))]
    return list(zip(v[0::2], v[1::2]))


def _to_data(root):
    """The map from SVG coordinates back to data coordinates, fitted on the samples (whose data coordinates are
    known): each axis is affine."""
    pos = _marker_positions(_group(root, "samples-1")) + _marker_positions(_group(root, "samples-2"))
    # samples-1 is label -1 (samples 2, 3), samples-2 label 1 (samples 1, 4): class_labels sorts the labels
    data = [(1, 1), (0, 1), (4, 0), (-2, -2)]
    (xa, ya), (xb, yb) = pos[2], pos[3]  # samples 1 and 4 differ in both coordinates
    (ua, va), (ub, vb) = data[2], data[3]
    su, sv = (ub - ua) / (xb - xa), (vb - va) / (yb - ya)
    for (x, y), (u, v) in zip(pos, data):  # every sample is where its coordinates say
        assert ua + (x - xa) * su == pytest.approx(u, abs=1e-6) and va + (y - ya) * sv == pytest.approx(v, abs=1e-6)
    return lambda x, y: (ua + (x - xa) * su, va + (y - ya) * sv)


def _svg(capsys, ex1, tmp_path, algorithm, *extra):
    out = tmp_path / f"{algorithm}.svg"
    code, _, err = run_cli(capsys, "fit", algorithm, ex1, "--plot", out, *extra)
    assert code == 0, err
    assert f"picture written to {out}" in err
    root = ET.fromstring(out.read_text())
    assert root.tag == f"{SVG}svg"
    assert len(_marker_positions(_group(root, "samples-1"))) == 2
    assert len(_marker_positions(_group(root, "samples-2"))) == 2
    return root


def _on_line(root, gid, g, level=0):
    to_data = _to_data(root)
    ends = _line_ends(_group(root, gid))
    assert len(ends) == 2
    for x, y in ends:
        u, v = to_data(x, y)
        assert g(u, v) == pytest.approx(level, abs=1e-3)


def test_linear_run_svg_has_the_points_and_the_boundary(capsys, ex1, tmp_path):
    root = _svg(capsys, ex1, tmp_path, "perceptron", "--bias", "none")
    _on_line(root, "boundary", lambda u, v: u - 3 * v)
    assert not [g for g in root.iter() if g.get("id") in ("margin-plus", "support-vectors")]


def test_svm_svg_has_the_margins_and_the_support_vectors(capsys, ex1, tmp_path):
    root = _svg(capsys, ex1, tmp_path, "svm-hard")

    def g(u, v):
        return u / 3 - v - F(1, 3)

    _on_line(root, "boundary", g)
    _on_line(root, "margin-plus", g, 1)
    _on_line(root, "margin-minus", g, -1)
    to_data = _to_data(root)
    circled = sorted((round(u, 6), round(v, 6)) for u, v in (to_data(x, y) for x, y in
                                                                _marker_positions(_group(root, "support-vectors"))))
    assert circled == [(-2, -2), (1, 1), (4, 0)]


def test_fisher_svg_draws_the_threshold(capsys, ex1, tmp_path):
    root = _svg(capsys, ex1, tmp_path, "fisher")
    _on_line(root, "boundary", lambda u, v: 13 * u - 40 * v - F(39, 4))
    assert "threshold w.x = y0" in ET.tostring(root, encoding="unicode")


def test_png_is_a_png_of_the_figure_size(capsys, ex1, tmp_path):
    out = tmp_path / "p.PNG"  # the ending's letter case does not matter
    code, _, err = run_cli(capsys, "fit", "svm-hard", ex1, "--plot", out, "--json")
    assert code == 0, err
    head = out.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
    assert struct.unpack(">II", head[16:24]) == (660, 552)  # 5.5 x 4.6 inches at 120 dpi


@pytest.mark.parametrize("name", ["fig.pdf", "fig", "fig.svg.txt"])
def test_other_endings_are_a_one_line_error_before_the_fit(capsys, ex1, tmp_path, name):
    code, out, err = run_cli(capsys, "fit", "perceptron", ex1, "--plot", tmp_path / name)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "must end in .svg or .png" in err
    assert not (tmp_path / name).exists()


def test_data_not_two_dimensional_is_a_one_line_error(capsys, tmp_path):
    p = tmp_path / "d3.csv"
    p.write_text("1,0,0,1\n0,1,0,-1\n0,0,1,1\n")
    code, _, err = run_cli(capsys, "fit", "perceptron", p, "--plot", tmp_path / "f.svg")
    assert code == 2 and err.count("\n") == 1
    assert "two-dimensional" in err and "3 features" in err
    assert not (tmp_path / "f.svg").exists()


def test_without_matplotlib_the_error_names_the_extra(capsys, ex1, tmp_path, monkeypatch):
    for mod in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, mod)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError
    code, _, err = run_cli(capsys, "fit", "perceptron", ex1, "--plot", tmp_path / "f.svg")
    assert code == 2 and err.count("\n") == 1
    assert "pip install 'exactlin[plot]'" in err
