"""Everything the flow asks of the camera side, in one protocol: the app's camera
(:class:`tablekit.tracking.camera.Camera`) implements it, and a test fakes it whole. The
flow hands it the state each time it asks; camera events the flow lets wait are the
loop's business (:meth:`Flow.handle` says it did not take them), never the flow's.

>>> class Blind:
...     def look_at_win(self): pass
...     def read_win(self, state, seats, from_seat): return WinReading(())
...     def behind(self, state): return False
...     def expect_call(self, state, seat): pass
>>> isinstance(Blind(), CameraSide)
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from tablekit.game.win_reading import WinReader, WinReading

if TYPE_CHECKING:
    from tablekit.game.state import TableState


@runtime_checkable
class CameraSide(WinReader, Protocol):
    """Reads revealed hands at a win, and says how far it has followed the table."""

    def look_at_win(self) -> None:
        """A win is on the table (looked at again): its revealed hands are read from the
        frames since the first look."""
        ...

    def read_win(self, state: TableState, seats: tuple[int, ...], from_seat: int | None
                 ) -> WinReading:
        """What the frames since :meth:`look_at_win` show of the winners' hands (a query)."""
        ...

    def behind(self, state: TableState) -> bool:
        """Whether the table shows discards ``state`` has not taken yet."""
        ...

    def expect_call(self, state: TableState, seat: int) -> None:
        """``seat`` pressed CALL: its meld is coming before its next discard."""
        ...
