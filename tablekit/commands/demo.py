"""``tablekit demo``: a real game on the simulated table, with the scoreboard."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

DEFAULT_HANDS = 3


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "demo", help="play a real game on the simulated table with the scoreboard",
        description="Play a real recorded game on the simulated table through the app's "
                    "own loop: camera frames read by the models and the tracker, seat "
                    "buttons through mock pins, the scoreboard in a window or, with no "
                    "screen, written after each hand with an animation of the game.")
    parser.add_argument("--log", type=Path, default=None,
                        help="a Tenhou mjlog (default: the game committed with tablekit)")
    parser.add_argument("--display", default="auto", metavar="window|headless:DIR")
    parser.add_argument("--hands", type=int, default=DEFAULT_HANDS,
                        help=f"only the first N hands (default {DEFAULT_HANDS}; 0: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--fps", type=float, default=4.0)
    parser.add_argument("--reader", choices=("vision", "truth"), default="vision",
                        help="vision: the models read the frames (default); truth: the "
                             "simulated table's ground truth (fast)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tablekit.commands.simulate import make_pipeline
    from tablekit.demo import DemoOutput
    from tablekit.formats.tenhou import import_file
    from tablekit.sim.table import DEMO_GAME
    from tablekit.simulate import Hooks, simulate_game

    spec = args.display
    if spec == "auto":
        spec = "window" if os.environ.get("DISPLAY") else "headless:out/demo"
    kind, _, folder = spec.partition(":")
    log = args.log or DEMO_GAME
    hands = len(import_file(log).hands)
    hands = min(hands, args.hands) if args.hands else hands
    output = DemoOutput(Path(folder or "out/demo"), hands)
    window = None
    if kind == "window":
        from tablekit.display.backends import WindowDisplay

        window = WindowDisplay((960, 540), title="tablekit demo")
    print(f"tablekit demo: {hands} hand(s) of {log.name} on the simulated table, read by "
          f"{args.reader}; scoreboards in {output.folder}", file=sys.stderr, flush=True)
    flows: list[Any] = []
    started = time.perf_counter()
    report = simulate_game(log, make_pipeline(args.reader, 0.0, args.seed), seed=args.seed,
                           fps=args.fps, max_hands=hands, display=window,
                           hooks=Hooks(on_hand=output.hand, on_frame=output.frame,
                                       on_step=lambda app, _: flows[:1] or flows.append(
                                           app.flow)))
    if flows:
        output.finish(flows[0])
    if window is not None:
        window.close()
    print(json.dumps({"reader": args.reader, **report.summary(),
                      "seconds": round(time.perf_counter() - started)}))
    return 0 if report.hands_ok == report.hands and not report.mismatches else 1
