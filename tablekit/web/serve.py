"""The page in a process of its own, as ``tablekit run --web`` serves it:
``python -m tablekit.web.serve --journal J [--league L] --bind HOST:PORT``.

It binds, then writes one JSON line on its standard output: ``{"address": [HOST, PORT]}``,
or ``{"refused": LINE}`` (why it cannot listen) and ends. It serves until its standard input
ends (the game closes it to stop the page, and a game that dies closes it too) or its parent
changes; a failure on the way is one more line, ``{"failed": LINE}``. It ignores Ctrl-C and
SIGTERM, which reach it with its game (systemd's stop signals the whole service): the game,
stopping, stops it. The game's loop and the page share no interpreter lock, so no client can
slow a step.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

WATCH_SECONDS = 0.5  # how often the page looks whether its game is still there
LINE_BYTES = 64 << 10  # the longest line the game sends (the seats' keys and views)
_saying = threading.Lock()  # the server's thread (a press) and this one


def say(**line: Any) -> None:
    """One line to the game."""
    with _saying:
        print(json.dumps(line), flush=True)


def main(argv: Sequence[str] | None = None,
         wrap: Callable[[Any], Any] | None = None) -> int:
    """Serve the page (the journal's source through ``wrap``, if given) until told to stop."""
    parser = argparse.ArgumentParser(prog="python -m tablekit.web.serve")
    parser.add_argument("--journal", type=Path, required=True)
    parser.add_argument("--league", type=Path, default=None)
    parser.add_argument("--bind", required=True)
    parser.add_argument("--phones", action="store_true",
                        help="serve the seat pages too: the first line on standard input "
                             "holds their keys, later lines new keys and the seats' views; "
                             "each press is a line {\"press\": ...} on standard output")
    args = parser.parse_args(argv)
    try:
        return serve(args, wrap or (lambda source: source))
    except Exception as error:  # the game is told in one line
        from tablekit.errors import one_line

        say(failed=one_line(error))
        return 1


def serve(args: argparse.Namespace, wrap: Callable[[Any], Any]) -> int:
    from tablekit.web.server import JournalSource, WebServer, cannot_listen, parse_bind

    parent = os.getppid()
    for ours in (signal.SIGINT, signal.SIGTERM):
        signal.signal(ours, signal.SIG_IGN)
    host, port = parse_bind(args.bind)
    desk, pages = None, {}
    if args.phones:  # the keys come first: no seat is pressed before they are known
        from tablekit.web.seats import SeatDesk, is_press, seat_page, seat_routes

        desk = SeatDesk(lambda press: say(press=press))
        told(desk, sys.stdin.buffer.readline(LINE_BYTES + 1))
        page = seat_page()
        pages = {"routes": seat_routes(desk, page), "posts": is_press, "pages": [page]}
    try:
        server = WebServer((host, port), wrap(JournalSource(args.journal, args.league)),
                           **pages)
    except OSError as error:
        say(refused=cannot_listen(host, port, error))
        return 2
    server.start()
    if not server.serving:
        say(refused=f"the page did not start ({server.error or 'its server ended'})")
        return 2
    say(address=list(server.server_address))
    ended = threading.Event()

    def listen() -> None:  # the game's lines, until it closes our input
        for line in sys.stdin.buffer:
            if desk is not None:
                told(desk, line)
        ended.set()

    threading.Thread(target=listen, daemon=True, name="tablekit-web-parent").start()
    try:
        while not ended.wait(WATCH_SECONDS) and os.getppid() == parent:
            if not server.serving:
                say(failed=f"its server ended ({server.error or 'no reason given'})")
                return 1
    finally:
        server.stop()
    return 0


def told(desk: Any, line: bytes) -> None:
    """A line from the game for the seats (keys, views); one that is not JSON is left out."""
    from tablekit.untrusted import Untrusted
    from tablekit.untrusted.json_text import parse_json

    try:
        message = parse_json(line, max_bytes=LINE_BYTES)
    except Untrusted:
        return
    if isinstance(message, dict):
        desk.update(message)


if __name__ == "__main__":
    sys.exit(main())
