"""Finding tiles: a small fully-convolutional CenterNet-style ONNX model.

The model takes an RGB float image ``(1, 3, H, W)`` in ``[0, 1]`` (H and W multiples of 32) and
returns ``heat`` ``(1, 1, H/4, W/4)`` (probability of a tile centre), ``size`` ``(1, 2, H/4, W/4)``
(log width and height in cells) and ``offset`` ``(1, 2, H/4, W/4)``. :func:`find_tiles` runs it on
any photo (the generic mode); :func:`detect_on_input` is the step a rectified-table path reuses
once it has made its own input.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tablekit.vision.onnx_model import OnnxModel
from tablekit.vision.postprocess import Letterbox, decode_centres, nms

FIRST_PASS_LONG_SIDE = 320
TILE_HEIGHT = 28
"""Tile height (network-input pixels) the generic mode scales small tiles up to."""
SMALL_TILE = 20
MAX_LONG_SIDE = 1024
OVERLAP = 0.45
"""Of two boxes overlapping by more than this IoU, the weaker is dropped (non-maximum
suppression). A tile set enrolled from labelled photos may choose its own
(:func:`tablekit.vision.enroll_labels.choose_overlap`)."""


@dataclass(frozen=True)
class Detections:
    """Tile boxes (N, 4) in image pixels and their detector scores (N,)."""

    boxes: np.ndarray
    scores: np.ndarray


def to_input(image_bgr: np.ndarray, letterbox: Letterbox) -> np.ndarray:
    """The network input for a BGR uint8 image: scaled, padded, RGB, NCHW float in [0, 1]."""
    import cv2

    height, width = letterbox.scaled_shape
    scaled = cv2.resize(image_bgr, (width, height), interpolation=cv2.INTER_LINEAR)
    batch = np.zeros((1, 3, *letterbox.input_shape), np.float32)
    batch[0, :, :height, :width] = scaled[:, :, ::-1].transpose(2, 0, 1) / np.float32(255)
    return batch


def detect_on_input(
    model: OnnxModel, batch: np.ndarray, threshold: float = 0.3, iou_threshold: float = OVERLAP
) -> Detections:
    """Boxes in input pixels for one prepared input batch of one image."""
    out = model.run(batch)
    heat = out["heat"][0, 0]
    stride = batch.shape[2] // heat.shape[0]
    boxes, scores = decode_centres(heat, out["size"][0], out["offset"][0], stride, threshold)
    keep = nms(boxes, scores, iou_threshold)
    return Detections(boxes[keep], scores[keep])


def detect_at(model: OnnxModel, image_bgr: np.ndarray, long_side: int,
              threshold: float = 0.3, overlap: float = OVERLAP) -> Detections:
    """Tile boxes in image pixels, the image scaled so its longer side is ``long_side``."""
    letterbox = Letterbox.fit(image_bgr.shape[:2], long_side)
    found = detect_on_input(model, to_input(image_bgr, letterbox), threshold, overlap)
    return Detections(letterbox.to_image(found.boxes), found.scores)


def better_long_side(boxes: np.ndarray, image_long_side: int, long_side: int) -> int:
    """A longer side that makes small tiles TILE_HEIGHT tall; ``long_side`` if none are small.

    >>> better_long_side(np.array([[0, 0, 30, 40], [50, 0, 80, 40]]), 1280, 320)
    896
    >>> better_long_side(np.array([[0, 0, 30, 40], [50, 0, 80, 40]]), 640, 320)
    320
    >>> better_long_side(np.zeros((0, 4)), 1280, 320)
    320
    """
    if not len(boxes):
        return long_side
    sides = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    height = float(np.median(sides)) * long_side / image_long_side
    if height >= SMALL_TILE:
        return long_side
    wanted = long_side * TILE_HEIGHT / max(height, 1.0)
    return int(min(-(-wanted // 32) * 32, MAX_LONG_SIDE))


def find_tiles(
    model: OnnxModel, image_bgr: np.ndarray, long_side: int | None = None,
    threshold: float = 0.3, overlap: float = OVERLAP,
) -> Detections:
    """Tile boxes in the pixels of ``image_bgr``, any photo, no calibration (generic mode).

    With no ``long_side``, a first pass measures the tiles and, when they are smaller than
    TILE_HEIGHT, a second pass runs at the scale that brings them there. ``overlap``: see
    :data:`OVERLAP`.
    """
    if long_side:
        return detect_at(model, image_bgr, long_side, threshold, overlap)
    first = detect_at(model, image_bgr, FIRST_PASS_LONG_SIDE, threshold, overlap)
    better = better_long_side(first.boxes, max(image_bgr.shape[:2]), FIRST_PASS_LONG_SIDE)
    if better == FIRST_PASS_LONG_SIDE:
        return first
    return detect_at(model, image_bgr, better, threshold, overlap)
