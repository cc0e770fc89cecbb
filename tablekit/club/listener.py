"""The board's ear: it subscribes to every table's topics and hands each message to the
:class:`~tablekit.club.board.Board` on the caller's thread, acknowledging a game to the
broker only once it is recorded (a board stopped in between is sent it again). What the
organiser tells the tables (seats, the clock) goes through :mod:`tablekit.club.organiser`."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

from tablekit.club.address import Credentials
from tablekit.club.board import Board, NotYet
from tablekit.club.client import open_client
from tablekit.club.topics import GAME_TOPICS, STATE_TOPICS

BOARD_ID = "tablekit-board"


def listen(board: Board, broker: tuple[str, int], credentials: Credentials | None,
           report: Callable[[str], None], stop: threading.Event,
           client_id: str = BOARD_ID) -> None:
    """Feed ``board`` the club's messages until ``stop`` is set."""
    inbox: queue.Queue[Any] = queue.Queue()

    def subscribe(client: Any) -> None:
        client.subscribe([(STATE_TOPICS, 1), (GAME_TOPICS, 1)])

    client = open_client(client_id, broker, credentials, report, manual_ack=True,
                         on_ready=subscribe)
    client.on_message = lambda _client, _data, message: inbox.put(message)
    client.loop_start()
    try:
        while not stop.is_set():
            try:
                message = inbox.get(timeout=0.5)
            except queue.Empty:
                board.tick()
                continue
            if _taken(board, message, report, stop):
                client.ack(message.mid, message.qos)
    finally:
        client.disconnect()
        client.loop_stop()


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
