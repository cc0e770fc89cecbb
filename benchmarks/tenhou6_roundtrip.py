"""The tenhou.net/6 round trip over every four-player mjlog: replay, export, read back, replay.

Usage: python benchmarks/tenhou6_roundtrip.py [PATH...] [--every N] [--show N]
Prints the first differences, then "N of M replay the same" and a JSON line.
``--every 5`` takes every fifth file (a sample, for a busy machine).
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

from tablekit.errors import TablekitError
from tablekit.formats.replay_check import log_files
from tablekit.formats.tenhou6_check import round_trip

DEFAULT = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "tenhou" / "logs"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, default=[DEFAULT])
    parser.add_argument("--every", type=int, default=1, help="take every Nth file")
    parser.add_argument("--show", type=int, default=10, help="differences to print")
    args = parser.parse_args()
    start = time.perf_counter()
    skipped: Counter[str] = Counter()
    games = same = replayed_ok = 0
    for path in list(log_files(args.paths))[::args.every]:
        try:
            trip = round_trip(path)
        except TablekitError as error:
            skipped[str(error).split(":")[0][:60]] += 1
            continue
        games += 1
        same += trip.same
        replayed_ok += trip.same and trip.first.ok
        if not trip.same and games - same <= args.show:
            print(f"{path}: {trip.problem}")
    print(f"{same} of {games} replay the same after a tenhou.net/6 export "
          f"({replayed_ok} of them also match Tenhou's record)")
    print(json.dumps({"games": games, "same": same, "same_and_match_tenhou": replayed_ok,
                      "skipped": dict(skipped), "seconds": round(time.perf_counter() - start, 1)}))
    return 0 if same == games else 1


if __name__ == "__main__":
    raise SystemExit(main())
