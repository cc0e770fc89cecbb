"""Seat buttons on GPIO through gpiozero, and the keyboard stand-in for a desktop.

Button threads never touch game state: every press is put on the main loop's
queue as a :class:`~tablekit.io.presses.ButtonPress` (pibooth's way). Tests
drive gpiozero's ``MockFactory`` pins and a fake clock.

>>> import queue
>>> from gpiozero.pins.mock import MockFactory
>>> presses: queue.Queue = queue.Queue()
>>> now = [0.0]
>>> board = ButtonBoard(presses, pin_factory=MockFactory(), clock=lambda: now[0])
>>> pin = board.factory.pin(13)            # seat 0's WIN
>>> pin.drive_low(); now[0] = 0.2; pin.drive_high()
>>> str(presses.get_nowait())
'seat 0 win'
>>> board.close()
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from tablekit.io.pinmap import PinMap, load_pinmap
from tablekit.io.presses import ButtonName, ButtonPress, PressDetector

Clock = Callable[[], float]


class ButtonBoard:
    """Fourteen buttons (three per seat, OK and UNDO) posting presses to ``presses``."""

    def __init__(self, presses: queue.Queue, pin_factory: Any = None,
                 pinmap: PinMap | None = None, clock: Clock = time.monotonic) -> None:
        from gpiozero import Button  # imported here: desktops without GPIO never need it

        self.presses = presses
        self.pinmap = pinmap or load_pinmap()
        self.clock = clock
        self._lock = threading.Lock()  # gpiozero's callback thread and the main loop
        self._buttons: dict[tuple[ButtonName, int | None], Any] = {}
        self._detectors: dict[tuple[ButtonName, int | None], PressDetector] = {}
        for key, pin in self.pinmap.buttons.items():
            button = Button(pin, pull_up=True, pin_factory=pin_factory)
            button.when_pressed = lambda _b=None, k=key: self._edge(k, True)
            button.when_released = lambda _b=None, k=key: self._edge(k, False)
            self._buttons[key] = button
            self._detectors[key] = PressDetector(self.pinmap.debounce, self.pinmap.long_press)
        self.factory = next(iter(self._buttons.values())).pin_factory

    def _edge(self, key: tuple[ButtonName, int | None], down: bool) -> None:
        """A pin changed (gpiozero's thread): the detector is shared with :meth:`poll`."""
        with self._lock:
            kind = self._detectors[key].edge(down, self.clock())
        self._post(key, kind)

    def _post(self, key: tuple[ButtonName, int | None], kind: str | None) -> None:
        if kind is not None:
            name, seat = key
            self.presses.put(ButtonPress(name, seat, long=kind == "long", time=self.clock()))

    def poll(self) -> None:
        """Report presses held long enough; call it from the main loop every frame."""
        now = self.clock()
        for key, detector in self._detectors.items():
            pressed = self._buttons[key].is_pressed
            with self._lock:
                kind = detector.poll(now, pressed)
            self._post(key, kind)

    def close(self) -> None:
        for button in self._buttons.values():
            button.close()


# A desktop keyboard with the same buttons: three keys per seat, OK and UNDO.
KEYMAP: dict[str, tuple[ButtonName, int | None]] = {
    "q": (ButtonName.RIICHI, 0), "w": (ButtonName.CALL, 0), "e": (ButtonName.WIN, 0),
    "a": (ButtonName.RIICHI, 1), "s": (ButtonName.CALL, 1), "d": (ButtonName.WIN, 1),
    "z": (ButtonName.RIICHI, 2), "x": (ButtonName.CALL, 2), "c": (ButtonName.WIN, 2),
    "i": (ButtonName.RIICHI, 3), "o": (ButtonName.CALL, 3), "p": (ButtonName.WIN, 3),
    "return": (ButtonName.OK, None), "space": (ButtonName.OK, None),
    "backspace": (ButtonName.UNDO, None),
}
QUIT_KEY = "escape"  # not a button: it ends ``tablekit run`` (every action is saved already)
SEAT_KEYS = "q w e / a s d / z x c / i o p are RIICHI, CALL, WIN of seats 0-3"
WINDOW_HELP = (f"keys: {SEAT_KEYS} (hold a key to hold the button), Enter is OK, Backspace "
               "is UNDO, Esc quits (the game is saved)")


class KeyboardButtons:
    """The keyboard as buttons: key down/up with the same short/long press logic.

    >>> import queue
    >>> presses: queue.Queue = queue.Queue()
    >>> keys = KeyboardButtons(presses)
    >>> keys.key("backspace", True, 0.0); keys.poll(1.2); keys.key("backspace", False, 1.5)
    >>> str(presses.get_nowait())
    'undo (held)'
    >>> keys.quit, keys.key("escape", True, 2.0), keys.quit
    (False, None, True)
    """

    def __init__(self, presses: queue.Queue, long_press: float = 1.0) -> None:
        self.presses = presses
        self.long_press = long_press
        self.quit = False  # the quit key was pressed: the loop stops
        self._detectors = {key: PressDetector(0.0, long_press) for key in KEYMAP}

    def key(self, name: str, down: bool, now: float) -> None:
        """A key went down or up (``name`` as pygame.key.name gives it)."""
        if name == QUIT_KEY:
            self.quit = self.quit or down
        elif name in self._detectors:
            self._post(name, self._detectors[name].edge(down, now), now)

    def poll(self, now: float) -> None:
        for name, detector in self._detectors.items():
            self._post(name, detector.poll(now), now)

    def _post(self, key: str, kind: str | None, now: float) -> None:
        if kind is not None:
            name, seat = KEYMAP[key]
            self.presses.put(ButtonPress(name, seat, long=kind == "long", time=now))
