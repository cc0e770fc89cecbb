"""Where a seen tile lies: its seat, its zone, and its slot within the zone.

The zones follow the table geometry (:mod:`tablekit.sim.geometry`): each seat's pond
(rows of six, the third row open-ended), the wall with the dora indicators and, in
front of it, the ura indicators, and the hand row where melds and revealed hands lie.

>>> locate(SeenTile((0.0, -107.5), 0.0, True))
Place(seat=0, zone='pond', row=0, x=0.0)
>>> locate(SeenTile((-250.0, 0.0), 270.0, True)).zone
'indicator'
"""

from __future__ import annotations

from dataclasses import dataclass

from tablekit.sim.geometry import (
    HAND_Y,
    POND_FIRST_ROW_Y,
    POND_ROW_PITCH,
    POND_ROWS,
    TILE_LENGTH,
    URA_Y,
    WALL_Y,
)
from tablekit.vision.table_reading import SeenTile

POND_NEAR = POND_FIRST_ROW_Y + TILE_LENGTH / 2 + 12
POND_FAR = POND_FIRST_ROW_Y - (POND_ROWS - 0.5) * POND_ROW_PITCH - 12
WALL_NEAR = WALL_Y + TILE_LENGTH / 2 + 10
URA_FAR = URA_Y - TILE_LENGTH / 2 - 10
HAND_NEAR = HAND_Y + TILE_LENGTH


@dataclass(frozen=True)
class Place:
    seat: int
    zone: str      # pond, indicator, ura, hand, other
    row: int       # pond row (0 nearest the centre); 0 elsewhere
    x: float       # across the seat, left to right as the player sees it


def locate(tile: SeenTile) -> Place:
    """The seat, zone and slot of a tile from its position on the table."""
    seat = tile.seat
    x, y = tile.local()
    if POND_FAR <= y <= POND_NEAR:
        return Place(seat, "pond", pond_row(y), x)
    if URA_FAR <= y <= WALL_NEAR:
        zone = "ura" if abs(y - URA_Y) < abs(y - WALL_Y) else "indicator"
        return Place(seat, zone, 0, x)
    if y <= HAND_NEAR:
        return Place(seat, "hand", 0, x)
    return Place(seat, "other", 0, x)


def pond_row(y: float) -> int:
    """The pond row of a position (discards go in rows of six, the third open-ended).

    >>> pond_row(POND_FIRST_ROW_Y - POND_ROW_PITCH + 8)
    1
    """
    return min(POND_ROWS - 1, max(0, round((POND_FIRST_ROW_Y - y) / POND_ROW_PITCH)))
