"""Opening a journal that may be damaged: keep the game that can be trusted, keep the rest aside.

The trusted game is the longest run of lines that read as events and replay cleanly,
from the start of the last game (or, where that cannot stand alone, from the file's start).
A damaged file is never changed before it is copied (or, when nothing in it can be
trusted, moved) to ``<name>.damaged-<UTC time>``; then the journal is cut back to the
trusted lines. :attr:`Recovery.notice` says in one line
what happened and what to do, for the screen and the log. A file that was never a journal
(no line of one in it: a picture, a note) is refused as it is (:func:`require_journal`).

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "game.jsonl"
>>> _ = path.write_text('{"type": "game_ended"}\\n{"type": "tea_break"}\\n')
>>> recovered = recover(path, lambda events, joins, skipped, before: None)
>>> recovered.events
[GameEnded(reason='ended by the players')]
>>> print(recovered.notice)  # doctest: +ELLIPSIS
/.../game.jsonl, line 2: unknown event type 'tea_break'; kept the file as game.jsonl.damaged-...
>>> sorted(p.name.split("-")[0] for p in path.parent.iterdir())
['game.jsonl', 'game.jsonl.damaged']
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tablekit.game.events import Event
from tablekit.game.journal import (
    FORMAT,
    JournalError,
    cut_journal,
    is_journal,
    require_regular,
    salvage_tail,
)

# (events, their join marks, events before them not read, in force of those) -> (index of
# the first event the game refuses, why) or None when all replay
Check = Callable[[list[Event], list[bool], int, int], tuple[int, str] | None]


@dataclass
class Recovery:
    """The trusted events of a journal, the file kept aside (if any) and the one-line notice.

    ``skipped`` events before ``events`` were not read (the journal's earlier games), of
    which ``before`` are in force (:func:`~tablekit.game.journal.salvage_tail`).
    """

    events: list[Event] = field(default_factory=list)
    notice: str = ""
    kept: Path | None = None
    joins: list[bool] = field(default_factory=list)  # each event: part of the action before
    skipped: int = 0
    before: int = 0


def recover(path: Path, check: Check) -> Recovery:
    """Read ``path`` from its last game's start, find the game it can trust, and put the
    journal right on disk (cut back to the trusted lines, the file kept aside first)."""
    path = Path(path)
    require_journal(path)
    contents = salvage_tail(path)
    if contents.format > FORMAT or (contents.problem and not contents.problem_line):
        kept = _keep_aside(path, move=True)
        after = (": update tablekit to resume that game; started a new one"
                 if contents.format > FORMAT else " and started a new game")
        return Recovery([], f"{contents.problem}; moved it to {kept.name}{after}", kept)
    events, joins, problem = contents.events, contents.joins, contents.problem
    cut = contents.problem_offset if problem else contents.torn_offset
    refused = check(events, joins, contents.skipped, contents.before)
    if refused is not None:
        index, reason = refused
        problem = f"{path}, line {contents.lines[index]}: {reason}"
        events, joins, cut = events[:index], joins[:index], contents.offsets[index]
    trusted = Recovery(events, joins=joins, skipped=contents.skipped, before=contents.before)
    if not problem and not contents.torn_tail:
        return trusted
    kept = _keep_aside(path, move=not events and not contents.skipped)
    if not problem:
        _cut(path, cut)
        trusted.notice = (f"{path}: dropped a half-written last line (a power cut while "
                          f"saving; it was never shown); kept the file as {kept.name}")
    elif not events and not contents.skipped:
        return Recovery([], f"{problem}; moved the file to {kept.name} and started a new game",
                        kept)
    else:
        _cut(path, cut)
        trusted.notice = (f"{problem}; kept the file as {kept.name} and resumed from the "
                          f"{contents.skipped + len(events)} events before it: check the "
                          "scores")
    trusted.kept = kept
    return trusted


def require_journal(path: Path) -> None:
    """Raise :class:`JournalError` (one line) when ``path`` is a folder or holds a file that
    was never a tablekit journal; it is left as it is.

    >>> import tempfile, pathlib
    >>> photo = pathlib.Path(tempfile.mkdtemp()) / "journal.png"
    >>> _ = photo.write_bytes(bytes(range(256)))
    >>> require_journal(photo)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tablekit.game.journal.JournalError: /.../journal.png is not a tablekit journal (no line ...
    """
    if path.is_dir():
        raise JournalError(f"{path} is a folder, not a journal: left it as it is; name a file "
                           "with --journal (e.g. game.jsonl inside it)")
    require_regular(path)  # a FIFO or a device: never opened to be read
    if not is_journal(path):
        raise JournalError(f"{path} is not a tablekit journal (no line of one in it): left it "
                           "as it is; name another file with --journal")


def _cut(path: Path, size: int) -> None:
    try:
        cut_journal(path, size)
    except OSError as error:
        raise JournalError(f"{path} is damaged and cannot be put right "
                           f"({error.strerror or error}): free space or check the card") from None


def _keep_aside(path: Path, move: bool) -> Path:
    """Copy (or move) ``path`` to a new ``.damaged-<time>`` name, never over another file."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    kept = path.with_name(f"{path.name}.damaged-{stamp}")
    number = 1
    while kept.exists():
        number += 1
        kept = path.with_name(f"{path.name}.damaged-{stamp}-{number}")
    try:
        if move:  # a move, not a write (no atomic_path): the damaged file itself, as it was
            os.rename(path, kept)
        else:
            shutil.copy2(path, kept)
    except OSError as error:
        raise JournalError(f"{path} is damaged and cannot be kept aside as {kept.name} "
                           f"({error.strerror or error}): move it away by hand") from None
    return kept
