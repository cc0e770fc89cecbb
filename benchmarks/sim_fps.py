"""Frames per second of the simulated camera at 1280x720 on one core.

Usage: python benchmarks/sim_fps.py [--frames N] [--seed S] [--size WxH] [--art SET]
Plays the committed Tenhou game from its middle (tiles on every part of the table, arms
reaching, every camera effect on) and prints one JSON line: frames, seconds, fps.
"""

from __future__ import annotations

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"

import argparse  # noqa: E402 - the thread limits must be set before numpy loads
import json  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402

from tablekit.sim.script import Script  # noqa: E402
from tablekit.sim.source import SimulatedCamera  # noqa: E402

LOG = Path(__file__).resolve().parents[1] / "tablekit" / "data" / "tenhou-python-bot-28.xml"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--art", default=None)
    parser.add_argument("--clean", action="store_true", help="no camera effects")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    width, height = (int(v) for v in args.size.split("x"))
    script = Script.from_log(LOG)
    camera = SimulatedCamera(script, seed=args.seed, size=(width, height), art=args.art,
                             clean=args.clean, start=script.length / 3)
    camera.read()  # loads the art and draws the empty table once
    start = time.perf_counter()
    for _ in range(args.frames):
        camera.read()
    seconds = time.perf_counter() - start
    print(json.dumps({"frames": args.frames, "size": args.size, "art": camera.rig.look.art,
                      "clean": args.clean, "seconds": round(seconds, 2),
                      "fps": round(args.frames / seconds, 1)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
