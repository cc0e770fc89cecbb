"""Button presses: what a seat button or a shared button says, and the debouncer that
turns raw pin edges into short and long presses.

Debounce and long press live here, not in gpiozero (its mock pins ignore
``bounce_time``), so they are tested with a fake clock.

>>> detector = PressDetector(debounce=0.03, long=1.0)
>>> detector.edge(True, 0.00), detector.edge(False, 0.01), detector.edge(True, 0.02)
(None, None, None)
>>> detector.edge(False, 0.20)
'short'
>>> detector.edge(True, 1.0), detector.poll(2.1), detector.edge(False, 2.5)
(None, 'long', None)
>>> detector.edge(True, 3.0), detector.edge(False, 3.01), detector.poll(3.5, down=False)
(None, None, 'short')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Literal

PressKind = Literal["short", "long"]


class ButtonName(Enum):
    RIICHI = "riichi"
    CALL = "call"
    WIN = "win"
    OK = "ok"
    UNDO = "undo"


SEAT_BUTTONS = (ButtonName.RIICHI, ButtonName.CALL, ButtonName.WIN)
SHARED_BUTTONS = (ButtonName.OK, ButtonName.UNDO)


@dataclass(frozen=True)
class ButtonPress:
    """One press: a seat's button (``seat`` 0-3) or a shared one (``seat`` None)."""

    name: ButtonName
    seat: int | None = None
    long: bool = False
    time: float = 0.0

    def __str__(self) -> str:
        who = f"seat {self.seat} " if self.seat is not None else ""
        return f"{who}{self.name.value}{' (held)' if self.long else ''}"


class PressDetector:
    """Debounced short/long press detection from pin edges (``down`` True = pressed).

    A level change shorter than ``debounce`` seconds after the last accepted one is
    contact bounce and ignored. A press held ``long`` seconds reports ``"long"`` once
    (from :meth:`poll`, while still held, or at release); a shorter one reports
    ``"short"`` at release.
    """

    def __init__(self, debounce: float = 0.03, long: float = 1.0) -> None:
        self.debounce = debounce
        self.long = long
        self._down_at: float | None = None
        self._last_edge = -1e9
        self._reported = False

    def edge(self, down: bool, now: float) -> PressKind | None:
        if now - self._last_edge < self.debounce:
            return None
        if down == (self._down_at is not None):
            return None
        self._last_edge = now
        if down:
            self._down_at, self._reported = now, False
            return None
        assert self._down_at is not None  # an up edge follows a down one (checked above)
        held = now - self._down_at
        self._down_at = None
        if self._reported:
            return None
        return "long" if held >= self.long else "short"

    def poll(self, now: float, down: bool | None = None) -> PressKind | None:
        """Report a long press as soon as the button has been held long enough.

        ``down`` is the pin's level now, when known: an edge that was dropped as
        bounce is caught up with here, so a quick tap is never taken for a hold.
        """
        if down is not None and down != (self._down_at is not None):
            caught_up = self.edge(down, now)
            if caught_up is not None:
                return caught_up
        if self._down_at is not None and not self._reported and now - self._down_at >= self.long:
            self._reported = True
            return "long"
        return None
