"""``tablekit sim``: the simulated table.

``tablekit sim snapshot LOG --hand N --turn K --out DIR`` renders one moment of a
recorded Tenhou game (hand N counted from 0, after its first K events; K = 1 is the
deal) as ``DIR/frame.png`` with its ground truth in ``DIR/truth.json``.
``tablekit sim mat --out DIR`` renders the enrollment mat on a simulated table, a tile of
the table's art on each slot, as ``DIR/mat.png`` (for ``tablekit enroll --image``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tablekit.errors import TablekitError, one_line


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "sim", help="the simulated table (camera frames with ground truth)",
        description="Render frames of a simulated table playing a recorded game.")
    commands = parser.add_subparsers(dest="sim_command", required=True, metavar="SUBCOMMAND")
    snap = commands.add_parser(
        "snapshot", help="one moment of a game as frame.png and truth.json",
        description="Render hand N (from 0) of a Tenhou mjlog game after K of its events "
                    "(1 = the deal) and write frame.png and truth.json to DIR.")
    snap.add_argument("log", type=Path, metavar="LOG")
    snap.add_argument("--hand", type=int, required=True, metavar="N")
    snap.add_argument("--turn", type=int, required=True, metavar="K")
    _table_options(snap, "placement")
    snap.add_argument("--clean", action="store_true", help="an ideal camera: no noise, blur, "
                      "uneven light or JPEG")
    snap.add_argument("--arm", action="store_true",
                      help="show the acting player's arm reaching over the table")
    mat = commands.add_parser(
        "mat", help="the enrollment mat on a simulated table, as mat.png",
        description="Render the enrollment mat (A3) lying on a simulated table, one tile of "
                    "the table's art set on each slot, and write DIR/mat.png: a photo for "
                    "`tablekit enroll --image`.")
    _table_options(mat, "where the mat lies")
    parser.set_defaults(run=run)


def _table_options(parser: argparse.ArgumentParser, placed: str) -> None:
    """--out, and the simulated table's --seed, --art and --size."""
    parser.add_argument("--out", type=Path, required=True, metavar="DIR")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help=f"table, camera, light and {placed} (default 0)")
    parser.add_argument("--art", default=None, metavar="SET",
                        help="tile art: any art set found (docs/tile-sets.md; "
                             "`python tools/make_art_sets.py` converts the known ones), "
                             "fallback always (default: chosen by the seed among the "
                             "training sets)")
    parser.add_argument("--size", default="1920x1080", metavar="WxH", type=_size)


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not WIDTHxHEIGHT") from None
    if width < 64 or height < 64:
        raise argparse.ArgumentTypeError(f"{text!r} is too small")
    return width, height


def run(args: argparse.Namespace) -> int:
    try:
        if args.sim_command == "mat":
            from tablekit.sim.mat_scene import write_mat_photo

            print(write_mat_photo(args.out, args.seed, args.art, args.size))
            return 0
        from tablekit.sim.snapshot import write_snapshot  # OpenCV loads only for this command

        frame, truth = write_snapshot(args.log, args.hand, args.turn, args.out,
                                      seed=args.seed, art=args.art, size=args.size,
                                      clean=args.clean, arm=args.arm)
    except (TablekitError, ValueError, OSError) as error:
        print(f"tablekit sim {args.sim_command}: {one_line(error)}", file=sys.stderr)
        return 2
    print(f"{frame}\n{truth}")
    return 0
