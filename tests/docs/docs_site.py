"""Shared by the docs tests: build the site once per test session (``mkdocs build --strict`` into a temp dir).

Under pytest-xdist (scripts/check.sh) the workers share one build: ``SHARED_ROOT`` (set by tests/conftest.py to the
run's common temporary directory) holds it, and a file lock lets the first worker build while the others wait."""

from __future__ import annotations

import atexit
import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_BUILT: dict[str, object] = {}
#: the run's temporary directory common to all xdist workers (None when not under xdist: one process builds)
SHARED_ROOT: Path | None = None


def build_site() -> tuple[Path, str]:
    """The built site directory and mkdocs' log; raises AssertionError (with the log) if the build fails."""
    if "site" not in _BUILT:
        try:
            import latex2mathml  # noqa: F401
            import mkdocs  # noqa: F401
        except ImportError as e:  # the docs are part of the build: missing tools are a failure, not a skip
            raise AssertionError(f"the docs tools are not installed ({e}); pip install -e '.[test]'") from None
        if SHARED_ROOT is not None:
            _BUILT["site"] = _shared_build(SHARED_ROOT / "exactlin-site")
            return _BUILT["site"]  # type: ignore[return-value]
        out = Path(tempfile.mkdtemp(prefix="exactlin-site-"))
        atexit.register(shutil.rmtree, out, True)
        _BUILT["site"] = (out / "site", _build(out))
    return _BUILT["site"]  # type: ignore[return-value]


def _shared_build(out: Path) -> tuple[Path, str]:
    """The site built once for all workers into ``out`` (pytest removes the run's directory later)."""
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # held while building: the other workers wait here, then reuse it
        done = out / "build.log"
        if not done.exists():
            done.write_text(_build(out), encoding="utf-8")  # a failed build raises and writes nothing
        return out / "site", done.read_text(encoding="utf-8")


def _build(out: Path) -> str:
    """``mkdocs build --strict`` into ``out / "site"``; mkdocs' log, or AssertionError with it."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"),
                           "-d", str(out / "site")], cwd=ROOT, capture_output=True, text=True, env=env, timeout=600)
    log = proc.stdout + proc.stderr
    if proc.returncode != 0:
        raise AssertionError(f"mkdocs build --strict failed (exit {proc.returncode}):\n{log[-6000:]}")
    return log
