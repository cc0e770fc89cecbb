"""The club over MQTT: tables publish from an outbox, the board records every game once.

The broker tests start a real mosquitto on a free local port (skipped where it is not
installed); the rest need none."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from mosquitto_broker import ACL, Broker, free_port

from tablekit.cli import main
from tablekit.club import client as club_client
from tablekit.club.address import ClubError, Credentials, read_credentials
from tablekit.club.board import SILENT_SECONDS, Board, NotYet
from tablekit.club.listener import listen
from tablekit.club.outbox import Outbox
from tablekit.club.publisher import Publisher
from tablekit.club.records import game_id, game_record
from tablekit.club.table import club_hook
from tablekit.club.topics import game_topic, state_topic
from tablekit.commands.club import join_club
from tablekit.formats.tenhou import import_file
from tablekit.game.events import GameStarted
from tablekit.game.journal import Journal
from tablekit.game.session import Session, _NoJournal
from tablekit.league.database import connect

DATA = Path(__file__).resolve().parents[1] / "tablekit" / "data"
GAME = import_file(DATA / "tenhou-python-bot-28.xml").events  # a finished game


def _record(game: str = "A-0-1-0000", table: str = "A") -> dict:
    return game_record(game, table, GAME, 1_800_000_000.0)


def _games(path: Path) -> list[str]:
    db = connect(path)
    try:
        return [key for (key,) in db.execute("SELECT game_key FROM games ORDER BY id")]
    finally:
        db.close()


def _wait(condition, seconds: float = 30.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


# --- the board, fed by hand ---------------------------------------------------------------


def test_a_game_delivered_twice_is_recorded_once(tmp_path):
    lines: list[str] = []
    board = Board(connect(tmp_path / "club.sqlite"), say=lines.append)
    payload = json.dumps(_record()).encode()
    board.take(game_topic("A", "A-0-1-0000"), payload)
    board.take(game_topic("A", "A-0-1-0000"), payload)
    assert board.recorded == 1 and _games(tmp_path / "club.sqlite") == ["club:A:A-0-1-0000"]
    assert len(lines) == 1 and lines[0].startswith("table A: game A-0-1-0000 recorded: ")


def test_a_message_the_board_cannot_take_is_one_line_and_nothing_recorded(tmp_path):
    lines: list[str] = []
    board = Board(connect(tmp_path / "club.sqlite"), say=lines.append)
    board.take(game_topic("A", "A-0-1-0000"), b"{not json")
    board.take(game_topic("B", "A-0-1-0000"), json.dumps(_record()).encode())
    board.take(game_topic("A", "A-0-2-0000"),
               b'{"game_id": "A-0-2-0000", "table": "A", "events": [1]}')
    assert board.recorded == 0 and _games(tmp_path / "club.sqlite") == []
    assert len(lines) == 3 and all("\n" not in line and "not" in line for line in lines)


def test_a_game_the_league_cannot_take_now_is_given_again_not_lost(tmp_path):
    path = tmp_path / "club.sqlite"
    board = Board(connect(path, timeout=0.1))
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another program writing the league
    payload = json.dumps(_record()).encode()
    with pytest.raises(NotYet, match="not recorded yet"):
        board.take(game_topic("A", "A-0-1-0000"), payload)
    other.execute("ROLLBACK")
    board.take(game_topic("A", "A-0-1-0000"), payload)
    assert board.recorded == 1 and _games(path) == ["club:A:A-0-1-0000"]


def test_a_table_is_silent_after_30_seconds_without_a_word():
    now = [0.0]
    board = Board(None, clock=lambda: now[0], wall=lambda: 1_800_000_000.0)
    board.take(state_topic("A"), b'{"round": "East 2"}')
    now[0] = SILENT_SECONDS - 1
    assert board.current()[1]["A"]["silent"] is False
    now[0] = SILENT_SECONDS
    version, tables = board.current()
    assert tables["A"] == {"state": {"round": "East 2"}, "silent": True, "games": 0,
                           "heard_at": 1_800_000_000.0}
    board.take(state_topic("A"), b'{"round": "East 3"}')
    assert board.current()[1]["A"]["silent"] is False and board.current()[0] > version


# --- the table's side, without a broker ---------------------------------------------------


def test_the_game_id_is_stable_and_names_the_table_and_start(tmp_path):
    journal = tmp_path / "game.jsonl"
    with Journal(journal) as out:
        out.append(GameStarted(), before=0)
    first = game_id("A", journal, 0)
    assert first == game_id("A", journal, 0) and first.startswith("A-20")
    assert game_id("B", journal, 0) != first


def test_the_hook_sends_the_state_on_each_change_and_the_game_once():
    sent: dict[str, list] = {"state": [], "game": []}
    publisher = SimpleNamespace(
        table="A", send_state=sent["state"].append,
        send_game=lambda key, record: sent["game"].append((key, record)))
    session = Session(_NoJournal(), list(GAME))  # type: ignore[arg-type]
    app = SimpleNamespace(flow=SimpleNamespace(session=session))
    hook = club_hook(publisher, clock=lambda: 0.0)
    hook(app)
    hook(app)  # nothing changed: nothing sent
    assert len(sent["state"]) == 1 and len(sent["game"]) == 1
    state = sent["state"][0]
    assert state["hands"] > 0 and len(state["scores"]) == 4 and state["phase"] == "game over"
    key, record = sent["game"][0]
    assert record["game_id"] == key and len(record["events"]) == len(GAME)


def test_the_hands_played_are_the_hands_finished_not_the_one_in_play():
    from tablekit.game.events import Chombo, Draw, HandStarted
    from tablekit.tiles import Tile

    sent: list[dict] = []
    publisher = SimpleNamespace(table="A", send_state=sent.append, send_game=None)
    session = Session(_NoJournal(), [])  # type: ignore[arg-type]
    app = SimpleNamespace(flow=SimpleNamespace(session=session))
    hook = club_hook(publisher, clock=lambda: 0.0)
    for event in (GameStarted(names=("Ana", "Ben", "Cho", "Dai")),
                  HandStarted(Tile.from_code("1m")), Draw(0, Tile.from_code("9p")), Chombo(2),
                  HandStarted(Tile.from_code("2m"))):
        session.submit(event)
        hook(app)
    assert [state["hands"] for state in sent] == [0, 0, 0, 1, 1]  # the first hand in play: 0


def test_a_finished_game_waits_on_disk_and_nothing_waits_on_the_network(tmp_path):
    dead = ("127.0.0.1", free_port())  # nothing listens
    lines: list[str] = []
    publisher = Publisher("A", dead, Outbox(tmp_path / "outbox"), report=lines.append).start()
    started = time.perf_counter()
    publisher.send_state({"round": "East 1"})
    publisher.send_game("A-0-1-0000", _record())
    assert time.perf_counter() - started < 0.5
    assert publisher.close() == 1 and len(Outbox(tmp_path / "outbox").waiting()) == 1
    assert any(line.startswith("cannot reach the broker") for line in lines)


def test_credentials_come_from_a_file_only_other_users_cannot_read(tmp_path):
    auth = tmp_path / "auth"
    auth.write_text("A\nsecret\n")
    os.chmod(auth, 0o640)
    with pytest.raises(ClubError, match="chmod 600"):
        read_credentials(auth)
    os.chmod(auth, 0o600)
    assert read_credentials(auth) == Credentials("A", "secret")
    assert "secret" not in repr(read_credentials(auth))
    with pytest.raises(ClubError, match="cannot read"):
        read_credentials(tmp_path / "none")


def test_the_club_command_refuses_a_wrong_broker_in_one_line(tmp_path, capsys):
    assert main(["club", "--broker", "http://club.local", "--db",
                 str(tmp_path / "club.sqlite")]) == 2
    err = capsys.readouterr().err
    assert err == "tablekit club: the broker is mqtt://HOST:PORT, not http://club.local\n"


# --- with a real broker ---------------------------------------------------------------------


@pytest.fixture
def quick(monkeypatch):
    """Reconnect every second, so that a test does not wait for the backoff."""
    monkeypatch.setattr(club_client, "RECONNECT", (1, 1))


class BoardRun:
    """``tablekit club``'s loop on a thread (its league opened there, as SQLite wants)."""

    def __init__(self, path: Path, broker: Broker, credentials: Credentials | None = None):
        self.lines: list[str] = []
        self.board = Board(None, say=self.lines.append)
        self.stop = threading.Event()
        self.path, self.broker, self.credentials = path, broker, credentials
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        self.board.db = connect(self.path)
        try:
            listen(self.board, self.broker.address, self.credentials, self.lines.append,
                   self.stop)
        finally:
            self.board.db.close()

    @property
    def recorded(self) -> int:
        return self.board.recorded

    @property
    def tables(self) -> dict:
        return self.board.tables

    def heard(self, table: str, key: str = "", value: object = None) -> bool:
        entry = self.board.tables.get(table)
        return entry is not None and (not key or entry["state"].get(key) == value)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=10)


@pytest.fixture
def club(tmp_path, quick):
    (tmp_path / "broker").mkdir()
    broker = Broker(tmp_path / "broker")
    broker.start()
    board = BoardRun(tmp_path / "club.sqlite", broker)
    publishers: list[Publisher] = []

    def table(name: str = "A", credentials: Credentials | None = None) -> Publisher:
        publisher = Publisher(name, broker.address, Outbox(tmp_path / f"{name}.outbox"),
                              credentials).start()
        publishers.append(publisher)
        return publisher

    yield SimpleNamespace(broker=broker, board=board, table=table, path=tmp_path)
    for publisher in publishers:
        publisher.close()
    board.close()
    broker.stop()


def _joined(club, publisher: Publisher, mark: str) -> None:
    """Wait until the board has heard ``publisher``'s state ``mark`` (so it is listening)."""
    publisher.send_state({"round": mark})
    assert _wait(lambda: club.board.heard(publisher.table, "round", mark))


def test_a_game_finished_while_the_broker_is_down_arrives_once_it_is_up(club):
    table = club.table("A")
    _joined(club, table, "East 1")
    club.broker.stop()
    started = time.perf_counter()
    table.send_game("A-0-1-0000", _record())
    assert time.perf_counter() - started < 0.5  # the loop only wrote the outbox
    time.sleep(1.5)
    assert table.waiting() == 1 and club.board.recorded == 0
    club.broker.start()
    assert _wait(lambda: club.board.recorded == 1)
    assert _wait(lambda: table.waiting() == 0)
    club.board.close()
    assert _games(club.path / "club.sqlite") == ["club:A:A-0-1-0000"]


def test_a_game_the_broker_delivers_twice_is_recorded_once(club):
    table = club.table("A")
    _joined(club, table, "East 1")
    table.send_game("A-0-1-0000", _record())
    table.send_game("A-0-1-0000", _record())  # as after a power cut at the game's end
    assert _wait(lambda: table.waiting() == 0)
    _joined(club, table, "after")  # everything sent before it has been delivered
    assert club.board.recorded == 1 and club.board.tables["A"]["games"] == 1
    club.board.close()
    assert _games(club.path / "club.sqlite") == ["club:A:A-0-1-0000"]


def test_a_restarted_table_sends_what_waits_in_its_outbox(club):
    before = club.table("A")
    _joined(club, before, "East 1")
    before.close()  # one process per table: the same client id
    club.broker.stop()
    first = Publisher("A", club.broker.address, Outbox(club.path / "A.outbox")).start()
    first.send_game("A-0-7-0000", _record("A-0-7-0000"))
    assert first.close() == 1  # the process stops with the game not sent
    club.broker.start()
    again = club.table("A")  # the table's process started again: same outbox
    assert _wait(lambda: club.board.recorded == 1)
    assert _wait(lambda: again.waiting() == 0)
    club.board.close()
    assert _games(club.path / "club.sqlite") == ["club:A:A-0-7-0000"]


def test_the_documented_acl_keeps_a_table_to_its_own_topics(tmp_path, quick):
    users = {"board": "board-pw", "A": "a-pw", "B": "b-pw"}
    broker = Broker(tmp_path, users).start()
    assert "pattern readwrite tablekit/club/tables/%u/#" in ACL  # the ACL tablekit ships
    board = BoardRun(tmp_path / "club.sqlite", broker, Credentials("board", "board-pw"))
    a_as_b = Publisher("B", broker.address, Outbox(tmp_path / "B.outbox"),
                       Credentials("A", "a-pw")).start()
    lines: list[str] = []
    wrong = Publisher("C", broker.address, Outbox(tmp_path / "C.outbox"),
                      Credentials("C", "guess"), report=lines.append).start()
    a = Publisher("A", broker.address, Outbox(tmp_path / "A.outbox"),
                  Credentials("A", "a-pw")).start()
    try:
        _joined(SimpleNamespace(board=board), a, "East 1")  # A writes its own topics
        a_as_b.send_state({"round": "South 4"})
        a_as_b.send_game("B-1", _record("B-1", "B"))
        assert _wait(lambda: a_as_b.waiting() == 0)  # the broker took it... and dropped it
        _joined(SimpleNamespace(board=board), a, "East 2")
        assert "B" not in board.board.tables and board.board.recorded == 0
        assert _wait(lambda: any("refused table C: not authorized" in line for line in lines))
    finally:
        for publisher in (a_as_b, wrong, a):
            publisher.close()
        board.close()
        broker.stop()


# --- tablekit run and simulate with --club ------------------------------------------------


def _run(tmp_path: Path, *argv: str) -> int:
    return main(["run", "--camera", "none", "--buttons", "none", "--display",
                 f"headless:{tmp_path / 'screens'}", "--frames", "2",
                 "--journal", str(tmp_path / "game.jsonl"), *argv])


def test_a_table_with_a_wrong_club_address_plays_on_saying_it_in_one_line(tmp_path, capsys):
    assert _run(tmp_path, "--club", "http://club.local", "--table", "A") == 0
    err = capsys.readouterr().err
    assert ("tablekit: club: the broker is mqtt://HOST:PORT, not http://club.local; the table "
            "plays without the club\n") in err and "Traceback" not in err
    with pytest.raises(ClubError, match="go with --club"):
        join_club(SimpleNamespace(club=None, table="A", club_auth=None), None, print)
    with pytest.raises(ClubError, match="needs --table"):
        join_club(SimpleNamespace(club="mqtt://h", table=None, club_auth=None), None, print)


def test_a_game_finished_at_a_table_is_recorded_once_however_often_it_starts(club, capsys):
    journal = club.path / "game.jsonl"
    session = Session.open(journal)
    for event in GAME:
        session.submit(event)
    session.close()
    assert _run(club.path, "--club", club.broker.url, "--table", "A") == 0
    assert _wait(lambda: club.board.recorded == 1)
    assert _run(club.path, "--club", club.broker.url, "--table", "A") == 0  # a power cut
    assert _wait(lambda: club.board.heard("A")) and club.board.recorded == 1
    assert len(club.board.tables["A"]["state"]["scores"]) == 4
    club.board.close()
    [key] = _games(club.path / "club.sqlite")
    assert key == f"club:A:{game_id('A', journal, 0)}" and "-0-" in key
    assert "club: connected to the broker" in capsys.readouterr().err


def test_a_card_that_cannot_keep_the_outbox_is_one_line_and_the_game_is_still_sent(tmp_path):
    (tmp_path / "file").write_text("")
    lines: list[str] = []
    dead = ("127.0.0.1", free_port())
    publisher = Publisher("A", dead, Outbox(tmp_path / "file" / "outbox"),
                          report=lines.append).start()
    publisher.send_game("A-0-1-0000", _record())  # no exception into the game loop
    assert any(line.startswith("cannot keep game A-0-1-0000 in ") for line in lines)
    assert publisher.close() == 0  # nothing on disk: it waited in memory
