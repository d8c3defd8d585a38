"""render.figure (issue 21, item 4): ``exactlin explain``'s HTML inlines the run's figure as SVG (offline, ASCII),
its LaTeX draws it as a kernel picture; data that are not two-dimensional get no figure.

Expected values by hand from seed 000 Example 1 (000_478cb53c624e7eb5.txt): the hard-margin SVM with the bias
has w = (1/3, -1), b = -1/3 and the support vectors samples 1, 2, 4 (derivation in tests/cli/test_fit_plot.py)."""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

from exactlin.cli.app import main
from exactlin.render.figure import figure_html, with_figure

EX1_CSV = "x1,x2,y\n4,0,1\n1,1,-1\n0,1,-1\n-2,-2,1\n"
D3_CSV = "1,0,0,1\n0,1,0,-1\n0,0,1,1\n"


def _explain(capsys, tmp_path, csv, algorithm, fmt):
    p = tmp_path / "d.csv"
    p.write_text(csv)
    code = main(["explain", algorithm, str(p), "--format", fmt])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def _svg_of(page: str) -> ET.Element:
    m = re.search(r'<figure class="exactlin-figure">(<svg.*?</svg>)', page, re.S)
    assert m, "no inline <svg> in the page"
    # inline SVG in HTML has no namespace declaration; give it one to parse it as XML
    return ET.fromstring(m.group(1).replace("<svg", '<svg xmlns="http://www.w3.org/2000/svg" '
                                            'xmlns:xlink="http://www.w3.org/1999/xlink"', 1))


def test_explain_html_inlines_the_svg_figure(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    page = _explain(capsys, tmp_path, EX1_CSV, "svm-hard", "html")
    assert page.isascii() and "http://" not in page and "https://" not in page
    assert page.index("<figure") > page.index("</h1>")  # after the title
    root = _svg_of(page)
    ids = {e.get("id") for e in root.iter()}
    assert {"boundary", "margin-plus", "margin-minus", "support-vectors", "samples-1", "samples-2"} <= ids
    assert "<img" not in page  # inline, not a file


def test_without_matplotlib_the_html_figure_is_the_scene(monkeypatch, capsys, tmp_path):
    import sys

    for mod in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, mod)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    page = _explain(capsys, tmp_path, EX1_CSV, "svm-hard", "html")
    root = _svg_of(page)
    classes = [e.get("class") for e in root.iter() if e.get("class")]
    assert classes.count("boundary") == 1 and classes.count("margin") == 2 and classes.count("support") == 3
    assert classes.count("sample") == 4


def test_explain_latex_draws_the_figure(capsys, tmp_path):
    tex = _explain(capsys, tmp_path, EX1_CSV, "svm-hard", "latex")
    assert tex.index("\\begin{picture}") > tex.index("\\maketitle")
    assert tex.count("\\circle{4}") == 3  # the three support vectors


def test_explain_latex_figure_compiles(capsys, tmp_path):
    """Compiled by pdflatex where it is installed (tests/cli/test_latex_compile.py compiles every document in CI)."""
    if not shutil.which("pdflatex"):
        pytest.skip("pdflatex is not installed (scripts/install-test-deps.sh installs it)")
    tex = _explain(capsys, tmp_path, EX1_CSV, "perceptron", "latex")
    (tmp_path / "doc.tex").write_text(tex)
    proc = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert (tmp_path / "doc.pdf").read_bytes()[:5] == b"%PDF-"


def test_no_figure_for_three_features_nor_in_markdown(capsys, tmp_path):
    for fmt in ("html", "latex"):
        page = _explain(capsys, tmp_path, D3_CSV, "perceptron", fmt)
        assert "<svg" not in page and "\\begin{picture}" not in page
    md = _explain(capsys, tmp_path, EX1_CSV, "perceptron", "markdown")
    assert "<svg" not in md and "picture" not in md


def test_with_figure_leaves_other_formats_and_pages_without_anchor_alone():
    from exactlin import perceptron

    run = perceptron([(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1], trace=True)
    assert with_figure("# title\n", run, "markdown") == "# title\n"
    assert with_figure("<p>no title</p>", run, "html") == "<p>no title</p>"
    assert figure_html(perceptron([(1, 0, 0), (0, 1, 0)], [1, -1])) is None
