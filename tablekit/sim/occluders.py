"""Hands and arms over the table: a player reaching to discard, draw or call.

An arm is a chain of tapered segments in table millimetres (shoulder beyond the table
edge, elbow, wrist, palm, four fingers and a thumb) drawn through the camera with a
rounded shading and a soft shadow on the table; the pixels it covers are taken out
of the id buffer, so the ground truth knows which faces it hides.

>>> import numpy as np
>>> from tablekit.sim.camera_model import Camera
>>> arm = random_arm(np.random.default_rng(0), seat=0, target=(0.0, -150.0))
>>> image = np.full((360, 640, 3), 80, np.uint8)
>>> ids = np.ones((360, 640), np.int16)
>>> box = draw_arm(image, ids, Camera.overhead(640, 360), arm, (0.3, 0.2, 0.93))
>>> bool((ids == 0).any()), len(box)
(True, 4)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import cv2
import numpy as np

from tablekit.sim.camera_model import Camera
from tablekit.sim.effects import motion_kernel
from tablekit.sim.geometry import TABLE_HALF, seat_to_table, table_to_seat

SKINS = ((150, 180, 225), (120, 160, 210), (95, 130, 185), (70, 100, 150), (50, 70, 110),
         (170, 195, 235))
SLEEVES = ((40, 40, 40), (160, 110, 60), (60, 60, 150), (200, 200, 200), (50, 90, 50),
           (120, 120, 120), (40, 60, 110))


@dataclass(frozen=True)
class Arm:
    """An arm of ``seat`` whose fingertips reach ``target`` (table mm) at ``height`` mm."""

    seat: int
    target: tuple[float, float]
    height: float
    elbow_x: float
    """Where the elbow crosses the table edge, in the seat's frame (mm)."""
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]
    size: float
    """Scale of the arm (1.0 an average adult)."""
    motion: float = 0.0
    """Motion blur streak in pixels (a moving arm)."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def random_arm(rng: np.random.Generator, seat: int | None = None,
               target: tuple[float, float] | None = None) -> Arm:
    """A random player's arm reaching over the table (towards ``target`` when given)."""
    seat = int(rng.integers(4)) if seat is None else seat
    if target is None:
        target = seat_to_table(seat, rng.uniform(-250, 250), rng.uniform(-300, 80))
    return Arm(seat, (float(target[0]), float(target[1])), rng.uniform(40, 110),
               rng.uniform(-120, 200), SKINS[int(rng.integers(len(SKINS)))],
               SLEEVES[int(rng.integers(len(SLEEVES)))], rng.uniform(0.9, 1.12),
               rng.uniform(3, 9) if rng.random() < 0.4 else 0.0)


def arm_segments(arm: Arm) -> list[tuple[np.ndarray, np.ndarray, float, float, bool]]:
    """``(start, end, start radius, end radius, sleeve)`` in table mm."""
    local_target = _to_seat(arm.seat, arm.target)
    elbow = np.array([arm.elbow_x, -TABLE_HALF - 40.0])
    shoulder = np.array([arm.elbow_x * 1.3 + 60, -TABLE_HALF - 330.0])
    direction = local_target - elbow
    direction /= max(np.linalg.norm(direction), 1.0)
    side = np.array([-direction[1], direction[0]])
    s, h = arm.size, arm.height
    wrist = local_target - direction * 150 * s
    palm = local_target - direction * 85 * s
    parts = [(shoulder, 420.0, elbow, h + 150, 52, 44, True),
             (elbow, h + 150, wrist, h + 40, 42, 27, False),
             (wrist, h + 40, palm, h + 20, 30, 40, False)]
    for k, spread in enumerate((-27, -9, 9, 27)):
        base = palm + side * spread * s * 0.8 + direction * 30 * s
        tip = local_target + side * spread * s + direction * (-8 if k in (0, 3) else 0)
        parts.append((base, h + 15, tip, max(h - 25, 6.0), 9, 7.5, False))
    thumb = palm + side * 45 * s + direction * 25 * s
    parts.append((palm + side * 25 * s, h + 15, thumb, h, 11, 9, False))
    return [(_point(arm.seat, a, za), _point(arm.seat, b, zb), ra * s, rb * s, sleeve)
            for a, za, b, zb, ra, rb, sleeve in parts]


def _to_seat(seat: int, xy: tuple[float, float]) -> np.ndarray:
    return np.array(table_to_seat(seat, *xy), np.float64)


def _point(seat: int, local: np.ndarray, z: float) -> np.ndarray:
    x, y = seat_to_table(seat, float(local[0]), float(local[1]))
    return np.array([x, y, z])


def draw_arm(image: np.ndarray, ids: np.ndarray, camera: Camera, arm: Arm,
             light: tuple[float, float, float], shadow: float = 0.45) -> tuple[int, ...]:
    """Draw ``arm`` with its shadow (in place); returns its pixel box (x0, y0, x1, y1)."""
    segments = arm_segments(arm)
    _cast_shadow(image, camera, segments, np.asarray(light), shadow)
    flat = [_project_segment(camera, seg) for seg in segments]
    pts = np.concatenate([np.stack([a, b]) for a, b, *_ in flat])
    pad = max(max(ra, rb) for _, _, ra, rb, _ in flat) + 8
    h, w = image.shape[:2]
    x0, y0 = np.clip(np.floor(pts.min(0) - pad).astype(int), 0, [w, h])
    x1, y1 = np.clip(np.ceil(pts.max(0) + pad).astype(int), 0, [w, h])
    if x1 <= x0 or y1 <= y0:
        return (0, 0, 0, 0)
    skin, sleeve = (np.zeros((y1 - y0, x1 - x0), np.uint8) for _ in range(2))
    for a, b, ra, rb, is_sleeve in flat:
        _capsule(sleeve if is_sleeve else skin, a - [x0, y0], b - [x0, y0], ra, rb)
    skin[sleeve > 0] = 0
    alpha = _composite(image[y0:y1, x0:x1], (skin, sleeve), (arm.skin, arm.sleeve), arm)
    ids[y0:y1, x0:x1][alpha > 0.5] = 0
    return (int(x0), int(y0), int(x1), int(y1))


def _project_segment(camera: Camera, segment: tuple) -> tuple:
    start, end, ra, rb, sleeve = segment
    ends = camera.project(np.stack([start, end]))
    scale = [_px_per_mm(camera, p) for p in (start, end)]
    return ends[0], ends[1], ra * scale[0], rb * scale[1], sleeve


def _px_per_mm(camera: Camera, point: np.ndarray) -> float:
    depth = float((camera.rotation @ point + camera.translation)[2])
    return camera.intrinsics[0] / max(depth, 1.0)


def _capsule(mask: np.ndarray, a: np.ndarray, b: np.ndarray, ra: float, rb: float) -> None:
    """A tapered segment with round ends, anti-aliased."""
    d = b - a
    n = np.array([-d[1], d[0]]) / max(np.linalg.norm(d), 1e-6)
    quad = np.array([a + n * ra, b + n * rb, b - n * rb, a - n * ra])
    cv2.fillConvexPoly(mask, np.round(quad * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    for centre, radius in ((a, ra), (b, rb)):
        cv2.circle(mask, tuple(np.round(centre * 16).astype(int)), round(radius * 16),
                   255, -1, cv2.LINE_AA, 4)


def _composite(roi: np.ndarray, masks: tuple[np.ndarray, np.ndarray],
               colours: tuple[tuple[int, int, int], ...], arm: Arm) -> np.ndarray:
    """Blend the shaded skin and sleeve layers into ``roi``; returns the alpha."""
    layer = np.zeros(roi.shape, np.float32)
    total = np.zeros(roi.shape[:2], np.float32)
    for mask, colour in zip(masks, colours, strict=True):
        alpha = mask.astype(np.float32) / 255
        rounded = cv2.GaussianBlur(alpha, (0, 0), max(2.0, roi.shape[1] / 60))
        shading = 0.55 + 0.5 * np.clip(rounded, 0, 1)
        layer += (alpha * shading)[..., None] * np.asarray(colour, np.float32)
        total += alpha
    if arm.motion >= 1.5:
        kernel = motion_kernel(arm.motion, 0.3 + arm.seat * np.pi / 2)
        layer, total = cv2.filter2D(layer, -1, kernel), cv2.filter2D(total, -1, kernel)
    total = np.clip(total, 0, 1)
    out = roi.astype(np.float32) * (1 - total[..., None]) + layer
    roi[:] = np.clip(out, 0, 255).astype(np.uint8)
    return total


def _cast_shadow(image: np.ndarray, camera: Camera, segments: list, light: np.ndarray,
                 strength: float, scale: int = 4) -> None:
    h, w = image.shape[:2]
    mask = np.zeros((h // scale + 1, w // scale + 1), np.uint8)
    for start, end, ra, rb, _ in segments:
        ends = np.stack([start, end])
        on_table = ends - light[None, :] * (ends[:, 2:3] / light[2])
        a, b = camera.project(on_table) / scale
        k = [_px_per_mm(camera, np.array([p[0], p[1], 0.0])) / scale for p in on_table]
        _capsule(mask, a, b, ra * k[0], rb * k[1])
    soft = cv2.GaussianBlur(mask, (0, 0), 4.0)
    full = cv2.resize(soft, (w, h), interpolation=cv2.INTER_LINEAR)
    factor = cv2.cvtColor(255 - (full.astype(np.float32) * strength).astype(np.uint8),
                          cv2.COLOR_GRAY2BGR)
    cv2.multiply(image, factor, dst=image, scale=1 / 255)
