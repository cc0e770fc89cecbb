"""A game hand by hand: one walk through the reducer, and one report of a hand compared.

:func:`walk` plays events through the engine and yields each hand (:class:`Hand`): as it
was dealt, its events, as its result left it, and as its last event left it. Every check
that takes a game hand by hand walks it so: the replay check and the tenhou.net/6 round
trip (:mod:`tablekit.formats.replay_check`), the recording check
(:mod:`tablekit.recording.check`) and the simulated table (:mod:`tablekit.sim.simulate`).
Each says what it found in a hand as a :class:`HandReport`: which hand, whether it is
exact, what differs, and the tiles compared. :func:`compare` compares two walks of the
same hand (the game as read and a record of it) tile by tile.

>>> from tablekit.game.events import (AbortiveDraw, Discard, Draw, GameEnded, GameStarted,
...                                   HandStarted)
>>> from tablekit.tiles import parse_tiles
>>> def game(dora, discards):
...     turns = [(Draw(seat), Discard(seat, tile))
...              for seat, tile in enumerate(parse_tiles(discards))]
...     return [GameStarted(), HandStarted(parse_tiles(dora)[0]),
...             *(event for turn in turns for event in turn), AbortiveDraw("four_winds")]
>>> first, second = walk(game("3p", "1z1z1z1z") + [HandStarted(), Draw(0), GameEnded("time")])
>>> first.number, first.label, str(first.result.kind), len(first.events), first.ended
(0, 'E1-0', 'abortive_draw', 10, True)
>>> second.label, second.ended, second.last.phase.name
('E1-1', False, 'GAME_OVER')
>>> compare(*walk(game("3p", "1z2z1z1z")), *walk(game("3s", "1z1z1z1z"))).line()
"E1-0: South's 1st discard read 2z, record 1z; the 1st dora indicator read 3p, record 3s"
>>> report = compare(*walk(game("3s", "1z1z1z1z")), *walk(game("3s", "1z1z1z1z")))
>>> report.line(), report.exact, report.tiles, report.tiles_right
('E1-0: exact', True, 5, 5)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from tablekit.game.events import HAND_ENDS, BadEvent, Event, GameStarted, HandStarted
from tablekit.game.reducer import apply
from tablekit.game.state import HandResult, TableState, ordinal
from tablekit.tiles import WIND_NAMES, Tile


@dataclass(frozen=True)
class Hand:
    """One hand of a game as the engine played it.

    ``number`` counts the game's hands from 0; ``events`` run from its deal to the next deal
    (or the game's next start, or the end): its result and what came after it (a game's
    end) included. ``start`` is the table as dealt, ``end`` as its result left it (the
    first of :data:`~tablekit.game.events.HAND_ENDS`; as its events left it when none
    came), ``last`` as its last event left it (a kan's dora shown after the win included).
    ``refused``: why the engine refused the event after ``events`` (the walk stops there);
    a refused deal leaves ``start`` the table before it.
    """

    number: int
    start: TableState
    events: tuple[Event, ...]
    end: TableState
    last: TableState
    refused: str = ""

    @property
    def label(self) -> str:
        """The hand as the table names it: ``E1-0`` (round, hand, honba)."""
        return self.start.short_label

    @property
    def result(self) -> HandResult | None:
        """How it ended (none: a refused deal, or a hand refused or cut short in play)."""
        return self.end.result if self.events else None

    @property
    def ended(self) -> bool:
        """Whether its result came."""
        return self.result is not None


def walk(events: Iterable[Event], state: TableState | None = None) -> Iterator[Hand]:
    """Each hand of ``events`` played from ``state`` (a new table when none), in order.

    An event the engine refuses in a hand, or a hand whose points plus deposits change,
    ends the walk with that hand, ``refused`` saying why; one refused outside any hand
    raises :class:`~tablekit.game.events.BadEvent`.

    >>> from tablekit.game.events import Draw, GameStarted, HandStarted
    >>> [(hand.label, hand.refused) for hand in walk([GameStarted(), HandStarted(), Draw(1)])]
    [('E1-0', "draw by South: it is East's turn to draw")]
    >>> list(walk([GameStarted(), GameStarted()]))
    Traceback (most recent call last):
    tablekit.game.events.BadEvent: game started: the game is at 'hand over'
    """
    state = TableState.new() if state is None else state
    number, start, end, total = 0, state, None, 0
    hand: list[Event] | None = None   # the hand's events so far (none before a first deal)

    def walked(refused: str = "") -> Hand:
        return Hand(number, start, tuple(hand or ()), end or state, state, refused)

    for event in events:
        dealt = isinstance(event, HandStarted)
        if dealt or isinstance(event, GameStarted):
            if hand is not None:
                yield walked()
                number += 1
            number, hand, end = number if dealt else 0, None, None
        try:
            after = apply(state, event)
        except BadEvent as error:
            if hand is None and not dealt:
                raise
            start = state if hand is None else start   # a refused deal: the table before it
            yield walked(str(error))
            return
        state = after
        if dealt:
            start, end, hand, total = state, None, [], state.total_points
        elif hand is None:
            continue
        hand.append(event)
        if end is None and isinstance(event, HAND_ENDS):
            end = state
        if state.total_points != total:
            yield walked(f"points plus deposits changed to {state.total_points:,}")
            return
    if hand is not None:
        yield walked()


def last_game(events: Iterable[Event]) -> list[Event]:
    """The events of the last game in ``events``: from its ``GameStarted`` on (all of
    them when none starts one).

    >>> from tablekit.game.events import GameEnded
    >>> last = last_game([GameStarted(), GameEnded("time"), GameStarted(names=tuple("ABCD"))])
    >>> [type(event).__name__ for event in last], last[0].names
    (['GameStarted'], ('A', 'B', 'C', 'D'))
    """
    events = list(events)
    starts = [i for i, event in enumerate(events) if isinstance(event, GameStarted)]
    return events[starts[-1] if starts else 0:]


@dataclass(frozen=True)
class HandReport:
    """One hand checked against a record of it: ``label`` says which hand (as the check
    names it), ``differences`` what differs (none: the hand is exact), ``tiles`` how many
    tiles were compared and ``tiles_right`` how many of them were the same.

    >>> report = HandReport("E2-1", ("score changes [0, 0] != log [-1000, 1000]",))
    >>> report.exact, report.lines
    (False, ['E2-1: score changes [0, 0] != log [-1000, 1000]'])
    >>> HandReport("S1-0").line()
    'S1-0: exact'
    """

    label: str
    differences: tuple[str, ...] = ()
    tiles: int = 0
    tiles_right: int = 0

    @property
    def exact(self) -> bool:
        return not self.differences

    @property
    def lines(self) -> list[str]:
        """Each difference in a line of its own, the hand named first."""
        return [f"{self.label}: {difference}" for difference in self.differences]

    def line(self) -> str:
        """The hand in one line: exact, or what differs."""
        return f"{self.label}: {'; '.join(self.differences) or 'exact'}"


def compare(got: Hand, want: Hand) -> HandReport:
    """The hand as read (``got``) against the same hand as a record has it (``want``; both
    ended), tile by tile: each seat's discards in order, its calls, the dora indicators,
    the winners' revealed hands, the result and score changes. The record's tiles are
    counted: ``tiles_right`` those read the same (a discard or an indicator in its place; a
    call's or a revealed hand's tiles as a set, whatever their order). Seats are named by
    their wind in the hand.
    """
    found = _Comparing(want)
    found.compare(got)
    return HandReport(want.label, tuple(found.differences), found.tiles, found.tiles_right)


def tiles_in(hand: Hand) -> int:
    """The tiles :func:`compare` counts in ``hand`` (as a record: none read of them)."""
    view = _View.of(hand)
    return (sum(map(len, view.discards)) + len(view.dora)
            + sum(len(tiles) for seat in view.calls for _, tiles in seat)
            + sum(len(tiles) for _, tiles in view.revealed))


@dataclass(frozen=True)
class _View:
    """A hand at its result, as :func:`compare` reads it."""

    dealer: int
    players: int
    result: str
    deltas: tuple[int, ...]
    discards: tuple[tuple[Tile, ...], ...]
    calls: tuple[tuple[tuple[str, tuple[Tile, ...]], ...], ...]
    dora: tuple[Tile, ...]
    revealed: tuple[tuple[int, tuple[Tile, ...]], ...]

    @classmethod
    def of(cls, hand: Hand) -> _View:
        state, result = hand.end, hand.result
        assert result is not None
        return cls(
            hand.start.dealer, len(result.deltas), str(result.kind), tuple(result.deltas),
            tuple(seat.discards for seat in state.seats),
            tuple(tuple((meld.kind, meld.tiles) for meld in seat.melds) for seat in state.seats),
            tuple(state.dora),
            tuple((win.seat, (*win.hand, win.win_tile)) for win in result.wins))

    def seat(self, seat: int) -> str:
        """A seat by its wind in this hand (the dealer is East)."""
        return WIND_NAMES[(seat - self.dealer) % self.players]

    def said(self) -> str:
        deltas = " ".join(f"{delta:+d}" for delta in self.deltas)
        return f"{self.result} ({deltas})"


class _Comparing:
    """The differences and tiles counted comparing a hand with the record's ``want``."""

    def __init__(self, want: Hand) -> None:
        self.want = _View.of(want)
        self.differences: list[str] = []
        self.tiles = self.tiles_right = 0

    def compare(self, hand: Hand) -> None:
        got, want, say = _View.of(hand), self.want, self.differences.append
        for seat, (read, kept) in enumerate(zip(got.discards, want.discards, strict=False)):
            self._in_order(read, kept, f"{want.seat(seat)}'s {{}} discard")
            if len(read) != len(kept):
                say(f"{want.seat(seat)} discarded {len(read)} tiles as read, "
                    f"{len(kept)} in the record")
        for seat, (read, kept) in enumerate(zip(got.calls, want.calls, strict=False)):
            for number in range(max(len(read), len(kept))):
                a, b = _at(read, number), _at(kept, number)
                self._count(a and a[1], b and b[1])
                if a is None or b is None or a[0] != b[0] or Counter(a[1]) != Counter(b[1]):
                    say(f"{want.seat(seat)}'s {_nth(number)} call read {_call(a)}, "
                        f"record {_call(b)}")
        self._in_order(got.dora, want.dora, "the {} dora indicator")
        read_hands, kept_hands = dict(got.revealed), dict(want.revealed)
        for seat in sorted(set(read_hands) | set(kept_hands)):
            a, b = read_hands.get(seat), kept_hands.get(seat)
            self._count(a, b)
            if a is None or b is None or Counter(a) != Counter(b):
                say(f"{want.seat(seat)}'s winning hand read {_codes(a)}, record {_codes(b)}")
        if (got.result, got.deltas) != (want.result, want.deltas):
            say(f"the result: read {got.said()}, record {want.said()}")

    def _count(self, read: Sequence[Tile] | None, kept: Sequence[Tile] | None) -> None:
        """The record's tiles ``kept`` counted, as a set: those ``read`` too are right."""
        self.tiles += len(kept) if kept else 0
        self.tiles_right += _common(read, kept) if read and kept else 0

    def _in_order(self, read: Sequence[Tile], kept: Sequence[Tile], what: str) -> None:
        """Tiles compared place by place (a missing or extra one is counted, said once)."""
        self.tiles += len(kept)
        for number, (a, b) in enumerate(zip(read, kept, strict=False)):
            if a == b:
                self.tiles_right += 1
            else:
                self.differences.append(f"{what.format(_nth(number))} read {a.code}, "
                                        f"record {b.code}")
        if len(read) != len(kept) and "dora" in what:
            self.differences.append(
                f"{what.format('number of').replace(' indicator', ' indicators')}"
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
