"""Real faces as art sets: faces cut from labelled photos (training.face_cut) and the
art-set folders tools/make_photo_art.py writes from them.

The photos here are drawn: the committed ``fallback`` faces warped onto a table, each at a
slant, some sideways or upside down, so that every cut has a known right answer.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

import make_photo_art

from tablekit.sim.art import FACE_CODES, FACE_SIZE, KINDS, ArtError, load_art, read_art_folder
from training.face_cut import cut_face, likeness

FELT = (40, 110, 40)


def lay(photo: np.ndarray, face: np.ndarray, centre: tuple[float, float], degrees: float,
        width: float = 48.0) -> np.ndarray:
    """Warp ``face`` onto ``photo`` as a tile ``width`` px wide turned ``degrees``, seen a
    little from the side; its labelled box (x1 y1 x2 y2)."""
    height = width * face.shape[0] / face.shape[1]
    corners = np.float32([[-width, -height], [width, -height], [width * 1.06, height],
                          [-width * 1.06, height]]) / 2
    turn = np.deg2rad(degrees)
    rotation = np.float32([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    quad = corners @ rotation.T + np.float32(centre)
    h, w = face.shape[:2]
    matrix = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), quad)
    cv2.warpPerspective(face, matrix, photo.shape[1::-1], dst=photo,
                        borderMode=cv2.BORDER_TRANSPARENT)
    return np.concatenate([quad.min(axis=0) - 2, quad.max(axis=0) + 2])


@pytest.fixture(scope="module")
def fallback():
    return load_art("fallback").faces


@pytest.mark.parametrize("degrees", [8, 95, 183, -80])
def test_a_face_at_a_slant_comes_out_straight_and_upright(fallback, degrees):
    photo = np.full((200, 200, 3), FELT, np.uint8)
    box = lay(photo, fallback["3m"], (100, 100), degrees)
    cut = cut_face(photo, box, FACE_SIZE, reference=fallback["3m"])
    original = cv2.resize(fallback["3m"], FACE_SIZE)
    assert cut.face.shape == (FACE_SIZE[1], FACE_SIZE[0], 3)
    assert likeness(cut.face, original) > 0.65
    assert likeness(cut.face, original) > likeness(cut.face[::-1, ::-1].copy(), original) + 0.3
    assert cut.frontal > 0.8 and cut.clear == 1.0


def test_a_tile_under_another_scores_less(fallback):
    photo = np.full((200, 300, 3), FELT, np.uint8)
    box = lay(photo, fallback["1z"], (100, 100), 3)
    alone = cut_face(photo, box, FACE_SIZE, reference=fallback["1z"])
    neighbour = box + np.float32([20, 0, 20, 0])  # lying over its right part
    under = cut_face(photo, box, FACE_SIZE, neighbour[None], fallback["1z"])
    assert under.score < alone.score * 0.7


def labelled_set(root: Path, fallback: dict, kinds: tuple[str, ...]) -> Path:
    """A photo set in the shared data's layout: one photo of ``kinds`` laid in rows."""
    folder = root / "drawn"
    (folder / "train" / "images").mkdir(parents=True)
    (folder / "train" / "labels").mkdir(parents=True)
    photo = np.full((640, 640, 3), FELT, np.uint8)
    rng = np.random.default_rng(3)
    lines = []
    for i, code in enumerate(kinds):
        centre = (50 + (i % 9) * 68, 60 + (i // 9) * 130)
        x1, y1, x2, y2 = lay(photo, fallback[code], centre, float(rng.uniform(-10, 10))
                             + 180 * (i % 2))
        lines.append(f"{KINDS.index(code)} {(x1 + x2) / 1280:.5f} {(y1 + y2) / 1280:.5f} "
                     f"{(x2 - x1) / 640:.5f} {(y2 - y1) / 640:.5f}")
    cv2.imwrite(str(folder / "train" / "images" / "table_jpg.rf.1.jpg"), photo)
    (folder / "train" / "labels" / "table_jpg.rf.1.txt").write_text("\n".join(lines) + "\n")
    (folder / "class_map.json").write_text(json.dumps(
        {"classes": {str(i): {"canonical": code} for i, code in enumerate(KINDS)}}))
    (folder / "ATTRIBUTION.txt").write_text("Drawn for a test from FluffyStuff's CC0 faces.\n")
    return root


@pytest.fixture
def drawn_set(monkeypatch):
    spec = make_photo_art.PhotoSet(
        "drawn", lambda photos: make_photo_art.load_split(photos / "drawn", "train"), "test",
        "a drawn table")
    monkeypatch.setitem(make_photo_art.PHOTO_SETS, "photo-drawn", spec)
    return "photo-drawn"


def test_every_kind_cut_and_red_fives_made_into_a_loadable_set(fallback, drawn_set, tmp_path):
    photos = labelled_set(tmp_path / "photos", fallback, KINDS)
    faces, licence, meta, _cuts = make_photo_art.make_set(drawn_set, photos)
    assert set(faces) == set(FACE_CODES) and meta["use"] == "test"
    assert "FluffyStuff" in licence and "CC BY 4.0" in licence
    for code in KINDS:  # every kind is its own face, the right way up
        original = cv2.resize(fallback[code], FACE_SIZE)
        assert likeness(faces[code], original) > 0.45, code
    assert np.abs(faces["0p"].astype(int) - faces["5p"]).max() > 100  # reddened
    make_photo_art.write_art_folder(tmp_path / "art" / drawn_set, faces, licence, meta)
    art = read_art_folder(tmp_path / "art" / drawn_set)
    assert len(art.faces) == 37 and art.use == "test"


def test_a_set_missing_kinds_is_refused_in_one_line_naming_them(fallback, drawn_set, tmp_path):
    photos = labelled_set(tmp_path / "photos", fallback, KINDS[:-2])
    with pytest.raises(ArtError) as refused:
        make_photo_art.make_set(drawn_set, photos)
    message = str(refused.value)
    assert "\n" not in message and "6z, 7z" in message and "refused" in message


def test_the_real_photo_sets_give_every_kind(shared_data):
    photos = shared_data / "photos"
    if not (photos / make_photo_art.HUST).is_dir():
        pytest.skip("no labelled photos in ../shared/data")
    images = make_photo_art.PHOTO_SETS["photo-hust"].images(photos)[:12]
    cuts = make_photo_art.best_cuts(images, load_art("fallback").faces)
    assert len(cuts) >= 12
    assert all(cut.face.shape == (FACE_SIZE[1], FACE_SIZE[0], 3) for cut in cuts.values())
