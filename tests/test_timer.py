"""The tournament timer: hands left, and the end-of-time policies."""

import math

import pytest

from tablekit.game.timer import game_clock
from tablekit.rules.presets import TENHOU, RulesError, with_options


def test_no_limit_never_ends_the_game():
    clock = game_clock(TENHOU, elapsed=10_000, hands_played=30, time_up_hands=0)
    assert clock.remaining == math.inf and not clock.ends_now


def test_hands_left_follow_the_pace_so_far():
    rules = with_options(TENHOU, time_limit=75)
    early = game_clock(rules, elapsed=0, hands_played=0, time_up_hands=0)
    assert early.hands_left == 75 // 6 + 1  # six minutes a hand until one is played
    slow = game_clock(rules, elapsed=45 * 60, hands_played=5, time_up_hands=0)
    assert slow.hands_left == 3 + 1  # 9 minutes a hand: 30 minutes hold 3, then the last


def test_finish_the_hand_in_play_when_time_is_called():
    rules = with_options(TENHOU, time_limit=75, end_of_time="finish_hand")
    called = game_clock(rules, elapsed=76 * 60, hands_played=10, time_up_hands=0)
    assert not called.ends_now and called.hands_left == 1
    assert called.text == "time is up: 1 more hand"
    assert game_clock(rules, elapsed=80 * 60, hands_played=11, time_up_hands=1).ends_now


def test_or_play_one_more_hand():
    rules = with_options(TENHOU, time_limit=75, end_of_time="one_more_hand")
    assert not game_clock(rules, elapsed=80 * 60, hands_played=11, time_up_hands=1).ends_now
    assert game_clock(rules, elapsed=85 * 60, hands_played=12, time_up_hands=2).ends_now


def test_the_policy_is_checked():
    with pytest.raises(RulesError, match="end_of_time"):
        with_options(TENHOU, end_of_time="sudden_death")
