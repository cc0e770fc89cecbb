"""Opening a journal that may be damaged: keep the game that can be trusted, keep the rest aside.

The trusted game is the longest run of lines from the start that read as events and
replay cleanly. A damaged file is never rewritten in place: it is copied (or, when
nothing in it can be trusted, moved) to ``<name>.damaged-<UTC time>`` first, and the
journal is replaced by the trusted lines. :attr:`Recovery.notice` says in one line
what happened and what to do, for the screen and the log.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "game.jsonl"
>>> _ = path.write_text('{"type": "game_ended"}\\n{"type": "tea_break"}\\n')
>>> recovered = recover(path, lambda events: None)
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
from tablekit.game.journal import FORMAT, JournalError, salvage_journal, write_journal

# events -> (index of the first event the game refuses, why) or None when all replay
Check = Callable[[list[Event]], tuple[int, str] | None]


@dataclass
class Recovery:
    """The trusted events of a journal, the file kept aside (if any) and the one-line notice."""

    events: list[Event] = field(default_factory=list)
    notice: str = ""
    kept: Path | None = None
    joins: list[bool] = field(default_factory=list)  # each event: part of the action before


def recover(path: Path, check: Check) -> Recovery:
    """Read ``path``, find the game it can trust, and put the journal right on disk."""
    path = Path(path)
    contents = salvage_journal(path)
    if contents.format > FORMAT or (contents.problem and not contents.problem_line):
        kept = _keep_aside(path, move=True)
        after = (": update tablekit to resume that game; started a new one"
                 if contents.format > FORMAT else " and started a new game")
        return Recovery([], f"{contents.problem}; moved it to {kept.name}{after}", kept)
    events, joins, problem = contents.events, contents.joins, contents.problem
    refused = check(events)
    if refused is not None:
        index, reason = refused
        problem = f"{path}, line {contents.lines[index]}: {reason}"
        events, joins = events[:index], joins[:index]
    if not problem and not contents.torn_tail:
        return Recovery(events, joins=joins)
    kept = _keep_aside(path, move=not events)
    if not problem:
        _rewrite(path, events, joins)
        return Recovery(events, f"{path}: dropped a half-written last line (a power cut while "
                                f"saving; it was never shown); kept the file as {kept.name}",
                        kept, joins)
    if not events:
        return Recovery([], f"{problem}; moved the file to {kept.name} and started a new game",
                        kept)
    _rewrite(path, events, joins)
    return Recovery(events, f"{problem}; kept the file as {kept.name} and resumed from the "
                            f"{len(events)} events before it: check the scores", kept, joins)


def _rewrite(path: Path, events: list[Event], joins: list[bool]) -> None:
    try:
        write_journal(path, events, joins)
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
        if move:
            os.rename(path, kept)
        else:
            shutil.copy2(path, kept)
    except OSError as error:
        raise JournalError(f"{path} is damaged and cannot be kept aside as {kept.name} "
                           f"({error.strerror or error}): move it away by hand") from None
    return kept
