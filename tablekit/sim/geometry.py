"""The simulated table's geometry: tablekit's default :class:`~tablekit.vision.layout.TableLayout`
as the names the drawing modules use, plus what only drawing needs (the rim, the tiles'
two colours) and the zones a ground-truth tile is placed in.

>>> MARKER_CORNERS_MM[0]
((-465.0, -405.0), (-405.0, -405.0), (-405.0, -465.0), (-465.0, -465.0))
>>> seat_to_table(1, 0.0, -TABLE_HALF)
(480.0, 0.0)
"""

from __future__ import annotations

from tablekit.vision.layout import DEFAULT_LAYOUT as LAYOUT
from tablekit.vision.layout import (  # noqa: F401 (the drawing modules' names)
    seat_angle,
    seat_of_point,
    seat_to_table,
    table_to_seat,
)

TILE_WIDTH = LAYOUT.tile_width
TILE_LENGTH = LAYOUT.tile_length
TILE_THICKNESS = LAYOUT.tile_thickness
BACK_LAYER = 0.4
"""The share of the thickness in the back colour; the rest (face side) is ivory."""

TABLE_SIZE = LAYOUT.felt_size
TABLE_HALF = LAYOUT.table_half
RIM_WIDTH = 70.0
"""The wooden rim around the felt, in mm."""

MARKER_DICTIONARY = LAYOUT.marker_dictionary
MARKER_IDS = LAYOUT.marker_ids
MARKER_SIZE = LAYOUT.marker_size
MARKER_MARGIN = LAYOUT.marker_margin
MARKER_CENTRES_MM = LAYOUT.marker_centre_of
MARKER_CORNERS_MM = LAYOUT.marker_corners

CENTRE_HALF = LAYOUT.centre_half
STICK_Y = LAYOUT.stick_y
POND_FIRST_ROW_Y = LAYOUT.pond_first_row_y
POND_ROW_PITCH = LAYOUT.pond_row_pitch
POND_ROW_LENGTH = LAYOUT.pond_row_length
POND_ROWS = LAYOUT.pond_rows
POND_LEFT_X = LAYOUT.pond_left_x
WALL_STACKS = LAYOUT.wall_stacks
WALL_Y = LAYOUT.wall_y
URA_Y = LAYOUT.ura_y
HAND_Y = LAYOUT.hand_y
HAND_LEFT_X = LAYOUT.hand_left_x
MELD_RIGHT_X = LAYOUT.meld_right_x
MELD_NEAR_Y = LAYOUT.meld_near_y
DRAWN_GAP = LAYOUT.drawn_gap

ZONES = ("pond", "meld", "wall", "dora", "hand")
"""Where the simulator places a ground-truth tile (``dora`` holds dora and ura indicators);
what the camera can tell of a tile's place is :class:`tablekit.vision.zones.TileZone`."""
