"""Second looks into the gaps of a revealed hand: tiles laid side by side in a row leave
no room between them, so where two faces of one seat's hand row lie farther apart than
a tile allows, a tile lies between them that the detector did not find (its peak merged
into a neighbour's, or fell under the threshold). The classifier looks there: a box the
size of the left neighbour's at each place a tile fills
(:func:`tablekit.vision.table_reader.look_in_gaps`). The tracker takes these reads only
while a win is read (:attr:`tablekit.vision.table_reading.TableReading.gaps`).

>>> gap_places([-257.0, -212.0, -171.0, -135.0])
[(0, 0.5)]
>>> gap_places([0.0, 27.0, 63.0, 90.0])         # a winning tile set apart is no gap
[]
>>> gap_places([0.0, 81.0])                     # two tiles missing
[(0, 0.3333333333333333), (0, 0.6666666666666666)]
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import numpy as np

from tablekit.vision.layout import DEFAULT_LAYOUT
from tablekit.vision.zones import TileZone, locate

if TYPE_CHECKING:
    from tablekit.vision.rectify import TableView


class RowTile(Protocol):
    """A tile found in a view (:class:`tablekit.vision.table_reader.ViewTile`)."""

    @property
    def box(self) -> tuple[float, float, float, float]: ...

    @property
    def face_up(self) -> bool: ...

PITCH = DEFAULT_LAYOUT.tile_width + 1.0
"""Centre to centre of two tiles side by side in a row (mm; the default table's tiles)."""
GAP_PITCHES = (1.6, 3.5)
"""A gap this many pitches wide holds a tile not found (a tile set apart is 1.3 away;
wider gaps part the hand from its melds)."""


def gap_places(row: Sequence[float], pitch: float = PITCH) -> list[tuple[int, float]]:
    """Where tiles should lie in a row whose faces lie at ``row`` (mm along it, sorted):
    (index of the left neighbour, fraction of the way to the right one), one for each
    tile a gap of :data:`GAP_PITCHES` holds."""
    places = []
    for i, (a, b) in enumerate(itertools.pairwise(row)):
        if GAP_PITCHES[0] * pitch <= b - a <= GAP_PITCHES[1] * pitch:
            missing = round((b - a) / pitch) - 1
            places += [(i, j / (missing + 1)) for j in range(1, missing + 1)]
    return places


def gap_boxes(tiles: Sequence[RowTile], view: TableView) -> np.ndarray:
    """View boxes at the places a hand row's gaps hold a tile (each the size of its left
    neighbour's box), from the frame's face-up tiles.

    >>> HAND_Y = DEFAULT_LAYOUT.hand_y
    >>> from tablekit.vision.rectify import TableView
    >>> from tablekit.vision.table_camera import TableCamera
    >>> from tablekit.vision.table_reader import ViewTile
    >>> view = TableView(TableCamera(8, 8, 1.0, 0.0, (4.0, 4.0), (0, 0, 0), (0, 0, 1)))
    >>> def lying_at(x):
    ...     (u, v), = view.to_view(np.array([[x, HAND_Y]]))
    ...     return ViewTile((u - 10, v - 14, u + 10, v + 14), True, (("5m", 0.9),), 0.5)
    >>> boxes = gap_boxes([lying_at(-257.0), lying_at(-203.0), lying_at(-176.0)], view)
    >>> view.to_table((boxes[:, :2] + boxes[:, 2:]) / 2).round(1).tolist()
    [[-230.0, -440.0]]
    """
    boxes = np.array([t.box for t in tiles], np.float64).reshape(-1, 4)
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    table = view.to_table(centres) if len(tiles) else centres
    rows: dict[int, list[tuple[float, int]]] = defaultdict(list)
    for i, (tile, (x, y)) in enumerate(zip(tiles, table, strict=True)):
        place = locate((float(x), float(y)), view.layout)
        if tile.face_up and place.zone == TileZone.HAND:
            rows[place.seat].append((place.x, i))
    out = []
    for row in rows.values():
        row.sort()
        for left, part in gap_places([x for x, _ in row], view.layout.tile_width + 1.0):
            a, b = row[left][1], row[left + 1][1]
            centre = centres[a] + (centres[b] - centres[a]) * part
            half = (boxes[a, 2:] - boxes[a, :2]) / 2
            out.append([*(centre - half), *(centre + half)])
    return np.array(out, np.float32).reshape(-1, 4)
