"""``tablekit doctor``: what this machine has and what ``tablekit run`` would use, one line a
check, each problem with what to do about it. Exit 0 when everything needed works (on a
Raspberry Pi the camera, GPIO and screen are needed; elsewhere they fall back).

>>> print(Check("journal", True, "/var/lib/tablekit/game.jsonl writable").line())
OK   journal: /var/lib/tablekit/game.jsonl writable
>>> print(Check("camera", False, "no camera", "plug one in", needed=False).line())
--   camera: no camera -> plug one in
"""

from __future__ import annotations

import argparse
import ctypes.util
import glob
import importlib.metadata
import os
import platform
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tablekit.errors import one_line

PACKAGES = ("tablekit", "numpy", "opencv-python-headless", "onnxruntime", "pygame-ce",
            "gpiozero", "mahjong")
RUN_SIZES = {"tile_detector.onnx": (1, 3, 288, 512), "table_detector.onnx": (1, 3, 512, 512),
             "tile_classifier.onnx": (16, 3, 48, 36), "box_refiner.onnx": (32, 3, 64, 64),
             "photo_classifier.onnx": (16, 3, 48, 36)}
"""The input each model gets in tablekit run (a frame, the rectified view, a batch of crops)."""
KMSDRM_LIBRARIES = {"gbm": "libgbm1", "EGL": "libegl1", "GLESv2": "libgles2"}


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""
    needed: bool = True

    def line(self) -> str:
        mark = "OK  " if self.ok else ("FIX " if self.needed else "--  ")
        return f"{mark} {self.name}: {self.detail}" + ("" if self.ok else f" -> {self.fix}")


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "doctor", help="check this machine: camera, GPIO, screen, models, journal",
        description="List what this machine has and what tablekit run would use, with a fix "
                    "for each problem. Exit status 0 when all that is needed works.")
    parser.add_argument("--camera", default="auto", help="the camera to try (as for run)")
    parser.add_argument("--pinout", type=Path, default=None, help="the pin map to check")
    parser.add_argument("--journal", type=Path, default=None, help="the journal to check")
    parser.add_argument("--calibration", type=Path, default=Path("calibration/table.json"))
    parser.add_argument("--tileset", default=None, metavar="SET",
                        help="the enrolled tile set to check (default: the profile's, if any)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tablekit.commands.devices import on_raspberry_pi

    pi = on_raspberry_pi()
    checks = (versions, lambda _a, _pi: machine(), camera, gpio, display, models, journal,
              calibration, tileset)
    failed = False
    for check in checks:
        for result in _safely(check, args, pi):
            print(result.line(), flush=True)
            failed |= result.needed and not result.ok
    return 1 if failed else 0


def _safely(check: Callable[..., Iterator[Check]], args: argparse.Namespace, pi: bool
            ) -> Iterator[Check]:
    try:
        yield from check(args, pi)
    except Exception as error:  # a check that breaks is a finding, not a crash
        yield Check(getattr(check, "__name__", "check"), False, one_line(error),
                    "report this with the line above")


def versions(_: argparse.Namespace, __: bool) -> Iterator[Check]:
    found = []
    for name in PACKAGES:
        try:
            found.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            yield Check("versions", False, f"{name} is not installed",
                        f"pip install {name} (or reinstall tablekit)")
    yield Check("versions", True, f"Python {platform.python_version()}, " + ", ".join(found))


def machine() -> Iterator[Check]:
    model = Path("/proc/device-tree/model")
    text = model.read_text(errors="ignore").strip("\0\n") if model.exists() else ""
    yield Check("machine", True, f"{text or platform.machine()} ({platform.platform()})")


def camera(args: argparse.Namespace, pi: bool) -> Iterator[Check]:
    from tablekit.vision.camera import open_camera

    if args.camera == "auto" and not pi:
        videos = sorted(glob.glob("/dev/video*"))
        yield Check("camera", False, "not a Raspberry Pi, so run uses no camera by default; "
                    f"video devices: {' '.join(videos) or 'none'}",
                    "try one with tablekit doctor --camera opencv:0", needed=False)
        return
    spec = "picamera2" if args.camera == "auto" else args.camera
    if spec == "none":
        yield Check("camera", True, "not checked (--camera none)")
        return
    source = open_camera(spec)
    try:
        frame = source.read()
    finally:
        source.close()
    if frame is None:
        yield Check("camera", False, f"{spec} opened but gave no frame", "check the cable",
                    needed=pi)
        return
    height, width = frame.image.shape[:2]
    yield Check("camera", True, f"{spec} ({type(source).__name__}), {width}x{height}")


def gpio(args: argparse.Namespace, pi: bool) -> Iterator[Check]:
    from tablekit.io.pinmap import DEFAULT_PINOUT, load_pinmap

    chips = sorted(glob.glob("/dev/gpiochip*"))
    yield Check("gpio chip", bool(chips), " ".join(chips) or "no /dev/gpiochip*",
                "not a Raspberry Pi: run uses the keyboard", needed=pi)
    pins = load_pinmap(args.pinout)
    claimed = sorted(pins.buttons.values())
    yield Check("pin map", True, f"{args.pinout or DEFAULT_PINOUT}: BCM "
                f"{' '.join(map(str, claimed))}")
    try:
        import lgpio  # noqa: F401
        yield Check("gpio library", True, "lgpio imports")
    except Exception as error:
        yield Check("gpio library", False, f"lgpio: {one_line(error)}",
                    "sudo apt install python3-lgpio (the venv needs --system-site-packages)",
                    needed=pi)


def display(_: argparse.Namespace, pi: bool) -> Iterator[Check]:
    from tablekit.commands.devices import pick_display

    cards = sorted(glob.glob("/dev/dri/card*"))
    yield Check("display", True, f"run would use {pick_display('auto')}; "
                f"DRM devices: {' '.join(cards) or 'none'}")
    missing = [package for lib, package in KMSDRM_LIBRARIES.items()
               if ctypes.util.find_library(lib) is None]
    yield Check("kmsdrm libraries", not missing, "libgbm, libEGL, libGLESv2 "
                + ("found" if not missing else f"missing: {' '.join(missing)}"),
                f"sudo apt install {' '.join(missing)}", needed=pi)
    yield names_font()


def names_font() -> Check:
    """A font for the names the bundled one cannot draw (Japanese, Chinese): a note only."""
    from tablekit.display.fallback_fonts import PACKAGE, cjk_font

    font = cjk_font()
    return Check("names font", font is not None,
                 f"{font} draws Japanese and Chinese names" if font else
                 "no font draws Japanese or Chinese names: they show as boxes",
                 f"sudo apt install {PACKAGE}", needed=False)


def models(_: argparse.Namespace, __: bool) -> Iterator[Check]:
    import numpy as np

    from tablekit.files.resources import packaged
    from tablekit.vision.onnx_model import load_model

    for path in sorted(packaged("models").glob("*.onnx")):
        model = load_model(path)
        shape = [d if isinstance(d, int) else size
                 for d, size in zip(model.input_shape, RUN_SIZES.get(path.name, (1, 3, 64, 64)),
                                    strict=True)]
        batch = np.zeros(shape, dtype=np.float32)
        model.run(batch)
        start = time.perf_counter()
        model.run(batch)
        ms = (time.perf_counter() - start) * 1000
        yield Check("model", True, f"{path.name} loads, {ms:.0f} ms a run of {shape} on "
                    "one CPU thread")


def journal(args: argparse.Namespace, _: bool) -> Iterator[Check]:
    from tablekit.app.loop import default_journal
    from tablekit.game.journal import read_journal

    path = args.journal or default_journal()
    folder = next(p for p in (path.parent, *path.parents) if p.exists())
    writable = os.access(path if path.exists() else folder, os.W_OK)
    events = len(read_journal(path).events) if path.exists() else 0
    yield Check("journal", writable, f"{path}: {events} events, "
                + ("writable" if writable else "not writable"),
                f"make {folder} writable by this user, or give --journal")


def calibration(args: argparse.Namespace, _: bool) -> Iterator[Check]:
    from tablekit.vision.calibration import Profile

    if not args.calibration.exists():
        yield Check("calibration", True, f"none saved at {args.calibration}: run calibrates "
                    "itself from the four markers")
        return
    profile = Profile.load(args.calibration)
    yield Check("calibration", True, f"{args.calibration}: valid, {profile.size[0]}x"
                f"{profile.size[1]}, fit {profile.rms_px:.2f} px")


def tileset(args: argparse.Namespace, _: bool) -> Iterator[Check]:
    """The tile set the reader would use: an enrolled one (given, or named by the profile)
    that loads, or the trained reader."""
    from tablekit.vision.calibration import Profile
    from tablekit.vision.tileset import TileSet, TileSetError

    named = args.tileset or (Profile.load(args.calibration).tileset
                             if args.calibration.exists() else "")
    if not named:
        yield Check("tile set", True, "none enrolled: the trained reader (if the screen says "
                    "the tiles look unfamiliar, enroll your set with `tablekit enroll`)")
        return
    try:
        yield Check("tile set", True, TileSet.load(named).summary())
    except TileSetError as error:
        yield Check("tile set", False, str(error), "enroll the set again with `tablekit "
                    "enroll --out SET`, or leave it out to read with the trained reader")
