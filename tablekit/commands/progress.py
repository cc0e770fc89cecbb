"""Progress of a long command on a terminal (``tablekit simulate``, ``tablekit enroll``):
one line on standard error, written over in place, saying what is done (hands played,
frames), a bar where the terminal is wide enough, and the time left. Only a terminal sees
it: when standard error is a file, a pipe or a test's capture nothing at all is written, so
logs and test output are as they were.

>>> import io
>>> quiet = Progress("tablekit simulate", stream=io.StringIO())
>>> quiet.update(1, 2, "hand 1/2"); quiet.clear(); quiet.stream.getvalue()
''
"""

from __future__ import annotations

import shutil
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

BAR = 30        # the widest bar, in characters
NARROWEST = 10  # a bar narrower than this is left out
EVERY = 0.25    # seconds between two writes of the line, at most one in each


def clock_text(seconds: float) -> str:
    """Seconds as ``M:SS`` (``H:MM:SS`` from an hour).

    >>> clock_text(75.4), clock_text(3725)
    ('1:15', '1:02:05')
    """
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def progress_line(label: str, done: float, total: float, detail: str = "",
                  elapsed: float = 0.0, width: int = 80) -> str:
    """The line for ``done`` of ``total`` after ``elapsed`` seconds, fitted to ``width``
    (the bar left out where it would not fit; the time left once anything is done; a
    ``total`` of 0: not known, the line alone).

    >>> progress_line("simulate", 30, 120, "hand 2/6, frame 30/120", 10.0)
    'simulate: hand 2/6, frame 30/120 [#######.......................]  25% 0:30 left'
    >>> progress_line("simulate", 30, 120, "hand 2/6, frame 30/120", 10.0, width=50)
    'simulate: hand 2/6, frame 30/120  25% 0:30 left'
    >>> progress_line("simulate", 30, 120, "hand 2/6, frame 30/120", 10.0, width=40)
    'simulate: hand 2/6, fram  25% 0:30 left'
    >>> progress_line("enroll", 0, 0, "fitting", 3.0)  # no total: no bar
    'enroll: fitting'
    """
    head = f"{label}: {detail}" if detail else label
    if total <= 0:
        return head[:max(width - 1, 0)]
    share = min(max(done / total, 0.0), 1.0)
    left = f" {clock_text(elapsed * (1 - share) / share)} left" if share > 0 else ""
    tail = f" {share:4.0%}{left}"
    room = min(BAR, width - 1 - len(head) - len(tail) - 3)
    if room < NARROWEST:  # the detail gives way before the share and the time left
        return (head[:max(width - 1 - len(tail), 0)] + tail)[:max(width - 1, 0)]
    filled = round(room * share)
    return f"{head} [{'#' * filled}{'.' * (room - filled)}]{tail}"


class Progress:
    """A progress line on ``stream`` (standard error by default), written only when it is
    a terminal (``enabled`` None: ask the stream), at most every ``every`` seconds
    (:data:`EVERY` by default).
    ``clear`` takes the line away (before a command prints a line of its own, and at its
    end)."""

    def __init__(self, label: str, stream: TextIO | None = None, enabled: bool | None = None,
                 every: float | None = None, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.label = label
        self.stream = sys.stderr if stream is None else stream
        if enabled is None:
            enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.enabled = enabled
        self.every, self.clock = EVERY if every is None else every, clock
        self.started = clock()
        self._written = 0        # characters of the line on the terminal now
        self._last = -self.every  # when the line was last written
        self._lock = threading.Lock()

    def update(self, done: float, total: float, detail: str = "", now: bool = False) -> None:
        """Say ``done`` of ``total`` (``now``: even if the line was written a moment ago)."""
        if not self.enabled:
            return
        moment = self.clock()
        if not now and moment - self._last < self.every:
            return
        width = shutil.get_terminal_size((80, 24)).columns
        self._write(progress_line(self.label, done, total, detail, moment - self.started,
                                  width))
        self._last = moment

    def restart(self) -> None:
        """Time a new step from now (its time left from its own pace)."""
        self.started = self.clock()

    def clear(self) -> None:
        """Take the line off the terminal (the next update writes it again)."""
        if self.enabled and self._written:
            self._write("")

    @contextmanager
    def running(self, detail: str) -> Iterator[None]:
        """While the block runs, a line with ``detail`` and the time taken so far (for a
        step that cannot say how far it has got); cleared after it."""
        if not self.enabled:
            yield
            return
        stop = threading.Event()
        start = self.clock()

        def tick() -> None:
            while not stop.wait(self.every):
                self._write(f"{self.label}: {detail} ({clock_text(self.clock() - start)})")

        ticker = threading.Thread(target=tick, daemon=True)
        ticker.start()
        try:
            yield
        finally:
            stop.set()
            ticker.join()
            self.clear()

    def _write(self, line: str) -> None:
        with self._lock:
            pad = " " * max(self._written - len(line), 0)
            try:
                self.stream.write(f"\r{line}{pad}\r{line}" if pad else f"\r{line}")
                self.stream.flush()
            except (OSError, ValueError):  # a terminal gone: the command goes on
                self.enabled = False
            self._written = len(line)
