"""The table in millimetres: tile size, felt, ArUco markers and where each seat's tiles go.

Table coordinates: the origin is the centre of the felt, ``x`` points to seat 0's
right, ``y`` away from seat 0 (towards seat 2), ``z`` up from the felt. Seats go
counter-clockwise seen from above (0 at the bottom, 1 on the right, 2 at the top,
3 on the left), the order of play. Each seat also has its own frame: the player
sits at ``y = -TABLE_HALF`` of that frame, facing ``+y``, with ``+x`` to their right.

A calibration module imports :data:`MARKER_CORNERS_MM` to map the detected marker
corners to the table plane (a homography), so these numbers are the contract.

>>> MARKER_IDS, MARKER_DICTIONARY
((0, 1, 2, 3), 'DICT_4X4_50')
>>> MARKER_CORNERS_MM[0]
((-465.0, -405.0), (-405.0, -405.0), (-405.0, -465.0), (-465.0, -465.0))
>>> seat_to_table(1, 0.0, -TABLE_HALF)
(480.0, 0.0)
>>> table_to_seat(1, 480.0, 0.0)
(0.0, -480.0)
"""

from __future__ import annotations

import math

TILE_WIDTH = 26.0
"""Face width in mm (the short side of the face)."""
TILE_LENGTH = 35.0
"""Face height in mm (the long side of the face)."""
TILE_THICKNESS = 20.0
"""Face to back in mm."""
BACK_LAYER = 0.4
"""The share of the thickness in the back colour; the rest (face side) is ivory."""

TABLE_SIZE = 960.0
"""Side of the square felt in mm."""
TABLE_HALF = TABLE_SIZE / 2
RIM_WIDTH = 70.0
"""The wooden rim around the felt, in mm."""

MARKER_DICTIONARY = "DICT_4X4_50"
MARKER_IDS = (0, 1, 2, 3)
MARKER_SIZE = 60.0
"""Side of the black marker square in mm (6 cells of 10 mm, border included)."""
MARKER_MARGIN = 12.0
"""White quiet zone around each marker, in mm."""
MARKER_CENTRES_MM = {0: (-435.0, -435.0), 1: (435.0, -435.0), 2: (435.0, 435.0),
                     3: (-435.0, 435.0)}
"""Marker centres: 0 at seat 0's left hand, then counter-clockwise (1 at seat 0's right)."""


def _marker_corners(centre: tuple[float, float]) -> tuple[tuple[float, float], ...]:
    """ArUco corner order (top-left, top-right, bottom-right, bottom-left) of a marker
    printed upright for seat 0: its top edge points to ``+y``."""
    cx, cy = centre
    h = MARKER_SIZE / 2
    return ((cx - h, cy + h), (cx + h, cy + h), (cx + h, cy - h), (cx - h, cy - h))


MARKER_CORNERS_MM = {i: _marker_corners(c) for i, c in MARKER_CENTRES_MM.items()}
"""Marker id -> its four corners in table mm, in the order ArUco reports them."""

# --- where tiles go, in each seat's own frame (mm) ---------------------------------------

CENTRE_HALF = 70.0
"""Half the side of the centre panel (dice and score displays of an automatic table)."""
STICK_Y = -80.0
"""A riichi stick lies across the seat's side of the centre, this far from the middle."""
POND_FIRST_ROW_Y = -(CENTRE_HALF + 20.0 + TILE_LENGTH / 2)
POND_ROW_PITCH = TILE_LENGTH + 3.0
POND_ROW_LENGTH = 6
POND_ROWS = 3
"""Discards go in rows of six; the third row takes every discard after the twelfth."""
POND_LEFT_X = -3 * TILE_WIDTH
WALL_STACKS = 17
WALL_Y = -250.0
"""Centre line of the seat's wall (two tiles high, long side towards the centre)."""
URA_Y = WALL_Y - TILE_LENGTH - 4.0
"""Ura dora indicators are laid face up just outside the dead wall."""
HAND_Y = -TABLE_HALF + 40.0
"""Centre line of the standing hand (and of melds and a revealed hand)."""
HAND_LEFT_X = -270.0
MELD_RIGHT_X = 380.0
"""Melds are laid from here leftwards, the first meld rightmost."""
MELD_NEAR_Y = HAND_Y - TILE_LENGTH / 2
"""The near (player's) edge of every meld tile."""
DRAWN_GAP = 12.0
"""The drawn tile (or the winning tile) lies this far apart from the rest of the hand."""

ZONES = ("pond", "meld", "wall", "dora", "hand")
"""The zones a ground-truth tile can be in (``dora`` holds dora and ura indicators)."""

ZONE_BOXES = {
    "pond": (POND_LEFT_X - 20, POND_FIRST_ROW_Y - 2.5 * POND_ROW_PITCH - 10,
             POND_LEFT_X + 14 * TILE_WIDTH, POND_FIRST_ROW_Y + TILE_LENGTH / 2 + 5),
    "wall": (-WALL_STACKS * TILE_WIDTH / 2 - 5, URA_Y - TILE_LENGTH / 2 - 5,
             WALL_STACKS * TILE_WIDTH / 2 + 5, WALL_Y + TILE_LENGTH / 2 + 5),
    "hand": (HAND_LEFT_X - 10, -TABLE_HALF, MELD_RIGHT_X + 10, HAND_Y + 2 * TILE_WIDTH + 5),
}
"""Rough boxes ``(x0, y0, x1, y1)`` in a seat's frame holding its pond, wall (with dora
and ura) and hand (with melds): a guide for a reader that sorts tiles into zones."""


def seat_to_table(seat: int, x: float, y: float) -> tuple[float, float]:
    """A point of ``seat``'s frame in table coordinates (rotation by 90 degrees a seat)."""
    angle = seat_angle(seat)
    c, s = round(math.cos(angle), 12), round(math.sin(angle), 12)
    return (x * c - y * s + 0.0, x * s + y * c + 0.0)


def table_to_seat(seat: int, x: float, y: float) -> tuple[float, float]:
    """A table point in ``seat``'s frame (the inverse of :func:`seat_to_table`)."""
    return seat_to_table((4 - seat % 4) % 4, x, y)


def seat_angle(seat: int) -> float:
    """Counter-clockwise rotation (radians) from seat 0's frame to ``seat``'s frame."""
    return (seat % 4) * math.pi / 2


def seat_of_point(x: float, y: float) -> int:
    """The seat whose side of the table a table point lies on.

    >>> [seat_of_point(*p) for p in [(0, -300), (300, 0), (0, 300), (-300, 0)]]
    [0, 1, 2, 3]
    """
    if abs(y) >= abs(x):
        return 0 if y < 0 else 2
    return 1 if x > 0 else 3
