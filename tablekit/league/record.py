"""Put a finished game into the league: one transaction, all of it or nothing.

A game that did not finish (or was cancelled) writes nothing. A game recorded twice under
the same ``key`` (the evening resumed after a power cut) is kept once.

>>> import tempfile, pathlib
>>> from tablekit.formats.tenhou import import_file
>>> from tablekit.league.database import connect
>>> db = connect(pathlib.Path(tempfile.mkdtemp()) / "league.sqlite")
>>> events = import_file(pathlib.Path("tablekit/data/tenhou-python-bot-28.xml")).events
>>> record_game(db, events, season="2026", key="fixture-28")
1
>>> record_game(db, events, season="2026", key="fixture-28") is None
True
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tablekit.errors import one_line
from tablekit.game.events import Event, GameStarted
from tablekit.game.journal import salvage_tail
from tablekit.game.session import in_force
from tablekit.game.state import Phase
from tablekit.game.summary import GameSummary, summarise
from tablekit.league.database import BUSY_SECONDS, LeagueError, busy


def record_game(db: sqlite3.Connection, game: GameSummary | Iterable[Event],
                names: Sequence[str] | None = None, season: str = "",
                played_at: str | None = None, key: str | None = None) -> int | None:
    """Record ``game`` (a summary or its events) under ``names`` (seat order, else the
    game's own); the new game's id, or None when nothing was written."""
    summary = game if isinstance(game, GameSummary) else summarise(game)
    if names is not None:
        summary = summary.with_names(names)
    if not summary.finished:
        return None
    _check_names(summary)
    when = played_at or datetime.now(UTC).isoformat(timespec="seconds")
    db.execute("BEGIN IMMEDIATE")
    try:
        game_id = _insert(db, summary, season, when, key)
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return game_id


def _check_names(summary: GameSummary) -> None:
    names = [p.name.strip() for p in summary.players]
    if any(not n for n in names) or len(set(names)) != len(names):
        count = {3: "three", 4: "four"}.get(len(names), str(len(names)))
        raise LeagueError(f"a league game needs {count} different names, not {names}")


def _insert(db: sqlite3.Connection, summary: GameSummary, season: str, when: str,
            key: str | None) -> int | None:
    if key is not None and db.execute("SELECT 1 FROM games WHERE game_key = ?",
                                      (key,)).fetchone():
        return None
    cursor = db.execute(
        "INSERT INTO games (season, played_at, rules, hands, end_reason, leftover_sticks,"
        " game_key) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (season, when, summary.rules, summary.hands, summary.end_reason,
         summary.leftover_sticks, key))
    game_id = cursor.lastrowid
    for player in summary.players:
        db.execute(
            "INSERT INTO results (game_id, seat, player_id, place, points, score_tenths, wins,"
            " deal_ins, riichi, chombo) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, player.seat, _player_id(db, player.name.strip()), player.rank,
             player.points, round(player.score * 10), player.wins, player.deal_ins,
             player.riichi, player.chombo))
    for entry in summary.ledger:
        db.execute("INSERT INTO penalties (game_id, seat, amount, reason) VALUES (?, ?, ?, ?)",
                   (game_id, entry.seat, entry.points, entry.reason))
    return game_id


def _player_id(db: sqlite3.Connection, name: str) -> int:
    db.execute("INSERT OR IGNORE INTO players (name) VALUES (?)", (name,))
    return db.execute("SELECT id FROM players WHERE name = ?", (name,)).fetchone()[0]


def recorder(db: sqlite3.Connection, names: Sequence[str] | None = None, season: str = "",
             key: str | None = None, warn: Callable[[str], None] | None = None
             ) -> Callable[[Any, Any], None]:
    """An ``on_hand(flow, report)`` hook for a game loop: once the game is over, it is
    recorded (once: a later call finds it under ``key``). A game the league cannot take
    is passed to ``warn`` (raised when None), and the loop goes on."""
    def on_hand(flow: Any, *_: Any) -> None:  # (flow, report, screen) from the sim loop
        session = flow.session
        if session.state.phase is not Phase.GAME_OVER:
            return
        try:
            record_game(db, session.game_events(), names, season, key=key)
        except LeagueError as error:
            if warn is None:
                raise
            warn(f"not recorded in the league: {error}")
    return on_hand


def forget_game(db: sqlite3.Connection, key: str) -> bool:
    """Take the game recorded under ``key`` out of the league (its last hand was taken back
    at the table), in one transaction; whether there was one."""
    db.execute("BEGIN IMMEDIATE")
    try:
        gone = db.execute("DELETE FROM games WHERE game_key = ?", (key,)).rowcount
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return bool(gone)


def sync_journal(db: sqlite3.Connection, active: Sequence[Event], journal: Path,
                 season: str = "", first: int = 0) -> list[str]:
    """Make the league hold exactly the finished games of a journal's events in force
    (``active``, the in-force events from the ``first`` on; the games before it are left
    as they are): each finished game is recorded (once, under a key naming the journal
    and where the game starts among the events in force), a game recorded before but no
    longer finished (taken back) is taken out. The keys written or removed."""
    prefix = f"run:{Path(journal).resolve()}:"
    starts = [i for i, event in enumerate(active) if isinstance(event, GameStarted)]
    finished = {}
    for start, end in zip(starts, [*starts[1:], len(active)], strict=True):
        summary = summarise(active[start:end])
        if summary.finished:
            finished[f"{prefix}{first + start}"] = summary
    changed = [key for key in _keys(db, prefix) if key not in finished
               and int(key[len(prefix):]) >= first and forget_game(db, key)]
    for key, summary in finished.items():
        if record_game(db, summary, season=season, key=key) is not None:
            changed.append(key)
    return changed


def _keys(db: sqlite3.Connection, prefix: str) -> list[str]:
    rows = db.execute("SELECT game_key FROM games WHERE substr(game_key, 1, ?) = ?",
                      (len(prefix), prefix))
    return [key for (key,) in rows]


def _last_games(journal: Path) -> tuple[int, list[Event]]:
    """The events in force of a journal's last two games, and where they start among all
    the events in force."""
    contents = salvage_tail(journal, games=2)
    return contents.before, in_force(contents.events)[0]


RETRY_SECONDS = 10.0  # a league that was locked (or full) is tried again this often
RETRY_WAIT_MS = 200   # and waited for this long then (the loop must not stall)


def game_recorder(db: sqlite3.Connection, journal: Path, season: str = "",
                  warn: Callable[[str], None] | None = None) -> Callable[[Any], None]:
    """A hook for the app's loop (``App.hooks``): the league follows the journal's finished
    games (:func:`sync_journal`): once when the loop starts (a game that ended just before
    a power cut is recorded then), and whenever a game ends or its end is taken back. A
    league locked by another program (or a full card) is said once and tried again every
    ``RETRY_SECONDS``, so the game is recorded when the lock goes."""
    seen: list[tuple[Phase, int] | None] = [None]  # the phase and journal length synced at
    retry: list[float | None] = [None]             # when a failed sync is tried again

    def hook(app: Any) -> None:
        session = app.flow.session
        now, was = (session.state.phase, session.length), seen[0]
        over = Phase.GAME_OVER in (now[0], was[0] if was else Phase.GAME_OVER)
        if now == was or not over or (retry[0] is not None and app.clock() < retry[0]):
            return
        first, active = session.in_force_read()
        if was is None and first:  # the game before may have ended just before a power cut
            first, active = _last_games(journal)
        try:
            sync_journal(db, active, journal, season, first)
        except (sqlite3.OperationalError, OSError) as error:  # locked, or no room: later
            if warn is None:
                raise
            if retry[0] is None:
                warn(f"not recorded in the league yet: {_said(error)}; tried again "
                     f"every {RETRY_SECONDS:g} s")
                db.execute(f"PRAGMA busy_timeout = {RETRY_WAIT_MS}")
            retry[0] = app.clock() + RETRY_SECONDS
            return
        except LeagueError as error:
            if warn is None:
                raise
            warn(f"not recorded in the league: {error}")
        if retry[0] is not None:
            db.execute(f"PRAGMA busy_timeout = {round(BUSY_SECONDS * 1000)}")
            retry[0] = None
            if warn is not None:
                warn("recorded in the league now")
        seen[0] = now
    return hook


def _said(error: BaseException) -> str:
    """The one line for a league write that failed for a while (locked, full)."""
    return "the league file is locked by another program" if busy("", error) else (
        one_line(error))
