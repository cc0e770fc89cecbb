"""Pao, multiple ron and stick handling, checked against real Tenhou results."""

import pytest

from tablekit.errors import InvalidHand
from tablekit.rules import EMA2016, TENHOU, WRC2025, Claim, Win, score_hand, settle_ron, settle_win

DRAGON_PONS = ["pon:555z", "pon:666z"]
DAISANGEN = Win.parse("777z123m99p", win_tile="7z", melds=DRAGON_PONS, tsumo=True, seat_wind=2)
DAISANGEN_RON = Win.parse("777z123m99p", win_tile="7z", melds=DRAGON_PONS, seat_wind=3)


def test_pao_tsumo_the_liable_player_pays_everything_with_honba():
    value = score_hand(DAISANGEN, TENHOU)
    # the recorded Tenhou game: winner 2, dealer 1, liable 0, one honba
    assert settle_win(value, 2, 1, None, 1, 0, TENHOU, pao_seat=0) == [-32300, 0, 32300, 0]


def test_pao_ron_liable_player_and_discarder_split():
    value = score_hand(DAISANGEN_RON, TENHOU)
    assert settle_win(value, 3, 1, 2, 0, 0, TENHOU, pao_seat=0) == [-16000, 0, -16000, 32000]
    # the discarder alone pays the honba
    assert settle_win(value, 3, 1, 2, 2, 0, TENHOU, pao_seat=0) == [-16000, 0, -16600, 32600]
    # liable player who also deals in pays it all
    assert settle_win(value, 3, 1, 0, 0, 0, TENHOU, pao_seat=0) == [-32000, 0, 0, 32000]


def test_no_pao_under_rules_without_it():
    from tablekit.rules import with_options
    value = score_hand(DAISANGEN, TENHOU)
    deltas = settle_win(value, 2, 1, None, 0, 0, with_options(TENHOU, pao=False), pao_seat=0)
    assert deltas == [-8000, -16000, 32000, -8000]


def ron_value(hand, win, seat_wind):
    return score_hand(Win.parse(hand, win_tile=win, seat_wind=seat_wind), TENHOU)


def claims():
    near = Claim(1, ron_value("234567m234p67899s", "6s", 1))    # pinfu: 1,000
    far = Claim(3, ron_value("234m567p345s11s777z", "1s", 3))    # chun, 40 fu: 1,300
    return [far, near]


def test_double_ron_tenhou_honba_and_sticks_to_the_nearest_winner():
    deltas = settle_ron(claims(), discarder=0, dealer=0, honba=1, sticks=2, rules=TENHOU)
    assert deltas == [-2600, 3300, 0, 1300]


def test_double_ron_ema_pays_honba_to_each_winner():
    deltas = settle_ron(claims(), discarder=0, dealer=0, honba=1, sticks=2, rules=EMA2016)
    assert deltas == [-2900, 3300, 0, 1600]


def test_head_bump_under_wrc_only_the_nearest_wins():
    deltas = settle_ron(claims(), discarder=0, dealer=0, honba=1, sticks=2, rules=WRC2025)
    assert deltas == [-1300, 3300, 0, 0]


def test_triple_ron_is_not_a_win_on_tenhou():
    third = Claim(2, ron_value("234567m234p67899s", "6s", 2))
    with pytest.raises(InvalidHand, match="triple ron"):
        settle_ron([*claims(), third], discarder=0, dealer=0, honba=0, sticks=0, rules=TENHOU)
    assert sum(settle_ron([*claims(), third], 0, 0, 0, 0, EMA2016)) == 0


def test_bad_ron_claims_are_refused():
    with pytest.raises(InvalidHand):
        settle_ron([], discarder=0, dealer=0, honba=0, sticks=0, rules=TENHOU)
    with pytest.raises(InvalidHand):
        settle_ron([Claim(0, ron_value("234567m234p67899s", "6s", 0))], 0, 0, 0, 0, TENHOU)


def test_points_are_conserved():
    for honba in range(3):
        for sticks in range(3):
            deltas = settle_ron(claims(), 0, 0, honba, sticks, TENHOU)
            assert sum(deltas) == sticks * 1000
