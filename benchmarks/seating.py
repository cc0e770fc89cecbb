"""Tournament seating plans: their repeated pairs beside the lower bound, the winds' balance
and the time each takes, for 16 players over 5 rounds and for 12, 20, 24 and 36 players over
4 to 8 rounds (what ``tablekit tournament seat`` makes; one core).

Usage: python benchmarks/seating.py [--seed 1] [--seeds 1] [--json OUT]

One JSON object a line: ``players``, ``rounds``, ``how`` (``built`` when a construction
gives the plan, ``searched`` otherwise), ``repeats`` (the best of ``--seeds`` seeds from
``--seed`` on, and each seed's in ``each``), ``lower_bound``, ``wind_apart`` (the largest
difference between a player's most and least played wind) and ``seconds`` (the slowest
seed). ``--json OUT`` also writes the list.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tablekit.league.seating_plan import (  # noqa: E402
    constructed,
    lower_bound,
    repeated_pairs,
    seating_plan,
    wind_imbalance,
)

CASES = [(16, 5)] + [(players, rounds) for players in (12, 20, 24, 36) for rounds in range(4, 9)]


def measure(players: int, rounds: int, seeds: range) -> dict[str, object]:
    each, apart, slowest = [], 0, 0.0
    for seed in seeds:
        start = time.perf_counter()
        plan = seating_plan(players, rounds, seed)
        slowest = max(slowest, time.perf_counter() - start)
        each.append(repeated_pairs(plan))
        apart = max(apart, wind_imbalance(plan))
    return {"players": players, "rounds": rounds,
            "how": "built" if rounds <= len(constructed(players)) else "searched",
            "repeats": min(each), "each": each, "lower_bound": lower_bound(players, rounds),
            "wind_apart": apart, "seconds": round(slowest, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seeds", type=int, default=1, help="seeds tried per case")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    rows = []
    for players, rounds in CASES:
        rows.append(measure(players, rounds, range(args.seed, args.seed + args.seeds)))
        print(json.dumps(rows[-1]), flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
