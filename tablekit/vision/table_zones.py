"""The table's zones as polygons in table mm: each seat's pond, the wall ring (dead wall,
dora and ura indicators included: where the dead wall lies changes every hand), and each
seat's hand with its melds. Derived from the table's layout
(:class:`tablekit.vision.layout.TableLayout`); a calibration profile stores them with their
image outlines.

>>> zones = table_zones()
>>> [z.name for z in zones][:5]
['pond:0', 'pond:1', 'pond:2', 'pond:3', 'hand:0']
>>> zone_at(zones, (0.0, -150.0)).name, zone_at(zones, (270.0, 0.0)).name
('pond:0', 'wall')
>>> zone_at(zones, (0.0, 0.0)) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tablekit.vision.layout import DEFAULT_LAYOUT, TableLayout, seat_to_table

Point = tuple[float, float]
SEATS = 4


@dataclass(frozen=True)
class Zone:
    """A named area of the table: ``polygon`` (mm, counter-clockwise), ``hole`` inside it
    that is not part of it (the wall ring's middle), ``seat`` None for a shared zone."""

    name: str
    kind: str
    seat: int | None
    polygon: tuple[Point, ...]
    hole: tuple[Point, ...] = ()

    def contains(self, xy: Point) -> bool:
        return _inside(self.polygon, xy) and not (self.hole and _inside(self.hole, xy))

    def corners(self) -> np.ndarray:
        """Every corner (outline and hole) as an (N, 2) array."""
        return np.array([*self.polygon, *self.hole], np.float64)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "seat": self.seat,
                "polygon": [list(p) for p in self.polygon], "hole": [list(p) for p in self.hole]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Zone:
        return cls(data["name"], data["kind"], data["seat"],
                   tuple((float(x), float(y)) for x, y in data["polygon"]),
                   tuple((float(x), float(y)) for x, y in data.get("hole", ())))


def _inside(polygon: Sequence[Point], xy: Point) -> bool:
    """Even-odd rule point-in-polygon test."""
    x, y = xy
    inside = False
    for (x0, y0), (x1, y1) in zip(polygon, [*polygon[1:], polygon[0]], strict=True):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def _seat_box(seat: int, box: tuple[float, float, float, float]) -> tuple[Point, ...]:
    x0, y0, x1, y1 = box
    corners = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    return tuple(tuple(round(v, 3) for v in seat_to_table(seat, x, y)) for x, y in corners)  # type: ignore[misc]


def _square(half: float) -> tuple[Point, ...]:
    return ((-half, -half), (half, -half), (half, half), (-half, half))


def table_zones(layout: TableLayout = DEFAULT_LAYOUT) -> tuple[Zone, ...]:
    """Every zone: ``pond:S`` and ``hand:S`` for the four seats and the ``wall`` ring."""
    boxes = layout.zone_boxes
    ponds = [Zone(f"pond:{s}", "pond", s, _seat_box(s, boxes["pond"])) for s in range(SEATS)]
    hands = [Zone(f"hand:{s}", "hand", s, _seat_box(s, boxes["hand"])) for s in range(SEATS)]
    _, outer, _, inner = boxes["wall"]
    wall = Zone("wall", "wall", None, _square(-outer), _square(-inner))
    return (*ponds, *hands, wall)


def zone_at(zones: Sequence[Zone], xy: Point) -> Zone | None:
    """The first zone holding ``xy`` (ponds first, then hands, then the wall), or None."""
    return next((zone for zone in zones if zone.contains(xy)), None)
