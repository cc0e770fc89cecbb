"""``tablekit export``: a journal or a Tenhou log as mjai JSON lines, tenhou.net/6 JSON or a
CSV row."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tablekit.commands.inputs import require_files
from tablekit.errors import TablekitError
from tablekit.formats.game_csv import csv_text, game_row
from tablekit.formats.mjai import write_mjai
from tablekit.formats.replay_check import read_game
from tablekit.formats.sniff import EMPTY, JOURNAL, UNKNOWN, record_format
from tablekit.formats.tenhou6_write import to_tenhou6
from tablekit.game.evening import split_games
from tablekit.game.events import Event
from tablekit.game.journal import read_journal
from tablekit.game.session import in_force
from tablekit.game.summary import GameSummary, summarise

FORMATS = ("mjai", "tenhou6", "csv")


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "export", help="write a game as mjai, tenhou.net/6 JSON or a CSV row",
        description="Write a tablekit journal or a Tenhou log (mjlog or tenhou.net/6) as "
                    "mjai JSON lines, tenhou.net/6 JSON (needs the starting hands: Tenhou "
                    "logs) or CSV, a row for each game (appended to --out when it exists).")
    parser.add_argument("game", type=Path, metavar="JOURNAL_OR_LOG")
    parser.add_argument("--format", choices=FORMATS, default="mjai")
    parser.add_argument("--out", type=Path, help="output file (default: standard output)")
    parser.set_defaults(run=run)


NAMES = {"mjai": "mjai JSON lines", "tenhou6": "tenhou.net/6 JSON", "csv": "CSV"}


def load_game(path: Path) -> tuple[list[Event], list[Any]]:
    """The events in force, and the starting hands when the record has them; a journal and
    a Tenhou log (mjlog or tenhou.net/6) are told apart by their content."""
    kind = record_format(path)
    if kind == JOURNAL or (kind in (EMPTY, UNKNOWN) and path.suffix == ".jsonl"):
        return in_force(read_journal(path).events)[0], []
    game = read_game(path, three_players=True)
    return game.events, [hand.init.hands for hand in game.hands]


def load_events(path: Path) -> list[Event]:
    """The events in force in a journal, or a Tenhou log's events."""
    return load_game(path)[0]


@dataclass
class Written:
    """What an export wrote: the text, and each game's summary (the notes say what a
    reader of the file should know, one line each)."""

    text: str
    games: list[GameSummary]
    notes: list[str] = field(default_factory=list)

    def said(self, where: Path, kind: str, verb: str = "wrote") -> str:
        """The line that says what was written.

        >>> Written("", [GameSummary("tenhou", True, 6, "")]).said(Path("g.json"), "tenhou6")
        'wrote g.json (tenhou.net/6 JSON): 1 game, 6 hands'
        """
        games, hands = len(self.games), sum(game.hands for game in self.games)
        return (f"{verb} {where} ({NAMES[kind]}): {games} game{'s' * (games != 1)}, "
                f"{hands} hand{'s' * (hands != 1)}")


def export(path: Path, kind: str, header: bool = True) -> Written:
    """The record in ``path`` written as ``kind``; a CSV has a row for each game, and a
    note for each game that has not ended (its row has the points so far)."""
    events, hands = load_game(path)
    games = [summarise(game) for game in split_games(events)]
    if kind == "tenhou6":
        return Written(json.dumps(to_tenhou6(events, hands), ensure_ascii=False,
                                  separators=(",", ":")) + "\n", games)
    if kind == "csv":
        notes = [f"game {number} of {len(games)} has not ended ({game.hands} "
                 f"hand{'' if game.hands == 1 else 's'} played): "
                 f"its row has the points so far, no places or game points"
                 for number, game in enumerate(games, start=1) if not game.finished
                 and not game.cancelled]
        return Written(csv_text(map(game_row, games), header=header), games, notes)
    return Written("\n".join(write_mjai(events)) + "\n", games)


def run(args: argparse.Namespace) -> int:
    append = args.format == "csv" and args.out is not None and args.out.exists()
    try:
        require_files([args.game])
        written = export(args.game, args.format, header=not append)
        if args.out:
            with args.out.open("a" if append else "w", encoding="utf-8") as out:
                out.write(written.text)
        else:
            sys.stdout.write(written.text)
    except (TablekitError, OSError) as error:
        print(f"tablekit export: {error}", file=sys.stderr)
        return 2
    for note in written.notes:
        print(f"tablekit export: {note}", file=sys.stderr)
    if args.out:
        verb = "appended to" if append else "wrote"
        print(f"tablekit export: {written.said(args.out, args.format, verb)}")
    return 0
