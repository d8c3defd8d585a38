"""Top layer, the documentation site: its pages generated from the code (:mod:`~exactlin.docsgen.site`).

``docs/hooks.py`` only wires mkdocs' events to :mod:`exactlin.docsgen.site`.  Needs the ``docs`` extra
(mkdocs, latex2mathml) only when a site is built.
"""
