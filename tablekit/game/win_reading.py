"""The seam between whatever reads revealed hands (the camera's tracker, a test fake)
and the app's flow: what was read for a win, and the reader's interface.

>>> WinReading(()).doubts
()
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from tablekit.game.events import WinnerHand
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


class WinReader(Protocol):
    """Reads the revealed hands when players press WIN (the vision pipeline, or a fake)."""

    def read_win(self, seats: tuple[int, ...], from_seat: int | None) -> WinReading: ...
