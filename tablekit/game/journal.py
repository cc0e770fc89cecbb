"""The journal: every event appended as one JSON line and fsynced before anyone sees it.

A power cut can at worst leave a torn last line, which was never shown (the
display only updates after the fsync); :func:`read_journal` drops it and says so.

>>> import tempfile, pathlib
>>> from tablekit.game.events import GameStarted
>>> path = pathlib.Path(tempfile.mkdtemp()) / "game.jsonl"
>>> with Journal(path) as journal:
...     journal.append(GameStarted({"base": "tenhou"}))
>>> read_journal(path).events
[GameStarted(rules={'base': 'tenhou'}, names=(), first_dealer=0)]
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from tablekit.game.events import BadEvent, Event, from_json, to_json


@dataclass
class JournalContents:
    events: list[Event] = field(default_factory=list)
    torn_tail: str = ""  # a partial last line dropped after a power cut


class Journal:
    """An append-only, fsynced JSON-lines file of events."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        _trim_torn_tail(self.path)
        self._file = self.path.open("a", encoding="utf-8")

    def append(self, event: Event) -> None:
        self._file.write(to_json(event) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def read_journal(path: Path) -> JournalContents:
    """All complete events of a journal; a line that is not an event is an error."""
    contents = JournalContents()
    if not Path(path).exists():
        return contents
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    lines = text.split("\n")
    if lines and lines[-1]:
        contents.torn_tail = lines.pop()
    for number, line in enumerate(lines, start=1):
        if line.strip():
            try:
                contents.events.append(from_json(line))
            except BadEvent as error:
                raise BadEvent(f"{path}, line {number}: {error}") from None
    return contents


def _trim_torn_tail(path: Path) -> None:
    """Cut a partial last line so that the next event starts on a line of its own."""
    if not path.exists():
        return
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        keep = data.rfind(b"\n") + 1
        with path.open("r+b") as handle:
            handle.truncate(keep)
            handle.flush()
            os.fsync(handle.fileno())
