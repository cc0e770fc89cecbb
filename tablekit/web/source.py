"""The state a page shows, as a source with a version: a game journal followed line by line
and a league file read (read-only) when it changes.

>>> import tempfile, pathlib
>>> source = JournalSource(pathlib.Path(tempfile.mkdtemp()) / "game.jsonl")
>>> version, state = source.current()
>>> state["table"]["round"], source.current()[0] == version
('East 1', True)
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from pathlib import Path
from typing import Any

from tablekit.errors import TablekitError, one_line
from tablekit.game.session import JournalFollower
from tablekit.game.state import TableState
from tablekit.web.snapshot import evening_snapshot, league_snapshot, table_snapshot

RECORDS = ("evening", "league", "league_three", "league_note", "empty")
"""What the page shows of the league file."""

NO_LEAGUE = {"evening": "No game of this evening is kept: start with --league FILE to keep them",
             "league": "No league: start with --league FILE to keep one"}
NO_GAME_YET = {"evening": "No game finished yet this evening",
               "league": "No game in the league yet: a game is added when it is over"}


class JournalSource:
    """The page's state from a game journal and an optional league file, re-read on change."""

    def __init__(self, journal: Path, league: Path | None = None) -> None:
        self.journal = Path(journal)
        self.league = Path(league) if league else None
        self._lock = threading.Lock()
        self._stamp: tuple = ()
        self._snapshot: dict[str, Any] = {}
        self._follower = JournalFollower(self.journal)
        self.version = 0

    def current(self) -> tuple[int, dict[str, Any]]:
        """The state's version (it grows with every change) and the state: the table read
        again when the journal changed, the evening and league when the league did."""
        with self._lock:
            journal, league = _stamp(self.journal), _stamp(self.league)
            if (journal, league) != self._stamp:
                was = self._stamp or ((), ())
                table = self._snapshot.get("table") if journal == was[0] else None
                records = ({k: self._snapshot[k] for k in RECORDS}
                           if league == was[1] and self._snapshot else None)
                self._snapshot = {"table": table or self._table(),
                                  **(records or self._records())}
                unread = self._snapshot.pop("unread", False)
                self._stamp = (journal, ("unread",) if unread else league)
                self.version += 1
            return self.version, self._snapshot

    def _table(self) -> dict[str, Any]:
        state = TableState.new()
        # a journal caught mid-write is read again at its next change
        with contextlib.suppress(TablekitError):
            state = self._follower.state()
        return table_snapshot(state)

    def _records(self) -> dict[str, Any]:
        """The evening and the league (its four-player table, and its three-player one in
        ``league_three``), read without writing anything (a league of another schema: what
        can be read, and one line saying so); ``empty``: why a list is empty, in one line."""
        records: dict[str, Any] = {"evening": [], "league": [], "league_three": [],
                                   "league_note": "", "empty": {}}
        if self.league is None:
            records["empty"] = dict(NO_LEAGUE)
            return records
        # a league file still empty is one being made: nothing to show yet
        if self.league is not None and self.league.exists() and self.league.stat().st_size:
            from tablekit.league.database import LeagueBusy, behind, busy, read_only

            # a league locked by the game's own write shows none this time, and is read
            # again at the next look; a damaged one says so until it changes
            try:
                db = read_only(self.league)
                try:
                    records["league_note"] = behind(db, self.league) or ""
                    records["evening"] = evening_snapshot(db)
                    records["league"] = league_snapshot(db)
                    records["league_three"] = league_snapshot(db, players=3)
                finally:
                    db.close()
            except (TablekitError, sqlite3.Error, OSError) as error:
                if isinstance(error, LeagueBusy) or busy(self.league, error):
                    records["unread"] = True
                elif not records["league_note"]:
                    records["league_note"] = (str(error) if isinstance(error, TablekitError)
                                              else f"the league file {self.league} cannot be "
                                                   f"read ({one_line(error)})")
        records["empty"] = why_empty(records)
        return records


def why_empty(records: dict[str, Any]) -> dict[str, str]:
    """Why the evening or the league (four players) shows no game, by what was read: the
    league file not read now (its note says why), a league of three-player games only, or
    no game finished yet.

    >>> why_empty({"evening": [], "league": [], "league_three": [], "league_note": ""})["evening"]
    'No game finished yet this evening'
    >>> why_empty({"evening": [{}], "league": [], "league_three": [{}], "league_note": ""})
    {'league': 'No four-player game in the league yet'}
    """
    if records.get("unread"):  # the game is writing it: read again in a moment
        return {part: "Reading the league file…" for part in ("evening", "league")}
    if records["league_note"] and not (records["league"] or records["league_three"]):
        return {part: "Not read now: the line below says why" for part in ("evening", "league")}
    empty = {part: NO_GAME_YET[part] for part in ("evening", "league") if not records[part]}
    if "league" in empty and records["league_three"]:
        empty["league"] = "No four-player game in the league yet"
    return empty


def _stamp(path: Path | None) -> tuple:
    if path is None or not path.exists():
        return ()
    info = path.stat()
    wal = path.with_name(path.name + "-wal")
    extra = (wal.stat().st_mtime_ns, wal.stat().st_size) if wal.exists() else ()
    return (info.st_mtime_ns, info.st_size, *extra)
