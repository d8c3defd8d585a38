"""The LaTeX every standalone document shares: the preamble (T1 fonts, Latin Modern, AMS mathematics, booktabs
and longtable), inline mathematics that can break after a vector's commas, and column specifications that wrap
wide tables -- so that every document exactlin writes compiles with Debian's pdflatex without overfull lines."""

from __future__ import annotations

import re

from exactlin.exact.format import latex_text

__all__ = ["LATEX_PREAMBLE", "latex_document", "math_inline", "latex_columns"]


def math_inline(tex: str) -> str:
    """Inline math that may break after the commas of its vectors (a long vector in a paragraph or a table
    column would otherwise run into the margin)."""
    tex = tex.replace(", ", ",\\allowbreak ")
    # a long number's size note, \text{(...)} at the top level, is set as text between two pieces of math, so
    # its words can break too
    tex = re.sub(r"\\ \\text\{(\([^{}$]*\))\}", r"$ \1$", tex)
    return ("$" + tex + "$").replace("$$", "")


def latex_columns(widths: list[int], *, budget: int = 95) -> str:
    """A longtable column specification for columns whose longest entries are ``widths`` characters: narrow
    columns ``l``; when the row would be wider than ``budget`` characters, the wide columns become ragged-right
    paragraph columns sharing the line width in proportion (so their text and vectors wrap)."""
    if sum(widths) + 2 * len(widths) <= budget:
        return "l" * len(widths)
    narrow = [w for w in widths if w <= 10]
    wide_total = sum(w for w in widths if w > 10)
    # at 11pt on a 2cm-margin page a character is about 1/90 of the line and a column's padding 1/40
    room = 0.98 - len(widths) / 40 - sum(narrow) / 90
    spec = ""
    for w in widths:
        if w <= 10:
            spec += "l"
        else:
            frac = max(0.08, room * w / wide_total)
            spec += f">{{\\raggedright\\arraybackslash}}p{{{frac:.3f}\\linewidth}}"
    return spec


#: the preamble of every standalone LaTeX document exactlin writes: T1 fonts (Latin Modern), AMS mathematics,
#: booktabs tables that break across pages (longtable); compiles with Debian's texlive-latex-base,
#: texlive-latex-recommended and lmodern
LATEX_PREAMBLE = ("\\documentclass[11pt]{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{lmodern}\n"
                  "\\usepackage{amsmath,amssymb}\n\\usepackage{array,booktabs,longtable}\n"
                  "\\usepackage[margin=2cm]{geometry}\n\\setlength{\\parindent}{0pt}\n\\setlength{\\parskip}{0.5em}\n"
                  "\\emergencystretch=3em\n\\renewcommand{\\arraystretch}{1.4}\n")


def latex_document(title: str, body: str, *, title_tex: str | None = None) -> str:
    """A standalone LaTeX document: :data:`LATEX_PREAMBLE`, the title (escaped; ``title_tex``: already LaTeX) and
    ``body``."""
    head = f"\\title{{{title_tex or latex_text(title)}}}\n\\date{{}}\n\\begin{{document}}\n\\maketitle\n\n"
    return LATEX_PREAMBLE + head + body.rstrip("\n") + "\n\n\\end{document}\n"
