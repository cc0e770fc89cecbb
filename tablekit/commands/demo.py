"""``tablekit demo``: a real game on the simulated table, with the scoreboard."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from tablekit.commands.simulate import hand_count
from tablekit.errors import TablekitError, one_line

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
    parser.add_argument("--hands", type=hand_count, default=DEFAULT_HANDS, metavar="N",
                        help=f"only the first N hands (default {DEFAULT_HANDS}; 0: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--fps", type=float, default=4.0)
    parser.add_argument("--reader", choices=("vision", "truth"), default="vision",
                        help="vision: the models read the frames (default); truth: the "
                             "simulated table's ground truth (fast)")
    parser.add_argument("--journal", type=Path, default=None, metavar="FILE",
                        help="keep the game's journal in FILE (a new game is started in it), "
                             "to export or replay it afterwards (default: none kept)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tablekit.commands.simulate import make_pipeline
    from tablekit.formats.tenhou import import_file
    from tablekit.sim.demo import DemoOutput, players_line
    from tablekit.sim.simulate import Hooks, simulate_game
    from tablekit.sim.table import DEMO_GAME

    spec = args.display
    if spec == "auto":
        spec = "window" if os.environ.get("DISPLAY") else "headless:out/demo"
    kind, _, folder = spec.partition(":")
    log = args.log or DEMO_GAME
    game = import_file(log)
    hands = min(len(game.hands), args.hands) if args.hands else len(game.hands)
    output = DemoOutput(Path(folder or "out/demo"), hands)
    window = None
    if kind == "window":
        from tablekit.display.backends import WindowDisplay

        window = WindowDisplay((960, 540), title="tablekit demo")
    print(f"tablekit demo: {hands} hand(s) of {log.name} on the simulated table, read by "
          f"{args.reader}; scoreboards in {output.folder}", file=sys.stderr, flush=True)
    print(players_line(game.start.names, game.start.first_dealer), flush=True)
    flows: list[Any] = []
    started = time.perf_counter()
    try:
        report = simulate_game(
            log, make_pipeline(args.reader, 0.0, args.seed), seed=args.seed, fps=args.fps,
            max_hands=hands, display=window, journal=args.journal,
            hooks=Hooks(on_hand=output.hand, on_frame=output.frame,
                        on_step=lambda app, _: flows[:1] or flows.append(app.flow)))
    except TablekitError as error:  # a journal that cannot be kept where it was asked
        print(f"tablekit demo: {one_line(error)}", file=sys.stderr)
        return 2
    if flows:
        output.finish(flows[0])
    if window is not None:
        window.close()
    print(json.dumps({"reader": args.reader, **report.summary(),
                      "seconds": round(time.perf_counter() - started)}))
    if args.journal is not None:
        print(f"tablekit demo: the game's journal is {args.journal} (tablekit export "
              f"{args.journal}, tablekit replay {args.journal})", file=sys.stderr)
    return 0 if report.hands_ok == report.hands and not report.mismatches else 1
