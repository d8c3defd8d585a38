"""LaTeX to PDF with the TeX engine installed on the machine (``--format pdf`` of explain, exercise, fit and
examples show).

:func:`to_pdf` compiles a standalone document (:func:`exactlin.render.explain.latex_document`) with ``pdflatex``
in a temporary directory, twice when the log asks for it (longtable's column widths), and returns the PDF's bytes.
Without a TeX engine the error names the Debian packages that provide one; a document that does not compile
raises with TeX's first error line.  :func:`tex_log_problems` reads a log for errors and overfull lines (the
test suite compiles every LaTeX output with it).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from exactlin.errors import ExactlinError, ParameterError

__all__ = ["to_pdf", "tex_engine", "tex_log_problems", "NO_TEX", "TexError", "OVERFULL_LIMIT_PT"]

#: the one-line error where no TeX engine is installed
NO_TEX = ("--format pdf needs pdflatex: install Debian's texlive-latex-base, texlive-latex-recommended and lmodern "
          "(apt-get install texlive-latex-recommended lmodern), or write --format latex and compile it elsewhere")
#: an overfull line wider than this (TeX points) counts as a layout problem
OVERFULL_LIMIT_PT = 10.0
#: seconds one pdflatex run may take
TEX_TIMEOUT = 120


class TexError(ExactlinError, ValueError):
    """pdflatex did not produce a PDF (the message carries TeX's first error line)."""


def tex_engine() -> str | None:
    """The path of pdflatex, or None when no TeX engine is installed."""
    return shutil.which("pdflatex")


def tex_log_problems(log: str, *, overfull_limit: float = OVERFULL_LIMIT_PT) -> list[str]:
    """The problems a pdflatex log reports: every error (a line starting with ``!``, with its ``l.N`` context)
    and every ``Overfull \\hbox`` wider than ``overfull_limit`` points."""
    problems = []
    lines = log.splitlines()
    for j, line in enumerate(lines):
        if line.startswith("!"):
            where = next((ln.strip() for ln in lines[j + 1:j + 8] if ln.startswith("l.")), "")
            problems.append(f"{line} {where}".strip())
        m = re.match(r"Overfull \\hbox \(([\d.]+)pt too wide\)(.*)", line)
        if m and float(m.group(1)) > overfull_limit:
            problems.append(line.strip())
    return problems


def _run(engine: str, workdir: Path) -> str:
    try:
        subprocess.run([engine, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "doc.tex"],
                       cwd=workdir, capture_output=True, timeout=TEX_TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        raise TexError(f"pdflatex took more than {TEX_TIMEOUT} s; stopped") from None
    log = workdir / "doc.log"
    return log.read_text(encoding="latin-1") if log.exists() else ""


def to_pdf(tex: str) -> bytes:
    """The PDF of the standalone LaTeX document ``tex`` (pdflatex, run twice when the log asks to rerun)."""
    engine = tex_engine()
    if engine is None:
        raise ParameterError(NO_TEX, parameter="format")
    with tempfile.TemporaryDirectory(prefix="exactlin-tex-") as d:
        work = Path(d)
        (work / "doc.tex").write_text(tex, encoding="utf-8")
        log = _run(engine, work)
        if "Rerun" in log and (work / "doc.pdf").exists():
            log = _run(engine, work)
        pdf = work / "doc.pdf"
        if not pdf.exists():
            errors = [p for p in tex_log_problems(log) if p.startswith("!")]
            raise TexError("pdflatex could not compile the document: " + (errors[0] if errors else "no PDF written"))
        return pdf.read_bytes()
