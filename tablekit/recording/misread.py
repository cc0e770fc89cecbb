"""A reader made to misread on purpose (``tablekit recording play --misread SHARE``), so
that ``recording check`` has differences to find.

:class:`MisreadingPipeline` wraps the camera pipeline: of the tiles it reads, a seeded
``share`` is read as another kind. The choice is a hash of the seed, the tile's place on
the table (seat, zone, pond row, a tile's width across) and its kind as read, so the same
tile lying in the same place is misread the same way in every frame (as a classifier that
confuses a face does), and the tracker's voting over frames does not put it right. The
right kind stays the second candidate.

>>> from tablekit.tiles import Tile
>>> from tablekit.vision.table_reading import SeenTile
>>> seen = SeenTile((0.0, -300.0), 0.0, True, ((Tile(3), 0.9),))
>>> wrong = misread_tile(seen, 1.0, seed=7)
>>> wrong.best != Tile(3) and wrong.candidates[1][0] == Tile(3)
True
>>> misread_tile(seen, 1.0, seed=7) == wrong, misread_tile(seen, 0.0, seed=7) == seen
(True, True)
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import Any

from tablekit.tiles import Tile
from tablekit.vision.table_reading import SeenTile, TableReading

SLOT_MM = 26.0   # a tile's width: places closer than this are the same place


def misread_tile(seen: SeenTile, share: float, seed: int) -> SeenTile:
    """``seen``, or (for a seeded ``share`` of tiles and places) it read as another kind."""
    if not seen.candidates or share <= 0:
        return seen
    right = seen.best
    place = seen.place
    key = f"{seed}:{place.seat}:{place.zone}:{place.row}:{round(place.x / SLOT_MM)}:{right.kind}"
    digest = hashlib.blake2b(key.encode(), digest_size=8).digest()
    if int.from_bytes(digest[:4]) / 2**32 >= share:
        return seen
    wrong = Tile((right.kind + 1 + int.from_bytes(digest[4:]) % 33) % 34)
    return replace(seen, candidates=((wrong, 0.6), (right, 0.4)))


class MisreadingPipeline:
    """``pipeline``'s readings with a seeded ``share`` of their tiles misread; ``misread``
    counts the tiles read wrong, frame by frame."""

    def __init__(self, pipeline: Any, share: float, seed: int = 0) -> None:
        self.pipeline, self.share, self.seed = pipeline, share, seed
        self.misread = 0

    def read_frame(self, frame: Any, timestamp: float, faint: bool = False,
                   gaps: bool = False) -> TableReading:
        reading = self.pipeline.read_frame(frame, timestamp, faint, gaps)
        tiles = tuple(misread_tile(seen, self.share, self.seed) for seen in reading.tiles)
        self.misread += sum(a is not b for a, b in zip(tiles, reading.tiles, strict=True))
        return replace(reading, tiles=tiles)

    def notices(self) -> list[str]:
        return list(self.pipeline.notices())

    def __getattr__(self, name: str) -> Any:
        return getattr(self.pipeline, name)
