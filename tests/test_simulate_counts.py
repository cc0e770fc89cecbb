"""Figures made with ``tablekit simulate`` count every hand the log plays: a hand the
simulated table never ends is a failed hand, and ``--check`` fails on it."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import tablekit.sim.simulate
from tablekit.cli import main
from tablekit.sim.script import Script
from tablekit.sim.truth import FrameTruth

LOG = Path(__file__).parents[1] / "tablekit" / "data" / "tenhou-python-bot-28.xml"


class EmptyTable:
    """A camera that sees an empty table for a few frames and then stops: no discard is
    ever seen, so the hand never ends (nothing is rendered: the test is fast)."""

    def __init__(self, script: Script, **options: Any) -> None:
        self.script, self.left = script, 8

    def read(self) -> Any:
        self.left -= 1
        return SimpleNamespace(truth=FrameTruth(1280, 720, (), {})) if self.left else None

    def presses_between(self, start: float, end: float) -> list:
        return self.script.presses_between(start, end)


def test_a_hand_that_never_ends_is_a_failed_hand_and_fails_the_check(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(tablekit.sim.simulate, "SimulatedCamera", EmptyTable)
    assert main(["simulate", str(LOG), "--hands", "2", "--check"]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    summary = json.loads(out[-1])
    assert (summary["hands"], summary["hands_ok"]) == (2, 0)   # every hand of the log
    assert summary["hands_never_ended"] == 2
    assert any("hand 0: never ended on the simulated table" in line for line in out)
    assert main(["simulate", str(LOG), "--hands", "1"]) == 0   # without --check: said only


def test_hands_0_means_every_hand_of_the_log_as_in_demo(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from tablekit.formats.tenhou import import_file

    every = len(import_file(LOG, three_players=True).hands)
    monkeypatch.setattr(tablekit.sim.simulate, "SimulatedCamera", EmptyTable)
    assert main(["simulate", str(LOG), "--hands", "0"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["hands"] == every > 1  # not 0/0 hands
    with pytest.raises(SystemExit) as refused:  # argparse's one line and usage
        main(["simulate", str(LOG), "--hands", "-1"])
    assert refused.value.code == 2
    assert "-1 hands: give a count of hands, 0 for every hand" in capsys.readouterr().err


class Terminal(io.StringIO):
    """Standard error as a terminal."""

    def isatty(self) -> bool:
        return True


def test_on_a_terminal_simulate_shows_its_progress_and_elsewhere_nothing(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(tablekit.sim.simulate, "SimulatedCamera", EmptyTable)
    assert main(["simulate", str(LOG), "--hands", "2"]) == 0
    assert "\r" not in capsys.readouterr().err     # a log or a test: as it was
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setattr("tablekit.commands.progress.EVERY", 0.0)  # every step written
    monkeypatch.setenv("COLUMNS", "120")
    assert main(["simulate", str(LOG), "--hands", "2"]) == 0
    written = terminal.getvalue()
    assert f"\rtablekit simulate: game 1/1 {LOG.name}: 0/2 hands, frame " in written
    assert "/~" in written and "] " in written and "% " in written and " left" in written
    result = f"{LOG}: 0/2 hands"
    before = written[:written.index(result)]
    assert before.endswith("\r") and before.rstrip("\r").split("\r")[-1].strip() == ""


def test_reports_add_up_the_hands_that_never_ended() -> None:
    total = tablekit.sim.simulate.SimReport(hands=3, hands_ok=3)
    total.add(tablekit.sim.simulate.SimReport(hands=2, hands_ok=1, hands_never_ended=1))
    assert (total.hands, total.hands_ok, total.hands_never_ended, total.failed) == (
        5, 4, 1, True)
    assert not tablekit.sim.simulate.SimReport(hands=2, hands_ok=2).failed


def test_the_20_game_check_counts_a_game_that_gave_no_summary_as_failed_hands(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's run that stopped before its summary (a crash, a skip) is not a game of
    no hands: each hand of its log is a failed one."""
    import importlib.util
    import subprocess

    path = Path(__file__).parents[1] / "benchmarks" / "simulate_games.py"
    spec = importlib.util.spec_from_file_location("simulate_games", path)
    assert spec is not None and spec.loader is not None
    games = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(games)
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: SimpleNamespace(
        stdout="Traceback ...\n", stderr=""))
    result = games.run_one(0, LOG, "truth", tmp_path)
    assert (result["hands"], result["hands_ok"], result["hands_never_ended"]) == (6, 0, 6)
    assert games.failed(result)
    assert not games.failed({"hands": 3, "hands_ok": 3, "mismatches": []})
