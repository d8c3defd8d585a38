"""Every LaTeX document exactlin writes compiles with a real TeX engine (Debian's pdflatex, installed by
scripts/install-test-deps.sh): each exercise and its answer key, ``explain`` of every algorithm on a sample data
set, ``examples show --format latex`` of every worked example and ``fit --format latex`` of every algorithm --
with no TeX error and no overfull line wider than 10pt.  Page 1 of each is rendered to PNG (pdftoppm) into
``ci-output/latex/`` (or ``$EXACTLIN_CI_OUTPUT/latex/``), kept with the CI output so a person can look.

The documents are compiled in parallel (one pdflatex per core), each once: about 0.3 s a document.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from exactlin.cli.app import main
from exactlin.render.tex import tex_log_problems

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "examples" / "data"
EX1 = str(DATA / "seed000-example1.csv")
THREE = str(DATA / "three-classes.csv")

# a TeX engine is part of the test environment (scripts/install-test-deps.sh): its absence is a failure, not a skip
ENGINE = shutil.which("pdflatex")
PDFTOPPM = shutil.which("pdftoppm")


def ci_output() -> Path:
    base = Path(os.environ.get("EXACTLIN_CI_OUTPUT") or ROOT / "ci-output")
    out = base / "latex"
    out.mkdir(parents=True, exist_ok=True)
    return out


def cli(*argv: str) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(list(argv))
    assert code in (0, 1), f"exactlin {' '.join(argv)} exited {code}"
    return buf.getvalue()


def documents() -> dict[str, str]:
    """name -> LaTeX source of every document the suite compiles."""
    from exactlin.algorithms import REGISTRY, load_all
    from exactlin.cli.exercise import exercise_output
    from exactlin.lectures.examples import all_examples
    from exactlin.lectures.exercises import EXERCISES

    docs: dict[str, str] = {}
    for name in EXERCISES:
        docs[f"exercise-{name}"] = exercise_output(name, seed=1, fmt="latex")
        docs[f"key-{name}"] = exercise_output(name, seed=1, fmt="latex", answers=True)
    docs["key-perceptron-seed3"] = exercise_output("perceptron", seed=3, fmt="latex", answers=True)
    load_all()
    for name, spec in REGISTRY.items():
        data = [THREE, "--label-column", "class"] if spec.multiclass else [EX1]
        explain_data = [THREE] if spec.multiclass else [EX1]
        if spec.multiclass:  # explain reads the file with its defaults: the class column is the first here
            docs[f"explain-{name}"] = _explain_multiclass(name)
        else:
            docs[f"explain-{name}"] = cli("explain", name, *explain_data, "--format", "latex")
        docs[f"fit-{name}"] = cli("fit", name, "--format", "latex", *data)
    docs["explain-special-labels"] = _explain_labels()
    for ex in all_examples():
        docs[f"example-{ex.id}"] = cli("examples", "show", ex.id, "--format", "latex")
    return docs


def _explain_multiclass(name: str) -> str:
    from exactlin.algorithms import get
    from exactlin.cli.common import load_csv
    from exactlin.lectures.notes import notes_title
    from exactlin.render.explain import explain, render

    spec = get(name)
    ds = load_csv(THREE, delimiter=None, label_column="class")
    run = spec.func(ds, None, bias=spec.bias_default, trace=True)
    return render(explain(run, notes=notes_title(spec.seed)), "latex")


def _explain_labels() -> str:
    """A data set whose labels hold LaTeX's special characters: they are escaped text in the document."""
    from exactlin.algorithms import get
    from exactlin.render.explain import explain, render

    run = get("perceptron").func([(4, 0), (1, 1), (0, 1), (-2, -2)], ["cat_1 & co", "50% ~dog", "50% ~dog",
                                                                      "cat_1 & co"], positive="cat_1 & co", trace=True)
    return render(explain(run, notes="title"), "latex")


def compile_one(name: str, tex: str, out: Path) -> list[str]:
    """Compile ``tex`` in its own folder; return its problems (errors, overfull lines > 10pt); PNG of page 1."""
    work = out / "build" / name
    work.mkdir(parents=True, exist_ok=True)
    (work / "doc.tex").write_text(tex, encoding="utf-8")
    subprocess.run([ENGINE, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "doc.tex"], cwd=work,
                   capture_output=True, timeout=120, check=False)
    log = (work / "doc.log").read_text(encoding="latin-1") if (work / "doc.log").exists() else ""
    problems = tex_log_problems(log)
    if not (work / "doc.pdf").exists():
        problems.append("no PDF written")
    elif PDFTOPPM:
        subprocess.run([PDFTOPPM, "-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile", str(work / "doc.pdf"),
                        str(out / name)], capture_output=True, timeout=60, check=False)
    return problems


def test_every_latex_output_compiles_without_errors_or_overfull_lines():
    assert ENGINE, "pdflatex not found: run scripts/install-test-deps.sh (texlive-latex-recommended, lmodern)"
    assert PDFTOPPM, "pdftoppm not found: run scripts/install-test-deps.sh (poppler-utils)"
    docs = documents()
    out = ci_output()
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = dict(zip(docs, pool.map(lambda kv: compile_one(kv[0], kv[1], out), docs.items())))
    bad = {name: p for name, p in results.items() if p}
    pngs = sorted(out.glob("*.png"))
    print(f"\nLaTeX: {len(docs)} documents compiled; page 1 of each as PNG in {out}")
    assert not bad, "\n".join(f"{name}: {'; '.join(p[:3])}" for name, p in sorted(bad.items()))
    assert len(pngs) >= len(docs)
    # the families the issue names: every exercise and key, an explain and a fit per algorithm, every example
    assert sum(n.startswith("example-") for n in docs) >= 38
    assert sum(n.startswith("key-") for n in docs) >= 10


def test_the_answer_keys_that_did_not_compile_before():
    """The keys issue 21 found broken ("! Missing $ inserted."), compiled on their own."""
    from exactlin.cli.exercise import exercise_output

    assert ENGINE
    out = ci_output()
    cases = [("perceptron", 3)] + [(name, 1) for name in ("fisher", "svm-hard", "ho-kashyap", "mse")]
    for name, seed in cases:
        tex = exercise_output(name, seed=seed, fmt="latex", answers=True)
        assert "\\usepackage[T1]{fontenc}" in tex and "\\usepackage{lmodern}" in tex
        assert compile_one(f"issue21-{name}-{seed}", tex, out) == []


def test_tex_log_problems_reads_errors_and_wide_overfull_lines():
    log = ("! Missing $ inserted.\n<inserted text>\n$\nl.42 K <= R^\n\n"
           "Overfull \\hbox (3.1pt too wide) in paragraph at lines 1--2\n"
           "Overfull \\hbox (25.7pt too wide) in paragraph at lines 9--10\n")
    problems = tex_log_problems(log)
    assert problems[0] == "! Missing $ inserted. l.42 K <= R^"
    assert len(problems) == 2 and "25.7pt" in problems[1]


@pytest.mark.parametrize("argv", [
    ("explain", "perceptron", EX1),
    ("exercise", "svm-hard", "--seed", "1", "--answers"),
    ("fit", "fisher", EX1),
    ("examples", "show", "seed000-example1"),
])
def test_format_pdf_writes_a_pdf(capfdbinary, argv):
    assert ENGINE
    code = main([*argv, "--format", "pdf"])
    out, err = capfdbinary.readouterr()
    assert code == 0, err
    assert out.startswith(b"%PDF-") and b"%%EOF" in out[-1024:]


def test_format_pdf_without_tex_is_a_one_line_error(capsys, monkeypatch):
    import exactlin.render.tex as tex

    monkeypatch.setattr(tex, "tex_engine", lambda: None)
    code = main(["explain", "perceptron", EX1, "--format", "pdf"])
    out, err = capsys.readouterr()
    assert code == 2 and not out
    assert err.count("\n") == 1 and "texlive-latex-recommended" in err and "lmodern" in err
