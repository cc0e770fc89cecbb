"""Naming tile faces: a small CNN in ONNX over fixed-size upright crops.

The model takes ``(N, 3, H, W)`` RGB crops in ``[0, 1]`` (H, W read from the model: 48 x 36) and
returns ``probs`` ``(N, 39)``, softmax of temperature-scaled logits over
:data:`tablekit.vision.classes.CLASSES`. A box wider than tall is a tile lying sideways: its crop
is turned a quarter so every crop is upright or upside down, and the model was trained on both.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tablekit.vision.classes import CLASSES
from tablekit.vision.onnx_model import OnnxModel


@dataclass(frozen=True)
class Classified:
    """One code per crop and the calibrated probability of that code."""

    codes: tuple[str, ...]
    scores: np.ndarray


def crop_size(model: OnnxModel) -> tuple[int, int]:
    """(height, width) of the crops the classifier takes, read from its input."""
    height, width = model.input_shape[2], model.input_shape[3]
    return int(height), int(width)  # type: ignore[arg-type]


def upright_crop(image_bgr: np.ndarray, box: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The RGB crop of ``box``, turned upright when wider than tall, resized to ``size``.

    >>> image = np.zeros((20, 30, 3), np.uint8); image[:, :15] = 255
    >>> crop = upright_crop(image, np.array([0, 0, 30, 20]), (6, 4))
    >>> crop.shape, int(crop[0, 0, 0]), int(crop[-1, 0, 0])
    ((6, 4, 3), 255, 0)
    """
    import cv2

    height, width = image_bgr.shape[:2]
    x1, y1, x2, y2 = (int(v) for v in np.rint(box))
    x1, y1 = min(max(x1, 0), width - 1), min(max(y1, 0), height - 1)
    x2, y2 = min(max(x2, x1 + 1), width), min(max(y2, y1 + 1), height)
    crop = image_bgr[y1:y2, x1:x2]
    if crop.shape[1] > crop.shape[0]:
        crop = cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE)
    crop = cv2.resize(crop, (size[1], size[0]), interpolation=cv2.INTER_AREA)
    return crop[:, :, ::-1]


def crops_batch(image_bgr: np.ndarray, boxes: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """All crops of ``boxes`` as one NCHW float batch in [0, 1]."""
    batch = np.empty((len(boxes), 3, *size), np.float32)
    for i, box in enumerate(boxes):
        batch[i] = upright_crop(image_bgr, box, size).transpose(2, 0, 1)
    return batch / np.float32(255)


def both_ways_up(model: OnnxModel, batch: np.ndarray) -> np.ndarray:
    """Probabilities from each crop read upright and turned half a turn: the normalised
    geometric mean of the two (the classifier learnt faces both ways up, and a tile lying
    at a slant shows its neighbours differently each way)."""
    pair = model.run(np.concatenate([batch, batch[:, :, ::-1, ::-1]]))["probs"]
    logs = np.log(np.maximum(pair, 1e-7)).reshape(2, len(batch), -1).mean(axis=0)
    probs = np.exp(logs - logs.max(axis=1, keepdims=True))
    return (probs / probs.sum(axis=1, keepdims=True)).astype(np.float32)


def classify_batch(model: OnnxModel, batch: np.ndarray, both_ways: bool = False) -> Classified:
    """Codes and calibrated scores for a prepared crop batch (``both_ways``:
    :func:`both_ways_up`)."""
    if len(batch) == 0:
        return Classified((), np.zeros(0, np.float32))
    probs = both_ways_up(model, batch) if both_ways else model.run(batch)["probs"]
    best = probs.argmax(axis=1)
    return Classified(tuple(CLASSES[i] for i in best), probs[np.arange(len(best)), best])


def classify_boxes(model: OnnxModel, image_bgr: np.ndarray, boxes: np.ndarray,
                   both_ways: bool = False) -> Classified:
    """Codes and calibrated scores for the tiles at ``boxes`` (image pixels) in ``image_bgr``."""
    return classify_batch(model, crops_batch(image_bgr, boxes, crop_size(model)), both_ways)
