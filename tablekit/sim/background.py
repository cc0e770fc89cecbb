"""The empty table: felt, wooden rim, floor, centre panel and ArUco markers, drawn once
as a texture in table millimetres and mapped through the camera.

>>> import numpy as np
>>> from tablekit.sim.camera_model import Camera
>>> from tablekit.sim.look import random_look
>>> rng = np.random.default_rng(0)
>>> texture = table_texture(random_look(rng, art="fallback"), rng)
>>> texture.shape
(1400, 1400, 3)
>>> image = background_image(Camera.overhead(320, 180), texture, (40, 40, 40))
>>> image.shape, image.dtype
((180, 320, 3), dtype('uint8'))
"""

from __future__ import annotations

import cv2
import numpy as np

from tablekit.sim.camera_model import Camera
from tablekit.sim.geometry import (
    CENTRE_HALF,
    MARKER_CENTRES_MM,
    MARKER_CORNERS_MM,
    MARKER_DICTIONARY,
    MARKER_MARGIN,
    MARKER_SIZE,
    RIM_WIDTH,
    TABLE_HALF,
)
from tablekit.sim.look import Look

TEXTURE_HALF = 700.0
"""The texture covers table x and y in -700..700 mm, at one pixel a millimetre; beyond it
lies plain floor."""
TEXTURE_SCALE = 1.0


def to_texture(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Texture (column, row) of table points in mm (pixel centres at integers)."""
    return (x + TEXTURE_HALF) * TEXTURE_SCALE - 0.5, (TEXTURE_HALF - y) * TEXTURE_SCALE - 0.5


def table_texture(look: Look, rng: np.random.Generator) -> np.ndarray:
    """The table top as a BGR texture (rows go towards -y)."""
    size = int(2 * TEXTURE_HALF * TEXTURE_SCALE)
    grain = rng.standard_normal((size, size), dtype=np.float32)
    x, y = _coords(size)
    rim = _square(x, y, TABLE_HALF + RIM_WIDTH)
    felt = _square(x, y, TABLE_HALF)
    out = _floor(look, grain)
    out[rim] = _wood(look, grain, rng, np.abs(x) > np.abs(y))[rim]
    out[felt] = _felt(look, grain, rng)[felt]
    if look.panel:
        _panel(out, rng)
    _markers(out)
    return out


def _coords(size: int) -> tuple[np.ndarray, np.ndarray]:
    centres = (np.arange(size, dtype=np.float32) + 0.5) / TEXTURE_SCALE - TEXTURE_HALF
    return np.meshgrid(centres, -centres)


def _square(x: np.ndarray, y: np.ndarray, half: float) -> np.ndarray:
    return (np.abs(x) <= half) & (np.abs(y) <= half)


def _shade(colour: tuple[int, int, int], factor: np.ndarray) -> np.ndarray:
    out = factor[..., None] * np.asarray(colour, np.float32)[None, None, :]
    return np.clip(out, 0, 255).astype(np.uint8)


def _blotches(rng: np.random.Generator, size: int, cells: int, amount: float) -> np.ndarray:
    small = rng.standard_normal((cells, cells)).astype(np.float32)
    return 1 + amount * cv2.resize(small, (size, size), interpolation=cv2.INTER_CUBIC)


def _felt(look: Look, grain: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    fibres = cv2.GaussianBlur(grain, (0, 0), 0.7)
    factor = _blotches(rng, grain.shape[0], 12, 0.03) + fibres * look.felt_grain / 100
    return _shade(look.felt, factor)


def _wood(look: Look, grain: np.ndarray, rng: np.random.Generator, sideways: np.ndarray
          ) -> np.ndarray:
    size = grain.shape[0]
    streaks = cv2.resize(rng.standard_normal((size, 24)).astype(np.float32), (size, size),
                         interpolation=cv2.INTER_CUBIC)
    # ``streaks`` barely changes along x: the grain of the top and bottom rails; its
    # transpose runs along y, for the left and right rails.
    factor = np.where(sideways, streaks.T, streaks) * 0.05 + 1 + grain * 0.015
    return _shade(look.rim, factor)


def _floor(look: Look, grain: np.ndarray) -> np.ndarray:
    return _shade(look.floor, 1 + cv2.GaussianBlur(grain, (0, 0), 2.0) * 0.15)


def _panel(out: np.ndarray, rng: np.random.Generator) -> None:
    """An automatic table's centre: dark plastic, four score windows, the dice hole."""
    lo, hi = _px(-CENTRE_HALF), _px(CENTRE_HALF)
    cv2.rectangle(out, (lo, lo), (hi, hi), (44, 44, 46), -1)
    cv2.rectangle(out, (lo, lo), (hi, hi), (78, 78, 80), 2)
    centre = _px(0.0)
    cv2.circle(out, (centre, centre), 26, (30, 30, 32), -1)
    digit = (40, 60, 230)
    for side in range(4):
        window = np.array([[-22, -62], [22, -62], [22, -50], [-22, -50]], np.float32)
        angle = side * np.pi / 2
        rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        corners = window @ rot.T
        pts = np.stack(to_texture(corners[:, 0], corners[:, 1]), 1).round().astype(np.int32)
        cv2.fillConvexPoly(out, pts, (20, 24, 30))
        for k in range(int(rng.integers(3, 6))):
            at = (window[0] + [6 + k * 8, 3]) @ rot.T
            cx, cy = to_texture(np.array([at[0]]), np.array([at[1]]))
            cv2.circle(out, (int(cx[0]), int(cy[0])), 2, digit, -1)


def _px(mm: float) -> int:
    return round((mm + TEXTURE_HALF) * TEXTURE_SCALE)


def _markers(out: np.ndarray) -> None:
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, MARKER_DICTIONARY))
    side = round(MARKER_SIZE * TEXTURE_SCALE)
    margin = round(MARKER_MARGIN * TEXTURE_SCALE)
    for marker_id in MARKER_CENTRES_MM:
        image = cv2.aruco.generateImageMarker(dictionary, marker_id, side)
        left, top = MARKER_CORNERS_MM[marker_id][0]  # top-left corner (x, y) in mm
        col, row = _px(left), round((TEXTURE_HALF - top) * TEXTURE_SCALE)
        out[row - margin:row + side + margin, col - margin:col + side + margin] = 235
        out[row:row + side, col:col + side] = image[:, :, None]


def background_image(camera: Camera, texture: np.ndarray, floor: tuple[int, int, int]
                     ) -> np.ndarray:
    """The empty table as ``camera`` sees it (lens distortion included)."""
    x, y = camera.table_points()
    map_x, map_y = to_texture(x, y)
    fixed = cv2.convertMaps(map_x.astype(np.float32), map_y.astype(np.float32), cv2.CV_16SC2)
    return cv2.remap(texture, fixed[0], fixed[1], cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=floor)


def marker_corners_image(camera: Camera) -> dict[int, np.ndarray]:
    """Each marker's four corners in image pixels, in ArUco's corner order."""
    out = {}
    for marker_id, corners in MARKER_CORNERS_MM.items():
        points = np.array([[x, y, 0.0] for x, y in corners])
        out[marker_id] = camera.project(points)
    return out
