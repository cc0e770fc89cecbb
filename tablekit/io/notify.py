"""systemd notifications: READY at start, WATCHDOG pings from the render loop.

Speaks the sd_notify datagram protocol directly (no dependency); without
``NOTIFY_SOCKET`` (a desktop, a test) every call does nothing.

>>> watchdog = Watchdog(environ={})
>>> watchdog.ready(), watchdog.ping(now=0.0)
(False, False)
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping


def sd_notify(message: str, environ: Mapping[str, str] | None = None) -> bool:
    """Send ``message`` (e.g. ``READY=1``) to systemd; False when not run by systemd."""
    address = (environ if environ is not None else os.environ).get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.connect(address)
        sock.sendall(message.encode())
    return True


class Watchdog:
    """Pings systemd's watchdog at half its interval, from the loop that draws frames."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        self.environ = dict(os.environ if environ is None else environ)
        usec = int(self.environ.get("WATCHDOG_USEC", "0") or 0)
        self.interval = usec / 2e6 if usec else None
        self._last = -1e9

    def ready(self, status: str = "scoreboard running") -> bool:
        return sd_notify(f"READY=1\nSTATUS={status}", self.environ)

    def ping(self, now: float) -> bool:
        if self.interval is None or now - self._last < self.interval:
            return False
        self._last = now
        return sd_notify("WATCHDOG=1", self.environ)
