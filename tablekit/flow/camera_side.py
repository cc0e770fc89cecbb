"""Everything the flow asks of the camera side, in one protocol: the tracker implements
it, and a test fakes it whole.

>>> class Blind:
...     def look_at_win(self): pass
...     def read_win(self, seats, from_seat): return WinReading(())
...     def behind(self): return False
...     def offer_again(self): pass
...     def expect_call(self, seat): pass
>>> isinstance(Blind(), CameraSide)
True
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from tablekit.game.win_reading import WinReader, WinReading


@runtime_checkable
class CameraSide(WinReader, Protocol):
    """Reads revealed hands at a win, and says how far it has followed the table."""

    def look_at_win(self) -> None:
        """A win is on the table (looked at again): its revealed hands are read from the
        frames since the first look."""
        ...

    def read_win(self, seats: tuple[int, ...], from_seat: int | None) -> WinReading:
        """What the frames since :meth:`look_at_win` show of the winners' hands (a query)."""
        ...

    def behind(self) -> bool:
        """Whether the table shows discards the state has not taken yet."""
        ...

    def offer_again(self) -> None:
        """The flow let the last camera events wait (a win or a draw on the screen): the
        next frame gives them again."""
        ...

    def expect_call(self, seat: int) -> None:
        """``seat`` pressed CALL: its meld is coming before its next discard."""
        ...
