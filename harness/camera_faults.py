"""A camera that fails while a recorded game plays on the simulated table: unplugged and
plugged back (the source raises, or returns nothing), one frozen picture, garbage frames
(noise, black, the wrong size or channel count, not an image), an arm over the table,
and the camera bumped. The game is played on the simulated table through the app's own
loop (:func:`tablekit.sim.simulate.simulate_game`: the real pipeline, tracker, flow and
:class:`~tablekit.app.loop.App`, presses on mock pins, a driven clock, no display); the
failing camera sits between the table's camera and the feed, and the table goes on
while it fails.

The same game is played twice, once with the faults and once without. Every event the
faulty table's camera feed gives the loop is checked against the game's truth (the
log): ``wrong`` counts those that did not happen (a discard missed is not a wrong event;
the next one seen still is a real one). The simulated players wait for the screen before
OK on a win, as people do, for up to ``PATIENCE`` seconds. ``clean_wrong`` counts the
same on the fault-free table (the vision's own misreads, not the faults'). A fault whose
window passes with nothing on the screen's warnings is ``unreported``.

>>> [fault.kind for fault in schedule()][:3]
['raises', 'returns nothing', 'frozen']
>>> plan_length(schedule(arm=24, frozen=44, gap=6))
220
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from tablekit.game.events import (
    Call,
    Discard,
    DiscardCorrected,
    DoraCorrected,
    DoraRevealed,
    Draw,
    Event,
    HandStarted,
)
from tablekit.game.session import Session, in_force
from tablekit.sim.occluders import Arm
from tablekit.sim.source import SimulatedCamera
from tablekit.vision.pipeline import CameraPipeline

if TYPE_CHECKING:
    from tablekit.app.loop import App
    from tablekit.sim.simulate import FeedSource, SimulatedTable

FPS = 4.0
PATIENCE = 90.0  # seconds a player waits for the screen to show the win before OK anyway
KINDS = ("raises", "returns nothing", "frozen", "noise", "black", "wrong size", "grey",
         "four channels", "not an image", "arm", "bumped")


@dataclass(frozen=True)
class Fault:
    kind: str
    start: int   # the frame it starts at
    frames: int  # how long it lasts


def schedule(arm: int = 120, frozen: int = 240, gap: int = 12, start: int = 24) -> list[Fault]:
    """The faults in frames (4 a second: an arm for 30 s, a frozen picture for a minute by
    default), ``gap`` frames apart after a clean start (the camera calibrates, the hand is
    dealt); the bump comes last and stays. The end of the plan is :func:`plan_length`."""
    lengths = {"frozen": frozen, "arm": arm, "raises": 8, "returns nothing": 8}
    plan, at = [], start
    for kind in KINDS[:-1]:
        length = lengths.get(kind, 2)
        plan.append(Fault(kind, at, length))
        at += length + gap
    plan.append(Fault("bumped", at, 10 ** 9))
    return plan


def plan_length(plan: list[Fault], after_bump: int = 40) -> int:
    """Frames enough to play the whole plan, and ``after_bump`` frames of the bumped camera."""
    return plan[-1].start + after_bump


class FaultySource:
    """The table's camera as a failing one gives it, at the loop's time: the fault of the
    moment (by ``clock``, 4 frames a second) applied to the table's frame of the moment.
    The table goes on while the camera fails: each read first catches up with the
    frames the feed did not ask for (a lost camera is tried every two seconds).
    The arm is drawn by the table's own camera, held over the ponds."""

    def __init__(self, plan: list[Fault], camera: FeedSource, clock: Callable[[], float]
                 ) -> None:
        self.plan, self.camera, self.clock = plan, camera, clock
        self.frozen: Any = None

    def fault(self) -> Fault | None:
        index = round(self.clock() * FPS)
        return next((f for f in self.plan if f.start <= index < f.start + f.frames), None)

    def read(self) -> Any:
        frame, fault = self._catch_up(), self.fault()
        if fault is None or fault.kind != "frozen":
            self.frozen = None
        if fault is None or frame is None:
            return frame
        if fault.kind == "raises":
            raise OSError("USB camera unplugged")
        if fault.kind == "returns nothing":
            return None
        if fault.kind == "frozen":
            self.frozen = self.frozen or frame
            return self.frozen
        if fault.kind == "arm":
            return _Image(_held_arm(self.camera.source, frame.timestamp))
        return _Image(_spoil(fault.kind, frame.image, round(frame.timestamp * FPS)))

    def _catch_up(self) -> Any:
        now = self.clock()
        frame = self.camera.read()
        while frame is not None and not self.camera.ended and frame.timestamp < now - 1e-6:
            frame = self.camera.read()
        return frame

    def close(self) -> None:
        self.camera.close()


@dataclass
class _Image:
    image: Any


def _spoil(kind: str, image: np.ndarray, index: int) -> Any:
    rng = np.random.default_rng(index)
    if kind == "noise":
        return rng.integers(0, 256, image.shape, dtype=np.uint8)
    if kind == "black":
        return np.zeros_like(image)
    if kind == "wrong size":
        return image[::2, ::2].copy()
    if kind == "grey":
        return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if kind == "four channels":
        return cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)
    if kind == "not an image":
        return b"\xff\xd8 half a JPEG"
    if kind == "arm":
        return _arm(image)
    return cv2.warpAffine(image, np.float32([[1, 0, 24], [0, 1, 14]]),  # bumped
                          (image.shape[1], image.shape[0]), borderMode=cv2.BORDER_REPLICATE)


def _held_arm(camera: SimulatedCamera, seconds: float) -> np.ndarray:
    """The table at ``seconds`` with seat 0's arm held still over the middle of the ponds."""
    index = camera.script.index_at(seconds)
    skin, sleeve, size = camera.rig.players[0]
    arm = Arm(0, (40.0, -60.0), 70.0, 60.0, skin, sleeve, size)
    rendered = camera.rig.renderer.render(camera.scene(index), camera.rig.frames,
                                          camera.rig.conditions, (arm,), {})
    return rendered.image


def _arm(image: np.ndarray) -> np.ndarray:
    """A forearm reaching from the bottom edge to the middle of the table."""
    out = image.copy()
    height, width = image.shape[:2]
    arm = np.array([[width * 0.38, height], [width * 0.52, height], [width * 0.56, height * 0.45],
                    [width * 0.47, height * 0.42]], np.int32)
    cv2.fillPoly(out, [arm], (120, 160, 210))
    return out


@dataclass
class CameraFaults:
    frames: int = 0
    faults: int = 0
    wrong: int = 0
    clean_wrong: int = 0
    unreported: int = 0
    wrong_by_fault: dict[str, int] = field(default_factory=dict)  # the fault on when emitted
    crashes: int = 0
    events: int = 0
    problems: list[str] = field(default_factory=list)


@dataclass
class _Watch:
    """What one table's camera feed gave the loop, with the fault on at the time."""

    plan: list[Fault]
    emitted: list[tuple[int, Event]] = field(default_factory=list)
    when: list[str] = field(default_factory=list)
    warned: set[Fault] = field(default_factory=set)
    source: FaultySource | None = None
    frames: int = 0
    crash: str = ""

    def camera(self, camera: FeedSource, clock: Callable[[], float]) -> FaultySource:
        self.source = FaultySource(self.plan, camera, clock)
        return self.source

    def fault(self) -> Fault | None:
        return self.source.fault() if self.source is not None else None

    def events(self, events: list[Event], app: App) -> None:
        fault = self.fault()
        for event in events:
            self.emitted.append((_hand_index(app.flow.session), event))
            self.when.append(fault.kind if fault else "no fault")

    def step(self, app: App, table: SimulatedTable, end: float) -> None:
        fault = self.fault()
        if fault is not None and app.screen is not None and app.screen.warnings:
            self.warned.add(fault)
        self.frames = table.camera.count
        if app.clock() >= end:
            app.running = False


def run(log: Path, plan: list[Fault], folder: Path, seed: int = 0, clean: bool = True
        ) -> CameraFaults:
    """Play ``log`` on the simulated table for the length of ``plan`` with its faults (and,
    with ``clean``, again without them)."""
    from tablekit.formats.tenhou import import_file

    truth = _truth(import_file(log))
    faulty = _play(log, plan, folder / "faulty", seed, faults=True)
    result = CameraFaults(frames=faulty.frames, crashes=bool(faulty.crash))
    result.problems += [faulty.crash] if faulty.crash else []
    if clean:
        fault_free = _play(log, plan, folder / "clean", seed, faults=False)
        result.clean_wrong = len(_wrong(fault_free.emitted, truth))
        result.crashes += bool(fault_free.crash)
    wrong = _wrong(faulty.emitted, truth)
    result.wrong, result.events = len(wrong), len(faulty.emitted)
    result.wrong_by_fault = dict(Counter(faulty.when[i] for i, _ in wrong))
    result.problems += [f"wrong event ({faulty.when[i]}): {text}" for i, text in wrong[:5]]
    shown = [f for f in plan if f.start < faulty.frames]
    missed = [f for f in shown if f not in faulty.warned]
    result.unreported = len(missed)
    result.problems += [f"nothing on the screen during {f.kind}" for f in missed]
    result.faults = len(shown)
    return result


def _play(log: Path, plan: list[Fault], folder: Path, seed: int, faults: bool) -> _Watch:
    """One game on the simulated table until the plan's end; what its camera gave."""
    from tablekit.sim.simulate import Hooks, simulate_game

    folder.mkdir(parents=True, exist_ok=True)
    watch = _Watch(plan if faults else [])
    end = plan_length(plan) / FPS
    hooks = Hooks(camera=watch.camera, on_events=watch.events,
                  on_step=lambda app, table: watch.step(app, table, end))
    try:
        simulate_game(log, CameraPipeline.open(), seed=seed, fps=FPS,
                      journal=folder / "game.jsonl", hooks=hooks, patience=PATIENCE)
    except Exception as error:  # the scoreboard must never stop: counted
        watch.crash = f"crash: {type(error).__name__}: {error}"
    return watch


def _hand_index(session: Session) -> int:
    """Which hand of the game the app is in (0 the first)."""
    return sum(isinstance(e, HandStarted) for e in in_force(session.history)[0]) - 1


def _truth(game: Any) -> list[dict[str, Any]]:
    """Per hand: each seat's discards, draws and calls, and the dora indicators, in order."""
    hands = []
    for hand in game.hands:
        seen: dict[str, Any] = {"discards": defaultdict(list), "draws": Counter(),
                                "calls": defaultdict(list), "dora": []}
        for event in hand.events:
            if isinstance(event, Discard):
                seen["discards"][event.seat].append(event.tile)
            elif isinstance(event, Draw):
                seen["draws"][event.seat] += 1
            elif isinstance(event, Call):
                seen["calls"][event.seat].append((event.kind, sorted(t.code for t in event.tiles)))
            elif isinstance(event, DoraRevealed):
                seen["dora"].append(event.indicator)
            elif isinstance(event, HandStarted) and event.dora is not None:
                seen["dora"].append(event.dora)
        hands.append(seen)
    return hands


def _wrong(emitted: list[tuple[int, Event]], truth: list[dict[str, Any]]
           ) -> list[tuple[int, str]]:
    """The emitted events (index, in words) that did not happen in the app's hand."""
    counts: Counter = Counter()
    wrong = []
    for index, (hand, event) in enumerate(emitted):
        true = truth[hand] if 0 <= hand < len(truth) else None
        if true is None or not _happened(event, true, hand, counts):
            wrong.append((index, f"hand {hand}: {event}"))
    return wrong


def _happened(event: Event, true: dict[str, Any], hand: int, counts: Counter) -> bool:
    """Whether ``event`` is one of the hand's: a discard or call of the seat's that comes
    after the last one matched (those in between were missed, not made up), a draw the
    seat made, a correction to what the pond really holds, an indicator that was shown."""
    if isinstance(event, (Discard, Call)):
        kind = "discards" if isinstance(event, Discard) else "calls"
        seen = event.tile if isinstance(event, Discard) else (
            event.kind, sorted(t.code for t in event.tiles))
        start = counts[hand, kind, event.seat]
        later = true[kind][event.seat][start:]
        if seen not in later:
            return False
        counts[hand, kind, event.seat] = start + later.index(seen) + 1
        return True
    if isinstance(event, DiscardCorrected):
        pond = true["discards"][event.seat]
        return event.index < len(pond) and pond[event.index] == event.tile
    if isinstance(event, Draw):
        counts[hand, "draw", event.seat] += 1
        return counts[hand, "draw", event.seat] <= true["draws"][event.seat]
    if isinstance(event, (DoraRevealed, DoraCorrected)):
        tile = event.indicator if isinstance(event, DoraRevealed) else event.tile
        return tile in true["dora"]
    return False
