"""The steps the stage handlers share, as pure functions of the flow's value
(:mod:`tablekit.flow.model`): what the buttons do where nothing else is asked of them
(:func:`common`: UNDO, the held UNDO's menu, the held CALL's point differences), taking an
action back, opening a menu, choosing the players, starting a game.

>>> from tablekit.flow.model import FlowData, Settings, Table
>>> from tablekit.game.events import GameStarted
>>> from tablekit.game.state import TableState
>>> from tablekit.io.presses import ButtonName, ButtonPress
>>> table = Table(TableState.new()).after([GameStarted()])
>>> data, effects = common(FlowData(), table, ButtonPress(ButtonName.UNDO, long=True), 0.0,
...                        Settings())
>>> data.place.title, data.place.items[1].label, effects
('Menu', 'Undo', ())
>>> data, effects = common(FlowData(), table, ButtonPress(ButtonName.UNDO), 0.0, Settings())
>>> data.message, effects
('nothing to take back: the game has just started', ())
"""

from __future__ import annotations

from dataclasses import replace

from tablekit.flow.menu import MenuItem, menu_items
from tablekit.flow.model import (
    FlowData,
    Rest,
    Settings,
    Step,
    Table,
    Undo,
    game_rules,
    rested,
    standing_riichi,
    submitted,
)
from tablekit.flow.seating import Seating
from tablekit.flow.stage import DIFFERENCES_SHOWN, Stage
from tablekit.flow.stages import ChoosePlayers, Menu
from tablekit.game.events import GameStarted
from tablekit.game.state import TableState, seat_name
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.rules.presets import Rules

PROMPT = "choose each seat's player with its buttons; OK to play"
"""The screen's line while the players are chosen."""


def common(data: FlowData, table: Table, press: ButtonPress, now: float, settings: Settings
           ) -> Step:
    """What the buttons do wherever nothing else is asked of them."""
    if press.name is ButtonName.UNDO and press.long:
        return open_menu(data, table.state, settings), ()
    if press.name is ButtonName.UNDO:
        return undo(data, table, settings)
    if press.name is ButtonName.CALL and press.long:
        return replace(data, differences_for=press.seat,
                       differences_until=now + DIFFERENCES_SHOWN), ()
    if press.name is not ButtonName.OK:
        return data.said(f"{press_name(table.state, press)} does nothing now "
                         f"({data.stage.value})"), ()
    return data, ()


def undo(data: FlowData, table: Table, settings: Settings, redo: bool = False) -> Step:
    """Take back (or put back) the last action: a riichi still waiting for its discard
    if it was pressed after the journal's last action, else that action."""
    state = table.state
    seat = None if redo else riichi_pressed_last(data, table)
    if seat is not None:
        return replace(data, pending=data.pending.riichi_taken(seat),
                       message=f"riichi by {seat_name(state, seat)} taken back"), ()
    if not redo and state.events == 1 and settings.roster:  # a first game's start:
        again = choose(data, TableState.new(), settings, None, state.names)  # its seats
        return again, (Undo(refused=data),)
    if not redo and state.events <= 1:  # only the game's start is there
        return data.said("nothing to take back: the game has just started"), ()
    if redo and not table.can_redo:
        return rested(data.said("redo: there is nothing to redo"), table, settings), ()
    said = data.said("put back the last action" if redo else "took back the last action")
    return said, (Undo(redo, refused=rested(data, table, settings)), Rest())


def riichi_pressed_last(data: FlowData, table: Table) -> int | None:
    """The seat whose RIICHI, still waiting for its discard, was pressed after the last
    action in the journal (None: none was)."""
    waiting = standing_riichi(data.pending, table)
    if not waiting:
        return None
    seat = max(reversed(waiting), key=waiting.__getitem__)  # the latest press
    return seat if waiting[seat] >= table.span[1] else None


def open_menu(data: FlowData, state: TableState, settings: Settings, selected: int = 0
              ) -> FlowData:
    """The held UNDO's menu."""
    return open_submenu(data, "Menu", menu_items(state, data.layout, data.next_rules,
                                                 bool(settings.roster), settings.phones),
                        selected)


def open_submenu(data: FlowData, title: str, items: tuple[MenuItem, ...], selected: int = 0
                 ) -> FlowData:
    """A menu of its own (a penalty's amounts, a confirmation): the same buttons (over
    the players being chosen, the choice goes on when it closes)."""
    under = data.place.seating if isinstance(data.place, (ChoosePlayers, Menu)) else None
    return replace(data, place=Menu(title, items, selected, under))


def choose(data: FlowData, state: TableState, settings: Settings, back: Stage | None,
           names: tuple[str, ...] = ()) -> FlowData:
    """The players chosen for the game of ``state`` (``names``: the seats as they were,
    where they are on the roster; ``back``: the stage UNDO goes back to)."""
    seats = game_rules(state, settings).players
    kept = tuple(name if name in settings.roster else None for name in names)
    kept = kept if len(kept) == seats else (None,) * seats
    unique = tuple(name if name not in kept[:seat] else None for seat, name in enumerate(kept))
    return replace(data, place=ChoosePlayers(Seating(settings.roster, unique, back=back)),
                   message=PROMPT)


def start_game(data: FlowData, table: Table, settings: Settings, rules: Rules,
               names: tuple[str, ...] = (), first_dealer: int = 0) -> Step:
    """Begin a new game under ``rules`` (the journal keeps the old one's history)."""
    clear = replace(data, pending=data.pending.no_riichi())
    data, after, effects = submitted(clear, table, [GameStarted(rules, names, first_dealer)],
                                     refused=rested(clear, table, settings))
    return rested(replace(data, pending=clear.pending), after, settings), effects


def press_name(state: TableState, press: ButtonPress) -> str:
    """A press as players say it, the seat by wind and name.

    >>> state = TableState.new(names=("Ana", "Ben", "Chie", "Dan"))
    >>> press_name(state, ButtonPress(ButtonName.RIICHI, 1, long=True))
    'South (Ben) RIICHI (held)'
    >>> press_name(state, ButtonPress(ButtonName.OK))
    'OK'
    """
    who = f"{seat_name(state, press.seat)} " if press.seat is not None else ""
    return f"{who}{press.name.value.upper()}{' (held)' if press.long else ''}"
