"""Putting the photo detector's boxes right before a face is named.

On a tile set it never saw, the photo detector often draws a box on part of a tile: on a
heap of tiles at a slant, a box on two of a 4p's four circles reads 2p. A small CNN
(``box_refiner.onnx``) looks at each box with its surroundings, a window twice the box's
width and height around its centre, and says where the tile's edges are: the shift of the
centre in box widths and heights and the log of the width and height ratios. The box is
moved that way and looked at again (:data:`ROUNDS`), as far as :data:`STEP` allows in one
look. Boxes that come to cover the same tile are then taken as one
(:func:`refine_detections`).

The refiner was trained on the CPU on the training photos only (``python -m training
refiner``; the model card says how).

>>> boxes = np.array([[10, 20, 30, 60]], np.float32)
>>> moved(boxes, np.array([[0.5, 0.0, np.log(2), 0.0]], np.float32)).tolist()
[[10.0, 20.0, 50.0, 60.0]]
>>> window_of(boxes[0])
(0.0, 0.0, 40.0, 80.0)
"""

from __future__ import annotations

import numpy as np

from tablekit.vision.detect import OVERLAP, Detections, find_tiles
from tablekit.vision.onnx_model import MODELS_DIR, OnnxModel
from tablekit.vision.postprocess import nms

REFINER_PATH = MODELS_DIR / "box_refiner.onnx"
ROUNDS = 2
"""How many times each box is looked at and moved: the second look starts nearer the tile
and puts right what the first could not see from a box on half a tile."""
STEP = 1.0
"""The most one look moves a box: a shift of one box width or height, a size ratio of e."""


def window_of(box: np.ndarray) -> tuple[float, float, float, float]:
    """The window the refiner looks at for ``box``: twice its width and height, same centre."""
    x1, y1, x2, y2 = (float(v) for v in box)
    width, height = x2 - x1, y2 - y1
    centre_x, centre_y = (x1 + x2) / 2, (y1 + y2) / 2
    return centre_x - width, centre_y - height, centre_x + width, centre_y + height


def cut_window(image_bgr: np.ndarray, box: np.ndarray, size: int) -> np.ndarray:
    """The ``size`` x ``size`` BGR cut of :func:`window_of` ``box`` (edges repeated where
    the window leaves the image).

    >>> image = np.zeros((40, 40, 3), np.uint8); image[10:30, 10:30] = 200
    >>> cut = cut_window(image, np.array([10, 10, 30, 30]), 8)
    >>> cut.shape, int(cut[4, 4, 0]), int(cut[0, 0, 0])
    ((8, 8, 3), 200, 0)
    """
    import cv2

    x1, y1, x2, y2 = window_of(box)
    scale_x, scale_y = size / max(x2 - x1, 1e-3), size / max(y2 - y1, 1e-3)
    warp = np.array([[scale_x, 0, -x1 * scale_x], [0, scale_y, -y1 * scale_y]], np.float32)
    shrink = scale_x < 1 and scale_y < 1
    return cv2.warpAffine(image_bgr, warp, (size, size),
                          flags=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def moved(boxes: np.ndarray, deltas: np.ndarray) -> np.ndarray:
    """``boxes`` moved by the refiner's ``deltas`` (centre shift in box sizes, log size
    ratios), each clipped to :data:`STEP`."""
    deltas = np.clip(deltas, -STEP, STEP)
    width, height = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    centre_x = (boxes[:, 0] + boxes[:, 2]) / 2 + deltas[:, 0] * width
    centre_y = (boxes[:, 1] + boxes[:, 3]) / 2 + deltas[:, 1] * height
    width, height = width * np.exp(deltas[:, 2]), height * np.exp(deltas[:, 3])
    return np.stack([centre_x - width / 2, centre_y - height / 2,
                     centre_x + width / 2, centre_y + height / 2], axis=1).astype(np.float32)


def refine_boxes(model: OnnxModel, image_bgr: np.ndarray, boxes: np.ndarray,
                 rounds: int = ROUNDS) -> np.ndarray:
    """``boxes`` (image pixels, x1 y1 x2 y2) moved onto the tiles' edges, looked at
    ``rounds`` times."""
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    if len(boxes) == 0:
        return boxes
    size = int(model.input_shape[2])  # type: ignore[arg-type]
    for _ in range(rounds):
        windows = np.stack([cut_window(image_bgr, box, size) for box in boxes])
        batch = np.ascontiguousarray(windows[..., ::-1].transpose(0, 3, 1, 2),
                                     np.float32) / np.float32(255)
        boxes = moved(boxes, model.run(batch)["delta"])
    return boxes


def refine_detections(model: OnnxModel, image_bgr: np.ndarray, found: Detections,
                      overlap: float) -> Detections:
    """The detector's ``found`` boxes refined (:func:`refine_boxes`), and of those that
    then overlap by more than ``overlap`` only the likelier kept: two boxes on two halves
    of one tile become one box on the whole tile."""
    boxes = refine_boxes(model, image_bgr, found.boxes)
    if len(boxes) == 0:
        return found
    keep = np.sort(nms(boxes, found.scores, overlap))
    return Detections(boxes[keep], found.scores[keep])


def located(detector: OnnxModel, refiner: OnnxModel | None, image_bgr: np.ndarray,
            overlap: float = OVERLAP, long_side: int | None = None) -> Detections:
    """Every tile the photo detector finds in ``image_bgr`` (:func:`find_tiles`), its box
    refined (:func:`refine_detections`; ``refiner`` None: as found): the boxes the photo
    reader names and enrollment cuts its faces from."""
    found = find_tiles(detector, image_bgr, long_side, overlap=overlap)
    return found if refiner is None else refine_detections(refiner, image_bgr, found, overlap)
