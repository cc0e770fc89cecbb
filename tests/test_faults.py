"""Faults a club evening brings: random presses on every button (mock pins), a damaged or
full journal (see test_journal.py), the camera failing (see test_camera.py)."""

import random
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from harness.button_mash import MashReport, _check_undo, _open, _tap, mash
from harness.power_cut import power_cuts
from tablekit.app.loop import open_session
from tablekit.flow import Flow, Stage
from tablekit.game.events import Discard, Draw, WinnerHand
from tablekit.game.win_reading import WinReading
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.rules.presets import TENHOU
from tablekit.tiles import Tile, parse_tiles
from tablekit.vision.feed import CameraFeed
from tablekit.vision.table_reading import TableReading


@pytest.mark.parametrize("camera", [True, False], ids=["camera", "buttons alone"])
def test_random_presses_break_nothing_and_undo_brings_back_the_table(tmp_path, camera):
    report = mash(400, tmp_path, seed=7, camera=camera)
    assert (report.crashes, report.invariant_breaks, report.replay_mismatches) == (0, 0, 0), (
        report.problems)
    assert report.undo_checks >= 3 and report.replay_checks >= 8 and len(report.stages) >= 6
    assert report.undo_restored == report.undo_checks, report.undo_missed



def test_the_mash_checks_undo_after_a_win_against_the_table_before_its_whole_action(tmp_path):
    """OK on a ron whose payer a player put right on the confirm screen (RIICHI: "I dealt
    in", an earlier press that stopped the camera's record) journals the win as one action
    with that stop (docs/playing.md), and one UNDO takes both back: the mash compares the
    table with the one before the stop, not before OK (it counted that UNDO as missed)."""
    table = _open(tmp_path, random.Random(0), camera=True)
    assert table.camera is not None
    table.camera.read_win = lambda state, seats, from_seat: WinReading(tuple(  # West's pinfu
        WinnerHand(s, tuple(parse_tiles("234567m234p67899s")), Tile.from_code("6s"))
        for s in seats))
    flow = table.app.flow
    flow.start_game(TENHOU)
    _tap(table, (ButtonName.OK, None))                       # deal
    fillers = iter(Tile(k) for k in range(33, 0, -1))
    while flow.session.state.turn != 0:
        seat = flow.session.state.turn
        table.app.inbox.put(Draw(seat))
        table.app.inbox.put(Discard(seat, next(fillers)))
        table.wait(0.05)
    table.app.inbox.put(Draw(0))
    table.app.inbox.put(Discard(0, Tile.from_code("6s")))    # East's 6s, as the camera has it
    table.wait(0.05)
    _tap(table, (ButtonName.WIN, 2))
    table.wait(2.0)
    assert flow.stage is Stage.CONFIRM_WIN and flow.win.discarder == 0
    before_stop = flow.session.state
    _tap(table, (ButtonName.RIICHI, 3))                      # North: "I dealt in"
    assert flow.stage is Stage.CONFIRM_WIN and not flow.session.state.tracked
    before_ok, history = flow.session.state, len(flow.session.history)
    _tap(table, (ButtonName.OK, None))
    assert flow.session.state.result is not None
    report = MashReport()
    _check_undo(table, before_ok, report, flow.session.history[history:])
    assert flow.session.state == before_stop                 # the stop and the win: one UNDO
    assert (report.undo_checks, report.undo_restored) == (1, 1), report.problems


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


@pytest.mark.parametrize("game", ["tenhou-python-bot-28.xml", "tenhou-sanma-00b9.xml"],
                         ids=["four players", "sanma"])
def test_power_cuts_in_a_real_game_resume_exactly(tmp_path, game):
    log = Path(__file__).parents[1] / "tablekit" / "data" / game
    cuts = power_cuts([log], 3, tmp_path, seed=2)
    assert (cuts.cuts, cuts.resumed_exact, cuts.events_lost) == (3, 3, 0), cuts.problems


class FakePipeline:
    def __init__(self, fails: bool = False) -> None:
        self.reads, self.fails, self.warnings = 0, fails, []

    def read_frame(self, frame, now, faint, gaps):
        self.reads += 1
        if self.fails:
            raise ValueError("the detector choked")
        return TableReading((), (), now)

    def notices(self):
        return []


class Camera:
    """Frames of ``image``, or what ``script`` says for the read of that number."""

    def __init__(self, script=None) -> None:
        self.reads, self.script = 0, script or {}

    def read(self):
        self.reads += 1
        what = self.script.get(self.reads, "frame")
        if isinstance(what, np.ndarray):
            return SimpleNamespace(image=what)
        if what == "raise":
            raise OSError("USB camera unplugged")
        return None if what is None else SimpleNamespace(image=np.full((36, 64, 3), 90,
                                                                       np.uint8))


def feed_for(camera, pipeline=None):
    now = [0.0]
    feed = CameraFeed(camera, pipeline or FakePipeline(), clock=lambda: now[0])
    return feed, now


def test_an_unplugged_camera_is_tried_again_and_used_once_plugged_back():
    feed, now = feed_for(Camera({2: "raise", 3: "raise", 4: None}))
    seen = []
    for step in range(40):
        now[0] = step / 4
        feed.poll()
        seen.append((feed.lost, tuple(feed.warnings)))
    assert seen[0] == (False, ())
    assert seen[1][0] and "camera lost: USB camera unplugged" in seen[1][1][0]
    assert seen[-1] == (False, ()) and feed.source.reads < 40


@pytest.mark.parametrize("image", [np.zeros((36, 64), np.uint8), np.zeros((36, 64, 4), np.uint8),
                                   np.zeros((18, 32, 3), np.uint8), np.zeros((0, 0, 3), np.uint8),
                                   np.zeros((36, 64, 3), np.float32)],
                         ids=["grey", "four channels", "wrong size", "empty", "float"])
def test_a_frame_the_pipeline_cannot_take_is_skipped_and_said(image):
    pipeline = FakePipeline()
    feed, now = feed_for(Camera({2: image}), pipeline)
    feed.poll()
    now[0] = 0.25
    assert feed.poll() is None and pipeline.reads == 1
    assert feed.warnings[0].startswith("camera sends a frame")


def test_a_pipeline_error_is_a_warning_not_a_crash():
    feed, _ = feed_for(Camera(), FakePipeline(fails=True))
    assert feed.poll() is None and "could not be read (ValueError)" in feed.warnings[0]


def test_a_frozen_picture_is_said_after_ten_seconds():
    feed, now = feed_for(Camera())
    warned = []
    for step in range(48):
        now[0] = step / 4
        feed.poll()
        warned.append(bool(feed.warnings))
    assert warned.index(True) == 40 and "camera frozen" in feed.warnings[0]


def test_tablekit_run_starts_on_a_journal_with_garbage_in_the_middle(tmp_path):
    """The appliance on a damaged journal: it starts, says what happened in one line, and
    keeps the damaged file (it used to stop with exit 2)."""
    import os
    import subprocess
    import sys

    from harness.journal_damage import write_game
    from tablekit.formats.tenhou import import_file
    from tablekit.sim.table import DEMO_GAME

    events = import_file(DEMO_GAME).events[:30]
    journal = tmp_path / "game.jsonl"
    lines = write_game(journal, events)
    journal.write_bytes(b"\n".join([*lines[:11], b"garbage", *lines[11:]]) + b"\n")
    damaged = journal.read_bytes()
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy",
           "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    result = subprocess.run(
        [sys.executable, "-m", "tablekit.cli", "run", "--display", f"headless:{tmp_path}/out",
         "--buttons", "none", "--camera", "none", "--frames", "2", "--journal", str(journal)],
        capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "game.jsonl, line 12: not a JSON event: 'garbage'; kept the file as" in result.stderr
    assert "resumed from the 10 events before it" in result.stderr
    [kept] = tmp_path.glob("game.jsonl.damaged-*")
    assert kept.read_bytes() == damaged
    assert (tmp_path / "out" / "scoreboard.png").exists()


class TableCamera:
    """The table's camera as the simulated table's FeedSource gives it: frame i at i / 4 s."""

    def __init__(self) -> None:
        self.reads, self.ended = 0, False

    def read(self):
        self.reads += 1
        return SimpleNamespace(image=np.full((36, 64, 3), self.reads, np.uint8),
                               timestamp=(self.reads - 1) / 4)

    def close(self):
        pass


def test_a_failing_camera_fails_at_the_loops_time_while_the_table_goes_on():
    from harness.camera_faults import Fault, FaultySource

    now = [0.0]
    camera = TableCamera()
    source = FaultySource([Fault("raises", 4, 8), Fault("frozen", 16, 8),
                           Fault("grey", 30, 2)], camera, lambda: now[0])
    assert source.read().timestamp == 0.0
    now[0] = 1.0
    with pytest.raises(OSError):
        source.read()
    now[0] = 3.0  # a lost camera is tried again later: the frames in between were the table's
    assert source.read().timestamp == 3.0 and camera.reads == 13
    now[0] = 4.0
    frozen = source.read()
    now[0] = 5.75
    assert source.read() is frozen and camera.reads == 24
    now[0] = 7.5
    assert source.read().image.ndim == 2  # grey
