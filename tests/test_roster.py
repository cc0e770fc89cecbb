"""The club's roster, players typed for a game, and the seating draw."""

import argparse

import pytest

from tablekit.app import open_session
from tablekit.commands.run import _players
from tablekit.league.database import LeagueError
from tablekit.league.roster import choose_players, draw_seats, read_roster
from tablekit.rules.presets import TENHOU


@pytest.fixture
def roster(tmp_path):
    path = tmp_path / "roster.txt"
    path.write_text("Aki\nBen  # plays Thursdays\nCho\nDai\nEmi\n", encoding="utf-8")
    return path


def test_a_roster_skips_comments_and_refuses_a_name_twice(roster, tmp_path):
    assert read_roster(roster) == ["Aki", "Ben", "Cho", "Dai", "Emi"]
    twice = tmp_path / "twice.txt"
    twice.write_text("Aki\nBen\nAki\n", encoding="utf-8")
    with pytest.raises(LeagueError, match="Aki twice"):
        read_roster(twice)


def test_players_must_be_four_different_names_on_the_roster(roster):
    names = read_roster(roster)
    with pytest.raises(LeagueError, match="not on the roster: Zed"):
        choose_players("Aki, Ben, Cho, Zed", names)
    with pytest.raises(LeagueError, match="four different"):
        choose_players("Aki, Ben, Aki, Cho", names)


def test_the_seating_draw_is_a_seeded_shuffle():
    names = ("Aki", "Ben", "Cho", "Dai")
    assert draw_seats(names, seed=3) == draw_seats(names, seed=3)
    assert sorted(draw_seats(names, seed=3)) == sorted(names)
    assert len({draw_seats(names, seed=s) for s in range(20)}) > 5


def test_run_starts_a_new_game_under_the_chosen_names(roster, tmp_path):
    lines = []
    args = argparse.Namespace(players="Emi,Dai,Cho,Ben", roster=roster, draw=True, seed=1)
    names = _players(args, lines.append)
    assert lines[0].startswith("seats: East ") and sorted(names) == ["Ben", "Cho", "Dai", "Emi"]
    session = open_session(tmp_path / "game.jsonl", TENHOU, lines.append, names)
    assert session.state.names == names
    session.close()
