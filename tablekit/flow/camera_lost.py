"""A hand the camera cannot follow (tiles it cannot read: a set the models never saw) goes
on by the buttons: the camera's record of it stops (:class:`TrackingStopped`), a ron asks
who dealt in, a tsumo is scored from the revealed tiles, and the screen says why in one
line. Nothing waits for discards the camera will never take.

>>> LOST.startswith("the camera cannot follow")
True
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from tablekit.flow.model import FlowData, Settings, Table, submitted
from tablekit.flow.model import standing_riichi as waiting_riichi
from tablekit.flow.proposal import scored
from tablekit.flow.stage import CATCH_UP_WAIT
from tablekit.flow.stages import ChooseDiscarder, win_of
from tablekit.game.events import DoraCorrected, Event, RiichiDeclared, TrackingStopped, Won

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tablekit.display.model import WinPreview
    from tablekit.flow.model import Effects

LOST = ("the camera cannot follow these tiles (enroll them: tablekit enroll); the buttons "
        "keep this hand")
"""The screen's line when the camera's record of a hand stops."""
LOST_SCORED = "the camera lost this hand: scored from the tiles alone"
"""The preview's doubt for a win scored once the camera's record of the hand stopped."""


def discarder_unsure(table: Table, settings: Settings, discarder: int | None,
                     claimed: tuple[int, ...]) -> bool:
    """Whether the camera's discarder of a ron cannot be the one: a winner's own tile, or
    the camera behind the table (discards it has not taken), with or without a discard."""
    behind = settings.camera and table.behind
    return (discarder is not None and discarder in claimed) or behind


def tsumo_unsure(data: FlowData, table: Table, now: float, seat: int) -> bool:
    """Whether the camera's record cannot hold a tsumo by ``seat``: another seat's turn
    still, :data:`CATCH_UP_WAIT` seconds after the WIN (it missed the turns before it)."""
    state, win = table.state, win_of(data.place)
    return (state.tracked and state.turn != seat and win is not None
            and now >= win.deadline + CATCH_UP_WAIT)


def stop_following(data: FlowData, table: Table) -> tuple[FlowData, Table, Effects]:
    """Stop the camera's record of the hand in play (an action of its own, one UNDO takes
    it back); the RIICHI presses still waiting for their discard are declared with it.
    No effect: not followed, or refused (the refusal is the message)."""
    if not table.state.tracked:
        return data, table, ()
    riichi = [RiichiDeclared(seat) for seat in waiting_riichi(data.pending, table)]
    data, table, effects = submitted(data, table, [TrackingStopped(), *riichi])
    if effects:
        data = replace(data, pending=data.pending.no_riichi(), message=LOST)
    return data, table, effects


def preview_or_untracked(data: FlowData, table: Table, settings: Settings, won: Won,
                         doubts: tuple[str, ...], first: Sequence[Event] = ()
                         ) -> tuple[FlowData, WinPreview | None, tuple[Event, ...]]:
    """``won`` scored as :func:`~tablekit.flow.proposal.scored` does, and the corrections
    it needs; a tsumo the camera's record of the hand refuses (its discards read wrong,
    turns missed) but the tiles alone score is scored so, the record stopped with it
    (:class:`TrackingStopped` first, the dora indicators put right kept), the screen
    saying so. A ron is not: who dealt in is the players' to say then (:func:`ask_discarder`)."""
    tracked = table.state.tracked
    data, shown = scored(data, table, settings, won, doubts, first,
                         quiet=tracked and won.from_seat is None)
    if shown is not None or not tracked or won.from_seat is not None:
        return data, shown, tuple(first)
    kept = untracked(data, table, first)
    data, shown = scored(data, table, settings, won, (*doubts, LOST_SCORED), kept, quiet=True)
    if shown is None:
        data, _ = scored(data, table, settings, won, doubts, first)  # the record's refusal
        return data, None, tuple(first)                              # is the message
    return data, shown, kept


def untracked(data: FlowData, table: Table, first: Sequence[Event]) -> tuple[Event, ...]:
    """What goes before a win scored without the camera's record: the record stopped,
    the RIICHI presses it never took declared, the dora indicators put right kept."""
    riichi = (RiichiDeclared(seat) for seat in waiting_riichi(data.pending, table))
    return (TrackingStopped(), *riichi, *(e for e in first if isinstance(e, DoraCorrected)))


def record_refuses(data: FlowData, table: Table, settings: Settings, won: Won,
                   first: Sequence[Event] = ()) -> bool:
    """Whether ``won`` is refused by the camera's record of the hand alone: the tiles
    score it without the record (so it is not the tiles a person must put right)."""
    return table.state.tracked and scored(data, table, settings, won, (),
                                          untracked(data, table, first), quiet=True
                                          )[1] is not None


def ask_discarder(data: FlowData, table: Table) -> tuple[bool, FlowData, Effects]:
    """A ron put right by a person that the camera's record refuses: the record stops
    and the players say who dealt in (the camera's discarder is not to be trusted); the
    tiles or values put right stand, scored once the discarder is known. False when the
    hand was not the camera's to lose (not followed, or a tsumo), or the stop refused."""
    win = win_of(data.place)
    if win is None or win.discarder is None:
        return False, data, ()
    data, _, effects = stop_following(data, table)
    if not effects:
        return False, data, ()
    return True, replace(data, place=ChooseDiscarder(win), message=f"{LOST}: who dealt in?"
                         ), effects
