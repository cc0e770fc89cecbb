"""A real game on the simulated table, end to end: rendered frames through the camera
pipeline and the tracker, button presses through gpiozero's MockFactory pins, every
win the app scores confirmed without correction, each hand's score changes compared
with the log. The simulated players press OK on a win once the screen shows the scored
hand, and OK at the end of the wall once it shows the wall empty, as a person would (at
most ``PATIENCE`` seconds after their scripted moment; later presses keep their order).
A win the app cannot score at all (no complete hand read) a simulated person puts right
with the buttons (:mod:`tablekit.sim.person`), so that the game goes on; such a hand is
counted in ``hands_fixed``, never in ``hands_ok``.

>>> SimReport(hands=2, hands_ok=2).summary()["hands_ok"]
2
"""

from __future__ import annotations

import heapq
import queue
import resource
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tablekit.flow import Flow
from tablekit.formats.tenhou import ImportedGame, import_file
from tablekit.game.events import Discard, DoraRevealed, HandStarted, Won
from tablekit.game.reducer import replay
from tablekit.game.session import Session, in_force
from tablekit.io.presses import ButtonPress
from tablekit.rules.scoring import HandValue
from tablekit.sim.person import put_right
from tablekit.sim.script import Script
from tablekit.sim.source import ReplayedFrames, SimulatedCamera
from tablekit.tiles import Tile
from tablekit.tracking.tracker import Tracker
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
    tiles_read: int = 0
    tiles_ok: int = 0
    frames: int = 0
    pipeline_seconds: float = 0.0
    render_seconds: float = 0.0
    peak_mb: float = 0.0
    mismatches: list[str] = field(default_factory=list)
    fixing: bool = False   # a person is putting the current hand's tiles right

    def add(self, other: SimReport) -> None:
        for name in ("hands", "hands_ok", "hands_fixed", "tiles_read", "tiles_ok", "frames",
                     "pipeline_seconds", "render_seconds"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.peak_mb = max(self.peak_mb, other.peak_mb)
        self.mismatches.extend(other.mismatches)

    def summary(self) -> dict[str, Any]:
        frames = max(self.frames, 1)
        return {"hands": self.hands, "hands_ok": self.hands_ok,
                "hands_fixed": self.hands_fixed, "tiles_read": self.tiles_read,
                "tiles_ok": self.tiles_ok, "frames": self.frames,
                "ms_per_frame": round(1000 * self.pipeline_seconds / frames, 2),
                "render_ms_per_frame": round(1000 * self.render_seconds / frames, 2),
                "peak_mb": round(self.peak_mb, 1)}


class PinDriver:
    """Plays scripted presses on MockFactory pins at their times, with the board's clock.

    ``waits(press)`` True holds a press back (a person waiting for the screen: OK on a win
    is pressed once the scored hand shows), a frame at a time, at most ``PATIENCE`` seconds.
    Then ``stuck(press)`` may give the presses a person makes first (putting a win's tiles
    right), asked for one at a time once the app has had the last (``settle``); later
    presses wait.
    """

    def __init__(self, board: Any, clock: list[float],
                 waits: Callable[[ButtonPress], bool] = lambda press: False,
                 stuck: Callable[[ButtonPress], Iterator[ButtonPress] | None] = (
                     lambda press: None), settle: Callable[[], None] = lambda: None) -> None:
        from tablekit.io.pinmap import load_pinmap

        self.board, self.clock, self.waits, self.stuck = board, clock, waits, stuck
        self.settle = settle
        self.pins = load_pinmap()
        self._queue: list[tuple[float, int, ButtonPress | None, int, bool, bool]] = []
        self._order = 0
        self.held: ButtonPress | None = None   # the press a person is waiting to make
        self.held_at = 0.0
        self.person: Iterator[ButtonPress] | None = None   # their own presses first
        self._tried: set[int] = set()

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
        if self.waits(press) and at + step <= press.time + PATIENCE:
            self.held, self.held_at = press, at + step
            self.schedule(press, at + step)
            return False
        if self.waits(press) and id(press) not in self._tried:
            self._tried.add(id(press))
            self.person = self.stuck(press)
            if self.person is not None:
                self.held = press
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


def simulate_game(log: Path, read_frame: ReadFrame | None = None, seed: int = 0,
                  fps: float = 4.0, max_hands: int | None = None,
                  frames_out: Path | None = None, on_hand: Callable[..., None] | None = None,
                  on_frame: Callable[..., None] | None = None,
                  frames_in: Path | None = None) -> SimReport:
    """Play one logged game on the simulated table and compare each hand with the log;
    ``frames_in``: the frames an earlier run kept (``frames_out``), played again instead
    of rendered (then ``read_frame`` must read the image: the frames carry no truth)."""
    from gpiozero.pins.mock import MockFactory

    from tablekit.io.buttons import ButtonBoard
    from tablekit.sim.perfect_reading import PerfectReader

    game = import_file(log)
    if max_hands is not None:
        game = ImportedGame(game.rules, game.start, game.hands[:max_hands])
    script = Script.from_game(game)
    camera = ReplayedFrames(script, frames_in, fps) if frames_in is not None else \
        SimulatedCamera(script, seed=seed, fps=fps)
    read = read_frame or (lambda frame, _: PerfectReader().read(frame.truth, frame.timestamp))
    clock = [0.0]
    with tempfile.TemporaryDirectory() as folder:
        session = Session.open(Path(folder) / "game.jsonl")
        tracker = Tracker(lambda: session.state)
        flow = Flow(session, reader=tracker, clock=lambda: clock[0])
        flow.start_game(game.rules, game.start.names, game.start.first_dealer)
        presses: queue.Queue = queue.Queue()
        board = ButtonBoard(presses, pin_factory=MockFactory(), clock=lambda: clock[0])
        try:
            hooks = Hooks(frames_out, on_hand, on_frame)
            return _play(game, camera, read, flow, tracker, board, presses, clock, hooks)
        finally:
            board.close()
            session.close()


@dataclass(frozen=True)
class Hooks:
    """What to do besides checking: keep frames, call back after each hand or frame."""

    frames_out: Path | None = None
    on_hand: Callable[..., None] | None = None
    on_frame: Callable[..., None] | None = None


def _play(game: ImportedGame, camera: SimulatedCamera | ReplayedFrames, read: ReadFrame,
          flow: Flow, tracker: Tracker, board: Any, presses: queue.Queue, clock: list[float],
          hooks: Hooks) -> SimReport:
    report = SimReport()

    def settle() -> None:
        while not presses.empty():
            flow.handle(presses.get_nowait())

    def stuck(press: ButtonPress) -> Iterator[ButtonPress] | None:
        """The app cannot score the win on screen: a person puts its tiles right."""
        truth = next((e for e in game.hands[report.hands].events if isinstance(e, Won)),
                     None) if report.hands < len(game.hands) else None
        if truth is None or not flow.win_seats:
            return None
        report.fixing = True
        return put_right(flow, truth, flow.win_seats[0], _logged_values(game, report.hands),
                         _logged_dora(game, report.hands))

    driver = PinDriver(board, clock, lambda press: waiting_for_score(flow, press), stuck,
                       settle)
    seen_result = flow.session.state.result

    def check() -> None:
        """Compare a hand that has just ended with the log."""
        nonlocal seen_result
        result = flow.session.state.result
        if result is not None and result is not seen_result:
            seen_result = result
            _check_hand(game, flow, report)
            if hooks.on_hand is not None:
                hooks.on_hand(flow, report)

    last_time = 0.0
    while True:
        started = time.perf_counter()
        frame = camera.read()
        rendered = time.perf_counter()
        if frame is None:
            break
        for press in camera.presses_between(last_time, frame.timestamp + 1e-9):
            driver.schedule(press)
        last_time = frame.timestamp + 1e-9
        driver.run_until(frame.timestamp)
        for event in tracker.update(read(frame, tracker.wants_faint())):
            flow.handle(event)
        settle()
        flow.tick()
        report.frames += 1
        report.render_seconds += rendered - started
        report.pipeline_seconds += time.perf_counter() - rendered
        if hooks.frames_out is not None:
            _save_frame(hooks.frames_out, report.frames, frame.image)
        if hooks.on_frame is not None:
            hooks.on_frame(frame, flow)
        check()
    end = clock[0]
    while driver.pending and clock[0] < end + TAIL:  # presses after the last frame
        driver.run_until(clock[0] + 0.25)
        settle()
        flow.tick()
        check()
    report.peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    _check_missing_hands(game, report)
    return report


def _logged_values(game: ImportedGame, index: int) -> dict[int, HandValue]:
    """Each winner's hand value in hand ``index`` of the log (the engine replaying it)."""
    state = replay(ImportedGame(game.rules, game.start, game.hands[: index + 1]).events)
    return {win.seat: win.value for win in state.result.wins} if state.result else {}


def waiting_for_score(flow: Flow, press: ButtonPress) -> bool:
    """Whether a person about to press OK would still be waiting for the screen: on a win
    it does not show the scored hand yet, at the end of the wall it does not show the wall
    empty yet (the camera is still catching up with the last discards)."""
    from tablekit.io.presses import ButtonName

    return press.name is ButtonName.OK and flow.waiting_for_score()


def _check_hand(game: ImportedGame, flow: Flow, report: SimReport) -> None:
    index = report.hands
    report.hands += 1
    if index >= len(game.hands):
        report.mismatches.append(f"hand {index}: more hands than the log has")
        return
    expected = game.hands[index]
    result = flow.session.state.result
    assert result is not None
    fixed, report.fixing = report.fixing, False
    report.hands_fixed += fixed
    same = tuple(result.deltas) == tuple(expected.deltas)
    if not same:
        report.mismatches.append(f"hand {index} ({result.detail}): score changes "
                                 f"{list(result.deltas)} != log {list(expected.deltas)}")
    elif fixed:
        report.mismatches.append(f"hand {index} ({result.detail}): right once a person put "
                                 "the tiles right")
    report.hands_ok += same and not fixed
    _count_tiles(expected.events, _hand_events(flow), report, wins=not fixed)


def _logged_dora(game: ImportedGame, index: int) -> list[Tile]:
    """The dora indicators the log's hand ``index`` turned, in order."""
    events = game.hands[index].events
    first = [e.dora for e in events if isinstance(e, HandStarted) and e.dora is not None]
    return [*first, *(e.indicator for e in events if isinstance(e, DoraRevealed))]


def _hand_events(flow: Flow) -> list[Any]:
    active, _ = in_force(flow.session.history)
    starts = [i for i, e in enumerate(active) if type(e).__name__ == "HandStarted"]
    return active[starts[-1]:] if starts else []


def _count_tiles(expected: tuple, got: list, report: SimReport, wins: bool = True) -> None:
    """Discards, and the winners' hands (``wins``: not when a person put them right)."""
    want = [e.tile for e in expected if isinstance(e, Discard)]
    have = [e.tile for e in got if isinstance(e, Discard)]
    report.tiles_read += len(have)
    report.tiles_ok += sum(a == b for a, b in zip(want, have, strict=False))
    for mine, theirs in zip(_won(got) if wins else [], _won(expected), strict=False):
        for a, b in zip(mine.winners, theirs.winners, strict=False):
            report.tiles_read += len(a.hand)
            report.tiles_ok += (sorted(a.hand) == sorted(b.hand) and len(a.hand)) or 0


def _won(events: Any) -> list[Won]:
    return [e for e in events if isinstance(e, Won)]


def _check_missing_hands(game: ImportedGame, report: SimReport) -> None:
    for index in range(report.hands, len(game.hands)):
        report.mismatches.append(f"hand {index}: never ended on the simulated table")


def _save_frame(folder: Path, number: int, image: Any) -> None:
    import cv2

    folder.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(folder / f"frame-{number:05d}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 80])
