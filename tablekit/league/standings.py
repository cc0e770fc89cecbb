"""The season table: per player games, points with uma and oka, places, rates and a rating.

Three-player (sanma) games have standings of their own (``players=3``): their places,
points and ratings are never mixed with four-player ones. A game's players are its seats
in the league file, so files written before sanma read as they did.

The rating is OpenSkill's (the ``openskill`` package, Plackett-Luce model) over the games
in the order they were played; the table shows its ordinal (mu - 3 sigma), which starts
at 0 and grows as a player's results become both good and certain.

>>> import tempfile, pathlib
>>> from tablekit.formats.tenhou import import_file
>>> from tablekit.league.database import connect
>>> from tablekit.league.record import record_game
>>> db = connect(pathlib.Path(tempfile.mkdtemp()) / "league.sqlite")
>>> game = import_file(pathlib.Path("tablekit/data/tenhou-python-bot-28.xml"))
>>> _ = record_game(db, game.events)
>>> [(p.name, p.games, p.points, p.placements) for p in league_table(db)][:2]
[('Kaavi', 1, 48.0, (1, 0, 0, 0)), ('Ichihime', 1, 8.0, (0, 1, 0, 0))]
"""

from __future__ import annotations

import sqlite3
from dataclasses import asdict, dataclass
from typing import Any

from openskill.models import PlackettLuce


@dataclass(frozen=True)
class PlayerStanding:
    """One line of the table; ``points`` is the total game points (45.0 = +45,000)."""

    name: str
    games: int
    points: float
    average_points: float
    placements: tuple[int, ...]  # firsts, seconds, ...: one count per place
    average_placement: float
    win_rate: float
    deal_in_rate: float
    riichi_rate: float
    hands: int
    rating: float

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["placements"] = list(self.placements)
        return data


_GAMES = """
    WHERE (:season IS NULL OR g.season = :season)
      AND (SELECT COUNT(*) FROM results n WHERE n.game_id = g.id) = :players
"""
_TOTALS = """
    SELECT p.name, COUNT(*), SUM(r.score_tenths),
           SUM(r.place = 1), SUM(r.place = 2), SUM(r.place = 3), SUM(r.place = 4),
           SUM(r.place), SUM(g.hands), SUM(r.wins), SUM(r.deal_ins), SUM(r.riichi)
    FROM results r JOIN players p ON p.id = r.player_id JOIN games g ON g.id = r.game_id
""" + _GAMES + """
    GROUP BY p.id
"""
_PLACES = """
    SELECT r.game_id, p.name, r.place
    FROM results r JOIN players p ON p.id = r.player_id JOIN games g ON g.id = r.game_id
""" + _GAMES + """
    ORDER BY r.game_id, r.seat
"""


def league_table(db: sqlite3.Connection, season: str | None = None, players: int = 4
                 ) -> list[PlayerStanding]:
    """Every player of the season (all seasons when None) in games of ``players`` (four,
    or three: sanma), best total first."""
    where = {"season": season, "players": players}
    ratings = _ratings(db, where)
    rows = [_standing(row, ratings[row[0]], players) for row in db.execute(_TOTALS, where)]
    return sorted(rows, key=lambda p: (-p.points, p.average_placement, p.name))


def seasons(db: sqlite3.Connection) -> list[str]:
    return [row[0] for row in db.execute("SELECT DISTINCT season FROM games ORDER BY season")]


def _standing(row: tuple, rating: float, players: int) -> PlayerStanding:
    name, games, tenths, first, second, third, fourth, places, hands, wins, deal_ins, \
        riichi = row
    hands = max(hands, 1)
    return PlayerStanding(
        name=name, games=games, points=tenths / 10, average_points=round(tenths / 10 / games, 1),
        placements=(first, second, third, fourth)[:players],
        average_placement=round(places / games, 2), win_rate=round(wins / hands, 3),
        deal_in_rate=round(deal_ins / hands, 3), riichi_rate=round(riichi / hands, 3),
        hands=hands, rating=round(rating, 2))


def _ratings(db: sqlite3.Connection, where: dict[str, Any]) -> dict[str, float]:
    """Each player's OpenSkill ordinal after the season's games (of so many players), in
    the order played."""
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    games: dict[int, list[tuple[str, int]]] = {}
    for game_id, name, place in db.execute(_PLACES, where):
        games.setdefault(game_id, []).append((name, place))
    for table in games.values():
        teams = [[ratings.get(name) or model.rating(name=name)] for name, _ in table]
        rated = model.rate(teams, ranks=[place for _, place in table])
        for (name, _), (after,) in zip(table, rated, strict=True):
            ratings[name] = after
    return {name: rating.ordinal() for name, rating in ratings.items()}
