"""The ``sim`` frame source: a camera over a simulated table playing a scripted game.

The frame-source interface (the real cameras in ``tablekit.vision.camera`` adapt to it):

* ``read() -> Frame | None``: the next frame, or None when the source has nothing more;
  ``Frame.image`` is BGR uint8 ``(height, width, 3)``, ``Frame.timestamp`` in seconds
  from the start of the source,
* ``width``, ``height``, ``fps``,
* ``close()``; a source is also a context manager and an iterator of frames.

The simulated camera adds what a test needs: ``Frame.truth`` (the ground truth, see
:mod:`tablekit.sim.truth`) and ``Frame.moment`` (the scripted moment on the table),
:meth:`SimulatedCamera.presses_between` (the button presses the script calls for) and
``history``, what it was asked (STYLE lesson 2). Frames are timed by the script, not
the wall clock: frame ``i`` is at ``start + i / fps``.

>>> script = Script.from_log(DEMO_GAME)
>>> with SimulatedCamera(script, seed=3, size=(320, 180), art="fallback") as camera:
...     frame = camera.read()
...     (frame.image.shape, frame.timestamp, frame.moment.turn, camera.history)
((180, 320, 3), 0.0, 1, [('read', 0, 0)])
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from tablekit.game.events import to_dict
from tablekit.io.presses import ButtonPress
from tablekit.sim.effects import Conditions, drift
from tablekit.sim.frame import RenderedFrame
from tablekit.sim.geometry import TABLE_HALF, seat_to_table
from tablekit.sim.occluders import Arm
from tablekit.sim.rig import DEFAULT_SIZE, make_rig
from tablekit.sim.scene import Scene, build_scene
from tablekit.sim.script import Moment, Script
from tablekit.sim.table import DEMO_GAME
from tablekit.sim.truth import FrameTruth

REACH = 0.45
"""Share of a moment during which the acting player's arm is over the table."""


@dataclass(frozen=True)
class Frame:
    image: np.ndarray
    timestamp: float
    truth: FrameTruth
    moment: Moment


class SimulatedCamera:
    """Plays ``script`` on a table drawn from ``seed``; ``clean`` leaves out the camera's
    effects, ``arms`` False keeps the players' arms off the table."""

    def __init__(self, script: Script, seed: int = 0, size: tuple[int, int] = DEFAULT_SIZE,
                 fps: float = 10.0, art: str | None = None, clean: bool = False,
                 arms: bool = True, start: float = 0.0) -> None:
        self.script, self.seed, self.fps, self.start = script, seed, fps, start
        self.width, self.height = size
        self.rig = make_rig(seed, size, art, clean)
        self.clean, self.arms = clean, arms
        self.history: list[tuple[Any, ...]] = []
        self._count = 0
        self._conditions = self.rig.conditions
        self._scene: tuple[int, Scene] | None = None

    @classmethod
    def from_log(cls, path: Path, **options: Any) -> SimulatedCamera:
        return cls(Script.from_log(path), **options)

    def read(self) -> Frame | None:
        """The next frame, or None after the end of the script."""
        seconds = self.start + self._count / self.fps
        if not self.script.moments or seconds >= self.script.length:
            self.history.append(("read", self._count, None))
            return None
        index = self.script.index_at(seconds)
        moment = self.script.moments[index]
        frame = self._render(index, (seconds - moment.start) / moment.duration)
        self.history.append(("read", self._count, index))
        self._count += 1
        return Frame(frame.image, seconds - self.start, frame.truth, moment)

    def render_moment(self, index: int, progress: float = 1.0,
                      conditions: Conditions | None = None) -> RenderedFrame:
        """Moment ``index`` at ``progress`` (0 its start; arms are over the table before
        ``REACH``, and in a moment nobody acts in, the player to move reaches for the
        pond); ``conditions`` replace the camera's own."""
        self.history.append(("render_moment", index, progress))
        return self._render(index, progress, conditions, anyone=True)

    def presses_between(self, start: float, end: float) -> list[ButtonPress]:
        """The presses due in ``[start, end)`` seconds, ``time`` made absolute."""
        out = self.script.presses_between(start, end)
        self.history.append(("presses_between", start, end, len(out)))
        return out

    def close(self) -> None:
        self.history.append(("close",))

    def __enter__(self) -> SimulatedCamera:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __iter__(self) -> SimulatedCamera:
        return self

    def __next__(self) -> Frame:
        frame = self.read()
        if frame is None:
            raise StopIteration
        return frame

    def _render(self, index: int, progress: float, conditions: Conditions | None = None,
                anyone: bool = False) -> RenderedFrame:
        moment = self.script.moments[index]
        scene = self.scene(index)
        if anyone and moment.actor is None:
            moment = replace(moment, actor=self.script.view(index).state.turn)
        arms = self._arms(moment, scene, progress) if self.arms else ()
        if conditions is None and not self.clean:
            self._conditions = drift(self._conditions, self.rig.frames)
        conditions = conditions or self._conditions
        info = {"hand": moment.hand, "turn": moment.turn, "event": to_dict(moment.event),
                "seed": self.seed, "art": self.rig.look.art}
        return self.rig.renderer.render(scene, self.rig.frames, conditions, arms, info)

    def scene(self, index: int) -> Scene:
        """The tiles on the table at moment ``index`` (the last one is kept)."""
        if self._scene is None or self._scene[0] != index:
            self._scene = (index, build_scene(self.script.view(index), self.rig.jitter))
        return self._scene[1]

    def _arms(self, moment: Moment, scene: Scene, progress: float) -> tuple[Arm, ...]:
        if moment.actor is None or progress >= REACH:
            return ()
        phase = progress / REACH
        reach = math.sin(math.pi * phase)
        seat = moment.actor
        skin, sleeve, size = self.rig.players[seat]
        elbow_x = 150 * math.sin(moment.start * 1.7 + seat)
        edge = np.array(seat_to_table(seat, elbow_x, -TABLE_HALF - 60))
        goal = np.array(reach_target(scene, moment))
        target = edge + (goal - edge) * reach
        motion = 7 * abs(math.cos(math.pi * phase)) if not self.clean else 0.0
        return (Arm(seat, (float(target[0]), float(target[1])), 45 + 40 * (1 - reach),
                    elbow_x, skin, sleeve, size, motion),)


def open_sim(spec: str, **options: Any) -> SimulatedCamera:
    """The source for a camera spec ``sim``, ``sim:LOG`` or ``sim:LOG:SEED`` (as ``tablekit
    run --camera`` would name it); ``options`` go to :class:`SimulatedCamera`.

    >>> open_sim("sim:nowhere.xml")
    Traceback (most recent call last):
    ...
    FileNotFoundError: sim: no game log at nowhere.xml
    """
    kind, _, rest = spec.partition(":")
    if kind != "sim":
        raise ValueError(f"{spec!r} is not a sim camera (sim, sim:LOG or sim:LOG:SEED)")
    log = rest
    head, sep, tail = rest.rpartition(":")
    if sep and tail.isdigit():
        log, options["seed"] = head, int(tail)
    path = Path(log) if log else DEMO_GAME
    if not path.is_file():
        raise FileNotFoundError(f"sim: no game log at {path}")
    return SimulatedCamera.from_log(path, **options)


def reach_target(scene: Scene, moment: Moment) -> tuple[float, float]:
    """Where the acting player's hand goes: the discard, the new meld, the own hand."""
    seat = moment.actor
    kind = type(moment.event).__name__
    zone = {"Call": "meld", "Kita": "kita", "Won": "hand", "ExhaustiveDraw": "hand"}.get(
        kind, "pond")
    mine = [t for t in scene.tiles if t.seat == seat and t.zone == zone]
    if not mine:
        return seat_to_table(seat or 0, 0.0, -150.0)
    if zone == "hand":
        return (float(np.mean([t.x for t in mine])), float(np.mean([t.y for t in mine])))
    return (mine[-1].x, mine[-1].y)


class ReplayedFrames:
    """Frames kept by ``tablekit simulate --frames-out`` played again (through the camera's
    :class:`~tablekit.vision.camera.FolderCamera`) with the script's presses: the camera's
    side of a game without rendering (for memory and speed figures of the appliance
    alone). Frames carry only the image and its time.
    """

    def __init__(self, script: Script, folder: Path, fps: float) -> None:
        from tablekit.vision.camera import FolderCamera

        self.script, self.frames = script, FolderCamera(folder, fps)

    def read(self) -> Any:
        return self.frames.read()

    def presses_between(self, start: float, end: float) -> list[ButtonPress]:
        return self.script.presses_between(start, end)
