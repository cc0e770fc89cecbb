"""Enrolling from the table: how long it takes, and whether the enrolled reader is as fast.

Usage: python benchmarks/enroll_table_speed.py [--art NAME] [--seed S] [--frames F]
       [--repeat R]
Rig ``S`` (the art set ``NAME``) playing a held-out log enrolls its set from the spread
(``tablekit enroll --from-table``'s code, :func:`tablekit.sim.spread_scene.enroll_from_spread`);
then ``F`` moments of its game are read ``R`` times each by the trained reader and by the
enrolled one, one after the other (the machine's load falls on both alike). Prints the
enrollment's seconds (wall, calibration and rendering left out), the bank's rows and each
reader's median milliseconds a frame (one onnxruntime thread each).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import numpy as np  # noqa: E402
from vision_sim import held_out_logs  # noqa: E402

from tablekit.sim.script import Script  # noqa: E402
from tablekit.sim.source import SimulatedCamera  # noqa: E402
from tablekit.sim.spread_scene import enroll_from_spread  # noqa: E402
from tablekit.vision.calibration import calibrate  # noqa: E402
from tablekit.vision.table_reader import TableModels, read_frame  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--art", default="kde-default")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--frames", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    logs = held_out_logs()
    camera = SimulatedCamera(Script.from_log(logs[args.seed % len(logs)]), seed=args.seed,
                             art=args.art)
    profile = calibrate([camera.render_moment(0, 1.0).image,
                         camera.render_moment(1, 1.0).image])
    with tempfile.TemporaryDirectory() as scratch:
        made = enroll_from_spread(camera, Path(scratch) / "set", args.seed)
        readers = {"trained": TableModels.load(threads=1),
                   "enrolled": TableModels.load(threads=1, tileset=made.tileset.folder)}
        rng = np.random.default_rng(args.seed)
        moments = len(camera.script.moments)
        frames = [camera.render_moment(int(rng.integers(moments)), float(rng.uniform(0, 1)))
                  for _ in range(args.frames)]
        ms: dict[str, list[float]] = {name: [] for name in readers}
        for _ in range(args.repeat):
            for frame in frames:
                for name, models in readers.items():
                    start = time.perf_counter()
                    read_frame(frame.image, profile, models)
                    ms[name].append((time.perf_counter() - start) * 1000)
    figures = {"art": args.art, "seed": args.seed, "enroll_seconds": round(made.seconds, 1),
               "bank_rows": sum(made.tileset.info["faces"].values()),
               "reads": len(ms["trained"]),
               **{f"{name}_ms_median": round(statistics.median(v), 1) for name, v in ms.items()}}
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
