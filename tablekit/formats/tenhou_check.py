"""Compare a tablekit :class:`HandValue` with the result Tenhou recorded for the same win,
and tablekit's game points with a game's ``owari``.

>>> from tablekit.rules import TENHOU, Win, score_hand
>>> value = score_hand(Win.parse("234567m234p67899s", "6s", riichi=True), TENHOU)
>>> value_mismatches(value, [("riichi", 1), ("pinfu", 1)], [], han=2, fu=30, points=2000)
[]
>>> value_mismatches(value, [("riichi", 1)], [], han=1, fu=30, points=1000)  # doctest: +ELLIPSIS
["yaku [('pinfu', 1), ('riichi', 1)] != tenhou [('riichi', 1)]", 'han 2 != tenhou 1', ...]
"""

from __future__ import annotations

from collections.abc import Iterable

from tablekit.formats.mjlog import Agari, MjlogGame, Ryuukyoku
from tablekit.formats.tenhou_rules import lobby_rules
from tablekit.rules.payments import hand_payment
from tablekit.rules.presets import TENHOU, Rules
from tablekit.rules.scoring import HandValue
from tablekit.rules.standings import game_points


def face_value(value: HandValue, rules: Rules = TENHOU) -> int:
    """What the hand is worth without honba and sticks, as Tenhou records ``ten``."""
    return hand_payment(value, honba=0, sticks=0, rules=rules).total


def value_mismatches(value: HandValue, yaku: Iterable[tuple[str, int]], yakuman: Iterable[str],
                     han: int | None, fu: int | None, points: int, rules: Rules = TENHOU
                     ) -> list[str]:
    """Each difference in words; ``yaku`` are (name, han) pairs, zero-han entries ignored;
    ``fu`` None when the record does not give it (tenhou.net/6 hides it for limit hands)."""
    expected = {(name, count) for name, count in yaku if count}
    expected |= {(name, 13) for name in yakuman}
    got = {(y.name, 13 if y.yakuman else y.han) for y in value.yaku}
    out = []
    if got != expected:
        out.append(f"yaku {sorted(got)} != tenhou {sorted(expected)}")
    if not value.yakuman:
        if value.han != han:
            out.append(f"han {value.han} != tenhou {han}")
        if fu is not None and value.fu != fu:
            out.append(f"fu {value.fu} != tenhou {fu}")
    worth = face_value(value, rules)
    if worth != points:
        out.append(f"points {worth} != tenhou {points}")
    return out


def owari_mismatch(game: MjlogGame) -> str | None:
    """How tablekit's game points differ from the ``owari`` Tenhou wrote, or None.

    >>> from tablekit.formats.mjlog import read_mjlog
    >>> from pathlib import Path
    >>> owari_mismatch(read_mjlog(Path("tablekit/data/tenhou-python-bot-28.xml")))
    """
    last = next((e for e in reversed(game.events) if isinstance(e, (Agari, Ryuukyoku))), None)
    if last is None or last.final is None or last.final_points is None:
        return "no owari"
    rules = lobby_rules(game.go_type)
    first_dealer = game.header.first_dealer or 0
    got = game_points(last.final, rules, first_dealer)
    if got != last.final_points:
        return f"game points {list(got)} != tenhou {list(last.final_points)} for {last.final}"
    return None
