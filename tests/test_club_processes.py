"""The club end to end, each part its own process: a real mosquitto (the configuration and
ACL tablekit ships, each table and the board its own user), the board
(``tablekit club``) and four tables (``tablekit simulate --club``) playing four real games
(``fixtures/club/``: four short Tenhou logs) with the truth reader. Midway the broker is
stopped and started again a few seconds later, and one table's process is killed and started
again; the club's league ends with every game exactly once, each player's points those of
the log's ``owari``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from mosquitto_broker import Broker, free_port

from tablekit.formats.mjlog import Agari, Ryuukyoku, read_mjlog
from tablekit.league.database import games_recorded, read_only

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "club"
LOGS = (  # four short games (1-3 hands) that the truth reader plays to Tenhou's owari
    "houou-statistics-examplelog3.xml",
    "2022010807gm-00e1-0000-10f06d23.xml",
    "2022010115gm-00e1-0000-ca85f50c.xml",
    "2022011020gm-00a9-0000-de6e4a2a.xml",
)
TABLECLI = "from tablekit.cli import main; raise SystemExit(main())"


def _owari(log: Path) -> dict[str, int]:
    """Each player's final points, as Tenhou wrote them at the game's end."""
    game = read_mjlog(log)
    last = next(e for e in reversed(game.events) if isinstance(e, (Agari, Ryuukyoku)))
    assert last.final is not None
    return dict(zip(game.names, last.final, strict=True))


def _lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except OSError:
        return 0


def _until(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"not within {seconds:g} s: {what}"
        time.sleep(0.2)


@pytest.mark.slow
def test_four_tables_and_a_board_record_every_game_once_through_failures(tmp_path):
    logs = [FIXTURES / name for name in LOGS]
    (tmp_path / "broker").mkdir()
    users = {"board": "board-pw", **{f"T{i}": f"T{i}-pw" for i in range(4)}}
    broker = Broker(tmp_path / "broker", users).start()  # the shipped config, users and ACL
    for user, password in users.items():
        (tmp_path / f"{user}.auth").write_text(f"{user}\n{password}\n")
        (tmp_path / f"{user}.auth").chmod(0o600)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_STATE_HOME": str(tmp_path / "state")}
    processes: list[subprocess.Popen] = []

    def start(name: str, *argv: str) -> subprocess.Popen:
        with (tmp_path / f"{name}.out").open("ab") as out, \
                (tmp_path / f"{name}.err").open("ab") as err:
            process = subprocess.Popen([sys.executable, "-c", TABLECLI, *argv], cwd=tmp_path,
                                       env=env, stdout=out, stderr=err)
        processes.append(process)
        return process

    def table(index: int) -> subprocess.Popen:
        return start(f"T{index}", "simulate", str(logs[index]), "--reader", "truth",
                     "--club", broker.url, "--table", f"T{index}",
                     "--club-auth", str(tmp_path / f"T{index}.auth"),
                     "--journal", str(tmp_path / f"T{index}.jsonl"))

    try:
        page = f"http://127.0.0.1:{free_port()}"
        board = start("board", "club", "--broker", broker.url, "--db",
                      str(tmp_path / "club.sqlite"), "--web", page.removeprefix("http://"),
                      "--club-auth", str(tmp_path / "board.auth"))
        _until(lambda: b"connected" in (tmp_path / "board.err").read_bytes(), 60,
               "the board connects")
        tables = [table(index) for index in range(4)]
        # midway: every game under way (its journal growing)
        _until(lambda: all(_lines(tmp_path / f"T{i}.jsonl") > 20 for i in range(4)), 300,
               "the four games start")
        assert tables[1].poll() is None, "table T1 ended before it could be killed"
        tables[1].send_signal(signal.SIGKILL)  # a table's power cut: its game is lost
        tables[1].wait()
        tables[1] = table(1)  # ... and played again from the start
        broker.stop()
        time.sleep(3)
        broker.start()
        for process in tables:
            assert process.wait(timeout=900) == 0
        for index in range(4):  # every table's outbox emptied: the broker has each game
            assert not list((tmp_path / f"T{index}.jsonl.club-outbox").glob("*.json"))
        db_path = tmp_path / "club.sqlite"
        _until(lambda: games_recorded(db_path) >= 4, 60, "the board records four games")
        time.sleep(1)  # a fifth (a game recorded twice) would come now
        # the board's page: every table with its one game, the league of its 16 results
        seen = json.loads(urllib.request.urlopen(page + "/state", timeout=10).read())
        assert [(t["name"], t["games"]) for t in seen["tables"]] == [
            (f"T{i}", 1) for i in range(4)]
        assert sum(player["games"] for player in seen["league"]) == 16
        board.send_signal(signal.SIGTERM)
        assert board.wait(timeout=30) == 0
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
        broker.stop()
    db = read_only(tmp_path / "club.sqlite")
    rows = db.execute("SELECT g.game_key, p.name, r.points FROM games g JOIN results r ON"
                      " r.game_id = g.id JOIN players p ON p.id = r.player_id").fetchall()
    games: dict[str, dict[str, int]] = {}
    for key, name, points in rows:
        games.setdefault(key, {})[name] = points
    tables_seen = sorted(key.split(":")[1] for key in games)  # club:TABLE:GAME-ID
    assert tables_seen == ["T0", "T1", "T2", "T3"], sorted(games)
    for key, points in games.items():
        log = logs[int(key.split(":")[1][1:])]
        assert points == _owari(log), key
    recorded = (tmp_path / "board.out").read_text().splitlines()
    assert len([line for line in recorded if " recorded: " in line]) == 4
