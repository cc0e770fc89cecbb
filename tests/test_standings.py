"""Game points with uma, oka and each ruleset's rounding, checked against Tenhou's owari."""

from pathlib import Path

import pytest
from missing_packages import SHARED_MISSING

from tablekit.formats.mjlog import read_mjlog
from tablekit.formats.tenhou_check import owari_mismatch
from tablekit.rules.presets import EMA2016, TENHOU, WRC2025, with_options
from tablekit.rules.standings import game_points

LOGS = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "tenhou" / "logs"
TOP_ROOM = LOGS / "thewaxmango+mahjong-hands"


def test_tenhou_rounds_all_but_first_and_first_takes_the_rest():
    assert game_points((56400, 18800, 15400, 9400), TENHOU) == (67.0, -1.0, -25.0, -41.0)


def test_tenhou_rounds_a_half_away_from_zero():
    # from real owari: 36,500 counts as 37,000; -7,500 as -8,000
    assert game_points((-600, 36500, 18000, 46100), TENHOU) == (-51.0, 17.0, -22.0, 56.0)
    assert game_points((26900, 29200, 51400, -7500), TENHOU) == (-13.0, 9.0, 62.0, -58.0)


def test_game_points_sum_to_zero_and_follow_the_seat_order_on_ties():
    points = game_points((25000,) * 4, TENHOU, first_dealer=2)
    assert sum(points) == 0
    assert points == (-15.0, -25.0, 35.0, 5.0)  # seat 2 dealt first, so it ranks first


@pytest.mark.parametrize("rules", [EMA2016, WRC2025])
def test_tournament_rules_keep_the_hundreds_with_uma_15_5(rules):
    assert game_points((41200, 33400, 25600, 19800), rules) == (26.2, 8.4, -9.4, -25.2)


def test_tournament_ties_share_uma():
    assert game_points((30000, 30000, 30000, 30000), EMA2016) == (0.0, 0.0, 0.0, 0.0)
    assert game_points((40000, 25000, 25000, 30000), EMA2016) == (25.0, -15.0, -15.0, 5.0)


def test_a_house_rule_can_turn_rounding_off():
    rules = with_options(TENHOU, final_rounding="none")
    assert game_points((56400, 18800, 15400, 9400), rules) == (66.4, -1.2, -24.6, -40.6)


def test_penalties_come_off_the_final_score():
    points = game_points((56400, 18800, 15400, 9400), TENHOU, penalties=(20000, 0, 0, 0))
    assert points == (47.0, -1.0, -25.0, -41.0)


def test_the_committed_game_gives_its_owari():
    game = read_mjlog(Path(__file__).parents[1] / "tablekit" / "data" / "tenhou-python-bot-28.xml")
    assert owari_mismatch(game) is None


@pytest.mark.skipif(not TOP_ROOM.exists(), reason=SHARED_MISSING)
def test_every_top_room_game_gives_its_owari():
    games = [read_mjlog(p) for p in sorted(TOP_ROOM.iterdir())[:200]]
    four = [g for g in games if g.players == 4]
    assert len(four) > 100
    assert [m for g in four if (m := owari_mismatch(g))] == []
