"""A real game on the simulated table, end to end, through the appliance's own loop
(:class:`tablekit.app.loop.App`): the simulated table is a set of devices around it, a
camera source (rendered or kept frames) read by the same camera side
(:class:`~tablekit.tracking.camera.Camera`, wired by :func:`tablekit.app.loop.build_table`) as
``tablekit run``'s, the seat buttons on
gpiozero's MockFactory pins pressed as the log's game calls for, a clock the table
drives (no real sleeping) and a display (a window, PNG files or none). Each hand's score
changes are compared with the log. The simulated players press OK on a win once the
screen shows the scored hand, and OK at
the end of the wall once it shows the wall empty, as a person would (at most
``PATIENCE`` seconds after their scripted moment; later presses keep their order). A win
the app cannot score at all (no complete hand read) a simulated person puts right with
the buttons (:mod:`tablekit.sim.person`), so that the game goes on; such a hand is
counted in ``hands_fixed``, never in ``hands_ok``. Before OK on a scored win the person
looks at the screen as one at the table would: tiles shown other than those on the table
(the winner's hand, the dora or ura indicators: :func:`tablekit.sim.person.shown_wrong`)
they put right the same way before points move, and a ron's payer other than the seat
that dealt in (:func:`tablekit.sim.person.payer_wrong`) that seat puts right with its
RIICHI; such a win is counted in ``wins_put_right``, never in ``hands_ok``. A hand of
the log that never ends on the simulated table (the game stuck in it) is a failed hand:
counted in ``hands`` and ``hands_never_ended``, never in ``hands_ok``. Every game also
times the screen (:mod:`tablekit.sim.stopwatch`): placed -> shown for each discard,
WIN -> scored for each win, in ``SimReport.latency``.

>>> SimReport(hands=2, hands_ok=2).summary()["hands_ok"]
2
"""

from __future__ import annotations

import heapq
import itertools
import resource
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tablekit.app.loop import FRAME_SECONDS, App, DrivenClock, build_table
from tablekit.display.backends import Display
from tablekit.display.model import ScreenModel
from tablekit.flow import Flow, Stage
from tablekit.formats.tenhou import ImportedGame, import_file
from tablekit.game.events import Discard, DoraRevealed, Event, HandStarted, WinnerHand, Won
from tablekit.game.hands import Hand, HandReport, walk
from tablekit.game.session import Session, in_force
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.rules.scoring import HandValue
from tablekit.sim.person import enter_value, payer_wrong, put_right, shown_wrong
from tablekit.sim.script import Script
from tablekit.sim.source import ReplayedFrames, SimulatedCamera
from tablekit.sim.stopwatch import KINDS, Stopwatch, counts, figures
from tablekit.tiles import Tile
from tablekit.vision.feed import FramePipeline
from tablekit.vision.frames import FrameSource
from tablekit.vision.table_reading import TableReading

HOLD = {False: 0.12, True: 1.2}   # seconds a short or long press keeps the pin low
GAP = 0.15                         # seconds between a person's own presses
TAIL = 60.0                        # seconds the presses may go on after the last frame
PATIENCE = 2.0                     # seconds a simulated person waits for the scored hand
ReadFrame = Callable[[Any, bool], TableReading]
"""``read(frame, faint)``: the frame's reading (``faint``: the tracker wants the ponds'
faint peaks read too, :meth:`tablekit.tracking.tracker.Tracker.wants_faint`)."""


@dataclass
class SimReport:
    """Counts for one or more simulated games."""

    hands: int = 0
    hands_ok: int = 0
    hands_fixed: int = 0
    """Hands a simulated person put right with the buttons (the app could not score them
    alone); never counted in ``hands_ok``."""
    hands_never_ended: int = 0
    """Hands of the log the simulated table never ended (counted in ``hands``, failed)."""
    wins_put_right: int = 0
    """Wins the app scored from tiles other than those on the table, which a simulated
    person put right on the win screen before OK; never counted in ``hands_ok``."""
    tiles_read: int = 0
    tiles_ok: int = 0
    frames: int = 0
    pipeline_seconds: float = 0.0
    render_seconds: float = 0.0
    peak_mb: float = 0.0
    mismatches: list[str] = field(default_factory=list)
    latency: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in KINDS})
    """Delays (s) on the simulated clock by kind (:data:`tablekit.sim.stopwatch.KINDS`)."""
    never_shown: int = 0   # discards placed that no screen showed after (called tiles)
    fixing: bool = False   # a person is putting the current hand's tiles right
    shown_win: Won | None = None   # the win the screen showed before a person corrected it
    art: list[str] = field(default_factory=list)
    """Each game's tile art, as its seed drew it among the training sets found here (or as
    named): the same seed on a checkout with other art sets draws other art."""

    def add_hand(self, report: HandReport) -> None:
        """One hand, as compared with the log (its tiles: those read, those read right)."""
        self.hands += 1
        self.hands_ok += report.exact
        self.tiles_read += report.tiles
        self.tiles_ok += report.tiles_right
        self.mismatches.extend(report.lines)

    def add(self, other: SimReport) -> None:
        for name in ("hands", "hands_ok", "hands_fixed", "hands_never_ended", "wins_put_right",
                     "tiles_read", "tiles_ok", "frames", "pipeline_seconds", "render_seconds",
                     "never_shown"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.peak_mb = max(self.peak_mb, other.peak_mb)
        self.mismatches.extend(other.mismatches)
        self.art.extend(other.art)
        for kind, values in other.latency.items():
            self.latency[kind].extend(values)

    @property
    def failed(self) -> bool:
        """Whether any hand failed (not right alone, or never ended) or anything else
        differed from the log."""
        return self.hands_ok != self.hands or bool(self.mismatches)

    def summary(self) -> dict[str, Any]:
        frames = max(self.frames, 1)
        return {"hands": self.hands, "hands_ok": self.hands_ok,
                "hands_fixed": self.hands_fixed, "hands_never_ended": self.hands_never_ended,
                "wins_put_right": self.wins_put_right,
                "tiles_read": self.tiles_read,
                "tiles_ok": self.tiles_ok, "frames": self.frames,
                "ms_per_frame": round(1000 * self.pipeline_seconds / frames, 2),
                "render_ms_per_frame": round(1000 * self.render_seconds / frames, 2),
                "peak_mb": round(self.peak_mb, 1),
                "latency": {kind: {**figures(values), "counts": counts(values)}
                            for kind, values in self.latency.items()},
                "discards_never_shown": self.never_shown, "art": self.art}


class PinDriver:
    """Plays scripted presses on MockFactory pins at their times, with the board's clock.

    ``waits(press)`` True holds a press back (a person waiting for the screen: OK on a win
    is pressed once the scored hand shows), a step of the loop at a time, at most
    ``patience`` seconds. Then ``stuck(press)`` may give the presses a person makes first
    (putting a win's tiles right), asked for one at a time once the app has taken the last
    (``settle``: the app takes its inbox); later presses wait. A press not held back is
    first shown to ``looks(press)``, which may give a person's presses the same way (the
    tiles on the win screen put right before OK). Each press gets one person at most.
    """

    def __init__(self, board: Any, clock: list[float],
                 waits: Callable[[ButtonPress], bool] = lambda press: False,
                 stuck: Callable[[ButtonPress], Iterator[ButtonPress] | None] = (
                     lambda press: None), settle: Callable[[], None] = lambda: None,
                 patience: float = PATIENCE,
                 looks: Callable[[ButtonPress], Iterator[ButtonPress] | None] = (
                     lambda press: None)) -> None:
        from tablekit.io.pinmap import load_pinmap

        self.board, self.clock, self.waits, self.stuck = board, clock, waits, stuck
        self.settle, self.patience, self.looks = settle, patience, looks
        self.pins = load_pinmap()
        self._queue: list[tuple[float, int, ButtonPress | None, int, bool, bool]] = []
        self._order = 0
        self.held: ButtonPress | None = None   # the press a person is waiting to make
        self.held_at = 0.0
        self.pressed: list[tuple[float, ButtonPress]] = []   # when each press went down
        self.person: Iterator[ButtonPress] | None = None   # their own presses first
        self._tried: set[ButtonPress] = set()   # presses a person already acted before

    @property
    def pending(self) -> bool:
        """Whether presses (or releases) are still to come."""
        return bool(self._queue)

    def schedule(self, press: ButtonPress, at: float | None = None, own: bool = False) -> None:
        """Press at ``press.time`` (or ``at``, for a press held back)."""
        self._order += 1
        heapq.heappush(self._queue, (press.time if at is None else at, self._order, press,
                                     0, True, own))

    def run_until(self, now: float, step: float = 0.25) -> None:
        while self._queue and self._queue[0][0] <= now:
            at, _, press, pin, low, own = heapq.heappop(self._queue)
            self.clock[0] = at
            self.board.poll()
            if press is not None and not own and not self._may_press(press, at, step):
                continue
            if press is not None:
                self.pressed.append((at, press))
                pin = self.pins.pin_for(press.name, press.seat)
                self._order += 1
                heapq.heappush(self._queue, (at + HOLD[press.long], self._order, None, pin,
                                             False, own))
            level = self.board.factory.pin(pin)
            level.drive_low() if low else level.drive_high()
            if own and not low:
                self.board.poll()
                self.settle()
                self._next_own(at + GAP)
        self.clock[0] = now
        self.board.poll()

    def _may_press(self, press: ButtonPress, at: float, step: float) -> bool:
        """Whether a scripted press goes now (else it is scheduled again)."""
        if self.person is not None or (self.held is not None and self.held is not press):
            self.schedule(press, max(at, self.held_at) + 1e-3)  # keep the order
            return False
        waiting = self.waits(press)
        if waiting and at + step <= press.time + self.patience:
            self.held, self.held_at = press, at + step
            self.schedule(press, at + step)
            return False
        if press not in self._tried:
            person = self.stuck(press) if waiting else self.looks(press)
            if waiting or person is not None:
                self._tried.add(press)
            if person is not None:
                self.person, self.held = person, press
                self._next_own(at)
                return False
        self.held = None
        return True

    def _next_own(self, at: float) -> None:
        """The person's next press, or, when they are done, the press they held back."""
        assert self.person is not None and self.held is not None
        press = next(self.person, None)
        if press is None:  # later presses wait until the held one is released
            self.person = None
            self.schedule(self.held, at + GAP)
            self.held_at = at + GAP + HOLD[self.held.long] + GAP
        else:
            self.schedule(press, at, own=True)
            self.held_at = at + GAP


class ReadingPipeline:
    """A :data:`ReadFrame` function as the camera feed's pipeline (a test's reader): no
    warnings of its own."""

    def __init__(self, read: ReadFrame) -> None:
        self.read, self.warnings = read, []

    def read_frame(self, frame: Any, timestamp: float, faint: bool = False,
                   gaps: bool = False) -> TableReading:
        return self.read(frame, faint)

    def notices(self) -> list[str]:
        return []


class TruthPipeline:
    """The simulated table's ground truth read as the camera would (``misread``: that
    share of tiles misread on purpose; ``confuse``: (true, read) codes always read so)."""

    def __init__(self, misread: float = 0.0, seed: int = 0,
                 confuse: tuple[tuple[str, str], ...] = ()) -> None:
        from tablekit.sim.perfect_reading import PerfectReader

        self.reader = PerfectReader(misread=misread, seed=seed, confuse=confuse)
        self.warnings: list[str] = []

    def read_frame(self, frame: Any, timestamp: float, faint: bool = False,
                   gaps: bool = False) -> TableReading:
        return self.reader.read(frame.truth, timestamp)

    def notices(self) -> list[str]:
        return []  # the truth is always familiar


class FeedSource:
    """The simulated table's camera as the feed's frame source: times the rendering,
    keeps the frames (``out``), and after the script's end keeps showing its last frame
    (the table stays in view while the last presses are made)."""

    def __init__(self, source: SimulatedCamera | ReplayedFrames, out: Path | None = None
                 ) -> None:
        self.source, self.out = source, out
        self.last: Any = None
        self.count = 0
        self.ended = False
        self.render_seconds = 0.0

    def read(self) -> Any:
        if not self.ended:
            started = time.perf_counter()
            frame = self.source.read()
            self.render_seconds += time.perf_counter() - started
            self.ended = frame is None
            if frame is not None:
                self.last = frame
                if self.out is not None:
                    _save_frame(self.out, self.count + 1, frame.image)
        self.count += self.last is not None
        return self.last

    def close(self) -> None:
        """The simulated camera has nothing to release."""


SimClock = DrivenClock
"""The loop's time on the simulated table: ``sleep`` moves it on by whole steps, and while
it sleeps the people at the table press their buttons (``on_sleep``). Everything that
happens in a game on the simulated table is timed by it, never by the wall clock: the
camera's frames (frame ``i`` at ``i / fps``), the feed's cadence, the tracker's and the
flow's waits, the people's presses, the game timer (:func:`on_clock`); a loop that reads
slowly (a busy machine) only takes longer, so a seed gives the same game whatever the load
(``tests/test_simulate_load.py``). Only the figures of time spent (``ms_per_frame``,
``render_ms_per_frame``) and the journal's start time are the wall clock's."""


def on_clock(clock: Callable[[], float], start: float | None = None) -> Callable[[], float]:
    """A wall clock (the game timer's, :attr:`tablekit.flow.Flow.wall`) that runs on the
    driven ``clock`` from ``start`` (default: now), so a timed game on the simulated table
    times what its table played, not how long the machine took to play it.

    >>> clock = SimClock()
    >>> wall = on_clock(clock, start=1000.0)
    >>> clock.sleep(60.0); wall()
    1060.0
    """
    begun = time.time() if start is None else start
    return lambda: begun + clock()


@dataclass
class Hooks:
    """What to do besides checking: keep frames, call back after each hand (with the
    screen the hand was confirmed on), each camera frame, each step of the loop, or with
    the events the camera feed gives the loop (before the flow takes them); ``camera``
    puts something between the table's camera and the feed (a failing camera);
    ``on_start`` is given the app before its first step (a recorder taps it)."""

    frames_out: Path | None = None
    on_hand: Callable[[Flow, SimReport, ScreenModel | None], None] | None = None
    on_frame: Callable[[Any, App], None] | None = None
    on_step: Callable[[App, SimulatedTable], None] | None = None
    on_events: Callable[[list[Event], App], None] | None = None
    camera: Callable[[FeedSource, SimClock], FrameSource] | None = None
    on_start: Callable[[App], None] | None = None


def simulate_game(log: Path, pipeline: FramePipeline | ReadFrame | None = None,
                  seed: int = 0, fps: float = 4.0, max_hands: int | None = None,
                  frames_in: Path | None = None, display: Display | None = None,
                  journal: Path | None = None, hooks: Hooks | None = None,
                  patience: float = PATIENCE, art: str | None = None) -> SimReport:
    """Play one logged game on the simulated table through the app's loop and compare
    each hand with the log. ``pipeline``: the camera's (frames to readings; a function
    ``read(frame, faint)`` will do), the ground truth's by default; ``frames_in``: the
    frames an earlier run kept (``Hooks.frames_out``), played again instead of rendered
    (then the pipeline must read the image: the frames carry no truth); ``journal``:
    where the game's journal is kept (a new game is started in it; default: a
    temporary file); ``patience``: seconds a person waits for the scored hand on the
    screen before pressing OK anyway (or putting it right); ``art``: the table's tile art
    (docs/tile-sets.md; default: the seed's, from the training sets); ``max_hands``: only
    the log's first hands (None or 0: every hand)."""
    game = import_file(log, three_players=True)
    if max_hands:  # None or 0: every hand, as ``--hands 0`` means everywhere
        game = ImportedGame(game.rules, game.start, game.hands[:max_hands])
    script = Script.from_game(game)
    source = ReplayedFrames(script, frames_in, fps) if frames_in is not None else \
        SimulatedCamera(script, seed=seed, fps=fps, art=art)
    if pipeline is None:
        pipeline = TruthPipeline()
    elif not hasattr(pipeline, "read_frame"):
        pipeline = ReadingPipeline(pipeline)
    with tempfile.TemporaryDirectory() as folder:
        session = Session.open(journal or Path(folder) / "game.jsonl")
        try:
            table = SimulatedTable(game, script, session, source, pipeline, fps, display,
                                   hooks or Hooks(), patience)
            try:
                report = table.play()
                report.art = _art(source)
                return report
            finally:
                table.close()
        finally:
            session.close()


class SimulatedTable:
    """The devices of a game on the simulated table around one :class:`App`, and the
    checks made after each of its steps."""

    def __init__(self, game: ImportedGame, script: Script, session: Session,
                 source: SimulatedCamera | ReplayedFrames, pipeline: FramePipeline,
                 fps: float, display: Display | None, hooks: Hooks,
                 patience: float = PATIENCE) -> None:
        from gpiozero.pins.mock import MockFactory

        from tablekit.io.buttons import ButtonBoard

        self.game, self.script, self.source, self.hooks = game, script, source, hooks
        self.report = SimReport()
        self.clock = SimClock()
        self.camera = FeedSource(source, hooks.frames_out)
        self.app = build_table(  # the game timer runs on the table's time too
            session, display, camera=hooks.camera(self.camera, self.clock) if hooks.camera
            else self.camera, pipeline=pipeline, fps=fps, clock=self.clock,
            sleep=self.clock.sleep, wall=on_clock(self.clock))
        flow = self.app.flow
        flow.start_game(game.rules, game.start.names, game.start.first_dealer)
        if hooks.on_events is not None:
            self.app.watches.append(hooks.on_events)
        pin_time = [0.0]   # the pins' edges come at their own moments between steps
        board = ButtonBoard(self.app.inbox, pin_factory=MockFactory(),
                            clock=lambda: pin_time[0])
        self.app.buttons = board
        self.driver = PinDriver(board, pin_time,
                                lambda press: waiting_for_score(flow, press), self._stuck,
                                self.app.take_inbox, patience, self._looks)
        self.clock.on_sleep = self._people
        self.app.hooks.append(self._after_step)
        self._pressed_to = 0.0
        self._frames_seen = 0
        self._seen_result = session.state.result
        self._confirmed: ScreenModel | None = None
        self._pipeline_seconds = 0.0
        self.stopwatch = Stopwatch(script)

    @property
    def flow(self) -> Flow:
        return self.app.flow

    def play(self) -> SimReport:
        """Step the app until the script has ended and the last presses are made."""
        if self.hooks.on_start is not None:
            self.hooks.on_start(self.app)
        started = time.perf_counter()
        self.app.run(until=self._done)
        report = self.report
        report.render_seconds = self.camera.render_seconds
        report.pipeline_seconds = time.perf_counter() - started - report.render_seconds
        report.peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        report.latency = self.stopwatch.samples()
        report.never_shown = self.stopwatch.never_shown()
        _check_missing_hands(self.game, report)
        return report

    def close(self) -> None:
        if self.app.buttons is not None:
            self.app.buttons.close()

    def _people(self, now: float) -> None:
        """While the loop sleeps: the presses the script calls for until ``now``."""
        for press in self.source.presses_between(self._pressed_to, now + 1e-9):
            self.driver.schedule(press)
        self._pressed_to = now + 1e-9
        self.driver.run_until(now, FRAME_SECONDS)

    def _done(self, app: App) -> bool:
        if not self.camera.ended:
            return False
        end = self.script.length
        return not self.driver.pending or self.clock() >= end + TAIL

    def _after_step(self, app: App) -> None:
        if self.camera.count != self._frames_seen:
            self._frames_seen = self.camera.count
            self.report.frames += 1
            if not self.camera.ended:
                self.stopwatch.frame(self.camera.last, self.clock())
            if self.hooks.on_frame is not None:
                self.hooks.on_frame(self.camera.last, app)
        result = app.flow.session.state.result
        if result is not None and result is not self._seen_result:
            self._seen_result = result
            _check_hand(self.game, app.flow, self.report)
            if self.hooks.on_hand is not None:
                self.hooks.on_hand(app.flow, self.report, self._confirmed)
        self._confirmed = app.screen
        self.stopwatch.step(app.screen, app.shown_at, self.clock(), self.driver.pressed)
        if self.hooks.on_step is not None:
            self.hooks.on_step(app, self)

    def _stuck(self, press: ButtonPress) -> Iterator[ButtonPress] | None:
        """The app cannot score the win on screen: a person puts its tiles right (first
        saying who dealt in, when the screen asks: a camera that lost the hand)."""
        report, flow = self.report, self.flow
        truth = self._truth()
        asked = flow.stage is Stage.CHOOSE_DISCARDER
        if truth is None or not (flow.win_seats or asked):
            return None
        report.fixing = True
        return self._answer_and_fix(truth) if asked else self._fix(truth)

    def _answer_and_fix(self, truth: Won) -> Iterator[ButtonPress]:
        """The seat that dealt in presses one of its buttons; then, if the app still cannot
        score the win, a person puts its tiles right."""
        yield from self._answer(truth)
        if self.flow.win_seats and self.flow.preview is None:
            yield from self._fix(truth)

    def _answer(self, truth: Won) -> Iterator[ButtonPress]:
        """When the screen asks who dealt in, that seat presses one of its buttons."""
        if self.flow.stage is Stage.CHOOSE_DISCARDER and truth.from_seat is not None:
            yield ButtonPress(ButtonName.RIICHI, truth.from_seat)

    def _fix(self, truth: Won) -> Iterator[ButtonPress]:
        """The tiles put right; when they still do not score (a meld the camera read
        wrong: tiles alone cannot put it right), UNDO and the winner's han and fu."""
        index, seat = self.report.hands, self.flow.win_seats[0]
        values = _logged_values(self.game, index)
        yield from put_right(self.flow, truth, seat, values, _logged_dora(self.game, index))
        yield from self._answer(truth)   # the camera's record refused it: who dealt in
        if self.flow.stage is Stage.FIX_TILES and seat in values and len(truth.winners) == 1:
            yield ButtonPress(ButtonName.UNDO)
            yield from enter_value(values[seat], seat)
            yield from self._answer(truth)
        yield from self._payer_said(truth)

    def _payer_said(self, truth: Won) -> Iterator[ButtonPress]:
        """A ron the screen now shows paid by another seat than the one that dealt in (the
        tiles or the han and fu put right, the payer still the camera's): that seat says
        so with RIICHI before OK."""
        if payer_wrong(self.flow.screen(), truth):
            assert truth.from_seat is not None   # a ron (payer_wrong)
            yield ButtonPress(ButtonName.RIICHI, truth.from_seat)

    def _looks(self, press: ButtonPress) -> Iterator[ButtonPress] | None:
        """Before OK on a scored win: a person compares the win the screen shows with the
        table: a ron's payer not the seat that dealt in, that seat says so (RIICHI); tiles
        other than those on the table, they put right."""
        report, flow = self.report, self.flow
        truth = self._truth() if press.name is ButtonName.OK and flow.win_seats else None
        if truth is None or report.fixing:
            return None
        if payer_wrong(flow.screen(), truth):
            self._shown(flow.screen())
            return self._say_dealt_in(truth)
        return self._tiles_looked_at(truth)

    def _say_dealt_in(self, truth: Won) -> Iterator[ButtonPress]:
        """The seat that dealt in presses RIICHI; then the tiles shown are looked at."""
        yield from self._payer_said(truth)
        yield from self._tiles_looked_at(truth) or ()

    def _tiles_looked_at(self, truth: Won) -> Iterator[ButtonPress] | None:
        """The tiles the screen shows put right where they differ from the table's."""
        dora, screen = _logged_dora(self.game, self.report.hands), self.flow.screen()
        if not shown_wrong(screen, truth, dora):
            return None
        self._shown(screen)
        return self._fix(truth)

    def _shown(self, screen: ScreenModel) -> None:
        """The win the screen showed before a person corrected it (counted put right)."""
        assert screen.preview is not None   # a win waiting for OK
        self.report.shown_win = Won(tuple(WinnerHand(win.seat, win.hand, win.win_tile)
                                          for win in screen.preview.wins))

    def _truth(self) -> Won | None:
        """The log's win in the hand being played (None: it ends otherwise)."""
        index = self.report.hands
        if index >= len(self.game.hands):
            return None
        return next((e for e in self.game.hands[index].events if isinstance(e, Won)), None)


def _art(source: Any) -> list[str]:
    """The tile art the table was drawn with (none: frames played again, or a test's camera
    without a rig)."""
    look = getattr(getattr(source, "rig", None), "look", None)
    return [look.art] if look is not None else []


def _logged_values(game: ImportedGame, index: int) -> dict[int, HandValue]:
    """Each winner's hand value in hand ``index`` of the log (the engine replaying it)."""
    hand = next(itertools.islice(walk(game.events), index, None))
    return {win.seat: win.value for win in hand.result.wins} if hand.result else {}


def waiting_for_score(flow: Flow, press: ButtonPress) -> bool:
    """Whether a person about to press OK would still be waiting for the screen: on a win
    it does not show the scored hand yet, at the end of the wall it does not show the wall
    empty yet (the camera is still catching up with the last discards)."""
    return press.name is ButtonName.OK and flow.waiting_for_score()


def _check_hand(game: ImportedGame, flow: Flow, report: SimReport) -> None:
    index = report.hands
    if index >= len(game.hands):
        report.add_hand(HandReport(f"hand {index}", ("more hands than the log has",)))
        return
    expected = game.hands[index]
    result = flow.session.state.result
    assert result is not None
    played = _last_hand(flow)
    fixed, report.fixing = report.fixing, False
    shown, report.shown_win = report.shown_win, None
    report.hands_fixed += fixed
    report.wins_put_right += shown is not None
    differences = []
    if tuple(result.deltas) != tuple(expected.deltas):
        differences.append(f"score changes {list(result.deltas)} != log "
                           f"{list(expected.deltas)}")
    elif fixed:
        differences.append("right once a person put the tiles right")
    elif shown is not None:
        differences.append("right once a person put right the tiles the win screen showed")
    wins = [] if fixed else [shown] if shown is not None else _won(played.events)
    report.add_hand(HandReport(f"hand {index} ({result.detail})", tuple(differences),
                               *_count_tiles(expected.events, played.events, wins)))


def _logged_dora(game: ImportedGame, index: int) -> list[Tile]:
    """The dora indicators the log's hand ``index`` turned, in order."""
    events = game.hands[index].events
    first = [e.dora for e in events if isinstance(e, HandStarted) and e.dora is not None]
    return [*first, *(e.indicator for e in events if isinstance(e, DoraRevealed))]


def _last_hand(flow: Flow) -> Hand:
    """The hand the simulated table played last (the events in force walked)."""
    *_, hand = walk(in_force(flow.session.history)[0])
    return hand


def _count_tiles(expected: tuple, got: tuple, wins: list[Won]) -> tuple[int, int]:
    """The tiles read and of them those read right: discards, and the winners' hands as the
    camera read them (``wins``: none when a person put the tiles right because the app
    could not score them; the screen's, before a person corrected them)."""
    want = [e.tile for e in expected if isinstance(e, Discard)]
    have = [e.tile for e in got if isinstance(e, Discard)]
    read, right = len(have), sum(a == b for a, b in zip(want, have, strict=False))
    for mine, theirs in zip(wins, _won(expected), strict=False):
        for a, b in zip(mine.winners, theirs.winners, strict=False):
            read += len(a.hand)
            right += (sorted(a.hand) == sorted(b.hand) and len(a.hand)) or 0
    return read, right


def _won(events: Any) -> list[Won]:
    return [e for e in events if isinstance(e, Won)]


def _check_missing_hands(game: ImportedGame, report: SimReport) -> None:
    """Each hand of the log the table never ended is a failed hand.

    >>> report = SimReport(hands=1, hands_ok=1)
    >>> game = ImportedGame(None, None, (None, None))  # type: ignore[arg-type]
    >>> _check_missing_hands(game, report)
    >>> report.hands, report.hands_ok, report.hands_never_ended, report.mismatches
    (2, 1, 1, ['hand 1: never ended on the simulated table'])
    """
    for index in range(report.hands, len(game.hands)):
        report.add_hand(HandReport(f"hand {index}", ("never ended on the simulated table",)))
        report.hands_never_ended += 1


def _save_frame(folder: Path, number: int, image: Any) -> None:
    import cv2

    folder.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(folder / f"frame-{number:05d}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 80])
