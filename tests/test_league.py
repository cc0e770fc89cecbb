"""The league: an evening of three real games, the table, migrations and power cuts."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from collections import defaultdict

import pytest
from conftest import DATA, FIXTURES

from tablekit.cli import main
from tablekit.formats.mjlog import Agari, Ryuukyoku, read_mjlog
from tablekit.formats.tenhou import ImportedGame, import_file
from tablekit.league.database import MIGRATIONS, LeagueError, connect
from tablekit.league.record import record_game
from tablekit.league.standings import league_table

EVENING = [DATA / "tenhou-python-bot-28.xml",
           *(FIXTURES / "mjlog" / f"tenhou-python-bot-{n}.xml" for n in (11, 15))]


def _owari(path):
    """Tenhou's own final scores and game points for a log, read straight from its owari."""
    game = read_mjlog(path)
    last = [e for e in game.events if isinstance(e, (Agari, Ryuukyoku))][-1]
    return game.names, last.final, last.final_points


def _expected_table():
    """Each player's games, total points and places, from the logs alone."""
    return _expected_table_of(EVENING)


def _expected_table_of(logs):
    totals = defaultdict(lambda: {"games": 0, "points": 0.0, "placements": [0, 0, 0, 0]})
    for path in logs:
        names, final, points = _owari(path)
        order = sorted(range(4), key=lambda s: (-final[s], s))  # Tenhou: ties by seat
        for place, seat in enumerate(order):
            entry = totals[names[seat]]
            entry["games"] += 1
            entry["points"] = round(entry["points"] + points[seat], 1)
            entry["placements"][place] += 1
    return totals


@pytest.fixture
def evening(tmp_path):
    db = connect(tmp_path / "league.sqlite")
    for path in EVENING:
        assert record_game(db, import_file(path).events, season="2026-spring") is not None
    return db, tmp_path / "league.sqlite"


def test_an_evening_of_three_games_gives_the_logs_standings(evening):
    db, _ = evening
    expected = _expected_table()
    table = {p.name: p for p in league_table(db)}
    assert set(table) == set(expected)
    for name, entry in expected.items():
        got = table[name]
        assert (got.games, got.points, list(got.placements)) == (
            entry["games"], entry["points"], entry["placements"]), name
    xenia = table["Xenia"]  # the one player of all three games
    assert xenia.games == 3 and xenia.average_placement == pytest.approx(
        sum((i + 1) * n for i, n in enumerate(xenia.placements)) / 3, abs=0.01)


def test_the_json_table_has_what_a_club_reads(evening, capsys):
    _, path = evening
    assert main(["league", "--db", str(path), "--json", "--season", "2026-spring"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {"name", "games", "points", "placements", "average_placement",
            "win_rate", "deal_in_rate", "riichi_rate", "rating"} <= set(rows[0])
    assert rows == sorted(rows, key=lambda r: -r["points"])
    assert sum(r["points"] for r in rows) == pytest.approx(0.0, abs=0.05)
    assert sum(r["games"] for r in rows) == 12


def test_the_text_table_and_csv(evening, tmp_path, capsys):
    _, path = evening
    out = tmp_path / "table.csv"
    assert main(["league", "--db", str(path), "--csv", str(out)]) == 0
    assert "Xenia" in capsys.readouterr().out
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("name,games,points") and len(lines) == 1 + 10


def test_a_mistyped_league_file_is_refused_and_nothing_is_created(tmp_path, capsys):
    typo = tmp_path / "club" / "leauge.sqlite"
    assert main(["league", "--db", str(typo)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(typo) in err and "no league file" in err
    assert not typo.exists() and not typo.parent.exists()


def test_another_season_is_empty(evening):
    db, _ = evening
    assert league_table(db, "2027") == []
    assert len(league_table(db, "2026-spring")) == 10


def test_an_unfinished_game_writes_nothing(tmp_path):
    db = connect(tmp_path / "league.sqlite")
    game = import_file(EVENING[0])
    unfinished = ImportedGame(game.rules, game.start, game.hands[:3])
    assert record_game(db, unfinished.events) is None
    assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0
    assert db.execute("SELECT COUNT(*) FROM players").fetchone()[0] == 0


def test_a_game_is_recorded_once_under_its_key(tmp_path):
    db = connect(tmp_path / "league.sqlite")
    events = import_file(EVENING[0]).events
    assert record_game(db, events, key="evening-1") == 1
    assert record_game(db, events, key="evening-1") is None
    assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1


def test_names_must_be_four_different_players(tmp_path):
    db = connect(tmp_path / "league.sqlite")
    with pytest.raises(LeagueError, match="four different names"):
        record_game(db, import_file(EVENING[0]).events, names=("A", "B", "A", "C"))


def test_an_old_league_file_is_migrated_in_place(tmp_path):
    path = tmp_path / "old.sqlite"
    old = sqlite3.connect(path)
    old.executescript(MIGRATIONS[0] + "PRAGMA user_version = 1;")
    old.execute("INSERT INTO players (name) VALUES ('Aki')")
    old.commit()
    old.close()
    db = connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert db.execute("SELECT name FROM players").fetchall() == [("Aki",)]
    assert "chombo" in {row[1] for row in db.execute("PRAGMA table_info(results)")}


def test_a_newer_league_file_is_refused(tmp_path):
    path = tmp_path / "new.sqlite"
    sqlite3.connect(path).execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    with pytest.raises(LeagueError, match="newer tablekit"):
        connect(path)


POWER_CUT = textwrap.dedent("""
    import os, signal, sys
    from pathlib import Path
    from tablekit.formats.tenhou import import_file
    from tablekit.league import record
    from tablekit.league.database import connect

    db = connect(Path(sys.argv[1]))
    record.record_game(db, import_file(Path(sys.argv[2])).events, key="first")
    if sys.argv[4] == "within":
        inserted = record._player_id
        def cut(db, name):
            player = inserted(db, name)
            if name == sys.argv[5]:
                os.kill(os.getpid(), signal.SIGKILL)  # the power goes mid-transaction
            return player
        record._player_id = cut
    record.record_game(db, import_file(Path(sys.argv[3])).events, key="second")
    os.kill(os.getpid(), signal.SIGKILL)  # the power goes after the commit
""")


@pytest.mark.parametrize("when", ["within", "between"])
def test_a_power_cut_loses_no_finished_game_and_leaves_no_half_game(tmp_path, when):
    path = tmp_path / "league.sqlite"
    third_player = read_mjlog(EVENING[1]).names[2]
    process = subprocess.run(
        [sys.executable, "-c", POWER_CUT, str(path), str(EVENING[0]), str(EVENING[1]), when,
         third_player], env={**os.environ, "PYTHONPATH": os.getcwd()}, timeout=120,
        capture_output=True, text=True)
    assert process.returncode == -signal.SIGKILL, process.stderr
    db = connect(path)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    keys = [row[0] for row in db.execute("SELECT game_key FROM games ORDER BY id")]
    assert keys == (["first"] if when == "within" else ["first", "second"])
    per_game = db.execute("SELECT game_id, COUNT(*) FROM results GROUP BY game_id").fetchall()
    assert all(count == 4 for _, count in per_game) and len(per_game) == len(keys)


def test_the_game_loop_hook_records_a_game_once_it_is_over(tmp_path):
    from types import SimpleNamespace

    from tablekit.game.session import Session
    from tablekit.league.record import recorder

    db = connect(tmp_path / "league.sqlite")
    hook = recorder(db, names=("Aki", "Ben", "Cho", "Dai"), key="table-1")
    session = Session.open(tmp_path / "game.jsonl")
    flow = SimpleNamespace(session=session)
    events = import_file(EVENING[0]).events
    for event in events[:-1]:
        session.submit(event)
        hook(flow)
    assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0
    session.submit(events[-1])
    hook(flow)
    hook(flow)  # the screen after the end is shown again: still one game
    assert [p.name for p in league_table(db)] == ["Ben", "Dai", "Aki", "Cho"]
    assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1


def test_the_app_hook_records_each_game_of_a_journal_once(tmp_path):
    """``tablekit run --league``: the app's hook records a game as it ends, once, and the
    journal's next game as a game of its own."""
    from types import SimpleNamespace

    from tablekit.game.session import Session
    from tablekit.league.record import game_recorder

    db = connect(tmp_path / "league.sqlite")
    journal = tmp_path / "game.jsonl"
    hook = game_recorder(db, journal)
    session = Session.open(journal)
    app = SimpleNamespace(flow=SimpleNamespace(session=session))
    for path in EVENING[:2]:
        for event in import_file(path).events:
            session.submit(event)
            hook(app)
            hook(app)
    assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 2
    names = {name for (name,) in db.execute("SELECT name FROM players")}
    assert "Xenia" in names


def test_the_hook_warns_about_a_game_the_league_cannot_take(tmp_path):
    from types import SimpleNamespace

    from tablekit.game.session import Session
    from tablekit.league.record import recorder

    warnings = []
    hook = recorder(connect(tmp_path / "league.sqlite"), names=("NoName",) * 4,
                    warn=warnings.append)
    session = Session.open(tmp_path / "game.jsonl")
    for event in import_file(EVENING[0]).events:
        session.submit(event)
    hook(SimpleNamespace(session=session))
    assert warnings and "four different names" in warnings[0]


def test_replay_records_an_evening_in_the_league(tmp_path, capsys):
    path = tmp_path / "club.sqlite"
    logs = [str(p) for p in EVENING]
    assert main(["replay", *logs, "--league", str(path), "--season", "2026"]) == 0
    assert main(["replay", *logs, "--league", str(path), "--season", "2026"]) == 0  # once
    assert "already in the league" in capsys.readouterr().err
    table = {p.name: p for p in league_table(connect(path), "2026")}
    expected = _expected_table()
    assert {n: (p.games, p.points) for n, p in table.items()} == {
        n: (e["games"], e["points"]) for n, e in expected.items()}


def test_the_league_follows_a_final_hand_taken_back_and_played_again(tmp_path):
    """UNDO on the final standings takes the game out of the league; its new end goes in."""
    from types import SimpleNamespace

    from tablekit.game.session import Session
    from tablekit.league.record import game_recorder

    db = connect(tmp_path / "league.sqlite")
    journal = tmp_path / "game.jsonl"
    hook = game_recorder(db, journal)
    session = Session.open(journal)
    app = SimpleNamespace(flow=SimpleNamespace(session=session))
    for event in import_file(EVENING[0]).events:
        session.submit(event)
        hook(app)
    games = "SELECT COUNT(*) FROM games"
    assert db.execute(games).fetchone()[0] == 1
    session.undo()
    hook(app)
    assert db.execute(games).fetchone()[0] == 0
    assert db.execute("SELECT COUNT(*) FROM results").fetchone()[0] == 0
    session.redo()
    hook(app)
    assert db.execute(games).fetchone()[0] == 1


MID_EVENING = textwrap.dedent("""
    import os, signal, sys
    from pathlib import Path
    from types import SimpleNamespace
    from tablekit.formats.tenhou import import_file
    from tablekit.game.session import Session
    from tablekit.league.database import connect
    from tablekit.league.record import game_recorder

    journal, logs, unhooked = Path(sys.argv[2]), sys.argv[3:6], sys.argv[6] == "unhooked"
    hook = game_recorder(connect(Path(sys.argv[1])), journal)
    session = Session.open(journal)
    app = SimpleNamespace(flow=SimpleNamespace(session=session))
    for number, log in enumerate(logs):
        events = import_file(Path(log)).events
        for index, event in enumerate(events):
            session.submit(event)
            if number == 2 and index == len(events) // 2:
                os.kill(os.getpid(), signal.SIGKILL)  # the power goes in the third game
            if not (unhooked and number == 1 and index == len(events) - 1):
                hook(app)  # (unhooked: the power went before the loop saw game 2 end)
""")


@pytest.mark.parametrize("seen", ["hooked", "unhooked"])
def test_a_power_cut_mid_evening_loses_no_finished_game(tmp_path, seen):
    """Two games played and a third half played at the table when the power goes: after
    the restart the league holds the two finished games (one recorded at the restart when
    the power went before the loop saw it end), whole, and nothing of the third."""
    from types import SimpleNamespace

    from tablekit.game.session import Session
    from tablekit.league.record import game_recorder

    path, journal = tmp_path / "league.sqlite", tmp_path / "game.jsonl"
    process = subprocess.run(
        [sys.executable, "-c", MID_EVENING, str(path), str(journal), *map(str, EVENING), seen],
        env={**os.environ, "PYTHONPATH": os.getcwd()}, timeout=120, capture_output=True,
        text=True)
    assert process.returncode == -signal.SIGKILL, process.stderr
    db = connect(path)
    recorded = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    assert recorded == (2 if seen == "hooked" else 1)
    session = Session.open(journal)                       # the restart
    game_recorder(db, journal)(SimpleNamespace(flow=SimpleNamespace(session=session)))
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 2
    per_game = db.execute("SELECT game_id, COUNT(*) FROM results GROUP BY game_id").fetchall()
    assert [count for _, count in per_game] == [4, 4]
    expected = _expected_table_of(EVENING[:2])
    table = {p.name: p for p in league_table(db)}
    assert {name: (p.games, p.points) for name, p in table.items()} == {
        name: (entry["games"], entry["points"]) for name, entry in expected.items()}


def test_an_evening_played_at_the_table_gives_the_logs_standings(tmp_path):
    """Three real games played through the flow as the table plays them (the camera's
    events, the buttons' presses, each win confirmed on screen), one journal and the
    league hook of ``tablekit run``: the league's table is what the logs' own final scores
    give (computed from their owari, not by tablekit)."""
    from types import SimpleNamespace

    from test_flow_restart import Table

    from tablekit.league.record import game_recorder

    class Evening(Table):
        def check(self) -> None:  # no power cuts here: test_flow_restart has them
            pass

    db = connect(tmp_path / "league.sqlite")
    games = [import_file(path) for path in EVENING]
    first = games[0]
    table = Evening(tmp_path, first.rules, first.start.names, first.start.first_dealer)
    hook = game_recorder(db, table.path)
    for number, game in enumerate(games):
        if number:  # the next game of the evening, under its own players
            table.flow.start_game(game.rules, game.start.names, game.start.first_dealer)
        for hand in game.hands:
            for event in hand.events:
                table.play(event)
                hook(SimpleNamespace(flow=table.flow))
            assert table.flow.session.state.result.deltas == hand.deltas
    assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 3
    expected = _expected_table()
    got = {p.name: (p.games, p.points, list(p.placements)) for p in league_table(db)}
    assert got == {name: (e["games"], e["points"], e["placements"])
                   for name, e in expected.items()}


def test_a_league_given_as_a_folder_is_refused_as_one_by_every_command(tmp_path, capsys):
    """``league --db DIR`` said "no league file at DIR", as if the folder were a typo."""
    from tablekit.cli import main

    assert main(["league", "--db", str(tmp_path)]) == 2
    assert f"{tmp_path} is a folder, not a league file" in capsys.readouterr().err
