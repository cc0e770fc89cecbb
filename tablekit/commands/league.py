"""``tablekit league``: the season table from the league file (text, JSON or CSV)."""

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
                    "rating per player.")
    parser.add_argument("--db", type=Path, default=None,
                        help=f"the league file (default: {default_league()})")
    parser.add_argument("--season", default=None, help="only this season")
    parser.add_argument("--json", action="store_true", help="a JSON list of players")
    parser.add_argument("--csv", type=Path, default=None, metavar="FILE",
                        help="also write the table as CSV to FILE")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    path = args.db or default_league()
    try:
        db = connect(path, create=False)  # only a command that records starts a league
        table = league_table(db, args.season)
        db.close()
        if args.csv:
            write_csv(table, args.csv)
    except (TablekitError, OSError, sqlite3.Error) as error:
        print(f"tablekit league: {one_line(error)}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([p.as_dict() for p in table], ensure_ascii=False))
    else:
        print(table_text(table, args.season))
    return 0


def table_text(table: list[PlayerStanding], season: str | None = None) -> str:
    """The table as people read it.

    >>> print(table_text([PlayerStanding("Aki", 2, 45.0, 22.5, (1, 1, 0, 0), 1.5, 0.25,
    ...                                   0.1, 0.3, 16, 3.1)]))
    League table
     #  player          games  points  1st 2nd 3rd 4th  place  win  deal-in  riichi  rating
     1  Aki                 2   +45.0    1   1   0   0   1.50  25%      10%     30%    3.10
    """
    title = f"League table, season {season}" if season else "League table"
    lines = [title, " #  player          games  points  1st 2nd 3rd 4th  place  win"
             "  deal-in  riichi  rating"]
    for rank, p in enumerate(table, start=1):
        places = " ".join(f"{n:3d}" for n in p.placements)
        lines.append(f"{rank:2d}  {p.name[:14]:<14} {p.games:6d} {p.points:+7.1f}  {places}"
                     f"  {p.average_placement:5.2f} {p.win_rate:4.0%} {p.deal_in_rate:8.0%}"
                     f" {p.riichi_rate:7.0%} {p.rating:7.2f}")
    if not table:
        lines.append("    (no finished games yet)")
    return "\n".join(lines)


def write_csv(table: list[PlayerStanding], path: Path) -> None:
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(CSV_COLUMNS)
        for p in table:
            writer.writerow([p.name, p.games, f"{p.points:.1f}", p.average_points,
                             *p.placements, p.average_placement, p.win_rate, p.deal_in_rate,
                             p.riichi_rate, p.rating])
