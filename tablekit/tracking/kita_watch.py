"""Three players (sanma): a North set aside (kita) as a :class:`~tablekit.game.events.Kita`,
not a discard. A kita lies face up in its player's meld row, to the right of the hand (left
of the melds): the seat whose turn it is shows one more North there than its melds and its
kita so far explain. The meld spotter leaves those Norths out of a new meld.

>>> from tablekit.tiles import parse_tiles
>>> from tablekit.rules.reading import TileRead
>>> reads = [TileRead.sure(t) for t in parse_tiles("44z123m")]
>>> [r.best[0].code for r in without_kita(reads, 1)]
['4z', '1m', '2m', '3m']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from tablekit.game.events import Draw, Event, Kita
from tablekit.game.state import NORTH, SEATS, TableState
from tablekit.rules.reading import TileRead
from tablekit.tracking.meld_reading import new_reads


class MeldRows(Protocol):
    def meld_row(self, seat: int) -> list[TileRead] | None: ...


def is_north(read: TileRead) -> bool:
    return read.best[0].kind == NORTH


def without_kita(new: Sequence[TileRead], kita: int) -> list[TileRead]:
    """A meld row's new reads less the seat's ``kita`` Norths set aside (the leftmost)."""
    out, left = [], kita
    for read in new:
        if left and is_north(read):
            left -= 1
            continue
        out.append(read)
    return out


def plays_kita(state: TableState) -> bool:
    """Whether this table sets Norths aside: three players, North as kita."""
    return state.players < SEATS and state.rules.north != "yakuhai"


def kita_events(view: MeldRows, state: TableState) -> list[Event]:
    """``[Draw, Kita]`` (or ``[Kita]`` after the draw) when the seat whose turn it is shows
    a North set aside that its kita do not count yet; else nothing."""
    seat = state.turn
    if seat is None or not plays_kita(state) or state.wall == 0:
        return []
    row = view.meld_row(seat)
    if row is None:
        return []
    new = new_reads(row, state.seats[seat].melds)
    if sum(is_north(read) for read in new) <= state.seats[seat].kita or not all(
            map(is_north, new)):  # other tiles beside: a hand laid open, a meld, no kita
        return []
    pre: list[Event] = [Draw(seat, rinshan=state.kan_draw)] if state.to_draw else []
    return [*pre, Kita(seat)]
