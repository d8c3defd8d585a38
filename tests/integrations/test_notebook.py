"""The example notebook executes (nbclient, a kernel on this interpreter) and shows the lecture's values."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import ipykernel  # noqa: F401  (the test extra installs these)
import matplotlib  # noqa: F401
import nbclient
import nbformat
import pytest

NOTEBOOK = Path(__file__).resolve().parents[2] / "examples" / "notebooks" / "perceptron_example1.ipynb"


@pytest.fixture
def kernel_name(tmp_path, monkeypatch):
    """A kernel spec for this very interpreter, in a temporary JUPYTER_PATH (nothing is installed for the user)."""
    spec = tmp_path / "kernels" / "exactlin-test"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "exactlin test", "language": "python"}))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    return "exactlin-test"


def _text(cell) -> str:
    out = []
    for o in cell.get("outputs", []):
        if "text" in o:
            out.append(o["text"])
        for key in ("text/plain", "text/html", "text/latex"):
            if key in o.get("data", {}):
                out.append(o["data"][key])
    return "\n".join(out)


def test_notebook_executes_and_reproduces_example1(kernel_name):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    # plots show inline in Jupyter: the notebook picks no backend (this test sets MPLBACKEND=Agg instead)
    assert not any("matplotlib.use(" in c.source for c in nb.cells if c.cell_type == "code")
    client = nbclient.NotebookClient(nb, kernel_name=kernel_name, timeout=120,
                                     resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    client.execute()  # raises CellExecutionError if any cell (the lecture's assertions included) fails
    code = [c for c in nb.cells if c.cell_type == "code"]
    # the dataset and the run display themselves as tables with exact numbers
    assert "<table>" in _text(code[0]) and "-2" in _text(code[0])
    run_out = _text(code[1])
    assert "<table>" in run_out and "(1, -3)" in run_out  # w_5 of the lecture, in the HTML trace
    assert "lecture values reproduced: perceptron: w = (1, -3), converged=True" in _text(code[2])
    latex = _text(code[3])
    assert r"\toprule" in latex and "(1, -3)" in latex.replace("$", "")
    assert "perceptron: w = (1, -3)" in _text(code[4])  # the plot's title names the exact w
    assert "coef_ = [[Fraction(1, 1), Fraction(-3, 1)]]" in _text(code[5])
