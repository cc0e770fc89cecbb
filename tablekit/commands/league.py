"""``tablekit league``: the season table from the league file (text, JSON or CSV); four-player
games by default, three-player (sanma) ones with ``--players 3``, never mixed."""

from __future__ import annotations

import argparse
import csv
import json
import sqlite3
import sys
from pathlib import Path
from typing import Any

from tablekit.errors import TablekitError, one_line
from tablekit.league.database import connect, default_league
from tablekit.league.standings import PlayerStanding, league_table

CSV_COLUMNS = ("name", "games", "points", "average_points", "first", "second", "third",
               "fourth", "average_placement", "win_rate", "deal_in_rate", "riichi_rate",
               "rating")


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "league", help="print the league table (every finished game recorded)",
        description="Print the league table: games, points with uma and oka (in thousands), "
                    "places, average place, win, deal-in and riichi rates and an OpenSkill "
                    "rating per player. Four-player and three-player (sanma) games have "
                    "standings of their own: --players 3 shows the sanma table.")
    parser.add_argument("--db", type=Path, default=None,
                        help=f"the league file (default: {default_league()})")
    parser.add_argument("--season", default=None, help="only this season")
    parser.add_argument("--players", type=int, choices=(3, 4), default=4,
                        help="the table of four-player games (default) or three-player ones")
    parser.add_argument("--json", action="store_true", help="a JSON list of players")
    parser.add_argument("--csv", type=Path, default=None, metavar="FILE",
                        help="also write the table as CSV to FILE")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    path = args.db or default_league()
    try:
        db = connect(path, create=False)  # only a command that records starts a league
        table = league_table(db, args.season, args.players)
        db.close()
        if args.csv:
            write_csv(table, args.csv, args.players)
    except (TablekitError, OSError, sqlite3.Error) as error:
        print(f"tablekit league: {one_line(error)}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([p.as_dict() for p in table], ensure_ascii=False))
    else:
        print(table_text(table, args.season, args.players))
    return 0


def table_text(table: list[PlayerStanding], season: str | None = None, players: int = 4
               ) -> str:
    """The table as people read it (a column for each place: three for sanma).

    >>> print(table_text([PlayerStanding("Aki", 2, 45.0, 22.5, (1, 1, 0, 0), 1.5, 0.25,
    ...                                   0.1, 0.3, 16, 3.1)]))
    League table
     #  player          games  points  1st 2nd 3rd 4th  place  win  deal-in  riichi  rating
     1  Aki                 2   +45.0    1   1   0   0   1.50  25%      10%     30%    3.10
    >>> print(table_text([], players=3))
    League table, three players
     #  player          games  points  1st 2nd 3rd  place  win  deal-in  riichi  rating
        (no finished three-player games yet)
    """
    title = "League table" + (", three players" if players == 3 else "") + (
        f", season {season}" if season else "")
    heads = " ".join(("1st", "2nd", "3rd", "4th")[:players])
    lines = [title, f" #  player          games  points  {heads}  place  win"
             "  deal-in  riichi  rating"]
    for rank, p in enumerate(table, start=1):
        places = " ".join(f"{n:3d}" for n in p.placements)
        lines.append(f"{rank:2d}  {p.name[:14]:<14} {p.games:6d} {p.points:+7.1f}  {places}"
                     f"  {p.average_placement:5.2f} {p.win_rate:4.0%} {p.deal_in_rate:8.0%}"
                     f" {p.riichi_rate:7.0%} {p.rating:7.2f}")
    if not table:
        lines.append("    (no finished three-player games yet)" if players == 3 else
                     "    (no finished games yet)")
    return "\n".join(lines)


def write_csv(table: list[PlayerStanding], path: Path, players: int = 4) -> None:
    """The table as CSV (no ``fourth`` column for three players)."""
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(c for c in CSV_COLUMNS if players == 4 or c != "fourth")
        for p in table:
            writer.writerow([p.name, p.games, f"{p.points:.1f}", p.average_points,
                             *p.placements, p.average_placement, p.win_rate, p.deal_in_rate,
                             p.riichi_rate, p.rating])
