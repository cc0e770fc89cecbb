"""A real game as a script for the simulated table: moments and the presses each calls for.

A moment is one event of a recorded hand (Tenhou mjlog, via the importer): the table
after it, how long it stays on the table, who reaches over the table for it, and the
button presses players make then, in the app's terms (:mod:`tablekit.flow`):

* the deal: OK (the shared button starts a hand),
* a riichi: RIICHI by that seat; a chi, pon or kan: CALL by the caller,
* a tsumo: WIN held by the winner, then OK to confirm the scored hand,
* a ron: WIN by each winner, OK to close the claims, OK to confirm,
* an exhaustive draw: OK (opens the tenpai declarations, riichi seats already marked),
  WIN by each other tenpai seat, then OK.

Abortive draws are not scripted with presses (they are chosen from the UNDO-held menu).
``ButtonPress.time`` is the offset in seconds from the start of the moment.

>>> from tablekit.sim.table import DEMO_GAME
>>> script = Script.from_log(DEMO_GAME)
>>> len(script.moments) == sum(len(h.events) for h in script.game.hands)
True
>>> [str(p) for p in script.moment(1, len(script.game.hands[1].events)).presses]
['seat 1 win (held)', 'ok']
>>> [str(p) for p in script.moment(0, len(script.game.hands[0].events)).presses]
['ok', 'seat 2 win', 'seat 3 win', 'ok']
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field, replace
from pathlib import Path

from tablekit.flow import MenuItem, abort_item, menu_items
from tablekit.formats.tenhou import ImportedGame, import_file
from tablekit.game.events import (
    AbortiveDraw,
    Call,
    Discard,
    Draw,
    Event,
    ExhaustiveDraw,
    HandStarted,
    Kita,
    RiichiDeclared,
    Won,
)
from tablekit.game.reducer import apply
from tablekit.game.state import TableState
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.sim.table import NoSuchMoment, TableView, hand_start_states, view_at

DURATIONS: dict[type, float] = {HandStarted: 3.0, Draw: 0.6, Discard: 1.0, Call: 2.0,
                                RiichiDeclared: 1.5, Won: 6.0, ExhaustiveDraw: 6.0,
                                AbortiveDraw: 6.0, Kita: 1.0}
DEFAULT_DURATION = 0.8


@dataclass(frozen=True)
class Moment:
    """The table after ``turn`` events of hand ``hand`` (both as in :func:`table_view`)."""

    hand: int
    turn: int
    event: Event
    presses: tuple[ButtonPress, ...]
    start: float
    """Seconds from the start of the game."""
    duration: float
    actor: int | None
    """The seat whose arm reaches over the table at the start of this moment."""


@dataclass(frozen=True)
class Script:
    game: ImportedGame
    moments: tuple[Moment, ...]
    _states: dict[int, tuple[TableState, ...]] = field(
        default_factory=dict, init=False, compare=False, repr=False)
    _starts: list[TableState] = field(default_factory=list, init=False, compare=False,
                                      repr=False)

    @classmethod
    def from_log(cls, path: Path) -> Script:
        return cls.from_game(import_file(path, three_players=True))

    @classmethod
    def from_game(cls, game: ImportedGame) -> Script:
        moments, clock = [], 0.0
        starts = hand_start_states(game)
        for hand_index, hand in enumerate(game.hands):
            state = starts[hand_index]
            for turn, event in enumerate(hand.events, start=1):
                presses = presses_for(event, state)
                state = apply(state, event)
                duration = DURATIONS.get(type(event), DEFAULT_DURATION)
                moments.append(Moment(hand_index, turn, event, presses, clock, duration,
                                      actor_of(event)))
                clock += duration
        return cls(game, tuple(moments))

    @property
    def length(self) -> float:
        """Seconds the whole game takes on the simulated table."""
        last = self.moments[-1] if self.moments else None
        return last.start + last.duration if last else 0.0

    def presses_between(self, start: float, end: float) -> list[ButtonPress]:
        """The presses due in ``[start, end)`` seconds, ``time`` made absolute."""
        return [replace(press, time=moment.start + press.time) for moment in self.moments
                for press in moment.presses if start <= moment.start + press.time < end]

    def index_at(self, seconds: float) -> int:
        """The moment on the table ``seconds`` after the start (the last one after the end)."""
        starts = [m.start for m in self.moments]
        return max(0, min(len(starts) - 1, bisect.bisect_right(starts, seconds) - 1))

    def index_of(self, hand: int, turn: int) -> int:
        for index, moment in enumerate(self.moments):
            if moment.hand == hand and moment.turn == turn:
                return index
        if not 0 <= hand < len(self.game.hands):
            raise NoSuchMoment(f"hand {hand}: the game has hands 0..{len(self.game.hands) - 1}")
        last = len(self.game.hands[hand].events)
        raise NoSuchMoment(f"turn {turn}: hand {hand} has turns 1..{last}")

    def moment(self, hand: int, turn: int) -> Moment:
        return self.moments[self.index_of(hand, turn)]

    def view(self, index: int) -> TableView:
        """What lies on the table at moment ``index``."""
        moment = self.moments[index]
        states = self._hand_states(moment.hand)
        return view_at(self.game.hands[moment.hand], states[moment.turn], moment.turn)

    def _hand_states(self, hand: int) -> tuple[TableState, ...]:
        """The table after each event of ``hand`` (the last two hands asked are kept)."""
        if hand not in self._states:
            if not self._starts:
                self._starts.extend(hand_start_states(self.game))
            state = self._starts[hand]
            states = [state]
            for event in self.game.hands[hand].events:
                state = apply(state, event)
                states.append(state)
            while len(self._states) >= 2:
                self._states.pop(next(iter(self._states)))
            self._states[hand] = tuple(states)
        return self._states[hand]


def presses_for(event: Event, before: TableState) -> tuple[ButtonPress, ...]:
    """The presses ``event`` calls for, ``before`` being the table just before it."""
    if isinstance(event, HandStarted):
        return (_press(ButtonName.OK, None, 0.2),)
    if isinstance(event, RiichiDeclared):
        return (_press(ButtonName.RIICHI, event.seat, 0.3),)
    if isinstance(event, Call):
        return (_press(ButtonName.CALL, event.seat, 0.2),)
    if isinstance(event, Won):
        return _win_presses(event)
    if isinstance(event, ExhaustiveDraw):
        return _tenpai_presses(event, before)
    if isinstance(event, AbortiveDraw):
        return _menu_presses(abort_item(event.kind), before)
    return ()


def _press(name: ButtonName, seat: int | None, at: float, long: bool = False) -> ButtonPress:
    return ButtonPress(name, seat, long, at)


def _win_presses(event: Won) -> tuple[ButtonPress, ...]:
    if event.from_seat is None:
        winner = event.winners[0].seat
        return (_press(ButtonName.WIN, winner, 0.3, long=True), _press(ButtonName.OK, None, 4.0))
    wins = [_press(ButtonName.WIN, w.seat, 0.3 + 0.25 * i) for i, w in enumerate(event.winners)]
    return (*wins, _press(ButtonName.OK, None, 1.0), _press(ButtonName.OK, None, 4.0))


def _tenpai_presses(event: ExhaustiveDraw, before: TableState) -> tuple[ButtonPress, ...]:
    preset = {s for s, seat in enumerate(before.seats) if seat.riichi}
    toggles = sorted(preset.symmetric_difference(event.tenpai))
    seat_presses = [_press(ButtonName.WIN, s, 1.0 + 0.4 * i) for i, s in enumerate(toggles)]
    return (_press(ButtonName.OK, None, 0.5), *seat_presses, _press(ButtonName.OK, None, 4.0))


def _menu_presses(item: MenuItem, before: TableState) -> tuple[ButtonPress, ...]:
    """Held UNDO opens the menu, UNDO steps down to ``item``, OK chooses it."""
    steps = menu_items(before).index(item)
    moves = [_press(ButtonName.UNDO, None, 2.0 + 0.4 * i) for i in range(steps)]
    return (_press(ButtonName.UNDO, None, 0.3, long=True), *moves,
            _press(ButtonName.OK, None, 2.2 + 0.4 * steps))


def actor_of(event: Event) -> int | None:
    """The seat that reaches over the table for ``event`` (None: nobody)."""
    if isinstance(event, (Discard, Call, RiichiDeclared, Kita)):
        return event.seat
    if isinstance(event, Won):
        return event.winners[0].seat
    return None
