"""The docs extra installs what the docs build needs (issue 20, item 5): ``pip install -e '.[docs]' && mkdocs build
--strict`` failed on a fresh machine because a how-to page's snippet imports hypothesis, which only the test extra
had.  The test environment has every extra installed, so this test takes them away: a child interpreter refuses
to import any third-party module that neither the runtime dependencies nor the docs extra of pyproject.toml (nor
their own dependencies, read from the installed metadata) provide, and runs every live block of the hand-written
pages (the commands and Python snippets the build runs)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import importlib.metadata as md, logging, re, sys, tomllib
from pathlib import Path

root = Path(sys.argv[1])
project = tomllib.loads((root / "pyproject.toml").read_text())["project"]


def name(req):
    return re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9_.-]+", req).group()).lower()


allowed, todo = set(), [name(r) for r in project["dependencies"] + project["optional-dependencies"]["docs"]]
while todo:  # the dependencies' own (non-extra) dependencies, from the installed metadata
    dist = todo.pop()
    if dist in allowed:
        continue
    allowed.add(dist)
    try:
        reqs = md.requires(dist) or []
    except md.PackageNotFoundError:
        continue
    todo += [name(r) for r in reqs if "extra ==" not in r.replace("extra==", "extra ==")]
providers = md.packages_distributions()


class Refuse:  # a fresh `pip install -e '.[docs]'` has nothing else
    def find_spec(self, fullname, path=None, target=None):
        top = fullname.partition(".")[0]
        dists = {name(d) for d in providers.get(top, ())}
        if dists and top != "exactlin" and top not in sys.stdlib_module_names and not dists & allowed:
            raise ModuleNotFoundError(f"No module named {top!r} (not in the docs extra)", name=top)
        return None


sys.meta_path.insert(0, Refuse())
from exactlin.docsgen import site

failures = []


class Catch(logging.Handler):
    def emit(self, record):
        if record.levelno >= logging.WARNING:
            failures.append(record.getMessage())


logging.getLogger("mkdocs").addHandler(Catch())
site.log.addHandler(Catch())
site.log.propagate = False
pages = sorted((root / "docs").rglob("*.md"))
for p in pages:
    text = p.read_text(encoding="utf-8")
    if "<!-- exactlin:" in text:
        site.expand_live(text, str(p.relative_to(root / "docs")))
print("live pages:", sum("<!-- exactlin:" in p.read_text(encoding="utf-8") for p in pages))
print("FAILURES:", failures)
"""


def test_the_docs_extra_runs_every_live_block_of_the_pages():
    p = subprocess.run([sys.executable, "-c", CHILD, str(ROOT)], capture_output=True, text=True, timeout=600,
                       cwd=ROOT)
    assert p.returncode == 0, p.stderr[-3000:]
    lines = p.stdout.splitlines()
    assert int(lines[-2].split(":")[1]) >= 5  # the how-to pages and getting-started (7 when written)
    assert lines[-1] == "FAILURES: []", lines[-1]
