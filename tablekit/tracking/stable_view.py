"""What the table shows steadily: each frame sorted into zones (:class:`Snapshot`), and
what the last frames agree on (:class:`StableView`).

A seat's pond, its meld row and the dora indicators count only once they read the same
for :data:`STABLE_SECONDS` with nothing moving over them (at 4 frames a second: this
frame and the one before); tile names are voted over those frames.

>>> empty = [[] for _ in range(SEATS)]
>>> view = StableView()
>>> view.add(Snapshot(empty, empty, [], [], at=10.0))
>>> view.pond(0) is None  # one frame is not steady yet
True
>>> view.add(Snapshot(empty, empty, [], [], at=10.25))
>>> view.pond(0), view.period()
([], 0.25)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

from tablekit.game.state import SEATS
from tablekit.rules.reading import TileRead
from tablekit.tracking.hand_reading import vote_rows
from tablekit.tracking.meld_reading import meld_group
from tablekit.vision.table_reading import SeenTile, TableReading
from tablekit.vision.zones import Place, TileZone

STABLE_SECONDS = 0.25
"""How long a zone must read the same to count (two frames at 4 a second)."""
LOOK_BACK = 0.75
"""s of the last frames a second look at a win reads (the dora indicators, a revealed row
no frame showed well; the ura indicators from this long before its first look on): four
frames at 4 a second."""
LONGEST_FRAME = 0.5
"""The most time one frame's reads stand for as evidence (a camera that stalled saw
nothing meanwhile)."""
KEPT_SECONDS = 1.0
"""Frames older than this are forgotten (the longest look back, with room)."""
KEPT_FRAMES = 64
"""At most this many frames are kept (a source whose clock stands still)."""
HandRow = list[tuple[float, SeenTile]]
"""A seat's face-up hand-row tiles, each with its place along the row, left to right."""


def since(then: float, now: float) -> float:
    """Seconds from ``then`` to ``now`` (readings' timestamps), to the microsecond: frames
    at a steady rate fall on either side of a limit, never on it by rounding.

    >>> since(100.1, 100.1 + 40 * 0.25), since(100.1, 100.1 + 40 * 0.25) > 10.0
    (10.0, False)
    """
    return round(now - then, 6)


@dataclass
class Snapshot:
    """One frame sorted into zones (None: hidden this frame), taken at ``at`` (s)."""

    ponds: list[list[SeenTile] | None]       # discard order: row by row, left to right
    hand_rows: list[HandRow | None]
    indicators: list[SeenTile] | None
    ura: list[SeenTile]
    hand_backs: list[list[float] | None] = field(
        default_factory=lambda: [[] for _ in range(SEATS)])
    """Where face-down tiles lie along each seat's row (a closed kan's ends)."""
    faint: list[list[tuple[Place, SeenTile]] | None] = field(
        default_factory=lambda: [[] for _ in range(SEATS)])
    """Each seat's faint pond reads (:mod:`tablekit.tracking.faint_discards`)."""
    at: float = 0.0


def snapshot(reading: TableReading, kept: Sequence[SeenTile] = (),
             gaps: Sequence[SeenTile] = (), moved: Sequence[SeenTile] = ()) -> Snapshot:
    """The reading sorted into zones; ``kept``: faint reads that count as pond tiles,
    ``gaps``: faces read again along the hand rows that count as hand-row tiles, in place
    of the faces ``moved`` (:attr:`TableReading.moved`)."""
    ponds: list[list[tuple[int, float, SeenTile]] | None] = [[] for _ in range(SEATS)]
    faint: list[list[tuple[Place, SeenTile]] | None] = [[] for _ in range(SEATS)]
    rows: list[HandRow | None] = [[] for _ in range(SEATS)]
    backs: list[list[float] | None] = [[] for _ in range(SEATS)]
    indicators: list[SeenTile] | None = []
    ura: list[SeenTile] = []
    for tile in (*(t for t in reading.tiles if t not in moved), *kept, *gaps):
        place = tile.place
        busy = reading.in_busy(tile.xy)
        if place.zone == TileZone.POND:
            _put(ponds, place.seat, (place.row, place.x, tile), busy)
        elif place.zone == TileZone.HAND and tile.face_up:
            _put(rows, place.seat, (place.x, tile), busy)
        elif place.zone == TileZone.HAND:
            _put(backs, place.seat, place.x, busy)
        elif place.zone == TileZone.INDICATOR and tile.face_up and indicators is not None:
            indicators = None if busy else [*indicators, tile]
        elif place.zone == TileZone.URA and tile.face_up:
            ura.append(tile)
    ordered = [None if p is None else [t for *_, t in sorted(p, key=lambda i: i[:2])]
               for p in ponds]
    for row in rows:
        if row is not None:
            row.sort(key=lambda item: item[0])
    for tile in reading.faint:
        place = tile.place
        if place.zone == TileZone.POND and tile not in kept:
            _put(faint, place.seat, (place, tile), reading.in_busy(tile.xy))
    return Snapshot(ordered, rows, indicators, ura, backs, faint, reading.timestamp)


def _put(zones: list, seat: int, item: object, busy: bool) -> None:
    """Add ``item`` to a seat's zone; a hand over the zone hides it for this frame."""
    if busy:
        zones[seat] = None
    elif zones[seat] is not None:
        zones[seat].append(item)


@dataclass
class StableView:
    """The last frames, and what they agree on."""

    history: deque[Snapshot] = field(default_factory=lambda: deque(maxlen=KEPT_FRAMES))

    def add(self, frame: Snapshot) -> None:
        """Take a frame; forget those no window reaches any more."""
        self.history.append(frame)
        while len(self.history) > 2 and since(self.history[1].at, frame.at) >= KEPT_SECONDS:
            self.history.popleft()

    @property
    def latest(self) -> Snapshot:
        return self.history[-1]

    def covering(self, seconds: float) -> list[Snapshot] | None:
        """The fewest last frames that span ``seconds`` (the first that long before the
        latest); None while the frames do not reach back that far."""
        if not self.history:
            return None
        now = self.history[-1].at
        for start in range(len(self.history) - 2, -1, -1):
            if since(self.history[start].at, now) >= seconds:
                return list(self.history)[start:]
        return None

    def recent(self, seconds: float) -> list[Snapshot]:
        """The frames of the last ``seconds`` before the latest (it included)."""
        if not self.history:
            return []
        now = self.history[-1].at
        return [frame for frame in self.history if since(frame.at, now) <= seconds]

    def period(self) -> float:
        """The time the latest frame's reads stand for: since the frame before, at most
        :data:`LONGEST_FRAME` (0 for the first frame)."""
        if len(self.history) < 2:
            return 0.0
        return min(since(self.history[-2].at, self.history[-1].at), LONGEST_FRAME)

    def pond(self, seat: int) -> list[TileRead] | None:
        """The seat's pond as the last frames agree on it (same count, votes)."""
        recent = [s.ponds[seat] for s in self.covering(STABLE_SECONDS) or ()]
        if not recent or any(p is None for p in recent):
            return None
        shown = [p for p in recent if p is not None]
        if len({len(p) for p in shown}) != 1:
            return None
        return vote_rows(shown)

    def meld_row(self, seat: int) -> list[TileRead] | None:
        """The seat's melds as the last frames agree on them (same count, votes)."""
        recent = [s.hand_rows[seat] for s in self.covering(STABLE_SECONDS) or ()]
        if not recent or any(r is None for r in recent):
            return None
        groups = [meld_group(r) for r in recent if r is not None]
        if len({len(g) for g in groups}) != 1:
            return None
        return vote_rows([[tile for _, tile in group] for group in groups])

    def indicators(self) -> list[list[SeenTile]] | None:
        """The dora indicator rows of the last steady frames; None while one is hidden."""
        recent = [s.indicators for s in self.covering(STABLE_SECONDS) or ()]
        if not recent or any(r is None for r in recent):
            return None
        return [r for r in recent if r is not None]

    def backs_by_melds(self, seat: int, reach: float) -> int:
        """Face-down tiles lying among or up to ``reach`` mm left of the seat's melds, in
        every one of the last steady frames (the fewest)."""
        counts = []
        for frame in self.covering(STABLE_SECONDS) or ():
            row, backs = frame.hand_rows[seat], frame.hand_backs[seat]
            group = meld_group(row) if row else []
            if not group or backs is None:
                return 0
            counts.append(sum(x >= group[0][0] - reach for x in backs))
        return min(counts, default=0)
