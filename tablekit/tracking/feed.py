"""The camera side of ``tablekit run``: frames from a source, through the pipeline and
the tracker, to engine events for the main loop (at most ``fps`` frames a second).

A camera that fails mid-game (unplugged, file ended) is reported once and then left
alone: the buttons keep the score, and the flow shows a warning. ``warnings`` is what
the screen should say now: the pipeline's (markers hidden, camera moved) or the
tracker's, a few lines at most, each once; it clears when the reason goes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from tablekit.game.events import Event
from tablekit.tracking.tracker import Tracker

if TYPE_CHECKING:  # sources and readings are passed in: tracking needs no numpy or OpenCV
    from tablekit.vision.frames import FrameSource
    from tablekit.vision.table_reading import TableReading

MAX_WARNINGS = 3


class FramePipeline(Protocol):
    """Frames to readings (:class:`~tablekit.vision.pipeline.CameraPipeline`, or the
    simulated table's reading of its ground truth)."""

    warnings: list[str]

    def read_frame(self, frame: Any, timestamp: float, faint: bool = False
                   ) -> TableReading: ...


@dataclass
class CameraFeed:
    """``poll()`` returns the events the newest frame makes certain."""

    source: FrameSource
    pipeline: FramePipeline
    tracker: Tracker
    fps: float = 4.0
    clock: Callable[[], float] = time.monotonic
    warnings: list[str] = field(default_factory=list)
    lost: bool = False
    _next: float = 0.0

    def poll(self) -> list[Event]:
        now = self.clock()
        if self.lost or now < self._next - 1e-6:   # (a driven clock's rounding)
            return []
        period = 1 / self.fps   # keep the cadence; after a stall, start it again
        self._next = self._next + period if now - self._next < period else now + period
        try:
            frame = self.source.read()
        except Exception as error:  # a driver error is a lost camera, not a crash
            return self._lose(f"camera lost: {error}")
        if frame is None:
            return self._lose("camera lost: no more frames")
        reading = self.pipeline.read_frame(frame, now, self.tracker.wants_faint())
        if not reading.calibrated:
            self._warn(self.pipeline.warnings or ["camera: the table is not calibrated"])
            return []
        events = self.tracker.update(reading)
        self._warn([*self.pipeline.warnings, *self.tracker.warnings()])
        return events

    def _warn(self, lines: list[str]) -> None:
        self.warnings = list(dict.fromkeys(lines))[:MAX_WARNINGS]

    def _lose(self, why: str) -> list[Event]:
        self.lost = True
        self.warnings = [f"{why}; the buttons keep the score"]
        return []

    def close(self) -> None:
        close = getattr(self.source, "close", None)
        if close is not None:
            close()
