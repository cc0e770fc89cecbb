"""``tablekit export``: a journal or a Tenhou log as mjai JSON lines."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tablekit.commands.inputs import require_files
from tablekit.errors import TablekitError
from tablekit.formats.mjai import write_mjai
from tablekit.game.events import Event
from tablekit.game.journal import read_journal
from tablekit.game.session import in_force


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "export", help="write a game as mjai JSON lines",
        description="Write a tablekit journal (.jsonl) or a Tenhou mjlog as mjai JSON lines.")
    parser.add_argument("game", type=Path, metavar="JOURNAL_OR_LOG")
    parser.add_argument("--out", type=Path, help="output file (default: standard output)")
    parser.set_defaults(run=run)


def load_events(path: Path) -> list[Event]:
    """The events in force in a journal, or a Tenhou log's events."""
    if path.suffix == ".jsonl":
        return in_force(read_journal(path).events)[0]
    from tablekit.formats.tenhou import import_file
    return import_file(path).events


def run(args: argparse.Namespace) -> int:
    try:
        require_files([args.game])
        lines = list(write_mjai(load_events(args.game)))
    except (TablekitError, OSError) as error:
        print(f"tablekit export: {error}", file=sys.stderr)
        return 2
    text = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0
