"""A win put right by people: its tiles fixed with the buttons (:mod:`tablekit.flow.tile_fix`),
or its han and fu entered (no camera, or what tiles alone cannot put right)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from tablekit.flow import camera_lost
from tablekit.flow.camera_lost import preview_or_untracked
from tablekit.flow.proposal import preview, ron_tile_fix
from tablekit.flow.stages import ConfirmWin, EnterValue, FixTiles
from tablekit.flow.tile_fix import TileFix
from tablekit.flow.win import Entry
from tablekit.game.events import DoraCorrected, Won
from tablekit.game.win_reading import WinReading
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.rules.hand import concealed_count

if TYPE_CHECKING:
    from tablekit.flow.host import FlowState


def on_fix_tiles(flow: FlowState, press: ButtonPress) -> None:
    win = flow.win
    assert win is not None and win.fix is not None
    step = -1 if press.long else 1
    if press.name is ButtonName.RIICHI:
        flow.win = replace(win, fix=win.fix.move(step))
    elif press.name is ButtonName.CALL:
        flow.win = replace(win, fix=win.fix.turn(step))
    elif press.name is ButtonName.WIN:
        flow.win = replace(win, fix=win.fix.suit())
    elif press.name is ButtonName.OK:
        score_fixed(flow, win.fix)
    elif press.name is ButtonName.UNDO:
        flow.place = ConfirmWin(replace(win, fix=None, fixed=False, reread_at=0.0
                                        ).propose(None, None))
        flow.message = "reading the revealed hand again"


def on_enter_value(flow: FlowState, press: ButtonPress) -> None:
    """Each winner sets their own value with their seat's buttons (a double ron too);
    a press from another seat sets the first winner's."""
    win = flow.win
    assert win is not None
    entry = next((e for e in win.entries if e.seat == press.seat), win.entries[0])
    if press.name is ButtonName.RIICHI:
        flow.win = win.entered(entry.next_han())
    elif press.name is ButtonName.CALL:
        flow.win = win.entered(entry.next_fu())
    elif press.name is ButtonName.OK:
        preview_entries(flow, confirm_them=True)
        return
    elif press.name is ButtonName.UNDO:
        flow.back_to_play("win cancelled")
        return
    preview_entries(flow, confirm_them=False)


def enter_values(flow: FlowState, fixed: bool) -> None:
    """The winners' han and fu entered by hand (``fixed``: instead of a camera's reading,
    which then no longer overrules them)."""
    win = flow.win
    assert win is not None
    flow.place = EnterValue(replace(win, entries=tuple(Entry(seat) for seat in win.seats),
                                    fixed=fixed).propose(None, win.preview))
    preview_entries(flow, confirm_them=False)


def preview_entries(flow: FlowState, confirm_them: bool) -> None:
    win = flow.win
    assert win is not None
    won = Won(tuple(e.winner() for e in win.entries), win.discarder)
    if not confirm_them:
        shown = preview(flow, won, ())   # the screen's footer says what the buttons do
        flow.win = replace(win, preview=shown and replace(shown, entering=True))
        return
    shown, first = preview_or_untracked(flow, won, ())
    if shown is None and not (camera_lost.record_refuses(flow, won)
                              and camera_lost.ask_discarder(flow)):
        flow.back_to_play(flow.message)
        return
    if shown is None:
        return  # the camera lost the hand: who dealt in, then these values are scored
    flow.place = ConfirmWin(win.propose(won, shown, first))


def start_fix(flow: FlowState) -> None:
    """CALL on a win waiting for OK: put its tiles right with the buttons, starting
    from the camera's best reading (complete or not)."""
    state, win = flow.session.state, flow.win
    assert win is not None
    reading = win.reading or WinReading(())
    known = {w.seat: w.hand for w in (win.pending or reading).winners}
    drafts = dict(reading.drafts)
    hands = [(seat, known.get(seat) or drafts.get(seat)
              or (None,) * concealed_count(len(state.seats[seat].melds)))
             for seat in win.seats]
    want = max(1, len(state.dora)) if any(
        state.seats[seat].riichi for seat in win.seats) else 0
    ura = (win.pending or reading).ura
    dora = [*state.dora]
    for event in win.corrections:  # a dora indicator already put right stays so
        if isinstance(event, DoraCorrected):
            dora[event.index] = event.tile
    flow.place = FixTiles(replace(win, fix=TileFix.start(hands, [*ura, *[None] * want][:want],
                                                         dora)))
    flow.message = "put the framed tile right; OK scores the hand"


def score_fixed(flow: FlowState, fix: TileFix) -> None:
    """OK on the tiles put right: the win scored from them, shown for OK."""
    win = flow.win
    assert win is not None
    if fix.unknown:
        flow.message = (f"{fix.unknown} tile{'s' * (fix.unknown > 1)} not set yet: "
                        "CALL sets the framed one")
        return
    won = Won(fix.winners(), win.discarder, tuple(fix.ura))  # type: ignore[arg-type]
    dora = flow.session.state.dora
    corrections = (*ron_tile_fix(flow.session.state, won), *(
        DoraCorrected(index, tile) for index, (tile, was) in enumerate(zip(
            fix.dora, dora, strict=True)) if tile != was and tile is not None))
    shown, corrections = preview_or_untracked(flow, won, ("tiles put right by hand",),
                                              corrections)
    if shown is None and not (camera_lost.record_refuses(flow, won, corrections)
                              and camera_lost.ask_discarder(flow)):
        return  # the engine's reason is the message; the tiles stay to be fixed
    if shown is None:
        return  # the camera lost the hand: who dealt in, then these tiles are scored
    flow.place = ConfirmWin(replace(win.propose(won, shown, corrections), fixed=True, fix=None))
    flow.message = ""
