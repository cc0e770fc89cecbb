"""Between games: the final standings, the evening so far, the league table (when a league
is kept), then the next game with the same players.

OK moves on a screen at a time; UNDO goes back a screen (on the final standings it takes
back the last hand), and at the start of the next game UNDO takes that start back (the
final standings again): one action per UNDO. Held UNDO opens the menu everywhere. With a
roster, CALL (any seat) chooses the players again (:mod:`tablekit.flow.seats`), and OK
there starts the next game with them. None of the screens writes to the
journal, so a power cut comes back to the same screen (the flow's note) and the same
evening (the journal keeps every game of it).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from tablekit.flow.model import FlowData, Settings, Step, Table
from tablekit.flow.stage import Stage
from tablekit.flow.stages import plain
from tablekit.flow.steps import choose, common, start_game
from tablekit.game.evening import Evening, tonight
from tablekit.game.session import in_force
from tablekit.io.presses import ButtonName, ButtonPress

LEAGUE_FRESH = 5.0  # seconds the league table shown is read again after

if TYPE_CHECKING:
    from tablekit.display.model import LeagueLine
    from tablekit.flow.host import FlowState


def on_final(data: FlowData, table: Table, press: ButtonPress, now: float, settings: Settings
             ) -> Step:
    if press.name is ButtonName.OK and not press.long:
        return replace(data, place=plain(Stage.EVENING)), ()
    return choose_again(data, table, press, settings) or common(data, table, press, now,
                                                                  settings)


def on_evening(data: FlowData, table: Table, press: ButtonPress, now: float,
               settings: Settings) -> Step:
    if press.name is ButtonName.OK and not press.long:
        if settings.league:
            return replace(data, place=plain(Stage.LEAGUE)), ()
        return next_game(data, table, settings)
    return _back_or_menu(data, table, press, now, settings, Stage.FINAL)


def on_league(data: FlowData, table: Table, press: ButtonPress, now: float, settings: Settings
              ) -> Step:
    if press.name is ButtonName.OK and not press.long:
        return next_game(data, table, settings)
    return _back_or_menu(data, table, press, now, settings, Stage.EVENING)


def _back_or_menu(data: FlowData, table: Table, press: ButtonPress, now: float,
                  settings: Settings, back: Stage) -> Step:
    if press.name is ButtonName.UNDO and not press.long:
        return replace(data, place=plain(back)), ()
    return choose_again(data, table, press, settings) or common(data, table, press, now,
                                                                  settings)


def choose_again(data: FlowData, table: Table, press: ButtonPress, settings: Settings
                 ) -> Step | None:
    """CALL (not held) with a roster: choose the players for the next game (None: not
    that press)."""
    if press.name is not ButtonName.CALL or press.long or not settings.roster:
        return None
    return choose(data, table.state, settings, data.stage, table.state.names), ()


def next_game(data: FlowData, table: Table, settings: Settings) -> Step:
    """The next game: the same rules, the same players in the same seats."""
    state = table.state
    data, effects = start_game(data, table, settings, state.rules, state.names,
                               state.first_dealer)
    return data.said("next game: OK deals East 1 (UNDO: back to the last game's "
                     "standings)"), effects


def evening(flow: FlowState) -> Evening:
    """The evening of the flow's journal (worked out again only when the journal grows)."""
    at = flow.session.length
    if flow.evening_cache is None or flow.evening_cache[0] != at:
        path = flow.session.path
        flow.evening_cache = (at, tonight(path) if path is not None else
                              Evening.of(in_force(flow.session.history)[0]))
    return flow.evening_cache[1]


def league(flow: FlowState) -> tuple[LeagueLine, ...] | None:
    """The league table (None: no league kept), read again when the journal grows and
    every few seconds (the app records a game after the step it ended in)."""
    if flow.league is None:
        return None
    at = (flow.session.length, int(flow.clock() // LEAGUE_FRESH))
    if flow.league_cache is None or flow.league_cache[0] != at:
        flow.league_cache = (at, flow.league())
    return flow.league_cache[1]
