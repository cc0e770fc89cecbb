"""The journal: every event appended as one JSON line and fsynced before anyone sees it.

The file starts with a header line naming its format; each event line after it
carries its number ``n`` (1, 2, 3...), so a repeated, lost or reordered line shows, and
(format 3) a checksum of the rest of the line, ``crc`` (CRC32), so a changed byte shows.
A file without the header is a journal of format 1 (plain event lines), one with format 2
has numbered lines without checksums: both still load. A power cut can at worst leave a
torn last line, which was never shown (the display only updates after the fsync).

An event that is part of the action before it (a discard with its draw, a win with its
corrections: one UNDO takes them back together) carries ``"joins": true`` on its line;
a line without it starts an action, so journals written before actions had more than
one event read as they always did. A game's start carries ``"before"``: how many events
were in force before it, so that the game in play can be read from its start alone
(:func:`salvage_tail`) however long the season's journal has grown, and ``"at"``: when it
started (UTC), so that an evening's games can be told from the season's.

>>> import tempfile, pathlib
>>> from tablekit.game.events import GameStarted
>>> path = pathlib.Path(tempfile.mkdtemp()) / "game.jsonl"
>>> with Journal(path, clock=lambda: 1796324400.0) as journal:
...     journal.append(GameStarted(), before=0)
>>> header, line = path.read_text().splitlines()
>>> header
'{"type": "journal", "format": 3}'
>>> line[:61]  # every option of the rules follows, then the checksum
'{"n": 1, "type": "game_started", "rules": {"name": "tenhou", '
>>> line[line.index('"before"'):]
'"before": 0, "at": "2026-12-03T19:00:00+00:00", "crc": "99e9a2f3"}'
>>> read_journal(path).events == [GameStarted()]
True
>>> from tablekit.game.events import GameEnded
>>> with Journal(path) as journal:
...     journal.append(GameEnded("time"), joins=True)
>>> print(path.read_text().splitlines()[-1])
{"n": 2, "type": "game_ended", "reason": "time", "joins": true, "crc": "df078aa8"}
>>> read_journal(path).joins
[False, True]
"""

from __future__ import annotations

import json
import mmap
import os
import re
import stat
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType

from tablekit.files.atomic import atomic_path
from tablekit.game.events import (
    EVENT_TYPES,
    BadEvent,
    Event,
    GameStarted,
    Redo,
    Undo,
    from_dict,
    to_dict,
)
from tablekit.untrusted import Untrusted
from tablekit.untrusted.files import kind_of
from tablekit.untrusted.json_text import parse_json

FORMAT = 3
HEADER = {"type": "journal", "format": FORMAT}
Writer = Callable[[int, bytes], int]
_HEADER_START = b'{"type": "journal"'
_GAME_START = b'"type": "game_started"'
_CRC = b', "crc": "'
_SEAL = len(_CRC) + 8 + 2  # ', "crc": "xxxxxxxx"}'
_TAIL_READ = 1 << 16  # bytes read from the end to find the last line
_LINE_START = re.compile(rb'^\{(?:"n": \d+, )?"type": "([a-z_]+)"', re.MULTILINE)


class JournalError(BadEvent):
    """A journal that cannot be read or written; the message names the file (and line)."""


@dataclass
class JournalContents:
    """What a journal holds: the events readable from where reading began, and what
    stopped the rest.

    ``lines[i]`` is the file line of ``events[i]`` and ``offsets[i]`` the byte it starts
    at; ``problem`` names the first line that is not a clean event (empty when every line
    is), ``problem_offset`` where it starts; ``torn_tail`` is a partial last line, starting
    at ``torn_offset``; ``joins[i]``: ``events[i]`` is part of the action before it.
    ``skipped`` events before ``events[0]`` were not read (:func:`salvage_tail`), of which
    ``before`` were in force; ``end``: where the lines that were read end.
    """

    events: list[Event] = field(default_factory=list)
    joins: list[bool] = field(default_factory=list)
    torn_tail: str = ""
    format: int = FORMAT
    lines: list[int] = field(default_factory=list)
    problem: str = ""
    problem_line: int = 0
    offsets: list[int] = field(default_factory=list)
    problem_offset: int = 0
    torn_offset: int = 0
    skipped: int = 0
    before: int = 0
    end: int = 0  # the byte after the last line read up to the problem or the torn tail


class Journal:
    """An append-only, fsynced JSON-lines file of events.

    ``writer`` does the raw writes (``os.write``; a test passes one that fails). A write
    that fails raises :class:`JournalError` and leaves the file as it was before it.
    """

    def __init__(self, path: Path, writer: Writer = os.write,
                 clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self.writer, self.clock = writer, clock
        self._fd = -1
        require_regular(self.path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            _trim_torn_tail(self.path)
            head, last = _ends(self.path)
            self.format = _format_of(head) if head else FORMAT
            self._next = 1 + (_count_events(self.path, self.format, last) if head else 0)
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as error:
            raise JournalError(f"cannot keep the journal {self.path} "
                               f"({error.strerror or error}): choose another with --journal, "
                               "or check the card") from None
        if not head:
            self._put(json.dumps(HEADER) + "\n")

    def append(self, event: Event, joins: bool = False, before: int | None = None) -> None:
        """Write ``event`` (``joins``: part of the action before it; ``before``: for a
        game's start, the events in force before it) and fsync it; on a failed write
        nothing of it stays in the file."""
        self._put(self._line(event, joins, before))
        self._next += 1

    def append_all(self, events: Sequence[Event], joins: Sequence[bool]) -> None:
        """Write ``events`` (with their join marks) in one write and one fsync: for a
        journal written whole, as :func:`write_journal` does."""
        lines = []
        for event, joined, before in zip(events, joins, in_force_counts(events), strict=True):
            lines.append(self._line(event, joined, before))
            self._next += 1
        if lines:
            self._put("".join(lines))

    def _line(self, event: Event, joins: bool, before: int | None) -> str:
        number = {"n": self._next} if self.format >= 2 else {}
        mark = {"joins": True} if joins else {}
        if before is not None and self.format >= 3 and isinstance(event, GameStarted):
            mark["before"] = before
            mark["at"] = datetime.fromtimestamp(self.clock(), UTC).isoformat(timespec="seconds")
        text = json.dumps({**number, **to_dict(event), **mark}, ensure_ascii=False)
        return (seal(text) if self.format >= 3 else text) + "\n"

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


def seal(text: str) -> str:
    """A JSON object's text with the CRC32 of that text as its last field.

    >>> seal('{"n": 1}')
    '{"n": 1, "crc": "0af73c42"}'
    >>> unseal(seal('{"n": 1}').encode())
    b'{"n": 1}'
    """
    return f'{text[:-1]}, "crc": "{zlib.crc32(text.encode("utf-8")):08x}"}}'


def unseal(line: bytes) -> bytes:
    """The text a sealed line was made from; :class:`BadEvent` when its checksum fails.

    >>> unseal(b'{"n": 2, "crc": "0af73c42"}')
    Traceback (most recent call last):
    ...
    tablekit.game.events.BadEvent: the line's checksum fails (a damaged line)
    """
    mark = len(line) - _SEAL
    if mark < 1 or line[mark:mark + len(_CRC)] != _CRC or not line.endswith(b'"}'):
        raise BadEvent("a line without its checksum (a damaged line)")
    text = line[:mark] + b"}"
    try:
        expected = int(line[mark + len(_CRC):-2], 16)
    except ValueError:
        expected = -1
    if zlib.crc32(text) != expected:
        raise BadEvent("the line's checksum fails (a damaged line)")
    return text


def require_regular(path: Path) -> None:
    """Raise :class:`JournalError` (one line) when ``path`` is there and is no regular
    file: a FIFO would hang every read and write of it, a device such as ``/dev/zero``
    never ends. Told by ``fstat`` on a non-blocking open, never by reading.

    >>> require_regular(Path("/dev/zero"))
    Traceback (most recent call last):
    ...
    tablekit.game.journal.JournalError: /dev/zero is not a regular file (a character \
device): left it as it is; name a file with --journal
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return  # no file (a new journal), or one that cannot be opened: opening says why
    try:
        mode = os.fstat(fd).st_mode
    finally:
        os.close(fd)
    if not stat.S_ISREG(mode):
        raise JournalError(f"{path} is not a regular file ({kind_of(mode)}): left it as it "
                           "is; name a file with --journal")


def is_journal(path: Path) -> bool:
    """Whether ``path`` may hold a tablekit journal: no file, an empty one, or one with at
    least one line tablekit writes (its header, even torn, or an event's line, even damaged).
    A picture, a note or another program's log has none. A file that cannot be read counts
    as a journal: opening it says why it cannot be read.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "photo.png").write_bytes(b"\\x89PNG\\r\\n\\x1a\\n" + bytes(range(256)))
    >>> _ = (folder / "torn.jsonl").write_bytes(b'{"type": "jour')
    >>> _ = (folder / "old.jsonl").write_text('{"type": "game_ended", "reason": "time"}\\n')
    >>> _ = (folder / "mjai.json").write_text('{"type":"start_game","names":["A"]}\\n')
    >>> [is_journal(folder / name) for name in ("photo.png", "torn.jsonl", "old.jsonl",
    ...                                         "mjai.json", "none.jsonl")]
    [False, True, True, False, True]
    """
    try:
        require_regular(Path(path))  # a FIFO is never opened to be read here
        with Path(path).open("rb") as handle:
            if not os.fstat(handle.fileno()).st_size:
                return True
            if _HEADER_START.startswith(handle.read(len(_HEADER_START))):
                return True
            with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
                return any(match[1].decode() in EVENT_TYPES
                           for match in _LINE_START.finditer(data))
    except (OSError, JournalError):
        return True


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
    return _salvage(Path(path), tail=0)


EVENING_GAP = 6 * 3600.0  # seconds between two games' starts that begin a new evening


def salvage_evening(path: Path, gap: float = EVENING_GAP) -> JournalContents:
    """As :func:`salvage_tail`, from the start of the evening's first game: the games
    after the last break of more than ``gap`` seconds between two games' starts (a
    journal whose games' starts carry no time: from its start)."""
    return _salvage(Path(path), tail=1, gap=gap)


def salvage_tail(path: Path, games: int = 1) -> JournalContents:
    """As :func:`salvage_journal`, from the start of the game in force at the end of the
    journal (``games``: of that many games back; ``skipped`` events before it not read,
    ``before`` of them in force): its cost is the last games', however many came before.
    A journal whose games' starts do not say what was in force before them (formats 1 and
    2), or whose last game's start an UNDO took back, is read further back, from its start
    if need be."""
    return _salvage(Path(path), tail=games)


def _salvage(path: Path, tail: int, gap: float | None = None) -> JournalContents:
    contents = JournalContents()
    if not path.exists():
        return contents
    try:
        require_regular(path)
    except JournalError as error:
        contents.problem = str(error)
        return contents
    try:
        with path.open("rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if not size:
                return contents
            with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
                return _read(path, data, size, tail, gap)
    except OSError as error:
        contents.problem = f"{path}: cannot be read ({error.strerror or error})"
        return contents


def _read(path: Path, data: mmap.mmap, size: int, tail: int, gap: float | None = None
          ) -> JournalContents:
    end_of_first = data.find(b"\n")
    first_line = bytes(data[:end_of_first if end_of_first >= 0 else size])
    version = _format_of(first_line)
    start = end_of_first + 1 if first_line.startswith(_HEADER_START) else 0
    if version > FORMAT:
        contents = JournalContents(format=version)
        _stop(contents, path, 1, f"written by a newer tablekit (journal format "
                                 f"{version}; this one reads up to {FORMAT})")
        return contents
    search, found = size, 0
    if tail and version >= 3 and gap is not None:
        search = _evening_start(data, start, size, gap)
    while tail and version >= 3:
        at = _game_start_before(data, start, search)
        if at is None:
            break
        contents = _parse(path, bytes(data[at:size]), at, version, first_line=None)
        found += _trusted_from(contents)
        if found == tail:
            return contents
        search = at
    return _parse(path, bytes(data[start:size]), start, version, first_line=1 + (start > 0))


def _game_start_before(data: mmap.mmap, start: int, end: int) -> int | None:
    """Where the last line before ``end`` that starts a game begins (None: no such line)."""
    found = data.rfind(_GAME_START, start, end)
    return None if found < 0 else data.rfind(b"\n", 0, found) + 1


def read_added(path: Path, start: int, after: int) -> JournalContents:
    """The events of the lines added to a journal from byte ``start`` on, the first of them
    event number ``after + 1``: for following a journal another process appends to."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            version = _format_of(handle.readline())
            handle.seek(start)
            block = handle.read()
    except OSError as error:
        return JournalContents(problem=f"{path}: cannot be read ({error.strerror or error})",
                               end=start, skipped=after)
    return _parse(path, block, start, version, after + 2, after)


def _evening_start(data: mmap.mmap, start: int, size: int, gap: float) -> int:
    """Where to look back from for the evening's first game: the end of its start's line
    (``start``: no game's start says when it was)."""
    search, later, found = size, None, start
    while (at := _game_start_before(data, start, search)) is not None:
        end = data.find(b"\n", at, size)
        end = size if end < 0 else end
        when = _started_at(data[at:end])
        if when is None or (later is not None and later - when > gap):
            break
        later, search, found = when, at, end
    return found


def _started_at(line: bytes) -> float | None:
    """When the game a sealed start line begins started (None: it does not say)."""
    try:
        return datetime.fromisoformat(parse_json(unseal(line))["at"]).timestamp()
    except (BadEvent, ValueError, KeyError, TypeError):
        return None


def _trusted_from(contents: JournalContents) -> bool:
    """The events read from a game's start stand alone: the start says what was in force
    before it, and no UNDO after it reaches back past it."""
    if not contents.events or not isinstance(contents.events[0], GameStarted) or (
            contents.before < 0):
        return False
    active = undone = 0
    for event in contents.events:
        if isinstance(event, Undo):
            if event.count > active - 1:  # the game's start itself stays in force
                return False
            active, undone = active - event.count, undone + event.count
        elif isinstance(event, Redo):
            if event.count > undone:
                return False
            active, undone = active + event.count, undone - event.count
        else:
            active, undone = active + 1, 0
    return True


def _parse(path: Path, block: bytes, start: int, version: int, first_line: int | None,
           after: int = 0) -> JournalContents:
    """The events of the lines of ``block``, which starts at byte ``start`` of the file
    (``first_line``: its line number; None: a game's start, numbered by its event number;
    ``after``: the events before it)."""
    contents = JournalContents(format=version, before=-1, skipped=after)
    size = start + len(block)
    lines = block.split(b"\n")
    offset = start
    if lines and lines[-1]:
        contents.torn_tail = lines.pop().decode("utf-8", errors="replace")
        contents.torn_offset = start + block.rfind(b"\n") + 1
    number = first_line
    for line in lines:
        at, offset = offset, offset + len(line) + 1
        if not line.strip():
            number = None if number is None else number + 1
            continue
        try:
            fields = _fields(line, version)
            if number is None:  # the first line read: where the numbering starts
                number, contents.skipped = _first_number(fields, version)
                contents.before = _before(fields)
            event, joins = _event(fields, version, contents.skipped + len(contents.events) + 1)
        except BadEvent as error:
            _stop(contents, path, number or 0, str(error))
            contents.problem_offset = at
            break
        contents.events.append(event)
        contents.joins.append(joins)
        contents.lines.append(number)
        contents.offsets.append(at)
        number += 1
    if first_line is not None:
        contents.before = 0
    contents.end = (contents.problem_offset if contents.problem else
                    contents.torn_offset if contents.torn_tail else size)
    return contents


def _first_number(fields: dict, version: int) -> tuple[int, int]:
    """The line number and the events before it of a game's start read first."""
    number = fields.get("n")
    if version < 2 or not isinstance(number, int) or number < 1:
        raise BadEvent("a game's start without its number")
    return number + 1, number - 1


def _before(fields: dict) -> int:
    before = fields.get("before")
    return before if isinstance(before, int) and not isinstance(before, bool) and before >= 0 \
        else -1


def _stop(contents: JournalContents, path: Path, line: int, reason: str) -> None:
    contents.problem, contents.problem_line = f"{path}, line {line}: {reason}", line


def _fields(line: bytes, version: int) -> dict:
    """A line's JSON object (its checksum checked and taken off in format 3)."""
    try:
        data = parse_json(unseal(line) if version >= 3 else line)
    except Untrusted:  # not JSON, nested too deep, NaN, a line over 1 MiB
        raise BadEvent(f"not a JSON event: {_shown(line)!r}") from None
    except BadEvent:
        if not _is_json(line):
            raise BadEvent(f"not a JSON event: {_shown(line)!r}") from None
        raise
    if not isinstance(data, dict):
        raise BadEvent(f"not a JSON event: {_shown(line)!r}")
    return data


def _is_json(line: bytes) -> bool:
    try:
        parse_json(line)
    except Untrusted:
        return False
    return True


def _shown(line: bytes) -> str:
    return line.decode("utf-8", errors="replace")[:60]


def _event(data: dict, version: int, expected: int) -> tuple[Event, bool]:
    """The event of a line's fields, and whether it joins the action before it."""
    data = dict(data)
    if version >= 2:
        number = data.pop("n", None)
        if number != expected:
            raise BadEvent(f"event number {number} where {expected} was due "
                           "(a line repeated, lost or out of order)")
    joins = data.pop("joins", False) is True
    if version >= 3 and data.get("type") == "game_started":
        data.pop("before", None)
        data.pop("at", None)
    return from_dict(data), joins


def _format_of(first_line: bytes) -> int:
    """The format a journal's first line names; 1 for a journal without a header."""
    first = first_line.split(b"\n", 1)[0]
    if not first.startswith(_HEADER_START):
        return 1
    try:
        return int(parse_json(first).get("format", 1))
    except (ValueError, TypeError, AttributeError):
        return FORMAT + 1  # a header nobody can read: treated as a format from the future


def _ends(path: Path) -> tuple[bytes, bytes]:
    """A journal's first line and its last whole line (both empty for no file)."""
    if not path.exists():
        return b"", b""
    with path.open("rb") as handle:
        head = handle.readline()
        size = os.fstat(handle.fileno()).st_size
        handle.seek(max(0, size - _TAIL_READ))
        end = handle.read()
    lines = [line for line in end.split(b"\n") if line.strip()]
    return head, lines[-1] if lines and size > len(head) else b""


def _count_events(path: Path, version: int, last: bytes) -> int:
    """How many events a journal holds: its last line's number, or (format 1, or a last
    line that does not say) its lines counted."""
    if version >= 2 and last:
        try:
            number = parse_json(unseal(last) if version >= 3 else last).get("n")
        except (BadEvent, ValueError, AttributeError):
            number = None
        if isinstance(number, int):
            return number
    if not path.exists():
        return 0
    lines = [line for line in path.read_bytes().split(b"\n") if line.strip()]
    return len(lines) - (1 if lines and lines[0].startswith(_HEADER_START) else 0)


def write_journal(path: Path, events: list[Event], joins: list[bool] | None = None,
                  clock: Callable[[], float] = time.time) -> None:
    """Replace ``path`` with a journal of ``events`` (written aside as ``NAME.new``, fsynced,
    renamed in: :func:`tablekit.files.atomic.atomic_path`; a write that fails leaves the old
    journal and no side file); ``joins``: each event's mark, as :class:`JournalContents`
    holds them; ``clock``: the time each game's start is written with."""
    with atomic_path(path, side=".new") as temporary, Journal(temporary, clock=clock) as journal:
        journal.append_all(events, joins or [False] * len(events))


def in_force_counts(events: Sequence[Event]) -> list[int]:
    """How many events were in force just before each event.

    >>> from tablekit.game.events import GameEnded
    >>> a = GameEnded("a")
    >>> in_force_counts([a, a, Undo(2), Redo(), a])
    [0, 1, 2, 0, 1]
    """
    counts: list[int] = []
    active = undone = 0
    for event in events:
        counts.append(active)
        if isinstance(event, Undo):
            active, undone = active - event.count, undone + event.count
        elif isinstance(event, Redo):
            active, undone = active + event.count, undone - event.count
        else:
            active, undone = active + 1, 0
    return counts


def cut_journal(path: Path, size: int) -> None:
    """Cut ``path`` back to its first ``size`` bytes, on disk before this returns."""
    with Path(path).open("r+b") as handle:
        handle.truncate(size)
        handle.flush()
        os.fsync(handle.fileno())


def _trim_torn_tail(path: Path) -> None:
    """Cut a partial last line so that the next event starts on a line of its own."""
    if not path.exists():
        return
    with path.open("rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        handle.seek(max(0, size - _TAIL_READ))
        end = handle.read()
    if end and not end.endswith(b"\n"):
        cut = end.rfind(b"\n")
        if cut < 0 and size > len(end):  # a last line longer than what was read
            data = path.read_bytes()
            keep = data.rfind(b"\n") + 1
        else:
            keep = size - len(end) + cut + 1
        cut_journal(path, keep)
