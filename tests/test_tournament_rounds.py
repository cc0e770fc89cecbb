"""A tournament's rounds at the club's tables: the plan followed, each table shown its seats
and started on OK, one clock for all tables with extra time for one, results held back until
a round is over, seats fixed after a mistake and a substitute.

The logic is tested without a broker; one test sends the seating and the clock through a real
mosquitto to a table (skipped where mosquitto is not installed)."""

from __future__ import annotations

import json
import re
import sqlite3
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from tablekit.cli import main
from tablekit.club.orders import Orders
from tablekit.club.topics import clock_topic, seating_topic
from tablekit.flow import Flow, Stage, timing
from tablekit.flow.sent_seats import orders_hook
from tablekit.formats.tenhou import import_file
from tablekit.game.session import Session
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.league import tournament as tour
from tablekit.league.database import connect
from tablekit.league.record import record_game
from tablekit.league.tournament_league import (
    fix_record,
    games,
    shown_standings,
    standings_without,
)
from tablekit.rules.presets import TENHOU

DATA = Path(__file__).resolve().parents[1] / "tablekit" / "data"
GAME = import_file(DATA / "tenhou-python-bot-28.xml").events  # a finished game
NAMES = ("Wanjirou", "Kaavi", "Xenia", "Ichihime")  # its players, seat order
PLAN = {"rounds": [[list(NAMES), ["Eve", "Fay", "Gus", "Hal"]],
                   [["Wanjirou", "Eve", "Ichihime", "Gus"], ["Fay", "Kaavi", "Hal", "Xenia"]]]}
OK = ButtonPress(ButtonName.OK)


def _tournament(**settings) -> tour.Tournament:
    return tour.new_tournament(json.loads(json.dumps(PLAN)), **settings)


def _record(db: sqlite3.Connection, names, key: str) -> None:
    """The data game recorded under ``names`` (seat order), as the board records a table's."""
    record_game(db, GAME, names=names, key=key)


# --- the plan followed ------------------------------------------------------------------


def test_each_table_is_sent_its_seats_and_the_clock_its_length_and_extra_time():
    t = _tournament(minutes=60, end_of_time="one_more_hand")
    tour.start_round(t, 2)
    assert tour.seating_message(t, 2, "2") == {
        "round": 2, "table": "2", "seats": ["Fay", "Kaavi", "Hal", "Xenia"],
        "text": "Round 2, table 2: East Fay, South Kaavi, West Hal, North Xenia",
        "minutes": 60, "end_of_time": "one_more_hand"}
    tour.start_clock(t, 1000.0)
    assert tour.add_time(t, "2", 5) == 5
    assert tour.clock_message(t) == {"round": 2, "started": 1000.0, "minutes": 60,
                                     "end_of_time": "one_more_hand", "extra": {"2": 5}}
    tour.start_round(t, 1)  # a new round: its clock waits, no extra time
    assert t.clock_started is None and t.extra == {}


@pytest.mark.parametrize("order, line", [
    (lambda t: tour.start_clock(t, 0.0), "no round yet: send one first"),
    (lambda t: tour.start_round(t, 3), "round 3: the plan has rounds 1 to 2"),
    (lambda t: tour.add_time(t, "9", 5), "no table '9' (the tables are 1, 2)"),
    (lambda t: tour.add_time(t, "1", -5), "table 1 has 0 extra minutes: cannot take 5"),
    (lambda t: tour.swap(t, 1, "1", "Eve", "Kaavi"), "Eve is not at table 1 in round 1"),
    (lambda t: tour.substitute(t, "Eve", "Fay", 1), "Fay already plays from round 1 on"),
    (lambda t: tour.substitute(t, "Nobody", "Zed", 2), "Nobody plays no round from 2 on"),
])
def test_an_order_that_cannot_be_followed_is_one_line(order, line):
    t = _tournament()
    with pytest.raises(tour.TournamentError, match=re.escape(line)):
        order(t)


def test_a_plan_that_cannot_be_followed_is_refused():
    with pytest.raises(tour.TournamentError, match="round 1 seats Ana twice"):
        tour.new_tournament({"rounds": [[["Ana", "Ben", "Cho", "Ana"]]]})
    with pytest.raises(tour.TournamentError, match="not 1 tables of four names"):
        tour.new_tournament({"rounds": [[["Ana", "Ben", "Cho"]]]})
    with pytest.raises(tour.TournamentError, match="has no rounds"):
        tour.new_tournament({"seed": 1})
    t = tour.new_tournament({"rounds": [[["A", "B", "C", "D"]]]}, ["X"])
    assert tour.Tournament.from_dict(t.as_dict()) == t


# --- held back, swapped, substituted -----------------------------------------------------


def test_a_rounds_results_are_held_back_until_every_table_has_finished(tmp_path):
    db = connect(tmp_path / "club.sqlite")
    t = _tournament(hold_results=True)
    _record(db, NAMES, "club:1-a")
    hidden = tour.held_back(t, games(db))
    assert hidden == {"club:1-a"}
    assert standings_without(db, hidden) == []  # nothing shown yet
    assert len(games(db)) == 1  # the league file still holds it
    _record(db, ("Eve", "Fay", "Gus", "Hal"), "club:2-a")
    assert tour.held_back(t, games(db)) == set()
    assert len(standings_without(db, set())) == 8
    t.hold_results = False
    _record(db, ("Wanjirou", "Eve", "Ichihime", "Gus"), "club:1-b")  # round 2, table 1
    assert tour.held_back(t, games(db)) == set()
    assert tour.finished_tables(t, 2, games(db)) == ["1"]


def test_the_status_holds_back_a_round_not_over_and_shows_it_once_it_is(tmp_path, capsys):
    plan, db_path = tmp_path / "plan.json", tmp_path / "club.sqlite"
    plan.write_text(json.dumps(PLAN))
    db = connect(db_path)
    _record(db, NAMES, "club:1-a")
    assert shown_standings(db_path, db)[1] == 0  # no tournament: every game shown
    assert _tk("start", "--plan", str(plan), "--db", str(db_path), "--hold-results") == 0
    assert shown_standings(db_path, db) == ([], 1)
    capsys.readouterr()
    assert _tk("status", "--db", str(db_path)) == 0
    out = capsys.readouterr().out
    assert "1 game held back until its round is over" in out and "Kaavi" not in out
    _record(db, ("Eve", "Fay", "Gus", "Hal"), "club:2-a")
    standings, hidden = shown_standings(db_path, db)
    assert hidden == 0 and {p.name for p in standings} == set(NAMES) | {"Eve", "Fay", "Gus", "Hal"}
    db.close()


def test_a_swap_after_the_game_fixes_the_leagues_record(tmp_path):
    db = connect(tmp_path / "club.sqlite")
    t = _tournament()
    _record(db, NAMES, "club:1-a")  # the table played with the plan's seats
    before = {p.name: p.points for p in standings_without(db, set())}
    text = tour.swap(t, 1, "1", "Wanjirou", "Kaavi")  # they sat the other way
    assert text == "Round 1, table 1: East Kaavi, South Wanjirou, West Xenia, North Ichihime"
    assert fix_record(db, "club:1-a", {"Wanjirou": "Kaavi", "Kaavi": "Wanjirou"})
    after = {p.name: p.points for p in standings_without(db, set())}
    assert after["Kaavi"] == before["Wanjirou"] and after["Wanjirou"] == before["Kaavi"]
    assert games(db)[0].names == ("Kaavi", "Wanjirou", "Xenia", "Ichihime")
    assert tour.rounds_of(t, games(db)) == {"club:1-a": (1, "1")}
    assert not fix_record(db, "club:1-a", {"Nobody": "Else"})


def test_a_substitute_plays_the_later_rounds():
    t = _tournament()
    changed = tour.substitute(t, "Kaavi", "Zed", 2)
    assert changed == ["Round 2, table 2: East Fay, South Zed, West Hal, North Xenia"]
    assert "Kaavi" in tour.seats(t, 1, "1")  # round 1 as it was
    assert t.fixes == ["Zed plays for Kaavi from round 2"]


def _tk(*args: str) -> int:
    return main(["tournament", *args])


def test_the_organiser_fixes_seats_and_names_a_substitute_from_the_command_line(
        tmp_path, capsys):
    plan, db_path = tmp_path / "plan.json", tmp_path / "club.sqlite"
    plan.write_text(json.dumps(PLAN))
    assert _tk("start", "--plan", str(plan), "--db", str(db_path), "--hold-results") == 0
    assert _tk("start", "--plan", str(plan), "--db", str(db_path)) == 2
    assert "a tournament is already kept in" in capsys.readouterr().err
    db = connect(db_path)
    _record(db, NAMES, "club:1-a")
    _record(db, ("Eve", "Fay", "Gus", "Hal"), "club:2-a")
    assert _tk("swap", "--round", "1", "--table", "1", "Kaavi", "Xenia", "--db",
               str(db_path)) == 0
    assert "record of round 1, table 1's game is fixed" in capsys.readouterr().out
    assert games(db)[0].names == ("Wanjirou", "Xenia", "Kaavi", "Ichihime")
    # Hal's substitute played round 1 already: his game's record is fixed too
    assert _tk("substitute", "Hal", "Zed", "--from-round", "1", "--db", str(db_path)) == 0
    out = capsys.readouterr().out
    assert "Zed plays for Hal from round 1; 1 recorded game fixed" in out
    assert games(db)[1].names == ("Eve", "Fay", "Gus", "Zed")
    assert _tk("status", "--db", str(db_path)) == 0
    out = capsys.readouterr().out
    assert "no round sent yet" in out and "fixed: round 1, table 1: Kaavi and Xenia" in out
    assert "Zed" in out and "held back" not in out  # round 1 is over at both tables
    assert _tk("swap", "--round", "1", "--table", "1", "Kaavi", "Eve", "--db",
               str(db_path)) == 2
    assert capsys.readouterr().err.strip() == (
        "tablekit tournament: Eve is not at table 1 in round 1 "
        "(Wanjirou, Xenia, Kaavi, Ichihime)")
    db.close()


# --- at the table ------------------------------------------------------------------------


class Wall:
    """The tables' wall clock, moved by the test."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def _table(tmp_path: Path, wall: Wall) -> tuple[Flow, SimpleNamespace]:
    flow = Flow(Session.open(tmp_path / "game.jsonl"), rules=TENHOU, wall=wall)
    return flow, SimpleNamespace(flow=flow)


def _sent(orders: Orders, t: tour.Tournament, table: str) -> None:
    orders.take(seating_topic(table), json.dumps(tour.seating_message(t, t.round, table)
                                                 ).encode())
    orders.take(clock_topic(orders.table), json.dumps(tour.clock_message(t)).encode())


def test_a_table_shows_its_seats_starts_on_ok_and_follows_the_clubs_clock(tmp_path):
    wall = Wall(10_000.0)
    flow, app = _table(tmp_path, wall)
    orders, t = Orders("2"), _tournament(minutes=60)
    hook = orders_hook(orders)
    tour.start_round(t, 1)
    _sent(orders, t, "2")
    hook(app)
    assert flow.stage is Stage.CHOOSE_PLAYERS
    assert flow.data.message == ("Round 1, table 2: East Eve, South Fay, West Gus, North Hal: "
                                 "OK to play")
    flow.handle(OK)
    state = flow.session.state
    assert state.names == ("Eve", "Fay", "Gus", "Hal") and state.rules.time_limit == 60
    tour.start_clock(t, 9_700.0)  # the organiser started the clock five minutes ago
    _sent(orders, t, "2")
    hook(app)
    timing.tick(flow)
    hook(app)
    assert timing.text(flow).startswith("55:00 left")
    tour.add_time(t, "2", 10)  # ten minutes more for this table only
    _sent(orders, t, "2")
    hook(app)
    assert timing.text(flow).startswith("65:00 left")
    other = Orders("1")
    _sent(other, t, "2")
    assert other.clock_for() == (9_700.0, 60, "finish_hand")  # table 1: no extra
    hook(app)  # the seating again (the clock changed): the game in play goes on
    assert flow.stage is not Stage.CHOOSE_PLAYERS and flow.session.state.names[0] == "Eve"


def test_a_seating_sent_during_a_game_waits_for_its_end(tmp_path):
    flow, app = _table(tmp_path, Wall(0.0))
    for event in GAME[:4]:  # a hand dealt and a tile discarded
        flow.session.submit(event)
    orders, t = Orders("1"), _tournament()
    hook = orders_hook(orders)
    tour.start_round(t, 2)
    _sent(orders, t, "1")
    hook(app)
    assert flow.stage is not Stage.CHOOSE_PLAYERS and flow.session.state.names == NAMES
    for event in GAME[4:]:  # the game is over
        flow.session.submit(event)
    flow.rest()
    hook(app)
    assert flow.stage is Stage.CHOOSE_PLAYERS
    assert flow.data.message.startswith("Round 2, table 1: East Wanjirou, South Eve")


def test_seats_replace_a_game_of_nameless_seats_but_not_the_game_they_started(tmp_path):
    flow, app = _table(tmp_path, Wall(0.0))
    flow.start_game(TENHOU)  # tablekit run --club without players: a game of seats
    flow.handle(OK)  # East 1 dealt, nothing played
    orders, t = Orders("1"), _tournament()
    hook = orders_hook(orders)
    tour.start_round(t, 1)
    _sent(orders, t, "1")
    hook(app)
    assert flow.stage is Stage.CHOOSE_PLAYERS
    flow.handle(OK)
    assert flow.session.state.names == NAMES
    _sent(orders, t, "1")  # the same seats again (the broker, a new clock)
    hook(app)
    assert flow.stage is not Stage.CHOOSE_PLAYERS
    finished = Flow(Session.open(tmp_path / "over.jsonl"), rules=TENHOU)
    for event in GAME:  # these four's game over, then swapped by the organiser
        finished.session.submit(event)
    tour.swap(t, 1, "1", "Kaavi", "Xenia")
    _sent(orders, t, "1")
    orders_hook(orders)(SimpleNamespace(flow=finished))
    assert finished.stage is not Stage.CHOOSE_PLAYERS


# --- through a real broker ---------------------------------------------------------------


def test_the_seating_and_the_clock_reach_a_table_through_the_broker(tmp_path, monkeypatch):
    from mosquitto_broker import Broker

    from tablekit.club import client as club_client
    from tablekit.club.outbox import Outbox
    from tablekit.club.publisher import Publisher

    monkeypatch.setattr(club_client, "RECONNECT", (1, 1))
    (tmp_path / "broker").mkdir()
    broker = Broker(tmp_path / "broker").start()
    orders = Orders("2")
    table = Publisher("2", broker.address, Outbox(tmp_path / "outbox"), orders=orders).start()
    try:
        plan, db = tmp_path / "plan.json", str(tmp_path / "club.sqlite")
        plan.write_text(json.dumps(PLAN))
        assert _tk("start", "--plan", str(plan), "--db", db, "--minutes", "45") == 0
        assert _tk("round", "1", "--db", db, "--broker", broker.url) == 0
        assert _tk("clock", "--db", db, "--broker", broker.url) == 0
        assert _tk("extra", "--table", "2", "--minutes", "3", "--db", db,
                   "--broker", broker.url) == 0
        deadline = time.monotonic() + 20
        while orders.clock_for() is None or orders.clock_for()[1] != 48:
            assert time.monotonic() < deadline, "the clock did not reach the table"
            time.sleep(0.05)
        assert orders.seating["text"] == ("Round 1, table 2: East Eve, South Fay, "
                                          "West Gus, North Hal")
        started = orders.clock_for()[0]
        assert abs(started - time.time()) < 20
        flow, app = _table(tmp_path, Wall(started + 60))
        hook = orders_hook(orders)
        hook(app)
        flow.handle(OK)
        timing.tick(flow)
        hook(app)
        assert timing.text(flow).startswith("47:00 left")
    finally:
        table.close()
        broker.stop()


TOURNAMENT_ACL = re.compile(r"```text\n(# the organiser.*?)```", re.S)


def test_the_documented_acl_lets_the_organiser_send_and_each_table_read_its_seats(
        tmp_path, monkeypatch):
    import mosquitto_broker
    from mosquitto_broker import Broker

    from tablekit.club import client as club_client
    from tablekit.club.address import ClubError, Credentials
    from tablekit.club.organiser import send_retained
    from tablekit.club.outbox import Outbox
    from tablekit.club.publisher import Publisher

    docs = Path(__file__).resolve().parents[1] / "docs" / "tournament.md"
    extra = TOURNAMENT_ACL.search(docs.read_text())
    assert extra and extra[1] in mosquitto_broker.ACL, "the docs give the shipped ACL's lines"
    monkeypatch.setattr(club_client, "RECONNECT", (1, 1))
    users = {"organiser": "o-pw", "1": "one-pw", "2": "two-pw"}
    broker = Broker(tmp_path, users).start()
    one, two = Orders("1"), Orders("2")
    tables = [Publisher(name, broker.address, Outbox(tmp_path / name),
                        Credentials(name, users[name]), orders=orders).start()
              for name, orders in (("1", one), ("2", two))]
    try:
        t = _tournament(minutes=30)
        tour.start_round(t, 1)
        tour.start_clock(t, 5.0)
        time.sleep(1)  # the tables subscribed
        organiser = Credentials("organiser", "o-pw")
        send_retained(broker.address, organiser,
                      [(seating_topic(name), tour.seating_message(t, 1, name))
                       for name in ("1", "2")]
                      + [(clock_topic(name), tour.clock_message(t)) for name in ("1", "2")])
        deadline = time.monotonic() + 20
        while one.clock_for() is None or two.seating is None or one.seating is None:
            assert time.monotonic() < deadline, "the orders did not reach the tables"
            time.sleep(0.05)
        assert one.seating["seats"] == list(NAMES) and two.seating["seats"][0] == "Eve"
        with pytest.raises(ClubError, match="refused the organiser: not auth"):  # wrong password
            send_retained(broker.address, Credentials("organiser", "guess"), [], wait=2)
    finally:
        for table in tables:
            table.close()
        broker.stop()


def test_the_board_page_holds_back_a_round_not_over_and_says_so(tmp_path):
    from tablekit.club.board import Board
    from tablekit.web.board import BoardSource

    plan, db_path = tmp_path / "plan.json", tmp_path / "club.sqlite"
    plan.write_text(json.dumps(PLAN))
    db = connect(db_path)
    assert _tk("start", "--plan", str(plan), "--db", str(db_path), "--hold-results") == 0
    board = Board(db)
    _record(db, NAMES, "club:1-a")
    board.recorded += 1  # as the board counts a game it recorded
    state = BoardSource(board, db_path).current()[1]
    assert state["league"] == [] and "1 game(s) of the round held back" in state["league_note"]
    _record(db, ("Eve", "Fay", "Gus", "Hal"), "club:2-a")
    board.recorded += 1
    state = BoardSource(board, db_path).current()[1]
    assert len(state["league"]) == 8 and state["league_note"] == ""
    db.close()
