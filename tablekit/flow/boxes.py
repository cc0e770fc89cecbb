"""Which seat box each player's presses come from. A seat box is one chair's RIICHI, CALL and
WIN buttons, numbered 0-3 as the pin map and the keyboard number them: the East, South, West
and North boxes (the winds of the chairs in the first hand of a four-player game).

Four players use the four boxes, player N box N. Three players (sanma) use three of them,
the first dealer's first: the East, South and West boxes unless ``tablekit run --seat-boxes``
names others (the chairs the three players sit at). A press on the box nobody uses is
refused in one line.

>>> parse_boxes("east,south,north"), parse_boxes("0, 2, 3"), parse_boxes("W,N,E")
((0, 1, 3), (0, 2, 3), (2, 3, 0))
>>> seat_of(2, (0, 1, 3)), seat_of(3, (0, 1, 3)), seat_of(2, (0, 1, 3), players=4)
(None, 2, 2)
>>> unused_box_text((0, 1, 3))
'the West box has no player: three play at the East, South and North boxes'
"""

from __future__ import annotations

from tablekit.errors import TablekitError

BOX_NAMES = ("East", "South", "West", "North")
THREE = (0, 1, 2)  # the boxes three players use unless told otherwise


class BoxError(TablekitError, ValueError):
    """Seat boxes that cannot be used: not three, unknown, or one named twice."""


def parse_boxes(text: str) -> tuple[int, ...]:
    """Three boxes, the first dealer's first: numbers 0-3 or wind names (``east`` or ``E``).

    >>> parse_boxes("0,1")
    Traceback (most recent call last):
    ...
    tablekit.flow.boxes.BoxError: '0,1': name the three seat boxes the players use, e.g. \
east,south,west or 0,1,2
    >>> parse_boxes("e,e,s")
    Traceback (most recent call last):
    ...
    tablekit.flow.boxes.BoxError: 'e,e,s': the East box is named twice
    """
    parts = [part.strip().lower() for part in text.split(",")]
    boxes = tuple(_box(part, text) for part in parts if part)
    if len(boxes) != 3:
        raise BoxError(f"{text!r}: name the three seat boxes the players use, e.g. "
                       "east,south,west or 0,1,2")
    twice = next((box for box in boxes if boxes.count(box) > 1), None)
    if twice is not None:
        raise BoxError(f"{text!r}: the {BOX_NAMES[twice]} box is named twice")
    return boxes


def _box(part: str, text: str) -> int:
    if part in ("0", "1", "2", "3"):
        return int(part)
    for box, name in enumerate(BOX_NAMES):
        if part in (name.lower(), name[0].lower()):
            return box
    raise BoxError(f"{text!r}: {part!r} is no seat box (0-3, or east, south, west, north)")


def seat_of(box: int, boxes: tuple[int, ...], players: int = 3) -> int | None:
    """The player (seat) whose presses come from ``box``; None: nobody uses it. Four players:
    box N is seat N."""
    if players == 4:
        return box
    return boxes.index(box) if box in boxes else None


def unused_box_text(boxes: tuple[int, ...]) -> str:
    """What a press on the box nobody uses says."""
    unused = next(box for box in range(4) if box not in boxes)
    used = sorted(boxes)
    names = f"{BOX_NAMES[used[0]]}, {BOX_NAMES[used[1]]} and {BOX_NAMES[used[2]]}"
    return f"the {BOX_NAMES[unused]} box has no player: three play at the {names} boxes"
