"""CALL presses: a meld counts only once its seat has pressed CALL (the button vouches
for it, the camera says what it is), and the caller's meld comes before its discard.

>>> state = TableState.new()
>>> calls = CallWatch()
>>> calls.press(state, 2, now=5.0)
>>> calls.waiting
CallPress(seat=2, melds=0, at=5.0)
>>> calls.step(state, now=5.0 + CALL_PATIENCE + 0.25)  # no meld: go on, and say so
>>> calls.waiting, calls.warnings(state)
(None, ['West called but no meld is seen: lay it face up by the hand, or UNDO'])
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tablekit.game.state import TableState, seat_name
from tablekit.tracking.stable_view import since

CALL_PATIENCE = 10.0  # s a CALL press holds back the caller's discard


def calls_laid(state: TableState, seat: int) -> int:
    """How many calls the seat's melds stand for (:attr:`~tablekit.game.state.SeatState.calls`:
    an added kan is a call too)."""
    return state.seats[seat].calls


@dataclass(frozen=True)
class CallPress:
    """``seat`` pressed CALL at ``at`` (s) with ``melds`` calls laid (:func:`calls_laid`)."""

    seat: int
    melds: int
    at: float

    def laid(self, state: TableState) -> bool:
        """Whether the seat has laid a meld since (an added kan's fourth tile too)."""
        return calls_laid(state, self.seat) > self.melds


@dataclass
class CallWatch:
    """Each seat's last CALL (it vouches for one meld), the one holding back its seat's
    discard, and the seat whose meld never showed."""

    presses: dict[int, CallPress] = field(default_factory=dict)
    waiting: CallPress | None = None
    unseen: int | None = None

    def press(self, state: TableState, seat: int, now: float) -> None:
        """A seat pressed CALL: wait for its meld before taking its next discard (unless
        the meld is already in: then the seat holds the turn, not yet discarded)."""
        self.presses[seat] = CallPress(seat, calls_laid(state, seat), now)
        if self.unseen == seat:
            self.unseen = None
        if state.turn == seat and not state.to_draw:
            return
        self.waiting = self.presses[seat]

    def step(self, state: TableState, now: float) -> None:
        """A frame at ``now``: a meld laid ends the wait, and so does patience running out
        (then the screen says so until the meld shows up after all)."""
        if self.waiting is not None:
            laid = self.waiting.laid(state)
            waited = since(self.waiting.at, now) > CALL_PATIENCE
            if not laid and waited:  # go on in turn order, and say so
                self.unseen = self.waiting.seat
            if laid or waited:
                self.waiting = None
        elif self.unseen is not None and self.presses[self.unseen].laid(state):
            self.unseen = None  # the meld showed up after all

    def reset(self) -> None:
        """No hand in play: no press stands."""
        self.waiting = self.unseen = None
        self.presses.clear()

    def vouches(self, state: TableState, seat: int) -> bool:
        """Whether the seat's last CALL stands for a meld not laid yet."""
        press = self.presses.get(seat)
        return press is not None and press.melds == calls_laid(state, seat)

    def holds_back(self, seat: int) -> bool:
        """Whether the seat's meld must come before its discard."""
        return self.waiting is not None and self.waiting.seat == seat

    def warnings(self, state: TableState) -> list[str]:
        """What a person should know about the calls now (for the screen)."""
        if self.unseen is None:
            return []
        return [f"{seat_name(state, self.unseen)} called but no meld is seen: "
                "lay it face up by the hand, or UNDO"]
