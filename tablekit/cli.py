"""The ``tablekit`` command: one subcommand per module under :mod:`tablekit.commands`."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from tablekit.commands import (
    calibrate,
    club,
    demo,
    detect,
    doctor,
    enroll,
    export,
    league,
    recording,
    replay,
    run,
    score,
    screens,
    sim,
    simulate,
    tournament,
    web,
)
from tablekit.errors import TablekitError, one_line

COMMANDS = (demo, score, replay, export, league, tournament, screens, run, web, club, sim,
            simulate, recording, detect, calibrate, enroll, doctor)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tablekit",
        description="Riichi Mahjong table companion: scoring, game engine, camera.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``tablekit`` with ``argv`` (the process's arguments by default). Bad input and
    files that cannot be read or written end in one line and exit status 2, never a traceback.

    >>> main(["replay", "nowhere.xml"])
    2
    """
    args = build_parser().parse_args(argv)
    os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")  # our one line, not OpenCV's warnings
    try:
        return int(args.run(args))
    except (TablekitError, OSError) as error:
        print(f"tablekit {args.command}: {one_line(error)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
