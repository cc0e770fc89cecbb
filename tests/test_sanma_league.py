"""Three-player (sanma) games in the league: standings and ratings of their own, never
mixed with four-player ones; ``tablekit league --players 3``; the web snapshot's table,
evening and league for three."""

from __future__ import annotations

import csv
import json

import pytest
from conftest import DATA, FIXTURES

from tablekit.cli import main
from tablekit.formats.tenhou import import_file
from tablekit.game.state import TableState
from tablekit.league.database import LeagueError, connect
from tablekit.league.record import record_game
from tablekit.league.standings import league_table
from tablekit.rules.presets import TENHOU_SANMA
from tablekit.web.snapshot import evening_snapshot, league_snapshot, table_snapshot

SANMA = FIXTURES / "mjlog" / "sanma-2022010814gm-00b9-0000-c378f5c4.xml"
GAME = DATA / "tenhou-python-bot-28.xml"
THREE = ("Aki", "Ben", "Kaavi")  # Kaavi plays four-player games too


def sanma_events():
    return import_file(SANMA, three_players=True).events


@pytest.fixture
def league(tmp_path):
    db = connect(tmp_path / "league.sqlite")
    yield db
    db.close()


def test_three_and_four_player_games_have_standings_of_their_own(league):
    assert record_game(league, import_file(GAME).events, key="four") is not None
    four = {p.name: p for p in league_table(league)}
    assert record_game(league, sanma_events(), names=THREE, key="three") is not None
    assert {p.name: p for p in league_table(league)} == four  # not moved by a sanma game
    three = league_table(league, players=3)
    assert [(p.name, p.games, p.points, p.placements) for p in three] == [
        ("Ben", 1, 71.0, (1, 0, 0)), ("Kaavi", 1, -22.0, (0, 1, 0)),
        ("Aki", 1, -49.0, (0, 0, 1))]
    kaavi = next(p for p in three if p.name == "Kaavi")
    assert kaavi.rating != four["Kaavi"].rating and four["Kaavi"].placements == (1, 0, 0, 0)


def test_a_sanma_game_needs_three_different_names(league):
    with pytest.raises(LeagueError, match="three different names"):
        record_game(league, sanma_events(), names=("Aki", "Aki", "Ben"))


def test_replay_records_a_sanma_log_and_league_players_3_shows_it(tmp_path, capsys):
    path = tmp_path / "league.sqlite"
    assert main(["replay", str(SANMA), str(GAME), "--league", str(path)]) == 0
    capsys.readouterr()
    assert main(["league", "--db", str(path), "--players", "3", "--json"]) == 0
    three = json.loads(capsys.readouterr().out)
    assert [(p["name"], p["placements"]) for p in three] == [
        ("れすこ", [1, 0, 0]), ("麻雀教室", [0, 1, 0]), ("ふりtん！", [0, 0, 1])]
    assert main(["league", "--db", str(path), "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 4  # the four-player game alone
    out = tmp_path / "three.csv"
    assert main(["league", "--db", str(path), "--players", "3", "--csv", str(out)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("League table, three players\n") and "4th" not in text
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert len(rows) == 3 and "fourth" not in rows[0] and rows[0]["first"] == "1"


def test_the_web_snapshot_shows_three_seats_and_the_sanma_league(league):
    state = TableState.new(TENHOU_SANMA, names=THREE)
    snap = table_snapshot(state)
    assert [(p["name"], p["points"], p["wind"]) for p in snap["players"]] == [
        ("Aki", 35000, "East"), ("Ben", 35000, "South"), ("Kaavi", 35000, "West")]
    record_game(league, import_file(GAME).events, key="four")
    record_game(league, sanma_events(), names=THREE, key="three")
    assert [game["players"] for game in evening_snapshot(league)] == [4, 3]
    assert [p["name"] for p in league_snapshot(league, players=3)] == ["Ben", "Kaavi", "Aki"]
    assert len(league_snapshot(league)) == 4


def test_a_league_of_four_player_games_reads_as_before(league):
    record_game(league, import_file(GAME).events)
    assert [(p.name, p.placements) for p in league_table(league)][:2] == [
        ("Kaavi", (1, 0, 0, 0)), ("Ichihime", (0, 1, 0, 0))]
    assert league_table(league, players=3) == []
