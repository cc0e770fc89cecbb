"""The evening in the flow: after the final standings OK shows the evening so far (and the
league table when one is kept), then starts the next game with the same players; UNDO goes
back one screen or one action; a power cut comes back to the same screen and evening."""

from __future__ import annotations

import pytest
from conftest import DATA

from tablekit.display.model import LeagueLine, Mode
from tablekit.flow import Flow, Stage
from tablekit.formats.tenhou import import_file
from tablekit.game.session import Session
from tablekit.io.presses import ButtonName, ButtonPress

GAME = import_file(DATA / "tenhou-python-bot-28.xml")
OK, UNDO = ButtonPress(ButtonName.OK), ButtonPress(ButtonName.UNDO)
TABLE = (LeagueLine("Kaavi", 1, 48.0, 1.0, 4.1),)


def play_game(flow: Flow, start: bool = True) -> None:
    """The fixture game's hands (its start too when ``start``) straight into the journal."""
    for event in GAME.events[0 if start else 1:]:
        flow.session.submit(event)
    flow.rest()


@pytest.fixture
def journal(tmp_path):
    return tmp_path / "game.jsonl"


def test_ok_after_the_final_standings_shows_the_evening_then_deals_the_next_game(journal):
    flow = Flow(Session.open(journal))
    play_game(flow)
    assert flow.stage is Stage.FINAL
    flow.handle(OK)
    screen = flow.screen()
    assert screen.mode is Mode.EVENING and screen.league is None
    assert [(line.name, line.places, line.total) for line in screen.evening.lines()][:1] == [
        ("Kaavi", (1,), 48.0)]
    flow.handle(OK)                                  # no league: the next game
    state = flow.session.state
    assert flow.stage is Stage.BETWEEN_HANDS and state.names == GAME.start.names
    assert state.scores == (25000,) * 4 and state.round_label == "East 1"
    play_game(flow, start=False)
    flow.handle(OK)
    lines = {line.name: line for line in flow.screen().evening.lines()}
    assert flow.screen().evening.counted == 2
    assert (lines["Kaavi"].places, lines["Kaavi"].total) == ((1, 1), 96.0)
    assert lines["Xenia"].scores == (-40.0, -40.0)


def test_undo_goes_back_a_screen_and_takes_back_the_next_games_start(journal):
    flow = Flow(Session.open(journal), league=lambda: TABLE)
    play_game(flow)
    final = flow.screen()
    flow.handle(OK)
    flow.handle(OK)
    assert flow.stage is Stage.LEAGUE and flow.screen().league == TABLE
    flow.handle(UNDO)
    assert flow.stage is Stage.EVENING
    flow.handle(UNDO)
    assert flow.screen() == final                    # no journal line for a screen
    for _ in range(3):
        flow.handle(OK)
    assert flow.stage is Stage.BETWEEN_HANDS
    flow.handle(UNDO)                                # one action: the next game's start
    assert flow.stage is Stage.FINAL and flow.session.state.standings == final.state.standings
    flow.handle(ButtonPress(ButtonName.UNDO, long=True))
    assert flow.stage is Stage.MENU


@pytest.mark.parametrize("presses", [1, 2])
def test_a_power_cut_between_games_comes_back_to_the_same_screen(journal, presses):
    flow = Flow(Session.open(journal), league=lambda: TABLE)
    play_game(flow)
    for _ in range(presses):
        flow.handle(OK)
    before = flow.screen()
    flow.session.close()
    again = Flow(Session.open(journal), league=lambda: TABLE)
    assert again.screen() == before
    again.handle(OK if presses == 2 else UNDO)
    assert again.stage is (Stage.BETWEEN_HANDS if presses == 2 else Stage.FINAL)
    again.session.close()


def test_a_cancelled_game_is_listed_but_does_not_count(journal):
    from tablekit.game.events import GameEnded
    from tablekit.game.summary import CANCELLED

    flow = Flow(Session.open(journal))
    play_game(flow)
    flow.handle(OK)
    flow.handle(OK)
    flow.session.submit(GameEnded(CANCELLED))
    flow.rest()
    flow.handle(OK)
    evening = flow.screen().evening
    assert len(evening.games) == 2 and evening.counted == 1
    assert evening.games[1].cancelled and not evening.games[1].finished


def test_run_with_a_league_records_a_game_that_ended_before_a_power_cut(journal, tmp_path):
    """``tablekit run --league``: the league catches up with the journal at the start, and
    the flow has the league's table for the screen between games."""
    from tablekit.cli import main
    from tablekit.league.database import connect
    from tablekit.league.standings import league_table

    session = Session.open(journal)
    for event in GAME.events:
        session.submit(event)
    session.close()
    league = tmp_path / "club.sqlite"
    assert main(["run", "--camera", "none", "--buttons", "none", "--display",
                 f"headless:{tmp_path / 'screens'}", "--journal", str(journal),
                 "--league", str(league), "--frames", "2"]) == 0
    assert [p.name for p in league_table(connect(league))][:1] == ["Kaavi"]


# -- penalties and ending a game early, from the menu -----------------------------------

def dealt(journal, **options) -> Flow:
    from tablekit.rules.presets import TENHOU, with_options

    flow = Flow(Session.open(journal))
    flow.start_game(with_options(TENHOU, **options), ("Aki", "Ben", "Cho", "Dai"))
    flow.handle(OK)                                   # no camera: the hand from the buttons
    return flow


def choose(flow: Flow, label: str, held: bool = False) -> None:
    """Open the menu (unless one is open) and choose the item that starts with ``label``."""
    if flow.stage is not Stage.MENU:
        flow.handle(ButtonPress(ButtonName.UNDO, long=True))
    labels = [item.label for item in flow.data.place.items]
    target = next(i for i, text in enumerate(labels) if text.startswith(label))
    while flow.data.place.selected != target:
        flow.handle(UNDO)                             # UNDO moves down the menu
    flow.handle(ButtonPress(ButtonName.OK, long=held))


@pytest.mark.parametrize("shared", [False, True])
def test_a_penalty_from_the_menu_goes_into_the_ledger_and_the_final_standings(journal, shared):
    flow = dealt(journal, penalties_shared=shared)
    choose(flow, "Penalty: West (Cho)")
    assert flow.screen().menu.title == "Penalty: West (Cho)"
    flow.session.close()
    flow = Flow(Session.open(journal))                # a power cut: the amounts again
    choose(flow, "6,000" if shared else "2,000")
    state = flow.session.state
    assert state.penalties[2] == (6000 if shared else 2000) and flow.stage is Stage.PLAY
    assert sum(entry.points for entry in state.ledger) == (0 if shared else 2000)
    choose(flow, "End the game now", held=True)
    choose(flow, "End it")
    final = flow.screen()
    assert final.mode is Mode.FINAL
    assert {s.seat: s.score for s in final.state.standings}[2] == (
        -21.0 if shared else -17.0)                   # 25,000, 3rd by seat: -5 -10, less
    #                                                   the penalty (in thousands)
    flow.handle(UNDO)                                 # the end taken back: play on
    assert flow.stage is Stage.PLAY and flow.session.state.penalties[2]


def test_ending_a_game_early_needs_a_held_ok_and_a_confirmation(journal):
    flow = dealt(journal)
    choose(flow, "End the game now")
    assert flow.stage is Stage.MENU and "hold OK" in flow.data.message
    flow.handle(ButtonPress(ButtonName.OK, long=True))
    assert flow.screen().menu.title == "End the game now?"
    flow.handle(OK)                                   # the first item: play on
    assert flow.stage is Stage.PLAY
    choose(flow, "End the game now", held=True)
    choose(flow, "Cancel it")
    flow.handle(OK)
    evening = flow.screen().evening
    assert evening.games[0].cancelled and evening.counted == 0


def test_a_chombo_that_ends_the_game_takes_the_penalty_off_the_offender(journal):
    flow = dealt(journal, chombo="end_game", chombo_penalty=20000)
    choose(flow, "Chombo: South (Ben)")
    state = flow.session.state
    assert flow.stage is Stage.FINAL and "chombo by South (Ben)" in state.end_reason
    assert state.penalties == (0, 20000, 0, 0)
    assert {s.seat: s.score for s in state.standings}[1] == -15.0  # 2nd by seat: -5 +10 -20


# -- the game timer -----------------------------------------------------------------------

def timed(journal, now, policy="finish_hand") -> Flow:
    from tablekit.rules.presets import TENHOU, with_options

    flow = Flow(Session.open(journal), wall=lambda: now[0])
    flow.start_game(with_options(TENHOU, time_limit=60, end_of_time=policy))
    flow.handle(OK)
    return flow


def draw_hand(flow: Flow) -> None:
    """An exhaustive draw from the buttons: OK opens the declarations, OK ends the hand."""
    flow.handle(OK)
    flow.handle(OK)


@pytest.mark.parametrize("policy", ["finish_hand", "one_more_hand"])
def test_time_called_in_a_hand_ends_the_game_as_the_policy_says(journal, policy):
    now = [1000.0]
    flow = timed(journal, now, policy)
    assert flow.screen().timer == ("60:00 left, about 11 hands" if policy == "finish_hand"
                                   else "60:00 left, about 12 hands")  # 6 minutes a hand
    now[0] += 30 * 60
    flow.tick()
    assert flow.screen().timer.startswith("30:00 left")
    now[0] += 31 * 60                                 # time is called in the first hand
    flow.session.close()
    flow = Flow(Session.open(journal), wall=lambda: now[0])   # a power cut: the same clock
    flow.tick()
    assert flow.screen().timer == ("time is up: 1 more hand" if policy == "finish_hand"
                                   else "time is up: 2 more hands")
    draw_hand(flow)
    if policy == "one_more_hand":
        assert flow.stage is Stage.BETWEEN_HANDS
        flow.handle(OK)
        draw_hand(flow)
    assert flow.stage is Stage.FINAL and flow.session.state.end_reason == "time is up"
    assert flow.screen().timer == ""
    flow.handle(UNDO)                                 # the hand and the end, one action
    assert flow.stage is Stage.PLAY and flow.session.state.phase.value == "hand in play"


def test_a_game_without_a_time_limit_shows_no_clock(journal):
    flow = Flow(Session.open(journal), wall=lambda: 0.0)
    flow.start_game(GAME.rules)
    assert flow.screen().timer == "" and flow.data.timer is None
