"""Phones as the seat buttons (#49): the seat pages over HTTP (a real uvicorn on a free port),
and ``tablekit run --buttons phones`` end to end: its seat lines, a press from East's address
dealing a hand, a wrong key refused with the journal unchanged, three players' three lines."""

import http.client
import json
import queue
import re
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tablekit.io.phones import DOUBLE_TAP, PhoneButtons, SeatKeys
from tablekit.web.seats import BURST, SeatDesk, is_press, seat_page, seat_routes
from tablekit.web.server import JournalSource, WebServer

KEYS = {"east": "E" * 22, "south": "S" * 22, "west": "W" * 22, "north": "N" * 22}
SEAT_LINE = re.compile(r"^(East|South|West|North): http://([0-9.]+):([0-9]+)"
                       r"(/seat/(east|south|west|north)/([A-Za-z0-9_-]{22,}))$")


@pytest.fixture
def seats(tmp_path):
    """The page with the seat pages, in a thread; the presses it sends, kept."""
    sent: list[dict] = []
    desk = SeatDesk(sent.append)
    desk.update({"keys": KEYS, "seats": {"east": {"box": "East", "wind": "East",
                                                   "name": "Aki", "points": 25000}}})
    page = seat_page()
    server = WebServer(("127.0.0.1", 0), JournalSource(tmp_path / "game.jsonl"),
                       routes=seat_routes(desk, page), posts=is_press, pages=[page])
    server.start()
    yield server, desk, sent
    server.stop()


def request(server, method, path, body=None, headers=None):
    """(status, headers, body) of one request."""
    host, port = server.server_address[:2]
    connection = http.client.HTTPConnection(host, port, timeout=5)
    try:
        encoded = urllib.parse.urlencode(body).encode() if isinstance(body, dict) else body
        all_headers = {"content-type": "application/x-www-form-urlencoded", **(headers or {})}
        connection.request(method, path, body=encoded, headers=all_headers)
        reply = connection.getresponse()
        return reply.status, dict(reply.getheaders()), reply.read().decode()
    finally:
        connection.close()


def test_a_press_from_a_seat_s_address_is_sent_as_that_seat_s(seats):
    server, _, sent = seats
    assert request(server, "POST", f"/seat/south/{KEYS['south']}/press",
                   {"button": "win", "held": "1"})[0] == 200
    assert request(server, "POST", f"/seat/east/{KEYS['east']}/press", {"button": "ok"})[0] == 200
    assert sent == [{"box": 1, "button": "win", "held": True},
                    {"box": 0, "button": "ok", "held": False}]


def test_a_wrong_or_old_key_is_403_and_nothing_is_sent(seats):
    server, desk, sent = seats
    for path in (f"/seat/east/{KEYS['south']}/press", f"/seat/east/{KEYS['east']}x/press",
                 f"/seat/up/{KEYS['east']}/press", "/seat/east/%2e%2e/press"):
        status, headers, text = request(server, "POST", path, {"button": "ok"})
        assert status in (403, 404, 405), path
        assert headers.get("referrer-policy") == "no-referrer"
    assert request(server, "GET", f"/seat/east/{KEYS['west']}")[0] == 403
    assert request(server, "GET", f"/seat/east/{KEYS['west']}/state")[0] == 403
    desk.update({"keys": {**KEYS, "east": "F" * 22}})  # renewed from the menu
    status, _, text = request(server, "POST", f"/seat/east/{KEYS['east']}/press",
                              {"button": "ok"})
    assert (status, text) == (403, "this address is not (or no longer) a seat: open the one "
                                   "the scoreboard shows\n")
    assert sent == []


def test_a_form_that_is_not_a_press_is_one_line_and_nothing_is_sent(seats):
    server, _, sent = seats
    path = f"/seat/east/{KEYS['east']}/press"
    for body, said in ((b"button=kan", "button: 'kan' is no button"),
                       (b"button=ok&held=2", "held: '2' is not 0 or 1"),
                       (b"\xff\xfe", "not a form (not ASCII text)"),
                       (b"button=ok&seat=1", "'seat': not a field of a press")):
        status, _, text = request(server, "POST", path, body)
        assert status == 400 and text.startswith(f"not a press: {said}") and text.count("\n") == 1
    status, _, _ = request(server, "POST", path, b"button=ok&" + b"x" * 2000)
    assert status == 405  # longer than any press: refused unread, like any other POST
    assert sent == []


def test_a_press_from_another_site_is_refused_unless_it_carries_the_key(seats):
    server, _, sent = seats
    path = f"/seat/east/{KEYS['east']}/press"
    host = f"127.0.0.1:{server.server_address[1]}"
    assert request(server, "POST", path, {"button": "ok"},
                   {"origin": "http://evil.example"})[0] == 403
    assert request(server, "POST", path, {"button": "ok"},
                   {"sec-fetch-site": "cross-site"})[0] == 403
    assert request(server, "POST", path, {"button": "ok", "key": KEYS["south"]},
                   {"origin": "http://evil.example"})[0] == 403
    assert sent == []
    assert request(server, "POST", path, {"button": "ok"},
                   {"origin": f"http://{host}", "sec-fetch-site": "same-origin"})[0] == 200
    assert request(server, "POST", path, {"button": "undo", "key": KEYS["east"]},
                   {"origin": "http://evil.example"})[0] == 200
    assert [press["button"] for press in sent] == ["ok", "undo"]


def test_presses_are_rate_limited_per_seat(seats):
    server, _, _ = seats
    east = f"/seat/east/{KEYS['east']}/press"
    answers = [request(server, "POST", east, {"button": "riichi"})[0] for _ in range(BURST + 4)]
    assert answers.count(200) in (BURST, BURST + 1) and answers[-1] == 429
    status, headers, text = request(server, "POST", east, {"button": "ok"})
    assert status == 429 and int(headers["retry-after"]) >= 1
    assert text == "too many presses from this seat: wait a moment\n"
    assert request(server, "POST", f"/seat/west/{KEYS['west']}/press",
                   {"button": "ok"})[0] == 200  # another seat presses on
    time.sleep(0.6)
    assert request(server, "POST", east, {"button": "ok"})[0] == 200


def test_the_read_only_pages_stay_read_only(seats):
    server, _, _ = seats
    for path in ("/", "/state", f"/seat/east/{KEYS['east']}", "/seat/east/x/pressed"):
        assert request(server, "POST", path, {"button": "ok"})[0] == 405, path
    assert request(server, "PUT", f"/seat/east/{KEYS['east']}/press", {"button": "ok"}
                   )[0] == 405


def test_the_seat_page_is_served_with_its_seat_under_the_pages_policy(seats):
    server, desk, _ = seats
    status, headers, text = request(server, "GET", f"/seat/east/{KEYS['east']}")
    assert status == 200 and '"name": "Aki"' in text and "RIICHI" in text
    policy = headers["content-security-policy"]
    assert "default-src 'none'" in policy and "form-action 'none'" in policy
    assert policy.count("'sha256-") == 4  # both pages' script and style, nothing else
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["cache-control"] == "no-store"
    assert KEYS["east"] not in text  # the page's own address is its only copy of the key
    host, port = server.server_address[:2]
    connection = http.client.HTTPConnection(host, port, timeout=5)
    connection.request("GET", f"/seat/east/{KEYS['east']}/events")
    reply = connection.getresponse()
    first = reply.readline().decode()
    assert json.loads(first[len("data: "):])["points"] == 25000
    desk.update({"seats": {"east": {"box": "East", "wind": "South", "name": "Aki",
                                    "points": 33000}}})
    while not (line := reply.readline().decode()).startswith("data: "):
        pass
    assert json.loads(line[len("data: "):])["points"] == 33000
    connection.close()


def test_a_double_tap_is_one_press_as_a_bouncing_button_is():
    inbox: queue.Queue = queue.Queue()
    now = [0.0]
    phones = PhoneButtons(inbox, clock=lambda: now[0])
    assert phones.press(0, "ok") and not phones.press(3, "ok")  # OK is the table's one OK
    assert phones.press(0, "riichi") and phones.press(1, "riichi")  # each seat's own
    now[0] += DOUBLE_TAP
    assert phones.press(0, "ok")
    assert [str(inbox.get_nowait()) for _ in range(inbox.qsize())] == [
        "ok", "seat 0 riichi", "seat 1 riichi", "ok"]


def test_keys_are_128_bits_and_new_each_time():
    first, second = SeatKeys.new((0, 1, 2, 3)), SeatKeys.new((0, 1, 2, 3))
    assert all(len(key) >= 22 for key in first.keys.values())  # 16 bytes in base64url
    assert not set(first.keys.values()) & set(second.keys.values())


# -- tablekit run --buttons phones ----------------------------------------------------------

def start_run(tmp_path: Path, *more: str) -> tuple[subprocess.Popen, list[str], Path]:
    """``tablekit run --buttons phones --web 127.0.0.1:0`` with no camera and no screen; its
    seat lines once it prints them."""
    journal = tmp_path / "game.jsonl"
    game = subprocess.Popen(
        [sys.executable, "-m", "tablekit.cli", "run", "--buttons", "phones", "--web",
         "127.0.0.1:0", "--camera", "none", "--display", f"headless:{tmp_path / 'screens'}",
         "--journal", str(journal), *more],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: list[str] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = game.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
        if len(lines) == (3 if "tenhou-sanma" in more else 4):
            break
    return game, lines, journal


def stop_run(game: subprocess.Popen) -> str:
    game.send_signal(signal.SIGINT)
    _, err = game.communicate(timeout=30)
    return err


def post(url: str, body: dict, path: str = "/press") -> int:
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
    try:
        connection.request("POST", parts.path + path, body=urllib.parse.urlencode(body),
                           headers={"content-type": "application/x-www-form-urlencoded"})
        return connection.getresponse().status
    finally:
        connection.close()


def wait_for(check, seconds=5.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return check()


def test_run_prints_the_seat_lines_and_ok_from_east_deals_a_hand(tmp_path):
    from tablekit.game.session import Session

    game, lines, journal = start_run(tmp_path)
    try:
        matches = [SEAT_LINE.match(line) for line in lines]
        assert all(matches), lines
        assert [m.group(1) for m in matches] == ["East", "South", "West", "North"]
        assert [m.group(5) for m in matches] == ["east", "south", "west", "north"]
        assert len({m.group(6) for m in matches}) == 4
        east, south = lines[0].split(" ", 1)[1], lines[1].split(" ", 1)[1]
        before = journal.read_bytes()
        wrong = east[:-4] + ("AAAA" if not east.endswith("AAAA") else "BBBB")
        assert post(wrong, {"button": "ok"}) == 403
        assert post(south.replace("/south/", "/east/"), {"button": "ok"}) == 403
        time.sleep(0.5)
        assert journal.read_bytes() == before
        assert post(east, {"button": "ok"}) == 200
        assert wait_for(lambda: journal.read_bytes() != before)
        assert post(south, {"button": "riichi"}) == 200  # South's riichi: South's own
        assert wait_for(lambda: b'"seat": 1' in journal.read_bytes().splitlines()[-1])
    finally:
        err = stop_run(game)
    session = Session.open(journal)
    state = session.state
    session.close()
    assert state.phase.name == "HAND_IN_PLAY" and state.seats[1].riichi
    assert all(m.group(6) not in err for m in matches)  # no key in what is logged
    assert "buttons: phones" in err and "Traceback" not in err


def test_three_players_have_three_seat_addresses(tmp_path):
    game, lines, _ = start_run(tmp_path, "--rules", "tenhou-sanma", "--seat-boxes", "e,s,n")
    try:
        assert [line.split(":")[0] for line in lines] == ["East", "South", "North"]
        assert all(SEAT_LINE.match(line) for line in lines)
        west = lines[0].split(" ", 1)[1].replace("/east/", "/west/")
        assert post(west, {"button": "ok"}) == 403  # no player at the West box: no seat
    finally:
        stop_run(game)


def test_buttons_are_read_as_told(capsys):
    from tablekit.cli import main

    with pytest.raises(SystemExit):
        main(["run", "--buttons", "gpio,keyboard"])
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.endswith("'gpio,keyboard': one of auto, gpio, keyboard or none, and/or phones "
                        "(e.g. gpio,phones)")


# -- four browser phones play a hand; the keyboard plays it too -----------------------------

HAND = ((0, "ok", False),      # East deals East 1
        (2, "riichi", False),  # West declares riichi
        (1, "win", True),      # South holds WIN: tsumo
        (1, "riichi", False),  # its han +1
        (1, "call", False),    # its next fu
        (3, "ok", False),      # North's OK: done
        (0, "ok", False))      # East's OK: the points move
KEYS_OF = {"riichi": "qazi", "call": "wsxo", "win": "edcp"}


def events_of(journal: Path) -> list[dict]:
    """The journal's events without their time and check (the same hand at another time)."""
    lines = [json.loads(line) for line in journal.read_text().splitlines()]
    return [{k: v for k, v in line.items() if k not in ("at", "crc")} for line in lines]


def play_on_the_keyboard(journal: Path) -> None:
    """:data:`HAND` on the keyboard's keys, through the same loop."""
    from tablekit.app.loop import App, open_session
    from tablekit.flow import Flow
    from tablekit.io.buttons import KeyboardButtons
    from tablekit.rules.presets import load_rules

    session = open_session(journal, load_rules(None), lambda line: None)
    app = App(Flow(session), None)
    app.keyboard = KeyboardButtons(app.inbox)
    try:
        for box, button, held in HAND:
            key = "return" if button == "ok" else KEYS_OF[button][box]
            now = time.monotonic()
            app.keyboard.key(key, True, now)
            app.keyboard.key(key, False, now + (1.0 if held else 0.1))
            app.run(max_frames=app.frames + 8)
    finally:
        session.close()


def test_four_browser_phones_play_a_hand_as_the_keyboard_does(tmp_path):
    from test_web import _browser

    browser = _browser()  # skipped, saying what to install, without chromium and its driver
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    game, lines, journal = start_run(tmp_path / "phones")
    try:
        browser.set_window_size(390, 844)
        tabs = []
        for index, line in enumerate(lines):
            if index:
                browser.switch_to.new_window("tab")
            browser.get(line.split(" ", 1)[1])
            WebDriverWait(browser, 20).until(
                lambda b: b.find_element(By.ID, "status").text.startswith("live"))
            tabs.append(browser.current_window_handle)
        assert browser.find_element(By.ID, "wind").text.startswith("North")
        for box, button, held in HAND:
            browser.switch_to.window(tabs[box])
            element = browser.find_element(By.ID, button)
            if held:
                ActionChains(browser).click_and_hold(element).pause(1.3).release().perform()
            else:
                element.click()
            time.sleep(0.8)  # the game takes it; a tap again would be a double tap
        browser.switch_to.window(tabs[1])
        WebDriverWait(browser, 10).until(
            lambda b: b.find_element(By.ID, "points").text not in ("25,000", "24,000"))
        south = browser.find_element(By.ID, "points").text
        assert browser.find_element(By.ID, "message").text == ""
    finally:
        browser.quit()
        stop_run(game)
    keyboard = tmp_path / "keyboard" / "game.jsonl"
    keyboard.parent.mkdir()
    play_on_the_keyboard(keyboard)
    played = events_of(journal)
    assert played == events_of(keyboard)
    assert [event["type"] for event in played[2:]] == ["hand_started", "riichi", "won"]
    assert played[-1]["winners"][0]["seat"] == 1 and played[-1]["from_seat"] is None
    assert (played[-1]["winners"][0]["han"], played[-1]["winners"][0]["fu"]) == (2, 40)
    assert int(south.replace(",", "")) > 25000


# -- the menu's codes and new keys -----------------------------------------------------------

def status_of(url: str) -> int:
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
    try:
        connection.request("GET", parts.path)
        reply = connection.getresponse()
        reply.read()
        return reply.status
    finally:
        connection.close()


def test_the_menu_shows_each_seat_s_code_and_renews_the_keys(tmp_path):
    import cv2
    import pygame

    from tablekit.display.render import render
    from tablekit.flow import Flow, Stage
    from tablekit.game.session import Session
    from tablekit.io.presses import ButtonName, ButtonPress
    from tablekit.rules.presets import TENHOU

    class Phones:
        renewed = 0

        def addresses(self):
            return tuple((wind, f"http://192.168.1.20:8080/seat/{wind.lower()}/{'k' * 22}")
                         for wind in ("East", "South", "West", "North"))

        def renew(self):
            self.renewed += 1

    flow = Flow(Session.open(tmp_path / "game.jsonl"))
    flow.start_game(TENHOU)
    flow.phones = phones = Phones()
    assert flow.screen().phones == ()  # the scoreboard shows no code
    flow.handle(ButtonPress(ButtonName.UNDO, long=True))
    screen = flow.screen()
    assert screen.phones == phones.addresses()
    surface = pygame.Surface((800, 480))
    frame = render(screen, surface)
    picture = pygame.surfarray.array3d(surface).swapaxes(0, 1)[:, :, ::-1].copy()  # BGR
    for wind, address in phones.addresses():
        code = frame.rect(f"menu.phone.{wind.lower()}")
        assert code.width == code.height >= 80  # a code a phone's camera reads across a table
        assert frame.text_of(f"menu.phone.{wind.lower()}.label") == wind
        square = picture[code.top:code.bottom, code.left:code.right]
        assert cv2.QRCodeDetector().detectAndDecode(square)[0] == address  # read as a phone
    flow.handle(ButtonPress(ButtonName.RIICHI, 0))  # back one: the last item
    assert flow.data.place.items[flow.data.place.selected].label == "Phones: new seat addresses"
    flow.handle(ButtonPress(ButtonName.OK))
    assert phones.renewed == 1 and flow.stage is Stage.MENU
    assert flow.data.message.startswith("new seat addresses")
    flow.session.close()


def test_new_keys_refuse_the_old_addresses_and_each_seat_sees_its_view(tmp_path):
    from tablekit.display.model import ScreenModel
    from tablekit.game.state import TableState
    from tablekit.web.phones import PhoneSeats, start_phone_web

    inbox: queue.Queue = queue.Queue()
    said: list[str] = []
    phones = PhoneSeats(inbox, said.append)
    page = start_phone_web("127.0.0.1:0", tmp_path / "game.jsonl", None, said.append, phones)
    try:
        old = dict(phones.addresses())
        assert post(old["South"], {"button": "call", "held": "1"}) == 200
        assert str(inbox.get(timeout=5)) == "seat 1 call (held)"

        class Loop:
            screen = ScreenModel(TableState.new(names=("Aki", "Ben", "Cho", "Dai")))

        phones.hook(Loop())
        assert wait_for(lambda: json.loads(urllib.request.urlopen(
            old["South"] + "/state").read())["name"] == "Ben")
        phones.renew()
        new = dict(phones.addresses())
        assert wait_for(lambda: status_of(old["South"] + "/state") == 403)
        assert post(old["South"], {"button": "ok"}) == 403 and inbox.empty()
        assert status_of(new["South"]) == 200
        assert post(new["South"], {"button": "ok"}) == 200
        assert str(inbox.get(timeout=5)) == "ok"
        assert said[-1] == "phones: new seat keys; the old addresses are refused"
        phones.use((0, 1, 3))  # three players at the East, South and North boxes
        assert wait_for(lambda: status_of(new["West"]) == 403)
        assert [wind for wind, _ in phones.addresses()] == ["East", "South", "North"]
    finally:
        page.stop()


def test_a_seat_page_says_it_is_offline_and_comes_back(seats):
    from test_web import _browser

    server, desk, sent = seats
    browser = _browser()
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    def status(b):
        return b.find_element(By.ID, "status").text

    try:
        browser.get(server.url + f"/seat/east/{KEYS['east']}")
        WebDriverWait(browser, 20).until(lambda b: status(b).startswith("live"))
        assert browser.find_element(By.ID, "who").text.startswith("Aki")
        browser.set_network_conditions(offline=True, latency=0, download_throughput=-1,
                                       upload_throughput=-1)
        browser.find_element(By.ID, "ok").click()
        WebDriverWait(browser, 10).until(lambda b: status(b).startswith("offline"))
        assert sent == []
        browser.set_network_conditions(offline=False, latency=0, download_throughput=-1,
                                       upload_throughput=-1)
        WebDriverWait(browser, 15).until(lambda b: status(b).startswith("live"))
        browser.find_element(By.ID, "ok").click()
        assert wait_for(lambda: sent == [{"box": 0, "button": "ok", "held": False}])
        desk.update({"keys": {**KEYS, "east": "F" * 22}})  # the menu renewed the keys
        WebDriverWait(browser, 15).until(lambda b: "no longer a seat" in status(b))
    finally:
        browser.quit()


def test_a_new_game_of_three_players_has_three_addresses_and_of_four_four_again():
    from tablekit.display.model import ScreenModel
    from tablekit.game.events import GameStarted
    from tablekit.game.reducer import apply
    from tablekit.game.state import TableState
    from tablekit.rules.presets import load_rules
    from tablekit.web.phones import PhoneSeats

    phones = PhoneSeats(queue.Queue(), lambda line: None)
    east = phones.keys.keys[0]

    class Loop:
        screen = ScreenModel(apply(TableState.new(), GameStarted(load_rules("tenhou-sanma"))),
                             boxes=(0, 1, 3))

    phones.hook(Loop())
    assert [wind for wind, _ in phones.addresses()] == ["East", "South", "North"]
    assert phones.keys.keys[0] == east  # the seats still played keep their addresses
    Loop.screen = ScreenModel(apply(TableState.new(), GameStarted()))
    phones.hook(Loop())
    assert [wind for wind, _ in phones.addresses()] == ["East", "South", "West", "North"]
    assert phones.keys.keys[0] == east
