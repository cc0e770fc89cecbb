"""Damaged journals, made on purpose: each case breaks a real game's journal one way and
checks that the app still starts on the game it can trust.

Used by the tests and by ``benchmarks/faults.py``. A case turns the journal's lines
(header first) into the damaged file's bytes and says how many events stay trusted.

>>> [case.name for case in CASES][:3]
['garbage mid-file', 'unknown event type', 'event contradicts the table']
"""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any
from unittest import mock

from tablekit.app.loop import open_session
from tablekit.flow import Flow
from tablekit.game.events import Draw, Event, GameStarted, RiichiDeclared, to_dict
from tablekit.game.journal import FORMAT, Journal, JournalError, seal
from tablekit.game.reducer import replay
from tablekit.game.session import Session, in_force
from tablekit.rules.presets import TENHOU

Damage = Callable[[list[bytes], int], tuple[bytes, int]]  # lines, middle -> (file, trusted)


def _line(number: int, data: dict) -> bytes:
    return seal(json.dumps({"n": number, **data})).encode()


def _insert(lines: list[bytes], index: int, line: bytes) -> bytes:
    return b"\n".join([*lines[:index], line, *lines[index:]]) + b"\n"


def _garbage(lines: list[bytes], k: int) -> tuple[bytes, int]:
    return _insert(lines, k + 1, b"\x00\xffgarbage{"), k


def _unknown(lines: list[bytes], k: int) -> tuple[bytes, int]:
    return _insert(lines, k + 1, _line(k + 1, {"type": "tea_break"})), k


def _contradicts(lines: list[bytes], k: int) -> tuple[bytes, int]:
    return _insert(lines, k + 1, _line(k + 1, to_dict(RiichiDeclared(9)))), k


def _repeated(lines: list[bytes], k: int) -> tuple[bytes, int]:
    return _insert(lines, k + 1, lines[k]), k


def _lost(lines: list[bytes], k: int) -> tuple[bytes, int]:
    return b"\n".join([*lines[:k + 1], *lines[k + 2:]]) + b"\n", k


def _cut_at_end(lines: list[bytes], k: int) -> tuple[bytes, int]:
    return b"\n".join(lines[:-1]) + b"\n" + lines[-1][:len(lines[-1]) // 2], len(lines) - 2


def _torn_mid_file(lines: list[bytes], k: int) -> tuple[bytes, int]:
    cut = [*lines[:k + 1], lines[k + 1][:7], *lines[k + 1:]]
    return b"\n".join(cut) + b"\n", k


def _changed_byte(lines: list[bytes], k: int) -> tuple[bytes, int]:
    line = bytearray(lines[k + 1])
    line[len(line) // 3] ^= 0x04  # one bit, as a failing card flips it
    return b"\n".join([*lines[:k + 1], bytes(line), *lines[k + 2:]]) + b"\n", k


def _newer(lines: list[bytes], k: int) -> tuple[bytes, int]:
    header = json.dumps({"type": "journal", "format": FORMAT + 1}).encode()
    return b"\n".join([header, *lines[1:]]) + b"\n", 0


def _not_a_journal(lines: list[bytes], k: int) -> tuple[bytes, int]:
    return b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4, 0


def _old_format(lines: list[bytes], k: int) -> tuple[bytes, int]:
    plain = [json.dumps(_plain(line, "n")).encode() for line in lines[1:]]
    return b"\n".join(plain) + b"\n", len(lines) - 1


def _format_2(lines: list[bytes], k: int) -> tuple[bytes, int]:
    numbered = [json.dumps(_plain(line)).encode() for line in lines[1:]]
    header = json.dumps({"type": "journal", "format": 2}).encode()
    return b"\n".join([header, *numbered]) + b"\n", len(lines) - 1


def _plain(line: bytes, *drop: str) -> dict:
    """A journal line's fields without its checksum and what format 3 added."""
    return {key: v for key, v in json.loads(line).items()
            if key not in ("crc", "before", "at", *drop)}


@dataclass(frozen=True)
class Case:
    name: str
    damage: Damage
    damaged: bool = True     # False: a sound file (an old format) that must load as it is
    unreadable: bool = False
    refused: bool = False    # never a journal: refused in one line, the file left as it is


CASES = (
    Case("garbage mid-file", _garbage),
    Case("unknown event type", _unknown),
    Case("event contradicts the table", _contradicts),
    Case("line repeated", _repeated),
    Case("line lost", _lost),
    Case("cut in the middle of the last line", _cut_at_end),
    Case("torn line mid-file", _torn_mid_file),
    Case("a changed byte", _changed_byte),
    Case("newer format", _newer),
    Case("not a journal", _not_a_journal, refused=True),
    Case("unreadable file", _garbage, unreadable=True),
    Case("old format without a header", _old_format, damaged=False),
    Case("format 2: numbered lines without checksums", _format_2, damaged=False),
)


@dataclass
class Outcome:
    """What held for one case; ``held`` is True when everything did."""

    name: str
    problems: list[str] = field(default_factory=list)
    notice: str = ""

    @property
    def held(self) -> bool:
        return not self.problems


def write_game(path: Path, events: list[Event]) -> list[bytes]:
    """Journal ``events`` at ``path`` as the app does; the file's lines."""
    with Journal(path) as journal:
        journal.append_all(events, [False] * len(events))
    return path.read_bytes().rstrip(b"\n").split(b"\n")


def run_case(case: Case, events: list[Event], folder: Path) -> Outcome:
    """Damage a journal of ``events`` in ``folder`` as ``case`` says; open it as the app does."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "game.jsonl"
    data, trusted = case.damage(write_game(path, events), len(events) // 2)
    path.write_bytes(data)
    outcome, log = Outcome(case.name), []
    if case.refused:
        return _check_refused(outcome, path, data)
    try:
        with _unreadable(path) if case.unreadable else nullcontext():
            session = open_session(path, TENHOU, log.append)
        flow = Flow(session)
        flow.screen()
    except Exception as error:  # the case fails, the benchmark goes on
        outcome.problems.append(f"did not start: {type(error).__name__}: {error}")
        return outcome
    outcome.notice = session.notice
    _check(outcome, case, session, flow, events[:trusted] if not case.unreadable else [])
    _check_kept(outcome, case, folder, data)
    session.close()
    return outcome


def _check_refused(outcome: Outcome, path: Path, data: bytes) -> Outcome:
    """A file that was never a journal: refused in one line naming it, and left as it was."""
    try:
        open_session(path, TENHOU, lambda line: None).close()
        outcome.problems.append("a file that is not a journal was opened as one")
    except JournalError as error:
        outcome.notice = str(error)
        if path.name not in outcome.notice or "\n" in outcome.notice:
            outcome.problems.append(f"the refusal does not name the file: {outcome.notice!r}")
    if path.read_bytes() != data or list(path.parent.glob("game.jsonl.damaged-*")):
        outcome.problems.append("the file that is not a journal was changed or moved")
    return outcome


def _check(outcome: Outcome, case: Case, session: Session, flow: Flow, trusted: list[Event]
           ) -> None:
    expected = (replay(in_force(trusted)[0]) if trusted else
                replay([GameStarted(TENHOU)]))
    if session.state != expected:
        outcome.problems.append(f"shows the wrong game ({session.state.events} events)")
    notice = session.notice
    if case.damaged and ("game.jsonl" not in notice or flow.screen().message != notice):
        outcome.problems.append(f"the screen does not say what happened: {notice!r}")
    if not case.damaged and notice:
        outcome.problems.append(f"a sound journal gave a notice: {notice!r}")


def _check_kept(outcome: Outcome, case: Case, folder: Path, data: bytes) -> None:
    kept = sorted(folder.glob("game.jsonl.damaged-*"))
    if not case.damaged:
        if kept:
            outcome.problems.append("a sound journal was kept aside")
        return
    if len(kept) != 1 or kept[0].read_bytes() != data:
        outcome.problems.append("the damaged file was not kept aside untouched")


def _unreadable(path: Path) -> mock._patch:
    """Reading ``path`` fails as a file without read permission does (even for root)."""
    real = Path.open

    def open_(self: Path, mode: str = "r", *args: Any, **kwargs: Any) -> IO[Any]:
        if self == path and "r" in mode:
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real(self, mode, *args, **kwargs)

    return mock.patch.object(Path, "open", open_)


def failing_writer(fd: int, data: bytes) -> int:
    """A journal writer on a full disk: a few bytes go down, then ENOSPC."""
    os.write(fd, data[:5])
    raise OSError(errno.ENOSPC, "No space left on device")


def run_disk_full(events: list[Event], folder: Path) -> Outcome:
    """The disk fills while a camera event is saved: the points do not move, the screen says
    so, and once there is room again the game goes on and resumes cleanly."""

    folder.mkdir(parents=True, exist_ok=True)
    path, outcome = folder / "game.jsonl", Outcome("disk full while writing")
    k = next(i for i, e in enumerate(events) if i >= len(events) // 2 and isinstance(e, Draw))
    write_game(path, events[:k])
    session = open_session(path, TENHOU, lambda line: None)
    flow, before, data = Flow(session), session.state, path.read_bytes()
    session.journal.writer = failing_writer
    flow.handle(events[k])
    outcome.notice = flow.screen().message
    if session.state != before or path.read_bytes() != data:
        outcome.problems.append("a failed write moved the game or left bytes behind")
    if "could not save" not in outcome.notice or "game.jsonl" not in outcome.notice:
        outcome.problems.append(f"the screen does not say the save failed: {outcome.notice!r}")
    session.journal.writer = os.write
    flow.handle(events[k])
    session.close()
    again = Session.open(path)
    if again.notice or again.state != replay(in_force(events[:k + 1])[0]):
        outcome.problems.append(f"after the disk had room again: {again.notice!r}")
    again.close()
    return outcome
