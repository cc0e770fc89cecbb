"""The first steps of a win: the WIN window that gathers a double ron, who dealt in,
and the camera catching up with the turns a WIN was pressed ahead of."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from tablekit.flow import camera_lost, confirm
from tablekit.flow.proposal import discards_unseen
from tablekit.flow.stage import Stage
from tablekit.flow.stages import ChooseDiscarder
from tablekit.game.events import Discard, Draw, Event
from tablekit.io.presses import ButtonName, ButtonPress

if TYPE_CHECKING:
    from tablekit.flow.host import FlowState
    from tablekit.game.state import TableState

WHO_DEALT_IN = "who dealt in? that player presses any of their buttons"


def on_collect_wins(flow: FlowState, press: ButtonPress) -> None:
    win = flow.win
    assert win is not None
    if press.name is ButtonName.WIN and press.seat is not None and (
            press.seat not in win.claimed):
        if win.tsumo_seat is not None or press.long:
            flow.message = "a tsumo has one winner"
            return
        flow.win = win.claim(press.seat)
    elif press.name is ButtonName.OK:
        resolve_claims(flow)
    elif press.name is ButtonName.UNDO:
        flow.back_to_play("win cancelled")


def on_choose_discarder(flow: FlowState, press: ButtonPress) -> None:
    win = flow.win
    assert win is not None
    if press.seat is not None and press.seat not in win.claimed:
        confirm.score_with_discarder(flow, press.seat)
    elif press.name is ButtonName.UNDO:
        flow.back_to_play("win cancelled")
    else:
        flow.message = WHO_DEALT_IN


def resolve_claims(flow: FlowState) -> None:
    """The WIN window has closed: find who dealt in, then read or enter the win."""
    state, win = flow.session.state, flow.win
    assert win is not None
    if win.tsumo_seat is not None:
        flow.win = replace(win, discarder=None)
    elif state.tracked and not camera_lost.discarder_unsure(
            flow, tracked_discarder(state), win.claimed):
        flow.win = replace(win, discarder=tracked_discarder(state))
        if flow.win.discarder is None:
            flow.back_to_play("no discard to win on: hold WIN for tsumo")
            return
    else:  # no camera, or one that lost the hand: the players say who dealt in
        lost = camera_lost.stop_following(flow)
        flow.place = ChooseDiscarder(win)
        flow.message = f"{camera_lost.LOST}: who dealt in?" if lost else WHO_DEALT_IN
        return
    confirm.read_or_enter(flow)


def tracked_discarder(state: TableState) -> int | None:
    """The seat whose tile the win is on: the last discard's, a kan's being added, or
    (three players) a North just set aside."""
    if state.chankan_tile is not None:
        return state.turn
    if state.kita_by is not None:
        return state.kita_by
    return state.last_discard[0] if state.last_discard else None


def camera_behind(flow: FlowState, event: Event) -> bool:
    """A WIN pressed before the camera had the turns before it: the discard won on
    (while the WIN window is open), or the other seats' turns before a tsumo (while
    the tsumo cannot be scored yet)."""
    if not isinstance(event, (Draw, Discard)) or flow.win is None:
        return False
    if flow.stage is Stage.COLLECT_WINS:
        return True
    tsumo = flow.win.tsumo_seat
    return (flow.stage is Stage.CONFIRM_WIN and tsumo is not None and flow.preview is None
            and (event.seat != tsumo or discards_unseen(flow)))
