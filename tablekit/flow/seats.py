"""Choosing the players with the seat buttons: before the first game (a roster and no
``--players``) and between games (CALL, or the menu's "Choose the players again").

Each seat's own buttons choose its player from the roster: RIICHI the next name, CALL the
previous one (names another seat holds are skipped), WIN clears the seat. Held OK draws
the seats at random (seeded by ``run --seed``) and the screen shows who sits where; OK
starts the game when every seat is taken (four, or three for a three-player game's rules:
East, South and West, pressed at the seat boxes they use, :mod:`tablekit.flow.boxes`). UNDO
takes back one step (a name, a clearing, a draw); with none left it goes back to the screen
the choice came from.

>>> seating = Seating(("Aki", "Ben", "Cho", "Dai", "Emi"), (None, "Aki", None, None))
>>> seating = seating.cycle(0, 1).cycle(0, 1).cycle(2, -1)
>>> seating.names, seating.ready
(('Cho', 'Aki', 'Emi', None), False)
>>> seating.back_one().names
('Cho', 'Aki', None, None)
>>> Seating(("Aki", "Ben", "Cho"), (None,) * 3).cycle(2, 1).names
(None, None, 'Aki')
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from tablekit.flow import model
from tablekit.flow.model import FlowData, Settings, Step, Table
from tablekit.flow.seating import Seating
from tablekit.flow.stages import ChoosePlayers, plain
from tablekit.flow.steps import PROMPT, common, start_game
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.league.roster import COUNTS, WINDS, seating_text

if TYPE_CHECKING:
    from tablekit.flow.host import FlowState
    from tablekit.rules.presets import Rules

__all__ = ["PROMPT", "fresh", "game_rules", "on_choose_players"]


def settings_of(flow: FlowState) -> Settings:
    """What of the run the players' choice reads (the roster, the first game's rules)."""
    return Settings(roster=flow.roster, rules=flow.rules, seed=flow.seed)


def game_rules(flow: FlowState) -> Rules:
    """The rules of the game the seats are chosen for: the journal's game's, or before a
    first game those ``tablekit run`` was given."""
    return model.game_rules(flow.session.state, settings_of(flow))


def fresh(flow: FlowState) -> Seating:
    """A choice with no one chosen yet (where the flow rests before a first game)."""
    return model.fresh_seating(flow.session.state, settings_of(flow))


def on_choose_players(data: FlowData, table: Table, press: ButtonPress, now: float,
                      settings: Settings) -> Step:
    assert isinstance(data.place, ChoosePlayers)
    seating = data.place.seating
    if press.seat is not None and press.name is not ButtonName.OK and not press.long:
        return _seat_button(data, seating, press), ()
    if press.name is ButtonName.OK and press.long:
        return _draw(data, seating, settings), ()
    if press.name is ButtonName.OK:
        return _play(data, table, seating, settings)
    if press.name is ButtonName.UNDO and not press.long:
        return _back(data, seating), ()
    return common(data, table, press, now, settings)


def _seat_button(data: FlowData, seating: Seating, press: ButtonPress) -> FlowData:
    assert press.seat is not None
    changed = seating.clear(press.seat) if press.name is ButtonName.WIN else seating.cycle(
        press.seat, 1 if press.name is ButtonName.RIICHI else -1)
    if changed is None:
        return data.said("every name on the roster has a seat")
    return replace(data, place=ChoosePlayers(changed))


def _draw(data: FlowData, seating: Seating, settings: Settings) -> FlowData:
    if not seating.ready:
        return data.said(f"the draw needs {COUNTS[len(seating.names)]} players: choose "
                         "them first")
    seating = seating.draw(settings.seed)
    return replace(data, place=ChoosePlayers(seating),
                   message=f"seats drawn: {seating_text(seating.chosen)}")


def _play(data: FlowData, table: Table, seating: Seating, settings: Settings) -> Step:
    """Start the game with the chosen players, East the first dealer."""
    if not seating.ready:
        empty = [wind for wind, name in zip(WINDS[:len(seating.names)], seating.names,
                                            strict=True) if not name]
        return data.said(f"{', '.join(empty)}: nobody yet ({PROMPT})"), ()
    rules = seating.rules or model.game_rules(table.state, settings)
    fresh = replace(data, place=ChoosePlayers(model.fresh_seating(table.state, settings)))
    data, effects = start_game(fresh, table, settings, rules, seating.chosen)  # a game
    return data.said(f"{seating_text(seating.chosen)}: OK deals East 1 (UNDO: back)"), effects
    # refused: the choice begins again


def _back(data: FlowData, seating: Seating) -> FlowData:
    earlier = seating.back_one()
    if earlier is not None:
        return replace(data, place=ChoosePlayers(earlier))
    if seating.back is None:
        return data.said("nothing to take back: choose the players")
    return replace(data, place=plain(seating.back))
