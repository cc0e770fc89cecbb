"""A table's ear for the organiser: its seating for the round and the round's clock, both
retained on the broker, kept here as they come (on the client's thread) for the game loop
to read.

>>> orders = Orders("2")
>>> orders.take("tablekit/club/tables/2/seating", b'{"round": 3, "seats": ["A", "B", "C", "D"],'
...             b' "text": "Round 3, table 2: East A, South B, West C, North D"}')
>>> orders.seating["round"], orders.version
(3, 1)
>>> orders.take("tablekit/club/tables/2/clock", b'{"round": 3, "started": 100.0, "minutes": 60,'
...             b' "extra": {"2": 5}}')
>>> orders.clock_for()
(100.0, 65, 'finish_hand')
>>> orders.take("tablekit/club/tables/2/clock", b'not json')
>>> orders.clock_for(), orders.refused
((100.0, 65, 'finish_hand'), 1)
"""

from __future__ import annotations

import json
import threading
from typing import Any

from tablekit.club.topics import clock_topic, seating_topic


class Orders:
    """The latest seating and clock (None: none yet); ``version`` grows with each."""

    def __init__(self, table: str) -> None:
        self.table = table
        self.seating: dict[str, Any] | None = None
        self.clock: dict[str, Any] | None = None
        self.version = 0
        self.refused = 0
        self._lock = threading.Lock()

    def topics(self) -> list[tuple[str, int]]:
        """What the table subscribes to (QoS 1)."""
        return [(seating_topic(self.table), 1), (clock_topic(self.table), 1)]

    def take(self, topic: str, payload: bytes) -> None:
        """One message (on paho's thread); one that is not a JSON object is counted, not
        kept (an empty payload clears the order: the organiser took it back)."""
        try:
            data = json.loads(payload) if payload else None
            if data is not None and not isinstance(data, dict):
                raise ValueError("not an object")
        except ValueError:
            self.refused += 1
            return
        with self._lock:
            if topic == clock_topic(self.table):
                self.clock = data
            elif topic == seating_topic(self.table):
                if data is not None and not _four_names(data.get("seats")):
                    self.refused += 1
                    return
                self.seating = data
            else:
                return
            self.version += 1

    def clock_for(self) -> tuple[float, int, str] | None:
        """This table's clock: (start, minutes with its extra time, end-of-time policy);
        None when the organiser has not started one."""
        with self._lock:
            clock = self.clock
        try:
            if not clock or clock.get("started") is None or not clock.get("minutes"):
                return None
            extra = int((clock.get("extra") or {}).get(self.table, 0))
            return (float(clock["started"]), int(clock["minutes"]) + extra,
                    str(clock.get("end_of_time") or "finish_hand"))
        except (TypeError, ValueError, AttributeError):
            return None


def _four_names(seats: Any) -> bool:
    return (isinstance(seats, list) and len(seats) == 4
            and all(isinstance(name, str) and name for name in seats) and len(set(seats)) == 4)
