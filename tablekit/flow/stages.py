"""Where the flow is, as data: one frozen value per :class:`~tablekit.flow.stage.Stage`,
holding only that stage's own data (the tenpai declarations, the menu shown, the players
being chosen, a win in progress), like the engine's :class:`~tablekit.game.state.TableState`.
A handler never changes one: it puts a new one in the flow's ``place``. Each value's
``kind`` is the :class:`Stage` it stands for (the name the screen, the note and the tests
use).

>>> tenpai = Tenpai((True, False, False, False))
>>> tenpai.toggled(2).flags, tenpai.flags, tenpai.kind
((True, False, True, False), (True, False, False, False), <Stage.TENPAI: 'tenpai'>)
>>> from tablekit.flow.menu import Action
>>> menu = Menu("Menu", (MenuItem("Close", Action.CLOSE), MenuItem("Undo", Action.UNDO)))
>>> menu.moved(-1).chosen.label, menu.chosen.label
('Undo', 'Close')
>>> plain(Stage.PLAY), plain(Stage.FINAL).kind
(Play(), <Stage.FINAL: 'final'>)
>>> win = WinInProgress(((1, True),), deadline=0.0)
>>> winning(Stage.CONFIRM_WIN, win).kind, winning(Stage.CONFIRM_WIN, win).win is win
(<Stage.CONFIRM_WIN: 'confirm win'>, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

from tablekit.flow.menu import MenuItem
from tablekit.flow.seating import Seating
from tablekit.flow.stage import Stage
from tablekit.flow.win import WinInProgress


@dataclass(frozen=True)
class BetweenHands:
    """Between hands: OK deals the next."""

    kind: ClassVar[Stage] = Stage.BETWEEN_HANDS


@dataclass(frozen=True)
class Play:
    """A hand in play: the camera's events and the seats' buttons."""

    kind: ClassVar[Stage] = Stage.PLAY


@dataclass(frozen=True)
class Final:
    """The final standings of a game."""

    kind: ClassVar[Stage] = Stage.FINAL


@dataclass(frozen=True)
class Evening:
    """The evening's games so far."""

    kind: ClassVar[Stage] = Stage.EVENING


@dataclass(frozen=True)
class League:
    """The league table (when a league is kept)."""

    kind: ClassVar[Stage] = Stage.LEAGUE


@dataclass(frozen=True)
class Tenpai:
    """The tenpai declarations at an exhaustive draw: each seat's, in seat order."""

    flags: tuple[bool, ...]
    kind: ClassVar[Stage] = Stage.TENPAI

    def toggled(self, seat: int) -> Tenpai:
        """``seat``'s declaration turned over."""
        return Tenpai(tuple(flag != (index == seat) for index, flag in enumerate(self.flags)))


@dataclass(frozen=True)
class Menu:
    """A menu on the screen (the held UNDO's, or one of its steps): its title, its items
    as shown and the one selected; opened over the players being chosen, their ``seating``
    (the choice goes on when the menu closes; the flow's note does not keep it)."""

    title: str
    items: tuple[MenuItem, ...]
    selected: int = 0
    seating: Seating | None = field(default=None, repr=False)
    kind: ClassVar[Stage] = Stage.MENU

    def __post_init__(self) -> None:
        if not self.items:
            raise ValueError("a menu of no items")
        object.__setattr__(self, "selected", self.selected % len(self.items))

    def moved(self, step: int) -> Menu:
        """The selection moved down (``step`` 1) or up (-1), round the end."""
        return replace(self, selected=self.selected + step)

    @property
    def chosen(self) -> MenuItem:
        return self.items[self.selected]


@dataclass(frozen=True)
class ChoosePlayers:
    """The players being chosen with the seat buttons."""

    seating: Seating
    kind: ClassVar[Stage] = Stage.CHOOSE_PLAYERS


@dataclass(frozen=True)
class CollectWins:
    """The WIN window: a second WIN on the same discard makes a double ron."""

    win: WinInProgress
    kind: ClassVar[Stage] = Stage.COLLECT_WINS


@dataclass(frozen=True)
class ChooseDiscarder:
    """The players say who dealt in (no camera, or one that lost the hand)."""

    win: WinInProgress
    kind: ClassVar[Stage] = Stage.CHOOSE_DISCARDER


@dataclass(frozen=True)
class EnterValue:
    """The winners' han and fu entered by hand."""

    win: WinInProgress
    kind: ClassVar[Stage] = Stage.ENTER_VALUE


@dataclass(frozen=True)
class ConfirmWin:
    """A win read by the camera (or put right), waiting for OK."""

    win: WinInProgress
    kind: ClassVar[Stage] = Stage.CONFIRM_WIN


@dataclass(frozen=True)
class FixTiles:
    """A win's tiles put right with the buttons (the win's ``fix``)."""

    win: WinInProgress
    kind: ClassVar[Stage] = Stage.FIX_TILES


Winning = CollectWins | ChooseDiscarder | EnterValue | ConfirmWin | FixTiles
"""The stages of a win in progress: each holds the :class:`WinInProgress`."""
Place = BetweenHands | Play | Final | Evening | League | Tenpai | Menu | ChoosePlayers | Winning
"""Where the flow is: one of the stages, with its data."""

PLAIN: dict[Stage, type[BetweenHands | Play | Final | Evening | League]] = {
    Stage.BETWEEN_HANDS: BetweenHands, Stage.PLAY: Play, Stage.FINAL: Final,
    Stage.EVENING: Evening, Stage.LEAGUE: League}
"""The stages with no data of their own."""
WINNING: dict[Stage, type[Winning]] = {
    Stage.COLLECT_WINS: CollectWins, Stage.CHOOSE_DISCARDER: ChooseDiscarder,
    Stage.ENTER_VALUE: EnterValue, Stage.CONFIRM_WIN: ConfirmWin, Stage.FIX_TILES: FixTiles}
"""The stages of a win, by kind."""


def plain(kind: Stage) -> Place:
    """The stage ``kind``, one with no data of its own (a KeyError for a stage that needs
    some: a menu, the tenpai declarations, the players being chosen, a win)."""
    return PLAIN[kind]()


def winning(kind: Stage, win: WinInProgress) -> Winning:
    """The win stage ``kind`` holding ``win``."""
    return WINNING[kind](win)


def win_of(place: Place) -> WinInProgress | None:
    """The win in progress at ``place`` (None: not a stage of a win)."""
    return place.win if isinstance(place, Winning) else None  # type: ignore[arg-type]
