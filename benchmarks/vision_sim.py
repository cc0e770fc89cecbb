"""Tile reading on frames of the simulated table: the calibrated (rectified) path against the
generic photo path and mahjong-detector, on the same 1280 x 720 frames, one thread each.

Usage: python benchmarks/vision_sim.py [--rigs N] [--frames F] [--json OUT]
Rigs are seeds 0..N-1 (training used seeds from 1000 up) playing the held-out logs of
MahjongRepository/tenhou-python-bot (never rendered for training; the committed fixture
when ../shared is absent), each calibrated from two frames with ``calibrate``; then F
random moments each (arms over the table in about half of them).

Counted tiles: face up, lying flat, at least 60 % visible. Face-down, standing and mostly
hidden tiles are neither counted nor held against a reader that finds them. A reading is
right with IoU >= 0.5 and the right kind (red fives as plain fives): in the view for the
rectified path, in the frame for the others. Also printed: ms per frame, the commonest
confusions, F1 per art set, the rectified path's position (mm) and angle errors, and how
well the busy boxes cover the arms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from tablekit.sim.script import Script  # noqa: E402
from tablekit.sim.source import SimulatedCamera  # noqa: E402
from tablekit.vision.calibration import CalibrationError, calibrate  # noqa: E402
from tablekit.vision.metrics import Count, match_image  # noqa: E402
from tablekit.vision.postprocess import box_iou  # noqa: E402
from tablekit.vision.rectify import TableView  # noqa: E402
from tablekit.vision.table_reader import TableModels, read_frame  # noqa: E402

FIXTURE_LOG = ROOT / "tablekit" / "data" / "tenhou-python-bot-28.xml"
HELD_OUT = ROOT.parent / "shared" / "data" / "tenhou" / "logs" / \
    "MahjongRepository+tenhou-python-bot"
FACE_Z = 20.0
COUNTED_VISIBLE = 0.6


def held_out_logs() -> list[Path]:
    logs = sorted(HELD_OUT.glob("*.txt")) if HELD_OUT.is_dir() else []
    return logs or [FIXTURE_LOG]


def truth_boxes(truth, to_box) -> tuple[np.ndarray, list[str], np.ndarray, list]:
    """Counted boxes, their codes, ignored boxes, and the counted tiles."""
    counted, codes, ignored, tiles = [], [], [], []
    for tile in truth.tiles:
        box = to_box(np.asarray(tile.polygon, np.float64))
        if tile.face_up and tile.posture == "flat" and tile.visible >= COUNTED_VISIBLE:
            counted.append(box)
            codes.append(tile.label)
            tiles.append(tile)
        else:
            ignored.append(box)
    return (np.array(counted, np.float32).reshape(-1, 4), codes,
            np.array(ignored, np.float32).reshape(-1, 4), tiles)


def score(boxes, codes, scores, truth, truth_codes, ignored) -> Count:
    """F1 counts, readings on ignored tiles (and nothing counted) left out."""
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    if len(boxes) and len(ignored):
        on_ignored = box_iou(boxes, ignored).max(1) >= 0.5
        on_counted = box_iou(boxes, truth).max(1) >= 0.5 if len(truth) else \
            np.zeros(len(boxes), bool)
        keep = ~on_ignored | on_counted
        boxes, codes = boxes[keep], [c for c, k in zip(codes, keep, strict=True) if k]
        scores = [s for s, k in zip(scores, keep, strict=True) if k]
    return match_image(boxes, codes, scores, truth, truth_codes)


def truth_angle(tile) -> float:
    return (90.0 * (tile.seat or 0) + (90.0 if tile.sideways else 0.0)) % 360


class Tally:
    """Counts, times and extra measures per reader."""

    def __init__(self) -> None:
        self.counts: dict[str, Count] = defaultdict(Count)
        self.by_art: dict[tuple[str, str], Count] = defaultdict(Count)
        self.ms: dict[str, list[float]] = defaultdict(list)
        self.position: list[float] = []
        self.angle_right: list[bool] = []
        self.arms_covered: list[bool] = []
        self.false_busy: list[bool] = []
        self.tiles_per_frame: list[int] = []
        self.frames: list[tuple[int, np.ndarray, object, int]] = []

    def add(self, reader: str, art: str, count: Count, ms: float) -> None:
        self.counts[reader].add(count)
        self.by_art[(reader, art)].add(count)
        self.ms[reader].append(ms)


def rectified(frame, profile, models, tally: Tally, art: str) -> None:
    view = TableView(profile.camera)
    to_box = lambda poly: np.concatenate([(q := view.to_view(  # noqa: E731
        profile.camera.to_table(poly, z=FACE_Z))).min(0), q.max(0)])
    truth, codes, ignored, tiles = truth_boxes(frame.truth, to_box)
    start = time.perf_counter()
    reading, found = read_frame(frame.image, profile, models)
    ms = (time.perf_counter() - start) * 1000
    up = [i for i, t in enumerate(found) if t.face_up]
    count = score([found[i].box for i in up], [found[i].code for i in up],
                  [found[i].score for i in up], truth, codes, ignored)
    tally.add("tablekit rectified", art, count, ms)
    tally.tiles_per_frame.append(len(found))
    tally.frames.append((len(found), frame.image, profile, sum(t.face_up for t in found)))
    _placement(reading, found, up, truth, tiles, tally)
    _busy(reading, frame.truth, tally)


def _placement(reading, found, up, truth, tiles, tally: Tally) -> None:
    if not up or not len(truth):
        return
    iou = box_iou(np.array([found[i].box for i in up], np.float32), truth)
    for row, i in enumerate(up):
        j = int(iou[row].argmax())
        if iou[row, j] < 0.5:
            continue
        seen, tile = reading.tiles[i], tiles[j]
        tally.position.append(float(np.hypot(*(np.subtract(seen.xy, tile.table_xy)))))
        diff = abs((seen.angle - truth_angle(tile) + 180) % 360 - 180)
        tally.angle_right.append(diff <= 10)


def _busy(reading, truth, tally: Tally) -> None:
    if truth.arms:
        for arm in truth.arms:
            tally.arms_covered.append(reading.in_busy(tuple(arm["target"]), margin=30.0))
    else:
        tally.false_busy.append(bool(reading.busy))


def on_frame(name: str, read, frame, tally: Tally, art: str) -> None:
    to_box = lambda poly: np.concatenate([poly.min(0), poly.max(0)])  # noqa: E731
    truth, codes, ignored, _ = truth_boxes(frame.truth, to_box)
    start = time.perf_counter()
    readings = read(frame.image)
    ms = (time.perf_counter() - start) * 1000
    count = score([r.box for r in readings], [r.tile for r in readings],
                  [r.score for r in readings], truth, codes, ignored)
    tally.add(name, art, count, ms)


def other_readers(threads: int) -> dict:
    from vision_accuracy import readers

    found = readers(threads)
    return {("tablekit generic" if k == "tablekit" else k): v for k, v in found.items()}


def run(args: argparse.Namespace, models: TableModels | None = None
        ) -> tuple[Tally, TableModels, dict]:
    """Every rig's frames read (``models``: instead of the shipped ones)."""
    models = models or TableModels.load(threads=args.threads)
    others = {} if args.rectified_only else other_readers(args.threads)
    logs, tally = held_out_logs(), Tally()
    for seed in range(args.rigs):
        play_rig(seed, logs, args.frames, models, others, tally)
    return tally, models, others


def play_rig(seed: int, logs: list[Path], frames: int, models: TableModels, others: dict,
             tally: Tally, art: str | None = None) -> bool:
    """Rig ``seed`` (``art``: its tile art, else the seed's) playing a held-out log,
    calibrated from two frames, read on ``frames`` random moments; False: not calibrated."""
    camera = SimulatedCamera(Script.from_log(logs[seed % len(logs)]), seed=seed, art=art)
    count = len(camera.script.moments)
    try:
        profile = calibrate([camera.render_moment(0, 1.0).image,
                             camera.render_moment(1, 1.0).image])
    except CalibrationError as error:
        print(f"rig {seed}: {error}", flush=True)
        return False
    rng = np.random.default_rng(seed)
    for _ in range(frames):
        frame = camera.render_moment(int(rng.integers(count)), float(rng.uniform(0, 1)))
        art = camera.rig.look.art
        rectified(frame, profile, models, tally, art)
        for name, read in others.items():
            on_frame(name, read, frame, tally, art)
    return True


def sixty_tiles(tally: Tally, models: TableModels, others: dict, repeat: int = 20) -> dict:
    """Median ms of each reader on the frame whose rectified read found closest to 60 tiles."""
    found, image, profile, face_up = min(tally.frames, key=lambda f: abs(f[0] - 60))
    out = {"tiles_found": found, "face_up": face_up}
    readers = {"tablekit rectified": lambda im: read_frame(im, profile, models)}
    for name, read in {**readers, **others}.items():
        read(image)
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            read(image)
            times.append((time.perf_counter() - start) * 1000)
        out[name] = round(statistics.median(times), 1)
    print(f"frame of {found} tiles ({face_up} face up), median of {repeat} runs, one thread: "
          + ", ".join(f"{k} {v} ms" for k, v in out.items() if isinstance(v, float)))
    return out


def report(tally: Tally, args: argparse.Namespace) -> dict:
    figures: dict = {"rigs": args.rigs, "frames_per_rig": args.frames, "readers": {}}
    for name, count in tally.counts.items():
        ms = tally.ms[name]
        figures["readers"][name] = {
            "f1": round(count.f1, 4), "precision": round(count.precision, 4),
            "recall": round(count.recall, 4), "tiles": count.tp + count.fn,
            "ms_median": round(statistics.median(ms), 1), "frames": len(ms),
            "by_art": {art: round(c.f1, 4) for (r, art), c in sorted(tally.by_art.items())
                       if r == name},
            "confusions": [f"{t}->{p} x{n}" for (t, p), n in count.top_confusions(12)]}
        m = figures["readers"][name]
        print(f"{name:19} F1 {m['f1']:.3f} P {m['precision']:.3f} R {m['recall']:.3f} on "
              f"{m['tiles']} tiles, {m['frames']} frames, {m['ms_median']:.1f} ms/frame "
              f"median; by art {m['by_art']}; {', '.join(m['confusions'][:8])}", flush=True)
    position = np.array(tally.position or [0.0])
    figures["rectified_placement"] = {
        "position_median_mm": round(float(np.median(position)), 2),
        "position_p95_mm": round(float(np.percentile(position, 95)), 2),
        "angle_right_share": round(float(np.mean(tally.angle_right or [0])), 4),
        "tiles_found_median": int(np.median(tally.tiles_per_frame or [0]))}
    figures["busy"] = {"arms": len(tally.arms_covered),
                       "arms_covered_share": round(float(np.mean(tally.arms_covered or [0])), 4),
                       "armless_frames": len(tally.false_busy),
                       "false_busy_share": round(float(np.mean(tally.false_busy or [0])), 4)}
    print("rectified placement", figures["rectified_placement"])
    print("busy", figures["busy"])
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rigs", type=int, default=12)
    parser.add_argument("--frames", type=int, default=4)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--rectified-only", action="store_true",
                        help="leave out the generic path and mahjong-detector")
    args = parser.parse_args()
    tally, models, others = run(args)
    figures = report(tally, args)
    figures["frame_of_60"] = sixty_tiles(tally, models, others)
    print(json.dumps(figures))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
