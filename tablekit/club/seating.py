"""A tournament round's seating sent to the tables: the board reads the plan that ``tablekit
tournament seat`` wrote (``plan.json``) and gives each table of the round, by its number
(the club's table ``1``, ``2``, ...), who sits there East, South, West and North; the table
says it in one line.

>>> messages = seating_messages({"rounds": [[["Ana", "Ben", "Cho", "Dai"],
...                                           ["Eli", "Fay", "Gus", "Hal"]]]}, 1)
>>> sorted(messages)
['tablekit/club/tables/1/seating', 'tablekit/club/tables/2/seating']
>>> seating_line(messages["tablekit/club/tables/2/seating"])
'Round 1, table 2: East Eli, South Fay, West Gus, North Hal'
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tablekit.club.address import ClubError
from tablekit.club.topics import seating_topic
from tablekit.errors import one_line
from tablekit.tiles import WIND_NAMES


def read_plan(path: Path) -> dict[str, Any]:
    """The plan in ``path`` (a :class:`ClubError` in one line if it cannot be read)."""
    try:
        plan = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ClubError(f"cannot read the seating plan {path}: {one_line(error)}") from None
    if not isinstance(plan, dict) or not isinstance(plan.get("rounds"), list):
        raise ClubError(f"{path} is not a seating plan (tablekit tournament seat makes one)")
    return plan


def seating_messages(plan: dict[str, Any], round_number: int) -> dict[str, bytes]:
    """Each table's seating for round ``round_number`` (from 1): topic -> retained payload.

    >>> seating_messages({"rounds": [[["A", "B", "C", "D"]]]}, 2)
    Traceback (most recent call last):
    ...
    tablekit.club.address.ClubError: the plan has rounds 1-1, not round 2
    """
    rounds = plan["rounds"]
    if not 1 <= round_number <= len(rounds):
        raise ClubError(f"the plan has rounds 1-{len(rounds)}, not round {round_number}")
    messages = {}
    for number, seats in enumerate(rounds[round_number - 1], start=1):
        if not isinstance(seats, list) or not 3 <= len(seats) <= 4:
            raise ClubError(f"round {round_number}, table {number} of the plan is not a "
                            "list of three or four names")
        line = f"Round {round_number}, table {number}: " + ", ".join(
            f"{wind} {name}" for wind, name in zip(WIND_NAMES, seats, strict=False))
        messages[seating_topic(str(number))] = json.dumps(
            {"round": round_number, "table": number, "seats": [str(s) for s in seats],
             "line": line}, ensure_ascii=False).encode()
    return messages


def seating_line(payload: bytes) -> str:
    """The one line a table shows for its seating message ("" for one it cannot read)."""
    try:
        line = json.loads(payload).get("line", "")
    except (ValueError, AttributeError):
        return ""
    return " ".join(str(line).split())[:200]  # one line, whatever was sent
