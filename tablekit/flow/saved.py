"""What the flow knows beyond the journal's events, saved beside the journal after every
input that changes it: the stage and its message, a win in progress (claims, reading,
proposal, tiles being fixed, values being entered), a riichi waiting for its discard, the
CALLs waiting for their melds, the tenpai declarations, the menu (its items as shown: a
penalty's amounts, a confirmation) and the players being chosen for a game (each seat's
name, the steps UNDO takes back). The note names how many journal lines it goes with; a
note older than the journal (a power cut between the two writes) is not used, and the
flow rests at the stage the table's phase calls for. Previews are scored again from the
proposal, so only events, tiles and numbers are written.

>>> tiles_out([Tile.from_code("0p"), None]), tiles_in(["0p", None])
(['0p', None], (Tile('0p'), None))
"""

from __future__ import annotations

import json
import os
from contextlib import suppress
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tablekit.files.atomic import write_atomic
from tablekit.flow.menu import Action, MenuItem
from tablekit.flow.note_shape import check
from tablekit.flow.pending import Pending
from tablekit.flow.seating import Seating
from tablekit.flow.seats import fresh
from tablekit.flow.stage import WIN_STAGES, Stage
from tablekit.flow.stages import ChoosePlayers, Menu, Place, Tenpai, plain, winning
from tablekit.flow.tile_fix import TileFix
from tablekit.flow.timer import Timer
from tablekit.flow.win import Entry, WinInProgress
from tablekit.game.events import BadEvent, HandStarted, Won, from_dict, to_dict
from tablekit.game.state import Phase
from tablekit.game.win_reading import WinReading
from tablekit.rules.presets import PRESETS
from tablekit.tiles import Tile

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
        if "could not save" not in flow.message:  # the journal's own failure says more
            flow.message = (f"could not save {path.name} ({error.strerror or error}); "
                            "the game goes on from the journal")


def restore(flow: FlowState) -> None:
    """Take up the note that goes with the journal's last line, if there is one."""
    if flow.session.path is None:
        return
    path = note_path(flow.session.path)
    try:
        data = _checked(flow, path, path.read_text(encoding="utf-8"))
        if data.get("timer"):  # the game's timer, even from a note older than the journal
            flow.timer = Timer(*data["timer"])
        if data.get("at") != flow.session.length:
            return
        _apply(flow, data)
    except (OSError, ValueError, KeyError, TypeError, IndexError, BadEvent):
        flow.pending = flow.pending.no_riichi()
        flow.rest()  # no note, or one that cannot be read: the phase's resting stage
        return
    flow.saved = {k: v for k, v in data.items() if k != "left"}


def _checked(flow: FlowState, path: Path, text: str) -> dict[str, Any]:
    """The note in ``text``; one of another shape is set aside (``.damaged``), said in the
    flow's message, and the game goes on from the journal."""
    try:
        return check(text)
    except ValueError as error:
        kept = path.with_name(path.name + ".damaged")
        with suppress(OSError):
            os.replace(path, kept)
        flow.message = flow.note_damaged = (
            f"{path.name} was damaged ({error}); kept aside as {kept.name}, "
            "the game goes on from the journal")
        raise


def _plain(flow: FlowState, data: dict[str, Any]) -> bool:
    """Whether a fresh flow on the journal would show the same without a note."""
    return (flow.stage is flow.resting_stage() and not flow.message and not flow.win
            and flow.timer is None and "seating" not in data
            and not data["riichi_waiting"] and not data["calls"] and flow.layout == "facing"
            and flow.next_rules == default_rules(flow.session.state.rules.name))


def hand_span(flow: FlowState) -> tuple[int, int]:
    """Where the hand in the journal's events in force started, and how many there are:
    a press noted at ``at`` events belongs to the hand while ``started < at <= length``."""
    session = flow.session
    return max(session.last_in_force(HandStarted), 0), session.active_count


def standing_calls(flow: FlowState) -> list[int]:
    """The seats whose CALL still waits for a meld: pressed in this hand (no new hand and
    no UNDO past it since), with no meld laid after it."""
    if not flow.pending.calls:
        return []  # the usual case: no need to read the history back
    state, (started, length) = flow.session.state, hand_span(flow)
    return [seat for seat, at, melds in flow.pending.calls
            if started < at <= length and state.seats[seat].calls == melds]


def standing_riichi(flow: FlowState) -> dict[int, int]:
    """The RIICHI presses still waiting for their seat's discard (seat: the journal's
    events in force at the press, latest press last): pressed in this hand, which goes
    on (no win or draw since), the seat not in riichi yet; an UNDO past the win brings
    them back."""
    state = flow.session.state
    if not flow.pending.riichi or state.phase is not Phase.HAND_IN_PLAY:
        return {}
    started, length = hand_span(flow)
    return {seat: at for seat, at in flow.pending.riichi
            if started < at <= length and not state.seats[seat].riichi_declared}


def default_rules(name: str) -> str:
    """The preset a new game from the menu takes first: the game's own, if it is one."""
    return name if name in PRESETS else "tenhou"


def snapshot(flow: FlowState) -> dict[str, Any]:
    calls = standing_calls(flow)
    data: dict[str, Any] = {
        "at": flow.session.length, "stage": flow.stage.name, "message": flow.message,
        "layout": flow.layout, "next_rules": flow.next_rules,
        "riichi_waiting": [[seat, at] for seat, at in standing_riichi(flow).items()],
        "calls": [list(call) for call in sorted(flow.pending.calls) if call[0] in calls]}
    place = flow.place
    if isinstance(place, Tenpai):
        data["tenpai"] = list(place.flags)
    if isinstance(place, Menu):
        data["menu"] = {"title": place.title, "selected": place.selected, "items": [
            [item.label, item.action.name, item.argument] for item in place.items]}
    if flow.win is not None:
        data["win"] = win_out(flow.win)
    if isinstance(place, ChoosePlayers):
        data["seating"] = place.seating.out()
    if flow.timer is not None:
        data["timer"] = [flow.timer.game, flow.timer.started, flow.timer.called_at]
    return data


def _apply(flow: FlowState, data: dict[str, Any]) -> None:
    stage = Stage[data["stage"]]
    if (stage in WIN_STAGES) != ("win" in data):
        raise ValueError("a win stage without its win")
    flow.layout = "centre" if data["layout"] == "centre" else "facing"
    flow.next_rules = data["next_rules"]
    riichi = {  # a note of an older tablekit: the seats alone
        seat: at for seat, at in ([entry, hand_span(flow)[1]] if isinstance(entry, int)
                                  else entry for entry in data["riichi_waiting"])}
    calls = {seat: (at, melds) for seat, at, melds in data.get("calls", [])}
    flow.pending = Pending(tuple(riichi.items()),
                           tuple((seat, at, melds) for seat, (at, melds) in calls.items()))
    for seat in sorted(standing_calls(flow)):  # the camera waits for these melds again
        if flow.reader is not None:
            flow.reader.expect_call(flow.session.state, seat)
    if "win" in data:  # held by the flow first: the preview is scored from there
        flow.place = winning(stage, win_in(data["win"], flow.clock() + data.get("left", 0.0)))
        flow.win = _score_again(flow, flow.win, stage, tuple(data["win"]["doubts"]))
    else:
        flow.place = _place(flow, stage, data)
    flow.message = data["message"]


def _place(flow: FlowState, stage: Stage, data: dict[str, Any]) -> Place:
    """The stage of the note (not a win's) with its data."""
    if stage is Stage.TENPAI:
        if len(data["tenpai"]) != flow.session.state.players:
            raise ValueError("tenpai declarations for another number of seats")
        return Tenpai(tuple(bool(x) for x in data["tenpai"]))
    if stage is Stage.MENU:
        menu = data["menu"]
        return Menu(menu["title"], tuple(MenuItem(label, Action[action], argument)
                                         for label, action, argument in menu["items"]),
                    menu["selected"])
    if stage is Stage.CHOOSE_PLAYERS and not flow.roster:
        raise ValueError("players being chosen without a roster")
    if stage is Stage.CHOOSE_PLAYERS:  # an older note: no one chosen yet
        return ChoosePlayers(Seating.read(flow.roster, data["seating"]) if "seating" in data
                             else fresh(flow))
    return plain(stage)


def _score_again(flow: FlowState, win: WinInProgress | None, stage: Stage,
                 doubts: tuple[str, ...]) -> WinInProgress:
    """``win`` with its preview scored again (the flow holds ``win`` already)."""
    from tablekit.flow.proposal import preview

    assert win is not None
    if win.pending is not None:
        return replace(win, preview=preview(flow, win.pending, doubts, win.corrections,
                                            quiet=True))
    if stage is Stage.ENTER_VALUE:
        entered = Won(tuple(e.winner() for e in win.entries), win.discarder)
        shown = preview(flow, entered, (), quiet=True)
        return replace(win, preview=shown and replace(shown, entering=True))
    return win


def win_out(win: WinInProgress) -> dict[str, Any]:
    reading = win.reading
    return {
        "claims": [list(claim) for claim in win.claims], "discarder": win.discarder,
        "seats": list(win.seats),
        "pending": to_dict(win.pending) if win.pending else None,
        "doubts": list(win.preview.doubts) if win.preview else [],
        "corrections": [to_dict(event) for event in win.corrections],
        "fixed": win.fixed, "entries": [[e.seat, e.han_step, e.fu_step] for e in win.entries],
        "fix": None if win.fix is None else {
            "seats": list(win.fix.seats), "hands": [tiles_out(h) for h in win.fix.hands],
            "ura": tiles_out(win.fix.ura), "dora": tiles_out(win.fix.dora),
            "cursor": win.fix.cursor},
        "reading": None if reading is None else {
            "won": to_dict(Won(reading.winners, None, reading.ura)),
            "doubts": list(reading.doubts), "unseen": reading.unseen,
            "drafts": [[seat, tiles_out(tiles)] for seat, tiles in reading.drafts]},
    }


def win_in(data: dict[str, Any], deadline: float) -> WinInProgress:
    fix, reading = data["fix"], data["reading"]
    read = None if reading is None else _won(reading["won"])
    return WinInProgress(
        tuple((seat, bool(long)) for seat, long in data["claims"]), deadline, data["discarder"],
        tuple(data["seats"]), fixed=data["fixed"],
        entries=tuple(Entry(*entry) for entry in data["entries"]),
        pending=_won(data["pending"]) if data["pending"] else None,
        corrections=tuple(from_dict(event) for event in data["corrections"]),
        fix=None if fix is None else TileFix(
            tuple(fix["seats"]), tuple(tiles_in(h) for h in fix["hands"]),
            tiles_in(fix["ura"]), fix["cursor"], tiles_in(fix["dora"])),
        reading=None if reading is None or read is None else WinReading(
            read.winners, read.ura, tuple(reading["doubts"]), tuple(
                (seat, tiles_in(tiles)) for seat, tiles in reading["drafts"]),
            reading["unseen"]))


def _won(data: dict[str, Any]) -> Won:
    event = from_dict(data)
    if not isinstance(event, Won):
        raise BadEvent(f"not a win: {data!r}")
    return event


def tiles_out(tiles: list[Tile | None] | tuple[Tile | None, ...]) -> list[str | None]:
    return [None if tile is None else tile.code for tile in tiles]


def tiles_in(codes: list[str | None]) -> tuple[Tile | None, ...]:
    return tuple(None if code is None else Tile.from_code(code) for code in codes)


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` by ``text`` (its folder made if need be): written to the side file
    ``NAME.new``, fsynced, renamed over it (:func:`tablekit.files.atomic.write_atomic`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, text, side=".new")
