"""The enrollment mat: printed, laid on the simulated table, found, read, enrolled."""

from __future__ import annotations

import io
import sys

import cv2
import numpy as np
import pytest

from tablekit.cli import main as tablekit
from tablekit.sim.mat_scene import render_mat
from tablekit.sim.rig import make_rig
from tablekit.vision.enroll_mat import SHEETS, find_sheets, read_mat
from tablekit.vision.tileset import TileSet


@pytest.fixture(scope="module")
def mat_photo():
    rig = make_rig(8, art="fallback")
    return render_mat(rig, SHEETS["A3"][0], np.random.default_rng(8), centre=(40.0, -60.0),
                      turn=2.4, leave_out={"3p"}, doubled={"5s"})


def test_mat_files_are_a3_or_two_a4_halves(tmp_path, capsys):
    assert tablekit(["enroll", "--mat", str(tmp_path / "mat.png"), "--dpi", "50"]) == 0
    assert cv2.imread(str(tmp_path / "mat.png")).shape[:2] == (585, 827)
    assert tablekit(["enroll", "--mat", str(tmp_path / "m.png"), "--paper", "A4",
                     "--dpi", "50"]) == 0
    halves = [cv2.imread(str(tmp_path / f"m-{i}.png")) for i in (1, 2)]
    assert [h.shape[:2] for h in halves] == [(585, 413)] * 2
    assert [sheet.name for sheet, _ in find_sheets(halves[1])] == ["A4 right half"]
    assert "print at 100%" in capsys.readouterr().out


def test_the_mat_is_found_and_its_slots_read(mat_photo):
    (_view, looks), = read_mat(mat_photo)
    status = {look.code: look.status for look in looks}
    assert status.pop("3p") == "empty"
    assert status.pop("5s") in ("two tiles", "ok")  # pushed together they read as one
    assert set(status.values()) == {"ok"} and len(status) == 36


def test_enroll_from_a_mat_photo(mat_photo, tmp_path, capsys):
    photo = tmp_path / "mat.png"
    cv2.imwrite(str(photo), mat_photo)
    out = tmp_path / "set"
    assert tablekit(["enroll", "--image", str(photo), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "slots empty: 3p" in err and "\r" not in err   # no progress line: not a terminal
    tileset = TileSet.load(out)
    assert tileset.info["slots"]["0p"] == "ok" and "3p" not in tileset.info["faces"]
    # the head learns this set's faces, held near the trained one (not all fit)
    assert tileset.info["trained_accuracy"] + 0.05 < tileset.info["train_accuracy"] < 1.0


class Terminal(io.StringIO):
    """Standard error as a terminal."""

    def isatty(self) -> bool:
        return True


def test_enroll_on_a_terminal_shows_how_far_the_fit_has_got(mat_photo, tmp_path,
                                                            monkeypatch, capsys):
    photo = tmp_path / "mat.png"
    cv2.imwrite(str(photo), mat_photo)
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setattr("tablekit.commands.progress.EVERY", 0.0)
    monkeypatch.setenv("COLUMNS", "120")
    assert tablekit(["enroll", "--image", str(photo), "--out", str(tmp_path / "set")]) == 0
    written = terminal.getvalue()
    assert "\rtablekit enroll: reading the faces: " in written
    assert "\rtablekit enroll: fitting the classifier to the faces: 300/300 [" in written
    assert " left" in written
    said = written[written.index("tablekit enroll: slots empty: 3p"):]  # on a clean line
    assert written[:len(written) - len(said)].endswith("\r")
    assert "\r" not in capsys.readouterr().err   # not a terminal (the test above): nothing


def test_enroll_without_a_mat_in_view_says_so(tmp_path, capsys):
    photo = tmp_path / "felt.png"
    cv2.imwrite(str(photo), np.full((200, 300, 3), 90, np.uint8))
    assert tablekit(["enroll", "--image", str(photo), "--out", str(tmp_path / "s")]) == 2
    assert "no enrollment mat in view" in capsys.readouterr().err


@pytest.mark.parametrize("quarter", [False, True])
def test_a_face_is_cut_the_way_it_lies_though_its_outline_is_square(quarter):
    from tablekit.sim.art import load_art
    from tablekit.vision.classes import class_index
    from tablekit.vision.enroll import FeatureModel
    from tablekit.vision.enroll_mat import SCALE, TILE_MM, way_it_lies

    width, height = (round(v * SCALE) for v in TILE_MM)
    face = cv2.resize(load_art("fallback").faces["7m"], (width, height))
    if quarter:
        face = np.ascontiguousarray(np.rot90(face))
    sheet = np.full((300, 300, 3), 150, np.uint8)
    top, left = (300 - face.shape[0]) // 2, (300 - face.shape[1]) // 2
    sheet[top:top + face.shape[0], left:left + face.shape[1]] = face
    square = (80.0, 80.0, 220.0, 220.0)   # sides and shadow: the outline says neither way
    box = way_it_lies(sheet, square, class_index("7m"), FeatureModel())
    wide = box[2] - box[0] > box[3] - box[1]
    assert wide == quarter


@pytest.mark.slow
def test_a_simulated_game_with_its_set_enrolled_first(capsys):
    import json

    from tablekit.files.resources import packaged

    log = str(packaged("data", "tenhou-python-bot-28.xml"))
    assert tablekit(["simulate", log, "--reader", "vision", "--enroll", "--hands", "1"]) == 0
    said = capsys.readouterr()
    assert "classes enrolled from enrollment mat (a simulated mat)" in said.err
    summary = json.loads(said.out.splitlines()[-1])
    assert summary["enrolled"] and summary["hands"] == summary["hands_ok"] == 1
