"""A table's outbox: each finished game waits on disk (one JSON file, written whole and
fsynced) until the broker has taken it, so that a game finished while the broker or the
network is down is sent when it is back, after a power cut too.

>>> import tempfile
>>> box = Outbox(Path(tempfile.mkdtemp()) / "game.jsonl.club-outbox")
>>> game = {"game_id": "A-0-1-0000", "table": "A", "events": [{"type": "game_started"}]}
>>> name = box.put("tablekit/club/tables/A/games/A-0-1-0000", game)
>>> [(n == name, topic) for n, topic, _ in box.waiting("A")]
[(True, 'tablekit/club/tables/A/games/A-0-1-0000')]
>>> box.remove(name); box.waiting()
[]

Each file is checked as the board checks a message (:mod:`tablekit.untrusted.wire`), and
for a table, that its topic is the table's own game topic: a file that is not (a topic with
a wildcard, JSON nested too deep, a game with no events) is moved aside as ``NAME.bad``,
said in one line, and never sent:

>>> _ = (box.folder / "x.json").write_text('{"topic": "tablekit/club/tables/A/games/#"}')
>>> box.waiting("A", say=print)  # doctest: +ELLIPSIS
outbox file .../x.json set aside as x.json.bad: topic: holds an MQTT wildcard (# or +) or a NUL
[]
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tablekit.club.topics import game_topic
from tablekit.files.atomic import write_atomic
from tablekit.untrusted import Untrusted
from tablekit.untrusted.files import read_bytes
from tablekit.untrusted.json_text import MAX_BYTES, parse_json
from tablekit.untrusted.wire import read_outbox_file


def outbox_for(journal: Path) -> Path:
    """Where a journal's outbox is kept: beside it (``JOURNAL.club-outbox``)."""
    return Path(journal).with_name(Path(journal).name + ".club-outbox")


class Outbox:
    """Messages waiting for the broker, one file each, named by their topic (a message put
    again under the same topic replaces the one waiting)."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)

    def put(self, topic: str, payload: dict[str, Any]) -> str:
        """Keep ``payload`` for ``topic`` (written whole, fsynced, then renamed into place);
        the name it waits under."""
        self.folder.mkdir(parents=True, exist_ok=True)
        name = hashlib.sha1(topic.encode()).hexdigest()[:16] + ".json"
        text = json.dumps({"topic": topic, "payload": payload}, ensure_ascii=False)
        # a full card: no empty or torn NAME.part is left behind
        write_atomic(self.folder / name, text, quiet_folder=True)
        return name

    def waiting(self, table: str | None = None, say: Callable[[str], None] = lambda line: None
                ) -> list[tuple[str, str, bytes]]:
        """(name, topic, payload as sent) of each message waiting, oldest first. A file that
        cannot be read now is left out; one that is no game for ``table``'s own topic is
        moved aside (``NAME.bad``) and said to ``say``, once."""
        if not self.folder.is_dir():
            return []
        found = []
        for path in sorted(self.folder.glob("*.json"), key=_age):
            try:
                data = parse_json(read_bytes(path, limit=MAX_BYTES, follow=False))
                checked = read_outbox_file(data)
                game = checked.payload.game_id
                if table is not None and checked.topic != game_topic(table, game):
                    raise Untrusted(f"its topic {checked.topic[:80]!r} is not table "
                                    f"{table}'s for game {game}")
                payload = json.dumps(data["payload"], ensure_ascii=False,
                                     allow_nan=False).encode()
            except Untrusted as error:
                self._set_aside(path, str(error), say)
                continue
            except OSError:
                continue
            found.append((path.name, checked.topic, payload))
        return found

    def _set_aside(self, path: Path, why: str, say: Callable[[str], None]) -> None:
        aside = path.with_name(path.name + ".bad")
        try:  # a move, not a write (no atomic_path): the bad file itself, kept to look at
            os.replace(path, aside)
        except OSError as error:
            say(f"outbox file {path} cannot be sent ({why}) nor set aside "
                f"({error.strerror or error})")
            return
        say(f"outbox file {path} set aside as {aside.name}: {why}")

    def remove(self, name: str) -> None:
        """The broker has ``name``: it waits no more."""
        with contextlib.suppress(FileNotFoundError):
            (self.folder / name).unlink()


def _age(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0

