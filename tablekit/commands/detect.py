"""``tablekit detect``: read the tiles in photos (generic mode: any photo, no calibration).

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
from pathlib import Path
from typing import Any

from tablekit.errors import TablekitError


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "detect", help="read the tiles in photos",
        description="Find and name every tile in each IMAGE (any photo from above).")
    parser.add_argument("images", nargs="+", metavar="IMAGE", type=Path)
    parser.add_argument("--json", action="store_true", help="one JSON line per image")
    parser.add_argument("--threads", type=int, default=1, help="CPU threads for the models")
    parser.add_argument("--calibration", metavar="PROFILE", default=None,
                        help="table calibration profile (not available yet: generic mode)")
    parser.set_defaults(run=run)


def _line(path: Path, ms: float, readings: list) -> str:
    tiles = " ".join(r.tile for r in readings)
    return f"{path}: {len(readings)} tiles in {ms:.1f} ms  {tiles}"


def run(args: argparse.Namespace) -> int:
    import cv2

    from tablekit.vision.reader import TileReader

    if args.calibration:
        print("tablekit detect: --calibration is not supported yet; using generic mode",
              file=sys.stderr)
    try:
        reader = TileReader.load(threads=args.threads)
    except TablekitError as error:
        print(f"tablekit detect: {error}", file=sys.stderr)
        return 2
    status = 0
    for path in args.images:
        image = cv2.imread(str(path))
        if image is None:
            print(f"tablekit detect: cannot read {path}", file=sys.stderr)
            status = 1
            continue
        start = time.perf_counter()
        readings = reader.read(image)
        ms = (time.perf_counter() - start) * 1000
        if args.json:
            print(json.dumps({"image": str(path), "ms": round(ms, 1),
                              "tiles": [r.as_json() for r in readings]}))
        else:
            print(_line(path, ms, readings))
    return status
