"""Enrolling from the table: the spread laid on the simulated table, its faces cut as the
reader cuts them, the set named by its nearest faces."""

from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from tablekit.cli import main as tablekit
from tablekit.files.resources import packaged
from tablekit.sim.script import Script
from tablekit.sim.source import SimulatedCamera
from tablekit.sim.spread_scene import spread_photos
from tablekit.vision.calibration import calibrate
from tablekit.vision.classes import CLASSES
from tablekit.vision.spread import STEPS, spread_slots
from tablekit.vision.table_reader import TableModels, read_frame
from tablekit.vision.tileset import TileSet, TileSetError

LOG = packaged("data", "tenhou-python-bot-28.xml")


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """A simulated table's calibration and the photos of its spread, as files."""
    folder = tmp_path_factory.mktemp("table")
    camera = SimulatedCamera(Script.from_log(LOG), seed=5, art="fallback")
    profile = calibrate([camera.render_moment(0, 1.0).image,
                         camera.render_moment(1, 1.0).image])
    profile.save(folder / "table.json")
    photos = []
    for number, image in enumerate(spread_photos(camera.rig, np.random.default_rng(5))):
        photos.append(folder / f"step-{number + 1}.png")
        cv2.imwrite(str(photos[-1]), image)
    return camera, profile, folder, photos


def test_each_spread_holds_the_whole_set_each_seat_every_kind():
    for index in (0, 1, 2):
        slots = spread_slots(index)
        assert Counter(slot.code.replace("0", "5") for slot in slots) == \
            {code: 4 for code in CLASSES[:34] if code[0] != "0"} | \
            {f"5{suit}": 4 for suit in "mps"}
        for seat in range(4):
            mine = [slot.code.replace("0", "5") for slot in slots if slot.seat == seat]
            assert len(set(mine)) == 34
    # a kind lies at another place in spread B
    a, b = spread_slots(0), spread_slots(1)
    place = {(s.code.replace("0", "5"), s.seat): (s.zone, s.x, s.y) for s in a}
    moved = [place[(t.code.replace("0", "5"), t.seat)] for t in b]
    assert all((x, y) != (t.x, t.y) for (_, x, y), t in zip(moved, b, strict=True))
    assert sum(zone != t.zone for (zone, _, _), t in zip(moved, b, strict=True)) >= 120


def test_enroll_from_the_table(table, tmp_path, capsys):
    camera, profile, folder, photos = table
    out = tmp_path / "set"
    assert tablekit(["enroll", "--from-table", "--calibration", str(folder / "table.json"),
                     "--image", *map(str, photos), "--out", str(out)]) == 0
    said = capsys.readouterr()
    assert "spread A face up: 136 of 136 tiles found where they were laid" in said.out
    tileset = TileSet.load(out)
    assert tileset.nearest and tileset.info["faces"]["0m"] > 0
    assert {"back", "none"} <= set(tileset.info["faces"])
    # the enrolled reader reads a moment of this table's game
    enrolled = TableModels.load(tileset=out)
    frame = camera.render_moment(40, 1.0)
    truth = sorted(t.label.replace("0", "5") for t in frame.truth.tiles
                   if t.face_up and t.posture == "flat" and t.visible >= 0.9)
    _, found = read_frame(frame.image, profile, enrolled)
    read = Counter(t.code.replace("0", "5") for t in found if t.face_up)
    right = sum((Counter(truth) & read).values())
    assert right >= 0.95 * len(truth) > 10


def test_a_spread_photo_is_refused_in_one_line(table, tmp_path, capsys, monkeypatch):
    _, _, folder, photos = table
    calibration = ["--calibration", str(folder / "table.json")]
    out = ["--out", str(tmp_path / "set")]
    assert tablekit(["enroll", "--from-table", *calibration, "--image", str(photos[0]),
                     *out]) == 2
    assert f"takes {len(STEPS)} photos" in capsys.readouterr().err
    empty = tmp_path / "empty.png"
    camera = SimulatedCamera(Script.from_log(LOG), seed=5, art="fallback")
    cv2.imwrite(str(empty), camera.rig.renderer.background)
    assert tablekit(["enroll", "--from-table", *calibration, "--image", str(empty),
                     *map(str, photos[1:]), *out]) == 2
    err = capsys.readouterr().err
    assert "spread A face up: only 0 of 136 tiles were found" in err
    assert len(err.strip().splitlines()) == 1
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # no one to press Enter
    assert tablekit(["enroll", "--from-table", *calibration, "--camera", "opencv:9", *out]) == 2
    assert "standard input is closed" in capsys.readouterr().err
    assert tablekit(["enroll", "--from-table", "--calibration", str(tmp_path / "no.json"),
                     "--image", *map(str, photos), *out]) == 2
    assert "no calibration" in capsys.readouterr().err


def test_a_damaged_bank_is_one_line(table, tmp_path):
    _, profile, _, photos = table
    from tablekit.vision.enroll_table import enroll_from_table

    images = [cv2.imread(str(path)) for path in photos]
    made = enroll_from_table(images, profile, tmp_path / "set", "test")
    bank = tmp_path / "set" / "faces.npz"
    with np.load(bank) as stored:
        features, labels = stored["features"], stored["labels"]
    np.savez(bank, features=features[:-5], labels=labels[:-5])  # not the model's bank
    with pytest.raises(TileSetError, match=r"faces where tile_classifier\.onnx searches"):
        TableModels.load(tileset=made.tileset.folder)
    bank.write_bytes(b"not a bank")
    with pytest.raises(TileSetError, match="its faces cannot be read"):
        TableModels.load(tileset=made.tileset.folder)


def test_print_spread_lists_every_seat(capsys):
    assert tablekit(["enroll", "--print-spread"]) == 0
    out = capsys.readouterr().out
    assert out.count("pond:") == 12 and "4. lay spread C face up" in out


@pytest.mark.slow
def test_a_simulated_game_enrolled_from_its_table(capsys):
    assert tablekit(["simulate", str(LOG), "--reader", "vision", "--enroll-from-table",
                     "--hands", "1"]) == 0
    said = capsys.readouterr()
    assert "enrolled from the table's spread (a simulated table)" in said.err
    summary = json.loads(said.out.splitlines()[-1])
    assert summary["enrolled"] == "from the table"
    assert summary["hands"] == summary["hands_ok"] == 1


WON_FIRST = Path(__file__).resolve().parents[2] / "shared" / "data" / "tenhou" / "logs" / \
    "MahjongRepository+tenhou-python-bot" / "1.txt"


@pytest.mark.slow
@pytest.mark.skipif(not WON_FIRST.is_file(), reason="needs ../shared/data's held-out logs")
def test_faces_confirmed_in_play_join_a_set_enrolled_from_the_table(table, tmp_path, capsys):
    from tablekit.vision.nearest import BANK

    _, _, folder, photos = table
    first = tmp_path / "set"
    assert tablekit(["enroll", "--from-table", "--calibration", str(folder / "table.json"),
                     "--image", *map(str, photos), "--out", str(first)]) == 0
    recording = tmp_path / "rec"
    assert tablekit(["simulate", str(WON_FIRST), "--hands", "1", "--record",
                     str(recording)]) == 0
    capsys.readouterr()
    assert tablekit(["enroll", "--from-recording", str(recording), "--on", str(first),
                     "--out", str(tmp_path / "more")]) == 0
    out = capsys.readouterr().out
    assert "the set's faces now: 1m " in out and "no kind lacking" in out
    before, after = (np.load(path / BANK)["labels"] for path in (first, tmp_path / "more"))
    assert len(after) > len(before)
    more = TileSet.load(tmp_path / "more")
    assert more.nearest and more.info["recorded_faces"]
    assert sum(more.info["faces"].values()) == len(after)

    # run --learn: the same faces learned into the set itself when the evening ends
    from tablekit.commands.run import learn_evening

    said: list[str] = []
    assert learn_evening(recording, first, said.append)
    assert len(np.load(first / BANK)["labels"]) == len(after)
    learned = TileSet.load(first)
    assert learned.name == "set" and learned.info["recorded_faces"] == more.info["recorded_faces"]
    assert learned.info["source"].endswith(", learned from play")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["more", "rec", "set"]
    assert "faces added; the set's faces now: 1m " in said[-1]
    learned.load_classifier()  # its bank is the one its model searches


def test_learn_refuses_what_it_cannot_learn_into(tmp_path, capsys):
    journal = tmp_path / "game.jsonl"
    argv = ["run", "--journal", str(journal), "--camera", "none", "--buttons", "none",
            "--display", f"headless:{tmp_path / 'screens'}", "--frames", "1", "--learn"]
    assert tablekit(argv) == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        "tablekit: learn: --learn adds the evening's confirmed faces to a tile set: give "
        "--tileset SET (enrolled with enroll --from-table) and --record DIR"]
    assert tablekit([*argv, "--tileset", str(tmp_path / "none"), "--record",
                     str(tmp_path / "rec")]) == 2
    assert "learn: no tile set at" in capsys.readouterr().err
    head = tmp_path / "head"
    head.mkdir()
    (head / "tile_classifier.onnx").write_bytes(b"")
    (head / "tileset.json").write_text(json.dumps(
        {"version": 1, "classes": list(CLASSES), "method": "softmax head"}))
    assert tablekit([*argv, "--tileset", str(head), "--record", str(tmp_path / "rec")]) == 2
    assert "was not enrolled from the table" in capsys.readouterr().err
    assert not journal.exists() and not (tmp_path / "rec").exists()


def test_a_set_cut_off_while_it_learned_is_the_set_it_was(tmp_path, monkeypatch):
    from tablekit.files import atomic

    folder = tmp_path / "set"
    folder.mkdir()
    info = {"version": 1, "classes": list(CLASSES), "name": "set"}
    (folder / "tileset.json").write_text(json.dumps(info))
    (folder / "tile_classifier.onnx").write_bytes(b"old")
    new = tmp_path / "set.learning"
    new.mkdir()
    (new / "tileset.json").write_text(json.dumps(info))
    (new / "tile_classifier.onnx").write_bytes(b"new")
    renames = []
    rename = atomic.os.rename

    def cut(source, target):  # the power goes after the old set is moved aside
        if renames:
            raise OSError(5, "power cut")
        renames.append(target)
        rename(source, target)

    monkeypatch.setattr(atomic.os, "rename", cut)
    with pytest.raises(OSError):
        atomic.replace_folder(folder, new)
    monkeypatch.undo()
    assert not folder.exists()
    assert (TileSet.load(folder).classifier.read_bytes()) == b"old"
    assert not (tmp_path / "set.before").exists()


def test_the_models_search_compares_pixels_as_numpy_does(table, tmp_path):
    """The nearest-face search baked into the ONNX model (features and pixels,
    ``nearest.embed``) ranks and votes as numpy does; a bank of features alone (a set
    enrolled before pixels were compared) is still searched on its features."""
    from tablekit.vision.classifier_graph import with_bank, with_features
    from tablekit.vision.classify import crop_size
    from tablekit.vision.nearest import FEATURE_WIDTH, NearestFaces, embed, save_bank, vote
    from tablekit.vision.onnx_model import CLASSIFIER_PATH, load_model
    from tablekit.vision.rectify import TableView
    from tablekit.vision.table_reader import face_crops

    camera, profile, _, _ = table
    frame = camera.render_moment(40, 1.0)
    models = TableModels.load()
    _, found = read_frame(frame.image, profile, models)
    boxes = np.array([t.box for t in found if t.face_up], np.float32)
    view = TableView(profile.camera, layout=profile.layout)
    crops = face_crops(frame.image, view, boxes, crop_size(models.classifier))
    (tmp_path / "f.onnx").write_bytes(with_features(CLASSIFIER_PATH))
    raw = load_model(tmp_path / "f.onnx").run(crops)["features"]
    labels = np.arange(len(crops)) % 34
    for rows in (embed(raw, crops), embed(raw, None)):
        (tmp_path / "c.onnx").write_bytes(with_bank(CLASSIFIER_PATH, rows, 5))
        save_bank(tmp_path / "b.npz", rows, labels)
        searched = NearestFaces.load(tmp_path / "c.onnx", tmp_path / "b.npz").run(crops)
        expected = vote(embed(raw, crops if rows.shape[1] > FEATURE_WIDTH else None),
                        rows, labels)
        assert np.allclose(searched["probs"], expected, atol=1e-3)
        assert (searched["probs"].argmax(1) == labels).all()  # each face is its own nearest


def test_a_sets_own_red_fives_decide_its_fives(tmp_path):
    """The red-five colour check (fitted on the trained art) is left to the suits whose red
    five a set enrolled from the table does not hold."""
    from tablekit.vision.classes import class_index
    from tablekit.vision.nearest import embed
    from tablekit.vision.onnx_model import CLASSIFIER_PATH
    from tablekit.vision.tileset import save_nearest_tileset

    rng = np.random.default_rng(0)
    every = np.array([class_index(code) for code in CLASSES])
    crops = rng.random((len(every), 3, 48, 36)).astype(np.float32)
    rows = embed(rng.normal(size=(len(every), 256)).astype(np.float32), crops)
    save_nearest_tileset(tmp_path / "all", rows, every, {}, CLASSIFIER_PATH, "test")
    assert TableModels.load().red_fives is not None
    assert TableModels.load(tileset=tmp_path / "all").red_fives is None
    no_red_pin = every != class_index("0p")
    save_nearest_tileset(tmp_path / "some", rows[no_red_pin], every[no_red_pin], {},
                         CLASSIFIER_PATH, "test")
    assert sorted(TableModels.load(tileset=tmp_path / "some").red_fives.suits) == ["p"]
