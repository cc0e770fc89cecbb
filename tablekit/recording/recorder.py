"""Recording a game as the app's loop plays it (``tablekit run --record DIR``,
``tablekit simulate LOG --record DIR``): the same :class:`Recorder` taps the loop's camera
feed (every frame it reads, at the loop's time), the presses the flow takes (with the step
they were taken in, and whether before or after that step's camera) and the journal's new
lines after each step, with when they were written (``journal_times.jsonl``: a person's
confirmation of a win is a time on the recording's clock). Everything is handed to the writer thread
(:class:`~tablekit.vision.frame_log.FrameWriter`): the loop never waits for the card.

The times kept are the loop's clock less its time when the recording began, so a
recording starts at 0 whatever clock the loop had (the simulated table's driven one, or
``tablekit run``'s monotonic one).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tablekit.app.loop import FRAME_SECONDS, App
from tablekit.flow.saved import note_path
from tablekit.io.presses import ButtonPress
from tablekit.recording.manifest import (
    CALIBRATION,
    FLOW_NOTE,
    FORMAT,
    JOURNAL,
    JOURNAL_TIMES,
    PRESSES,
    TILESET,
    require_new_folder,
    tablekit_version,
    write_manifest,
)
from tablekit.vision.frame_log import MIN_FREE, FrameWriter, RecordingSource, image_settings

Report = Callable[[str], None]


class Recorder:
    """Keeps a game in ``folder`` once :meth:`attach` ed to an app, until :meth:`close`.

    ``details``: what the manifest says of where the game came from (``source``, the
    ``camera``, the ``reader``); ``calibration`` and ``tileset`` are copied in, so the
    recording plays back without the table's files. ``wait``: the loop waits for the
    writer rather than drop a frame (a loop on a driven clock, the simulated table's).
    """

    def __init__(self, folder: Path, details: dict[str, Any] | None = None,
                 images: str = "jpg", calibration: Path | None = None,
                 tileset: str | None = None, min_free: int = MIN_FREE,
                 report: Report = lambda line: None, wait: bool = False) -> None:
        require_new_folder(folder)
        folder.mkdir(parents=True, exist_ok=True)
        self.folder, self.report = folder, report
        self.manifest: dict[str, Any] = {
            "format": FORMAT, "tablekit": tablekit_version(),
            "started": datetime.now(UTC).isoformat(timespec="seconds"),
            **(details or {}),
            "step_seconds": FRAME_SECONDS,
            "images": image_settings(images),
            "keeps": "every frame the camera feed read, the presses the flow took, "
                     "the journal (confirmations and corrections are its events)",
            "calibration": _copy(calibration, folder / CALIBRATION),
            "tileset": _copy(Path(tileset), folder / TILESET) if tileset else None,
        }
        self.writer = FrameWriter(folder, images, min_free=min_free, wait=wait)
        self.journal: Path | None = None
        self._copied = 0
        self._t0 = 0.0
        self._clock: Callable[[], float] = time.monotonic
        self._end = (0, 0.0)
        self._told = False

    def attach(self, app: App) -> None:
        """Tap ``app`` before its first step: its camera feed, its inputs, its journal."""
        self._clock, self._t0 = app.clock, app.clock()
        self.journal = app.flow.session.path
        if self.journal is not None and self.journal.is_file():
            data = self.journal.read_bytes()
            (self.folder / JOURNAL).write_bytes(data)
            self._copied = len(data)
        note = note_path(self.journal) if self.journal is not None else None
        flow = app.flow
        self.manifest.update({
            "fps": app.camera.feed.fps if app.camera is not None else None,
            "journal_start": self._copied,
            "flow_note": _copy(note, self.folder / FLOW_NOTE),
            "flow": {"layout": flow.data.layout, "seed": flow.seed, "roster": list(flow.roster)},
            "wall_start": time.time()})
        if app.camera is not None:
            feed = app.camera.feed
            feed.source = RecordingSource(feed.source, self.writer, self._time)
        app.taps.append(self._tap)
        app.hooks.append(self._after_step)
        write_manifest(self.folder, self.manifest)

    def _time(self) -> float:
        return self._clock() - self._t0

    def _tap(self, item: object, app: App) -> None:
        if isinstance(item, ButtonPress):
            self.writer.line(PRESSES, {
                "t": round(app.clock() - self._t0, 6), "step": app.frames,
                "early": not app.camera_polled, "button": item.name.value, "seat": item.seat,
                "long": item.long, "pressed": round(item.time - self._t0, 6)})

    def _after_step(self, app: App) -> None:
        self._end = (app.frames, app.clock() - self._t0)
        self._copy_journal(app.frames, self._end[1])
        if self.writer.notice and not self._told:  # one line, on the screen and the log
            self._told = True
            self.report(self.writer.notice)
            app.flow.say(self.writer.notice)

    def _copy_journal(self, step: int, t: float) -> None:
        """The journal's bytes written since the last step, to the recording's copy, and
        when (the step, its time and the copy's size then, in ``journal_times.jsonl``)."""
        if self.journal is None:
            return
        try:
            size = os.stat(self.journal).st_size
            if size <= self._copied:
                return
            with open(self.journal, "rb") as file:
                file.seek(self._copied)
                data = file.read(size - self._copied)
        except OSError:
            return  # the journal's own errors are the flow's to show
        self._copied += len(data)
        self.writer.line(JOURNAL, data)
        self.writer.line(JOURNAL_TIMES, {"t": round(t, 6), "step": step, "bytes": self._copied})

    def close(self) -> dict[str, Any]:
        """Write what waits, then the manifest's end; what was kept, for a log line."""
        self._copy_journal(*self._end)
        self.writer.close()
        writer = self.writer
        self.manifest.update({
            "frame_size": list(writer.size) if writer.size else None,
            "end": {"steps": self._end[0], "t": round(self._end[1], 6)},
            "frames": writer.count, "frames_kept": writer.written,
            "frames_dropped": writer.dropped, "frames_not_kept": writer.not_kept,
            "image_bytes": writer.bytes, "stopped": writer.notice or None})
        write_manifest(self.folder, self.manifest)
        return {key: self.manifest[key] for key in (
            "frames", "frames_kept", "frames_dropped", "frames_not_kept", "image_bytes")}


def _copy(source: Path | None, target: Path) -> str | None:
    """Copy a file or folder into the recording; its name there (None: nothing to copy)."""
    if source is None or not source.exists():
        return None
    if source.is_dir():
        shutil.copytree(source, target)
    else:
        shutil.copyfile(source, target)
    return target.name
