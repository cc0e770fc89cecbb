"""Finding tiles in the rectified top-down view (the calibrated path).

In the view every face has the same size, so the detector (``tablekit/models/table_detector.onnx``,
trained on frames of the simulated table) runs once at a fixed scale, on a 0.5 px/mm view
(:data:`DETECT_SCALE`) of 1024 x 1024 mm: a 512 x 512 input. Its ``heat`` has two channels,
tiles face up and face down; ``size`` and ``offset`` are as the photo detector's
(:mod:`tablekit.vision.detect`).

>>> heat = np.zeros((2, 8, 8), np.float32); heat[0, 2, 3] = 0.9; heat[1, 6, 6] = 0.7
>>> size = np.full((2, 8, 8), np.log(3.0), np.float32)
>>> found = decode_two_class(heat, size, np.full((2, 8, 8), 0.5, np.float32), 4, 0.3)
>>> found.boxes.tolist(), found.back.tolist()
([[8.0, 4.0, 20.0, 16.0], [20.0, 20.0, 32.0, 32.0]], [False, True])
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tablekit.vision.onnx_model import OnnxModel
from tablekit.vision.postprocess import boxes_at, heatmap_peaks

DETECT_SCALE = 0.5
"""Pixels per mm of the detector's view."""
DETECT_HALF = 512.0
"""The detector's view covers -512..512 mm: 512 px, a multiple of 32."""


@dataclass(frozen=True)
class TableDetections:
    """Boxes (N, 4) in view pixels, scores (N,), and whether each tile lies face down."""

    boxes: np.ndarray
    scores: np.ndarray
    back: np.ndarray

    def __len__(self) -> int:
        return len(self.scores)

    def take(self, keep: np.ndarray) -> TableDetections:
        return TableDetections(self.boxes[keep], self.scores[keep], self.back[keep])


def detector_input(view_bgr: np.ndarray) -> np.ndarray:
    """A BGR view (sides multiples of 32) as the detector's RGB NCHW input in [0, 1]."""
    return cv2.dnn.blobFromImage(view_bgr, 1 / 255, swapRB=True)


def decode_two_class(heat: np.ndarray, size: np.ndarray, offset: np.ndarray, stride: int,
                     threshold: float) -> TableDetections:
    """Boxes (input pixels) of the peaks of either heat channel (2, H, W)."""
    best = heat.max(axis=0)
    rows, cols = heatmap_peaks(best, threshold)
    back = heat[1, rows, cols] > heat[0, rows, cols]
    return TableDetections(boxes_at(rows, cols, size, offset, stride),
                           best[rows, cols].astype(np.float32), back)


def detect_table(model: OnnxModel, view_bgr: np.ndarray, threshold: float = 0.35,
                 iou_threshold: float = 0.4) -> TableDetections:
    """Every tile in a 0.5 px/mm view: boxes in the view's pixels."""
    batch = detector_input(view_bgr)
    out = model.run(batch)
    heat = out["heat"][0]
    stride = batch.shape[2] // heat.shape[1]
    found = decode_two_class(heat, out["size"][0], out["offset"][0], stride, threshold)
    return found.take(fast_nms(found.boxes, found.scores, iou_threshold))


def fast_nms(boxes: np.ndarray, scores: np.ndarray, iou_threshold: float) -> np.ndarray:
    """:func:`tablekit.vision.postprocess.nms` through OpenCV (the same boxes kept).

    >>> boxes = np.array([[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30]], np.float32)
    >>> fast_nms(boxes, np.array([0.9, 0.8, 0.7]), 0.5).tolist()
    [0, 2]
    """
    if not len(boxes):
        return np.zeros(0, np.int64)
    xywh = np.concatenate([boxes[:, :2], boxes[:, 2:] - boxes[:, :2]], axis=1)
    keep = cv2.dnn.NMSBoxes(xywh.tolist(), np.asarray(scores, float).tolist(), 0.0,
                            iou_threshold)
    return np.sort(np.asarray(keep, np.int64).reshape(-1))
