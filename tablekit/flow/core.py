"""The live app's flow: the shell around its value (:class:`~tablekit.flow.model.FlowData`:
where it is, its ``place``, the stage with its own data, a frozen value of
:mod:`tablekit.flow.stages`; what else people have said so far, a riichi waiting for its
discard, :mod:`tablekit.flow.pending`; the message), and the screen drawn from that. Each
stage's buttons go to the handler :data:`HANDLERS` names, a pure function that returns the
new value and the effects the shell runs against the session and the camera side; after each
input what changes what happens next is saved beside the journal
(:mod:`tablekit.flow.saved`), so a restart after a power cut shows the same screen.

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
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from tablekit.display.model import Layout, LeagueLine, ScreenModel, WinPreview
from tablekit.flow import between, by_hand, claims, confirm, play, seats, steps, timing
from tablekit.flow.boxes import THREE, seat_of, unused_box_text
from tablekit.flow.camera_side import CameraSide
from tablekit.flow.model import (
    Effect,
    ExpectCall,
    FlowData,
    ReadWin,
    RenewPhones,
    Rest,
    Settings,
    Step,
    Submit,
    Table,
    Undo,
    rested,
    resting_place,
    resting_stage,
)
from tablekit.flow.saved import default_rules, restore, save
from tablekit.flow.screen import Outside, wants
from tablekit.flow.screen import screen as screen_of
from tablekit.flow.stage import WIN_STAGES, Stage
from tablekit.flow.stages import Place, win_of
from tablekit.flow.win import WinInProgress
from tablekit.game.events import BadEvent, Event, HandStarted
from tablekit.game.session import Session
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.rules.presets import Rules

press_name = steps.press_name

Handler = Callable[[FlowData, Table, ButtonPress, float, Settings], Step]
"""A stage handler: a pure function of the flow's value, the table, the press, the time
and the run's settings, returning the new value and its effects (:mod:`tablekit.flow.model`)."""
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
ASKS_CAMERA = WIN_STAGES
"""The stages whose handlers ask whether the camera is behind the table (and play's OK)."""


@dataclass(init=False, eq=False, slots=True)
class Flow:
    """The live app: feed it presses and camera events, draw :meth:`screen`. The shell
    around the flow's value (:attr:`data`, a frozen :class:`~tablekit.flow.model.FlowData`):
    it hands each input to the stage's handler and runs the effects it returns against
    the session and the camera side. Its members are the fields below and no others
    (slots): setting one it does not have, say a message that is now ``data.message``,
    is an AttributeError, not a stray attribute."""

    session: Session
    reader: CameraSide | None
    clock: Callable[[], float]
    data: FlowData
    """What the flow knows (frozen: each input puts a new one here)."""
    league: Callable[[], tuple[LeagueLine, ...]] | None  # the table, when kept
    wall: Callable[[], float]  # the game timer's clock (it survives a restart)
    roster: tuple[str, ...]  # the club's names: the seat buttons choose the players
    rules: Rules | None    # the rules of a first game still to be started
    seed: int | None       # the seating draw's (None: a fresh draw every time)
    quit_key: str          # the keyboard's key that quits, for the legend ("": none)
    boxes: tuple[int, ...]  # three players: the seat boxes they use (flow.boxes)
    phones: Any
    """The phones as seat buttons, when they are (``addresses()``: each seat's (wind,
    address); ``renew()``: new keys): the menu shows their codes and renews them."""
    saved: dict[str, Any] = field(repr=False)  # the note as last written
    note_damaged: str      # why the flow's note was set aside at start ("": it was not)
    hands_cache: tuple[int, int, int] | None = field(repr=False)
    evening_cache: tuple[int, Any] | None = field(repr=False)
    league_cache: tuple[Any, Any] | None = field(repr=False)

    def __init__(self, session: Session, reader: CameraSide | None = None,
                 clock: Callable[[], float] = time.monotonic, layout: Layout = "facing",
                 league: Callable[[], tuple[LeagueLine, ...]] | None = None,
                 wall: Callable[[], float] = time.time, roster: tuple[str, ...] = (),
                 rules: Rules | None = None, seed: int | None = None, quit_key: str = "",
                 boxes: tuple[int, ...] = THREE, phones: Any = None) -> None:
        self.session, self.reader, self.clock, self.league, self.wall = (
            session, reader, clock, league, wall)
        self.roster, self.rules, self.seed, self.quit_key, self.boxes, self.phones = (
            roster, rules, seed, quit_key, boxes, phones)
        self.saved, self.note_damaged = {}, ""
        self.hands_cache = self.evening_cache = self.league_cache = None
        self.data = FlowData(layout=layout,
                             next_rules=default_rules(self.session.state.rules.name))
        self.rest()
        restore(self)
        if self.session.notice:  # a damaged journal put right
            self.say(self.session.notice)

    # -- running the handlers and their effects -----------------------------------------

    def settings(self) -> Settings:
        """What of the run the handlers read."""
        return Settings(roster=self.roster, rules=self.rules, seed=self.seed,
                        camera=self.reader is not None, league=self.league is not None,
                        phones=self.phones is not None)

    def table(self, behind: bool = False) -> Table:
        """The table as the handlers read it (``behind``: ask the camera side whether it
        sees discards the state has not taken)."""
        session, state = self.session, self.session.state
        return Table(state, session.last_action(), session.last_in_force(HandStarted),
                     session.can_redo, behind and self.reader is not None
                     and self.reader.behind(state))

    def run(self, step: Step) -> None:
        """Take the handler's new value, then run its effects in turn; one the journal
        refuses (a full card) leaves the flow as that effect says, with the reason said,
        and the effects after it are not run."""
        self.data, effects = step
        for effect in effects:
            try:
                self._run(effect)
            except BadEvent as error:
                if not isinstance(effect, (Submit, Undo)):
                    raise
                self.data = effect.refused.said(str(error))
                return

    def _run(self, effect: Effect) -> None:
        if isinstance(effect, Submit):
            self.session.submit_action(effect.events, effect.joins)
        elif isinstance(effect, Undo):
            self.session.redo() if effect.redo else self.session.undo()
        elif isinstance(effect, Rest):
            self.data = rested(self.data, self.table(), self.settings())
        elif isinstance(effect, ReadWin) and self.reader is not None and self.win is not None:
            self.reader.look_at_win()
            reading = self.reader.read_win(self.session.state, self.win.seats,
                                           self.win.discarder)
            self.run(confirm.on_reading(self.data, self.table(), reading, self.clock(),
                                        self.settings()))
        elif isinstance(effect, ExpectCall) and self.reader is not None:
            self.reader.expect_call(self.session.state, effect.seat)
        elif isinstance(effect, RenewPhones) and self.phones is not None:
            self.phones.renew()

    # -- inputs -------------------------------------------------------------------------

    def start_game(self, rules: Rules, names: tuple[str, ...] = (), first_dealer: int = 0
                   ) -> None:
        """Begin a new game under ``rules`` (the journal keeps the old one's history)."""
        self.run(steps.start_game(self.data, self.table(), self.settings(), rules, names,
                                  first_dealer))
        save(self)

    def handle(self, item: ButtonPress | Event) -> None:
        """One input: a button press, or an event the camera saw (one it does not
        :meth:`take` waits: the camera gives it again)."""
        if isinstance(item, ButtonPress):
            self.say("")
            press = self.from_box(item)
            if press is not None:
                self._press(press)
        elif self.takes(item):  # in play, or a turn the camera catches up with at a win
            self.run(play.camera_event(self.data, self.table(), item, self.clock(),
                                       self.settings()))
        self.tick()

    def _press(self, press: ButtonPress) -> None:
        """``press`` to its stage's handler; its new value and effects are run."""
        asks = self.stage in ASKS_CAMERA or (  # whether the camera is behind the table
            self.stage is Stage.PLAY and press.name is ButtonName.OK)
        self.run(HANDLERS[self.stage](self.data, self.table(behind=asks), press, self.clock(),
                                      self.settings()))

    def takes(self, event: Event) -> bool:
        """Whether the camera's ``event`` is taken now: in play, or turns the camera is
        catching up with at a win; not while a win or a draw is on the screen."""
        return self.stage is Stage.PLAY or (self.win is not None and claims.camera_behind(
            self.data, self.table(behind=True), event, self.clock(), self.settings()))

    def from_box(self, press: ButtonPress) -> ButtonPress | None:
        """``press`` with the seat of the player at its box (three players sit at three of
        the four boxes); None, said in the message, from the box nobody uses."""
        if press.seat is None:
            return press
        players = seats.game_rules(self).players if self.stage is Stage.CHOOSE_PLAYERS \
            else self.session.state.players  # before a first game: its rules' players
        seat = seat_of(press.seat, self.boxes, players)
        if seat is None:
            self.say(unused_box_text(self.boxes))
            return None
        return press if seat == press.seat else replace(press, seat=seat)

    def tick(self) -> None:
        """Time-based steps: the end of the WIN window, hiding point differences, reading
        a revealed hand again, the game timer; then what changed is saved."""
        now = self.clock()
        if self.stage is Stage.COLLECT_WINS and self.win and now >= self.win.deadline:
            self.run(claims.resolve_claims(self.data, self.table(behind=True), now,
                                           self.settings()))
        if self.data.differences_for is not None and now >= self.data.differences_until:
            self.data = replace(self.data, differences_for=None)
        if self.stage is Stage.CONFIRM_WIN and self.reader is not None and self.win and (
                now >= self.win.reread_at):
            self.run(confirm.reread(self.data, self.table(behind=True), now, self.settings()))
        timing.tick(self)
        save(self)

    def warn(self, *warnings: str) -> None:
        """Show warnings from the camera (lost, uncertain read, low confidence)."""
        self.data = replace(self.data, warnings=tuple(warnings))

    def say(self, line: str) -> None:
        """Show ``line`` as the message (the status line; "": none)."""
        self.data = self.data.said(line)

    # -- what the screen and the table's players see ------------------------------------

    def screen(self) -> ScreenModel:
        """The screen now: :func:`tablekit.flow.screen.screen` of the flow's value, with
        what it shows from outside it read here (the evening, the league table, the
        timer, the phones), each only where it is shown."""
        want = wants(self.data.place, self.league is not None)
        return screen_of(self.data, self.session.state, Outside(
            evening=between.evening(self) if want.evening else None,
            league=(between.league(self) if self.stage is Stage.LEAGUE else ())
            if want.league else None, timer=timing.text(self),
            phones=self.phones.addresses() if self.phones is not None and want.phones else (),
            roster=bool(self.roster), quit_key=self.quit_key, boxes=self.boxes))

    @property
    def stage(self) -> Stage:
        """Which stage the flow is at (its place's kind)."""
        return self.data.stage

    @property
    def win(self) -> WinInProgress | None:
        """The win in progress (None: the flow is at no stage of a win)."""
        return win_of(self.data.place)

    @property
    def preview(self) -> WinPreview | None:
        """The win waiting for OK, scored on a copy of the state (None: none)."""
        return self.win.preview if self.win else None

    @property
    def win_seats(self) -> tuple[int, ...]:
        """The seats whose win is being read or confirmed."""
        return self.win.seats if self.win else ()

    def waiting_for_score(self) -> bool:
        """Whether a person about to press OK would still be waiting for the screen: on a
        win it does not show the scored hand yet (or asks who dealt in), at the end of the
        wall it does not show the wall empty yet (the camera is still catching up with the
        last discards, as it may once a ron's WIN window has closed)."""
        if self.stage is Stage.COLLECT_WINS:
            return self.win is not None and self.clock() >= self.win.deadline
        if self.stage is Stage.CONFIRM_WIN:
            return self.preview is None
        if self.stage is Stage.CHOOSE_DISCARDER:
            return True  # the screen asks who dealt in
        state = self.session.state
        return self.stage is Stage.PLAY and state.tracked and state.wall > 0

    # -- what the timer, the note and the club's seating still call --------------------

    def submit(self, event: Event, joins: bool = False) -> bool:
        """Submit one event (``joins``: as part of the last action); a refusal is the message."""
        try:
            self.session.submit_action([event], joins)
        except BadEvent as error:
            self.say(str(error))
            return False
        return True

    def resting_stage(self) -> Stage:
        return resting_stage(self.session.state, self.settings())

    def rest(self) -> None:
        """Back to the stage the table's phase calls for; a win in progress is dropped."""
        self.data = replace(self.data, place=self._resting_place())

    def _resting_place(self) -> Place:
        """The place of :meth:`resting_stage`: the players being chosen go on where the
        flow left them (their stage, or a menu opened over it), else a fresh choice."""
        return resting_place(self.data.place, self.session.state, self.settings())
