"""The picture of a run inside ``exactlin explain``'s documents (issue 21, item 4).

:func:`with_figure` takes the rendered page and adds the figure of the run, for binary or multi-class runs on
two-dimensional data (features, without the bias); otherwise the page is returned unchanged:

* HTML: the SVG inline, after the title (offline: no reference outside the page, ASCII with character
  references).  It is the picture of ``fit --plot`` (:func:`~exactlin.render.plot.run_svg`, matplotlib); without
  matplotlib, the same scene drawn by :func:`~exactlin.render.plot.scene_svg`.
* LaTeX: a ``picture`` environment of the LaTeX kernel (:func:`~exactlin.render.plot.scene_latex`), after the
  title: the document stays standalone and needs no package beyond texlive-latex-base.
* Markdown: unchanged (a page written to standard output has nowhere to put an image file).

The page is only added to, after its title, so this works on whatever the document writers produce.
"""

from __future__ import annotations

import re

from exactlin.errors import ExactlinError

__all__ = ["with_figure", "figure_html", "figure_latex", "caption"]



def caption(run) -> str:
    """What the figure shows, in one sentence."""
    steps = any(s.update and s.w_after is not None for s in run.trace)
    return "The data and the final boundary" + (" and, dashed, the boundary after each update" if steps else "") + "."


def _inline_svg(svg: str) -> str:
    """An SVG document as an element of an HTML page: no XML prolog, DOCTYPE, metadata or namespace address."""
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r"<metadata>.*?</metadata>\s*", "", svg, flags=re.S)
    svg = re.sub(r'\s+xmlns(:\w+)?="[^"]*"', "", svg)
    return svg.strip().encode("ascii", "xmlcharrefreplace").decode("ascii")


def figure_html(run) -> str | None:
    """``<figure>`` with the run's picture as inline SVG, or None when there is none to draw."""
    from exactlin.render.plot import run_scene, run_svg, scene_svg

    data = getattr(run.problem, "data", run.problem)
    if data is None or getattr(data, "d", None) != 2:
        return None
    try:
        try:
            svg = run_svg(run)
        except ImportError:  # no matplotlib: the same scene, drawn by hand
            svg = scene_svg(run_scene(run))
    except ExactlinError:
        return None
    return f'<figure class="exactlin-figure">{_inline_svg(svg)}<figcaption>{caption(run)}</figcaption></figure>'


def figure_latex(run) -> str | None:
    """The run's final picture as LaTeX (a kernel ``picture``), or None when there is none to draw."""
    from exactlin.render.plot import run_scene, scene_latex

    data = getattr(run.problem, "data", run.problem)
    if data is None or getattr(data, "d", None) != 2:
        return None
    try:
        return scene_latex(run_scene(run))
    except ExactlinError:
        return None


def with_figure(page: str, run, fmt: str) -> str:
    """``page`` (explain's rendered document in format ``fmt``) with the run's figure after its title."""
    if fmt == "html":
        fig = figure_html(run)
        if fig is not None and "</h1>" in page:
            head, tail = page.split("</h1>", 1)
            return f"{head}</h1>\n{fig}{tail}"
    elif fmt == "latex":
        fig = figure_latex(run)
        if fig is not None:
            block = "\\section*{Figure}\n" + fig + "\n"
            if "\\maketitle" in page:
                head, tail = page.split("\\maketitle", 1)
                return f"{head}\\maketitle\n{block}{tail}"
            if "\\end{document}" in page:
                head, tail = page.rsplit("\\end{document}", 1)
                return f"{head}{block}\\end{{document}}{tail}"
    return page
