"""Shared by the docs tests: build the site once per test session (``mkdocs build --strict`` into a temp dir)."""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_BUILT: dict[str, object] = {}


def build_site() -> tuple[Path, str]:
    """The built site directory and mkdocs' log; raises AssertionError (with the log) if the build fails."""
    if "site" not in _BUILT:
        try:
            import latex2mathml  # noqa: F401
            import mkdocs  # noqa: F401
        except ImportError as e:  # the docs are part of the build: missing tools are a failure, not a skip
            raise AssertionError(f"the docs tools are not installed ({e}); pip install -e '.[test]'") from None
        out = Path(tempfile.mkdtemp(prefix="exactlin-site-"))
        atexit.register(shutil.rmtree, out, True)
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"),
                               "-d", str(out / "site")], cwd=ROOT, capture_output=True, text=True, env=env,
                              timeout=600)
        log = proc.stdout + proc.stderr
        if proc.returncode != 0:
            raise AssertionError(f"mkdocs build --strict failed (exit {proc.returncode}):\n{log[-6000:]}")
        _BUILT["site"] = (out / "site", log)
    return _BUILT["site"]  # type: ignore[return-value]
