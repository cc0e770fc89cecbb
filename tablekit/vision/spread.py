"""Enrolling a tile set from the table itself: the spread, and the faces cut from it.

A club lays its whole set (136 tiles) on the calibrated table where play puts tiles: each
seat's pond (three rows of six, two tiles of each row sideways as a riichi discard lies),
its hand row (fourteen) and two by the dora spot, each seat holding one tile of each of the
34 kinds (a red five where the set has one). The camera takes a photo of each *step* of
:data:`STEPS`:

1. spread A, every tile face up;
2. the same, each hand row stood up as a player holds a hand and each pond turned face
   down: what the reader must not take for a face (standing tiles, backs);
3. spread B, face up again with the kinds moved: each kind lies at another place.

The faces are cut by the very pipeline that reads a game (:mod:`tablekit.vision.table_reader`):
the detector finds the tiles in the rectified view, each tile is matched to the slot it
lies nearest and cut as the reader cuts a face in play, at the angles and light of that
table. That is why these faces teach more than a mat's: faces in play look like these.

>>> slots = spread_slots(0)
>>> len(slots), sum(slot.code == "0m" for slot in slots)
(136, 1)
>>> sorted({slot.zone for slot in slots})
['dora', 'hand', 'pond']
>>> from collections import Counter
>>> set(Counter(slot.code.replace("0", "5") for slot in spread_slots(1)).values())
{4}
>>> describe(0)[0]
'East  pond: 1m 2m [3m] 4m [0m] 6m / [7m] 8m [9m] 1p 2p 3p / [4p] 5p 6p 7p [8p] 9p'
>>> sorted({slot.code.replace("0", "5") for i in (0, 1, 2) for slot in spread_slots(i)
...         if slot.sideways}) == sorted(KINDS)   # every kind lies sideways somewhere
True
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

import numpy as np

from tablekit.vision.classes import BACK, NOT_A_TILE
from tablekit.vision.layout import DEFAULT_LAYOUT, TableLayout, seat_to_table

KINDS = tuple([f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)])
SEAT_NAMES = ("East", "South", "West", "North")
"""The seats as the table's own sides (seat 0 is the camera's bottom edge, then
counter-clockwise), named as a first hand would name them."""
HAND_GAP = 2.0
"""Space between the tiles of a hand row (mm)."""
POND_GAP = 3.0
"""Space between the tiles of a pond row (mm)."""
SHIFTS = (0, 17, 8)
"""How far along the kinds each spread (A, B, C) starts a seat's share."""
MATCH_MM = 13.0
"""A tile found this near a slot (half a tile's width) is that slot's tile."""
SIDEWAYS = (5, 4, 3, 4, 4)
"""Which two tiles of each pond row lie sideways (:func:`sideways_cols`): in play a riichi
discard lies so, and a called tile, and an added kan's tile; a set's faces cut sideways look
unlike its upright ones (the trained classifier's features see the tile's edges on other
sides), so every kind lies sideways in one of the spreads A-C, 72 faces in all."""


@dataclass(frozen=True)
class Step:
    """One photo of the spread: which layout, and whether its tiles lie face up (else the
    hand rows stand and the ponds lie face down)."""

    layout: int
    faces: bool
    say: str


STEPS = (
    Step(0, True, "lay spread A face up: each seat's pond, hand row and dora spot as listed, "
                  "a tile in [ ] sideways as a riichi discard lies"),
    Step(0, False, "stand each hand row up as you hold a hand, and turn each pond face down "
                   "where it lies (the two by the dora spot stay face up)"),
    Step(1, True, "lay spread B face up: the same places, the kinds moved as listed"),
    Step(2, True, "lay spread C face up: the same places, the kinds moved again as listed"),
)


@dataclass(frozen=True)
class SpreadSlot:
    """Where one tile of a spread lies: its code, seat, zone (pond, hand or dora), its
    centre in table mm and whether it lies sideways; the tile is upright for its seat (its
    top away from the player), or a quarter turned when sideways."""

    code: str
    seat: int
    zone: str
    x: float
    y: float
    sideways: bool = False


def sideways_cols(index: int, seat: int, row: int) -> tuple[int, int]:
    """The two places (0-5, left to right) of pond row ``row`` of ``seat`` in spread
    ``index`` whose tiles lie sideways (:data:`SIDEWAYS`).

    >>> [sideways_cols(0, seat, 0) for seat in range(4)]
    [(4, 2), (3, 1), (2, 0), (1, 5)]
    """
    a, b, c, d, e = SIDEWAYS
    first = (a * seat + b * row + c * index + d) % 6
    return first, (first + e) % 6


def seat_places(layout: TableLayout = DEFAULT_LAYOUT, sideways: Collection[int] = ()
                ) -> list[tuple[str, float, float, bool]]:
    """The 34 places of one seat's share, in its own frame: the pond's three rows of six
    (the places in ``sideways``, 0-17, lying sideways, so the rest of their row moves on),
    the hand row of fourteen, two beside the dora spot; each (zone, x, y, sideways).

    >>> places = seat_places()
    >>> len(places), places[0][0], places[18][0], places[-1][0]
    (34, 'pond', 'hand', 'dora')
    >>> turned = seat_places(sideways={1})
    >>> turned[1][3], round(turned[2][1] - places[2][1], 1), turned[6][1] == places[6][1]
    (True, 9.0, True)
    """
    places = []
    lie = (layout.tile_length - layout.tile_width) / 2  # a sideways tile's near edge stays
    for row in range(3):
        x, y = layout.pond_left_x, layout.pond_first_row_y - row * layout.pond_row_pitch
        for col in range(6):
            turned = row * 6 + col in sideways
            width = layout.tile_length if turned else layout.tile_width
            places.append(("pond", x + width / 2, y - lie if turned else y, turned))
            x += width + POND_GAP
    for col in range(14):
        places.append(("hand", layout.hand_left_x + layout.tile_width / 2
                       + col * (layout.tile_width + HAND_GAP), layout.hand_y, False))
    for col in range(2):
        places.append(("dora", -layout.tile_width + col * (layout.tile_width + 4.0),
                       layout.ura_y, False))
    return places


def seat_kinds(index: int) -> tuple[str, ...]:
    """The 34 kinds in the order spread ``index`` lays them at each seat's places: A in
    order, B moved on by half (nearly every kind of A's pond lies in B's hand row or by the
    dora spot, and the other way round), C by a quarter.

    >>> seat_kinds(0)[:3], seat_kinds(1)[:3], seat_kinds(2)[:3]
    (('1m', '2m', '3m'), ('9p', '1s', '2s'), ('9m', '1p', '2p'))
    """
    shift = SHIFTS[index % len(SHIFTS)]
    return KINDS[shift:] + KINDS[:shift]


def spread_slots(index: int, layout: TableLayout = DEFAULT_LAYOUT) -> tuple[SpreadSlot, ...]:
    """The 136 tiles of spread ``index``: each seat one tile of every kind, the set's
    three red fives at three different seats (another seat each spread)."""
    out = []
    for seat in range(4):
        turned = {row * 6 + col for row in range(3) for col in sideways_cols(index, seat, row)}
        for (zone, x, y, sideways), kind in zip(seat_places(layout, turned), seat_kinds(index),
                                                strict=True):
            code = kind
            if kind[0] == "5" and kind[1] in "mps" and seat == ("mps".index(kind[1]) + index) % 4:
                code = "0" + kind[1]
            tx, ty = seat_to_table(seat, x, y)
            out.append(SpreadSlot(code, seat, zone, tx, ty, sideways))
    return tuple(out)


def step_label(slot: SpreadSlot, step: Step) -> str:
    """What the camera sees at ``slot`` in ``step``: the face, a back or no face.

    >>> slot = SpreadSlot("3p", 0, "hand", 0.0, 0.0)
    >>> [step_label(slot, step) for step in STEPS]
    ['3p', 'none', '3p', '3p']
    """
    if step.faces or slot.zone == "dora":
        return slot.code
    return NOT_A_TILE if slot.zone == "hand" else BACK


def describe(index: int) -> list[str]:
    """The spread as lines to print or show: each seat's pond rows, hand row and dora spot,
    left to right as the seat's player sees them (a tile in brackets lies sideways)."""
    slots = spread_slots(index)
    lines = []
    for seat, name in enumerate(SEAT_NAMES):
        mine = [f"[{slot.code}]" if slot.sideways else slot.code
                for slot in slots if slot.seat == seat]
        pond = " / ".join(" ".join(mine[row * 6:row * 6 + 6]) for row in range(3))
        lines.append(f"{name:5} pond: {pond}")
        lines.append(f"{'':5} hand: {' '.join(mine[18:32])}")
        lines.append(f"{'':5} by the dora spot: {' '.join(mine[32:])}")
    return lines


@dataclass(frozen=True)
class Matched:
    """The spread's slots matched to the tiles found in one photo: each slot's box (view
    px, the face's size), whether a tile was found there, and the tiles found at no slot."""

    boxes: np.ndarray
    found: np.ndarray
    strays: np.ndarray


def match_slots(slots: tuple[SpreadSlot, ...], centres: np.ndarray,
                to_view: Callable[[np.ndarray], np.ndarray],
                layout: TableLayout = DEFAULT_LAYOUT) -> Matched:
    """Each slot's face box: around the tile found nearest it (within :data:`MATCH_MM`),
    else where its neighbours say it lies (the slot moved as its row's found tiles are).

    >>> slots = spread_slots(0)[:2]
    >>> centres = np.array([[slots[0].x + 2.0, slots[0].y], [300.0, 300.0]])
    >>> matched = match_slots(slots, centres, lambda xy: xy)
    >>> matched.found.tolist(), matched.strays.tolist()
    ([True, False], [1])
    >>> x0, y0 = matched.boxes[1][:2]
    >>> round(float(x0 - slots[1].x), 1), round(float(y0 - slots[1].y), 1)
    (-11.0, -17.5)
    """
    xy = np.array([[slot.x, slot.y] for slot in slots], np.float64)
    centres = np.asarray(centres, np.float64).reshape(-1, 2)
    if len(centres):
        distance = np.linalg.norm(xy[:, None] - centres[None], axis=2)
        nearest = distance.argmin(axis=1)
        found = distance[np.arange(len(xy)), nearest] < MATCH_MM
    else:
        nearest, found = np.zeros(len(xy), np.int64), np.zeros(len(xy), bool)
    shifts: dict[tuple[int, str], list[np.ndarray]] = {}
    for i, slot in enumerate(slots):
        if found[i]:
            shifts.setdefault((slot.seat, slot.zone), []).append(centres[nearest[i]] - xy[i])
    boxes = []
    for i, slot in enumerate(slots):
        if found[i]:
            centre = centres[nearest[i]]
        else:
            row = shifts.get((slot.seat, slot.zone))
            centre = xy[i] + (np.median(row, axis=0) if row else 0.0)
        half = np.array([layout.tile_width, layout.tile_length]) / 2
        if slot.seat % 2 != slot.sideways:
            half = half[::-1]
        corners = to_view(np.array([[centre[0] - half[0], centre[1] + half[1]],
                                    [centre[0] + half[0], centre[1] - half[1]]]))
        boxes.append(np.concatenate([corners.min(axis=0), corners.max(axis=0)]))
    used = set(nearest[found].tolist())
    strays = np.array([j for j in range(len(centres)) if j not in used], np.int64)
    return Matched(np.array(boxes, np.float32).reshape(-1, 4), found, strays)
