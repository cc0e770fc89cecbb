"""The seat pages: a phone's buttons for one seat box, served beside the read-only page
(``tablekit run --buttons phones --web ...``; :mod:`tablekit.io.phones` is the game's side).

- ``GET /seat/<wind>/<KEY>``: the page (RIICHI, CALL, WIN, OK, UNDO; the seat's wind, points
  and what the scoreboard's legend says now), served with the seat as it is now;
  ``/state`` and ``/events`` under it: that seat as JSON, and as server-sent events.
- ``POST /seat/<wind>/<KEY>/press`` with the form ``button=...`` (and ``held=1``): a press,
  handed to the game through :attr:`SeatDesk.send`. A wrong or old key is 403 and nothing
  is sent; a form that is not a press is 400; a request from a page of another origin is
  403 unless its body carries the key; more than :data:`BURST` presses at once from one seat
  (then :data:`RATE` a second) are 429.

The keys and each seat's view come from the game (:meth:`SeatDesk.update`, from any thread);
a key is compared in constant time, and never logged (the server keeps no access log).

>>> sent = []
>>> desk = SeatDesk(sent.append, clock=lambda: 0.0)
>>> desk.update({"keys": {"east": "K0", "south": "K1"}})
>>> desk.seat("east", "K0"), desk.seat("east", "K1"), desk.seat("west", "K0")
(0, None, None)
>>> [desk.allowed(0) for _ in range(BURST + 1)][-2:]
[0.0, 0.25]
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import threading
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from tablekit.untrusted import Untrusted
from tablekit.untrusted.press import FORM_BYTES, WINDS, press_form, seat_wind
from tablekit.web.app import KEEPALIVE_SECONDS, load_page, served_page, state_json

RATE = 4.0   # presses a second a seat may keep up (a person presses about one)
BURST = 8    # presses a seat may make at once
PRESS_PATH = "/seat/{wind}/{key}/press"
NOT_A_SEAT = "this address is not (or no longer) a seat: open the one the scoreboard shows\n"
CROSS_SITE = "a press from another site is refused\n"
PRIVATE = {"cache-control": "no-store"}


def seat_page() -> bytes:
    """The seat page (``seat_page.html``)."""
    return load_page("seat_page.html")


def is_press(path: str) -> bool:
    """Whether ``path`` is a seat's press (the one place a POST is taken).

    >>> is_press("/seat/east/abc/press"), is_press("/seat/east/press"), is_press("/state")
    (True, False, False)
    """
    parts = path.split("/")
    return len(parts) == 5 and parts[:2] == ["", "seat"] and parts[4] == "press"


class SeatDesk:
    """The seats' keys and views in the page's process, and the presses sent on to the game
    (``send``, one dict a press: ``{"box": 0, "button": "ok", "held": False}``)."""

    def __init__(self, send: Callable[[dict[str, Any]], None],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.send = send
        self.clock = clock
        self.keys: dict[str, str] = {}
        self.views: dict[str, dict[str, Any]] = {}
        self.version = 0
        self._lock = threading.Lock()
        self._buckets: dict[int, tuple[float, float]] = {}  # box: (tokens, at)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Event | None = None

    def update(self, message: dict[str, Any]) -> None:
        """New keys (``{"keys": {"east": KEY, ...}}``: those of the seats in use; any other
        address is refused from now on) and/or views (``{"seats": {"east": {...}}}``); from
        any thread. What is not of that shape is left out."""
        keys, views = message.get("keys"), message.get("seats")
        with self._lock:
            if isinstance(keys, dict):
                self.keys = {wind: key for wind, key in keys.items()
                             if wind in WINDS and isinstance(key, str) and key}
            if isinstance(views, dict):
                self.views = {wind: view for wind, view in views.items()
                              if wind in WINDS and isinstance(view, dict)}
            self.version += 1
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._wake)

    def seat(self, wind: str, key: str) -> int | None:
        """The seat box ``wind``'s address names when ``key`` is its key now, else None."""
        if seat_wind(wind) is None:
            return None
        with self._lock:
            kept = self.keys.get(wind)
        if kept is None or not hmac.compare_digest(kept.encode(), key.encode()):
            return None
        return WINDS.index(wind)

    def view(self, wind: str) -> dict[str, Any]:
        with self._lock:
            return self.views.get(wind) or {"box": wind.capitalize(),
                                            "wind": wind.capitalize(), "name": "", "points": 0,
                                            "round": "", "legend": "", "message": "",
                                            "dealer": False, "riichi": False}

    def allowed(self, box: int) -> float:
        """0.0 when seat box ``box`` may press now (the press counted), else the seconds
        to wait: each seat has :data:`BURST` presses, refilled at :data:`RATE` a second."""
        now = self.clock()
        with self._lock:
            tokens, at = self._buckets.get(box, (float(BURST), now))
            tokens = min(float(BURST), tokens + (now - at) * RATE)
            if tokens < 1.0:
                self._buckets[box] = (tokens, now)
                return (1.0 - tokens) / RATE
            self._buckets[box] = (tokens - 1.0, now)
            return 0.0

    async def stream(self, wind: str, key: str) -> AsyncIterator[bytes]:
        """The seat's view now, then again at each change, while ``key`` is its key (a key
        renewed ends the stream; the page then learns its address is gone)."""
        self._loop = asyncio.get_running_loop()
        version = self.version
        yield b"data: " + state_json(self.view(wind)) + b"\n\n"
        while self.seat(wind, key) is not None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(KEEPALIVE_SECONDS):
                    await self._until_changed(version)
            if self.seat(wind, key) is None:
                return
            if self.version == version:
                yield b": still here\n\n"
            else:
                version = self.version
                yield b"data: " + state_json(self.view(wind)) + b"\n\n"

    async def _until_changed(self, version: int) -> None:
        while self.version == version:
            if self._changed is None:
                self._changed = asyncio.Event()
            await self._changed.wait()

    def _wake(self) -> None:
        changed, self._changed = self._changed, None
        if changed is not None:
            changed.set()


def same_origin(request: Request) -> bool:
    """Whether a browser says the request comes from a page of this server (a program that
    is no browser says nothing, and is taken: it has the address, the key in it)."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return False
    origin = request.headers.get("origin")
    return origin is None or origin == f"http://{request.headers.get('host', '')}"


def seat_routes(desk: SeatDesk, page: bytes | None = None) -> list[Route]:
    """The seat pages' routes for a :func:`~tablekit.web.app.state_app`."""
    page = seat_page() if page is None else page

    def refused() -> Response:
        return PlainTextResponse(NOT_A_SEAT, status_code=403, headers=PRIVATE)

    async def seat(request: Request) -> Response:
        wind, key = request.path_params["wind"], request.path_params["key"]
        if desk.seat(wind, key) is None:
            return refused()
        return Response(served_page(page, state_json(desk.view(wind))),
                        media_type="text/html", headers=PRIVATE)

    async def state(request: Request) -> Response:
        wind, key = request.path_params["wind"], request.path_params["key"]
        if desk.seat(wind, key) is None:
            return refused()
        return Response(json.dumps(desk.view(wind)), media_type="application/json",
                        headers=PRIVATE)

    async def events(request: Request) -> Response:
        wind, key = request.path_params["wind"], request.path_params["key"]
        if desk.seat(wind, key) is None:
            return refused()
        headers = {"content-type": "text/event-stream", **PRIVATE}
        if request.method == "HEAD":
            return Response(headers=headers)
        return StreamingResponse(desk.stream(wind, key), headers=headers)

    async def press(request: Request) -> Response:
        wind, key = request.path_params["wind"], request.path_params["key"]
        box = desk.seat(wind, key)
        if box is None:
            return refused()
        try:
            form = press_form(await request.body())
        except Untrusted as error:
            return PlainTextResponse(f"not a press: {error}\n", status_code=400,
                                     headers=PRIVATE)
        if not same_origin(request) and (
                form.key is None or not hmac.compare_digest(form.key.encode(), key.encode())):
            return PlainTextResponse(CROSS_SITE, status_code=403, headers=PRIVATE)
        wait = desk.allowed(box)
        if wait:
            return PlainTextResponse(
                "too many presses from this seat: wait a moment\n", status_code=429,
                headers={"retry-after": str(max(1, round(wait))), **PRIVATE})
        desk.send({"box": box, "button": form.button, "held": form.held})
        return PlainTextResponse("sent\n", headers=PRIVATE)

    return [Route("/seat/{wind}/{key}", seat), Route("/seat/{wind}/{key}/state", state),
            Route("/seat/{wind}/{key}/events", events),
            Route(PRESS_PATH, press, methods=["POST"])]


__all__ = ["BURST", "FORM_BYTES", "RATE", "SeatDesk", "is_press", "same_origin",
           "seat_page", "seat_routes"]
