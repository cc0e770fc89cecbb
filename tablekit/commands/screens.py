"""``tablekit screens``: render every scoreboard screen to PNG files.

The states come from a real game (the committed Tenhou fixture by default) replayed through
the engine; the files are the documentation gallery and a test fixture. pygame is imported
only when the command runs, so the other commands never need a display.

>>> parse_size("800x480"), parse_size("1920X1080")
((800, 480), (1920, 1080))
>>> parse_size("80x48")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: '80x48': screens smaller than 320x200 are not supported
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from tablekit.errors import TablekitError

_SIZE = re.compile(r"^(\d+)[xX](\d+)$")


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "screens", help="render every scoreboard screen to PNG files",
        description="Render every scoreboard screen (scoreboard, differences, warnings, win "
                    "confirmation, hand results, tenpai entry, final standings, menu) with "
                    "states replayed from a real game, one PNG file per screen.")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR")
    parser.add_argument("--size", type=parse_size, default=(800, 480), metavar="WxH",
                        help="screen size in pixels (default 800x480)")
    parser.add_argument("--layout", choices=("facing", "centre"), default="facing",
                        help="facing: all upright; centre: each seat's panel turned to it")
    parser.add_argument("--players", type=int, choices=(3, 4), default=4,
                        help="3: the screens of a three-player (sanma) game, files named "
                             "NAME-LAYOUT-sanma.png (default 4)")
    parser.add_argument("--seat-boxes", default=None, metavar="BOX,BOX,BOX",
                        help="three players: the seat boxes they sit at, the first dealer's "
                             "first (as for run; default east,south,west): each panel on its "
                             "box's side")
    parser.add_argument("--game", type=Path, default=None, metavar="MJLOG",
                        help="the Tenhou mjlog game to take states from, of --players "
                             "players (default: the committed fixture game, or with "
                             "--players 3 the committed sanma game)")
    parser.set_defaults(run=run)


def parse_size(text: str) -> tuple[int, int]:
    """``WIDTHxHEIGHT`` in pixels."""
    match = _SIZE.match(text.strip())
    if not match:
        raise argparse.ArgumentTypeError(f"{text!r}: write the size as WIDTHxHEIGHT, "
                                         "e.g. 800x480")
    width, height = int(match.group(1)), int(match.group(2))
    if width < 320 or height < 200:
        raise argparse.ArgumentTypeError(f"{text!r}: screens smaller than 320x200 are not "
                                         "supported")
    return width, height


def run(args: argparse.Namespace) -> int:
    from tablekit.display.backends import PngDisplay
    from tablekit.display.examples import FIXTURE_GAME, SANMA_GAME, example_screens

    game = args.game or (SANMA_GAME if args.players == 3 else FIXTURE_GAME)
    if not game.is_file():
        print(f"tablekit screens: no game at {game} (give one with --game)", file=sys.stderr)
        return 2
    try:
        examples = example_screens(game, args.layout)
    except TablekitError as error:
        print(f"tablekit screens: {game}: {error}", file=sys.stderr)
        return 2
    players = examples[0].model.state.players
    if players != args.players:
        print(f"tablekit screens: {game} is a {players}-player game: give --players "
              f"{players}", file=sys.stderr)
        return 2
    try:
        boxes = _seat_boxes(args.seat_boxes, players)
    except TablekitError as error:
        print(f"tablekit screens: seat boxes: {error}", file=sys.stderr)
        return 2
    suffix = "-sanma" if players == 3 else ""
    display = PngDisplay(args.out, args.size)
    for example in examples:
        path, _ = display.save(replace(example.model, boxes=boxes),
                               f"{example.name}-{args.layout}{suffix}")
        print(path)
    display.close()
    return 0


def _seat_boxes(text: str | None, players: int) -> tuple[int, ...]:
    """The seat boxes of ``--seat-boxes`` (three players only; East, South and West by
    default)."""
    from tablekit.flow.boxes import THREE, parse_boxes

    if text is None:
        return THREE
    if players != 3:
        raise TablekitError("--seat-boxes is for three players (--players 3)")
    return parse_boxes(text)
