"""The club's board: what the tables said, and every finished game recorded once.

It is fed the broker's messages (:meth:`Board.take`) and keeps each table's latest state,
marking a table silent after ``SILENT_SECONDS`` without a word; a game goes into the club's
league under its id (``club:<game id>``), so a game the broker delivers again is kept once.
A web page reads it through :meth:`Board.current`, as it reads a journal, from a thread
of its own: the board's changes and readings take turns (its lock).

>>> board = Board(db=None, clock=lambda: 100.0)
>>> board.take("tablekit/club/tables/A/state", b'{"round": "East 1"}')
>>> version, tables = board.current()
>>> tables["A"]["state"]["round"], tables["A"]["silent"]
('East 1', False)
>>> board.clock = lambda: 131.0
>>> board.current()[1]["A"]["silent"], board.current()[0] > version
(True, True)
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tablekit.club.records import record_events
from tablekit.club.topics import parse_topic
from tablekit.errors import one_line
from tablekit.game.events import BadEvent
from tablekit.game.summary import summarise
from tablekit.league.database import LeagueError
from tablekit.league.record import record_game

SILENT_SECONDS = 30.0


class NotYet(Exception):
    """A game the league cannot take now (locked by another program, a full disk): the
    same message is to be given again later (it is not acknowledged to the broker)."""


@dataclass
class Board:
    """Every table's latest state and the games recorded; ``say`` is given one line per
    game recorded (and per message refused)."""

    db: sqlite3.Connection | None
    clock: Callable[[], float] = time.monotonic
    wall: Callable[[], float] = time.time  # when a table was last heard, as pages show it
    say: Callable[[str], None] = lambda line: None
    season: str = ""
    tables: dict[str, dict[str, Any]] = field(default_factory=dict)
    recorded: int = 0
    version: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def take(self, topic: str, payload: bytes) -> None:
        """One message from the broker (redelivered or not: a game already recorded is
        not recorded again); :class:`NotYet` when it is to be given again later."""
        with self.lock:
            self._take(topic, payload)

    def _take(self, topic: str, payload: bytes) -> None:
        parsed = parse_topic(topic)
        if parsed is None:
            return
        table, kind, game = parsed
        entry = self.tables.setdefault(table, {"state": {}, "games": 0})
        entry["heard"], entry["heard_at"], entry["silent"] = self.clock(), self.wall(), False
        try:
            data = json.loads(payload)
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
        except ValueError as error:
            self.say(f"table {table}: a message on {topic} is not JSON ({one_line(error)})")
            return
        if kind == "state":
            entry["state"] = data
        elif self._record(table, game, data):
            entry["games"] += 1
        self.version += 1

    def tick(self) -> None:
        """Mark silent the tables not heard for ``SILENT_SECONDS``."""
        with self.lock:
            self._tick()

    def _tick(self) -> None:
        now = self.clock()
        for entry in self.tables.values():
            if not entry["silent"] and now - entry["heard"] >= SILENT_SECONDS:
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

    def _record(self, table: str, game: str, record: dict[str, Any]) -> bool:
        """Record one finished game in the league (False: it was already, or refused)."""
        if record.get("game_id") != game or record.get("table") != table:
            self.say(f"table {table}: the game on its topic {game} says it is another game; "
                     "not recorded")
            return False
        try:
            events = record_events(record)
            summary = summarise(events)
            if self.db is None:
                return False
            new = record_game(self.db, summary, season=self.season,
                              played_at=str(record.get("played_at") or "") or None,
                              key=f"club:{game}")
        except (sqlite3.OperationalError, OSError) as error:  # locked, or no room: later
            raise NotYet(f"table {table}: game {game} not recorded yet: {one_line(error)}"
                         ) from None
        except (BadEvent, LeagueError, KeyError, TypeError, ValueError) as error:
            self.say(f"table {table}: game {game} not recorded: {one_line(error)}")
            return False
        if new is None:
            return False
        self.recorded += 1
        results = ", ".join(f"{p.name} {p.points}" for p in
                            sorted(summary.players, key=lambda p: p.rank))
        self.say(f"table {table}: game {game} recorded: {results}")
        return True
