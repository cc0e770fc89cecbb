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


def say(**line: Any) -> None:
    """One line to the game."""
    print(json.dumps(line), flush=True)


def main(argv: Sequence[str] | None = None,
         wrap: Callable[[Any], Any] | None = None) -> int:
    """Serve the page (the journal's source through ``wrap``, if given) until told to stop."""
    parser = argparse.ArgumentParser(prog="python -m tablekit.web.serve")
    parser.add_argument("--journal", type=Path, required=True)
    parser.add_argument("--league", type=Path, default=None)
    parser.add_argument("--bind", required=True)
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
    try:
        server = WebServer((host, port), wrap(JournalSource(args.journal, args.league)))
    except OSError as error:
        say(refused=cannot_listen(host, port, error))
        return 2
    server.start()
    if not server.serving:
        say(refused=f"the page did not start ({server.error or 'its server ended'})")
        return 2
    say(address=list(server.server_address))
    ended = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.buffer.read(), ended.set()), daemon=True,
                     name="tablekit-web-parent").start()
    try:
        while not ended.wait(WATCH_SECONDS) and os.getppid() == parent:
            if not server.serving:
                say(failed=f"its server ended ({server.error or 'no reason given'})")
                return 1
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
