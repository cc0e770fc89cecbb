"""The camera pipeline for a game: calibrate from the first frames, read every frame
into a :class:`TableReading`, and notice a bumped camera.

The profile is fitted from the first frames that show all four markers (or given);
every ``check_every`` frames the markers are compared with it, and when they moved
the readings say ``calibrated=False`` (the tracker then believes nothing) until the
pipeline has recalibrated from fresh frames. The pipeline keeps the felt's look over the
game (:class:`tablekit.vision.busy.FeltMemory`): a lamp's glare is not an arm.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tablekit.vision.busy import FeltMemory
from tablekit.vision.calibration import CalibrationError, Profile, calibrate, check_profile
from tablekit.vision.familiar import Familiarity
from tablekit.vision.table_reader import TableModels, read_table
from tablekit.vision.table_reading import TableReading

FRAMES_TO_CALIBRATE = 3


@dataclass
class CameraPipeline:
    """Frames in, table readings out; ``warnings`` says why a frame was not read."""

    models: TableModels
    profile: Profile | None = None
    check_every: int = 40
    frames: int = 0
    warnings: list[str] = field(default_factory=list)
    _pending: list[np.ndarray] = field(default_factory=list)
    felt: FeltMemory | None = field(default_factory=FeltMemory)
    """The game's memory of the bare felt, for arms (None: each frame read alone)."""
    familiar: Familiarity = field(default_factory=Familiarity)
    """How surely the faces read lately were named (an unenrolled set reads unsure)."""

    @classmethod
    def open(cls, profile: Profile | None = None, threads: int = 1,
             felt_memory: bool = True, tileset: str | None = None) -> CameraPipeline:
        """``tileset``: an enrolled tile set's folder (else the one the profile names)."""
        from tablekit.vision.tileset import classifier_for

        named = tileset or (profile.tileset if profile is not None else None)
        return cls(TableModels.load(threads, classifier=classifier_for(named)), profile,
                   felt=FeltMemory() if felt_memory else None)

    def notices(self) -> list[str]:
        """Lines for the screen about the reading itself (an unfamiliar tile set)."""
        warning = self.familiar.warning()
        return [warning] if warning else []

    def read(self, image: np.ndarray, timestamp: float = 0.0, faint: bool = False
             ) -> TableReading:
        """The frame's reading; ``faint``: the ponds' faint peaks too (the tracker's
        :meth:`~tablekit.vision.tracker.Tracker.wants_faint`)."""
        self.frames += 1
        if self.profile is None and not self._calibrate(image):
            return TableReading((), (), timestamp, calibrated=False)
        assert self.profile is not None
        if self.frames % self.check_every == 0:
            check = check_profile(image, self.profile)
            if check.moved:
                self.warnings.append(f"camera moved ({check}); recalibrating")
                self.profile = None
                self.felt = FeltMemory() if self.felt is not None else None
                return TableReading((), (), timestamp, calibrated=False)
        reading = read_table(image, self.profile, self.models, timestamp, felt=self.felt,
                             faint=faint)
        self.familiar.add(tile.score for tile in reading.tiles if tile.face_up)
        return reading

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


