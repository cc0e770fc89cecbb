"""Compare a tablekit :class:`HandValue` with the result Tenhou recorded for the same win.

>>> from tablekit.rules import TENHOU, Win, score_hand
>>> value = score_hand(Win.parse("234567m234p67899s", "6s", riichi=True), TENHOU)
>>> value_mismatches(value, [("riichi", 1), ("pinfu", 1)], [], han=2, fu=30, points=2000)
[]
>>> value_mismatches(value, [("riichi", 1)], [], han=1, fu=30, points=1000)  # doctest: +ELLIPSIS
["yaku [('pinfu', 1), ('riichi', 1)] != tenhou [('riichi', 1)]", 'han 2 != tenhou 1', ...]
"""

from __future__ import annotations

from collections.abc import Iterable

from tablekit.rules.payments import hand_payment
from tablekit.rules.presets import TENHOU, Rules
from tablekit.rules.scoring import HandValue


def face_value(value: HandValue, rules: Rules = TENHOU) -> int:
    """What the hand is worth without honba and sticks, as Tenhou records ``ten``."""
    return hand_payment(value, honba=0, sticks=0, rules=rules).total


def value_mismatches(value: HandValue, yaku: Iterable[tuple[str, int]], yakuman: Iterable[str],
                     han: int | None, fu: int, points: int, rules: Rules = TENHOU) -> list[str]:
    """Each difference in words; ``yaku`` are (name, han) pairs, zero-han entries ignored."""
    expected = {(name, count) for name, count in yaku if count}
    expected |= {(name, 13) for name in yakuman}
    got = {(y.name, 13 if y.yakuman else y.han) for y in value.yaku}
    out = []
    if got != expected:
        out.append(f"yaku {sorted(got)} != tenhou {sorted(expected)}")
    if not value.yakuman:
        if value.han != han:
            out.append(f"han {value.han} != tenhou {han}")
        if value.fu != fu:
            out.append(f"fu {value.fu} != tenhou {fu}")
    worth = face_value(value, rules)
    if worth != points:
        out.append(f"points {worth} != tenhou {points}")
    return out
