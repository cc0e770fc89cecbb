"""A table's side of the club: the game loop hands over its live state and each finished
game and goes on; a thread of the publisher's own sends them (QoS 1). A finished game waits
in the :class:`~tablekit.club.outbox.Outbox` until the broker acknowledges it (PUBACK),
and what waits there at start (the broker was down, the power was cut) is sent first. What
the organiser tells the table (its seats, the clock) is heard on the same client and handed
to :class:`~tablekit.club.orders.Orders`."""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from tablekit.club.address import Credentials
from tablekit.club.client import open_client
from tablekit.club.orders import Orders
from tablekit.club.outbox import Outbox
from tablekit.club.topics import game_topic, state_topic


class Publisher:
    """Sends one table's state (retained) and games to the broker, never blocking the
    caller: :meth:`send_state` and :meth:`send_game` only keep what is to be sent."""

    def __init__(self, table: str, broker: tuple[str, int], outbox: Outbox,
                 credentials: Credentials | None = None,
                 report: Callable[[str], None] = lambda line: None,
                 orders: Orders | None = None) -> None:
        self.table, self.outbox, self.report = table, outbox, report
        self.orders = orders  # the organiser's seating and clock, heard on the same client
        self.client = open_client(table, broker, credentials, report,
                                  on_ready=self._subscribe if orders else None)
        if orders is not None:
            self.client.on_message = lambda _client, _data, message: orders.take(
                message.topic, message.payload)
        self.client.on_publish = self._on_publish
        self._games: queue.Queue[tuple[str, str, bytes]] = queue.Queue()
        self._state: bytes | None = None
        self._wake = threading.Event()
        self._sent: dict[int, str] = {}  # message id -> its outbox file, until its PUBACK
        self._acked: queue.Queue[int] = queue.Queue()  # PUBACKs, from paho's thread
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name=f"club-{table}", daemon=True)

    def start(self) -> Publisher:
        """Connect in the background and send what waits in the outbox first."""
        for item in self.outbox.waiting(self.table, self.report):
            self._games.put(item)
        if not self._games.empty():
            self.report(f"{self._games.qsize()} game(s) waiting in {self.outbox.folder} "
                        "are sent first")
        self.client.loop_start()
        self._thread.start()
        self._wake.set()
        return self

    def send_state(self, state: dict[str, Any]) -> None:
        """The table's live state (only the latest is sent)."""
        self._state = json.dumps(state, ensure_ascii=False).encode()
        self._wake.set()

    def send_game(self, game_id: str, record: dict[str, Any]) -> None:
        """A finished game: kept in the outbox (on disk) until the broker has it."""
        topic = game_topic(self.table, game_id)
        try:
            name = self.outbox.put(topic, record)
        except OSError as error:  # a full or read-only card: sent from memory, said once
            self.report(f"cannot keep game {game_id} in {self.outbox.folder} "
                        f"({error.strerror or error}): it is sent while this tablekit runs")
            name = ""
        self._games.put((name, topic, json.dumps(record, ensure_ascii=False).encode()))
        self._wake.set()

    def waiting(self) -> int:
        """How many games are not acknowledged by the broker yet."""
        return len(self.outbox.waiting(self.table, self.report))

    def close(self, wait: float = 0.0) -> int:
        """Stop, after waiting up to ``wait`` seconds for the outbox to empty; how many
        games still wait in it (sent when the table next joins the club)."""
        deadline = time.monotonic() + wait
        while self.waiting() and time.monotonic() < deadline:
            time.sleep(0.05)
        self._stopping = True
        self._wake.set()
        self._thread.join(timeout=2)
        self.client.disconnect()
        self.client.loop_stop()
        return self.waiting()

    def _run(self) -> None:
        while not self._stopping:
            self._wake.wait(timeout=1.0)
            self._wake.clear()
            state, self._state = self._state, None
            if state is not None:
                self.client.publish(state_topic(self.table), state, qos=1, retain=True)
            while not self._games.empty():
                name, topic, payload = self._games.get()
                try:
                    self._sent[self.client.publish(topic, payload, qos=1).mid] = name
                except (ValueError, TypeError) as error:  # never the thread's end
                    self.report(f"game on {topic[:80]!r} cannot be sent: {error}")
            while not self._acked.empty():  # taken here: a PUBACK may beat publish's return
                name = self._sent.pop(self._acked.get(), None)
                if name:
                    self.outbox.remove(name)

    def _subscribe(self, client: Any) -> None:
        if self.orders is not None:
            client.subscribe(self.orders.topics())

    def _on_publish(self, _client: Any, _data: Any, mid: int, _reason: Any, _props: Any
                    ) -> None:
        self._acked.put(mid)  # paho holds its own lock here: nothing else is done
        self._wake.set()
