"""The journal: every event appended as one JSON line and fsynced before anyone sees it.

The file starts with a header line naming its format; each event line after it
carries its number ``n`` (1, 2, 3...), so a repeated, lost or reordered line shows.
A file without the header is a journal of format 1 (plain event lines) and still
loads. A power cut can at worst leave a torn last line, which was never shown
(the display only updates after the fsync).

An event that is part of the action before it (a discard with its draw, a win with its
corrections: one UNDO takes them back together) carries ``"joins": true`` on its line;
a line without it starts an action, so journals written before actions had more than
one event read as they always did.

>>> import tempfile, pathlib
>>> from tablekit.game.events import GameStarted
>>> path = pathlib.Path(tempfile.mkdtemp()) / "game.jsonl"
>>> with Journal(path) as journal:
...     journal.append(GameStarted())
>>> header, line = path.read_text().splitlines()
>>> header
'{"type": "journal", "format": 2}'
>>> line[:61]  # every option of the rules follows
'{"n": 1, "type": "game_started", "rules": {"name": "tenhou", '

>>> read_journal(path).events == [GameStarted()]
True
>>> from tablekit.game.events import GameEnded
>>> with Journal(path) as journal:
...     journal.append(GameEnded("time"), joins=True)
>>> print(path.read_text().splitlines()[-1])
{"n": 2, "type": "game_ended", "reason": "time", "joins": true}
>>> read_journal(path).joins
[False, True]
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from tablekit.game.events import BadEvent, Event, from_dict, to_dict

FORMAT = 2
HEADER = {"type": "journal", "format": FORMAT}
Writer = Callable[[int, bytes], int]


class JournalError(BadEvent):
    """A journal that cannot be read or written; the message names the file (and line)."""


@dataclass
class JournalContents:
    """What a journal holds: the events readable from its start, and what stopped the rest.

    ``lines[i]`` is the file line of ``events[i]``; ``problem`` names the first line that
    is not a clean event (empty when every line is); ``torn_tail`` is a partial last line;
    ``joins[i]``: ``events[i]`` is part of the action before it.
    """

    events: list[Event] = field(default_factory=list)
    joins: list[bool] = field(default_factory=list)
    torn_tail: str = ""
    format: int = FORMAT
    lines: list[int] = field(default_factory=list)
    problem: str = ""
    problem_line: int = 0


class Journal:
    """An append-only, fsynced JSON-lines file of events.

    ``writer`` does the raw writes (``os.write``; a test passes one that fails). A write
    that fails raises :class:`JournalError` and leaves the file as it was before it.
    """

    def __init__(self, path: Path, writer: Writer = os.write) -> None:
        self.path = Path(path)
        self.writer = writer
        self._fd = -1
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            _trim_torn_tail(self.path)
            data = self.path.read_bytes() if self.path.exists() else b""
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as error:
            raise JournalError(f"cannot keep the journal {self.path} "
                               f"({error.strerror or error}): choose another with --journal, "
                               "or check the card") from None
        self.format = _format_of(data) if data else FORMAT
        self._next = 1 + sum(1 for line in data.split(b"\n")[1:] if line.strip())
        if not data:
            self._put(json.dumps(HEADER) + "\n")

    def append(self, event: Event, joins: bool = False) -> None:
        """Write ``event`` (``joins``: part of the action before it) and fsync it; on a
        failed write nothing of it stays in the file."""
        number = {"n": self._next} if self.format >= 2 else {}
        mark = {"joins": True} if joins else {}
        self._put(json.dumps({**number, **to_dict(event), **mark}, ensure_ascii=False) + "\n")
        self._next += 1

    def _put(self, text: str) -> None:
        data = text.encode("utf-8")
        start = os.lseek(self._fd, 0, os.SEEK_END)
        try:
            done = 0
            while done < len(data):
                done += self.writer(self._fd, data[done:])
            os.fsync(self._fd)
        except OSError as error:
            self._cut_back(start)
            raise JournalError(f"could not save to {self.path} ({error.strerror or error}): "
                               "the points did not move; free space or check the card, "
                               "then try again") from None

    def _cut_back(self, size: int) -> None:
        try:
            os.ftruncate(self._fd, size)
            os.fsync(self._fd)
        except OSError:
            pass  # a torn line left here is cut when the journal is next opened

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def read_journal(path: Path) -> JournalContents:
    """All events of a journal; a line that is not a clean event raises :class:`JournalError`
    naming the file and the line (a torn last line is only reported in ``torn_tail``)."""
    contents = salvage_journal(path)
    if contents.problem:
        raise JournalError(contents.problem)
    return contents


def salvage_journal(path: Path) -> JournalContents:
    """The events before the first line that is not a clean event, and what that line is.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "game.jsonl"
    >>> _ = path.write_text('{"type": "game_ended", "reason": "time"}\\nnot json\\n')
    >>> contents = salvage_journal(path)
    >>> contents.events, contents.format, contents.problem_line
    ([GameEnded(reason='time')], 1, 2)
    """
    path = Path(path)
    contents = JournalContents()
    if not path.exists():
        return contents
    try:
        data = path.read_bytes()
    except OSError as error:
        contents.problem = f"{path}: cannot be read ({error.strerror or error})"
        return contents
    contents.format = _format_of(data)
    lines = data.decode("utf-8", errors="replace").split("\n")
    if lines and lines[-1]:
        contents.torn_tail = lines.pop()
    first = 2 if data.startswith(b'{"type": "journal"') else 1
    if contents.format > FORMAT:
        _stop(contents, path, 1, f"written by a newer tablekit (journal format "
                                 f"{contents.format}; this one reads up to {FORMAT})")
        return contents
    for number, line in enumerate(lines[first - 1:], start=first):
        if not line.strip():
            continue
        try:
            event, joins = _event(line, contents.format, len(contents.events) + 1)
        except BadEvent as error:
            _stop(contents, path, number, str(error))
            break
        contents.events.append(event)
        contents.joins.append(joins)
        contents.lines.append(number)
    return contents


def _stop(contents: JournalContents, path: Path, line: int, reason: str) -> None:
    contents.problem, contents.problem_line = f"{path}, line {line}: {reason}", line


def _event(line: str, version: int, expected: int) -> tuple[Event, bool]:
    """The event on a line, and whether it joins the action before it."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError:
        raise BadEvent(f"not a JSON event: {line[:60]!r}") from None
    if not isinstance(data, dict):
        raise BadEvent(f"not a JSON event: {line[:60]!r}")
    if version >= 2:
        number = data.pop("n", None)
        if number != expected:
            raise BadEvent(f"event number {number} where {expected} was due "
                           "(a line repeated, lost or out of order)")
    joins = data.pop("joins", False) is True
    return from_dict(data), joins


def _format_of(data: bytes) -> int:
    """The format a journal's first line names; 1 for a journal without a header."""
    first = data.split(b"\n", 1)[0]
    if not first.startswith(b'{"type": "journal"'):
        return 1
    try:
        return int(json.loads(first).get("format", 1))
    except (ValueError, TypeError, AttributeError):
        return FORMAT + 1  # a header nobody can read: treated as a format from the future


def write_journal(path: Path, events: list[Event], joins: list[bool] | None = None) -> None:
    """Replace ``path`` with a journal of ``events`` (written aside, fsynced, renamed in);
    ``joins``: each event's mark, as :class:`JournalContents` holds them."""
    path = Path(path)
    temporary = path.with_name(path.name + ".new")
    temporary.unlink(missing_ok=True)
    with Journal(temporary) as journal:
        for event, joined in zip(events, joins or [False] * len(events), strict=True):
            journal.append(event, joined)
    os.replace(temporary, path)
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


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
