"""Training data from the simulated table (no torch here): rectified top-down views and
their tiles, rendered on the fly from seeded rigs playing real Tenhou logs.

Each rig (a seed: table look, art set, camera, light, players) plays one log; it is
calibrated the way a real table is (:func:`tablekit.vision.calibration.calibrate` on two
frames), then random moments of the game are rendered (arms over the table in about half
of them, the rig's camera effects drifting) and warped to the 0.8 px/mm view the reader
uses. Each tile's face polygon is mapped to the view through the fitted camera.

Logs: every log under ``../shared/data/tenhou/logs`` but those of
``MahjongRepository+tenhou-python-bot`` (the committed fixture's source: held out for the
benchmarks), or the fixture alone when ``../shared`` is absent. Seeds from 1000 up
(benchmarks use seeds below 1000).

Used by ``python -m training table`` and ``retrain`` (:func:`rig_job` in worker processes),
``python -m training red-fives`` and ``benchmarks/classifier_sim.py``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np

from tablekit.sim.script import Script
from tablekit.sim.source import SimulatedCamera
from tablekit.sim.truth import FrameTruth, TileTruth
from tablekit.vision.calibration import CalibrationError, Profile, calibrate
from tablekit.vision.classes import class_index
from tablekit.vision.rectify import TableView

ROOT = Path(__file__).resolve().parents[1]
FIXTURE_LOG = ROOT / "tablekit" / "data" / "tenhou-python-bot-28.xml"
HELD_OUT_SOURCE = "MahjongRepository+tenhou-python-bot"
TILE_FIELDS = 9
"""Per tile: frame, x0, y0, x1, y1 (view px), class index, standing, visible, angle (deg)."""
FACE_Z = 20.0


def game_logs(data: Path, held_out: bool = False) -> list[Path]:
    """Training logs (or, with ``held_out``, the benchmark's) under ``data/tenhou/logs``."""
    root = data / "tenhou" / "logs"
    if not root.is_dir():
        return [FIXTURE_LOG]
    logs = sorted(p for p in root.glob("*/*") if p.is_file())
    picked = [p for p in logs if (p.parent.name == HELD_OUT_SOURCE) == held_out]
    return picked or [FIXTURE_LOG]


def face_angle(quad: np.ndarray) -> float:
    """Degrees counter-clockwise from view up to the top of a (tl, tr, br, bl) face quad.

    >>> face_angle(np.array([[0, 0], [10, 0], [10, 14], [0, 14]], float))
    0.0
    >>> face_angle(np.array([[0, 10], [0, 0], [14, 0], [14, 10]], float))
    90.0
    """
    up = (quad[0] + quad[1]) / 2 - (quad[2] + quad[3]) / 2
    return float(np.degrees(np.arctan2(-up[0], -up[1])) % 360)


def view_tile(tile: TileTruth, profile: Profile, view: TableView) -> np.ndarray:
    """One truth tile as a pack row (frame index left 0)."""
    table = profile.camera.to_table(np.asarray(tile.polygon, np.float64), z=FACE_Z)
    quad = view.to_view(table)
    return np.array([0, *quad.min(0), *quad.max(0), class_index(tile.label),
                     tile.posture == "standing", tile.visible, face_angle(quad)], np.float32)


def view_tiles(truth: FrameTruth, profile: Profile, view: TableView) -> np.ndarray:
    rows = [view_tile(tile, profile, view) for tile in truth.tiles]
    return np.stack(rows) if rows else np.zeros((0, TILE_FIELDS), np.float32)


Picks = Callable[[Script, np.random.Generator], list[tuple[int, float]]]
"""Which moments of a script to render: (moment index, progress) pairs."""


def rig_views(log: Path, seed: int, frames: int, art: str | None = None,
              picks: Picks | None = None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """``frames`` (view, tiles) pairs of one rig playing ``log`` at random moments (``art``:
    force a tile set; ``picks``: choose the moments instead)."""
    rng = np.random.default_rng(seed)
    camera = SimulatedCamera(Script.from_log(log), seed=seed, art=art)
    count = len(camera.script.moments)
    profile = calibrate([camera.render_moment(0, 1.0).image,
                         camera.render_moment(min(1, count - 1), 1.0).image])
    view = TableView(profile.camera)
    chosen = picks(camera.script, rng) if picks is not None else [
        (int(rng.integers(count)), float(rng.uniform(0.0, 1.0))) for _ in range(frames)]
    for index, progress in chosen:
        frame = camera.render_moment(index, progress)
        yield view.warp(frame.image), view_tiles(frame.truth, profile, view)


def rig_job(job: tuple) -> list[tuple[np.ndarray, np.ndarray]]:
    """A worker's share, ``(log, seed, frames[, art[, picks]])``: one rig's views, or none
    when its log or markers fail."""
    log, seed, frames, *rest = job
    try:
        return list(rig_views(log, seed, frames, *rest))
    except (CalibrationError, ValueError, KeyError, IndexError) as error:
        print(f"rig {seed} ({log.name}) skipped: {error}", file=sys.stderr)
        return []


# --- raw camera frames for the photo models (``python -m training pack --sim-rigs N``) ----

def frame_labels(truth: FrameTruth) -> tuple[np.ndarray, tuple[str, ...]]:
    """Normalised boxes and codes (``back`` for face-down) of the flat tiles mostly seen."""
    boxes, codes = [], []
    for tile in truth.tiles:
        if tile.posture != "flat" or tile.visible < 0.5:
            continue
        quad = np.asarray(tile.polygon, np.float64)
        boxes.append([*quad.min(0) / (truth.width, truth.height),
                      *quad.max(0) / (truth.width, truth.height)])
        codes.append(tile.label)
    return np.clip(np.array(boxes, np.float32).reshape(-1, 4), 0, 1), tuple(codes)


def sim_photos(data: Path, folder: Path, rigs: int, frames: int, first_seed: int = 1000
               ) -> list:
    """Sim frames written as JPEGs under ``folder``, as photo-set records (one group a rig)."""
    from tablekit.vision.datasets import LabelledImage

    folder.mkdir(parents=True, exist_ok=True)
    logs, rng, out = game_logs(data), np.random.default_rng(first_seed), []
    for seed in range(first_seed, first_seed + rigs):
        log = logs[int(rng.integers(len(logs)))]
        try:
            camera = SimulatedCamera(Script.from_log(log), seed=seed)
        except (ValueError, KeyError, IndexError):
            continue
        count = len(camera.script.moments)
        for k in range(frames):
            frame = camera.render_moment(int(rng.integers(count)), float(rng.uniform(0, 1)))
            path = folder / f"sim_{seed}_{k}.jpg"
            cv2.imwrite(str(path), frame.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
            boxes, codes = frame_labels(frame.truth)
            out.append(LabelledImage(path, "sim", f"sim_{seed}", boxes, codes))
    return out
