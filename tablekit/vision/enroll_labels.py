"""Enrollment from labelled photos: a club's own photos, or how enrollment is measured.

The labelled faces are cut as enrollment cuts them (:func:`tablekit.vision.enroll.cut_faces`),
and so are the detector's own boxes that meet a labelled face (IoU >= 0.5, the boxes the
reader will crop) under that face's code. Labels of no riichi kind (flowers, seasons: null in
``class_map.json``), the detector's boxes that meet no label and bare patches of the photo
are not-a-tile.

The labelled boxes also tell how the photo detector finds this set's tiles: a set it has not
seen may draw two peaks on one tile, two boxes that overlap more than neighbouring tiles do.
:func:`choose_overlap` picks the non-maximum suppression that finds the labelled tiles best.

A set named by its nearest faces (:func:`nearest_from_photos`, :mod:`tablekit.vision.nearest`)
keeps the features of those crops as its bank, with boxes straddling two labelled tiles cut
as not-a-tile too (:func:`straddling_boxes`), as enrollment from the table cuts them.

>>> boxes = np.array([[0, 0, 10, 14], [10, 0, 20, 14], [20, 0, 30, 14]], np.float32)
>>> straddling = straddling_boxes(boxes, np.random.default_rng(0), 5)
>>> len(straddling) > 0, bool((box_iou(straddling, boxes).max(axis=1) < 0.3).all())
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from tablekit.vision.classes import CLASSES, NOT_A_TILE, class_index
from tablekit.vision.datasets import LabelledImage
from tablekit.vision.detect import OVERLAP
from tablekit.vision.enroll import FaceSamples, background_boxes, cut_faces, straddling_boxes
from tablekit.vision.metrics import Count, match_image
from tablekit.vision.onnx_model import OnnxModel
from tablekit.vision.postprocess import box_iou
from tablekit.vision.refine import located

NONE = class_index(NOT_A_TILE)
MATCH_IOU = 0.5
STRAY_IOU = 0.2
STRADDLING = 0.5
"""Boxes straddling two tiles cut as not-a-tile for a nearest set, per labelled tile."""
OVERLAPS = (OVERLAP, 0.4, 0.35, 0.3, 0.25)
"""The overlaps :func:`choose_overlap` tries, the trained one first."""

Photo = tuple[LabelledImage, np.ndarray]
"""A labelled photo and its decoded BGR pixels."""


def decoded(images: Sequence[LabelledImage]) -> list[Photo]:
    """The photos that can be read, with their pixels."""
    photos = [(image, cv2.imread(str(image.path))) for image in images]
    return [(image, bgr) for image, bgr in photos if bgr is not None]


def add_photo(samples: FaceSamples, image: LabelledImage, bgr: np.ndarray,
              detector: OnnxModel | None, size: tuple[int, int],
              rng: np.random.Generator, overlap: float = OVERLAP,
              straddling: float = 0.0, refiner: OnnxModel | None = None) -> None:
    """Add one labelled photo's faces (and its not-a-tile crops) to ``samples``: each
    labelled box, and each box the detector found (refined by ``refiner``, as the reader
    finds them) on a labelled tile; ``straddling``: boxes between two tiles per labelled
    tile, cut as not-a-tile."""
    boxes = image.pixel_boxes(bgr.shape[1], bgr.shape[0])
    found = (located(detector, refiner, bgr, overlap).boxes if detector is not None
             else np.zeros((0, 4)))
    iou = box_iou(found, boxes)
    for i, code in enumerate(image.codes):
        label = class_index(code) if code else NONE
        matched = found[iou[:, i] >= MATCH_IOU] if len(found) else found
        samples.add(cut_faces(bgr, boxes[i:i + 1], size, rng), label)
        if len(matched):
            samples.add(cut_faces(bgr, matched, size, rng, copies=2), label)
    if len(found):
        stray = found[iou.max(axis=1, initial=0) < STRAY_IOU]
        samples.add(cut_faces(bgr, stray, size, rng, copies=1), NONE)
    patches = background_boxes(bgr.shape, boxes, rng, max(len(boxes) // 2, 4))
    samples.add(cut_faces(bgr, patches, size, rng, copies=1), NONE)
    if straddling and len(boxes):
        between = straddling_boxes(boxes, rng, int(np.ceil(straddling * len(boxes))))
        samples.add(cut_faces(bgr, between, size, rng, copies=1), NONE)


def samples_from_photos(photos: Sequence[Photo], detector: OnnxModel | None,
                        size: tuple[int, int], seed: int = 0,
                        overlap: float = OVERLAP, straddling: float = 0.0,
                        refiner: OnnxModel | None = None) -> FaceSamples:
    """Every face of ``photos`` cut for enrollment (``straddling``, ``refiner``:
    :func:`add_photo`)."""
    rng = np.random.default_rng(seed)
    samples = FaceSamples()
    for image, bgr in photos:
        add_photo(samples, image, bgr, detector, size, rng, overlap, straddling, refiner)
    return samples


def lacking_kinds(labels: np.ndarray) -> list[str]:
    """The classes with no crop in ``labels`` but for the red fives :func:`lacking_red` splits.

    >>> len(lacking_kinds(np.arange(len(CLASSES)))), "3p" in lacking_kinds(np.array([NONE]))
    (0, True)
    """
    present = set(np.asarray(labels).tolist())
    split = {f"0{suit}" for suit in lacking_red(labels)}
    return [code for i, code in enumerate(CLASSES) if i not in present and code not in split]


def lacking_red(labels: np.ndarray) -> list[str]:
    """The suits whose plain five is in ``labels`` and red five is not: a set's photos that
    show no red five of a suit say nothing of how its red five looks.

    >>> lacking_red(np.array([class_index("5m"), class_index("0m"), class_index("5p")]))
    ['p']
    """
    present = set(np.asarray(labels).tolist())
    return [suit for suit in "mps" if class_index(f"5{suit}") in present
            and class_index(f"0{suit}") not in present]


def box_f1(detector: OnnxModel, photos: Sequence[Photo], overlap: float,
           refiner: OnnxModel | None = None) -> float:
    """F1 of the detector's boxes (refined by ``refiner``) against every labelled box
    (IoU >= 0.5, any kind)."""
    count = Count()
    for image, bgr in photos:
        found = located(detector, refiner, bgr, overlap)
        truth = image.pixel_boxes(bgr.shape[1], bgr.shape[0])
        count.add(match_image(found.boxes, ["tile"] * len(found.boxes), found.scores,
                              truth, ["tile"] * len(truth)))
    return count.f1


def choose_overlap(detector: OnnxModel, photos: Sequence[Photo],
                   refiner: OnnxModel | None = None) -> dict[str, Any]:
    """The overlap that finds the labelled tiles of ``photos`` best (boxes refined by
    ``refiner``, as the reader finds them), and each one's F1.

    The trained :data:`~tablekit.vision.detect.OVERLAP` stays unless another finds them
    strictly better.
    """
    tried = {overlap: box_f1(detector, photos, overlap, refiner) for overlap in OVERLAPS}
    best = max(OVERLAPS, key=tried.__getitem__)  # the first of equals: the trained one
    return {"overlap": best, "box_f1": {f"{overlap:g}": round(f1, 4)
                                         for overlap, f1 in tried.items()}}
