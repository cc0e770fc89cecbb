"""Choosing the players with the seat buttons: from a roster before the first game and
between games, a seeded seating draw shown on screen, UNDO one step at a time, a power
cut in the middle, and the screen it draws."""

from __future__ import annotations

import pytest
from conftest import DATA
from gpiozero.pins.mock import MockFactory

from tablekit.app.loop import App, open_session
from tablekit.display.backends import PngDisplay
from tablekit.display.legend import between_legend
from tablekit.display.model import Mode
from tablekit.flow import Flow, Stage
from tablekit.flow.saved import note_path
from tablekit.formats.tenhou import import_file
from tablekit.game.events import GameStarted
from tablekit.game.session import Session, in_force
from tablekit.io.buttons import ButtonBoard
from tablekit.io.pinmap import load_pinmap
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.league.roster import draw_seats
from tablekit.rules.presets import TENHOU

ROSTER = ("Aki", "Ben", "Cho", "Dai", "Emi")
OK, UNDO = ButtonPress(ButtonName.OK), ButtonPress(ButtonName.UNDO)
HELD_OK = ButtonPress(ButtonName.OK, long=True)
GAME = import_file(DATA / "tenhou-python-bot-28.xml")
PINS = load_pinmap()


def riichi(seat: int) -> ButtonPress:
    return ButtonPress(ButtonName.RIICHI, seat)


def call(seat: int) -> ButtonPress:
    return ButtonPress(ButtonName.CALL, seat)


@pytest.fixture
def journal(tmp_path):
    return tmp_path / "game.jsonl"


def fresh(journal, seed=None) -> Flow:
    """A club night's first start: a roster, an empty journal, no game yet."""
    return Flow(Session.open(journal), roster=ROSTER, rules=TENHOU, seed=seed)


def seat_all(flow: Flow) -> None:
    """RIICHI once on each seat: the first names no other seat holds (Aki, Ben, Cho, Dai)."""
    for seat in range(4):
        flow.handle(riichi(seat))


def started(journal) -> list[GameStarted]:
    """The game starts in force in the journal's file (read as a restart would)."""
    events, _ = in_force(Session.open(journal).history)
    return [event for event in events if isinstance(event, GameStarted)]


def test_each_seat_cycles_the_roster_and_a_name_has_one_seat(journal):
    flow = fresh(journal)
    assert flow.stage is Stage.CHOOSE_PLAYERS and flow.screen().mode is Mode.CHOOSE_PLAYERS
    flow.handle(riichi(0))
    flow.handle(riichi(1))                          # Aki is East's: South gets Ben
    flow.handle(call(2))                            # CALL: back from the end of the roster
    assert flow.screen().seating.names == ("Aki", "Ben", "Emi", None)
    flow.handle(OK)
    assert flow.stage is Stage.CHOOSE_PLAYERS and "North: nobody yet" in flow.data.message
    flow.handle(riichi(0))                          # East moves on to Cho
    flow.handle(ButtonPress(ButtonName.WIN, 2))     # WIN clears West
    flow.handle(call(3))                            # ... and Emi is free for North
    assert flow.screen().seating.names == ("Cho", "Ben", None, "Emi")
    flow.handle(riichi(2))                          # West: Aki (Ben and Cho are taken)
    flow.handle(OK)
    state = flow.session.state
    assert state.names == ("Cho", "Ben", "Aki", "Emi") and flow.stage is Stage.BETWEEN_HANDS
    assert [event.names for event in started(journal)] == [("Cho", "Ben", "Aki", "Emi")]


def test_the_draw_is_seeded_shown_and_undone_one_step_at_a_time(journal):
    flow = fresh(journal, seed=7)
    flow.handle(HELD_OK)
    assert "needs four players" in flow.data.message and not flow.screen().seating.drawn
    seat_all(flow)
    flow.handle(HELD_OK)
    drawn = draw_seats(("Aki", "Ben", "Cho", "Dai"), seed=7)
    screen = flow.screen()
    assert screen.seating.names == drawn and screen.seating.drawn
    assert screen.message == (f"seats drawn: East {drawn[0]} · South {drawn[1]} · "
                              f"West {drawn[2]} · North {drawn[3]}")
    flow.handle(UNDO)                               # the draw taken back
    assert flow.screen().seating.names == ("Aki", "Ben", "Cho", "Dai")
    flow.handle(UNDO)                               # then North's name
    assert flow.screen().seating.names == ("Aki", "Ben", "Cho", None)
    for _ in range(3):
        flow.handle(UNDO)
    flow.handle(UNDO)                               # nothing left before the first game
    assert flow.stage is Stage.CHOOSE_PLAYERS and "nothing to take back" in flow.data.message
    seat_all(flow)
    flow.handle(HELD_OK)
    assert flow.screen().seating.names == draw_seats(("Aki", "Ben", "Cho", "Dai"), seed=8)
    flow.handle(OK)                                 # the second draw's seats play
    assert flow.session.state.names == draw_seats(("Aki", "Ben", "Cho", "Dai"), seed=8)


def test_undo_on_the_first_game_started_goes_back_to_its_seats(journal):
    flow = fresh(journal)
    seat_all(flow)
    flow.handle(OK)
    flow.handle(UNDO)
    assert flow.stage is Stage.CHOOSE_PLAYERS and started(journal) == []
    assert flow.screen().seating.names == ("Aki", "Ben", "Cho", "Dai")
    flow.handle(call(3))                            # North: back past Cho, Ben, Aki to Emi
    flow.handle(OK)
    assert [event.names for event in started(journal)] == [("Aki", "Ben", "Cho", "Emi")]


def test_a_power_cut_while_choosing_comes_back_to_the_same_seats(journal):
    flow = fresh(journal, seed=3)
    seat_all(flow)
    flow.handle(HELD_OK)
    before = flow.screen()
    assert note_path(journal).exists() and started(journal) == []
    flow.session.close()
    again = fresh(journal, seed=3)
    assert again.screen() == before
    again.handle(UNDO)                              # the draw is one step, after the power cut too
    assert again.screen().seating.names == ("Aki", "Ben", "Cho", "Dai")
    again.handle(OK)
    assert again.session.state.names == ("Aki", "Ben", "Cho", "Dai")
    again.session.close()


def test_a_note_from_a_roster_no_longer_given_is_not_used(journal):
    flow = fresh(journal)
    flow.handle(riichi(0))
    flow.session.close()
    again = Flow(Session.open(journal), roster=("Zed", "Yui", "Xan", "Wei"))
    assert again.screen().seating.names == (None,) * 4    # Aki is not on this roster
    again.session.close()


def play_game(flow: Flow) -> None:
    for event in GAME.events:
        flow.session.submit(event)
    flow.rest()


@pytest.mark.parametrize("way", ["call", "menu"])
def test_players_chosen_again_between_games_play_the_next_game(journal, way):
    flow = Flow(Session.open(journal), roster=(*GAME.start.names, "Emi"))
    play_game(flow)
    flow.handle(OK)                                 # the evening so far
    assert "CALL: choose the players" in between_legend(flow.screen())
    rules = flow.session.state.rules
    if way == "call":
        flow.handle(call(2))
    else:
        flow.handle(ButtonPress(ButtonName.UNDO, long=True))
        labels = [item.label for item in flow.data.place.items]
        while labels[flow.data.place.selected] != "Choose the players again":
            flow.handle(UNDO)
        flow.handle(OK)
    assert flow.screen().seating.names == GAME.start.names   # the last game's, to change
    flow.handle(ButtonPress(ButtonName.WIN, 1))
    flow.handle(call(1))                            # CALL from nobody: the last free, Emi
    flow.handle(OK)
    names = (GAME.start.names[0], "Emi", *GAME.start.names[2:])
    assert flow.session.state.names == names and flow.stage is Stage.BETWEEN_HANDS
    assert flow.session.state.rules == rules        # the evening's rules go on
    assert [event.names for event in started(journal)][-1] == names


def test_undo_without_a_step_goes_back_to_the_screen_the_choice_came_from(journal):
    flow = Flow(Session.open(journal), roster=(*GAME.start.names, "Emi"))
    play_game(flow)
    flow.handle(OK)
    flow.handle(call(0))
    flow.handle(riichi(3))                          # North: Emi
    flow.handle(UNDO)
    flow.handle(UNDO)
    assert flow.stage is Stage.EVENING and flow.session.state.names == GAME.start.names


def test_without_a_roster_nothing_changes(journal):
    flow = Flow(Session.open(journal))
    assert flow.stage is Stage.BETWEEN_HANDS        # an empty journal waits as before
    play_game(flow)
    flow.handle(OK)
    flow.handle(call(0))
    assert flow.stage is Stage.EVENING and "does nothing" in flow.data.message
    assert "choose" not in flow.screen().message and not flow.screen().roster
    flow.handle(ButtonPress(ButtonName.UNDO, long=True))
    assert "Choose the players again" not in [item.label for item in flow.data.place.items]


def test_the_seat_buttons_on_mock_pins_choose_the_players_of_tablekit_run(journal, tmp_path):
    """The app as ``tablekit run --roster`` builds it: no game until the buttons choose."""
    now = [0.0]
    lines: list[str] = []
    session = open_session(journal, TENHOU, lines.append, start=False)
    app = App(Flow(session, clock=lambda: now[0], roster=ROSTER, rules=TENHOU, seed=5),
              PngDisplay(tmp_path / "png", numbered=False), clock=lambda: now[0])
    app.buttons = ButtonBoard(app.inbox, pin_factory=MockFactory(), clock=lambda: now[0])

    def press(name: ButtonName, seat: int | None = None, hold: float = 0.1) -> None:
        pin = app.buttons.factory.pin(PINS.pin_for(name, seat))
        pin.drive_low()
        now[0] += hold
        app.step()
        pin.drive_high()
        now[0] += 0.1
        app.step()

    app.step()
    assert lines == ["players: choose them with the seat buttons"]
    assert app.flow.screen().mode is Mode.CHOOSE_PLAYERS
    assert (tmp_path / "png" / "scoreboard.png").exists() and started(journal) == []
    for seat in range(4):
        press(ButtonName.RIICHI, seat)
    press(ButtonName.OK, hold=PINS.long_press + 0.2)
    drawn = draw_seats(("Aki", "Ben", "Cho", "Dai"), seed=5)
    assert app.flow.screen().seating.names == drawn
    press(ButtonName.OK)
    assert app.flow.session.state.names == drawn
    app.buttons.close()
    app.flow.session.close()


def test_run_with_a_roster_and_no_players_waits_for_the_seat_buttons(tmp_path, capsys):
    from tablekit.cli import main

    roster = tmp_path / "roster.txt"
    roster.write_text("\n".join(ROSTER) + "\n", encoding="utf-8")
    journal = tmp_path / "game.jsonl"
    assert main(["run", "--camera", "none", "--buttons", "none", "--display",
                 f"headless:{tmp_path / 'screens'}", "--journal", str(journal),
                 "--roster", str(roster), "--frames", "2"]) == 0
    assert "choose them with the seat buttons" in capsys.readouterr().err
    assert started(journal) == []                   # no game until the players are chosen
    assert main(["run", "--camera", "none", "--buttons", "none", "--display",
                 f"headless:{tmp_path / 'screens'}", "--journal", str(journal),
                 "--roster", str(roster), "--players", "Emi,Dai,Cho,Ben",
                 "--frames", "2"]) == 0             # typed names still start it at once
    assert [event.names for event in started(journal)] == [("Emi", "Dai", "Cho", "Ben")]
