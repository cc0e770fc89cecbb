"""uvicorn's HTTP/1.1 (h11) with a deadline on each request's head and on each send, against
slow clients.

uvicorn closes a kept-alive connection that stays quiet, but waits for ever on one that
sends its request a byte at a time (and every byte puts off the keep-alive timeout): a few
hundred such clients would hold every place the server has. Here a client must have sent a
whole request line and headers within :data:`HEAD_SECONDS` of connecting, or of its last
answer; otherwise it is hung up on. And a client that keeps ``/events`` open but stops reading
(its buffers full, the server's writing paused) for :data:`SEND_SECONDS` is dropped, its
unsent data with it.

>>> issubclass(DeadlineH11Protocol, H11Protocol), HEAD_SECONDS, SEND_SECONDS
(True, 10.0, 10.0)
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEAD_SECONDS = 10.0
SEND_SECONDS = 10.0  # the longest the server's writing to one client may stay paused


class DeadlineH11Protocol(H11Protocol):
    """:class:`H11Protocol`, hanging up on a request whose head is not in on time and on a
    client that reads nothing for :data:`SEND_SECONDS` while there is something to send."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._stalled: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._reading_again()
        super().connection_lost(exc)

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._stalled is None:
            self._stalled = self.loop.call_later(SEND_SECONDS, self._not_reading)

    def resume_writing(self) -> None:
        self._reading_again()
        super().resume_writing()

    def _reading_again(self) -> None:
        if self._stalled is not None:
            self._stalled.cancel()
            self._stalled = None

    def _not_reading(self) -> None:
        self._stalled = None
        self.transport.abort()  # not close(): that would wait to send what is waiting

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state is not h11.IDLE:  # the head is in: the deadline is met
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self._arm()  # the next request on this connection has its own deadline

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(HEAD_SECONDS, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()
