"""Faults a club evening brings: random presses on every button (mock pins), a damaged or
full journal (see test_journal.py), the camera failing (see test_camera.py)."""

from pathlib import Path

import pytest

from tablekit.app import open_session
from tablekit.flow import Flow, Stage
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.rules.presets import TENHOU
from tablekit.sim.button_mash import mash
from tablekit.sim.power_cut import power_cuts


@pytest.mark.parametrize("camera", [True, False], ids=["camera", "buttons alone"])
def test_random_presses_break_nothing_and_undo_brings_back_the_table(tmp_path, camera):
    report = mash(400, tmp_path, seed=7, camera=camera)
    assert (report.crashes, report.invariant_breaks, report.replay_mismatches) == (0, 0, 0), (
        report.problems)
    assert report.undo_checks >= 3 and report.replay_checks >= 8 and len(report.stages) >= 6
    # RIICHI on a turn the camera has not seen drawn journals the draw it infers, then the
    # riichi: one UNDO takes back only the riichi until the two are one undo group.
    assert set(report.undo_missed) <= {"Draw, RiichiDeclared"}
    assert report.undo_restored + len(report.undo_missed) == report.undo_checks


def test_held_call_on_a_win_entered_by_hand_enters_it_again(tmp_path):
    """Without a camera a held CALL on the win to confirm goes back to the entry of its
    value (it used to leave no winner to enter, and every later press raised)."""
    now = [0.0]
    flow = Flow(open_session(tmp_path / "game.jsonl", TENHOU, print), clock=lambda: now[0])
    for press in (ButtonPress(ButtonName.OK), ButtonPress(ButtonName.WIN, 1),
                  ButtonPress(ButtonName.OK), ButtonPress(ButtonName.RIICHI, 2),
                  ButtonPress(ButtonName.OK), ButtonPress(ButtonName.CALL, 1, long=True)):
        flow.handle(press)
    assert flow.stage is Stage.ENTER_VALUE and [e.seat for e in flow.win.entries] == [1]
    flow.handle(ButtonPress(ButtonName.RIICHI, 1))
    flow.handle(ButtonPress(ButtonName.OK))
    flow.handle(ButtonPress(ButtonName.OK))
    assert flow.session.state.result.deltas[1] > 0 and flow.stage is Stage.BETWEEN_HANDS


def test_power_cuts_in_a_real_game_resume_exactly(tmp_path):
    log = Path(__file__).parents[1] / "tablekit" / "data" / "tenhou-python-bot-28.xml"
    cuts = power_cuts([log], 3, tmp_path, seed=2)
    assert (cuts.cuts, cuts.resumed_exact, cuts.events_lost) == (3, 3, 0), cuts.problems
