"""What a win would pay, shown before anything moves: a reading scored on a copy of the
state (after the corrections it needs), and whether the camera still owes the turns
before it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tablekit.display.model import WinPreview
from tablekit.flow.stage import CATCH_UP_WAIT
from tablekit.game.events import BadEvent, DiscardCorrected, Event, Won
from tablekit.game.reducer import apply

if TYPE_CHECKING:
    from tablekit.flow.core import Flow
    from tablekit.game.state import TableState


def ron_tile_fix(state: TableState, won: Won) -> tuple[DiscardCorrected, ...]:
    """A ron tile (put right by hand, or read in the winner's row) other than the
    discard the camera registered: that discard is corrected too."""
    tile, last = won.winners[0].win_tile, state.last_discard
    if won.from_seat is None or last is None or tile is None or last[1] == tile or (
            last[0] != won.from_seat or state.chankan_tile is not None):
        return ()
    return (DiscardCorrected(last[0], len(state.seats[last[0]].pond) - 1, tile),)


def preview(flow: Flow, won: Won, doubts: tuple[str, ...], first: Sequence[Event] = (),
            quiet: bool = False) -> WinPreview | None:
    """``won`` scored on a copy of the state (after the corrections ``first``); refused,
    the engine's reason is the message (unless ``quiet``)."""
    try:
        state = flow.session.state
        for event in (*first, won):
            state = apply(state, event)
    except BadEvent as error:
        if not quiet:
            flow.message = str(error)
        return None
    result = state.result
    assert result is not None
    return WinPreview(result.wins, result.deltas, doubts, fixable=flow.reader is not None)


def discards_unseen(flow: Flow) -> bool:
    """The camera shows discards the state has not taken yet (a whole turn around the
    table missed before a tsumo): for a few seconds after the WIN, they come first."""
    return (flow.reader is not None and flow.win is not None
            and flow.clock() < flow.win.deadline + CATCH_UP_WAIT and flow.reader.behind())
