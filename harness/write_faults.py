"""Every write the appliance makes, failing: a full card under the journal, the flow's note,
the league and the PNG frames (each alone and all together) with the app loop running; two
``tablekit run`` on one journal; a league locked by another process; two processes
building one new league file at once; flow notes of every wrong JSON shape.

Each part counts what held and the crashes (a traceback out of the loop or a command).
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

from harness.journal_damage import failing_writer, write_game
from tablekit.app.loop import App, build_table, open_session
from tablekit.display.backends import PngDisplay
from tablekit.flow import Flow
from tablekit.flow.saved import note_path
from tablekit.formats.tenhou import import_file
from tablekit.game.events import Draw, Event
from tablekit.game.session import Session
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.league.database import connect
from tablekit.league.record import RETRY_SECONDS, game_recorder
from tablekit.rules.presets import TENHOU
from tablekit.sim.table import DEMO_GAME

TARGETS = ("journal", "note", "league", "png")
FULL = OSError(errno.ENOSPC, "No space left on device")
NOTES = ("[]", "1", "1.5", '"note"', "true", "null", "{}", '{"at": "3"}', "{\"at\": 3",
         '{"at": 3, "stage": "MENU", "message": "", "layout": "facing", "next_rules": "tenhou",'
         ' "riichi_waiting": [], "calls": [], "menu": {"title": "M", "selected": 0,'
         ' "items": []}}',
         '{"at": 3, "stage": "TENPAI", "message": "", "layout": "facing",'
         ' "next_rules": "tenhou", "riichi_waiting": [], "calls": [], "tenpai": [true]}',
         '{"at": 3, "stage": "PLAY", "message": "", "layout": "facing", "next_rules": 1,'
         ' "riichi_waiting": [9], "calls": [[0]], "timer": "soon"}',
         '{"at": 3, "stage": "CONFIRM_WIN", "message": "", "layout": "facing",'
         ' "next_rules": "tenhou", "riichi_waiting": [], "calls": [], "win": {"claims": 1}}')


@dataclass
class WriteReport:
    cases: int = 0
    held: int = 0
    crashes: int = 0
    problems: list[str] = field(default_factory=list)

    def check(self, name: str, problems: list[str]) -> None:
        self.cases += 1
        self.held += not problems
        self.problems += [f"{name}: {problem}" for problem in problems]

    def crash(self, name: str, error: BaseException) -> None:
        self.cases += 1
        self.crashes += 1
        self.problems.append(f"{name}: crashed: {type(error).__name__}: {error}")


class Clock:
    """The loop's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def events() -> list[Event]:
    return list(import_file(DEMO_GAME).events)


def full_card(folder: Path, report: WriteReport) -> None:
    """Each set of the four writes failing (alone, and all together)."""
    cases = [(t,) for t in TARGETS] + [TARGETS]
    for failing in cases:
        name = "full card: " + "+".join(failing)
        try:
            report.check(name, _full_card(folder / "-".join(failing), set(failing)))
        except Exception as error:  # the point of the step: count it, go on
            report.crash(name, error)


def _full_card(folder: Path, failing: set[str]) -> list[str]:
    game, problems, lines = events(), [], []
    k = next(i for i, e in enumerate(game) if i >= len(game) // 2 and isinstance(e, Draw))
    path = folder / "game.jsonl"
    write_game(path, game[:k])
    session = open_session(path, TENHOU, lines.append)
    app = build_table(session, PngDisplay(folder / "screens", numbered=False,
                                          report=lines.append), clock=Clock())
    app.step()
    before, data = session.state, path.read_bytes()
    with _failing(failing, session):
        app.inbox.put(game[k])
        app.step()
        said = app.flow.data.message
        app.inbox.put(ButtonPress(ButtonName.UNDO, long=True))  # the menu: a note, a frame
        app.step()
        said += " " + app.flow.data.message
    app.step()
    if "journal" in failing and (session.state != before or path.read_bytes() != data):
        problems.append("a failed journal write moved the points or left bytes behind")
    if "journal" not in failing and session.state == before:
        problems.append("the event was not taken")
    for target, words in (("journal", "could not save to"), ("note", "game.flow.json")):
        if target in failing and words not in said:
            problems.append(f"the screen does not say the {target} failed: {said!r}")
    if "png" in failing and not any("display: could not save" in line for line in lines):
        problems.append(f"the PNG failure was not said: {lines}")
    session.close()
    again = Session.open(path)
    flow = Flow(again)
    flow.screen()
    if again.state != session.state:
        problems.append("the journal reopened is not the game the loop had")
    again.close()
    if "league" in failing:
        problems += _league_full(folder / "league", failing)
    return problems


@contextlib.contextmanager
def _failing(failing: set[str], session: Session) -> Any:
    with contextlib.ExitStack() as stack:
        if "journal" in failing:
            session.journal.writer = failing_writer
            stack.callback(setattr, session.journal, "writer", os.write)
        if "note" in failing:
            stack.enter_context(mock.patch("tablekit.flow.saved.write_atomically",
                                           side_effect=FULL))
        if "png" in failing:
            stack.enter_context(mock.patch("tablekit.display.backends.pygame.image.save",
                                           side_effect=FULL))
        yield


def _league_full(folder: Path, failing: set[str]) -> list[str]:
    """A finished game whose league write fails (full), then has room: recorded once."""
    problems: list[str] = []
    path = folder / "game.jsonl"
    write_game(path, events())
    db = connect(folder / "league.sqlite")
    app, lines = _finished_app(path, db)
    full = sqlite3.OperationalError("database or disk is full")
    with contextlib.ExitStack() as stack:
        stack.enter_context(_failing(failing - {"league"}, app.flow.session))
        stack.enter_context(mock.patch("tablekit.league.record.sync_journal",
                                       side_effect=full))
        app.step()
        app.step()
    if len(lines) != 1 or "not recorded in the league yet" not in lines[0]:
        problems.append(f"a full league is not said in one line: {lines}")
    app.clock.now += RETRY_SECONDS  # type: ignore[attr-defined]
    app.step()
    if _games(db) != 1:
        problems.append("the game was not recorded once the league had room")
    app.flow.session.close()
    return problems


def _finished_app(journal: Path, db: sqlite3.Connection) -> tuple[App, list[str]]:
    lines: list[str] = []
    session = open_session(journal, TENHOU, lambda line: None)
    app = build_table(session, clock=Clock())
    app.hooks.append(game_recorder(db, journal, warn=lines.append))
    return app, lines


def _games(db: sqlite3.Connection) -> int:
    return db.execute("SELECT count(*) FROM games").fetchone()[0]


HOLD_LOCK = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(float(sys.argv[2]))
"""

HOLD_LEAGUE = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
db.execute("INSERT INTO players (name) VALUES ('someone else')")
print("held", flush=True)
time.sleep(float(sys.argv[2]))
db.execute("ROLLBACK")
"""


def _holder(script: str, path: Path, seconds: float) -> subprocess.Popen:
    child = subprocess.Popen([sys.executable, "-c", script, str(path), str(seconds)],
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdout.readline().strip() == "held"
    return child


def _env() -> dict[str, str]:
    """A child's environment that imports this tablekit (not an installed one)."""
    root = str(Path(__file__).resolve().parents[1])
    return {**os.environ, "PYTHONPATH": os.pathsep.join(
        [root, *filter(None, [os.environ.get("PYTHONPATH")])])}


RUN = "import sys; from tablekit.cli import main; sys.exit(main())"


def two_writers(folder: Path, report: WriteReport) -> bool:
    """``tablekit run`` on a journal another process holds: refused, one line, exit 2."""
    path = folder / "game.jsonl"
    write_game(path, events()[:40])
    child = _holder(HOLD_LOCK, path, 60)  # the lock is on the journal itself
    try:
        second = subprocess.run(
            [sys.executable, "-c", RUN, "run", "--journal", str(path), "--camera", "none",
             "--buttons", "none", "--display", f"headless:{folder / 'screens'}",
             "--frames", "2"], capture_output=True, text=True, env=_env(), timeout=120)
    finally:
        child.kill()
        child.wait()
    lines = second.stderr.strip().splitlines()
    if "Traceback" in second.stderr:
        report.crash("two writers", RuntimeError(lines[-1]))
        return False
    problems = [] if second.returncode == 2 and len(lines) == 1 and (
        "another tablekit" in lines[0]) else [
        f"the second writer was not refused in one line: exit {second.returncode}, {lines}"]
    report.check("two writers", problems)
    return not problems


def locked_league(folder: Path, report: WriteReport) -> dict[str, Any]:
    """A league locked by another process when a game ends: waited for, said in one line,
    and recorded on a later step once the lock has gone."""
    folder.mkdir(parents=True, exist_ok=True)
    journal, league = folder / "game.jsonl", folder / "league.sqlite"
    write_game(journal, events())
    connect(league).close()
    child = _holder(HOLD_LEAGUE, league, 8)  # longer than any busy wait
    try:
        db = connect(league)
        app, lines = _finished_app(journal, db)
        began = time.perf_counter()
        app.step()
        waited = time.perf_counter() - began
        child.wait()
        app.clock.now += RETRY_SECONDS  # type: ignore[attr-defined]
        app.step()
    except Exception as error:
        report.crash("locked league", error)
        return {}
    finally:
        child.kill()
        child.wait()
    problems = []
    if len(lines) != 2 or "locked by another program" not in lines[0]:
        problems.append(f"the lock is not said in one line: {lines}")
    if _games(db) != 1:
        problems.append("the game was not recorded once the lock went")
    report.check("locked league", problems)
    return {"league_lock_waited_s": round(waited, 1), "league_recorded_after_lock": _games(db)}


OPEN_LEAGUE = """
import sys
from pathlib import Path
from tablekit.league.database import connect
connect(Path(sys.argv[1]), timeout=30).close()
"""
"""One process opening a league: it waits longer than the app's 3 s for the other's lock, so
that a busy machine (the other process slow to finish its migration) is not taken for a
race; a race shows as an error that is not a wait ("table players already exists")."""


def racing_migrations(folder: Path, trials: int, report: WriteReport) -> int:
    """``trials`` times two processes opening one new league file at once: the failures."""
    failures, env = 0, _env()
    folder.mkdir(parents=True, exist_ok=True)
    for trial in range(trials):
        path = folder / f"league-{trial}.sqlite"
        children = [subprocess.Popen([sys.executable, "-c", OPEN_LEAGUE, str(path)],
                                     stderr=subprocess.PIPE, text=True, env=env)
                    for _ in range(2)]
        errors = [child.communicate(timeout=60)[1].strip().splitlines()[-1:]
                  for child in children]
        errors = [e[0] for e in errors if e]
        failures += bool(errors)
        report.problems += [f"migration race {trial}: {e}" for e in errors[:1]]
    report.cases += 1
    report.held += failures == 0
    return failures


def damaged_notes(folder: Path, report: WriteReport) -> int:
    """A note of each wrong shape beside a game's journal: the app starts, resumes from the
    journal at the phase's stage, and says the note was set aside. How many held."""
    held = 0
    for number, text in enumerate(NOTES):
        path = folder / f"note-{number}" / "game.jsonl"
        write_game(path, events()[:3])
        note_path(path).write_text(text)
        try:
            session = Session.open(path)
            flow = Flow(session)
            flow.screen()
            session.close()
        except Exception as error:
            report.crash(f"note {text!r}", error)
            continue
        problems = [] if flow.stage is flow.resting_stage() else [f"rests at {flow.stage}"]
        if "kept aside" not in flow.data.message:
            problems.append(f"not said: {flow.data.message!r}")
        report.check(f"note {text!r}", problems)
        held += not problems
    return held


def run(folder: Path, trials: int = 20) -> tuple[dict[str, Any], WriteReport]:
    """All the parts; the figures and the report."""
    report = WriteReport()
    full_card(folder / "full", report)
    full_held = report.held
    refused = two_writers(folder / "writers", report)
    league = locked_league(folder / "locked", report)
    failures = racing_migrations(folder / "race", trials, report)
    notes = damaged_notes(folder / "notes", report)
    figures = {"full_card_cases": len(TARGETS) + 1, "full_card_held": full_held,
               "second_writer_refused": refused, **league, "migration_trials": trials,
               "migration_failures": failures, "damaged_notes": len(NOTES),
               "damaged_notes_held": notes, "write_cases": report.cases,
               "write_held": report.held, "write_crashes": report.crashes}
    return figures, report

