"""Numpy post-processing shared by every detector path (generic photo or rectified table).

Boxes are ``float32 (N, 4)`` arrays of ``x1, y1, x2, y2`` in pixels.

>>> import numpy as np
>>> boxes = np.array([[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30]], np.float32)
>>> nms(boxes, np.array([0.9, 0.8, 0.7]), iou_threshold=0.5).tolist()
[0, 2]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU matrix (len(a), len(b)) of two box arrays.

    >>> box_iou(np.array([[0, 0, 4, 2]]), np.array([[2, 0, 4, 2], [5, 5, 6, 6]])).tolist()
    [[0.5, 0.0]]
    """
    a = np.asarray(a, np.float32).reshape(-1, 4)
    b = np.asarray(b, np.float32).reshape(-1, 4)
    lt = np.maximum(a[:, None, :2], b[None, :, :2])
    rb = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.prod(np.clip(rb - lt, 0, None), axis=2)
    area_a = np.prod(a[:, 2:] - a[:, :2], axis=1)
    area_b = np.prod(b[:, 2:] - b[:, :2], axis=1)
    return inter / np.maximum(area_a[:, None] + area_b[None, :] - inter, 1e-9)


def nms(boxes: np.ndarray, scores: np.ndarray, iou_threshold: float = 0.5) -> np.ndarray:
    """Indices of the boxes kept by greedy non-maximum suppression, best score first."""
    order = np.argsort(-np.asarray(scores), kind="stable")
    keep: list[int] = []
    while order.size:
        best, order = order[0], order[1:]
        keep.append(int(best))
        if order.size:
            order = order[box_iou(boxes[best], boxes[order])[0] <= iou_threshold]
    return np.array(keep, dtype=np.int64)


def max_pool3(heat: np.ndarray) -> np.ndarray:
    """3x3 max filter (stride 1, edges padded with -inf) of a 2-D array.

    >>> max_pool3(np.array([[0, 1, 0], [0, 0, 0], [2, 0, 0]], np.float32)).tolist()
    [[1.0, 1.0, 1.0], [2.0, 2.0, 1.0], [2.0, 2.0, 0.0]]
    """
    padded = np.pad(heat, 1, constant_values=-np.inf)
    rows = np.maximum(np.maximum(padded[:-2], padded[1:-1]), padded[2:])
    return np.maximum(np.maximum(rows[:, :-2], rows[:, 1:-1]), rows[:, 2:])


def heatmap_peaks(heat: np.ndarray, threshold: float) -> tuple[np.ndarray, np.ndarray]:
    """(rows, cols) of the local maxima of ``heat`` at or above ``threshold``.

    >>> heat = np.zeros((5, 5), np.float32); heat[1, 1] = 0.9; heat[3, 4] = 0.6; heat[1, 2] = 0.5
    >>> [p.tolist() for p in heatmap_peaks(heat, 0.3)]
    [[1, 3], [1, 4]]
    """
    peaks = (heat >= threshold) & (heat >= max_pool3(heat))
    return np.nonzero(peaks)


def decode_centres(
    heat: np.ndarray, size: np.ndarray, offset: np.ndarray, stride: int, threshold: float
) -> tuple[np.ndarray, np.ndarray]:
    """Boxes (in network-input pixels) and scores from one CenterNet output.

    ``heat`` is (H, W) probabilities, ``size`` (2, H, W) the log of width and height in
    units of ``stride``, ``offset`` (2, H, W) the centre's sub-cell position.

    >>> heat = np.zeros((4, 4), np.float32); heat[2, 1] = 0.8
    >>> size = np.full((2, 4, 4), np.log(2.0), np.float32)
    >>> boxes, scores = decode_centres(heat, size, np.full((2, 4, 4), 0.5), 4, 0.5)
    >>> boxes.tolist(), scores.tolist()
    ([[2.0, 6.0, 10.0, 14.0]], [0.800000011920929])
    """
    rows, cols = heatmap_peaks(heat, threshold)
    return boxes_at(rows, cols, size, offset, stride), heat[rows, cols].astype(np.float32)


def boxes_at(rows: np.ndarray, cols: np.ndarray, size: np.ndarray, offset: np.ndarray,
             stride: int) -> np.ndarray:
    """Boxes (input pixels, x1 y1 x2 y2) of the heat-map cells at ``rows``, ``cols``."""
    cx = (cols + offset[0, rows, cols]) * stride
    cy = (rows + offset[1, rows, cols]) * stride
    half_w = np.exp(size[0, rows, cols]) * stride / 2
    half_h = np.exp(size[1, rows, cols]) * stride / 2
    boxes = np.stack([cx - half_w, cy - half_h, cx + half_w, cy + half_h], axis=1)
    return boxes.astype(np.float32).reshape(-1, 4)


@dataclass(frozen=True)
class Letterbox:
    """How an image was scaled (``scale``) and padded (bottom/right) to the network input.

    >>> lb = Letterbox.fit((720, 1280), 512, multiple=32)
    >>> lb.scale, lb.input_shape
    (0.4, (288, 512))
    >>> lb.to_image(np.array([[10, 20, 30, 40]], np.float32)).tolist()
    [[25.0, 50.0, 75.0, 100.0]]
    """

    scale: float
    image_shape: tuple[int, int]
    input_shape: tuple[int, int]

    @classmethod
    def fit(cls, image_shape: tuple[int, int], long_side: int, multiple: int = 32) -> Letterbox:
        """Scale the longer side to ``long_side``; pad each side up to a ``multiple``."""
        height, width = image_shape[:2]
        scale = long_side / max(height, width)
        padded = tuple(-(-round(n * scale) // multiple) * multiple for n in (height, width))
        return cls(scale, (height, width), (int(padded[0]), int(padded[1])))

    @property
    def scaled_shape(self) -> tuple[int, int]:
        """(height, width) of the image once scaled, before padding."""
        return tuple(round(n * self.scale) for n in self.image_shape)  # type: ignore[return-value]

    def to_image(self, boxes: np.ndarray) -> np.ndarray:
        """Boxes from network-input pixels back to the image's pixels, clipped to it."""
        out = np.asarray(boxes, np.float32) / self.scale
        height, width = self.image_shape
        out[:, 0::2] = np.clip(out[:, 0::2], 0, width)
        out[:, 1::2] = np.clip(out[:, 1::2], 0, height)
        return out
