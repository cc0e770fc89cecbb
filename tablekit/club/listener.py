"""The board's ear: it subscribes to every table's topics and hands each message to the
:class:`~tablekit.club.board.Board` on the caller's thread, acknowledging a game to the
broker only once it is recorded (a board stopped in between is sent it again). What the
organiser tells the tables (seats, the clock) goes through :mod:`tablekit.club.organiser`.

The board takes the tables' states at QoS 0 and their games at QoS 1: the broker keeps only
the games for a board that is away or behind (a state is retained: the board is given each
table's latest when it subscribes again), so a flood of states never fills the queue the
broker keeps for the board (``max_queued_messages``) and pushes a game out of it."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

from tablekit.club.address import ClubError, Credentials
from tablekit.club.board import Board, NotYet
from tablekit.club.client import open_client
from tablekit.club.topics import GAME_TOPICS, STATE_TOPICS

BOARD_ID = "tablekit-board"  # the broker as shipped takes the user's name instead
SUBSCRIPTIONS = [(STATE_TOPICS, 0), (GAME_TOPICS, 1)]
FIRST_WAIT = 15.0  # seconds the board waits for its first connection before it stops


class Ear:
    """The board's client, connecting as soon as it is made; its messages wait in ``inbox``
    until :func:`listen` hands them to the board."""

    def __init__(self, broker: tuple[str, int], credentials: Credentials | None,
                 report: Callable[[str], None], client_id: str = BOARD_ID,
                 say_failures: bool = False) -> None:
        self.where = f"mqtt://{broker[0]}:{broker[1]}"
        self.inbox: queue.Queue[Any] = queue.Queue()
        self._first: queue.Queue[str | None] = queue.Queue()  # None: connected
        # False until the first connection (first_connection says how it went); then each
        # loss and return is said
        self._speaking = say_failures
        self._report = report
        self.client = open_client(client_id, broker, credentials, self._said, manual_ack=True,
                                  on_ready=self._ready, who="the board",
                                  on_failure=self._failed)
        self.client.on_message = lambda _client, _data, message: self.inbox.put(message)
        self.client.loop_start()

    def first_connection(self, wait: float = FIRST_WAIT) -> None:
        """Wait for the first connection; a broker that refuses it, cannot be reached or
        does not answer within ``wait`` seconds closes the client and is one
        :class:`ClubError` line."""
        try:
            why = self._first.get(timeout=wait)
        except queue.Empty:
            why = f"the broker {self.where} did not answer within {wait:g} s"
        if why is not None:
            self.close()
            raise ClubError(why)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def _ready(self, client: Any) -> None:
        client.subscribe(SUBSCRIPTIONS)
        if not self._speaking:
            self._first.put(None)
        self._speaking = True

    def _failed(self, line: str) -> None:
        if not self._speaking:
            self._first.put(line)

    def _said(self, line: str) -> None:
        # the first connection, or its failure, is the caller's to say (first_connection)
        if self._speaking:
            self._report(line)


def listen(board: Board, broker: tuple[str, int], credentials: Credentials | None,
           report: Callable[[str], None], stop: threading.Event,
           client_id: str = BOARD_ID, ear: Ear | None = None) -> None:
    """Feed ``board`` the club's messages until ``stop`` is set (through ``ear``, already
    connected, or a new one that tries the broker until it answers)."""
    if ear is None:
        ear = Ear(broker, credentials, report, client_id, say_failures=True)
    try:
        while not stop.is_set():
            try:
                message = ear.inbox.get(timeout=0.5)
            except queue.Empty:
                board.tick()
                continue
            if _taken(board, message, report, stop):
                ear.client.ack(message.mid, message.qos)
    finally:
        ear.close()


RETRY_SECONDS = 2.0  # a game the league could not take is tried again this often


def _taken(board: Board, message: Any, report: Callable[[str], None],
           stop: threading.Event) -> bool:
    """Give ``board`` the message until it takes it (a locked league is waited for, said
    once); False when stopped first (the broker gives it again)."""
    said = False
    while True:
        try:
            board.take(message.topic, message.payload)
            return True
        except NotYet as error:
            if not said:
                report(f"{error}; tried again every {RETRY_SECONDS:g} s")
                said = True
            if stop.wait(RETRY_SECONDS):
                return False
