"""What the scoreboard shows: the table state plus the app's current screen.

The app builds a :class:`ScreenModel`; renderers draw it and nothing else, so a
screen can be rendered from any example state (``tablekit screens``).

>>> from tablekit.game.state import TableState
>>> ScreenModel(TableState.new()).mode
<Mode.SCOREBOARD: 'scoreboard'>
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any, Literal

from tablekit.game.evening import Evening
from tablekit.game.state import TableState, WinResult
from tablekit.tiles import Tile

Layout = Literal["facing", "centre"]


class Mode(Enum):
    SCOREBOARD = "scoreboard"        # the game in play (or between hands)
    WIN_CONFIRM = "win confirm"      # a scored win waiting for OK (or UNDO to cancel)
    HAND_RESULT = "hand result"      # the last hand's result (win, exhaustive or abortive draw)
    TENPAI_ENTRY = "tenpai entry"    # exhaustive draw: each seat declares tenpai / noten
    WHO_DEALT_IN = "who dealt in"    # a ron without a camera: the discarder presses a button
    FINAL = "final"                  # the final standings with oka and uma
    MENU = "menu"                    # the UNDO-hold menu
    FIX_TILES = "fix tiles"          # a misread win's tiles put right with the buttons
    EVENING = "evening"              # between games: the evening so far, game by game
    LEAGUE = "league"                # between games: the league table (when one is kept)
    CHOOSE_PLAYERS = "choose players"  # before a game: each seat's player from the roster


@dataclass(frozen=True)
class WinPreview:
    """A win scored but not applied: points move only after OK."""

    wins: tuple[WinResult, ...]
    deltas: tuple[int, ...]
    doubts: tuple[str, ...] = ()     # uncertain reads, e.g. "camera only 62% sure of the 7p"
    fixable: bool = False            # read by the camera: CALL puts its tiles right
    entering: bool = False           # han and fu entered by hand: RIICHI and CALL change them


@dataclass(frozen=True)
class TileFixView:
    """The tiles of a win being put right: each winner's ``(seat, tiles)`` (the winning
    tile last), the ura indicators, the slot under the cursor (counted over all rows: the
    winners', the dora indicators', the ura indicators') and the dora indicators."""

    hands: tuple[tuple[int, tuple[Tile | None, ...]], ...]
    ura: tuple[Tile | None, ...] = ()
    cursor: int = 0
    dora: tuple[Tile | None, ...] = ()


@dataclass(frozen=True)
class SeatingView:
    """The players being chosen for a game: each seat's name (East first; None: nobody
    yet), how many names the roster holds, and whether the seats were just drawn."""

    names: tuple[str | None, ...]
    roster: int = 0
    drawn: bool = False


@dataclass(frozen=True)
class Menu:
    title: str
    items: tuple[str, ...]
    selected: int = 0


@dataclass(frozen=True)
class LeagueLine:
    """One player's line of the league table as the screen shows it (``points``: game
    points with uma and oka, in thousands)."""

    name: str
    games: int
    points: float
    average_placement: float
    rating: float


def league_lines(table: Iterable[Any]) -> tuple[LeagueLine, ...]:
    """The screen's lines of a league table: anything with a :class:`LeagueLine`'s fields
    (the league's own standings), in its order."""
    return tuple(LeagueLine(p.name, p.games, p.points, p.average_placement, p.rating)
                 for p in table)


@dataclass(frozen=True)
class ScreenModel:
    """Everything one frame of the scoreboard shows."""

    state: TableState
    mode: Mode = Mode.SCOREBOARD
    layout: Layout = "facing"
    preview: WinPreview | None = None
    tenpai: tuple[bool, ...] | None = None
    menu: Menu | None = None
    warnings: tuple[str, ...] = ()   # camera lost, uncertain read, low confidence
    message: str = ""                # the last refusal or hint, one line
    differences_for: int | None = None  # a seat asking for its point differences
    fix: TileFixView | None = None   # FIX_TILES: the tiles being put right
    evening: Evening | None = None   # EVENING: the games of the evening so far
    league: tuple[LeagueLine, ...] | None = None  # kept: the league table (None: no league)
    timer: str = ""                  # a timed game: "30:00 left, about 5 hands"
    seating: SeatingView | None = None  # CHOOSE_PLAYERS: the seats being chosen
    roster: bool = False             # a roster is kept: players may be chosen again
    quit_key: str = ""               # the keyboard's key that quits ("Esc"; "": no keyboard)
    boxes: tuple[int, ...] = (0, 1, 2)  # three players: each seat's box, its panel's side
    phones: tuple[tuple[str, str], ...] = ()  # the menu, with phones: (wind, seat address)
