"""The camera pipeline for a game: calibrate from the first frames, read every frame
into a :class:`TableReading`, and notice a bumped camera.

The profile is fitted from the first frames that show all four markers (or given);
every ``check_every`` frames, and on a frame that changed all at once (a bump, a black
or garbage frame), the markers are compared with it. A sudden frame without them is
not read; when they moved the readings say ``calibrated=False`` (the tracker then
believes nothing) until the pipeline has recalibrated from fresh frames. The pipeline
keeps the felt's look over the game (:class:`tablekit.vision.busy.FeltMemory`): a
lamp's glare is not an arm.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from tablekit.vision.busy import FeltMemory
from tablekit.vision.calibration import CalibrationError, Profile, calibrate, check_profile
from tablekit.vision.table_reader import TableModels, read_table
from tablekit.vision.table_reading import TableReading

FRAMES_TO_CALIBRATE = 3
JUMP = 8.0  # mean grey change (0-255, on a 64x36 thumbnail) a moving hand stays under


@dataclass
class CameraPipeline:
    """Frames in, table readings out; ``warnings`` says why a frame was not read."""

    models: TableModels
    profile: Profile | None = None
    check_every: int = 40
    frames: int = 0
    warnings: list[str] = field(default_factory=list)
    _pending: list[np.ndarray] = field(default_factory=list)
    _last_small: np.ndarray | None = None
    felt: FeltMemory | None = field(default_factory=FeltMemory)
    """The game's memory of the bare felt, for arms (None: each frame read alone)."""

    @classmethod
    def open(cls, profile: Profile | None = None, threads: int = 1,
             felt_memory: bool = True) -> CameraPipeline:
        return cls(TableModels.load(threads), profile,
                   felt=FeltMemory() if felt_memory else None)

    def read(self, image: np.ndarray, timestamp: float = 0.0, faint: bool = False
             ) -> TableReading:
        """The frame's reading; ``faint``: the ponds' faint peaks too (the tracker's
        :meth:`~tablekit.vision.tracker.Tracker.wants_faint`)."""
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
                self.warnings.append(f"camera moved ({check}); recalibrating")
                self.profile = None
                self.felt = FeltMemory() if self.felt is not None else None
                return TableReading((), (), timestamp, calibrated=False)
        self._last_small = small
        return read_table(image, self.profile, self.models, timestamp, felt=self.felt,
                          faint=faint)

    def _calibrate(self, image: np.ndarray) -> bool:
        self._pending = [*self._pending[-(FRAMES_TO_CALIBRATE - 1):], image]
        if len(self._pending) < FRAMES_TO_CALIBRATE:
            return False
        try:
            self.profile = calibrate(self._pending, source="pipeline")
        except CalibrationError as error:
            self.warnings.append(str(error))
            return False
        self._pending = []
        return True




def _thumbnail(image: np.ndarray) -> np.ndarray:
    """A 64x36 grey copy: a frame that changed far more than a hand moving does (more than
    ``JUMP`` on average from the last frame read) gets its markers checked."""
    return cv2.resize(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (64, 36),
                      interpolation=cv2.INTER_AREA).astype(np.int16)
