"""Single bits flipped at random in a game's journal, as a failing card flips them.

Each flipped journal is opened as the scoreboard opens it. A flip must be *caught* (the
scoreboard says in one line what it put right, and keeps the damaged file aside) or
*harmless* (the game resumes exactly as it was); one that changes the game without a word
is *missed*, and one that stops the start is a *crash*. With each line's checksum (journal
format 3) every flip inside a line is caught; a flip in the header is caught as a journal
that cannot be trusted.

>>> import tempfile
>>> from tablekit.game.events import GameStarted, HandStarted
>>> report = flip_bits([GameStarted(), HandStarted()], 20, Path(tempfile.mkdtemp()))
>>> report.flips, report.caught + report.harmless, report.missed, report.crashes
(20, 20, [], [])
"""

from __future__ import annotations

import random
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from tablekit.game.events import Event
from tablekit.game.journal import write_journal
from tablekit.game.session import Session


@dataclass
class FlipReport:
    """What became of each flipped bit."""

    flips: int = 0
    caught: int = 0
    harmless: int = 0
    missed: list[str] = field(default_factory=list)
    crashes: list[str] = field(default_factory=list)


def flip_bits(events: list[Event], count: int, folder: Path, seed: int = 0) -> FlipReport:
    """Flip ``count`` random single bits, one at a time, in a journal of ``events``."""
    folder.mkdir(parents=True, exist_ok=True)
    original = folder / "original.jsonl"
    write_journal(original, events, clock=lambda: 1796324400.0)
    data = original.read_bytes()
    sound = Session.open(original)
    expected, length = sound.state, sound.length
    sound.close()
    rng, report = random.Random(seed), FlipReport()
    for trial in range(count):
        byte, bit = rng.randrange(len(data)), rng.randrange(8)
        damaged = bytearray(data)
        damaged[byte] ^= 1 << bit
        where = folder / f"flip-{trial % 2}"
        shutil.rmtree(where, ignore_errors=True)
        where.mkdir()
        (where / "game.jsonl").write_bytes(bytes(damaged))
        report.flips += 1
        try:
            session = Session.open(where / "game.jsonl")
        except Exception as error:  # a start that fails is what this looks for
            report.crashes.append(f"byte {byte} bit {bit}: {type(error).__name__}: {error}")
            continue
        if session.notice:
            report.caught += 1
        elif session.state == expected and session.length == length:
            report.harmless += 1
        else:
            report.missed.append(f"byte {byte} bit {bit}: resumed a different game unseen "
                                 f"({session.length} of {length} events)")
        session.close()
    return report
