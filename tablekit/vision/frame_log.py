"""The frames of a recording (:mod:`tablekit.recording`): written off the main loop, read
back at their times.

:class:`FrameWriter` is a thread behind a bounded queue: the loop hands it a frame and
goes on (when ``max_pending`` frames wait, the frame is dropped and counted, the loop is
never blocked; with ``wait``, for a loop on a driven clock such as the simulated table's,
the loop waits for the writer instead, so that what is kept does not depend on how busy
the machine is); lines of other files (presses, the journal's new bytes) are never dropped.
Each image is written and fsynced before its line in ``frames.jsonl``, so a recording cut
by a power cut is playable up to the cut. Frames stop, with one line (``notice``), when
the card's free space falls under ``min_free`` bytes; the other lines go on (the journal
always has room). :class:`RecordingSource` puts the writer between a camera and its feed;
:class:`RecordedFrames` is a recording's frames as a camera again, on the loop's clock.

>>> import numpy as np, tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> writer = FrameWriter(folder)
>>> writer.frame(np.zeros((36, 64, 3), np.uint8), 0.25)
>>> writer.close()
>>> (folder / "frames.jsonl").read_text()
'{"frame": 1, "t": 0.25, "file": "frames/000001.jpg"}\\n'
>>> now = [0.3]
>>> RecordedFrames(folder, lambda: now[0]).read().image.shape
(36, 64, 3)
"""

from __future__ import annotations

import json
import os
import shutil
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tablekit.untrusted.recording import check_frame_line, recording_file
from tablekit.untrusted.recording import read_lines as recorded_lines
from tablekit.vision.frames import CameraFrame, FrameSource

FRAMES = "frames.jsonl"
FRAME_FOLDER = "frames"
IMAGES = {"jpg": [cv2.IMWRITE_JPEG_QUALITY, 90], "png": [cv2.IMWRITE_PNG_COMPRESSION, 1]}
MAX_PENDING = 8            # frames waiting for the writer before new ones are dropped
MAX_MARKS = 10_000         # dropped frames' lines waiting (then they are only counted)
MIN_FREE = 1 << 30         # bytes left free on the card: frames stop below it
EPSILON = 1e-6             # a driven clock's rounding


@dataclass
class _Item:
    kind: str              # "frame", "dropped" or "line"
    t: float = 0.0
    image: Any = None
    name: str = ""         # a line's file
    text: bytes = b""      # a line's bytes (written as they are)


def image_settings(images: str) -> dict[str, Any]:
    """How the frames are kept, as a recording's manifest says it.

    >>> image_settings("jpg")
    {'format': 'jpg', 'jpeg_quality': 90}
    """
    option, value = IMAGES[images]
    key = "jpeg_quality" if option == cv2.IMWRITE_JPEG_QUALITY else "png_compression"
    return {"format": images, key: value}


class FrameWriter:
    """Writes ``frames/NNNNNN.<images>`` and ``frames.jsonl`` (and other files' lines)
    into ``folder`` from its own thread."""

    def __init__(self, folder: Path, images: str = "jpg", max_pending: int = MAX_PENDING,
                 min_free: int = MIN_FREE, write: Callable[[Path, bytes], None] | None = None,
                 wait: bool = False) -> None:
        self.folder, self.images = Path(folder), images
        self.max_pending, self.min_free, self.wait = max_pending, min_free, wait
        self._write = write or _write_synced
        (self.folder / FRAME_FOLDER).mkdir(parents=True, exist_ok=True)
        self._items: deque[_Item] = deque()
        self._pending = 0
        self._wake = threading.Condition()
        self._closing = False
        self.count = 0           # frames handed over
        self.written = 0         # frames whose image is on the card
        self.dropped = 0         # frames the writer could not keep up with
        self.not_kept = 0        # frames after they stopped (no room on the card)
        self.bytes = 0           # bytes of the images written
        self.size: tuple[int, int] | None = None   # (width, height) of the first frame
        self.notice = ""         # why frames stopped ("" while they are kept)
        self._last: tuple[Any, str] | None = None  # the last image written and its file
        self._thread = threading.Thread(target=self._run, name="recording", daemon=True)
        self._thread.start()

    def frame(self, image: Any, t: float) -> None:
        """Hand over a frame read at loop time ``t``; never blocks (a full queue drops it),
        unless the writer was made to ``wait``: then it waits for room."""
        with self._wake:
            while self.wait and self._pending >= self.max_pending and not self.notice and (
                    self._thread.is_alive()):   # (a writer that died waits for nothing)
                self._wake.wait(1.0)
            self.count += 1
            if self._pending >= self.max_pending or self.notice:
                self.dropped += not self.notice
                self.not_kept += bool(self.notice)
                if len(self._items) < MAX_MARKS:
                    self._items.append(_Item("dropped", t))
            else:
                self._pending += 1
                self._items.append(_Item("frame", t, image))
            self._wake.notify_all()

    def line(self, name: str, record: dict[str, Any] | bytes) -> None:
        """Append a JSON line (or raw bytes) to the file ``name``; never dropped."""
        text = record if isinstance(record, bytes) else (json.dumps(record) + "\n").encode()
        with self._wake:
            self._items.append(_Item("line", name=name, text=text))
            self._wake.notify_all()

    def close(self) -> None:
        """Write what is waiting, then stop the thread."""
        with self._wake:
            self._closing = True
            self._wake.notify_all()
        self._thread.join()

    def _run(self) -> None:
        number = 0
        while True:
            with self._wake:
                while not self._items and not self._closing:
                    self._wake.wait()
                if not self._items:
                    return
                item = self._items.popleft()
                self._pending -= item.kind == "frame"
                self._wake.notify_all()   # a loop that waits for room (``wait``)
            if item.kind == "line":
                self._append(item.name, item.text)
                continue
            number += 1
            record = {"frame": number, "t": round(item.t, 6), "file": None}
            if item.kind == "frame":
                record["file"] = self._image(number, item.image)
            self._append(FRAMES, (json.dumps(record) + "\n").encode())

    def _image(self, number: int, image: Any) -> str | None:
        """The frame's file (written and fsynced), the last one's when it is the same
        picture, or None (not kept: no room, or not an image)."""
        if self._last is not None and image is self._last[0]:
            return self._last[1]
        if self.notice:
            return None
        free = shutil.disk_usage(self.folder).free
        if free < self.min_free:
            with self._wake:
                self.notice = (f"recording: frames stopped, {free >> 20} MiB left on the card "
                               f"(the game and its journal go on); {self.written} frames kept")
            return None
        ok, data = (False, None) if not isinstance(image, np.ndarray) else \
            cv2.imencode(f".{self.images}", image, IMAGES[self.images])
        if not ok:
            return None
        name = f"{FRAME_FOLDER}/{number:06d}.{self.images}"
        self._write(self.folder / name, data.tobytes())
        self.size = self.size or (image.shape[1], image.shape[0])
        self.written += 1
        self.bytes += len(data)
        self._last = (image, name)
        return name

    def _append(self, name: str, text: bytes) -> None:
        with open(self.folder / name, "ab") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())


def _write_synced(path: Path, data: bytes) -> None:
    """Write a frame's image and fsync it. A new file in a new recording's folder, never one
    that is there already: no side file and rename (:mod:`tablekit.files.atomic`), as its
    line in ``frames.jsonl`` comes after it, so an image torn by a power cut has no line."""
    with open(path, "wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())


class RecordingSource:
    """A camera whose every frame read is also handed to ``writer`` (at ``clock()``)."""

    def __init__(self, source: FrameSource, writer: FrameWriter, clock: Callable[[], float]
                 ) -> None:
        self.source, self.writer, self.clock = source, writer, clock

    def read(self) -> Any:
        frame = self.source.read()
        if frame is not None:
            self.writer.frame(getattr(frame, "image", None), self.clock())
        return frame

    def close(self) -> None:
        self.source.close()


def read_lines(path: Path) -> list[dict[str, Any]]:
    """A JSON-lines file's records up to its first line that is not one (a torn tail); read
    with a size bound, never through a symlink (:mod:`tablekit.untrusted.recording`).

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "x.jsonl"
    >>> _ = path.write_text('{"a": 1}\\n{"a": 2}\\n{"a"')
    >>> read_lines(path)
    [{'a': 1}, {'a': 2}]
    """
    return recorded_lines(Path(path), Path(path).parent)


class RecordedFrames:
    """A recording's frames as a camera: ``read()`` gives the newest frame kept at or before
    ``clock() + ahead`` (None before the first; ``ahead``: half a camera period, when the
    frames came from a loop on the wall clock, whose reads came a little after their
    moment); the frames are those up to the first whose image cannot be read (a recording
    cut by a power cut ends there). ``last`` is the time of the last frame, ``taken`` how
    many of them the loop's time has reached."""

    def __init__(self, folder: Path, clock: Callable[[], float], ahead: float = 0.0) -> None:
        self.folder, self.clock, self.ahead = Path(folder), clock, ahead
        self.lines: list[dict[str, Any]] = []
        for record in recorded_lines(self.folder / FRAMES, self.folder, check_frame_line):
            name = record.get("file")
            if name is not None and not recording_file(self.folder, name).is_file():
                break
            self.lines.append(record)
        self.last = self.lines[-1]["t"] if self.lines else 0.0
        self.taken = 0
        self._shown: tuple[str, CameraFrame] | None = None

    def read(self) -> CameraFrame | None:
        now = self.clock()
        while self.taken < len(self.lines) and self.lines[self.taken]["t"] <= (
                now + self.ahead + EPSILON):
            name = self.lines[self.taken]["file"]
            self.taken += 1
            if name is not None and (self._shown is None or self._shown[0] != name):
                image = cv2.imread(str(self.folder / name), cv2.IMREAD_COLOR)
                if image is None:  # a torn image: the recording ends before it
                    self.taken -= 1
                    self.lines = self.lines[: self.taken]
                    break
                self._shown = (name, CameraFrame(image, now))
        return self._shown[1] if self._shown is not None else None

    def close(self) -> None:
        """Nothing to release."""
