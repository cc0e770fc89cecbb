"""Naming tile faces: a small CNN in ONNX over fixed-size upright crops.

The model takes ``(N, 3, H, W)`` RGB crops in ``[0, 1]`` (H, W read from the model: 48 x 36) and
returns ``probs`` ``(N, 39)``, softmax of temperature-scaled logits over
:data:`tablekit.vision.classes.CLASSES`. A box wider than tall is a tile lying sideways: its crop
is turned a quarter so every crop is upright or upside down, and the model was trained on both.
A photo's tile lying at a slant has a nearly square box, and which quarter is "upright" is
then a guess: the photo reader can read every face all four ways (:data:`WAYS`), and reads
again that way only the faces whose first reading is unsure (:func:`classify_boxes`'s ``sure``).
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


def upright_crop(image_bgr: np.ndarray, box: np.ndarray, size: tuple[int, int],
                 turn: bool = False) -> np.ndarray:
    """The RGB crop of ``box``, turned upright when wider than tall, resized to ``size``
    (``turn``: the other way, turned when taller than wide).

    >>> image = np.zeros((20, 30, 3), np.uint8); image[:, :15] = 255
    >>> crop = upright_crop(image, np.array([0, 0, 30, 20]), (6, 4))
    >>> crop.shape, int(crop[0, 0, 0]), int(crop[-1, 0, 0])
    ((6, 4, 3), 255, 0)
    >>> int(upright_crop(image, np.array([0, 0, 30, 20]), (6, 4), turn=True)[0, 0, 0])
    255
    """
    import cv2

    height, width = image_bgr.shape[:2]
    x1, y1, x2, y2 = (int(v) for v in np.rint(box))
    x1, y1 = min(max(x1, 0), width - 1), min(max(y1, 0), height - 1)
    x2, y2 = min(max(x2, x1 + 1), width), min(max(y2, y1 + 1), height)
    crop = image_bgr[y1:y2, x1:x2]
    if (crop.shape[1] > crop.shape[0]) != turn:
        crop = cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE)
    crop = cv2.resize(crop, (size[1], size[0]), interpolation=cv2.INTER_AREA)
    return crop[:, :, ::-1]


def crops_batch(image_bgr: np.ndarray, boxes: np.ndarray, size: tuple[int, int],
                turn: bool = False) -> np.ndarray:
    """All crops of ``boxes`` as one NCHW float batch in [0, 1] (``turn``: see
    :func:`upright_crop`)."""
    batch = np.empty((len(boxes), 3, *size), np.float32)
    for i, box in enumerate(boxes):
        batch[i] = upright_crop(image_bgr, box, size, turn).transpose(2, 0, 1)
    return batch / np.float32(255)


WAYS = (1, 2, 4)
"""How many ways a face can be read: as cut; also turned half a turn; and also cut a quarter
turned, each of those both ways up."""


def geometric_mean(readings: np.ndarray) -> np.ndarray:
    """The normalised geometric mean of ``(ways, N, classes)`` probabilities over the ways.

    >>> geometric_mean(np.array([[[0.9, 0.1]], [[0.5, 0.5]]])).round(2).tolist()
    [[0.75, 0.25]]
    """
    logs = np.log(np.maximum(readings, 1e-7)).mean(axis=0)
    probs = np.exp(logs - logs.max(axis=1, keepdims=True))
    return (probs / probs.sum(axis=1, keepdims=True)).astype(np.float32)


def read_ways(model: OnnxModel, batches: list[np.ndarray]) -> np.ndarray:
    """The normalised geometric mean of the probabilities of each batch (the same faces,
    cut or turned differently).

    >>> class Fixed:
    ...     def run(self, batch):
    ...         return {"probs": np.array([[0.9, 0.1], [0.5, 0.5]], np.float32)}
    >>> read_ways(Fixed(), [np.zeros((1, 3, 2, 2)), np.zeros((1, 3, 2, 2))]).round(2).tolist()
    [[0.75, 0.25]]
    """
    pair = model.run(np.concatenate(batches))["probs"]
    return geometric_mean(pair.reshape(len(batches), len(batches[0]), -1))


def both_ways_up(model: OnnxModel, batch: np.ndarray) -> np.ndarray:
    """Probabilities from each crop read upright and turned half a turn: the normalised
    geometric mean of the two (the classifier learnt faces both ways up, and a tile lying
    at a slant shows its neighbours differently each way)."""
    return read_ways(model, [batch, batch[:, :, ::-1, ::-1]])


def classify_probs(probs: np.ndarray) -> Classified:
    """Codes and calibrated scores from each face's probabilities."""
    best = probs.argmax(axis=1)
    return Classified(tuple(CLASSES[i] for i in best), probs[np.arange(len(best)), best])


def classify_batch(model: OnnxModel, batch: np.ndarray, both_ways: bool = False) -> Classified:
    """Codes and calibrated scores for a prepared crop batch (``both_ways``:
    :func:`both_ways_up`)."""
    if len(batch) == 0:
        return Classified((), np.zeros(0, np.float32))
    probs = both_ways_up(model, batch) if both_ways else model.run(batch)["probs"]
    return classify_probs(probs)


def other_views(model: OnnxModel, image_bgr: np.ndarray, boxes: np.ndarray,
                batch: np.ndarray, ways: int) -> list[np.ndarray]:
    """The crops of the faces at ``boxes`` (``batch``: as cut) for their other ``ways - 1``
    readings (:data:`WAYS`): turned half a turn; cut a quarter turned, both ways up."""
    views = [batch[:, :, ::-1, ::-1]] if ways > 1 else []
    if ways == 4:
        turned = crops_batch(image_bgr, boxes, crop_size(model), turn=True)
        views += [turned, turned[:, :, ::-1, ::-1]]
    return views


def classify_boxes(model: OnnxModel, image_bgr: np.ndarray, boxes: np.ndarray,
                   ways: int = 1, sure: float | None = None) -> Classified:
    """Codes and calibrated scores for the tiles at ``boxes`` (image pixels) in
    ``image_bgr``, each face read ``ways`` ways (:data:`WAYS`); with ``sure``, each face is
    read once first and only those scoring under ``sure`` are read again ``ways`` ways."""
    if ways not in WAYS:
        raise ValueError(f"a face is read 1, 2 or 4 ways, not {ways}")
    batch = crops_batch(image_bgr, boxes, crop_size(model))
    if len(batch) == 0:
        return classify_probs(np.zeros((0, len(CLASSES)), np.float32))
    if sure is None:
        return classify_probs(read_ways(model, [batch, *other_views(model, image_bgr, boxes,
                                                                      batch, ways)]))
    probs = np.array(model.run(batch)["probs"], np.float32)
    unsure = probs.max(axis=1) < sure
    if ways > 1 and unsure.any():
        views = other_views(model, image_bgr, boxes[unsure], batch[unsure], ways)
        others = model.run(np.concatenate(views))["probs"].reshape(ways - 1, unsure.sum(), -1)
        probs[unsure] = geometric_mean(np.concatenate([probs[None, unsure], others]))
    return classify_probs(probs)
