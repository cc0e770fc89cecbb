"""``tablekit replay``: play recorded Tenhou games back, or check them against the record."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from tablekit.commands.inputs import require_paths
from tablekit.formats.replay_check import GameReport, check_game, log_files, play_journal
from tablekit.formats.sniff import JOURNAL, record_format


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay", help="replay Tenhou games or tablekit journals (files or folders)",
        description="Replay Tenhou games (mjlog XML or tenhou.net/6 JSON) through the "
                    "importer, engine and scorer, or a tablekit journal hand by hand as the "
                    "app would; --check compares each Tenhou game with its record.")
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    parser.add_argument("--check", action="store_true",
                        help="compare every hand and win with the record; JSON summary last")
    parser.add_argument("--show", type=int, default=10, help="mismatches to print")
    parser.add_argument("--league", type=Path, default=None, metavar="DB",
                        help="record each game that replays to its end in this league file, "
                             "under the log's player names")
    parser.add_argument("--season", default="", help="the season to record games in")
    parser.add_argument("--jobs", type=int, default=None, metavar="N",
                        help="with --check, games checked in N processes at once (default: "
                             "one a core)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    require_paths(args.paths)
    files = list(log_files(args.paths))
    if not files:
        print("tablekit replay: no log files found", file=sys.stderr)
        return 2
    if args.league is not None and not _record(files, args.league, args.season):
        return 2
    if not args.check:
        return _print_tables(files)
    return _check(files, args.show, args.jobs or cores())


def _record(files: list[Path], league: Path, season: str) -> bool:
    """Each game into the league (once: a log recorded again is found by its path); False
    (said in one line) when the league cannot be written at all (locked, full, damaged)."""
    import sqlite3

    from tablekit.errors import TablekitError, one_line
    from tablekit.formats.replay_check import read_game
    from tablekit.league.database import busy, connect
    from tablekit.league.record import record_game

    try:
        db = connect(league)
    except (TablekitError, OSError) as error:
        print(f"tablekit replay: {one_line(error)}", file=sys.stderr)
        return False
    try:
        for path in files:
            try:
                game = read_game(path, three_players=True)
                game_id = record_game(db, game.events, season=season,
                                      key=f"replay:{path.resolve()}")
            except TablekitError as error:
                print(f"{path}: not recorded in the league: {error}", file=sys.stderr)
                continue
            if game_id is None:
                print(f"{path}: not recorded (unfinished, or already in the league)",
                      file=sys.stderr)
    except (sqlite3.Error, OSError) as error:
        print(f"tablekit replay: {busy(league, error) or one_line(error)}; "
              f"{path} and the logs after it are not recorded", file=sys.stderr)
        return False
    finally:
        db.close()
    return True


def _print_tables(files: list[Path]) -> int:
    """Each game's table; a file that is no game it can play is one line and exit 2."""
    status = 0
    for path in files:
        journal = record_format(path) == JOURNAL
        report = play_journal(path) if journal else check_game(path)
        if report.skipped:
            print(f"tablekit replay: {report.refusal or path}", file=sys.stderr)
            status = 2
            continue
        print(f"== {path}" + (f" ({JOURNAL})" if journal else ""))
        print("\n".join(report.table))
        if journal:
            for problem in report.mismatches:  # where a damaged journal stops
                print(f"tablekit replay: {path}: {problem}", file=sys.stderr)
            status = 1 if report.mismatches else status
    return status


def cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)


def _check(files: list[Path], show: int, jobs: int = 1) -> int:
    start = time.perf_counter()
    if jobs > 1 and len(files) > 1:
        with ProcessPoolExecutor(min(jobs, len(files))) as pool:
            reports = list(pool.map(check_game, files, chunksize=4))
    else:
        reports = [check_game(path) for path in files]
    shown = 0
    for report in reports:
        for mismatch in report.mismatches:
            if shown < show:
                print(f"{report.path}: {mismatch}")
                shown += 1
    summary = summarise(reports)
    summary["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(summary))
    played = [r for r in reports if not r.skipped]
    if not played:  # nothing was checked: that is no pass
        print(f"tablekit replay: {no_game(reports)}", file=sys.stderr)
        return 2
    return 0 if all(r.ok for r in played) else 1


def no_game(reports: list[GameReport]) -> str:
    """The line for a check that found no game in its files.

    >>> no_game([GameReport(Path("g.jsonl"), "mjai JSON lines",
    ...                     "g.jsonl: it is mjai JSON lines, not a Tenhou log")])
    'no game found in g.jsonl: it is mjai JSON lines, not a Tenhou log'
    >>> no_game([GameReport(Path("a"), "not XML"), GameReport(Path("b"), "not XML")])
    'no game found in 2 files: not XML (2)'
    """
    if len(reports) == 1:
        path, text = str(reports[0].path), reports[0].refusal
        text = text.removeprefix(f"{path}: ")
        text = f"it {text.removeprefix(f'{path} ')}" if text.startswith(f"{path} ") else text
        return f"no game found in {path}: {text}"
    kinds = Counter(r.skipped for r in reports)
    return f"no game found in {len(reports)} files: " + ", ".join(
        f"{kind} ({n})" for kind, n in kinds.most_common())


def summarise(reports: list[GameReport]) -> dict[str, Any]:
    played = [r for r in reports if not r.skipped]
    skipped = Counter(r.skipped for r in reports if r.skipped)
    by_players: dict[str, dict[str, int]] = {}
    for report in played:  # four-player and three-player games apart
        counts = by_players.setdefault(str(report.players), {"games": 0, "games_ok": 0})
        counts["games"] += 1
        counts["games_ok"] += report.ok
    return {
        "games": len(played), "games_ok": sum(r.ok for r in played),
        "hands": sum(r.hands for r in played), "hands_ok": sum(r.hands_ok for r in played),
        "wins": sum(r.wins for r in played), "wins_ok": sum(r.wins_ok for r in played),
        "by_players": dict(sorted(by_players.items(), reverse=True)),
        "skipped": dict(skipped),
    }
