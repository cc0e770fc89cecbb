"""Read a tenhou.net/6 JSON game into tablekit events, hand by hand, with its recorded results.

tenhou.net/6 keeps each seat's draws and discards in separate lists; the turn order is
rebuilt from them (a call takes the turn, a kan draws again), checking that every tile a
seat gives away is in its hand. When a seat discards the same tile twice and the record
does not say which one was called, both readings are tried. The result is an
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
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from itertools import combinations
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
    TSUMOGIRI,
    WIN,
    YAKU_NAMES,
    BadTenhou6,
    tile,
)
from tablekit.game.events import (
    AbortiveDraw,
    AbortKind,
    Call,
    Chombo,
    Discard,
    DoraRevealed,
    Draw,
    Event,
    ExhaustiveDraw,
    GameStarted,
    HandStarted,
    RiichiDeclared,
    WinnerHand,
    Won,
)
from tablekit.rules.presets import TENHOU, Rules, rules_from_dict, rules_to_dict, with_options
from tablekit.tiles import Tile

SEATS = 4
YAKU_IDS = {name: index for index, name in enumerate(YAKU_NAMES)}
ABORT_KINDS: dict[str, AbortKind] = {name: kind for kind, name in ABORT_NAMES.items()}
MJLOG_ABORTS = {"nine_terminals": "yao9", "four_winds": "kaze4", "four_riichi": "reach4",
                "four_kans": "kan4", "triple_ron": "ron3"}
_VALUE = re.compile(r"^(?:(\d+)符)?(?:(\d+)飜)?\D*?(\d+)(?:-(\d+))?点(∀)?$")
_YAKU = re.compile(r"^(.+)\((?:(\d+)飜|役満)\)$")
MAX_TRIES = 64


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
    start = GameStarted(rules_to_dict(rules), names=names, first_dealer=0)
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
    moves, last = _play(haipai, takes, dahai, [tile(n) for n in dora[1:]], dealer)
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


@dataclass
class _Last:
    """How the hand's moves ended: the seat that acted last and the tile it gave or drew."""

    seat: int
    tile: Tile
    drew: bool


@dataclass
class _Moves:
    events: list[Event]
    hands: list[Counter[Tile]]


def _play(haipai: list[list[Tile]], takes: list[list[Any]], dahai: list[list[Any]],
          kan_dora: list[Tile], dealer: int) -> tuple[_Moves, _Last]:
    """The moves in turn order; ambiguous calls of a tile discarded twice are retried."""
    tried: list[frozenset[int]] = [frozenset()]
    first_error: BadTenhou6 | None = None
    for skip in tried:
        play = _Play(haipai, takes, dahai, kan_dora, dealer, skip)
        try:
            return play.run()
        except BadTenhou6 as error:
            first_error = first_error or error
            for size in (1, 2):
                for extra in combinations(play.ambiguous, size):
                    option = skip | set(extra)
                    if option not in tried and len(tried) < MAX_TRIES:
                        tried.append(frozenset(option))
    assert first_error is not None
    raise first_error


class _Play:
    """One reading of a hand's move lists; any contradiction raises :class:`BadTenhou6`."""

    def __init__(self, haipai: list[list[Tile]], takes: list[list[Any]],
                 dahai: list[list[Any]], kan_dora: list[Tile], dealer: int,
                 skip: frozenset[int]) -> None:
        self.hands = [Counter(h) for h in haipai]
        self.takes = [list(t) for t in takes]
        self.dahai = [list(d) for d in dahai]
        self.kan_dora = iter(kan_dora)
        self.actor = dealer
        self.skip = skip
        self.events: list[Event] = []
        self.ambiguous: list[int] = []
        self.steps = 0
        self.pending_dora = False
        self.kan_draw = False
        self.last: _Last | None = None

    def run(self) -> tuple[_Moves, _Last]:
        while True:
            if not self.takes[self.actor]:
                raise BadTenhou6(f"seat {self.actor} has no draw or call left")
            if self._take(self.takes[self.actor].pop(0)):
                continue  # an open kan draws again
            if not self.dahai[self.actor]:
                break  # a tsumo or nine terminals
            if self._give(self.dahai[self.actor].pop(0)):
                if not self.takes[self.actor]:
                    break  # robbed (chankan)
                continue  # a closed or added kan draws again
            if not any(self.takes):
                break
            self.actor = self._next_actor()
        if any(self.takes) or any(self.dahai):
            raise BadTenhou6("moves are left after the hand ended")
        assert self.last is not None
        return _Moves(self.events, self.hands), self.last

    def _take(self, item: Any) -> bool:
        """A draw or a call from a discard; True for an open kan."""
        seat = self.actor
        if isinstance(item, str):
            call = _take_call(item, seat)
            self._remove(seat, _own(call))
            self.events.append(call)
            if call.kind != "kan":
                return False
            if not self.dahai[seat] or self.dahai[seat].pop(0) != 0:
                raise BadTenhou6(f"seat {seat}'s open kan has no 0 in its discards")
            self._reveal_pending()
            self.pending_dora = self.kan_draw = True
            return True
        drawn = tile(item)
        self.events.append(Draw(seat, drawn, rinshan=self.kan_draw))
        self.kan_draw = False
        self.hands[seat][drawn] += 1
        self.last = _Last(seat, drawn, drew=True)
        return False

    def _give(self, item: Any) -> bool:
        """A discard (False), or a closed or added kan (True). An open kan's dora is
        turned now, when its player goes on after the replacement draw."""
        seat = self.actor
        self._reveal_pending()
        if isinstance(item, str) and ("a" in item or "k" in item):
            call = _given_call(item, seat, self.events)
            self._remove(seat, _own(call))
            self.events.append(call)
            self.kan_draw = True
            if call.kind == "ankan":
                self._reveal()
            else:
                self.pending_dora = True
                self.last = _Last(seat, call.called or call.tiles[-1], drew=False)
            return True
        riichi = isinstance(item, str) and item.startswith("r")
        number = int(item[1:]) if riichi else item
        if riichi:
            self.events.append(RiichiDeclared(seat))
        tsumogiri = number == TSUMOGIRI
        if tsumogiri:
            if self.last is None or not self.last.drew or self.last.seat != seat:
                raise BadTenhou6(f"seat {seat} discards the tile it drew, but did not draw")
            thrown = self.last.tile
        else:
            thrown = tile(number)
        self._remove(seat, [thrown])
        self.events.append(Discard(seat, thrown, tsumogiri=tsumogiri))
        self.last = _Last(seat, thrown, drew=False)
        self.steps += 1
        return False

    def _next_actor(self) -> int:
        """Who takes the turn after this discard: a caller of it (pon before chi), or the
        next seat."""
        thrown = self.last.tile if self.last else None
        callers = []
        for seat in range(SEATS):
            items = self.takes[seat]
            if seat == self.actor or not items or not isinstance(items[0], str):
                continue
            call = _take_call(items[0], seat)
            if call.from_seat == self.actor and call.called == thrown:
                callers.append((call.kind != "chi", seat))
        step = self.steps
        if callers and self._discards_again(thrown):
            self.ambiguous.append(step)
        if callers and step not in self.skip:
            return max(callers)[1]
        return (self.actor + 1) % SEATS

    def _discards_again(self, thrown: Tile | None) -> bool:
        """Whether this seat may discard the same tile again later (a tsumogiri may be it)."""
        for item in self.dahai[self.actor]:
            number = int(item[1:]) if isinstance(item, str) and item.startswith("r") else item
            if isinstance(number, int) and number and (
                    number == TSUMOGIRI or tile(number) == thrown):
                return True
        return False

    def _remove(self, seat: int, tiles: list[Tile]) -> None:
        hand = self.hands[seat]
        for given in tiles:
            if hand[given] <= 0:
                raise BadTenhou6(f"seat {seat} gives away {given}, which it does not hold")
            hand[given] -= 1

    def _reveal(self) -> None:
        indicator = next(self.kan_dora, None)
        if indicator is None:
            raise BadTenhou6("a kan has no dora indicator left to turn")
        self.events.append(DoraRevealed(indicator))

    def _reveal_pending(self) -> None:
        if self.pending_dora:
            self.pending_dora = False
            self._reveal()


def _own(call: Call) -> list[Tile]:
    """The tiles of a call that came from the caller's own hand."""
    tiles = list(call.tiles)
    if call.kind in ("chi", "pon", "kan") and call.called is not None:
        tiles.remove(call.called)
    if call.kind == "shouminkan":
        return [call.called] if call.called is not None else tiles[-1:]
    return tiles


def _numbers(text: str) -> list[int]:
    return [int(text[i:i + 2]) for i in range(0, len(text), 2)]


def _take_call(text: str, seat: int) -> Call:
    """``c275226``, ``12p1212``, ``131313m13``: the letter's place says where the called
    tile came from (first: the left, second pair: across, last: the right)."""
    letter = next((c for c in "cpm" if c in text), None)
    if letter is None:
        raise BadTenhou6(f"{text!r} is not a chi, pon or open kan")
    at = text.index(letter)
    numbers = _numbers(text.replace(letter, ""))
    if at % 2 or len(numbers) != (4 if letter == "m" else 3):
        raise BadTenhou6(f"{text!r} is not a chi, pon or open kan")
    relative = {0: 3, 2: 2}.get(at, 1)
    called = tile(numbers[at // 2])
    tiles = _sorted(tile(n) for n in numbers)
    kind = {"c": "chi", "p": "pon", "m": "kan"}[letter]
    return Call(seat, kind, tiles, called, (seat + relative) % SEATS)  # type: ignore[arg-type]


def _given_call(text: str, seat: int, events: list[Event]) -> Call:
    """``424242a42`` (a closed kan) or ``41k414141`` (a tile added to a pon)."""
    if "a" in text:
        numbers = _numbers(text.replace("a", ""))
        if len(numbers) != 4:
            raise BadTenhou6(f"{text!r} is not a closed kan")
        return Call(seat, "ankan", _sorted(tile(n) for n in numbers))
    at = text.index("k")
    numbers = _numbers(text.replace("k", ""))
    if at % 2 or len(numbers) != 4:
        raise BadTenhou6(f"{text!r} is not an added kan")
    added = tile(numbers[at // 2])
    pon = next((e for e in reversed(events) if isinstance(e, Call) and e.seat == seat
                and e.kind == "pon" and e.tiles[0].kind == added.kind), None)
    if pon is None:
        raise BadTenhou6(f"{text!r} adds to a pon seat {seat} does not have")
    return Call(seat, "shouminkan", _sorted([*pon.tiles, added]), added, pon.from_seat)


def _sorted(tiles: Iterable[Tile]) -> tuple[Tile, ...]:
    """In Tenhou's 136-id order: a red five before the other fives."""
    return tuple(sorted(tiles, key=lambda t: (t.kind, not t.red)))


# --- results ---------------------------------------------------------------------------


def _wins(items: list[Any], init: mjlog.Init, ura: list[Tile], moves: _Moves, last: _Last
          ) -> tuple[mjlog.Agari, ...]:
    if len(items) < 2 or len(items) % 2:
        raise BadTenhou6("a win is written as score changes and details, in pairs")
    return tuple(_agari(items[i], items[i + 1], init, ura, moves, last)
                 for i in range(0, len(items), 2))


def _agari(deltas: list[int], detail: list[Any], init: mjlog.Init, ura: list[Tile],
           moves: _Moves, last: _Last) -> mjlog.Agari:
    who, source, pao = int(detail[0]), int(detail[1]), int(detail[2])
    fu, points = _value(str(detail[3]), who == init.dealer)
    yaku, yakuman = _yaku(detail[4:])
    hand, win_tile = _winner_tiles(who, moves, last)
    return mjlog.Agari(
        who=who, from_who=source, hand=tuple(_id(t) for t in hand), melds=(),
        win_tile=_id(win_tile), fu=fu, points=points, limit=0, yaku=yaku, yakuman=yakuman,
        dora=(), ura=tuple(_id(t) for t in ura), honba=init.honba, sticks=init.sticks,
        scores_before=init.scores, deltas=tuple(deltas), pao_who=None if pao == who else pao,
        final=None, final_points=None)


def _value(text: str, dealer: bool) -> tuple[int | None, int]:
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


def _winner_tiles(who: int, moves: _Moves, last: _Last) -> tuple[list[Tile], Tile]:
    hand = list(moves.hands[who].elements())
    if last.seat == who and last.drew:
        return list(_sorted(hand)), last.tile
    return list(_sorted([*hand, last.tile])), last.tile


def _won(wins: tuple[mjlog.Agari, ...], moves: _Moves, last: _Last) -> Won:
    winners = []
    for agari in wins:
        hand, win_tile = _winner_tiles(agari.who, moves, last)
        winners.append(WinnerHand(agari.who, tuple(hand), win_tile))
    first = wins[0]
    from_seat = None if first.who == first.from_who else first.from_who
    ura = tuple(Tile.from_136(t) for t in first.ura)
    return Won(tuple(winners), from_seat, ura)


def _draw(status: str, result: list[Any], init: mjlog.Init, tenpai: list[int] | None,
          last: _Last) -> tuple[mjlog.Ryuukyoku, Event]:
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


