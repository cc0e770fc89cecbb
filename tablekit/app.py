"""The appliance: picks the devices, then runs the single-threaded main loop.

Button and camera threads only put items on :attr:`App.inbox`; the loop takes
them off, feeds the :class:`~tablekit.flow.Flow`, draws the screen and pings
systemd's watchdog. A device that is missing is reported in one line and the
app falls back (no GPIO: the keyboard; no screen: PNG files; no camera: the
buttons keep the score alone).
"""

from __future__ import annotations

import os
import queue
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tablekit.display.model import ScreenModel
from tablekit.flow import Flow
from tablekit.game.session import Session
from tablekit.game.state import Phase
from tablekit.io.notify import Watchdog
from tablekit.rules.presets import Rules

FRAME_SECONDS = 1 / 20
Report = Callable[[str], None]


def default_journal() -> Path:
    """Where the game journal lives unless told otherwise."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "tablekit" / "game.jsonl"


@dataclass
class App:
    """The main loop around a flow, a display and input sources."""

    flow: Flow
    display: Any
    inbox: queue.Queue = field(default_factory=queue.Queue)
    buttons: Any = None          # a ButtonBoard (polled each frame), or None
    keyboard: Any = None         # KeyboardButtons fed from the window's key events
    camera: Any = None           # an object with poll() -> list of items, or None
    watchdog: Watchdog = field(default_factory=Watchdog)
    clock: Callable[[], float] = time.monotonic
    frames: int = 0
    running: bool = True
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
        while not self.inbox.empty():
            self.flow.handle(self.inbox.get_nowait())
        self.flow.tick()
        screen = self.flow.screen()
        if screen != self._last_screen:
            self.display.show(screen)
            self._last_screen = screen
        self.watchdog.ping(now)
        self.frames += 1

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

    def run(self, max_frames: int | None = None, until_game_over: bool = False) -> None:
        self.watchdog.ready()
        while self.running and (max_frames is None or self.frames < max_frames):
            started = self.clock()
            self.step()
            if until_game_over and self.flow.session.state.phase is Phase.GAME_OVER:
                self.step()
                break
            time.sleep(max(0.0, FRAME_SECONDS - (self.clock() - started)))


def open_session(journal: Path, rules: Rules, report: Report, names: tuple[str, ...] = ()
                 ) -> Session:
    """Resume the journal's game, or start a new one under ``rules`` with ``names``."""
    session = Session.open(journal)
    if session.notice:
        report(f"journal: {session.notice}")
    if session.state.phase is Phase.NOT_STARTED:
        from tablekit.game.events import GameStarted
        from tablekit.rules.presets import rules_to_dict
        session.submit(GameStarted(rules_to_dict(rules), names))
    else:
        report(f"resumed the game in {journal} at {session.state.round_label}")
    return session
