"""The board stopped during a flood of states: every game acknowledged to a table is recorded,
once (issue #46: with mosquitto's default queue of 1,000 messages and the board taking states
at QoS 1, 1 game in 20 was acknowledged and never recorded).

Usage: python benchmarks/club_flood.py [--states 20000] [--games 20] [--tables 4] [--away 60]

A real mosquitto started with the configuration and ACL tablekit ships
(``tests/mosquitto_broker.py``: only its port, paths and store changed), its users the board
and tables ``1``..``N``; the board as a club runs it, in a process of its own (``tablekit
club --broker URL --db club.sqlite --club-auth board.auth``). Each table is a paho client
logged in as its table that sends states (retained, QoS 1, as a table's publisher does) as
fast as it can, and now and then a finished game (the bundled demo game under an id of its
own, QoS 1, waited for until the broker acknowledges it). A quarter of the states and games
go with the board up; then the board is stopped (SIGTERM) for ``--away`` seconds while half
of them are sent, spread over that time; it is started again and the last quarter is sent.
Then the league is read until every acknowledged game is in it (or ``--patience`` seconds).
Prints the figures, then one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

GAME = ROOT / "tablekit" / "data" / "tenhou-python-bot-28.xml"
TABLECLI = "from tablekit.cli import main; raise SystemExit(main())"


def shares(total: int) -> list[int]:
    """``total`` in a quarter, a half and a quarter (before, while away, after).

    >>> shares(20), shares(20000), shares(5)
    ([5, 10, 5], [5000, 10000, 5000], [1, 3, 1])
    """
    quarter = total // 4
    return [quarter, total - 2 * quarter, quarter]


def flood(folder: Path, states: int = 20000, games: int = 20, tables: int = 4,
          away: float = 60.0, patience: float = 180.0,
          say: Callable[[str], None] = print) -> dict[str, Any]:
    """Run the flood in ``folder``; its figures."""
    from mosquitto_broker import Broker
    from paho.mqtt import client as mqtt

    from tablekit.club.records import game_record
    from tablekit.club.topics import game_topic, state_topic
    from tablekit.formats.tenhou import import_file
    from tablekit.league.database import read_only

    events = import_file(GAME).events
    names = [str(n) for n in range(1, tables + 1)]
    users = {"board": "board-pw", **{name: f"{name}-pw" for name in names}}
    (folder / "broker").mkdir(parents=True, exist_ok=True)
    broker = Broker(folder / "broker", users).start()
    auth = folder / "board.auth"
    auth.write_text("board\nboard-pw\n")
    auth.chmod(0o600)
    db = folder / "club.sqlite"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = (folder / "board.out").open("ab")
    err = (folder / "board.err").open("ab")

    def start_board() -> subprocess.Popen:
        process = subprocess.Popen([sys.executable, "-c", TABLECLI, "club", "--broker",
                                    broker.url, "--db", str(db), "--club-auth", str(auth)],
                                   cwd=folder, env=env, stdout=out, stderr=err)
        deadline = time.monotonic() + 60
        while b"recording the club's games" not in (folder / "board.err").read_bytes():
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the board did not start: "
                                   + (folder / "board.err").read_text()[-500:])
            time.sleep(0.1)
        return process

    def recorded() -> list[str]:
        if not db.exists():
            return []
        league = read_only(db)
        try:
            return [key for (key,) in league.execute("SELECT game_key FROM games")]
        finally:
            league.close()

    clients = []
    for name in names:
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=name,
                             clean_session=False, protocol=mqtt.MQTTv311)
        client.username_pw_set(name, users[name])
        client.max_queued_messages_set(0)
        client.connect(*broker.address)
        client.loop_start()
        clients.append(client)
    sent = {"states": 0, "games": 0, "acknowledged": 0}
    pending: list[Any] = []

    def send(n_states: int, n_games: int, seconds: float) -> None:
        """``n_states`` states with ``n_games`` games among them, over ``seconds``."""
        started = time.monotonic()
        every = max(n_states // max(n_games, 1), 1)
        for i in range(n_states):
            index = sent["states"] % tables
            clients[index].publish(
                state_topic(names[index]),
                json.dumps({"round": f"East {i % 4 + 1}", "scores": [25000] * 4,
                            "hands": sent["states"], "changed_at": time.time()}).encode(),
                qos=1, retain=True)
            sent["states"] += 1
            if n_games and i % every == every - 1 and sent["games"] < games \
                    and n_games > 0:
                n_games -= 1
                table = names[sent["games"] % tables]
                key = f"{table}-0-{sent['games']}-f100"  # a game id as a table makes one
                pending.append(clients[int(table) - 1].publish(
                    game_topic(table, key),
                    json.dumps(game_record(key, table, events, time.time())).encode(), qos=1))
                sent["games"] += 1
            ahead = started + seconds * (i + 1) / n_states - time.monotonic()
            if ahead > 0:
                time.sleep(ahead)

    state_shares, game_shares = shares(states), shares(games)
    result: dict[str, Any] = {"states": states, "games": games, "tables": tables,
                              "away_s": away}
    board = start_board()
    t0 = time.monotonic()
    try:
        send(state_shares[0], game_shares[0], 2.0)
        say(f"board up: {sent['states']} states, {sent['games']} games sent")
        board.terminate()
        board.wait(timeout=30)
        say(f"board stopped for {away:g} s")
        send(state_shares[1], game_shares[1], away)
        say(f"board away: {sent['states']} states, {sent['games']} games sent in all")
        board = start_board()
        back = time.monotonic()
        send(state_shares[2], game_shares[2], 2.0)
        for info in pending:
            info.wait_for_publish(60)
        sent["acknowledged"] = sum(info.is_published() for info in pending)
        say(f"all sent: {sent['states']} states, {sent['games']} games, "
            f"{sent['acknowledged']} acknowledged by the broker")
        deadline = time.monotonic() + patience
        while len(recorded()) < sent["acknowledged"] and time.monotonic() < deadline:
            time.sleep(0.5)
        result["catch_up_s"] = round(time.monotonic() - back, 1)
        time.sleep(2)  # a game recorded twice would come now
        board.terminate()
        board.wait(timeout=30)
    finally:
        if board.poll() is None:
            board.kill()
            board.wait()
        for client in clients:
            client.disconnect()
            client.loop_stop()
        broker.stop()
        out.close()
        err.close()
    keys = recorded()
    lines = [line for line in (folder / "board.out").read_text().splitlines()
             if " recorded: " in line]
    dropped = broker.log().count("Outgoing messages are being dropped")
    result.update(sent_states=sent["states"], sent_games=sent["games"],
                  acknowledged=sent["acknowledged"], recorded=len(keys),
                  recorded_once=len(set(keys)) == len(keys) == len(lines),
                  broker_drop_notices=dropped, wall_s=round(time.monotonic() - t0, 1))
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=20000)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--away", type=float, default=60.0,
                        help="seconds the board is stopped (a minute by default)")
    parser.add_argument("--patience", type=float, default=180.0,
                        help="seconds the board is given to record every game afterwards")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="club-flood-"))
    result = flood(folder, args.states, args.games, args.tables, args.away, args.patience)
    print(f"{result['recorded']} of {result['acknowledged']} acknowledged games recorded "
          f"({'each once' if result['recorded_once'] else 'NOT each once'}); "
          f"{result['sent_states']} states; the board caught up {result['catch_up_s']} s "
          f"after its restart; mosquitto's drop notices: {result['broker_drop_notices']}")
    print(json.dumps(result))
    return 0 if result["recorded"] == result["acknowledged"] == args.games \
        and result["recorded_once"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
