"""The club's broker as tablekit ships it (``tablekit club --print-config``, ``--print-acl``),
against a real mosquitto started with exactly those files (only the port, the files' paths
and the store changed: ``mosquitto_broker.py``): a table's password cannot take the board's
session or another table's, the board and the organiser cannot publish a game, the board's
queue keeps games and not states, and the broker starts without a warning. Then the board's
first connection (one line, no league file, when it fails) and ``tablekit club --local``."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from mosquitto_broker import Broker, free_port
from paho.mqtt import client as mqtt
from test_club import _wait

from tablekit.cli import main
from tablekit.club import client as club_client
from tablekit.club.address import Credentials
from tablekit.club.board import Board
from tablekit.club.listener import listen
from tablekit.club.outbox import Outbox
from tablekit.club.publisher import Publisher
from tablekit.club.records import game_record
from tablekit.club.topics import game_topic, state_topic
from tablekit.files.resources import packaged
from tablekit.formats.tenhou import import_file
from tablekit.game.session import Session
from tablekit.league.database import connect

ROOT = Path(__file__).resolve().parents[1]
GAME = import_file(ROOT / "tablekit" / "data" / "tenhou-python-bot-28.xml").events
USERS = {"board": "board-pw", "organiser": "org-pw", "1": "one-pw", "2": "two-pw"}
TABLECLI = "from tablekit.cli import main; raise SystemExit(main())"


def _record(game: str, table: str) -> dict:
    return game_record(game, table, GAME, 1_800_000_000.0)


@pytest.fixture(autouse=True)
def quick(monkeypatch):
    monkeypatch.setattr(club_client, "RECONNECT", (1, 1))


@pytest.fixture
def broker(tmp_path):
    (tmp_path / "broker").mkdir()
    running = Broker(tmp_path / "broker", USERS).start()
    yield running
    running.stop()


class Counting(Board):
    """The board, counting the states it is given."""

    states = 0

    def take(self, topic: str, payload: bytes) -> None:
        if topic.endswith("/state"):
            self.states += 1
        super().take(topic, payload)


class BoardRun:
    """The board's loop (``tablekit club``'s) on a thread, as the user ``board``."""

    def __init__(self, path: Path, broker: Broker) -> None:
        self.lines: list[str] = []
        self.board = Counting(None, say=self.lines.append)
        self.stop = threading.Event()
        self.path, self.broker = path, broker
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert _wait(lambda: any(line.startswith("connected") for line in self.lines))

    def _run(self) -> None:
        self.board.db = connect(self.path)
        try:
            listen(self.board, self.broker.address, Credentials("board", USERS["board"]),
                   self.lines.append, self.stop)
        finally:
            self.board.db.close()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=10)


def _client(broker: Broker, user: str, client_id: str, clean: bool = True) -> mqtt.Client:
    """A bare paho client logged in as ``user`` (connected, its loop running)."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                         clean_session=clean, protocol=mqtt.MQTTv311)
    client.username_pw_set(user, USERS[user])
    client.connect(*broker.address)
    client.loop_start()
    assert _wait(client.is_connected, 10), f"{user} did not connect"
    return client


def _table(tmp_path: Path, broker: Broker, name: str, lines: list[str] | None = None
           ) -> Publisher:
    report = lines.append if lines is not None else (lambda line: None)
    return Publisher(name, broker.address, Outbox(tmp_path / f"{name}.outbox"),
                     Credentials(name, USERS[name]), report=report).start()


def _heard(board: BoardRun, table: Publisher, mark: str) -> None:
    table.send_state({"round": mark})
    assert _wait(lambda: (board.board.tables.get(table.table) or {}).get(
        "state", {}).get("round") == mark), f"the board did not hear {mark}"


def test_a_tables_password_cannot_take_the_boards_session_and_its_games(tmp_path, broker):
    """The board's session (the user's) keeps its game through the intruder and the
    broker's restart."""
    board = BoardRun(tmp_path / "club.sqlite", broker)
    board.close()  # the board away: the broker keeps its games
    table = _table(tmp_path, broker, "1")
    try:
        table.send_game("1-0-1-0000", _record("1-0-1-0000", "1"))
        assert _wait(lambda: table.waiting() == 0)  # acknowledged to the table
        # table 1's password, the board's client id, a clean session
        intruder = _client(broker, "1", "tablekit-board", clean=True)
        intruder.disconnect()
        intruder.loop_stop()
        broker.stop()  # and the broker restarted: the board's session is in its store
        broker.start()
        board = BoardRun(tmp_path / "club.sqlite", broker)  # the board back
        assert _wait(lambda: board.board.recorded == 1, 10), "the board's game was lost"
        board.close()
    finally:
        table.close()


def test_a_tables_password_cannot_push_another_table_off(tmp_path, broker):
    lines: list[str] = []
    two = _table(tmp_path, broker, "2", lines)
    try:
        assert _wait(lambda: any(line.startswith("connected") for line in lines))
        intruder = _client(broker, "1", "2")  # table 1's password, table 2's client id
        time.sleep(1.5)
        intruder.disconnect()
        intruder.loop_stop()
        assert not [line for line in lines if line.startswith("lost")], lines
    finally:
        two.close()


@pytest.mark.parametrize("user", ["board", "organiser"])
def test_the_board_and_the_organiser_cannot_publish_a_game(tmp_path, broker, user):
    board = BoardRun(tmp_path / "club.sqlite", broker)
    one = _table(tmp_path, broker, "1")
    sender = _client(broker, user, f"x-{user}")
    try:
        for table in (user, "1"):  # under its own name (the %u pattern), and a table's
            record = json.dumps(_record(f"{table}-0-9-0000", table)).encode()
            sender.publish(game_topic(table, f"{table}-0-9-0000"), record, qos=1
                           ).wait_for_publish(5)
            sender.publish(state_topic(table), b'{"round": "South 4"}', qos=1
                           ).wait_for_publish(5)
        _heard(board, one, "East 1")  # what it sent before this has come, if it came
        assert board.board.recorded == 0 and set(board.board.tables) == {"1"}
    finally:
        sender.disconnect()
        sender.loop_stop()
        one.close()
        board.close()


def test_the_broker_starts_with_the_shipped_files_and_no_warning(broker):
    config = broker.config.read_text()
    shipped = packaged("data", "club-mosquitto.conf").read_text()
    kept = [line for line in shipped.splitlines()
            if not line.startswith(("listener ", "password_file ", "acl_file ",
                                    "autosave_interval "))]
    assert all(line in config.splitlines() for line in kept)
    broker.stop()  # mosquitto said all it says at start
    said = [line for line in broker.log().splitlines()
            if "Warning" in line and "should not be run as root" not in line]
    assert said == []


def test_the_board_is_kept_games_not_states_while_it_is_away(tmp_path, broker):
    board = BoardRun(tmp_path / "club.sqlite", broker)
    board.close()
    flood = _client(broker, "1", "1-flood")  # a table sending 1,500 states
    for n in range(1500):
        info = flood.publish(state_topic("1"), json.dumps({"round": f"R{n}"}).encode(), qos=1,
                             retain=True)
    info.wait_for_publish(30)
    game = json.dumps(_record("1-0-1-0000", "1")).encode()
    flood.publish(game_topic("1", "1-0-1-0000"), game, qos=1).wait_for_publish(10)
    flood.disconnect()
    flood.loop_stop()
    board = BoardRun(tmp_path / "club.sqlite", broker)
    try:
        assert _wait(lambda: board.board.recorded == 1, 15), "the game was pushed out"
        time.sleep(0.5)
        assert board.board.states <= 2  # the table's latest (retained), not 1,500
        assert board.board.tables["1"]["state"] == {"round": "R1499"}
    finally:
        board.close()


def test_the_broker_keeps_more_than_a_thousand_games_for_the_board(tmp_path, broker):
    away = _client(broker, "board", "board", clean=False)
    away.subscribe("tablekit/club/tables/+/games/+", qos=1)
    time.sleep(0.3)
    away.disconnect()
    away.loop_stop()
    table = _client(broker, "1", "1")
    for n in range(1500):  # small stand-ins for games: the broker counts messages
        info = table.publish(game_topic("1", f"1-{n}"), b"{}", qos=1)
    info.wait_for_publish(30)
    table.disconnect()
    table.loop_stop()
    got: list[str] = []
    back = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="board",
                       clean_session=False, protocol=mqtt.MQTTv311)
    back.username_pw_set("board", USERS["board"])
    back.on_message = lambda _c, _d, message: got.append(message.topic)
    back.connect(*broker.address)
    back.loop_start()
    try:
        assert _wait(lambda: len(got) >= 1500, 20), f"{len(got)} of 1500 games kept"
    finally:
        back.disconnect()
        back.loop_stop()


# --- tablekit club: its first connection, the shipped files, a club on this machine --------


def _club(argv: list[str], seconds: float = 30.0) -> int | None:
    """``tablekit club ARGV``'s exit status (None: still running after ``seconds``)."""
    done: list[int] = []
    thread = threading.Thread(target=lambda: done.append(main(["club", *argv])), daemon=True)
    thread.start()
    thread.join(seconds)
    return done[0] if done else None


def test_a_broker_that_does_not_answer_stops_the_board_in_one_line_without_a_league(
        tmp_path, capsys):
    db = tmp_path / "club.sqlite"
    assert _club(["--broker", f"mqtt://127.0.0.1:{free_port()}", "--db", str(db)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("tablekit club: cannot reach the broker mqtt://")
    assert not db.exists()


def test_a_broker_that_refuses_the_board_stops_it_in_one_line_saying_what_to_give(
        tmp_path, broker, capsys):
    db = tmp_path / "club.sqlite"
    assert _club(["--broker", broker.url, "--db", str(db)]) == 2
    assert capsys.readouterr().err == (
        f"tablekit club: the broker {broker.url} refused the board: not authorized (give "
        "--club-auth FILE: the user name and password of the board)\n")
    assert not db.exists()
    lines: list[str] = []
    anonymous = Publisher("2", broker.address, Outbox(tmp_path / "outbox"),
                          report=lines.append).start()
    try:
        assert _wait(lambda: lines)
        assert lines[0] == (f"the broker {broker.url} refused table 2: not authorized (give "
                            "--club-auth FILE: the user name and password of table 2); tried "
                            "again until it answers")
    finally:
        anonymous.close()


def test_the_club_command_prints_the_shipped_config_and_acl(capsys):
    assert main(["club", "--print-config"]) == 0
    assert capsys.readouterr().out == packaged("data", "club-mosquitto.conf").read_text()
    assert main(["club", "--print-acl"]) == 0
    assert capsys.readouterr().out == packaged("data", "club-mosquitto.acl").read_text()
    docs = (ROOT / "docs" / "club.md").read_text()
    assert "tablekit club --print-config" in docs and "tablekit club --print-acl" in docs


def test_a_local_club_starts_records_a_tables_game_and_stops_on_ctrl_c(tmp_path):
    folder = tmp_path / "club"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_STATE_HOME": str(tmp_path / "state")}
    out, err = tmp_path / "club.out", tmp_path / "club.err"
    with out.open("wb") as stdout, err.open("wb") as stderr:
        club = subprocess.Popen([sys.executable, "-c", TABLECLI, "club", "--local",
                                 str(folder), "--tables", "2"], cwd=tmp_path, env=env,
                                stdout=stdout, stderr=stderr)
    try:
        assert _wait(lambda: b"recording the club's games" in err.read_bytes(), 60), \
            err.read_text()
        printed = out.read_text()
        run = re.search(r"\(a real table: (tablekit run [^)]*)\)", printed)
        assert run and "--table 1 --club-auth" in run[1], printed
        assert len(re.findall(r"^  tablekit simulate .* --club-auth ", printed, re.M)) == 2
        journal = tmp_path / "game.jsonl"  # a finished game, as a table's journal keeps it
        session = Session.open(journal)
        for event in GAME:
            session.submit(event)
        session.close()
        argv = [*run[1].split()[1:], "--camera", "none", "--buttons", "none", "--display",
                f"headless:{tmp_path / 'screens'}", "--frames", "2", "--journal", str(journal)]
        assert main(argv) == 0
        assert _wait(lambda: " recorded: " in out.read_text(), 30), out.read_text()
        club.send_signal(signal.SIGINT)
        assert club.wait(timeout=30) == 0
        said = err.read_text()
        assert "stopped; 1 game(s) recorded" in said and "the broker stopped" in said
        port = int(re.search(r"mqtt://127\.0\.0\.1:(\d+)", printed)[1])
        with pytest.raises(OSError):  # the broker stopped with the board
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
    finally:
        if club.poll() is None:
            club.kill()
            club.wait()


# --- the flood (benchmarks/club_flood.py, smaller) -----------------------------------------


@pytest.mark.slow
def test_every_game_is_recorded_once_through_a_flood_of_states_with_the_board_stopped(
        tmp_path):
    spec = importlib.util.spec_from_file_location("club_flood",
                                                  ROOT / "benchmarks" / "club_flood.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    # 2,000 states (twice mosquitto's default queue) and 8 games, the board away 5 s
    result = bench.flood(tmp_path, states=2000, games=8, tables=4, away=5.0, patience=60.0,
                         say=lambda line: None)
    assert result["acknowledged"] == result["recorded"] == 8, result
    assert result["recorded_once"] and result["broker_drop_notices"] == 0, result


def test_the_club_command_without_a_broker_or_a_local_club_says_what_to_give(tmp_path, capsys):
    assert main(["club", "--db", str(tmp_path / "club.sqlite")]) == 2
    assert capsys.readouterr().err == (
        "tablekit club: give --broker mqtt://HOST:PORT and --db club.sqlite (or --local DIR "
        "to try a club on this machine)\n")
    assert not (tmp_path / "club.sqlite").exists()
