"""The photo sets under ``../shared/data/photos`` and how they are split: what the models learn
from (:func:`training_images`) and the held-out sets the benchmarks measure on
(:data:`EVAL_SETS`). Splits go by source photo (:func:`tablekit.vision.datasets.source_photo`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tablekit.vision.datasets import LabelledImage, load_split

HUST = "hust-riichi"
CHINESE = "chinese-mahjong-nohust"


def _unseen_table(group: str) -> bool:
    return group.startswith("IMG_")


def _screenshot(group: str) -> bool:
    return group.startswith("Screenshot")


def training_images(photos: Path) -> list[LabelledImage]:
    """What the models learn from: hust train, chinese train, and chinese valid less two groups.

    Held out of chinese valid: the ``IMG_*`` photos (a set, camera and pink table found nowhere
    else: the "never seen" test) and the ``Screenshot*`` frames (stretched screen grabs).
    """
    chinese_valid = load_split(photos / CHINESE, "valid",
                               lambda g: not _unseen_table(g) and not _screenshot(g))
    return load_split(photos / HUST, "train") + load_split(photos / CHINESE, "train") \
        + chinese_valid


EVAL_SETS: dict[str, Callable[[Path], list[LabelledImage]]] = {
    "hust-valid": lambda photos: load_split(photos / HUST, "valid"),
    "unseen-table": lambda photos: load_split(photos / CHINESE, "valid", _unseen_table),
    "chinese-test": lambda photos: load_split(photos / CHINESE, "test"),
}
"""Held-out sets: the seen set's unseen photos, a never-seen set/camera/table, and the
chinese set's own test split (unseen photos of tables that training saw)."""
