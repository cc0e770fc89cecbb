"""A discard the detector barely saw, taken only where a discard must lie.

A blank white dragon on light felt can peak under the pond's threshold in every frame:
its seat's turn then never ends for the tracker, and every later discard waits behind
it (one such tile gave a later tsumo ippatsu). The reading keeps such faint pond peaks
apart (:attr:`tablekit.vision.table_reading.TableReading.faint`). Once the next seat's
pond shows a discard the state lacks, the turn has passed and the missing discard must
lie in the next slot of the seat's pond: a faint read there, in the same place in each
of the last frames, is taken as it. Its place is kept for the rest of the hand, and the
faint reads there count as that pond's tile from then on (:class:`FaintSpots`).

>>> POND = TileZone.POND
>>> first = Place(0, POND, 0, FIRST_X)
>>> next_slot(0, None, first), next_slot(1, first, Place(0, POND, 0, FIRST_X + 27))
(True, True)
>>> next_slot(1, first, Place(0, POND, 0, FIRST_X + 80))  # a slot further on: no
False
>>> next_slot(6, Place(0, POND, 0, 65.0), Place(0, POND, 1, FIRST_X))  # a new row
True
>>> club = TableLayout(pond_row_length=8)  # a club whose ponds are rows of eight
>>> at = Place(0, POND, 0, club.pond_left_x + club.tile_width / 2)
>>> next_slot(0, None, at), next_slot(0, None, at, club)
(False, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from tablekit.game.state import SEATS
from tablekit.rules.reading import TileRead
from tablekit.tracking.hand_reading import vote
from tablekit.vision.layout import DEFAULT_LAYOUT, TableLayout
from tablekit.vision.table_reading import SeenTile
from tablekit.vision.zones import Place, TileZone  # noqa: F401 (doctest)

FAINT_SECONDS = 0.5
"""How long a faint read must lie in the next slot, frame after frame (three frames at 4
a second)."""
SAME_PLACE_MM = 8.0
FIRST_X = DEFAULT_LAYOUT.pond_left_x + DEFAULT_LAYOUT.tile_width / 2
"""Where the first tile of a pond row lies across its seat (on the default table)."""


def next_slot(index: int, last: Place | None, place: Place,
              layout: TableLayout = DEFAULT_LAYOUT) -> bool:
    """Whether ``place`` is where discard ``index`` of a pond goes, after the pond's
    last tile at ``last`` (None: the pond is empty), on the table ``layout``."""
    row = min(index // layout.pond_row_length, layout.pond_rows - 1)
    if place.row != row:
        return False
    width, length = layout.tile_width, layout.tile_length
    if last is None or last.row != row:
        first_x = layout.pond_left_x + width / 2
        return abs(place.x - first_x) <= (length - width) / 2 + 6
    return width * 0.6 <= place.x - last.x <= length + 12


def faint_discard(recent: Sequence[list[tuple[Place, SeenTile]] | None], index: int,
                  last: SeenTile | None, layout: TableLayout = DEFAULT_LAYOUT
                  ) -> tuple[TileRead, SeenTile] | None:
    """The read of discard ``index`` of a seat's pond, and where it lies, from its faint
    reads of the frames of the last :data:`FAINT_SECONDS` (``recent``, oldest first): one
    in the next slot after ``last`` in each, all in one place; else None."""
    if not recent:
        return None
    after = last.place if last is not None else None
    found: list[SeenTile] = []
    for frame in recent:
        fits = [tile for place, tile in frame or () if next_slot(index, after, place, layout)]
        if len(fits) != 1 or (found and math.dist(found[0].xy, fits[0].xy) > SAME_PLACE_MM):
            return None
        found.append(fits[0])
    return vote(found), found[-1]


@dataclass
class FaintSpots:
    """Where faint discards were taken this hand, per seat: faint reads there are the
    pond's tiles."""

    spots: list[list[tuple[float, float]]] = field(
        default_factory=lambda: [[] for _ in range(SEATS)])

    def __bool__(self) -> bool:
        return any(self.spots)

    def add(self, seat: int, tile: SeenTile) -> None:
        self.spots[seat].append(tile.xy)

    def clear(self) -> None:
        for spots in self.spots:
            spots.clear()

    def kept(self, faint: Sequence[SeenTile]) -> list[SeenTile]:
        """The faint reads lying on a kept spot."""
        return [tile for tile in faint
                if any(math.dist(tile.xy, xy) <= SAME_PLACE_MM
                       for xy in self.spots[tile.seat])]
