"""``tablekit demo``: a whole real game on the simulated table, with the scoreboard."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "demo", help="play a real game on the simulated table with the scoreboard",
        description="Play a real recorded game on the simulated table: camera frames through "
                    "the tracker, seat buttons through mock pins, the scoreboard in a window "
                    "or, with no screen, written after each hand with a short animation.")
    parser.add_argument("--log", type=Path, default=None,
                        help="a Tenhou mjlog (default: the game committed with tablekit)")
    parser.add_argument("--display", default="auto", metavar="window|headless:DIR")
    parser.add_argument("--hands", type=int, default=None, help="only the first N hands")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--fps", type=float, default=4.0)
    parser.add_argument("--reader", choices=("truth", "vision"), default="truth")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tablekit.commands.simulate import make_reader
    from tablekit.demo import DemoOutput
    from tablekit.sim.table import DEMO_GAME
    from tablekit.simulate import simulate_game

    spec = args.display
    if spec == "auto":
        spec = "window" if os.environ.get("DISPLAY") else "headless:out/demo"
    kind, _, folder = spec.partition(":")
    output = DemoOutput(Path(folder or "out/demo"))
    if kind == "window":
        from tablekit.display.backends import WindowDisplay

        output.window = WindowDisplay((960, 540), title="tablekit demo")
    log = args.log or DEMO_GAME
    print(f"tablekit demo: {log.name} on the simulated table; scoreboards in {output.folder}",
          file=sys.stderr, flush=True)
    flows: list[Any] = []
    report = simulate_game(log, make_reader(args.reader, 0.0, args.seed), seed=args.seed,
                           fps=args.fps, max_hands=args.hands, on_hand=output.hand,
                           on_frame=lambda frame, flow: (flows[:1] or flows.append(flow),
                                                         output.frame(frame, flow)))
    if flows:
        output.finish(flows[0])
    if output.window is not None:
        output.window.close()
    print(json.dumps(report.summary()))
    return 0 if report.hands_ok == report.hands and not report.mismatches else 1
