"""Tiles as boxes: their corners on the table, projected once for a whole scene.

A tile's own axes: ``u`` along the face's width (its right), ``v`` along the face's
height (its top), ``w`` out of the face. Twelve points a tile: the eight corners and
the four points where the ivory face layer meets the coloured back layer.

>>> import numpy as np
>>> from tablekit.sim.camera_model import Camera
>>> from tablekit.sim.scene import PlacedTile
>>> tile = PlacedTile("1m", 0.0, 0.0, 0.0, np.pi / 2, "up", "pond", 0)
>>> boxes = project_tiles([tile], Camera.overhead(1280, 720))
>>> boxes.image.shape, boxes.visible[0].tolist()
((1, 12, 2), [True, False, False, False, False, False])
>>> tl, tr, br, bl = boxes.image[0][FACE_POLYGONS[0]]
>>> bool(tr[0] > tl[0] and bl[1] > tl[1])
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tablekit.sim.camera_model import Camera
from tablekit.sim.geometry import BACK_LAYER, TILE_LENGTH, TILE_THICKNESS, TILE_WIDTH
from tablekit.sim.scene import PlacedTile

SPLIT = -1 + 2 * BACK_LAYER
"""Where the layers meet, in units of half the thickness from the centre."""


def _corner(su: int, sv: int, sw: int) -> int:
    return (su > 0) * 4 + (sv > 0) * 2 + (sw > 0)


def _split(su: int, sv: int) -> int:
    return 8 + (su > 0) * 2 + (sv > 0)


LOCAL = np.array([[su * TILE_WIDTH / 2, sv * TILE_LENGTH / 2, sw * TILE_THICKNESS / 2]
                  for su in (-1, 1) for sv in (-1, 1) for sw in (-1, 1)]
                 + [[su * TILE_WIDTH / 2, sv * TILE_LENGTH / 2, SPLIT * TILE_THICKNESS / 2]
                    for su in (-1, 1) for sv in (-1, 1)])
"""The twelve points in the tile's (u, v, w) frame, mm from its centre."""

FACE_NAMES = ("front", "back", "+u", "-u", "+v", "-v")
FACE_NORMALS = np.array([[0, 0, 1], [0, 0, -1], [1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0]],
                        np.float64)
FACE_POLYGONS = (
    [_corner(-1, 1, 1), _corner(1, 1, 1), _corner(1, -1, 1), _corner(-1, -1, 1)],
    [_corner(1, 1, -1), _corner(-1, 1, -1), _corner(-1, -1, -1), _corner(1, -1, -1)],
)
"""Front and back as seen from outside: top-left, top-right, bottom-right, bottom-left."""


def _bands(axis: int, sign: int) -> tuple[list[int], list[int]]:
    """The (back layer, face layer) quads of a side face."""
    def point(a: int, level: str) -> int:
        su, sv = (sign, a) if axis == 0 else (a, sign)
        if level == "split":
            return _split(su, sv)
        return _corner(su, sv, 1 if level == "face" else -1)
    back = [point(-1, "back"), point(1, "back"), point(1, "split"), point(-1, "split")]
    face = [point(-1, "split"), point(1, "split"), point(1, "face"), point(-1, "face")]
    return back, face


SIDE_BANDS = (_bands(0, 1), _bands(0, -1), _bands(1, 1), _bands(1, -1))
"""For the faces +u, -u, +v, -v: their two layer quads (point indices)."""
HALF_EXTENT = np.array([TILE_THICKNESS, TILE_THICKNESS, TILE_WIDTH, TILE_WIDTH, TILE_LENGTH,
                        TILE_LENGTH]) / 2


@dataclass(frozen=True)
class TileBoxes:
    """A scene's tiles projected: ``image`` (N, 12, 2) px, ``world`` (N, 12, 3) mm,
    ``normals`` (N, 6, 3), ``visible`` (N, 6) faces turned to the camera, ``depth`` (N,)."""

    image: np.ndarray
    world: np.ndarray
    normals: np.ndarray
    visible: np.ndarray
    depth: np.ndarray


def tile_axes(tiles: Sequence[PlacedTile]) -> tuple[np.ndarray, np.ndarray]:
    """``(axes (N, 3, 3) rows u, v, w; centres (N, 3))`` on the table."""
    yaw = np.array([t.yaw for t in tiles], np.float64)
    d = np.stack([np.cos(yaw), np.sin(yaw), np.zeros_like(yaw)], 1)
    z = np.tile([0.0, 0.0, 1.0], (len(tiles), 1))
    posture = np.array([t.posture for t in tiles])
    standing = (posture == "standing")[:, None]
    w = np.where(standing, -d, np.where((posture == "up")[:, None], z, -z))
    v = np.where(standing, z, d)
    u = np.cross(v, w)
    lift = np.where(standing[:, 0], TILE_LENGTH, TILE_THICKNESS) / 2
    centres = np.array([[t.x, t.y, t.z] for t in tiles], np.float64).reshape(-1, 3)
    centres[:, 2] += lift
    return np.stack([u, v, w], 1), centres


def project_tiles(tiles: Sequence[PlacedTile], camera: Camera) -> TileBoxes:
    """Project every tile's twelve points in one go and find the faces the camera sees."""
    if not tiles:
        empty = np.zeros((0, 12, 2))
        return TileBoxes(empty, np.zeros((0, 12, 3)), np.zeros((0, 6, 3)),
                         np.zeros((0, 6), bool), np.zeros(0))
    axes, centres = tile_axes(tiles)
    world = centres[:, None, :] + np.einsum("pk,nkj->npj", LOCAL, axes)
    image = camera.project(world.reshape(-1, 3)).reshape(len(tiles), 12, 2)
    normals = np.einsum("fk,nkj->nfj", FACE_NORMALS, axes)
    face_centres = centres[:, None, :] + normals * HALF_EXTENT[None, :, None]
    to_camera = camera.centre[None, None, :] - face_centres
    visible = np.einsum("nfj,nfj->nf", normals, to_camera) > 1e-6
    depth = np.linalg.norm(camera.centre[None, :] - centres, axis=1)
    return TileBoxes(image, world, normals, visible, depth)
