"""The organiser's word to the tables: retained messages (a table's seating, the round's
clock) sent once through the club's client, QoS 1, waited for until the broker has them.
A table that joins later, or comes back after a restart, is given them by the broker."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from typing import Any

from tablekit.club.address import ClubError, Credentials
from tablekit.club.client import open_client

ORGANISER_ID = "tablekit-organiser"
WAIT_SECONDS = 10.0  # how long the broker is waited for before the order is refused


def send_retained(broker: tuple[str, int], credentials: Credentials | None,
                  messages: Sequence[tuple[str, dict[str, Any]]],
                  report: Callable[[str], None] = lambda line: None,
                  wait: float = WAIT_SECONDS) -> None:
    """Publish each (topic, JSON object) retained and wait for the broker's PUBACKs; a broker
    that does not take them all within ``wait`` seconds is one :class:`ClubError` line."""
    said: list[str] = []

    def heard(line: str) -> None:
        said.append(line.split("; tried again")[0])
        report(line)

    client = open_client(ORGANISER_ID, broker, credentials, heard, who="the organiser")
    client.loop_start()
    try:
        deadline = time.monotonic() + wait
        while not client.is_connected():
            if time.monotonic() > deadline:
                why = f" ({said[-1]})" if said else ""
                raise ClubError(f"the broker mqtt://{broker[0]}:{broker[1]} did not answer "
                                f"within {wait:g} s{why}: nothing was sent to the tables")
            time.sleep(0.05)
        sent = [client.publish(topic, json.dumps(data, ensure_ascii=False).encode(),
                               qos=1, retain=True) for topic, data in messages]
        for info in sent:
            info.wait_for_publish(max(deadline - time.monotonic(), 0.1))
            if not info.is_published():
                raise ClubError(f"the broker mqtt://{broker[0]}:{broker[1]} did not take "
                                f"the orders within {wait:g} s: send them again")
    finally:
        client.disconnect()
        client.loop_stop()
