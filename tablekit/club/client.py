"""The paho-mqtt client a table or the board talks to the broker with: a persistent session
(the broker keeps what it owes a client that is away), reconnected with a growing delay,
its network loop on paho's own thread."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from paho.mqtt import client as mqtt

from tablekit.club.address import Credentials

KEEPALIVE = 15        # seconds between pings: a dead broker is noticed within about 1.5x it
RECONNECT = (1, 16)   # seconds before trying again: doubled from the first up to the second


def open_client(client_id: str, broker: tuple[str, int], credentials: Credentials | None,
                report: Callable[[str], None], manual_ack: bool = False,
                on_ready: Callable[[Any], None] | None = None, who: str | None = None,
                on_failure: Callable[[str], None] | None = None) -> Any:
    """A client for ``broker`` under ``client_id``, connecting in the background (a broker
    that is down or unreachable is said once in one line and tried again until it answers;
    each loss and return is said once); ``on_ready(client)`` after each connection,
    ``on_failure(line)`` after each connection that failed (why, in one line). ``who``
    names the client in what is said (``table <client_id>`` by default).

    A broker that runs with ``use_username_as_clientid`` (the club's, as shipped) takes the
    user name as the client id, whatever ``client_id`` is: the session is the user's."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                         clean_session=False, protocol=mqtt.MQTTv311, manual_ack=manual_ack)
    client.max_queued_messages_set(0)  # every game waits for the broker, however many
    client.reconnect_delay_set(*RECONNECT)
    if credentials is not None:
        client.username_pw_set(credentials.username, credentials.password)
    where = f"mqtt://{broker[0]}:{broker[1]}"
    who = who or f"table {client_id}"
    said = {"down": False}

    def failed(line: str) -> None:
        if not said["down"]:
            report(f"{line}; tried again until it answers")
        said["down"] = True
        if on_failure is not None:
            on_failure(line)

    def on_connect(_client: Any, _data: Any, _flags: Any, reason: Any, _props: Any) -> None:
        if reason.is_failure:
            failed(refused(where, who, str(reason), credentials))
            return
        report(f"connected to the broker {where}")
        said["down"] = False
        if on_ready is not None:
            on_ready(_client)

    def on_connect_fail(_client: Any, _data: Any) -> None:
        failed(f"cannot reach the broker {where}")

    def on_disconnect(_client: Any, _data: Any, _flags: Any, reason: Any, _props: Any) -> None:
        if reason.is_failure and not said["down"]:
            report(f"lost the broker {where}; tried again until it answers")
            said["down"] = True

    client.on_connect, client.on_connect_fail = on_connect, on_connect_fail
    client.on_disconnect = on_disconnect
    client.connect_async(broker[0], broker[1], keepalive=KEEPALIVE)
    return client


def refused(where: str, who: str, reason: str, credentials: Credentials | None) -> str:
    """What a broker's refusal reads as, in one line, with what to do.

    >>> refused("mqtt://h:1883", "table 2", "Not authorized", None)
    'the broker mqtt://h:1883 refused table 2: not authorized (give --club-auth FILE: the \
user name and password of table 2)'
    >>> refused("mqtt://h:1883", "the board", "Not authorized", Credentials("board", "x"))
    "the broker mqtt://h:1883 refused the board: not authorized (check the user 'board' and \
its password in --club-auth)"
    """
    reason = reason[:1].lower() + reason[1:]
    if credentials is None:
        hint = f"give --club-auth FILE: the user name and password of {who}"
    else:
        hint = f"check the user {credentials.username!r} and its password in --club-auth"
    return f"the broker {where} refused {who}: {reason} ({hint})"
