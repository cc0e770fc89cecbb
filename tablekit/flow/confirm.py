"""A win read by the camera: read (again, while it waits), scored on a copy of the
state, shown, and confirmed with OK (with the corrections it needs) or cancelled. On a
ron, RIICHI by a seat the screen does not name as the payer says "I dealt in": the
camera's record of the hand stops and the win is scored again with that payer.

>>> DEALT_IN.format("West")
"West dealt in: the camera's record of this hand stops"
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from tablekit.flow import by_hand, camera_lost
from tablekit.flow.proposal import discards_unseen, preview, ron_tile_fix, tsumo_draw
from tablekit.flow.stage import REREAD, SETTLE, Stage
from tablekit.flow.stages import ConfirmWin, EnterValue, FixTiles
from tablekit.game.events import BadEvent, Won
from tablekit.game.state import seat_name
from tablekit.io.presses import ButtonName, ButtonPress

if TYPE_CHECKING:
    from tablekit.flow.host import FlowState

FIX_HINT = " (CALL: fix the tiles by hand; held: enter han and fu)"
DEALT_IN = "{} dealt in: the camera's record of this hand stops"
"""The screen's line when a player says they dealt in, not the camera's discarder."""


def on_confirm_win(flow: FlowState, press: ButtonPress) -> None:
    win = flow.win
    assert win is not None
    if press.name is ButtonName.OK and win.pending is not None:  # one action with the stop
        if flow.submit_action([*tsumo_draw(flow), *win.corrections, win.pending],
                              joins=win.record_stopped):
            flow.rest()
    elif press.name is ButtonName.UNDO:
        cancel(flow)
    elif press.name is ButtonName.RIICHI and press.seat is not None and (
            win.discarder not in (None, press.seat) and press.seat not in win.claimed):
        dealt_in(flow, press.seat)
    elif press.name is ButtonName.CALL and press.long:
        by_hand.enter_values(flow, fixed=True)
    elif press.name is ButtonName.CALL and flow.reader is not None:
        by_hand.start_fix(flow)


def cancel(flow: FlowState) -> None:
    """UNDO on a win waiting for OK: no points move; a record stopped by "I dealt in"
    goes on (that stop taken back with it)."""
    win = flow.win
    assert win is not None
    if win.record_stopped:
        try:
            flow.session.undo()
        except BadEvent as error:
            flow.back_to_play(str(error))
            return
        flow.back_to_play("win cancelled: no points moved; the camera's record goes on")
        return
    flow.back_to_play("win cancelled: no points moved")


def dealt_in(flow: FlowState, seat: int) -> None:
    """``seat`` says it dealt in, not the seat the camera's record has: the record stops
    (the camera misread who discarded) and the win is scored again with that payer."""
    win = flow.win
    assert win is not None
    if flow.session.state.tracked:
        if not camera_lost.stop_following(flow):
            return  # the refusal is the message
        win = replace(win, record_stopped=True)
        said = DEALT_IN.format(seat_name(flow.session.state, seat))
    else:
        said = f"{seat_name(flow.session.state, seat)} dealt in"
    flow.win = win.propose(None, None)
    score_with_discarder(flow, seat)
    if flow.stage is Stage.CONFIRM_WIN:
        flow.message = said


def score_with_discarder(flow: FlowState, seat: int) -> None:
    """The players said ``seat`` dealt in: the win is scored with it, from the tiles or
    values a person put right if there are some, else read (or entered) again."""
    assert flow.win is not None
    win = flow.win = replace(flow.win, discarder=seat)
    if win.fix is not None:       # tiles a person put right, the camera's hand lost
        flow.place = FixTiles(win)
        by_hand.score_fixed(flow, win.fix)
    elif win.entries:             # values entered, likewise
        flow.place = EnterValue(win)
        by_hand.preview_entries(flow, confirm_them=True)
    else:
        read_or_enter(flow)


def read_or_enter(flow: FlowState) -> None:
    """The camera reads the revealed hands; without one, the winners enter the values."""
    assert flow.win is not None
    win = flow.win = replace(flow.win, seats=flow.win.in_turn_order(flow.win.discarder))
    if flow.reader is None:
        by_hand.enter_values(flow, fixed=False)
        return
    flow.place = ConfirmWin(win)
    reread(flow)


def reread(flow: FlowState) -> None:
    """Read the revealed hands (again): a hand hidden by an arm is read once it shows."""
    assert flow.reader is not None and flow.win is not None
    win = flow.win = replace(flow.win, reread_at=flow.clock() + REREAD)
    if win.fixed:
        return  # a person put the tiles right: the camera does not overrule them
    if win.tsumo_seat is not None and win.preview is None and discards_unseen(flow):
        flow.message = "the camera is catching up with the last discards..."
        return
    if win.tsumo_seat is not None and camera_lost.tsumo_unsure(flow, win.tsumo_seat):
        camera_lost.stop_following(flow)  # it never caught up: the tiles alone score it
    flow.reader.look_at_win()
    reading = flow.reader.read_win(flow.session.state, win.seats, win.discarder)
    if win.pending is not None and win.reading is not None and (
            reading.unseen > win.reading.unseen):
        return  # an arm over a hand: what a fuller view read stands
    win = flow.win = replace(win, reading=reading)
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
    flow.win = win.propose(won, shown, corrections)
