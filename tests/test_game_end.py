"""How games end under each preset: the last hand, the extension, a dealer who keeps the deal."""

from dataclasses import replace

from tablekit.game.progression import finish_hand
from tablekit.game.state import HandResult, Phase, TableState
from tablekit.rules.presets import EMA2016, TENHOU, with_options

EAST_ONLY = with_options(TENHOU, length="tonpuusen")


def _hand(rules, wind, number, scores):
    state = TableState.new(rules)
    return replace(state, round_wind=wind, hand_number=number, scores=scores,
                   phase=Phase.HAND_IN_PLAY)


def test_east_only_goes_south_when_nobody_has_30000():
    state = _hand(EAST_ONLY, 0, 3, (26000, 24000, 25000, 25000))
    after = finish_hand(state, HandResult("exhaustive_draw", (0, 0, 0, 0)), False)
    assert after.phase is Phase.HAND_OVER and after.round_label == "South 1"


def test_in_the_extension_a_dealer_who_keeps_the_deal_plays_on():
    # a real East-only game: South 1 drawn, a non-dealer on 30,800, the dealer tenpai
    state = _hand(EAST_ONLY, 1, 0, (22200, 30800 - 1500, 23500 - 1500, 20500 + 3000))
    drawn = HandResult("exhaustive_draw", (1500, 1500, 1500, -4500), tenpai=(0, 1, 2))
    after = finish_hand(state, drawn, dealer_continues=True)
    assert after.scores[1] == 30800
    assert after.phase is Phase.HAND_OVER and after.round_label == "South 1"
    assert after.honba == 1


def test_in_the_extension_30000_ends_the_game_when_the_deal_passes():
    state = _hand(EAST_ONLY, 1, 0, (22200, 29300, 22000, 26500))
    drawn = HandResult("exhaustive_draw", (-1500, 1500, -1500, 1500), tenpai=(1, 3))
    after = finish_hand(state, drawn, dealer_continues=False)
    assert after.phase is Phase.GAME_OVER
    assert after.end_reason == "South reached 30,800 in the extra round"


def test_a_leading_dealer_on_30000_stops_after_a_last_hand_win_or_tenpai():
    state = _hand(TENHOU, 1, 3, (20000, 20000, 20000, 40000))  # seat 3 deals South 4
    won = finish_hand(state, HandResult("win", (-1000, 0, 0, 1000)), True)
    assert won.phase is Phase.GAME_OVER
    tenpai = finish_hand(state, HandResult("exhaustive_draw", (-1000, -1000, -1000, 3000),
                                           tenpai=(3,)), True)
    assert tenpai.phase is Phase.GAME_OVER
    behind = _hand(TENHOU, 1, 3, (20000, 20000, 40000, 20000))
    again = finish_hand(behind, HandResult("win", (-1000, 0, 0, 1000)), True)
    assert again.phase is Phase.HAND_OVER and again.round_label == "South 4"


def test_ema_plays_south_4_to_the_end_without_an_extension():
    state = _hand(EMA2016, 1, 3, (25000, 25000, 25000, 45000))
    passed = finish_hand(state, HandResult("exhaustive_draw", (1000, 1000, 1000, -3000),
                                           tenpai=(0, 1, 2)), False)
    assert passed.phase is Phase.GAME_OVER
    low = _hand(EMA2016, 1, 3, (29000, 29000, 29000, 33000))
    assert finish_hand(low, HandResult("exhaustive_draw", (0, 0, 0, 0)),
                       False).phase is Phase.GAME_OVER
