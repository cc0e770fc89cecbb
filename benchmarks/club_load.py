"""The club's board under load: 50 tables publishing at a real table's rate to one mosquitto
on this machine, the board recording and serving its page.

Usage: python benchmarks/club_load.py [--tables 50] [--seconds 90] [--every 3] [--warmup 10]

A real mosquitto is started as the club's tests start it (``tests/mosquitto_broker.py``), and
the board as a club starts it, in a process of its own: ``tablekit club --broker URL --db
club.sqlite --web 127.0.0.1:PORT``. Each table is a
:class:`~tablekit.club.publisher.Publisher` (its own MQTT client and thread, as on a table's
Pi; here all in this process): it sends its live state (retained, QoS 1) about every
``--every`` seconds (exponential gaps: a table's state changes with each draw, discard and
call, a few seconds apart), each state stamped with when it was sent (``changed_at``), and
one finished game (the bundled demo game, under an id of its own) at a random moment of the
run, from its outbox, as a table does when a game ends.

One client follows the board page's ``/events`` (server-sent events) and, for each table's
new ``changed_at`` in a message, takes the change-to-page latency: from the table's send to
the state holding it arriving at the page's client. The board's CPU (percent of one core,
user + system, from ``/proc``) and memory (peak resident) are read over the measured
seconds (after ``--warmup``). Prints one JSON object.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

GAME = ROOT / "tablekit" / "data" / "tenhou-python-bot-28.xml"
TICK = 1.0 / 1000  # a second in ms


def percentiles(values: list[float]) -> dict[str, float]:
    """p50, p95 and max of ``values`` (seconds) in milliseconds, and how many.

    >>> percentiles([0.001, 0.002, 0.003, 0.004])
    {'n': 4, 'p50': 2.5, 'p95': 4.0, 'max': 4.0}
    """
    if not values:
        return {"n": 0}
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"n": len(ordered), "p50": round(statistics.median(ordered) / TICK, 1),
            "p95": round(p95 / TICK, 1), "max": round(ordered[-1] / TICK, 1)}


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds the process ``pid`` has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100.0  # utime, stime in clock ticks


def memory_mib(pid: int, key: str = "VmHWM") -> float:
    """The process's peak resident memory (``VmHWM``) or now (``VmRSS``), MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PageClient:
    """Follows the board page's ``/events``: the latency of each table's change."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.latencies: list[float] = []
        self.messages = 0
        self.measuring = False
        self.seen: dict[str, float] = {}
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        connection.request("GET", "/events")
        reply = connection.getresponse()
        while not self.stopped.is_set():
            line = reply.fp.readline()
            if not line:
                return
            if line.startswith(b"data: "):
                self._take(json.loads(line[6:]), time.time())

    def _take(self, state: dict[str, Any], now: float) -> None:
        self.messages += 1
        for table in state["tables"]:
            changed = table.get("changed_at") or 0.0
            if changed and changed != self.seen.get(table["name"]):
                self.seen[table["name"]] = changed
                if self.measuring:
                    self.latencies.append(now - changed)


def wait_for(condition: Any, seconds: float, what: str) -> None:
    if not _until(condition, seconds):
        raise SystemExit(f"club_load: not within {seconds:g} s: {what}")


def _until(condition: Any, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=90.0, help="measured, after warm-up")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--every", type=float, default=3.0,
                        help="a table's mean seconds between two states")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    from mosquitto_broker import Broker

    from tablekit.club.outbox import Outbox
    from tablekit.club.publisher import Publisher
    from tablekit.club.records import game_id, game_record
    from tablekit.formats.tenhou import import_file
    from tablekit.league.database import games_recorded

    rng = random.Random(args.seed)
    game = import_file(GAME).events
    names = list(game[0].names)  # type: ignore[attr-defined]
    folder = Path(tempfile.mkdtemp(prefix="club-load-"))
    (folder / "broker").mkdir()
    broker = Broker(folder / "broker").start()
    port = free_port()
    board = subprocess.Popen(
        [sys.executable, "-c", "from tablekit.cli import main; raise SystemExit(main())",
         "club", "--broker", broker.url, "--db", str(folder / "club.sqlite"),
         "--web", f"127.0.0.1:{port}"], cwd=folder, stdout=subprocess.DEVNULL,
        stderr=(folder / "board.err").open("wb"), env={**os.environ, "PYTHONPATH": str(ROOT)})
    tables: list[Publisher] = []
    page = PageClient(port)
    stop = threading.Event()
    try:
        wait_for(lambda: _answers(port), 60, "the board page answers")
        page.thread.start()
        tables = [Publisher(f"T{i}", broker.address, Outbox(folder / f"T{i}.outbox")).start()
                  for i in range(args.tables)]
        total = args.warmup + args.seconds
        game_at = {i: rng.uniform(args.warmup, total) for i in range(args.tables)}
        sent, games = [0], [0]

        def play(index: int) -> None:
            table, local = tables[index], random.Random(args.seed * 1000 + index)
            started, scores, hands, gave = time.monotonic(), [25000] * 4, 0, False
            while not stop.wait(local.expovariate(1.0 / args.every)):
                moved = local.randrange(4)
                scores[moved] += 1000
                scores[(moved + 1) % 4] -= 1000
                hands += local.random() < 0.1
                table.send_state({"round": f"East {hands % 4 + 1}", "phase": "playing",
                                  "scores": list(scores), "names": names,
                                  "dealer": hands % 4, "honba": 0, "deposits": 0,
                                  "hands": hands, "changed_at": time.time()})
                sent[0] += 1
                if not gave and time.monotonic() - started > game_at[index]:
                    gave, games[0] = True, games[0] + 1
                    key = game_id(f"T{index}", None, args.seed)  # T3-0-SEED-0000
                    table.send_game(key, game_record(key, f"T{index}", game, time.time()))

        players = [threading.Thread(target=play, args=(i,), daemon=True)
                   for i in range(args.tables)]
        for player in players:
            player.start()
        time.sleep(args.warmup)
        page.measuring = True
        cpu0, wall0, sent0 = cpu_seconds(board.pid), time.monotonic(), sent[0]
        time.sleep(args.seconds)
        cpu1, wall1, sent1 = cpu_seconds(board.pid), time.monotonic(), sent[0]
        page.measuring = False
        stop.set()
        for player in players:
            player.join()
        games_sent = games[0]
        _until(lambda: games_recorded(folder / "club.sqlite") >= games_sent, 30)
        result = {
            "tables": args.tables, "seconds": args.seconds, "every_s": args.every,
            "states_sent_per_s": round((sent1 - sent0) / (wall1 - wall0), 1),
            "change_to_page_ms": percentiles(page.latencies),
            "page_messages": page.messages,
            "board_cpu_percent_of_one_core": round(100 * (cpu1 - cpu0) / (wall1 - wall0), 1),
            "board_memory_peak_mib": memory_mib(board.pid),
            "board_memory_now_mib": memory_mib(board.pid, "VmRSS"),
            "games_recorded": games_recorded(folder / "club.sqlite"),
            "games_sent": games_sent,
        }
        print(json.dumps(result))
    finally:
        stop.set()
        page.stopped.set()
        for table in tables:
            table.close()
        board.terminate()
        try:
            board.wait(timeout=15)
        except subprocess.TimeoutExpired:
            board.kill()
        broker.stop()


def _answers(port: int) -> bool:
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        connection.request("GET", "/state")
        return connection.getresponse().status == 200
    except OSError:
        return False


if __name__ == "__main__":
    main()
