"""The command-line interface (the top layer).  ``exactlin`` runs :func:`main`."""

from exactlin.cli.app import main

__all__ = ["main"]
