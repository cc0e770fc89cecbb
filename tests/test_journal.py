"""Journal, undo/redo and crash recovery (kill -9 at random points of a game)."""

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from engine_helpers import Table

from harness.journal_damage import CASES, run_case, run_disk_full, write_game
from tablekit.game.events import (
    BadEvent,
    Call,
    Discard,
    Draw,
    ExhaustiveDraw,
    GameStarted,
    HandStarted,
    Undo,
    WinnerHand,
    Won,
    from_json,
    to_json,
)
from tablekit.game.journal import (
    FORMAT,
    Journal,
    JournalError,
    read_journal,
    unseal,
    write_journal,
)
from tablekit.game.reducer import replay
from tablekit.game.session import Session, in_force
from tablekit.tiles import Tile, parse_tiles

ROOT = Path(__file__).resolve().parents[1]


def recorded_game() -> list:
    """Two whole hands of events: draws and discards to the end of the wall, then a draw."""
    events = [GameStarted()]
    table = Table()

    def record(*new):
        events.extend(new)
        return table(*new)

    for _ in range(2):
        record(HandStarted(Tile.from_code("1m")))
        table.filler = 0
        while table.state.wall > 0:
            seat = table.state.turn
            tile = Tile(33 - table.filler % 34)
            table.filler += 1
            record(Draw(seat), Discard(seat, tile))
        record(ExhaustiveDraw(tenpai=(table.state.dealer,)))
    return events


def test_every_event_round_trips_through_json():
    for event in recorded_game():
        assert from_json(to_json(event)) == event


def test_wins_and_calls_read_back_from_the_journal(tmp_path):
    call = Call(2, "pon", tuple(parse_tiles("550m")), Tile.from_code("0m"), 1)
    won = Won((WinnerHand(1, han=2, fu=30),), None, tuple(parse_tiles("1m2p")))
    assert from_json(to_json(call)) == call and from_json(to_json(won)) == won
    events = [GameStarted(), HandStarted(tracked=False),
              Won((WinnerHand(1, han=2, fu=30),), None)]
    game = Session.open(tmp_path / "g.jsonl")
    for event in events:
        game.submit(event)
    game.close()
    again = Session.open(tmp_path / "g.jsonl")
    assert again.notice == "" and again.history == events and again.state == game.state


def test_undo_and_redo_are_journalled_and_rebuild_the_state(tmp_path):
    events = recorded_game()[:60]
    game = Session.open(tmp_path / "g.jsonl")
    for event in events:
        game.submit(event)
    after = game.state
    game.undo(3)
    assert game.state == replay(events[:-3])
    game.redo()
    assert game.state == replay(events[:-2])
    game.close()
    again = Session.open(tmp_path / "g.jsonl")
    assert again.state == replay(events[:-2])
    assert again.can_redo
    assert [type(e) for e in again.history[-2:]] == [Undo, type(again.history[-1])]
    assert after != again.state


def test_a_new_event_after_undo_drops_the_redo_branch():
    a, b, c = recorded_game()[:3]
    active, undone = in_force([a, b, Undo(), c])
    assert active == [a, c] and undone == []
    with pytest.raises(BadEvent, match="nothing left to undo"):
        in_force([a, Undo(2)])


def test_a_refused_event_is_not_journalled(tmp_path):
    game = Session.open(tmp_path / "g.jsonl")
    for event in recorded_game()[:3]:
        game.submit(event)
    before = game.state
    with pytest.raises(BadEvent):
        game.submit(Discard(3, Tile.from_code("1m")))
    assert game.state == before
    game.close()
    assert len(read_journal(tmp_path / "g.jsonl").events) == 3


def test_a_torn_last_line_is_dropped_and_trimmed(tmp_path):
    path = tmp_path / "g.jsonl"
    events = recorded_game()[:5]
    with Journal(path) as journal:
        for event in events:
            journal.append(event)
    with path.open("a") as handle:
        handle.write('{"type": "draw", "se')
    contents = read_journal(path)
    assert contents.events == events and contents.torn_tail.startswith('{"type"')
    game = Session.open(path)
    game.submit(Discard(1, Tile.from_code("9s")))
    game.close()
    assert read_journal(path).torn_tail == ""


def test_a_corrupt_line_in_the_middle_is_an_error_naming_the_line(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_text(to_json(recorded_game()[0]) + "\nnot json\n" + to_json(Draw(0)) + "\n")
    with pytest.raises(BadEvent, match=r"g\.jsonl, line 2: not a JSON event"):
        read_journal(path)


def test_an_unknown_event_type_is_named():
    with pytest.raises(BadEvent, match="unknown event type 'tea_break'"):
        from_json('{"type": "tea_break", "seat": 1}')


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_a_damaged_journal_starts_on_the_trusted_game_and_is_kept_aside(tmp_path, case):
    outcome = run_case(case, recorded_game()[:41], tmp_path)
    assert outcome.held, outcome.problems


def test_damage_messages_name_the_file_and_the_line(tmp_path):
    events = recorded_game()[:41]
    by_name = {case.name: case for case in CASES}
    seat = run_case(by_name["event contradicts the table"], events, tmp_path / "a").notice
    assert "game.jsonl, line 22: riichi by seat 9: there is no seat 9" in seat
    assert "resumed from the 20 events before it" in seat
    unknown = run_case(by_name["unknown event type"], events, tmp_path / "b").notice
    assert "line 22: unknown event type 'tea_break'" in unknown
    newer = run_case(by_name["newer format"], events, tmp_path / "c").notice
    assert "newer tablekit" in newer and "update tablekit" in newer


def test_a_full_disk_moves_no_points_and_says_so(tmp_path):
    outcome = run_disk_full(recorded_game()[:41], tmp_path)
    assert outcome.held, outcome.problems
    assert "No space left on device" in outcome.notice


def test_a_damaged_journal_resumed_twice_keeps_one_copy_each_time(tmp_path):
    events = recorded_game()[:21]
    path = tmp_path / "game.jsonl"
    write_game(path, events)
    with path.open("a") as handle:
        handle.write("garbage\n")
    first = Session.open(path)
    assert "line 23: not a JSON event" in first.notice
    first.close()
    again = Session.open(path)
    assert again.notice == "" and again.state == replay(events)
    again.close()
    assert len(list(tmp_path.glob("game.jsonl.damaged-*"))) == 1


WRITER = """
import json, sys
from pathlib import Path
from tablekit.game.events import from_json
from tablekit.game.session import Session
events = [from_json(line) for line in Path(sys.argv[2]).read_text().splitlines()]
game = Session.open(Path(sys.argv[1]))
for event in events[len(game.history):]:
    game.submit(event)
    print(len(game.history), flush=True)
"""


@pytest.mark.parametrize("seed", range(4))
def test_kill_9_at_a_random_point_then_resume_exactly(tmp_path, seed):
    events = recorded_game()
    script = tmp_path / "events.jsonl"
    script.write_text("\n".join(to_json(e) for e in events) + "\n")
    journal = tmp_path / "game.jsonl"
    rng = random.Random(seed)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for _ in range(3):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(journal), str(script)],
                                stdout=subprocess.PIPE, env=env)
        time.sleep(rng.uniform(0.3, 1.2))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        resumed = Session.open(journal)
        done = len(resumed.history)
        assert resumed.state == replay(events[:done])
        resumed.close()
    final = subprocess.run([sys.executable, "-c", WRITER, str(journal), str(script)],
                           env=env, capture_output=True, timeout=120, check=True)
    assert final.returncode == 0
    assert Session.open(journal).state == replay(events)
    header, first = (json.loads(line) for line in journal.read_text().splitlines()[:2])
    assert header == {"type": "journal", "format": FORMAT} and first["type"] == "game_started"


def test_a_journal_that_cannot_be_written_is_a_clear_error(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(JournalError, match=r"cannot keep the journal .*file/game\.jsonl"):
        Session.open(tmp_path / "file" / "game.jsonl")


def test_journals_of_both_formats_load_and_the_rules_are_written_as_before(tmp_path):
    """A format-1 journal (no header, a preset with an override) and a format-2 one
    written before the rules were a typed value: both load, and writing the second
    again gives the same lines, each with its checksum."""
    from tablekit.rules.presets import EMA2016, WRC2025, with_options

    old = Path(__file__).parent / "fixtures" / "journals"
    first = read_journal(old / "format1.jsonl")
    assert first.events[0] == GameStarted(with_options(EMA2016, length="tonpuusen"))
    second = read_journal(old / "format2.jsonl")
    assert second.events[0].rules == WRC2025 and second.joins == [False, False, False, True]
    again = tmp_path / "again.jsonl"
    write_journal(again, second.events, second.joins)
    before = (old / "format2.jsonl").read_text(encoding="utf-8").splitlines()
    after = [unseal(line.encode()).decode() for line in
             again.read_text(encoding="utf-8").splitlines()[1:]]
    assert after[1:] == before[2:]
    was, now = json.loads(before[1]), json.loads(after[0])
    assert now.pop("before") == 0 and now.pop("at")
    assert {k: now["rules"][k] for k in was["rules"]} == was["rules"]  # options added since
    assert {**now, "rules": None} == {**was, "rules": None}             # only add to the rules


def test_every_bit_flipped_in_a_real_games_journal_is_caught_or_harmless(tmp_path):
    """Each line's checksum: a flipped bit never resumes a different game unseen (before
    format 3, 6 of 300 flips did, changing the score), and never stops the start."""
    from harness.bit_flips import flip_bits
    from tablekit.formats.tenhou import import_file
    from tablekit.sim.table import DEMO_GAME

    report = flip_bits(import_file(DEMO_GAME).events[:150], 300, tmp_path, seed=7)
    assert report.missed == [] and report.crashes == []
    assert report.caught + report.harmless == 300 and report.caught > 280


def test_a_game_played_under_rules_now_refused_still_resumes(tmp_path):
    """An older tablekit took honba in 100s and any name; its journal is what was played:
    it resumes as it was instead of being moved aside (the game lost)."""
    from tablekit.rules.presets import TENHOU, rules_to_dict

    rules = {**rules_to_dict(TENHOU), "honba_value": 100, "name": "our club's rules " * 8}
    path = tmp_path / "game.jsonl"
    path.write_text(json.dumps({"type": "journal", "format": 2}) + "\n" + json.dumps(
        {"n": 1, "type": "game_started", "rules": rules, "names": [], "first_dealer": 0})
        + "\n")
    game = Session.open(path)
    assert game.notice == "" and game.state.rules.honba_value == 100
    game.close()
