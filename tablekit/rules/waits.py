"""Waits and tenpai of a hand one tile short of complete.

Works on the concealed tiles only (13, 10, 7, 4 or 1 of them, melds apart);
``held`` counts the player's meld tiles so that a wait on a tile the player
already holds all four of does not count (EMA 3.3.13, Tenhou alike).

>>> from tablekit.tiles import parse_tiles, to_mpsz
>>> to_mpsz(waits(parse_tiles("1112345678999m")[:13]))
'123456789m'
>>> is_tenpai(parse_tiles("19m19p19s1234567z"))
True
>>> is_tenpai(parse_tiles("1m"), held=parse_tiles("111m"))  # a pon of 1m beside it
False
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from mahjong.agari import Agari
from mahjong.shanten import Shanten

from tablekit.errors import InvalidHand
from tablekit.tiles import Tile, to_34_counts, to_mpsz


def waits(concealed: Sequence[Tile], held: Iterable[Tile] = ()) -> list[Tile]:
    """The tile kinds that complete the hand (plain tiles, sorted)."""
    if len(concealed) % 3 != 1:
        raise InvalidHand(
            f"{to_mpsz(concealed)}: waits need 13, 10, 7, 4 or 1 concealed tiles, "
            f"not {len(concealed)}"
        )
    counts = to_34_counts(concealed)
    owned = to_34_counts(held)
    out = []
    for kind in range(34):
        if counts[kind] + owned[kind] >= 4:
            continue
        counts[kind] += 1
        if Agari.is_agari(counts):
            out.append(Tile(kind))
        counts[kind] -= 1
    return out


def is_tenpai(concealed: Sequence[Tile], held: Iterable[Tile] = ()) -> bool:
    """Whether the hand waits on at least one tile it does not already hold four of."""
    return bool(waits(concealed, held))


def shanten(concealed: Sequence[Tile]) -> int:
    """Tiles away from tenpai (0 = tenpai, -1 = complete), best of the three hand shapes.

    >>> from tablekit.tiles import parse_tiles
    >>> shanten(parse_tiles("123m456p789s1122z")), shanten(parse_tiles("123m456p789s11222z"))
    (0, -1)
    """
    return Shanten.calculate_shanten(to_34_counts(concealed))


def is_furiten(wait_tiles: Iterable[Tile], own_discards: Iterable[Tile]) -> bool:
    """Permanent furiten: one of the hand's waits is among the player's own discards.

    >>> from tablekit.tiles import parse_tiles
    >>> is_furiten(parse_tiles("14m"), parse_tiles("9p4m"))
    True
    """
    kinds = {t.kind for t in wait_tiles}
    return any(t.kind in kinds for t in own_discards)
