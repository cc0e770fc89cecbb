"""Rules-aware reading of a revealed hand from uncertain tile reads.

The camera gives each tile position a few candidate tiles with probabilities.
:func:`rank_hands` finds the most probable readings that a game allows: the
concealed tiles form a complete hand with the melds, and no kind appears more
than four times over everything visible on the table. Readings come ranked,
so the display can show the best one and say how sure it is.

>>> reads = [TileRead.sure(t) for t in parse_tiles("234567m234p67899s")]
>>> reads[-1] = TileRead(((Tile.from_code("8s"), 0.55), (Tile.from_code("9s"), 0.45)))
>>> best = rank_hands(reads)[0]
>>> to_mpsz(best.tiles), round(best.share, 2)
('234567m234p67899s', 1.0)
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from mahjong.agari import Agari

from tablekit.rules.hand import concealed_count
from tablekit.tiles import Tile, parse_tiles, to_34_counts, to_mpsz

BEAM = 256
WILD = 30
"""A read with at least this many candidates is a tile not seen (any kind)."""
WILD_BASES = 6
FLOOR = 1e-6


@dataclass(frozen=True)
class TileRead:
    """Candidate tiles for one position, most likely first; probabilities sum to <= 1."""

    candidates: tuple[tuple[Tile, float], ...]

    @classmethod
    def sure(cls, tile: Tile) -> TileRead:
        return cls(((tile, 1.0),))

    @property
    def best(self) -> tuple[Tile, float]:
        return self.candidates[0]


@dataclass(frozen=True)
class HandReading:
    """One reading of the hand: tiles in position order, its probability, and its share
    of the probability of all readings the rules allow."""

    tiles: tuple[Tile, ...]
    log_p: float
    share: float = 1.0

    @property
    def probability(self) -> float:
        return math.exp(self.log_p)


def rank_hands(reads: Sequence[TileRead], melds: int = 0, visible: Counter[int] | None = None,
               limit: int = 5, beyond: Callable[[int], float] | None = None,
               order: float = 1.0) -> list[HandReading]:
    """Readings of the concealed tiles that complete a hand, most probable first.

    ``melds`` is the number of called sets beside the hand; ``visible`` counts kinds
    already seen elsewhere on the table (ponds, melds, dora indicators). Given those, each
    tile is also weighed by how many copies of its kind are left for it (not seen on the
    table, nor earlier in the hand): a face read as likely 6m as 9m is a 6m where three
    9m lie in the ponds (:func:`copies_left`). A read with nearly every kind as a
    candidate (a tile not seen) is tried exhaustively over the likeliest readings of the
    others.

    ``beyond``: the chance that a kind is on the table past its four copies with those
    ``visible`` (one of them misread), a kind; each tile past the four is that much less
    likely, and as likely as the one copy left once the misread one is taken away (without
    ``beyond``, or at 0, no reading holds a fifth). ``order``: how much less likely a
    reading is for each pair of neighbours of one suit whose numbers fall, the winning
    tile (the last) left out (players keep a hand in order; 1.0: order does not count).

    >>> two_ways = [TileRead.sure(t) for t in parse_tiles("45678m234p55s")]
    >>> two_ways.append(TileRead(((Tile.from_code("9m"), 0.5), (Tile.from_code("3m"), 0.45))))
    >>> [to_mpsz(h.tiles[-1:]) for h in rank_hands(two_ways, melds=1)]
    ['9m', '3m']
    >>> [to_mpsz(h.tiles[-1:]) for h in rank_hands(two_ways, melds=1, visible=Counter({8: 2}))]
    ['3m', '9m']
    >>> rank_hands(two_ways, melds=1, visible=Counter({2: 4, 8: 4}))
    []
    >>> [to_mpsz(h.tiles[-1:]) for h in rank_hands(two_ways, melds=1, visible=Counter({2: 4,
    ...  8: 4}), beyond={2: 0.3, 8: 0.001}.get)]
    ['3m', '9m']
    >>> row = [TileRead.sure(t) for t in parse_tiles("45667888m67p678s8p")]
    >>> row[3] = TileRead(((Tile.from_code("9m"), 0.5), (Tile.from_code("6m"), 0.45)))
    >>> [to_mpsz(h.tiles[:8]) for h in rank_hands(row, limit=1)]
    ['45697888m']
    >>> [to_mpsz(h.tiles[:8]) for h in rank_hands(row, limit=1, order=0.2)]
    ['45667888m']
    """
    weigh = visible is not None
    visible = visible or Counter()
    wild = [i for i, read in enumerate(reads) if len(read.candidates) >= WILD]
    beam: list[tuple[float, tuple[Tile, ...]]] = [(0.0, ())]
    for index, read in enumerate(reads):
        if index in wild:
            continue
        grown = []
        for log_p, tiles in beam:
            for tile, p in read.candidates:
                prior = _prior(tile, tiles, visible, weigh, beyond)
                if prior is not None:
                    grown.append((log_p + math.log(max(p, FLOOR)) + prior, (*tiles, tile)))
        beam = sorted(grown, key=lambda g: -g[0])[:BEAM]
    if wild:
        beam = _fill_wild(beam[:WILD_BASES], [reads[i] for i in wild], wild, visible, weigh,
                          beyond)
    complete = [(lp, t) for lp, t in beam if _is_complete(t, melds)]
    if order != 1.0:
        complete = sorted(((lp + out_of_order(t) * math.log(order), t) for lp, t in complete),
                          key=lambda g: -g[0])
    if not complete:
        return []
    total = sum(math.exp(lp) for lp, _ in complete)
    return [HandReading(t, lp, math.exp(lp) / total) for lp, t in complete[:limit]]


def out_of_order(tiles: Sequence[Tile]) -> int:
    """Neighbours of one suit whose numbers fall, the last tile (a winning tile set apart)
    left out; honours may lie in any order.

    >>> out_of_order(parse_tiles("4569m78m3s")), out_of_order(parse_tiles("12m3p3m1z2z4m"))
    (1, 0)
    """
    body = tiles[:-1]
    return sum(1 for a, b in itertools.pairwise(body)
               if a.kind < 27 and a.kind // 9 == b.kind // 9 and a.kind > b.kind)


def _prior(tile: Tile, before: Sequence[Tile], visible: Counter[int], weigh: bool,
           beyond: Callable[[int], float] | None) -> float | None:
    """The log weight of ``tile`` after ``before`` in a hand (:func:`rank_hands`): its
    copies left (``weigh``), or, past the four copies of its kind, the chance ``beyond``
    gives that and the one copy left; None where the reading cannot be (a fifth not
    allowed, a second red five of a suit)."""
    same = [t for t in before if t.kind == tile.kind]
    if tile.red and any(t.red for t in same):
        return None
    if len(same) + 1 + visible[tile.kind] <= 4:
        return copies_left(tile, before, visible) if weigh else 0.0
    chance = beyond(tile.kind) if beyond is not None else 0.0
    if chance <= 0:
        return None
    return math.log(chance) + (math.log(1 / 4) if weigh else 0.0)


def copies_left(tile: Tile, before: Sequence[Tile], visible: Counter[int]) -> float:
    """The log of the share of ``tile``'s kind still left for it: four copies less those
    ``visible`` on the table and those ``before`` it in the hand (a fifth counts half a
    copy, so that its log is defined; the rules refuse it after).

    >>> round(math.exp(copies_left(Tile(8), parse_tiles("9m"), Counter({8: 2}))), 3)
    0.25
    """
    left = 4 - visible[tile.kind] - sum(1 for t in before if t.kind == tile.kind)
    return math.log(min(max(left, 0.5), 4) / 4)


def _fill_wild(bases: list[tuple[float, tuple[Tile, ...]]], reads: list[TileRead],
               places: list[int], visible: Counter[int], weigh: bool = False,
               beyond: Callable[[int], float] | None = None
               ) -> list[tuple[float, tuple[Tile, ...]]]:
    """Every choice for the wild reads (as multisets) put back at their places, each weighed
    as :func:`rank_hands` weighs a tile (:func:`_prior`)."""
    out = []
    options = [dict((t.kind, (t, p)) for t, p in reversed(read.candidates)) for read in reads]
    for log_p, tiles in bases:
        seen: set[tuple[int, ...]] = set()
        for kinds in itertools.product(*[sorted(o) for o in options]):
            key = tuple(sorted(kinds))
            if key in seen:
                continue
            seen.add(key)
            picked = [options[i][k] for i, k in enumerate(kinds)]
            score: float | None = log_p + sum(math.log(max(p, FLOOR)) for _, p in picked)
            rest = list(tiles)
            for tile, _ in picked:
                prior = _prior(tile, rest, visible, weigh, beyond)
                score = None if prior is None or score is None else score + prior
                rest.append(tile)
            if score is None:
                continue
            full = list(tiles)
            for place, (tile, _) in sorted(zip(places, picked, strict=True)):
                full.insert(place, tile)
            out.append((score, tuple(full)))
    return sorted(out, key=lambda g: -g[0])


def _is_complete(tiles: tuple[Tile, ...], melds: int) -> bool:
    if len(tiles) != concealed_count(melds):
        return False
    return Agari.is_agari(to_34_counts(tiles))


__all__ = ["HandReading", "TileRead", "parse_tiles", "rank_hands", "to_mpsz"]
