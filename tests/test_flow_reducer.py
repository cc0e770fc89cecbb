"""The flow's stage handlers as pure functions (issue #48): the flow's value, the table, a
press, the time and the run's settings in; the new value and its effects out. No session,
no journal, no camera: each test builds a :class:`Table` from the engine's reducer alone,
and the handler's answer is compared whole. The last tests run the shell (:class:`Flow`)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tablekit.display.model import Mode
from tablekit.flow import Flow, between, by_hand, claims, confirm, play, seats, timing
from tablekit.flow.menu import Action, MenuItem
from tablekit.flow.model import (
    ExpectCall,
    FlowData,
    ReadWin,
    RenewPhones,
    Rest,
    Settings,
    Submit,
    Table,
    Undo,
    the_win,
)
from tablekit.flow.pending import Pending
from tablekit.flow.screen import Outside, screen, wants
from tablekit.flow.seating import Seating
from tablekit.flow.stage import DIFFERENCES_SHOWN, REREAD, WIN_WINDOW, Stage
from tablekit.flow.stages import (
    BetweenHands,
    ChoosePlayers,
    CollectWins,
    ConfirmWin,
    Evening,
    Final,
    League,
    Menu,
    Play,
    Tenpai,
)
from tablekit.flow.steps import PROMPT
from tablekit.flow.timer import Timer
from tablekit.flow.win import WinInProgress
from tablekit.game.events import (
    Discard,
    Draw,
    ExhaustiveDraw,
    GameEnded,
    GameStarted,
    HandStarted,
    Kita,
    RiichiDeclared,
)
from tablekit.game.journal import JournalError
from tablekit.game.session import Session
from tablekit.game.state import Phase, TableState
from tablekit.game.win_reading import WinReading
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.rules.presets import TENHOU, TENHOU_SANMA, with_options
from tablekit.tiles import Tile

NAMES = ("Ana", "Ben", "Cho", "Dai")
OK, UNDO = ButtonPress(ButtonName.OK), ButtonPress(ButtonName.UNDO)
HELD_UNDO = ButtonPress(ButtonName.UNDO, long=True)
MAN = Tile.from_code("1m")


def started(rules=TENHOU, names=NAMES) -> Table:
    """A game started, no hand dealt yet (between hands)."""
    return Table(TableState.new()).after([GameStarted(rules, names)])


def dealt(rules=TENHOU, tracked: bool = False, names=NAMES) -> Table:
    return started(rules, names).after([HandStarted(tracked=tracked)])


def over() -> Table:
    return started().after([GameEnded("ended early by the players")])


def test_ok_between_hands_deals_the_next_hand_as_an_effect():
    data, effects = play.on_between_hands(FlowData(), started(), OK, 0.0, Settings())
    assert effects == (Submit((HandStarted(tracked=False),)),)
    assert data == FlowData(place=Play())


def test_a_hand_dealt_with_a_camera_is_tracked_and_drops_the_riichi_presses_waiting():
    waiting = FlowData(pending=Pending(riichi=((2, 5),)))
    data, effects = play.on_between_hands(waiting, started(), OK, 0.0, Settings(camera=True))
    assert effects == (Submit((HandStarted(tracked=True),)),)
    assert data.pending == Pending() and data.place == Play()


def test_a_refused_event_is_the_message_and_runs_nothing():
    in_play = dealt()
    data, effects = play.on_between_hands(FlowData(), in_play, OK, 0.0, Settings())
    assert effects == ()
    assert data.message == "hand started: the game is at 'hand in play'"
    assert data.place == Play()  # the phase's own stage


def test_the_handlers_do_not_change_what_they_are_given():
    before, table = FlowData(place=Tenpai((False,) * 4)), dealt()
    play.on_tenpai(before, table, ButtonPress(ButtonName.RIICHI, 1), 0.0, Settings())
    assert before == FlowData(place=Tenpai((False,) * 4))
    assert table == dealt()


def test_tenpai_seats_toggle_and_ok_declares_the_draw():
    data, effects = play.on_tenpai(FlowData(place=Tenpai((False,) * 4)), dealt(),
                                   ButtonPress(ButtonName.RIICHI, 2), 0.0, Settings())
    assert (data.place, effects) == (Tenpai((False, False, True, False)), ())
    data, effects = play.on_tenpai(data, dealt(), OK, 0.0, Settings())
    assert effects == (Submit((ExhaustiveDraw(tenpai=(2,), wall_left=0),)),)
    assert data.place == BetweenHands()


def test_the_final_standings_the_evening_and_the_league_move_on_with_ok():
    table = over()
    assert table.state.phase is Phase.GAME_OVER
    data, effects = between.on_final(FlowData(place=Final()), table, OK, 0.0, Settings())
    assert (data.place, effects) == (Evening(), ())
    data, effects = between.on_evening(data, table, OK, 0.0, Settings(league=True))
    assert (data.place, effects) == (League(), ())
    data, effects = between.on_league(data, table, UNDO, 0.0, Settings(league=True))
    assert (data.place, effects) == (Evening(), ())


def test_the_next_game_is_the_same_players_under_the_same_rules():
    table = over()
    data, effects = between.on_evening(FlowData(place=Evening()), table, OK, 0.0, Settings())
    assert effects == (Submit((GameStarted(TENHOU, NAMES, 0),)),)
    assert data.place == BetweenHands() and data.message.startswith("next game")


def test_call_on_the_final_standings_chooses_the_players_again_with_a_roster():
    roster = (*NAMES, "Emi")
    data, effects = between.on_final(FlowData(place=Final()), over(),
                                     ButtonPress(ButtonName.CALL, 0), 0.0,
                                     Settings(roster=roster))
    assert effects == () and data.message == PROMPT
    assert data.place == ChoosePlayers(Seating(roster, NAMES, back=Stage.FINAL))


def test_held_undo_opens_the_menu_and_undo_takes_back_with_a_rest_after_it():
    table = dealt(tracked=True).after([Draw(0)])
    data, effects = play.on_play(FlowData(place=Play()), table, HELD_UNDO, 0.0, Settings())
    assert isinstance(data.place, Menu) and effects == ()
    data, effects = play.on_play(FlowData(place=Play()), table, UNDO, 0.0, Settings())
    assert data.message == "took back the last action"
    assert effects == (Undo(), Rest())
    assert effects[0].refused == FlowData(place=Play())  # a journal that cannot be written


def test_redo_with_nothing_to_put_back_says_so_without_an_effect():
    item = MenuItem("Redo", Action.REDO)
    menu = FlowData(place=Menu("Menu", (item,)))
    data, effects = play.on_menu(menu, dealt(), OK, 0.0, Settings())
    assert (data.message, data.place, effects) == (
        "redo: there is nothing to redo", Play(), ())


def test_the_phones_renewed_from_the_menu_are_an_effect():
    item = MenuItem("Phones: new seat addresses", Action.PHONE_KEYS)
    menu = FlowData(place=Menu("Menu", (item,)))
    data, effects = play.on_menu(menu, dealt(), OK, 0.0, Settings(phones=True))
    assert effects == (RenewPhones(),)
    assert isinstance(data.place, Menu) and data.place.chosen.action is Action.PHONE_KEYS


def test_win_opens_the_window_at_the_time_given():
    data, effects = play.on_play(FlowData(place=Play()), dealt(),
                                 ButtonPress(ButtonName.WIN, 1), 100.0, Settings())
    assert effects == ()
    assert data.place == CollectWins(WinInProgress(((1, False),), 100.0 + WIN_WINDOW))


def test_held_call_shows_the_differences_until_a_while_after_now():
    data, _ = play.on_play(FlowData(place=Play()), dealt(),
                           ButtonPress(ButtonName.CALL, 3, long=True), 50.0, Settings())
    assert (data.differences_for, data.differences_until) == (3, 50.0 + DIFFERENCES_SHOWN)


def test_call_with_a_camera_waits_for_the_meld_and_tells_the_camera():
    table = dealt(tracked=True)
    data, effects = play.on_play(FlowData(place=Play()), table,
                                 ButtonPress(ButtonName.CALL, 2), 0.0, Settings(camera=True))
    assert effects == (ExpectCall(2),)
    assert data.pending.calls == ((2, table.state.events, 0),)


def test_riichi_ahead_of_the_camera_waits_then_joins_the_seats_discard():
    table = dealt(tracked=True).after([Draw(0)])
    data, effects = play.on_play(FlowData(place=Play()), table,
                                 ButtonPress(ButtonName.RIICHI, 1), 0.0, Settings(camera=True))
    assert effects == () and data.pending.riichi == ((1, table.state.events),)
    table = table.after([Discard(0, MAN)], joins=True).after([Draw(1)])
    tile = Tile.from_code("9p")
    data, effects = play.camera_event(data, table, Discard(1, tile), 0.0, Settings(camera=True))
    assert effects == (Submit((RiichiDeclared(1),), joins=True),
                       Submit((Discard(1, tile),), joins=True))
    assert data.pending == Pending()


def test_kita_without_a_camera_is_an_action_with_its_count_said():
    table = dealt(TENHOU_SANMA, names=NAMES[:3])
    data, effects = play.on_play(FlowData(place=Play()), table,
                                 ButtonPress(ButtonName.CALL, 1), 0.0, Settings())
    assert effects == (Submit((Kita(1),)),)
    assert data.message.startswith("kita by South")


@pytest.mark.parametrize("ready", [False, True])
def test_ok_at_the_seats_starts_the_game_only_when_every_seat_is_taken(ready):
    roster = (*NAMES, "Emi")
    seating = Seating(roster, NAMES if ready else (*NAMES[:3], None))
    table = Table(TableState.new())
    data, effects = seats.on_choose_players(FlowData(place=ChoosePlayers(seating)), table, OK,
                                            0.0, Settings(roster=roster))
    if ready:
        assert effects == (Submit((GameStarted(TENHOU, NAMES, 0),)),)
        assert data.place == BetweenHands()
    else:
        assert effects == () and data.message.startswith("North: nobody yet")


def test_undo_on_a_first_game_just_started_goes_back_to_its_seats():
    roster = (*NAMES, "Emi")
    data, effects = play.on_between_hands(FlowData(), started(), UNDO, 0.0,
                                          Settings(roster=roster))
    assert effects == (Undo(),) and effects[0].refused == FlowData()
    assert data.place == ChoosePlayers(Seating(roster, NAMES)) and data.message == PROMPT


def test_the_value_is_frozen():
    with pytest.raises(AttributeError):
        FlowData().message = "no"  # type: ignore[misc]
    assert replace(FlowData(), message="yes").said("") == FlowData()


# -- the stages of a win ------------------------------------------------------------------

def test_a_ron_without_a_camera_goes_from_the_window_to_ok_without_a_session():
    table, settings = dealt(), Settings()
    data, effects = play.on_play(FlowData(place=Play()), table,
                                 ButtonPress(ButtonName.WIN, 1), 0.0, settings)
    data, effects = claims.on_collect_wins(data, table, OK, 0.5, settings)
    assert (data.stage, data.message, effects) == (
        Stage.CHOOSE_DISCARDER, claims.WHO_DEALT_IN, ())
    data, effects = claims.on_choose_discarder(data, table, ButtonPress(ButtonName.CALL, 2),
                                               0.6, settings)
    assert data.stage is Stage.ENTER_VALUE and effects == ()
    assert the_win(data).discarder == 2 and the_win(data).preview is not None
    data, effects = by_hand.on_enter_value(data, table, OK, 0.7, settings)
    win = the_win(data)
    assert data.stage is Stage.CONFIRM_WIN and effects == () and win.pending is not None
    data, effects = confirm.on_confirm_win(data, table, OK, 0.8, settings)
    assert effects == (Submit((win.pending,)),)
    assert data.place == BetweenHands()


def test_a_second_win_in_the_window_makes_a_double_ron_and_undo_cancels_it():
    window = FlowData(place=CollectWins(WinInProgress(((1, False),), 1.5)))
    data, effects = claims.on_collect_wins(window, dealt(), ButtonPress(ButtonName.WIN, 3),
                                           0.2, Settings())
    assert the_win(data).claimed == (1, 3) and effects == ()
    data, effects = claims.on_collect_wins(data, dealt(), UNDO, 0.3, Settings())
    assert (data.place, data.message, effects) == (Play(), "win cancelled", ())


def test_a_win_read_by_the_camera_asks_for_the_reading_as_an_effect():
    table, settings = dealt(tracked=True), Settings(camera=True)
    window = FlowData(place=CollectWins(WinInProgress(((1, True),), 0.0)))
    data, effects = claims.resolve_claims(window, table, 0.0, settings)
    assert data.stage is Stage.CONFIRM_WIN and effects == (ReadWin(),)
    assert the_win(data).reread_at == REREAD


def test_a_tsumo_waits_while_the_camera_is_behind_and_reads_nothing():
    table = replace(dealt(tracked=True), behind=True)
    waiting = FlowData(place=ConfirmWin(WinInProgress(((1, True),), 0.0, seats=(1,))))
    data, effects = confirm.reread(waiting, table, 1.0, Settings(camera=True))
    assert effects == ()
    assert data.message == "the camera is catching up with the last discards..."


def test_a_reading_with_hands_not_seen_waits_for_a_clearer_view():
    waiting = FlowData(place=ConfirmWin(WinInProgress(((1, True),), 0.0, seats=(1,))))
    reading = WinReading((), unseen=3)
    data, effects = confirm.on_reading(waiting, dealt(tracked=True), reading, 1.0,
                                       Settings(camera=True))
    assert effects == () and the_win(data).reading == reading
    assert data.message == "reading the revealed hand: 3 tile(s) not seen yet..."


# -- the screen ---------------------------------------------------------------------------

def test_the_screen_is_a_function_of_the_value_the_state_and_what_is_read_outside():
    state = dealt().state
    data = FlowData(place=Tenpai((True, False, False, False)), message="hi", layout="centre")
    once = screen(data, state, Outside(timer="30:00 left"))
    assert once == screen(data, state, Outside(timer="30:00 left"))
    assert (once.mode, once.layout, once.timer, once.tenpai) == (
        Mode.TENPAI_ENTRY, "centre", "30:00 left", (True, False, False, False))
    assert wants(Evening(), league=True) == (True, True, False)


# -- the game timer -----------------------------------------------------------------------

def test_time_up_at_a_hands_end_ends_the_game_joined_to_that_end():
    rules = with_options(TENHOU, time_limit=30, end_of_time="finish_hand")
    table = started(rules).after([HandStarted(tracked=False)]).after(
        [ExhaustiveDraw(tenpai=(), wall_left=0)])
    game = table.state.events - 3  # where the game started: its GameStarted
    timed = FlowData(place=BetweenHands(), timer=Timer(game, 0.0))
    data, effects = timing.ticked(timed, table, 29 * 60.0, (game, 1), Settings())
    assert (data, effects) == (timed, ())
    data, effects = timing.ticked(timed, table, 31 * 60.0, (game, 1), Settings())
    assert effects == (Submit((GameEnded(timing.TIME_UP),), joins=True),)
    assert data.place == Final() and data.timer is not None and data.timer.called


# -- the shell ----------------------------------------------------------------------------

def test_a_journal_that_cannot_be_written_leaves_the_flow_as_the_effect_names(tmp_path):
    session = Session.open(tmp_path / "game.jsonl")
    flow = Flow(session)
    flow.start_game(TENHOU)
    flow.handle(OK)  # the deal
    flow.handle(OK)  # no camera: the tenpai declarations
    assert flow.stage is Stage.TENPAI

    def full(*_: object, **__: object) -> None:
        raise JournalError("could not save to game.jsonl (No space left on device)")

    session.journal.append = full  # type: ignore[method-assign]
    before = session.state
    flow.handle(OK)  # the engine takes the draw; the journal does not
    assert session.state == before
    assert flow.stage is Stage.PLAY and flow.data.message.startswith("could not save")
    session.close()
