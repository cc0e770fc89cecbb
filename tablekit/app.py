"""The appliance: picks the devices, then runs the single-threaded main loop.

Button and camera threads only put items on :attr:`App.inbox`; the loop takes
them off, feeds the :class:`~tablekit.flow.Flow`, draws the screen and pings
systemd's watchdog. A device that is missing is reported in one line and the
app falls back (no GPIO: the keyboard; no screen: PNG files; no camera: the
buttons keep the score alone). The simulated table (``tablekit demo``, ``tablekit
simulate``, the benchmarks that play games) is just another set of devices around the
same loop: a camera source, buttons on mock pins, a clock it drives (``sleep``), a
display or none.
"""

from __future__ import annotations

import os
import queue
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from tablekit.display.model import ScreenModel
from tablekit.flow import Flow
from tablekit.game.session import Session
from tablekit.game.state import Phase
from tablekit.io.notify import Watchdog
from tablekit.rules.presets import Rules

if TYPE_CHECKING:
    from tablekit.display.backends import Display
    from tablekit.io.buttons import KeyboardButtons
    from tablekit.vision.feed import CameraFeed

FRAME_SECONDS = 1 / 20
Report = Callable[[str], None]
Hook = Callable[["App"], None]


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
    camera: CameraFeed | None = None          # frames to events, or None
    watchdog: Watchdog = field(default_factory=Watchdog)
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    hooks: list[Hook] = field(default_factory=list)
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
        if self.camera is not None:
            for item in self.camera.poll():
                self.inbox.put(item)
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

    def take_inbox(self) -> None:
        """Hand the flow every press and camera event waiting, in order."""
        while not self.inbox.empty():
            self.flow.handle(self.inbox.get_nowait())

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
            self.sleep(max(0.0, FRAME_SECONDS - (self.clock() - started)))


def open_session(journal: Path, rules: Rules, report: Report, names: tuple[str, ...] = (),
                 start: bool = True) -> Session:
    """Resume the journal's game, or start a new one under ``rules`` with ``names``
    (``start`` False: the flow starts it once its players are chosen)."""
    session = Session.open(journal)
    if session.notice:
        report(f"journal: {session.notice}")
    if session.state.phase is Phase.NOT_STARTED and not start:
        report("players: choose them with the seat buttons")
    elif session.state.phase is Phase.NOT_STARTED:
        from tablekit.game.events import GameStarted
        session.submit(GameStarted(rules, names))
    else:
        report(f"resumed the game in {journal} at {session.state.round_label}")
    return session
