"""Frame sources behind one small interface, chosen by a spec string.

Every source has ``read() -> frame | None`` (a frame has ``image``, BGR uint8, and
``timestamp``, seconds from the start of the source; None: nothing more), ``close()``,
and is a context manager and an iterator of frames. :func:`open_camera` picks one:

* ``picamera2`` (or ``picamera``): the Raspberry Pi camera through picamera2 (imported
  only here), exposure and white balance locked once the picture has settled,
* ``opencv:N``: OpenCV's camera N; ``opencv:PATH`` (or a bare video file path): a video,
* ``folder:DIR``: the images of a folder in name order (jpg, jpeg, png, bmp),
* any other kind the caller brings in ``openers`` (``tablekit run`` and ``calibrate`` add
  ``sim``, the simulated table, through :func:`tablekit.commands.devices.open_camera`: perception
  knows no simulator).

What cannot be opened raises :class:`CameraError` with one line saying what is missing.

>>> open_camera("folder:/nowhere")
Traceback (most recent call last):
...
tablekit.vision.frames.CameraError: folder:/nowhere: no such folder
>>> open_camera("webcam")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tablekit.vision.frames.CameraError: unknown camera 'webcam': use picamera2, opencv:N, ...
>>> open_camera("7")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tablekit.vision.frames.CameraError: unknown camera '7': OpenCV's camera 7 is opencv:7 (or use ...
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tablekit.vision.frames import CameraError, CameraFrame, FrameSource, Source

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".h264", ".webm")
DEFAULT_SIZE = (1280, 720)
SPECS = "picamera2, opencv:N, opencv:FILE, folder:DIR"


# --- OpenCV -------------------------------------------------------------------------------

class OpenCvCamera(Source):
    """An OpenCV ``VideoCapture`` (any object with ``read``, ``get``, ``release``): a device
    timed by ``clock``, or a video file timed by its own clock."""

    def __init__(self, capture: Any, name: str, is_file: bool = False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.capture, self.name, self.is_file, self.clock = capture, name, is_file, clock
        self.start = clock()
        self.frames = 0

    def read(self) -> CameraFrame | None:
        import cv2

        ok, image = self.capture.read()
        if not ok or image is None:
            return None
        self.frames += 1
        if self.is_file:
            return CameraFrame(image, float(self.capture.get(cv2.CAP_PROP_POS_MSEC)) / 1000)
        return CameraFrame(image, self.clock() - self.start)

    def close(self) -> None:
        self.capture.release()


def open_opencv(target: str, size: tuple[int, int] = DEFAULT_SIZE) -> OpenCvCamera:
    """``target`` a device index (``0``) or a video file path."""
    import cv2

    if target.isdigit():
        capture = cv2.VideoCapture(int(target))
        if not capture.isOpened():
            raise CameraError(f"opencv:{target}: no camera there (unplugged, or in use by "
                              f"another program)")
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        return OpenCvCamera(capture, f"opencv:{target}")
    if not Path(target).is_file():
        raise CameraError(f"opencv:{target}: no such video file")
    capture = cv2.VideoCapture(target)
    if not capture.isOpened():
        raise CameraError(f"opencv:{target}: OpenCV cannot decode this video")
    return OpenCvCamera(capture, f"opencv:{target}", is_file=True)


# --- a folder of images ---------------------------------------------------------------------

class FolderCamera(Source):
    """The images of a folder in name order, ``fps`` of them a second."""

    def __init__(self, folder: Path, fps: float = 1.0) -> None:
        if not folder.is_dir():
            raise CameraError(f"folder:{folder}: no such folder")
        self.paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.paths:
            raise CameraError(f"folder:{folder}: no images in it "
                              f"({', '.join(IMAGE_SUFFIXES)})")
        self.fps, self.index = fps, 0

    def read(self) -> CameraFrame | None:
        import cv2

        if self.index >= len(self.paths):
            return None
        path = self.paths[self.index]
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise CameraError(f"folder: cannot read the image {path}")
        self.index += 1
        return CameraFrame(image, (self.index - 1) / self.fps)


# --- the Raspberry Pi camera ------------------------------------------------------------------

@dataclass
class ExposureLock:
    """Settle-then-lock: watches each frame's metadata (exposure time, analogue gain,
    colour gains) and, once they have changed by less than ``tolerance`` over ``window``
    frames (or after ``max_frames``), gives the controls that fix them."""

    window: int = 5
    tolerance: float = 0.03
    max_frames: int = 60
    seen: list[dict[str, Any]] = field(default_factory=list)
    locked: dict[str, Any] | None = None

    def feed(self, metadata: dict[str, Any]) -> dict[str, Any] | None:
        """The controls to set now (once), else None."""
        if self.locked is not None:
            return None
        self.seen.append(metadata)
        if self._settled() or len(self.seen) >= self.max_frames:
            self.locked = _lock_controls(self.seen[-1])
            return self.locked
        return None

    def _settled(self) -> bool:
        if len(self.seen) < self.window:
            return False
        recent = [_levels(m) for m in self.seen[-self.window:]]
        spread = np.ptp(np.log(np.maximum(recent, 1e-6)), axis=0)
        return bool((spread < np.log1p(self.tolerance)).all())


def _levels(metadata: dict[str, Any]) -> list[float]:
    """Brightness (exposure x gain) and the two colour gains of a frame's metadata."""
    red, blue = metadata.get("ColourGains", (1.0, 1.0))
    exposure = float(metadata.get("ExposureTime", 1)) * float(metadata.get("AnalogueGain", 1))
    return [exposure, float(red), float(blue)]


def _lock_controls(metadata: dict[str, Any]) -> dict[str, Any]:
    controls: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
    for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
        if key in metadata:
            controls[key] = metadata[key]
    return controls


class PiCamera(Source):
    """picamera2's camera (or a fake with the same methods): frames as BGR arrays, exposure
    and white balance locked once settled (:class:`ExposureLock`)."""

    def __init__(self, camera: Any, size: tuple[int, int] = DEFAULT_SIZE,
                 lock: ExposureLock | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.camera, self.lock, self.clock = camera, lock or ExposureLock(), clock
        # picamera2's "RGB888" is B, G, R in memory: OpenCV's order.
        config = camera.create_video_configuration(main={"size": size, "format": "RGB888"})
        camera.configure(config)
        camera.start()
        self.start = clock()

    def read(self) -> CameraFrame | None:
        request = self.camera.capture_request()
        try:
            image = np.ascontiguousarray(request.make_array("main")[:, :, :3])
            metadata = request.get_metadata()
        finally:
            request.release()
        controls = self.lock.feed(metadata)
        if controls:
            self.camera.set_controls(controls)
        return CameraFrame(image, self.clock() - self.start)

    def close(self) -> None:
        self.camera.stop()
        self.camera.close()


def open_picamera(size: tuple[int, int] = DEFAULT_SIZE) -> Source:
    """picamera2 in this process if it imports and finds a camera, else ``rpicam-vid``'s raw
    output (:mod:`tablekit.vision.rpicam`): whatever picamera2 raises (not only ImportError:
    under numpy 2, Bookworm's apt picamera2 raises ValueError "numpy.dtype size changed")."""
    from tablekit.vision.rpicam import RpicamCamera, rpicam_program

    try:
        from picamera2 import Picamera2  # type: ignore[import-not-found]

        return PiCamera(Picamera2(), size)
    except Exception as error:  # any failure here is a camera we read another way
        why = f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
    if rpicam_program() is None:
        raise CameraError(f"picamera: picamera2 failed ({why}) and rpicam-vid is not installed "
                          "(on Raspberry Pi OS: sudo apt install rpicam-apps); elsewhere use "
                          "opencv:0")
    source = RpicamCamera(size)
    first = source.read()
    if first is None:
        source.close()
        raise CameraError(f"picamera: no frames from {rpicam_program()} (picamera2: {why}): "
                          "check the camera's ribbon cable")
    return source


# --- choosing a source ----------------------------------------------------------------------

Opener = Callable[..., FrameSource]
"""Opens a source of another kind: called with the whole spec, ``size`` and the options."""


def open_camera(spec: str, size: tuple[int, int] = DEFAULT_SIZE,
                openers: Mapping[str, Opener] | None = None, **options: Any) -> FrameSource:
    """The frame source named by ``spec`` (see the module's docstring); ``openers``: more
    kinds (``options`` go to them)."""
    kind, _, rest = spec.partition(":")
    openers = openers or {}
    if kind in ("picamera", "picamera2") and not rest:
        return open_picamera(size)
    if kind == "opencv" and rest:
        return open_opencv(rest, size)
    if kind == "folder" and rest:
        return FolderCamera(Path(rest))
    if kind in openers:
        try:
            return openers[kind](spec, size=size, **options)
        except (FileNotFoundError, ValueError) as error:
            raise CameraError(str(error)) from None
    if Path(spec).suffix.lower() in VIDEO_SUFFIXES:
        return open_opencv(spec, size)
    kinds = ", ".join([SPECS, *openers])
    if spec.isdigit():
        raise CameraError(f"unknown camera {spec!r}: OpenCV's camera {spec} is opencv:{spec} "
                          f"(or use {kinds})")
    raise CameraError(f"unknown camera {spec!r}: use {kinds}")
