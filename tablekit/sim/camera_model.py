"""The simulated camera: pinhole, pose above the table, OpenCV's radial/tangential distortion.

Everything the renderer draws and every ground-truth polygon goes through
:meth:`Camera.project`, so the truth is exactly where the pixels are.

>>> import numpy as np
>>> cam = Camera.overhead(1280, 720)
>>> cam.project(np.array([[0.0, 0.0, 0.0]])).round(1).tolist()
[[640.0, 360.0]]
>>> left, right = cam.project(np.array([[-100.0, 0, 0], [100.0, 0, 0]]))
>>> bool(right[0] > left[0])
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from tablekit.sim.geometry import TABLE_HALF


@dataclass(frozen=True)
class Camera:
    """Intrinsics ``(fx, fy, cx, cy)``, distortion ``(k1, k2, p1, p2, k3)`` and a pose:
    ``rotation`` (3x3, table to camera) and ``translation`` so that
    ``X_cam = rotation @ X_table + translation`` (millimetres)."""

    width: int
    height: int
    intrinsics: tuple[float, float, float, float]
    distortion: tuple[float, float, float, float, float]
    rotation: np.ndarray
    translation: np.ndarray

    @classmethod
    def overhead(cls, width: int = 1280, height: int = 720, height_mm: float = 1150.0,
                 fill: float = 0.95) -> Camera:
        """Straight down over the centre, seat 0 at the bottom, no distortion."""
        rotation = look_at(np.array([0.0, 0.0, height_mm]), np.zeros(3), 0.0)
        return fitted(width, height, rotation, np.array([0.0, 0.0, height_mm]),
                      (0.0,) * 5, fill, (0.0, 0.0))

    @property
    def centre(self) -> np.ndarray:
        """The camera's position on the table frame (mm)."""
        return -self.rotation.T @ self.translation

    @property
    def matrix(self) -> np.ndarray:
        fx, fy, cx, cy = self.intrinsics
        return np.array([[fx, 0, cx], [0, fy, cy], [0, 0, 1]], np.float64)

    def project(self, points: np.ndarray) -> np.ndarray:
        """Image pixels ``(N, 2)`` of table points ``(N, 3)`` in mm."""
        cam = np.asarray(points, np.float64) @ self.rotation.T + self.translation
        x, y = cam[:, 0] / cam[:, 2], cam[:, 1] / cam[:, 2]
        xd, yd = distort(x, y, self.distortion)
        fx, fy, cx, cy = self.intrinsics
        return np.stack([fx * xd + cx, fy * yd + cy], axis=1)

    def table_points(self, step: int = 8) -> tuple[np.ndarray, np.ndarray]:
        """Table ``(x, y)`` in mm seen at every pixel, as two float32 ``(H, W)`` maps
        (computed every ``step`` pixels and interpolated bilinearly)."""
        xs = np.arange(0, self.width + step, step, dtype=np.float64)
        ys = np.arange(0, self.height + step, step, dtype=np.float64)
        grid = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 1, 2)
        norm = cv2.undistortPoints(grid, self.matrix, np.array(self.distortion)).reshape(-1, 2)
        rays = np.concatenate([norm, np.ones((len(norm), 1))], axis=1) @ self.rotation
        origin = self.centre
        scale = -origin[2] / rays[:, 2]
        hits = (origin[None, :2] + rays[:, :2] * scale[:, None]).astype(np.float32)
        coarse = hits.reshape(len(ys), len(xs), 2)
        at_x, at_y = np.meshgrid(np.arange(self.width, dtype=np.float32) / step,
                                 np.arange(self.height, dtype=np.float32) / step)
        fine = cv2.remap(coarse, at_x, at_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return fine[..., 0], fine[..., 1]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``matrix`` (3x3), ``distortion``, ``rvec`` and ``tvec`` (OpenCV's)."""
        rvec, _ = cv2.Rodrigues(self.rotation)
        return {"width": self.width, "height": self.height,
                "matrix": np.round(self.matrix, 4).tolist(),
                "distortion": [round(float(d), 6) for d in self.distortion],
                "rvec": np.round(rvec.ravel(), 6).tolist(),
                "tvec": np.round(self.translation, 4).tolist()}


def distort(x: np.ndarray, y: np.ndarray, dist: tuple[float, ...]
            ) -> tuple[np.ndarray, np.ndarray]:
    """OpenCV's distortion model on normalised coordinates."""
    k1, k2, p1, p2, k3 = dist
    r2 = x * x + y * y
    radial = 1 + r2 * (k1 + r2 * (k2 + r2 * k3))
    xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
    yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
    return xd, yd


def look_at(position: np.ndarray, target: np.ndarray, roll: float) -> np.ndarray:
    """Rotation (table to camera) of a camera at ``position`` looking at ``target``,
    with table ``+y`` up in the image when ``roll`` is 0 (radians, counter-clockwise)."""
    forward = target - position
    forward = forward / np.linalg.norm(forward)
    up = np.array([-np.sin(roll), np.cos(roll), 0.0])
    down = -(up - forward * (up @ forward))
    down /= np.linalg.norm(down)
    right = np.cross(down, forward)
    return np.stack([right, down, forward])


def fitted(width: int, height: int, rotation: np.ndarray, position: np.ndarray,
           dist: tuple[float, ...], fill: float, shift: tuple[float, float]) -> Camera:
    """A camera whose focal length makes the felt fill ``fill`` of the tighter image side."""
    translation = -rotation @ position
    edge = np.linspace(-TABLE_HALF, TABLE_HALF, 9)
    ring = np.concatenate([np.stack([edge, np.full(9, s * TABLE_HALF)], 1) for s in (-1, 1)]
                          + [np.stack([np.full(9, s * TABLE_HALF), edge], 1) for s in (-1, 1)])
    cam = np.concatenate([ring, np.zeros((len(ring), 1))], 1) @ rotation.T + translation
    xd, yd = distort(cam[:, 0] / cam[:, 2], cam[:, 1] / cam[:, 2], dist)
    cx, cy = width / 2 + shift[0] * width, height / 2 + shift[1] * height
    focal = fill * min(min(cx, width - cx) / np.abs(xd).max(),
                       min(cy, height - cy) / np.abs(yd).max())
    return Camera(width, height, (focal, focal, cx, cy), tuple(float(d) for d in dist),
                  rotation, translation)


def random_camera(rng: np.random.Generator, width: int = 1280, height: int = 720,
                  quarter_turns: int | None = 0) -> Camera:
    """A plausible mounted camera: 1.0-1.3 m up, up to ~12 degrees off vertical, a little
    roll, barrel distortion; ``quarter_turns`` None picks which seat is at the bottom."""
    turns = int(rng.integers(4)) if quarter_turns is None else quarter_turns
    lift = rng.uniform(1000.0, 1300.0)
    direction = rng.uniform(0, 2 * np.pi)
    offset = rng.uniform(0.0, 0.2) * lift
    position = np.array([offset * np.cos(direction), offset * np.sin(direction), lift])
    target = np.array([rng.normal(0, 15), rng.normal(0, 15), 0.0])
    roll = turns * np.pi / 2 + np.radians(rng.normal(0, 1.5))
    rotation = look_at(position, target, roll)
    dist = (rng.uniform(-0.15, 0.02), rng.uniform(-0.02, 0.06), rng.normal(0, 0.0008),
            rng.normal(0, 0.0008), 0.0)
    shift = (rng.normal(0, 0.01), rng.normal(0, 0.01))
    return fitted(width, height, rotation, position, dist, rng.uniform(0.88, 0.98), shift)
