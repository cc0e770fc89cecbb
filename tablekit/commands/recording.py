"""``tablekit recording play``: a recorded game played back through the app's loop;
``tablekit recording check``: the game as read compared with a record kept of it."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from tablekit.errors import BadInput, TablekitError, one_line


def add_record_options(parser: argparse.ArgumentParser, note: str = "") -> None:
    """``--record DIR`` and ``--record-images``, as ``run`` and ``simulate`` take them
    (``note``: what the command adds to the help)."""
    parser.add_argument("--record", type=Path, default=None, metavar="DIR",
                        help=f"record the game into this new folder: the camera's frames, the "
                             f"presses, the journal{note} (docs/recordings.md)")
    parser.add_argument("--record-images", choices=("jpg", "png"), default="jpg",
                        help="the recording's frames: JPEG (quality 90) or PNG (lossless)")

def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "recording", help="play back a game recorded with --record",
        description="Recordings of games (run --record DIR, simulate --record DIR); see "
                    "docs/recordings.md.")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    play = actions.add_parser(
        "play", help="play a recording back through the app's loop",
        description="Play a recording back through the app's own loop: its frames as the "
                    "camera (read by the vision models), its presses at their times, a "
                    "driven clock. The journal played is compared with the recording's, "
                    "event for event; the last line is a JSON summary.")
    play.add_argument("folder", type=Path, metavar="DIR")
    play.add_argument("--reader", choices=("vision", "truth"), default="vision",
                      help="vision: the models (truth is refused: a recording keeps "
                           "frames, not the simulated table's truth)")
    play.add_argument("--tileset", metavar="SET", default=None,
                      help="read the tiles with this enrolled set instead of the recording's")
    play.add_argument("--journal", type=Path, default=None,
                      help="keep the journal played here (a new file; default: a "
                           "temporary one)")
    play.add_argument("--misread", type=float, default=0.0, metavar="SHARE",
                      help="read this share of the tiles as another kind on purpose (the same "
                           "tile in the same place misread alike in every frame), so that "
                           "recording check has differences to find")
    play.add_argument("--seed", type=int, default=0, help="the seed of --misread's choice")
    play.add_argument("--check", action="store_true",
                      help="exit 1 when the journal played differs from the recording's")
    play.set_defaults(run=run)
    check = actions.add_parser(
        "check", help="compare the game as read with a record kept of it",
        description="Compare the game as the recording read it (its journal) with a record "
                    "kept by a person or another system (tenhou.net/6 JSON, a Tenhou mjlog, "
                    "or a tablekit journal), hand by hand: the result and score changes, "
                    "each seat's discards in order, calls, dora indicators, the revealed "
                    "hands. One line for each difference, then a summary.")
    check.add_argument("folder", type=Path, metavar="DIR")
    check.add_argument("--against", type=Path, required=True, metavar="RECORD",
                       help="the record kept of the game")
    check.add_argument("--journal", type=Path, default=None,
                       help="check this journal (one played back from the recording with "
                            "recording play --journal) instead of the recording's own")
    check.add_argument("--json", action="store_true",
                       help="the last line is a JSON object: hands, hands_exact, tiles, "
                            "tiles_right, hands_read, differences")
    check.set_defaults(run=run_check)
    export = actions.add_parser(
        "export", help="write the game as read as a record to correct by hand",
        description="Write the recording's game as read as a plain record (one event a line, "
                    "JSON without numbers or checksums) to correct by hand into the record "
                    "that recording check compares with.")
    export.add_argument("folder", type=Path, metavar="DIR")
    export.add_argument("--out", type=Path, required=True, help="the record to write (new)")
    export.set_defaults(run=run_export)
    anonymise = actions.add_parser(
        "anonymise", help="replace the players' names in a recording",
        description="Replace the players' names in a recording (the journal's game starts, "
                    "the roster) with Player 1, Player 2, ... in place, so that it can be "
                    "handed on; it plays back as before.")
    anonymise.add_argument("folder", type=Path, metavar="DIR")
    anonymise.set_defaults(run=run_anonymise)


def run(args: argparse.Namespace) -> int:
    from tablekit.recording.play import play_recording

    try:
        if not 0 <= args.misread <= 1:
            raise BadInput(f"--misread {args.misread}: a share of the tiles, from 0 to 1")
        with tempfile.TemporaryDirectory(prefix="tablekit-play-") as scratch:
            journal = args.journal or Path(scratch) / "game.jsonl"
            playback = play_recording(args.folder, journal, args.tileset, args.reader,
                                      misread=(args.misread, args.seed))
    except (TablekitError, OSError) as error:
        print(f"tablekit recording play: {one_line(error)}", file=sys.stderr)
        return 2
    summary = playback.summary()
    same = playback.same
    if playback.recorded_journal != "kept":  # a missing journal is never "the same"
        print(f"{args.folder}: the recording's journal is {playback.recorded_journal}: "
              f"nothing to compare the {summary['events']} events played with",
              file=sys.stderr)
    elif playback.cut:
        played = len(playback.played)
        same = playback.played == playback.recorded[:played]
        print(f"{args.folder}: cut off while recording (no end in its manifest: a power "
              f"cut?); played up to {playback.until:.1f} s, {played} events, "
              + (f"the same as the recording's first {played}" if same else
                 f"differing from the recording's at event {summary['first_difference']}"),
              file=sys.stderr)
    elif not same:
        print(f"{args.folder}: the journal played differs from the recording's at event "
              f"{summary['first_difference']} ({summary['events']} events played, "
              f"{summary['events_recorded']} recorded)", file=sys.stderr)
    print(json.dumps({"recording": str(args.folder), **summary}))
    return 1 if args.check and not same else 0


def run_check(args: argparse.Namespace) -> int:
    from tablekit.commands.export import load_events
    from tablekit.commands.inputs import require_files
    from tablekit.recording.check import compare
    from tablekit.recording.manifest import JOURNAL, read_manifest
    from tablekit.untrusted.recording import recording_file

    try:
        read_manifest(args.folder)
        journal = args.journal or recording_file(args.folder, JOURNAL)
        require_files([journal, args.against])
        check = compare(load_events(journal), load_events(args.against))
    except (TablekitError, OSError) as error:
        print(f"tablekit recording check: {one_line(error)}", file=sys.stderr)
        return 2
    for line in check.lines:
        print(line)
    print(check.text(str(args.folder)), file=sys.stderr if args.json else sys.stdout)
    if args.json:
        print(json.dumps({"recording": str(args.folder), "against": str(args.against),
                          **check.summary()}))
    return 0


def run_export(args: argparse.Namespace) -> int:
    from tablekit.commands.export import load_events
    from tablekit.recording.check import plain_record
    from tablekit.recording.manifest import JOURNAL, read_manifest
    from tablekit.untrusted.recording import recording_file

    try:
        read_manifest(args.folder)
        if args.out.exists():
            raise BadInput(f"{args.out}: exists; write the record to a new file")
        text = plain_record(load_events(recording_file(args.folder, JOURNAL)))
        args.out.write_text(text, encoding="utf-8")
    except (TablekitError, OSError) as error:
        print(f"tablekit recording export: {one_line(error)}", file=sys.stderr)
        return 2
    print(f"{args.out}: the game as read, {text.count(chr(10))} events, to correct by hand")
    return 0


def run_anonymise(args: argparse.Namespace) -> int:
    from tablekit.recording.anonymise import anonymise

    try:
        names, told = anonymise(args.folder)
    except (TablekitError, OSError, ValueError) as error:
        print(f"tablekit recording anonymise: {one_line(error)}", file=sys.stderr)
        return 2
    print(f"{args.folder}: " + (f"{names} names replaced by Player 1 to Player {names}"
                                if names else "no players' names in it")
          + (f"; {told} journal lines still hold a name in free text: read them" if told
             else ""))
    return 0
