"""Draws and discards: the seat in turn's steady pond shows a tile the state lacks.

A read that would make a fifth of its kind means this read or an earlier one is wrong:
the read's next candidate is taken when the read is less sure than the earlier discard the
frames supported least, else the read is given as it is and the tracker puts the earlier
suspect right first (:mod:`~tablekit.tracking.suspects`). A discard the detector barely
sees is taken only once the next seat has discarded
(:mod:`tablekit.tracking.faint_discards`); its place is kept for the hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tablekit.game.events import Discard, Draw, Event
from tablekit.game.state import TableState
from tablekit.tracking.calls import CallWatch
from tablekit.tracking.faint_discards import FAINT_SECONDS, FaintSpots, faint_discard
from tablekit.tracking.hand_reading import visible_counts
from tablekit.tracking.pond_votes import PondVotes, lying
from tablekit.tracking.stable_view import StableView
from tablekit.vision.layout import DEFAULT_LAYOUT, TableLayout
from tablekit.vision.table_reading import SeenTile


def pond_ahead(view: StableView, state: TableState, seat: int) -> bool:
    """Whether the seat's steady pond shows a discard the state lacks."""
    pond = view.pond(seat)
    return pond is not None and len(pond) > lying(state, seat)


def still_lies(view: StableView, state: TableState, seat: int) -> bool:
    """Whether the seat's last discard still lies in its steady pond: a meld laid now is
    of another tile, one the camera missed."""
    pond = view.pond(seat)
    return pond is not None and len(pond) >= lying(state, seat)


@dataclass
class DiscardSpotter:
    """The next draw and discard of the seat in turn, from the steady view."""

    view: StableView
    calls: CallWatch
    votes: PondVotes
    faint_spots: FaintSpots = field(default_factory=FaintSpots)
    faint_taken: tuple[int, int, SeenTile] | None = None
    """A faint discard given as an event (seat, pond index, read): its place is kept once
    the state holds it (a refused one is not)."""

    def events(self, state: TableState, layout: TableLayout = DEFAULT_LAYOUT) -> list[Event]:
        """The draw and discard the pond of the seat in turn shows (on the table
        ``layout``), or a correction of an earlier discard that must come first."""
        seat = state.turn
        assert seat is not None
        if self.calls.holds_back(seat):  # a chi by the next player: the meld comes first
            return []
        pond = self.view.pond(seat)
        lies = lying(state, seat)
        if pond is None or len(pond) < lies:
            return []
        if len(pond) > lies:
            read = pond[lies]
        elif self.turn_passed(state, seat):  # the discard must be there: a faint read?
            window = self.view.covering(FAINT_SECONDS) or []
            latest = self.view.latest.ponds[seat]
            found = faint_discard([s.faint[seat] for s in window], lies,
                                  latest[-1] if pond and latest else None, layout)
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
            earlier = self.votes.weakest(state, tile.kind, counts)
            if alternative is not None and (earlier is None or read.best[1] < earlier[0]):
                tile = alternative  # else a fifth: the tracker puts the suspect right first
        events: list[Event] = []
        if state.to_draw:
            events.append(Draw(seat, rinshan=state.kan_draw))
        return [*events, Discard(seat, tile)]

    def keep_faint(self, state: TableState) -> None:
        """Keep the place of a faint discard the state now holds."""
        if self.faint_taken is not None:
            seat, index, tile = self.faint_taken
            if lying(state, seat) > index:
                self.faint_spots.add(seat, tile)
                self.faint_taken = None

    def forget(self) -> None:
        """No hand in play: no faint discard stands."""
        self.faint_taken = None
        self.faint_spots.clear()

    def turn_passed(self, state: TableState, seat: int) -> bool:
        """Whether the next seat's pond shows a discard the state lacks (no call pending)."""
        following = (seat + 1) % state.players
        return self.calls.waiting is None and pond_ahead(self.view, state, following)

    def faint_known(self) -> bool:
        """Whether a faint discard was taken this hand (its place is read from then on)."""
        return bool(self.faint_spots) or self.faint_taken is not None
