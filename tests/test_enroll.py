"""Enrollment: the classifier's head refitted to a tile set, saved as a profile, read back."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tablekit.cli import main as tablekit
from tablekit.vision.classes import CLASSES
from tablekit.vision.classifier_graph import Head, read_head, with_head
from tablekit.vision.datasets import load_split
from tablekit.vision.familiar import WARNING, Familiarity
from tablekit.vision.onnx_model import CLASSIFIER_PATH, load_model
from tablekit.vision.tileset import TileSet, TileSetError


@pytest.fixture(scope="module")
def features():
    from tablekit.vision.enroll import FeatureModel

    return FeatureModel(CLASSIFIER_PATH)


def _softmax(logits: np.ndarray) -> np.ndarray:
    exp = np.exp(logits - logits.max(axis=1, keepdims=True))
    return exp / exp.sum(axis=1, keepdims=True)


def test_features_and_head_give_the_classifiers_probabilities(features):
    crops = np.random.default_rng(0).random((5, 3, *features.size), np.float32)
    probs = load_model(CLASSIFIER_PATH).run(crops)["probs"]
    assert np.allclose(_softmax(features.head.logits(features.features(crops))), probs,
                       atol=1e-5)


def test_a_baked_head_is_the_classifier_that_runs(features, tmp_path):
    rng = np.random.default_rng(1)
    head = read_head(CLASSIFIER_PATH)
    other = Head(head.weight + rng.normal(0, 0.05, head.weight.shape).astype(np.float32),
                 head.bias, head.temperature * 1.5)
    path = tmp_path / "c.onnx"
    path.write_bytes(with_head(CLASSIFIER_PATH, other))
    crops = rng.random((4, 3, *features.size), np.float32)
    probs = load_model(path).run(crops)["probs"]
    assert np.allclose(_softmax(other.logits(features.features(crops))), probs, atol=1e-5)


def test_tileset_errors_are_one_line(tmp_path):
    with pytest.raises(TileSetError, match="no tile set"):
        TileSet.load(tmp_path / "none")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "tileset.json").write_text("{")
    with pytest.raises(TileSetError, match="not a tile-set description"):
        TileSet.load(tmp_path / "bad")
    (tmp_path / "bad" / "tileset.json").write_text(json.dumps({"version": 1, "classes": ["1m"]}))
    with pytest.raises(TileSetError, match="enroll the set again"):
        TileSet.load(tmp_path / "bad")


def test_enroll_needs_somewhere_to_save(capsys):
    assert tablekit(["enroll"]) == 2
    assert "--out SET" in capsys.readouterr().err


def test_enroll_from_a_labelled_folder_that_is_not_one(tmp_path, capsys):
    assert tablekit(["enroll", "--from-labels", str(tmp_path), "--out", str(tmp_path / "s")]) == 2
    assert "images/, labels/ and class_map.json" in capsys.readouterr().err


def _labelled_folder(shared: Path, tmp_path: Path, names: list[str]) -> Path:
    source = shared / "photos" / "chinese-mahjong-nohust"
    folder = tmp_path / "labelled"
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    (folder / "class_map.json").symlink_to(source / "class_map.json")
    for path in sorted((source / "valid" / "images").iterdir()):
        if any(path.name.startswith(name) for name in names):
            (folder / "images" / path.name).symlink_to(path)
            label = source / "valid" / "labels" / f"{path.stem}.txt"
            (folder / "labels" / label.name).symlink_to(label)
    return folder


def test_enroll_from_labelled_photos_saves_a_profile_the_reader_loads(
        shared_data, tmp_path, capsys):
    import cv2

    from tablekit.vision.reader import TileReader

    folder = _labelled_folder(shared_data, tmp_path, ["IMG_2750"])
    out = tmp_path / "club"
    assert tablekit(["enroll", "--from-labels", str(folder), "--out", str(out)]) == 0
    said = capsys.readouterr()
    assert "classes enrolled" in said.out
    assert "these photos show 12 of the 34 kinds" in said.err   # one photo: few kinds
    tileset = TileSet.load(out)
    assert tuple(tileset.info["classes"]) == CLASSES
    assert {"5m", "9m", "7z", "none"} <= set(tileset.info["faces"])
    assert tileset.info["train_accuracy"] > 0.9 and not tileset.nearest
    image = cv2.imread(str(next((folder / "images").iterdir())))
    readings = TileReader.load(tileset=out).read(image)
    assert len(readings) >= 10


def _named_right(readings, image, bgr) -> tuple[int, int]:
    """How many labelled tiles a reading meets (IoU >= 0.5), and how many it names right."""
    from tablekit.vision.postprocess import box_iou

    truth = image.pixel_boxes(bgr.shape[1], bgr.shape[0])
    boxes = np.array([reading.box for reading in readings], np.float32).reshape(-1, 4)
    iou = box_iou(boxes, truth)
    met = right = 0
    for i, code in enumerate(image.codes):
        if code and len(boxes) and iou[:, i].max() >= 0.5:
            met += 1
            right += readings[int(iou[:, i].argmax())].tile == code
    return met, right


def test_labelled_photos_enroll_a_set_named_by_its_nearest_faces(shared_data, tmp_path, capsys):
    """``--method nearest``: the photo reader names faces by the set's bank."""
    import cv2

    from tablekit.vision.nearest import NearestFaces
    from tablekit.vision.reader import TileReader

    folder = _labelled_folder(shared_data, tmp_path, ["IMG_2750"])
    out = tmp_path / "club"
    assert tablekit(["enroll", "--from-labels", str(folder), "--out", str(out),
                     "--method", "nearest"]) == 0
    assert "classes enrolled" in capsys.readouterr().out
    tileset = TileSet.load(out)
    assert tileset.nearest and (out / "faces.npz").is_file()
    assert {"5m", "9m", "7z", "none"} <= set(tileset.info["faces"])
    assert "m" in tileset.red_split   # its photo shows a plain 5m and no red one
    assert "0m" not in tileset.lacking and {"1p", "back"} <= set(tileset.lacking)
    reader = TileReader.load(tileset=out)
    assert isinstance(reader.classifier, NearestFaces)
    assert reader.classifier.red_split == tileset.red_split
    assert len(reader.classifier.lacking) == len(tileset.lacking)   # named as trained
    (image,) = load_split(folder, "")
    bgr = cv2.imread(str(image.path))
    met, right = _named_right(reader.read(bgr), image, bgr)
    assert met >= 10 and right >= 0.9 * met   # its own faces, named by themselves


def test_method_is_for_labelled_photos(capsys):
    assert tablekit(["enroll", "--method", "head", "--out", "x"]) == 2
    assert "--from-labels" in capsys.readouterr().err


def test_labelled_photos_choose_the_detectors_overlap(shared_data, tmp_path):
    """The unseen set's close-ups draw two boxes on some tiles; its photos say to merge them."""
    from tablekit.vision.detect import OVERLAP
    from tablekit.vision.enroll_labels import box_f1, choose_overlap, decoded
    from tablekit.vision.onnx_model import DETECTOR_PATH
    from tablekit.vision.reader import TileReader
    from tablekit.vision.refine import REFINER_PATH

    folder = _labelled_folder(shared_data, tmp_path, ["IMG_2773", "IMG_2765"])
    photos = decoded(load_split(folder, ""))
    detector, refiner = load_model(DETECTOR_PATH), load_model(REFINER_PATH)
    chosen = choose_overlap(detector, photos, refiner)  # on the boxes the reader will name
    assert chosen["overlap"] < OVERLAP
    assert chosen["box_f1"][f"{chosen['overlap']:g}"] > chosen["box_f1"][f"{OVERLAP:g}"]
    assert box_f1(detector, photos, chosen["overlap"], refiner) > box_f1(
        detector, photos, OVERLAP, refiner)
    assert box_f1(detector, photos, OVERLAP, refiner) > box_f1(detector, photos, OVERLAP)
    out = tmp_path / "club"
    assert tablekit(["enroll", "--from-labels", str(folder), "--out", str(out)]) == 0
    assert TileSet.load(out).overlap == chosen["overlap"]
    assert TileReader.load(tileset=out).overlap == chosen["overlap"]
    assert TileReader.load().overlap == OVERLAP


def test_a_set_enrolled_without_photos_keeps_the_trained_overlap(tmp_path):
    from tablekit.vision.detect import OVERLAP

    info = {"version": 1, "classes": list(CLASSES)}
    assert TileSet(tmp_path, info).overlap == OVERLAP
    assert TileSet(tmp_path, {**info, "detector": {"overlap": 0.3}}).overlap == 0.3


def test_familiarity_forgets_old_faces():
    watch = Familiarity()
    watch.add([0.3] * 100)
    assert watch.warning() == WARNING
    watch.add([0.99] * 300)
    assert watch.warning() is None


def test_detect_takes_a_tileset(shared_data, tmp_path, capsys):
    folder = _labelled_folder(shared_data, tmp_path, ["IMG_2742", "IMG_2745"])
    out = tmp_path / "club"
    assert tablekit(["enroll", "--from-labels", str(folder), "--out", str(out)]) == 0
    capsys.readouterr()
    photos = [str(p) for p in sorted((folder / "images").iterdir())]
    assert tablekit(["detect", "--json", "--tileset", str(out), *photos]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2 and all(json.loads(line)["tiles"] for line in lines)
    assert tablekit(["detect", "--tileset", str(tmp_path / "nothing"), *photos]) == 2
    assert "no tile set at" in capsys.readouterr().err


def test_a_profile_names_its_tileset(tmp_path):
    from dataclasses import replace

    from tablekit.vision.calibration import EXAMPLE_PROFILE, Profile

    profile = Profile.load(EXAMPLE_PROFILE)
    named = replace(profile, tileset="sets/club")
    assert Profile.load(named.save(tmp_path / "p.json")).tileset == "sets/club"
    assert Profile.load(profile.save(tmp_path / "q.json")).tileset == ""


def test_the_camera_pipeline_passes_the_warning_on():
    from tablekit.vision.pipeline import CameraPipeline

    pipeline = CameraPipeline(models=None, felt=None)  # type: ignore[arg-type]
    assert pipeline.notices() == []
    pipeline.familiar.add([0.5] * 100)
    assert pipeline.notices() == [WARNING]
