"""A tournament's seating plan (``tablekit tournament seat`` writes it; a person may edit it
or bring one from elsewhere): JSON of at most :data:`PLAN_BYTES`, nested as a plan is
(``rounds``: a list of rounds, each a list of tables, each four players' names), read
from a regular file only. What it must be beyond its shape (each player once a round,
the same number of tables each round) :mod:`tablekit.league.tournament` checks.

>>> check_plan({"rounds": [[["Aki", "Ben", "Cho", "Dai"]]], "seed": 7}, "p")["rounds"]
[[['Aki', 'Ben', 'Cho', 'Dai']]]
>>> def refused(value):
...     try:
...         check_plan(value, "plan.json")
...     except Untrusted as error:
...         return str(error)
>>> refused({"rounds": [[["Aki", "Ben", "Cho"]]]})
"plan.json: not a seating plan (rounds[0][0]: 3 items, fewer than 4, ['Aki', 'Ben', 'Cho'])"
>>> refused([1])
'plan.json: not a seating plan (not an object, [1])'
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from pydantic import Field

from tablekit.untrusted import Untrusted
from tablekit.untrusted.fields import PlayerName
from tablekit.untrusted.files import read_bytes
from tablekit.untrusted.json_text import parse_json
from tablekit.untrusted.shapes import Shape, validated

PLAN_BYTES = 4 << 20        # a plan of 100 rounds of 250 tables is about 3 MB
MOST_ROUNDS = 100
MOST_TABLES = 250
SEATS = 4

TableSeats = Annotated[list[PlayerName], Field(min_length=SEATS, max_length=SEATS)]
Round = Annotated[list[TableSeats], Field(min_length=1, max_length=MOST_TABLES)]


class Plan(Shape):
    """A seating plan's shape: the rounds, each its tables' four names."""

    rounds: Annotated[list[Round], Field(min_length=1, max_length=MOST_ROUNDS)]


def check_plan(value: Any, where: str) -> dict[str, Any]:
    """``value`` (a parsed plan) checked, its names in NFC; :class:`Untrusted` naming
    ``where`` and the first thing at fault."""
    return validated(Plan, value, where, "a seating plan")


def read_plan(path: Path) -> dict[str, Any]:
    """The seating plan in ``path`` (a regular file), checked; :class:`Untrusted` (one
    line) for a file too large, too deeply nested, not JSON or not a plan."""
    try:
        value = parse_json(read_bytes(path, limit=PLAN_BYTES), max_bytes=PLAN_BYTES)
    except Untrusted as error:
        text = str(error)
        raise Untrusted(text if text.startswith(str(path)) else f"{path}: {text}") from None
    return check_plan(value, str(path))
