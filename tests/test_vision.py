"""Vision: post-processing on synthetic arrays, the ONNX models' shapes, ``tablekit detect``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tablekit.vision.classes import CLASSES
from tablekit.vision.postprocess import Letterbox, box_iou, decode_centres, heatmap_peaks, nms

FIXTURES = Path(__file__).parent / "fixtures" / "vision"
TRAY_TILES = sorted(["1p", "1s", "1s", "2s", "2z", "3m", "3z", "3z", "4s", "5p", "5p", "9p"])


def test_nms_keeps_best_of_overlapping_and_all_of_separate():
    boxes = np.array([[0, 0, 10, 14], [1, 0, 11, 14], [10, 0, 20, 14], [0, 20, 10, 34]],
                     np.float32)
    keep = nms(boxes, np.array([0.5, 0.9, 0.8, 0.7]), iou_threshold=0.45)
    assert keep.tolist() == [1, 2, 3]


def test_nms_neighbouring_tiles_survive():
    row = np.array([[x, 0, x + 10, 14] for x in range(0, 100, 10)], np.float32)
    assert sorted(nms(row, np.linspace(0.5, 0.9, 10)).tolist()) == list(range(10))


def test_heatmap_decoding_finds_each_centre_once():
    heat = np.zeros((20, 30), np.float32)
    size = np.zeros((2, 20, 30), np.float32)
    offset = np.full((2, 20, 30), 0.25, np.float32)
    for row, col in [(5, 5), (5, 8), (15, 25)]:
        heat[row - 1: row + 2, col - 1: col + 2] = 0.5
        heat[row, col] = 0.9
        size[:, row, col] = np.log([3.0, 4.0])
    boxes, scores = decode_centres(heat, size, offset, stride=4, threshold=0.3)
    assert len(boxes) == 3 and np.allclose(scores, 0.9)
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    assert np.allclose(sorted(centres.tolist()), [[21, 21], [33, 21], [101, 61]])
    assert np.allclose(boxes[:, 2] - boxes[:, 0], 12) and np.allclose(boxes[:, 3] - boxes[:, 1], 16)


def test_peaks_respect_threshold():
    heat = np.zeros((4, 4), np.float32)
    heat[1, 1], heat[3, 3] = 0.2, 0.6
    assert [p.tolist() for p in heatmap_peaks(heat, 0.3)] == [[3], [3]]


def test_letterbox_maps_boxes_back_to_image_pixels():
    box = Letterbox.fit((720, 1280), 640, multiple=32)
    assert box.input_shape == (384, 640) and box.scaled_shape == (360, 640)
    back = box.to_image(np.array([[64, 32, 128, 96], [600, 300, 700, 400]], np.float32))
    assert back.tolist() == [[128, 64, 256, 192], [1200, 600, 1280, 720]]


def test_box_iou_matrix():
    iou = box_iou(np.array([[0, 0, 10, 10]]), np.array([[0, 0, 10, 10], [5, 0, 15, 10]]))
    assert np.allclose(iou, [[1.0, 1 / 3]])


@pytest.fixture(scope="module")
def reader():
    pytest.importorskip("onnxruntime")
    pytest.importorskip("cv2")
    from tablekit.vision.reader import TileReader

    return TileReader.load(threads=1)


def test_detector_shapes(reader):
    model = reader.detector
    assert model.input_name == "image" and model.input_shape[:2] == (1, 3)
    out = model.run(np.random.default_rng(0).random((1, 3, 96, 160), dtype=np.float32))
    assert out["heat"].shape == (1, 1, 24, 40)
    assert out["size"].shape == out["offset"].shape == (1, 2, 24, 40)
    assert out["heat"].min() >= 0 and out["heat"].max() <= 1


def test_classifier_shapes_and_probabilities(reader):
    from tablekit.vision.classify import crop_size

    assert crop_size(reader.classifier) == (48, 36)
    probs = reader.classifier.run(np.random.default_rng(0).random((5, 3, 48, 36),
                                                                  dtype=np.float32))["probs"]
    assert probs.shape == (5, len(CLASSES)) and np.allclose(probs.sum(axis=1), 1, atol=1e-4)


def _red_five():
    import cv2

    image = cv2.imread(str(FIXTURES / "red_five_0p.png"))
    return image, np.array([[12, 12, 132, 172]], np.float32)


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_red_five_reads_as_0p_in_every_orientation(reader, turns):
    from tablekit.vision.classify import classify_boxes

    image, box = _red_five()
    height, width = image.shape[:2]
    for _ in range(turns):  # quarter turns clockwise, box turned with the image
        x1, y1, x2, y2 = box[0]
        image = np.ascontiguousarray(np.rot90(image, -1))
        box = np.array([[height - y2, x1, height - y1, x2]], np.float32)
        height, width = width, height
    named = classify_boxes(reader.classifier, image, box)
    assert named.codes == ("0p",) and named.scores[0] > 0.5


class _Counting:
    """A stand-in classifier: sure of a bright crop (1m), unsure of a dark one; counts crops."""

    input_shape = (None, 3, 8, 6)

    def __init__(self):
        self.crops = 0

    def run(self, batch):
        self.crops += len(batch)
        probs = np.full((len(batch), len(CLASSES)), 0.1 / (len(CLASSES) - 1), np.float32)
        bright = batch.mean(axis=(1, 2, 3)) > 0.5
        probs[:, 0] = np.where(bright, 0.9, 0.3)
        probs[~bright, 1] = 0.3
        return {"probs": probs / probs.sum(axis=1, keepdims=True)}


def test_only_unsure_faces_are_read_again():
    from tablekit.vision.classify import classify_boxes

    image = np.zeros((20, 40, 3), np.uint8)
    image[:, :20] = 255
    boxes = np.array([[0, 0, 12, 16], [22, 0, 34, 16], [4, 2, 16, 18]], np.float32)
    model = _Counting()
    every = classify_boxes(model, image, boxes, ways=4)
    assert model.crops == 4 * 3
    model.crops = 0
    adaptive = classify_boxes(model, image, boxes, ways=4, sure=0.8)
    assert model.crops == 3 + 3 * 1  # all once, the one dark face three more ways
    assert adaptive.codes == every.codes
    np.testing.assert_allclose(adaptive.scores, every.scores, rtol=1e-5)


def test_detect_json_format(reader, capsys):
    from tablekit.cli import main

    path = FIXTURES / "hust_tray.jpg"
    assert main(["detect", str(path), "--json", "--threads", "1"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1
    record = json.loads(lines[0])
    assert set(record) == {"image", "ms", "tiles"} and record["image"] == str(path)
    assert isinstance(record["ms"], float) and record["ms"] > 0
    for tile in record["tiles"]:
        assert set(tile) == {"box", "tile", "score"}
        x1, y1, x2, y2 = tile["box"]
        assert 0 <= x1 < x2 <= 330 and 0 <= y1 < y2 <= 150
        assert tile["tile"] in CLASSES and tile["tile"] != "none"
        assert 0 <= tile["score"] <= 1
    read = sorted(tile["tile"] for tile in record["tiles"])
    right = sum(min(read.count(c), TRAY_TILES.count(c)) for c in set(TRAY_TILES))
    assert right >= 10 and len(read) <= 13


def test_detect_plain_text_and_unreadable_file(reader, capsys, tmp_path):
    from tablekit.cli import main

    missing = tmp_path / "missing.jpg"
    assert main(["detect", str(FIXTURES / "hust_tray.jpg"), str(missing)]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.strip() == f"tablekit detect: {missing}: no such file"
    text = tmp_path / "notes.jpg"
    text.write_text("not a picture")
    assert main(["detect", str(FIXTURES / "hust_tray.jpg"), str(text)]) == 2
    out = capsys.readouterr()
    assert "hust_tray.jpg: " in out.out and "not an image tablekit can read" in out.err


def test_held_out_hust_photos_read_well(reader, shared_data):
    import cv2

    from training.evaluate import evaluate
    from training.photo_sets import EVAL_SETS

    photos = [(image, cv2.imread(str(image.path)))
              for image in EVAL_SETS["hust-valid"](shared_data / "photos")[::12]]
    result = evaluate(reader.read, photos)
    assert result.count.f1 >= 0.95, result.summary()
