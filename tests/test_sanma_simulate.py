"""A three-player (sanma) log played on the simulated table through the app's own loop:
three hands, the Norths set aside read by the tracker as kita, each hand's score changes
as the record has them (``tablekit simulate --reader truth --check``)."""

from __future__ import annotations

import functools
import json

import pytest
from conftest import FIXTURES

import tablekit.sim.simulate
from tablekit.cli import main
from tablekit.formats.tenhou import import_file
from tablekit.game.events import Kita
from tablekit.sim.source import SimulatedCamera

GAME = FIXTURES / "mjlog" / "sanma-2022010814gm-00b9-0000-c378f5c4.xml"


@pytest.mark.slow   # about 35 s of CPU (a hand of 105 moments rendered)
def test_a_sanma_hand_with_two_kita_plays_through_the_app(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    first = import_file(GAME, three_players=True).hands[0]
    assert sum(isinstance(e, Kita) for e in first.events) == 2   # the hand has kita
    monkeypatch.setattr(tablekit.sim.simulate, "SimulatedCamera",   # small frames: quick
                        functools.partial(SimulatedCamera, size=(480, 270)))
    assert main(["simulate", str(GAME), "--reader", "truth", "--hands", "1", "--check"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert (summary["hands"], summary["hands_ok"], summary["hands_never_ended"]) == (1, 1, 0)
    assert summary["tiles_ok"] == summary["tiles_read"] > 0
