"""Enrollment from labelled photos: a club's own photos, or how enrollment is measured.

The labelled faces are cut as enrollment cuts them (:func:`tablekit.vision.enroll.cut_faces`),
and so are the detector's own boxes that meet a labelled face (IoU >= 0.5, the boxes the
reader will crop) under that face's code. Labels of no riichi kind (flowers, seasons: null in
``class_map.json``), the detector's boxes that meet no label and bare patches of the photo
are not-a-tile.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from tablekit.vision.classes import NOT_A_TILE, class_index
from tablekit.vision.datasets import LabelledImage
from tablekit.vision.detect import find_tiles
from tablekit.vision.enroll import FaceSamples, background_boxes, cut_faces
from tablekit.vision.onnx_model import OnnxModel
from tablekit.vision.postprocess import box_iou

NONE = class_index(NOT_A_TILE)
MATCH_IOU = 0.5
STRAY_IOU = 0.2


def add_photo(samples: FaceSamples, image: LabelledImage, bgr: np.ndarray,
              detector: OnnxModel | None, size: tuple[int, int],
              rng: np.random.Generator) -> None:
    """Add one labelled photo's faces (and its not-a-tile crops) to ``samples``."""
    boxes = image.pixel_boxes(bgr.shape[1], bgr.shape[0])
    found = find_tiles(detector, bgr).boxes if detector is not None else np.zeros((0, 4))
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


def samples_from_photos(images: Sequence[LabelledImage], detector: OnnxModel | None,
                        size: tuple[int, int], seed: int = 0) -> FaceSamples:
    """Every face of ``images`` cut for enrollment."""
    rng = np.random.default_rng(seed)
    samples = FaceSamples()
    for image in images:
        bgr = cv2.imread(str(image.path))
        if bgr is not None:
            add_photo(samples, image, bgr, detector, size, rng)
    return samples
