"""The declared shape of the flow's note (:mod:`tablekit.flow.saved`): a note that is JSON
of another shape (a list, a number, a menu with no items, four seats' tenpai as one) is
refused whole before any of it is taken up.

>>> check('{"at": 3, "stage": "PLAY", "message": "", "layout": "facing",'
...       ' "next_rules": "tenhou", "riichi_waiting": [], "calls": []}')["at"]
3
>>> check("[]")
Traceback (most recent call last):
ValueError: not a flow note: the note is a list, not an object
>>> check('{"at": 3, "stage": "MENU", "message": "", "layout": "facing", "next_rules": "x",'
...       ' "riichi_waiting": [], "calls": [], "menu": {"title": "M", "selected": 0,'
...       ' "items": []}}')
Traceback (most recent call last):
ValueError: not a flow note: menu.items: List should have at least 1 item after validation, \
not 0
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

Seat = Annotated[int, Field(ge=0, le=3)]
Count = Annotated[int, Field(ge=0)]
Codes = list[str | None]


class _Shape(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore")


class Menu(_Shape):
    title: str
    selected: int
    items: Annotated[list[tuple[str, str, Any]], Field(min_length=1)]


class Fix(_Shape):
    seats: list[Seat]
    hands: list[Codes]
    ura: Codes
    dora: Codes
    cursor: Count


class Reading(_Shape):
    won: dict[str, Any]
    doubts: list[str]
    unseen: Count
    drafts: list[tuple[Seat, Codes]]


class Win(_Shape):
    claims: list[tuple[Seat, bool]]
    discarder: Seat | None
    seats: list[Seat]
    pending: dict[str, Any] | None
    doubts: list[str]
    corrections: list[dict[str, Any]]
    fixed: bool
    entries: list[tuple[Seat, Count, Count]]
    fix: Fix | None
    reading: Reading | None


class Seating(_Shape):
    names: Annotated[list[str | None], Field(min_length=3, max_length=4)]  # three: sanma
    steps: list[Annotated[list[str | None], Field(min_length=3, max_length=4)]]
    draws: Count
    drawn: bool
    back: str | None


class Note(_Shape):
    """Everything :func:`tablekit.flow.saved.snapshot` writes, and the seconds ``left``."""

    at: Count
    stage: str
    message: str
    layout: str
    next_rules: str
    riichi_waiting: list[tuple[Seat, Count] | Seat]  # [seat, events in force]; old: seat
    calls: list[tuple[Seat, Count, Count]] = []
    tenpai: Annotated[list[bool], Field(min_length=3, max_length=4)] | None = None  # each seat
    menu: Menu | None = None
    win: Win | None = None
    seating: Seating | None = None
    timer: tuple[Count, float, Count | None] | None = None
    left: float = 0.0


def check(text: str) -> dict[str, Any]:
    """The note in ``text`` as a dict (its optional parts only when present); a ValueError
    naming the first thing wrong when it is not JSON or not of the note's shape."""
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError(f"not a flow note: the note is {_kind(data)}, not an object")
    try:
        Note.model_validate_json(text)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the note"
        raise ValueError(f"not a flow note: {where}: {first['msg']}") from None
    return data


def _kind(data: Any) -> str:
    kinds = {bool: "true or false", int: "a number", float: "a number", str: "a string",
             list: "a list"}
    return kinds.get(type(data), "null")
