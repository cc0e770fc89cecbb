"""Art sets as plain folders (tablekit/sim/art.py, docs/tile-sets.md): a committed tiny set
is found through TABLEKIT_TILE_ART and rendered; a set missing a face or its licence is
refused in one line, by the loader and by the commands."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from tablekit.cli import main
from tablekit.sim import art as art_module
from tablekit.sim.art import ArtError, available_art, load_art, training_art

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "tests" / "fixtures" / "art" / "tiny"
LOG = ROOT / "tablekit" / "data" / "tenhou-python-bot-28.xml"


def _clear() -> None:
    art_module.load_art.cache_clear()
    art_module._resized.cache_clear()


@pytest.fixture
def art_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder of art sets (the tiny one copied in) first in TABLEKIT_TILE_ART, an empty
    user folder, and the caches cleared before and after."""
    folder = tmp_path / "art"
    shutil.copytree(TINY, folder / "tiny")
    monkeypatch.setenv("TABLEKIT_TILE_ART", os.pathsep.join([str(folder), str(tmp_path / "x")]))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    _clear()
    yield folder
    _clear()


def test_a_folder_set_is_found_and_read_with_its_metadata(art_dir: Path) -> None:
    assert "tiny" in available_art() and available_art()[-1] == "fallback"
    assert "tiny" not in training_art() and "fallback" in training_art()
    tiny = load_art("tiny")
    assert set(tiny.faces) == set(art_module.FACE_CODES)
    assert {face.shape for face in tiny.faces.values()} == {(32, 24, 3)}
    assert tiny.ivory == (214, 236, 240) and tiny.back == (58, 107, 31)
    assert (tiny.use, tiny.licence) == ("test", "CC0")
    red, plain = tiny.faces["0p"].astype(int), tiny.faces["5p"].astype(int)
    assert (red[..., 2] - red[..., 0]).max() > 100 > (plain[..., 2] - plain[..., 0]).max()


def test_the_first_folder_of_a_name_wins(art_dir: Path, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "other"
    shutil.copytree(TINY, other / "tiny")
    (other / "tiny" / "set.toml").write_text('face = "#000000"\n')
    monkeypatch.setenv("TABLEKIT_TILE_ART", os.pathsep.join([str(other), str(art_dir)]))
    assert load_art("tiny").ivory == (0, 0, 0)


def test_the_simulator_renders_a_folder_set_with_its_back(art_dir: Path) -> None:
    from tablekit.sim.rig import make_rig
    from tablekit.sim.script import Script
    from tablekit.sim.source import SimulatedCamera

    rig = make_rig(3, size=(320, 180), art="tiny")
    assert rig.look.art == "tiny"
    assert np.abs(np.subtract(rig.look.back, (58, 107, 31))).max() < 60
    camera = SimulatedCamera(Script.from_log(LOG), seed=3, size=(320, 180), art="tiny")
    frame = camera.render_moment(5, 0.5)
    assert frame.image.shape == (180, 320, 3) and frame.truth.tiles


@pytest.mark.parametrize(("remove", "said"), [
    ("0p.png", "lacks 1 face: 0p"), ("LICENSE", "has no licence file")])
def test_a_set_missing_a_face_or_its_licence_is_refused_in_one_line(
        art_dir: Path, remove: str, said: str) -> None:
    (art_dir / "tiny" / remove).unlink()
    with pytest.raises(ArtError, match=said) as refused:
        load_art("tiny")
    assert "\n" not in str(refused.value) and "'tiny'" in str(refused.value)


def test_a_bad_metadata_file_is_refused_in_one_line(art_dir: Path) -> None:
    (art_dir / "tiny" / "set.toml").write_text('use = "sometimes"\n')
    with pytest.raises(ArtError, match="use must be 'train' or 'test'"):
        load_art("tiny")
    (art_dir / "tiny" / "set.toml").write_text('face = "ivory"\n')
    with pytest.raises(ArtError, match="face must be '#rrggbb'"):
        load_art("tiny")


def test_sim_refuses_a_broken_or_unknown_set_in_one_line(
        art_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (art_dir / "tiny" / "7z.png").unlink()
    for name, said in (("tiny", "lacks 1 face: 7z"), ("nosuch", "not available here")):
        code = main(["sim", "snapshot", str(LOG), "--hand", "0", "--turn", "1", "--out",
                     str(tmp_path / "out"), "--size", "160x90", "--art", name])
        err = capsys.readouterr().err
        assert code == 2 and said in err and err.count("\n") == 1, err


def test_simulate_refuses_an_unknown_set_before_playing(
        art_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", str(LOG), "--art", "nosuch"]) == 2
    err = capsys.readouterr().err
    assert "tile art 'nosuch' is not available here" in err and err.count("\n") == 1


def test_the_committed_fallback_set_is_a_folder_with_its_licence() -> None:
    folder = art_module.ASSETS / "fallback"
    assert (folder / "LICENSE").is_file() and (folder / "set.toml").is_file()
    assert load_art("fallback").use == "train"
