"""Scoring a tile reader on labelled photos: F1 at IoU 0.5 with the class right, and time.

Any reader works (``image -> list[TileReading]``), so a benchmark can put tablekit and a peer
side by side on the same decoded images.

>>> plausible(("1p",) * 14), plausible(("1p", "2p", None))
(False, True)
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from tablekit.vision.classes import plain_kind
from tablekit.vision.datasets import LabelledImage
from tablekit.vision.familiar import UNSURE
from tablekit.vision.metrics import Count, match_image
from tablekit.vision.reader import TileReading

Reader = Callable[[np.ndarray], list[TileReading]]


def plausible(codes: Sequence[str | None]) -> bool:
    """False for labels no single set can have: five or more of one kind."""
    counts = Counter(plain_kind(code) for code in codes if code)
    return not counts or max(counts.values()) <= 4


@dataclass
class Result:
    """One reader on one set of photos."""

    count: Count = field(default_factory=Count)
    ms: list[float] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    """The score of every tile read (how sure the reader was)."""

    def summary(self) -> dict[str, object]:
        unsure = sum(score < UNSURE for score in self.scores) / max(len(self.scores), 1)
        return {"photos": len(self.ms), "tp": self.count.tp, "fp": self.count.fp,
                "fn": self.count.fn, "precision": round(self.count.precision, 4),
                "recall": round(self.count.recall, 4), "f1": round(self.count.f1, 4),
                "ms_mean": round(float(np.mean(self.ms)), 1) if self.ms else None,
                "read": len(self.scores), "unsure": round(unsure, 4),
                "confusions": [f"{t}->{p} x{n}" for (t, p), n in self.count.top_confusions(12)]}


def score_image(read: Reader, image: LabelledImage, bgr: np.ndarray
                ) -> tuple[Count, float, list[float]]:
    """Counts, milliseconds and the tiles' scores of one read; unlabelled kinds (None) are
    left out of the truth."""
    start = time.perf_counter()
    readings = read(bgr)
    ms = (time.perf_counter() - start) * 1000
    keep = [i for i, code in enumerate(image.codes) if code]
    truth = image.pixel_boxes(bgr.shape[1], bgr.shape[0])[keep]
    boxes = np.array([r.box for r in readings], np.float32).reshape(-1, 4)
    count = match_image(boxes, [r.tile for r in readings], [r.score for r in readings],
                        truth, [image.codes[i] for i in keep])
    return count, ms, [r.score for r in readings]


def evaluate(read: Reader, photos: Sequence[tuple[LabelledImage, np.ndarray]]) -> Result:
    """Score ``read`` over decoded photos."""
    result = Result()
    for image, bgr in photos:
        count, ms, scores = score_image(read, image, bgr)
        result.count.add(count)
        result.ms.append(ms)
        result.scores.extend(scores)
    return result
