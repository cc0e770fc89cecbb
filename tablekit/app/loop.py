"""The appliance: picks the devices, then runs the single-threaded main loop.

Button and camera threads only put items on :attr:`App.inbox`; the loop takes
them off, feeds the :class:`~tablekit.flow.Flow`, draws the screen and pings
systemd's watchdog. A device that is missing is reported in one line and the
app falls back (no GPIO: the keyboard; no screen: PNG files; no camera: the
buttons keep the score alone). The simulated table (``tablekit demo``, ``tablekit
simulate``, the benchmarks that play games) is just another set of devices around the
same loop: a camera source, buttons on mock pins, a clock it drives (``sleep``), a
display or none. :func:`build_table` is the one wiring of them all: ``tablekit run``, the
simulated table, a recording played back, the long evening and the fault harness build
their app with it.
"""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from tablekit.display.model import Layout, ScreenModel
from tablekit.errors import TablekitError
from tablekit.flow import CameraSide, Flow
from tablekit.flow.boxes import THREE
from tablekit.game.session import Session
from tablekit.game.state import Phase
from tablekit.io.notify import Watchdog
from tablekit.io.presses import ButtonPress
from tablekit.rules.presets import Rules

if TYPE_CHECKING:
    from tablekit.display.backends import Display
    from tablekit.game.events import Event
    from tablekit.io.buttons import KeyboardButtons
    from tablekit.tracking.camera import Camera
    from tablekit.vision.feed import FramePipeline
    from tablekit.vision.frames import FrameSource

FRAME_SECONDS = 1 / 20
TICKS = round(1 / FRAME_SECONDS)   # a driven clock's steps a second (the loop's rate)
Report = Callable[[str], None]
Hook = Callable[["App"], None]
Tap = Callable[[object, "App"], None]
Watch = Callable[[list["Event"], "App"], None]


class Buttons(Protocol):
    """Seat buttons that post presses to the loop's inbox (polled once a frame)."""

    def poll(self) -> None: ...

    def close(self) -> None: ...


def default_journal() -> Path:
    """Where the game journal lives unless told otherwise."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "tablekit" / "game.jsonl"


@dataclass
class App:
    """The main loop around a flow, a display and input sources.

    ``clock`` and ``sleep`` are the loop's time: real by default, driven by the
    simulated table. ``hooks`` are called after every step (what the simulated table
    checks); ``shown_at`` is the clock's time when the display last changed.
    """

    flow: Flow
    display: Display | None
    inbox: queue.Queue = field(default_factory=queue.Queue)
    buttons: Buttons | None = None            # polled each frame, or None
    keyboard: KeyboardButtons | None = None   # fed from the window's key events
    camera: Camera | None = None              # frames to events, or None
    watchdog: Watchdog = field(default_factory=Watchdog)
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    hooks: list[Hook] = field(default_factory=list)
    taps: list[Tap] = field(default_factory=list)
    """Called with each input just before the flow takes it (a recording keeps presses)."""
    watches: list[Watch] = field(default_factory=list)
    """Called with the events of each frame the camera gives the loop, before the flow takes
    them (the simulated table's checks of its camera)."""
    camera_polled: bool = False
    """Whether this step's camera has been polled (an input taken before: ahead of it)."""
    woken: threading.Event | None = None
    """Set by an input that comes by itself (a phone's press): the loop steps at once instead
    of sleeping out its frame (with the real clock only)."""
    frames: int = 0
    running: bool = True
    shown_at: float = 0.0
    _last_screen: ScreenModel | None = None

    def step(self) -> None:
        """One frame: inputs, flow, screen, watchdog."""
        now = self.clock()
        if self.buttons is not None:
            self.buttons.poll()
        self._keys(now)
        if self.keyboard is not None and self.keyboard.quit:
            self.running = False  # every action is in the journal already: nothing to save
            return
        events = []
        if self.camera is not None:
            events = self.camera.poll(self.flow.session.state)
            self._give(events)
            self.flow.warn(*self.camera.warnings)
        self.camera_polled = True
        self.take_inbox()
        # The camera fell behind (its frame shows several turns): what else the frame shows,
        # against the state the flow made of the events it gave last.
        while events and self.camera is not None:
            events = self.camera.catch_up(self.flow.session.state)
            self._give(events)
            self.flow.warn(*self.camera.warnings)
            self.take_inbox()
        self.flow.tick()
        screen = self.flow.screen()
        if screen != self._last_screen:
            if self.display is not None:
                self.display.show(screen)
            self._last_screen, self.shown_at = screen, now
        self.watchdog.ping(now)
        self.frames += 1
        for hook in self.hooks:
            hook(self)
        self.camera_polled = False

    def take_inbox(self) -> None:
        """Hand the flow every press and camera event waiting, in order; the camera gives
        again the events the flow lets wait (a win or a draw on the screen)."""
        while not self.inbox.empty():
            item = self.inbox.get_nowait()
            for tap in self.taps:
                tap(item, self)
            waits = not isinstance(item, ButtonPress) and not self.flow.takes(item)
            self.flow.handle(item)
            if waits and self.camera is not None:
                self.camera.offer_again()

    def _give(self, events: list[Event]) -> None:
        """The camera's events, watched, into the inbox after what is waiting."""
        for watch in self.watches if events else ():
            watch(events, self)
        for event in events:
            self.inbox.put(event)

    @property
    def screen(self) -> ScreenModel | None:
        """What the display shows now (None before the first step)."""
        return self._last_screen

    def _keys(self, now: float) -> None:
        if self.keyboard is None:
            return
        import pygame

        if not pygame.display.get_init():
            return
        for event in pygame.event.get((pygame.KEYDOWN, pygame.KEYUP, pygame.QUIT)):
            if event.type == pygame.QUIT:
                self.running = False
            else:
                self.keyboard.key(pygame.key.name(event.key), event.type == pygame.KEYDOWN,
                                  now)
        self.keyboard.poll(now)

    def run(self, max_frames: int | None = None,
            until: Callable[[App], bool] | None = None) -> None:
        """Step every ``FRAME_SECONDS`` until stopped, ``max_frames`` steps, or ``until``
        says so after a step."""
        self.watchdog.ready()
        while self.running and (max_frames is None or self.frames < max_frames):
            started = self.clock()
            self.step()
            if until is not None and until(self):
                break
            pause = max(0.0, FRAME_SECONDS - (self.clock() - started))
            if self.woken is not None and self.sleep is time.sleep:
                self.woken.wait(pause)  # a press waiting: its step now, not a frame later
                self.woken.clear()
            else:
                self.sleep(pause)


class DrivenClock:
    """The loop's time when something drives it (the simulated table, a recording played
    back): ``sleep`` moves it on by whole steps of the loop without sleeping, then calls
    ``on_sleep`` with the new time (the simulated table's people press their buttons).

    >>> clock = DrivenClock()
    >>> clock.sleep(0.04); clock.sleep(0.0); clock()
    0.1
    """

    def __init__(self) -> None:
        self.ticks = 0
        self.on_sleep: Callable[[float], None] = lambda now: None

    def __call__(self) -> float:
        return self.ticks / TICKS

    def sleep(self, seconds: float) -> None:
        self.ticks += max(1, round(seconds * TICKS))
        self.on_sleep(self())


def build_table(session: Session, display: Display | None = None, *,
                camera: FrameSource | None = None, pipeline: FramePipeline | None = None,
                fps: float = 4.0, clock: Callable[[], float] = time.monotonic,
                sleep: Callable[[float], None] = time.sleep,
                wall: Callable[[], float] = time.time, layout: Layout = "facing",
                roster: tuple[str, ...] = (), rules: Rules | None = None,
                seed: int | None = None, boxes: tuple[int, ...] = THREE,
                inbox: queue.Queue | None = None, reader: CameraSide | None = None) -> App:
    """The table: the app's loop around a :class:`Flow` over ``session``, shown on
    ``display``, and the camera side, ``camera``'s frames through ``pipeline`` and the
    tracker at ``fps`` frames a second (no ``camera``: the buttons keep the score, wins
    entered by hand). ``clock`` and ``sleep`` are the loop's time (driven on the simulated
    table and in a recording played back; the camera's and the flow's too), ``wall`` the
    game timer's; ``layout``, ``roster``, ``rules``, ``seed`` and ``boxes`` are the flow's
    (:class:`Flow`); ``inbox``: the loop's queue when the caller made it first (phones post
    to it); ``reader``: with no ``camera``, a camera side the caller made (the fault
    harness's fake one): the flow looks at wins with it, the loop polls no camera and the
    caller posts its events. The one wiring of ``tablekit run``, the simulated table, a
    recording played back, the long evening and the fault harness; the buttons are the
    caller's (``app.buttons``).

    >>> import tempfile
    >>> session = Session.open(Path(tempfile.mkdtemp()) / "game.jsonl")
    >>> app = build_table(session)
    >>> app.camera is None, app.flow.reader is None, app.flow.session is session
    (True, True, True)
    >>> session.close()
    """
    inbox = inbox if inbox is not None else queue.Queue()
    if camera is None:
        flow = Flow(session, reader=reader, clock=clock, layout=layout, roster=roster,
                    rules=rules, seed=seed, boxes=boxes, wall=wall)
        return App(flow, display, clock=clock, sleep=sleep, inbox=inbox)
    if reader is not None:
        raise ValueError("a camera's side is built here: give the camera or a reader")
    if pipeline is None:
        raise ValueError("a camera needs the pipeline that reads its frames")
    from tablekit.tracking.camera import Camera
    from tablekit.vision.feed import CameraFeed

    side = Camera(CameraFeed(camera, pipeline, fps=fps, clock=clock))
    flow = Flow(session, reader=side, clock=clock, layout=layout, roster=roster,
                rules=rules, seed=seed, boxes=boxes, wall=wall)
    return App(flow, display, camera=side, clock=clock, sleep=sleep, inbox=inbox)


def open_session(journal: Path, rules: Rules, report: Report, names: tuple[str, ...] = (),
                 start: bool = True, named_rules: str | None = None) -> Session:
    """Resume the journal's game, or start a new one under ``rules`` with ``names``
    (``start`` False: the flow starts it once its players are chosen). ``names`` that are
    not the players of the game in the journal start a new game when that one is over, and
    are refused (:class:`TablekitError`, one line) while it is in progress; so are ``rules``
    the user named (``named_rules``: ``--rules`` as typed) that are not that game's. A
    finished game's next game under other named rules keeps its players when there are as
    many seats."""
    session = Session.open(journal)
    if session.notice:
        report(f"journal: {session.notice}")
    state = session.state
    others = bool(names) and set(names) != set(state.names)
    other_rules = (named_rules is not None and state.phase is not Phase.NOT_STARTED
                   and state.rules != rules)
    if state.phase in (Phase.HAND_IN_PLAY, Phase.HAND_OVER) and (others or other_rules):
        session.close()
        if others:
            raise TablekitError(in_progress(journal, state.round_label, state.names))
        raise TablekitError(rules_in_progress(journal, state.round_label, state.rules.name,
                                              named_rules or rules.name))
    new_game = state.phase is Phase.GAME_OVER and (others or (other_rules and start))
    if state.phase is not Phase.NOT_STARTED and not new_game:
        report(f"resumed the game in {journal} at {state.round_label}")
        if other_rules:  # a finished game, the seat buttons to choose the next one's players
            report(f"rules: the seat buttons choose the next game's players under the "
                   f"finished game's rules ({state.rules.name}); --players starts one under "
                   f"--rules {named_rules}")
    elif not start:
        report("players: choose them with the seat buttons")
    else:
        from tablekit.game.events import GameStarted
        from tablekit.league.roster import seating_text

        if not names and len(state.names) == rules.players:
            names = state.names  # a finished game's players, under the rules named
        if names:
            report(f"seats: {seating_text(names)}")
        session.submit(GameStarted(rules, names))
    return session


def rules_in_progress(journal: Path, round_label: str, kept: str, named: str) -> str:
    """Why other rules are refused on a journal whose game is still being played.

    >>> rules_in_progress(Path("game.jsonl"), "East 2", "tenhou", "tenhou-sanma")[:60]
    'game.jsonl holds a game in progress (East 2) under tenhou ru'
    """
    return (f"{journal} holds a game in progress ({round_label}) under {kept} rules: "
            f"--rules {named} starts a new game once it is over; run without --rules to "
            "resume it, end it from the menu (hold UNDO), or name another file with --journal")


def in_progress(journal: Path, round_label: str, names: tuple[str, ...]) -> str:
    """Why new players are refused on a journal whose game is still being played.

    >>> in_progress(Path("game.jsonl"), "East 2", ("Aki", "Ben", "Cho", "Dai"))[:65]
    'game.jsonl holds a game in progress (East 2: Aki, Ben, Cho, Dai):'
    """
    players = ", ".join(names) or "players not named"
    return (f"{journal} holds a game in progress ({round_label}: {players}): --players "
            "starts a new game once it is over; run without --players to resume it, end it "
            "from the menu (hold UNDO), or name another file with --journal")
