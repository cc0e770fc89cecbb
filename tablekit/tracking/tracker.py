"""From frames to events: a per-zone view of the table that only believes what is stable.

Each frame's :class:`TableReading` is sorted into zones and kept in a
:class:`~tablekit.tracking.stable_view.StableView`: a seat's pond, its face-up meld
tiles and the dora indicators count only once they read the same for a moment with
nothing moving over them. The stable view is then compared with the engine's state and
the differences become events, each from its own part:

* :mod:`~tablekit.tracking.pond_votes`: a registered discard many later frames read as
  another tile is corrected,
* :mod:`~tablekit.tracking.dora_watch`: a new dora indicator, or one corrected,
* :mod:`~tablekit.tracking.meld_events`: a claimed discard and the meld laid for it, a
  closed or added kan; a meld counts only once its seat has pressed CALL
  (:mod:`~tablekit.tracking.calls`): the button vouches for it, the camera says what it is,
* :mod:`~tablekit.tracking.kita_watch`: three players: a North set aside by the seat whose
  turn it is (a kita, not a discard),
* :mod:`~tablekit.tracking.discards`: a draw and a discard (sideways = the riichi tile);
  a discard the detector barely sees is taken only once the next seat has discarded,
* :mod:`~tablekit.tracking.suspects`: events that would show a fifth of a kind make the
  earlier registered tile of that kind the frames supported least the suspect: it is put
  right first, so the new tile is taken and the hand never stalls; the screen says what
  the camera doubts.

At a win the flow looks at the table (:meth:`Tracker.look_at_win`) and reads the revealed
hands (:meth:`Tracker.read_win`, :mod:`~tablekit.tracking.revealed_hands`).

The tracker is handed the state each time it is asked (it keeps none of the engine's): a
frame's events are those the state it was read against lacks; when the camera fell behind,
:meth:`Tracker.catch_up` gives what else the frame shows once the flow has taken them,
against the state they made (the engine's own reducer, never a guess of the tracker's).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tablekit.game.events import Discard, DiscardCorrected, Event
from tablekit.game.state import TableState, ordinal, seat_name
from tablekit.game.win_reading import WinReading
from tablekit.tracking.calls import CallWatch
from tablekit.tracking.discards import DiscardSpotter, pond_ahead
from tablekit.tracking.dora_watch import DoraWatch
from tablekit.tracking.kita_watch import kita_events
from tablekit.tracking.meld_events import MeldSpotter
from tablekit.tracking.pond_votes import PondVotes, lying
from tablekit.tracking.revealed_hands import RevealedHands
from tablekit.tracking.stable_view import StableView, since, snapshot
from tablekit.tracking.suspects import (
    Suspect,
    contradiction,
    puts_back,
    replacement,
    still_stands,
    suspects,
)
from tablekit.vision.layout import DEFAULT_LAYOUT, TableLayout
from tablekit.vision.table_reading import TableReading

CATCH_UP = 4       # further steps one frame may give when the camera fell behind
LAG_SECONDS = 10.0
"""How long a pond may show discards the state lacks before the camera counts as lost
behind the table (it cannot read these tiles): the screen says so, and the flow no longer
waits for it (:meth:`Tracker.behind`)."""
STALL_SECONDS = 20.0
"""How long the hand in play may go without the camera taking anything before the flow no
longer waits for it (the wall's end is declared by the buttons): a tile it never sees."""
LAGGING = ("the camera cannot follow these tiles (enroll them: tablekit enroll): "
           "WIN, OK and the menu keep the hand")


@dataclass(frozen=True)
class Offer:
    """Events given for a state: the same events for an equal state again (the same
    number of events applied, the same table) were refused, and must not hold up what
    else the frame shows."""

    state: TableState
    events: tuple[Event, ...]

    def repeated(self, state: TableState, events: list[Event]) -> bool:
        return (tuple(events) == self.events and state.events == self.state.events
                and state == self.state)


class Tracker:
    """Turns frames into events against the engine state it is handed.

    >>> tracker, state = Tracker(), TableState.new()
    >>> tracker.update(TableReading(()), state)  # no hand in play: nothing to follow
    []
    >>> tracker.catch_up(state), tracker.behind(state), tracker.warnings(state)
    ([], False, [])
    """

    def __init__(self) -> None:
        self.view = StableView()
        self.calls = CallWatch()
        self.votes = PondVotes()
        self.dora = DoraWatch()
        self.discards = DiscardSpotter(self.view, self.calls, self.votes)
        self.melds = MeldSpotter(self.view, self.calls, self.votes)
        self.revealed = RevealedHands()
        self.offered: Offer | None = None
        self.now = 0.0
        """The last reading's timestamp (s)."""
        self.started = False
        """Whether a reading has come (``now`` means something)."""
        self.early_calls: list[int] = []
        """CALLs pressed before the first reading (a restart): pressed at the first one."""
        self.layout: TableLayout = DEFAULT_LAYOUT
        """The table the last reading was read on (where a pond's slots lie)."""
        self.doubted: list[Suspect] = []
        """This hand's registered tiles put right as suspects (the screen says so)."""
        self.refused: set[Event] = set()
        """This hand's suspects' corrections the engine refused (the next suspect is tried)."""
        self.ahead_since: dict[int, float] = {}
        """Since when each seat's steady pond has shown discards the state lacks."""
        self.moved: tuple[int, float] | None = None
        """The state's event count and since when it has stood (a hand in play)."""
        self.ahead: tuple[TableState, int] | None = None
        """The state the last events were given against, and how many more steps
        :meth:`catch_up` may take from the same frame (None: none)."""

    # -- what the flow and the feed ask -------------------------------------------------

    def expect_call(self, state: TableState, seat: int) -> None:
        """A seat pressed CALL: wait for its meld before taking its next discard (unless
        the meld is already in: then the seat holds the turn, not yet discarded). Before
        the first frame (a restart) the patience runs from that frame."""
        if not self.started:
            self.early_calls.append(seat)
            return
        self.calls.press(state, seat, self.now)

    def warnings(self, state: TableState) -> list[str]:
        """What a person should know about the tracking now (for the screen): a call
        awaited, the tiles put right as suspects (the latest first) that still stand."""
        doubts = [s.doubt for s in reversed(self.doubted) if still_stands(state, s)]
        lost = [LAGGING] if self.lagging() else []
        return [*lost, *self.calls.warnings(state), *doubts[:2]]

    def behind(self, state: TableState) -> bool:
        """Whether the table shows more discards in some pond than the state holds, now or
        (in the frames a hand hid the pond) for :data:`LAG_SECONDS` on end, or the camera
        has taken nothing for :data:`STALL_SECONDS` (a discard it never sees)."""
        stalled = self.moved is not None and since(self.moved[1], self.now) >= STALL_SECONDS
        return stalled or self.lagging() or any(pond_ahead(self.view, state, seat)
                                                for seat in range(state.players))

    def lagging(self) -> bool:
        """Whether a pond has shown discards the state lacks for :data:`LAG_SECONDS`: the
        camera cannot read the tiles well enough to follow the table."""
        return any(since(at, self.now) >= LAG_SECONDS for at in self.ahead_since.values())

    def wants_faint(self, state: TableState) -> bool:
        """Whether the next frame should read the ponds' faint peaks too: a discard may
        lie there unseen (the next seat has discarded), or one was taken this hand."""
        if self.discards.faint_known():
            return True
        return state.turn is not None and following(state) and \
            self.discards.turn_passed(state, state.turn)

    def wants_gaps(self) -> bool:
        """Whether the next frame should look again at the revealed rows' empty places
        (:mod:`tablekit.vision.row_gaps`): only while a win is read, the only time their
        reads count (:meth:`~tablekit.tracking.revealed_hands.RevealedHands.looking`)."""
        return self.revealed.looking(self.now)

    def offer_again(self) -> None:
        """The app let the last events wait (a win or a draw on the screen): the next frame
        gives them again (unanswered, they are not refused ones)."""
        self.offered = None

    def look_at_win(self) -> None:
        """A win is on the table: its revealed hands are read from the frames since the
        first look (and the hand rows' gaps are looked into for a while)."""
        self.revealed.look(self.now)

    def read_win(self, state: TableState, seats: tuple[int, ...], from_seat: int | None
                 ) -> WinReading:
        """The revealed hands of ``seats`` (ron on ``from_seat``'s tile, or tsumo), from
        the frames since the flow looked at the win."""
        return self.revealed.read(state, self.view, seats, from_seat,
                                  self.votes.doubts(state))

    # -- each frame ---------------------------------------------------------------------

    def update(self, reading: TableReading, state: TableState) -> list[Event]:
        """The events this frame makes certain against ``state`` (each checked by the
        engine when the flow takes it); when the camera fell behind, :meth:`catch_up`
        gives the next ones once these are taken."""
        self.now, self.started, self.ahead = reading.timestamp, True, None
        for seat in self.early_calls:
            self.calls.press(state, seat, self.now)
        self.early_calls.clear()
        if not reading.calibrated:
            return []
        self.layout = reading.layout
        self.discards.keep_faint(state)
        kept = self.discards.faint_spots.kept(reading.faint)
        looking = self.revealed.looking(self.now)
        self.view.add(snapshot(reading, kept, reading.gaps if looking else (),
                               reading.moved if looking else ()))
        self.revealed.keep(self.now, self.view.latest.hand_rows, self.view.latest.ura)
        if not following(state):
            self.calls.reset()
            self.discards.forget()
            self.doubted.clear()
            self.refused.clear()
            self.ahead_since.clear()
            self.moved = None
            return []
        self.calls.step(state, self.now)
        weight = self.view.period()
        self.votes.learn(state, self.view.latest.ponds, weight)
        self.dora.learn(state, self.view.latest.indicators, weight)
        out = self._next_events(state)
        self.offered = Offer(state, tuple(out)) if out else self.offered
        self._watch_lag(state)
        self.ahead = (state, CATCH_UP) if out else None
        return out

    def catch_up(self, state: TableState) -> list[Event]:
        """What else the last frame shows (the camera fell behind), against ``state``: the
        state once the flow has taken the events last given; nothing when it took none of
        them (refused, or let wait), after :data:`CATCH_UP` steps, or once the hand is
        over."""
        if self.ahead is None or state == self.ahead[0] or state.result is not None:
            self.ahead = None
            return []
        events = self._next_events(state)
        steps = self.ahead[1] - 1
        self.ahead = (state, steps) if events and steps > 0 else None
        return events

    def _watch_lag(self, state: TableState) -> None:
        """Note since when each seat's steady pond has been ahead of the state (a pond
        hidden this frame keeps its time; one seen level with the state clears it), and
        since when the state has stood."""
        if self.moved is None or self.moved[0] != state.events:
            self.moved = (state.events, self.now)
        for seat in range(state.players):
            pond = self.view.pond(seat)
            if pond is None:
                continue
            if len(pond) > lying(state, seat):
                self.ahead_since.setdefault(seat, self.now)
            else:
                self.ahead_since.pop(seat, None)

    def _next_events(self, state: TableState) -> list[Event]:
        sources: tuple[Callable[[TableState], list[Event]], ...] = (
            self._corrections, self.melds.events, self._kita, self._discards, self._dora)
        for source in sources:
            events = source(state)
            if events and (self.offered is None or not self.offered.repeated(state, events)):
                kind = contradiction(state, events)
                return events if kind is None else self._suspect_first(state, kind, events)
        return []

    def _suspect_first(self, state: TableState, kind: int, events: list[Event]) -> list[Event]:
        """``events`` would show a fifth of ``kind``: the registered tile of that kind the
        frames supported least is put right first (one the engine refused, the next); with
        none left, a new discard is taken as a tile that fits, doubted on the screen."""
        if self.offered is not None and len(self.offered.events) == 1 and (
                self.offered.repeated(state, list(self.offered.events))):
            self.refused.add(self.offered.events[0])
        for suspect in suspects(state, kind, self.votes, self.dora):
            if suspect.fix not in self.refused:
                self._doubt(suspect)
                return [suspect.fix]
        last = events[-1]
        if isinstance(last, Discard) and last.tile.kind == kind:
            counts = state.visible_kinds()
            tile = replacement(last.tile, counts)
            if tile is not None:
                fix = Discard(last.seat, tile, last.tsumogiri)
                where = f"{seat_name(state, last.seat)}'s " + ordinal(
                    len(state.seats[last.seat].pond) + 1) + " discard"
                self._doubt(Suspect(0.0, DiscardCorrected(
                    last.seat, len(state.seats[last.seat].pond), tile), where, last.tile))
                return [*events[:-1], fix]
        return events

    def _corrections(self, state: TableState) -> list[Event]:
        """The votes' corrections of discards and dora indicators, less one that would put
        back a suspect put right (the frames that misread it still read it so)."""
        for source in (self.votes.corrections, self.dora.corrections):
            events = [e for e in source(state) if not any(
                puts_back(e, s) and still_stands(state, s) for s in self.doubted)]
            if events:
                return events
        return []

    def _kita(self, state: TableState) -> list[Event]:
        return kita_events(self.view, state)

    def _doubt(self, suspect: Suspect) -> None:
        if all(s.fix != suspect.fix for s in self.doubted):
            self.doubted.append(suspect)

    def _discards(self, state: TableState) -> list[Event]:
        return self.discards.events(state, self.layout)

    def _dora(self, state: TableState) -> list[Event]:
        return self.dora.revealed(state, self.view.indicators())


def following(state: TableState) -> bool:
    """Whether a hand is in play that the camera follows (tracked, someone's turn)."""
    return state.result is None and state.tracked and state.turn is not None
