"""Layer 3: the views of a :class:`~exactlin.model.run.Run` (HTML, LaTeX, a picture), looked up by name.

The records sit below the renderers, so :mod:`exactlin.model.run` cannot import :mod:`exactlin.render`.
Instead the render layer registers its functions here when it is imported (``import exactlin`` imports it),
and ``Run._repr_html_``, ``Run._repr_latex_`` and ``Run.plot`` call whatever is registered.

>>> register_view("demo", lambda run: "a view")
>>> view("demo")(None)
'a view'
>>> _ = VIEWS.pop("demo")
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from exactlin.errors import ParameterError

__all__ = ["VIEWS", "register_view", "view"]

#: view name ("html", "latex", "plot", ...) -> function of a Run (and keyword options)
VIEWS: dict[str, Callable[..., Any]] = {}


def register_view(name: str, fn: Callable[..., Any]) -> None:
    """Make ``fn(run, **kw)`` the view called ``name`` (a later registration replaces an earlier one)."""
    VIEWS[name] = fn


def view(name: str) -> Callable[..., Any]:
    """The view registered as ``name``; importing :mod:`exactlin.render` registers html, latex and plot."""
    fn = VIEWS.get(name)
    if fn is None:
        raise ParameterError(f"no {name!r} view is registered; import exactlin.render (import exactlin does) "
                             f"to register the renderers", parameter="view")
    return fn
