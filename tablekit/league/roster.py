"""The club's roster (a small file of names) and the seating for a game.

A roster is plain text, one player a line; blank lines and ``#`` comments are skipped:

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "roster.txt"
>>> _ = path.write_text("# Thursday club\\nAki\\nBen\\n\\nCho\\nDai\\nEmi\\n", encoding="utf-8")
>>> read_roster(path)
['Aki', 'Ben', 'Cho', 'Dai', 'Emi']
>>> choose_players("Aki, Cho, Dai, Emi", read_roster(path))
('Aki', 'Cho', 'Dai', 'Emi')
>>> draw_seats(("Aki", "Cho", "Dai", "Emi"), seed=7)
('Dai', 'Aki', 'Cho', 'Emi')

Three players (sanma) are three names, seated East, South and West:

>>> seating_text(choose_players("Aki, Cho, Emi", read_roster(path), seats=3))
'East Aki · South Cho · West Emi'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from tablekit.errors import one_line
from tablekit.league.database import LeagueError
from tablekit.rules.schema import shown
from tablekit.untrusted import Untrusted
from tablekit.untrusted.fields import PlayerName
from tablekit.untrusted.files import looks_like, read_bytes
from tablekit.untrusted.names import confusable_names

SEATS = 4
COUNTS = {3: "three", 4: "four"}
WINDS = ("East", "South", "West", "North")
LARGEST_ROSTER = 4 << 20  # bytes: some 400,000 names


NAME = TypeAdapter(PlayerName)


def player_name(text: str, where: str) -> str:
    """``text`` as a player's name (NFC), or :class:`LeagueError` naming ``where``.

    >>> player_name("Jose\u0301", "x") == "José", player_name(" Aki ", "x")
    (True, 'Aki')
    >>> player_name("Aki\x1b[2J", "line 3")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tablekit...LeagueError: line 3: the name 'Aki\\x1b[2J' holds a control character (U+001B)
    """
    try:
        return NAME.validate_python(text.strip())
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        reason = str(first["ctx"]["error"]) if first["type"] == "value_error" else {
            "string_too_long": "is over 64 characters"}.get(first["type"], first["msg"].lower())
        raise LeagueError(f"{where}: the name {shown(text.strip())} {reason}") from None


def read_roster(path: Path, seats: int = SEATS, warn: Callable[[str], None] | None = None
                ) -> list[str]:
    """The names in a roster file, in its order (NFC; a byte-order mark is skipped): at
    least a game's ``seats`` (four, or three for sanma), none written twice, no control
    characters. Names that look alike (a Cyrillic "А" for an "A") are said to ``warn``, one
    line each (:func:`~tablekit.untrusted.names.confusable_names`).

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "roster.txt"
    >>> _ = path.write_text("Aki\\nBen\\nCho\\n\u0410ki\\n", encoding="utf-8")
    >>> len(read_roster(path, warn=print))  # doctest: +ELLIPSIS
    the roster ...: 'Aki' and 'Аki' look alike (U+0410 ...): one player or two?
    4
    """
    try:
        data = read_bytes(path, limit=LARGEST_ROSTER)  # a FIFO or /dev/zero: refused
    except Untrusted as error:
        raise LeagueError(f"cannot read the roster: {error}") from None
    except OSError as error:
        raise LeagueError(f"cannot read the roster: {one_line(error)}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise LeagueError(f"the roster {path} is not UTF-8 text ({error.reason} at byte "
                          f"{error.start}; {looks_like(data)})") from None
    lines: dict[str, int] = {}  # name -> its line
    for number, line in enumerate(text.split("\n"), 1):
        name = line.split("#", 1)[0].strip()
        if not name:
            continue
        name = player_name(name, f"the roster {path}, line {number}")
        if name in lines:
            raise LeagueError(f"the roster {path} names {name} twice (lines {lines[name]} "
                              f"and {number})")
        lines[name] = number
    if len(lines) < seats:
        raise LeagueError(f"the roster {path} names {len(lines)} player"
                          f"{'' if len(lines) == 1 else 's'}: a game needs {seats}")
    for line in confusable_names(lines) if warn is not None else ():
        warn(f"the roster {path}: {line}")
    return list(lines)


def choose_players(text: str, roster: Sequence[str] | None = None, seats: int = SEATS,
                   warn: Callable[[str], None] | None = None) -> tuple[str, ...]:
    """Four names typed as ``A, B, C, D`` (three for sanma, ``seats`` 3; seat order, first
    dealer first), each on the roster when there is one. Names that look alike are said to
    ``warn``, one line each.

    >>> choose_players("Aki, Ben, Cho, \u0410ki", warn=print)  # doctest: +ELLIPSIS
    players: 'Aki' and 'Аki' look alike (U+0410 ...): one player or two?
    ('Aki', 'Ben', 'Cho', 'Аki')

    Three different names under four-player rules, or four under three-player ones, are
    told which rules take them:

    >>> choose_players("Aki, Ben, Cho")
    Traceback (most recent call last):
    ...
    tablekit.league.database.LeagueError: a game needs four different players, not 'Aki, \
Ben, Cho' (three players: --rules tenhou-sanma, or a rules file with players = 3)
    >>> choose_players("Aki, Ben, Cho, Dai", seats=3)
    Traceback (most recent call last):
    ...
    tablekit.league.database.LeagueError: a game of three needs three different players, \
not 'Aki, Ben, Cho, Dai' (four players: four-player rules, e.g. --rules tenhou)
    >>> choose_players("Aki, Ben, Aki, Dai")  # a name twice: no hint of other rules
    Traceback (most recent call last):
    ...
    tablekit.league.database.LeagueError: a game needs four different players, not 'Aki, \
Ben, Aki, Dai'
    """
    names = tuple(player_name(part, "players") for part in text.split(",") if part.strip())
    distinct = len(set(names)) == len(names)  # a name typed twice is no other game's count
    if len(names) != seats or not distinct:
        game = "a game" if seats == SEATS else f"a game of {COUNTS[seats]}"
        hint = {(4, 3): " (three players: --rules tenhou-sanma, or a rules file with "
                        "players = 3)",
                (3, 4): " (four players: four-player rules, e.g. --rules tenhou)"}
        raise LeagueError(f"{game} needs {COUNTS[seats]} different players, not "
                          f"{shown(text, 80)}"
                          f"{hint.get((seats, len(names)), '') if distinct else ''}")
    known = set(roster) if roster is not None else set(names)
    unknown = [name for name in names if name not in known]
    if unknown:
        raise LeagueError(f"not on the roster: {', '.join(unknown)}")
    for line in confusable_names(names) if warn is not None else ():
        warn(f"players: {line}")
    return names


def draw_seats(names: Sequence[str], seed: int | None = None) -> tuple[str, ...]:
    """A random seating draw (seeded: the same seed, the same seats)."""
    return tuple(random.Random(seed).sample(list(names), len(names)))


def seating_text(names: Sequence[str]) -> str:
    """``East Aki · South Ben · West Cho · North Dai`` (three players: no North)."""
    return " · ".join(f"{wind} {name}"
                      for wind, name in zip(WINDS[:len(names)], names, strict=True))
