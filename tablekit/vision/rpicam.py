"""The Raspberry Pi camera read from ``rpicam-vid``'s raw output, for a Python that cannot
import picamera2 (Bookworm's apt picamera2 is built for the system's numpy 1.24; tablekit's
OpenCV needs numpy 2, and importing both fails with "numpy.dtype size changed").

``rpicam-vid`` streams YUV420 frames on its standard output; a thread keeps only the newest,
so :meth:`RpicamCamera.read` never returns a stale frame however slowly it is called.

>>> import sys
>>> fake = [sys.executable, "-c", "import sys; sys.stdout.buffer.write(bytes([128]) * 96 * 2)"]
>>> with RpicamCamera((8, 8), command=fake) as camera:
...     frame = camera.read()
...     frame.image.shape, camera.read()
((8, 8, 3), None)
"""

from __future__ import annotations

import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from tablekit.vision.frames import CameraFrame, Source

PROGRAMS = ("rpicam-vid", "libcamera-vid")   # libcamera-vid: the name before Bookworm


def rpicam_program() -> str | None:
    """The camera program this machine has, or None."""
    return next((p for p in PROGRAMS if shutil.which(p)), None)


def rpicam_command(program: str, size: tuple[int, int], fps: int = 10) -> list[str]:
    """The command that streams raw YUV420 frames of ``size`` on standard output.

    >>> rpicam_command("rpicam-vid", (1280, 720))[:6]
    ['rpicam-vid', '--timeout', '0', '--nopreview', '--codec', 'yuv420']
    """
    width, height = size
    return [program, "--timeout", "0", "--nopreview", "--codec", "yuv420", "--width",
            str(width), "--height", str(height), "--framerate", str(fps), "--flush",
            "--output", "-"]


class RpicamCamera(Source):
    """Frames (BGR) from a process writing raw YUV420 frames of ``size``; ``read()`` waits up
    to ``wait`` seconds for a frame newer than the last and returns None when the stream ends."""

    def __init__(self, size: tuple[int, int], command: list[str] | None = None,
                 wait: float = 5.0, clock: Callable[[], float] = time.monotonic) -> None:
        program = rpicam_program() or PROGRAMS[0]
        self.size, self.wait, self.clock = size, wait, clock
        self.frame_bytes = size[0] * size[1] * 3 // 2
        self.process = subprocess.Popen(command or rpicam_command(program, size),
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self._newest: bytes | None = None
        self._ended = False
        self._fresh = threading.Condition()
        self.start = clock()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        while True:
            data = self.process.stdout.read(self.frame_bytes)
            with self._fresh:
                if len(data) < self.frame_bytes:
                    self._ended = True
                else:
                    self._newest = data
                self._fresh.notify_all()
            if self._ended:
                return

    def read(self) -> CameraFrame | None:
        with self._fresh:
            self._fresh.wait_for(lambda: self._newest is not None or self._ended, self.wait)
            data, self._newest = self._newest, None
        if data is None:
            return None
        return CameraFrame(_bgr(data, self.size), self.clock() - self.start)

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()


def _bgr(data: bytes, size: tuple[int, int]) -> Any:
    import cv2

    width, height = size
    yuv = np.frombuffer(data, dtype=np.uint8).reshape(height * 3 // 2, width)
    return cv2.cvtColor(yuv, cv2.COLOR_YUV2BGR_I420)
