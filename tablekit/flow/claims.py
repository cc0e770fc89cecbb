"""The first steps of a win: the WIN window that gathers a double ron, who dealt in,
and the camera catching up with the turns a WIN was pressed ahead of."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from tablekit.flow import camera_lost, confirm
from tablekit.flow.model import (
    FlowData,
    Settings,
    Step,
    Table,
    back_to_play,
    the_win,
    with_win,
)
from tablekit.flow.proposal import CATCHING_UP, discards_unseen
from tablekit.flow.stage import Stage
from tablekit.flow.stages import ChooseDiscarder, win_of
from tablekit.game.events import Discard, Draw, Event
from tablekit.io.presses import ButtonName, ButtonPress

if TYPE_CHECKING:
    from tablekit.game.state import TableState

WHO_DEALT_IN = "who dealt in? that player presses any of their buttons"


def on_collect_wins(data: FlowData, table: Table, press: ButtonPress, now: float,
                    settings: Settings) -> Step:
    win = the_win(data)
    if press.name is ButtonName.WIN and press.seat is not None and (
            press.seat not in win.claimed):
        if win.tsumo_seat is not None or press.long:
            return data.said("a tsumo has one winner"), ()
        return with_win(data, win.claim(press.seat)), ()
    if press.name is ButtonName.OK:
        return resolve_claims(data, table, now, settings)
    if press.name is ButtonName.UNDO:
        return back_to_play(data, table, settings, "win cancelled"), ()
    return data, ()


def on_choose_discarder(data: FlowData, table: Table, press: ButtonPress, now: float,
                        settings: Settings) -> Step:
    win = the_win(data)
    if press.seat is not None and press.seat not in win.claimed:
        return confirm.score_with_discarder(data, table, now, settings, press.seat)
    if press.name is ButtonName.UNDO:
        return back_to_play(data, table, settings, "win cancelled"), ()
    return data.said(WHO_DEALT_IN), ()


def resolve_claims(data: FlowData, table: Table, now: float, settings: Settings) -> Step:
    """The WIN window has closed: find who dealt in, then read or enter the win. A ron
    waits up to :data:`~tablekit.flow.stage.CATCH_UP_WAIT` s for discards the camera shows
    and has not taken (the one won on may be among them) before the players are asked."""
    state, win = table.state, the_win(data)
    if win.tsumo_seat is not None:
        data = with_win(data, replace(win, discarder=None))
    elif discards_unseen(data, table, now, settings):  # the discard won on may be among them
        return data.said(CATCHING_UP), ()
    elif state.tracked and not camera_lost.discarder_unsure(
            table, settings, tracked_discarder(state), win.claimed):
        data = with_win(data, replace(win, discarder=tracked_discarder(state)))
        if tracked_discarder(state) is None:
            return back_to_play(data, table, settings,
                                "no discard to win on: hold WIN for tsumo"), ()
    else:  # no camera, or one that lost the hand: the players say who dealt in
        data, _, effects = camera_lost.stop_following(data, table)
        return replace(data, place=ChooseDiscarder(win), message=f"{camera_lost.LOST}: who "
                       "dealt in?" if effects else WHO_DEALT_IN), effects
    return confirm.read_or_enter(data, table, now, settings)


def tracked_discarder(state: TableState) -> int | None:
    """The seat whose tile the win is on: the last discard's, a kan's being added, or
    (three players) a North just set aside."""
    if state.chankan_tile is not None:
        return state.turn
    if state.kita_by is not None:
        return state.kita_by
    return state.last_discard[0] if state.last_discard else None


def camera_behind(data: FlowData, table: Table, event: Event, now: float, settings: Settings
                  ) -> bool:
    """A WIN pressed before the camera had the turns before it: the discard won on
    (while the WIN window is open), or the other seats' turns before a tsumo (while
    the tsumo cannot be scored yet)."""
    win = win_of(data.place)
    if not isinstance(event, (Draw, Discard)) or win is None:
        return False
    if data.stage is Stage.COLLECT_WINS:
        return True
    tsumo = win.tsumo_seat
    return (data.stage is Stage.CONFIRM_WIN and tsumo is not None and win.preview is None
            and (event.seat != tsumo or discards_unseen(data, table, now, settings)))
