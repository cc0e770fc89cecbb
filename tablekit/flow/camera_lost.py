"""A hand the camera cannot follow (tiles it cannot read: a set the models never saw) goes
on by the buttons: the camera's record of it stops (:class:`TrackingStopped`), a ron asks
who dealt in, a tsumo is scored from the revealed tiles, and the screen says why in one
line. Nothing waits for discards the camera will never take.

>>> LOST.startswith("the camera cannot follow")
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tablekit.flow.proposal import preview
from tablekit.flow.saved import standing_riichi
from tablekit.flow.stage import CATCH_UP_WAIT
from tablekit.flow.stages import ChooseDiscarder
from tablekit.game.events import DoraCorrected, Event, RiichiDeclared, TrackingStopped, Won

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tablekit.display.model import WinPreview
    from tablekit.flow.host import FlowState

LOST = ("the camera cannot follow these tiles (enroll them: tablekit enroll); the buttons "
        "keep this hand")
"""The screen's line when the camera's record of a hand stops."""
LOST_SCORED = "the camera lost this hand: scored from the tiles alone"
"""The preview's doubt for a win scored once the camera's record of the hand stopped."""


def discarder_unsure(flow: FlowState, discarder: int | None, claimed: tuple[int, ...]) -> bool:
    """Whether the camera's discarder of a ron cannot be the one: a winner's own tile, or
    the camera behind the table (discards it has not taken), with or without a discard."""
    behind = flow.reader is not None and flow.reader.behind(flow.session.state)
    return (discarder is not None and discarder in claimed) or behind


def tsumo_unsure(flow: FlowState, seat: int) -> bool:
    """Whether the camera's record cannot hold a tsumo by ``seat``: another seat's turn
    still, :data:`CATCH_UP_WAIT` seconds after the WIN (it missed the turns before it)."""
    state, win = flow.session.state, flow.win
    return (state.tracked and state.turn != seat and win is not None
            and flow.clock() >= win.deadline + CATCH_UP_WAIT)


def stop_following(flow: FlowState) -> bool:
    """Stop the camera's record of the hand in play (an action of its own, one UNDO takes
    it back); the RIICHI presses still waiting for their discard are declared with it."""
    state = flow.session.state
    if not state.tracked:
        return False
    riichi = [RiichiDeclared(seat) for seat in standing_riichi(flow)]
    if not flow.submit_action([TrackingStopped(), *riichi]):
        return False
    flow.pending = flow.pending.no_riichi()
    flow.message = LOST
    return True


def preview_or_untracked(flow: FlowState, won: Won, doubts: tuple[str, ...],
                         first: Sequence[Event] = ()
                         ) -> tuple[WinPreview | None, tuple[Event, ...]]:
    """``won`` scored as :func:`preview` does, and the corrections it needs; a tsumo the
    camera's record of the hand refuses (its discards read wrong, turns missed) but the
    tiles alone score is scored so, the record stopped with it (:class:`TrackingStopped`
    first, the dora indicators put right kept), the screen saying so. A ron is not: who
    dealt in is the players' to say then (:func:`ask_discarder`)."""
    tracked = flow.session.state.tracked
    shown = preview(flow, won, doubts, first, quiet=tracked and won.from_seat is None)
    if shown is not None or not tracked or won.from_seat is not None:
        return shown, tuple(first)
    kept = untracked(flow, first)
    shown = preview(flow, won, (*doubts, LOST_SCORED), kept, quiet=True)
    if shown is None:
        preview(flow, won, doubts, first)  # the record's refusal is the message
        return None, tuple(first)
    return shown, kept


def untracked(flow: FlowState, first: Sequence[Event]) -> tuple[Event, ...]:
    """What goes before a win scored without the camera's record: the record stopped,
    the RIICHI presses it never took declared, the dora indicators put right kept."""
    riichi = (RiichiDeclared(seat) for seat in standing_riichi(flow))
    return (TrackingStopped(), *riichi, *(e for e in first if isinstance(e, DoraCorrected)))


def record_refuses(flow: FlowState, won: Won, first: Sequence[Event] = ()) -> bool:
    """Whether ``won`` is refused by the camera's record of the hand alone: the tiles
    score it without the record (so it is not the tiles a person must put right)."""
    state = flow.session.state
    return state.tracked and preview(flow, won, (), untracked(flow, first), quiet=True) is not None


def ask_discarder(flow: FlowState) -> bool:
    """A ron put right by a person that the camera's record refuses: the record stops
    and the players say who dealt in (the camera's discarder is not to be trusted); the
    tiles or values put right stand, scored once the discarder is known. False when the
    hand was not the camera's to lose (not followed, or a tsumo)."""
    win = flow.win
    if win is None or win.discarder is None or not stop_following(flow):
        return False
    flow.place = ChooseDiscarder(win)
    flow.message = f"{LOST}: who dealt in?"
    return True
