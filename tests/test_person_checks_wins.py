"""The simulated person looks at every win screen before OK, as a player at the table
would: tiles shown other than those on the table are put right before points move."""

from __future__ import annotations

import functools
import json
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from test_camera_lost import camera_has_east_dealing_in
from test_flow import PINFU, Rig

import tablekit.sim.simulate
from tablekit.game.events import WinnerHand, Won
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.sim.perfect_reading import PerfectReader
from tablekit.sim.simulate import SimReport, SimulatedTable, simulate_game
from tablekit.sim.source import SimulatedCamera
from tablekit.tiles import Tile, parse_tiles

GAME = Path(__file__).parents[1] / "tablekit" / "data" / "tenhou-python-bot-28.xml"
RED_FIVE = ((Tile.from_code("0s"), 1.0),)


def reading_5s_as_red_in_the_won_hand(frame: Any, _faint: bool) -> Any:
    """The truth, but the winner's revealed 5s (hand 1, East 2: seat 1's riichi tsumo
    pinfu 345m 123p 56677899s) read surely as a red five: still a complete hand, one han
    more (aka dora), so the app scores 2,600 all where the table holds 1,300 all."""
    reading = PerfectReader().read(frame.truth, frame.timestamp)
    if frame.moment.hand != 1:
        return reading
    revealed = [t.table_xy for t in frame.truth.tiles
                if t.zone == "hand" and t.face_up and t.seat == 1 and t.code == "5s"]
    return replace(reading, tiles=tuple(
        replace(t, candidates=RED_FIVE) if any(
            abs(t.xy[0] - x) < 5 and abs(t.xy[1] - y) < 5 for x, y in revealed) else t
        for t in reading.tiles))


@pytest.mark.slow
def test_a_win_misread_into_another_valid_hand_is_put_right_before_ok(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the look the app's 4 han win (the misread red five) was confirmed: the
    wrong points moved. The person sees the red 5s that is a plain one, puts it right
    with the buttons, and the hand scores as the log; counted as put right, not as read."""
    small = functools.partial(SimulatedCamera, size=(320, 180))   # the truth is read
    monkeypatch.setattr(tablekit.sim.simulate, "SimulatedCamera", small)
    report = simulate_game(GAME, reading_5s_as_red_in_the_won_hand, max_hands=2, fps=2.0)
    assert (report.hands, report.hands_ok, report.hands_fixed) == (2, 1, 0)
    assert report.wins_put_right == 1
    assert report.mismatches == ["hand 1 (E2-1): right once a person put right the tiles "
                                 "the win screen showed"]
    summary = report.summary()
    assert summary["wins_put_right"] == 1


def test_reports_add_up_the_wins_put_right() -> None:
    total = SimReport(hands=2, hands_ok=1, wins_put_right=1)
    total.add(SimReport(hands=1, hands_ok=0, wins_put_right=1))
    assert (total.summary()["wins_put_right"], total.failed) == (2, True)


def test_the_20_game_check_totals_the_wins_put_right() -> None:
    import importlib.util

    path = Path(__file__).parents[1] / "benchmarks" / "simulate_games.py"
    spec = importlib.util.spec_from_file_location("simulate_games", path)
    assert spec is not None and spec.loader is not None
    games = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(games)
    assert "wins_put_right" in games.COUNTED
    assert json.loads(json.dumps(SimReport().summary()))["wins_put_right"] == 0


def test_a_ron_shown_with_the_wrong_payer_gets_the_true_one_s_riichi_before_ok(
        tmp_path: Path) -> None:
    """The camera registered East's discard; the log's ron is on North's. Before OK the
    person sees the wrong payer: North presses RIICHI, and the win is counted put right."""
    r = camera_has_east_dealing_in(lambda **kwargs: Rig(tmp_path, **kwargs))
    try:
        table = object.__new__(SimulatedTable)
        table.report, table.app = SimReport(), SimpleNamespace(flow=r.flow)
        hand = tuple(parse_tiles(PINFU))
        table._truth = lambda: Won((WinnerHand(2, hand, Tile.from_code("6s")),), 3)
        person = table._looks(ButtonPress(ButtonName.OK))
        assert person is not None
        assert next(person) == ButtonPress(ButtonName.RIICHI, 3)
        assert table.report.shown_win is not None   # counted put right, not read right
    finally:
        r.close()


def test_a_win_put_right_by_hand_still_gets_the_true_payer_s_riichi(tmp_path: Path) -> None:
    """Once a person has put a win right (tiles, or han and fu), the ron may still show the
    camera's payer: the seat that dealt in presses RIICHI before OK (and no one when the
    payer is right)."""
    r = camera_has_east_dealing_in(lambda **kwargs: Rig(tmp_path, **kwargs))
    try:
        table = object.__new__(SimulatedTable)
        table.report, table.app = SimReport(), SimpleNamespace(flow=r.flow)
        hand = tuple(parse_tiles(PINFU))
        north = Won((WinnerHand(2, hand, Tile.from_code("6s")),), 3)
        east = Won((WinnerHand(2, hand, Tile.from_code("6s")),), 0)
        assert list(table._payer_said(north)) == [ButtonPress(ButtonName.RIICHI, 3)]
        assert list(table._payer_said(east)) == []
    finally:
        r.close()
