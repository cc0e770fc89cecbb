"""Putting a misread win right with the buttons: the winners' revealed tiles, the dora
indicators and the ura indicators in one row of slots, a cursor, and the steps a button makes.

RIICHI moves the cursor to the next slot (held: back one), CALL turns the tile under it
to the next kind (held: the kind before), WIN to the same number in the next suit. A
slot the camera never saw starts empty (``None``) and must be set before the win is
scored. Each winner's last slot is the winning tile. A :class:`TileFix` is frozen: each
step is a new one.

>>> fix = TileFix.start([(1, (*parse_tiles("234567m234p6789s"), None))], [])
>>> fix = fix.turn(1)      # the cursor's 2m becomes 3m
>>> fix = fix.move(-1)     # back to the last slot, the unseen winning tile
>>> fix = fix.turn(1)
>>> to_mpsz(fix.hands[0][:3]), fix.hands[0][-1]
('334m', Tile('1m'))
>>> fix = fix.suit()
>>> fix.hands[0][-1], fix.unknown
(Tile('1p'), 0)
>>> len(ORDER), len({tile.kind for tile in ORDER})   # every kind, and the red fives
(37, 34)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from tablekit.display.model import TileFixView
from tablekit.game.events import WinnerHand
from tablekit.tiles import Tile, parse_tiles, to_mpsz  # noqa: F401 (doctest)

ORDER = tuple(parse_tiles("1234506789m1234506789p1234506789s1234567z"))
"""The kinds CALL steps through: each suit 1-9 with the red five after the five."""


Slots = tuple[Tile | None, ...]


@dataclass(frozen=True)
class TileFix:
    """What a person is putting right: each winner's tiles, the dora indicators (as the
    camera registered them when they were turned), then the ura indicators."""

    seats: tuple[int, ...]
    hands: tuple[Slots, ...]
    ura: Slots = ()
    cursor: int = 0
    dora: Slots = ()

    @classmethod
    def start(cls, hands: Sequence[tuple[int, Sequence[Tile | None]]],
              ura: Sequence[Tile | None], dora: Sequence[Tile] = ()) -> TileFix:
        """From the reading: ``(seat, tiles)`` for each winner, the ura indicators, and
        the dora indicators registered."""
        return cls(tuple(seat for seat, _ in hands), tuple(tuple(tiles) for _, tiles in hands),
                   tuple(ura), dora=tuple(dora))

    @property
    def rows(self) -> tuple[Slots, ...]:
        """The rows of slots in cursor order: each winner's, the dora, the ura indicators."""
        return (*self.hands, self.dora, self.ura)

    @property
    def slots(self) -> list[Tile | None]:
        """Every slot in cursor order."""
        return [tile for row in self.rows for tile in row]

    @property
    def unknown(self) -> int:
        """Slots still empty."""
        return sum(tile is None for tile in self.slots)

    def move(self, step: int) -> TileFix:
        return replace(self, cursor=(self.cursor + step) % max(1, len(self.slots)))

    def turn(self, step: int) -> TileFix:
        tile = self._get()
        if tile is None:
            return self._set(ORDER[0] if step > 0 else ORDER[-1])
        return self._set(ORDER[(ORDER.index(tile) + step) % len(ORDER)])

    def suit(self) -> TileFix:
        tile = self._get()
        if tile is None:
            return self._set(ORDER[0])
        suit = "mpsz"[("mpsz".index(tile.suit) + 1) % 4]
        number = min(tile.number, 7) if suit == "z" else tile.number
        return self._set(Tile.from_code(f"{0 if tile.red and suit != 'z' else number}{suit}"))

    def view(self) -> TileFixView:
        """What the screen shows of it."""
        return TileFixView(tuple(zip(self.seats, self.hands, strict=True)), self.ura,
                           self.cursor, self.dora)

    def winners(self) -> tuple[WinnerHand, ...]:
        """The fixed hands (every slot set), the last tile of each the winning tile."""
        if self.unknown:
            raise ValueError(f"{self.unknown} tiles not set")
        return tuple(WinnerHand(seat, hand, hand[-1])  # type: ignore[arg-type]
                     for seat, hand in zip(self.seats, self.hands, strict=True))

    def _where(self) -> tuple[int, int]:
        """The row under the cursor and the index in it."""
        index = self.cursor
        for number, row in enumerate(self.rows):
            if index < len(row):
                return number, index
            index -= len(row)
        raise IndexError("no slots")

    def _get(self) -> Tile | None:
        row, index = self._where()
        return self.rows[row][index]

    def _set(self, tile: Tile) -> TileFix:
        number, index = self._where()
        rows = list(self.rows)
        rows[number] = (*rows[number][:index], tile, *rows[number][index + 1:])
        *hands, dora, ura = rows
        return replace(self, hands=tuple(hands), dora=dora, ura=ura)
