"""The built documentation site, checked in a real browser (headless Chromium, Debian's ``chromium``).

The site is served on 127.0.0.1 from a thread.  One Chromium process loads a small harness page (served only by
this test) that opens every page of the site in a same-origin iframe and records what the browser laid out:
the visible text (``innerText``), whether every MathML fraction is typeset (numerator drawn above
denominator), whether every picture decoded, and the text of every trace table.  ``--dump-dom`` hands the
result back.  Links are crawled over HTTP from Python.  No network is used beyond 127.0.0.1.

Without Chromium this test FAILS (it does not skip): ``scripts/install-test-deps.sh`` installs it.
"""

from __future__ import annotations

import html
import http.server
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import urllib.error
import urllib.request
from html.parser import HTMLParser
from urllib.parse import urldefrag, urljoin, urlparse

import pytest
from tests.docs.docs_site import build_site

from exactlin.algorithms import all_specs
from exactlin.lectures.examples import all_examples
from exactlin.render.report import trace_table

HARNESS = "/__exactlin_browser_test__.html"

HARNESS_HTML = """<!doctype html><html><head><meta charset="utf-8"><title>exactlin browser test</title></head>
<body><script id="pages" type="application/json">%s</script>
<iframe id="f" sandbox="allow-same-origin" style="width:1200px;height:900px"></iframe>
<script>
const pages = JSON.parse(document.getElementById("pages").textContent);
const frame = document.getElementById("f");
const results = [];
const LIMIT = 200000;
let i = 0;
function inspect() {
  const doc = frame.contentDocument;
  const r = {url: pages[i], title: doc.title};
  try {
    const art = doc.querySelector("article") || doc.body;
    const text = art.innerText;
    r.bad = [];
    for (const s of ["$", "\\\\frac", "\\\\langle", "\\\\gamma", "EXLMATH"]) if (text.includes(s)) r.bad.push(s);
    if (r.bad.length) {
      const k = text.search(/\\$|\\\\frac|\\\\langle|\\\\gamma|EXLMATH/);
      r.context = text.slice(Math.max(0, k - 80), k + 80);
    }
    r.math = doc.querySelectorAll("math").length;
    const fr = doc.querySelectorAll("mfrac");
    r.mfrac = fr.length; r.stacked = 0;
    fr.forEach(f => { if (f.children.length === 2) {
      const a = f.children[0].getBoundingClientRect(), b = f.children[1].getBoundingClientRect();
      if (a.height > 0 && b.height > 0 && a.bottom <= b.top + 1) r.stacked += 1; } });
    const imgs = art.querySelectorAll("img");
    r.images = imgs.length; r.loaded = 0; r.broken = [];
    imgs.forEach(im => {
      if (im.complete && im.naturalWidth > 0) r.loaded += 1; else r.broken.push(im.getAttribute("src"));
    });
    r.traces = Array.from(art.querySelectorAll("table.exactlin-trace")).map(t => {
      const s = t.innerText; return {text: s.slice(0, LIMIT), truncated: s.length > LIMIT};
    });
  } catch (e) { r.error = String(e); }
  results.push(r);
  i += 1;
  next();
}
function next() {
  if (i >= pages.length) {
    const pre = document.createElement("pre"); pre.id = "results"; pre.textContent = JSON.stringify(results);
    document.body.appendChild(pre); return;
  }
  frame.onload = () => setTimeout(inspect, 20);
  frame.src = pages[i];
}
next();
</script></body></html>"""

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
                  "--disable-dev-shm-usage", "--mute-audio"]


def find_chromium() -> str:
    for name in (os.environ.get("EXACTLIN_CHROMIUM"), "chromium", "chromium-browser"):
        if name and shutil.which(name):
            return shutil.which(name)
    pytest.fail("headless Chromium is required for the docs browser test and was not found (looked for "
                "$EXACTLIN_CHROMIUM, chromium, chromium-browser); install it with scripts/install-test-deps.sh "
                "(Debian: apt-get install chromium)")


class _Handler(http.server.SimpleHTTPRequestHandler):
    harness = b""

    def do_GET(self):  # noqa: N802 - http.server's name
        if self.path == HARNESS:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(self.harness)))
            self.end_headers()
            self.wfile.write(self.harness)
            return
        super().do_GET()

    def log_message(self, *args):  # quiet
        pass


@pytest.fixture(scope="module")
def served():
    site = build_site()[0]
    pages = sorted(str(p.relative_to(site)).replace(os.sep, "/") for p in site.rglob("*.html"))
    pages = [p for p in pages if p != "404.html"]
    handler = type("H", (_Handler,), {"harness": (HARNESS_HTML % json.dumps(["/" + p for p in pages])).encode()})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), lambda *a: handler(*a, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    yield site, base, pages
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser(served):
    site, base, pages = served
    chromium = find_chromium()
    profile = tempfile.mkdtemp(prefix="exactlin-chromium-")
    try:
        proc = subprocess.run([chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--window-size=1280,1000",
                               "--virtual-time-budget=60000", "--dump-dom", base + HARNESS],
                              capture_output=True, text=True, timeout=300)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    m = re.search(r'<pre id="results">(.*?)</pre>', proc.stdout, re.S)
    assert m, f"the harness did not finish in Chromium (exit {proc.returncode}); stderr:\n{proc.stderr[-3000:]}"
    results = json.loads(html.unescape(m.group(1)))
    assert len(results) == len(pages)
    return {r["url"].lstrip("/"): r for r in results}


def test_every_page_opened_without_error(browser):
    errors = {u: r["error"] for u, r in browser.items() if r.get("error")}
    assert not errors, errors


def test_math_is_typeset_and_no_raw_latex_is_visible(browser):
    raw = {u: (r["bad"], r.get("context")) for u, r in browser.items() if r.get("bad")}
    assert not raw, f"raw LaTeX in the visible text: {raw}"
    unstacked = {u: (r["stacked"], r["mfrac"]) for u, r in browser.items() if r["stacked"] != r["mfrac"]}
    assert not unstacked, f"fractions not typeset (stacked, total): {unstacked}"
    for must in ["index.html", "proof.html", "verified.html", "conversion.html"]:
        assert browser[must]["math"] > 0, must
    assert browser["proof.html"]["mfrac"] > 0
    for spec in all_specs():
        assert browser[f"algorithms/{spec.family}/{spec.name}.html"]["math"] > 0, spec.name


def test_every_picture_loads(browser, served):
    broken = {u: r["broken"] for u, r in browser.items() if r["broken"]}
    assert not broken, broken
    for spec in all_specs():
        assert browser[f"algorithms/{spec.family}/{spec.name}.html"]["images"] >= 1, spec.name


def test_perceptron_example1_trace_shows_exact_values(browser):
    tables = browser["algorithms/perceptron/perceptron.html"]["traces"]
    assert tables, "no trace table on the perceptron page"
    text = tables[0]["text"]
    # seed 000 Example 1: round 2 has y<w,x> = -4 and round 4 ends at w_5 = (1, -3)
    assert "(1, -3)" in text and "-4" in text and "(3, -1)" in text


def test_trace_tables_hold_the_runs_values(browser):
    """Every worked example's page shows each run's trace, cell for cell, as the code computes it now."""
    for ex in all_examples():
        page = browser[f"examples/{ex.id}.html"]
        res = ex.func()
        runs = [r for r in res.runs if r.trace]
        assert len(page["traces"]) == len(runs), ex.id
        for run, shown in zip(runs, page["traces"]):
            header, rows = trace_table(run)
            lines = [_cells(ln.split("\t")) for ln in shown["text"].strip().split("\n")]
            if shown["truncated"]:  # a very long trace: compare the rows that arrived whole
                lines.pop()
                rows = rows[:len(lines) - 1]
            assert lines[0] == _cells(header), ex.id
            body = lines[1:]
            cut = next((j for j, ln in enumerate(body) if ln and ln[0] == "..."), None)
            if cut is not None:  # a long trace shows head and tail: "... N rows left out"
                head, tail = body[:cut], body[cut + 1:]
                left_out = int(body[cut][1].split()[0])
                assert len(head) + left_out + len(tail) == len(rows), ex.id
                body, rows = head + tail, rows[:len(head)] + (rows[len(rows) - len(tail):] if tail else [])
            if len(rows) <= 400:
                for row, got in zip(rows, body):
                    assert got == _cells(row), (ex.id, row, got)
                assert shown["truncated"] or len(body) == len(rows), ex.id


def _cells(cells: list[str]) -> list[str]:
    """Cells as the browser shows them: stripped, without the empty cells that end a row."""
    out = [c.strip() for c in cells]
    while out and not out[-1]:
        out.pop()
    return out


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        for key in ("href", "src"):
            if a.get(key) and tag in ("a", "link", "img", "script"):
                self.refs.append(a[key])


def test_no_internal_link_is_broken(served):
    site, base, pages = served
    parsed: dict[str, _Links] = {}

    def parse(rel: str) -> _Links:
        if rel not in parsed:
            p = _Links()
            p.feed((site / rel).read_text(encoding="utf-8"))
            parsed[rel] = p
        return parsed[rel]

    checked: dict[str, int] = {}
    broken = []
    for rel in pages:
        for ref in parse(rel).refs:
            if ref.startswith(("mailto:", "javascript:", "data:")):
                continue
            url = urljoin(f"{base}/{rel}", ref)
            if not url.startswith(base):
                continue  # external links (none are loaded as resources: see test_docs_build)
            target, frag = urldefrag(url)
            if target not in checked:
                try:
                    with urllib.request.urlopen(target, timeout=10) as resp:
                        checked[target] = resp.status
                except urllib.error.HTTPError as e:
                    checked[target] = e.code
            if checked[target] != 200:
                broken.append((rel, ref, checked[target]))
                continue
            path = urlparse(target).path.lstrip("/") or "index.html"
            if frag and path.endswith(".html") and frag not in parse(path).ids:
                broken.append((rel, ref, "no such anchor"))
    assert not broken, broken[:30]
    assert sum(1 for t in checked if t.endswith(".svg")) >= len(all_specs())


def test_search_works_offline_from_file_urls():
    """The built site opened from file:// (no server, no network): material's search, with its offline plugin and
    the vendored iframe-worker shim, finds pages. ``?q=`` is material's way to put a query into the search box
    (it fills the box, opens the search and runs it)."""
    site = build_site()[0]
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "unpkg.com" not in index and "assets/vendor/iframe-worker-shim.js" in index
    assert (site / "search" / "search_index.js").read_text(encoding="utf-8").startswith("var __index = ")
    chromium = find_chromium()
    profile = tempfile.mkdtemp(prefix="exactlin-chromium-")
    try:
        proc = subprocess.run([chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--window-size=1280,1000",
                               "--virtual-time-budget=20000", "--dump-dom",
                               (site / "index.html").as_uri() + "?q=winnow"],
                              capture_output=True, text=True, timeout=300)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    m = re.search(r'md-search-result__meta">(\d+) matching document', proc.stdout)
    assert m and int(m.group(1)) > 0, f"no search results from file://; stderr:\n{proc.stderr[-2000:]}"
    links = re.findall(r'<a href="([^"]+)" class="md-search-result__link"', proc.stdout)
    assert links and all(link.startswith("file://") for link in links)
    assert any(link.endswith("algorithms/perceptron/balanced-winnow.html") for link in links), links


#: the pages photographed for a person to look at: five algorithm pages and three worked examples
SCREENSHOT_PAGES = ["algorithms/perceptron/perceptron.html", "algorithms/mse/ho-kashyap.html",
                    "algorithms/fisher/fisher.html", "algorithms/multiclass/linear-machine.html",
                    "algorithms/margin/svm-hard.html", "examples/seed000-example1.html",
                    "examples/seed003-pseudoinverse.html", "examples/seed004-svm-diagonal.html"]


def screenshot_dir():
    """Where the screenshots go: $EXACTLIN_CI_OUTPUT/screenshots, else ci-output/screenshots in the checkout
    (git ignores it; CI keeps the folder with its output)."""
    from pathlib import Path

    root = os.environ.get("EXACTLIN_CI_OUTPUT") or str(Path(__file__).resolve().parents[2] / "ci-output")
    out = Path(root) / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    return out


def test_screenshots_of_algorithm_and_example_pages(served):
    """Chromium photographs each page (full width, the top 3000 pixels) into the CI output folder; each PNG is a
    real image of that size, and a page that drew little (an error page, an empty article) would be small."""
    import struct

    site, base, _ = served
    chromium = find_chromium()
    out = screenshot_dir()
    for rel in SCREENSHOT_PAGES:
        assert (site / rel).is_file(), rel
        png = out / (rel.replace("/", "_").removesuffix(".html") + ".png")
        png.unlink(missing_ok=True)
        profile = tempfile.mkdtemp(prefix="exactlin-chromium-")
        try:
            proc = subprocess.run([chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--hide-scrollbars",
                                   "--window-size=1280,3000", "--virtual-time-budget=10000",
                                   f"--screenshot={png}", f"{base}/{rel}"], capture_output=True, text=True,
                                  timeout=120)
        finally:
            shutil.rmtree(profile, ignore_errors=True)
        assert png.is_file(), f"no screenshot of {rel} (exit {proc.returncode}): {proc.stderr[-1500:]}"
        head = png.read_bytes()[:24]
        assert head[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", head[16:24]) == (1280, 3000), rel
        assert png.stat().st_size > 100_000, f"{rel}: the screenshot is nearly empty"
