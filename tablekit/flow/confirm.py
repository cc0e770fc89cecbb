"""A win read by the camera: read (again, while it waits), scored on a copy of the
state, shown, and confirmed with OK (with the corrections it needs) or cancelled. On a
ron, RIICHI by a seat the screen does not name as the payer says "I dealt in": the
camera's record of the hand stops and the win is scored again with that payer.

>>> DEALT_IN.format("West")
"West dealt in: the camera's record of this hand stops"
"""

from __future__ import annotations

from dataclasses import replace

from tablekit.flow import by_hand, camera_lost
from tablekit.flow.model import (
    Effects,
    FlowData,
    ReadWin,
    Rest,
    Settings,
    Step,
    Table,
    Undo,
    back_to_play,
    rested,
    submitted,
    the_win,
    with_win,
)
from tablekit.flow.proposal import (
    CATCHING_UP,
    discards_unseen,
    ron_tile_fix,
    scored,
    tsumo_draw,
)
from tablekit.flow.stage import REREAD, SETTLE, Stage
from tablekit.flow.stages import ConfirmWin, EnterValue, FixTiles
from tablekit.game.events import Won
from tablekit.game.state import seat_name
from tablekit.game.win_reading import WinReading
from tablekit.io.presses import ButtonName, ButtonPress

FIX_HINT = " (CALL: fix the tiles by hand; held: enter han and fu)"
DEALT_IN = "{} dealt in: the camera's record of this hand stops"
"""The screen's line when a player says they dealt in, not the camera's discarder."""


def on_confirm_win(data: FlowData, table: Table, press: ButtonPress, now: float,
                   settings: Settings) -> Step:
    win = the_win(data)
    if press.name is ButtonName.OK and win.pending is not None:  # one action with the stop
        data, after, effects = submitted(
            data, table, [*tsumo_draw(win, table.state), *win.corrections, win.pending],
            joins=win.record_stopped)
        return (rested(data, after, settings) if effects else data), effects
    if press.name is ButtonName.UNDO:
        return cancel(data, table, settings)
    if press.name is ButtonName.RIICHI and press.seat is not None and (
            win.discarder not in (None, press.seat) and press.seat not in win.claimed):
        return dealt_in(data, table, now, settings, press.seat)
    if press.name is ButtonName.CALL and press.long:
        return by_hand.enter_values(data, table, settings, fixed=True)
    if press.name is ButtonName.CALL and settings.camera:
        return by_hand.start_fix(data, table), ()
    return data, ()


def cancel(data: FlowData, table: Table, settings: Settings) -> Step:
    """UNDO on a win waiting for OK: no points move; a record stopped by "I dealt in"
    goes on (that stop taken back with it)."""
    if the_win(data).record_stopped:
        return data.said("win cancelled: no points moved; the camera's record goes on"), (
            Undo(refused=rested(data, table, settings)), Rest())
    return back_to_play(data, table, settings, "win cancelled: no points moved"), ()


def dealt_in(data: FlowData, table: Table, now: float, settings: Settings, seat: int
             ) -> Step:
    """``seat`` says it dealt in, not the seat the camera's record has: the record stops
    (the camera misread who discarded) and the win is scored again with that payer."""
    win, name = the_win(data), seat_name(table.state, seat)
    stopped: Effects = ()
    if table.state.tracked:
        data, table, stopped = camera_lost.stop_following(data, table)
        if not stopped:
            return data, ()  # the refusal is the message
        win = replace(win, record_stopped=True)
        said = DEALT_IN.format(name)
    else:
        said = f"{name} dealt in"
    data, effects = score_with_discarder(with_win(data, win.propose(None, None)), table, now,
                                         settings, seat)
    return (data.said(said) if data.stage is Stage.CONFIRM_WIN else data), (*stopped, *effects)


def score_with_discarder(data: FlowData, table: Table, now: float, settings: Settings,
                         seat: int) -> Step:
    """The players said ``seat`` dealt in: the win is scored with it, from the tiles or
    values a person put right if there are some, else read (or entered) again."""
    win = replace(the_win(data), discarder=seat)
    data = with_win(data, win)
    if win.fix is not None:       # tiles a person put right, the camera's hand lost
        return by_hand.score_fixed(replace(data, place=FixTiles(win)), table, settings, win.fix)
    if win.entries:               # values entered, likewise
        return by_hand.preview_entries(replace(data, place=EnterValue(win)), table, settings,
                                       confirm_them=True)
    return read_or_enter(data, table, now, settings)


def read_or_enter(data: FlowData, table: Table, now: float, settings: Settings) -> Step:
    """The camera reads the revealed hands; without one, the winners enter the values."""
    win = the_win(data)
    win = replace(win, seats=win.in_turn_order(win.discarder))
    data = with_win(data, win)
    if not settings.camera:
        return by_hand.enter_values(data, table, settings, fixed=False)
    return reread(replace(data, place=ConfirmWin(win)), table, now, settings)


def reread(data: FlowData, table: Table, now: float, settings: Settings) -> Step:
    """Read the revealed hands (again): a hand hidden by an arm is read once it shows.
    The reading is the camera's (:class:`~tablekit.flow.model.ReadWin`): the shell hands
    it to :func:`on_reading`."""
    win = replace(the_win(data), reread_at=now + REREAD)
    data = with_win(data, win)
    if win.fixed:
        return data, ()  # a person put the tiles right: the camera does not overrule them
    if win.tsumo_seat is not None and win.preview is None and discards_unseen(
            data, table, now, settings):
        return data.said(CATCHING_UP), ()
    stopped: Effects = ()
    if win.tsumo_seat is not None and camera_lost.tsumo_unsure(data, table, now,
                                                               win.tsumo_seat):
        data, table, stopped = camera_lost.stop_following(data, table)  # it never caught
    return data, (*stopped, ReadWin())                       # up: the tiles alone score it


def on_reading(data: FlowData, table: Table, reading: WinReading, now: float,
               settings: Settings) -> Step:
    """What the camera read of the revealed hands (:func:`reread`): scored and shown, or
    what is still missing said."""
    win = the_win(data)
    if win.pending is not None and win.reading is not None and (
            reading.unseen > win.reading.unseen):
        return data, ()  # an arm over a hand: what a fuller view read stands
    win = replace(win, reading=reading)
    data = with_win(data, win)
    if win.pending is None and reading.unseen and now < win.deadline + SETTLE:
        return data.said(f"reading the revealed hand: {reading.unseen} tile(s) not seen "
                         "yet..."), ()  # an arm still over a hand: a clearer view first
    won = Won(reading.winners, win.discarder, reading.ura)
    if won == win.pending:
        return data, ()
    complete = len(reading.winners) == len(win.seats)
    corrections = ron_tile_fix(table.state, won) if complete else ()
    shown = None
    if complete:
        data, shown = scored(data, table, settings, won, reading.doubts, corrections)
    if shown is None:
        said = "; ".join(reading.doubts) or data.message.removesuffix(FIX_HINT)
        return data.said((said or "reading the revealed hand...") + FIX_HINT), ()
    if data.message.endswith(FIX_HINT) or data.message.startswith((
            "reading the revealed hand", "the camera is catching up")):
        data = data.said("")  # the scored hand is on the screen now, its doubts with it
    return with_win(data, win.propose(won, shown, corrections)), ()
