"""The presets differ where their rule books differ; club files override single options."""

import pytest

from tablekit.errors import RulesError
from tablekit.rules import EMA2016, TENHOU, WRC2025, Win, load_rules, score_hand, settle_win

RED_FIVE_HAND = Win.parse("234067m234p67899s", win_tile="6s", riichi=True)
# dealer, East round, East pair, closed triplet, kanchan:
# 20+2+4+4+2 = 32 -> 40 fu on Tenhou, 30 fu with a 2-fu double-wind pair
DOUBLE_WIND = Win.parse("222456m345p678s11z", win_tile="5m", tsumo=True, riichi=True,
                        seat_wind=0, round_wind=0)


def test_every_preset_lists_every_choice():
    for rules in (TENHOU, EMA2016, WRC2025):
        labels = [label for label, _ in rules.describe()]
        assert len(labels) == len(set(labels)) >= 20
        assert rules.source


def test_red_fives_count_on_tenhou_only():
    assert score_hand(RED_FIVE_HAND, TENHOU).red == 1
    assert score_hand(RED_FIVE_HAND, EMA2016).red == 0
    assert score_hand(RED_FIVE_HAND, TENHOU).han == score_hand(RED_FIVE_HAND, EMA2016).han + 1


def test_double_wind_pair_is_4_fu_on_tenhou_and_2_on_wrc():
    tenhou, wrc = score_hand(DOUBLE_WIND, TENHOU), score_hand(DOUBLE_WIND, WRC2025)
    assert (tenhou.fu, wrc.fu) == (40, 30)
    assert settle_win(tenhou, 0, 0, None, 0, 0, TENHOU) == [3900, -1300, -1300, -1300]
    assert settle_win(wrc, 0, 0, None, 0, 0, WRC2025) == [3000, -1000, -1000, -1000]


def test_kazoe_is_yakuman_on_tenhou_and_sanbaiman_under_ema():
    hand = Win.parse("22334455667788p", win_tile="7p", riichi=True, tsumo=True, dora="1p")
    tenhou, ema = score_hand(hand, TENHOU), score_hand(hand, EMA2016)
    assert tenhou.han >= 13 and tenhou.limit == "kazoe yakuman" and tenhou.base == 8000
    assert ema.limit == "sanbaiman" and ema.base == 6000


def test_yakuman_stack_on_tenhou_but_not_under_ema():
    hand = Win.parse("11122233344455z", win_tile="5z", tsumo=True)  # daisuushii + tsuuiisou + ...
    tenhou, ema = score_hand(hand, TENHOU), score_hand(hand, EMA2016)
    assert tenhou.yakuman >= 3 and ema.yakuman == 1


def test_club_file_overrides_a_preset(tmp_path):
    club = tmp_path / "club.toml"
    club.write_text('base = "ema2016"\nname = "Thursday"\nkiriage = true\n'
                    "uma = [30, 10, -10, -30]\n")
    rules = load_rules(club)
    assert (rules.name, rules.kiriage, rules.uma, rules.red_fives) == (
        "Thursday", True, (30, 10, -10, -30), False)
    four_thirty = Win.parse("234567m234p67899s", win_tile="6s", riichi=True, dora="1m3p")
    assert score_hand(four_thirty, rules).base == 2000
    assert score_hand(four_thirty, EMA2016).base == 1920


@pytest.mark.parametrize("text, words", [
    ('kiriage = "yes"', "kiriage must be bool"),
    ("colour = 3", "unknown rule option 'colour'"),
    ('base = "mleague"', "not a preset"),
    ('kazoe = "double"', "kazoe must be one of"),
    ("uma = [10, 20]", "uma must be four whole numbers"),
    ("honba_value = -300", "cannot be negative"),
    ("kiriage = ", "not valid TOML"),
])
def test_broken_club_files_are_refused_clearly(tmp_path, text, words):
    club = tmp_path / "club.toml"
    club.write_text(text + "\n")
    with pytest.raises(RulesError, match=words):
        load_rules(club)


def test_missing_file_is_named():
    with pytest.raises(RulesError, match="does not exist"):
        load_rules("nowhere.toml")
