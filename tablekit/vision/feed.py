"""The camera side of ``tablekit run``: frames from a source, through the pipeline and
the tracker, to engine events for the main loop (at most ``fps`` frames a second).

A camera that fails mid-game (unplugged, file ended) is reported once and then left
alone: the buttons keep the score, and the flow shows a warning.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tablekit.game.events import Event
from tablekit.vision.pipeline import CameraPipeline
from tablekit.vision.tracker import Tracker


@dataclass
class CameraFeed:
    """``poll()`` returns the events the newest frame makes certain."""

    source: Any
    pipeline: CameraPipeline
    tracker: Tracker
    fps: float = 4.0
    clock: Callable[[], float] = time.monotonic
    warnings: list[str] = field(default_factory=list)
    lost: bool = False
    _next: float = 0.0

    def poll(self) -> list[Event]:
        now = self.clock()
        if self.lost or now < self._next:
            return []
        self._next = now + 1 / self.fps
        try:
            frame = self.source.read()
        except Exception as error:  # a driver error is a lost camera, not a crash
            return self._lose(f"camera lost: {error}")
        if frame is None:
            return self._lose("camera lost: no more frames")
        reading = self.pipeline.read(frame.image, now, self.tracker.wants_faint())
        if not reading.calibrated:
            self.warnings = ["camera not calibrated: markers hidden or moved"]
            return []
        events = self.tracker.update(reading)
        self.warnings = [*self.tracker.warnings(), *self.pipeline.notices()]
        return events

    def _lose(self, why: str) -> list[Event]:
        self.lost = True
        self.warnings = [f"{why}; the buttons keep the score"]
        return []

    def close(self) -> None:
        close = getattr(self.source, "close", None)
        if close is not None:
            close()
