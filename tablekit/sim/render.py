"""Drawing tiles: soft shadows on the felt, then each box far to near (painter's order),
sides in two shaded layers (ivory face side, coloured back), the face art warped onto
the front, and an id buffer that says which tile face owns each pixel.

>>> import numpy as np
>>> from tablekit.sim.camera_model import Camera
>>> from tablekit.sim.look import random_look
>>> from tablekit.sim.scene import PlacedTile, Scene
>>> camera = Camera.overhead(640, 360)
>>> look = random_look(np.random.default_rng(0), art="fallback")
>>> image = np.full((360, 640, 3), 60, np.uint8)
>>> scene = Scene((PlacedTile("0p", 0.0, 0.0, 0.0, np.pi / 2, "up", "pond", 0),))
>>> drawn = draw_tiles(image, scene.tiles, camera, look)
>>> drawn.full.tolist() == [int((drawn.ids == 1).sum())]
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from tablekit.sim.art import ArtSet, load_art
from tablekit.sim.camera_model import Camera
from tablekit.sim.look import Look
from tablekit.sim.scene import PlacedTile, Stick
from tablekit.sim.tile_geometry import FACE_POLYGONS, SIDE_BANDS, TileBoxes, project_tiles

SHIFT = 4
"""Sub-pixel bits for polygon drawing."""
STICK_SIZE = (100.0, 9.0, 3.0)


@dataclass(frozen=True)
class DrawnTiles:
    """``boxes`` as projected, ``ids`` (H, W) int16 (tile index + 1 owning the pixel's
    visible face, 0 for none) and ``full`` (N,) face pixels each tile had when drawn."""

    boxes: TileBoxes
    ids: np.ndarray
    full: np.ndarray


def fixed(points: np.ndarray) -> np.ndarray:
    """Pixel coordinates as OpenCV's fixed-point polygon points."""
    return np.round(np.asarray(points) * (1 << SHIFT)).astype(np.int32)


def shade(normal: np.ndarray, look: Look) -> float:
    """Brightness of a surface facing ``normal``, 1.0 for the felt's own orientation."""
    light = np.asarray(look.light)
    diffuse = 1 - look.ambient
    top = look.ambient + diffuse * light[2]
    return float((look.ambient + diffuse * max(0.0, float(normal @ light))) / top)


def draw_tiles(image: np.ndarray, tiles: Sequence[PlacedTile], camera: Camera, look: Look,
               boxes: TileBoxes | None = None) -> DrawnTiles:
    """Draw ``tiles`` onto ``image`` in place, far to near (``boxes``: already projected)."""
    boxes = boxes if boxes is not None else project_tiles(tiles, camera)
    ids = np.zeros(image.shape[:2], np.int16)
    full = np.zeros(len(tiles), np.int64)
    art = load_art(look.art)
    for index in np.argsort(-boxes.depth, kind="stable"):
        full[index] = _draw_one(image, ids, tiles[index], boxes, int(index), art, look)
    return DrawnTiles(boxes, ids, full)


def truth_face(tile: PlacedTile) -> int:
    """0 (front) for a face-up tile, 1 (back) for one face down or standing."""
    return 0 if tile.posture == "up" else 1


def _draw_one(image: np.ndarray, ids: np.ndarray, tile: PlacedTile, boxes: TileBoxes,
              index: int, art: ArtSet, look: Look) -> int:
    points, visible, normals = boxes.image[index], boxes.visible[index], boxes.normals[index]
    tint = 1 + 0.03 * math.sin(tile.x * 12.9898 + tile.y * 78.233 + tile.z)  # no two alike
    for side, (back_band, face_band) in enumerate(SIDE_BANDS):
        if visible[2 + side]:
            light = shade(normals[2 + side], look) * tint
            _fill(image, points[back_band], _scaled(look.back, light * 0.95))
            _fill(image, points[face_band], _scaled(art.ivory, light * 0.93))
    if visible[1]:
        _fill(image, points[FACE_POLYGONS[1]],
              _scaled(look.back, shade(normals[1], look) * tint))
    if visible[0]:
        _draw_face(image, points[FACE_POLYGONS[0]], tile.code, art)
    hull = cv2.convexHull(fixed(points).reshape(-1, 1, 2))
    cv2.fillConvexPoly(ids, hull, 0, cv2.LINE_8, SHIFT)
    face = truth_face(tile)
    if not visible[face]:
        return 0
    quad = fixed(points[FACE_POLYGONS[face]])
    cv2.fillConvexPoly(ids, quad, index + 1, cv2.LINE_8, SHIFT)
    return _count(ids, points[FACE_POLYGONS[face]], index + 1)


def _count(ids: np.ndarray, quad: np.ndarray, value: int) -> int:
    x0, y0 = np.maximum(np.floor(quad.min(0)).astype(int), 0)
    x1, y1 = np.ceil(quad.max(0)).astype(int) + 1
    return int(np.count_nonzero(ids[y0:y1, x0:x1] == value))


def _scaled(colour: tuple[int, int, int], factor: float) -> tuple[int, int, int]:
    blue, green, red = (int(min(255, c * factor)) for c in colour)
    return blue, green, red


def _fill(image: np.ndarray, polygon: np.ndarray, colour: tuple[int, int, int],
          edge: float = 0.8) -> None:
    """Fill a convex polygon with a slightly darker rim (the rounded edge of a tile)."""
    points = fixed(polygon)
    cv2.fillConvexPoly(image, points, colour, cv2.LINE_AA, SHIFT)
    if edge < 1:
        cv2.polylines(image, [points], True, _scaled(colour, edge), 1, cv2.LINE_AA, SHIFT)


def _draw_face(image: np.ndarray, quad: np.ndarray, code: str | None, art: ArtSet) -> None:
    """The face art warped onto ``quad`` (top-left, top-right, bottom-right, bottom-left)."""
    _fill(image, quad, art.ivory, edge=1.0)
    if code is None:
        return
    h, w = image.shape[:2]
    x0, y0 = np.maximum(np.floor(quad.min(0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(quad.max(0)).astype(int) + 1, (w, h))
    if x1 <= x0 or y1 <= y0:
        return
    across = max(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[2] - quad[3]))
    face = art.face(code, int(-(-across // 4) * 4))
    fh, fw = face.shape[:2]
    src = np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]]) - 0.5
    matrix = cv2.getPerspectiveTransform(src, np.float32(quad - [x0, y0]))
    roi = image[y0:y1, x0:x1]
    cv2.warpPerspective(face, matrix, (x1 - x0, y1 - y0), dst=roi, flags=cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_TRANSPARENT)
    cv2.polylines(image, [fixed(quad)], True, _scaled(art.ivory, 0.72), 1, cv2.LINE_AA, SHIFT)


def draw_sticks(image: np.ndarray, sticks: Sequence[Stick], camera: Camera
                ) -> list[np.ndarray]:
    """Riichi sticks: white, a red dot in the middle; returns their outlines (px)."""
    length, width, height = STICK_SIZE
    outlines = []
    for stick in sticks:
        c, s = np.cos(stick.yaw), np.sin(stick.yaw)
        corners = np.array([[sx * length / 2, sy * width / 2] for sx, sy in
                            ((-1, -1), (1, -1), (1, 1), (-1, 1))])
        xy = corners @ np.array([[c, s], [-s, c]]) + [stick.x, stick.y]
        top = camera.project(np.c_[xy, np.full(4, height)])
        _fill(image, top, (236, 240, 242), edge=0.85)
        centre = camera.project(np.array([[stick.x, stick.y, height]]))[0]
        radius = max(1, round(np.linalg.norm(top[1] - top[2]) * 0.35))
        cv2.circle(image, (round(centre[0]), round(centre[1])), radius,
                   (40, 40, 200), -1, cv2.LINE_AA)
        outlines.append(top)
    return outlines


def cast_shadows(image: np.ndarray, boxes: TileBoxes, sticks: Sequence[Stick],
                 camera: Camera, look: Look, scale: int = 4) -> None:
    """Darken the felt under and beside each tile, away from the light (in place)."""
    h, w = image.shape[:2]
    mask = np.zeros((h // scale + 1, w // scale + 1), np.uint8)
    light = np.asarray(look.light)
    if len(boxes.world):
        corners = boxes.world[:, :8].reshape(-1, 3)
        cast = corners - light[None, :] * (corners[:, 2:3] / light[2])
        shadow = camera.project(cast).reshape(-1, 8, 2) / scale
        foot = boxes.image[:, :8] / scale
        low = boxes.world[:, :8, 2].min(1) < 1.0
        for n in range(len(shadow)):
            _fill_small(mask, shadow[n], 150)
        for n in np.flatnonzero(low):
            _fill_small(mask, foot[n], 255)
    for stick in sticks:
        spot = camera.project(np.array([[stick.x, stick.y, 0.0]]))[0] / scale
        cv2.circle(mask, (int(spot[0]), int(spot[1])), 2, 120, -1)
    soft = cv2.GaussianBlur(mask, (0, 0), 1.6)
    full = cv2.resize(soft, (w, h), interpolation=cv2.INTER_LINEAR)
    factor = cv2.cvtColor(255 - (full.astype(np.float32) * look.shadow).astype(np.uint8),
                          cv2.COLOR_GRAY2BGR)
    cv2.multiply(image, factor, dst=image, scale=1 / 255)


def _fill_small(mask: np.ndarray, points: np.ndarray, value: int) -> None:
    hull = cv2.convexHull(fixed(points).reshape(-1, 1, 2))
    cv2.fillConvexPoly(mask, hull, value, cv2.LINE_AA, SHIFT)
