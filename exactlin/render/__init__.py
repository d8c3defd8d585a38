"""Layer 6, rendering: text, LaTeX, HTML and markdown views of a Run (:mod:`~exactlin.render.report`) and
pictures (:mod:`~exactlin.render.plot`, needs matplotlib).

Importing this package registers the Run's views (:mod:`exactlin.model.views`): ``Run._repr_html_``,
``Run._repr_latex_`` and ``Run.plot``.  matplotlib is imported only when a picture is drawn.
"""

from exactlin.model.views import register_view
from exactlin.render.report import run_html, trace_latex


def _plot(run, ax=None, **kw):
    from exactlin.render.plot import plot_run

    return plot_run(run, ax=ax, **kw)


register_view("html", run_html)
register_view("latex", trace_latex)
register_view("plot", _plot)
