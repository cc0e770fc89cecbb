"""Every write fails safe: a full card under the flow's note, the PNG frames and the league;
one journal, one writer; a league locked by another process; two processes building one
new league file; flow notes of every wrong JSON shape."""

from __future__ import annotations

import errno
import sqlite3
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest

from harness import write_faults
from harness.journal_damage import write_game
from tablekit.cli import main
from tablekit.display.backends import PngDisplay
from tablekit.display.model import ScreenModel
from tablekit.flow import Flow
from tablekit.flow.saved import note_path
from tablekit.game.lock import JournalBusy, JournalLock
from tablekit.game.session import Session
from tablekit.game.state import TableState
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.league.database import connect
from tablekit.league.record import RETRY_SECONDS

FIXTURE = Path(__file__).parents[1] / "tablekit" / "data" / "tenhou-python-bot-28.xml"
FULL = OSError(errno.ENOSPC, "No space left on device")


def _flow(tmp_path: Path, count: int = 40) -> Flow:
    path = tmp_path / "game.jsonl"
    write_game(path, write_faults.events()[:count])
    return Flow(Session.open(path))


def test_a_note_that_cannot_be_written_is_one_line_and_the_old_note_goes(tmp_path):
    flow = _flow(tmp_path)
    flow.handle(ButtonPress(ButtonName.UNDO, long=True))  # the menu: a note is written
    note = note_path(flow.session.path)
    assert note.exists()
    before = flow.session.state
    with mock.patch("tablekit.flow.saved.write_atomically", side_effect=FULL):
        flow.handle(ButtonPress(ButtonName.UNDO))  # out of the menu: the note changes
    assert "could not save game.flow.json (No space left on device)" in flow.data.message
    assert not note.exists()  # a restart rests at the phase's stage, with the journal
    assert flow.session.state == before
    flow.handle(ButtonPress(ButtonName.UNDO, long=True))  # room again: saved again
    assert note.exists()


def test_the_note_s_side_file_is_not_left_half_written(tmp_path):
    flow = _flow(tmp_path)
    with mock.patch("os.fsync", side_effect=FULL):
        flow.handle(ButtonPress(ButtonName.UNDO, long=True))
    assert "could not save" in flow.data.message
    assert not list(tmp_path.glob("*.new"))


@pytest.mark.parametrize("text", write_faults.NOTES)
def test_a_note_of_any_wrong_shape_is_set_aside_in_one_line(tmp_path, text):
    path = tmp_path / "game.jsonl"
    write_game(path, write_faults.events()[:3])
    note_path(path).write_text(text)
    flow = Flow(Session.open(path))
    flow.screen()
    assert flow.stage is flow.resting_stage()
    assert "kept aside as game.flow.json.damaged" in flow.data.message
    assert "\n" not in flow.data.message
    assert (tmp_path / "game.flow.json.damaged").read_text() == text


def test_a_png_frame_that_cannot_be_written_is_said_once_and_skipped(tmp_path):
    lines: list[str] = []
    display = PngDisplay(tmp_path, numbered=False, report=lines.append)
    model = ScreenModel(TableState.new())
    with mock.patch("tablekit.display.backends.pygame.image.save", side_effect=FULL):
        display.show(model)
        display.show(model)
    assert len(lines) == 1 and "could not save" in lines[0], lines
    assert not list(tmp_path.glob(".*partial*"))
    display.show(model)
    assert (tmp_path / "scoreboard.png").exists()


def test_the_app_loop_runs_on_with_every_write_failing(tmp_path):
    report = write_faults.WriteReport()
    write_faults.full_card(tmp_path, report)
    assert report.problems == []
    assert report.held == report.cases == len(write_faults.TARGETS) + 1


def test_one_journal_has_one_writer(tmp_path):
    journal = tmp_path / "game.jsonl"
    with JournalLock(journal), pytest.raises(JournalBusy, match="another tablekit"):
        JournalLock(journal).acquire()
    JournalLock(journal).acquire().release()  # let go: the next one takes it


def test_a_second_tablekit_run_on_a_journal_is_refused(tmp_path, capsys):
    journal = tmp_path / "game.jsonl"
    with JournalLock(journal):
        code = main(["run", "--journal", str(journal), "--camera", "none", "--buttons",
                     "none", "--display", f"headless:{tmp_path / 'screens'}", "--frames", "1"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert err == [f"tablekit: journal: another tablekit is using the journal {journal}: "
                   "stop it first"]


def test_two_processes_opening_a_new_league_file_do_not_race(tmp_path):
    report = write_faults.WriteReport()
    assert write_faults.racing_migrations(tmp_path, 8, report) == 0, report.problems


def test_a_league_that_stays_locked_is_said_once_and_recorded_later(tmp_path):
    journal = tmp_path / "game.jsonl"
    write_game(journal, write_faults.events())
    db = connect(tmp_path / "league.sqlite")
    app, lines = write_faults._finished_app(journal, db)
    locked = sqlite3.OperationalError("database is locked")
    with mock.patch("tablekit.league.record.sync_journal", side_effect=locked):
        for _ in range(5):
            app.step()  # no traceback: the loop goes on
    assert len(lines) == 1 and "locked by another program" in lines[0], lines
    app.step()
    assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 0  # not yet: waiting
    app.clock.now += RETRY_SECONDS
    app.step()
    assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 1
    assert lines[-1] == "recorded in the league now"


HOLD = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
print("held", flush=True)
time.sleep(20)
"""


@pytest.mark.parametrize("new", [False, True])
def test_replay_into_a_locked_league_is_one_line(tmp_path, capsys, new):
    league = tmp_path / "league.sqlite"
    if not new:
        connect(league).close()
    child = subprocess.Popen([sys.executable, "-c", HOLD, str(league)],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "held"
        code = main(["replay", "--league", str(league), str(FIXTURE)])
    finally:
        child.kill()
        child.wait()
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len(err) == 1 and "is locked by another program" in err[0], err


def test_the_web_page_reads_on_while_a_new_league_file_is_locked(tmp_path):
    from tablekit.web.server import JournalSource

    league = tmp_path / "league.sqlite"
    child = subprocess.Popen([sys.executable, "-c", HOLD, str(league)],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "held"
        _, snapshot = JournalSource(tmp_path / "game.jsonl", league).current()
    finally:
        child.kill()
        child.wait()
    assert snapshot["league"] == []
