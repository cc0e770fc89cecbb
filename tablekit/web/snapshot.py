"""What the web page shows, as plain JSON: the table now, the evening and the league.

>>> from tablekit.game.state import TableState
>>> snap = table_snapshot(TableState.new(names=("Aki", "Ben", "Cho", "Dai")))
>>> snap["round"], [p["points"] for p in snap["players"]], snap["players"][0]["name"]
('East 1', [25000, 25000, 25000, 25000], 'Aki')
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

from tablekit.game.state import TableState
from tablekit.game.summary import default_name
from tablekit.league.standings import league_table
from tablekit.tiles import WIND_NAMES


def table_snapshot(state: TableState) -> dict[str, Any]:
    """Scores, winds, counters and, once the game is over, the final standings."""
    seats = range(state.players)  # three for sanma
    names = state.names or tuple(default_name(s) for s in seats)
    players = [{"seat": s, "name": names[s], "points": state.scores[s],
                "wind": WIND_NAMES[state.seat_wind(s)], "dealer": s == state.dealer}
               for s in seats]
    standings = [{"rank": s.rank, "name": names[s.seat], "points": s.points,
                  "score": s.score} for s in state.standings]
    result = state.result
    return {"round": state.round_label, "honba": state.honba, "sticks": state.sticks,
            "phase": state.phase.value, "players": players, "standings": standings,
            "end_reason": state.end_reason,
            "last_result": result.kind.replace("_", " ") if result else "",
            "last_deltas": list(result.deltas) if result else []}


EVENING_HOURS = 12
"""The evening: the games finished within this many hours before the latest one."""

_EVENING = """
    SELECT g.id, g.played_at, p.name, r.place, r.score_tenths
    FROM games g JOIN results r ON r.game_id = g.id JOIN players p ON p.id = r.player_id
    WHERE julianday(g.played_at) >= (SELECT MAX(julianday(played_at)) FROM games) - ? / 24.0
    ORDER BY g.id, r.place
"""


def evening_snapshot(db: sqlite3.Connection) -> list[dict[str, Any]]:
    """The games of the latest evening in the league (those finished within
    :data:`EVENING_HOURS` before the latest one, whatever the date in UTC, which an evening in
    the Americas crosses), each with its places and game points (``players``: 3 for a sanma
    game); ``played_at`` as recorded (UTC, with its offset: the page shows it in the
    browser's own time)."""
    games: dict[int, dict[str, Any]] = {}
    for game_id, played_at, name, place, tenths in db.execute(_EVENING, (EVENING_HOURS,)):
        game = games.setdefault(game_id, {"played_at": played_at, "results": []})
        game["results"].append({"name": name, "place": place, "score": tenths / 10})
    for game in games.values():
        game["players"] = len(game["results"])
    return list(games.values())


def league_snapshot(db: sqlite3.Connection, season: str | None = None, players: int = 4
                    ) -> list[dict[str, Any]]:
    """The league table of four-player games, or of three-player ones (``players=3``)."""
    return standing_rows(league_table(db, season, players))


def standing_rows(standings: Iterable[Any]) -> list[dict[str, Any]]:
    """The page's rows of a league table (:class:`~tablekit.league.standings.PlayerStanding`)."""
    return [{"name": p.name, "games": p.games, "points": p.points,
             "average_placement": p.average_placement} for p in standings]
