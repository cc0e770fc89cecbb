"""Tiles: the 34 kinds plus red fives, mpsz notation, 34/136 ids, glyphs and dora.

Kinds are numbered as in the ``mahjong`` package: 0-8 man (characters), 9-17 pin
(circles), 18-26 sou (bamboo), 27-33 honours East, South, West, North, White,
Green, Red. In mpsz notation honours are ``1z``..``7z`` and ``0`` is a red five.

>>> hand = parse_tiles("123m0p55z")
>>> [t.code for t in hand]
['1m', '2m', '3m', '0p', '5z', '5z']
>>> to_mpsz(hand)
'123m0p55z'
>>> Tile.from_code("9s").dora.code, Tile.from_code("4z").dora.code, Tile.from_code("7z").dora.code
('1s', '1z', '5z')
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tablekit.errors import InvalidTile, TooManyCopies

SUITS = "mpsz"
WIND_NAMES = ("East", "South", "West", "North")
HONOR_NAMES = (*WIND_NAMES, "White", "Green", "Red")
SUIT_NAMES = {"m": "man", "p": "pin", "s": "sou", "z": "honour"}
RED_FIVE_IDS = (16, 52, 88)
SANMA_ABSENT = range(1, 8)
"""The kinds a three-player (sanma) set has none of: 2m-8m."""
"""The 136-ids the ``mahjong`` package treats as red fives (first copy of 5m, 5p, 5s)."""

# Unicode 'Mahjong Tiles' block: winds, dragons (red, green, white), man, sou, pin.
_GLYPH_BASE = {"m": 0x1F007, "s": 0x1F010, "p": 0x1F019}
_HONOR_GLYPHS = (0x1F000, 0x1F001, 0x1F002, 0x1F003, 0x1F006, 0x1F005, 0x1F004)
_GROUP = re.compile(r"([0-9]+)([mpsz])")


@dataclass(frozen=True, order=True)
class Tile:
    """One tile: its kind (0-33) and whether it is a red five.

    >>> Tile.from_code("0m")
    Tile('0m')
    >>> Tile.from_code("0m").kind == Tile.from_code("5m").kind
    True
    >>> Tile.from_code("1z").name
    'East'
    """

    kind: int
    red: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.kind < 34:
            raise InvalidTile(f"tile kind {self.kind} is outside 0..33")
        if self.red and not (self.kind < 27 and self.kind % 9 == 4):
            raise InvalidTile(f"only fives can be red, not {self.plain_code}")

    @classmethod
    def from_code(cls, code: str) -> Tile:
        """Read one tile written in mpsz notation, such as ``5m``, ``0p`` or ``7z``."""
        tiles = parse_tiles(code)
        if len(tiles) != 1:
            raise InvalidTile(f"{code!r} is not exactly one tile")
        return tiles[0]

    @classmethod
    def from_136(cls, tile_id: int, red_fives: bool = True) -> Tile:
        """The tile a ``mahjong``-package 136-id stands for (16, 52, 88 are red)."""
        if not 0 <= tile_id < 136:
            raise InvalidTile(f"136-id {tile_id} is outside 0..135")
        return cls(tile_id // 4, red_fives and tile_id in RED_FIVE_IDS)

    @property
    def suit(self) -> str:
        """One of ``m``, ``p``, ``s``, ``z``."""
        return SUITS[min(self.kind // 9, 3)]

    @property
    def number(self) -> int:
        """1-9 in a suit, 1-7 for honours (red fives are 5)."""
        return self.kind - 27 + 1 if self.is_honor else self.kind % 9 + 1

    @property
    def code(self) -> str:
        """The mpsz code, ``0`` for a red five."""
        return f"{0 if self.red else self.number}{self.suit}"

    @property
    def plain_code(self) -> str:
        """The mpsz code with a red five written as a plain five."""
        return f"{self.number}{self.suit}"

    @property
    def is_honor(self) -> bool:
        return self.kind >= 27

    @property
    def is_terminal(self) -> bool:
        return not self.is_honor and self.number in (1, 9)

    @property
    def name(self) -> str:
        """A readable name: ``5 man (red)``, ``East``, ``Green``."""
        if self.is_honor:
            return HONOR_NAMES[self.kind - 27]
        return f"{self.number} {SUIT_NAMES[self.suit]}" + (" (red)" if self.red else "")

    @property
    def glyph(self) -> str:
        """The Unicode Mahjong Tiles character for this kind."""
        if self.is_honor:
            return chr(_HONOR_GLYPHS[self.kind - 27])
        return chr(_GLYPH_BASE[self.suit] + self.number - 1)

    @property
    def dora(self) -> Tile:
        """The tile this one indicates as dora (9 -> 1, N -> E, Red -> White)."""
        return Tile(dora_kind(self.kind))

    @property
    def plain(self) -> Tile:
        """The same kind, never red."""
        return Tile(self.kind)

    def __repr__(self) -> str:
        return f"Tile({self.code!r})"

    def __str__(self) -> str:
        return self.code


def dora_kind(indicator_kind: int, players: int = 4) -> int:
    """The kind shown as dora by an indicator of ``indicator_kind``; with three players
    (no 2m-8m) a 1m shows 9m and a 9m shows 1m.

    >>> [dora_kind(k) for k in (8, 26, 30, 33)]
    [0, 18, 27, 31]
    >>> dora_kind(0), dora_kind(0, players=3), dora_kind(8, players=3)
    (1, 8, 0)
    """
    if players == 3 and indicator_kind in (0, 8):
        return 8 - indicator_kind
    if indicator_kind < 27:
        suit_start = indicator_kind - indicator_kind % 9
        return suit_start + (indicator_kind - suit_start + 1) % 9
    if indicator_kind < 31:
        return 27 + (indicator_kind - 27 + 1) % 4
    return 31 + (indicator_kind - 31 + 1) % 3


def parse_tiles(text: str) -> list[Tile]:
    """Read tiles in mpsz notation, keeping their order; spaces are ignored.

    >>> to_mpsz(parse_tiles("19m 19p 19s 1234567z"))
    '19m19p19s1234567z'
    >>> parse_tiles("8z")
    Traceback (most recent call last):
    ...
    tablekit.errors.InvalidTile: '8z' in '8z': honours are 1z..7z (E S W N White Green Red)
    """
    compact = "".join(text.split())
    if not compact:
        return []
    tiles: list[Tile] = []
    position = 0
    for match in _GROUP.finditer(compact):
        if match.start() != position:
            raise InvalidTile(f"cannot read {compact[position:match.start()]!r} in {text!r}")
        digits, suit = match.groups()
        for digit in digits:
            tiles.append(_tile_from_digit(int(digit), suit, text))
        position = match.end()
    if position != len(compact):
        raise InvalidTile(
            f"cannot read {compact[position:]!r} in {text!r}: "
            "digits must be followed by a suit letter m, p, s or z"
        )
    return tiles


def _tile_from_digit(digit: int, suit: str, text: str) -> Tile:
    if suit == "z":
        if not 1 <= digit <= 7:
            raise InvalidTile(
                f"'{digit}z' in {text!r}: honours are 1z..7z (E S W N White Green Red)"
            )
        return Tile(27 + digit - 1)
    base = SUITS.index(suit) * 9
    if digit == 0:
        return Tile(base + 4, red=True)
    return Tile(base + digit - 1)


def to_mpsz(tiles: Iterable[Tile], sort: bool = False) -> str:
    """Write tiles in compact mpsz notation (``sort`` orders them by kind first).

    >>> to_mpsz(parse_tiles("5m3m0m1z"), sort=True)
    '350m1z'
    """
    items = sorted(tiles, key=lambda t: (t.kind, t.red)) if sort else list(tiles)
    out: list[str] = []
    for index, tile in enumerate(items):
        out.append("0" if tile.red else str(tile.number))
        if index + 1 == len(items) or items[index + 1].suit != tile.suit:
            out.append(tile.suit)
    return "".join(out)


def check_counts(tiles: Iterable[Tile], red_fives: bool = True) -> None:
    """Refuse a fifth copy of a kind, or more red fives than a set holds.

    >>> check_counts(parse_tiles("55550m"))
    Traceback (most recent call last):
    ...
    tablekit.errors.TooManyCopies: 5 copies of 5m (a set has 4)
    """
    items = list(tiles)
    kinds = Counter(t.kind for t in items)
    for kind, count in sorted(kinds.items()):
        if count > 4:
            raise TooManyCopies(f"{count} copies of {Tile(kind).code} (a set has 4)")
    reds = Counter(t.kind for t in items if t.red)
    for kind, count in sorted(reds.items()):
        if not red_fives:
            raise TooManyCopies(f"a red {Tile(kind).plain_code} but these rules have no red fives")
        if count > 1:
            raise TooManyCopies(f"{count} red {Tile(kind).plain_code} (a set has one)")


def to_136(tiles: Sequence[Tile]) -> list[int]:
    """Give each tile a distinct ``mahjong``-package 136-id, red fives on 16/52/88.

    Plain fives never take the red id, so a set without red fives stays plain.

    >>> to_136(parse_tiles("550m11z"))
    [17, 18, 16, 108, 109]
    """
    check_counts(tiles)
    used: Counter[int] = Counter()
    ids: list[int] = []
    for tile in tiles:
        if tile.red:
            ids.append(tile.kind * 4)
            continue
        is_five = tile.kind < 27 and tile.kind % 9 == 4
        copy = used[tile.kind] + (1 if is_five else 0)
        used[tile.kind] += 1
        if copy > 3:
            raise TooManyCopies(f"too many plain copies of {tile.code} beside its red five")
        ids.append(tile.kind * 4 + copy)
    return ids


def to_34_counts(tiles: Iterable[Tile]) -> list[int]:
    """Counts per kind, the ``mahjong`` package's 34-array.

    >>> to_34_counts(parse_tiles("110m"))[:5]
    [2, 0, 0, 0, 1]
    """
    counts = [0] * 34
    for tile in tiles:
        counts[tile.kind] += 1
    return counts
