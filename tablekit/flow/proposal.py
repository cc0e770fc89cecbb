"""What a win would pay, shown before anything moves: a reading scored on a copy of the
state (after the corrections it needs, and a tsumo's draw the camera cannot see), and
whether the camera still owes the turns before it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tablekit.display.model import WinPreview
from tablekit.flow.stage import CATCH_UP_WAIT
from tablekit.flow.stages import win_of
from tablekit.game.events import BadEvent, DiscardCorrected, Draw, Event, Won
from tablekit.game.reducer import apply

if TYPE_CHECKING:
    from tablekit.flow.model import FlowData, Settings, Table
    from tablekit.flow.win import WinInProgress
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


def tsumo_draw(win: WinInProgress | None, state: TableState) -> list[Event]:
    """The tsumo's draw the camera has not seen, journalled with the win (so a cancelled
    win journals nothing, and UNDO takes the win back as OK found the table)."""
    tsumo = win.tsumo_seat if win else None
    return [] if tsumo is None else implied_draw(state, tsumo)


def score(state: TableState, win: WinInProgress | None, won: Won, doubts: tuple[str, ...],
          first: Sequence[Event] = (), fixable: bool = False) -> WinPreview | str:
    """``won`` scored on a copy of ``state`` (after a tsumo's draw not seen and the
    corrections ``first``): what it would pay, or the engine's reason for refusing it."""
    try:
        for event in (*tsumo_draw(win, state), *first, won):
            state = apply(state, event)
    except BadEvent as error:
        return str(error)
    result = state.result
    assert result is not None
    return WinPreview(result.wins, result.deltas, doubts, fixable=fixable)


def scored(data: FlowData, table: Table, settings: Settings, won: Won, doubts: tuple[str, ...],
           first: Sequence[Event] = (), quiet: bool = False
           ) -> tuple[FlowData, WinPreview | None]:
    """:func:`score` for the flow's win: refused, the engine's reason is the message
    (unless ``quiet``) and no preview."""
    shown = score(table.state, win_of(data.place), won, doubts, first, settings.camera)
    if isinstance(shown, str):
        return (data if quiet else data.said(shown)), None
    return data, shown


def preview(state: TableState, win: WinInProgress, won: Won, doubts: tuple[str, ...],
            first: Sequence[Event] = (), fixable: bool = False) -> WinPreview | None:
    """:func:`score` of ``win``, quietly: none where the engine refuses it (the flow's note
    scores a win again so, before the flow holds it)."""
    shown = score(state, win, won, doubts, first, fixable)
    return None if isinstance(shown, str) else shown


CATCHING_UP = "the camera is catching up with the last discards..."


def discards_unseen(data: FlowData, table: Table, now: float, settings: Settings) -> bool:
    """The camera shows discards the state has not taken yet (a whole turn around the
    table missed before a tsumo, the discard a ron is on): for a few seconds after the
    WIN window, they come first."""
    win = win_of(data.place)
    return (settings.camera and win is not None and now < win.deadline + CATCH_UP_WAIT
            and table.behind)
