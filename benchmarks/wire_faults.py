"""The ``wire`` family of ``benchmarks/faults.py``: what a hostile or broken table can send.

- MQTT payloads: valid live states and finished games (the recorded games that ship, and
  the club's test games), mutated once to three times (nesting 33 to 200,000 deep, NaN and
  Infinity, wrong types, huge numbers, hostile names, another table's ids and topics,
  reserved table names, events dropped, repeated or changed, rules past their limits,
  random bytes, cut short), fed to a :class:`~tablekit.club.board.Board` on a real league
  file; valid games of many tables, some delivered twice, are interleaved with them.
- Outbox files: a table's outbox filled with valid and mutated files (and a FIFO, a folder,
  a symlink where a file should be), read by :class:`~tablekit.club.outbox.Outbox` and
  sent by a :class:`~tablekit.club.publisher.Publisher` (to a port with no broker: what it
  sends waits in paho's queue), whose thread must live on.

Counted: ``wire_crashes`` (an exception out of the board, the outbox or the publisher's
thread, or a message a deep layer refused that the checks let through), ``nonsense_recorded``
(every row of the league checked against the limits: names, points, penalties, times, keys)
and ``games_lost`` (valid games not recorded exactly once).

Usage: python benchmarks/wire_faults.py [--messages N] [--outbox N] [--seed S]
(``benchmarks/faults.py --only wire`` runs it with the others' options). Another kind of
untrusted input (recording files) can be added as a function of its own beside these two.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import string
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GAME_FILES = ("tablekit/data/tenhou-python-bot-28.xml",
              "tests/fixtures/club/2022011020gm-00a9-0000-de6e4a2a.xml",
              "tests/fixtures/club/2022010807gm-00e1-0000-10f06d23.xml",
              "tests/fixtures/club/2022010115gm-00e1-0000-ca85f50c.xml",
              "tests/fixtures/club/houou-statistics-examplelog3.xml")
SANMA = "tablekit/data/tenhou-sanma-00b9.xml"
TABLES = ("1", "2", "table-3", "T.4")
VALID_EVERY = 10  # one message in ten is a valid game (one in five of those sent twice)
HOSTILE_TEXT = ("A\x00", "A\u202e", "A\nB", "A" * 65, "A" * 1_000_000, "", " ", "a,b",
                "\x1b[2J", "\ud800", "board", "<script>alert(1)</script>", "A\u200b",
                "\u0410ki", "Ben", "Ana")
ODD_VALUES: tuple[Any, ...] = (None, True, False, "x", 1.5, -1, 0, [], {}, [[]], {"a": 1},
                               10 ** 9, 10 ** 12, -10 ** 12, 10 ** 20, 2 ** 63, 2 ** 64,
                               "NaN", "1e999", 1e308, -0.0, 4, 5, 136)


def _games() -> list[list[Any]]:
    """The events of every game the benchmark plays (four players, and the sanma one)."""
    from tablekit.formats.tenhou import import_file

    found = [import_file(ROOT / name).events for name in GAME_FILES if (ROOT / name).is_file()]
    found.append(import_file(ROOT / SANMA, three_players=True).events)
    return found


def _state(rng: random.Random) -> dict[str, Any]:
    seats = rng.choice((3, 4))
    return {"round": rng.choice(("East 1", "South 4", "West 2")), "phase": "playing",
            "scores": [rng.randrange(-200, 800) * 100 for _ in range(seats)],
            "names": ["Ana", "Ben", "Cho", "Dai"][:seats], "dealer": rng.randrange(seats),
            "honba": rng.randrange(5), "deposits": rng.randrange(5), "hands": rng.randrange(20),
            "changed_at": 1_800_000_000.0 + rng.random()}


# --- mutations of a payload: each takes the data and returns it (or raw text) -----------


def _pick(rng: random.Random, data: Any, depth: int = 0) -> tuple[Any, Any] | None:
    """A random (container, key) inside ``data``, more often near the top."""
    if isinstance(data, dict) and data:
        key = rng.choice(list(data))
    elif isinstance(data, list) and data:
        key = rng.randrange(len(data))
    else:
        return None
    inner = data[key]
    if isinstance(inner, dict | list) and inner and rng.random() < 0.75 and depth < 6:
        deeper = _pick(rng, inner, depth + 1)
        if deeper is not None:
            return deeper
    return data, key


def _odd_value(rng: random.Random, data: Any) -> Any:
    spot = _pick(rng, data)
    if spot is not None:
        spot[0][spot[1]] = rng.choice(ODD_VALUES)
    return data


def _hostile_name(rng: random.Random, data: Any) -> Any:
    events = data.get("events")
    names = data.get("names")
    if isinstance(events, list) and events and isinstance(events[0], dict):
        names = events[0].get("names")
    if isinstance(names, list) and names:
        names[rng.randrange(len(names))] = rng.choice(HOSTILE_TEXT)
    else:
        data["names"] = [rng.choice(HOSTILE_TEXT) for _ in range(4)]
    return data


def _events(rng: random.Random, data: Any) -> Any:
    events = data.get("events")
    if not isinstance(events, list) or not events:
        return _odd_value(rng, data)
    index = rng.randrange(len(events))
    choice = rng.randrange(7)
    if choice == 0:
        del events[index]
    elif choice == 1:
        events.insert(index, json.loads(json.dumps(events[index])))
    elif choice == 2:
        other = rng.randrange(len(events))
        events[index], events[other] = events[other], events[index]
    elif choice == 3:
        events.insert(index, {"type": "penalty", "seat": rng.randrange(-1, 6),
                              "points": rng.choice((100, 300, 10 ** 6, 10 ** 9, 10 ** 12, -300)),
                              "reason": rng.choice(HOSTILE_TEXT), "shared": rng.random() < .5})
    elif choice == 4 and isinstance(events[index], dict):
        events[index]["seat"] = rng.choice((-1, 3, 4, 9, 2 ** 40, "0", None))
    elif choice == 5 and isinstance(events[0], dict) and isinstance(events[0].get("rules"), dict):
        rules = events[0]["rules"]
        option = rng.choice(("players", "start_points", "return_points", "uma", "honba_value",
                             "chombo_penalty", "riichi_deposit", "name", "time_limit"))
        rules[option] = rng.choice((2, 3, 5, 10 ** 12, -1, [0, 0, 0, 0], [10 ** 9, 0, 0, -10 ** 9],
                                    "x" * 5000, "A\u202e", 100, 99))
    else:
        events.append({"type": rng.choice(("won", "draw", "nope", "game_started", "undo")),
                       "seat": rng.randrange(4), "count": rng.choice((1, 10 ** 6))})
    return data


def _ids(rng: random.Random, data: Any) -> Any:
    field = rng.choice(("game_id", "table", "played_at"))
    data[field] = rng.choice((
        "2-0-1-0000", "1-20261203T154000-3-3fa2", "board-0-1-0000", "A-1", "../../x",
        "1-0-1-0000/#", "", "1-0-1-ZZZZ", "1", "2", "board", "organiser", "\u0661-0-1-0000",
        "<script>alert(1)</script>", "2026-13-45T99:00:00", "9999-12-31T23:59:59+00:00",
        "2026-12-03T15:40:00+00:00", 10 ** 30, None))
    return data


def _raw(rng: random.Random, text: str) -> bytes:
    """A mutation of the payload's text: NaN, a deep nest, a huge number, random bytes."""
    choice = rng.randrange(6)
    if choice == 0:
        numbers = [i for i, c in enumerate(text) if c.isdigit() and text[i - 1] in " :["]
        if numbers:
            at = rng.choice(numbers)
            end = at
            while end < len(text) and text[end] in string.digits + ".e-":
                end += 1
            token = rng.choice(("NaN", "Infinity", "-Infinity", "1e999", "9" * 400, "1" * 5000))
            return (text[:at] + token + text[end:]).encode("utf-8", "surrogatepass")
    if choice == 1:
        depth = rng.choice((33, 100, 1000, 200_000))
        at = rng.choice([i for i, c in enumerate(text) if c == ":"] or [0])
        return (text[:at + 1] + "[" * depth + "1" + "]" * depth + "," + text[at + 1:].split(
            ",", 1)[-1]).encode("utf-8", "surrogatepass")
    data = text.encode("utf-8", "surrogatepass")
    if choice == 2:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
    if choice == 3:
        return data[:rng.randrange(len(data))]
    if choice == 4:
        flipped = bytearray(data)
        for _ in range(rng.randrange(1, 8)):
            flipped[rng.randrange(len(flipped))] = rng.randrange(256)
        return bytes(flipped)
    return text.replace("{", "[", 1).encode("utf-8", "surrogatepass")


MUTATIONS = (_odd_value, _hostile_name, _events, _ids)


def _mutated(rng: random.Random, data: Any) -> bytes:
    for _ in range(rng.randrange(1, 4)):
        if rng.random() < 0.3:
            return _raw(rng, json.dumps(data, ensure_ascii=False))
        data = rng.choice(MUTATIONS)(rng, data)
    try:
        return json.dumps(data, ensure_ascii=False).encode("utf-8", "surrogatepass")
    except (ValueError, RecursionError):
        return b"{}"


# --- the league's rows, against the limits ----------------------------------------------


def nonsense(db: sqlite3.Connection) -> list[str]:
    """Every row of the league that is past a limit (empty: none)."""
    from pydantic import TypeAdapter, ValidationError

    from tablekit.club.topics import RESERVED
    from tablekit.untrusted.fields import POINTS_LIMIT, PlayerName, text_problem
    from tablekit.untrusted.wire import SCORE_LIMIT, id_table

    name_check = TypeAdapter(PlayerName)
    found = []
    for (name,) in db.execute("SELECT name FROM players"):
        try:
            name_check.validate_python(name)
        except ValidationError:
            found.append(f"player {name[:40]!r}")
    for key, played_at, rules, hands, reason in db.execute(
            "SELECT game_key, played_at, rules, hands, end_reason FROM games"):
        _, table, game = [*key.split(":", 2), "", ""][:3]
        if id_table(game) != table or table.lower() in RESERVED:
            found.append(f"game key {key[:80]!r}")
        try:
            datetime.fromisoformat(played_at)
            if len(played_at) > 40:
                raise ValueError
        except ValueError:
            found.append(f"played_at {played_at[:40]!r}")
        if text_problem(rules) or len(rules) > 200 or text_problem(reason) or len(reason) > 300:
            found.append(f"rules or end {rules[:40]!r} {reason[:40]!r}")
        if not 0 <= hands <= 1000:
            found.append(f"hands {hands}")
    for seat, place, points, tenths, count in db.execute(
            "SELECT seat, place, points, score_tenths, (SELECT COUNT(*) FROM results n"
            " WHERE n.game_id = r.game_id) FROM results r"):
        if not (0 <= seat < count and 1 <= place <= count and count in (3, 4)
                and abs(points) <= SCORE_LIMIT and abs(tenths) <= SCORE_LIMIT):
            found.append(f"result seat {seat} place {place} points {points} tenths {tenths}")
    for amount, reason in db.execute("SELECT amount, reason FROM penalties"):
        if not -POINTS_LIMIT <= amount <= POINTS_LIMIT or text_problem(reason):
            found.append(f"penalty {amount} {reason[:40]!r}")
    return found


# --- the two runs --------------------------------------------------------------------------


class Lines:
    """The board's lines, counted: how many, and how many were not one line."""

    def __init__(self) -> None:
        self.count = self.not_one = 0

    def __call__(self, line: str) -> None:
        self.count += 1
        self.not_one += "\n" in line or "\r" in line


def fuzz_messages(count: int, folder: Path, seed: int = 0) -> dict[str, Any]:
    """``count`` payloads on state and game topics to a board on a real league."""
    from tablekit.club.board import Board, NotYet
    from tablekit.club.records import game_id, game_record
    from tablekit.club.topics import game_topic, state_topic
    from tablekit.league.database import connect

    rng = random.Random(seed)
    games = _games()
    folder.mkdir(parents=True, exist_ok=True)
    db = connect(folder / "club.sqlite")
    said = Lines()
    board = Board(db, say=said)
    crashes: list[str] = []
    expected: set[str] = set()
    valid: list[tuple[str, bytes]] = []
    for index in range(count):
        table = rng.choice(TABLES)
        if index % VALID_EVERY == 0:
            if valid and rng.random() < 0.2:
                topic, payload = rng.choice(valid)  # delivered again
            else:
                ident = game_id(table, None, index)
                record = game_record(ident, table, rng.choice(games), 1_800_000_000.0 + index)
                topic, payload = game_topic(table, ident), json.dumps(record).encode()
                valid.append((topic, payload))
                expected.add(f"club:{table}:{ident}")
        elif rng.random() < 0.4:
            data = _state(rng)
            topic, payload = state_topic(rng.choice((*TABLES, "board", "a b", "#"))), _mutated(
                rng, data)
        else:
            ident = game_id(table, None, index)
            record = game_record(ident, table, rng.choice(games), 1_800_000_000.0 + index)
            where = table if rng.random() < 0.8 else rng.choice((*TABLES, "organiser", "x+y"))
            topic, payload = game_topic(where, ident), _mutated(rng, record)
        try:
            board.take(topic, payload)
        except NotYet as error:
            crashes.append(f"not yet: {error}")
        except Exception as error:  # the board must never end on a message
            crashes.append(f"{type(error).__name__}: {str(error)[:100]}")
    keys = [key for (key,) in db.execute("SELECT game_key FROM games")]
    lost = sum(keys.count(key) != 1 for key in expected)
    wrong = nonsense(db)
    db.close()
    for problem in (crashes + wrong)[:8]:
        print(f"  wire: {problem}")
    return {"wire_messages": count, "wire_valid_games": len(expected),
            "wire_recorded": len(keys), "wire_refused": board.refused,
            "wire_lines": said.count, "wire_lines_not_one": said.not_one,
            "wire_crashes": len(crashes) + board.unexpected, "nonsense_recorded": len(wrong),
            "games_lost": lost}


def fuzz_outbox(count: int, folder: Path, seed: int = 0, batch: int = 100) -> dict[str, Any]:
    """``count`` outbox files (a tenth valid), read and sent by a table's publisher."""
    from tablekit.club.local import free_port  # nothing listens there: the broker is away
    from tablekit.club.outbox import Outbox
    from tablekit.club.publisher import Publisher
    from tablekit.club.records import game_id, game_record
    from tablekit.club.topics import game_topic
    from tablekit.untrusted.wire import read_game

    rng = random.Random(seed + 1)
    games = _games()
    crashes: list[str] = []
    valid = kept = aside = bad_kept = 0
    for start in range(0, count, batch):
        box = Outbox(folder / f"outbox-{start}")
        box.folder.mkdir(parents=True)
        for index in range(start, min(count, start + batch)):
            ident = game_id("1", None, index)
            record = game_record(ident, "1", rng.choice(games), 1_800_000_000.0)
            if index % VALID_EVERY == 0:
                box.put(game_topic("1", ident), record)
                valid += 1
                continue
            path = box.folder / f"{index:06d}.json"
            odd = rng.randrange(40)
            if odd == 0:
                os.mkfifo(path)
            elif odd == 1:
                path.mkdir()
            elif odd == 2:
                path.symlink_to("/etc/hostname")
            else:
                topic = rng.choice((game_topic("1", ident), game_topic("1", "#"), "",
                                    "tablekit/club/tables/1/games/+", game_topic("2", ident),
                                    "tablekit/club/tables/+/state", "\x00"))
                path.write_bytes(_mutated(rng, {"topic": topic, "payload": record}))
        lines: list[str] = []
        try:
            table = Publisher("1", ("127.0.0.1", free_port()), box, report=lines.append)
            table.start()
            time.sleep(0.2)
            if not table._thread.is_alive():
                crashes.append("the publisher's thread ended")
            waiting = box.waiting("1")
            table.close()
        except Exception as error:  # the table must never end on a file of its outbox
            crashes.append(f"{type(error).__name__}: {str(error)[:100]}")
            continue
        kept += len(waiting)
        aside += sum(1 for path in box.folder.iterdir() if path.name.endswith(".bad"))
        for _, topic, payload in waiting:
            try:
                game = read_game(json.loads(payload))
                if topic != game_topic("1", game.game_id):
                    raise ValueError(topic)
            except Exception:  # counted: sent, though not a game of its own table
                bad_kept += 1
    for problem in crashes[:8]:
        print(f"  wire outbox: {problem}")
    return {"outbox_files": count, "outbox_valid": valid, "outbox_kept": kept,
            "outbox_set_aside": aside, "outbox_bad_kept": bad_kept,
            "outbox_crashes": len(crashes)}


def fuzz_wire(messages: int, outbox: int, folder: Path, seed: int = 0) -> dict[str, Any]:
    """The whole family: payloads to the board, then files through the outbox."""
    figures = fuzz_messages(messages, folder / "board", seed)
    figures.update(fuzz_outbox(outbox, folder / "outbox", seed))
    figures["wire_crashes"] += figures.pop("outbox_crashes")
    figures["nonsense_recorded"] += figures["outbox_bad_kept"]
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--outbox", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        figures = fuzz_wire(args.messages, args.outbox, Path(tmp), args.seed)
    figures["seconds"] = round(time.perf_counter() - started)
    print(json.dumps(figures))
    return 0 if not (figures["wire_crashes"] or figures["nonsense_recorded"]
                     or figures["games_lost"]) else 1


if __name__ == "__main__":
    sys.exit(main())
