"""The turn order of a tenhou.net/6 hand, rebuilt from each seat's draw and discard lists.

A call takes the turn (a pon before a chi of the same tile), a kan draws again, an open
kan's dora is turned when its player goes on, and every tile a seat gives away must be in
its hand. When a seat discards the same tile twice and the record does not say which one
was called, both readings are tried. Three players (sanma): a North set aside is ``f44``
among the discards (a :class:`~tablekit.game.events.Kita`, a replacement drawn next); the
letter of a call still counts places around Tenhou's four-seat table, the fourth empty.

>>> from tablekit.formats.tenhou6 import tile
>>> call = take_call("12p1212", seat=1)
>>> call.kind, call.called, call.from_seat
('pon', Tile('2m'), 3)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from tablekit.formats.tenhou6 import KITA, TSUMOGIRI, BadTenhou6, tile
from tablekit.game.events import (
    Call,
    Discard,
    DoraRevealed,
    Draw,
    Event,
    Kita,
    RiichiDeclared,
)
from tablekit.rules.hand import MeldKind
from tablekit.tiles import Tile

SEATS = 4  # the places a call's letter counts around, three players too
MAX_TRIES = 64


@dataclass
class Last:
    """How the hand's moves ended: the seat that acted last and the tile it gave or drew."""

    seat: int
    tile: Tile
    drew: bool


@dataclass
class Moves:
    events: list[Event]
    hands: list[Counter[Tile]]


def play(haipai: list[list[Tile]], takes: list[list[Any]], dahai: list[list[Any]],
          kan_dora: list[Tile], dealer: int, players: int = SEATS) -> tuple[Moves, Last]:
    """The moves in turn order; ambiguous calls of a tile discarded twice are retried."""
    tried: list[frozenset[int]] = [frozenset()]
    first_error: BadTenhou6 | None = None
    for skip in tried:
        play = _Play(haipai, takes, dahai, kan_dora, dealer, skip, players)
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
                 skip: frozenset[int], players: int = SEATS) -> None:
        self.players = players
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
        self.last: Last | None = None

    def run(self) -> tuple[Moves, Last]:
        while True:
            if not self.takes[self.actor]:
                raise BadTenhou6(f"seat {self.actor} has no draw or call left")
            if self._take(self.takes[self.actor].pop(0)):
                continue  # an open kan draws again
            if not self.dahai[self.actor]:
                break  # a tsumo or nine terminals
            if self._give(self.dahai[self.actor].pop(0)):
                if not self.takes[self.actor]:
                    break  # robbed (chankan), or a North set aside ronned
                continue  # a closed or added kan draws again
            if not any(self.takes):
                break
            self.actor = self._next_actor()
        if any(self.takes) or any(self.dahai):
            raise BadTenhou6("moves are left after the hand ended")
        assert self.last is not None
        return Moves(self.events, self.hands), self.last

    def _take(self, item: Any) -> bool:
        """A draw or a call from a discard; True for an open kan."""
        seat = self.actor
        if isinstance(item, str):
            call = take_call(item, seat)
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
        self.last = Last(seat, drawn, drew=True)
        return False

    def _give(self, item: Any) -> bool:
        """A discard (False), or a closed or added kan or a kita (True). An open or added
        kan's dora is turned when its player goes on after the replacement draw: before a
        discard or an added kan, after a closed kan or a North set aside (three players),
        as Tenhou records it."""
        seat = self.actor
        if item == KITA:
            north = tile(44)
            self._remove(seat, [north])
            self.events.append(Kita(seat))
            self._reveal_pending()
            self.kan_draw = True
            self.last = Last(seat, north, drew=False)
            return True
        closed = isinstance(item, str) and "a" in item
        if not closed:
            self._reveal_pending()
        if isinstance(item, str) and (closed or "k" in item):
            call = _given_call(item, seat, self.events)
            self._remove(seat, _own(call))
            self.events.append(call)
            self.kan_draw = True
            if call.kind == "ankan":
                self._reveal_pending()
                self._reveal()
            else:
                self.pending_dora = True
                self.last = Last(seat, call.called or call.tiles[-1], drew=False)
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
        self.last = Last(seat, thrown, drew=False)
        self.steps += 1
        return False

    def _next_actor(self) -> int:
        """Who takes the turn after this discard: a caller of it (pon before chi), or the
        next seat."""
        thrown = self.last.tile if self.last else None
        callers = []
        for seat in range(self.players):
            items = self.takes[seat]
            if seat == self.actor or not items or not isinstance(items[0], str):
                continue
            call = take_call(items[0], seat)
            if call.from_seat == self.actor and call.called == thrown:
                callers.append((call.kind != "chi", seat))
        step = self.steps
        if callers and self._discards_again(thrown):
            self.ambiguous.append(step)
        if callers and step not in self.skip:
            return max(callers)[1]
        return (self.actor + 1) % self.players

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


def take_call(text: str, seat: int) -> Call:
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
    tiles = in_tenhou_order(tile(n) for n in numbers)
    kinds: dict[str, MeldKind] = {"c": "chi", "p": "pon", "m": "kan"}
    return Call(seat, kinds[letter], tiles, called, (seat + relative) % SEATS)


def _given_call(text: str, seat: int, events: list[Event]) -> Call:
    """``424242a42`` (a closed kan) or ``41k414141`` (a tile added to a pon)."""
    if "a" in text:
        numbers = _numbers(text.replace("a", ""))
        if len(numbers) != 4:
            raise BadTenhou6(f"{text!r} is not a closed kan")
        return Call(seat, "ankan", in_tenhou_order(tile(n) for n in numbers))
    at = text.index("k")
    numbers = _numbers(text.replace("k", ""))
    if at % 2 or len(numbers) != 4:
        raise BadTenhou6(f"{text!r} is not an added kan")
    added = tile(numbers[at // 2])
    pon = next((e for e in reversed(events) if isinstance(e, Call) and e.seat == seat
                and e.kind == "pon" and e.tiles[0].kind == added.kind), None)
    if pon is None:
        raise BadTenhou6(f"{text!r} adds to a pon seat {seat} does not have")
    return Call(seat, "shouminkan", in_tenhou_order([*pon.tiles, added]), added, pon.from_seat)


def in_tenhou_order(tiles: Iterable[Tile]) -> tuple[Tile, ...]:
    """In Tenhou's 136-id order: a red five before the other fives."""
    return tuple(sorted(tiles, key=lambda t: (t.kind, not t.red)))
