"""The presets differ where their rule books differ; club files override single options."""

import dataclasses
from pathlib import Path

import pytest

from tablekit.errors import RulesError
from tablekit.rules import EMA2016, TENHOU, WRC2025, Win, load_rules, score_hand, settle_win
from tablekit.rules.presets import PRESETS, Rules, rules_from_dict, rules_to_dict
from tablekit.rules.schema import RulesSchema

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


@pytest.mark.parametrize("text, words", [
    ("uma = [50, 50, 50, 50]", "uma must sum to 0"),
    ("uma = [true, false, false, false]", r"uma\[0\] must be a whole number, not True"),
    ("uma = [-20, -10, 10, 20]", "uma must fall from first place to last"),
    ("honba_value = 7", "honba_value must be a multiple of 300"),
    ("honba_value = 100", "honba_value must be a multiple of 300"),
    ("start_points = 0", "start_points must be at least 100"),
    ("return_points = 20000", r"return_points \(20,000\) cannot be below start_points"),
    (f"start_points = {(2 ** 63 // 100 + 1) * 100}", "start_points must be at most 1,000,000"),
    (f"start_points = {'9' * 3900}", "start_points must be at most 1,000,000"),
    (f"start_points = {'9' * 5000}", "line 1 is over 4,000 characters"),
    (f"uma = {'[' * 5000}{']' * 5000}", "line 1 is over 4,000 characters"),
    ("uma = " + "[\n" * 5000 + "]\n" * 5000, "nested too deeply"),
    (".".join(["a"] * 5000) + " = 1", "line 1 is over 4,000 characters"),
    ('name = "Thursday\\u001b[2J"', r"name holds a control character \(U\+001B\)"),
    ('name = "Thursday\\u202e"', "name holds an invisible format character"),
    ("time_limit = 1.5", "time_limit must be a whole number"),
    ('notes = "one"', "notes must be a list"),
    ('base = ["tenhou"]', "is not a preset"),
])
def test_nonsense_in_a_club_file_is_one_line_naming_the_option(tmp_path, text, words):
    club = tmp_path / "club.toml"
    club.write_text(text + "\n")
    with pytest.raises(RulesError, match=words) as refused:
        load_rules(club)
    assert len(str(refused.value).splitlines()) == 1 and len(str(refused.value)) < 200


def test_a_club_file_is_read_with_a_byte_order_mark_and_its_name_in_nfc(tmp_path):
    club = tmp_path / "club.toml"
    club.write_bytes("\ufeffname = \"Jose\u0301's\"\nkiriage = true\n".encode())
    rules = load_rules(club)
    assert (rules.name, rules.kiriage) == ("José's", True)


def test_examples_club_file_and_every_preset_pass_the_schema():
    for rules in PRESETS.values():
        assert rules_from_dict(rules_to_dict(rules)) == rules
    assert load_rules(Path(__file__).parents[1] / "examples" / "club.toml").kiriage


def test_the_schema_declares_every_rule_option():
    assert set(RulesSchema.model_fields) == {f.name for f in dataclasses.fields(Rules)}


def test_missing_file_is_named():
    with pytest.raises(RulesError, match="does not exist"):
        load_rules("nowhere.toml")
