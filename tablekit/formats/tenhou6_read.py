"""Read a tenhou.net/6 JSON game into tablekit events, hand by hand, with its recorded results.

tenhou.net/6 keeps each seat's draws and discards in separate lists; the turn order is
rebuilt from them (:mod:`tablekit.formats.tenhou6_moves`). The result is an
:class:`~tablekit.formats.tenhou.ImportedGame`, so ``tablekit replay --check`` compares
tablekit's results with the file's just as it does for Tenhou's mjlog.

>>> import json
>>> from pathlib import Path
>>> from tablekit.formats.tenhou import import_file
>>> from tablekit.formats.tenhou6_write import to_tenhou6
>>> game = import_file(Path("tablekit/data/tenhou-python-bot-28.xml"))
>>> data = json.loads(json.dumps(to_tenhou6(game.events, [h.init.hands for h in game.hands])))
>>> again = read_tenhou6(data)
>>> again.events == game.events
True
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from tablekit.formats import mjlog
from tablekit.formats.tenhou import ImportedGame, ImportedHand, UnsupportedGame
from tablekit.formats.tenhou6 import (
    ABORT_NAMES,
    ALL_TENPAI,
    CHOMBO,
    NAGASHI,
    NONE_TENPAI,
    WIN,
    YAKU_NAMES,
    BadTenhou6,
    tile,
)
from tablekit.formats.tenhou6_moves import Last, Moves, in_tenhou_order, play
from tablekit.game.events import (
    AbortiveDraw,
    AbortKind,
    Chombo,
    Event,
    ExhaustiveDraw,
    GameStarted,
    HandStarted,
    WinnerHand,
    Won,
)
from tablekit.rules.presets import TENHOU, Rules, rules_from_dict, with_options
from tablekit.tiles import Tile

SEATS = 4
YAKU_IDS = {name: index for index, name in enumerate(YAKU_NAMES)}
ABORT_KINDS: dict[str, AbortKind] = {name: kind for kind, name in ABORT_NAMES.items()}
MJLOG_ABORTS = {"nine_terminals": "yao9", "four_winds": "kaze4", "four_riichi": "reach4",
                "four_kans": "kan4", "triple_ron": "ron3"}
_VALUE = re.compile(r"^(?:(\d+)符)?(?:(\d+)飜)?\D*?(\d+)(?:-(\d+))?点(∀)?$")
_YAKU = re.compile(r"^(.+)\((?:(\d+)飜|役満)\)$")


def read_tenhou6_file(path: Path) -> ImportedGame:
    """A tenhou.net/6 JSON file as an imported game."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise BadTenhou6(f"{path} is not tenhou.net/6 JSON: {error}") from None
    return read_tenhou6(data)


def read_tenhou6(data: dict[str, Any]) -> ImportedGame:
    """Convert a parsed tenhou.net/6 record; a malformed one raises :class:`BadTenhou6`."""
    try:
        names = tuple(data["name"])
        rows = data["log"]
    except (KeyError, TypeError):
        raise BadTenhou6("a tenhou.net/6 record has 'name' and 'log'") from None
    if len(names) != SEATS:
        raise UnsupportedGame("three-player (sanma) games are not supported yet")
    extra = data.get("tablekit") or {}
    rules = _rules(data, extra)
    tenpai = extra.get("tenpai") or [None] * len(rows)
    hands = [_hand(row, rules, tenpai[i] if i < len(tenpai) else None) for i, row in
             enumerate(rows)]
    hands = _with_final(hands, data.get("sc"))
    start = GameStarted(rules, names=names, first_dealer=0)
    return ImportedGame(rules, start, tuple(hands))


def _rules(data: dict[str, Any], extra: dict[str, Any]) -> Rules:
    if "rules" in extra:
        return rules_from_dict(extra["rules"])
    rule = data.get("rule") or {}
    disp = str(rule.get("disp", ""))
    red = any(rule.get(k) for k in ("aka", "aka51", "aka52", "aka53"))
    return with_options(TENHOU, red_fives=bool(red), open_tanyao="喰" in disp or not disp,
                        length="tonpuusen" if "東" in disp else "hanchan")


def _with_final(hands: list[ImportedHand], sc: Any) -> list[ImportedHand]:
    """Put the game's final scores (``sc``: points, result, ...) on the last hand's result."""
    if not hands or not sc:
        return hands
    final = tuple(int(v) for v in sc[0::2])
    points = tuple(float(v) for v in sc[1::2])
    last = hands[-1]
    if last.draw is not None:
        draw = _replace(last.draw, final=final, final_points=points)
        return [*hands[:-1], ImportedHand(last.init, last.events, last.wins, draw)]
    if not last.wins:
        return hands
    wins = (*last.wins[:-1], _replace(last.wins[-1], final=final, final_points=points))
    return [*hands[:-1], ImportedHand(last.init, last.events, wins, last.draw)]


def _replace(record: Any, **changes: Any) -> Any:
    return replace(record, **changes)


# --- one hand --------------------------------------------------------------------------


def _hand(row: list[Any], rules: Rules, tenpai: list[int] | None) -> ImportedHand:
    if not isinstance(row, list) or len(row) != 17:
        raise BadTenhou6("a tenhou.net/6 hand has 17 entries")
    meta, scores, dora, ura = row[0], row[1], row[2], row[3]
    haipai = [[tile(n) for n in row[4 + 3 * s]] for s in range(SEATS)]
    takes = [row[5 + 3 * s] for s in range(SEATS)]
    dahai = [row[6 + 3 * s] for s in range(SEATS)]
    dealer = meta[0] % SEATS
    moves, last = play(haipai, takes, dahai, [tile(n) for n in dora[1:]], dealer)
    init = mjlog.Init(meta[0], meta[1], meta[2], (0, 0), _id(tile(dora[0])), tuple(scores),
                      dealer, tuple(tuple(_id(t) for t in hand) for hand in haipai))
    events: list[Event] = [HandStarted(tile(dora[0])), *moves.events]
    result = row[16]
    status = result[0] if result else ""
    wins: tuple[mjlog.Agari, ...] = ()
    draw = None
    if status == WIN:
        wins = _wins(result[1:], init, [tile(n) for n in ura], moves, last)
        events.append(_won(wins, moves, last))
    else:
        draw, event = _draw(status, result, init, tenpai, last)
        events.append(event)
    return ImportedHand(init, tuple(events), wins, draw)


def _id(value: Tile) -> int:
    """A 136-id of this tile (Tenhou's red five is the first copy of its five)."""
    return 4 * value.kind + (0 if value.red or value.kind >= 27 or value.kind % 9 != 4 else 1)


# --- results ---------------------------------------------------------------------------


def _wins(items: list[Any], init: mjlog.Init, ura: list[Tile], moves: Moves, last: Last
          ) -> tuple[mjlog.Agari, ...]:
    if len(items) < 2 or len(items) % 2:
        raise BadTenhou6("a win is written as score changes and details, in pairs")
    return tuple(_agari(items[i], items[i + 1], init, ura, moves, last)
                 for i in range(0, len(items), 2))


def _agari(deltas: list[int], detail: list[Any], init: mjlog.Init, ura: list[Tile],
           moves: Moves, last: Last) -> mjlog.Agari:
    who, source, pao = int(detail[0]), int(detail[1]), int(detail[2])
    fu, points = _value(str(detail[3]))
    yaku, yakuman = _yaku(detail[4:])
    hand, win_tile = _winner_tiles(who, moves, last)
    return mjlog.Agari(
        who=who, from_who=source, hand=tuple(_id(t) for t in hand), melds=(),
        win_tile=_id(win_tile), fu=fu, points=points, limit=0, yaku=yaku, yakuman=yakuman,
        dora=(), ura=tuple(_id(t) for t in ura), honba=init.honba, sticks=init.sticks,
        scores_before=init.scores, deltas=tuple(deltas), pao_who=None if pao == who else pao,
        final=None, final_points=None)


def _value(text: str) -> tuple[int | None, int]:
    """Fu (None when a limit hides it) and the hand's worth from ``30符1飜300-500点``."""
    match = _VALUE.match(text)
    if match is None:
        raise BadTenhou6(f"{text!r} is not a win's value")
    fu, _han, first, second, everyone = match.groups()
    amount = int(first)
    if second is not None:
        amount = 2 * amount + int(second)
    elif everyone:
        amount *= 3
    return (int(fu) if fu else None), amount


def _yaku(items: list[Any]) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
    yaku, yakuman = [], []
    for item in items:
        match = _YAKU.match(str(item))
        if match is None or match.group(1) not in YAKU_IDS:
            raise BadTenhou6(f"{item!r} is not a yaku tablekit knows")
        index = YAKU_IDS[match.group(1)]
        if match.group(2) is None:
            yakuman.append(index)
        else:
            yaku.append((index, int(match.group(2))))
    return tuple(yaku), tuple(yakuman)


def _winner_tiles(who: int, moves: Moves, last: Last) -> tuple[list[Tile], Tile]:
    hand = list(moves.hands[who].elements())
    if last.seat == who and last.drew:
        return list(in_tenhou_order(hand)), last.tile
    return list(in_tenhou_order([*hand, last.tile])), last.tile


def _won(wins: tuple[mjlog.Agari, ...], moves: Moves, last: Last) -> Won:
    winners = []
    for agari in wins:
        hand, win_tile = _winner_tiles(agari.who, moves, last)
        winners.append(WinnerHand(agari.who, tuple(hand), win_tile))
    first = wins[0]
    from_seat = None if first.who == first.from_who else first.from_who
    ura = tuple(Tile.from_136(t) for t in first.ura)
    return Won(tuple(winners), from_seat, ura)


def _draw(status: str, result: list[Any], init: mjlog.Init, tenpai: list[int] | None,
          last: Last) -> tuple[mjlog.Ryuukyoku, Event]:
    deltas = tuple(result[1]) if len(result) > 1 and isinstance(result[1], list) else (0,) * 4
    record = mjlog.Ryuukyoku(None, init.honba, init.sticks, init.scores, deltas, {}, None, None)
    if status in ABORT_KINDS:
        kind = ABORT_KINDS[status]
        return _replace(record, kind=MJLOG_ABORTS[kind]), AbortiveDraw(kind, last.seat)
    if status == CHOMBO:
        seat = int(result[2][0]) if len(result) > 2 else min(range(SEATS), key=deltas.__getitem__)
        return record, Chombo(seat)
    if tenpai is None:
        tenpai = _tenpai_from(status, deltas)
    ready = tuple(sorted(tenpai))
    revealed: dict[int, tuple[int, ...]] = {seat: () for seat in ready}
    if status == NAGASHI:
        nagashi = tuple(s for s, d in enumerate(deltas) if d > 0)
        return (_replace(record, kind="nm", revealed=revealed),
                ExhaustiveDraw(tenpai=ready, nagashi=nagashi))
    return _replace(record, revealed=revealed), ExhaustiveDraw(tenpai=ready)


def _tenpai_from(status: str, deltas: tuple[int, ...]) -> list[int]:
    if status == ALL_TENPAI:
        return list(range(SEATS))
    if status in (NONE_TENPAI, NAGASHI):
        return []
    return [s for s, d in enumerate(deltas) if d > 0]


