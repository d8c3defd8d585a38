"""Layer 6, rendering: text, LaTeX, HTML and markdown views of a Run (:mod:`~exactlin.render.report`) and
pictures (:mod:`~exactlin.render.plot`, needs matplotlib)."""
