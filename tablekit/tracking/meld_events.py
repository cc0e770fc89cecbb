"""Melds as events: a seat that pressed CALL lays new tiles by its hand, and the tiles
its known melds do not explain make a chi, pon or kan of the discard that may be called,
or a kan on its own turn (:mod:`tablekit.tracking.meld_reading` reads them).

>>> from tablekit.tiles import Tile, to_mpsz
>>> to_mpsz(own_kan((), 1, Tile.from_code("3z"), added=False).tiles)
'3333z'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from tablekit.game.events import Call, Discard, DiscardCorrected, Draw, Event
from tablekit.game.state import SEATS, TableState
from tablekit.rules.hand import Meld
from tablekit.rules.reading import TileRead
from tablekit.tiles import Tile
from tablekit.tracking.calls import CallWatch
from tablekit.tracking.discards import still_lies
from tablekit.tracking.hand_reading import visible_counts
from tablekit.tracking.kita_watch import without_kita
from tablekit.tracking.meld_reading import (
    ClaimKind,
    face_up_meld_tiles,
    new_reads,
    read_claimed,
    read_missed_pon,
    read_own_kan,
)
from tablekit.tracking.pond_votes import PondVotes, lying
from tablekit.tracking.stable_view import StableView

BACK_REACH = 40.0  # mm left of the melds' first face where a closed kan's left end lies


@dataclass
class MeldSpotter:
    """The next meld a seat that pressed CALL lays, from the steady view."""

    view: StableView
    calls: CallWatch
    votes: PondVotes

    def events(self, state: TableState) -> list[Event]:
        """The first new meld some vouched seat's steady row shows."""
        if state.wall == 0:
            return []
        for seat in range(state.players):
            melds = state.seats[seat].melds
            if not self.calls.vouches(state, seat):  # only a seat that pressed CALL melds
                continue
            row = self.view.meld_row(seat)
            if row is None:
                continue
            new = new_reads(row, melds)  # known meld tiles not seen (a sideways one) are let be
            kita = state.seats[seat].kita  # three players: the Norths set aside lie there too
            new = without_kita(new, kita)
            if 1 <= len(new) <= 4 and len(row) - kita - len(new) <= face_up_meld_tiles(melds):
                event = self._meld_event(state, seat, new)
                if event:
                    return event
        return []

    def _meld_event(self, state: TableState, seat: int, new: list[TileRead]) -> list[Event]:
        """The meld the new tiles of a seat's row make: for the discard that may be called
        (two new faces are the called tile's partners when the sideways tile is not seen),
        else a kan on the seat's own turn."""
        red_fives = state.rules.red_fives
        claim = state.last_discard if state.to_draw else None
        if claim is not None and claim[0] != seat and len(new) in (2, 3, 4) and \
                not still_lies(self.view, state, claim[0]):
            discarder, called = claim
            chi = state.players == SEATS and (seat - discarder) % SEATS == 1  # none for three
            found = read_claimed(new, called, chi=chi)
            if found is not None:
                kind, tiles = found
                if kind == "kan":
                    tiles = four_of(called, red_fives)
                counts = visible_counts(state, exclude_last_discard=True)
                counts.update(t.kind for t in tiles)
                over = [k for k, n in counts.items() if n > 4]
                if over:  # an earlier discard was misread: correct it first
                    earlier = self.votes.weakest(state, over[0], counts)
                    return [earlier[1]] if earlier is not None else []
                return [Call(seat, kind, tiles, called, discarder)]
            pond = self.view.pond(discarder)  # seen without it: the meld took it
            if pond is not None and len(pond) == lying(state, discarder) - 1:
                misread = misread_claim(state, seat, new)
                if misread:
                    return misread
        missed = self._missed_call(state, seat, new)
        if missed:
            return missed
        if len(new) in (1, 2) and state.turn == seat:
            melds = state.seats[seat].melds
            closed = sum(m.kind == "ankan" for m in melds)
            if len(new) == 2 and self.view.backs_by_melds(seat, BACK_REACH) <= 2 * closed:
                return []  # a closed kan shows its ends face down: two faces alone are not one
            lone = len(new) == 1 and (claim is None or claim[0] == seat
                                      or still_lies(self.view, state, claim[0]))
            tile = read_own_kan(new, [m.tiles[0].kind for m in melds if m.kind == "pon"],
                                lone)
            if tile is None:
                return []
            pre: list[Event] = [Draw(seat, rinshan=state.kan_draw)] if state.to_draw else []
            return [*pre, own_kan(melds, seat, tile, len(new) == 1, red_fives)]
        return []

    def _missed_call(self, state: TableState, seat: int, new: list[TileRead]) -> list[Event]:
        """A pon of a discard the camera never read: the seat to draw drew and discarded,
        and ``seat`` called it before its pond showed it (a dark face on a dark felt, an
        arm over the pond). The faces of the meld say what it was
        (:func:`~tablekit.tracking.meld_reading.read_missed_pon`); the draw, the discard and
        the call are given together; only while that pond is seen as the state has it (one
        not read, or showing more, may be a camera behind the table, and the called tile
        another seat's)."""
        discarder = state.turn
        if not state.to_draw or discarder is None or discarder == seat:
            return []
        pond = self.view.pond(discarder)  # seen as the state has it: nothing else to read
        if pond is None or len(pond) != lying(state, discarder):
            return []
        found = pon_of_faces(state, new, visible_counts(state, exclude_last_discard=False))
        if found is None:
            return []
        kind, called, tiles = found
        return [Draw(discarder, rinshan=state.kan_draw), Discard(discarder, called),
                Call(seat, kind, tiles, called, discarder)]


def misread_claim(state: TableState, seat: int, new: Sequence[TileRead]) -> list[Event]:
    """A pon or open kan of the discard that may be called, whose faces agree on another
    kind than the discard was registered as, when its pond is seen without it (the
    caller's check): the meld took it, so it was misread there. The discard is put right,
    then the call (kde-jade, 2026-12-07: a 6z read 3z; its pon was taken for a discard of
    the next seat's the camera never saw, and every turn after went one seat wrong).

    >>> from dataclasses import replace
    >>> from tablekit.game.state import PondTile
    >>> state = TableState.new()
    >>> seats = list(state.seats)
    >>> seats[3] = replace(seats[3], pond=(PondTile(Tile.from_code("3z")),))
    >>> state = replace(state, seats=tuple(seats), last_discard=(3, Tile.from_code("3z")),
    ...                 turn=0, to_draw=True)
    >>> [type(e).__name__ for e in misread_claim(state, 2, [TileRead.sure(Tile(32))] * 3)]
    ['DiscardCorrected', 'Call']
    """
    assert state.last_discard is not None
    discarder, _ = state.last_discard
    found = pon_of_faces(state, new, visible_counts(state, exclude_last_discard=True))
    if found is None:
        return []
    kind, called, tiles = found
    index = len(state.seats[discarder].pond) - 1
    return [DiscardCorrected(discarder, index, called), Call(seat, kind, tiles, called, discarder)]


def pon_of_faces(state: TableState, new: Sequence[TileRead], visible: Counter[int]
                 ) -> tuple[ClaimKind, Tile, tuple[Tile, ...]] | None:
    """The pon or open kan the new faces of a meld agree on, its called tile and its tiles
    (a kan all four copies, under the rules' red fives), whatever discard the state
    holds (:func:`~tablekit.tracking.meld_reading.read_missed_pon`)."""
    found = read_missed_pon(new, visible)
    if found is None:
        return None
    kind, called, tiles = found
    return kind, called, four_of(called, state.rules.red_fives) if kind == "kan" else tiles


def four_of(tile: Tile, red_fives: bool) -> tuple[Tile, ...]:
    """All four copies of a kind (one of them red for a five under red-five rules).

    >>> from tablekit.tiles import to_mpsz
    >>> to_mpsz(four_of(Tile.from_code("5p"), True))
    '5550p'
    """
    plain = tile.plain
    is_five = plain.kind < 27 and plain.kind % 9 == 4
    return (plain, plain, plain, Tile(plain.kind, red=True) if is_five and red_fives else plain)


def own_kan(melds: Sequence[Meld], seat: int, tile: Tile, added: bool,
            red_fives: bool = True) -> Call:
    """An added kan (``tile`` beside a pon of its kind) or a closed kan of ``tile``'s kind.
    A kan holds all four copies, so the added tile is the copy the pon lacks (the red five
    under red-five rules when the pon has none, else a plain one), whichever five was read.

    >>> from tablekit.tiles import to_mpsz
    >>> pon = [Meld.parse("pon:055p")]
    >>> kan = own_kan(pon, 1, Tile.from_code("0p"), added=True)
    >>> to_mpsz(kan.tiles), kan.called.code
    ('0555p', '5p')
    >>> own_kan([Meld.parse("pon:555s")], 1, Tile.from_code("5s"), added=True).called.code
    '0s'
    """
    if added:
        pon = next((m for m in melds if m.kind == "pon" and m.tiles[0].kind == tile.kind), None)
        base = pon.tiles if pon else (tile.plain,) * 3
        rest = list(four_of(tile, red_fives))
        for copy in base:
            if copy in rest:
                rest.remove(copy)
        added_tile = rest[-1] if len(rest) == 1 else tile
        return Call(seat, "shouminkan", (*base, added_tile), added_tile,
                    pon.from_seat if pon else None)
    return Call(seat, "ankan", four_of(tile, red_fives), None, None)
