"""From frames to events: a per-zone view of the table that only believes what is stable.

Each frame's :class:`TableReading` is sorted into zones. A seat's pond, its face-up
meld tiles and the dora indicators count only once they read the same in
``frames_needed`` frames in a row with nothing moving over them; tile names are
voted over those frames. The stable view is then compared with the engine's state
and the differences become events: a draw and a discard (sideways = the riichi
tile), a claimed discard and the meld laid for it (with who it came from), a closed
or added kan, a new dora indicator. A registered discard or dora indicator that many
later frames read otherwise is corrected. A meld counts only once its seat has pressed CALL:
the button vouches for it, the camera says what it is. A discard the detector barely
sees is taken only once the next seat has discarded
(:mod:`tablekit.tracking.faint_discards`).

At a win the tracker votes the revealed hand's tiles over its last frames
(:meth:`Tracker.read_win`) and :mod:`tablekit.tracking.hand_reading` reads them under
the rules.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tablekit.game.events import (
    BadEvent,
    Call,
    Discard,
    DiscardCorrected,
    DoraCorrected,
    DoraRevealed,
    Draw,
    Event,
)
from tablekit.game.reducer import apply
from tablekit.game.state import SEATS, TableState, seat_name
from tablekit.game.win_reading import WinReading
from tablekit.rules.hand import Meld, concealed_count
from tablekit.rules.reading import TileRead
from tablekit.tiles import Tile, to_mpsz
from tablekit.tracking.faint_discards import FaintSpots, faint_discard
from tablekit.tracking.hand_reading import (
    SURE,
    before_melds,
    draft_hand,
    read_indicators,
    read_revealed,
    row_slots,
    visible_counts,
    vote_rows,
    vote_slots,
)
from tablekit.tracking.meld_reading import (
    face_up_meld_tiles,
    face_up_tiles,
    meld_group,
    new_reads,
    read_claimed,
    read_missed_pon,
    read_own_kan,
)
from tablekit.vision.layout import DEFAULT_LAYOUT, TableLayout
from tablekit.vision.table_reading import SeenTile, TableReading
from tablekit.vision.zones import Place, TileZone

BACK_REACH = 40.0  # mm left of the melds' first face where a closed kan's left end lies
WIN_LOOK = 2.0      # s after a win's reading that the hand rows' gaps are looked into
HAND_SECONDS = 3.0  # s of hand rows a revealed hand is voted over
CALL_PATIENCE = 10.0  # s a CALL press holds back the caller's discard
CATCH_UP = 4       # further steps one frame may give when the camera fell behind
CORRECTION_FRAMES = 6  # frames of evidence before a registered discard is corrected
HAND_ROWS_KEPT = 256  # at most this many frames' hand rows (a source whose clock stands still)


def since(then: float, now: float) -> float:
    """Seconds from ``then`` to ``now`` (readings' timestamps), to the microsecond: frames
    at a steady rate fall on either side of a limit, never on it by rounding.

    >>> since(100.1, 100.1 + 40 * 0.25), since(100.1, 100.1 + 40 * 0.25) > 10.0
    (10.0, False)
    """
    return round(now - then, 6)


@dataclass
class Snapshot:
    """One frame sorted into zones (None: hidden this frame)."""

    ponds: list[list[SeenTile] | None]       # discard order: row by row, left to right
    hand_rows: list[list[tuple[float, SeenTile]] | None]
    indicators: list[SeenTile] | None
    ura: list[SeenTile]
    hand_backs: list[list[float] | None] = field(
        default_factory=lambda: [[] for _ in range(SEATS)])
    """Where face-down tiles lie along each seat's row (a closed kan's ends)."""
    faint: list[list[tuple[Place, SeenTile]] | None] = field(
        default_factory=lambda: [[] for _ in range(SEATS)])
    """Each seat's faint pond reads (:mod:`tablekit.tracking.faint_discards`)."""


def snapshot(reading: TableReading, kept: Sequence[SeenTile] = (),
             gaps: Sequence[SeenTile] = ()) -> Snapshot:
    """The reading sorted into zones; ``kept``: faint reads that count as pond tiles,
    ``gaps``: faces read in the hand rows' gaps that count as hand-row tiles."""
    ponds: list[list[tuple[int, float, SeenTile]] | None] = [[] for _ in range(SEATS)]
    faint: list[list[tuple[Place, SeenTile]] | None] = [[] for _ in range(SEATS)]
    rows: list[list[tuple[float, SeenTile]] | None] = [[] for _ in range(SEATS)]
    backs: list[list[float] | None] = [[] for _ in range(SEATS)]
    indicators: list[SeenTile] | None = []
    ura: list[SeenTile] = []
    for tile in (*reading.tiles, *kept, *gaps):
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
    return Snapshot(ordered, rows, indicators, ura, backs, faint)


def _put(zones: list, seat: int, item: tuple, busy: bool) -> None:
    """Add ``item`` to a seat's zone; a hand over the zone hides it for this frame."""
    if busy:
        zones[seat] = None
    elif zones[seat] is not None:
        zones[seat].append(item)


@dataclass
class Tracker:
    """Turns frames into events against the engine state ``state()`` returns."""

    state: Callable[[], TableState]
    frames_needed: int = 2
    history: list[Snapshot] = field(default_factory=list)
    frames: int = 0
    call_pending: int | None = None   # a seat pressed CALL: its meld comes before its discard
    call_melds: int = 0
    call_at: float = 0.0              # when CALL was pressed; a call never laid stops blocking
    unseen_call: int | None = None    # a seat whose CALL ran out of patience with no meld seen
    vouched: dict[int, int] = field(default_factory=dict)  # seat -> its melds when CALL was pressed
    pond_votes: list[list[dict[Tile, float]]] = field(
        default_factory=lambda: [[] for _ in range(SEATS)])
    dora_votes: Counter[tuple[Tile, Tile]] = field(default_factory=Counter)
    """Frames that surely read one registered dora indicator as another tile (registered,
    read), and under ``None, None`` the frames that read them all as registered: for the
    indicators ``dora_for``."""
    dora_for: tuple[Tile, ...] = ()
    faint_spots: FaintSpots = field(default_factory=FaintSpots)
    faint_taken: tuple[int, int, SeenTile] | None = None
    """A faint discard given as an event (seat, pond index, read): its place is kept once
    the state holds it (a refused one is not)."""
    now: float = 0.0
    """The last reading's timestamp (s)."""
    layout: TableLayout = DEFAULT_LAYOUT
    """The table the last reading was read on (where a pond's slots lie)."""
    hand_rows: deque[tuple[int, float, list[list[tuple[float, SeenTile]] | None]]] = field(
        default_factory=lambda: deque(maxlen=HAND_ROWS_KEPT))
    """The hand rows of the last :data:`HAND_SECONDS`, each with its frame number and time
    (a revealed hand is voted over those since its win was first read)."""
    win_read: float = -math.inf
    """When :meth:`read_win` last read (s): while a win is read, the faces read in the
    hand rows' gaps count (:mod:`tablekit.vision.row_gaps`)."""
    win_from: int = 0
    """The frame of this win's first :meth:`read_win` (the hand lies revealed by then;
    earlier frames show the standing hand, whose tops can read as faces)."""
    proposed: tuple[TableState, list[Event]] | None = None
    """The last events given and the state they were for: the same events for the same
    state again were refused, and must not hold up what else the frame shows."""

    def expect_call(self, seat: int) -> None:
        """A seat pressed CALL: wait for its meld before taking its next discard (unless
        the meld is already in: then the seat holds the turn, not yet discarded)."""
        state = self.state()
        self.vouched[seat] = len(state.seats[seat].melds)
        if self.unseen_call == seat:
            self.unseen_call = None
        if state.turn == seat and not state.to_draw:
            return
        self.call_pending = seat
        self.call_melds = len(state.seats[seat].melds)
        self.call_at = self.now

    def warnings(self) -> list[str]:
        """What a person should know about the tracking now (for the screen).

        >>> tracker = Tracker(TableState.new)
        >>> tracker.unseen_call = 2
        >>> tracker.warnings()
        ['West called but no meld is seen: lay it face up by the hand, or UNDO']
        """
        if self.unseen_call is None:
            return []
        return [f"{seat_name(self.state(), self.unseen_call)} called but no meld is seen: "
                "lay it face up by the hand, or UNDO"]

    def behind(self) -> bool:
        """Whether the table shows more discards in some pond than the state holds."""
        state = self.state()
        return any(self._pond_ahead(state, seat) for seat in range(SEATS))

    def _pond_ahead(self, state: TableState, seat: int) -> bool:
        """Whether the seat's stable pond shows a discard the state lacks."""
        pond = self._stable_pond(seat)
        return pond is not None and len(pond) > lying(state, seat)

    def wants_faint(self) -> bool:
        """Whether the next frame should read the ponds' faint peaks too: a discard may
        lie there unseen (the next seat has discarded), or one was taken this hand."""
        state = self.state()
        if self.faint_spots or self.faint_taken is not None:
            return True
        return following(state) and self._turn_passed(state, state.turn)  # type: ignore[arg-type]

    def offer_again(self) -> None:
        """The app let the last events wait (a win or a draw on the screen): the next frame
        gives them again (unanswered, they are not refused ones)."""
        self.proposed = None

    def update(self, reading: TableReading) -> list[Event]:
        """The events this frame makes certain (each checked against the state later)."""
        self.frames += 1
        self.now = reading.timestamp
        if not reading.calibrated:
            return []
        self.layout = reading.layout
        state = self.state()
        self._keep_faint(state)
        kept = self.faint_spots.kept(reading.faint)
        gaps = reading.gaps if since(self.win_read, self.now) <= WIN_LOOK else ()
        self.history = [*self.history[-(self.frames_needed * 4):],
                        snapshot(reading, kept, gaps)]
        self._keep_hand_rows(self.history[-1].hand_rows)
        if not following(state):
            self.call_pending = self.unseen_call = self.faint_taken = None
            self.vouched.clear()
            self.faint_spots.clear()
            return []
        if self.call_pending is not None:
            laid = len(state.seats[self.call_pending].melds) > self.call_melds
            waited = since(self.call_at, self.now) > CALL_PATIENCE
            if not laid and waited:  # go on in turn order, and say so
                self.unseen_call = self.call_pending
            if laid or waited:
                self.call_pending = None
        elif self.unseen_call is not None and \
                len(state.seats[self.unseen_call].melds) > self.vouched.get(self.unseen_call, 0):
            self.unseen_call = None  # the meld showed up after all
        self._learn_ponds(state)
        self._learn_dora(state)
        out = self._next_events(state)
        self.proposed = (state, out) if out else self.proposed
        ahead = out
        for _ in range(CATCH_UP):  # the camera fell behind: take what else the frame shows
            try:
                for event in ahead:
                    state = apply(state, event)
            except BadEvent:
                break
            ahead = self._next_events(state) if state.result is None else []
            if not ahead:
                break
            out = [*out, *ahead]
        return out

    def _keep_hand_rows(self, rows: list[list[tuple[float, SeenTile]] | None]) -> None:
        """Remember this frame's hand rows; forget those older than :data:`HAND_SECONDS`."""
        self.hand_rows.append((self.frames, self.now, rows))
        while since(self.hand_rows[0][1], self.now) >= HAND_SECONDS:
            self.hand_rows.popleft()

    def _next_events(self, state: TableState) -> list[Event]:
        for source in (self._corrections, self._dora_corrections, self._melds, self._discards,
                       self._dora):
            events = source(state)
            if events and (self.proposed is None or self.proposed[0] is not state
                           or self.proposed[1] != events):
                return events
        return []

    # -- discards -----------------------------------------------------------------------

    def _stable_pond(self, seat: int) -> list[TileRead] | None:
        recent = [s.ponds[seat] for s in self.history[-self.frames_needed:]]
        if len(recent) < self.frames_needed or any(p is None for p in recent):
            return None
        if len({len(p) for p in recent}) != 1:  # type: ignore[arg-type]
            return None
        return vote_rows(recent)  # type: ignore[arg-type]

    def _discards(self, state: TableState) -> list[Event]:
        seat = state.turn
        assert seat is not None
        if self.call_pending == seat:  # a chi by the next player: the meld comes first
            return []
        pond = self._stable_pond(seat)
        lies = lying(state, seat)
        if pond is None or len(pond) < lies:
            return []
        if len(pond) > lies:
            read = pond[lies]
        elif self._turn_passed(state, seat):  # the discard must be there: a faint read?
            found = faint_discard([s.faint[seat] for s in self.history], lies,
                                  self.history[-1].ponds[seat][-1] if pond else None,
                                  self.layout)
            if found is None:
                return []
            read = found[0]
            self.faint_taken = (seat, lies, found[1])
        else:
            return []
        tile = read.best[0]
        counts = visible_counts(state, exclude_last_discard=False)
        if counts[tile.kind] >= 4:  # a fifth: this read or an earlier one is wrong
            alternative = next((t for t, _ in read.candidates if counts[t.kind] < 4), None)
            earlier = self._weakest_discard(state, tile.kind, counts)
            if earlier is not None and (alternative is None or read.best[1] >= earlier[0]):
                return [earlier[1]]
            if alternative is None:
                return []
            tile = alternative
        events: list[Event] = []
        if state.to_draw:
            events.append(Draw(seat, rinshan=state.kan_draw))
        return [*events, Discard(seat, tile)]

    def _keep_faint(self, state: TableState) -> None:
        """Keep the place of a faint discard the state now holds."""
        if self.faint_taken is not None:
            seat, index, tile = self.faint_taken
            if lying(state, seat) > index:
                self.faint_spots.add(seat, tile)
                self.faint_taken = None

    def _turn_passed(self, state: TableState, seat: int) -> bool:
        """Whether the next seat's pond shows a discard the state lacks (no call pending)."""
        return self.call_pending is None and self._pond_ahead(state, (seat + 1) % SEATS)

    def _weakest_discard(self, state: TableState, kind: int, counts: Counter[int]
                         ) -> tuple[float, DiscardCorrected] | None:
        """The registered discard of ``kind`` the frames supported least (its share of the
        votes) and its correction to the likeliest other tile that fits on the table."""
        found: tuple[float, DiscardCorrected] | None = None
        for seat in range(SEATS):
            for index, tally in zip(lying_at(state, seat), self.pond_votes[seat],
                                    strict=False):
                registered = state.seats[seat].pond[index].tile
                total = sum(tally.values())
                if registered.kind != kind or not total:
                    continue
                others = [(m, t) for t, m in tally.items()
                          if t.kind != kind and counts[t.kind] < 4]
                if not others:
                    continue
                share = tally.get(registered, 0.0) / total
                best = max(others, key=lambda item: item[0])[1]
                if found is None or share < found[0]:
                    found = (share, DiscardCorrected(seat, index, best))
        return found

    # -- second looks at the ponds -------------------------------------------------------

    def _learn_ponds(self, state: TableState) -> None:
        """Add this frame's reads to every registered discard while the ponds line up."""
        latest = self.history[-1]
        for seat in range(SEATS):
            lies = lying(state, seat)
            votes = self.pond_votes[seat][:lies]
            votes += [defaultdict(float) for _ in range(lies - len(votes))]
            self.pond_votes[seat] = votes
            seen = latest.ponds[seat]
            if seen is None or len(seen) != lies:
                continue
            if claimable(state, seat):  # a call may have taken it: the next tile takes its place
                seen, votes = seen[:-1], votes[:-1]
            if not _lines_up(seen, [state.seats[seat].pond[i].tile for i in lying_at(state, seat)]):
                continue
            for tally, tile in zip(votes, seen, strict=True):
                for candidate, p in tile.candidates:
                    tally[candidate] += p

    def _corrections(self, state: TableState) -> list[Event]:
        """A registered discard that many later frames read as another tile is corrected
        (unless that would make a fifth of its kind: then another read is the wrong one)."""
        counts = visible_counts(state, exclude_last_discard=False)
        for seat in range(SEATS):
            for index, tally in zip(lying_at(state, seat), self.pond_votes[seat],
                                    strict=False):
                if sum(tally.values()) < CORRECTION_FRAMES:
                    continue
                best = max(tally, key=tally.__getitem__)
                registered = state.seats[seat].pond[index].tile
                if (best != registered and tally[best] >= 2 * tally.get(registered, 0.0)
                        and (best.kind == registered.kind or counts[best.kind] < 4)):
                    return [DiscardCorrected(seat, index, best)]
        return []

    # -- melds --------------------------------------------------------------------------

    def _stable_row(self, seat: int) -> list[TileRead] | None:
        """The seat's melds as the last frames agree on them (same count, votes)."""
        recent = [s.hand_rows[seat] for s in self.history[-self.frames_needed:]]
        if len(recent) < self.frames_needed or any(r is None for r in recent):
            return None
        groups = [meld_group(r) for r in recent]  # type: ignore[arg-type]
        if len({len(g) for g in groups}) != 1:
            return None
        return vote_rows([[tile for _, tile in group] for group in groups])

    def _melds(self, state: TableState) -> list[Event]:
        if state.wall == 0:
            return []
        for seat in range(SEATS):
            melds = state.seats[seat].melds
            if self.vouched.get(seat) != len(melds):  # only a seat that pressed CALL melds
                continue
            row = self._stable_row(seat)
            if row is None:
                continue
            new = new_reads(row, melds)  # known meld tiles not seen (a sideways one) are let be
            if 1 <= len(new) <= 4 and len(row) - len(new) <= face_up_meld_tiles(melds):
                event = self._meld_event(state, seat, new)
                if event:
                    return event
        return []

    def _meld_event(self, state: TableState, seat: int, new: list[TileRead]) -> list[Event]:
        """The meld the new tiles of a seat's row make: for the discard that may be called
        (two new faces are the called tile's partners when the sideways tile is not seen),
        else a kan on the seat's own turn."""
        red_fives = state.rules.red_fives
        claim = state.last_discard if state.to_draw else None
        if claim is not None and claim[0] != seat and len(new) in (2, 3, 4) and \
                not self._still_lies(state, claim[0]):
            discarder, called = claim
            found = read_claimed(new, called, chi=(seat - discarder) % SEATS == 1)
            if found is not None:
                kind, tiles = found
                if kind == "kan":
                    tiles = four_of(called, red_fives)
                counts = visible_counts(state, exclude_last_discard=True)
                counts.update(t.kind for t in tiles)
                over = [k for k, n in counts.items() if n > 4]
                if over:  # an earlier discard was misread: correct it first
                    earlier = self._weakest_discard(state, over[0], counts)
                    return [earlier[1]] if earlier is not None else []
                return [Call(seat, kind, tiles, called, discarder)]  # type: ignore[arg-type]
        missed = self._missed_call(state, seat, new)
        if missed:
            return missed
        if len(new) in (1, 2) and state.turn == seat:
            melds = state.seats[seat].melds
            closed = sum(m.kind == "ankan" for m in melds)
            if len(new) == 2 and self._backs_by_melds(seat) <= 2 * closed:
                return []  # a closed kan shows its ends face down: two faces alone are not one
            tile = read_own_kan(new, [m.tiles[0].kind for m in melds if m.kind == "pon"])
            if tile is None:
                return []
            pre: list[Event] = [Draw(seat, rinshan=state.kan_draw)] if state.to_draw else []
            return [*pre, own_kan(melds, seat, tile, len(new) == 1, red_fives)]
        return []

    def _missed_call(self, state: TableState, seat: int, new: list[TileRead]) -> list[Event]:
        """A pon of a discard the camera never read: the seat to draw drew and discarded,
        and ``seat`` called it before its pond showed it (a dark face on a dark felt, an
        arm over the pond). The faces of the meld say what it was
        (:func:`~tablekit.tracking.meld_reading.read_missed_pon`); the draw, the discard and
        the call are given together; only while that pond is seen as the state has it (one
        not read, or showing more, may be a camera behind the table, and the called tile
        another seat's)."""
        discarder = state.turn
        if not state.to_draw or discarder is None or discarder == seat:
            return []
        pond = self._stable_pond(discarder)  # seen as the state has it: nothing else to read
        if pond is None or len(pond) != lying(state, discarder):
            return []
        found = read_missed_pon(new, visible_counts(state, exclude_last_discard=False))
        if found is None:
            return []
        kind, called, tiles = found
        if kind == "kan":
            tiles = four_of(called, state.rules.red_fives)
        return [Draw(discarder, rinshan=state.kan_draw), Discard(discarder, called),
                Call(seat, kind, tiles, called, discarder)]  # type: ignore[arg-type]

    def _still_lies(self, state: TableState, seat: int) -> bool:
        """Whether the seat's last discard still lies in its pond (the frames agree): a
        meld laid now is of another tile, one the camera missed."""
        pond = self._stable_pond(seat)
        return pond is not None and len(pond) >= lying(state, seat)

    def _backs_by_melds(self, seat: int) -> int:
        """Face-down tiles lying among or just left of the seat's melds, in every one of
        the last frames (the fewest)."""
        counts = []
        for frame in self.history[-self.frames_needed:]:
            row, backs = frame.hand_rows[seat], frame.hand_backs[seat]
            group = meld_group(row) if row else []
            if not group or backs is None:
                return 0
            counts.append(sum(x >= group[0][0] - BACK_REACH for x in backs))
        return min(counts, default=0)

    # -- dora ---------------------------------------------------------------------------

    def _dora(self, state: TableState) -> list[Event]:
        """A dora indicator turned up: the first of the hand, then one after each kan (a
        second one seen before any kan is a misread)."""
        if len(state.dora) > state.kans:
            return []
        recent = [s.indicators for s in self.history[-self.frames_needed:]]
        if len(recent) < self.frames_needed or any(r is None for r in recent):
            return []
        counts = {len(r) for r in recent}  # type: ignore[arg-type]
        if len(counts) != 1 or counts.pop() <= len(state.dora):
            return []
        seen = Counter(read.best[0] for read in vote_rows(recent))  # type: ignore[arg-type]
        seen.subtract(Counter(state.dora))
        new = [tile for tile, n in seen.items() if n > 0]
        return [DoraRevealed(new[0])] if new else []

    def _learn_dora(self, state: TableState) -> None:
        """Count this frame for or against the registered indicators, when it shows them
        all: against when it surely reads exactly one of them as another tile."""
        if state.dora != self.dora_for:
            self.dora_votes.clear()
            self.dora_for = state.dora
        row = self.history[-1].indicators
        if not state.dora or row is None or len(row) != len(state.dora):
            return
        read, registered = misread_indicators(vote_rows([row]), state.dora)
        if not read and not registered:
            self.dora_votes[None, None] += 1  # type: ignore[index]
        elif sum(read.values()) == 1 and sum(registered.values()) == 1:
            self.dora_votes[next(iter(registered)), next(iter(read))] += 1

    def _dora_corrections(self, state: TableState) -> list[Event]:
        """A dora indicator that many frames since surely read as one other tile (twice
        as many as read it as registered) is corrected, unless that makes a fifth."""
        if state.dora != self.dora_for:
            return []
        agree = self.dora_votes[None, None]  # type: ignore[index]
        for (was, tile), frames in self.dora_votes.items():
            if was is None or frames < max(CORRECTION_FRAMES, 2 * agree):
                continue
            if tile.kind == was.kind or visible_counts(
                    state, exclude_last_discard=False)[tile.kind] < 4:
                return [DoraCorrected(state.dora.index(was), tile)]
        return []

    # -- wins ---------------------------------------------------------------------------

    def read_win(self, seats: tuple[int, ...], from_seat: int | None) -> WinReading:
        """The revealed hands of ``seats`` (ron on ``from_seat``'s tile, or tsumo)."""
        state = self.state()
        if since(self.win_read, self.now) > WIN_LOOK:
            self.win_from = self.frames  # a new win
        self.win_read = self.now
        winners, doubts, drafts, unseen = [], [], [], 0
        for seat in seats:
            melds = state.seats[seat].melds
            row = concealed_count(len(melds)) + face_up_meld_tiles(melds)
            reads = self._hand_reads(seat, melds)
            unseen += max(0, row - len(reads or ()))
            if reads is None:
                doubts.append(f"{seat_name(state, seat)}: the revealed hand is hidden")
                drafts.append((seat, draft_hand(state, seat, [], from_seat)))
                continue
            hand, found = read_revealed(state, seat, reads, from_seat)
            doubts.extend(found)
            if hand is not None:
                winners.append(hand)
            else:
                drafts.append((seat, draft_hand(state, seat, reads, from_seat)))
        counts = visible_counts(state, exclude_last_discard=from_seat is not None)
        for hand in winners:
            counts.update(tile.kind for tile in hand.hand)
        ura, no_ura = self._ura(state, seats, counts)
        doubts += self._dora_doubts(state)
        return WinReading(tuple(winners), ura, (*doubts, *no_ura), tuple(drafts), unseen)

    def _dora_doubts(self, state: TableState) -> list[str]:
        """A second look at the dora indicators at a win: one the last frames surely read
        as another tile than the one registered is a doubt (a person puts it right with
        CALL, like the hand's tiles)."""
        rows = [s.indicators for s in self.history[-self.frames_needed * 2:]]
        rows = [r for r in rows if r is not None and len(r) == len(state.dora)]
        if not rows or not state.dora:
            return []
        now, before = misread_indicators(vote_rows(rows), state.dora)
        if not now:
            return []
        return [f"dora indicator: reads as {to_mpsz(now.elements())} now, "
                f"{to_mpsz(before.elements())} when it was registered"]

    def _hand_reads(self, seat: int, melds: Sequence[Meld]) -> list[TileRead] | None:
        """The seat's revealed row voted over the frames since the win was first read that
        show it (at least half its concealed tiles face up) by where its tiles lie, its
        melds as the state knows them where the row shows where they begin; None when no
        frame shows the row."""
        rows = [r[seat] for at, _, r in self.hand_rows
                if at >= self.win_from and r[seat] is not None]
        if not rows:
            return None
        laid = [TileRead.sure(tile) for meld in melds for tile in face_up_tiles(meld)]
        concealed = concealed_count(len(melds))
        shown = [r for r in rows if len(r) >= len(laid) + (concealed + 1) // 2]
        used = shown or rows[-self.frames_needed * 2:]
        slots = row_slots(used)
        left = before_melds(slots) if melds else None
        if left is None:
            return vote_slots(slots, concealed + len(laid), len(used))
        return [*vote_slots(left, concealed, len(used)), *laid]

    def _ura(self, state: TableState, seats: tuple[int, ...], counts: Counter[int]
             ) -> tuple[tuple[Tile, ...], list[str]]:
        """The ura indicators under a riichi winner's win, one under each dora indicator,
        voted over the last frames that show them all (none a fifth of its kind over the
        ``counts`` of visible tiles); doubts when none does or a read is unsure."""
        if not any(state.seats[s].riichi for s in seats):
            return (), []
        want = max(1, len(state.dora))
        rows = [sorted((t for t in s.ura if t.candidates), key=lambda t: t.place.x)
                for s in self.history[-self.frames_needed * 2:]]
        rows = [r for r in rows if len(r) == want]
        if not rows:
            return (), [f"ura dora: {want} indicator{'s' * (want > 1)} not seen"]
        return read_indicators(vote_rows(rows), counts, "ura dora")


def misread_indicators(reads: Sequence[TileRead], registered: Sequence[Tile]
                       ) -> tuple[Counter[Tile], Counter[Tile]]:
    """Where a row of indicator reads and the indicators registered differ: the tiles
    surely read (:data:`SURE`) but not registered, and those registered but not read.

    >>> reads = [TileRead.sure(Tile(17)), TileRead(((Tile(4), 0.5),))]
    >>> misread_indicators(reads, [Tile(16), Tile(4)])
    (Counter({Tile('9p'): 1}), Counter({Tile('8p'): 1}))
    """
    sure = Counter(read.best[0] for read in reads if read.best[1] >= SURE)
    return sure - Counter(registered), Counter(registered) - Counter(r.best[0] for r in reads)


def four_of(tile: Tile, red_fives: bool) -> tuple[Tile, ...]:
    """All four copies of a kind (one of them red for a five under red-five rules).

    >>> from tablekit.tiles import to_mpsz
    >>> to_mpsz(four_of(Tile.from_code("5p"), True))
    '5550p'
    """
    plain = tile.plain
    is_five = plain.kind < 27 and plain.kind % 9 == 4
    return (plain, plain, plain, Tile(plain.kind, red=True) if is_five and red_fives else plain)


def own_kan(melds: Sequence[Meld], seat: int, tile: Tile, added: bool,
            red_fives: bool = True) -> Call:
    """An added kan (``tile`` beside a pon of its kind) or a closed kan of ``tile``'s kind."""
    if added:
        pon = next((m for m in melds if m.kind == "pon" and m.tiles[0].kind == tile.kind), None)
        base = pon.tiles if pon else (tile.plain,) * 3
        return Call(seat, "shouminkan", (*base, tile), tile, pon.from_seat if pon else None)
    return Call(seat, "ankan", four_of(tile, red_fives), None, None)


def following(state: TableState) -> bool:
    """Whether a hand is in play that the camera follows (tracked, someone's turn)."""
    return state.result is None and state.tracked and state.turn is not None


def _lines_up(seen: list[TileRead], registered: list[Tile]) -> bool:
    """Whether a pond as seen is the registered one with at most a few tiles read otherwise
    (a third): one that differs more is another table (a new deal while the camera was
    blind, something over the pond), whose reads must not correct the registered discards."""
    differ = sum(1 for tile, was in zip(seen, registered, strict=False) if tile.candidates
                 and max(tile.candidates, key=lambda c: c[1])[0] != was)
    return differ <= max(1, len(seen) // 3)


def lying_at(state: TableState, seat: int) -> list[int]:
    """The indices (in the state's pond) of the seat's discards still lying in its pond,
    in the order they lie there: claimed ones were taken."""
    return [i for i, p in enumerate(state.seats[seat].pond) if not p.claimed]


def lying(state: TableState, seat: int) -> int:
    """How many of the seat's discards still lie in its pond (claimed ones were taken)."""
    return len(lying_at(state, seat))


def claimable(state: TableState, seat: int) -> bool:
    """Whether the seat's last discard may still be called (nobody has drawn since)."""
    return state.to_draw and state.last_discard is not None and state.last_discard[0] == seat


