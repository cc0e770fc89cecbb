"""Three players (sanma) at the table: the flow driven by presses alone (tsumo, ron, kita,
an exhaustive draw), one UNDO per action (a kita too), the three seat boxes the players
press, the menu for three, a power cut at every input of the committed sanma game, and
``tablekit run --rules tenhou-sanma``."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_flow_restart import Table

from harness.button_mash import mash
from tablekit.cli import main
from tablekit.display.legend import IN_PLAY, IN_PLAY_KITA, strip_legend
from tablekit.flow import WIN_WINDOW, Flow, Stage, menu_items
from tablekit.flow.boxes import parse_boxes
from tablekit.formats.tenhou import import_file
from tablekit.game.events import Kita
from tablekit.game.journal import read_journal
from tablekit.game.session import Session
from tablekit.game.state import Phase
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.rules.presets import TENHOU, TENHOU_SANMA

SANMA_GAME = Path(__file__).parent / "fixtures" / "mjlog" / \
    "sanma-2022010814gm-00b9-0000-c378f5c4.xml"
OK, UNDO, CALL, WIN, RIICHI = (ButtonName.OK, ButtonName.UNDO, ButtonName.CALL, ButtonName.WIN,
                               ButtonName.RIICHI)


class Buttons:
    """A three-player table without a camera: a flow on a journal, fed presses."""

    def __init__(self, folder: Path, boxes: tuple[int, ...] = (0, 1, 2)) -> None:
        self.now = 0.0
        self.flow = Flow(Session.open(folder / "game.jsonl"), clock=lambda: self.now,
                         boxes=boxes)
        self.flow.start_game(TENHOU_SANMA, ("Ana", "Ben", "Chie"))

    def press(self, name: ButtonName, box: int | None = None, long: bool = False) -> None:
        self.flow.handle(ButtonPress(name, box, long, self.now))

    def wait(self, seconds: float) -> None:
        self.now += seconds
        self.flow.tick()

    @property
    def state(self):
        return self.flow.session.state


def test_a_sanma_hand_by_buttons_kita_then_tsumo(tmp_path):
    table = Buttons(tmp_path)
    table.press(OK)                                   # deal East 1
    assert table.state.phase is Phase.HAND_IN_PLAY and not table.state.tracked
    assert strip_legend(table.flow.screen()) == IN_PLAY_KITA
    table.press(CALL, 1)
    table.press(CALL, 1)
    assert [s.kita for s in table.state.seats] == [0, 2, 0]
    assert table.flow.data.message == "kita by South (Ben): 2 Norths set aside (UNDO takes it back)"
    table.press(UNDO)                                 # one UNDO: one kita
    assert [s.kita for s in table.state.seats] == [0, 1, 0]
    table.press(CALL, 1, long=True)                   # held: the point differences, no kita
    assert table.flow.screen().differences_for == 1 and table.state.seats[1].kita == 1
    table.press(WIN, 1, long=True)                    # tsumo: 1 han 30 fu entered
    assert table.flow.stage is Stage.ENTER_VALUE
    table.press(RIICHI, 1)                            # 2 han
    table.press(OK)
    assert table.flow.stage is Stage.CONFIRM_WIN
    assert table.flow.preview.deltas == (-1000, 1500, -500)   # 2 han 30 fu: 1000/500
    table.press(OK)
    assert table.state.result.deltas == (-1000, 1500, -500)
    assert sum(table.state.scores) == 3 * 35000


def test_a_sanma_ron_names_its_discarder_from_three_seats(tmp_path):
    table = Buttons(tmp_path)
    table.press(OK)
    table.press(WIN, 2)
    table.wait(WIN_WINDOW + 0.1)
    assert table.flow.stage is Stage.CHOOSE_DISCARDER
    table.press(WIN, 0)                               # the dealer dealt in
    table.press(OK)                                   # 1 han 30 fu
    assert table.flow.preview.deltas == (-1000, 0, 1000)
    table.press(OK)
    assert table.state.result.deltas == (-1000, 0, 1000)
    table.press(UNDO)                                 # the ron taken back whole
    assert table.state.phase is Phase.HAND_IN_PLAY and table.state.scores == (35000,) * 3


def test_a_sanma_exhaustive_draw_declares_three_seats(tmp_path):
    table = Buttons(tmp_path)
    table.press(OK)
    table.press(OK)                                   # no camera: OK opens the declarations
    assert table.flow.screen().tenpai == (False, False, False)
    table.press(WIN, 1)
    table.press(OK)
    assert table.state.result.tenpai == (1,)
    assert table.state.result.deltas == (-1000, 2000, -1000)
    table.press(UNDO)                                 # the draw taken back whole
    assert table.state.phase is Phase.HAND_IN_PLAY


def test_kita_is_refused_in_one_line_where_there_is_none(tmp_path):
    table = Buttons(tmp_path)
    table.press(OK)
    for _ in range(4):
        table.press(CALL, 2)
    table.press(CALL, 2)
    assert table.state.seats[2].kita == 4
    assert table.flow.data.message == "kita by West (Chie): four Norths are already set aside"


def test_three_players_press_the_seat_boxes_they_sit_at(tmp_path):
    table = Buttons(tmp_path, boxes=parse_boxes("east,south,north"))
    table.press(OK)
    table.press(CALL, 3)                              # the North box: West's player
    assert [s.kita for s in table.state.seats] == [0, 0, 1]
    table.press(CALL, 2)                              # the West box: nobody
    assert [s.kita for s in table.state.seats] == [0, 0, 1]
    assert table.flow.data.message == ("the West box has no player: three play at the East, South "
                                  "and North boxes")
    table.press(OK)
    table.press(WIN, 3)                               # tenpai: West's player
    table.press(OK)
    assert table.state.result.tenpai == (2,)


def test_four_players_keep_every_box(tmp_path):
    flow = Flow(Session.open(tmp_path / "game.jsonl"), boxes=(0, 1, 3))
    flow.start_game(TENHOU)
    flow.handle(ButtonPress(OK))
    flow.handle(ButtonPress(RIICHI, 2))
    assert flow.session.state.seats[2].riichi
    assert strip_legend(flow.screen()) == IN_PLAY


def test_the_menu_offers_three_seats_and_no_four_player_draws(tmp_path):
    table = Buttons(tmp_path)
    table.press(OK)
    labels = [item.label for item in menu_items(table.state)]
    assert [label for label in labels if label.startswith("Chombo")] == [
        "Chombo: East (Ana)", "Chombo: South (Ben)", "Chombo: West (Chie)"]
    assert not [label for label in labels if "four winds" in label or "four riichi" in label]
    assert "Abortive draw: nine terminals" in labels


def test_a_power_cut_keeps_a_kita_and_three_seats_tenpai(tmp_path):
    table = Buttons(tmp_path)
    table.press(OK)
    table.press(CALL, 0)
    again = Flow(Session.open(tmp_path / "game.jsonl"))
    assert again.screen() == table.flow.screen() and again.session.state.seats[0].kita == 1
    again.session.close()
    table.press(OK)
    table.press(WIN, 2)
    again = Flow(Session.open(tmp_path / "game.jsonl"))
    assert again.screen().tenpai == (False, False, True) == table.flow.screen().tenpai
    again.handle(ButtonPress(OK))
    assert again.session.state.result.tenpai == (2,)


@pytest.mark.parametrize("hands", [
    2, pytest.param(None, marks=pytest.mark.slow, id="whole-game")])
def test_a_restart_at_every_input_of_the_sanma_game_shows_the_same_screen(tmp_path, hands):
    """The committed sanma game played as the table plays it (its kita seen by the camera),
    the app reopened after every input: the same screen, the record's score changes."""
    game = import_file(SANMA_GAME, three_players=True)
    table = Table(tmp_path, game.rules, game.start.names, game.start.first_dealer)
    kita = 0
    for hand in game.hands[:hands]:
        for event in hand.events:
            if isinstance(event, Kita):
                table.see(event)
                kita += 1
            else:
                table.play(event)
        assert table.flow.session.state.result.deltas == hand.deltas
    assert kita >= 2 and table.restarts > 100
    table.press(UNDO)                                 # the last win taken back
    assert table.flow.session.state.phase is Phase.HAND_IN_PLAY


def test_tablekit_run_plays_three(tmp_path, capsys):
    journal = tmp_path / "game.jsonl"
    assert main(["run", "--rules", "tenhou-sanma", "--camera", "none", "--buttons", "none",
                 "--display", f"headless:{tmp_path / 'screens'}", "--frames", "2",
                 "--journal", str(journal), "--seat-boxes", "e,s,n"]) == 0
    started = read_journal(journal).events[0]
    assert started.rules.players == 3
    assert (tmp_path / "screens" / "scoreboard.png").exists()


@pytest.mark.parametrize(("argv", "words"), [
    (["--seat-boxes", "e,s"], "seat boxes: 'e,s': name the three seat boxes"),
    (["--seat-boxes", "e,s,x"], "'x' is no seat box"),
    (["--players", "A,B,C,D"], "a game of three needs three different players"),
])
def test_tablekit_run_refuses_three_player_nonsense_in_one_line(tmp_path, capsys, argv, words):
    assert main(["run", "--rules", "tenhou-sanma", "--camera", "none", "--buttons", "none",
                 "--display", f"headless:{tmp_path / 'screens'}", "--frames", "1",
                 "--journal", str(tmp_path / "game.jsonl"), *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "game.jsonl").exists()


def test_seat_boxes_are_for_three_players(tmp_path, capsys):
    assert main(["run", "--camera", "none", "--buttons", "none", "--frames", "1",
                 "--display", f"headless:{tmp_path / 'screens'}", "--journal",
                 str(tmp_path / "game.jsonl"), "--seat-boxes", "0,1,2"]) == 2
    assert "--seat-boxes is for three players" in capsys.readouterr().err


def test_a_ron_on_a_north_set_aside_is_won_on_its_owner(tmp_path):
    """The game's last hand: South rons East's North as it is set aside (no discard to win
    on: the flow used to refuse it, 'hold WIN for tsumo')."""
    game = import_file(SANMA_GAME, three_players=True)
    table = Table(tmp_path, game.rules, game.start.names, game.start.first_dealer)
    *before, won = game.events[1:]
    for event in before:
        table.flow.session.submit(event)
    table.restart()
    assert isinstance(before[-1], Kita) and table.flow.session.state.kita_by == won.from_seat
    table.win(won)
    assert table.flow.session.state.result.deltas == game.hands[-1].deltas


@pytest.mark.parametrize("camera", [True, False], ids=["camera", "buttons alone"])
def test_random_presses_on_a_sanma_game_break_nothing_and_undo_brings_it_back(tmp_path,
                                                                              camera):
    report = mash(400, tmp_path, seed=34, camera=camera, rules=TENHOU_SANMA)
    assert (report.crashes, report.invariant_breaks, report.replay_mismatches) == (0, 0, 0), (
        report.problems)
    assert report.undo_checks >= 3 and report.undo_restored == report.undo_checks, (
        report.undo_missed)
    kita = [e for e in read_journal(tmp_path / "game.jsonl").events if isinstance(e, Kita)]
    assert camera or len(kita) >= 5   # CALL without a camera: kita
