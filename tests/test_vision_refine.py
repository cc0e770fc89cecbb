"""The box refiner: a box on part of a tile is moved onto the whole tile, a good box stays."""

from pathlib import Path

import numpy as np
import pytest

FIXTURES = Path(__file__).parent / "fixtures" / "vision"


@pytest.fixture(scope="module")
def tray():
    cv2 = pytest.importorskip("cv2")
    pytest.importorskip("onnxruntime")
    from tablekit.vision.detect import find_tiles
    from tablekit.vision.onnx_model import DETECTOR_PATH, load_model
    from tablekit.vision.refine import REFINER_PATH

    image = cv2.imread(str(FIXTURES / "hust_tray.jpg"))
    found = find_tiles(load_model(DETECTOR_PATH), image)
    assert len(found.boxes) >= 10
    return image, found, load_model(REFINER_PATH)


def halves(boxes: np.ndarray, keep: float = 0.55) -> np.ndarray:
    """Each box cut to its left (or, for a box lying wide, its top) ``keep`` share."""
    cut = boxes.copy()
    tall = (cut[:, 3] - cut[:, 1]) >= (cut[:, 2] - cut[:, 0])
    cut[tall, 2] = cut[tall, 0] + keep * (cut[tall, 2] - cut[tall, 0])
    cut[~tall, 3] = cut[~tall, 1] + keep * (cut[~tall, 3] - cut[~tall, 1])
    return cut


def test_a_box_on_half_a_tile_is_moved_onto_the_tile(tray):
    from tablekit.vision.postprocess import box_iou
    from tablekit.vision.refine import refine_boxes

    image, found, refiner = tray
    half = halves(found.boxes)
    before = np.diag(box_iou(half, found.boxes))
    after = np.diag(box_iou(refine_boxes(refiner, image, half), found.boxes))
    assert before.mean() < 0.6
    assert after.mean() > 0.75 and np.median(after) > 0.8, after.round(2)


def test_a_box_on_the_tile_stays_there(tray):
    from tablekit.vision.postprocess import box_iou
    from tablekit.vision.refine import refine_boxes

    image, found, refiner = tray
    kept = np.diag(box_iou(refine_boxes(refiner, image, found.boxes), found.boxes))
    assert np.median(kept) > 0.85, kept.round(2)


def test_two_boxes_on_one_tile_become_one(tray):
    from tablekit.vision.detect import Detections
    from tablekit.vision.refine import refine_detections

    image, found, refiner = tray
    left = halves(found.boxes[:1])
    right = found.boxes[:1].copy()
    right[:, 0] = right[:, 2] - 0.55 * (right[:, 2] - right[:, 0])
    two = Detections(np.concatenate([left, right, found.boxes[1:]]),
                     np.concatenate([[0.9, 0.8], found.scores[1:]]).astype(np.float32))
    one = refine_detections(refiner, image, two, overlap=0.45)
    assert len(one.boxes) == len(found.boxes)


def test_no_boxes_no_work(tray):
    from tablekit.vision.refine import refine_boxes

    image, _, refiner = tray
    assert refine_boxes(refiner, image, np.zeros((0, 4), np.float32)).shape == (0, 4)
