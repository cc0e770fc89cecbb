"""A table's outbox: each finished game waits on disk (one JSON file, written whole and
fsynced) until the broker has taken it, so that a game finished while the broker or the
network is down is sent when it is back, after a power cut too.

>>> import tempfile
>>> box = Outbox(Path(tempfile.mkdtemp()) / "game.jsonl.club-outbox")
>>> name = box.put("tablekit/club/tables/A/games/A-1", {"game_id": "A-1"})
>>> [(n == name, topic) for n, topic, _ in box.waiting()]
[(True, 'tablekit/club/tables/A/games/A-1')]
>>> box.remove(name); box.waiting()
[]
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path
from typing import Any


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
        part = self.folder / (name + ".part")
        with part.open("w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(part, self.folder / name)
        _sync_folder(self.folder)
        return name

    def waiting(self) -> list[tuple[str, str, bytes]]:
        """(name, topic, payload as sent) of each message waiting, oldest first; a file that
        cannot be read (torn by a power cut before its rename) is left out."""
        if not self.folder.is_dir():
            return []
        found = []
        for path in sorted(self.folder.glob("*.json"), key=_age):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                payload = json.dumps(data["payload"], ensure_ascii=False).encode()
                found.append((path.name, str(data["topic"]), payload))
            except (OSError, ValueError, KeyError, TypeError):
                continue
        return found

    def remove(self, name: str) -> None:
        """The broker has ``name``: it waits no more."""
        with contextlib.suppress(FileNotFoundError):
            (self.folder / name).unlink()


def _age(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _sync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
