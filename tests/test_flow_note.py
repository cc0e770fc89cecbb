"""The flow's note (:mod:`tablekit.flow.saved`, its shape in :mod:`tablekit.flow.note_shape`):
notes written by earlier tablekits (``tests/fixtures/notes/``, made by ``tests/note_cases.py``)
come back to the same screen; every stage's note goes round (written, read, written again the
same); a hostile note is refused whole, in one line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from note_cases import CASES, OLD, reopened, screen_of

from tablekit.flow.note_shape import check, dump
from tablekit.flow.saved import snapshot

FIXTURES = Path(__file__).parent / "fixtures" / "notes"
SOURCES = {**{name: name for name in CASES}, **{name: source for name, (source, _) in OLD.items()}}


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_a_note_of_an_earlier_tablekit_comes_back_to_the_same_screen(tmp_path, name):
    folder = tmp_path / name
    shutil.copytree(FIXTURES / name, folder)
    case = CASES[SOURCES[name]]
    note = json.loads((folder / "game.flow.json").read_text())
    flow = reopened(folder, case)
    try:
        assert not flow.note_damaged
        assert flow.stage.name == note["stage"]
    finally:
        flow.session.close()
    assert screen_of(folder, case) + "\n" == (folder / "screen.txt").read_text()


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_stage_s_note_is_written_as_before_and_goes_round(tmp_path, name):
    """Played again, each case writes the very note the fixture holds; read back, the
    flow writes the same again (less the seconds left, which the writer adds)."""
    case = CASES[name]
    case.table(tmp_path).flow.session.close()
    text = (tmp_path / "game.flow.json").read_text()
    assert text == (FIXTURES / name / "game.flow.json").read_text()
    flow = reopened(tmp_path, case)
    try:
        assert flow.stage.name == json.loads(text)["stage"]
        written = {key: value for key, value in json.loads(text).items() if key != "left"}
        assert snapshot(flow) == written == flow.saved
        assert dump(check(text)) == written
    finally:
        flow.session.close()


def _note(name: str) -> dict:
    return json.loads((FIXTURES / name / "game.flow.json").read_text())


def _set(name: str, path: str, value) -> str:
    """The note of the fixture ``name`` with the value at ``path`` (dotted; numbers index
    lists) replaced by ``value``."""
    note = _note(name)
    *parents, last = [int(part) if part.isdigit() else part for part in path.split(".")]
    where = note
    for part in parents:
        where = where[part]
    where[last] = value
    return json.dumps(note)


HOSTILE = {
    # huge lists, and a huge note
    "riichi of five seats": (_set("play_waiting", "riichi_waiting", [[0, 1]] * 5),
                             "riichi_waiting: more than 4 items"),
    "a menu of 10,000 items": (_set("menu", "menu.items", [["Close", "CLOSE", None]] * 10_000),
                               "menu.items: more than 64 items"),
    "a row of 1,000 tiles": (_set("fix_tiles", "win.fix.hands.0", ["1m"] * 1000),
                             "win.fix.hands[0]: more than 32 items"),
    "a million steps back": (_set("choose_players", "seating.steps", [[None] * 4] * 100_000),
                             "bytes, more than"),
    "a note nested deep": ('{"at": ' + "[" * 100 + "]" * 100 + "}", "nested more than"),
    "a message of a million characters": (_set("play_waiting", "message", "x" * 200_000),
                                          "message: string should have at most 10000"),
    # wrong types
    "lines as text": (_set("play_waiting", "at", "4"), "at: not a whole number"),
    "claims as a number": (_set("collect_wins", "win.claims", 1), "win.claims"),
    "a tile as a number": (_set("fix_tiles", "win.fix.dora.0", 7), "a tile is its code"),
    "a tile that is none": (_set("fix_tiles", "win.fix.dora.0", "8z"), "8z"),
    "a win that is a draw": (_set("confirm_win", "win.pending", {"type": "exhaustive_draw"}),
                             "win.pending: not a win but ExhaustiveDraw"),
    "an event of no kind": (_set("confirm_fixed", "win.corrections.0", {"type": "x"}),
                            "unknown event type 'x'"),
    "a timer as text": (_set("menu", "timer", "soon"), "timer"),
    # seats and steps out of range
    "seat 7 waiting": (_set("play_waiting", "riichi_waiting", [[7, 4]]),
                       "riichi_waiting[0]"),
    "seat 4 claiming": (_set("collect_wins", "win.claims.0.0", 4), "at most 3, not 4"),
    "han step 99": (_set("enter_value", "win.entries.0.1", 99), "less than 15"),
    "the cursor past the tiles": (_set("fix_tiles", "win.fix.cursor", 99),
                                  "the cursor on slot 99 of 15"),
    "rows for no seats": (_set("fix_tiles", "win.fix.seats", []), "1 rows of tiles for 0"),
    "steps of three seats": (_set("choose_players", "seating.steps.0", [None] * 3),
                             "steps of another number of seats"),
    "a new game of unknown rules": (_set("menu", "menu.items.0", ["New", "NEW_GAME", "x"]),
                                    "NEW_GAME with the argument 'x'"),
    "a penalty of no amount": (_set("menu_penalty", "menu.items.1.2", "1:lots"),
                               "PENALTY_AMOUNT with the argument '1:lots'"),
    "unknown next rules": (_set("play_waiting", "next_rules", "x"), "next_rules"),
    # stages
    "an unknown stage": (_set("play_waiting", "stage", "DANCE"), "stage: not a stage: 'DANCE'"),
    "a win stage without its win": (_set("play_waiting", "stage", "CONFIRM_WIN"),
                                    "the stage CONFIRM_WIN without its win"),
    "a menu with no menu": (_set("play_waiting", "stage", "MENU"), "without its menu"),
    "play with a win": (_set("confirm_win", "stage", "PLAY"), "the stage PLAY with a win"),
    "tenpai of one seat": (_set("tenpai", "tenpai", [True]), "tenpai: 1 items, fewer than 3"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_note_is_refused_whole_in_one_line(name):
    text, reason = HOSTILE[name]
    with pytest.raises(ValueError) as refused:
        check(text)
    said = str(refused.value)
    assert said.startswith("not a flow note: ") and reason in said
    assert "\n" not in said and len(said) < 250


@pytest.mark.parametrize("name", ["an unknown stage", "seat 4 claiming", "a tile as a number",
                                  "a menu of 10,000 items", "a win that is a draw"])
def test_a_hostile_note_is_set_aside_and_the_game_goes_on_from_the_journal(tmp_path, name):
    source = {"an unknown stage": "play_waiting", "seat 4 claiming": "collect_wins",
              "a tile as a number": "fix_tiles", "a menu of 10,000 items": "menu",
              "a win that is a draw": "confirm_win"}[name]
    folder = tmp_path / source
    shutil.copytree(FIXTURES / source, folder)
    (folder / "game.flow.json").write_text(HOSTILE[name][0])
    flow = reopened(folder, CASES[source])
    try:
        assert flow.stage is flow.resting_stage()
        assert flow.note_damaged and "kept aside as game.flow.json.damaged" in flow.data.message
        assert "\n" not in flow.data.message
        assert (folder / "game.flow.json.damaged").read_text() == HOSTILE[name][0]
    finally:
        flow.session.close()


def test_a_note_that_does_not_fit_the_table_is_not_used_nor_set_aside(tmp_path):
    """Four seats' declarations on a table of three: of the note's shape, not of this
    table's; the flow rests, the note stays (as a note older than the journal does)."""
    folder = tmp_path / "tenpai_sanma"
    shutil.copytree(FIXTURES / "tenpai_sanma", folder)
    (folder / "game.flow.json").write_text(_set("tenpai_sanma", "tenpai", [True] * 4))
    flow = reopened(folder, CASES["tenpai_sanma"])
    try:
        assert flow.stage is flow.resting_stage() and not flow.note_damaged
        assert not (folder / "game.flow.json.damaged").exists()
    finally:
        flow.session.close()
