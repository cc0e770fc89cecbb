"""Keyboard buttons read from a terminal (a pseudo-terminal here) when there is no window."""

from __future__ import annotations

import io
import os
import queue
import termios

from tablekit.io.buttons import KeyboardButtons
from tablekit.io.terminal import TerminalKeys, open_terminal_keys


def _presses(inbox: queue.Queue) -> list[str]:
    found = []
    while not inbox.empty():
        found.append(str(inbox.get_nowait()))
    return found


def test_keys_typed_in_a_terminal_are_presses_and_capitals_are_held() -> None:
    master, slave = os.openpty()
    stream = os.fdopen(slave, "r")
    before = termios.tcgetattr(slave)
    inbox: queue.Queue = queue.Queue()
    clock = iter(range(100))
    keys = TerminalKeys(KeyboardButtons(inbox), stream, clock=lambda: float(next(clock)))
    try:
        assert not termios.tcgetattr(slave)[3] & termios.ICANON  # no waiting for Enter
        os.write(master, b"e\rEx?U")
        keys.poll()
        assert _presses(inbox) == ["seat 0 win", "ok", "seat 0 win (held)", "seat 2 call",
                                   "undo (held)"]
        keys.poll()
        assert _presses(inbox) == []
    finally:
        keys.close()
        assert termios.tcgetattr(slave) == before
        stream.close()
        os.close(master)


def test_no_terminal_and_no_window_says_keys_do_nothing() -> None:
    lines: list[str] = []
    assert open_terminal_keys(KeyboardButtons(queue.Queue()), lines.append, io.StringIO()) is None
    assert len(lines) == 1 and "keys do nothing" in lines[0]


def test_esc_or_ctrl_d_quits_and_an_arrow_does_nothing() -> None:
    master, slave = os.openpty()
    stream = os.fdopen(slave, "r")
    inbox: queue.Queue = queue.Queue()
    keyboard = KeyboardButtons(inbox)
    keys = TerminalKeys(keyboard, stream)
    try:
        os.write(master, b"\x1b[A\x1bOP\x1b[15~")   # up, F1, F5
        keys.poll()
        assert not keyboard.quit and _presses(inbox) == []
        os.write(master, b"\x04")                    # Ctrl-D: end of input
        keys.poll()
        assert keyboard.quit
    finally:
        keys.close()
        stream.close()
        os.close(master)
