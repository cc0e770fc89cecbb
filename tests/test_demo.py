"""The README's main command, on one hand: headless scoreboards and the animation."""

import json
import os

import pytest

from tablekit.cli import main


@pytest.fixture
def dummy_video(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.delenv("DISPLAY", raising=False)


@pytest.mark.slow
def test_demo_plays_a_hand_and_writes_the_scoreboard(tmp_path, capsys, dummy_video):
    out = tmp_path / "demo"
    assert main(["demo", "--hands", "1", "--display", f"headless:{out}"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert json.loads(lines[-1])["hands_ok"] == 1
    assert "hand-01.png" in lines[0]
    for name in ("hand-01.png", "final.png", "demo.mp4"):
        assert (out / name).stat().st_size > 10_000, name
    assert os.environ["SDL_VIDEODRIVER"] == "dummy"
