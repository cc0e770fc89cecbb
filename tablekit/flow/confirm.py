"""A win read by the camera: read (again, while it waits), scored on a copy of the
state, shown, and confirmed with OK (with the corrections it needs) or cancelled."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tablekit.display.model import WinPreview
from tablekit.flow import by_hand, claims, play
from tablekit.flow.stage import REREAD, SETTLE
from tablekit.game.events import BadEvent, DiscardCorrected, Event, Won
from tablekit.game.reducer import apply
from tablekit.io.presses import ButtonName, ButtonPress

if TYPE_CHECKING:
    from tablekit.flow.core import Flow
    from tablekit.game.state import TableState

FIX_HINT = " (CALL: fix the tiles by hand; held: enter han and fu)"


def on_confirm_win(flow: Flow, press: ButtonPress) -> None:
    win = flow.win
    assert win is not None
    if press.name is ButtonName.OK and win.pending is not None:
        drawn = win.tsumo_seat is not None and flow.turn_started(win.tsumo_seat)
        if flow.submit_action([*win.corrections, win.pending], joins=drawn):  # with its draw
            flow.rest()
    elif press.name is ButtonName.UNDO:
        flow.back_to_play("win cancelled: no points moved")
    elif press.name is ButtonName.CALL and press.long:
        by_hand.enter_values(flow, fixed=True)
    elif press.name is ButtonName.CALL and flow.reader is not None:
        by_hand.start_fix(flow)


def reread(flow: Flow) -> None:
    """Read the revealed hands (again): a hand hidden by an arm is read once it shows."""
    win = flow.win
    assert flow.reader is not None and win is not None
    win.reread_at = flow.clock() + REREAD
    if win.fixed:
        return  # a person put the tiles right: the camera does not overrule them
    tsumo = win.tsumo_seat
    if tsumo is not None and win.preview is None:
        if claims.discards_unseen(flow):
            flow.message = "the camera is catching up with the last discards..."
            return
        play.ensure_drawn(flow, tsumo)  # the camera has caught up with the turn
    reading = flow.reader.read_win(win.seats, win.discarder)
    if win.pending is not None and win.reading is not None and (
            reading.unseen > win.reading.unseen):
        return  # an arm over a hand: what a fuller view read stands
    win.reading = reading
    if win.pending is None and reading.unseen and flow.clock() < win.deadline + SETTLE:
        flow.message = f"reading the revealed hand: {reading.unseen} tile(s) not seen yet..."
        return  # an arm still over a hand: a clearer view comes before a guess
    won = Won(reading.winners, win.discarder, reading.ura)
    if won == win.pending:
        return
    complete = len(reading.winners) == len(win.seats)
    corrections = ron_tile_fix(flow.session.state, won) if complete else ()
    shown = preview(flow, won, reading.doubts, corrections) if complete else None
    if shown is None:
        flow.message = "; ".join(reading.doubts) or flow.message.removesuffix(FIX_HINT)
        flow.message = (flow.message or "reading the revealed hand...") + FIX_HINT
        return
    win.propose(won, shown, corrections)


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
