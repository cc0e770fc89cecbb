"""Enrollment on the simulated table: one mat per rig, then the rig's game frames.

Usage: python benchmarks/enroll_sim.py [--arts hongkong fluffystuff ...] [--rigs N]
       [--frames F] [--first-seed S] [--json OUT]
Each rig (seeds from ``--first-seed``; the sim's training used 1000 up) plays a held-out log
with the named art set (``hongkong`` is never in the sim's training; the others are). The
player's mat (A3) is rendered on the rig's table at a random place and turn with the rig's
camera and light and enrolled (``tablekit enroll --image``); then F random moments of the
game are read on the calibrated path by the trained classifier and by the enrolled one.
F1 counts as ``benchmarks/vision_sim.py`` does (red fives as plain fives); red fives are
also counted apart: matched red-five faces named with their exact code. A rig whose mat
photo is not read (its markers hidden) is left out for both readers and listed.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from vision_sim import FACE_Z, held_out_logs, score, truth_boxes  # noqa: E402

from tablekit.cli import main as tablekit  # noqa: E402
from tablekit.sim.mat_scene import mat_photo  # noqa: E402
from tablekit.sim.script import Script  # noqa: E402
from tablekit.sim.source import SimulatedCamera  # noqa: E402
from tablekit.vision.calibration import CalibrationError, calibrate  # noqa: E402
from tablekit.vision.classes import RED_FIVES  # noqa: E402
from tablekit.vision.metrics import Count  # noqa: E402
from tablekit.vision.onnx_model import load_model  # noqa: E402
from tablekit.vision.postprocess import box_iou  # noqa: E402
from tablekit.vision.rectify import TableView  # noqa: E402
from tablekit.vision.table_reader import TableModels, read_frame  # noqa: E402
from tablekit.vision.tileset import TileSet  # noqa: E402


def red_fives(found, truth, codes) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """(matched red-five faces named exactly, matched red-five faces)."""
    red = [i for i, code in enumerate(codes) if code in RED_FIVES]
    up = [t for t in found if t.face_up]
    if not red or not up:
        return 0, 0
    iou = box_iou(truth[red], np.array([t.box for t in up], np.float32))
    right = seen = 0
    for row, i in enumerate(red):
        j = int(iou[row].argmax())
        if iou[row, j] >= 0.5:
            seen += 1
            right += up[j].code == codes[i]
    return right, seen


def view_box(view: TableView, profile):  # type: ignore[no-untyped-def]
    """A face polygon (frame px) -> its box in the rectified view."""
    def to_box(polygon: np.ndarray) -> np.ndarray:
        points = view.to_view(profile.camera.to_table(polygon, z=FACE_Z))
        return np.concatenate([points.min(0), points.max(0)])
    return to_box


def enroll_rig(camera: SimulatedCamera, seed: int, folder: Path, profile
               ) -> tuple[TileSet | None, float]:  # type: ignore[no-untyped-def]
    """The rig's set enrolled from one photo of its mat (None where the mat was not read:
    ``tablekit enroll`` has said why)."""
    cv2.imwrite(str(folder / "mat.png"), mat_photo(camera.rig, seed))
    profile.save(folder / "table.json")
    cpu = time.process_time()
    if tablekit(["enroll", "--image", str(folder / "mat.png"), "--calibration",
                 str(folder / "table.json"), "--out", str(folder / "set")]):
        return None, time.process_time() - cpu
    return TileSet.load(folder / "set"), time.process_time() - cpu


def read_moments(camera: SimulatedCamera, profile, readers: dict[str, TableModels],  # type: ignore[no-untyped-def]
                 frames: int, rng: np.random.Generator, art: str,
                 counts: dict[tuple[str, str], Count], reds: dict[tuple[str, str], list[int]]
                 ) -> None:
    """``frames`` random moments of the camera's game read on the calibrated path by each
    reader, counted into ``counts`` and ``reds`` under ``(art, reader's name)``."""
    view = TableView(profile.camera)
    moments = len(camera.script.moments)
    for _ in range(frames):
        frame = camera.render_moment(int(rng.integers(moments)), float(rng.uniform(0, 1)))
        truth, codes, ignored, _ = truth_boxes(frame.truth, view_box(view, profile))
        for name, models in readers.items():
            _, found = read_frame(frame.image, profile, models)
            up = [t for t in found if t.face_up]
            counts[(art, name)].add(score([t.box for t in up], [t.code for t in up],
                                          [t.score for t in up], truth, codes, ignored))
            right, seen = red_fives(found, truth, codes)
            reds[(art, name)][0] += right
            reds[(art, name)][1] += seen


def table_rows(counts: dict[tuple[str, str], Count], reds: dict[tuple[str, str], list[int]]
               ) -> list[dict]:
    """Each (art, reader)'s figures, printed one line each, as JSON rows."""
    rows = []
    for (art, name), count in sorted(counts.items()):
        right, seen = reds[(art, name)]
        rows.append({"art": art, "classifier": name, "f1": round(count.f1, 4),
                     "precision": round(count.precision, 4), "recall": round(count.recall, 4),
                     "tp": count.tp, "fp": count.fp, "fn": count.fn,
                     "red_fives": f"{right}/{seen}",
                     "confusions": [f"{t}->{p} x{n}" for (t, p), n in count.top_confusions(5)]})
        print(f"{art:18} {name:9} F1 {count.f1:.3f} P {count.precision:.3f} "
              f"R {count.recall:.3f} red fives {right}/{seen}  "
              f"{', '.join(rows[-1]['confusions'][:4])}")
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arts", nargs="+", default=["hongkong", "fluffystuff", "lietxia"])
    parser.add_argument("--rigs", type=int, default=3)
    parser.add_argument("--frames", type=int, default=3)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    base = TableModels.load()
    logs = held_out_logs()
    counts: dict[tuple[str, str], Count] = defaultdict(Count)
    reds: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    cpu_s: list[float] = []
    unread: dict[str, list[int]] = defaultdict(list)
    for art in args.arts:
        for seed in range(args.first_seed, args.first_seed + args.rigs):
            camera = SimulatedCamera(Script.from_log(logs[seed % len(logs)]), seed=seed, art=art)
            try:
                profile = calibrate([camera.render_moment(0, 1.0).image,
                                     camera.render_moment(1, 1.0).image])
            except CalibrationError as error:
                print(f"rig {seed}: {error}", flush=True)
                continue
            with tempfile.TemporaryDirectory() as scratch:
                tileset, cpu = enroll_rig(camera, seed, Path(scratch), profile)
                if tileset is None:
                    unread[art].append(seed)
                    print(f"{art} rig {seed}: its mat was not read; rig left out", flush=True)
                    continue
                cpu_s.append(cpu)
                enrolled = dataclasses.replace(base, classifier=load_model(tileset.classifier))
                read_moments(camera, profile, {"trained": base, "enrolled": enrolled},
                             args.frames, np.random.default_rng(1000 + seed), art, counts,
                             reds)
            print(f"{art} rig {seed}: enrolled in {cpu:.1f} s CPU; F1 so far trained "
                  f"{counts[(art, 'trained')].f1:.3f} enrolled {counts[(art, 'enrolled')].f1:.3f}",
                  flush=True)
    rows = table_rows(counts, reds)
    if cpu_s:
        print(f"enrollment CPU per mat: median {np.median(cpu_s):.1f} s, "
              f"max {max(cpu_s):.1f} s")
    for art, seeds in unread.items():
        print(f"{art}: mats not read (rigs left out): {' '.join(map(str, seeds))}")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "enroll_cpu_s": cpu_s,
                                         "mats_not_read": unread}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
