"""Tiles placed on the table the way players place them, from a :class:`TableView`.

Each seat, in its own frame (see :mod:`tablekit.sim.geometry`): discards in rows of six in
front of the centre panel, the riichi discard sideways (the next one when it was called);
melds at the right of the hand, first meld rightmost, the claimed tile sideways on the
side it came from (left player: left, across: middle, right player: right), an added kan's
tile sideways behind the claimed one, a closed kan with its two end tiles face down;
the wall two high with the dora indicators turned up on the dead wall, and the ura
indicators laid out in front of it after a riichi win; the concealed hand standing
(backs to the centre) with the drawn tile apart, laid face up when it wins (winning
tile apart) or is shown tenpai at an exhaustive draw. Riichi sticks lie between the
centre panel and the pond. Three players (sanma): three seats play, the empty side keeps
only its wall; the 108 tiles stand in stacks of 14 and 13 a side in turn; a seat's Norths
set aside (kita) lie face up in its meld row, to the right of its hand (left of its melds).

Placement jitter is drawn once per table (:class:`Jitter`), per slot, so a tile does not
move from one frame to the next.

>>> import numpy as np
>>> from tablekit.formats.tenhou import import_file
>>> from tablekit.sim.table import DEMO_GAME, table_view
>>> game = import_file(DEMO_GAME)
>>> scene = build_scene(table_view(game, 0, 40), Jitter(np.random.default_rng(1)))
>>> sorted({t.zone for t in scene.tiles})
['dora', 'hand', 'meld', 'pond', 'wall']
>>> len(scene.tiles)
136
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

import numpy as np

from tablekit.game.state import SEATS
from tablekit.rules.hand import Meld
from tablekit.sim.geometry import (
    DRAWN_GAP,
    HAND_LEFT_X,
    HAND_Y,
    MELD_NEAR_Y,
    MELD_RIGHT_X,
    POND_FIRST_ROW_Y,
    POND_LEFT_X,
    POND_ROW_LENGTH,
    POND_ROW_PITCH,
    POND_ROWS,
    STICK_Y,
    TILE_LENGTH,
    TILE_THICKNESS,
    TILE_WIDTH,
    URA_Y,
    WALL_STACKS,
    WALL_Y,
    seat_angle,
    seat_to_table,
)
from tablekit.sim.table import TableView
from tablekit.tiles import Tile

Posture = Literal["up", "down", "standing"]
NORTH_CODE = "4z"
UPRIGHT = math.pi / 2
"""A seat's own upright tile: the face's top points away from the player."""
SIDEWAYS = math.pi
"""Turned a quarter to the left, as a riichi discard or a claimed tile lies."""
STACKS = 4 * WALL_STACKS
LIVE_TILES = 122
DEAD_TILES = 14
SANMA_SIDES = (14, 13, 14, 13)  # 54 stacks: 108 tiles
GAPS = {"pond": 3.0, "meld": 1.5, "hand": 0.8, "wall": 0.8}
"""Space between neighbours (mm): enough for the jitter never to make tiles overlap."""


@dataclass(frozen=True)
class PlacedTile:
    """One tile on the table (mm, radians). ``yaw`` is where the top of the face points
    on the table (for a standing tile: the direction its back faces). ``z`` is the height
    of its lowest side above the felt. ``code`` is None for a wall tile nobody knows."""

    code: str | None
    x: float
    y: float
    z: float
    yaw: float
    posture: Posture
    zone: str
    seat: int | None
    role: str | None = None
    sideways: bool = False


@dataclass(frozen=True)
class Stick:
    """A riichi stick (mm, radians)."""

    seat: int
    x: float
    y: float
    yaw: float


@dataclass(frozen=True)
class Scene:
    tiles: tuple[PlacedTile, ...]
    sticks: tuple[Stick, ...] = ()


JITTER_SIGMAS = {"pond": (0.6, 1.0, 1.5), "meld": (0.3, 0.6, 0.8), "hand": (0.12, 0.5, 0.6),
                 "wall": (0.1, 0.6, 0.4), "dora": (0.1, 0.6, 0.4), "stick": (3.0, 1.5, 3.0)}
"""Standard deviations of (dx mm, dy mm, dyaw degrees) per zone, before the table's scale."""
JITTER_LIMITS = {"pond": (0.8, 1.0, 2.0), "meld": (0.3, 0.8, 1.2), "hand": (0.15, 1.0, 1.0),
                 "wall": (0.12, 1.5, 0.6), "dora": (0.12, 1.5, 0.6), "stick": (8.0, 3.0, 8.0)}
"""Clips of the same, so that neighbours (``GAPS`` apart) never overlap."""


class Jitter:
    """Per-slot offsets ``(dx mm, dy mm, dyaw rad)`` drawn once, like real hands leave them,
    scaled by how neat this table's players are (clipped: neighbours never overlap)."""

    def __init__(self, rng: np.random.Generator, neatness: float | None = None) -> None:
        self.scale = rng.uniform(0.5, 1.6) if neatness is None else neatness
        self.slots = {zone: self._draw(rng, zone) for zone in JITTER_SIGMAS}
        self.rows = rng.standard_normal((SEATS, 4, 3)) * np.array([3.0, 2.0, 0.007]) * self.scale

    def _draw(self, rng: np.random.Generator, zone: str) -> np.ndarray:
        sigma = np.array(JITTER_SIGMAS[zone]) * [1, 1, math.pi / 180] * self.scale
        limit = np.array(JITTER_LIMITS[zone]) * [1, 1, math.pi / 180]
        return np.clip(rng.standard_normal((SEATS, 140, 3)) * sigma, -limit, limit)

    def at(self, zone: str, seat: int, index: int) -> tuple[float, float, float]:
        dx, dy, dyaw = self.slots[zone][seat % SEATS, index % 140]
        return float(dx), float(dy), float(dyaw)

    def row(self, seat: int, which: int) -> tuple[float, float, float]:
        """A shift shared by a whole row (pond 0, hand 1, melds 2, wall 3)."""
        dx, dy, dyaw = self.rows[seat % SEATS, which]
        return float(dx), float(dy), float(dyaw)


def build_scene(view: TableView, jitter: Jitter) -> Scene:
    """Every tile of ``view`` placed on the table."""
    tiles = list(wall_tiles(view, jitter))
    for seat in range(view.state.players):
        tiles += pond_tiles(view, seat, jitter)
        tiles += meld_tiles(view, seat, jitter)
        tiles += kita_tiles(view, seat, jitter)
        tiles += hand_tiles(view, seat, jitter)
    return Scene(tuple(tiles), sticks(view, jitter))


def place(seat: int, local: tuple[float, float, float, float], shift: tuple[float, float, float],
          code: str | None, posture: Posture, zone: str, role: str | None = None,
          sideways: bool = False) -> PlacedTile:
    """A tile at ``local`` ``(x, y, z, yaw)`` of ``seat``'s frame, moved by ``shift``."""
    x, y, z, yaw = local
    tx, ty = seat_to_table(seat, x + shift[0], y + shift[1])
    angle = (seat_angle(seat) + yaw + shift[2]) % (2 * math.pi)
    return PlacedTile(code, tx, ty, z, angle, posture, zone, seat, role, sideways)


def _add(a: tuple[float, float, float], b: tuple[float, float, float]
         ) -> tuple[float, float, float]:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


# --- the wall -------------------------------------------------------------------------------

def wall_sides(players: int) -> tuple[int, ...]:
    """The stacks on each side of the table, clockwise from seat 0's.

    >>> wall_sides(4), sum(wall_sides(3))
    ((17, 17, 17, 17), 54)
    """
    return (WALL_STACKS,) * SEATS if players == SEATS else SANMA_SIDES


def head_stack(dice: int, dealer: int, sides: tuple[int, ...] = (WALL_STACKS,) * SEATS) -> int:
    """The first live stack, in clockwise stack numbers (seat 0's wall from its right end
    is 0-16, then seat 3's, seat 2's and seat 1's): the break is ``dice`` stacks from the
    right end of the wall of the seat ``dice`` counts to, counter-clockwise from the dealer.

    >>> head_stack(7, 0), head_stack(5, 0), head_stack(2, 3), head_stack(7, 0, SANMA_SIDES)
    (41, 5, 2, 34)
    """
    wall_seat = (dealer + dice - 1) % SEATS
    return sum(sides[:(-wall_seat) % SEATS]) + dice


def stack_place(stack: int, sides: tuple[int, ...] = (WALL_STACKS,) * SEATS
                ) -> tuple[int, float]:
    """The seat whose wall holds ``stack`` and the stack's x in that seat's frame."""
    index = stack % sum(sides)
    side = 0
    while index >= sides[side]:
        index -= sides[side]
        side += 1
    return (-side) % SEATS, (sides[side] / 2 - 0.5 - index) * (TILE_WIDTH + GAPS["wall"])


def wall_slots(view: TableView) -> dict[tuple[int, int], tuple[str | None, str | None]]:
    """``(stack, level) -> (code or None, role)`` of the tiles still in the wall; level 1 is
    the upper tile. Dora indicators are the upper tiles from the third dead-wall stack on."""
    sides = wall_sides(view.state.players)
    stacks = sum(sides)
    live = 2 * stacks - DEAD_TILES
    head = head_stack(view.dice, view.dealer, sides)
    tail = {live - 2 - 2 * (i // 2) + i % 2 for i in range(view.rinshan_taken)}
    slots: dict[tuple[int, int], tuple[str | None, str | None]] = {}
    for t in range(view.live_taken, live):
        if t not in tail:
            slots[((head + t // 2) % stacks, 1 - t % 2)] = (None, None)
    rinshan = {((head - 1 - r // 2) % stacks, 1 - r % 2) for r in range(view.rinshan_taken)}
    for i in range(7):
        for level in (0, 1):
            key = ((head - 1 - i) % stacks, level)
            if key not in rinshan:
                slots[key] = (None, None)
    for n, indicator in enumerate(view.state.dora):
        slots[((head - 3 - n) % stacks, 1)] = (indicator.code, "indicator")
    ura = view.won.ura if view.won else ()
    for n in range(len(ura)):
        slots.pop(((head - 3 - n) % stacks, 0), None)
    return slots


def wall_tiles(view: TableView, jitter: Jitter) -> Iterator[PlacedTile]:
    sides = wall_sides(view.state.players)
    for (stack, level), (code, role) in sorted(wall_slots(view).items()):
        seat, x = stack_place(stack, sides)
        shift = _add(jitter.at("wall", 0, stack), jitter.row(seat, 3))
        shift = _add(shift, tuple(v * 0.3 for v in jitter.at("wall", 1 + level, stack)))
        local = (x, WALL_Y, level * TILE_THICKNESS, UPRIGHT)
        if code is None:
            yield place(seat, local, shift, None, "down", "wall")
        else:
            yield place(seat, local, shift, code, "up", "dora", role)
    yield from ura_tiles(view, jitter)


def ura_tiles(view: TableView, jitter: Jitter) -> Iterator[PlacedTile]:
    """Ura indicators, revealed after a riichi win, face up outside their stacks."""
    if view.won is None:
        return
    sides = wall_sides(view.state.players)
    head = head_stack(view.dice, view.dealer, sides)
    for n, tile in enumerate(view.won.ura):
        seat, x = stack_place((head - 3 - n) % sum(sides), sides)
        shift = jitter.at("dora", seat, n)
        yield place(seat, (x, URA_Y, 0.0, UPRIGHT), shift, tile.code, "up", "dora", "ura")


# --- ponds ----------------------------------------------------------------------------------

def pond_entries(view: TableView, seat: int) -> list[tuple[Tile, bool]]:
    """The discards still in ``seat``'s pond with whether each lies sideways."""
    pond = view.state.seats[seat].pond
    entries: list[tuple[Tile, bool]] = []
    carry = False
    for item in pond:
        if item.claimed:
            carry = carry or item.riichi
            continue
        sideways = item.riichi or carry
        carry = carry and not sideways
        entries.append((item.tile, sideways))
    last = view.state.last_discard
    ron = view.won is not None and view.won.from_seat == seat and last is not None
    if ron and last[0] == seat and entries:  # the winner takes the ron tile
        entries.pop()
    return entries


def pond_tiles(view: TableView, seat: int, jitter: Jitter) -> Iterator[PlacedTile]:
    row_shift = jitter.row(seat, 0)
    cursor, row = POND_LEFT_X, 0
    for index, (tile, sideways) in enumerate(pond_entries(view, seat)):
        new_row = min(index // POND_ROW_LENGTH, POND_ROWS - 1)
        if new_row != row:
            cursor, row = POND_LEFT_X, new_row
        width = TILE_LENGTH if sideways else TILE_WIDTH
        y = POND_FIRST_ROW_Y - row * POND_ROW_PITCH
        y -= (TILE_LENGTH - TILE_WIDTH) / 2 if sideways else 0.0
        yaw = SIDEWAYS if sideways else UPRIGHT
        shift = _add(row_shift, jitter.at("pond", seat, index))
        yield place(seat, (cursor + width / 2, y, 0.0, yaw), shift, tile.code, "up", "pond",
                    "riichi" if sideways else None, sideways)
        cursor += width + GAPS["pond"]


# --- melds ----------------------------------------------------------------------------------

MeldSlot = tuple[Tile, Posture, bool, str | None]
"""(tile, posture, sideways, role) from left to right; an added tile follows its pon's
claimed tile and lies behind it."""


def meld_slots(meld: Meld, seat: int, added: tuple[Tile, ...] = ()) -> list[MeldSlot]:
    """How a meld is laid out, left to right."""
    if meld.kind == "ankan":
        tiles = sorted(meld.tiles, key=lambda t: (not t.red, t.kind))
        shown = [tiles[0], tiles[1]]
        return [(tiles[2], "down", False, None), (shown[0], "up", False, None),
                (shown[1], "up", False, None), (tiles[3], "down", False, None)]
    called = meld.called or meld.tiles[-1]
    rest = list(meld.tiles)
    rest.remove(called)
    extra = None
    if meld.kind == "shouminkan":
        extra = next((t for t in added if t.kind == called.kind and t in rest), rest[-1])
        rest.remove(extra)
    rest.sort(key=lambda t: (t.kind, t.red))
    slots: list[MeldSlot] = [(t, "up", False, None) for t in rest]
    relative = (meld.from_seat - seat) % SEATS if meld.from_seat is not None else 3
    at = {3: 0, 2: 1, 1: len(slots)}[relative]
    slots.insert(at, (called, "up", True, "called"))
    if extra is not None:
        slots.insert(at + 1, (extra, "up", True, "added"))
    return slots


def _meld_width(slots: list[MeldSlot]) -> float:
    """The room a meld takes in its row, the gap after it included."""
    return sum((TILE_LENGTH if s[2] else TILE_WIDTH) + GAPS["meld"] for s in slots
               if s[3] != "added")


def meld_row_left(view: TableView, seat: int) -> float:
    """Where ``seat``'s meld row ends on the left (its kita lie from there)."""
    return MELD_RIGHT_X - sum(_meld_width(meld_slots(meld, seat, view.added[seat])) + 10.0
                              for meld in view.state.seats[seat].melds)


def meld_tiles(view: TableView, seat: int, jitter: Jitter) -> Iterator[PlacedTile]:
    cursor = MELD_RIGHT_X
    shift_row = jitter.row(seat, 2)
    index = 0
    for meld in view.state.seats[seat].melds:
        slots = meld_slots(meld, seat, view.added[seat])
        gap = GAPS["meld"]
        width = _meld_width(slots)
        x = cursor - width
        for tile, posture, sideways, role in slots:
            w = TILE_LENGTH if sideways else TILE_WIDTH
            if role == "added":
                x -= w + gap  # stacked behind the claimed tile
            y = MELD_NEAR_Y + (TILE_WIDTH / 2 if sideways else TILE_LENGTH / 2)
            y += TILE_WIDTH + gap if role == "added" else 0.0
            shift = _add(shift_row, jitter.at("meld", seat, index))
            yield place(seat, (x + w / 2, y, 0.0, SIDEWAYS if sideways else UPRIGHT), shift,
                        tile.code, posture, "meld", role, sideways)
            x += w + gap
            index += 1
        cursor -= width + 10.0


def kita_tiles(view: TableView, seat: int, jitter: Jitter) -> Iterator[PlacedTile]:
    """A three-player seat's Norths set aside: face up in its meld row, right to left from
    where its melds end (to the right of its hand)."""
    x = meld_row_left(view, seat)
    shift_row = jitter.row(seat, 2)
    for index in range(view.state.seats[seat].kita):
        x -= TILE_WIDTH + GAPS["meld"]
        shift = _add(shift_row, jitter.at("meld", seat, 100 + index))
        yield place(seat, (x + TILE_WIDTH / 2, MELD_NEAR_Y + TILE_LENGTH / 2, 0.0, UPRIGHT),
                    shift, NORTH_CODE, "up", "kita", "kita")


# --- hands ----------------------------------------------------------------------------------

def shown_hand(view: TableView, seat: int) -> tuple[list[Tile], Tile | None, bool]:
    """``(tiles in order, tile apart, face up)`` of ``seat``'s concealed hand."""
    winners = {w.seat: w for w in view.won.winners} if view.won else {}
    if seat in winners and winners[seat].hand:
        winner = winners[seat]
        tiles = list(winner.hand)
        if winner.win_tile in tiles:
            tiles.remove(winner.win_tile)
        return sorted(tiles, key=lambda t: (t.kind, t.red)), winner.win_tile, True
    tiles = list(view.concealed[seat])
    return tiles, view.drawn[seat], seat in view.tenpai_shown


def hand_tiles(view: TableView, seat: int, jitter: Jitter) -> Iterator[PlacedTile]:
    tiles, apart, face_up = shown_hand(view, seat)
    row = jitter.row(seat, 1)
    posture: Posture = "up" if face_up else "standing"
    x = HAND_LEFT_X + TILE_WIDTH / 2
    for index, tile in enumerate([*tiles, *([apart] if apart else [])]):
        is_apart = apart is not None and index == len(tiles)
        if is_apart:
            x += DRAWN_GAP
        role = ("win" if face_up and view.won else "drawn") if is_apart else None
        shift = _add(row, jitter.at("hand", seat, index))
        yield place(seat, (x, HAND_Y, 0.0, UPRIGHT), shift, tile.code, posture, "hand", role)
        x += TILE_WIDTH + GAPS["hand"]


def sticks(view: TableView, jitter: Jitter) -> tuple[Stick, ...]:
    out = []
    for seat in range(view.state.players):
        if view.state.seats[seat].riichi:
            dx, dy, dyaw = jitter.at("stick", seat, 0)
            x, y = seat_to_table(seat, dx, STICK_Y + dy * 0.3)
            out.append(Stick(seat, x, y, seat_angle(seat) + dyaw))
    return tuple(out)
