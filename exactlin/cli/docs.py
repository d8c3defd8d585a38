"""``exactlin docs``: where the documentation site is, and how to build it.

The site is built by mkdocs from ``mkdocs.yml`` in a source checkout (``pip install -e '.[docs]'`` then
``mkdocs build --strict``); its pages are generated from the code by ``docs/hooks.py`` while it builds.
``exactlin docs`` finds the checkout (from the current directory upwards, then the one the package is installed
from), says whether ``site/index.html`` exists, and prints the build command; ``--build`` runs it.  Without a
checkout it exits 2, saying how to get and build one.
"""

from __future__ import annotations

import sys
from pathlib import Path

__all__ = ["register", "find_project", "BUILD_COMMAND", "INSTALLED_FROM", "DOCS_MODULES", "missing_docs_modules"]

BUILD_COMMAND = "mkdocs build --strict"

#: the directory holding the ``exactlin`` package: the checkout itself for an editable install (exactlin/cli/docs.py
#: -> exactlin/cli -> exactlin -> the checkout)
INSTALLED_FROM = Path(__file__).resolve().parents[2]


def find_project(start: Path | None = None) -> Path | None:
    """The directory holding exactlin's ``mkdocs.yml``: the current directory or a parent, else the checkout
    the package was installed from (an editable install); None when there is none."""
    here = (start or Path.cwd()).resolve()
    for c in (here, *here.parents, INSTALLED_FROM):
        cfg = c / "mkdocs.yml"
        if cfg.is_file() and (c / "docs" / "hooks.py").is_file():
            return c
    return None


#: the modules the docs extra (pyproject.toml, ``[project.optional-dependencies] docs``) provides that the build
#: imports: mkdocs, its material theme, mkdocstrings and latex2mathml (docs/hooks.py)
DOCS_MODULES = ("mkdocs", "material", "mkdocstrings", "latex2mathml")


def missing_docs_modules() -> list[str]:
    """The modules of :data:`DOCS_MODULES` that are not installed (found without importing them)."""
    import importlib.util

    return [m for m in DOCS_MODULES if importlib.util.find_spec(m) is None]


def cmd_docs(args) -> int:
    out = sys.stdout.write
    root = find_project()
    if root is None:
        sys.stderr.write(f"exactlin: error: the documentation site is built from a source checkout of exactlin "
                         f"(mkdocs.yml and docs/), found neither in {Path.cwd()} and its parents nor next to the "
                         f"installed package ({INSTALLED_FROM}); in a checkout run  pip install -e '.[docs]' && "
                         f"{BUILD_COMMAND}  (the site goes to site/)\n")
        return 2
    index = root / "site" / "index.html"
    if args.build:
        missing = missing_docs_modules()
        if missing:
            sys.stderr.write(f"exactlin: error: building the docs needs the docs extra ({', '.join(missing)} not "
                             f"installed): pip install -e '.[docs]'  (in {root})\n")
            return 2
        out(f"building the site: {BUILD_COMMAND}  (in {root})\n")
        sys.stdout.flush()
        import subprocess  # here, not at the top: every `exactlin` command imports this module

        code = subprocess.call([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(root / "mkdocs.yml")],
                               cwd=str(root))
        if code != 0:
            sys.stderr.write(f"exactlin: error: the docs build failed (mkdocs exit status {code})\n")
            return 2
    if index.is_file():
        out(f"The documentation site is built: {index}\n"
            f"Open it in a browser (it works offline: math is MathML, nothing is fetched from the network), e.g.\n"
            f"  python -m http.server -d {index.parent} 8000   and visit http://127.0.0.1:8000/\n")
    else:
        out(f"The documentation site is not built yet; it will be at {index}\n")
    out(f"Rebuild it with:  cd {root} && {BUILD_COMMAND}   (needs: pip install -e '.[docs]'), "
        "or: exactlin docs --build\n")
    return 0


def register(subparsers) -> None:
    import argparse

    from exactlin.cli.common import examples_epilog

    p = subparsers.add_parser("docs", help="where the documentation site is, and how to build it",
                              formatter_class=argparse.RawDescriptionHelpFormatter,
                              epilog=examples_epilog("exactlin docs", "exactlin docs --build"))
    p.add_argument("--build", action="store_true", help=f"build the site now ({BUILD_COMMAND})")
    p.set_defaults(handler=cmd_docs)
