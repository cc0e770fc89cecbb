"""The README's main command, on one hand: headless scoreboards and the animation."""

import json
import os

import cv2
import pytest

from tablekit.cli import main


@pytest.fixture
def dummy_video(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.delenv("DISPLAY", raising=False)


@pytest.mark.slow
def test_demo_plays_a_hand_and_writes_the_scoreboard(tmp_path, capsys, dummy_video):
    out = tmp_path / "demo"
    assert main(["demo", "--hands", "1", "--reader", "truth",
                 "--display", f"headless:{out}"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    summary = json.loads(lines[-1])
    assert summary["hands_ok"] == 1 and summary["reader"] == "truth"
    assert lines[0].startswith("hand 1 of 1:") and "hand-01.png" in lines[0]
    for name in ("hand-01.png", "final.png", "demo.mp4"):
        assert (out / name).stat().st_size > 10_000, name
    # the last hand keeps its own screen (the draw's tenpai declarations), not the final one
    assert (out / "hand-01.png").read_bytes() != (out / "final.png").read_bytes()
    # the animation covers the whole hand: every camera frame, then the confirmation held
    video = cv2.VideoCapture(str(out / "demo.mp4"))
    assert video.get(cv2.CAP_PROP_FRAME_COUNT) >= summary["frames"]
    assert os.environ["SDL_VIDEODRIVER"] == "dummy"


def test_demo_reads_with_the_models_by_default():
    from tablekit.cli import build_parser

    args = build_parser().parse_args(["demo"])
    assert args.reader == "vision"
