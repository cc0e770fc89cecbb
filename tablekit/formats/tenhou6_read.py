"""Read a tenhou.net/6 JSON game into tablekit events, hand by hand, with its recorded results.

tenhou.net/6 keeps each seat's draws and discards in separate lists; the turn order is
rebuilt from them (:mod:`tablekit.formats.tenhou6_moves`). A three-player (sanma) record
keeps Tenhou's four columns with the fourth seat empty (no name, no hand, 0 points). The
result is an
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

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from tablekit.formats import mjlog
from tablekit.formats.sniff import RECORD_LIMIT
from tablekit.formats.tenhou import ImportedGame, ImportedHand
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
from tablekit.rules.presets import TENHOU, TENHOU_SANMA, Rules, rules_from_dict, with_options
from tablekit.tiles import Tile
from tablekit.untrusted import Untrusted
from tablekit.untrusted.files import read_bytes
from tablekit.untrusted.json_text import parse_json

SEATS = 4  # the columns a record has, three players' too
YAKU_IDS = {name: index for index, name in enumerate(YAKU_NAMES)}
DORA = YAKU_IDS["ドラ"]
NUKI_DORA = "抜きドラ"
ABORT_KINDS: dict[str, AbortKind] = {name: kind for kind, name in ABORT_NAMES.items()}
MJLOG_ABORTS = {"nine_terminals": "yao9", "four_winds": "kaze4", "four_riichi": "reach4",
                "four_kans": "kan4", "triple_ron": "ron3"}
_VALUE = re.compile(r"^(?:(\d+)符)?(?:(\d+)飜)?\D*?(\d+)(?:-(\d+))?点(∀)?$")
_YAKU = re.compile(r"^(.+)\((?:(\d+)飜|役満)\)$")


def read_tenhou6_file(path: Path) -> ImportedGame:
    """A tenhou.net/6 JSON file as an imported game."""
    try:
        data = parse_json(read_bytes(path, limit=RECORD_LIMIT), max_bytes=RECORD_LIMIT)
    except Untrusted as error:
        raise BadTenhou6(f"{path} is not tenhou.net/6 JSON: {error}") from None
    if not isinstance(data, dict):
        raise BadTenhou6(f"{path} is not tenhou.net/6 JSON: not an object")
    return read_tenhou6(data)


def read_tenhou6(data: dict[str, Any]) -> ImportedGame:
    """Convert a parsed tenhou.net/6 record; a malformed one raises :class:`BadTenhou6`."""
    try:
        names = tuple(data["name"])
        rows = data["log"]
    except (KeyError, TypeError):
        raise BadTenhou6("a tenhou.net/6 record has 'name' and 'log'") from None
    extra = data.get("tablekit") or {}
    rules = _rules(data, extra, _three_players(names, rows))
    if len(names) not in (rules.players, SEATS):
        raise BadTenhou6(f"a {rules.players}-player record has {len(names)} names")
    tenpai = extra.get("tenpai") or [None] * len(rows)
    hands = [_hand(row, rules, tenpai[i] if i < len(tenpai) else None) for i, row in
             enumerate(rows)]
    hands = _with_final(hands, data.get("sc"), rules.players)
    start = GameStarted(rules, names=names[:rules.players], first_dealer=0)
    return ImportedGame(rules, start, tuple(hands))


def _three_players(names: tuple[Any, ...], rows: Any) -> bool:
    """A sanma record: three names, or a fourth column with no name and no starting hand.

    >>> _three_players(("A", "B", "C"), []), _three_players(("A", "B", "C", ""), [[0] * 17])
    (True, True)
    """
    if len(names) == 3:
        return True
    first = rows[0] if isinstance(rows, list) and rows and isinstance(rows[0], list) else []
    return len(names) == SEATS and not names[3] and len(first) == 17 and not first[13]


def _rules(data: dict[str, Any], extra: dict[str, Any], three: bool) -> Rules:
    if "rules" in extra:
        return rules_from_dict(extra["rules"])
    rule = data.get("rule") or {}
    disp = str(rule.get("disp", ""))
    red = any(rule.get(k) for k in ("aka", "aka51", "aka52", "aka53"))
    base = TENHOU_SANMA if three or disp.startswith("三") else TENHOU
    return with_options(base, red_fives=bool(red), open_tanyao="喰" in disp or not disp,
                        length="tonpuusen" if "東" in disp else "hanchan")


def _with_final(hands: list[ImportedHand], sc: Any, players: int) -> list[ImportedHand]:
    """Put the game's final scores (``sc``: points, result, ...) on the last hand's result."""
    if not hands or not sc:
        return hands
    final = tuple(int(v) for v in sc[0::2])[:players]
    points = tuple(float(v) for v in sc[1::2])[:players]
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
    players = rules.players
    meta, scores, dora, ura = row[0], row[1], row[2], row[3]
    if any(row[4 + 3 * s:7 + 3 * s] != [[], [], []] for s in range(players, SEATS)):
        raise BadTenhou6(f"a {players}-player hand has moves for a fourth seat")
    haipai = [[tile(n) for n in row[4 + 3 * s]] for s in range(players)]
    takes = [row[5 + 3 * s] for s in range(players)]
    dahai = [row[6 + 3 * s] for s in range(players)]
    dealer = meta[0] % SEATS  # round * 4 + hand, three players too (no fourth hand)
    moves, last = play(haipai, takes, dahai, [tile(n) for n in dora[1:]], dealer, players)
    init = mjlog.Init(meta[0], meta[1], meta[2], (0, 0), _id(tile(dora[0])),
                      tuple(scores[:players]), dealer,
                      tuple(tuple(_id(t) for t in hand) for hand in haipai))
    events: list[Event] = [HandStarted(tile(dora[0])), *moves.events]
    result = row[16]
    status = result[0] if result else ""
    wins: tuple[mjlog.Agari, ...] = ()
    draw = None
    if status == WIN:
        wins = _wins(result[1:], init, [tile(n) for n in ura], moves, last, players)
        events.append(_won(wins, moves, last))
    else:
        draw, event = _draw(status, result, init, tenpai, last, players)
        events.append(event)
    return ImportedHand(init, tuple(events), wins, draw)


def _id(value: Tile) -> int:
    """A 136-id of this tile (Tenhou's red five is the first copy of its five)."""
    return 4 * value.kind + (0 if value.red or value.kind >= 27 or value.kind % 9 != 4 else 1)


# --- results ---------------------------------------------------------------------------


def _wins(items: list[Any], init: mjlog.Init, ura: list[Tile], moves: Moves, last: Last,
          players: int = SEATS) -> tuple[mjlog.Agari, ...]:
    if len(items) < 2 or len(items) % 2:
        raise BadTenhou6("a win is written as score changes and details, in pairs")
    return tuple(_agari(items[i], items[i + 1], init, ura, moves, last, players)
                 for i in range(0, len(items), 2))


def _agari(deltas: list[int], detail: list[Any], init: mjlog.Init, ura: list[Tile],
           moves: Moves, last: Last, players: int) -> mjlog.Agari:
    who, source, pao = int(detail[0]), int(detail[1]), int(detail[2])
    fu, points = _value(str(detail[3]), players)
    yaku, yakuman = _yaku(detail[4:])
    hand, win_tile = _winner_tiles(who, moves, last)
    return mjlog.Agari(
        who=who, from_who=source, hand=tuple(_id(t) for t in hand), melds=(),
        win_tile=_id(win_tile), fu=fu, points=points, limit=0, yaku=yaku, yakuman=yakuman,
        dora=(), ura=tuple(_id(t) for t in ura), honba=init.honba, sticks=init.sticks,
        scores_before=init.scores, deltas=tuple(deltas[:players]),
        pao_who=None if pao == who else pao, final=None, final_points=None)


def _value(text: str, players: int = SEATS) -> tuple[int | None, int]:
    """Fu (None when a limit hides it) and the hand's worth from ``30符1飜300-500点``
    (``players - 1`` pay a tsumo).

    >>> _value("30符1飜300-500点"), _value("30符1飜300-500点", 3), _value("満貫4000点∀", 3)
    ((30, 1100), (30, 800), (None, 8000))
    """
    match = _VALUE.match(text)
    if match is None:
        raise BadTenhou6(f"{text!r} is not a win's value")
    fu, _han, first, second, everyone = match.groups()
    amount = int(first)
    if second is not None:
        amount = (players - 2) * amount + int(second)
    elif everyone:
        amount *= players - 1
    return (int(fu) if fu else None), amount


def _yaku(items: list[Any]) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
    yaku, yakuman = [], []
    for item in items:
        if str(item).startswith(NUKI_DORA):  # other tools' nuki-dora: Tenhou counts it as dora
            item = str(item).replace(NUKI_DORA, YAKU_NAMES[DORA], 1)
        match = _YAKU.match(str(item))
        if match is None or match.group(1) not in YAKU_IDS:
            raise BadTenhou6(f"{item!r} is not a yaku tablekit knows")
        index = YAKU_IDS[match.group(1)]
        if match.group(2) is None:
            yakuman.append(index)
        else:
            yaku.append((index, int(match.group(2))))
    return _dora_once(yaku), tuple(yakuman)


def _dora_once(yaku: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Dora counted once: nuki-dora written apart is added to it.

    >>> _dora_once([(1, 1), (DORA, 2), (DORA, 1)])
    ((1, 1), (52, 3))
    """
    dora = sum(han for index, han in yaku if index == DORA)
    kept = [(index, han) for index, han in yaku if index != DORA]
    return tuple(kept + [(DORA, dora)] * any(index == DORA for index, _ in yaku))


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
          last: Last, players: int = SEATS) -> tuple[mjlog.Ryuukyoku, Event]:
    deltas = (tuple(result[1][:players]) if len(result) > 1 and isinstance(result[1], list)
              else (0,) * players)
    record = mjlog.Ryuukyoku(None, init.honba, init.sticks, init.scores, deltas, {}, None, None)
    if status in ABORT_KINDS:
        kind = ABORT_KINDS[status]
        return _replace(record, kind=MJLOG_ABORTS[kind]), AbortiveDraw(kind, last.seat)
    if status == CHOMBO:
        seat = int(result[2][0]) if len(result) > 2 else min(range(players),
                                                             key=deltas.__getitem__)
        return record, Chombo(seat)
    if tenpai is None:
        tenpai = _tenpai_from(status, deltas, players)
    ready = tuple(sorted(tenpai))
    revealed: dict[int, tuple[int, ...]] = {seat: () for seat in ready}
    if status == NAGASHI:
        nagashi = tuple(s for s, d in enumerate(deltas) if d > 0)
        return (_replace(record, kind="nm", revealed=revealed),
                ExhaustiveDraw(tenpai=ready, nagashi=nagashi))
    return _replace(record, revealed=revealed), ExhaustiveDraw(tenpai=ready)


def _tenpai_from(status: str, deltas: tuple[int, ...], players: int = SEATS) -> list[int]:
    if status == ALL_TENPAI:
        return list(range(players))
    if status in (NONE_TENPAI, NAGASHI):
        return []
    return [s for s, d in enumerate(deltas) if d > 0]


