"""Phones as the seat buttons (``tablekit run --buttons phones``): each seat box's secret
address, and the back end that turns a phone's press into the same
:class:`~tablekit.io.presses.ButtonPress` a GPIO button or a key makes.

The web page's process serves the seat pages and takes the presses (:mod:`tablekit.web.seats`);
a thread of the game's process reads them from it and calls :meth:`PhoneButtons.press`, which
puts them on the loop's inbox, as gpiozero's thread does for a pin. Nothing in the loop waits
on the network.

A seat's key is its address: :class:`SeatKeys` makes one of 128 bits for each seat box in use,
anew each time ``tablekit run`` starts and whenever the menu renews them.

>>> keys = SeatKeys.new((0, 1, 2, 3))
>>> len(keys.keys), len(keys.keys[0]) >= 22, keys.keys[0] != keys.keys[1]
(4, True, True)
>>> fixed = SeatKeys({0: "K0", 1: "K1", 3: "K3"})
>>> seat_lines(fixed, "192.168.1.20", 8080)[2]
'North: http://192.168.1.20:8080/seat/north/K3'
>>> fixed.winds()
{'east': 'K0', 'south': 'K1', 'north': 'K3'}

A press from a seat's address: its own RIICHI, CALL or WIN, or the shared OK and UNDO; a
second press of the same button within :data:`DOUBLE_TAP` seconds is one press, as a bouncing
contact is:

>>> import queue
>>> inbox: queue.Queue = queue.Queue()
>>> now = [10.0]
>>> phones = PhoneButtons(inbox, clock=lambda: now[0])
>>> phones.press(1, "win", held=True), phones.press(1, "win", held=True)
(True, False)
>>> now[0] += 1; phones.press(2, "ok")
True
>>> [str(inbox.get_nowait()) for _ in range(inbox.qsize())]
['seat 1 win (held)', 'ok']
"""

from __future__ import annotations

import queue
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from tablekit.io.presses import SHARED_BUTTONS, ButtonName, ButtonPress
from tablekit.untrusted.press import WINDS

KEY_BYTES = 16
"""A seat key's randomness: 128 bits (``secrets.token_urlsafe``: 22 characters)."""
DOUBLE_TAP = 0.3
"""Seconds within which a second press of the same button is the same press (a double tap on
a phone, as contact bounce on a GPIO button: one press)."""
LABELS = tuple(wind.capitalize() for wind in WINDS)


@dataclass(frozen=True)
class SeatKeys:
    """Each seat box's key (box 0-3: the East, South, West and North boxes)."""

    keys: Mapping[int, str]

    @classmethod
    def new(cls, boxes: tuple[int, ...]) -> SeatKeys:
        """Fresh keys for the seat boxes in use (four players: all four; three: theirs)."""
        return cls({box: secrets.token_urlsafe(KEY_BYTES) for box in sorted(boxes)})

    def of(self, boxes: tuple[int, ...]) -> SeatKeys:
        """The keys of ``boxes``: each box's own where it has one, a fresh one where not.

        >>> kept = SeatKeys({0: "K0", 1: "K1", 2: "K2"}).of((0, 1, 3))
        >>> kept.keys[0], kept.keys[1], 2 in kept.keys, len(kept.keys[3]) >= 22
        ('K0', 'K1', False, True)
        """
        return SeatKeys({box: self.keys.get(box) or secrets.token_urlsafe(KEY_BYTES)
                         for box in sorted(boxes)})

    def winds(self) -> dict[str, str]:
        """The keys by the wind an address names (``east`` ...), in box order."""
        return {WINDS[box]: key for box, key in sorted(self.keys.items())}


def seat_path(box: int, key: str) -> str:
    """The path of a seat box's page.

    >>> seat_path(0, "KEY")
    '/seat/east/KEY'
    """
    return f"/seat/{WINDS[box]}/{key}"


def seat_addresses(keys: SeatKeys, host: str, port: int) -> tuple[tuple[str, str], ...]:
    """(the seat box's wind, its address) for each box in use, East first."""
    return tuple((LABELS[box], f"http://{host}:{port}{seat_path(box, key)}")
                 for box, key in sorted(keys.keys.items()))


def seat_lines(keys: SeatKeys, host: str, port: int) -> list[str]:
    """One line a seat: ``East: http://HOST:PORT/seat/east/KEY`` (the wind first, so that a
    script reads it)."""
    return [f"{label}: {address}" for label, address in seat_addresses(keys, host, port)]


class PhoneButtons:
    """The phones' presses onto the loop's ``presses`` queue (called from the thread that
    reads the page's process). ``poll`` and ``close`` as a button board has them."""

    def __init__(self, presses: queue.Queue, clock: Callable[[], float] = time.monotonic,
                 double_tap: float = DOUBLE_TAP, wake: Callable[[], None] | None = None
                 ) -> None:
        """``wake``: called after each press is put on ``presses`` (the loop takes it at
        once rather than at its next frame)."""
        self.presses = presses
        self.wake = wake
        self.clock = clock
        self.double_tap = double_tap
        self._last: dict[tuple[ButtonName, int | None], float] = {}
        self._lock = threading.Lock()

    def press(self, box: int, button: str, held: bool = False) -> bool:
        """A press from seat box ``box``'s address; False when it was the second tap of a
        double tap (dropped, as bounce is). OK and UNDO are the table's shared buttons:
        whichever phone presses them, a double tap is one press."""
        name = ButtonName(button)
        seat = None if name in SHARED_BUTTONS else box
        now = self.clock()
        with self._lock:
            last = self._last.get((name, seat))
            if last is not None and now - last < self.double_tap:
                return False
            self._last[(name, seat)] = now
        self.presses.put(ButtonPress(name, seat, long=held, time=now))
        if self.wake is not None:
            self.wake()
        return True

    def poll(self) -> None:
        """Nothing to look at: presses come as they are made."""

    def close(self) -> None:
        """Nothing to let go of: the page's process is stopped with the page."""
