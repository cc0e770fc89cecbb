"""The seam between whatever reads revealed hands (the camera's tracker, a test fake)
and the app's flow: what was read for a win, and the reader's interface.

>>> WinReading(()).doubts
()
>>> unsure("8s", 0.64), how_sure(0.96)
('camera only 64% sure of the 8s', 'camera 96% sure')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from tablekit.game.events import WinnerHand

if TYPE_CHECKING:
    from tablekit.game.state import TableState
from tablekit.tiles import Tile


@dataclass(frozen=True)
class WinReading:
    """What the camera read for a win: each winner's hand, the ura dora, and doubts;
    ``drafts``: for each winner whose hand could not be made complete, ``(seat, tiles)``
    as best read (``None`` where a tile was not seen), for a person to put right;
    ``unseen``: how many of the winners' tiles the frames did not show (an arm over a
    hand), which the reading had to guess."""

    winners: tuple[WinnerHand, ...]
    ura: tuple[Tile, ...] = ()
    doubts: tuple[str, ...] = ()
    drafts: tuple[tuple[int, tuple[Tile | None, ...]], ...] = ()
    unseen: int = 0


def how_sure(share: float) -> str:
    """How sure the camera was of a read, in the words every screen uses for it."""
    return f"camera {share:.0%} sure"


def unsure(what: str, share: float) -> str:
    """A read the camera is not sure of (``what`` it took the tile to be), for the table
    to check."""
    return f"camera only {share:.0%} sure of the {what}"


class WinReader(Protocol):
    """Reads the revealed hands when players press WIN (the camera, or a fake), handed the
    state they are read against."""

    def read_win(self, state: TableState, seats: tuple[int, ...], from_seat: int | None
                 ) -> WinReading: ...
