"""What the screen shows, as a pure function of the flow's value (:mod:`tablekit.flow.model`),
the engine's state and what the shell read from outside them (:class:`Outside`: the
evening's games from the journal, the league table, the game timer's text, the phones'
addresses). The shell (:meth:`tablekit.flow.core.Flow.screen`) reads those, with its caches,
only for the screen that shows them (:func:`wants`), so that caching changes nothing shown.

>>> from tablekit.flow.model import FlowData
>>> from tablekit.flow.stages import Tenpai
>>> from tablekit.game.state import TableState
>>> shown = screen(FlowData(place=Tenpai((True, False, False, False)), message="hi"),
...                TableState.new(), Outside())
>>> shown.mode.name, shown.tenpai, shown.message
('TENPAI_ENTRY', (True, False, False, False), 'hi')
>>> wants(FlowData().place, league=True)
Wanted(evening=False, league=False, phones=False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from tablekit.display.model import LeagueLine, Menu, Mode, ScreenModel
from tablekit.flow.boxes import THREE
from tablekit.flow.model import FlowData
from tablekit.flow.stage import Stage
from tablekit.flow.stages import ChoosePlayers, Place, Tenpai, win_of
from tablekit.flow.stages import Menu as MenuShown
from tablekit.game.state import TableState

MODES = {
    Stage.CONFIRM_WIN: Mode.WIN_CONFIRM, Stage.ENTER_VALUE: Mode.WIN_CONFIRM,
    Stage.CHOOSE_DISCARDER: Mode.WHO_DEALT_IN, Stage.TENPAI: Mode.TENPAI_ENTRY,
    Stage.MENU: Mode.MENU, Stage.FINAL: Mode.FINAL,
    Stage.FIX_TILES: Mode.FIX_TILES, Stage.EVENING: Mode.EVENING, Stage.LEAGUE: Mode.LEAGUE,
    Stage.CHOOSE_PLAYERS: Mode.CHOOSE_PLAYERS,
}
"""The screen's mode at each stage (the scoreboard elsewhere)."""


@dataclass(frozen=True)
class Outside:
    """What the screen shows from outside the flow's value, read by the shell: the
    evening's games (on its screen), the league table (None: not shown, or no league
    kept), the game timer's text, the phones' addresses (on the menu), and the run's
    roster, quit key and seat boxes."""

    evening: Any = None
    league: tuple[LeagueLine, ...] | None = None
    timer: str = ""
    phones: tuple[tuple[str, str], ...] = ()
    roster: bool = False
    quit_key: str = ""
    boxes: tuple[int, ...] = THREE


class Wanted(NamedTuple):
    """Which of the outside's readings a screen shows."""

    evening: bool
    league: bool
    phones: bool


def wants(place: Place, league: bool = False) -> Wanted:
    """Which readings from outside the screen at ``place`` shows: the evening's games on
    the evening's screen, the league (``league``: one is kept) on the evening's (an empty
    table: its legend says where OK goes) and the league's, the phones' addresses on the
    held UNDO's menu."""
    return Wanted(place.kind is Stage.EVENING,
                  league and place.kind in (Stage.EVENING, Stage.LEAGUE),
                  isinstance(place, MenuShown) and place.title == "Menu")


def screen(data: FlowData, state: TableState, outside: Outside) -> ScreenModel:
    """The screen for the flow's value ``data`` over the table's ``state``."""
    place, stage = data.place, data.stage
    mode = MODES.get(stage, Mode.SCOREBOARD)
    if stage is Stage.BETWEEN_HANDS and state.result is not None:
        mode = Mode.HAND_RESULT
    win = win_of(place)
    fix = win.fix if win is not None and stage is Stage.FIX_TILES else None
    return ScreenModel(
        state=state, mode=mode, layout=data.layout, preview=win.preview if win else None,
        tenpai=place.flags if isinstance(place, Tenpai) else None,
        menu=Menu(place.title, tuple(item.label for item in place.items), place.selected)
        if isinstance(place, MenuShown) else None, warnings=data.warnings,
        message=data.message, differences_for=data.differences_for,
        fix=fix.view() if fix else None,
        evening=outside.evening if stage is Stage.EVENING else None,
        league=outside.league, timer=outside.timer,
        seating=place.seating.view() if isinstance(place, ChoosePlayers) else None,
        roster=outside.roster, quit_key=outside.quit_key, boxes=outside.boxes,
        phones=outside.phones)
