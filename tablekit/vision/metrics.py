"""Accuracy of a tile read: F1 at IoU 0.5 with the class right, and the confusions.

Red fives count as their plain five (the photo labels do not mark them), and ``back`` readings
are left out (no photo set labels face-down tiles).

>>> import numpy as np
>>> gt = np.array([[0, 0, 10, 10], [20, 0, 30, 10]], np.float32)
>>> pred = np.array([[1, 0, 11, 10], [20, 0, 30, 10], [50, 50, 60, 60]], np.float32)
>>> count = match_image(pred, ["0m", "2p", "3s"], [0.9, 0.8, 0.7], gt, ["5m", "1p"])
>>> count.tp, count.fp, count.fn, count.confusions
(1, 2, 1, [('1p', '2p')])
>>> round(count.f1, 3)
0.4
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from tablekit.vision.classes import BACK, plain_kind
from tablekit.vision.postprocess import box_iou


@dataclass
class Count:
    """True positives, false positives, misses, and (truth, read) pairs of wrong names."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    confusions: list[tuple[str, str]] = field(default_factory=list)

    def add(self, other: Count) -> None:
        """Add another image's counts to these."""
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn
        self.confusions += other.confusions

    @property
    def precision(self) -> float:
        return self.tp / max(self.tp + self.fp, 1)

    @property
    def recall(self) -> float:
        return self.tp / max(self.tp + self.fn, 1)

    @property
    def f1(self) -> float:
        return 2 * self.tp / max(2 * self.tp + self.fp + self.fn, 1)

    def top_confusions(self, n: int = 10) -> list[tuple[tuple[str, str], int]]:
        """The ``n`` commonest (truth, read) confusions."""
        return Counter(self.confusions).most_common(n)


def _greedy(iou: np.ndarray, allowed: np.ndarray, order: np.ndarray) -> dict[int, int]:
    taken: set[int] = set()
    pairs = {}
    for p in order:
        candidates = np.where(allowed[p] & (iou[p] >= 0.5))[0]
        candidates = [g for g in candidates[np.argsort(-iou[p, candidates])] if g not in taken]
        if candidates:
            pairs[int(p)] = int(candidates[0])
            taken.add(int(candidates[0]))
    return pairs


def match_image(pred_boxes: np.ndarray, pred_codes: Sequence[str], pred_scores: Sequence[float],
                gt_boxes: np.ndarray, gt_codes: Sequence[str]) -> Count:
    """Match one image's readings to its truth, best score first."""
    kept = [i for i, code in enumerate(pred_codes) if code != BACK]
    boxes = np.asarray(pred_boxes, np.float32).reshape(-1, 4)[kept]
    codes = [plain_kind(pred_codes[i]) for i in kept]
    order = np.argsort(-np.asarray([pred_scores[i] for i in kept], np.float32), kind="stable")
    truth = [plain_kind(code) for code in gt_codes]
    iou = box_iou(boxes, gt_boxes)
    same = np.array([[p == t for t in truth] for p in codes], bool).reshape(iou.shape)
    right = _greedy(iou, same, order)
    count = Count(tp=len(right), fp=len(codes) - len(right), fn=len(truth) - len(right))
    left_p = np.array([p not in right for p in range(len(codes))], bool)
    left_g = np.array([g not in right.values() for g in range(len(truth))], bool)
    wrong = _greedy(iou, left_p[:, None] & left_g[None, :], order)
    count.confusions = [(truth[g], codes[p]) for p, g in wrong.items()]
    return count
