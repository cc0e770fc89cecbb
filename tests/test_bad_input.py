"""Bad input at the command line: one line naming the problem, exit status 2, no traceback;
devices that fail at start fall back with one line. docs/bad-input.md lists the same cases."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import types
from pathlib import Path

import pytest

from tablekit.cli import main
from tablekit.commands.devices import open_buttons, open_display
from tablekit.commands.run import _open_camera

ROOT = Path(__file__).resolve().parents[1]
BAD_INPUTS = [
    (["replay", "--check", "nowhere/"], "tablekit replay: nowhere: no such file or folder"),
    (["replay", "game.xml"], "tablekit replay: game.xml: no such file or folder"),
    (["simulate", "game.xml"], "tablekit simulate: game.xml: no such file"),
    (["export", "MISSING.jsonl", "--out", "x.jsonl"],
     "tablekit export: MISSING.jsonl: no such file"),
    (["detect", "MISSING.png"], "tablekit detect: MISSING.png: no such file"),
    (["detect", "."], "tablekit detect: .: is a folder, not a file"),
    (["score", "234m567p345s11s", "--win", "1s", "--rules", "club.toml"],
     "tablekit score: rules file club.toml does not exist"),
]


@pytest.mark.parametrize(("argv", "line"), BAD_INPUTS, ids=lambda v: " ".join(v)[:40])
def test_bad_input_is_one_line_and_status_2(argv, line, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err.strip() == line
    assert not (tmp_path / "x.jsonl").exists()


def test_detect_refuses_a_file_that_is_not_an_image(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("notes.png").write_text("not a picture")
    assert main(["detect", "notes.png"]) == 2
    assert capsys.readouterr().err.strip() == (
        "tablekit detect: notes.png: not an image tablekit can read")


def test_a_journal_that_cannot_be_written_is_one_line(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    argv = ["run", "--journal", str(blocker / "game.jsonl"), "--camera", "none",
            "--buttons", "none", "--display", f"headless:{tmp_path}", "--frames", "1"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("tablekit: journal: ") and len(err.splitlines()) == 1


def test_picamera2_raising_a_value_error_is_one_line_and_no_camera(monkeypatch):
    module = types.ModuleType("picamera2")
    module.Picamera2 = lambda: (_ for _ in ()).throw(  # type: ignore[attr-defined]
        ValueError("numpy.dtype size changed, may indicate binary incompatibility"))
    monkeypatch.setitem(sys.modules, "picamera2", module)
    monkeypatch.setattr("tablekit.vision.rpicam.rpicam_program", lambda: None)
    lines: list[str] = []
    assert _open_camera("picamera2", report=lines.append) == (None, None)
    assert len(lines) == 1 and "ValueError: numpy.dtype size changed" in lines[0]


def test_a_display_that_fails_falls_back_to_png_in_the_state_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    monkeypatch.chdir(tmp_path)
    lines: list[str] = []
    display = open_display("headless:/proc/no/such/folder", None, lines.append)
    assert display.folder == tmp_path / "state" / "screens"
    assert len(lines) == 1 and lines[0].startswith("display: ")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("display", ["auto", "headless"])
def test_without_a_window_the_scoreboard_goes_to_one_place_said_at_start(
        display, tmp_path, monkeypatch, capsys):
    for name in ("DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    monkeypatch.setattr("tablekit.commands.devices.on_raspberry_pi", lambda: False)
    monkeypatch.chdir(tmp_path)
    for _ in range(2):  # the second time too
        assert main(["run", "--display", display, "--camera", "none", "--buttons", "none",
                     "--journal", str(tmp_path / "game.jsonl"), "--frames", "1"]) == 0
        shown = tmp_path / "state" / "screens" / "scoreboard.png"
        assert (f"tablekit: display: no window; the scoreboard goes to {shown}"
                in capsys.readouterr().err.splitlines())
        assert shown.is_file() and not (tmp_path / "out").exists()


def test_a_broken_pin_map_falls_back_to_the_keyboard(tmp_path):
    pinout = tmp_path / "pinout.toml"
    pinout.write_text("[seat.0]\nriichi = 99\n")
    lines: list[str] = []
    board, keyboard = open_buttons("gpio", queue.Queue(), lines.append, pinout)
    assert board is None and keyboard is not None
    assert len(lines) == 1 and lines[0].startswith("buttons: ")


def test_a_window_without_a_screen_says_so(tmp_path):
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env.update(PYTHONPATH=str(ROOT), STATE_DIRECTORY=str(tmp_path / "state"))
    result = subprocess.run(
        [sys.executable, "-m", "tablekit.cli", "run", "--display", "window", "--camera", "none",
         "--buttons", "none", "--journal", str(tmp_path / "game.jsonl"), "--frames", "2"],
        capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "display: no screen here to open a window on" in result.stderr
    assert "Traceback" not in result.stderr
    assert (tmp_path / "state" / "screens" / "scoreboard.png").is_file()
