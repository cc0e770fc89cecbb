"""What a camera pipeline that never errs would read: a :class:`TableReading` from the
simulated frame's ground truth, optionally with seeded misreads.

It lets the tracker and the whole game loop be tested without the vision models,
and measures how the rules-aware reading copes with misreads injected on purpose.

>>> from tablekit.sim.truth import TileTruth
>>> truth = TileTruth("0m", "0m", True, "pond", 0, None, "flat", False,
...                   ((0, 0), (1, 0), (1, 1), (0, 1)), 0.0, 1.0, (0.0, -120.0))
>>> seen = seen_tile(truth)
>>> seen.best.code, seen.angle, seen.face_up
('0m', 0.0, True)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from tablekit.sim.truth import FrameTruth, TileTruth
from tablekit.tiles import Tile
from tablekit.vision.table_reading import SeenTile, TableReading

MIN_VISIBLE = 0.5
HIDDEN = 30.0  # mm around a partly hidden tile that count as covered by a hand


def seen_tile(truth: TileTruth) -> SeenTile:
    """One truth tile as the camera pipeline would report it."""
    angle = 90.0 * (truth.seat or 0) + (90.0 if truth.sideways else 0.0)
    candidates = ((Tile.from_code(truth.code), 1.0),) if truth.face_up and truth.code else ()
    return SeenTile(tuple(truth.table_xy), angle, truth.face_up, candidates)  # type: ignore[arg-type]


def seen_tile_of(code: str) -> SeenTile:
    """A face-up tile of ``code`` read surely, lying in East's pond."""
    return SeenTile((0.0, -120.0), 0.0, True, ((Tile.from_code(code), 1.0),))


def under_arm(tile: TileTruth, arm_boxes: list) -> bool:
    """Whether an arm's box (image pixels) overlaps the tile's face."""
    xs = [p[0] for p in tile.polygon]
    ys = [p[1] for p in tile.polygon]
    return any(min(xs) < x1 and max(xs) > x0 and min(ys) < y1 and max(ys) > y0
               for x0, y0, x1, y1 in arm_boxes)


@dataclass
class PerfectReader:
    """Reads frames from their truth; ``misread`` is the share of face-up tiles given a
    wrong best candidate (the right one stays second, as a real classifier's would);
    ``confuse``: pairs of codes (true, read) whose faces are always read as the other,
    surely and alone, as a classifier that never separates two faces of a set it never saw.

    >>> PerfectReader(confuse=(("2z", "1z"),)).confused(seen_tile_of("2z")).candidates
    ((Tile('1z'), 0.95),)
    """

    misread: float = 0.0
    seed: int = 0
    confuse: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        self.rng = np.random.default_rng(self.seed)
        self.misreads = 0

    def read(self, truth: FrameTruth, timestamp: float = 0.0) -> TableReading:
        tiles, busy = [], []
        arms = [arm["box"] for arm in truth.arms]
        for item in truth.tiles:
            if item.posture == "flat" and item.visible < 1 and under_arm(item, arms):
                x, y = item.table_xy
                busy.append((x - HIDDEN, y - HIDDEN, x + HIDDEN, y + HIDDEN))
            if item.posture != "flat" or item.visible < MIN_VISIBLE:
                continue
            seen = seen_tile(item)
            if seen.candidates and self.misread and self.rng.random() < self.misread:
                seen = self._misread(seen)
            seen = self.confused(seen)
            tiles.append(seen)
        return TableReading(tuple(tiles), tuple(busy), timestamp)

    def confused(self, seen: SeenTile) -> SeenTile:
        """``seen`` as the confused pairs read it."""
        read = dict(self.confuse).get(seen.best.code) if seen.candidates else None
        return replace(seen, candidates=((Tile.from_code(read), 0.95),)) if read else seen

    def _misread(self, seen: SeenTile) -> SeenTile:
        right = seen.best
        wrong = Tile((right.kind + int(self.rng.integers(1, 34))) % 34)
        p = float(self.rng.uniform(0.5, 0.7))
        self.misreads += 1
        return replace(seen, candidates=((wrong, p), (right, 1 - p)))  # the same place
