"""``tablekit export``: a journal or a Tenhou log as mjai JSON lines, tenhou.net/6 JSON or a
CSV row."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from tablekit.commands.inputs import require_files
from tablekit.errors import TablekitError
from tablekit.formats.game_csv import csv_text, game_row
from tablekit.formats.mjai import write_mjai
from tablekit.formats.tenhou6_write import to_tenhou6
from tablekit.game.events import Event
from tablekit.game.journal import read_journal
from tablekit.game.session import in_force
from tablekit.game.summary import summarise

FORMATS = ("mjai", "tenhou6", "csv")


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "export", help="write a game as mjai, tenhou.net/6 JSON or a CSV row",
        description="Write a tablekit journal (.jsonl) or a Tenhou mjlog as mjai JSON lines, "
                    "tenhou.net/6 JSON (needs the starting hands: Tenhou logs) or one CSV "
                    "row (appended to --out when it exists).")
    parser.add_argument("game", type=Path, metavar="JOURNAL_OR_LOG")
    parser.add_argument("--format", choices=FORMATS, default="mjai")
    parser.add_argument("--out", type=Path, help="output file (default: standard output)")
    parser.set_defaults(run=run)


def load_game(path: Path) -> tuple[list[Event], list[Any]]:
    """The events in force, and the starting hands when the record has them."""
    if path.suffix == ".jsonl":
        return in_force(read_journal(path).events)[0], []
    from tablekit.formats.tenhou import import_file
    game = import_file(path)
    return game.events, [hand.init.hands for hand in game.hands]


def load_events(path: Path) -> list[Event]:
    """The events in force in a journal, or a Tenhou log's events."""
    return load_game(path)[0]


def render(path: Path, kind: str, header: bool = True) -> str:
    events, hands = load_game(path)
    if kind == "tenhou6":
        return json.dumps(to_tenhou6(events, hands), ensure_ascii=False,
                          separators=(",", ":")) + "\n"
    if kind == "csv":
        return csv_text([game_row(summarise(events))], header=header)
    return "\n".join(write_mjai(events)) + "\n"


def run(args: argparse.Namespace) -> int:
    append = args.format == "csv" and args.out is not None and args.out.exists()
    try:
        require_files([args.game])
        text = render(args.game, args.format, header=not append)
        if args.out:
            with args.out.open("a" if append else "w", encoding="utf-8") as out:
                out.write(text)
        else:
            sys.stdout.write(text)
    except (TablekitError, OSError) as error:
        print(f"tablekit export: {error}", file=sys.stderr)
        return 2
    return 0
