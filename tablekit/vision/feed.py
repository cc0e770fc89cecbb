"""The camera's frames, read: a frame from a source, through the pipeline, into a
:class:`~tablekit.vision.table_reading.TableReading` for the tracker (at most ``fps``
frames a second). Perception only: what the readings mean for the game is the tracker's
(:class:`tablekit.tracking.camera.Camera` holds this feed and the tracker, the one camera
side of the app).

A camera that fails mid-game (unplugged, file ended) is reported and tried again every
``retry`` seconds: the buttons keep the score meanwhile, the flow shows a warning, and a
camera plugged back in is used again. A frame the pipeline cannot take (the wrong size
or channel count, not an image) is skipped and reported, never a crash; a picture that
has not changed at all for ``FROZEN`` seconds is reported as a frozen camera.
``warnings`` is what the screen should say now: the pipeline's (markers hidden, camera
moved), the tracker's (:meth:`CameraFeed.tracking`) and the feed's own, a few lines at
most, each once; each clears when its reason goes.

>>> import numpy as np
>>> class Unplugged:
...     def read(self):
...         raise OSError("USB camera unplugged")
>>> feed = CameraFeed(Unplugged(), pipeline=None)
>>> feed.poll(), feed.lost, feed.warnings
(None, True, ['camera lost: USB camera unplugged; the buttons keep the score'])
>>> frame_problem(np.zeros((720, 1280), np.uint8), (720, 1280, 3))
'a frame of 1280x720 with 1 channel(s) (uint8), not 1280x720 colour'
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from tablekit.vision.frames import FrameSource
from tablekit.vision.table_reading import TableReading

RETRY = 2.0    # seconds between tries of a lost camera
FROZEN = 10.0  # seconds of a picture that does not change at all: the camera is frozen
COVERED = 5.0  # seconds with an arm or hand over the table before the screen says so
MAX_WARNINGS = 3


class FramePipeline(Protocol):
    """Frames to readings (:class:`~tablekit.vision.pipeline.CameraPipeline`, or the
    simulated table's reading of its ground truth)."""

    warnings: list[str]

    def read_frame(self, frame: Any, timestamp: float, faint: bool = False,
                   gaps: bool = False) -> TableReading: ...

    def notices(self) -> list[str]:
        """Lines about the reading itself (an unfamiliar tile set)."""
        ...


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
    """``poll()`` reads the newest frame when one is due (None: none due, or none read)."""

    source: FrameSource
    pipeline: FramePipeline
    fps: float = 4.0
    clock: Callable[[], float] = time.monotonic
    warnings: list[str] = field(default_factory=list)
    lost: bool = False
    retry: float = RETRY
    _next: float = 0.0
    _shape: tuple[int, ...] | None = None
    _same: tuple[int, float] = (0, 0.0)  # the picture's checksum, and since when it shows
    _covered_since: float | None = None
    _own: list[str] = field(default_factory=list)  # the last reading's lines after tracking's

    def poll(self, faint: Callable[[], bool] = lambda: False,
             gaps: Callable[[], bool] = lambda: False) -> TableReading | None:
        """The newest frame's reading, its ponds' faint peaks too when ``faint()`` says so
        and the revealed rows' empty places looked at again when ``gaps()`` does (each
        asked only when a frame is read); None when no frame is due or none could be read,
        or the table is not calibrated (``warnings`` says why)."""
        now = self.clock()
        if now < self._next - 1e-6:   # (a driven clock's rounding)
            return None
        if self.lost:
            self._next = now + self.retry
        else:  # keep the cadence; after a stall, start it again
            period = 1 / self.fps
            self._next = self._next + period if now - self._next < period else now + period
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
            return None
        self._shape = image.shape
        return self._read(frame, image, now, faint, gaps)

    def tracking(self, lines: list[str]) -> None:
        """What the tracking says of the last reading: shown after the pipeline's warnings,
        before the feed's own lines."""
        self._warn([*self.pipeline.warnings, *lines, *self._own])

    def _read(self, frame: Any, image: np.ndarray, now: float, faint: Callable[[], bool],
              gaps: Callable[[], bool]) -> TableReading | None:
        try:
            reading = self.pipeline.read_frame(frame, now, faint(), gaps())
        except Exception as error:  # a frame the pipeline chokes on is skipped, not fatal
            self.warnings = [f"camera: a frame could not be read ({type(error).__name__})"]
            return None
        if not reading.calibrated:
            self._warn(self.pipeline.warnings or ["camera: the table is not calibrated"])
            return None
        self._own = [*self.pipeline.notices(), *self._frozen(image, now),
                     *self._covered(bool(reading.busy), now)]
        self.tracking([])
        return reading

    def _warn(self, lines: list[str]) -> None:
        self.warnings = list(dict.fromkeys(lines))[:MAX_WARNINGS]

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

    def _lose(self, why: str) -> None:
        self.lost = True
        self._next = self.clock() + self.retry
        self.warnings = [f"{why}; the buttons keep the score"]

    def close(self) -> None:
        close = getattr(self.source, "close", None)
        if close is not None:
            close()
