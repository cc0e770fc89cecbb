"""The revealed hands at a win: the hand rows of the last seconds are kept; once the flow
looks at a win (:meth:`RevealedHands.look`) the rows from then on are voted by where
their tiles lie and read under the rules (:mod:`tablekit.tracking.hand_reading`), with
the ura indicators under a riichi winner's win voted over the same frames (from
:data:`LOOK_BACK` before the first look: :meth:`RevealedHands.read`, a query).

>>> from tablekit.game.state import TableState
>>> hands = RevealedHands()
>>> hands.look(now=12.0)
>>> hands.looking(12.0 + WIN_LOOK), hands.looking(12.25 + WIN_LOOK)
(True, False)
>>> hands.read(TableState.new(), StableView(), (1,), 0).doubts
('South: the revealed hand is hidden',)
"""

from __future__ import annotations

import math
from collections import Counter, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tablekit.game.state import TableState, seat_name
from tablekit.game.win_reading import WinReading
from tablekit.rules.hand import Meld, concealed_count
from tablekit.rules.reading import TileRead
from tablekit.tiles import Tile
from tablekit.tracking.dora_watch import DoraWatch
from tablekit.tracking.hand_reading import (
    Slot,
    before_melds,
    draft_hand,
    read_indicators,
    read_revealed,
    row_slots,
    visible_counts,
    vote,
    vote_rows,
    vote_slots,
)
from tablekit.tracking.kita_watch import is_north
from tablekit.tracking.meld_reading import face_up_meld_tiles, face_up_tiles
from tablekit.tracking.stable_view import LOOK_BACK, HandRow, StableView, since
from tablekit.vision.layout import DEFAULT_LAYOUT
from tablekit.vision.table_reading import SeenTile

WIN_LOOK = 2.0      # s after a look at a win that the hand rows' gaps are looked into
HAND_SECONDS = 3.0  # s of hand rows a revealed hand is voted over
SET_APART = DEFAULT_LAYOUT.tile_width + DEFAULT_LAYOUT.drawn_gap / 2
"""mm from a revealed hand's last tile to the one before it at or over which the last is
set apart (tiles lie a tile's width apart, a tile set apart the layout's drawn gap further):
32 mm."""
HAND_ROWS_KEPT = 256  # at most this many frames' hand rows (a source whose clock stands still)
HandRows = list[HandRow | None]


@dataclass
class RevealedHands:
    """The hand rows and the ura indicator rows of the last :data:`HAND_SECONDS`, each
    with its frame's time, and when the flow last looked at a win."""

    rows: deque[tuple[float, HandRows]] = field(
        default_factory=lambda: deque(maxlen=HAND_ROWS_KEPT))
    ura_rows: deque[tuple[float, list[SeenTile]]] = field(
        default_factory=lambda: deque(maxlen=HAND_ROWS_KEPT))
    """The ura indicators each frame read face up (a win's, once turned): voted over the
    whole look, not its last frames alone, as a face the classifier reads about as often
    as another (the fallback art's 8m and 1m) flips as a few frames' vote slides."""
    looked: float = -math.inf
    """When :meth:`look` was last called (s): while a win is looked at, the faces read in
    the hand rows' gaps count (:mod:`tablekit.vision.row_gaps`)."""
    since_time: float = 0.0
    """The time of this win's first look (the hand lies revealed by then; earlier frames
    show the standing hand, whose tops can read as faces)."""

    def keep(self, now: float, rows: HandRows, ura: Sequence[SeenTile] = ()) -> None:
        """Remember this frame's hand rows and ura indicators; forget those older than
        :data:`HAND_SECONDS`."""
        self.rows.append((now, rows))
        self.ura_rows.append((now, list(ura)))
        for kept in (self.rows, self.ura_rows):
            while since(kept[0][0], now) >= HAND_SECONDS:
                kept.popleft()

    def look(self, now: float) -> None:
        """The flow looks at a win at ``now`` (again): a first look in a while starts the
        frames its hands are voted over."""
        if since(self.looked, now) > WIN_LOOK:
            self.since_time = now  # a new win
        self.looked = now

    def looking(self, now: float) -> bool:
        """Whether a win is being looked at (the hand rows' gaps count)."""
        return since(self.looked, now) <= WIN_LOOK

    def read(self, state: TableState, view: StableView, seats: tuple[int, ...],
             from_seat: int | None, doubted: Mapping[int, float] | None = None
             ) -> WinReading:
        """The revealed hands of ``seats`` (ron on ``from_seat``'s tile, or tsumo);
        ``doubted``: kinds whose discards the frames doubted, and how much
        (:meth:`~tablekit.tracking.pond_votes.PondVotes.doubts`)."""
        winners, doubts, drafts, unseen = [], [], [], 0
        for seat in seats:
            melds = state.seats[seat].melds
            row = concealed_count(len(melds)) + face_up_meld_tiles(melds)
            seen = self._hand_reads(seat, melds, state.seats[seat].kita)
            if seen is None:
                unseen += row
                doubts.append(f"{seat_name(state, seat)}: the revealed hand is hidden")
                drafts.append((seat, draft_hand(state, seat, [], from_seat)))
                continue
            reads, win_seen = seen
            unseen += max(0, row - len(reads))
            hand, found = read_revealed(state, seat, reads, from_seat, win_seen, doubted)
            doubts.extend(found)
            if hand is not None:
                winners.append(hand)
            else:
                drafts.append((seat, draft_hand(state, seat, reads, from_seat)))
        counts = visible_counts(state, exclude_last_discard=from_seat is not None)
        for hand in winners:
            counts.update(tile.kind for tile in hand.hand)
        ura, no_ura = _ura(state, seats, counts, self._ura_reads())
        doubts += DoraWatch.doubts(state, [s.indicators for s in view.recent(LOOK_BACK)])
        return WinReading(tuple(winners), ura, (*doubts, *no_ura), tuple(drafts), unseen)

    def _ura_reads(self) -> list[list[SeenTile]]:
        """The ura indicator rows of the frames of this win: from :data:`LOOK_BACK`
        before its first look (they may lie turned by then) to now."""
        return [ura for at, ura in self.ura_rows if since(at, self.since_time) <= LOOK_BACK]

    def _hand_reads(self, seat: int, melds: Sequence[Meld], kita: int = 0
                    ) -> tuple[list[TileRead], bool] | None:
        """The seat's revealed row voted over the frames since the win was first looked
        at that show it (at least half its concealed tiles face up) by where its tiles
        lie, its melds as the state knows them where the row shows where they begin, and
        whether the winning tile set apart at its end was seen (:func:`win_tile_seen`);
        None when no frame shows the row. Three players: the seat's ``kita`` Norths set
        aside lie between its hand and its melds, and are no tiles of the hand (left of the
        row's widest gap, or the Norths at its end the hand has no room for)."""
        rows = [(at, r[seat]) for at, r in self.rows
                if at >= self.since_time and r[seat] is not None]
        if not rows:
            return None
        laid = [TileRead.sure(tile) for meld in melds for tile in face_up_tiles(meld)]
        concealed = concealed_count(len(melds))
        shown = [r for _, r in rows if r is not None
                 and len(r) >= len(laid) + (concealed + 1) // 2]
        last = rows[-1][0]
        used = shown or [r for at, r in rows if r is not None and since(at, last) <= LOOK_BACK]
        slots = row_slots(used)
        left = before_melds(slots) if melds or kita else None
        if left is None:
            slots = less_kita(slots, kita, concealed + len(laid))
            reads = vote_slots(slots, concealed + len(laid), len(used))
            return reads, win_tile_seen(slots[:len(slots) - len(laid)], concealed)
        return [*vote_slots(left, concealed, len(used)), *laid], win_tile_seen(left, concealed)


def win_tile_seen(slots: list[Slot], count: int) -> bool:
    """Whether the winning tile, set apart at the end of a revealed hand's ``count``
    concealed tiles, is among their places ``slots``: it is unless places are missing and
    the last one lies beside the one before it (under :data:`SET_APART` mm from it, where
    a tile set apart lies a gap further), so that the tile set apart was never seen.

    >>> tile = SeenTile((0, 0), 0, True, ((Tile(0), 0.9),))
    >>> row = [[(x, tile)] for x in (0.0, 26.8, 53.6, 92.4)]   # the last set apart
    >>> win_tile_seen(row, 5), win_tile_seen(row[:3], 5), win_tile_seen(row[:3], 3)
    (True, False, True)
    """
    if len(slots) >= count or len(slots) < 2:
        return True
    last, before = (sum(x for x, _ in slot) / len(slot) for slot in (slots[-1], slots[-2]))
    return last - before >= SET_APART


def less_kita(slots: list[Slot], kita: int, count: int) -> list[Slot]:
    """A revealed row's places less the Norths set aside at its end (at most ``kita`` of
    them, only while the row has more places than the hand's ``count`` tiles).

    >>> north, six = (SeenTile((0, 0), 0, True, ((Tile.from_code(c), 0.9),))
    ...               for c in ("4z", "6p"))
    >>> slots = [[(0.0, six)], [(27.0, north)], [(60.0, north)]]
    >>> len(less_kita(slots, 2, 2)), len(less_kita(slots, 2, 1)), len(less_kita(slots, 0, 1))
    (2, 1, 3)
    """
    end = len(slots)
    while kita and end > count and is_north(vote([tile for _, tile in slots[end - 1]])):
        end, kita = end - 1, kita - 1
    return slots[:end]


def around_the_table(tiles: Sequence[SeenTile]) -> list[SeenTile]:
    """Tiles lying side by side in the order successive dora indicators lie: counter-
    clockwise around the table's centre (left to right as the wall's owner sees it), a
    corner of the wall between them included: their angles sorted, starting after the
    widest gap.

    >>> def at(x, y):
    ...     return SeenTile((x, y), 0.0, True)
    >>> [t.xy for t in around_the_table([at(30.0, -400.0), at(0.0, -400.0)])]
    [(0.0, -400.0), (30.0, -400.0)]
    >>> [t.xy for t in around_the_table([at(-400.0, -390.0), at(-390.0, -400.0)])]   # a corner
    [(-400.0, -390.0), (-390.0, -400.0)]
    """
    ordered = sorted(tiles, key=lambda t: math.atan2(t.xy[1], t.xy[0]))
    if len(ordered) < 2:
        return ordered
    angles = [math.atan2(t.xy[1], t.xy[0]) for t in ordered]
    gaps = [(angles[(i + 1) % len(angles)] - angle) % math.tau for i, angle in enumerate(angles)]
    start = (gaps.index(max(gaps)) + 1) % len(ordered)
    return ordered[start:] + ordered[:start]


def _ura(state: TableState, seats: tuple[int, ...], counts: Counter[int],
         recent: Sequence[Sequence[SeenTile]]) -> tuple[tuple[Tile, ...], list[str]]:
    """The ura indicators under a riichi winner's win, one under each dora indicator,
    voted over the win's frames' ura rows ``recent`` that show them all (none a fifth of
    its kind over the ``counts`` of visible tiles); doubts when none does or a read is
    unsure."""
    if not any(state.seats[s].riichi for s in seats):
        return (), []
    want = max(1, len(state.dora))
    rows = [around_the_table([t for t in ura if t.candidates]) for ura in recent]
    rows = [r for r in rows if len(r) == want]
    if not rows:
        return (), [f"ura dora: {want} indicator{'s' * (want > 1)} not seen"]
    return read_indicators(vote_rows(rows), counts, "ura dora")
