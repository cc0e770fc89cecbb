"""The game as read compared with a record kept of it (``tablekit recording check``).

Both games are lists of events in force (the recording's journal; a record kept by a
person or another system, read by :mod:`tablekit.formats`). Each is played through the
reducer and every hand is taken as it stood when its result came (:class:`HandSeen`):
the result and score changes, each seat's discards in order, its calls, the dora
indicators, the winners' revealed hands. Hands are paired by their label (round, hand,
honba); every difference is one readable line, and the tiles are counted: ``tiles`` those
the record has, ``tiles_right`` those read the same (a discard or an indicator in its
place; a call's or a revealed hand's tiles as a set of tiles, whatever their order).
A recording of a part of the game is checked on the hands it holds: the record's hands
after the last one read (and beyond as many as were read) were not recorded; they are
named in ``not_recorded``, and neither their hands nor their tiles are counted.

>>> from tablekit.game.events import AbortiveDraw, Discard, Draw, GameStarted, HandStarted
>>> from tablekit.tiles import parse_tiles
>>> def game(dora, discards):
...     turns = [(Draw(seat), Discard(seat, tile))
...              for seat, tile in enumerate(parse_tiles(discards))]
...     return [GameStarted(), HandStarted(parse_tiles(dora)[0]),
...             *(event for turn in turns for event in turn), AbortiveDraw("four_winds")]
>>> check = compare(game("3p", "1z2z1z1z"), game("3s", "1z1z1z1z"))
>>> check.lines
["E1-0: South's 1st discard read 2z, record 1z", 'E1-0: the 1st dora indicator read 3p, record 3s']
>>> check.hands, check.hands_exact, check.tiles, check.tiles_right
(1, 0, 5, 3)
>>> compare(game("3s", "1z1z1z1z"), game("3s", "1z1z1z1z")).summary()["hands_exact"]
1
>>> part = compare(game("3s", "1z1z1z1z"), game("3s", "1z1z1z1z")[:-1] + [
...     AbortiveDraw("four_winds"), HandStarted(parse_tiles("3s")[0]),
...     AbortiveDraw("four_winds")])
>>> part.hands, part.hands_exact, part.tiles, part.not_recorded, part.lines
(1, 1, 5, ['E1-1'], [])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tablekit.errors import BadInput
from tablekit.game.events import BadEvent, Event, GameStarted, to_json
from tablekit.game.reducer import apply
from tablekit.game.state import TableState, ordinal
from tablekit.tiles import WIND_NAMES, Tile


@dataclass(frozen=True)
class HandSeen:
    """One hand as a game's events left it when its result came."""

    label: str
    dealer: int
    result: str
    deltas: tuple[int, ...]
    discards: tuple[tuple[Tile, ...], ...]
    calls: tuple[tuple[tuple[str, tuple[Tile, ...]], ...], ...]
    dora: tuple[Tile, ...]
    revealed: tuple[tuple[int, tuple[Tile, ...]], ...]

    def seat(self, seat: int) -> str:
        """A seat by its wind in this hand (the dealer is East)."""
        return WIND_NAMES[(seat - self.dealer) % len(self.deltas)]


@dataclass
class Check:
    """What comparing two games found."""

    hands: int = 0          # the record's hands
    hands_exact: int = 0    # read exactly as the record has them
    tiles: int = 0          # the record's tiles compared
    tiles_right: int = 0    # of them, read the same
    hands_read: int = 0     # the hands of the game as read
    lines: list[str] = field(default_factory=list)
    not_recorded: list[str] = field(default_factory=list)  # the record's hands after them

    def summary(self) -> dict[str, Any]:
        return {"hands": self.hands, "hands_exact": self.hands_exact, "tiles": self.tiles,
                "tiles_right": self.tiles_right, "hands_read": self.hands_read,
                "differences": len(self.lines), "not_recorded": list(self.not_recorded)}

    def text(self, name: str) -> str:
        """The summary line, under the recording's ``name``.

        >>> Check(2, 2, 139, 139, 2, not_recorded=["E3-0", "E4-0"]).text("rec")
        'rec: 2/2 hands exact, 139/139 tiles right, 0 differences (2 hands read; not \
recorded: E3-0, E4-0)'
        """
        rest = f"; not recorded: {', '.join(self.not_recorded)}" if self.not_recorded else ""
        return (f"{name}: {self.hands_exact}/{self.hands} hands exact, {self.tiles_right}/"
                f"{self.tiles} tiles right, {len(self.lines)} differences "
                f"({self.hands_read} hand{'' if self.hands_read == 1 else 's'} read{rest})")


def hands_seen(events: Iterable[Event]) -> list[HandSeen]:
    """Each hand of the last game in ``events`` as it stood when its result came."""
    events = list(events)
    starts = [i for i, event in enumerate(events) if isinstance(event, GameStarted)]
    state, start, hands = TableState.new(), TableState.new(), []
    for event in events[starts[-1] if starts else 0:]:
        ended = state.result is not None
        state = apply(state, event)
        if type(event).__name__ == "HandStarted":
            start = state
        elif state.result is not None and not ended:
            hands.append(_seen(state, start))
    return hands


def _seen(state: TableState, start: TableState) -> HandSeen:
    """The hand as it stood at its result (``start``: as it was dealt)."""
    result = state.result
    assert result is not None
    return HandSeen(
        start.short_label, start.dealer, str(result.kind), tuple(result.deltas),
        tuple(seat.discards for seat in state.seats),
        tuple(tuple((meld.kind, meld.tiles) for meld in seat.melds) for seat in state.seats),
        tuple(state.dora),
        tuple((win.seat, (*win.hand, win.win_tile)) for win in result.wins))


def compare(read: Iterable[Event], record: Iterable[Event]) -> Check:
    """The game as read (``read``) against the record kept of it (``record``)."""
    check = Check()
    mine = {hand.label: hand for hand in _played(read, "the game as read")}
    theirs = _played(record, "the record")
    read_last = max((i + 1 for i, hand in enumerate(theirs) if hand.label in mine), default=0)
    recorded = max(read_last, min(len(mine), len(theirs)))
    theirs, check.not_recorded = theirs[:recorded], [h.label for h in theirs[recorded:]]
    check.hands, check.hands_read = len(theirs), len(mine)
    for hand in theirs:
        got = mine.pop(hand.label, None)
        if got is None:
            check.lines.append(f"{hand.label}: in the record, not read")
            check.tiles += _tiles(hand)
            continue
        before = len(check.lines)
        _compare_hand(got, hand, check)
        check.hands_exact += len(check.lines) == before
    check.lines.extend(f"{label}: read, not in the record" for label in mine)
    return check


def plain_record(events: Iterable[Event]) -> str:
    """The last game in ``events`` as a record to correct by hand: one event a line, plain
    JSON (a journal of format 1: no numbers, no checksums), which :func:`compare` reads
    back as the record.

    >>> from tablekit.game.events import GameEnded
    >>> plain_record([GameStarted(names=("A", "B", "C", "D")), GameEnded("time")]).splitlines()[1]
    '{"type": "game_ended", "reason": "time"}'
    """
    events = list(events)
    starts = [i for i, event in enumerate(events) if isinstance(event, GameStarted)]
    return "".join(to_json(event) + "\n" for event in events[starts[-1] if starts else 0:])


def _played(events: Iterable[Event], name: str) -> list[HandSeen]:
    try:
        return hands_seen(events)
    except BadEvent as error:
        raise BadInput(f"{name} does not play: {error}") from None


def _tiles(hand: HandSeen) -> int:
    return (sum(map(len, hand.discards)) + len(hand.dora)
            + sum(len(tiles) for seat in hand.calls for _, tiles in seat)
            + sum(len(tiles) for _, tiles in hand.revealed))


def _compare_hand(got: HandSeen, want: HandSeen, check: Check) -> None:
    say = check.lines.append
    label = want.label
    for seat, (read, kept) in enumerate(zip(got.discards, want.discards, strict=False)):
        _in_order(check, read, kept, f"{label}: {want.seat(seat)}'s {{}} discard")
        if len(read) != len(kept):
            say(f"{label}: {want.seat(seat)} discarded {len(read)} tiles as read, "
                f"{len(kept)} in the record")
    for seat, (read, kept) in enumerate(zip(got.calls, want.calls, strict=False)):
        for number in range(max(len(read), len(kept))):
            a, b = _at(read, number), _at(kept, number)
            check.tiles += len(b[1]) if b else 0
            check.tiles_right += _common(a[1], b[1]) if a and b else 0
            if a is None or b is None or a[0] != b[0] or Counter(a[1]) != Counter(b[1]):
                say(f"{label}: {want.seat(seat)}'s {_nth(number)} call read {_call(a)}, "
                    f"record {_call(b)}")
    _in_order(check, got.dora, want.dora, f"{label}: the {{}} dora indicator")
    read_hands, kept_hands = dict(got.revealed), dict(want.revealed)
    for seat in sorted(set(read_hands) | set(kept_hands)):
        a, b = read_hands.get(seat), kept_hands.get(seat)
        check.tiles += len(b) if b else 0
        check.tiles_right += _common(a, b) if a and b else 0
        if a is None or b is None or Counter(a) != Counter(b):
            say(f"{label}: {want.seat(seat)}'s winning hand read {_codes(a)}, "
                f"record {_codes(b)}")
    if (got.result, got.deltas) != (want.result, want.deltas):
        say(f"{label}: the result: read {_result(got)}, record {_result(want)}")


def _in_order(check: Check, read: Sequence[Tile], kept: Sequence[Tile], what: str) -> None:
    """Tiles compared place by place (a missing or extra one is counted, said once)."""
    check.tiles += len(kept)
    for number, (a, b) in enumerate(zip(read, kept, strict=False)):
        if a == b:
            check.tiles_right += 1
        else:
            check.lines.append(f"{what.format(_nth(number))} read {a.code}, record {b.code}")
    if len(read) != len(kept) and "dora" in what:
        check.lines.append(f"{what.format('number of').replace(' indicator', ' indicators')}"
                           f": read {len(read)}, record {len(kept)}")


def _at(items: Sequence[Any], index: int) -> Any:
    return items[index] if index < len(items) else None


def _common(a: Sequence[Tile], b: Sequence[Tile]) -> int:
    return sum((Counter(a) & Counter(b)).values())


def _nth(index: int) -> str:
    """``index`` 0 as "1st".

    >>> [_nth(i) for i in (0, 1, 2, 3, 10, 11, 20)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '21st']
    """
    return ordinal(index + 1)


def _codes(tiles: Sequence[Tile] | None) -> str:
    return "nothing" if not tiles else "".join(tile.code for tile in tiles)


def _call(call: tuple[str, tuple[Tile, ...]] | None) -> str:
    return "none" if call is None else f"{call[0]} {_codes(call[1])}"


def _result(hand: HandSeen) -> str:
    deltas = " ".join(f"{delta:+d}" for delta in hand.deltas)
    return f"{hand.result} ({deltas})"
