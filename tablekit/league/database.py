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
import time
from pathlib import Path

from tablekit.errors import TablekitError, one_line
from tablekit.untrusted import Untrusted
from tablekit.untrusted.files import looks_like, open_regular

SQLITE_MAGIC = b"SQLite format 3\x00"

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


BUSY_SECONDS = 3.0  # how long a league file locked by another program is waited for


class LeagueBusy(LeagueError):
    """The league file is locked by another program (it was waited for)."""


def busy(path: Path | str, error: BaseException, seconds: float = BUSY_SECONDS
         ) -> LeagueError | None:
    """The one line for an SQLite error that means the file is locked (None: another).

    >>> str(busy("l.sqlite", sqlite3.OperationalError("database is locked")))
    'the league file l.sqlite is locked by another program (waited 3 s)'
    """
    text = str(error).lower()
    if isinstance(error, sqlite3.OperationalError) and ("locked" in text or "busy" in text):
        return LeagueBusy(f"the league file {path} is locked by another program "
                          f"(waited {seconds:g} s)")
    return None


class NoLeague(LeagueError):
    """A command that only reads the league was given a file that does not exist."""


def connect(path: Path, timeout: float = BUSY_SECONDS, create: bool = True
            ) -> sqlite3.Connection:
    """Open (or create) the league file at ``path``, migrated to the current schema; a file
    locked by another program is waited for ``timeout`` seconds (then :class:`LeagueBusy`).
    Only a command that records creates one: with ``create=False`` a missing file (a typo
    in a path) is :class:`NoLeague`, and nothing is created.

    >>> try:
    ...     connect(Path("no-such-folder/typo.sqlite"), create=False)
    ... except NoLeague as error:
    ...     print(error)
    no league file at no-such-folder/typo.sqlite (recording a game with --league starts one)
    >>> Path("no-such-folder").exists()
    False
    """
    require_league(Path(path), timeout)  # before any pragma or migration writes to it
    if not create and not Path(path).is_file():
        raise NoLeague(f"no league file at {path} (recording a game with --league starts one)")
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + timeout
    while True:
        try:
            return _open(path, max(0.0, deadline - time.monotonic()))
        except sqlite3.DatabaseError as error:
            # SQLite answers "locked" at once, without waiting, where waiting could deadlock
            # (two processes making a new file WAL at the same moment): try again until the
            # time is up
            if busy(path, error, timeout) is not None and time.monotonic() < deadline:
                time.sleep(0.05)
                continue
            raise busy(path, error, timeout) or LeagueError(
                f"{path} is not a league file: {error}") from None


LEAGUE_TABLES = frozenset({"players", "games", "results"})


def require_league(path: Path, timeout: float = BUSY_SECONDS) -> None:
    """Raise :class:`LeagueError` (one line) unless ``path`` is tablekit's league, a new
    file (none, or empty) or an SQLite database with nothing in it yet: another program's
    database, or a file that is no database at all, is refused before anything is written
    to it (no switch to WAL mode, no table added). Read only, never through a FIFO. A
    ``--league`` naming a folder is refused before a game is played, whose games would go
    unrecorded:

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> require_league(folder / "league.sqlite")
    >>> try:
    ...     require_league(folder)
    ... except LeagueError as error:
    ...     print(str(error).replace(str(folder), "DIR"))
    DIR is a folder, not a league file: name a file, e.g. DIR/league.sqlite

    >>> path = Path(tempfile.mkdtemp()) / "notes.sqlite"
    >>> other = sqlite3.connect(path)
    >>> _ = other.execute("CREATE TABLE notes (text)")
    >>> other.close()
    >>> require_league(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tablekit.league.database.LeagueError: .../notes.sqlite is another program's SQLite \
database (tables: notes), not a league file: left it as it is
    """
    if Path(path).is_dir():
        raise LeagueError(f"{path} is a folder, not a league file: name a file, e.g. "
                          f"{Path(path) / 'league.sqlite'}")
    try:
        with open_regular(path) as file:
            head = file.read(len(SQLITE_MAGIC))
    except FileNotFoundError:
        return
    except Untrusted as error:
        raise LeagueError(f"{error}: not a league file") from None
    except OSError as error:
        raise LeagueError(f"cannot read the league file {one_line(error)}") from None
    if not head:
        return  # an empty file: made into a league
    if head != SQLITE_MAGIC:
        raise LeagueError(f"{path} is not a league file ({looks_like(head)}): left it as it is")
    db = read_only(path, timeout)
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = sorted(row[0] for row in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"))
    except sqlite3.DatabaseError as error:
        raise busy(path, error, timeout) or LeagueError(
            f"{path} is not a league file: {error}") from None
    finally:
        db.close()
    if not tables and not version:
        return  # an SQLite file with nothing in it: made into a league
    if version > len(MIGRATIONS):
        raise LeagueError(f"the league file is from a newer tablekit (schema {version})")
    if version < 1 or not set(tables) >= LEAGUE_TABLES:
        shown = ", ".join(tables[:5]) + (", ..." if len(tables) > 5 else "") or "none"
        raise LeagueError(f"{path} is another program's SQLite database (tables: {shown}), "
                          "not a league file: left it as it is")


def _open(path: Path, timeout: float) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, timeout=timeout)  # explicit BEGINs
    try:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA foreign_keys = ON")
        migrate(db)
    except BaseException:
        db.close()
        raise
    return db


def read_only(path: Path, timeout: float = BUSY_SECONDS) -> sqlite3.Connection:
    """Open the league file at ``path`` only to read it (for the web page): never created,
    migrated or locked for writing, and no file made beside it. A file whose write-ahead
    log is there (a program has it open, or left it) is read through the log, as any
    reader; one without it is read as it stands, taking no lock (a checkpoint that lands
    meanwhile changes the file's time, and a reader that looks again sees it). A file of
    another schema than this tablekit's is read as far as it can be: see :func:`behind`.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> connect(folder / "league.sqlite").close()
    >>> before = sorted(p.name for p in folder.iterdir())
    >>> read_only(folder / "league.sqlite").execute("SELECT COUNT(*) FROM games").fetchone()
    (0,)
    >>> sorted(p.name for p in folder.iterdir()) == before
    True
    """
    path = Path(path)
    if not path.is_file():
        raise NoLeague(f"no league file at {path} (recording a game with --league starts one)")
    logged = path.with_name(path.name + "-wal").exists()
    mode = "mode=ro" if logged else "mode=ro&immutable=1"
    try:
        return sqlite3.connect(f"{path.resolve().as_uri()}?{mode}", uri=True,
                               timeout=timeout, isolation_level=None)
    except sqlite3.DatabaseError as error:
        raise busy(path, error, timeout) or LeagueError(
            f"{path} is not a league file: {error}") from None



def games_recorded(path: Path) -> int:
    """How many games the league file at ``path`` holds, read as :func:`read_only` reads it
    (0 when it cannot be read yet: not made, or locked), for a watcher waiting on a board.

    >>> import tempfile
    >>> games_recorded(Path(tempfile.mkdtemp()) / "none.sqlite")
    0
    """
    try:
        db = read_only(path)
        try:
            return db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        finally:
            db.close()
    except (TablekitError, sqlite3.Error, OSError):
        return 0

def behind(db: sqlite3.Connection, path: Path | str) -> str | None:
    """Why a league file opened with :func:`read_only` is not of this tablekit's schema,
    in one line (None: it is).

    >>> db = sqlite3.connect(":memory:")
    >>> _ = db.execute("PRAGMA user_version = 1")
    >>> print(behind(db, "c.sqlite"))
    the league file c.sqlite is from an older tablekit: tablekit league --db c.sqlite updates it
    """
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if 0 < version < len(MIGRATIONS):
        return (f"the league file {path} is from an older tablekit: tablekit league --db "
                f"{path} updates it")
    if version > len(MIGRATIONS):
        return f"the league file {path} is from a newer tablekit (schema {version})"
    return None


def migrate(db: sqlite3.Connection) -> int:
    """Apply the migrations the file has not had; the schema version it ends at. Each one
    takes the write lock first and reads the version again under it, so two processes
    opening a new file at once do not both build it."""
    while (version := _version(db)) < len(MIGRATIONS):
        db.execute("BEGIN IMMEDIATE")
        try:
            version = _version(db)  # another process may have migrated it meanwhile
            if version < len(MIGRATIONS):
                for statement in _statements(MIGRATIONS[version]):
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {version + 1}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    return len(MIGRATIONS)


def _version(db: sqlite3.Connection) -> int:
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > len(MIGRATIONS):
        raise LeagueError(f"the league file is from a newer tablekit (schema {version})")
    return version


def _statements(script: str) -> list[str]:
    return [part.strip() for part in script.split(";") if part.strip()]


def damaged(db: sqlite3.Connection) -> str | None:
    """Why the league file open as ``db`` cannot be read back, in one line (None: it can).
    SQLite appends a game to a file whose older pages are damaged without a word, while
    reading the league (``tablekit league``) then stops at them ("database disk image is
    malformed"): its quick check reads every page.

    >>> import tempfile
    >>> print(damaged(connect(Path(tempfile.mkdtemp()) / "league.sqlite")))
    None
    """
    try:
        rows = db.execute("PRAGMA quick_check(1)").fetchall()
    except sqlite3.DatabaseError as error:
        return str(error)
    problem = rows[0][0] if rows else "no answer to its check"
    return None if problem == "ok" else str(problem).replace("\n", " ")[:200]


def readable(db: sqlite3.Connection, path: Path | str) -> sqlite3.Connection:
    """``db`` if the league file at ``path`` can be read back (:func:`damaged`); else it is
    closed and :class:`LeagueError` says why, in one line, before anything is written."""
    problem = damaged(db)
    if problem is None:
        return db
    db.close()
    raise LeagueError(f"the league file {path} cannot be read back ({problem}): restore it "
                      "from a copy, or start another with --db")
