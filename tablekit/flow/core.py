"""The live app's flow: where it is (its ``place``: the stage with its own data, a frozen
value of :mod:`tablekit.flow.stages`: the tenpai entry, the menu, the players being chosen,
a win in progress), what else people have said so far (a riichi waiting for its discard:
:mod:`tablekit.flow.pending`), and the screen drawn from that. Each stage's buttons go to
the handler :data:`HANDLERS` names; after each input what changes what happens next is
saved beside the journal (:mod:`tablekit.flow.saved`), so a restart after a power cut
shows the same screen.

>>> import tempfile, pathlib
>>> from tablekit.rules.presets import TENHOU
>>> journal = pathlib.Path(tempfile.mkdtemp()) / "game.jsonl"
>>> flow = Flow(Session.open(journal))
>>> flow.start_game(TENHOU)
>>> flow.handle(ButtonPress(ButtonName.OK))            # deal: no camera, buttons only
>>> flow.handle(ButtonPress(ButtonName.UNDO, long=True))
>>> flow.stage, flow.screen().menu.items[:2]
(<Stage.MENU: 'menu'>, ('Close', 'Undo'))
>>> flow.session.close()
>>> again = Flow(Session.open(journal))                 # after a power cut: the same menu
>>> again.screen() == flow.screen()
True
>>> again.session.close()
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from tablekit.display.model import Layout, LeagueLine, Menu, Mode, ScreenModel, WinPreview
from tablekit.flow import between, by_hand, claims, confirm, play, seats, timing
from tablekit.flow.boxes import THREE, seat_of, unused_box_text
from tablekit.flow.camera_side import CameraSide
from tablekit.flow.host import FlowState
from tablekit.flow.pending import Pending
from tablekit.flow.saved import default_rules, hand_span, restore, save, standing_riichi
from tablekit.flow.stage import DIFFERENCES_SHOWN, Stage
from tablekit.flow.stages import BetweenHands, ChoosePlayers, Place, Tenpai, plain, win_of
from tablekit.flow.stages import Menu as MenuShown
from tablekit.flow.tile_fix import TileFix
from tablekit.flow.timer import Timer
from tablekit.flow.win import WinInProgress
from tablekit.game.events import BadEvent, Draw, Event, GameStarted, RiichiDeclared
from tablekit.game.session import Session
from tablekit.game.state import Phase, TableState, seat_name
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.rules.presets import Rules

Handler = Callable[[FlowState, ButtonPress], None]
HANDLERS: dict[Stage, Handler] = {
    Stage.BETWEEN_HANDS: play.on_between_hands, Stage.PLAY: play.on_play,
    Stage.COLLECT_WINS: claims.on_collect_wins,
    Stage.CHOOSE_DISCARDER: claims.on_choose_discarder,
    Stage.ENTER_VALUE: by_hand.on_enter_value, Stage.CONFIRM_WIN: confirm.on_confirm_win,
    Stage.FIX_TILES: by_hand.on_fix_tiles, Stage.TENPAI: play.on_tenpai,
    Stage.MENU: play.on_menu, Stage.FINAL: between.on_final,
    Stage.EVENING: between.on_evening, Stage.LEAGUE: between.on_league,
    Stage.CHOOSE_PLAYERS: seats.on_choose_players,
}
"""What each stage does with a button press."""

MODES = {
    Stage.CONFIRM_WIN: Mode.WIN_CONFIRM, Stage.ENTER_VALUE: Mode.WIN_CONFIRM,
    Stage.CHOOSE_DISCARDER: Mode.WHO_DEALT_IN, Stage.TENPAI: Mode.TENPAI_ENTRY,
    Stage.MENU: Mode.MENU, Stage.FINAL: Mode.FINAL,
    Stage.FIX_TILES: Mode.FIX_TILES, Stage.EVENING: Mode.EVENING, Stage.LEAGUE: Mode.LEAGUE,
    Stage.CHOOSE_PLAYERS: Mode.CHOOSE_PLAYERS,
}


@dataclass
class Flow:
    """The live app: feed it presses and camera events, draw :meth:`screen`."""

    session: Session
    reader: CameraSide | None = None
    clock: Callable[[], float] = time.monotonic
    layout: Layout = "facing"
    place: Place = field(default_factory=BetweenHands)
    """Where the flow is: its stage, with that stage's own data (frozen: a handler puts a
    new one here, see :mod:`tablekit.flow.stages`)."""
    message: str = ""
    warnings: tuple[str, ...] = ()
    pending: Pending = field(default_factory=Pending)
    """What waits for the camera, whatever the stage: each seat's RIICHI waiting for its
    discard, each seat's CALL waiting for its meld (frozen: a press puts a new one)."""
    differences_for: int | None = None
    differences_until: float = 0.0
    next_rules: str = "tenhou"
    league: Callable[[], tuple[LeagueLine, ...]] | None = None  # the table, when kept
    wall: Callable[[], float] = time.time  # the game timer's clock (it survives a restart)
    timer: Timer | None = None
    hands_cache: tuple[int, int, int] | None = field(default=None, repr=False)
    saved: dict[str, Any] = field(default_factory=dict, repr=False)  # as last written
    evening_cache: tuple[int, Any] | None = field(default=None, repr=False)
    league_cache: tuple[Any, Any] | None = field(default=None, repr=False)
    roster: tuple[str, ...] = ()  # the club's names: the seat buttons choose the players
    rules: Rules | None = None    # the rules of a first game still to be started
    seed: int | None = None       # the seating draw's (None: a fresh draw every time)
    quit_key: str = ""            # the keyboard's key that quits, for the legend ("": none)
    boxes: tuple[int, ...] = THREE  # three players: the seat boxes they use (flow.boxes)
    note_damaged: str = ""        # why the flow's note was set aside at start ("": it was not)
    phones: Any = None
    """The phones as seat buttons, when they are (``addresses()``: each seat's (wind,
    address); ``renew()``: new keys): the menu shows their codes and renews them."""

    def __post_init__(self) -> None:
        self.place = self._resting_place()
        self.next_rules = default_rules(self.session.state.rules.name)
        restore(self)
        self.message = self.session.notice or self.message  # a damaged journal put right

    # -- inputs -------------------------------------------------------------------------

    def start_game(self, rules: Rules, names: tuple[str, ...] = (), first_dealer: int = 0
                   ) -> None:
        """Begin a new game under ``rules`` (the journal keeps the old one's history)."""
        self.submit(GameStarted(rules, names, first_dealer))
        self.pending = self.pending.no_riichi()
        self.rest()
        save(self)

    def handle(self, item: ButtonPress | Event) -> None:
        """One input: a button press, or an event the camera saw (one it does not
        :meth:`take` waits: the camera gives it again)."""
        if isinstance(item, ButtonPress):
            self.message = ""
            press = self.from_box(item)
            if press is not None:
                HANDLERS[self.stage](self, press)
        elif self.takes(item):
            play.camera_event(self, item)
        self.tick()

    def takes(self, event: Event) -> bool:
        """Whether the camera's ``event`` is taken now: in play, or turns the camera is
        catching up with at a win; not while a win or a draw is on the screen."""
        return self.stage is Stage.PLAY or claims.camera_behind(self, event)

    def from_box(self, press: ButtonPress) -> ButtonPress | None:
        """``press`` with the seat of the player at its box (three players sit at three of
        the four boxes); None, said in the message, from the box nobody uses."""
        if press.seat is None:
            return press
        players = seats.game_rules(self).players if self.stage is Stage.CHOOSE_PLAYERS \
            else self.session.state.players  # before a first game: its rules' players
        seat = seat_of(press.seat, self.boxes, players)
        if seat is None:
            self.message = unused_box_text(self.boxes)
            return None
        return press if seat == press.seat else replace(press, seat=seat)

    def tick(self) -> None:
        """Time-based steps: the end of the WIN window, hiding point differences, reading
        a revealed hand again, the game timer; then what changed is saved."""
        now = self.clock()
        if self.stage is Stage.COLLECT_WINS and self.win and now >= self.win.deadline:
            claims.resolve_claims(self)
        if self.differences_for is not None and now >= self.differences_until:
            self.differences_for = None
        if self.stage is Stage.CONFIRM_WIN and self.reader is not None and self.win and (
                now >= self.win.reread_at):
            confirm.reread(self)
        timing.tick(self)
        save(self)

    def warn(self, *warnings: str) -> None:
        """Show warnings from the camera (lost, uncertain read, low confidence)."""
        self.warnings = tuple(warnings)

    def show_differences(self, seat: int | None) -> None:
        self.differences_for = seat
        self.differences_until = self.clock() + DIFFERENCES_SHOWN

    # -- what the screen and the table's players see ------------------------------------

    def screen(self) -> ScreenModel:
        state, place = self.session.state, self.place
        mode = MODES.get(self.stage, Mode.SCOREBOARD)
        if self.stage is Stage.BETWEEN_HANDS and state.result is not None:
            mode = Mode.HAND_RESULT
        fix = self.fix if self.stage is Stage.FIX_TILES else None
        return ScreenModel(
            state=state, mode=mode, layout=self.layout, preview=self.preview,
            tenpai=place.flags if isinstance(place, Tenpai) else None,
            menu=Menu(place.title, tuple(item.label for item in place.items), place.selected)
            if isinstance(place, MenuShown) else None, warnings=self.warnings,
            message=self.message, differences_for=self.differences_for,
            fix=fix.view() if fix else None,
            evening=between.evening(self) if self.stage is Stage.EVENING else None,
            league=self._league_shown(), timer=timing.text(self),
            seating=place.seating.view() if isinstance(place, ChoosePlayers) else None,
            roster=bool(self.roster), quit_key=self.quit_key, boxes=self.boxes,
            phones=self.phones.addresses()
            if self.phones is not None and isinstance(place, MenuShown) and place.title == "Menu"
            else ())

    def _league_shown(self) -> tuple[LeagueLine, ...] | None:
        """The league table on its screen; an empty one on the evening's (its legend says
        where OK goes); None elsewhere or when no league is kept."""
        if self.league is None or self.stage not in (Stage.EVENING, Stage.LEAGUE):
            return None
        return between.league(self) if self.stage is Stage.LEAGUE else ()

    @property
    def stage(self) -> Stage:
        """Which stage the flow is at (its place's kind)."""
        return self.place.kind

    @property
    def win(self) -> WinInProgress | None:
        """The win in progress (None: the flow is at no stage of a win)."""
        return win_of(self.place)

    @win.setter
    def win(self, win: WinInProgress) -> None:
        """The win stage the flow is at, holding ``win`` instead (a new place)."""
        if win_of(self.place) is None:
            raise ValueError(f"no win in progress at {self.stage.value}")
        self.place = replace(self.place, win=win)  # type: ignore[type-var]

    @property
    def preview(self) -> WinPreview | None:
        """The win waiting for OK, scored on a copy of the state (None: none)."""
        return self.win.preview if self.win else None

    @property
    def fix(self) -> TileFix | None:
        """The tiles of a win being put right by hand (None: none)."""
        return self.win.fix if self.win else None

    @property
    def win_seats(self) -> tuple[int, ...]:
        """The seats whose win is being read or confirmed."""
        return self.win.seats if self.win else ()

    def waiting_for_score(self) -> bool:
        """Whether a person about to press OK would still be waiting for the screen: on a
        win it does not show the scored hand yet (or asks who dealt in), at the end of the
        wall it does not show the wall empty yet (the camera is still catching up with the
        last discards)."""
        if self.stage is Stage.CONFIRM_WIN:
            return self.preview is None
        if self.stage is Stage.CHOOSE_DISCARDER:
            return True  # the screen asks who dealt in
        state = self.session.state
        return self.stage is Stage.PLAY and state.tracked and state.wall > 0

    # -- shared steps -------------------------------------------------------------------

    def submit(self, event: Event, joins: bool = False) -> bool:
        """Submit one event (``joins``: as part of the last action); a refusal is the message."""
        return self.submit_action([event], joins)

    def submit_action(self, events: Sequence[Event], joins: bool = False) -> bool:
        try:
            self.session.submit_action(events, joins)
        except BadEvent as error:
            self.message = str(error)
            return False
        return True

    def turn_started(self, seat: int) -> bool:
        """Whether the last action is ``seat``'s turn begun (its draw, a riichi): the
        seat's discard completes it, and one UNDO takes the whole back."""
        last = self.session.last_action()
        return bool(last) and isinstance(last[0], Draw) and all(
            isinstance(e, (Draw, RiichiDeclared)) and e.seat == seat for e in last)

    def riichi_pressed_last(self) -> int | None:
        """The seat whose RIICHI, still waiting for its discard, was pressed after the last
        action in the journal (None: none was)."""
        waiting = standing_riichi(self)
        if not waiting:
            return None
        seat = max(reversed(waiting), key=waiting.__getitem__)  # the latest press
        return seat if waiting[seat] >= hand_span(self)[1] else None

    def resting_stage(self) -> Stage:
        phase = self.session.state.phase
        if phase is Phase.GAME_OVER:
            return Stage.FINAL
        if phase is Phase.NOT_STARTED and self.roster:
            return Stage.CHOOSE_PLAYERS
        return Stage.PLAY if phase is Phase.HAND_IN_PLAY else Stage.BETWEEN_HANDS

    def rest(self) -> None:
        """Back to the stage the table's phase calls for; a win in progress is dropped."""
        self.place = self._resting_place()

    def _resting_place(self) -> Place:
        """The place of :meth:`resting_stage`: the players being chosen go on where the
        flow left them (their stage, or a menu opened over it), else a fresh choice."""
        kind = self.resting_stage()
        if kind is not Stage.CHOOSE_PLAYERS:
            return plain(kind)
        kept = self.place.seating if isinstance(self.place, (ChoosePlayers, MenuShown)) else None
        return ChoosePlayers(kept or seats.fresh(self))

    def back_to_play(self, message: str) -> None:
        self.rest()
        self.message = message

    def common(self, press: ButtonPress) -> None:
        """What the buttons do wherever nothing else is asked of them."""
        if press.name is ButtonName.UNDO and press.long:
            play.open_menu(self)
        elif press.name is ButtonName.UNDO:
            self.undo()
        elif press.name is ButtonName.CALL and press.long:
            self.show_differences(press.seat)
        elif press.name is not ButtonName.OK:
            self.message = (f"{press_name(self.session.state, press)} does nothing now "
                            f"({self.stage.value})")

    def undo(self, redo: bool = False) -> None:
        """Take back (or put back) the last action: a riichi still waiting for its discard
        if it was pressed after the journal's last action, else that action."""
        seat = None if redo else self.riichi_pressed_last()
        if seat is not None:
            self.pending = self.pending.riichi_taken(seat)
            self.message = f"riichi by {seat_name(self.session.state, seat)} taken back"
            return
        if not redo and self.session.state.events == 1 and self.roster:
            seats.undo_start(self)  # a first game's start: back to its seats
            return
        if not redo and self.session.state.events <= 1:  # only the game's start is there
            self.message = "nothing to take back: the game has just started"
            return
        try:
            self.session.redo() if redo else self.session.undo()
            self.message = "put back the last action" if redo else "took back the last action"
        except BadEvent as error:
            self.message = str(error)
        self.rest()


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
