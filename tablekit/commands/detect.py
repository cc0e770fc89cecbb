"""``tablekit detect``: read the tiles in photos (generic mode: any photo, no calibration).

With ``--calibration PROFILE`` (see ``tablekit calibrate``) each frame of that camera is read
on the rectified table instead: tiles in table mm with their angle, face up or down and
their candidates, and the boxes arms cover::

    {"image": PATH, "ms": MS, "tiles": [{"xy": [x, y], "angle": A, "face_up": true,
     "candidates": [["5m", 0.97], ...]}], "busy": [[x0, y0, x1, y1]]}

With ``--json``, one line per image::

    {"image": PATH, "ms": MS, "tiles": [{"box": [x1, y1, x2, y2], "tile": "5m", "score": 0.97}]}

boxes in the image's pixels, red fives as ``0m/0p/0s``, face-down tiles as ``back``, ``ms`` the
time for that image without model loading. onnxruntime and OpenCV are imported only here.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tablekit.commands.inputs import require_files
from tablekit.errors import TablekitError


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "detect", help="read the tiles in photos",
        description="Find and name every tile in each IMAGE (any photo from above).")
    parser.add_argument("images", nargs="+", metavar="IMAGE", type=Path)
    parser.add_argument("--json", action="store_true", help="one JSON line per image")
    parser.add_argument("--threads", type=int, default=1, help="CPU threads for the models")
    parser.add_argument("--calibration", metavar="PROFILE", default=None,
                        help="a calibration profile of the camera that took the images: read "
                             "the rectified table (tiles in table mm)")
    parser.add_argument("--tileset", metavar="SET", default=None,
                        help="an enrolled tile set (see tablekit enroll); with --calibration "
                             "the profile's own by default")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tablekit.vision.reader import TileReader

    require_files(args.images)
    if args.calibration:
        return run_calibrated(args)
    from tablekit.vision.familiar import Familiarity

    try:
        reader = TileReader.load(threads=args.threads, tileset=args.tileset)
    except TablekitError as error:
        print(f"tablekit detect: {error}", file=sys.stderr)
        return 2
    familiar = Familiarity()

    def read(image: Any) -> list:
        readings = reader.read(image)
        familiar.add(r.score for r in readings if r.tile != "back")
        return readings

    def as_json(readings: list) -> dict[str, object]:
        return {"tiles": [r.as_json() for r in readings]}

    def as_text(readings: list) -> str:
        return f"{len(readings)} tiles  {' '.join(r.tile for r in readings)}"

    status = _read_images(args, read, as_json, as_text)
    if (warning := familiar.warning()) is not None:
        print(f"tablekit detect: {warning}", file=sys.stderr)
    return status


def run_calibrated(args: argparse.Namespace) -> int:
    """Read each image through the profile's rectified view."""
    from tablekit.vision.calibration import Profile
    from tablekit.vision.table_reader import TableModels, read_table

    try:
        profile = Profile.load(Path(args.calibration))
        models = TableModels.load(threads=args.threads,
                                  tileset=args.tileset or profile.tileset or None)
    except TablekitError as error:
        print(f"tablekit detect: {error}", file=sys.stderr)
        return 2

    def as_json(reading: Any) -> dict[str, object]:
        return {"tiles": [_seen_json(t) for t in reading.tiles],
                "busy": [[round(v, 1) for v in b] for b in reading.busy]}

    def as_text(reading: Any) -> str:
        codes = " ".join(t.best.code if t.face_up else "back" for t in reading.tiles)
        return f"{len(reading.tiles)} tiles, {len(reading.busy)} busy  {codes}"

    return _read_images(args, lambda image: read_table(image, profile, models), as_json,
                        as_text, size=profile.size)


def _read_images(args: argparse.Namespace, read: Callable[[Any], Any],
                 as_json: Callable[[Any], dict[str, object]], as_text: Callable[[Any], str],
                 size: tuple[int, int] | None = None) -> int:
    """Read every image, timing ``read`` alone, and print one line per image."""
    status = 0
    for path in args.images:
        image = _load_image(path)
        if image is None or (size and (image.shape[1], image.shape[0]) != size):
            shape = f" as a {size[0]}x{size[1]} frame of the calibrated camera" if size else ""
            print(f"tablekit detect: {path}: not an image tablekit can read{shape}",
                  file=sys.stderr)
            status = 2
            continue
        start = time.perf_counter()
        result = read(image)
        ms = (time.perf_counter() - start) * 1000
        if args.json:
            print(json.dumps({"image": str(path), "ms": round(ms, 1), **as_json(result)}))
        else:
            print(f"{path}: {as_text(result)} in {ms:.1f} ms")
    return status


def _load_image(path: Path) -> Any:
    """The image in ``path`` (BGR), or None when it is not one (OpenCV says nothing)."""
    import cv2
    import numpy as np

    data = np.frombuffer(path.read_bytes(), dtype=np.uint8)
    return cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None


def _seen_json(tile: Any) -> dict[str, object]:
    return {"xy": [round(v, 1) for v in tile.xy], "angle": round(tile.angle, 1),
            "face_up": tile.face_up,
            "candidates": [[t.code, round(p, 3)] for t, p in tile.candidates]}
