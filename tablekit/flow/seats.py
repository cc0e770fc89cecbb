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

from typing import TYPE_CHECKING

from tablekit.flow.seating import Seating
from tablekit.flow.stage import Stage
from tablekit.flow.stages import ChoosePlayers, plain
from tablekit.game.state import Phase
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.league.roster import COUNTS, WINDS, seating_text
from tablekit.rules.presets import TENHOU, Rules

if TYPE_CHECKING:
    from tablekit.flow.host import FlowState

PROMPT = "choose each seat's player with its buttons; OK to play"


def game_rules(flow: FlowState) -> Rules:
    """The rules of the game the seats are chosen for: the journal's game's, or before a
    first game those ``tablekit run`` was given."""
    state = flow.session.state
    return state.rules if state.phase is not Phase.NOT_STARTED else flow.rules or TENHOU


def choose(flow: FlowState, back: Stage | None, names: tuple[str, ...] = ()) -> None:
    """Open the choice (``names``: the seats as they were, where they are on the roster)."""
    seats = game_rules(flow).players
    kept = tuple(name if name in flow.roster else None for name in names)
    kept = kept if len(kept) == seats else (None,) * seats
    unique = tuple(name if name not in kept[:seat] else None for seat, name in enumerate(kept))
    flow.place = ChoosePlayers(Seating(flow.roster, unique, back=back))
    flow.message = PROMPT


def fresh(flow: FlowState) -> Seating:
    """A choice with no one chosen yet (where the flow rests before a first game)."""
    return Seating(flow.roster, (None,) * game_rules(flow).players)


def on_choose_players(flow: FlowState, press: ButtonPress) -> None:
    assert isinstance(flow.place, ChoosePlayers)
    seating = flow.place.seating
    if press.seat is not None and press.name is not ButtonName.OK and not press.long:
        _seat_button(flow, seating, press)
    elif press.name is ButtonName.OK and press.long:
        _draw(flow, seating)
    elif press.name is ButtonName.OK:
        _play(flow, seating)
    elif press.name is ButtonName.UNDO and not press.long:
        _back(flow, seating)
    else:
        flow.common(press)


def _seat_button(flow: FlowState, seating: Seating, press: ButtonPress) -> None:
    assert press.seat is not None
    changed = seating.clear(press.seat) if press.name is ButtonName.WIN else seating.cycle(
        press.seat, 1 if press.name is ButtonName.RIICHI else -1)
    if changed is None:
        flow.message = "every name on the roster has a seat"
    else:
        flow.place = ChoosePlayers(changed)


def _draw(flow: FlowState, seating: Seating) -> None:
    if not seating.ready:
        flow.message = f"the draw needs {COUNTS[len(seating.names)]} players: choose them " \
                       "first"
        return
    seating = seating.draw(flow.seed)
    flow.place = ChoosePlayers(seating)
    flow.message = f"seats drawn: {seating_text(seating.chosen)}"


def _play(flow: FlowState, seating: Seating) -> None:
    """Start the game with the chosen players, East the first dealer."""
    if not seating.ready:
        empty = [wind for wind, name in zip(WINDS[:len(seating.names)], seating.names,
                                            strict=True) if not name]
        flow.message = f"{', '.join(empty)}: nobody yet ({PROMPT})"
        return
    rules = seating.rules or game_rules(flow)
    flow.place = ChoosePlayers(fresh(flow))  # a game refused: the choice begins again
    flow.start_game(rules, seating.chosen)
    flow.message = f"{seating_text(seating.chosen)}: OK deals East 1 (UNDO: back)"


def _back(flow: FlowState, seating: Seating) -> None:
    earlier = seating.back_one()
    if earlier is not None:
        flow.place = ChoosePlayers(earlier)
        return
    if seating.back is None:
        flow.message = "nothing to take back: choose the players"
        return
    flow.place = plain(seating.back)


def undo_start(flow: FlowState) -> None:
    """UNDO on a first game just started from the seats: the start taken back, the same
    seats shown again."""
    names = flow.session.state.names
    flow.session.undo()
    choose(flow, None, names)
