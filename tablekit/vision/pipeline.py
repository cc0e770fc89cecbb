"""The camera pipeline for a game: calibrate from the first frames, read every frame
into a :class:`TableReading`, and notice a bumped camera.

The profile is fitted from the first frames that show all four markers (or given);
every ``check_every`` frames, and on a frame that changed all at once (a bump, a black
or garbage frame), the markers are compared with it. A sudden frame without them is
not read; when they moved the readings say ``calibrated=False`` (the tracker then
believes nothing) until the pipeline has recalibrated from fresh frames, under the
table's ``layout`` (a club's table as its profile measured it:
:func:`tablekit.vision.calibration.table_layout`). The pipeline keeps the felt's look over
the game (:class:`tablekit.vision.busy.FeltMemory`): a lamp's glare is not an arm.

``warnings`` says, in a player's words, what keeps the camera from reading the table
now: at most one line, replaced as things change and empty once it reads again
(``detail`` keeps the last technical reason, for a log).

>>> hidden_markers_warning([1, 3])
"camera can't see corner markers 1 and 3: clear the table's corners"
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from tablekit.vision.busy import FeltMemory
from tablekit.vision.calibration import CalibrationError, Profile, calibrate, check_profile
from tablekit.vision.familiar import Familiarity
from tablekit.vision.layout import DEFAULT_LAYOUT, TableLayout
from tablekit.vision.markers import find_markers
from tablekit.vision.table_reader import TableModels, read_table
from tablekit.vision.table_reading import TableReading

FRAMES_TO_CALIBRATE = 3
CALIBRATING = "camera: finding the table's corner markers"
MOVED = "camera moved: finding the table again, keep its corners clear"
NO_FIT = "camera: the corner markers don't fit the table; run tablekit calibrate"
JUMP = 8.0  # mean grey change (0-255, on a 64x36 thumbnail) a moving hand stays under


def hidden_markers_warning(missing: Sequence[int]) -> str:
    """The screen's line for corner markers the camera cannot see."""
    ids = " and ".join(", ".join(str(i) for i in missing).rsplit(", ", 1))
    plural = "s" if len(missing) > 1 else ""
    return f"camera can't see corner marker{plural} {ids}: clear the table's corners"


@dataclass
class CameraPipeline:
    """Frames in, table readings out; ``warnings`` says why frames are not read now."""

    models: TableModels
    profile: Profile | None = None
    check_every: int = 40
    frames: int = 0
    warnings: list[str] = field(default_factory=list)
    detail: str = ""
    _pending: list[np.ndarray] = field(default_factory=list)
    _last_small: np.ndarray | None = None
    felt: FeltMemory | None = field(default_factory=FeltMemory)
    """The game's memory of the bare felt, for arms (None: each frame read alone)."""
    layout: TableLayout = DEFAULT_LAYOUT
    """The table the frames show, for calibrating (a given profile brings its own)."""
    familiar: Familiarity = field(default_factory=Familiarity)
    """How surely the faces read lately were named (an unenrolled set reads unsure)."""

    @classmethod
    def open(cls, profile: Profile | None = None, threads: int = 1,
             felt_memory: bool = True, layout: TableLayout | None = None,
             tileset: str | None = None) -> CameraPipeline:
        """``tileset``: an enrolled tile set's folder (else the one the profile names)."""
        layout = layout or (profile.layout if profile is not None else DEFAULT_LAYOUT)
        named = tileset or (profile.tileset if profile is not None else None)
        return cls(TableModels.load(threads, tileset=named), profile,
                   felt=FeltMemory() if felt_memory else None, layout=layout)

    def notices(self) -> list[str]:
        """Lines for the screen about the reading itself (an unfamiliar tile set)."""
        warning = self.familiar.warning()
        return [warning] if warning else []

    def read(self, image: np.ndarray, timestamp: float = 0.0, faint: bool = False,
             gaps: bool = False) -> TableReading:
        """The frame's reading; ``faint``: the ponds' faint peaks too (the tracker's
        :meth:`~tablekit.tracking.tracker.Tracker.wants_faint`); ``gaps``: the revealed
        rows' empty places looked at again (the tracker's
        :meth:`~tablekit.tracking.tracker.Tracker.wants_gaps`)."""
        self.frames += 1
        if self.profile is None and not self._calibrate(image):
            return TableReading((), (), timestamp, calibrated=False)
        assert self.profile is not None
        small = _thumbnail(image)
        jumped = self._last_small is not None and float(
            np.abs(small - self._last_small).mean()) > JUMP
        if self.frames % self.check_every == 0 or jumped:
            check = check_profile(image, self.profile)
            if jumped and not check.ok and not check.moved:  # noise, black, markers covered
                return TableReading((), (), timestamp, calibrated=False)
            if check.moved:
                self._last_small = None
                self.warnings, self.detail = [MOVED], f"camera moved ({check}); recalibrating"
                self.profile = None
                self.felt = FeltMemory() if self.felt is not None else None
                return TableReading((), (), timestamp, calibrated=False)
        self._last_small = small
        reading = read_table(image, self.profile, self.models, timestamp, felt=self.felt,
                             faint=faint, gaps=gaps)
        self.familiar.add(tile.score for tile in reading.tiles if tile.face_up)
        return reading

    def read_frame(self, frame: Any, timestamp: float, faint: bool = False,
                   gaps: bool = False) -> TableReading:
        """:meth:`read` for a camera frame (anything with ``image``)."""
        return self.read(frame.image, timestamp, faint, gaps)

    def _calibrate(self, image: np.ndarray) -> bool:
        self._pending = [*self._pending[-(FRAMES_TO_CALIBRATE - 1):], image]
        if len(self._pending) < FRAMES_TO_CALIBRATE:
            self.warnings = self.warnings or [CALIBRATING]
            return False
        try:
            self.profile = calibrate(self._pending, source="pipeline", layout=self.layout)
        except CalibrationError as error:
            self.detail = str(error)
            seen = find_markers(image, self.layout)
            missing = [i for i in self.layout.marker_ids if i not in seen]
            self.warnings = [hidden_markers_warning(missing) if missing else NO_FIT]
            return False
        self._pending, self.warnings = [], []
        return True




def _thumbnail(image: np.ndarray) -> np.ndarray:
    """A 64x36 grey copy: a frame that changed far more than a hand moving does (more than
    ``JUMP`` on average from the last frame read) gets its markers checked."""
    return cv2.resize(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (64, 36),
                      interpolation=cv2.INTER_AREA).astype(np.int16)
