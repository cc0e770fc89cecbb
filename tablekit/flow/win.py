"""A win in progress: made on WIN, dropped on every way out of it (scored, cancelled).
Frozen, like the rest of the flow's state (:mod:`tablekit.flow.stages`), which holds it in
the stage of the win: each step is a new one.

>>> win = WinInProgress(((1, False), (3, False)), deadline=1.5)
>>> win.claimed, win.tsumo_seat, win.in_turn_order(discarder=2)
((1, 3), None, (3, 1))
>>> win.claim(2).claimed, win.claimed
((1, 3, 2), (1, 3))
>>> Entry(2, han_step=2).winner()
WinnerHand(seat=2, hand=(), win_tile=None, han=3, fu=30, yakuman=0)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tablekit.display.model import WinPreview
from tablekit.flow.tile_fix import TileFix
from tablekit.game.events import Event, WinnerHand, Won
from tablekit.game.state import SEATS
from tablekit.game.win_reading import WinReading

HAN_STEPS = (*range(1, 14), "yakuman", "2x yakuman")
FU_STEPS = (30, 40, 50, 60, 70, 80, 90, 100, 110, 20, 25)


@dataclass(frozen=True)
class Entry:
    """A value being entered by hand for one winner."""

    seat: int
    han_step: int = 0
    fu_step: int = 0

    def winner(self) -> WinnerHand:
        step = HAN_STEPS[self.han_step]
        if isinstance(step, str):
            return WinnerHand(self.seat, yakuman=2 if step.startswith("2x") else 1)
        return WinnerHand(self.seat, han=step, fu=FU_STEPS[self.fu_step])

    def next_han(self) -> Entry:
        return replace(self, han_step=(self.han_step + 1) % len(HAN_STEPS))

    def next_fu(self) -> Entry:
        return replace(self, fu_step=(self.fu_step + 1) % len(FU_STEPS))


@dataclass(frozen=True)
class WinInProgress:
    """The claims (seat, held WIN) and all that follows them until OK or UNDO: who dealt
    in, the camera's reading, the win proposed with its preview and the corrections that
    go before it, the tiles being put right, the values entered by hand, and when the
    WIN window closes (the later waits count from it too)."""

    claims: tuple[tuple[int, bool], ...]
    deadline: float
    discarder: int | None = None
    seats: tuple[int, ...] = ()
    reading: WinReading | None = None
    pending: Won | None = None
    preview: WinPreview | None = None
    corrections: tuple[Event, ...] = ()   # applied before the pending win on OK
    fix: TileFix | None = None
    fixed: bool = False                   # a person put it right: the camera does not overrule
    entries: tuple[Entry, ...] = ()
    reread_at: float = 0.0
    record_stopped: bool = False          # a player said they dealt in: the record stopped

    @property
    def claimed(self) -> tuple[int, ...]:
        return tuple(seat for seat, _ in self.claims)

    @property
    def tsumo_seat(self) -> int | None:
        return next((seat for seat, long in self.claims if long), None)

    def in_turn_order(self, discarder: int | None) -> tuple[int, ...]:
        """The claimed seats, the first after the discarder first."""
        return tuple(sorted(self.claimed, key=lambda s: (s - (discarder or 0)) % SEATS))

    def claim(self, seat: int) -> WinInProgress:
        """Another seat's ron claimed on the same discard."""
        return replace(self, claims=(*self.claims, (seat, False)))

    def propose(self, won: Won | None, preview: WinPreview | None,
                corrections: tuple[Event, ...] = ()) -> WinInProgress:
        """The win waiting for OK (None: none yet), its preview and its corrections."""
        return replace(self, pending=won, preview=preview, corrections=corrections)

    def entered(self, entry: Entry) -> WinInProgress:
        """``entry`` in place of the entry of its seat."""
        return replace(self, entries=tuple(entry if e.seat == entry.seat else e
                                           for e in self.entries))
