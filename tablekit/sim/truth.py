"""Ground truth of a rendered frame: every tile face the camera sees, where, and what.

Each visible tile has the polygon of its visible face in image pixels (top-left,
top-right, bottom-right, bottom-left of that face, so the order also gives its
orientation), its code in mpsz (``0m`` for a red five; None for a wall tile nobody
knows), ``label`` (the code when face up, ``back`` otherwise: the vision classes),
``zone`` (``pond``, ``meld``, ``wall``, ``dora``, ``hand``), its seat, its ``role``
(``riichi``, ``called``, ``added``, ``indicator``, ``ura``, ``drawn``, ``win``),
``orientation`` (degrees counter-clockwise of the face's top from image up) and
``visible`` (the share of the face's pixels not hidden by other tiles or arms).
Tiles hidden entirely are left out.

>>> poly = ((10.0, 0.0), (20.0, 0.0), (20.0, 14.0), (10.0, 14.0))
>>> orientation(poly), orientation(poly[1:] + poly[:1])
(0.0, 270.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from tablekit.files.readable_json import compact_json
from tablekit.sim.geometry import MARKER_CORNERS_MM
from tablekit.sim.render import DrawnTiles, truth_face
from tablekit.sim.scene import PlacedTile
from tablekit.sim.tile_geometry import FACE_POLYGONS

Point = tuple[float, float]


@dataclass(frozen=True)
class TileTruth:
    code: str | None
    label: str
    face_up: bool
    zone: str
    seat: int | None
    role: str | None
    posture: str
    sideways: bool
    polygon: tuple[Point, ...]
    orientation: float
    visible: float
    table_xy: Point

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["polygon"] = [list(p) for p in self.polygon]
        out["table_xy"] = list(self.table_xy)
        return out


@dataclass(frozen=True)
class FrameTruth:
    """Everything known about one frame."""

    width: int
    height: int
    tiles: tuple[TileTruth, ...]
    markers: dict[int, tuple[Point, ...]]
    """ArUco id -> its corners in the image (ArUco's order)."""
    sticks: tuple[dict[str, Any], ...] = ()
    arms: tuple[dict[str, Any], ...] = ()
    camera: dict[str, Any] = field(default_factory=dict)
    look: dict[str, Any] = field(default_factory=dict)
    conditions: dict[str, Any] = field(default_factory=dict)
    moment: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "width": self.width, "height": self.height, "moment": self.moment,
            "tiles": [t.to_dict() for t in self.tiles],
            "markers": [{"id": i, "corners": [list(p) for p in c],
                         "corners_mm": [list(p) for p in MARKER_CORNERS_MM[i]]}
                        for i, c in sorted(self.markers.items())],
            "sticks": list(self.sticks), "arms": list(self.arms), "camera": self.camera,
            "look": self.look, "conditions": self.conditions,
        }

    def to_json(self) -> str:
        """Indented JSON with each point (and each short list of numbers) on one line."""
        return compact_json(self.to_dict())


def orientation(polygon: Sequence[Point]) -> float:
    """Degrees, counter-clockwise, from image up to the top of the face."""
    tl, tr, br, bl = (np.asarray(p, np.float64) for p in polygon)
    up = (tl + tr) / 2 - (bl + br) / 2
    return round(math.degrees(math.atan2(-up[0], -up[1])) % 360, 2)


def tile_truths(tiles: Sequence[PlacedTile], drawn: DrawnTiles, ids: np.ndarray
                ) -> tuple[TileTruth, ...]:
    """The truth of every tile with at least one visible face pixel in ``ids``."""
    counts = np.bincount(ids.ravel(), minlength=len(tiles) + 1)[1:]
    out = []
    for index, tile in enumerate(tiles):
        seen = int(counts[index])
        if seen == 0 or drawn.full[index] == 0:
            continue
        corners = drawn.boxes.image[index][FACE_POLYGONS[truth_face(tile)]]
        polygon = tuple((round(float(x), 2), round(float(y), 2)) for x, y in corners)
        face_up = tile.posture == "up"
        out.append(TileTruth(
            code=tile.code, label=tile.code if face_up and tile.code else "back",
            face_up=face_up, zone=tile.zone, seat=tile.seat, role=tile.role,
            posture="standing" if tile.posture == "standing" else "flat",
            sideways=tile.sideways, polygon=polygon, orientation=orientation(polygon),
            visible=round(min(1.0, seen / drawn.full[index]), 3),
            table_xy=(round(tile.x, 1), round(tile.y, 1))))
    return tuple(out)
