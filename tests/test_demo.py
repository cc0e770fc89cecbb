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
    out, journal = tmp_path / "demo", tmp_path / "demo.jsonl"
    assert main(["demo", "--hands", "1", "--reader", "truth",
                 "--display", f"headless:{out}", "--journal", str(journal)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    summary = json.loads(lines[-1])
    assert summary["hands_ok"] == 1 and summary["reader"] == "truth"
    # the players by wind and name, then each hand in words, seats by wind and name
    assert lines[0] == "players: East Wanjirou, South Kaavi, West Xenia, North Ichihime"
    assert lines[1] == (
        "hand 1 of 1: East 1: exhaustive draw, tenpai: West (Xenia), North (Ichihime); "
        "East Wanjirou -1,500, South Kaavi -1,500, West Xenia +1,500, North Ichihime +1,500"
        "  -> hand-01.png")
    # the journal kept reads back: exported and replayed hand by hand
    assert main(["export", str(journal), "--format", "csv", "--out",
                 str(tmp_path / "demo.csv")]) == 0
    assert main(["replay", str(journal)]) == 0
    replayed = capsys.readouterr().out.splitlines()
    assert replayed[-1].split()[:3] == ["E1-0", "exhaustive", "draw"]
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
    assert args.reader == "vision" and args.journal is None  # no journal unless asked


def test_a_journal_the_demo_cannot_keep_is_one_line(tmp_path, capsys, dummy_video):
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["demo", "--hands", "1", "--reader", "truth", "--display",
                 f"headless:{tmp_path / 'demo'}", "--journal", str(blocker / "demo.jsonl")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith(f"tablekit demo: cannot keep the journal {blocker}")
