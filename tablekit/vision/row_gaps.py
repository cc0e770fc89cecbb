"""Second looks along a revealed hand: its tiles lie side by side on a grid, so where the
detector found no face at a place of the row (a peak merged into a neighbour's or under
the threshold, or a small face's box put half a tile off), the classifier looks there
(:func:`second_looks`, :func:`tablekit.vision.table_reader.look_in_gaps`). The tracker
takes these reads only while a win is read
(:attr:`tablekit.vision.table_reading.TableReading.gaps`).

>>> round(row_phase([-257.0, -230.0, -203.0, -165.0]), 1)   # the last box 11 mm off
-257.0
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np

from tablekit.vision.layout import DEFAULT_LAYOUT, seat_to_table, table_to_seat
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
MELD_PITCHES = 3.5
"""Faces further apart than this many pitches are a hand and its melds (cut apart)."""


OFF_PLACE = 0.2
"""A face found this many pitches or more from its place in its row is looked at again at
that place (:func:`second_looks`)."""


def row_phase(row: Sequence[float], pitch: float = PITCH) -> float:
    """Where the row's first tile lies on the grid its tiles are laid on (mm): its first
    face moved by the median of the faces' offsets from a grid of ``pitch`` through it,
    so a few faces the detector placed off their tiles do not move the grid.

    >>> row_phase([0.0, 27.0, 54.0, 92.0, 108.0])          # the fourth box is 11 mm off
    0.0
    """
    first = row[0]
    offsets = sorted((x - first + pitch / 2) % pitch - pitch / 2 for x in row)
    return first + float(np.median(offsets))


@dataclass(frozen=True)
class SecondLook:
    """A place of a face-up hand row where no face was found: the box to read there (view
    px, the size of its nearest face's) and the faces found off their places within a
    pitch of it (indices), which a sure read there stands in for."""

    box: np.ndarray
    near: tuple[int, ...]


def second_looks(tiles: Sequence[RowTile], view: TableView) -> list[SecondLook]:
    """The places of the frame's face-up hand rows no face lies at, to be looked at again.

    Tiles in a revealed row lie side by side on a grid of pitch (:func:`row_phase`); each
    place of the grid from a row's first face to its last (to a pitch before it where the
    last lies off its place: the winning tile set apart) with no face within
    :data:`OFF_PLACE` of it is looked at: a tile the detector did not find, or one whose
    box it placed off the tile (a small face cut with
    its neighbour). So is the place a tile set apart lies at, where the row ends on its
    place and no face lies near it. A row whose hand stands (a tile not face up left of its
    faces) is not looked at: in play only its melds lie face up. A row is cut where its
    faces lie further apart than a gap holds (its melds).

    >>> HAND_Y = DEFAULT_LAYOUT.hand_y
    >>> from tablekit.vision.rectify import TableView
    >>> from tablekit.vision.table_camera import TableCamera
    >>> from tablekit.vision.table_reader import ViewTile
    >>> view = TableView(TableCamera(8, 8, 1.0, 0.0, (4.0, 4.0), (0, 0, 0), (0, 0, 1)))
    >>> def lying_at(x):
    ...     (u, v), = view.to_view(np.array([[x, HAND_Y]]))
    ...     return ViewTile((u - 10, v - 14, u + 10, v + 14), True, (("5m", 0.9),), 0.5)
    >>> row = [lying_at(x) for x in (-257.0, -203.0, -176.0, -160.0, -122.0, -84.0)]
    >>> looks = second_looks(row, view)
    >>> [(round(float(view.to_table(((k.box[:2] + k.box[2:]) / 2)[None])[0][0])), k.near)
    ...  for k in looks]
    [(-230, ()), (-149, (3,))]
    >>> looks = second_looks(row[:-1], view)   # no tile set apart found: looked for
    >>> [round(float(view.to_table(((k.box[:2] + k.box[2:]) / 2)[None])[0][0])) for k in looks]
    [-230, -149, -83]
    >>> standing = ViewTile(row[0].box, False, (), 0.5)   # in play: only melds lie face up
    >>> second_looks([standing, *row[1:-1]], view)
    []
    >>> kan_back = ViewTile(lying_at(-30.0).box, False, (), 0.5)   # a closed kan's end
    >>> len(second_looks([*row[:-1], kan_back], view))
    3

    (-257 and -203 leave a tile's place between them; the face at -160 lies 11 mm off
    the place -149; -122 is on its place and -84, set apart, ends the row. Where the
    row ends on its place, the place a tile set apart lies at, the layout's drawn gap
    beyond the next place, is looked at too: the winning tile, set apart, alone.)
    """
    boxes = np.array([t.box for t in tiles], np.float64).reshape(-1, 4)
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    table = view.to_table(centres) if len(tiles) else centres
    rows: dict[int, list[tuple[float, int]]] = defaultdict(list)
    backs: dict[int, float] = {}  # the leftmost tile not face up in each seat's row
    for i, (tile, (x, y)) in enumerate(zip(tiles, table, strict=True)):
        place = locate((float(x), float(y)), view.layout)
        if tile.face_up and place.zone == TileZone.HAND:
            rows[place.seat].append((place.x, i))
        elif place.zone == TileZone.HAND:
            backs[place.seat] = min(place.x, backs.get(place.seat, math.inf))
    pitch = view.layout.tile_width + PITCH - DEFAULT_LAYOUT.tile_width
    looks = []
    for seat, row in rows.items():
        row.sort()
        if backs.get(seat, math.inf) < row[0][0]:
            continue  # the hand stands (a closed kan's backs lie among the melds)
        for run in _runs(row, pitch):
            phase = row_phase([x for x, _ in run], pitch)
            first = round((run[0][0] - phase) / pitch)
            ends_on_place = not _off_place(run[-1][0], phase, pitch)
            last = (round((run[-1][0] - phase) / pitch) if ends_on_place
                    else math.floor((run[-1][0] - phase) / pitch - 1 - OFF_PLACE))
            for k in range(first, last + 1):
                place = phase + k * pitch
                if any(abs(x - place) < OFF_PLACE * pitch for x, _ in run):
                    continue
                (x, i) = min(run, key=lambda item: abs(item[0] - place))
                near = tuple(j for x2, j in run[:-1] if abs(x2 - place) < pitch
                             and _off_place(x2, phase, pitch))
                looks.append(SecondLook(_moved(view, seat, table[i], boxes[i], place - x),
                                        near))
            (x, i) = run[-1]
            apart = x + pitch + view.layout.drawn_gap
            if ends_on_place and all(abs(x2 - apart) >= pitch for x2, _ in row):
                looks.append(SecondLook(_moved(view, seat, table[i], boxes[i], apart - x), ()))
    return looks


def _off_place(x: float, phase: float, pitch: float) -> bool:
    """Whether a face at ``x`` lies :data:`OFF_PLACE` or further from every place."""
    return abs((x - phase + pitch / 2) % pitch - pitch / 2) >= OFF_PLACE * pitch


def _runs(row: list[tuple[float, int]], pitch: float) -> list[list[tuple[float, int]]]:
    """The row cut where its faces lie further apart than a gap holds (the melds)."""
    runs = [[row[0]]] if row else []
    for item in row[1:]:
        if item[0] - runs[-1][-1][0] > MELD_PITCHES * pitch:
            runs.append([])
        runs[-1].append(item)
    return runs


def _moved(view: TableView, seat: int, xy: np.ndarray, box: np.ndarray, dx: float
           ) -> np.ndarray:
    """``box`` (view px), the face at table point ``xy``, moved ``dx`` mm along ``seat``'s
    row."""
    x, y = table_to_seat(seat, float(xy[0]), float(xy[1]))
    centre = view.to_view(np.array([seat_to_table(seat, x + dx, y)]))[0]
    half = (box[2:] - box[:2]) / 2
    return np.array([*(centre - half), *(centre + half)], np.float32)
