"""A tournament's state for the organiser: the plan followed round by round, the round's
clock (its start, length, the rules' end-of-time policy, extra time per table), results
held back until every table of a round has finished, seats fixed and substitutes.

The plan's table ``i`` (from 1) is the club's table named ``tables[i - 1]``.

>>> t = Tournament(rounds=[[["Ana", "Ben", "Cho", "Dan"], ["Eve", "Fay", "Gus", "Hal"]]],
...                tables=["1", "2"], minutes=60)
>>> seating_text(t, 1, "2")
'Round 1, table 2: East Eve, South Fay, West Gus, North Hal'
>>> swap(t, 1, "2", "Eve", "Hal")
'Round 1, table 2: East Hal, South Fay, West Gus, North Eve'
>>> substitute(t, "Ben", "Zed", 1)
['Round 1, table 1: East Ana, South Zed, West Cho, North Dan']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from tablekit.errors import TablekitError
from tablekit.league.roster import SEATS, WINDS

POLICIES = ("finish_hand", "one_more_hand")


class TournamentError(TablekitError, ValueError):
    """An organiser's order that cannot be followed (named, in one line)."""


@dataclass
class Tournament:
    """The plan (rounds of tables of names East, South, West, North), the club's table names,
    the settings, the round sent to the tables (0: none yet) and its clock."""

    rounds: list[list[list[str]]]
    tables: list[str]
    hold_results: bool = False
    minutes: int = 0                   # a round's length (0: no clock)
    end_of_time: str = "finish_hand"   # the rules' policy when time is up
    round: int = 0
    clock_started: float | None = None  # seconds since the epoch (None: not started)
    extra: dict[str, int] = field(default_factory=dict)  # table -> extra minutes this round
    fixes: list[str] = field(default_factory=list)       # what the organiser changed

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Tournament:
        """The state as :meth:`as_dict` wrote it, checked."""
        try:
            tournament = cls(**data)
        except TypeError as error:
            raise TournamentError(f"not a tournament's state ({error})") from None
        check(tournament)
        return tournament


def new_tournament(plan: dict[str, Any], tables: Sequence[str] = (), hold_results: bool = False,
                   minutes: int = 0, end_of_time: str = "finish_hand") -> Tournament:
    """A tournament following ``plan`` (``tablekit tournament seat``'s JSON); ``tables``: the
    club's table names for the plan's tables (by default ``1``, ``2``, ...).

    >>> new_tournament({"rounds": [[["A", "B", "C", "D"]]]}, ["A1", "A2"])
    Traceback (most recent call last):
    ...
    tablekit.league.tournament.TournamentError: the plan has 1 table a round: name 1 table, not 2
    """
    rounds = plan.get("rounds") if isinstance(plan, dict) else None
    if not isinstance(rounds, list) or not rounds or not isinstance(rounds[0], list):
        raise TournamentError("the plan has no rounds (make one with tablekit tournament seat)")
    count = len(rounds[0])
    names = list(tables) or [str(i + 1) for i in range(count)]
    if len(names) != count:
        raise TournamentError(f"the plan has {count} table{'s' * (count > 1)} a round: name "
                              f"{count} table{'s' * (count > 1)}, not {len(names)}")
    tournament = Tournament(rounds, names, hold_results, minutes, end_of_time)
    check(tournament)
    return tournament


def check(t: Tournament) -> None:
    """Refuse a state that cannot be followed: tables of four names, each player once a round,
    table names unique, a known policy."""
    if len(set(t.tables)) != len(t.tables):
        raise TournamentError(f"a table is named twice in {t.tables}")
    if t.end_of_time not in POLICIES:
        raise TournamentError(f"end of time is {' or '.join(POLICIES)}, not {t.end_of_time!r}")
    if not 0 <= t.minutes <= 24 * 60:
        raise TournamentError(f"a round lasts 0 to {24 * 60} minutes, not {t.minutes}")
    for number, round_ in enumerate(t.rounds, 1):
        if not isinstance(round_, list) or len(round_) != len(t.tables) or any(
                not isinstance(table, list) or len(table) != SEATS
                or not all(isinstance(name, str) and name for name in table)
                for table in round_):
            raise TournamentError(f"round {number} of the plan is not {len(t.tables)} "
                                  "tables of four names")
        seated = [name for table in round_ for name in table]
        twice = sorted({name for name in seated if seated.count(name) > 1})
        if twice:
            raise TournamentError(f"round {number} seats {', '.join(twice)} twice")


def seats(t: Tournament, round_: int, table: str) -> list[str]:
    """The names at ``table`` in round ``round_`` (from 1), East first."""
    if not 1 <= round_ <= len(t.rounds):
        raise TournamentError(f"round {round_}: the plan has rounds 1 to {len(t.rounds)}")
    if table not in t.tables:
        raise TournamentError(f"no table {table!r} (the tables are {', '.join(t.tables)})")
    return t.rounds[round_ - 1][t.tables.index(table)]


def seating_text(t: Tournament, round_: int, table: str) -> str:
    """What the table shows before the round's game."""
    names = seats(t, round_, table)
    return f"Round {round_}, table {table}: " + ", ".join(
        f"{wind} {name}" for wind, name in zip(WINDS, names, strict=True))


def seating_message(t: Tournament, round_: int, table: str) -> dict[str, Any]:
    """The retained seating a table is sent: its round, seats, text, and the clock's length
    and policy its game starts under.

    >>> t = Tournament([[["A", "B", "C", "D"]]], ["T"], minutes=90)
    >>> seating_message(t, 1, "T")["seats"], seating_message(t, 1, "T")["minutes"]
    (['A', 'B', 'C', 'D'], 90)
    """
    return {"round": round_, "table": table, "seats": list(seats(t, round_, table)),
            "text": seating_text(t, round_, table), "minutes": t.minutes,
            "end_of_time": t.end_of_time}


def clock_message(t: Tournament) -> dict[str, Any]:
    """The retained clock every table reads: round, start, length, policy, extra minutes by
    table (a table adds its own to the length)."""
    return {"round": t.round, "started": t.clock_started, "minutes": t.minutes,
            "end_of_time": t.end_of_time, "extra": dict(t.extra)}


def start_round(t: Tournament, round_: int) -> None:
    """Send round ``round_`` next: its clock not started, no extra time yet."""
    seats(t, round_, t.tables[0])  # a round of the plan
    t.round, t.clock_started, t.extra = round_, None, {}


def start_clock(t: Tournament, now: float) -> None:
    if not t.round:
        raise TournamentError("no round yet: send one first (tablekit tournament round N)")
    if not t.minutes:
        raise TournamentError("the tournament has no clock: start it with --minutes N")
    t.clock_started = now


def add_time(t: Tournament, table: str, minutes: int) -> int:
    """Give ``table`` ``minutes`` more in this round (negative: take them back); its extra
    minutes now."""
    seats(t, t.round or 1, table)
    extra = t.extra.get(table, 0) + minutes
    if extra < 0:
        raise TournamentError(f"table {table} has {t.extra.get(table, 0)} extra minutes: "
                              f"cannot take {-minutes}")
    t.extra[table] = extra
    if not extra:
        del t.extra[table]
    return extra


def swap(t: Tournament, round_: int, table: str, first: str, second: str) -> str:
    """Swap two players' seats at ``table`` in round ``round_`` (they sat the other way); the
    table's seating now."""
    names = seats(t, round_, table)
    for name in (first, second):
        if name not in names:
            raise TournamentError(f"{name} is not at table {table} in round {round_} "
                                  f"({', '.join(names)})")
    if first == second:
        raise TournamentError(f"swap two different players, not {first} with {first}")
    a, b = names.index(first), names.index(second)
    names[a], names[b] = names[b], names[a]
    t.fixes.append(f"round {round_}, table {table}: {first} and {second} swapped seats")
    return seating_text(t, round_, table)


def substitute(t: Tournament, player: str, by: str, from_round: int) -> list[str]:
    """``by`` plays instead of ``player`` from round ``from_round`` on; the seatings changed."""
    seats(t, from_round, t.tables[0])
    if not by.strip() or "," in by:
        raise TournamentError(f"a substitute's name is a name without commas, not {by!r}")
    later = t.rounds[from_round - 1:]
    if any(by in table for round_ in later for table in round_):
        raise TournamentError(f"{by} already plays from round {from_round} on")
    changed = []
    for number, round_ in enumerate(later, from_round):
        for index, table in enumerate(round_):
            if player in table:
                table[table.index(player)] = by
                changed.append(seating_text(t, number, t.tables[index]))
    if not changed:
        raise TournamentError(f"{player} plays no round from {from_round} on")
    t.fixes.append(f"{by} plays for {player} from round {from_round}")
    return changed


@dataclass(frozen=True)
class Played:
    """A game recorded in the club's league: its key and players (seat order)."""

    key: str
    names: tuple[str, ...]


def rounds_of(t: Tournament, games: Iterable[Played]) -> dict[str, tuple[int, str]]:
    """Each game's (round, table), by its players, in the order played: a game goes to the
    earliest table of the plan seating its four players that has no game yet (games of
    other players are not the tournament's).

    >>> t = Tournament([[["A", "B", "C", "D"]], [["D", "C", "B", "A"]]], ["T"])
    >>> rounds_of(t, [Played("g1", ("A", "B", "C", "D")), Played("g2", ("B", "A", "D", "C")),
    ...               Played("x", ("A", "B", "C", "Z"))])
    {'g1': (1, 'T'), 'g2': (2, 'T')}
    """
    free: dict[frozenset[str], list[tuple[int, str]]] = {}
    for number, round_ in enumerate(t.rounds, 1):
        for index, table in enumerate(round_):
            free.setdefault(frozenset(table), []).append((number, t.tables[index]))
    found = {}
    for game in games:
        places = free.get(frozenset(game.names))
        if places:
            found[game.key] = places.pop(0)
    return found


def held_back(t: Tournament, games: Iterable[Played]) -> set[str]:
    """The games whose results are not shown yet: with ``hold_results``, those of a round in
    which a table has not finished.

    >>> t = Tournament([[["A", "B", "C", "D"], ["E", "F", "G", "H"]]], ["1", "2"],
    ...                hold_results=True)
    >>> held_back(t, [Played("g1", ("A", "B", "C", "D"))])
    {'g1'}
    >>> held_back(t, [Played("g1", ("A", "B", "C", "D")), Played("g2", ("E", "F", "G", "H"))])
    set()
    """
    if not t.hold_results:
        return set()
    found = rounds_of(t, games)
    finished: dict[int, int] = {}
    for number, _table in found.values():
        finished[number] = finished.get(number, 0) + 1
    return {key for key, (number, _) in found.items() if finished[number] < len(t.tables)}


def finished_tables(t: Tournament, round_: int, games: Iterable[Played]) -> list[str]:
    """The tables whose game of round ``round_`` is recorded."""
    return [table for number, table in rounds_of(t, games).values() if number == round_]
