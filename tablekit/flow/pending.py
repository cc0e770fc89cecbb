"""What people said that waits for the camera, whatever the stage: each seat's RIICHI
waiting for its discard and each seat's CALL waiting for its meld (a data type of its own,
below the flow, so that the flow, its handlers and its note share it). Frozen, like the
flow's stages (:mod:`tablekit.flow.stages`): a press is a new one.

>>> pending = Pending().riichi_pressed(2, at=10).riichi_pressed(1, at=12)
>>> pending.riichi_pressed(2, at=14).riichi, pending.riichi_taken(2).riichi
(((1, 12), (2, 14)), ((1, 12),))
>>> Pending().call_pressed(3, at=9, melds=0).call_pressed(3, at=11, melds=1).calls
((3, 11, 1),)
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Pending:
    """Each RIICHI waiting for its discard (seat, the journal's events in force at the
    press; the latest press last, see :func:`~tablekit.flow.model.standing_riichi`) and
    each CALL waiting for its meld (seat, journal length, calls its melds stood for at the
    press: :attr:`~tablekit.game.state.SeatState.calls`)."""

    riichi: tuple[tuple[int, int], ...] = ()
    calls: tuple[tuple[int, int, int], ...] = ()

    def riichi_pressed(self, seat: int, at: int) -> Pending:
        """``seat``'s RIICHI pressed (again: the latest press is the one)."""
        return replace(self, riichi=(*self.riichi_taken(seat).riichi, (seat, at)))

    def riichi_taken(self, seat: int) -> Pending:
        """``seat``'s RIICHI no longer waiting (declared, or taken back)."""
        return replace(self, riichi=tuple(press for press in self.riichi if press[0] != seat))

    def no_riichi(self) -> Pending:
        """No RIICHI waiting (a new hand, a new game, the record of the hand stopped)."""
        return replace(self, riichi=())

    def call_pressed(self, seat: int, at: int, melds: int) -> Pending:
        """``seat``'s CALL pressed at ``at`` journal lines, ``melds`` melds laid (in place
        of an earlier press of the seat)."""
        calls = tuple((seat, at, melds) if press[0] == seat else press for press in self.calls)
        return replace(self, calls=calls if any(press[0] == seat for press in self.calls)
                       else (*self.calls, (seat, at, melds)))
