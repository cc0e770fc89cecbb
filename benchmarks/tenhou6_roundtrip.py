"""The tenhou.net/6 round trip over every mjlog, four players and three (sanma): replay,
export, read back, replay.

Usage: python benchmarks/tenhou6_roundtrip.py [PATH...] [--every N] [--show N] [--players 3]
Prints the first differences, then "N of M replay the same" and a JSON line (``by_players``
counts four- and three-player games apart). ``--every 5`` takes every fifth file (a sample,
for a busy machine); ``--players 3`` only the sanma games.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

from tablekit.errors import TablekitError
from tablekit.formats.mjlog import read_mjlog
from tablekit.formats.replay_check import log_files
from tablekit.formats.tenhou6_check import round_trip

DEFAULT = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "tenhou" / "logs"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, default=[DEFAULT])
    parser.add_argument("--every", type=int, default=1, help="take every Nth file")
    parser.add_argument("--show", type=int, default=10, help="differences to print")
    parser.add_argument("--players", type=int, choices=(3, 4), help="only games of so many")
    args = parser.parse_args()
    start = time.perf_counter()
    skipped: Counter[str] = Counter()
    games = same = replayed_ok = 0
    by_players: dict[str, Counter[str]] = {}
    for path in list(log_files(args.paths))[::args.every]:
        try:
            if args.players and read_mjlog(path).players != args.players:
                continue
            trip = round_trip(path)
        except TablekitError as error:
            skipped[str(error).split(":")[0][:60]] += 1
            continue
        counts = by_players.setdefault(str(trip.first.players), Counter())
        counts.update(games=1, same=trip.same)
        games += 1
        same += trip.same
        replayed_ok += trip.same and trip.first.ok
        if not trip.same and games - same <= args.show:
            print(f"{path}: {trip.problem}")
    print(f"{same} of {games} replay the same after a tenhou.net/6 export "
          f"({replayed_ok} of them also match Tenhou's record)")
    print(json.dumps({"games": games, "same": same, "same_and_match_tenhou": replayed_ok,
                      "by_players": {k: dict(v) for k, v in sorted(by_players.items())},
                      "skipped": dict(skipped), "seconds": round(time.perf_counter() - start, 1)}))
    return 0 if same == games else 1


if __name__ == "__main__":
    raise SystemExit(main())
