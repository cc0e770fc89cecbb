"""The club's board page: every table live and the league, and a real headless browser
showing a table's change within a second of its message to the broker."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from mosquitto_broker import Broker
from test_web import _browser, screenshot_shows

from tablekit.cli import main
from tablekit.club.board import SILENT_SECONDS, Board
from tablekit.club.listener import listen
from tablekit.club.outbox import Outbox
from tablekit.club.publisher import Publisher
from tablekit.club.records import game_record
from tablekit.club.topics import game_topic, state_topic
from tablekit.formats.tenhou import import_file
from tablekit.league.database import connect
from tablekit.web.board import BoardSource, board_page, table_view
from tablekit.web.server import WebServer

DATA = Path(__file__).resolve().parents[1] / "tablekit" / "data"
NAMES = ["<b>Aki</b>", "Ben & co", "Cho", "Dai"]


def _state(round_label: str = "East 1", scores=(25000, 25000, 25000, 25000)) -> dict:
    return {"round": round_label, "phase": "playing", "scores": list(scores), "names": NAMES,
            "dealer": 0, "honba": 1, "deposits": 2, "hands": 3, "changed_at": 0.0}


def test_the_page_state_has_every_table_and_the_league_after_a_game(tmp_path):
    clock = [0.0]
    db = connect(tmp_path / "club.sqlite")
    board = Board(db, clock=lambda: clock[0], wall=lambda: 1_800_000_000.0)
    source = BoardSource(board, tmp_path / "club.sqlite")
    board.take(state_topic("T1"), json.dumps(_state()).encode())
    board.take(state_topic("T2"), json.dumps(_state("South 4")).encode())
    version, state = source.current()
    assert source.current()[0] == version  # nothing changed: the same version
    assert [t["name"] for t in state["tables"]] == ["T1", "T2"]
    one = state["tables"][0]
    assert (one["round"], one["honba"], one["deposits"], one["hands"], one["games"],
            one["silent"], one["heard_at"]) == ("East 1", 1, 2, 3, 0, False, 1_800_000_000.0)
    assert [(p["wind"], p["name"], p["points"], p["dealer"]) for p in one["players"]][:2] == [
        ("East", "<b>Aki</b>", 25000, True), ("South", "Ben & co", 25000, False)]
    assert state["league"] == []

    game = import_file(DATA / "tenhou-python-bot-28.xml").events
    board.take(game_topic("T1", "T1-0-1-0000"), json.dumps(
        game_record("T1-0-1-0000", "T1", game, 1_800_000_000.0)).encode())
    version2, state = source.current()
    assert version2 > version
    assert state["tables"][0]["games"] == 1
    assert len(state["league"]) == 4 and {p["games"] for p in state["league"]} == {1}

    clock[0] = SILENT_SECONDS + 1  # a table quiet for 30 s is shown silent
    version3, state = source.current()
    assert version3 > version2 and all(t["silent"] for t in state["tables"])
    db.close()


def test_a_table_whose_message_is_not_whole_is_shown_with_what_it_said():
    view = table_view("X", {"state": {"scores": "lots", "dealer": "me"}, "games": 0})
    assert (view["round"], view["players"], view["honba"]) == ("", [], 0)
    view = table_view("X", {"state": {"scores": [30000, 20000, 55000], "dealer": 2}})
    assert [(p["name"], p["wind"]) for p in view["players"]] == [
        ("seat 1", "South"), ("seat 2", "West"), ("seat 3", "East")]


def test_the_board_page_refuses_a_port_in_use_in_one_line(tmp_path, capsys):
    broker = Broker(tmp_path).start()  # the board connects first, then opens its page
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        try:
            assert main(["club", "--broker", broker.url, "--db",
                         str(tmp_path / "club.sqlite"), "--web", f"127.0.0.1:{port}"]) == 2
        finally:
            broker.stop()
    err = capsys.readouterr().err
    assert err.startswith(f"tablekit club: port {port} on 127.0.0.1 is in use")
    assert err.count("\n") == 1


def test_the_board_page_shows_a_table_change_within_a_second_in_a_browser(tmp_path):
    from selenium.webdriver.support.ui import WebDriverWait

    (tmp_path / "broker").mkdir()
    broker = Broker(tmp_path / "broker").start()
    board, stop = Board(None), threading.Event()
    listening = threading.Thread(target=listen, args=(board, broker.address, None,
                                                      lambda line: None, stop), daemon=True)
    listening.start()
    server = WebServer(("127.0.0.1", 0), BoardSource(board), page=board_page())
    server.start()
    table = Publisher("T1", broker.address, Outbox(tmp_path / "outbox")).start()
    browser = None

    def points(b):  # read in one go: the page redraws its tables on every change
        return b.execute_script("const e = document.getElementById('points-T1-0');"
                                "return e ? e.textContent : null;")

    try:
        table.send_state(_state())
        deadline = time.monotonic() + 20
        while not _tables(server) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _tables(server)[0]["players"][0]["name"] == "<b>Aki</b>"
        browser = _browser()
        browser.get(server.url + "/")
        WebDriverWait(browser, 20).until(lambda b: points(b) == "25,000")
        cells = browser.execute_script(
            "return [...document.querySelectorAll('#tables td')].map(c => c.textContent);")
        assert "<b>Aki</b>" in cells  # escaped: shown as typed, not as bold
        assert browser.execute_script("return document.querySelectorAll('#tables b').length;"
                                      ) == 0
        table.send_state(_state("East 2", (33000, 17000, 25000, 25000)))
        changed = time.monotonic()
        WebDriverWait(browser, 1.0, poll_frequency=0.05).until(
            lambda b: points(b) == "33,000")
        assert time.monotonic() - changed < 1.0
    finally:
        if browser is not None:
            browser.quit()
        table.close()
        server.stop()
        stop.set()
        listening.join(timeout=10)
        broker.stop()


def test_a_screenshot_of_the_board_shows_the_tables_and_the_league_under_headings(tmp_path):
    db = connect(tmp_path / "club.sqlite")
    board = Board(db, wall=lambda: 1_800_000_000.0)
    board.take(state_topic("T1"), json.dumps(_state()).encode())
    server = WebServer(("127.0.0.1", 0), BoardSource(board, tmp_path / "club.sqlite"),
                       page=board_page())
    server.start()
    try:
        page = screenshot_shows(tmp_path, server.url + "/?static")
        assert 'id="points-T1-0">25,000<' in page and ">as of " in page
        assert "No game recorded in the league yet." in page
        game = import_file(DATA / "tenhou-python-bot-28.xml").events
        board.take(game_topic("T2", "T2-0-1-0000"), json.dumps(
            game_record("T2-0-1-0000", "T2", game, 1_800_000_000.0)).encode())
        page = screenshot_shows(tmp_path, server.url + "/?static")
    finally:
        server.stop()
        db.close()
    league = page[page.index('<table id="league">'):page.index('id="league-empty"')]
    assert [cell.split(">")[-1] for cell in league.split("</th>")[:-1]] == [
        "#", "Player", "Games", "Points", "Average place"]
    assert league.count("<tr>") == 5 and 'class="empty" hidden' in page


def _tables(server: WebServer) -> list:
    return json.loads(urllib.request.urlopen(server.url + "/state").read())["tables"]


@pytest.mark.parametrize("path", ["/", "/state", "/events"])
def test_the_board_page_is_read_only(tmp_path, path):
    server = WebServer(("127.0.0.1", 0), BoardSource(Board(None)), page=board_page())
    server.start()
    try:
        request = urllib.request.Request(server.url + path, data=b"x=1", method="POST")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request)
        assert refused.value.code == 405
    finally:
        server.stop()

