"""The tournament in the club's league file: its games, a game's record fixed after a
mistake (two players' seats swapped, a substitute's name), the standings without the games
held back, and the organiser's state kept beside the league (``club.tournament.json``).

>>> import tempfile, pathlib
>>> from tablekit.formats.tenhou import import_file
>>> from tablekit.league.database import connect
>>> from tablekit.league.record import record_game
>>> db = connect(pathlib.Path(tempfile.mkdtemp()) / "club.sqlite")
>>> game = import_file(pathlib.Path("tablekit/data/tenhou-python-bot-28.xml"))
>>> _ = record_game(db, game.events, key="club:T-1")
>>> played = games(db)
>>> played[0].names[:2]
('Wanjirou', 'Kaavi')
>>> fix_record(db, "club:T-1", {"Kaavi": "Wanjirou", "Wanjirou": "Kaavi"})
True
>>> games(db)[0].names[:2]
('Kaavi', 'Wanjirou')
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection
from pathlib import Path

from tablekit.league.standings import PlayerStanding, league_table
from tablekit.league.tournament import Played, Tournament, TournamentError, held_back
from tablekit.untrusted import Untrusted
from tablekit.untrusted.files import read_bytes
from tablekit.untrusted.json_text import parse_json

STATE_BYTES = 16 << 20  # a tournament's state: its plan and the rounds' results


def state_path(db: Path) -> Path:
    """Where the tournament's state lives: beside the league (``club.tournament.json``)."""
    return db.with_name(db.stem + ".tournament.json")


def load(db: Path) -> Tournament:
    path = state_path(db)
    try:
        data = parse_json(read_bytes(path, limit=STATE_BYTES), max_bytes=STATE_BYTES)
    except FileNotFoundError:
        raise TournamentError(f"no tournament started with --db {db} "
                              "(tablekit tournament start --plan PLAN --db ...)") from None
    except (OSError, Untrusted) as error:
        raise TournamentError(f"cannot read {path}: {error}") from None
    if not isinstance(data, dict):
        raise TournamentError(f"cannot read {path}: not a tournament's state")
    return Tournament.from_dict(data)


def state_text(tournament: Tournament) -> str:
    """The state as :func:`load` reads it (written whole by the command)."""
    return json.dumps(tournament.as_dict(), ensure_ascii=False, indent=1) + "\n"


def games(db: sqlite3.Connection) -> list[Played]:
    """The club's recorded games in the order played, each with its players by seat."""
    rows = db.execute("SELECT g.game_key, g.id, p.name FROM games g JOIN results r ON "
                      "r.game_id = g.id JOIN players p ON p.id = r.player_id "
                      "WHERE g.game_key IS NOT NULL ORDER BY g.id, r.seat")
    names: dict[str, list[str]] = {}
    for key, _id, name in rows:
        names.setdefault(key, []).append(name)
    return [Played(key, tuple(seated)) for key, seated in names.items()]


def fix_record(db: sqlite3.Connection, key: str, renamed: dict[str, str]) -> bool:
    """Rewrite the recorded game ``key``'s players: each name in ``renamed`` becomes its
    value (a swap names both); False when the game has none of them."""
    rows = db.execute("SELECT r.seat, p.name FROM results r JOIN players p ON "
                      "p.id = r.player_id JOIN games g ON g.id = r.game_id "
                      "WHERE g.game_key = ?", (key,)).fetchall()
    if not any(name in renamed for _, name in rows):
        return False
    game_id = db.execute("SELECT id FROM games WHERE game_key = ?", (key,)).fetchone()[0]
    db.execute("BEGIN IMMEDIATE")
    try:
        ids = {}
        for seat, name in rows:
            new = renamed.get(name, name)
            db.execute("INSERT OR IGNORE INTO players (name) VALUES (?)", (new,))
            ids[seat] = db.execute("SELECT id FROM players WHERE name = ?", (new,)).fetchone()[0]
        kept = db.execute("SELECT * FROM results WHERE game_id = ?", (game_id,)).fetchall()
        columns = [c[1] for c in db.execute("PRAGMA table_info(results)")]
        db.execute("DELETE FROM results WHERE game_id = ?", (game_id,))
        for row in kept:
            values = dict(zip(columns, row, strict=True))
            values["player_id"] = ids[values["seat"]]
            db.execute(f"INSERT INTO results ({', '.join(values)}) VALUES "
                       f"({', '.join('?' * len(values))})", tuple(values.values()))
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return True


def standings_without(db: sqlite3.Connection, hidden: Collection[str],
                      season: str | None = None) -> list[PlayerStanding]:
    """The league table as if the games ``hidden`` (their keys) were not recorded yet: read
    from a copy in memory, the league file left as it is."""
    if not hidden:
        return league_table(db, season)
    copy = sqlite3.connect(":memory:")
    try:
        db.backup(copy)
        copy.execute("PRAGMA foreign_keys = ON")
        copy.executemany("DELETE FROM games WHERE game_key = ?", [(key,) for key in hidden])
        return league_table(copy, season)
    finally:
        copy.close()


def shown_standings(path: Path, db: sqlite3.Connection, season: str | None = None
                    ) -> tuple[list[PlayerStanding], int]:
    """What a board shows of the league at ``path``: the standings without the games the
    tournament kept beside it holds back (none without a tournament), and how many those
    are."""
    try:
        tournament = load(path)
    except TournamentError:
        return league_table(db, season), 0
    hidden = held_back(tournament, games(db))
    return standings_without(db, hidden, season), len(hidden)
