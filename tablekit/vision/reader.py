"""The whole read: find tiles, put each box onto its tile, name them, drop what is not a tile.

>>> reading = TileReading((1.0, 2.0, 3.0, 4.0), "0p", 0.97)
>>> reading.as_json()
{'box': [1.0, 2.0, 3.0, 4.0], 'tile': '0p', 'score': 0.97}
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tablekit.vision.classes import NOT_A_TILE
from tablekit.vision.classify import classify_boxes
from tablekit.vision.detect import OVERLAP
from tablekit.vision.onnx_model import (
    DETECTOR_PATH,
    PHOTO_CLASSIFIER_PATH,
    OnnxModel,
    load_model,
)
from tablekit.vision.refine import REFINER_PATH, located

SURE = 0.97
"""A photo's face whose first reading scores at least this is not read again."""


@dataclass(frozen=True)
class TileReading:
    """One tile read: its box in image pixels, its code (mpsz, 0 = red five, or ``back``)."""

    box: tuple[float, float, float, float]
    tile: str
    score: float

    def as_json(self) -> dict[str, object]:
        """The JSON form ``tablekit detect --json`` prints."""
        return {"box": [round(v, 1) for v in self.box], "tile": self.tile,
                "score": round(self.score, 3)}


@dataclass(frozen=True)
class TileReader:
    """A detector and a classifier loaded once, used for many frames."""

    detector: OnnxModel
    classifier: OnnxModel
    """The classifier, or a set's :class:`~tablekit.vision.nearest.NearestFaces` (named alike)."""
    long_side: int | None = None
    min_score: float = 0.3
    ways: int = 4
    """Each face read this many ways (:data:`~tablekit.vision.classify.WAYS`): all four,
    as a photo's tile may lie at any slant."""
    sure: float | None = SURE
    """Each face is read once first, and only those scoring under this are read again
    ``ways`` ways (None: every face read ``ways`` ways)."""
    overlap: float = OVERLAP
    """The detector's non-maximum suppression (:data:`~tablekit.vision.detect.OVERLAP`)."""
    refiner: OnnxModel | None = None
    """The box refiner (:mod:`tablekit.vision.refine`): each box the detector found is put
    onto its tile's edges before the face is cut (None: the detector's boxes as found)."""

    @classmethod
    def load(cls, threads: int = 1, detector: Path = DETECTOR_PATH,
             classifier: Path = PHOTO_CLASSIFIER_PATH, tileset: str | Path | None = None,
             refiner: Path | None = REFINER_PATH) -> TileReader:
        """Load the models from ``tablekit/models/`` (or the paths given; ``refiner`` None:
        none); ``tileset``: an enrolled set's folder, whose classifier (or nearest faces,
        :mod:`tablekit.vision.nearest`) and overlap replace the trained ones."""
        box_refiner = load_model(refiner, threads) if refiner else None
        if tileset:
            from tablekit.vision.tileset import TileSet

            chosen = TileSet.load(tileset)
            return cls(load_model(detector, threads), chosen.load_classifier(threads),
                       overlap=chosen.overlap, refiner=box_refiner)
        return cls(load_model(detector, threads), load_model(classifier, threads),
                   refiner=box_refiner)

    def read(self, image_bgr: np.ndarray) -> list[TileReading]:
        """Every tile found in a BGR image (any photo: the generic, uncalibrated mode)."""
        found = located(self.detector, self.refiner, image_bgr, self.overlap, self.long_side)
        named = classify_boxes(self.classifier, image_bgr, found.boxes, self.ways,
                               self.sure)
        return [
            TileReading(tuple(float(v) for v in box), code, float(score))  # type: ignore[arg-type]
            for box, code, score in zip(found.boxes, named.codes, named.scores, strict=True)
            if code != NOT_A_TILE and score >= self.min_score
        ]
