"""A club that survives a hostile or broken table: what the board refuses (one line,
counted, acknowledged, never recorded), what a table's outbox sets aside, a league the
board cannot read back, and names that look alike."""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import struct
import threading
import time
from pathlib import Path

import pytest
from mosquitto_broker import Broker, free_port
from test_club import BoardRun, quick  # noqa: F401  (quick: a fixture, used by name)

from tablekit.cli import main
from tablekit.club.address import ClubError
from tablekit.club.board import FORGET_SECONDS, Board, NotYet
from tablekit.club.outbox import Outbox
from tablekit.club.publisher import Publisher
from tablekit.club.records import game_record
from tablekit.club.topics import check_table, game_topic, state_topic
from tablekit.formats.tenhou import import_file
from tablekit.league.database import connect
from tablekit.league.record import record_game
from tablekit.league.roster import choose_players, read_roster
from tablekit.web.app import state_json
from tablekit.web.board import BoardSource

DATA = Path(__file__).resolve().parents[1] / "tablekit" / "data"
GAME = import_file(DATA / "tenhou-python-bot-28.xml").events  # a finished game
ID = "A-0-1-0000"
DEEP = b"[" * 200_000 + b"]" * 200_000


def _record(game: str = ID, table: str = "A") -> dict:
    return game_record(game, table, GAME, 1_800_000_000.0)


def _keys(path: Path) -> list[str]:
    db = connect(path)
    try:
        return [key for (key,) in db.execute("SELECT game_key FROM games ORDER BY id")]
    finally:
        db.close()


def _board(path: Path, **options) -> tuple[Board, list[str]]:
    lines: list[str] = []
    return Board(connect(path), say=lines.append, **options), lines


def _one_line_each(lines: list[str], count: int) -> bool:
    return len(lines) == count and all("\n" not in line and "\r" not in line
                                       for line in lines)


# --- 1. one message never kills the board --------------------------------------------------


def test_a_state_nested_200000_deep_is_one_line_and_the_board_goes_on(tmp_path):
    board, lines = _board(tmp_path / "club.sqlite")
    board.take(state_topic("A"), DEEP)  # returns: the listener acknowledges it
    board.take(game_topic("A", ID), DEEP)
    assert board.refused == 2 and _one_line_each(lines, 2)
    assert "nested more than 32 deep" in lines[0] and board.current()[1] == {}
    board.take(game_topic("A", ID), json.dumps(_record()).encode())
    assert board.recorded == 1 and _keys(tmp_path / "club.sqlite") == [f"club:A:{ID}"]


def _with(change) -> bytes:
    record = _record()
    change(record, record["events"][0])
    return json.dumps(record, ensure_ascii=False).encode()


def _penalty(points) -> bytes:
    record = _record()
    record["events"].insert(2, {"type": "penalty", "seat": 0, "points": 12345})
    return json.dumps(record).replace("12345", str(points)).encode()


HOSTILE = {
    "names as numbers": _with(lambda r, start: start.update(names=[1, 2, 3, 4])),
    "names as a dict": _with(lambda r, start: start.update(names={"Ana": 1})),
    "three names, four-player rules": _with(
        lambda r, start: start.update(names=["Ana", "Ben", "Cho"])),
    "players 5": _with(lambda r, start: start["rules"].update(players=5)),
    "a penalty of 10**400": _penalty(10 ** 400),
    "a penalty of 10**9": _penalty(10 ** 9),
    "start points of 10**12": _with(
        lambda r, start: start["rules"].update(start_points=10 ** 12,
                                               return_points=10 ** 12)),
    "a name with a NUL": _with(lambda r, start: start.update(names=["A\x00", "B", "C", "D"])),
    "a name with RLO": _with(lambda r, start: start.update(names=["A\u202e", "B", "C", "D"])),
    "a name with a newline": _with(lambda r, start: start.update(names=["A\nB", "B", "C", "D"])),
    "a name 1 MB long": _with(lambda r, start: start.update(names=["A" * 1_000_000, "B", "C",
                                                                   "D"])),
    "a name 100 characters long": _with(lambda r, start: start.update(
        names=["A" * 100, "B", "C", "D"])),
    "played_at holding a script": _with(
        lambda r, start: r.update(played_at="<script>alert(1)</script>")),
    "NaN": _with(lambda r, start: None).replace(b'"first_dealer": 0', b'"first_dealer": NaN'),
    "a seat of 9": _with(lambda r, start: r["events"][3].update(seat=9)),
    "an event of no type": _with(lambda r, start: r["events"].append({"seat": 1})),
}


@pytest.mark.parametrize("case", HOSTILE)
def test_a_hostile_game_is_refused_in_one_line_and_nothing_recorded(tmp_path, case):
    board, lines = _board(tmp_path / "club.sqlite")
    board.take(game_topic("A", ID), HOSTILE[case])  # never raises: acknowledged
    assert board.recorded == 0 and _keys(tmp_path / "club.sqlite") == []
    assert board.refused == 1 and _one_line_each(lines, 1), lines
    assert lines[0].startswith("table A: a message refused, not recorded: ")
    assert len(lines[0]) < 300 and "\x00" not in lines[0] and "\u202e" not in lines[0]


def test_a_retained_deep_state_does_not_kill_a_fresh_board(tmp_path, quick):  # noqa: F811
    import paho.mqtt.client as mqtt

    (tmp_path / "broker").mkdir()
    broker = Broker(tmp_path / "broker").start()
    evil = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="evil")
    evil.connect(*broker.address)
    evil.loop_start()
    evil.publish(state_topic("A"), DEEP, qos=1, retain=True).wait_for_publish(10)
    evil.publish(state_topic("B"), b'{"round": NaN}', qos=1, retain=True).wait_for_publish(10)
    evil.disconnect()
    evil.loop_stop()
    board = BoardRun(tmp_path / "club.sqlite", broker)
    deadline = time.monotonic() + 30  # the board subscribed: a game is kept for it from now
    while board.board.refused < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    table = Publisher("A", broker.address, Outbox(tmp_path / "A.outbox")).start()
    try:
        table.send_game(ID, _record())
        deadline = time.monotonic() + 30
        while board.recorded < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert board.recorded == 1 and board.thread.is_alive()
        assert board.board.refused == 2 and sorted(board.tables) == ["A"]
    finally:
        table.close()
        board.close()
        broker.stop()


# --- 2. a NaN never blanks the page --------------------------------------------------------


def test_a_nan_in_a_state_never_reaches_the_page(tmp_path):
    board = Board(None)
    board.take(state_topic("A"), b'{"round": "East 1", "scores": [NaN, 25000, 25000, 25000]}')
    board.take(state_topic("B"), b'{"round": "East 2", "changed_at": 1e999}')
    board.take(state_topic("C"), b'{"round": "East 3", "scores": [25000, 25000, 25000, 25000]}')
    assert board.refused == 2
    body = state_json(BoardSource(board).current()[1])
    refuse = {"NaN": None, "Infinity": None, "-Infinity": None}
    state = json.loads(body, parse_constant=lambda name: refuse[name] or 1 / 0)
    assert [table["name"] for table in state["tables"]] == ["C"]
    assert state_json({"scores": [float("nan")], "at": float("-inf")}) == (
        b'{"scores": [null], "at": null}')


# --- 3. a table cannot take another table's game ids ---------------------------------------


def test_a_table_cannot_squat_another_tables_game_id(tmp_path):
    path = tmp_path / "club.sqlite"
    board, lines = _board(path)
    squat = "2-0-1-0000"
    board.take(game_topic("1", squat), json.dumps(_record(squat, "1")).encode())
    board.take(game_topic("1", squat), json.dumps(_record(squat, "2")).encode())
    assert board.recorded == 0 and board.refused == 2 and _one_line_each(lines, 2)
    board.take(game_topic("2", squat), json.dumps(_record(squat, "2")).encode())
    assert board.recorded == 1 and _keys(path) == [f"club:2:{squat}"]
    # a game an older board recorded (keyed club:ID) is still known: not recorded again
    record_game(board.db, GAME, key=f"club:{ID}")
    board.take(game_topic("A", ID), json.dumps(_record()).encode())
    assert board.recorded == 1 and _keys(path) == [f"club:2:{squat}", f"club:{ID}"]


# --- 4. no nonsense from the wire ----------------------------------------------------------


@pytest.mark.parametrize("name", ["board", "organiser", "Board"])
def test_the_club_s_own_users_cannot_name_a_table(tmp_path, name):
    with pytest.raises(ClubError, match="cannot name a table"):
        check_table(name)
    board, _ = _board(tmp_path / "club.sqlite")
    game = f"{name}-0-1-0000"
    board.take(game_topic(name, game), json.dumps(_record(game, name)).encode())
    board.take(state_topic(name), b'{"round": "East 1"}')
    assert board.recorded == 0 and board.refused == 2 and board.current()[1] == {}
    assert _keys(tmp_path / "club.sqlite") == []


def test_a_made_up_table_silent_for_an_hour_leaves_the_page_one_with_games_stays(tmp_path):
    now = [0.0]
    board, _ = _board(tmp_path / "club.sqlite", clock=lambda: now[0])
    board.take(state_topic("ghost"), b'{"round": "East 1"}')
    board.take(game_topic("A", ID), json.dumps(_record()).encode())
    now[0] = FORGET_SECONDS - 1
    assert sorted(board.current()[1]) == ["A", "ghost"]
    now[0] = FORGET_SECONDS
    tables = board.current()[1]
    assert sorted(tables) == ["A"] and tables["A"]["silent"] and tables["A"]["games"] == 1


# --- 5. a league the board cannot read back ------------------------------------------------


def _damage(path: Path) -> None:
    """Spoil the first row of the league's games table, as a bad card does: SQLite still
    appends to the file, and reading the league stops there ("malformed")."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'games'").fetchone()[0]
    db.close()
    data = bytearray(path.read_bytes())
    size = struct.unpack(">H", data[16:18])[0]
    page = (root - 1) * size
    cell = page + struct.unpack(">H", data[page + 8:page + 10])[0]
    data[cell + 2:cell + 6] = b"\xff" * 4
    path.write_bytes(bytes(data))


def _league_with_a_game(path: Path) -> None:
    db = connect(path)
    record_game(db, GAME, key="earlier")
    db.close()
    _damage(path)


def test_the_club_command_refuses_a_league_it_cannot_read_back_before_connecting(
        tmp_path, capsys):
    path = tmp_path / "club.sqlite"
    _league_with_a_game(path)
    assert main(["league", "--db", str(path)]) == 2  # what `tablekit league` says of it
    assert "malformed" in capsys.readouterr().err
    result: list[int] = []
    started = threading.Thread(target=lambda: result.append(main(
        ["club", "--broker", f"mqtt://127.0.0.1:{free_port()}", "--db", str(path)])),
        daemon=True)
    started.start()
    started.join(timeout=20)
    assert result == [2]
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot be read back" in err and "malformed" in err


def test_a_game_is_not_acknowledged_into_a_league_it_cannot_read_back(tmp_path):
    path = tmp_path / "club.sqlite"
    _league_with_a_game(path)
    board, _ = _board(path)
    with pytest.raises(NotYet, match="cannot be read back"):  # the broker gives it again
        board.take(game_topic("A", ID), json.dumps(_record()).encode())
    assert board.recorded == 0
    db = sqlite3.connect(path)
    assert db.execute("SELECT COUNT(*) FROM results").fetchone() == (4,)  # nothing added
    db.close()


# --- 6. the outbox ----------------------------------------------------------------------


BAD_FILES = {
    "wildcard.json": json.dumps({"topic": "tablekit/club/tables/A/games/#",
                                 "payload": _record()}),
    "empty.json": json.dumps({"topic": "", "payload": _record()}),
    "other.json": json.dumps({"topic": game_topic("B", "B-0-1-0000"),
                              "payload": _record("B-0-1-0000", "B")}),
    "deep.json": DEEP.decode(),
    "nan.json": json.dumps({"topic": game_topic("A", ID), "payload": _record()}).replace(
        '"first_dealer": 0', '"first_dealer": NaN'),
}


def test_a_bad_outbox_file_is_set_aside_in_one_line_and_the_publisher_goes_on(tmp_path):
    box = Outbox(tmp_path / "A.outbox")
    for name, text in BAD_FILES.items():
        box.folder.mkdir(exist_ok=True)
        (box.folder / name).write_text(text)
    good = box.put(game_topic("A", ID), _record())
    lines: list[str] = []
    table = Publisher("A", ("127.0.0.1", free_port()), box, report=lines.append).start()
    try:
        time.sleep(0.5)
        assert table._thread.is_alive() and table.waiting() == 1
        left = sorted(path.name for path in box.folder.iterdir())
        assert left == sorted([good, *(f"{name}.bad" for name in BAD_FILES)])
        aside = [line for line in lines if "set aside" in line]
        assert _one_line_each(aside, len(BAD_FILES))
    finally:
        table.close()


def test_a_full_card_leaves_no_part_file_in_the_outbox(tmp_path, monkeypatch):
    def full(_fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    box = Outbox(tmp_path / "A.outbox")
    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError, match="No space left"):
        box.put(game_topic("A", ID), _record())
    assert list(box.folder.iterdir()) == []


# --- 7. names that look alike --------------------------------------------------------------


def test_look_alike_names_are_said_naming_both(tmp_path, capsys):
    roster = tmp_path / "roster.txt"
    roster.write_text("\n".join(["Aki", "Ben", "Cho", "Dai", "Emi", "Fay", "Gus",
                                 "\u0410ki"]) + "\n", encoding="utf-8")
    lines: list[str] = []
    assert len(read_roster(roster, warn=lines.append)) == 8
    assert len(lines) == 1 and "'Aki' and '\u0410ki' look alike" in lines[0]
    assert "CYRILLIC CAPITAL LETTER A" in lines[0]
    lines.clear()
    choose_players("Aki, Ben, \u0410ki, Dai", warn=lines.append)
    assert len(lines) == 1 and lines[0].startswith("players: 'Aki' and '\u0410ki'")
    assert main(["tournament", "seat", "--players", str(roster), "--rounds", "1",
                 "--out", str(tmp_path / "plan.json"), "--seed", "1"]) == 0
    err = capsys.readouterr().err
    assert "look alike" in err and err.count("\n") == 1
