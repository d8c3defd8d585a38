"""The progress display: a carriage-return line on a terminal (erased at the end), plain lines elsewhere."""

from __future__ import annotations

import io

from exactlin.model.progress import Progress
from exactlin.render.progress import ProgressLine, progress_text


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def _recs():
    budget = (("max_epochs", 1000), ("max_steps", 50000))
    return [Progress("fixed-increment", 1000, 40, 9, budget), Progress("fixed-increment", 2000, 71, 11, budget),
            Progress("fixed-increment", 2500, 80, 11, budget, final=True, reason="max_steps")]


def test_text_names_step_updates_bits_and_budget():
    t = progress_text(_recs()[1])
    assert t == ("exactlin fixed-increment: step 2,000  updates 71  max bits 11  "
                 "(budget max_epochs=1000, max_steps=50000)")
    assert progress_text(_recs()[2]).endswith("stopped: max_steps")


def test_tty_line_is_redrawn_and_erased():
    s = FakeTTY()
    show = ProgressLine(s, min_interval=0)
    for p in _recs():
        show(p)
    out = s.getvalue()
    first, second = progress_text(_recs()[0]), progress_text(_recs()[1])
    assert out.startswith("\r" + first + "\r" + second)
    assert "\n" not in out  # nothing left between the command's output lines
    assert out.endswith("\r" + " " * len(second) + "\r")


def test_tty_throttles_in_time():
    s = FakeTTY()
    show = ProgressLine(s, min_interval=3600)  # nothing within the hour: a short run shows nothing
    for p in _recs():
        show(p)
    assert s.getvalue() == ""


def test_plain_stream_gets_one_line_per_record():
    s = io.StringIO()
    show = ProgressLine(s, min_interval=0)
    for p in _recs():
        show(p)
    assert s.getvalue().splitlines() == [progress_text(p) for p in _recs()]
    assert "\r" not in s.getvalue()
