"""Labelled photos in the YOLO layout (``images/``, ``labels/``, ``class_map.json``): a club's
own photos for ``tablekit enroll --from-labels``, and the photo sets the models are trained and
measured on (which of those photos train and which are held out is ``training/photo_sets.py``,
outside the package).

:func:`load_split` returns :class:`LabelledImage` records. Groups go by source photo, never by
file: Roboflow's augmented copies of one photo share the name before ``_jpg.rf.``.

>>> source_photo("IMG_0123_JPG.rf.abc.jpg"), source_photo("hand_001_jpg.rf.9f.jpg")
('IMG_0123', 'hand_001')
>>> parse_label_line("3 0.5 0.5 0.2 0.4")
(3, (0.4, 0.3, 0.6, 0.7))
>>> parse_label_line("1 0.1 0.2 0.3 0.2 0.2 0.6")
(1, (0.1, 0.2, 0.3, 0.6))
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")


@dataclass(frozen=True)
class LabelledImage:
    """One photo: its file, where it comes from, and its tiles (boxes normalised to 0..1)."""

    path: Path
    source: str
    group: str
    boxes: np.ndarray
    codes: tuple[str | None, ...]

    def pixel_boxes(self, width: int, height: int) -> np.ndarray:
        """The boxes in pixels of a ``width`` x ``height`` image."""
        return self.boxes * np.array([width, height, width, height], np.float32)


def source_photo(filename: str) -> str:
    """The source photo's name: what comes before ``_jpg.rf.`` (or ``_JPG.rf.``)."""
    stem = Path(filename).name
    for marker in ("_jpg.rf.", "_JPG.rf.", "_jpeg.rf.", "_png.rf."):
        if marker in stem:
            return stem.split(marker)[0]
    return Path(stem).stem


def parse_label_line(line: str) -> tuple[int, tuple[float, float, float, float]]:
    """(class id, normalised x1 y1 x2 y2) of a YOLO box or polygon line."""
    values = line.split()
    numbers = [float(v) for v in values[1:]]
    if len(numbers) == 4:
        cx, cy, w, h = numbers
        box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
    else:
        xs, ys = numbers[0::2], numbers[1::2]
        box = (min(xs), min(ys), max(xs), max(ys))
    return int(values[0]), tuple(round(min(max(v, 0.0), 1.0), 6) for v in box)  # type: ignore


def read_class_map(set_dir: Path) -> dict[int, str | None]:
    """Source class id -> canonical code (None: not a riichi tile) from ``class_map.json``."""
    classes = json.loads((set_dir / "class_map.json").read_text())["classes"]
    return {int(key): value["canonical"] for key, value in classes.items()}


def load_split(set_dir: Path, split: str, keep: Callable[[str], bool] = lambda _: True,
               ) -> list[LabelledImage]:
    """Every labelled image of ``set_dir/split`` whose source photo passes ``keep``."""
    class_map = read_class_map(set_dir)
    images = []
    for path in sorted(p for p in (set_dir / split / "images").iterdir()
                       if p.suffix.lower() in IMAGE_SUFFIXES):
        group = source_photo(path.name)
        if not keep(group):
            continue
        label = set_dir / split / "labels" / f"{path.stem}.txt"
        lines = [line for line in label.read_text().splitlines() if line.strip()]
        parsed = [parse_label_line(line) for line in lines]
        boxes = np.array([box for _, box in parsed], np.float32).reshape(-1, 4)
        codes = tuple(class_map[cls] for cls, _ in parsed)
        images.append(LabelledImage(path, f"{set_dir.name}/{split}", group, boxes, codes))
    return images
