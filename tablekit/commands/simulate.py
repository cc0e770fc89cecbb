"""``tablekit simulate``: real games on the simulated table, through the whole pipeline."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from tablekit.commands.club import add_table_options, join_club, leave_club
from tablekit.commands.inputs import require_files
from tablekit.commands.progress import Progress
from tablekit.commands.recording import add_record_options
from tablekit.errors import TablekitError, one_line


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "simulate", help="play real games on the simulated table and check the scores",
        description="Play Tenhou logs on the simulated table through the app's own loop: "
                    "frames through the camera feed, pipeline and tracker, presses through "
                    "gpiozero's MockFactory, a clock the table drives; a simulated person "
                    "puts right a win the app cannot score (counted in hands_fixed) and one "
                    "whose screen shows tiles other than those on the table (counted in "
                    "wins_put_right), neither counted in hands_ok; a hand that never ends is "
                    "a failed hand, in hands and hands_never_ended; each hand's score "
                    "changes are compared with the log. "
                    "The last line is a JSON summary.")
    parser.add_argument("logs", nargs="+", type=Path, metavar="LOG")
    parser.add_argument("--check", action="store_true",
                        help="exit non-zero on any mismatch, failed or unended hand, or "
                             "skipped log")
    parser.add_argument("--reader", choices=("truth", "vision"), default="truth",
                        help="truth: the sim's ground truth (with --misread); vision: the models")
    parser.add_argument("--enroll", action="store_true",
                        help="vision reader: enroll each game's tile set first from one "
                             "enrollment mat laid on its simulated table")
    parser.add_argument("--enroll-from-table", action="store_true",
                        help="vision reader: enroll each game's tile set first from the "
                             "whole set spread on its simulated table (enroll --from-table)")
    parser.add_argument("--misread", type=float, default=0.0,
                        help="share of tiles the truth reader misreads on purpose")
    parser.add_argument("--art", default=None, metavar="SET",
                        help="the table's tile art (an art set's name, docs/tile-sets.md; "
                             "default: chosen by the seed among the training sets)")
    parser.add_argument("--confuse", action="append", default=[], metavar="TRUE:READ",
                        help="truth reader: every TRUE face read surely as READ (e.g. 2z:1z), "
                             "as a classifier that never separates two faces; repeatable")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--fps", type=float, default=4.0)
    parser.add_argument("--hands", type=hand_count, default=0, metavar="N",
                        help="only the first N hands (default 0: every hand)")
    parser.add_argument("--frames-out", type=Path, default=None, help="keep the frames here")
    parser.add_argument("--league", type=Path, default=None, metavar="DB",
                        help="record each finished game in this league file, under the "
                             "log's player names")
    parser.add_argument("--journal", type=Path, default=None,
                        help="keep the game's journal here (one log only; a new game is "
                             "started in it)")
    add_record_options(parser, " (one log only; play it back with tablekit recording play)")
    add_table_options(parser)
    parser.set_defaults(run=run)


def hand_count(text: str) -> int:
    """``--hands N``: the first N hands of a log; 0 means every hand (in ``simulate``,
    ``demo`` and the benchmarks alike).

    >>> hand_count("0"), hand_count("3")
    (0, 3)
    >>> hand_count("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: -1 hands: give a count of hands, 0 for every hand
    """
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of hands") from None
    if count < 0:
        raise argparse.ArgumentTypeError(f"{count} hands: give a count of hands, 0 for "
                                         "every hand")
    return count


def confusions(args: argparse.Namespace) -> tuple[tuple[str, str], ...]:
    """``--confuse TRUE:READ`` as pairs of codes; a bad one is refused in one line."""
    from tablekit.tiles import Tile

    pairs = []
    for text in args.confuse:
        true, sep, read = text.partition(":")
        try:
            pairs.append((Tile.from_code(true).code, Tile.from_code(read).code))
        except (TablekitError, ValueError):
            sep = ""
        if not sep or args.reader != "truth":
            raise TablekitError(f"--confuse {text}: give TRUE:READ tile codes (e.g. 2z:1z), "
                                "with --reader truth")
    return tuple(pairs)


def make_pipeline(kind: str, misread: float, seed: int, tileset: Path | None = None,
                  confuse: tuple[tuple[str, str], ...] = ()) -> Any:
    """The camera feed's pipeline for ``truth`` (the simulated table's ground truth, with
    ``confuse``'s pairs of codes always read as the other) or ``vision`` (the models, as
    ``tablekit run`` reads; ``tileset``: an enrolled set's)."""
    if kind == "truth":
        from tablekit.sim.simulate import TruthPipeline

        return TruthPipeline(misread, seed, confuse)
    from tablekit.vision.pipeline import CameraPipeline

    return CameraPipeline.open(tileset=str(tileset) if tileset else None)


def enrolled_set(log: Path, seed: int, folder: Path, art: str | None = None,
                 from_table: bool = False) -> Path:
    """The tile set of the game's simulated table (seeded as the game, ``art`` its tile
    art), enrolled into ``folder`` from one mat, or (``from_table``) from the whole set
    spread on the table."""
    from tablekit.sim.source import SimulatedCamera

    camera = SimulatedCamera.from_log(log, seed=seed, art=art)
    if from_table:
        from tablekit.sim.spread_scene import enroll_from_spread

        tileset = enroll_from_spread(camera, folder, seed).tileset
    else:
        from tablekit.sim.mat_scene import enroll_on_table

        tileset = enroll_on_table(camera, folder, seed)
    print(f"{log}: {tileset.summary()}", file=sys.stderr, flush=True)
    return folder


def _league_hook(path: Path | None, log: Path) -> Any:
    """Records the game in the league once it is over (the log's names are the game's)."""
    if path is None:
        return None
    from tablekit.league.database import connect
    from tablekit.league.record import recorder

    return recorder(connect(path), key=f"simulate:{log.resolve()}",
                    warn=lambda text: print(f"{log}: {text}", file=sys.stderr))


def run(args: argparse.Namespace) -> int:
    from tablekit.sim.simulate import SimReport

    require_files(args.logs)
    if args.art is not None:
        from tablekit.sim.art import ArtError, load_art

        try:
            load_art(args.art)
        except ArtError as error:
            print(f"tablekit simulate: {error}", file=sys.stderr)
            return 2
    confusions(args)  # a bad --confuse is refused before any game
    for option, value in (("--journal", args.journal), ("--record", args.record)):
        if value is not None and len(args.logs) > 1:
            print(f"tablekit simulate: {option} keeps one game: give one LOG",
                  file=sys.stderr)
            return 2
    if args.record is not None:
        from tablekit.recording.manifest import require_new_folder

        require_new_folder(args.record)
    if args.league is not None:  # a folder: the games would go unrecorded
        from tablekit.league.database import require_league

        require_league(args.league)
    total, skipped = SimReport(), 0
    club = _join_club(args)
    progress = Progress("tablekit simulate")  # on a terminal only: logs are as they were
    try:
        for index, log in enumerate(args.logs):
            with tempfile.TemporaryDirectory(prefix="tablekit-set-") as scratch:
                report = _play(args, index, log, Path(scratch), club, progress)
            progress.clear()
            if report is None:
                skipped += 1
                continue
            for mismatch in report.mismatches:
                print(f"{log}: {mismatch}")
            print(f"{log}: {report.hands_ok}/{report.hands} hands, "
                  f"{report.tiles_ok}/{report.tiles_read} tiles", file=sys.stderr, flush=True)
            total.add(report)
    finally:
        progress.clear()
        leave_club(club, _say)
    enrolled = ({"enrolled": "from the table"} if args.enroll_from_table else
                {"enrolled": True} if args.enroll else {})
    print(json.dumps({"reader": args.reader, **enrolled,
                      **total.summary()}))
    return 1 if args.check and (total.failed or skipped) else 0


def _say(line: str) -> None:
    print(f"tablekit simulate: {line}", file=sys.stderr, flush=True)


def _join_club(args: argparse.Namespace) -> Any:
    """The table's publisher for ``--club`` (None without it, or when its options cannot be
    used: said in one line, the games are played without the club)."""
    try:
        return join_club(args, args.journal, _say)
    except (TablekitError, OSError) as error:
        _say(f"club: {one_line(error)}; the games are played without the club")
        return None


def _club_step(club: Any) -> Any:
    """The simulator's ``on_step`` that keeps the club told of this game (None: no club)."""
    if club is None:
        return None
    from tablekit.club.table import club_hook

    hook = club_hook(club)
    return lambda app, _table: hook(app)


def _play(args: argparse.Namespace, index: int, log: Path, scratch: Path,
          club: Any = None, progress: Progress | None = None) -> Any:
    """One game's report (None: skipped, said why); an enrolled set is kept in ``scratch``;
    ``club``: the table's publisher, told of the game as it goes; ``progress``: the
    terminal's progress line, kept up as the game goes."""
    from tablekit.sim.simulate import Hooks, simulate_game

    seed = args.seed + index
    progress = progress or Progress("tablekit simulate", enabled=False)
    game = f"game {index + 1}/{len(args.logs)} {log.name}"
    try:
        tileset = None
        if (args.enroll or args.enroll_from_table) and args.reader == "vision":
            where = "the table" if args.enroll_from_table else "a simulated mat"
            with progress.running(f"{game}: enrolling its tile set from {where}"):
                tileset = enrolled_set(log, seed, scratch / "set", args.art,
                                       from_table=args.enroll_from_table)
        pipeline = make_pipeline(args.reader, args.misread, seed, tileset, confusions(args))
        recorder = _recorder(args, log, seed, tileset)
        steps = [step for step in (_club_step(club), _progress_step(
            progress, game, index, len(args.logs), args.fps)) if step is not None]
        try:
            return simulate_game(
                log, pipeline, seed=seed, fps=args.fps, max_hands=args.hands,
                journal=args.journal, art=args.art,
                hooks=Hooks(frames_out=args.frames_out, on_hand=_league_hook(args.league, log),
                            on_start=recorder.attach if recorder else None,
                            on_step=_each(steps)))
        finally:
            progress.clear()
            if recorder is not None:
                kept = recorder.close()
                print(f"{log}: recorded in {args.record}: {kept['frames_kept']} frames kept, "
                      f"{kept['frames_dropped']} dropped, {kept['image_bytes'] / 1e6:.1f} MB",
                      file=sys.stderr, flush=True)
    except TablekitError as error:
        print(f"{log}: skipped: {error}", file=sys.stderr)
        return None


def _progress_step(progress: Progress, game: str, index: int, games: int, fps: float
                   ) -> Any:
    """The simulator's ``on_step`` that keeps the progress line (None: not a terminal): the
    hands played and the frames of this game, the share of every game done and the time
    left (each game's share by its simulated clock)."""
    if not progress.enabled:
        return None

    def step(_app: Any, table: Any) -> None:
        length = max(table.script.length, 1e-9)
        share = min(table.clock() / length, 1.0)
        hands, frames = len(table.game.hands), max(round(length * fps), 1)
        played = min(table.report.hands, hands)
        progress.update(index + share, games, f"{game}: {played}/{hands} hands, frame "
                        f"{table.report.frames}/~{frames}")

    return step


def _each(steps: list[Any]) -> Any:
    """One ``on_step`` calling each of ``steps`` (None: none)."""
    if not steps:
        return None
    return lambda app, table: [step(app, table) for step in steps] and None


def _recorder(args: argparse.Namespace, log: Path, seed: int, tileset: Path | None) -> Any:
    """The game's recorder for ``--record`` (None without it)."""
    if args.record is None:
        return None
    from tablekit.recording.recorder import Recorder

    details = {"source": "simulate", "log": str(log), "seed": seed, "camera": "sim",
               "reader": args.reader, "misread": args.misread}
    return Recorder(args.record, details, args.record_images,
                    tileset=str(tileset) if tileset else None,
                    report=lambda line: print(f"{log}: {line}", file=sys.stderr, flush=True),
                    wait=True)   # the table's clock waits for the card: no frame dropped
