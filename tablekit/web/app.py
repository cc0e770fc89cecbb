"""The pages' web application (Starlette): a page, its state as JSON, and the state pushed as
server-sent events, for any source of state with a version.

A :class:`Feed` is the one reader of the source for every client: it asks the source for
its state every tenth of a second (and ``/state`` at most as often) in one worker thread
(the source's reading never waits in the server's loop, and no thread is made per client),
encodes it once per change and wakes every ``/events`` stream. Only GET and HEAD are
answered; anything else is refused with 405 and the connection closed, unread.

The table's page is ``state_app(Feed(JournalSource(journal)), page)``; another page (a
club's board) is the same with its own source (``current()`` returning a version that grows
with each change, and a JSON-able dict), its page and, if it needs them, more routes.

A page is served with the state as it is now written into it (its
``<script type="application/json" id="served">`` block), so that it shows the state at once,
before its stream is open, and ``/?static`` shows that state and opens no stream (a
screenshot taken with a headless browser: nothing keeps it loading). :func:`load_page` puts
into a page the script the pages share (``live.js``: the served state, then the stream).

>>> class Fixed:
...     def current(self):
...         return 1, {"hello": "<b>world</b>"}
>>> app = state_app(Feed(Fixed()), b"<p>hi</p>")
>>> [route.path for route in app.routes]
['/', '/state', '/events']
>>> policy = content_policy(b"<style>p {}</style><script>go()</script>").split("; ")
>>> policy[0], policy[1][:19], policy[2][:18]
("default-src 'none'", "script-src 'sha256-", "style-src 'sha256-")
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import json
import math
import re
import time
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from typing import Any, Protocol

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Receive, Scope, Send

POLL_SECONDS = 0.1       # how often the source is asked for a change
KEEPALIVE_SECONDS = 15.0  # a quiet stream says it is still there this often
READ_METHODS = ("GET", "HEAD")
NONE = "'none'"
SERVED = b'<script type="application/json" id="served">null</script>'
"""Where a page takes the state it is served with (a data block: never run, so no hash)."""
LIVE = b"/* live.js */"
"""Where a page takes the script the pages share (before its policy's hashes are taken)."""


class StateSource(Protocol):
    """What a page shows: ``current()`` is (version, state); the version grows with each
    change, the state is a JSON-able dict."""

    def current(self) -> tuple[int, dict[str, Any]]: ...


def state_json(state: Any) -> bytes:
    """``state`` as JSON a browser reads: a number that is not finite (NaN, Infinity: what
    Python's json writes and no browser parses) is written ``null``, never sent as is.

    >>> state_json({"scores": [25000, float("nan")], "at": float("inf")})
    b'{"scores": [25000, null], "at": null}'
    """
    try:
        return json.dumps(state, allow_nan=False).encode()
    except ValueError:
        return json.dumps(_finite(state), allow_nan=False).encode()


def _finite(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(item) for item in value]
    return value


class Feed:
    """The state of ``source`` for every client of one server, read in one worker thread:
    :meth:`now` reads it, :meth:`follow` reads it every :data:`POLL_SECONDS` and wakes the
    streams waiting in :meth:`stream` when it changed."""

    def __init__(self, source: StateSource) -> None:
        self.source = source
        self.version: int | None = None
        self.body = b"{}"
        self.closed = False
        self._read_at = -POLL_SECONDS  # when the source was last read (monotonic)
        self._reader = ThreadPoolExecutor(1, thread_name_prefix="tablekit-web-reader")
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Event | None = None

    async def now(self) -> bytes:
        """The state as JSON, as read at most :data:`POLL_SECONDS` ago (read again if older:
        many clients asking at once cost one reading a tenth of a second)."""
        if time.monotonic() - self._read_at < POLL_SECONDS:
            return self.body
        return await self._read()

    async def _read(self) -> bytes:
        loop = asyncio.get_running_loop()
        version, state = await loop.run_in_executor(self._reader, self.source.current)
        self._read_at = time.monotonic()
        if version != self.version:
            self.version, self.body = version, state_json(state)
            self._wake()
        return self.body

    async def follow(self) -> None:
        """Read the source every :data:`POLL_SECONDS` until :meth:`close`."""
        self._loop = asyncio.get_running_loop()
        try:
            while not self.closed:
                with contextlib.suppress(Exception):  # a reading that failed: the next one
                    await self._read()
                await asyncio.sleep(POLL_SECONDS)
        finally:
            self._reader.shutdown(wait=False)

    async def stream(self) -> AsyncIterator[bytes]:
        """Server-sent events: the state now, then again on each change; a comment when
        quiet for :data:`KEEPALIVE_SECONDS` (so that a gone client is noticed)."""
        body, version = await self.now(), self.version
        yield b"data: " + body + b"\n\n"
        while not self.closed:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(KEEPALIVE_SECONDS):
                    await self._until_changed(version)
            if self.closed:
                return
            if self.version == version:
                yield b": still here\n\n"
            else:
                version = self.version
                yield b"data: " + self.body + b"\n\n"

    async def _until_changed(self, version: int | None) -> None:
        while self.version == version and not self.closed:
            if self._changed is None:
                self._changed = asyncio.Event()
            await self._changed.wait()

    def close(self) -> None:
        """End the streams and the reading; safe to call from any thread."""
        self.closed = True
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop ended meanwhile
                loop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        changed, self._changed = self._changed, None
        if changed is not None:
            changed.set()


def state_app(feed: Feed, page: bytes, routes: Sequence[BaseRoute] = (),
              posts: Callable[[str], bool] | None = None) -> Starlette:
    """The app: ``/`` the page, ``/state`` the state as JSON, ``/events`` its stream,
    and ``routes`` beside them; GET and HEAD only (but a POST of a small form to the paths
    ``posts`` says: the seat pages' presses), the feed followed while it serves."""

    async def home(request: Request) -> Response:
        try:
            state = await feed.now()
        except Exception:  # a reading that failed: the page without it (its stream fills it)
            state = b"null"
        return Response(served_page(page, state), media_type="text/html")

    async def state(request: Request) -> Response:
        return Response(await feed.now(), media_type="application/json")

    async def events(request: Request) -> Response:
        headers = {"content-type": "text/event-stream", "cache-control": "no-cache"}
        if request.method == "HEAD":
            return Response(headers=headers)
        return StreamingResponse(feed.stream(), headers=headers)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        following = asyncio.create_task(feed.follow())
        try:
            yield
        finally:
            feed.close()
            following.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await following

    app = Starlette(routes=[Route("/", home), Route("/state", state),
                            Route("/events", events), *routes],
                    lifespan=lifespan)
    app.add_middleware(ReadOnly, posts=posts)
    return app


POST_BYTES = 1024
"""The longest body a POST may have where one is taken (a press's form is a few words)."""


class ReadOnly:
    """ASGI middleware: a request other than GET or HEAD, or one carrying a body, is
    answered 405 (or 400) and its connection closed, its body never read; except a POST to
    a path ``posts`` takes, with a body of at most :data:`POST_BYTES` of declared length."""

    def __init__(self, app: ASGIApp, posts: Callable[[str], bool] | None = None) -> None:
        self.app = app
        self.posts = posts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = dict(scope["headers"])
            length = headers.get(b"content-length", b"0").strip()
            if (scope["method"] == "POST" and self.posts is not None
                    and self.posts(scope["path"]) and b"transfer-encoding" not in headers
                    and length.isdigit() and int(length) <= POST_BYTES):
                await self.app(scope, receive, send)
                return
            body = length not in (b"0", b"") or b"transfer-encoding" in headers
            if scope["method"] not in READ_METHODS or body:
                refused = scope["method"] not in READ_METHODS
                reply = PlainTextResponse(
                    "read-only\n" if refused else "a request with a body\n",
                    status_code=405 if refused else 400,
                    headers={"allow": ", ".join(READ_METHODS), "connection": "close"})
                await reply(scope, receive, send)
                return
        await self.app(scope, receive, send)


def served_page(page: bytes, state: bytes) -> bytes:
    """``page`` with the JSON ``state`` written into its :data:`SERVED` block, each ``<``,
    ``>`` and ``&`` escaped (a name cannot end the block: it stays text).

    >>> page = served_page(SERVED, b'{"name": "</script><b>"}')
    >>> page.count(b"</script>"), json.loads(page[len(SERVED) - 13:-9])
    (1, {'name': '</script><b>'})
    """
    for char, escaped in ((b"<", b"\\u003c"), (b">", b"\\u003e"), (b"&", b"\\u0026")):
        state = state.replace(char, escaped)
    return page.replace(SERVED, SERVED.replace(b">null<", b">" + state + b"<"), 1)


def load_page(name: str) -> bytes:
    """The page ``name`` of ``tablekit/web``, its :data:`LIVE` line replaced by ``live.js``
    (the script every page ends with: the state it was served with, then its stream).

    >>> page = load_page("page.html")
    >>> LIVE in page, b"new EventSource" in page, page.count(SERVED)
    (False, True, 1)
    """
    folder = resources.files("tablekit.web")
    return folder.joinpath(name).read_bytes().replace(
        LIVE, folder.joinpath("live.js").read_bytes().rstrip(b"\n"))


_INLINE = re.compile(rb"<(script|style)>(.*?)</\1>", re.DOTALL)


def content_policy(page: bytes) -> str:
    """The Content-Security-Policy for ``page``: nothing but its own inline script and style
    (by their hashes) and connections back to this server; no frames, forms or plugins."""
    hashes: dict[bytes, list[str]] = {b"script": [], b"style": []}
    for kind, text in _INLINE.findall(page):
        digest = base64.b64encode(hashlib.sha256(text).digest()).decode()
        hashes[kind].append(f"'sha256-{digest}'")
    return "; ".join([
        "default-src 'none'",
        f"script-src {' '.join(hashes[b'script']) or NONE}",
        f"style-src {' '.join(hashes[b'style']) or NONE}",
        "connect-src 'self'", "img-src 'self'", "base-uri 'none'", "form-action 'none'",
        "frame-ancestors 'none'"])


def security_headers(page: bytes) -> list[tuple[str, str]]:
    """The headers every response carries (the page's policy, no type sniffing)."""
    return [("content-security-policy", content_policy(page)),
            ("x-content-type-options", "nosniff"), ("referrer-policy", "no-referrer")]
