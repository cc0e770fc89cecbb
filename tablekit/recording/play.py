"""Playing a recording back through the app's one loop (``tablekit recording play``).

The recording's journal as it stood when recording began is the starting journal (with
the flow's note, when there was one); the loop then runs on a driven clock, one step per
``FRAME_SECONDS`` as the simulated table's: its camera is the recording's frames (each
the newest kept at or before the loop's time, within half a camera period, read by the
feed at the recorded rate through the vision models), its buttons the recorded presses,
each given to the flow at the first step at or after its time, before or after that
step's camera as it was taken.
It stops at the recording's last step (or its last line, when it was cut). The journal
played is compared with the recording's, event for event.

A recording made on the simulated table with its driven clock plays back step for step;
one made by ``tablekit run`` on the wall clock plays at the loop's nominal rate, its
frames and presses within a step of their times.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tablekit.app.loop import App, DrivenClock, build_table
from tablekit.errors import BadInput
from tablekit.flow.saved import note_path
from tablekit.game.journal import read_journal
from tablekit.game.session import Session, in_force
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.recording.manifest import (
    CALIBRATION,
    FLOW_NOTE,
    JOURNAL,
    PRESSES,
    TILESET,
    read_manifest,
)
from tablekit.recording.misread import MisreadingPipeline
from tablekit.untrusted.files import read_bytes
from tablekit.untrusted.recording import LINES_BYTES, check_press, read_lines, recording_file
from tablekit.vision.frame_log import EPSILON, RecordedFrames

BUTTONS = frozenset(button.value for button in ButtonName)
TRUTH_REFUSED = ("--reader truth needs the simulated table's ground truth, which a "
                 "recording does not keep (only its frames): play it with --reader vision")


class PressPlayer:
    """The recorded presses as the app's buttons: at each step, those due by its time;
    the ones taken ahead of that step's camera are handed to the flow at once."""

    def __init__(self, records: list[dict[str, Any]], app: App) -> None:
        self.records, self.app = records, app
        for record in records:
            if record["button"] not in BUTTONS:
                raise BadInput(f"a press of {record['button']!r} in the recording: not a "
                               f"button ({', '.join(sorted(BUTTONS))})")
        self._next = 0

    def poll(self) -> None:
        now = self.app.clock()
        while self._next < len(self.records) and self.records[self._next]["t"] <= (
                now + EPSILON):
            record = self.records[self._next]
            self._next += 1
            self.app.inbox.put(ButtonPress(ButtonName(record["button"]), record["seat"],
                                           bool(record["long"]), float(record["pressed"])))
            if record.get("early"):
                self.app.take_inbox()

    def close(self) -> None:
        """Nothing to release."""


@dataclass
class Playback:
    """What a recording played back gave."""

    played: list[Any]
    recorded: list[Any]
    frames: int
    frames_kept: int
    presses: int
    seconds: float
    cut: bool
    until: float = 0.0     # the recording's time played up to (its end, or the cut)
    recorded_journal: str = "kept"   # "missing", "empty" (no event): nothing to compare

    @property
    def same(self) -> bool:
        """The journal played is the recording's (never when the recording kept none)."""
        return self.recorded_journal == "kept" and self.played == self.recorded

    def first_difference(self) -> int | None:
        """The index of the first event that differs (None: the journals are the same)."""
        if self.same:
            return None
        pairs = zip(self.played, self.recorded, strict=False)
        return next((i for i, (a, b) in enumerate(pairs) if a != b),
                    min(len(self.played), len(self.recorded)))

    def summary(self) -> dict[str, Any]:
        active, _ = in_force(self.played)
        kinds = [type(event).__name__ for event in active]
        return {"reader": "vision", "hands": kinds.count("HandStarted"),
                "wins": kinds.count("Won"),
                "draws": kinds.count("ExhaustiveDraw") + kinds.count("AbortiveDraw"),
                "events": len(self.played), "events_recorded": len(self.recorded),
                "same_journal": self.same, "first_difference": self.first_difference(),
                "recorded_journal": self.recorded_journal,
                "frames": self.frames, "frames_kept": self.frames_kept,
                "presses": self.presses, "cut": self.cut, "until": round(self.until, 3),
                "ms_per_frame": round(1000 * self.seconds / max(self.frames, 1), 2)}


def play_recording(folder: Path, journal: Path, tileset: str | None = None,
                   reader: str = "vision", on_start: Callable[[App], None] | None = None,
                   misread: tuple[float, int] = (0.0, 0)) -> Playback:
    """Play the recording in ``folder`` into the new journal ``journal`` (``on_start`` is
    given the app before its first step: a benchmark times it, a recorder taps it;
    ``misread``: the share of tiles read as another kind on purpose, and its seed)."""
    manifest = read_manifest(folder)
    if reader != "vision":
        raise BadInput(TRUTH_REFUSED)
    if journal.exists():
        raise BadInput(f"{journal}: exists; play into a new journal file")
    kept = _kept(folder, JOURNAL)
    note = _kept(folder, FLOW_NOTE) if manifest.get("flow_note") else None
    journal.parent.mkdir(parents=True, exist_ok=True)
    journal.write_bytes(kept[: int(manifest.get("journal_start") or 0)])
    if note is not None:
        note_path(journal).write_bytes(note)
    session = Session.open(journal)
    try:
        return _play(folder, manifest, session, tileset, on_start, misread)
    finally:
        session.close()


def _play(folder: Path, manifest: dict[str, Any], session: Session, tileset: str | None,
          on_start: Callable[[App], None] | None = None,
          misread: tuple[float, int] = (0.0, 0)) -> Playback:
    clock = DrivenClock()
    options = manifest.get("flow") or {}
    camera = manifest.get("fps") is not None   # the game had a camera (frames kept or not)
    fps = float(manifest.get("fps") or 4.0)
    frames = RecordedFrames(folder, clock, ahead=0.5 / fps)
    wall = float(manifest.get("wall_start") or time.time())
    app = build_table(
        session, camera=frames if camera else None,
        pipeline=_pipeline(folder, manifest, tileset, misread) if camera else None,
        fps=fps, clock=clock, sleep=clock.sleep,
        wall=lambda: wall + clock(),   # the game timer runs on the recording's time
        layout=options.get("layout", "facing"), seed=options.get("seed"),
        roster=tuple(options.get("roster") or ()))
    presses = read_lines(recording_file(folder, PRESSES), folder, check_press)
    app.buttons = PressPlayer(presses, app)
    end = manifest.get("end")
    last = max([frames.last, *(press["t"] for press in presses[-1:]), 0.0])
    stop = float(end["t"]) if end else last
    if on_start is not None:
        on_start(app)
    started = time.perf_counter()
    app.run(until=lambda app: clock() >= stop - EPSILON)
    seconds = time.perf_counter() - started
    copy = recording_file(folder, JOURNAL)
    recorded = read_journal(copy).events if copy.is_file() else []
    assert session.path is not None
    return Playback(read_journal(session.path).events, recorded, frames.taken,
                    len(frames.lines), len(presses), seconds, cut=end is None, until=stop,
                    recorded_journal="kept" if recorded else
                    "empty" if copy.is_file() else "missing")


def _kept(folder: Path, name: str) -> bytes:
    """The recording's file ``name`` (empty: none), read with no symlink followed."""
    try:
        return read_bytes(folder / name, limit=LINES_BYTES, inside=folder)
    except FileNotFoundError:
        return b""


def _pipeline(folder: Path, manifest: dict[str, Any], tileset: str | None,
              misread: tuple[float, int] = (0.0, 0)) -> Any:
    """The vision models that read the recording's frames, with the recording's calibration
    layout and tile set (``tileset``: another one; ``misread``: made to misread,
    :mod:`tablekit.recording.misread`)."""
    from tablekit.vision.calibration import table_layout
    from tablekit.vision.pipeline import CameraPipeline

    profile = recording_file(folder, CALIBRATION) if manifest.get("calibration") else None
    layout = table_layout(profile) if profile is not None else None
    kept = str(recording_file(folder, TILESET)) if manifest.get("tileset") else None
    pipeline: Any = CameraPipeline.open(layout=layout, tileset=tileset or kept)
    if misread[0] > 0:
        pipeline = MisreadingPipeline(pipeline, *misread)
    return pipeline
