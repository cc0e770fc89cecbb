"""The club's MQTT topics, a table's name and a finished game's stable id.

>>> state_topic("A"), game_topic("A", "A-20261203T154000-1")
('tablekit/club/tables/A/state', 'tablekit/club/tables/A/games/A-20261203T154000-1')
>>> parse_topic("tablekit/club/tables/A/games/A-1")
('A', 'games', 'A-1')
>>> parse_topic("tablekit/club/tables/A/state")
('A', 'state', '')
>>> parse_topic("elsewhere/A") is None
True
"""

from __future__ import annotations

import re

from tablekit.club.address import ClubError

ROOT = "tablekit/club/tables"
STATE_TOPICS = f"{ROOT}/+/state"
GAME_TOPICS = f"{ROOT}/+/games/+"
_NAME = re.compile(r"[A-Za-z0-9_.-]{1,40}")
RESERVED = frozenset({"board", "organiser"})  # the broker users of the board and organiser


def check_table(name: str) -> str:
    """``name`` if it can name a table (letters, digits, ``_.-``; no MQTT wildcards).

    >>> check_table("table-2")
    'table-2'
    >>> try:
    ...     check_table("a/#")
    ... except ClubError as error:
    ...     print(error)
    a table's name is 1-40 letters, digits, '_', '.' or '-', not 'a/#'
    >>> try:
    ...     check_table("Board")
    ... except ClubError as error:
    ...     print(error)
    'Board' cannot name a table: board and organiser are the club's own broker users
    """
    if not _NAME.fullmatch(name):
        raise ClubError(f"a table's name is 1-40 letters, digits, '_', '.' or '-', not {name!r}")
    if name.lower() in RESERVED:
        raise ClubError(f"{name!r} cannot name a table: board and organiser are the club's "
                        "own broker users")
    return name


def state_topic(table: str) -> str:
    return f"{ROOT}/{table}/state"


def game_topic(table: str, game_id: str) -> str:
    return f"{ROOT}/{table}/games/{game_id}"


def seating_topic(table: str) -> str:
    """The organiser's seating for ``table`` (retained)."""
    return f"{ROOT}/{table}/seating"


def clock_topic(table: str) -> str:
    """The organiser's round clock for ``table`` (retained; the same clock for every table,
    sent to each: the broker's ACL lets a table read only its own topics)."""
    return f"{ROOT}/{table}/clock"


def parse_topic(topic: str) -> tuple[str, str, str] | None:
    """(table, ``state`` or ``games``, game id) of a club topic (None: not one)."""
    parts = topic.split("/")
    if parts[:3] != ROOT.split("/") or len(parts) not in (5, 6):
        return None
    if len(parts) == 5 and parts[4] == "state":
        return parts[3], "state", ""
    if len(parts) == 6 and parts[4] == "games" and parts[5]:
        return parts[3], "games", parts[5]
    return None
