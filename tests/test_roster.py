"""The club's roster, players typed for a game, and the seating draw."""

import argparse
import time

import pytest

from tablekit.app.loop import open_session
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
    names = _players(args)
    assert sorted(names) == ["Ben", "Cho", "Dai", "Emi"]
    session = open_session(tmp_path / "game.jsonl", TENHOU, lines.append, names)
    assert lines == [f"seats: East {names[0]} · South {names[1]} · West {names[2]} · "
                     f"North {names[3]}"]
    assert session.state.names == names
    session.close()


@pytest.mark.parametrize("text, words", [
    ("Aki\nBen\nCho\n", "names 3 players: a game needs 4"),
    ("", "names 0 players: a game needs 4"),
    ("# nobody yet\n\n", "names 0 players"),
    ("Aki\nJose\u0301\nBen\nJos\u00e9\nCho\n", "names José twice \\(lines 2 and 4\\)"),
    ("Aki\nBen\x1b[2J\nCho\nDai\n", "line 2: the name 'Ben\\\\x1b\\[2J' holds a control character"),
    ("Aki\nBen\u202e\nCho\nDai\n", "line 2: .* holds an invisible format character"),
    ("Aki\nBen, Cho\nDai\nEmi\n", "line 2: .* holds a comma"),
    ("Aki\n" + "B" * 65 + "\nCho\nDai\n", "line 2: .* is over 64 characters"),
])
def test_a_roster_that_cannot_seat_a_game_is_refused_in_one_line(tmp_path, text, words):
    path = tmp_path / "roster.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LeagueError, match=words) as refused:
        read_roster(path)
    assert len(str(refused.value).splitlines()) == 1


def test_a_roster_in_other_bytes_is_one_line(tmp_path):
    path = tmp_path / "roster.txt"
    path.write_bytes(b"Aki\nB\xe9n\nCho\nDai\n")
    with pytest.raises(LeagueError, match="is not UTF-8 text"):
        read_roster(path)


def test_a_byte_order_mark_is_not_part_of_the_first_name(tmp_path):
    path = tmp_path / "roster.txt"
    path.write_bytes("\ufeffAki\r\nBen\r\nCho\r\nJose\u0301\r\n".encode())
    names = read_roster(path)
    assert names == ["Aki", "Ben", "Cho", "Jos\u00e9"]
    assert choose_players("Aki, Ben, Cho, Jose\u0301", names)[3] == "Jos\u00e9"


def test_typed_players_are_checked_like_roster_names():
    with pytest.raises(LeagueError, match="players: the name 'Ben\\\\x07' holds a control"):
        choose_players("Aki, Ben\x07, Cho, Dai")


def test_a_long_roster_is_read_in_linear_time(tmp_path):
    path = tmp_path / "roster.txt"
    path.write_text("".join(f"Player {i}\n" for i in range(100_000)), encoding="utf-8")
    began = time.perf_counter()
    assert len(read_roster(path)) == 100_000
    assert time.perf_counter() - began < 5  # the old count per name took minutes
