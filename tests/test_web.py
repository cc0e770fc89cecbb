"""The read-only web page: state and server-sent events, and a real headless browser."""

import http.client
import json
import shutil
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from missing_packages import missing_program

from tablekit.errors import TablekitError
from tablekit.game.events import Chombo, Draw, GameStarted, HandStarted
from tablekit.game.journal import Journal
from tablekit.tiles import Tile
from tablekit.web.server import JournalSource, WebServer, parse_bind, start_web

DATA = Path(__file__).resolve().parents[1] / "tablekit" / "data"
NAMES = ("<b>Aki</b>", "Ben & co", "Cho", "Dai")


def _first_hand():
    """A hand under names that need escaping, and a chombo (mangan payments) to end it."""
    return [GameStarted(names=NAMES), HandStarted(Tile.from_code("1m")),
            Draw(0, Tile.from_code("9p"))], Chombo(2)


@pytest.fixture
def served(tmp_path):
    journal = tmp_path / "game.jsonl"
    before, last = _first_hand()
    with Journal(journal) as out:
        for event in before:
            out.append(event)
    server = WebServer(("127.0.0.1", 0), JournalSource(journal))
    server.start()
    yield server, journal, last
    server.stop()


def _events(server):
    host, port = server.server_address[:2]
    connection = http.client.HTTPConnection(host, port, timeout=5)
    connection.request("GET", "/events")
    reply = connection.getresponse()
    assert reply.getheader("Content-Type") == "text/event-stream"
    return connection, reply


def _next_state(reply):
    while True:
        line = reply.readline().decode()
        if line.startswith("data: "):
            return json.loads(line[6:])


def test_the_page_follows_the_journal_within_a_second(served):
    server, journal, last = served
    connection, reply = _events(server)
    first = _next_state(reply)
    assert [p["points"] for p in first["table"]["players"]] == [25000] * 4
    with Journal(journal) as out:
        out.append(last)  # the hand's result: points move
    changed = time.monotonic()
    second = _next_state(reply)
    while [p["points"] for p in second["table"]["players"]] == [25000] * 4:
        second = _next_state(reply)  # the write seen half-way: the next one is whole
    assert time.monotonic() - changed < 1.0
    assert second["table"]["last_result"] == "chombo"
    connection.close()


def test_the_page_is_read_only_and_shows_names_as_text(served):
    server, _, _ = served
    page = urllib.request.urlopen(server.url + "/").read().decode()
    assert "EventSource" in page and "innerHTML" not in page and "textContent" in page
    state = json.loads(urllib.request.urlopen(server.url + "/state").read())
    assert state["table"]["players"][0]["name"] == "<b>Aki</b>"
    for method in ("POST", "PUT", "DELETE"):
        request = urllib.request.Request(server.url + "/state", data=b"{}", method=method)
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request)
        assert refused.value.code == 405


def test_the_bind_address_is_read_as_told():
    assert parse_bind(":8080") == ("", 8080)
    with pytest.raises(TablekitError, match="HOST"):
        parse_bind("localhost:http")


def test_every_interface_is_shown_as_an_address_a_phone_opens(tmp_path):
    lines = []
    server = start_web(":0", tmp_path / "game.jsonl", None, lines.append)
    try:
        port = server.server_address[1]
        assert server.server_address[0] == "0.0.0.0"  # still listening everywhere
        assert len(lines) == 1 and f":{port}/" in lines[0] and "0.0.0.0" not in lines[0]
        assert "every interface" in lines[0]
    finally:
        server.stop()


def _wait_for(check, seconds=10.0):
    ends = time.monotonic() + seconds
    while not check() and time.monotonic() < ends:
        time.sleep(0.05)
    return check()


def _refused(address):
    try:
        socket.create_connection(address, timeout=2).close()
    except ConnectionRefusedError:
        return True
    return False


def test_the_game_s_page_is_served_by_another_process_whose_end_leaves_the_game_on(tmp_path):
    import os
    import signal
    import threading

    from tablekit.game.session import Session

    before, last = _first_hand()
    journal = tmp_path / "game.jsonl"
    session = Session.open(journal)
    for event in before:
        session.submit(event)
    def serving_here():  # the server's threads in this process (its watcher aside)
        return sum(t.name.startswith("tablekit-web") and t.name != "tablekit-web-watch"
                   for t in threading.enumerate())

    lines, serving = [], serving_here()
    page = start_web("127.0.0.1:0", journal, None, lines.append)
    try:
        assert page.pid != os.getpid()
        state = json.loads(urllib.request.urlopen(page.url + "/state").read())
        assert state["table"]["players"][0]["name"] == "<b>Aki</b>"
        assert serving_here() == serving
        os.kill(page.pid, signal.SIGTERM)  # as systemd signals the service: left to the game
        time.sleep(0.3)
        assert urllib.request.urlopen(page.url + "/state").status == 200 and len(lines) == 1
        os.kill(page.pid, signal.SIGKILL)  # the page crashes
        assert _wait_for(lambda: len(lines) == 2)
        assert lines[1] == "web: the page stopped (killed by signal 9); the game goes on without it"
        session.submit(last)  # the game goes on
        assert session.state.result.kind == "chombo"
    finally:
        page.stop()
        session.close()
    assert len(lines) == 2


def test_the_page_stops_with_the_game_and_dies_with_it(tmp_path):
    import subprocess
    import sys

    lines = []
    page = start_web("127.0.0.1:0", tmp_path / "game.jsonl", None, lines.append)
    page.stop()  # stopped cleanly: its port closed, nothing said
    assert _refused(page.server_address) and len(lines) == 1
    game = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from tablekit.web.server import start_web; "
         "p = start_web('127.0.0.1:0', sys.argv[1], None, print); "
         "print(p.server_address[1], flush=True); time.sleep(60)", str(tmp_path / "g.jsonl")],
        stdout=subprocess.PIPE, text=True)
    try:
        game.stdout.readline()
        port = int(game.stdout.readline())
        urllib.request.urlopen(f"http://127.0.0.1:{port}/state").read()
    finally:
        game.kill()  # the game dies without a word: its page ends too
        game.wait()
    assert _wait_for(lambda: _refused(("127.0.0.1", port)))


def test_a_busy_port_is_one_line_naming_it(tmp_path, capsys):
    from tablekit.cli import main

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["web", "--journal", str(tmp_path / "game.jsonl"),
                     "--bind", f"127.0.0.1:{port}"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"tablekit: web: port {port} on 127.0.0.1 is in use (Address already in use): stop "
        "what uses it, or choose another port")


def test_a_mistyped_league_file_is_refused_and_nothing_is_made(tmp_path, capsys):
    from tablekit.cli import main

    typo = tmp_path / "clb" / "club.sqlite"
    assert main(["web", "--journal", str(tmp_path / "game.jsonl"), "--league", str(typo),
                 "--bind", "127.0.0.1:0"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"tablekit: web: no league file at {typo} (recording a game with --league starts one)")
    assert list(tmp_path.iterdir()) == []


def _browser():
    webdriver = pytest.importorskip("selenium.webdriver")
    driver_path = shutil.which("chromedriver")
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not driver_path or not browser:
        missing_program("chromium and chromedriver", "chromium chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    from selenium.webdriver.chrome.service import Service

    return webdriver.Chrome(options=options, service=Service(driver_path))


def test_a_headless_browser_shows_a_change_within_a_second(served):
    from selenium.webdriver.support.ui import WebDriverWait

    server, journal, last = served
    browser = _browser()

    def points(b):  # read in one go: the page redraws its rows on every change
        return b.execute_script("const e = document.getElementById('points0');"
                                "return e ? e.textContent : null;")

    try:
        browser.get(server.url + "/")
        WebDriverWait(browser, 20).until(lambda b: points(b) == "25,000")
        cells = browser.execute_script(
            "return [...document.querySelectorAll('#players td')].map(c => c.textContent);")
        assert "<b>Aki</b>" in cells  # escaped: shown as typed, not as bold
        assert browser.execute_script("return document.querySelectorAll('#players b').length;"
                                      ) == 0
        with Journal(journal) as out:
            out.append(last)
        changed = time.monotonic()
        WebDriverWait(browser, 1.0, poll_frequency=0.05).until(
            lambda b: points(b) not in ("25,000", None))
        assert time.monotonic() - changed < 1.0
    finally:
        browser.quit()


def _chromium(tmp_path, url, *what, zone="UTC"):
    """Debian's chromium run headless on ``url`` as a user runs it (``--screenshot=FILE``,
    ``--dump-dom``), letting the page's scripts run 5 s (``--virtual-time-budget``: a page
    with a live stream never finishes with it), given 30 s at most: one still loading fails;
    in the time ``zone`` (``TZ``) of a phone in the club."""
    import os
    import subprocess

    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        missing_program("chromium", "chromium")
    return subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--disable-background-networking", "--no-first-run", "--window-size=1200,900",
         "--virtual-time-budget=5000", f"--user-data-dir={tmp_path / 'chromium-profile'}",
         *what, url], capture_output=True, text=True, timeout=30, check=True,
        env={**os.environ, "TZ": zone})


def screenshot_shows(tmp_path, url):
    """A screenshot of ``url`` taken (a PNG) and the page as it was taken (its DOM)."""
    shot = tmp_path / "shot.png"
    _chromium(tmp_path, url, f"--screenshot={shot}")
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return _chromium(tmp_path, url, "--dump-dom").stdout


def test_a_screenshot_of_the_page_shows_the_game_and_why_its_lists_are_empty(served, tmp_path):
    server, _, _ = served
    page = screenshot_shows(tmp_path, server.url + "/?static")
    assert 'id="points0">25,000<' in page and "&lt;b&gt;Aki&lt;/b&gt;" in page  # as text
    assert "No league: start with --league FILE to keep one" in page
    assert "No game of this evening is kept: start with --league FILE" in page
    assert ">as of " in page  # the state the page was served with; no stream opened


def test_the_page_says_why_the_evening_and_the_league_are_empty(tmp_path):
    from tablekit.formats.tenhou import import_file
    from tablekit.league.database import connect
    from tablekit.league.record import record_game

    league = tmp_path / "league.sqlite"
    assert _league_state(tmp_path, None)["empty"] == {
        "evening": "No game of this evening is kept: start with --league FILE to keep them",
        "league": "No league: start with --league FILE to keep one"}
    assert _league_state(tmp_path, league)["empty"] == {  # given, no game finished yet
        "evening": "No game finished yet this evening",
        "league": "No game in the league yet: a game is added when it is over"}
    db = connect(league)
    record_game(db, import_file(DATA / "tenhou-python-bot-28.xml").events, season="2026")
    db.close()
    assert _league_state(tmp_path, league)["empty"] == {}
    league.write_bytes(b"not a league")
    assert _league_state(tmp_path, league)["empty"]["league"] == (
        "Not read now: the line below says why")


def test_the_evening_is_the_latest_games_across_midnight_in_utc_in_the_phone_s_time(tmp_path):
    from datetime import UTC, datetime, timedelta

    from tablekit.formats.tenhou import import_file
    from tablekit.league.database import connect
    from tablekit.league.record import record_game

    league = tmp_path / "league.sqlite"
    db = connect(league)
    game = import_file(DATA / "tenhou-python-bot-28.xml").events
    day = datetime.now(UTC).date() - timedelta(days=3)  # an evening in Bogotá (UTC-5, no DST)
    for when in (f"{day - timedelta(days=7)}T23:10:00+00:00",  # the week before
                 f"{day}T23:30:00+00:00", f"{day + timedelta(days=1)}T01:15:00+00:00"):
        record_game(db, game, season="2026", played_at=when, key=when)
    db.close()
    assert [g["played_at"][11:16] for g in _league_state(tmp_path, league)["evening"]] == [
        "23:30", "01:15"]  # one evening there, two dates in UTC
    server = WebServer(("127.0.0.1", 0), JournalSource(tmp_path / "game.jsonl", league))
    server.start()
    try:
        page = _chromium(tmp_path, server.url + "/?static", "--dump-dom",
                         zone="America/Bogota").stdout
    finally:
        server.stop()
    evening = page[page.index('<table id="evening"'):page.index('id="evening-empty"')]
    assert "<td>18:30</td>" in evening and "<td>20:15</td>" in evening
    title = f"Last evening, {day:%a} {day.day} {day:%b}"  # it is over: not "This evening"
    assert f'<h2 id="evening-title">{title}</h2>' in page


class _NotANumber:
    """A state holding numbers JSON has not (NaN, infinities), and a name to escape."""

    def current(self):
        return 1, {"points": float("nan"), "rows": [float("inf"), 1.5, -float("inf")],
                   "name": "</script><b>x</b>"}


def _strict(text):
    def refused(constant):
        raise AssertionError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refused)


def test_the_state_is_never_sent_with_nan_or_infinity():
    server = WebServer(("127.0.0.1", 0), _NotANumber())
    server.start()
    try:
        expected = {"points": None, "rows": [None, 1.5, None], "name": "</script><b>x</b>"}
        assert _strict(urllib.request.urlopen(server.url + "/state").read()) == expected
        connection, reply = _events(server)
        line = reply.readline().decode()
        connection.close()
        assert _strict(line.removeprefix("data: ")) == expected
        page = urllib.request.urlopen(server.url + "/").read().decode()  # the served state
        assert page.count("</script>") == 2  # the served state's block and the script
        assert '"name": "\\u003c/script\\u003e\\u003cb\\u003ex' in page
    finally:
        server.stop()


def _played(journal):
    """A journal with a hand played to its end (a chombo) and the next hand started."""
    before, last = _first_hand()
    with Journal(journal) as out:
        for event in [*before, last, HandStarted(Tile.from_code("2m"))]:
            out.append(event)


def _state(server):
    return json.loads(urllib.request.urlopen(server.url + "/state").read())


def _one_changed_byte(journal):
    """The journal's next line (a draw) as it was written, with one byte changed."""
    copy = journal.with_name("copy.jsonl")
    copy.write_bytes(journal.read_bytes())
    with Journal(copy) as out:
        out.append(Draw(1, Tile.from_code("5s")))
    line = copy.read_bytes().splitlines(keepends=True)[-1]
    copy.unlink()
    return line.replace(b'"5s"', b'"6s"')


@pytest.mark.parametrize("damage", ["garbage", "torn", "changed byte"])
def test_a_damaged_journal_shows_its_good_part_and_is_left_as_it_is(tmp_path, damage):
    journal = tmp_path / "game.jsonl"
    _played(journal)
    following = WebServer(("127.0.0.1", 0), JournalSource(journal))
    following.start()
    try:
        good = _state(following)["table"]
        assert good["phase"] == "hand in play" and good["players"][2]["points"] < 25000
        line = {"garbage": b"not json at all\n", "torn": b'{"n": 6, "type": "dr',
                "changed byte": _one_changed_byte(journal)}[damage]
        with journal.open("ab") as out:
            out.write(line)
        written, stamp = journal.read_bytes(), journal.stat().st_mtime_ns
        time.sleep(0.05)
        assert _state(following)["table"] == good  # the page that was following it
    finally:
        following.stop()
    fresh = WebServer(("127.0.0.1", 0), JournalSource(journal))
    fresh.start()
    try:
        assert _state(fresh)["table"] == good  # and one opened on it since: not an empty game
    finally:
        fresh.stop()
    assert journal.read_bytes() == written and journal.stat().st_mtime_ns == stamp
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]


def _untouched(folder):
    """Each file in ``folder`` by name: its bytes and its time."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir()}


def _league_state(tmp_path, league):
    server = WebServer(("127.0.0.1", 0), JournalSource(tmp_path / "game.jsonl", league))
    server.start()
    try:
        return [_state(server) for _ in range(3)][-1]
    finally:
        server.stop()


def test_the_page_never_writes_to_the_league_file(tmp_path):
    from tablekit.formats.tenhou import import_file
    from tablekit.league.database import connect
    from tablekit.league.record import record_game

    league = tmp_path / "club" / "league.sqlite"
    db = connect(league)
    record_game(db, import_file(DATA / "tenhou-python-bot-28.xml").events, season="2026")
    db.close()
    files = _untouched(league.parent)
    assert list(files) == ["league.sqlite"]
    state = _league_state(tmp_path, league)
    assert len(state["league"]) == 4 and len(state["evening"]) == 1
    assert state.get("league_note", "") == ""
    assert _untouched(league.parent) == files  # no byte, no time, no -wal or -shm beside it
    writer = connect(league)  # the game has it open: read through its log, as any reader
    try:
        files = _untouched(league.parent)
        assert len(_league_state(tmp_path, league)["league"]) == 4
        assert _untouched(league.parent)["league.sqlite"] == files["league.sqlite"]
    finally:
        writer.close()


def test_an_older_league_file_is_read_as_it_is_and_not_migrated(tmp_path):
    import sqlite3

    from tablekit.league.database import MIGRATIONS

    league = tmp_path / "league.sqlite"
    db = sqlite3.connect(league, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.executescript(MIGRATIONS[0])
    db.executescript(
        "INSERT INTO players (name) VALUES ('Aki'), ('Ben'), ('Cho'), ('Dai');"
        "INSERT INTO games VALUES (1, '2026', '2026-12-03T21:00:00', 'tenhou', 8, 'end', 0,"
        " 'k');"
        "INSERT INTO results VALUES (1, 0, 1, 1, 45000, 450, 3, 0, 1),"
        " (1, 1, 2, 2, 30000, 100, 1, 1, 0), (1, 2, 3, 3, 15000, -250, 0, 1, 1),"
        " (1, 3, 4, 4, 10000, -300, 0, 2, 0);"
        "PRAGMA user_version = 1;")
    db.close()
    files = _untouched(tmp_path)
    state = _league_state(tmp_path, league)
    assert _untouched(tmp_path) == files  # not migrated: no byte, no time, nothing beside it
    with sqlite3.connect(league) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1
    assert [p["name"] for p in state["league"]] == ["Aki", "Ben", "Cho", "Dai"]
    assert state.get("league_note") == (f"the league file {league} is from an older "
                                        f"tablekit: tablekit league --db {league} updates it")


# -- the server: headers, methods, slow and many clients ----------------------------------

def _raw(server, request: bytes, wait: float = 5.0) -> bytes:
    """What the server answers to ``request`` sent as it is, until it closes (or ``wait``)."""
    with socket.create_connection(server.server_address, timeout=wait) as client:
        client.sendall(request)
        answer = b""
        try:
            while chunk := client.recv(65536):
                answer += chunk
        except TimeoutError:
            pass
        return answer


def test_every_answer_carries_the_content_security_policy(served):
    server, _, _ = served
    answers = [urllib.request.urlopen(server.url + path) for path in ("/", "/state")]
    for path, method in (("/nowhere", "GET"), ("/state", "POST")):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(urllib.request.Request(server.url + path, method=method))
        answers.append(refused.value)
    for answer in answers:
        policy = answer.headers["Content-Security-Policy"]
        assert "default-src 'none'" in policy and "script-src 'sha256-" in policy
        assert answer.headers["X-Content-Type-Options"] == "nosniff"


def test_a_post_s_body_is_never_read_as_a_second_request(served):
    server, _, _ = served
    smuggled = b"GET /state HTTP/1.1\r\nHost: x\r\n\r\n"
    answer = _raw(server, b"POST /state HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s"
                  % (len(smuggled), smuggled))
    assert answer.startswith(b"HTTP/1.1 405") and answer.count(b"HTTP/1.1") == 1


def test_a_head_request_for_the_stream_is_answered_at_once(served):
    server, _, _ = served
    answer = _raw(server, b"HEAD /events HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 200") and b"text/event-stream" in answer


def test_a_client_sending_its_request_slowly_is_hung_up_on(served, monkeypatch):
    import select

    from tablekit.web import protocol

    monkeypatch.setattr(protocol, "HEAD_SECONDS", 0.5)
    server, _, _ = served
    closed = False
    with socket.create_connection(server.server_address, timeout=5) as slow:
        started = time.monotonic()
        for byte in b"GET /state HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"y" * 40:
            try:  # a byte every tenth of a second, the request never finished
                slow.sendall(bytes([byte]))
                if select.select([slow], [], [], 0.1)[0]:
                    closed = slow.recv(1) == b""  # hung up on, unanswered
                    break
            except ConnectionError:
                closed = True
                break
    assert closed and time.monotonic() - started < 2.5


def test_many_clients_make_no_thread_each(served):
    import threading

    server, _, _ = served
    urllib.request.urlopen(server.url + "/state").read()
    before = threading.active_count()
    streams = [_events(server) for _ in range(20)]
    for _, reply in streams:
        _next_state(reply)
    slow = [socket.create_connection(server.server_address) for _ in range(20)]
    for client in slow:
        client.sendall(b"GET /sta")
    time.sleep(0.3)
    try:
        assert threading.active_count() == before
        assert json.loads(urllib.request.urlopen(server.url + "/state").read())["table"]
    finally:
        for connection, _ in streams:
            connection.close()
        for client in slow:
            client.close()


class _Growing:
    """A state that changes at every reading, each a big one (a client's buffers fill fast)."""

    def __init__(self) -> None:
        self.version = 0

    def current(self):
        self.version += 1
        return self.version, {"filler": "x" * 400_000, "n": self.version}


def test_a_client_that_stops_reading_its_stream_is_dropped(monkeypatch):
    from tablekit.web import protocol

    monkeypatch.setattr(protocol, "SEND_SECONDS", 0.5)
    server = WebServer(("127.0.0.1", 0), _Growing())
    server.start()
    try:
        with socket.socket() as stalled:
            stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            stalled.connect(server.server_address)
            stalled.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            time.sleep(3)  # reading nothing: the server's writing pauses, then it gives up
            stalled.settimeout(0.5)
            dropped, ends = False, time.monotonic() + 10
            while not dropped and time.monotonic() < ends:  # what was sent, then the end
                try:
                    dropped = stalled.recv(1 << 20) == b""
                except ConnectionResetError:
                    dropped = True
                except TimeoutError:
                    break
        assert dropped
    finally:
        server.stop()
