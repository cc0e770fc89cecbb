"""Random presses on every button through gpiozero's mock pins into the real loop.

Short and long presses, contact bounce, two buttons at once, in whatever stage the
flow is in, with a fake camera side (turns seen on the table, hands read at a win)
or none. After every press the table's invariants must hold and nothing may raise;
after a press that journalled an action, UNDO must bring back the table as it was
before that action (an earlier press may have begun it: "I dealt in" on a win's confirm
screen, then OK); the journal, read back, must give the live state.

>>> import tempfile, pathlib
>>> report = mash(30, pathlib.Path(tempfile.mkdtemp()), seed=1)
>>> report.presses, report.crashes, report.invariant_breaks
(30, 0, 0)
"""

from __future__ import annotations

import random
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory

from tablekit.app.loop import App, build_table, open_session
from tablekit.flow import Stage
from tablekit.game.events import Discard, Draw, Event, Redo, Undo, WinnerHand
from tablekit.game.invariants import broken
from tablekit.game.journal import salvage_journal
from tablekit.game.reducer import replay
from tablekit.game.session import Session, actions, in_force
from tablekit.game.state import Phase, TableState
from tablekit.game.win_reading import WinReading
from tablekit.io.buttons import ButtonBoard
from tablekit.io.presses import ButtonName
from tablekit.rules.presets import TENHOU, Rules
from tablekit.tiles import Tile

RESTING = (Stage.PLAY, Stage.BETWEEN_HANDS, Stage.FINAL)


@dataclass
class MashReport:
    """What held over the presses (``problems``: the first few that did not, in words)."""

    presses: int = 0
    crashes: int = 0
    invariant_breaks: int = 0
    undo_checks: int = 0
    undo_restored: int = 0
    replay_checks: int = 0
    replay_mismatches: int = 0
    new_games: int = 0
    undo_missed: list[str] = field(default_factory=list)  # the actions one UNDO did not take back
    stages: set[str] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)

    def add(self, other: MashReport) -> None:
        for name in ("presses", "crashes", "invariant_breaks", "undo_checks", "undo_restored",
                     "replay_checks", "replay_mismatches", "new_games"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.stages |= other.stages
        self.undo_missed += other.undo_missed
        self.problems = (self.problems + other.problems)[:10]

    def note(self, problem: str) -> None:
        if len(self.problems) < 10:
            self.problems.append(problem)


class FakeCameraSide:
    """The table seen by a camera that mostly gets it right: the turn's draw or a discard,
    and at a win hands that cannot be scored (drafts to put right by hand) or random ones."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def events(self, state: TableState) -> list[Event]:
        if state.turn is None or not state.tracked:
            return []
        if state.to_draw:
            return [Draw(state.turn, rinshan=state.kan_draw)]
        return [Discard(state.turn, Tile(self.rng.randrange(34)))]

    def look_at_win(self) -> None:
        pass

    def read_win(self, state: TableState, seats: tuple[int, ...], from_seat: int | None
                 ) -> WinReading:
        if self.rng.random() < 0.5:
            return WinReading((), drafts=tuple((s, (None,) * 13) for s in seats))
        hands = tuple(WinnerHand(s, tuple(Tile(self.rng.randrange(34)) for _ in range(13)),
                                 Tile(self.rng.randrange(34))) for s in seats)
        return WinReading(hands, unseen=self.rng.randrange(2))

    def behind(self, state: TableState) -> bool:
        return False  # its events come as the turns go


    def expect_call(self, state: TableState, seat: int) -> None:
        pass


class _Screens:
    def __init__(self) -> None:
        self.shown = 0

    def show(self, screen: Any) -> None:
        self.shown += 1

    def close(self) -> None:
        pass


@dataclass
class _Table:
    """The loop, its pins and a clock the mash moves."""

    app: App
    board: ButtonBoard
    path: Path
    camera: FakeCameraSide | None
    now: list[float]
    stages: set[str] = field(default_factory=set)
    rules: Rules = TENHOU

    def wait(self, seconds: float) -> None:
        self.now[0] += seconds
        self.app.step()
        self.stages.add(self.app.flow.stage.value)

    def pin(self, key: tuple[ButtonName, int | None]) -> Any:
        return self.board.factory.pin(self.board.pinmap.buttons[key])


def mash(presses: int, folder: Path, seed: int = 0, camera: bool = True,
         rules: Rules = TENHOU) -> MashReport:
    """``presses`` random presses on a fresh game under ``rules`` (three players too)
    journalled in ``folder``."""
    rng, report = random.Random(seed), MashReport()
    table = _open(folder, rng, camera, rules)
    keys = list(table.board.pinmap.buttons)
    try:
        for number in range(presses):
            try:
                _one_press(table, rng, keys, report)
            except Exception as error:  # a crash is counted, and the mash goes on
                report.crashes += 1
                where = traceback.extract_tb(error.__traceback__)[-1]
                report.note(f"press {number}: {type(error).__name__}: {error} "
                            f"({Path(where.filename).name}:{where.lineno})")
            if number % 50 == 49 or number == presses - 1:
                _check_replay(table, report)
    finally:
        report.stages = table.stages
        table.board.close()
        table.app.flow.session.close()
    return report


def _open(folder: Path, rng: random.Random, camera: bool, rules: Rules = TENHOU) -> _Table:
    folder.mkdir(parents=True, exist_ok=True)
    now = [0.0]
    path = folder / "game.jsonl"
    side = FakeCameraSide(rng) if camera else None
    session = open_session(path, rules, lambda line: None)
    app = build_table(session, _Screens(), clock=lambda: now[0], reader=side)
    app.buttons = board = ButtonBoard(app.inbox, pin_factory=MockFactory(), clock=lambda: now[0])
    return _Table(app, board, path, side, now, rules=rules)


def _one_press(table: _Table, rng: random.Random, keys: list, report: MashReport) -> None:
    flow = table.app.flow
    if table.camera is not None and flow.stage is Stage.PLAY and rng.random() < 0.6:
        for event in table.camera.events(flow.session.state)[:rng.randrange(1, 3)]:
            table.app.inbox.put(event)
        table.wait(0.05)
    if flow.session.state.phase is Phase.NOT_STARTED and rng.random() < 0.1:
        flow.start_game(table.rules)  # what a person does after UNDO took the game's start back
        report.new_games += 1
    before, history = flow.session.state, len(flow.session.history)
    report.presses += 1
    style = _press(table, rng, _pick(rng, keys))
    problems = broken(flow.session.state)
    if problems:
        report.invariant_breaks += 1
        report.note("; ".join(problems))
    added = flow.session.history[history:]
    if added and style != "two" and not any(isinstance(e, (Undo, Redo)) for e in added) and (
            flow.stage in RESTING and rng.random() < 0.6):
        _check_undo(table, before, report, added)
    table.wait(rng.choice((0.05, 0.3, 0.8, 2.0)))


def _pick(rng: random.Random, keys: list) -> tuple[ButtonName, int | None]:
    roll = rng.random()
    if roll < 0.2:
        return ButtonName.OK, None
    if roll < 0.28:
        return ButtonName.UNDO, None
    return rng.choice(keys)


def _press(table: _Table, rng: random.Random, key: tuple[ButtonName, int | None]) -> str:
    """One press of ``key``: short, long, bouncing, or together with another button (two
    actions at once, which two UNDOs take back); the style it was."""
    style = rng.choice(("short", "short", "short", "long", "bounce", "two"))
    pin = table.pin(key)
    if style == "bounce":  # contact bounce: a few edges within the debounce time
        for _ in range(rng.randrange(2, 5)):
            pin.drive_low()
            table.wait(rng.uniform(0.0005, 0.003))
            pin.drive_high()
            table.wait(rng.uniform(0.0005, 0.003))
    pins = [pin]
    if style == "two":
        pins.append(table.pin(rng.choice(list(table.board.pinmap.buttons))))
    for each in pins:
        each.drive_low()
    held = 1.2 if style == "long" else 0.1
    table.wait(held / 2)
    table.wait(held / 2)
    for each in pins:
        each.drive_high()
    table.wait(0.01)
    return style


def _check_undo(table: _Table, before: TableState, report: MashReport, added: list[Event]
                ) -> None:
    """One UNDO after a press that journalled ``added`` (``before``: the table the press
    found) brings back the table before the action it takes back."""
    report.undo_checks += 1
    session = table.app.flow.session
    expected = _before_action(session, len(session.history) - len(added), before)
    _tap(table, (ButtonName.UNDO, None))
    if session.state == expected:
        report.undo_restored += 1
    else:
        report.undo_missed.append(", ".join(type(e).__name__ for e in added))
        report.note(f"UNDO after {report.undo_missed[-1]} did not bring "
                    f"back the table ({expected.events} events; now "
                    f"{table.app.flow.session.state.events}: {table.app.flow.data.message})")


def _before_action(session: Session, start: int, before: TableState) -> TableState:
    """The table before the last action in force, whose events end the history from
    ``start`` on (one press's): ``before`` unless the first of them joins an action an
    earlier press began (OK on a ron after a player said "I dealt in" on the confirm
    screen, which stopped the camera's record: the stop and the win are one action,
    docs/playing.md), then the events in force without that action, replayed."""
    if not session.joins[start]:
        return before
    sizes, _ = actions(session.history, session.joins)
    active, _ = in_force(session.history)
    return replay(active[:len(active) - sizes[-1]])


def _tap(table: _Table, key: tuple[ButtonName, int | None]) -> None:
    pin = table.pin(key)
    pin.drive_low()
    table.wait(0.1)
    pin.drive_high()
    table.wait(0.01)


def _check_replay(table: _Table, report: MashReport) -> None:
    """The journal as a restart would read it gives the live state."""
    report.replay_checks += 1
    contents = salvage_journal(table.path)
    live = table.app.flow.session
    if contents.problem or contents.torn_tail or contents.events != live.history or (
            replay(in_force(contents.events)[0]) != live.state):
        report.replay_mismatches += 1
        report.note(f"the journal does not replay to the live state: {contents.problem}")
