"""Game points: the final scores with return points, oka and uma, rounded as each ruleset says.

Tenhou rounds every player's points but first place's to the thousand (a half
away from zero: 36,500 counts as 37,000, -500 as -1,000) and gives first place
what makes the table sum to zero:

>>> from tablekit.rules.presets import EMA2016, TENHOU
>>> game_points((56400, 18800, 15400, 9400), TENHOU)
(67.0, -1.0, -25.0, -41.0)

EMA rules keep the hundreds, and players on equal points share their places' uma:

>>> game_points((42300, 30000, 30000, 17700), EMA2016)
(27.3, 0.0, 0.0, -27.3)

Penalties (points taken off a seat's final score, in points) come off last:

>>> game_points((56400, 18800, 15400, 9400), TENHOU, penalties=(0, 20000, 0, 0))
(67.0, -21.0, -25.0, -41.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from tablekit.rules.presets import Rules

SEATS = 4


def placing(scores: Sequence[int], first_dealer: int = 0) -> list[int]:
    """Seats from first to last; equal points go to the seat nearer the first dealer.

    >>> placing((25000, 31000, 25000, 19000), first_dealer=2)
    [1, 2, 0, 3]
    """
    return sorted(range(len(scores)), key=lambda s: (-scores[s], (s - first_dealer) % SEATS))


def game_points(scores: Sequence[int], rules: Rules, first_dealer: int = 0,
                penalties: Sequence[int] = (0,) * SEATS) -> tuple[float, ...]:
    """Each seat's result in thousands (``+67.0``), in seat order, uma and oka included."""
    order = placing(scores, first_dealer)
    bonus = _place_bonus(scores, order, rules)
    if rules.final_rounding == "tenhou":
        raw = _tenhou_rounded(scores, order, rules, bonus)
    else:
        raw = [Fraction(scores[s] - rules.return_points, 1000) + bonus[s]
               for s in range(len(scores))]
    return tuple(round(float(raw[s] - Fraction(penalties[s], 1000)), 1)
                 for s in range(len(scores)))


def _place_bonus(scores: Sequence[int], order: list[int], rules: Rules) -> list[Fraction]:
    """Uma plus oka per seat; tied seats share their places' bonus when the rules say so."""
    by_place = [Fraction(u) for u in rules.uma]
    by_place[0] += Fraction(rules.oka, 1000)
    bonus = [Fraction(0)] * len(scores)
    for place, seat in enumerate(order):
        tied = [p for p, s in enumerate(order) if scores[s] == scores[seat]]
        if rules.tied_places_share and len(tied) > 1:
            bonus[seat] = sum((by_place[p] for p in tied), Fraction(0)) / len(tied)
        else:
            bonus[seat] = by_place[place]
    return bonus


def _tenhou_rounded(scores: Sequence[int], order: list[int], rules: Rules,
                    bonus: list[Fraction]) -> list[Fraction]:
    raw = [Fraction(0)] * len(scores)
    for seat in order[1:]:
        thousands = _round_half_away(Fraction(scores[seat], 1000))
        raw[seat] = thousands - Fraction(rules.return_points, 1000) + bonus[seat]
    raw[order[0]] = -sum(raw, Fraction(0))
    return raw


def _round_half_away(value: Fraction) -> int:
    """To the nearest whole number, a half away from zero (as Tenhou's ``owari`` shows:
    36,500 counts as 37,000, 5,500 as 6,000, -500 as -1,000 and -7,500 as -8,000).

    >>> [_round_half_away(Fraction(v, 10)) for v in (365, 55, 54, -5, -75, -74)]
    [37, 6, 5, -1, -8, -7]
    """
    size = abs(value)
    whole = size.numerator // size.denominator + (size % 1 >= Fraction(1, 2))
    return whole if value >= 0 else -whole
