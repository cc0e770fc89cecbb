"""The table in millimetres: tile size, felt, ArUco markers and where each seat's tiles go.

A :class:`TableLayout` is what perception knows of the table before it sees a frame. The
default is tablekit's own table (a 960 mm felt, markers 45 mm in from each corner); a
club's table of another size is measured once and stored in its calibration profile
(:class:`tablekit.vision.calibration.Profile`), and the simulator draws the default.

Table coordinates: the origin is the centre of the felt, ``x`` points to seat 0's
right, ``y`` away from seat 0 (towards seat 2), ``z`` up from the felt. Seats go
counter-clockwise seen from above (0 at the bottom, 1 on the right, 2 at the top,
3 on the left), the order of play. Each seat also has its own frame: the player
sits at ``y = -table_half`` of that frame, facing ``+y``, with ``+x`` to their right.

>>> layout = TableLayout()
>>> layout.marker_ids, layout.marker_dictionary
((0, 1, 2, 3), 'DICT_4X4_50')
>>> layout.marker_corners[0]
((-465.0, -405.0), (-405.0, -405.0), (-405.0, -465.0), (-465.0, -465.0))
>>> layout.hand_y, layout.pond_first_row_y, layout.ura_y
(-440.0, -107.5, -289.0)
>>> club = TableLayout.measured(felt_size=900.0, marker_inset=40.0)
>>> club.table_half, club.marker_centres[2]
(450.0, (410.0, 410.0))
>>> TableLayout.from_dict(club.to_dict()) == club
True
>>> seat_to_table(1, 0.0, -480.0), table_to_seat(1, 480.0, 0.0)
((480.0, 0.0), (0.0, -480.0))
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields
from typing import Any

Point = tuple[float, float]
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class TableLayout:
    """The table's sizes (mm) and where things lie; the seat-frame places are measured from
    the seat's side of the felt (the hand) or from the centre (pond, wall)."""

    felt_size: float = 960.0
    """Side of the square felt."""
    tile_width: float = 26.0
    """Face width (the short side of the face)."""
    tile_length: float = 35.0
    """Face height (the long side of the face)."""
    tile_thickness: float = 20.0
    """Face to back."""
    marker_dictionary: str = "DICT_4X4_50"
    marker_ids: tuple[int, ...] = (0, 1, 2, 3)
    marker_size: float = 60.0
    """Side of the black marker square (6 cells of 10 mm, border included)."""
    marker_margin: float = 12.0
    """White quiet zone around each marker."""
    marker_centres: tuple[Point, ...] = ((-435.0, -435.0), (435.0, -435.0), (435.0, 435.0),
                                         (-435.0, 435.0))
    """Marker centres, in the order of ``marker_ids``: the first at seat 0's left hand, then
    counter-clockwise."""
    centre_half: float = 70.0
    """Half the side of the centre panel (dice and score displays of an automatic table)."""
    stick_y: float = -80.0
    """A riichi stick lies across the seat's side of the centre, this far from the middle."""
    pond_gap: float = 20.0
    """From the centre panel to the first pond row's near edge."""
    pond_row_gap: float = 3.0
    pond_row_length: int = 6
    pond_rows: int = 3
    """Discards go in rows of six; the last row takes every discard after the twelfth."""
    wall_stacks: int = 17
    wall_y: float = -250.0
    """Centre line of the seat's wall (two tiles high, long side towards the centre)."""
    ura_gap: float = 4.0
    """Ura dora indicators are laid face up just outside the dead wall, this far from it."""
    hand_inset: float = 40.0
    """From the seat's edge of the felt to the centre line of its standing hand."""
    hand_left_x: float = -270.0
    meld_right_x: float = 380.0
    """Melds are laid from here leftwards, the first meld rightmost."""
    drawn_gap: float = 12.0
    """The drawn tile (or the winning tile) lies this far apart from the rest of the hand."""

    @classmethod
    def measured(cls, felt_size: float, marker_inset: float = 45.0, **sizes: Any
                 ) -> TableLayout:
        """A club's table: its felt's side and how far each marker's centre lies in from
        the felt's corners (both in mm); ``sizes``: any other field."""
        at = felt_size / 2 - marker_inset
        centres = ((-at, -at), (at, -at), (at, at), (-at, at))
        return cls(felt_size=felt_size, marker_centres=centres, **sizes)

    # -- derived -------------------------------------------------------------------------

    @property
    def table_half(self) -> float:
        return self.felt_size / 2

    @property
    def marker_corners(self) -> dict[int, tuple[Point, ...]]:
        """Marker id -> its four corners in table mm, in the order ArUco reports them
        (top-left, top-right, bottom-right, bottom-left of a marker printed upright for
        seat 0: its top edge points to ``+y``)."""
        h = self.marker_size / 2
        return {i: ((cx - h, cy + h), (cx + h, cy + h), (cx + h, cy - h), (cx - h, cy - h))
                for i, (cx, cy) in zip(self.marker_ids, self.marker_centres, strict=True)}

    @property
    def marker_centre_of(self) -> dict[int, Point]:
        """Marker id -> its centre."""
        return dict(zip(self.marker_ids, self.marker_centres, strict=True))

    @property
    def pond_first_row_y(self) -> float:
        return -(self.centre_half + self.pond_gap + self.tile_length / 2)

    @property
    def pond_row_pitch(self) -> float:
        return self.tile_length + self.pond_row_gap

    @property
    def pond_left_x(self) -> float:
        return -self.pond_row_length / 2 * self.tile_width

    @property
    def ura_y(self) -> float:
        return self.wall_y - self.tile_length - self.ura_gap

    @property
    def hand_y(self) -> float:
        """Centre line of the standing hand (and of melds and a revealed hand)."""
        return -self.table_half + self.hand_inset

    @property
    def meld_near_y(self) -> float:
        """The near (player's) edge of every meld tile."""
        return self.hand_y - self.tile_length / 2

    @property
    def zone_boxes(self) -> dict[str, Box]:
        """Rough boxes ``(x0, y0, x1, y1)`` in a seat's frame holding its pond, wall (with
        dora and ura) and hand (with melds): a guide for sorting tiles into zones."""
        half_wall = self.wall_stacks * self.tile_width / 2
        return {
            "pond": (self.pond_left_x - 20,
                     self.pond_first_row_y - 2.5 * self.pond_row_pitch - 10,
                     self.pond_left_x + 14 * self.tile_width,
                     self.pond_first_row_y + self.tile_length / 2 + 5),
            "wall": (-half_wall - 5, self.ura_y - self.tile_length / 2 - 5,
                     half_wall + 5, self.wall_y + self.tile_length / 2 + 5),
            "hand": (self.hand_left_x - 10, -self.table_half, self.meld_right_x + 10,
                     self.hand_y + 2 * self.tile_width + 5),
        }

    # -- stored in a profile ---------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["marker_ids"] = list(self.marker_ids)
        data["marker_centres"] = [list(c) for c in self.marker_centres]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableLayout:
        """The layout a profile stored; a field it lacks keeps the default (unknown keys
        raise ``TypeError``)."""
        given = dict(data)
        if "marker_ids" in given:
            given["marker_ids"] = tuple(int(i) for i in given["marker_ids"])
        if "marker_centres" in given:
            given["marker_centres"] = tuple((float(x), float(y))
                                            for x, y in given["marker_centres"])
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(given) - known)
        if unknown:
            raise TypeError(f"unknown table layout fields {unknown}")
        return cls(**given)


DEFAULT_LAYOUT = TableLayout()
"""tablekit's own table, the one the simulator draws."""


def seat_angle(seat: int) -> float:
    """Counter-clockwise rotation (radians) from seat 0's frame to ``seat``'s frame."""
    return (seat % 4) * math.pi / 2


def seat_to_table(seat: int, x: float, y: float) -> Point:
    """A point of ``seat``'s frame in table coordinates (rotation by 90 degrees a seat)."""
    angle = seat_angle(seat)
    c, s = round(math.cos(angle), 12), round(math.sin(angle), 12)
    return (x * c - y * s + 0.0, x * s + y * c + 0.0)


def table_to_seat(seat: int, x: float, y: float) -> Point:
    """A table point in ``seat``'s frame (the inverse of :func:`seat_to_table`)."""
    return seat_to_table((4 - seat % 4) % 4, x, y)


def seat_of_point(x: float, y: float) -> int:
    """The seat whose side of the table a table point lies on.

    >>> [seat_of_point(*p) for p in [(0, -300), (300, 0), (0, 300), (-300, 0)]]
    [0, 1, 2, 3]
    """
    if abs(y) >= abs(x):
        return 0 if y < 0 else 2
    return 1 if x > 0 else 3
