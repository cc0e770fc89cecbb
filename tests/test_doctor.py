"""``tablekit doctor``: one line a check, exit 0 when everything needed works."""

from __future__ import annotations

import shutil
from pathlib import Path

from tablekit.cli import main

PHOTO = Path(__file__).parent / "fixtures" / "vision" / "hust_tray.jpg"


def test_doctor_lists_every_check_and_passes_here(tmp_path, capsys) -> None:
    (tmp_path / "frames").mkdir()
    shutil.copy(PHOTO, tmp_path / "frames" / "a.jpg")
    status = main(["doctor", "--journal", str(tmp_path / "game.jsonl"),
                   "--camera", f"folder:{tmp_path / 'frames'}"])
    lines = capsys.readouterr().out.splitlines()
    names = [line[5:].split(":")[0] for line in lines]
    for name in ("versions", "machine", "camera", "pin map", "display", "kmsdrm libraries",
                 "model", "journal", "calibration", "tile set"):
        assert name in names
    assert all(line[:4] in ("OK  ", "FIX ", "--  ") for line in lines)
    assert any(line.startswith("OK   camera:") and "330x150" in line for line in lines)
    assert names.count("model") == 5  # two detectors, two classifiers, the box refiner
    assert status == (1 if any(line.startswith("FIX") for line in lines) else 0)


def test_doctor_fails_with_a_fix_for_a_broken_pin_map(tmp_path, capsys) -> None:
    pinout = tmp_path / "pinout.toml"
    pinout.write_text("[seat.0]\nriichi = 99\n")
    assert main(["doctor", "--pinout", str(pinout), "--journal",
                 str(tmp_path / "game.jsonl")]) == 1
    out = capsys.readouterr().out
    assert "FIX  gpio:" in out and "Traceback" not in out


def test_doctor_names_the_tile_set_and_a_broken_one(tmp_path, capsys) -> None:
    assert main(["doctor", "--journal", str(tmp_path / "game.jsonl"), "--tileset",
                 str(tmp_path / "nowhere")]) == 1
    out = capsys.readouterr().out
    assert "FIX  tile set: no tile set at" in out and "tablekit enroll" in out
