"""A progress line on a terminal for long runs: the display of :class:`exactlin.model.progress.Progress`
records, throttled in time (the records themselves come at deterministic points of the run).

On a terminal (``stream.isatty()``) one line is redrawn with a carriage return and erased at the end, so
nothing of it is left between the command's output lines; on any other stream (``verbose=True`` of the
scikit-learn wrappers writing to a file or a pipe) each shown record is one plain line.  Standard output is
never written: the default stream is ``sys.stderr``.

>>> import io
>>> from exactlin.model.progress import Progress
>>> s = io.StringIO()
>>> show = ProgressLine(s, min_interval=0)
>>> show(Progress("perceptron", 2000, 31, 7, (("max_epochs", 1000),)))
>>> s.getvalue()
'exactlin perceptron: step 2,000  updates 31  max bits 7  (budget max_epochs=1000)\\n'
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from exactlin.model.progress import Progress

__all__ = ["ProgressLine", "progress_text", "MIN_INTERVAL"]

#: the display's throttle: at most one redraw per this many seconds (the records come at deterministic points)
MIN_INTERVAL = 0.2


def progress_text(p: Progress) -> str:
    bits = "-" if p.max_bits is None else f"{p.max_bits:,}"
    text = f"exactlin {p.algorithm}: step {p.step:,}  updates {p.updates:,}  max bits {bits}"
    if p.budget:
        text += f"  (budget {p.budget_text()})"
    if p.final:
        text += f"  stopped: {p.reason}"
    return text


class ProgressLine:
    """A progress callback that shows the records on ``stream`` (default ``sys.stderr``) at most every
    ``min_interval`` seconds (the final record always).  On a TTY: one line redrawn with ``\\r`` and cleared at
    the end (``keep=True`` leaves the final line); otherwise one line per shown record."""

    def __init__(self, stream: TextIO | None = None, *, min_interval: float | None = None, keep: bool = False):
        self.stream = stream if stream is not None else sys.stderr
        self.min_interval = MIN_INTERVAL if min_interval is None else min_interval
        self.keep = keep
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        # a terminal: nothing for a run shorter than min_interval
        self._last = time.monotonic() if self.tty and self.min_interval > 0 else None
        self._width = 0
        self.shown = 0

    def __call__(self, p: Progress) -> None:
        now = time.monotonic()
        if not p.final and self._last is not None and now - self._last < self.min_interval:
            return
        if p.final and self.tty and not self.keep:
            if self._width:
                self.stream.write("\r" + " " * self._width + "\r")
                self.stream.flush()
            return
        self._last = now
        text = progress_text(p)
        self.shown += 1
        if self.tty:
            pad = max(self._width - len(text), 0)
            self.stream.write("\r" + text + " " * pad + ("\n" if p.final else ""))
            self._width = len(text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()
