"""A camera that fails while a recorded game plays on the simulated table: unplugged and
plugged back (the source raises, or returns nothing), one frozen picture, garbage frames
(noise, black, the wrong size or channel count, not an image), an arm over the table,
and the camera bumped. The frames go through the real pipeline, tracker and flow.

Two tables play in lock-step from the same rendered frames: one sees the faults, one
does not. Every event the faulty side's tracker emits is checked against the game's
truth (the log): ``wrong`` counts those that did not happen (a discard missed is not a
wrong event; the next one seen still is a real one). The simulated players wait for the
screen before OK on a win, as people do, for up to ``PATIENCE`` seconds. ``clean_wrong`` counts the
same on the fault-free side (the vision's own misreads, not the faults'). A fault whose
window passes with nothing on the screen's warnings is ``unreported``.

>>> [fault.kind for fault in schedule()][:3]
['raises', 'returns nothing', 'frozen']
>>> plan_length(schedule(arm=24, frozen=44, gap=6))
220
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tablekit.flow import Flow
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
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.sim.occluders import Arm
from tablekit.sim.source import SimulatedCamera
from tablekit.tracking.tracker import Tracker
from tablekit.vision.feed import CameraFeed
from tablekit.vision.pipeline import CameraPipeline

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
    """The frame of the moment as a failing camera would give it (``camera`` draws the arm
    held over the table; without it a flat forearm shape is painted on the frame)."""

    def __init__(self, plan: list[Fault], camera: SimulatedCamera | None = None) -> None:
        self.plan, self.index, self.frame, self.frozen = plan, 0, None, None
        self.camera = camera

    def fault(self) -> Fault | None:
        return next((f for f in self.plan if f.start <= self.index < f.start + f.frames),
                    None)

    def read(self) -> Any:
        fault, frame = self.fault(), self.frame
        if fault is None or fault.kind != "frozen":
            self.frozen = None
        if fault is None:
            return frame
        if fault.kind == "raises":
            raise OSError("USB camera unplugged")
        if fault.kind == "returns nothing":
            return None
        if fault.kind == "frozen":
            self.frozen = self.frozen or frame
            return self.frozen
        if fault.kind == "arm" and self.camera is not None:
            return _Image(_held_arm(self.camera, frame.timestamp))
        return _Image(_spoil(fault.kind, frame.image, self.index))


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
class _Side:
    feed: CameraFeed
    flow: Flow
    emitted: list[tuple[int, Event]] = field(default_factory=list)
    waiting: list[ButtonPress] = field(default_factory=list)  # presses not made yet
    when: list[str] = field(default_factory=list)  # the fault on at each emitted event


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


def run(log: Path, plan: list[Fault], folder: Path, seed: int = 0) -> CameraFaults:
    """Play ``log`` on two tables for the length of ``plan``, one with its faults."""
    from tablekit.formats.tenhou import import_file

    game = import_file(log)
    frames = plan_length(plan)
    camera = SimulatedCamera.from_log(log, seed=seed, fps=FPS)
    faulty_source = FaultySource(plan, SimulatedCamera.from_log(log, seed=seed, fps=FPS))
    clock = [0.0]
    sides = [_side(folder / name, source, game, clock)
             for name, source in (("clean", _Passthrough(faulty_source)),
                                  ("faulty", faulty_source))]
    result, warned = CameraFaults(faults=len(plan)), set()
    for index in range(frames):
        frame = camera.read()
        if frame is None:
            break
        clock[0] = frame.timestamp
        faulty_source.index, faulty_source.frame = index, frame
        presses = camera.presses_between(frame.timestamp - 1 / FPS, frame.timestamp)
        fault = faulty_source.fault()
        for side in sides:
            _step(side, presses, result, fault.kind if fault else "no fault", frame.timestamp)
        if fault is not None and sides[1].flow.screen().warnings:
            warned.add(fault)
        result.frames += 1
    truth = _truth(game)
    result.clean_wrong = len(_wrong(sides[0].emitted, truth))
    wrong = _wrong(sides[1].emitted, truth)
    result.wrong, result.events = len(wrong), len(sides[1].emitted)
    result.wrong_by_fault = dict(Counter(sides[1].when[i] for i, _ in wrong))
    result.problems += [f"wrong event ({sides[1].when[i]}): {text}" for i, text in wrong[:5]]
    missed = [f for f in plan if f.start < result.frames and f not in warned]
    result.unreported = len(missed)
    result.problems += [f"nothing on the screen during {f.kind}" for f in missed]
    result.faults = sum(1 for f in plan if f.start < result.frames)
    for side in sides:
        side.flow.session.close()
    return result


class _Passthrough:
    def __init__(self, faulty: FaultySource) -> None:
        self.faulty = faulty

    def read(self) -> Any:
        return self.faulty.frame


def _side(folder: Path, source: Any, game: Any, clock: list[float]) -> _Side:
    folder.mkdir(parents=True, exist_ok=True)
    session = Session.open(folder / "game.jsonl")
    tracker = Tracker(lambda: session.state)
    flow = Flow(session, reader=tracker, clock=lambda: clock[0])
    flow.start_game(game.rules, game.start.names, game.start.first_dealer)
    feed = CameraFeed(source, CameraPipeline.open(), tracker, fps=FPS, clock=lambda: clock[0])
    return _Side(feed, flow)


def _step(side: _Side, presses: list, result: CameraFaults, fault: str, now: float) -> None:
    try:
        for event in side.feed.poll():
            side.emitted.append((_hand_index(side.flow.session), event))
            side.when.append(fault)
            side.flow.handle(event)
        side.waiting += presses
        while side.waiting and not (_waits(side.flow, side.waiting[0]) and (
                now < side.waiting[0].time + PATIENCE)):
            side.flow.handle(side.waiting.pop(0))
        side.flow.warn(*side.feed.warnings)
        side.flow.tick()
        side.flow.screen()
    except Exception as error:  # the scoreboard must never stop: counted
        result.crashes += 1
        result.problems.append(f"crash: {type(error).__name__}: {error}")


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


def _waits(flow: Flow, press: ButtonPress) -> bool:
    """A person about to press OK waits for the screen (:meth:`Flow.waiting_for_score`)."""
    return press.name is ButtonName.OK and flow.waiting_for_score()
