"""Old module paths, kept for a deprecation period: ``exactlin.numbers`` is ``exactlin.exact.numbers``.

Before the package was split into layers (see the README's Design section), every module sat flat under
``exactlin/``.  A user's ``from exactlin.runs import Run`` keeps working: this finder hands out the very
module object that lives at the new path (``exactlin.runs is exactlin.model.run``), imported only when the
old name is first asked for.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys

#: old dotted path -> new dotted path
OLD_PATHS: dict[str, str] = {
    "exactlin.numbers": "exactlin.exact.numbers",
    "exactlin.exact_rows": "exactlin.exact.rows",
    "exactlin.runs": "exactlin.model.run",
    "exactlin.params": "exactlin.model.params",
    "exactlin.theory.lp": "exactlin.linalg.lp",
    "exactlin.examples": "exactlin.lectures.examples",
    "exactlin.errata": "exactlin.lectures.errata",
    "exactlin.derivations": "exactlin.lectures.derivations",
    "exactlin.report": "exactlin.render.report",
    "exactlin.plot": "exactlin.render.plot",
}


# plain classes, not importlib.abc's: importing importlib.abc imports importlib.resources, tempfile, shutil and
# random (about 10 ms at every start of `exactlin`); the import system needs only these methods


class _AliasLoader:
    def __init__(self, target: str):
        self.target = target

    def create_module(self, spec):
        return importlib.import_module(self.target)

    def exec_module(self, module):  # the target module is already executed
        pass


class AliasFinder:
    def find_spec(self, fullname, path=None, target=None):
        new = OLD_PATHS.get(fullname)
        if new is None:
            return None
        return importlib.util.spec_from_loader(fullname, _AliasLoader(new))


def install() -> None:
    if not any(isinstance(f, AliasFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, AliasFinder())
