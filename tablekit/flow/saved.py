"""What the flow knows beyond the journal's events, saved beside the journal after every
input that changes it: the stage and its message, a win in progress (claims, reading,
proposal, tiles being fixed, values being entered), a riichi waiting for its discard, the
CALLs waiting for their melds, the tenpai declarations, the menu (its items as shown: a
penalty's amounts, a confirmation) and the players being chosen for a game (each seat's
name, the steps UNDO takes back). The note names how many journal lines it goes with; a
note older than the journal (a power cut between the two writes) is not used, and the
flow rests at the stage the table's phase calls for. Previews are scored again from the
proposal, so only events, tiles and numbers are written. The note's shape is declared once,
in :mod:`tablekit.flow.note_shape`: what is written is its model made of the flow's frozen
values, and what is read is checked against it and gives those values back.
"""

from __future__ import annotations

import json
import os
from contextlib import suppress
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tablekit.files.atomic import write_atomic
from tablekit.flow.model import standing_riichi
from tablekit.flow.note_shape import Menu, Note, Seating, Win, check, dump
from tablekit.flow.pending import Pending
from tablekit.flow.seats import fresh
from tablekit.flow.stage import Stage
from tablekit.flow.stages import ChoosePlayers, Place, Tenpai, plain, winning
from tablekit.flow.stages import Menu as MenuPlace
from tablekit.flow.win import WinInProgress
from tablekit.game.events import BadEvent, Won
from tablekit.rules.presets import PRESETS

if TYPE_CHECKING:
    from tablekit.flow.host import FlowState


def note_path(journal: Path) -> Path:
    """Where the flow's note on ``journal`` lives (``game.jsonl`` -> ``game.flow.json``)."""
    return journal.with_suffix(".flow.json")


def save(flow: FlowState) -> None:
    """Write the flow's note if it changed (atomically: a power cut leaves the old one)."""
    data = snapshot(flow)
    if data == flow.saved or (_plain(flow, data) and flow.saved.get("at") != data["at"]):
        return  # unchanged, or nothing a fresh flow would not show (the old note is stale)
    flow.saved = data
    left = flow.win.deadline - flow.clock() if flow.win else 0.0
    if flow.session.path is None:  # a game kept in memory only has no note
        return
    path = note_path(flow.session.path)
    try:
        write_atomically(path, json.dumps({**data, "left": left}))
    except OSError as error:  # a full card: the old note goes (it would not match the
        with suppress(OSError):  # journal), a restart rests at the phase's stage
            path.unlink(missing_ok=True)
        if "could not save" not in flow.data.message:  # the journal's own failure says more
            flow.say(f"could not save {path.name} ({error.strerror or error}); "
                     "the game goes on from the journal")


def restore(flow: FlowState) -> None:
    """Take up the note that goes with the journal's last line, if there is one."""
    if flow.session.path is None:
        return
    path = note_path(flow.session.path)
    try:
        note = _checked(flow, path, path.read_text(encoding="utf-8"))
        if note.timer is not None:  # the game's timer, even from a note older than the journal
            flow.data = replace(flow.data, timer=note.timer)
        if note.at != flow.session.length:
            return
        _apply(flow, note)
    except (OSError, ValueError, KeyError, TypeError, IndexError, BadEvent):
        flow.data = replace(flow.data, pending=flow.data.pending.no_riichi())
        flow.rest()  # no note, or one that does not fit this table: the phase's resting stage
        return
    flow.saved = dump(note)


def _checked(flow: FlowState, path: Path, text: str) -> Note:
    """The note in ``text``; one of another shape is set aside (``.damaged``), said in the
    flow's message, and the game goes on from the journal."""
    try:
        return check(text)
    except ValueError as error:
        kept = path.with_name(path.name + ".damaged")
        with suppress(OSError):
            os.replace(path, kept)
        flow.note_damaged = (f"{path.name} was damaged ({error}); kept aside as {kept.name}, "
                             "the game goes on from the journal")
        flow.say(flow.note_damaged)
        raise


def _plain(flow: FlowState, data: dict[str, Any]) -> bool:
    """Whether a fresh flow on the journal would show the same without a note."""
    value = flow.data
    return (flow.stage is flow.resting_stage() and not value.message and not flow.win
            and value.timer is None and "seating" not in data
            and not data["riichi_waiting"] and not data["calls"] and value.layout == "facing"
            and value.next_rules == default_rules(flow.session.state.rules.name))


def standing_calls(flow: FlowState) -> list[int]:
    """The seats whose CALL still waits for a meld: pressed in this hand (no new hand and
    no UNDO past it since), with no meld laid after it."""
    calls = flow.data.pending.calls
    if not calls:
        return []  # the usual case: no need to read the history back
    table = flow.table()
    started, length = table.span
    return [seat for seat, at, melds in calls
            if started < at <= length and table.state.seats[seat].calls == melds]


def default_rules(name: str) -> str:
    """The preset a new game from the menu takes first: the game's own, if it is one."""
    return name if name in PRESETS else "tenhou"


def snapshot(flow: FlowState) -> dict[str, Any]:
    """The note of the flow as it would be written (:class:`~tablekit.flow.note_shape.Note`
    dumped), less the seconds ``left`` of a win's wait."""
    value, calls = flow.data, standing_calls(flow)
    place, pending = value.place, value.pending
    # this runs after every input: the usual note, no riichi waiting, builds no table
    riichi = standing_riichi(pending, flow.table()) if pending.riichi else {}
    return dump(Note.model_construct(
        at=flow.session.length, stage=value.stage, message=value.message, layout=value.layout,
        next_rules=value.next_rules, riichi_waiting=tuple(riichi.items()),
        calls=tuple(call for call in sorted(pending.calls) if call[0] in calls),
        tenpai=place.flags if isinstance(place, Tenpai) else None,
        menu=Menu.of(place) if isinstance(place, MenuPlace) else None,
        win=flow.win and Win.of(flow.win),
        seating=Seating.of(place.seating) if isinstance(place, ChoosePlayers) else None,
        timer=value.timer, left=0.0))


def _apply(flow: FlowState, note: Note) -> None:
    length = flow.session.active_count  # the events in force
    riichi = {  # a note of an older tablekit: the seats alone
        seat: at for seat, at in ((entry, length) if isinstance(entry, int)
                                  else entry for entry in note.riichi_waiting)}
    calls = {seat: (at, melds) for seat, at, melds in note.calls}
    flow.data = replace(flow.data, layout=note.layout, next_rules=note.next_rules,
                        pending=Pending(tuple(riichi.items()), tuple(
                            (seat, at, melds) for seat, (at, melds) in calls.items())))
    for seat in sorted(standing_calls(flow)):  # the camera waits for these melds again
        if flow.reader is not None:
            flow.reader.expect_call(flow.session.state, seat)
    if note.win is not None:  # its preview scored again from the win itself
        win = note.win.value(deadline=flow.clock() + note.left)
        place = winning(note.stage, _score_again(flow, win, note.stage, note.win.doubts))
    else:
        place = _place(flow, note)
    flow.data = replace(flow.data, place=place, message=note.message)


def _place(flow: FlowState, note: Note) -> Place:
    """The stage of the note (not a win's) with its data (the note's shape has checked
    that the stage's data is there); a ValueError where it does not fit this table."""
    stage = note.stage
    if note.tenpai is not None:
        if len(note.tenpai) != flow.session.state.players:
            raise ValueError("tenpai declarations for another number of seats")
        return Tenpai(note.tenpai)
    if note.menu is not None:
        return note.menu.value()
    if stage is Stage.CHOOSE_PLAYERS and not flow.roster:
        raise ValueError("players being chosen without a roster")
    if stage is Stage.CHOOSE_PLAYERS:  # an older note: no one chosen yet
        return ChoosePlayers(note.seating.value(roster=flow.roster) if note.seating
                             else fresh(flow))
    return plain(stage)


def _score_again(flow: FlowState, win: WinInProgress, stage: Stage,
                 doubts: tuple[str, ...]) -> WinInProgress:
    """``win`` with its preview scored again (on the table of the journal's last line)."""
    from tablekit.flow.proposal import preview

    state, fixable = flow.session.state, flow.reader is not None
    if win.pending is not None:
        return replace(win, preview=preview(state, win, win.pending, doubts, win.corrections,
                                            fixable))
    if stage is Stage.ENTER_VALUE:
        entered = Won(tuple(e.winner() for e in win.entries), win.discarder)
        shown = preview(state, win, entered, (), fixable=fixable)
        return replace(win, preview=shown and replace(shown, entering=True))
    return win


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` by ``text`` (its folder made if need be): written to the side file
    ``NAME.new``, fsynced, renamed over it (:func:`tablekit.files.atomic.write_atomic`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, text, side=".new")
