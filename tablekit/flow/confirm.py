"""A win read by the camera: read (again, while it waits), scored on a copy of the
state, shown, and confirmed with OK (with the corrections it needs) or cancelled."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tablekit.flow import by_hand, camera_lost
from tablekit.flow.proposal import discards_unseen, preview, ron_tile_fix, tsumo_draw
from tablekit.flow.stage import REREAD, SETTLE
from tablekit.game.events import Won
from tablekit.io.presses import ButtonName, ButtonPress

if TYPE_CHECKING:
    from tablekit.flow.core import Flow

FIX_HINT = " (CALL: fix the tiles by hand; held: enter han and fu)"


def on_confirm_win(flow: Flow, press: ButtonPress) -> None:
    win = flow.win
    assert win is not None
    if press.name is ButtonName.OK and win.pending is not None:  # an action of its own
        if flow.submit_action([*tsumo_draw(flow), *win.corrections, win.pending]):
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
    if win.tsumo_seat is not None and win.preview is None and discards_unseen(flow):
        flow.message = "the camera is catching up with the last discards..."
        return
    if win.tsumo_seat is not None and camera_lost.tsumo_unsure(flow, win.tsumo_seat):
        camera_lost.stop_following(flow)  # it never caught up: the tiles alone score it
    flow.reader.look_at_win()
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
    if flow.message.endswith(FIX_HINT) or flow.message.startswith((
            "reading the revealed hand", "the camera is catching up")):
        flow.message = ""  # the scored hand is on the screen now, its doubts with it
    win.propose(won, shown, corrections)
