"""Write a game as tenhou.net/6 JSON, the format mjai-reviewer and most online tools read.

The events are replayed through the engine, so scores, score changes, yaku and the
final result are what the scoreboard showed. tenhou.net/6 needs every player's starting
hand, so a game is written from a record that has them (a Tenhou log); a table game,
whose concealed hands nobody saw, is refused with a message. Beside Tenhou's keys the
file keeps tablekit's rules and the tenpai seats of draws under ``"tablekit"``, so it
replays under the same rules. A three-player (sanma) game keeps Tenhou's four columns, the
fourth seat empty (no name, no hand, 0 points), and a North set aside (kita) is ``f44``
among its player's discards.

>>> from pathlib import Path
>>> from tablekit.formats.tenhou import import_file
>>> game = import_file(Path("tablekit/data/tenhou-python-bot-28.xml"))
>>> data = to_tenhou6(game.events, [h.init.hands for h in game.hands])
>>> data["log"][0][0], data["log"][0][1], data["rule"]
([0, 0, 0], [25000, 25000, 25000, 25000], {'disp': '般東喰赤', 'aka': 1})
>>> data["log"][0][-1][:2], data["sc"][:2]
(['流局', [-1500, -1500, 1500, 1500]], [24000, -16.0])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tablekit.formats.tenhou import YAKU_BY_ID
from tablekit.formats.tenhou6 import (
    ABORT_NAMES,
    ALL_TENPAI,
    CHOMBO,
    DRAW,
    KITA,
    LIMIT_NAMES,
    NAGASHI,
    NONE_TENPAI,
    TSUMOGIRI,
    WIN,
    YAKU_NAMES,
    YAKUMAN_NAME,
    BadTenhou6,
    code,
)
from tablekit.game.events import (
    AbortiveDraw,
    Call,
    Chombo,
    Discard,
    DiscardCorrected,
    DoraCorrected,
    DoraRevealed,
    Draw,
    Event,
    ExhaustiveDraw,
    GameStarted,
    HandStarted,
    Kita,
    RiichiDeclared,
    TrackingStopped,
    Won,
)
from tablekit.game.reducer import apply
from tablekit.game.state import SEATS, Phase, TableState, WinResult
from tablekit.rules.payments import Claim, hand_payment, settle_ron
from tablekit.rules.presets import Rules, rules_to_dict
from tablekit.tiles import Tile

JAPANESE = dict(zip(YAKU_BY_ID, YAKU_NAMES, strict=True))
StartingHands = Sequence[Sequence[Sequence[int]]]  # per hand, per seat: 136-ids as dealt


@dataclass
class _Kyoku:
    """One hand as it is written: the table, the indicators and each seat's moves."""

    meta: list[int]
    scores: list[int]
    haipai: list[list[int]]
    dora: list[int] = field(default_factory=list)
    ura: list[int] = field(default_factory=list)
    takes: list[list[Any]] = field(default_factory=lambda: [[] for _ in range(SEATS)])
    dahai: list[list[Any]] = field(default_factory=lambda: [[] for _ in range(SEATS)])
    discards: list[list[int]] = field(default_factory=lambda: [[] for _ in range(SEATS)])
    riichi: int | None = None
    result: list[Any] = field(default_factory=list)
    tenpai: list[int] | None = None

    def row(self) -> list[Any]:
        """Four columns of moves, an empty one for a three-player game's fourth seat."""
        seats = [part for s in range(SEATS) for part in
                 ((self.haipai[s], self.takes[s], self.dahai[s]) if s < len(self.haipai)
                  else ([], [], []))]
        return [self.meta, _four(self.scores), self.dora, self.ura, *seats, self.result]


def _four(values: Sequence[Any], empty: Any = 0) -> list[Any]:
    """Tenhou's four columns: a three-player game's fourth is empty.

    >>> _four([35000, 35000, 35000]), _four(["A", "B", "C"], "")
    ([35000, 35000, 35000, 0], ['A', 'B', 'C', ''])
    """
    return [*values, *[empty] * (SEATS - len(values))]


def to_tenhou6(events: Iterable[Event], starting_hands: StartingHands) -> dict[str, Any]:
    """The tenhou.net/6 record of ``events`` (undo/redo resolved), one hand per entry of
    ``starting_hands`` (136-ids per seat, as Tenhou's ``INIT`` deals them)."""
    state = TableState.new()
    kyokus: list[_Kyoku] = []
    names: tuple[str, ...] = ()
    for event in events:
        before, state = state, apply(state, event)
        if isinstance(event, GameStarted):
            names = event.names
        elif isinstance(event, HandStarted):
            kyokus.append(_start(state, event, starting_hands, len(kyokus)))
        elif isinstance(event, TrackingStopped):
            raise BadTenhou6(f"{state.round_label}: the camera stopped following this hand "
                             "(its tiles were not all seen): it cannot be written as "
                             "tenhou.net/6 (use --format mjai)")
        elif kyokus:
            _write(kyokus[-1], before, state, event)
    return _document(state, kyokus, names)


def _start(state: TableState, event: HandStarted, hands: StartingHands, index: int) -> _Kyoku:
    label = state.round_label
    if not event.tracked:
        raise BadTenhou6(f"{label}: a hand scored without its tiles cannot be written "
                         "as tenhou.net/6 (use --format mjai)")
    players = state.players
    if event.dora is None or index >= len(hands) or len(hands[index]) != players:
        raise BadTenhou6(f"{label}: tenhou.net/6 needs every player's starting hand, which "
                         "a table game does not see (use --format mjai)")
    red = state.rules.red_fives
    haipai = [[code(Tile.from_136(t, red)) for t in hands[index][seat]]
              for seat in range(players)]
    return _Kyoku([state.round_wind * SEATS + state.hand_number, state.honba, state.sticks],
                  list(state.scores), haipai, dora=[code(event.dora)])


def _write(kyoku: _Kyoku, before: TableState, after: TableState, event: Event) -> None:
    if isinstance(event, Draw):
        if event.tile is None:
            raise BadTenhou6(f"{before.round_label}: a draw nobody saw cannot be written")
        kyoku.takes[event.seat].append(code(event.tile))
    elif isinstance(event, Discard):
        _discard(kyoku, event)
    elif isinstance(event, RiichiDeclared):
        kyoku.riichi = event.seat
    elif isinstance(event, Kita):
        kyoku.dahai[event.seat].append(KITA)
    elif isinstance(event, Call):
        _call(kyoku, before, event)
    elif isinstance(event, DoraRevealed):
        kyoku.dora.append(code(event.indicator))
    elif isinstance(event, DiscardCorrected):
        slot = kyoku.discards[event.seat][event.index]
        old = kyoku.dahai[event.seat][slot]
        new = code(event.tile)
        kyoku.dahai[event.seat][slot] = f"r{new}" if isinstance(old, str) else new
    elif isinstance(event, DoraCorrected):
        kyoku.dora[event.index] = code(event.tile)
    if before.phase is Phase.HAND_IN_PLAY and after.phase is not Phase.HAND_IN_PLAY:
        _result(kyoku, before, after, event)


def _discard(kyoku: _Kyoku, event: Discard) -> None:
    value: Any = TSUMOGIRI if event.tsumogiri else code(event.tile)
    if kyoku.riichi == event.seat:
        value, kyoku.riichi = f"r{value}", None
    kyoku.discards[event.seat].append(len(kyoku.dahai[event.seat]))
    kyoku.dahai[event.seat].append(value)


def _call(kyoku: _Kyoku, before: TableState, event: Call) -> None:
    """Calls as tenhou.net/6 spells them: the letter sits where the called tile came from."""
    seat = event.seat
    if event.kind == "ankan":
        numbers = [str(code(t)) for t in event.tiles]
        kyoku.dahai[seat].append("".join(numbers[:3]) + "a" + numbers[3])
        return
    if event.kind == "shouminkan":
        kyoku.dahai[seat].append(_added_kan(before, event))
        return
    called = event.called if event.called in event.tiles else event.tiles[0]
    own = list(event.tiles)
    own.remove(called)
    letter = {"chi": "c", "pon": "p", "kan": "m"}[event.kind]
    kyoku.takes[seat].append(_spell(letter, called, own, (event.from_seat - seat) % SEATS))
    if event.kind == "kan":
        kyoku.dahai[seat].append(0)


def _spell(letter: str, called: Tile, own: list[Tile], relative: int) -> str:
    """``p121212`` from the left, ``12p1212`` from across, ``1212p12`` from the right;
    a kan from the right puts the letter after all three own tiles."""
    marked = f"{letter}{code(called)}"
    numbers = [str(code(t)) for t in own]
    at = {3: 0, 2: 1, 1: len(numbers)}[relative]
    return "".join(numbers[:at]) + marked + "".join(numbers[at:])


def _added_kan(before: TableState, event: Call) -> str:
    pon = next(m for m in before.seats[event.seat].melds
               if m.kind == "pon" and m.tiles[0].kind == event.tiles[0].kind)
    called = pon.called if pon.called in pon.tiles else pon.tiles[0]
    own = list(pon.tiles)
    own.remove(called)
    added = event.called if event.called is not None else event.tiles[-1]
    relative = (pon.from_seat - event.seat) % SEATS
    pon_text = _spell("p", called, own, relative)
    return pon_text.replace("p", f"k{code(added)}", 1)


def _result(kyoku: _Kyoku, before: TableState, after: TableState, event: Event) -> None:
    result = after.result
    if result is None:
        return
    if isinstance(event, Won):
        kyoku.result = [WIN]
        for win, deltas in zip(result.wins, _win_deltas(before, result.wins, result.deltas),
                               strict=True):
            kyoku.result += [_four(deltas), _win_detail(win, before.dealer, before.rules)]
        kyoku.ura = [code(t) for t in event.ura] if any(
            before.seats[w.seat].riichi for w in result.wins) else []
    elif isinstance(event, ExhaustiveDraw):
        kyoku.result = [_draw_name(event, before.players), _four(result.deltas)]
        kyoku.tenpai = list(result.tenpai)
    elif isinstance(event, AbortiveDraw):
        kyoku.result = [ABORT_NAMES[event.kind]]
    elif isinstance(event, Chombo):
        kyoku.result = [CHOMBO, _four(result.deltas), [event.seat]]


def _draw_name(event: ExhaustiveDraw, players: int) -> str:
    if event.nagashi:
        return NAGASHI
    return {players: ALL_TENPAI, 0: NONE_TENPAI}.get(len(event.tenpai), DRAW)


def _win_deltas(before: TableState, wins: tuple[WinResult, ...],
                total: tuple[int, ...]) -> list[list[int]]:
    """Each winner's own score changes (double ron: the nearest takes honba and sticks)."""
    if len(wins) == 1:
        return [list(total)]
    rules = before.rules
    out = []
    for index, win in enumerate(wins):
        honba = before.honba if index == 0 or rules.multi_ron_honba == "each" else 0
        sticks = before.sticks if index == 0 else 0
        claim = Claim(win.seat, win.value, win.pao_seat)
        out.append(settle_ron([claim], win.from_seat, before.dealer, honba, sticks, rules))
    return out


def _win_detail(win: WinResult, dealer: int, rules: Rules) -> list[Any]:
    """``[who, from, pao, "30符1飜1000点", "立直(1飜)", ...]``."""
    value = win.value
    source = win.seat if win.from_seat is None else win.from_seat
    pao = win.pao_seat if win.pao_seat is not None and rules.pao else win.seat
    yaku = [f"{JAPANESE.get(y.name, y.name)}({YAKUMAN_NAME if y.yakuman else f'{y.han}飜'})"
            for y in value.yaku if y.han or y.yakuman]
    return [win.seat, source, pao, _value_text(win, dealer, rules), *yaku]


def _value_text(win: WinResult, dealer: int, rules: Rules) -> str:
    value = win.value
    pay = hand_payment(value, honba=0, sticks=0, rules=rules)
    if value.tsumo:
        amount = f"{pay.all}点∀" if win.seat == dealer else f"{pay.non_dealer}-{pay.dealer}点"
    else:
        amount = f"{pay.ron}点"
    if value.yakuman:
        return YAKUMAN_NAME + amount
    if value.limit in LIMIT_NAMES:
        return LIMIT_NAMES[value.limit] + amount
    if value.limit:  # kazoe yakuman
        return YAKUMAN_NAME + amount
    return f"{value.fu}符{value.han}飜{amount}"


def _document(state: TableState, kyokus: list[_Kyoku], names: tuple[str, ...]
              ) -> dict[str, Any]:
    rules = state.rules
    data: dict[str, Any] = {
        "title": ["tablekit", ""], "name": _four(names, ""),
        "rule": {"disp": _disp(rules), "aka": int(rules.red_fives)},
        "log": [k.row() for k in kyokus],
    }
    if state.phase is Phase.GAME_OVER:
        by_seat = sorted(state.standings, key=lambda s: s.seat)
        sc = [v for s in by_seat for v in (s.points, s.score)]
        data["sc"] = sc + [0] * (2 * SEATS - len(sc))  # a three-player game's empty seat
    data["tablekit"] = {"rules": rules_to_dict(rules),
                        "tenpai": [k.tenpai for k in kyokus]}
    return data


def _disp(rules: Rules) -> str:
    """``般南喰赤``: the lobby, the length, open tanyao and red fives, as Tenhou shows them
    (``三般南喰赤`` for three players)."""
    length = "東" if rules.length == "tonpuusen" else "南"
    lobby = "三般" if rules.players == 3 else "般"
    return lobby + length + ("喰" if rules.open_tanyao else "") + ("赤" if rules.red_fives else "")
