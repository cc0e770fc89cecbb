"""The tournament timer: time left, hands left (estimated), and when time ends the game.

``rules.time_limit`` minutes after the start, the rules' ``end_of_time`` policy says how
many hands are still played: the one in play (``finish_hand``) or one more after it
(``one_more_hand``). The flow asks :func:`game_clock` what to show and ends the game with
:class:`~tablekit.game.events.GameEnded` when ``ends_now`` says so.

>>> from tablekit.rules.presets import TENHOU, with_options
>>> rules = with_options(TENHOU, time_limit=90)
>>> clock = game_clock(rules, elapsed=60 * 60, hands_played=8, time_up_hands=0)
>>> clock.remaining, clock.hands_left, clock.text
(1800, 5, '30:00 left, about 5 hands')
>>> game_clock(rules, elapsed=91 * 60, hands_played=13, time_up_hands=1).ends_now
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tablekit.rules.presets import Rules

FIRST_GUESS_SECONDS = 6 * 60  # a hand, before any has been played


@dataclass(frozen=True)
class GameClock:
    remaining: float  # seconds before time is called (negative after; inf: no limit)
    hands_left: int  # hands still expected, the policy's extra hand counted
    ends_now: bool  # time is up and the hands the policy allows are played

    @property
    def text(self) -> str:
        if self.remaining <= 0:
            plural = "s" if self.hands_left > 1 else ""
            return f"time is up: {self.hands_left} more hand{plural}" if self.hands_left \
                else "time is up"
        minutes, seconds = divmod(round(self.remaining), 60)
        plural = "s" if self.hands_left != 1 else ""
        return f"{minutes}:{seconds:02d} left, about {self.hands_left} hand{plural}"


def game_clock(rules: Rules, elapsed: float, hands_played: int, time_up_hands: int
               ) -> GameClock:
    """The clock ``elapsed`` seconds into a game with ``hands_played`` hands finished, of
    which ``time_up_hands`` finished after time was called."""
    if not rules.time_limit:
        return GameClock(math.inf, 0, False)
    remaining = rules.time_limit * 60 - elapsed
    allowed = 1 if rules.end_of_time == "finish_hand" else 2  # after time is called
    if remaining <= 0:
        left = max(allowed - time_up_hands, 0)
        return GameClock(remaining, left, left == 0)
    per_hand = elapsed / hands_played if hands_played else FIRST_GUESS_SECONDS
    expected = math.floor(remaining / per_hand) + allowed
    return GameClock(remaining, expected, False)
