"""The journal: every event appended as one JSON line and fsynced before anyone sees it.

A power cut can at worst leave a torn last line, which was never shown (the
display only updates after the fsync); :func:`read_journal` drops it and says so.
An event that is part of the action before it (a discard with its draw, a win with its
corrections: one UNDO takes them back together) carries ``"joins": true`` on its line;
a line without it starts an action, so journals written before actions had more than
one event read as they always did.

>>> import tempfile, pathlib
>>> from tablekit.game.events import GameStarted
>>> path = pathlib.Path(tempfile.mkdtemp()) / "game.jsonl"
>>> with Journal(path) as journal:
...     journal.append(GameStarted({"base": "tenhou"}))
>>> read_journal(path).events
[GameStarted(rules={'base': 'tenhou'}, names=(), first_dealer=0)]
>>> from tablekit.game.events import GameEnded
>>> to_line(GameEnded("time"), joins=True)
'{"type": "game_ended", "reason": "time", "joins": true}'
>>> read_line(to_line(GameEnded("time"), joins=True))
(GameEnded(reason='time'), True)
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from tablekit.game.events import BadEvent, Event, from_dict, to_dict


@dataclass
class JournalContents:
    events: list[Event] = field(default_factory=list)
    joins: list[bool] = field(default_factory=list)  # each event: part of the action before
    torn_tail: str = ""  # a partial last line dropped after a power cut


class Journal:
    """An append-only, fsynced JSON-lines file of events."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        _trim_torn_tail(self.path)
        self._file = self.path.open("a", encoding="utf-8")

    def append(self, event: Event, joins: bool = False) -> None:
        """Write ``event`` (``joins``: part of the action before it) and fsync it."""
        self._file.write(to_line(event, joins) + "\n")
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
                event, joins = read_line(line)
            except BadEvent as error:
                raise BadEvent(f"{path}, line {number}: {error}") from None
            contents.events.append(event)
            contents.joins.append(joins)
    return contents


def to_line(event: Event, joins: bool = False) -> str:
    """One journal line: the event's JSON, marked when it joins the action before it."""
    return json.dumps({**to_dict(event), **({"joins": True} if joins else {})},
                      ensure_ascii=False)


def read_line(line: str) -> tuple[Event, bool]:
    """The event on a journal line, and whether it joins the action before it."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        raise BadEvent(f"not a JSON event: {line[:80]!r} ({error})") from None
    if not isinstance(data, dict):
        raise BadEvent(f"not a JSON event: {line[:80]!r}")
    joins = data.pop("joins", False) is True
    return from_dict(data), joins


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
