"""A long evening for memory: replayed frames through the camera feed, the pipeline, the
tracker, the flow and the app loop at 4 frames a second, with now and then a black frame.

The frames are the first seconds of a recorded game on the simulated table (the dealt
hand, players' arms reaching in), rendered once and played again in a loop. Resident
memory is read after the first minute of frames (everything warmed up) and at the end.

>>> rss_mb() > 0
True
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from tablekit.app.loop import build_table, open_session
from tablekit.display.backends import PngDisplay
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.rules.presets import TENHOU
from tablekit.sim.source import SimulatedCamera
from tablekit.vision.pipeline import CameraPipeline

FPS = 4.0
WARM = 240        # frames (a minute) before the first memory reading
RENDERED = 24     # distinct frames rendered and played in a loop
BLACK_EVERY = 97  # a black frame now and then (a flicker, a cable)


def rss_mb() -> float:
    """This process's resident memory now, in MB."""
    with open("/proc/self/statm") as handle:
        pages = int(handle.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2 ** 20


@dataclass
class Evening:
    frames: int = 0
    rss_start_mb: float = 0.0
    rss_end_mb: float = 0.0
    pipeline_warnings: int = 0
    crashes: int = 0


class _Loop:
    """The rendered frames again and again (a black one every ``BLACK_EVERY``)."""

    def __init__(self, frames: list[np.ndarray]) -> None:
        self.frames, self.reads = frames, 0

    def read(self) -> SimpleNamespace:
        self.reads += 1
        image = self.frames[self.reads % len(self.frames)]
        if self.reads % BLACK_EVERY == 0:
            image = np.zeros_like(image)
        return SimpleNamespace(image=image)


def play_evening(log: Path, frames: int, folder: Path, seed: int = 0,
                 progress: Callable[[int, float], None] | None = None,
                 every: int = 3600 * 4) -> Evening:
    """``frames`` frames of ``log``'s first seconds through the app loop; ``progress(frames,
    rss_mb)`` is told the resident memory every ``every`` frames (an hour by default)."""
    camera = SimulatedCamera.from_log(log, seed=seed, fps=FPS)
    images = [frame.image for frame in (camera.read() for _ in range(RENDERED)) if frame]
    folder.mkdir(parents=True, exist_ok=True)
    now = [0.0]
    session = open_session(folder / "game.jsonl", TENHOU, lambda line: None)
    pipeline = CameraPipeline.open()
    app = build_table(session, PngDisplay(folder / "screens", numbered=False),
                      camera=_Loop(images), pipeline=pipeline, fps=FPS, clock=lambda: now[0])
    app.inbox.put(ButtonPress(ButtonName.OK))  # the hand starts
    result = Evening()
    for number in range(frames):
        now[0] = number / FPS
        try:
            app.step()
        except Exception:  # counted: the scoreboard must never stop
            result.crashes += 1
        result.frames += 1
        if number + 1 == min(WARM, frames):
            result.rss_start_mb = rss_mb()
        if progress is not None and (number + 1) % every == 0:
            progress(number + 1, rss_mb())
    result.rss_end_mb = rss_mb()
    result.pipeline_warnings = len(pipeline.warnings)
    app.display.close()
    session.close()
    return result
