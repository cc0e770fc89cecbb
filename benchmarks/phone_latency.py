"""From a press on a phone to the scoreboard's change (#49): 4 phones pressing, 200 page viewers.

Usage: python benchmarks/phone_latency.py [--presses 120] [--every 0.5] [--viewers 200]
                                          [--display render|png|none] [--frame-wait]

The game runs here as ``tablekit run --buttons phones --web 127.0.0.1:0`` runs it: the loop
(:class:`~tablekit.app.loop.App`, a step every 50 ms) on a fresh journal with no camera, the
scoreboard drawn at each change (``--display render``, the default: rendered into an 800x480
surface, as a window or the Pi's screen draws it, less the flip; ``png``: the PNG file
``tablekit run`` writes without a screen, rendered and saved; ``none``: not drawn), the page
and the seat pages served from a process of their own
(:func:`~tablekit.web.phones.start_phone_web`), each press
coming back through :class:`~tablekit.web.phones.PhoneSeats` onto the loop's inbox and waking
the loop (``--frame-wait``: not woken, the press waits for the next step, 50 ms at most).

The clients run in a third process (asyncio, no thread each): ``--viewers`` viewers of the
read-only page, each holding ``/events`` open and polling ``/state`` every two seconds on a
second connection, and four phones, each holding its seat's ``/events`` open (as the seat
page does) and pressing in turn, ``--every`` seconds apart: OK (deal the hand), then UNDO
(take it back), and so on, so that every press changes the scoreboard.

A press's latency is from just before its POST is written to the end of the loop's step in
which the scoreboard changed (after the new screen was drawn; ``time.monotonic``, one clock
for the three processes). Also measured: to the pressing phone's stream bringing its seat's
new view (what the phone shows), and the POST's answer. Prints one JSON object (ms: p50,
p95, max).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from bisect import bisect_left
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

STATE_EVERY = 2.0  # a viewer's /state poll


def ms(values: list[float]) -> dict[str, float]:
    """p50, p95 and max of ``values`` (seconds) in milliseconds.

    >>> ms([0.001, 0.002, 0.003, 0.004])
    {'p50': 3.0, 'p95': 4.0, 'max': 4.0, 'n': 4}
    """
    if not values:
        return {}
    ordered = sorted(values)
    return {"p50": round(1000 * ordered[len(ordered) // 2], 1),
            "p95": round(1000 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1),
            "max": round(1000 * ordered[-1], 1), "n": len(ordered)}


def first_after(presses: list[float], changes: list[float]) -> list[float]:
    """For each press, the time to the first change after it (and before the next press).

    >>> first_after([1.0, 2.0, 3.0], [1.25, 2.5, 3.75])
    [0.25, 0.5, 0.75]
    """
    out = []
    for index, when in enumerate(presses):
        at = bisect_left(changes, when)
        upto = presses[index + 1] if index + 1 < len(presses) else float("inf")
        if at < len(changes) and changes[at] < upto:
            out.append(changes[at] - when)
    return out


# -- the game's process --------------------------------------------------------------------

class Rendered:
    """The scoreboard drawn as a screen draws it: rendered into an 800x480 surface."""

    def __init__(self) -> None:
        import pygame

        self.surface = pygame.Surface((800, 480))
        self.took: list[float] = []  # each drawing's time

    def show(self, model: Any) -> None:
        from tablekit.display.render import render

        started = time.monotonic()
        render(model, self.surface)
        self.took.append(time.monotonic() - started)

    def close(self) -> None:
        pass


def play(args: argparse.Namespace) -> dict[str, Any]:
    from tablekit.app.loop import App, build_table, open_session
    from tablekit.display.backends import PngDisplay
    from tablekit.rules.presets import load_rules
    from tablekit.web.phones import PhoneSeats, start_phone_web

    folder = Path(tempfile.mkdtemp(prefix="phone-latency-"))
    journal = folder / "game.jsonl"
    said: list[str] = []
    display = {"png": lambda: PngDisplay(folder / "screens", numbered=False),
               "render": Rendered, "none": lambda: None}[args.display]()
    app_inbox: Any = None
    session = open_session(journal, load_rules(None), said.append)
    app = build_table(session, display)
    app_inbox = app.inbox
    phones = PhoneSeats(app_inbox, said.append)
    page = start_phone_web("127.0.0.1:0", journal, None, said.append, phones)
    phones.use((0, 1, 2, 3))
    if not args.frame_wait:  # as tablekit run: a press wakes the loop
        app.woken = threading.Event()
        phones.buttons.wake = app.woken.set
    app.flow.phones = phones
    app.hooks.append(phones.hook)
    changes: list[float] = []
    shown = [app.shown_at]

    def changed(app: App) -> None:
        if app.shown_at != shown[0]:
            shown[0] = app.shown_at
            changes.append(time.monotonic())

    app.hooks.append(changed)
    addresses = [address for _, address in phones.addresses()]
    clients = subprocess.Popen(
        [sys.executable, __file__, "--clients", json.dumps(addresses), "--viewers",
         str(args.viewers), "--presses", str(args.presses), "--every", str(args.every)],
        stdout=subprocess.PIPE, text=True)
    done = threading.Event()
    answer: dict[str, Any] = {}

    def read_clients() -> None:
        assert clients.stdout is not None
        answer.update(json.loads(clients.stdout.read() or "{}"))
        done.set()

    threading.Thread(target=read_clients, daemon=True).start()
    try:
        app.run(until=lambda _: done.is_set())
    finally:
        clients.wait()
        page.stop()
        session.close()
    presses = answer.get("presses", [])
    return {"presses": len(presses), "viewers": args.viewers, "display": args.display,
            "woken": not args.frame_wait,
            "phones": 4, "every_s": args.every,
            "press_to_scoreboard_ms": ms(first_after(presses, changes)),
            "press_to_phone_ms": ms(answer.get("to_phone", [])),
            "post_answer_ms": ms(answer.get("answers", [])),
            "drawing_ms": ms(getattr(display, "took", [])),
            "viewer_messages": answer.get("viewer_messages", 0),
            "refused": answer.get("refused", 0)}


# -- the clients' process ------------------------------------------------------------------

async def _head(reader: Any) -> tuple[int, int]:
    status = int((await reader.readline()).split()[1])
    length = 0
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return status, length


async def _stream(host: str, port: int, path: str, seen: list[float], counted: dict[str, int],
                  started: asyncio.Event) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
    await writer.drain()
    try:
        status, _ = await _head(reader)
        if status != 200:
            counted["refused"] += 1
            started.set()
            return
        while line := await reader.readline():
            if line.startswith(b"data: "):
                seen.append(time.monotonic())
                counted["messages"] += 1
                started.set()
    finally:
        writer.close()


async def _poll(host: str, port: int, counted: dict[str, int]) -> None:
    await asyncio.sleep(STATE_EVERY * random.random())
    reader, writer = await asyncio.open_connection(host, port)
    while True:
        writer.write(f"GET /state HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
        await writer.drain()
        status, length = await _head(reader)
        await reader.readexactly(length)
        if status != 200:
            counted["refused"] += 1
            writer.close()
            reader, writer = await asyncio.open_connection(host, port)
        await asyncio.sleep(STATE_EVERY)


async def _press(host: str, port: int, path: str, button: str) -> tuple[float, float, int]:
    body = f"button={button}".encode()
    reader, writer = await asyncio.open_connection(host, port)
    sent = time.monotonic()
    writer.write(f"POST {path}/press HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: "
                 f"application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n"
                 f"Connection: close\r\n\r\n".encode() + body)
    await writer.drain()
    status, length = await _head(reader)
    await reader.readexactly(length)
    writer.close()
    return sent, time.monotonic() - sent, status


async def clients(addresses: list[str], viewers: int, presses: int, every: float
                  ) -> dict[str, Any]:
    parts = urllib.parse.urlsplit(addresses[0])
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    paths = [urllib.parse.urlsplit(address).path for address in addresses]
    counted = {"messages": 0, "refused": 0}
    viewer_seen: list[list[float]] = [[] for _ in range(viewers)]
    phone_seen: list[list[float]] = [[] for _ in paths]
    started = [asyncio.Event() for _ in range(viewers + len(paths))]
    tasks = [asyncio.create_task(_stream(host, port, "/events", viewer_seen[i], counted,
                                         started[i])) for i in range(viewers)]
    tasks += [asyncio.create_task(_poll(host, port, counted)) for _ in range(viewers)]
    tasks += [asyncio.create_task(_stream(host, port, path + "/events", phone_seen[i],
                                          counted, started[viewers + i]))
              for i, path in enumerate(paths)]
    await asyncio.gather(*(event.wait() for event in started))
    await asyncio.sleep(1.0)
    sent_at, answers, to_phone, refused = [], [], [], 0
    for index in range(presses):
        phone = index % len(paths)
        before = len(phone_seen[phone])
        sent, answered, status = await _press(host, port, paths[phone],
                                              "ok" if index % 2 == 0 else "undo")
        sent_at.append(sent)
        answers.append(answered)
        refused += status != 200
        deadline = sent + every
        while time.monotonic() < deadline and len(phone_seen[phone]) == before:
            await asyncio.sleep(0.002)
        if len(phone_seen[phone]) > before:
            to_phone.append(phone_seen[phone][before] - sent)
        await asyncio.sleep(max(0.0, deadline - time.monotonic()))
    await asyncio.sleep(every)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"presses": sent_at, "answers": answers, "to_phone": to_phone,
            "viewer_messages": sum(len(seen) for seen in viewer_seen),
            "refused": refused + counted["refused"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--presses", type=int, default=120)
    parser.add_argument("--every", type=float, default=0.5)
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--display", choices=("render", "png", "none"), default="render")
    parser.add_argument("--frame-wait", action="store_true",
                        help="a press waits for the loop's next frame (50 ms at most), as "
                             "before the loop was woken by a press")
    parser.add_argument("--clients", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.clients is not None:
        result = asyncio.run(clients(json.loads(args.clients), args.viewers, args.presses,
                                     args.every))
        print(json.dumps(result), flush=True)
        return 0
    print(json.dumps(play(args)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
