"""Noticing a tile set the reader does not know: many faces named with low confidence.

On the sets seen in training 1-4% of the faces read score below 0.8; on the unseen-table
photos 12% do (``benchmarks/vision_accuracy.py``'s sets, its ``unsure`` column). Over the last
:data:`WINDOW` faces, more than :data:`UNSURE_SHARE` of them below :data:`UNSURE` means the
set looks unenrolled, and the screen suggests enrolling it.

>>> watch = Familiarity()
>>> watch.add([0.99] * 80); watch.warning() is None
True
>>> watch.add([0.4] * 20); watch.warning()
'these tiles look unfamiliar: enroll your set with `tablekit enroll`'
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

UNSURE = 0.8
UNSURE_SHARE = 0.1
WINDOW = 300
MIN_FACES = 60
WARNING = "these tiles look unfamiliar: enroll your set with `tablekit enroll`"


@dataclass
class Familiarity:
    """The scores of the last faces read, and whether they look like an unknown set."""

    scores: deque[float] = field(default_factory=lambda: deque(maxlen=WINDOW))

    def add(self, scores: Iterable[float]) -> None:
        """The top scores of one read's face-up tiles."""
        self.scores.extend(float(score) for score in scores)

    @property
    def unsure_share(self) -> float:
        return sum(score < UNSURE for score in self.scores) / max(len(self.scores), 1)

    def warning(self) -> str | None:
        """The line for the screen, or None while the set looks known (or too few faces)."""
        if len(self.scores) >= MIN_FACES and self.unsure_share > UNSURE_SHARE:
            return WARNING
        return None
