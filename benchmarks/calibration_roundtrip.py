"""Calibration round trip on simulated frames: how far (mm) a table point lands from where
it is, after the sim's true camera puts it in the image and the fitted profile maps it back.

Usage: python benchmarks/calibration_roundtrip.py [--seeds N] [--frames F] [--json OUT]
For each seed (a rig: camera pose, lens distortion, light, effects), ``calibrate`` runs on F
frames of the demo game (F moments a few seconds apart, so that one arm cannot hide a marker
in all of them); the points are every zone corner of ``table_zones()`` plus a 9 x 9 grid over
the felt (40 mm in from its edge). Printed: the max error over all seeds for the zone corners
and for all points, the 95th percentile and mean of the per-seed max, for the fitted camera
(pinhole, one radial term) and, for comparison, for a plain homography of the same 16 marker
corners.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from tablekit.sim.geometry import MARKER_CORNERS_MM, MARKER_IDS, TABLE_HALF  # noqa: E402
from tablekit.sim.script import Script  # noqa: E402
from tablekit.sim.source import SimulatedCamera  # noqa: E402
from tablekit.sim.table import DEMO_GAME  # noqa: E402
from tablekit.vision.calibration import CalibrationError, calibrate  # noqa: E402
from tablekit.vision.table_zones import table_zones  # noqa: E402


def table_points() -> np.ndarray:
    corners = np.concatenate([zone.corners() for zone in table_zones()])
    edge = np.linspace(-TABLE_HALF + 40, TABLE_HALF - 40, 9)
    return np.concatenate([corners, np.stack(np.meshgrid(edge, edge), -1).reshape(-1, 2)])


def homography_error(profile, truth_px: np.ndarray, points: np.ndarray) -> np.ndarray:
    image = np.concatenate([np.asarray(profile.markers[i]) for i in MARKER_IDS])
    table = np.concatenate([np.asarray(MARKER_CORNERS_MM[i]) for i in MARKER_IDS])
    homography, _ = cv2.findHomography(image, table)
    back = cv2.perspectiveTransform(truth_px.reshape(-1, 1, 2), homography).reshape(-1, 2)
    return np.linalg.norm(back - points, axis=1)


def one_seed(script: Script, seed: int, frames: int, points: np.ndarray) -> dict | None:
    camera = SimulatedCamera(script, seed=seed, art="fallback")
    first = seed % (len(script.moments) - 8 * frames)
    try:
        profile = calibrate([camera.render_moment(first + 8 * k, 0.5).image
                             for k in range(frames)])
    except CalibrationError as error:
        print(f"seed {seed}: {error}", flush=True)
        return None
    truth = camera.rig.camera.project(np.concatenate([points, np.zeros((len(points), 1))], 1))
    error = np.linalg.norm(profile.camera.to_table(truth) - points, axis=1)
    zones = len(np.concatenate([zone.corners() for zone in table_zones()]))
    return {"seed": seed, "max_mm": float(error.max()), "mean_mm": float(error.mean()),
            "zone_max_mm": float(error[:zones].max()),
            "homography_max_mm": float(homography_error(profile, truth, points).max()),
            "rms_px": profile.rms_px, "k1_true": camera.rig.camera.distortion[0],
            "k1_fit": profile.camera.k1}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--frames", type=int, default=3)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    script, points = Script.from_log(DEMO_GAME), table_points()
    start = time.time()
    rows = [r for seed in range(args.seeds) if (r := one_seed(script, seed, args.frames, points))]
    worst = np.array([r["max_mm"] for r in rows])
    plain = np.array([r["homography_max_mm"] for r in rows])
    zones = np.array([r["zone_max_mm"] for r in rows])
    figures = {"seeds": args.seeds, "calibrated": len(rows), "frames": args.frames,
               "points": len(points), "zone_max_mm": round(float(zones.max()), 3),
               "max_mm": round(float(worst.max()), 3),
               "p95_of_seed_max_mm": round(float(np.percentile(worst, 95)), 3),
               "mean_of_seed_max_mm": round(float(worst.mean()), 3),
               "seeds_over_2mm": int((worst >= 2.0).sum()),
               "homography_max_mm": round(float(plain.max()), 2),
               "homography_mean_of_seed_max_mm": round(float(plain.mean()), 2),
               "seconds": round(time.time() - start, 1)}
    print(f"{len(rows)}/{args.seeds} rigs calibrated from {args.frames} frames; {len(points)} "
          f"table points each (zone corners and a felt grid)")
    print(f"fitted camera: zone corners max {figures['zone_max_mm']} mm over all rigs; all points "
          f"max {figures['max_mm']} mm, 95th percentile of the "
          f"per-rig max {figures['p95_of_seed_max_mm']} mm, mean of the per-rig max "
          f"{figures['mean_of_seed_max_mm']} mm, rigs at 2 mm or more: {figures['seeds_over_2mm']}")
    print(f"plain homography of the same corners: max {figures['homography_max_mm']} mm, mean "
          f"of the per-rig max {figures['homography_mean_of_seed_max_mm']} mm")
    print(json.dumps(figures))
    if args.json:
        args.json.write_text(json.dumps({"figures": figures, "rigs": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
