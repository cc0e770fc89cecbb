"""The ``tablekit`` command: one subcommand per module under :mod:`tablekit.commands`."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from tablekit.commands import (
    calibrate,
    demo,
    detect,
    enroll,
    export,
    replay,
    run,
    score,
    screens,
    sim,
    simulate,
)

COMMANDS = (demo, score, replay, export, screens, run, sim, simulate, detect, calibrate,
            enroll)


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
    """Run ``tablekit`` with ``argv`` (the process's arguments by default)."""
    args = build_parser().parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    raise SystemExit(main())
