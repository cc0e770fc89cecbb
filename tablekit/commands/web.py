"""``tablekit web``: the read-only page for a game journal and a league, on its own."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "web", help="serve the read-only scoreboard page for a journal and a league",
        description="Serve the live scoreboard, the evening and the league as a read-only "
                    "web page (server-sent events; it updates within a second of a change).")
    parser.add_argument("--journal", type=Path, default=None,
                        help="game journal (default: the one tablekit run keeps)")
    parser.add_argument("--league", type=Path, default=None, metavar="DB")
    parser.add_argument("--bind", default="127.0.0.1:8080", metavar="[HOST]:PORT",
                        help="where to listen (':8080' is every interface)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tablekit.app.loop import default_journal
    from tablekit.errors import TablekitError
    from tablekit.web.server import serve_here

    def report(line: str) -> None:
        print(f"tablekit: {line}", file=sys.stderr, flush=True)

    if args.league is not None and not args.league.is_file():
        report(f"web: no league file at {args.league} (recording a game with --league "
               "starts one)")
        return 2
    try:
        server = serve_here(args.bind, args.journal or default_journal(), args.league, report)
    except TablekitError as error:
        report(f"web: {error}")
        return 2
    try:
        while True:
            time.sleep(1)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0
