"""The camera over the table as calibration estimates it: a pinhole with two radial
distortion terms, posed above the table plane.

:func:`fit_camera` fits it by Levenberg-Marquardt to the 16 marker corners and, when given,
points of the felt's straight edges (:mod:`tablekit.vision.felt_edges`): focal length,
``k1``, ``k2``, principal point and pose, with weak priors on the focal length, on ``k2`` and
on the principal point (near the image centre). A camera looking straight down cannot tell
its height from its focal length: the map of the table plane does not depend on that, the
parallax of a tile's face only a little. A plain homography cannot follow the lens's barrel
distortion: on the simulated cameras it is off by up to 14 mm between the markers.

>>> camera = TableCamera(1280, 720, 800.0, -0.05, (640.0, 360.0), (np.pi, 0.0, 0.0),
...                      (0.0, 0.0, 1150.0), k2=0.01)
>>> camera.project(np.array([[0.0, 0.0, 0.0]])).round(1).tolist()
[[640.0, 360.0]]
>>> xy = camera.to_table(camera.project(np.array([[300.0, -200.0, 0.0]])))
>>> bool(np.abs(xy - [[300.0, -200.0]]).max() < 1e-6)
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from tablekit.vision.layout import DEFAULT_LAYOUT

FOCAL_PRIOR = 0.62
"""Focal length a priori, in image widths (a 78-degree horizontal field of view)."""
FOCAL_PRIOR_SIGMA = 0.5
"""The prior's spread on log focal length: weak, it only matters looking straight down."""
CENTRE_PRIOR_SIGMA = 0.012
"""The principal point's spread around the image centre, in image widths."""
K2_PRIOR_SIGMA = 0.05
EDGE_OUTLIER_PX = 2.5
"""Edge points further than this from their line after a first fit are dropped."""
LINE_PRIOR_SIGMA = 20.0
"""Each straight edge's place (mm) is free near where the layout says: only its straightness
counts (a real felt need not be exactly the simulated table's size)."""
STEPS = np.array([1e-5, 1e-6, 1e-3, 1e-3, 1e-6, 1e-6, 1e-6, 1e-3, 1e-3, 1e-3, 1e-6,
                  1e-3, 1e-3, 1e-3, 1e-3])
"""Finite-difference steps of the parameters (log f, k1, cx, cy, rvec, tvec, k2, and the
places of the four edge lines)."""


@dataclass(frozen=True)
class TableCamera:
    """``focal`` and ``centre_px`` in pixels, ``k1`` and ``k2`` (OpenCV's, on normalised
    coordinates), ``rvec``/``tvec``: OpenCV's pose, table mm to camera."""

    width: int
    height: int
    focal: float
    k1: float
    centre_px: tuple[float, float]
    rvec: tuple[float, float, float]
    tvec: tuple[float, float, float]
    k2: float = 0.0

    @property
    def matrix(self) -> np.ndarray:
        cx, cy = self.centre_px
        return np.array([[self.focal, 0, cx], [0, self.focal, cy], [0, 0, 1]], np.float64)

    @property
    def distortion(self) -> np.ndarray:
        return np.array([self.k1, self.k2, 0.0, 0.0, 0.0])

    @property
    def rotation(self) -> np.ndarray:
        return cv2.Rodrigues(np.asarray(self.rvec, np.float64))[0]

    @property
    def centre(self) -> np.ndarray:
        """Where the camera is, in table mm (x, y, height above the felt)."""
        return -self.rotation.T @ np.asarray(self.tvec, np.float64)

    def project(self, points: np.ndarray) -> np.ndarray:
        """Image pixels (N, 2) of table points (N, 3) in mm."""
        points = np.asarray(points, np.float64).reshape(-1, 1, 3)
        out, _ = cv2.projectPoints(points, np.asarray(self.rvec, np.float64),
                                   np.asarray(self.tvec, np.float64), self.matrix,
                                   self.distortion)
        return out.reshape(-1, 2)

    def to_table(self, pixels: np.ndarray, z: float = 0.0) -> np.ndarray:
        """Table (x, y) mm (N, 2) on the plane at height ``z`` seen at image ``pixels``."""
        pixels = np.asarray(pixels, np.float64).reshape(-1, 1, 2)
        criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 60, 1e-12)
        norm = cv2.undistortPoints(pixels, self.matrix, self.distortion,
                                   criteria=criteria).reshape(-1, 2)
        rays = np.concatenate([norm, np.ones((len(norm), 1))], axis=1) @ self.rotation
        origin = self.centre
        scale = (z - origin[2]) / rays[:, 2]
        return origin[None, :2] + rays[:, :2] * scale[:, None]

    def to_dict(self) -> dict[str, Any]:
        return {"width": self.width, "height": self.height, "focal": round(self.focal, 4),
                "k1": round(self.k1, 7), "k2": round(self.k2, 7),
                "centre_px": [round(v, 4) for v in self.centre_px],
                "rvec": [round(v, 8) for v in self.rvec], "tvec": [round(v, 5) for v in self.tvec]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableCamera:
        def floats(key: str) -> tuple[float, ...]:
            return tuple(float(v) for v in data[key])
        return cls(int(data["width"]), int(data["height"]), float(data["focal"]),
                   float(data["k1"]), floats("centre_px"), floats("rvec"),  # type: ignore[arg-type]
                   floats("tvec"), float(data.get("k2", 0.0)))  # type: ignore[arg-type]


EdgePoints = tuple[np.ndarray, np.ndarray, np.ndarray]
"""Image points (N, 2) on straight table lines, the axis each fixes (0: x, 1: y), and that
coordinate's value as the layout has it (mm)."""
NO_EDGES: EdgePoints = (np.zeros((0, 2)), np.zeros(0, np.int64), np.zeros(0))
def felt_lines(half: float) -> np.ndarray:
    """The felt's four edges (x = -half, x = half, y = -half, y = half) as values, in the
    order :func:`line_index` numbers them."""
    return np.array([-half, half, -half, half])


LINES = felt_lines(DEFAULT_LAYOUT.table_half)
"""The felt's edges as the layout has them: x = -480, x = 480, y = -480, y = 480."""


def line_index(axes: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Which of the four LINES each (axis, value) is.

    >>> line_index(np.array([0, 1, 1]), np.array([480.0, -480.0, 480.0])).tolist()
    [1, 2, 3]
    """
    return np.asarray(axes) * 2 + (np.asarray(values) > 0)


@dataclass(frozen=True)
class _Problem:
    """The fit's data: image size, table points (N, 3), image points (N, 2), prior focal,
    edge points and the scale (px per mm) their residuals are weighed at."""

    size: tuple[int, int]
    table: np.ndarray
    image: np.ndarray
    log_focal: float
    edges: EdgePoints = NO_EDGES
    px_per_mm: float = 0.7
    lines: np.ndarray = field(default_factory=lambda: LINES)
    """Where the felt's edges lie a priori (mm)."""

    def camera(self, p: np.ndarray) -> TableCamera:
        return TableCamera(self.size[0], self.size[1], float(np.exp(p[0])), float(p[1]),
                           (self.size[0] / 2 + p[2], self.size[1] / 2 + p[3]),
                           tuple(p[4:7].tolist()), tuple(p[7:10].tolist()),
                           float(p[10]))

    def edge_residuals(self, camera: TableCamera, lines: np.ndarray) -> np.ndarray:
        """How far (px) each edge point is from its line (``lines``: the four lines' places
        in mm, as :func:`line_index` numbers them), through ``camera``."""
        points, axes, values = self.edges
        if not len(points):
            return np.zeros(0)
        table = camera.to_table(points)
        place = lines[line_index(axes, values)]
        return (table[np.arange(len(axes)), axes] - place) * self.px_per_mm

    def residuals(self, p: np.ndarray) -> np.ndarray:
        camera = self.camera(p)
        projected = camera.project(self.table)
        priors = [(p[0] - self.log_focal) / FOCAL_PRIOR_SIGMA,
                  *(p[2:4] / (CENTRE_PRIOR_SIGMA * self.size[0])), p[10] / K2_PRIOR_SIGMA,
                  *((p[11:15] - self.lines) / LINE_PRIOR_SIGMA)]
        return np.concatenate([(projected - self.image).ravel(),
                               self.edge_residuals(camera, p[11:15]), priors])

    def jacobian(self, p: np.ndarray, base: np.ndarray) -> np.ndarray:
        columns = []
        for i, step in enumerate(STEPS):
            moved = p.copy()
            moved[i] += step
            columns.append((self.residuals(moved) - base) / step)
        return np.stack(columns, axis=1)

    def start(self) -> np.ndarray:
        """The pose for the prior focal length, no distortion (planar PnP)."""
        first = self.camera(np.concatenate([[self.log_focal], np.zeros(10)]))
        _, rvec, tvec = cv2.solvePnP(self.table.reshape(-1, 1, 3), self.image.reshape(-1, 1, 2),
                                     first.matrix, None, flags=cv2.SOLVEPNP_IPPE)
        return np.concatenate([[self.log_focal, 0.0, 0.0, 0.0], rvec.ravel(), tvec.ravel(),
                               [0.0], self.lines])


def levenberg_marquardt(problem: _Problem, p: np.ndarray, iterations: int = 100) -> np.ndarray:
    """Minimise the squared residuals of ``problem`` from ``p``."""
    damping = 1e-3
    base = problem.residuals(p)
    cost = float(base @ base)
    for _ in range(iterations):
        jac = problem.jacobian(p, base)
        normal = jac.T @ jac
        step = np.linalg.solve(normal + damping * np.diag(np.diag(normal) + 1e-12), -jac.T @ base)
        trial_base = problem.residuals(p + step)
        trial_cost = float(trial_base @ trial_base)
        if trial_cost < cost:
            p, base, damping = p + step, trial_base, damping / 3
            if cost - trial_cost < 1e-10 * max(cost, 1e-12):
                break
            cost = trial_cost
        else:
            damping *= 4
            if damping > 1e8:
                break
    return p


def fit_camera(image_points: np.ndarray, table_points: np.ndarray, size: tuple[int, int],
               edges: EdgePoints = NO_EDGES, half: float = DEFAULT_LAYOUT.table_half
               ) -> TableCamera:
    """The camera that best maps ``table_points`` (N, 2) mm on the felt to
    ``image_points`` (N, 2) px and puts the ``edges`` points on their lines; ``size`` is the
    image's (width, height), ``half`` half the felt's side (mm). Edge points far off their
    line after a first fit are dropped."""
    image = np.asarray(image_points, np.float64).reshape(-1, 2)
    table = np.concatenate([np.asarray(table_points, np.float64).reshape(-1, 2),
                            np.zeros((len(image), 1))], axis=1)
    lines = felt_lines(half)
    problem = _Problem(size, table, image, float(np.log(FOCAL_PRIOR * size[0])), lines=lines)
    p = levenberg_marquardt(problem, problem.start())
    if not len(edges[0]):
        return problem.camera(p)
    camera = problem.camera(p)
    scale = camera.focal / max(float(camera.tvec[2]), 1.0)
    for _ in range(2):
        problem = _Problem(size, table, image, problem.log_focal, edges, scale, lines)
        keep = np.abs(problem.edge_residuals(camera, p[11:15])) <= EDGE_OUTLIER_PX
        edges = (edges[0][keep], edges[1][keep], edges[2][keep])
        problem = _Problem(size, table, image, problem.log_focal, edges, scale, lines)
        p = levenberg_marquardt(problem, p)
        camera = problem.camera(p)
    return camera


def reprojection_error(camera: TableCamera, image_points: np.ndarray,
                       table_points: np.ndarray) -> float:
    """Root-mean-square distance (px) between found and projected points."""
    table = np.asarray(table_points, np.float64).reshape(-1, 2)
    table3 = np.concatenate([table, np.zeros((len(table), 1))], axis=1)
    diff = camera.project(table3) - np.asarray(image_points, np.float64).reshape(-1, 2)
    return float(np.sqrt((diff ** 2).sum(1).mean()))
