"""Game points (uma, oka, rounding) for every mjlog, four players and three (sanma),
compared with Tenhou's ``owari``.

Usage: python benchmarks/game_points.py [PATH...] [--show N]
Prints the first mismatches, then "N of M games give Tenhou's points" and a JSON line
(``by_players``: games matched and checked, four-player and three-player apart).
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
from tablekit.formats.tenhou_check import owari_mismatch

DEFAULT = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "tenhou" / "logs"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, default=[DEFAULT])
    parser.add_argument("--show", type=int, default=10, help="mismatches to print")
    args = parser.parse_args()
    start = time.perf_counter()
    skipped: Counter[str] = Counter()
    checked = matched = 0
    by_players: dict[str, list[int]] = {}
    for path in log_files(args.paths):
        try:
            game = read_mjlog(path)
            problem = owari_mismatch(game)
        except TablekitError as error:
            skipped[str(error).split(":")[0]] += 1
            continue
        checked += 1
        matched += problem is None
        counts = by_players.setdefault(str(game.players), [0, 0])
        counts[0] += problem is None
        counts[1] += 1
        if problem and checked - matched <= args.show:
            print(f"{path}: {problem}")
    print(f"{matched} of {checked} games give Tenhou's points")
    print(json.dumps({"games": checked, "matched": matched, "by_players": by_players,
                      "skipped": dict(skipped),
                      "seconds": round(time.perf_counter() - start, 1)}))
    return 0 if matched == checked else 1


if __name__ == "__main__":
    raise SystemExit(main())
