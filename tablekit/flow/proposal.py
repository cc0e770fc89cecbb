"""What a win would pay, shown before anything moves: a reading scored on a copy of the
state (after the corrections it needs, and a tsumo's draw the camera cannot see), and
whether the camera still owes the turns before it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tablekit.display.model import WinPreview
from tablekit.flow.stage import CATCH_UP_WAIT
from tablekit.game.events import BadEvent, DiscardCorrected, Draw, Event, Won
from tablekit.game.reducer import apply

if TYPE_CHECKING:
    from tablekit.flow.host import FlowState
    from tablekit.game.state import TableState


def ron_tile_fix(state: TableState, won: Won) -> tuple[DiscardCorrected, ...]:
    """A ron tile (put right by hand, or read in the winner's row) other than the
    discard the camera registered: that discard is corrected too."""
    tile, last = won.winners[0].win_tile, state.last_discard
    if not state.tracked or won.from_seat is None or last is None or tile is None or (
            last[1] == tile or last[0] != won.from_seat or state.chankan_tile is not None):
        return ()
    return (DiscardCorrected(last[0], len(state.seats[last[0]].pond) - 1, tile),)


def implied_draw(state: TableState, seat: int) -> list[Event]:
    """The draw a seat acting on its turn (a riichi, a tsumo) has made when the camera
    has not seen it (it cannot see a draw); none otherwise."""
    if state.tracked and seat == state.turn and state.to_draw and state.wall > 0:
        return [Draw(seat, rinshan=state.kan_draw)]
    return []


def tsumo_draw(flow: FlowState) -> list[Event]:
    """The tsumo's draw the camera has not seen, journalled with the win (so a cancelled
    win journals nothing, and UNDO takes the win back as OK found the table)."""
    tsumo = flow.win.tsumo_seat if flow.win else None
    return [] if tsumo is None else implied_draw(flow.session.state, tsumo)


def preview(flow: FlowState, won: Won, doubts: tuple[str, ...], first: Sequence[Event] = (),
            quiet: bool = False) -> WinPreview | None:
    """``won`` scored on a copy of the state (after a tsumo's draw not seen and the
    corrections ``first``); refused, the engine's reason is the message (unless
    ``quiet``)."""
    try:
        state = flow.session.state
        for event in (*tsumo_draw(flow), *first, won):
            state = apply(state, event)
    except BadEvent as error:
        if not quiet:
            flow.message = str(error)
        return None
    result = state.result
    assert result is not None
    return WinPreview(result.wins, result.deltas, doubts, fixable=flow.reader is not None)


def discards_unseen(flow: FlowState) -> bool:
    """The camera shows discards the state has not taken yet (a whole turn around the
    table missed before a tsumo): for a few seconds after the WIN, they come first."""
    return (flow.reader is not None and flow.win is not None
            and flow.clock() < flow.win.deadline + CATCH_UP_WAIT
            and flow.reader.behind(flow.session.state))
