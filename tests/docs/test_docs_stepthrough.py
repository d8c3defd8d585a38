"""The step-through figures of the worked examples (issue 21, item 4), in a real browser, offline from file://:
headless Chromium opens a worked example's page from the built site's files (no server, no network) inside a
small harness page that clicks "next" and records which frame shows; a screenshot of the step-through after two
clicks goes to the CI output folder (ci-output/screenshots, or $EXACTLIN_CI_OUTPUT/screenshots) for a person to
look at.

Expected frames, by hand from seed 000 Example 1 (000_478cb53c624e7eb5.txt; no bias, w_1 = 0): 3 updates, so 4
frames; update 1 is sample 1 (w = (4, 0)), update 2 sample 2 (y<w, x> = -4, w = (3, -1)), update 3 sample 4
(w = (1, -3))."""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
import tempfile
from pathlib import Path

from tests.docs.docs_site import build_site
from tests.docs.test_docs_browser import CHROMIUM_FLAGS, find_chromium

HARNESS = """<!doctype html><html><head><meta charset="utf-8"><title>step-through</title></head><body style="margin:0">
<iframe id="f" src="%s" style="width:1200px;height:900px;border:0"></iframe>
<script>
const frame = document.getElementById("f");
frame.onload = () => setTimeout(() => {
  const r = {};
  try {
    const doc = frame.contentDocument;
    const box = doc.querySelector(".exactlin-steps");
    const shown = () => Array.from(box.querySelectorAll(".exactlin-frame")).filter(f => !f.hidden)
      .map(f => Array.prototype.indexOf.call(box.querySelectorAll(".exactlin-frame"), f) + ": " +
           f.querySelector("svg text").textContent);
    r.frames = box.querySelectorAll(".exactlin-frame").length;
    r.ready = box.getAttribute("data-ready");
    r.shown = [shown()];
    for (let c = 0; c < 2; c++) { box.querySelector(".exactlin-next").click(); r.shown.push(shown()); }
    r.label = box.querySelector(".exactlin-step-label").textContent;
    r.mistakes = box.querySelector(".exactlin-frame:not([hidden])").querySelectorAll("circle.mistake").length;
    box.scrollIntoView();
  } catch (e) { r.error = String(e); }
  const pre = document.createElement("pre"); pre.id = "results"; pre.textContent = JSON.stringify(r);
  document.body.appendChild(pre);
}, 50);
</script></body></html>"""


def _screenshot_dir() -> Path:
    root = os.environ.get("EXACTLIN_CI_OUTPUT") or str(Path(__file__).resolve().parents[2] / "ci-output")
    out = Path(root) / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    return out


def _chromium(harness: Path, *flags: str) -> subprocess.CompletedProcess:
    profile = tempfile.mkdtemp(prefix="exactlin-chromium-")
    try:
        return subprocess.run([find_chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}",
                               "--allow-file-access-from-files", "--window-size=1200,900", "--hide-scrollbars",
                               "--virtual-time-budget=10000", *flags, harness.as_uri()],
                              capture_output=True, text=True, timeout=120)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def test_step_through_works_offline_from_file_urls(tmp_path):
    site = build_site()[0]
    page = site / "examples" / "seed000-example1.html"
    text = page.read_text(encoding="utf-8")
    assert "http://" not in text.split('class="exactlin-steps"', 1)[1].split("</script>", 1)[0]
    harness = tmp_path / "harness.html"
    harness.write_text(HARNESS % page.as_uri(), encoding="utf-8")
    proc = _chromium(harness, "--dump-dom")
    m = re.search(r'<pre id="results">(.*?)</pre>', proc.stdout, re.S)
    assert m, f"the harness did not finish (exit {proc.returncode}): {proc.stderr[-2000:]}"
    import html

    r = json.loads(html.unescape(m.group(1)))
    assert "error" not in r, r
    assert r["frames"] == 4 and r["ready"] == "1"  # 3 updates + the start; the page's script ran
    assert [len(s) for s in r["shown"]] == [1, 1, 1]  # one frame at a time
    assert r["shown"][0][0].startswith("0: start: w = (0, 0)")
    assert r["shown"][1][0].startswith("1: update 1 of 3") and "sample 1 tested: a mistake" in r["shown"][1][0]
    assert r["shown"][2][0].startswith("2: update 2 of 3") and r["shown"][2][0].endswith("w = (3, -1)")
    assert r["label"] == "frame 3 of 4" and r["mistakes"] == 1

    png = _screenshot_dir() / "step-through_seed000-example1.png"
    png.unlink(missing_ok=True)
    proc = _chromium(harness, f"--screenshot={png}")
    assert png.is_file(), f"no screenshot (exit {proc.returncode}): {proc.stderr[-1500:]}"
    head = png.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", head[16:24]) == (1200, 900)
    assert png.stat().st_size > 20_000, "the screenshot is nearly empty"
