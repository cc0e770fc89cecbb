"""The read-only web server: one page, its state as JSON, and server-sent events.

Only GET is answered (anything else is 405): the page cannot change the game. Its state
comes from a :class:`JournalSource`, which reads the game journal (and the league file)
again whenever they change on disk, so the server never touches the running game.
``/events`` pushes the state within a tenth of a second of a change.

>>> import tempfile, pathlib, json, urllib.request
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> server = WebServer(("127.0.0.1", 0), JournalSource(folder / "game.jsonl"))
>>> server.start()
>>> with urllib.request.urlopen(f"{server.url}/state") as reply:
...     json.loads(reply.read())["table"]["round"]
'East 1'
>>> server.stop()
"""

from __future__ import annotations

import contextlib
import errno
import json
import socket
import sqlite3
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any

from tablekit.errors import TablekitError, one_line
from tablekit.game.session import JournalFollower
from tablekit.game.state import TableState
from tablekit.web.snapshot import evening_snapshot, league_snapshot, table_snapshot

POLL_SECONDS = 0.1
KEEPALIVE_SECONDS = 15.0


class JournalSource:
    """The page's state from a game journal and an optional league file, re-read on change."""

    def __init__(self, journal: Path, league: Path | None = None) -> None:
        self.journal = Path(journal)
        self.league = Path(league) if league else None
        self._lock = threading.Lock()
        self._stamp: tuple = ()
        self._snapshot: dict[str, Any] = {}
        self._follower = JournalFollower(self.journal)
        self.version = 0

    def current(self) -> tuple[int, dict[str, Any]]:
        """The state's version (it grows with every change) and the state: the table read
        again when the journal changed, the evening and league when the league did."""
        with self._lock:
            journal, league = _stamp(self.journal), _stamp(self.league)
            if (journal, league) != self._stamp:
                was = self._stamp or ((), ())
                table = self._snapshot.get("table") if journal == was[0] else None
                records = ({k: self._snapshot[k] for k in ("evening", "league", "league_note")}
                           if league == was[1] and self._snapshot else None)
                self._snapshot = {"table": table or self._table(),
                                  **(records or self._records())}
                unread = self._snapshot.pop("unread", False)
                self._stamp = (journal, ("unread",) if unread else league)
                self.version += 1
            return self.version, self._snapshot

    def _table(self) -> dict[str, Any]:
        state = TableState.new()
        # a journal caught mid-write is read again at its next change
        with contextlib.suppress(TablekitError):
            state = self._follower.state()
        return table_snapshot(state)

    def _records(self) -> dict[str, Any]:
        """The evening and the league, read without writing anything (a league of another
        schema: what can be read, and one line saying so)."""
        records: dict[str, Any] = {"evening": [], "league": [], "league_note": ""}
        # a league file still empty is one being made: nothing to show yet
        if self.league is not None and self.league.exists() and self.league.stat().st_size:
            from tablekit.league.database import LeagueBusy, behind, busy, read_only

            # a league locked by the game's own write shows none this time, and is read
            # again at the next look; a damaged one says so until it changes
            try:
                db = read_only(self.league)
                try:
                    records["league_note"] = behind(db, self.league) or ""
                    records["evening"] = evening_snapshot(db)
                    records["league"] = league_snapshot(db)
                finally:
                    db.close()
            except (TablekitError, sqlite3.Error, OSError) as error:
                if isinstance(error, LeagueBusy) or busy(self.league, error):
                    records["unread"] = True
                elif not records["league_note"]:
                    records["league_note"] = (str(error) if isinstance(error, TablekitError)
                                              else f"the league file {self.league} cannot be "
                                                   f"read ({one_line(error)})")
        return records


def _stamp(path: Path | None) -> tuple:
    if path is None or not path.exists():
        return ()
    info = path.stat()
    wal = path.with_name(path.name + "-wal")
    extra = (wal.stat().st_mtime_ns, wal.stat().st_size) if wal.exists() else ()
    return (info.st_mtime_ns, info.st_size, *extra)


class WebServer(ThreadingHTTPServer):
    """Serves the page on ``address`` (host, port) in a background thread."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], source: JournalSource) -> None:
        super().__init__(address, _Handler)
        self.source = source
        self.stopping = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> None:
        self._thread = threading.Thread(target=self.serve_forever, name="tablekit-web",
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self.stopping.set()
        self.shutdown()
        self.server_close()


def parse_bind(text: str) -> tuple[str, int]:
    """``:8080`` (every interface), ``127.0.0.1:8080`` or ``8080``.

    >>> parse_bind(":8080"), parse_bind("192.168.1.5:80"), parse_bind("8000")
    (('', 8080), ('192.168.1.5', 80), ('127.0.0.1', 8000))
    """
    host, _, port = text.rpartition(":") if ":" in text else ("127.0.0.1", "", text)
    if not port.isdigit() or not 0 <= int(port) < 65536:
        raise TablekitError(f"--web wants [HOST]:PORT, not {text!r}")
    return host, int(port)


class _Handler(BaseHTTPRequestHandler):
    server: WebServer
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        route = self.path.split("?")[0]
        if route == "/":
            self._send(HTTPStatus.OK, "text/html; charset=utf-8", _page())
        elif route == "/state":
            _, snapshot = self.server.source.current()
            self._send(HTTPStatus.OK, "application/json", json.dumps(snapshot).encode())
        elif route == "/events":
            self._events()
        else:
            self._send(HTTPStatus.NOT_FOUND, "text/plain", b"not found\n")

    def _refuse(self) -> None:
        self._send(HTTPStatus.METHOD_NOT_ALLOWED, "text/plain", b"read-only\n",
                   {"Allow": "GET"})

    do_POST = do_PUT = do_DELETE = do_PATCH = _refuse

    def _send(self, status: HTTPStatus, kind: str, body: bytes,
              headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Content-Type-Options", "nosniff")
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(body)

    def _events(self) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        sent, quiet_since = -1, time.monotonic()
        try:
            while not self.server.stopping.is_set():
                version, snapshot = self.server.source.current()
                if version != sent:
                    self.wfile.write(f"data: {json.dumps(snapshot)}\n\n".encode())
                    self.wfile.flush()
                    sent, quiet_since = version, time.monotonic()
                elif time.monotonic() - quiet_since > KEEPALIVE_SECONDS:
                    self.wfile.write(b": still here\n\n")
                    self.wfile.flush()
                    quiet_since = time.monotonic()
                time.sleep(POLL_SECONDS)
        except (BrokenPipeError, ConnectionResetError):
            return

    def log_message(self, format: str, *args: Any) -> None:
        return  # the table's terminal is not a web log


def _page() -> bytes:
    return resources.files("tablekit.web").joinpath("page.html").read_bytes()


def start_web(bind: str | None, journal: Path, league: Path | None,
              report: Any) -> WebServer | None:
    """Start the page for ``--web [HOST]:PORT`` (None: no page) and report where a browser
    opens it; a port in use (or any address that cannot be listened on) raises
    :class:`TablekitError` naming it, in one line."""
    if bind is None:
        return None
    host, port = parse_bind(bind)
    try:
        server = WebServer((host, port), JournalSource(journal, league))
    except OSError as error:
        raise TablekitError(cannot_listen(host, port, error)) from None
    server.start()
    host, port = server.server_address[:2]
    everywhere = host in ("", "0.0.0.0")
    shown = lan_address() if everywhere else host
    on = "; listening on every interface" if everywhere else ""
    report(f"web: the scoreboard is on http://{shown}:{port}/ (read-only{on})")
    return server


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
