"""No partial writes.  A writer killed (SIGKILL) in the middle of ``exactlin.io.atomic_write_text``
leaves the target either absent (or, when it existed, with its old content) or complete -- never truncated.

The control test kills a plain ``open(...).write`` the same way and does see a truncated file, so the
harness can tell the difference.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")

#: about 20 MB of JSON: long enough to be interrupted
WRITER = textwrap.dedent("""
    import json, sys, time
    from exactlin.io import atomic_write_text
    target, mode, N = sys.argv[1], sys.argv[2], int(sys.argv[3])
    text = json.dumps({"w": [str(i) + "/7" for i in range(N)], "end": True})
    sys.stdout.write("ready\\n"); sys.stdout.flush()
    if mode == "atomic":
        atomic_write_text(target, text)
    else:
        with open(target, "w") as f:  # the control: a plain write, slowed so that a kill lands inside it
            for k in range(0, len(text), 1 << 16):
                f.write(text[k:k + (1 << 16)])
                f.flush()
                if k == 0:
                    sys.stdout.write("started\\n"); sys.stdout.flush()
                time.sleep(0.001)
    sys.stdout.write("done\\n"); sys.stdout.flush()
""")

OLD = '{"old": true}'
N = 2_000_000


def _kill_mid_write(tmp_path, mode: str, delay: float, *, existing: bool):
    target = tmp_path / f"run-{mode}-{delay}-{existing}.json"
    if existing:
        target.write_text(OLD)
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    p = subprocess.Popen([sys.executable, str(script), str(target), mode, str(N)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "ready", p.stderr.read()
        if mode == "plain":  # the control kills once the file has its first chunk, whatever the machine's load
            assert p.stdout.readline().strip() == "started", p.stderr.read()
        time.sleep(delay)
        os.kill(p.pid, signal.SIGKILL)
        p.wait(timeout=60)
    finally:
        if p.poll() is None:  # pragma: no cover
            p.kill()
            p.wait()
    finished = p.returncode == 0
    temps = [f for f in tmp_path.iterdir() if f.name.startswith(f".{target.name}.")]
    return target, finished, temps


def _state(target) -> str:
    if not target.exists():
        return "absent"
    text = target.read_text()
    if text == OLD:
        return "old"
    try:
        d = json.loads(text)
    except ValueError:
        return "truncated"
    return "complete" if d.get("end") is True and len(d["w"]) == N else "truncated"


@pytest.mark.parametrize("existing", [False, True])
def test_killed_atomic_writer_never_leaves_a_truncated_file(tmp_path, existing):
    interrupted = 0
    for delay in (0.0, 0.005, 0.02, 0.08):
        target, finished, temps = _kill_mid_write(tmp_path, "atomic", delay, existing=existing)
        state = _state(target)
        assert state in (("old", "complete") if existing else ("absent", "complete")), \
            f"killed after {delay} s: the target is {state}"
        if state != "complete":
            interrupted += 1
            # the kill landed before os.replace: any partial data is only in the temporary file
            for t in temps:
                assert t.name.endswith(".tmp")
    assert interrupted >= 1, "no kill landed before the write finished: the test did not test anything"


def test_control_plain_write_is_truncated(tmp_path):
    """The same kill on a plain write does leave a truncated file (the harness can see one)."""
    seen = set()
    for delay in (0.005, 0.02, 0.08):
        target, _, _ = _kill_mid_write(tmp_path, "plain", delay, existing=False)
        seen.add(_state(target))
    assert "truncated" in seen, f"states seen: {seen}"
