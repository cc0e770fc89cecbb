"""tenhou.net/6 JSON: export, read back, replay --check on it, and the CSV row export."""

import csv
import json
from pathlib import Path

import pytest
from conftest import DATA
from missing_packages import SHARED_MISSING

from tablekit.cli import main
from tablekit.formats.replay_check import check_game
from tablekit.formats.tenhou import import_file
from tablekit.formats.tenhou6 import tile
from tablekit.formats.tenhou6_check import export, round_trip
from tablekit.formats.tenhou6_moves import take_call
from tablekit.formats.tenhou6_read import read_tenhou6
from tablekit.formats.tenhou6_write import _spell
from tablekit.game.events import GameStarted, HandStarted
from tablekit.game.journal import Journal

GAME = DATA / "tenhou-python-bot-28.xml"
EDGE_CASES = (Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "tenhou" / "logs"
              / "Riichi-Mahjong-Statistics-Seminar+tenhou-paifu-to-json")


def test_the_committed_game_round_trips_event_for_event():
    game = import_file(GAME)
    again = read_tenhou6(export(game))
    assert again.events == game.events
    assert [h.deltas for h in again.hands] == [h.deltas for h in game.hands]
    trip = round_trip(GAME)
    assert trip.same and trip.first.ok and trip.second.ok


def test_replay_check_reads_an_exported_file(tmp_path, capsys):
    out = tmp_path / "game.json"
    assert main(["export", str(GAME), "--format", "tenhou6", "--out", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["name"] == ["Wanjirou", "Kaavi", "Xenia", "Ichihime"]
    assert len(data["log"]) == 6 and all(len(hand) == 17 for hand in data["log"])
    assert main(["replay", "--check", str(out)]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["games_ok"] == 1 and summary["wins_ok"] == summary["wins"] == 5
    assert check_game(out).table == check_game(GAME).table


def test_a_tampered_export_is_a_mismatch(tmp_path, capsys):
    data = export(import_file(GAME))
    win = next(hand for hand in data["log"] if hand[-1][0] == "和了")
    win[-1][1] = [d + (1000 if i == 0 else -1000 if i == 1 else 0)
                  for i, d in enumerate(win[-1][1])]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", "--check", str(path)]) == 1
    assert "score changes" in capsys.readouterr().out


@pytest.mark.parametrize(("relative", "text"), [(3, "p121212"), (2, "12p1212"),
                                                (1, "1212p12")])
def test_a_pon_is_spelt_where_its_tile_came_from(relative, text):
    two = [tile(12), tile(12)]
    assert _spell("p", tile(12), two, relative) == text
    call = take_call(text, seat=1)
    assert call.kind == "pon" and call.from_seat == (1 + relative) % 4


def test_an_open_kan_from_the_right_has_its_letter_last():
    assert _spell("m", tile(13), [tile(13)] * 3, 1) == "131313m13"
    assert take_call("131313m13", seat=0).from_seat == 1


@pytest.mark.skipif(not EDGE_CASES.exists(), reason=SHARED_MISSING)
def test_recorded_edge_cases_round_trip():
    # added kans, double ron, pao, yakuman, triple ron and nine terminals
    trips = {p.name: round_trip(p) for p in sorted(EDGE_CASES.iterdir())}
    assert {name: t.problem for name, t in trips.items() if not t.same} == {}
    assert len(trips) == 7


def test_a_table_game_without_starting_hands_is_refused_in_one_line(tmp_path, capsys):
    journal = tmp_path / "game.jsonl"
    with Journal(journal) as out:
        out.append(GameStarted(names=("A", "B", "C", "D")))
        out.append(HandStarted(tile(11)))
    assert main(["export", str(journal), "--format", "tenhou6"]) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("tablekit export: East 1: tenhou.net/6 needs every player's")
    assert "\n" not in error


def test_csv_rows_append_one_game_at_a_time(tmp_path):
    out = tmp_path / "season.csv"
    for _ in range(2):
        assert main(["export", str(GAME), "--format", "csv", "--out", str(out)]) == 0
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert len(rows) == 2
    assert [rows[0][f"score{s}"] for s in range(1, 5)] == ["-16.0", "48.0", "-40.0", "8.0"]
    assert rows[0]["name2"] == "Kaavi" and rows[0]["place2"] == "1"
