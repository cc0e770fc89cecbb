"""The camera side of ``tablekit run``: frames from a source, through the pipeline and
the tracker, to engine events for the main loop (at most ``fps`` frames a second).

A camera that fails mid-game (unplugged, file ended) is reported and tried again every
``retry`` seconds: the buttons keep the score meanwhile, the flow shows a warning, and a
camera plugged back in is used again. A frame the pipeline cannot take (the wrong size
or channel count, not an image) is skipped and reported, never a crash; a picture that
has not changed at all for ``FROZEN`` seconds is reported as a frozen camera.

>>> import numpy as np
>>> class Unplugged:
...     def read(self):
...         raise OSError("USB camera unplugged")
>>> feed = CameraFeed(Unplugged(), pipeline=None, tracker=None)
>>> feed.poll(), feed.lost, feed.warnings
([], True, ['camera lost: USB camera unplugged; the buttons keep the score'])
>>> frame_problem(np.zeros((720, 1280), np.uint8), (720, 1280, 3))
'a frame of 1280x720 with 1 channel(s) (uint8), not 1280x720 colour'
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tablekit.game.events import Event
from tablekit.vision.pipeline import CameraPipeline
from tablekit.vision.tracker import Tracker

RETRY = 2.0    # seconds between tries of a lost camera
FROZEN = 10.0  # seconds of a picture that does not change at all: the camera is frozen
COVERED = 5.0  # seconds with an arm or hand over the table before the screen says so


def frame_problem(image: Any, shape: tuple[int, ...] | None) -> str:
    """Why ``image`` cannot go through the pipeline ("" when it can); ``shape`` is the
    shape of the first good frame (None before there was one)."""
    if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or 0 in image.shape:
        return f"a frame that is not an image ({type(image).__name__})"
    height, width = image.shape[:2]
    channels = image.shape[2] if image.ndim == 3 else 1
    want = shape or (height, width, 3)
    if channels != 3 or image.dtype != np.uint8 or (height, width) != want[:2]:
        return (f"a frame of {width}x{height} with {channels} channel(s) ({image.dtype}), "
                f"not {want[1]}x{want[0]} colour")
    return ""


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
    retry: float = RETRY
    _next: float = 0.0
    _shape: tuple[int, ...] | None = None
    _same: tuple[int, float] = (0, 0.0)  # the picture's checksum, and since when it shows
    _covered_since: float | None = None

    def poll(self) -> list[Event]:
        now = self.clock()
        if now < self._next:
            return []
        self._next = now + (self.retry if self.lost else 1 / self.fps)
        try:
            frame = self.source.read()
        except Exception as error:  # a driver error is a lost camera, not a crash
            return self._lose(f"camera lost: {error}")
        if frame is None:
            return self._lose("camera lost: no more frames")
        self.lost = False
        image = getattr(frame, "image", None)
        problem = frame_problem(image, self._shape)
        if problem:
            self.warnings = [f"camera sends {problem}: skipped; the buttons keep the score"]
            return []
        self._shape = image.shape
        return self._read(image, now)

    def _read(self, image: np.ndarray, now: float) -> list[Event]:
        try:
            reading = self.pipeline.read(image, now, self.tracker.wants_faint())
        except Exception as error:  # a frame the pipeline chokes on is skipped, not fatal
            self.warnings = [f"camera: a frame could not be read ({type(error).__name__})"]
            return []
        if not reading.calibrated:
            self.warnings = ["camera not calibrated: markers hidden or moved"]
            return []
        events = self.tracker.update(reading)
        self.warnings = [*self.tracker.warnings(), *self._frozen(image, now),
                         *self._covered(bool(reading.busy), now)]
        return events

    def _covered(self, busy: bool, now: float) -> list[str]:
        if not busy:
            self._covered_since = None
            return []
        since = self._covered_since = now if self._covered_since is None else (
            self._covered_since)
        if now - since < COVERED:
            return []
        return [f"something has covered part of the table for {now - since:.0f} s: "
                "the camera waits to see it"]

    def _frozen(self, image: np.ndarray, now: float) -> list[str]:
        checksum = zlib.crc32(np.ascontiguousarray(image[::8, ::8]).data)
        if checksum != self._same[0]:
            self._same = (checksum, now)
            return []
        if now - self._same[1] < FROZEN:
            return []
        return [f"camera frozen: the picture has not changed for {now - self._same[1]:.0f} s"]

    def _lose(self, why: str) -> list[Event]:
        self.lost = True
        self._next = self.clock() + self.retry
        self.warnings = [f"{why}; the buttons keep the score"]
        return []

    def close(self) -> None:
        close = getattr(self.source, "close", None)
        if close is not None:
            close()
