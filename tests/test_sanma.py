"""Three-player riichi (sanma): the ``tenhou-sanma`` preset checked against Tenhou's records,
a club's three-player rules file, the tsumo payment variants, and three-player wins scored
against Tenhou's results (a committed sample; the whole of agari.jsonl with the shared data).

The sample ``fixtures/agari_sanma_sample.jsonl`` holds 35 three-player wins of
``../shared/data/tenhou/agari.jsonl`` (GO type 0xb9), trimmed as ``agari_sample.jsonl`` is.
"""

import itertools
import json

import pytest
from conftest import FIXTURES

from tablekit.cli import main
from tablekit.errors import InvalidHand, RulesError
from tablekit.formats.agari_records import check_record, read_records, summarise
from tablekit.rules import TENHOU, TENHOU_SANMA, Win, score_hand, settle_win, with_options
from tablekit.rules.payments import hand_payment
from tablekit.rules.presets import PRESETS, load_rules, rules_from_dict, rules_to_dict
from tablekit.rules.scoring import HandValue
from tablekit.rules.standings import game_points

SAMPLE = FIXTURES / "agari_sanma_sample.jsonl"


def record(record_id):
    return next(r for r in read_records(SAMPLE) if r["id"] == record_id)


def test_start_points_are_tenhous():
    # aab2e8126ece1769 (E1-1 of a 0xb9 game): INIT ten="350,350,350,0"
    assert record("aab2e8126ece1769")["result"]["scores_before"][:3] == [35000] * 3
    assert TENHOU_SANMA.start_points == 35000 and TENHOU_SANMA.players == 3


def test_return_points_oka_and_uma_give_tenhous_owari():
    # 2022011300gm-00b9-0000-ef54389d (record 104cccc676309a5f of agari.jsonl):
    # owari="321,-8.0,507,46.0,222,-38.0,0,0.0"
    assert game_points((32100, 50700, 22200), TENHOU_SANMA) == (-8.0, 46.0, -38.0)
    assert (TENHOU_SANMA.return_points, TENHOU_SANMA.uma, TENHOU_SANMA.oka) == (
        40000, (20, 0, -20), 15000)


def test_honba_are_200_on_a_ron_and_100_from_each_payer_on_a_tsumo():
    ron = record("df1cfa001f49ed57")  # a 12,000 ron at 3 honba: 12,600
    assert ron["result"]["sc_deltas"][:2] == [-12600, 12600]
    tsumo = record("63b9ec7179f736f7")  # 3 han 30 fu non-dealer tsumo at 3 honba
    assert tsumo["result"]["sc_deltas"] == [3600, -2300, -1300, 0]
    assert TENHOU_SANMA.honba_value == 200
    value = score_hand(Win.parse("123p456p789s11s", "9s", melds=["pon:777z"]), TENHOU_SANMA)
    assert hand_payment(value, honba=3, sticks=0, rules=TENHOU_SANMA).ron == 1000 + 600


def test_noten_payment_is_2000_in_all():
    # ryuukyoku.jsonl d110b4ed7087a0bb (dnovikoff/tenhou sanma2.xml E2-1): one tenpai,
    # sc="310,-10,530,20,200,-10,0,0": +2,000 from 1,000 each
    assert TENHOU_SANMA.noten_payment == 2000


def test_kita_counts_as_dora_and_the_indicator_counts_it_again():
    # A West indicator makes North the dora: each kita is then two dora.
    plain = Win.parse("123p456p789s11s555z", "5z", seat_wind=1, kita=2, dora="4z")
    west = Win.parse("123p456p789s11s555z", "5z", seat_wind=1, kita=2, dora="3z")
    assert score_hand(plain, TENHOU_SANMA).dora == 2
    assert score_hand(west, TENHOU_SANMA).dora == 4


def test_describe_lists_the_three_player_choices():
    lines = dict(TENHOU_SANMA.describe())
    assert lines["Players"] == "three (no 2m-8m, no chi)"
    assert lines["Tsumo"].startswith("tsumo loss")
    assert lines["North"].startswith("kita")
    assert lines["Uma"] == "+20/+0/-20"
    assert lines["Honba"] == "200 (100 from each payer on a tsumo)"
    assert "Players" not in dict(TENHOU.describe())


def test_four_player_presets_and_journals_are_unchanged():
    assert "tenhou-sanma" not in PRESETS  # the table deals four: not offered there yet
    assert "players" not in rules_to_dict(TENHOU)
    assert rules_from_dict(rules_to_dict(TENHOU_SANMA)) == TENHOU_SANMA
    assert rules_from_dict({"base": "tenhou-sanma"}) == TENHOU_SANMA


@pytest.mark.parametrize("text, expected", [
    ('base = "tenhou-sanma"', ("loss", "kita", (20, 0, -20))),
    ('base = "tenhou-sanma"\ntsumo_payment = "bisection"\nnorth = "yakuhai"',
     ("bisection", "yakuhai", (20, 0, -20))),
    ('players = 3\ntsumo_payment = "full"\nnorth = "kita"\nstart_points = 35000\n'
     "return_points = 35000\numa = [15, 0, -15]\nhonba_value = 1000\nnoten_payment = 3000",
     ("full", "kita", (15, 0, -15))),
])
def test_a_three_player_club_file_is_read(tmp_path, text, expected):
    club = tmp_path / "club.toml"
    club.write_text(text + "\n")
    rules = load_rules(club)
    assert (rules.tsumo_payment, rules.north, rules.uma) == expected and rules.players == 3


@pytest.mark.parametrize("text, words", [
    ('base = "tenhou-sanma"\numa = [20, 10, -10, -20]',
     r"uma must be three whole numbers \(one per place with players = 3\)"),
    ('base = "tenhou-sanma"\numa = [20, 0, -10]', "uma must sum to 0"),
    ('tsumo_payment = "loss"', "tsumo_payment is a three-player option: it needs players = 3"),
    ('north = "kita"', "north is a three-player option"),
    ("players = 5", "players must be one of 3 or 4"),
    ('base = "tenhou-sanma"\ntsumo_payment = "half"', "tsumo_payment must be one of"),
    ('base = "tenhou-sanma"\nhonba_value = 300', "honba_value must be a multiple of 200"),
    ('base = "tenhou-sanma"\nnoten_payment = 3100', "noten_payment must be a multiple of 200"),
    ('players = 3\ntsumo_payment = "loss"\numa = [20, 0, -20]\nhonba_value = 200\n'
     "noten_payment = 2000", r"players = 3 needs north \(\"kita\" or \"yakuhai\"\)"),
])
def test_three_player_nonsense_is_one_line(tmp_path, text, words):
    club = tmp_path / "club.toml"
    club.write_text(text + "\n")
    with pytest.raises(RulesError, match=words) as refused:
        load_rules(club)
    assert len(str(refused.value).splitlines()) == 1


def value(base, dealer=False):
    return HandValue(han=5, fu=30, yaku=(), fu_items=(), limit="", base=base, yakuman=0,
                     is_dealer=dealer, tsumo=True)


@pytest.mark.parametrize("way, non_dealer_win, dealer_win, small", [
    ("loss", [-4000, 6000, -2000], [8000, -4000, -4000], [-1000, 1500, -500]),
    ("bisection", [-5000, 8000, -3000], [12000, -6000, -6000], [-1200, 2000, -800]),
    ("full", [-4000, 8000, -4000], [12000, -6000, -6000], [-1000, 2000, -1000]),
])
def test_tsumo_payment_variants(way, non_dealer_win, dealer_win, small):
    rules = with_options(TENHOU_SANMA, tsumo_payment=way)
    assert settle_win(value(2000), 1, 0, None, 0, 0, rules) == non_dealer_win
    assert settle_win(value(2000, dealer=True), 0, 0, None, 0, 0, rules) == dealer_win
    assert settle_win(value(480), 1, 0, None, 0, 0, rules) == small  # 2 han 30 fu
    paid = hand_payment(value(480), honba=1, sticks=0, rules=rules)
    assert paid.total == small[1] + 200  # 100 honba from each of the two payers


def test_a_ron_and_double_ron_pay_as_with_four():
    rules = TENHOU_SANMA
    ron = HandValue(han=5, fu=30, yaku=(), fu_items=(), limit="mangan", base=2000,
                    yakuman=0, is_dealer=False, tsumo=False)
    assert settle_win(ron, 1, 0, 2, 1, 1, rules) == [0, 9200, -8200]


def test_three_player_hands_refuse_what_the_set_lacks():
    for hand, flags, words in [
        ("123456m234789s11z", {}, "no 2m-8m"),
        ("123p456p789s11z", {"melds": ["chi:789s"]}, "no chi"),
        ("123456p234789s11z", {"seat_wind": 3}, "no North seat"),
    ]:
        with pytest.raises(InvalidHand, match=words):
            score_hand(Win.parse(hand, "1z", riichi=not flags.get("melds"), **flags),
                       TENHOU_SANMA)
    with pytest.raises(InvalidHand, match="not played with four players"):
        score_hand(Win.parse("123456p234789s11z", "1z", riichi=True, kita=1), TENHOU)


def test_north_as_yakuhai_for_everyone():
    yakuhai = with_options(TENHOU_SANMA, north="yakuhai")
    pon = Win.parse("123p456p789s11s", "9s", melds=["pon:444z"], seat_wind=1)
    assert [y.name for y in score_hand(pon, yakuhai).yaku] == ["north"]
    with pytest.raises(InvalidHand, match="no yaku"):
        score_hand(pon, TENHOU_SANMA)
    pair = Win.parse("123456p234789s44z", "9s", seat_wind=1, riichi=True)
    assert (score_hand(pair, yakuhai).fu, score_hand(pair, TENHOU_SANMA).fu) == (40, 30)
    double_east = Win.parse("123456p234789s11z", "9s", seat_wind=0, riichi=True)
    assert score_hand(double_east, yakuhai).fu == score_hand(double_east, TENHOU_SANMA).fu
    with pytest.raises(InvalidHand, match='north = "yakuhai"'):
        score_hand(Win.parse("123p456p789s11s", "9s", melds=["pon:777z"], kita=1), yakuhai)


def test_committed_three_player_wins_match_tenhou_exactly():
    checks = [check_record(r) for r in read_records(SAMPLE)]
    bad = [(c.record_id, c.mismatches) for c in checks if not c.ok]
    assert not bad
    assert summarise(checks)["by_players"] == {"3p": {"checked": 35, "matched": 35}}


def test_a_wrong_three_player_rule_is_caught():
    bisection = with_options(TENHOU_SANMA, tsumo_payment="bisection")
    checks = [check_record(r, bisection) for r in read_records(SAMPLE)]
    assert any("score changes" in m for c in checks for m in c.mismatches)


def test_three_player_wins_of_the_shared_data_match_tenhou(shared_data):
    records = (r for r in read_records(shared_data / "tenhou" / "agari.jsonl")
               if r["rules"]["players"] == 3)
    checks = [check_record(r) for r in itertools.islice(records, 600)]
    assert len(checks) == 600
    assert not [(c.record_id, c.mismatches) for c in checks if not c.ok][:5]


def test_score_command_for_three_players(capsys):
    assert main(["score", "11999m234p567s666z", "--win", "6z", "--players", "3", "--kita",
                 "2", "--tsumo", "--dora", "1m", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["rules"], out["dora"], out["pays"], out["total"]) == (
        "tenhou-sanma", 5, {"dealer": 6000, "non_dealer": 3000}, 9000)
    assert main(["score", "11999m234p567s666z", "--win", "6z", "--rules", "tenhou-sanma",
                 "--tsumo"]) == 0
    assert "dealer pays 1,300, the other 700" in capsys.readouterr().out


@pytest.mark.parametrize("args, words", [
    (["--players", "3", "--rules", "tenhou"], "--players 3 needs three-player rules"),
    (["--kita", "1"], "not played with four players"),
    (["--players", "3", "--seat-wind", "N"], "no North seat"),
    (["--players", "3", "--kita", "5"], "kita must be 0-4"),
])
def test_score_command_refuses_three_player_nonsense_in_one_line(capsys, args, words):
    assert main(["score", "11999m234p567s666z", "--win", "6z", *args]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1
