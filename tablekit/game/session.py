"""A game in progress: the journal, undo/redo, and the state rebuilt from both.

Undo and redo are events too, so the journal keeps the whole history; the
state is always the fold of the events still in force.

>>> import tempfile, pathlib
>>> from tablekit.game.events import GameStarted, HandStarted
>>> game = Session.open(pathlib.Path(tempfile.mkdtemp()) / "game.jsonl")
>>> game.submit(GameStarted({"base": "tenhou"})).phase.value
'hand over'
>>> game.submit(HandStarted()).phase.value
'hand in play'
>>> game.undo().phase.value
'hand over'
>>> game.redo().phase.value
'hand in play'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tablekit.game.events import BadEvent, Event, Redo, Undo
from tablekit.game.journal import Journal
from tablekit.game.recovery import recover
from tablekit.game.reducer import apply, replay
from tablekit.game.state import TableState


def in_force(events: list[Event]) -> tuple[list[Event], list[Event]]:
    """The events still in force after undo/redo, and the undone ones (latest last).

    >>> from tablekit.game.events import GameEnded
    >>> a, b = GameEnded("a"), GameEnded("b")
    >>> in_force([a, b, Undo(), Undo(), Redo()])
    ([GameEnded(reason='a')], [GameEnded(reason='b')])
    """
    active: list[Event] = []
    undone: list[Event] = []
    for event in events:
        if isinstance(event, Undo):
            for _ in range(event.count):
                if not active:
                    raise BadEvent("undo: there is nothing left to undo")
                undone.append(active.pop())
        elif isinstance(event, Redo):
            for _ in range(event.count):
                if not undone:
                    raise BadEvent("redo: there is nothing to redo")
                active.append(undone.pop())
        else:
            active.append(event)
            undone.clear()
    return active, undone


def first_refused(events: list[Event]) -> tuple[int, str] | None:
    """The index of the first event a live game would refuse, and why (None: all replay).

    >>> from tablekit.game.events import GameStarted, RiichiDeclared
    >>> first_refused([GameStarted({"base": "tenhou"}), Undo(), Undo()])
    (2, 'undo: there is nothing left to undo')
    """
    probe = Session(_NoJournal())  # type: ignore[arg-type]
    for index, event in enumerate(events):
        try:
            probe.submit(event)
        except Exception as error:  # any failure: the line is not trusted
            return index, str(error)
    return None


class _NoJournal:
    def append(self, event: Event) -> None:
        pass

    def close(self) -> None:
        pass


@dataclass
class Session:
    """The live game: submit events, undo, redo; every change is journalled first."""

    journal: Journal
    history: list[Event] = field(default_factory=list)
    state: TableState = field(default_factory=TableState.new)
    notice: str = ""  # what opening the journal had to put right, in one line

    @classmethod
    def open(cls, path: Path) -> Session:
        """Resume the game in ``path`` exactly where it stopped (or start an empty one).

        A damaged journal resumes at its last line that replays cleanly; see
        :mod:`tablekit.game.recovery` (the file is kept aside, :attr:`notice` says so).
        """
        recovered = recover(path, first_refused)
        active, _ = in_force(recovered.events)
        return cls(Journal(path), recovered.events, replay(active), recovered.notice)

    def submit(self, event: Event) -> TableState:
        """Apply ``event``; a refused event raises :class:`BadEvent` and changes nothing."""
        if isinstance(event, (Undo, Redo)):
            return self._rewind(event)
        state = apply(self.state, event)
        self.journal.append(event)
        self.history.append(event)
        self.state = state
        return state

    def undo(self, count: int = 1) -> TableState:
        return self._rewind(Undo(count))

    def redo(self, count: int = 1) -> TableState:
        return self._rewind(Redo(count))

    @property
    def can_redo(self) -> bool:
        return bool(in_force(self.history)[1])

    def _rewind(self, event: Undo | Redo) -> TableState:
        active, _ = in_force([*self.history, event])
        state = replay(active)
        self.journal.append(event)
        self.history.append(event)
        self.state = state
        return state

    def close(self) -> None:
        self.journal.close()
