"""How long the scoreboard takes to show what happened at the table, measured on real games
played on the simulated table through the app's own loop (:class:`tablekit.app.loop.App`).

Usage: python benchmarks/latency.py [LOG ...] [--games N] [--every 40] [--reader vision|truth]
                                    [--fps 4] [--hands H]

Placed -> shown and lying still -> shown for each discard and WIN -> scored for each win,
timed on the simulated table's clock by :mod:`tablekit.sim.stopwatch` (the loop steps 20
times a second, the camera gives ``--fps`` frames a second), so they show the loop's and the
tracker's delays, not this machine's speed (the milliseconds per frame are printed too: the
Pi adds those). Without LOGs it takes the 20-game check's games
(``benchmarks/simulate_games.py``'s choice, ``--games`` of them). Prints one JSON line per
game and the totals (p50, p95, max; budget 0.5 s from lying still to shown) last. Every
``tablekit simulate`` keeps the same stopwatch, so the 20-game check prints these figures in
its totals too; this script is for one game, another camera rate or the truth.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def main() -> int:
    from simulate_games import four_player_logs

    from tablekit.commands.simulate import hand_count, make_pipeline
    from tablekit.sim.simulate import SimReport, simulate_game
    from tablekit.sim.stopwatch import BUDGET, figures

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", type=Path, nargs="*")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--every", type=int, default=40)
    parser.add_argument("--reader", choices=("vision", "truth"), default="vision")
    parser.add_argument("--fps", type=float, default=4.0)
    parser.add_argument("--hands", type=hand_count, default=0,
                        help="only each log's first N hands (0: every hand)")
    args = parser.parse_args()
    logs = args.logs or four_player_logs(args.every, args.games)
    total = SimReport()
    for index, log in enumerate(logs):
        report = simulate_game(log, make_pipeline(args.reader, 0.0, index), seed=index,
                               fps=args.fps, max_hands=args.hands)
        total.add(report)
        print(json.dumps({"log": log.name, "hands": report.hands, "hands_ok": report.hands_ok,
                          "hands_never_ended": report.hands_never_ended,
                          "ms_per_frame": report.summary()["ms_per_frame"],
                          **{kind: figures(v) for kind, v in report.latency.items()},
                          "discards_never_shown": report.never_shown}), flush=True)
    shown = figures(total.latency["still_to_shown"])
    print(json.dumps({"reader": args.reader, "fps": args.fps, "games": len(logs),
                      "hands": total.hands, "hands_ok": total.hands_ok,
                      "hands_never_ended": total.hands_never_ended,
                      **{kind: figures(v) for kind, v in total.latency.items()},
                      "budget_s": BUDGET, "within_budget_p95": shown.get("p95", 0) <= BUDGET}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
