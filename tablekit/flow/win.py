"""A win in progress: made on WIN, dropped on every way out of it (scored, cancelled).

>>> win = WinInProgress([(1, False), (3, False)], deadline=1.5)
>>> win.claimed, win.tsumo_seat, win.in_turn_order(discarder=2)
((1, 3), None, (3, 1))
>>> Entry(2, han_step=2).winner()
WinnerHand(seat=2, hand=(), win_tile=None, han=3, fu=30, yakuman=0)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tablekit.display.model import WinPreview
from tablekit.flow.tile_fix import TileFix
from tablekit.game.events import Event, WinnerHand, Won
from tablekit.game.state import SEATS
from tablekit.game.win_reading import WinReading

HAN_STEPS = (*range(1, 14), "yakuman", "2x yakuman")
FU_STEPS = (30, 40, 50, 60, 70, 80, 90, 100, 110, 20, 25)


@dataclass
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


@dataclass
class WinInProgress:
    """The claims (seat, held WIN) and all that follows them until OK or UNDO: who dealt
    in, the camera's reading, the win proposed with its preview and the corrections that
    go before it, the tiles being put right, the values entered by hand, and when the
    WIN window closes (the later waits count from it too)."""

    claims: list[tuple[int, bool]]
    deadline: float
    discarder: int | None = None
    seats: tuple[int, ...] = ()
    reading: WinReading | None = None
    pending: Won | None = None
    preview: WinPreview | None = None
    corrections: tuple[Event, ...] = ()   # applied before the pending win on OK
    fix: TileFix | None = None
    fixed: bool = False                   # a person put it right: the camera does not overrule
    entries: list[Entry] = field(default_factory=list)
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

    def propose(self, won: Won | None, preview: WinPreview | None,
                corrections: tuple[Event, ...] = ()) -> None:
        """The win waiting for OK (None: none yet), its preview and its corrections."""
        self.pending, self.preview, self.corrections = won, preview, corrections
