"""Where a seen tile lies: its seat, its zone, and its slot within the zone.

The zones follow the table's layout (:class:`tablekit.vision.layout.TableLayout`): each
seat's pond (rows of six, the third row open-ended), the wall with the dora indicators
and, in front of it, the ura indicators, and the hand row where melds and revealed hands
lie. The camera pipeline locates each tile once; the reading carries its :class:`Place`.

>>> locate((0.0, -107.5))
Place(seat=0, zone=<TileZone.POND: 'pond'>, row=0, x=0.0)
>>> locate((-250.0, 0.0)).zone
<TileZone.INDICATOR: 'indicator'>
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from tablekit.vision.layout import DEFAULT_LAYOUT, TableLayout, seat_of_point, table_to_seat


class TileZone(StrEnum):
    """What the camera can tell of a tile's place on the table."""

    POND = "pond"
    INDICATOR = "indicator"
    """The wall's row of dora indicators (the dead wall lies elsewhere each hand)."""
    URA = "ura"
    HAND = "hand"
    """The hand row: the standing or revealed hand and the melds beside it."""
    OTHER = "other"


@dataclass(frozen=True)
class Place:
    seat: int
    zone: TileZone
    row: int       # pond row (0 nearest the centre); 0 elsewhere
    x: float       # across the seat, left to right as the player sees it


def locate(xy: tuple[float, float], layout: TableLayout = DEFAULT_LAYOUT) -> Place:
    """The seat, zone and slot of a point of the table (mm)."""
    seat = seat_of_point(*xy)
    x, y = table_to_seat(seat, *xy)
    pond_near = layout.pond_first_row_y + layout.tile_length / 2 + 12
    pond_far = layout.pond_first_row_y - (layout.pond_rows - 0.5) * layout.pond_row_pitch - 12
    if pond_far <= y <= pond_near:
        return Place(seat, TileZone.POND, pond_row(y, layout), x)
    wall_near = layout.wall_y + layout.tile_length / 2 + 10
    ura_far = layout.ura_y - layout.tile_length / 2 - 10
    if ura_far <= y <= wall_near:
        nearer_ura = abs(y - layout.ura_y) < abs(y - layout.wall_y)
        return Place(seat, TileZone.URA if nearer_ura else TileZone.INDICATOR, 0, x)
    if y <= layout.hand_y + layout.tile_length:
        return Place(seat, TileZone.HAND, 0, x)
    return Place(seat, TileZone.OTHER, 0, x)


def pond_row(y: float, layout: TableLayout = DEFAULT_LAYOUT) -> int:
    """The pond row of a position (discards go in rows of six, the third open-ended).

    >>> pond_row(DEFAULT_LAYOUT.pond_first_row_y - DEFAULT_LAYOUT.pond_row_pitch + 8)
    1
    """
    rows, first, pitch = layout.pond_rows, layout.pond_first_row_y, layout.pond_row_pitch
    return min(rows - 1, max(0, round((first - y) / pitch)))
