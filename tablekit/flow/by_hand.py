"""A win put right by people: its tiles fixed with the buttons (:mod:`tablekit.flow.tile_fix`),
or its han and fu entered (no camera, or what tiles alone cannot put right)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from tablekit.flow import camera_lost
from tablekit.flow.camera_lost import preview_or_untracked
from tablekit.flow.model import (
    Effects,
    FlowData,
    Settings,
    Step,
    Table,
    back_to_play,
    the_win,
    with_win,
)
from tablekit.flow.proposal import ron_tile_fix, scored
from tablekit.flow.stages import ConfirmWin, EnterValue, FixTiles
from tablekit.flow.tile_fix import TileFix
from tablekit.flow.win import Entry
from tablekit.game.events import DoraCorrected, Event, Won
from tablekit.game.win_reading import WinReading
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.rules.hand import concealed_count


def on_fix_tiles(data: FlowData, table: Table, press: ButtonPress, now: float,
                 settings: Settings) -> Step:
    win = the_win(data)
    assert win.fix is not None
    step = -1 if press.long else 1
    if press.name is ButtonName.RIICHI:
        return with_win(data, replace(win, fix=win.fix.move(step))), ()
    if press.name is ButtonName.CALL:
        return with_win(data, replace(win, fix=win.fix.turn(step))), ()
    if press.name is ButtonName.WIN:
        return with_win(data, replace(win, fix=win.fix.suit())), ()
    if press.name is ButtonName.OK:
        return score_fixed(data, table, settings, win.fix)
    if press.name is ButtonName.UNDO:
        return replace(data, place=ConfirmWin(replace(win, fix=None, fixed=False, reread_at=0.0
                                                      ).propose(None, None)),
                       message="reading the revealed hand again"), ()
    return data, ()


def on_enter_value(data: FlowData, table: Table, press: ButtonPress, now: float,
                   settings: Settings) -> Step:
    """Each winner sets their own value with their seat's buttons (a double ron too);
    a press from another seat sets the first winner's."""
    win = the_win(data)
    entry = next((e for e in win.entries if e.seat == press.seat), win.entries[0])
    if press.name is ButtonName.RIICHI:
        data = with_win(data, win.entered(entry.next_han()))
    elif press.name is ButtonName.CALL:
        data = with_win(data, win.entered(entry.next_fu()))
    elif press.name is ButtonName.OK:
        return preview_entries(data, table, settings, confirm_them=True)
    elif press.name is ButtonName.UNDO:
        return back_to_play(data, table, settings, "win cancelled"), ()
    return preview_entries(data, table, settings, confirm_them=False)


def enter_values(data: FlowData, table: Table, settings: Settings, fixed: bool) -> Step:
    """The winners' han and fu entered by hand (``fixed``: instead of a camera's reading,
    which then no longer overrules them)."""
    win = the_win(data)
    data = replace(data, place=EnterValue(replace(
        win, entries=tuple(Entry(seat) for seat in win.seats), fixed=fixed
    ).propose(None, win.preview)))
    return preview_entries(data, table, settings, confirm_them=False)


def preview_entries(data: FlowData, table: Table, settings: Settings, confirm_them: bool
                    ) -> Step:
    win = the_win(data)
    won = Won(tuple(e.winner() for e in win.entries), win.discarder)
    if not confirm_them:
        data, shown = scored(data, table, settings, won, ())  # the screen's footer says
        return with_win(data, replace(  # what the buttons do
            win, preview=shown and replace(shown, entering=True))), ()
    data, shown, first = preview_or_untracked(data, table, settings, won, ())
    if shown is not None:
        return replace(data, place=ConfirmWin(win.propose(won, shown, first))), ()
    asked, data, effects = _lost(data, table, settings, won, ())
    if not asked:
        return back_to_play(data, table, settings, data.message), effects
    return data, effects  # the camera lost the hand: who dealt in, then these values


def _lost(data: FlowData, table: Table, settings: Settings, won: Won,
          first: Sequence[Event]) -> tuple[bool, FlowData, Effects]:
    """A win put right by a person that does not score: if the camera's record alone
    refuses it, who dealt in is asked (:func:`camera_lost.ask_discarder`); False, the
    refusal said in the value, otherwise."""
    if not camera_lost.record_refuses(data, table, settings, won, first):
        return False, data, ()
    return camera_lost.ask_discarder(data, table)


def start_fix(data: FlowData, table: Table) -> FlowData:
    """CALL on a win waiting for OK: put its tiles right with the buttons, starting
    from the camera's best reading (complete or not)."""
    state, win = table.state, the_win(data)
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
    return replace(data, place=FixTiles(replace(win, fix=TileFix.start(
        hands, [*ura, *[None] * want][:want], dora))),
        message="put the framed tile right; OK scores the hand")


def score_fixed(data: FlowData, table: Table, settings: Settings, fix: TileFix) -> Step:
    """OK on the tiles put right: the win scored from them, shown for OK."""
    win = the_win(data)
    if fix.unknown:
        return data.said(f"{fix.unknown} tile{'s' * (fix.unknown > 1)} not set yet: "
                         "CALL sets the framed one"), ()
    won = Won(fix.winners(), win.discarder, tuple(fix.ura))  # type: ignore[arg-type]
    dora = table.state.dora
    corrections = (*ron_tile_fix(table.state, won), *(
        DoraCorrected(index, tile) for index, (tile, was) in enumerate(zip(
            fix.dora, dora, strict=True)) if tile != was and tile is not None))
    data, shown, corrections = preview_or_untracked(data, table, settings, won,
                                                    ("tiles put right by hand",), corrections)
    if shown is None:  # the engine's reason is the message, the tiles stay to be fixed;
        _, data, effects = _lost(data, table, settings, won, corrections)  # or the camera
        return data, effects  # lost the hand: who dealt in, then these tiles are scored
    return replace(data, place=ConfirmWin(replace(win.propose(won, shown, corrections),
                                                  fixed=True, fix=None)), message=""), ()
