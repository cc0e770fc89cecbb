"""The evening: the games of one evening, one after another, and each player's running total.

A journal keeps every game of the season (each starts with a ``GameStarted``, its line
saying when); the evening is its games since the last break of more than six hours between
two games' starts (:func:`tonight`), read back from the journal after a power cut like the
game in play, without reading the season before it. Each finished game
counts with its game points (uma and oka, penalties off); a cancelled game and the game in
play are listed but do not count.

>>> from pathlib import Path
>>> from tablekit.formats.tenhou import import_file
>>> events = import_file(Path("tablekit/data/tenhou-python-bot-28.xml")).events
>>> evening = Evening.of([*events, *events])
>>> len(evening.games), evening.counted
(2, 2)
>>> [(line.name, line.places, line.total) for line in evening.lines()][:2]
[('Kaavi', (1, 1), 96.0), ('Ichihime', (2, 2), 16.0)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tablekit.game.events import Event, GameStarted
from tablekit.game.journal import salvage_evening
from tablekit.game.session import in_force
from tablekit.game.summary import GameSummary, summarise


@dataclass(frozen=True)
class EveningLine:
    """One player's evening: each counted game's place and score (None: not at that table)
    and the total of the scores."""

    name: str
    places: tuple[int | None, ...]
    scores: tuple[float | None, ...]
    total: float


@dataclass(frozen=True)
class Evening:
    """The evening's games in the order played, the last one perhaps still in play."""

    games: tuple[GameSummary, ...] = ()

    @classmethod
    def of(cls, events: Sequence[Event]) -> Evening:
        """The evening of a journal's events in force (undo and redo resolved)."""
        return cls(tuple(summarise(game) for game in split_games(events)))

    @property
    def finished(self) -> tuple[GameSummary, ...]:
        """The games that count: finished, not cancelled."""
        return tuple(game for game in self.games if game.finished)

    @property
    def counted(self) -> int:
        return len(self.finished)

    def lines(self) -> tuple[EveningLine, ...]:
        """Every player of a counted game, best total first (then by name)."""
        games = self.finished
        names = list(dict.fromkeys(p.name for game in games for p in game.players))
        lines = [_line(name, games) for name in names]
        return tuple(sorted(lines, key=lambda line: (-line.total, line.name)))


def tonight(journal: Path) -> Evening:
    """The evening of a journal: its games since the last long break between two games'
    starts (:data:`~tablekit.game.journal.EVENING_GAP`), read from the first of them.

    >>> import tempfile
    >>> from tablekit.formats.tenhou import import_file
    >>> from tablekit.game.journal import write_journal
    >>> events = import_file(Path("tablekit/data/tenhou-python-bot-28.xml")).events
    >>> path = Path(tempfile.mkdtemp()) / "game.jsonl"
    >>> days = iter([0.0, 86400.0, 86400.0 + 7200])  # a game one day, two the next
    >>> write_journal(path, [*events, *events, *events], clock=lambda: next(days))
    >>> len(tonight(path).games)
    2
    """
    contents = salvage_evening(journal)
    return Evening.of(in_force(contents.events)[0])


def _line(name: str, games: tuple[GameSummary, ...]) -> EveningLine:
    seated = [next((p for p in game.players if p.name == name), None) for game in games]
    scores = tuple(None if p is None else p.score for p in seated)
    return EveningLine(name, tuple(None if p is None else p.rank for p in seated), scores,
                       round(sum(s for s in scores if s is not None), 1))


def split_games(events: Sequence[Event]) -> list[list[Event]]:
    """The events cut into games at each ``GameStarted`` (events before the first: none)."""
    games: list[list[Event]] = []
    for event in events:
        if isinstance(event, GameStarted):
            games.append([])
        if games:
            games[-1].append(event)
    return games
