"""The keyboard buttons read from a terminal, for ``--buttons keyboard`` without a window
(``--display headless:DIR``, or KMSDRM that fell back to PNG files on tty1).

A terminal sends characters, not key-up events, so a capital letter is the same key held:
``e`` is seat 0's WIN (ron), ``E`` is WIN held (tsumo). Enter or space is OK, Backspace or
``u`` is UNDO and ``U`` is UNDO held (the menu). Esc or Ctrl-D quits; an arrow or function
key (an escape sequence) does nothing.

>>> key_for("e"), key_for("E"), key_for("\\r"), key_for("U"), key_for("?")
(('e', False), ('e', True), ('return', False), ('backspace', True), None)
>>> key_for("\\x1b"), key_for("\\x04")
(('escape', False), ('escape', False))
>>> typed("e\\x1b[A\\x1bOPx")
'ex'
"""

from __future__ import annotations

import os
import re
import select
import sys
import termios
import time
import tty
from collections.abc import Callable
from typing import Any, TextIO

from tablekit.io.buttons import KEYMAP, QUIT_KEY, SEAT_KEYS, KeyboardButtons

SPECIAL = {"\r": "return", "\n": "return", " ": "space", "\x7f": "backspace",
           "\x08": "backspace", "u": "backspace", "\x1b": QUIT_KEY, "\x04": QUIT_KEY}
HELP = (f"keys: {SEAT_KEYS} (a capital letter holds the button), Enter is OK, Backspace is "
        "UNDO (U holds it: the menu), Esc or Ctrl-D quits (the game is saved)")
_SEQUENCE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|O.|[^\x1b])")  # arrows, F1, Alt+key


def typed(text: str) -> str:
    """What was typed, less the escape sequences of arrow, function and Alt keys (Esc alone
    is a key: it comes on its own)."""
    return _SEQUENCE.sub("", text)


def key_for(char: str) -> tuple[str, bool] | None:
    """(the KEYMAP key, held) that a typed character stands for, or None."""
    held = char.isupper()
    char = char.lower() if held else char
    name = SPECIAL.get(char, char)
    return (name, held) if name in KEYMAP or name == QUIT_KEY else None


class TerminalKeys:
    """Reads a terminal without waiting (cbreak mode, restored on :meth:`close`) and presses
    the keyboard buttons; has ``poll()`` and ``close()`` like a button board."""

    def __init__(self, keys: KeyboardButtons, stream: TextIO | Any = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.keys, self.clock = keys, clock
        self.fd = (stream or sys.stdin).fileno()
        self._saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd)

    def poll(self) -> None:
        now = self.clock()
        while select.select([self.fd], [], [], 0)[0]:
            data = os.read(self.fd, 64)
            if not data:
                break
            for char in typed(data.decode(errors="ignore")):
                self.press(char, now)
        self.keys.poll(now)

    def press(self, char: str, now: float) -> None:
        found = key_for(char)
        if found is not None:
            name, held = found
            self.keys.key(name, True, now)
            self.keys.key(name, False, now + (self.keys.long_press if held else 0.0))

    def close(self) -> None:
        termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)


def open_terminal_keys(keys: KeyboardButtons, report: Callable[[str], None],
                       stream: TextIO | Any = None) -> TerminalKeys | None:
    """Terminal keys when ``stream`` (standard input) is a terminal; otherwise one line
    saying that no key will do anything, and None."""
    stream = stream or sys.stdin
    try:
        if stream is not None and stream.isatty():
            return TerminalKeys(keys, stream)
    except (OSError, termios.error, ValueError):
        pass
    report("buttons: keyboard, but there is no window and standard input is not a terminal: "
           "keys do nothing (run it in a terminal, or use --display window)")
    return None
