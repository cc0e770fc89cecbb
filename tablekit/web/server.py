"""The read-only web server: uvicorn serving the pages' Starlette app in a thread of its own,
and :func:`start_web`, which serves the table's page from a process of its own.

The server has one thread and one asyncio loop (and the feed's one reading thread), however
many clients come: at most :data:`MAX_CLIENTS` connections are served at once (beyond, 503),
a kept-alive connection quiet for :data:`KEEPALIVE_SECONDS` is closed, and a request whose
head is not in within :data:`~tablekit.web.protocol.HEAD_SECONDS` is hung up on. Every
response carries the page's Content-Security-Policy. ``tablekit run --web`` serves it in a
process of its own (:func:`start_web`), so that the game's loop shares no interpreter lock
with it; ``tablekit web`` (no loop) in its own thread (:func:`serve_here`).

>>> import tempfile, pathlib, json, urllib.request
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> server = WebServer(("127.0.0.1", 0), JournalSource(folder / "game.jsonl"))
>>> server.start()
>>> with urllib.request.urlopen(f"{server.url}/state") as reply:
...     json.loads(reply.read())["table"]["round"], reply.headers["X-Content-Type-Options"]
('East 1', 'nosniff')
>>> server.stop()
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import socket
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import uvicorn
from starlette.routing import BaseRoute

from tablekit.errors import TablekitError, one_line
from tablekit.web.app import Feed, StateSource, load_page, security_headers, state_app
from tablekit.web.process import PageProcess, serve_command
from tablekit.web.protocol import DeadlineH11Protocol
from tablekit.web.source import JournalSource

__all__ = ["JournalSource", "WebServer", "cannot_listen", "lan_address", "parse_bind",
           "serve_here", "start_web"]

MAX_CLIENTS = 512        # connections (and requests in flight) served at once; beyond: 503
KEEPALIVE_SECONDS = 5    # a kept-alive connection with no next request is closed after this
BACKLOG = 512            # connections waiting to be accepted
STOP_SECONDS = 2         # the longest a stop waits for answers under way


class WebServer:
    """Serves ``source`` with ``page`` (the table's page by default; ``routes`` beside it)
    on ``address`` (host, port), bound at once (:class:`OSError` if it cannot be), in a
    background thread from :meth:`start` to :meth:`stop`."""

    def __init__(self, address: tuple[str, int], source: StateSource,
                 page: bytes | None = None, routes: Sequence[BaseRoute] = (),
                 posts: Callable[[str], bool] | None = None,
                 pages: Sequence[bytes] = ()) -> None:
        """``posts``: the paths a POST is taken at (:func:`~tablekit.web.app.state_app`);
        ``pages``: the other pages ``routes`` serve, whose scripts and styles the policy
        allows too."""
        page = table_page() if page is None else page
        self.feed = Feed(source)
        self.socket = listening(address)
        self.server_address: tuple[str, int] = self.socket.getsockname()[:2]
        config = uvicorn.Config(
            state_app(self.feed, page, routes, posts), http=DeadlineH11Protocol, loop="asyncio",
            ws="none", lifespan="on", interface="asgi3", log_config=None,
            log_level=logging.CRITICAL, access_log=False, server_header=False,
            proxy_headers=False, headers=security_headers(page + b"".join(pages)),
            limit_concurrency=MAX_CLIENTS, timeout_keep_alive=KEEPALIVE_SECONDS,
            timeout_graceful_shutdown=STOP_SECONDS, backlog=BACKLOG)
        self._server = uvicorn.Server(config)
        self._thread: threading.Thread | None = None
        self.error = ""  # why the server ended by itself, in one line

    @property
    def url(self) -> str:
        host, port = self.server_address
        return f"http://{host}:{port}"

    def start(self) -> None:
        """Serve from a thread of its own; back once the server answers."""
        self._thread = threading.Thread(target=self._serve, name="tablekit-web", daemon=True)
        self._thread.start()
        while not self._server.started and self._thread.is_alive():
            time.sleep(0.01)

    @property
    def serving(self) -> bool:
        """Whether the server is up (started, not ended)."""
        return self._server.started and self._thread is not None and self._thread.is_alive()

    def _serve(self) -> None:
        try:
            asyncio.run(self._server.serve(sockets=[self.socket]))
        except BaseException as error:  # said in one line by its watcher
            self.error = one_line(error)

    def stop(self) -> None:
        """End the streams, close the connections and the port, and wait for the thread."""
        self.feed.close()
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(STOP_SECONDS + 3)
        with contextlib.suppress(OSError):
            self.socket.close()


def listening(address: tuple[str, int]) -> socket.socket:
    """A socket listening on ``address`` (its port reusable at once after a stop)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(BACKLOG)
    except OSError:
        sock.close()
        raise
    return sock


def table_page() -> bytes:
    """The table's page (``page.html``)."""
    return load_page("page.html")


def parse_bind(text: str) -> tuple[str, int]:
    """``:8080`` (every interface), ``127.0.0.1:8080`` or ``8080``.

    >>> parse_bind(":8080"), parse_bind("192.168.1.5:80"), parse_bind("8000")
    (('', 8080), ('192.168.1.5', 80), ('127.0.0.1', 8000))
    """
    host, _, port = text.rpartition(":") if ":" in text else ("127.0.0.1", "", text)
    if not port.isdigit() or not 0 <= int(port) < 65536:
        raise TablekitError(f"--web wants [HOST]:PORT, not {text!r}")
    return host, int(port)


def start_web(bind: str | None, journal: Path, league: Path | None,
              report: Any, first: dict[str, Any] | None = None,
              on_press: Callable[[Any], None] | None = None) -> PageProcess | None:
    """Start the page for ``--web [HOST]:PORT`` (None: no page) in a process of its own and
    report where a browser opens it; a port in use (or any address that cannot be listened
    on) raises :class:`TablekitError` naming it, in one line. The page ending by itself is
    ``report``-ed in one line; the game goes on. ``first`` (the seats' keys) serves the
    seat pages too, each press given to ``on_press`` (:mod:`tablekit.web.phones`)."""
    if bind is None:
        return None
    parse_bind(bind)  # a mistyped address: refused here, before a process is started
    page = PageProcess(serve_command(bind, journal, league, phones=first is not None),
                       report, first=first, on_press=on_press)
    announce(page.server_address, report)
    return page


def serve_here(bind: str, journal: Path, league: Path | None, report: Any) -> WebServer:
    """Serve the page for ``--bind [HOST]:PORT`` from a thread of this process (for
    ``tablekit web``, which has no loop to slow), as :func:`start_web` does."""
    host, port = parse_bind(bind)
    try:
        server = WebServer((host, port), JournalSource(journal, league))
    except OSError as error:
        raise TablekitError(cannot_listen(host, port, error)) from None
    server.start()
    announce(server.server_address, report)
    return server


def announce(address: tuple[str, int], report: Any) -> None:
    """Report the address a browser opens for a server listening on ``address``."""
    host, port = address[:2]
    everywhere = host in ("", "0.0.0.0")
    shown = lan_address() if everywhere else host
    on = "; listening on every interface" if everywhere else ""
    report(f"web: the scoreboard is on http://{shown}:{port}/ (read-only{on})")


def cannot_listen(host: str, port: int, error: OSError) -> str:
    """Why the page cannot be served on ``host:port``, and what to do.

    >>> cannot_listen("", 8080, OSError(errno.EADDRINUSE, "Address already in use"))[:38]
    'port 8080 on every interface is in use'
    >>> cannot_listen("10.9.9.9", 80, OSError(errno.EADDRNOTAVAIL, "Cannot assign"))
    'cannot listen on 10.9.9.9:80 (Cannot assign)'
    """
    why = error.strerror or str(error)
    if error.errno == errno.EADDRINUSE:
        return (f"port {port} on {host or 'every interface'} is in use ({why}): stop what "
                "uses it, or choose another port")
    return f"cannot listen on {host or 'every interface'}:{port} ({why})"


def lan_address() -> str:
    """This machine's address on its network, as a phone beside it opens the page: the
    address the system would send from to a private network (a UDP socket connected,
    which sends nothing), else the one its name resolves to, else its name.

    >>> lan_address() not in ("", "0.0.0.0")
    True
    """
    for target in ("10.255.255.255", "192.168.255.255", "172.31.255.255"):
        with contextlib.suppress(OSError), socket.socket(socket.AF_INET,
                                                         socket.SOCK_DGRAM) as probe:
            probe.connect((target, 9))
            address = probe.getsockname()[0]
            if address not in ("0.0.0.0", "") and not address.startswith("127."):
                return address
    name = socket.gethostname()
    with contextlib.suppress(OSError):
        address = socket.gethostbyname(name)
        if not address.startswith("127."):
            return address
    return name or "localhost"
