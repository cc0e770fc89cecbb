"""The league file: SQLite in WAL mode, its schema brought up to date by numbered migrations.

``PRAGMA user_version`` says how many migrations a file has had; opening it applies the
rest, each in its own transaction, so an old file is upgraded in place and a new one is
built by the same steps.

>>> import tempfile, pathlib
>>> db = connect(pathlib.Path(tempfile.mkdtemp()) / "league.sqlite")
>>> db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
True
>>> db.execute("PRAGMA journal_mode").fetchone()[0]
'wal'
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from tablekit.errors import TablekitError

MIGRATIONS: tuple[str, ...] = (
    # 1: players, games, and each seat's result (game points in tenths: 45.0 is 450)
    """
    CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        season TEXT NOT NULL,
        played_at TEXT NOT NULL,
        rules TEXT NOT NULL,
        hands INTEGER NOT NULL,
        end_reason TEXT NOT NULL,
        leftover_sticks INTEGER NOT NULL DEFAULT 0,
        game_key TEXT UNIQUE
    );
    CREATE TABLE results (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
        player_id INTEGER NOT NULL REFERENCES players(id),
        place INTEGER NOT NULL CHECK (place BETWEEN 1 AND 4),
        points INTEGER NOT NULL,
        score_tenths INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        deal_ins INTEGER NOT NULL,
        riichi INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat),
        UNIQUE (game_id, player_id)
    );
    CREATE INDEX games_by_season ON games (season, id);
    """,
    # 2: the penalty ledger: chombo and other penalties, in points, per game and seat
    """
    CREATE TABLE penalties (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
        amount INTEGER NOT NULL,
        reason TEXT NOT NULL
    );
    ALTER TABLE results ADD COLUMN chombo INTEGER NOT NULL DEFAULT 0;
    """,
)


class LeagueError(TablekitError, ValueError):
    """A league file that cannot be opened, or a game it cannot take (named)."""


def default_league() -> Path:
    """Where the league lives unless told otherwise (``$XDG_DATA_HOME/tablekit``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tablekit" / "league.sqlite"


def connect(path: Path) -> sqlite3.Connection:
    """Open (or create) the league file at ``path``, migrated to the current schema."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    try:
        db = sqlite3.connect(path, isolation_level=None)  # transactions are explicit
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA foreign_keys = ON")
        migrate(db)
    except sqlite3.DatabaseError as error:
        raise LeagueError(f"{path} is not a league file: {error}") from None
    return db


def migrate(db: sqlite3.Connection) -> int:
    """Apply the migrations the file has not had; the schema version it ends at."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > len(MIGRATIONS):
        raise LeagueError(f"the league file is from a newer tablekit (schema {version})")
    for number in range(version, len(MIGRATIONS)):
        db.execute("BEGIN IMMEDIATE")
        try:
            for statement in _statements(MIGRATIONS[number]):
                db.execute(statement)
            db.execute(f"PRAGMA user_version = {number + 1}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    return len(MIGRATIONS)


def _statements(script: str) -> list[str]:
    return [part.strip() for part in script.split(";") if part.strip()]
