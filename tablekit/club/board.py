"""The club's board: what the tables said, and every finished game recorded once.

It is fed the broker's messages (:meth:`Board.take`) and keeps each table's latest state,
marking a table silent after ``SILENT_SECONDS`` without a word and leaving out one silent
for ``FORGET_SECONDS`` that has no game recorded (a name made up on an open broker); a game
goes into the club's league under its table and id (``club:<table>:<game id>``), so a game
the broker delivers again is kept once. A web page reads it through :meth:`Board.current`,
as it reads a journal, from a thread of its own: the board's changes and readings take
turns (its lock).

Every message is checked first (:mod:`tablekit.untrusted`): JSON of bounded size and depth
with no NaN, the fields of a live state or a finished game within their limits, a game's id
naming the table whose topic it came on, and its rules and result within the limits of the
rules' schema. A message refused is said in one line, counted (``refused``), returned from
normally (so that the broker is told it was taken, and never gives it again) and never
recorded.

>>> board = Board(db=None, clock=lambda: 100.0)
>>> board.take("tablekit/club/tables/A/state", b'{"round": "East 1"}')
>>> version, tables = board.current()
>>> tables["A"]["state"]["round"], tables["A"]["silent"]
('East 1', False)
>>> board.clock = lambda: 131.0
>>> board.current()[1]["A"]["silent"], board.current()[0] > version
(True, True)
>>> board.take("tablekit/club/tables/A/state", b'{"round": NaN}')
>>> board.refused, board.current()[1]["A"]["state"]["round"]
(1, 'East 1')
>>> board.clock = lambda: 131.0 + FORGET_SECONDS
>>> board.current()[1]
{}
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tablekit.club.address import ClubError
from tablekit.club.records import record_events, summary_problem
from tablekit.club.topics import check_table, parse_topic
from tablekit.errors import TablekitError, one_line
from tablekit.game.summary import summarise
from tablekit.league.database import LeagueBusy, LeagueError, damaged
from tablekit.league.record import forget_game, record_game
from tablekit.untrusted import Untrusted
from tablekit.untrusted.json_text import parse_json
from tablekit.untrusted.wire import GameRecord, id_table, read_game, read_state

SILENT_SECONDS = 30.0
FORGET_SECONDS = 3600.0  # a table silent for an hour with no game recorded is left out


class NotYet(Exception):
    """A game the league cannot take now (locked by another program, a full disk, a file
    it could not read back): the same message is to be given again later (it is not
    acknowledged to the broker)."""


class Refused(TablekitError, ValueError):
    """A message the board does not take: said in one line, counted, never recorded."""


@dataclass
class Board:
    """Every table's latest state and the games recorded; ``say`` is given one line per
    game recorded and per message refused (``refused`` counts them; ``unexpected``
    counts those of them that the checks missed and something deeper refused)."""

    db: sqlite3.Connection | None
    clock: Callable[[], float] = time.monotonic
    wall: Callable[[], float] = time.time  # when a table was last heard, as pages show it
    say: Callable[[str], None] = lambda line: None
    season: str = ""
    tables: dict[str, dict[str, Any]] = field(default_factory=dict)
    recorded: int = 0
    refused: int = 0
    unexpected: int = 0
    version: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def take(self, topic: str, payload: bytes) -> None:
        """One message from the broker (redelivered or not: a game already recorded is
        not recorded again); :class:`NotYet` when it is to be given again later. A message
        refused returns normally, said and counted."""
        with self.lock:
            try:
                self._take(topic, payload)
            except (Refused, Untrusted, ClubError) as error:
                self._refuse(topic, one_line(error))
            except NotYet:
                raise
            except Exception as error:  # a table is another program: the board goes on
                # whatever one sends; counted apart, as a check still to be added
                self.unexpected += 1
                self._refuse(topic, f"it could not be read ({type(error).__name__}: "
                                    f"{one_line(error)[:120]})")

    def _refuse(self, topic: str, why: str) -> None:
        self.refused += 1
        parsed = parse_topic(topic)
        table = parsed[0] if parsed else topic
        self.say(f"table {_shown(table)}: a message refused, not recorded: {why}")

    def _take(self, topic: str, payload: bytes) -> None:
        parsed = parse_topic(topic)
        if parsed is None:
            return
        table, kind, game = parsed
        check_table(table)
        data = parse_json(payload)
        if kind == "state":
            entry = self._heard(table)
            entry["state"] = read_state(data)
        elif self._record(table, game, read_game(data)):
            self._heard(table)["games"] += 1
        self.version += 1

    def _heard(self, table: str) -> dict[str, Any]:
        entry = self.tables.setdefault(table, {"state": {}, "games": 0})
        entry["heard"], entry["heard_at"], entry["silent"] = self.clock(), self.wall(), False
        return entry

    def tick(self) -> None:
        """Mark silent the tables not heard for ``SILENT_SECONDS``; leave out those not
        heard for ``FORGET_SECONDS`` that have no game recorded."""
        with self.lock:
            self._tick()

    def _tick(self) -> None:
        now = self.clock()
        for name, entry in list(self.tables.items()):
            quiet = now - entry["heard"]
            if quiet >= FORGET_SECONDS and not entry["games"]:
                del self.tables[name]
                self.version += 1
            elif not entry["silent"] and quiet >= SILENT_SECONDS:
                entry["silent"] = True
                self.version += 1

    def current(self) -> tuple[int, dict[str, Any]]:
        """(version, every table's state, whether it is silent, games recorded and when it
        was last heard, seconds since the epoch): the version grows with every change."""
        with self.lock:
            self._tick()
            return self.version, {
                name: {"state": dict(entry["state"]), "silent": entry["silent"],
                       "games": entry["games"], "heard_at": round(entry["heard_at"], 3)}
                for name, entry in sorted(self.tables.items())}

    def _record(self, table: str, game: str, record: GameRecord) -> bool:
        """Record one finished game in the league (False: it was already, or no league);
        :class:`Refused` when it is not to be recorded."""
        if record.game_id != game or record.table != table:
            raise Refused(f"the game on its topic {game} says it is another game")
        if id_table(game) != table:
            raise Refused(f"game {game} names another table than {table}")
        try:
            events = record_events(record)
            summary = summarise(events)
        except (TablekitError, ValueError) as error:  # BadEvent, a refused rule
            raise Refused(f"game {game}: {one_line(error)}") from None
        problem = summary_problem(summary)
        if problem is not None:
            raise Refused(f"game {game}: {problem}")
        if self.db is None or self._known(f"club:{game}"):  # as an older board keyed it
            return False
        key = f"club:{table}:{game}"
        try:
            self._readable(table, game)
            new = record_game(self.db, summary, season=self.season,
                              played_at=record.played_at, key=key)
            if new is not None:
                self._readable(table, game, key)
        except LeagueBusy as error:  # locked by another program: later
            raise NotYet(f"table {table}: game {game} not recorded yet: {one_line(error)}"
                         ) from None
        except (LeagueError, sqlite3.IntegrityError) as error:  # not a league's game
            raise Refused(f"game {game}: {one_line(error)}") from None
        except (sqlite3.DatabaseError, OSError) as error:  # locked, no room, damaged: later
            raise NotYet(f"table {table}: game {game} not recorded yet: {one_line(error)}"
                         ) from None
        if new is None:
            return False
        self.recorded += 1
        results = ", ".join(f"{p.name} {p.points}" for p in
                            sorted(summary.players, key=lambda p: p.rank))
        self.say(f"table {table}: game {game} recorded: {results}")
        return True

    def _known(self, key: str) -> bool:
        assert self.db is not None
        try:
            return self.db.execute("SELECT 1 FROM games WHERE game_key = ?",
                                   (key,)).fetchone() is not None
        except sqlite3.OperationalError as error:
            raise NotYet(f"the league cannot be read now: {one_line(error)}") from None

    def _readable(self, table: str, game: str, written: str | None = None) -> None:
        """:class:`NotYet` when the league file cannot be read back (a damaged page that
        ``tablekit league`` stops at): the game is not acknowledged, and one just
        ``written`` is taken out again, as far as the file lets it."""
        assert self.db is not None
        problem = damaged(self.db)
        if problem is None:
            return
        if written is not None:
            with contextlib.suppress(sqlite3.Error):
                forget_game(self.db, written)
        raise NotYet(f"table {table}: game {game} not recorded: the league file cannot be "
                     f"read back ({problem})")


def _shown(text: str) -> str:
    """``text`` as a line shows it: as it is when it can name a table, else escaped."""
    try:
        return check_table(text)
    except ClubError:
        return ascii(text[:60])
