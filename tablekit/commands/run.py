"""``tablekit run``: the scoreboard appliance (camera, buttons, display, journal)."""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path
from typing import Any

from tablekit.errors import TablekitError


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "run", help="run the scoreboard (the appliance)",
        description="Run the scoreboard. Missing devices are reported in one line each and "
                    "replaced: no GPIO -> keyboard, no screen -> PNG files, no camera -> "
                    "the buttons keep the score.")
    parser.add_argument("--camera", default="auto",
                        metavar="picamera2|opencv:N|folder:DIR|sim|none")
    parser.add_argument("--buttons", default="auto",
                        choices=("auto", "gpio", "keyboard", "none"))
    parser.add_argument("--display", default="auto", metavar="window|kmsdrm|headless:DIR")
    parser.add_argument("--size", default=None, metavar="WxH", help="e.g. 800x480")
    parser.add_argument("--layout", default="facing", choices=("facing", "centre"))
    parser.add_argument("--rules", default="tenhou", metavar="PRESET|FILE.toml",
                        help="rules for a new game (a resumed game keeps its own)")
    parser.add_argument("--journal", type=Path, default=None,
                        help="game journal (default: ~/.local/state/tablekit/game.jsonl)")
    parser.add_argument("--frames", type=int, default=None, help="stop after N frames")
    parser.add_argument("--tileset", metavar="SET", default=None,
                        help="read the tiles with this enrolled set (see tablekit enroll)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tablekit.app import App, default_journal, open_session
    from tablekit.devices import open_buttons, open_display, pick_display
    from tablekit.flow import Flow
    from tablekit.rules.presets import load_rules

    def report(line: str) -> None:
        print(f"tablekit: {line}", file=sys.stderr, flush=True)

    try:
        rules = load_rules(args.rules)
        session = open_session(args.journal or default_journal(), rules, report)
    except TablekitError as error:
        report(str(error))
        return 2
    feed = _open_camera(args.camera, session, report, args.tileset)
    reader = feed.tracker if feed is not None else None
    app = App(Flow(session, reader=reader, layout=args.layout),
              open_display(pick_display(args.display), _size(args.size), report))
    app.camera = feed
    app.buttons, app.keyboard = open_buttons(args.buttons, app.inbox, report)
    signal.signal(signal.SIGTERM, lambda *_: setattr(app, "running", False))
    try:
        app.run(max_frames=args.frames)
    except KeyboardInterrupt:
        pass
    finally:
        if app.buttons is not None:
            app.buttons.close()
        app.display.close()
        if feed is not None:
            feed.close()
        session.close()
    return 0


def _open_camera(spec: str, session: Any, report: Any, tileset: str | None = None) -> Any:
    """A camera feed for ``spec``, or None (reported) when there is no camera to use."""
    from tablekit.devices import on_raspberry_pi

    if spec == "auto":
        spec = "picamera2" if on_raspberry_pi() else "none"
    if spec == "none":
        report("camera: none; the buttons keep the score (wins entered as han and fu)")
        return None
    try:
        from tablekit.vision.camera import open_camera
        from tablekit.vision.feed import CameraFeed
        from tablekit.vision.pipeline import CameraPipeline
        from tablekit.vision.tracker import Tracker

        source = open_camera(spec)
        return CameraFeed(source, CameraPipeline.open(tileset=tileset),
                          Tracker(lambda: session.state))
    except (TablekitError, ImportError, OSError) as error:
        report(f"camera: {error}; the buttons keep the score")
        return None


def _size(text: str | None) -> tuple[int, int] | None:
    if not text:
        return None
    width, _, height = text.lower().partition("x")
    return int(width), int(height)
