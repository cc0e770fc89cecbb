"""The game loop's step time with the web page served: no client, one, many, slow ones.

Usage: python benchmarks/web_load.py [--seconds 20] [--rate 10] [--busy 200] [--slow 300]
                                     [--in-thread]

In each case the bundled game (``tablekit/data/tenhou-python-bot-28.xml``) is played from
its start into a fresh journal, ``--rate`` events a second (a fast table: a real one makes
about one), each through :meth:`Session.submit` (the journal's append and fsync, the
reducer), while the page is served on it from a child process, as ``tablekit run --web``
serves it (:class:`~tablekit.web.process.PageProcess` running :mod:`tablekit.web.serve`,
here through this file's ``--page``, which adds the journal's length to the state);
``--in-thread``: from a thread of the loop's own process instead (the arrangement before,
for comparison). A step is one submit, timed with ``time.perf_counter``. The clients run in
a process of their own (asyncio, no thread each):

- ``none``: no client (the step time as it is);
- ``one``: one browser-like client on ``/events``;
- ``busy``: ``--busy`` clients, each holding ``/events`` open and polling ``/state`` every
  two seconds on a second connection;
- ``slow``: ``--slow`` clients each sending a request a byte a second, never finishing (a
  client hung up on connects again), and one client on ``/events``.

Prints one JSON object per case: the step time (ms: p50, p95, max), the loop's process's
threads and the server's (most seen: the page's process's, or those named for it in the
loop's), the CPU the server used while the loop ran (percent of one core: the page's process,
or the loop's process's other threads), the change-to-client latency (ms, p50 and p95: from
an event's submit to a client's receiving the state that holds it, over every client and
event; the state carries the journal's length when it was read), and what the clients
counted (messages, ``/state`` answers, refusals, slow clients hung up on and after how
long).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from bisect import bisect_left
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GAME = ROOT / "tablekit" / "data" / "tenhou-python-bot-28.xml"
STATE_EVERY = 2.0  # a busy client's /state poll
SLOW_BYTE = 1.0    # a slow client's pace


def ms(values: list[float]) -> dict[str, float]:
    """p50, p95 and max of ``values`` (seconds) in milliseconds.

    >>> ms([0.001, 0.002, 0.003, 0.004])
    {'p50': 3.0, 'p95': 4.0, 'max': 4.0}
    """
    if not values:
        return {}
    ordered = sorted(values)
    return {"p50": round(1000 * ordered[len(ordered) // 2], 2),
            "p95": round(1000 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 2),
            "max": round(1000 * ordered[-1], 2)}


def latencies(changes: list[tuple[int, float]], seen: list[tuple[int, float]]) -> list[float]:
    """For each change (journal length after it, when), how long until one client ``seen``
    (journal length it was shown, when) a state holding it.

    >>> latencies([(10, 1.0), (20, 2.0), (30, 3.0)], [(0, 0.5), (20, 2.25), (30, 3.5)])
    [1.25, 0.25, 0.5]
    """
    lengths = [length for length, _ in seen]
    out = []
    for length, when in changes:
        first = bisect_left(lengths, length)
        if first < len(seen):
            out.append(seen[first][1] - when)
    return out


class Stamped:
    """A :class:`JournalSource` whose state carries the journal's length, taken before it is
    read (a change caught in the middle counts as seen at the next one)."""

    def __init__(self, source: Any) -> None:
        self.source = source

    def current(self) -> tuple[int, dict[str, Any]]:
        length = self.source.journal.stat().st_size if self.source.journal.exists() else 0
        version, state = self.source.current()
        return version, {**state, "journal_bytes": length}


def threads(page: int | None) -> tuple[int, int]:
    """This process's threads (the system's count) and the web server's: the page's
    process's (``page``, its pid), else this process's named for it (its watcher aside)."""
    if page is not None:
        web = len(os.listdir(f"/proc/{page}/task"))
    else:
        web = sum(t.name.startswith("tablekit-web") and t.name != "tablekit-web-watch"
                  for t in threading.enumerate())
    return len(os.listdir("/proc/self/task")), web


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process ``pid`` has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def serve(journal: Path, in_thread: bool) -> Any:
    """The page on ``journal`` (its state stamped), served as told; it has ``stop()``."""
    from tablekit.web.process import PageProcess, serve_command
    from tablekit.web.server import JournalSource, WebServer

    if in_thread:
        server = WebServer(("127.0.0.1", 0), Stamped(JournalSource(journal)))
        server.start()
        return server
    command = serve_command("127.0.0.1:0", journal, None, program=(__file__, "--page"))
    return PageProcess(command, lambda line: print(line, file=sys.stderr))


def play_case(kind: str, args: argparse.Namespace, events: list[Any]) -> dict[str, Any]:
    from tablekit.game.session import Session

    folder = Path(tempfile.mkdtemp(prefix="web-load-", dir=args.dir))
    journal = folder / "game.jsonl"
    session = Session.open(journal)
    server = serve(journal, args.in_thread)
    page = getattr(server, "pid", None)
    clients = None
    if kind != "none":
        clients = subprocess.Popen(
            [sys.executable, __file__, "--clients", kind, "--port",
             str(server.server_address[1]), "--busy", str(args.busy), "--slow",
             str(args.slow)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert clients.stdout is not None and clients.stdin is not None
        ready = clients.stdout.readline().strip()
        if ready != "ready":
            raise SystemExit(f"the clients did not start: {ready!r}")
        time.sleep(1.0)  # settled
    steps, changes, most = [], [], (0, 0)
    period = 1 / args.rate
    start, cpu, loop_cpu = time.monotonic(), time.process_time(), time.thread_time()
    page_cpu = cpu_seconds(page) if page is not None else 0.0
    for index in range(min(int(args.seconds * args.rate), len(events))):
        wait = start + index * period - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        began = time.perf_counter()
        session.submit(events[index])
        done = time.monotonic()
        steps.append(time.perf_counter() - began)
        changes.append((journal.stat().st_size, done))
        most = max(most, threads(page))
    wall = time.monotonic() - start
    others = (time.process_time() - cpu) - (time.thread_time() - loop_cpu)
    if page is not None:
        others = cpu_seconds(page) - page_cpu
    time.sleep(0.5)  # the last changes reach the clients
    counted: dict[str, Any] = {}
    seen_all: list[float] = []
    if clients is not None:
        out, _ = clients.communicate("stop\n", timeout=120)
        report = json.loads(out)
        counted = report["counted"]
        for seen in report["seen"]:
            seen_all += latencies(changes, seen)
    server.stop()
    session.close()
    return {"case": kind, "page": "thread" if args.in_thread else "process",
            "clients": {"none": 0, "one": 1, "busy": args.busy,
                                      "slow": args.slow + 1}[kind],
            "steps": len(steps), "step_ms": ms(steps), "threads": most[0],
            "web_threads": most[1], "server_cpu_pct": round(100 * others / wall, 1),
            "latency_ms": ms(seen_all), **counted}


# -- the clients' process ------------------------------------------------------------------

async def _request(host: str, port: int, path: str) -> tuple[Any, Any]:
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    await writer.drain()
    return reader, writer


async def _head(reader: Any) -> tuple[int, int]:
    """The status and the content length of the answer read from ``reader``."""
    status = int((await reader.readline()).split()[1])
    length = 0
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return status, length


async def _stream(port: int, seen: list[tuple[int, float]], counted: dict[str, int],
                  started: asyncio.Event) -> None:
    reader, writer = await _request("127.0.0.1", port, "/events")
    try:
        status, _ = await _head(reader)
        if status != 200:
            counted["refused"] += 1
            started.set()
            return
        while line := await reader.readline():
            if line.startswith(b"data: "):
                seen.append((json.loads(line[6:])["journal_bytes"], time.monotonic()))
                counted["messages"] += 1
                started.set()
    finally:
        writer.close()


async def _poll(port: int, counted: dict[str, int]) -> None:
    await asyncio.sleep(STATE_EVERY * random.random())  # spread over the interval
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    while True:
        writer.write(b"GET /state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        await writer.drain()
        status, length = await _head(reader)
        await reader.readexactly(length)
        counted["states" if status == 200 else "refused"] += 1
        if status != 200:
            writer.close()
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        await asyncio.sleep(STATE_EVERY)


async def _slow(port: int, counted: dict[str, Any]) -> None:
    request = b"GET /state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"y" * 10_000
    while True:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        opened = time.monotonic()
        try:
            for byte in request:
                writer.write(bytes([byte]))
                await writer.drain()
                if reader.at_eof() or await _closed(reader):
                    break
        except ConnectionError:
            pass
        counted["hung_up"] += 1
        counted["held_s"].append(time.monotonic() - opened)
        writer.close()


async def _closed(reader: Any) -> bool:
    try:
        return await asyncio.wait_for(reader.read(1), SLOW_BYTE) == b""
    except TimeoutError:
        return False


async def clients(kind: str, port: int, busy: int, slow: int) -> dict[str, Any]:
    counted: dict[str, Any] = {"messages": 0, "states": 0, "refused": 0, "hung_up": 0,
                               "held_s": []}
    streams = busy if kind == "busy" else 1
    seen: list[list[tuple[int, float]]] = [[] for _ in range(streams)]
    started = [asyncio.Event() for _ in range(streams)]
    tasks = [asyncio.create_task(_stream(port, seen[i], counted, started[i]))
             for i in range(streams)]
    if kind == "busy":
        tasks += [asyncio.create_task(_poll(port, counted)) for _ in range(busy)]
    if kind == "slow":
        tasks += [asyncio.create_task(_slow(port, counted)) for _ in range(slow)]
    await asyncio.gather(*(event.wait() for event in started))
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    held = counted.pop("held_s")
    counted = {k: v for k, v in counted.items() if v}
    if held:
        counted["slow_held_s"] = {"p50": round(statistics.median(held), 2),
                                  "max": round(max(held), 2)}
    return {"seen": seen, "counted": counted}


def main() -> int:
    if sys.argv[1:2] == ["--page"]:  # the page's process, its state stamped
        from tablekit.web.serve import main as serve_page

        return serve_page(sys.argv[2:], wrap=Stamped)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="each case's length")
    parser.add_argument("--rate", type=float, default=10.0, help="events a second")
    parser.add_argument("--busy", type=int, default=200)
    parser.add_argument("--slow", type=int, default=300)
    parser.add_argument("--cases", default="none,one,busy,slow")
    parser.add_argument("--dir", type=Path, default=None,
                        help="where the journals are written (default: a temporary folder)")
    parser.add_argument("--in-thread", action="store_true",
                        help="serve the page from a thread of the loop's process (as before)")
    parser.add_argument("--clients", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.clients:
        print(json.dumps(asyncio.run(clients(args.clients, args.port, args.busy, args.slow))))
        return 0
    from tablekit.formats.tenhou import import_file

    events = list(import_file(GAME).events)
    for kind in args.cases.split(","):
        print(json.dumps(play_case(kind, args, events)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
