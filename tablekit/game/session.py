"""A game in progress: the journal, undo/redo, and the state rebuilt from both.

Undo and redo are events too, so the journal keeps the whole history; the
state is always the fold of the events still in force. One UNDO takes back one
action, as a person would name it: an event submitted with ``joins=True`` (a
discard after its draw) or together in :meth:`Session.submit_action` (a win with
its corrections) is part of the action before it. The journal marks those events,
so a game reopened from it undoes the same actions.

>>> import tempfile, pathlib
>>> from tablekit.game.events import GameStarted, HandStarted
>>> game = Session.open(pathlib.Path(tempfile.mkdtemp()) / "game.jsonl")
>>> game.submit(GameStarted()).phase.value
'hand over'
>>> game.submit(HandStarted()).phase.value
'hand in play'
>>> game.undo().phase.value
'hand over'
>>> game.redo().phase.value
'hand in play'
>>> from tablekit.game.events import Discard, Draw
>>> from tablekit.tiles import Tile
>>> _ = game.submit(Draw(0)), game.submit(Discard(0, Tile.from_code("1z")), joins=True)
>>> game.last_action()
(Draw(seat=0, tile=None, rinshan=False), Discard(seat=0, tile=Tile('1z'), tsumogiri=False))
>>> game.undo().turn, game.state.to_draw, game.history[-1]
(0, True, Undo(count=2))
"""

from __future__ import annotations

from collections.abc import Sequence
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
    >>> first_refused([GameStarted(), Undo(), Undo()])
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
    """A journal that keeps nothing: for a game replayed in memory only."""

    path: Path | None = None

    def append(self, event: Event, joins: bool = False) -> None:
        pass

    def close(self) -> None:
        pass


def actions(events: Sequence[Event], joins: Sequence[bool]) -> tuple[list[int], list[int]]:
    """The sizes (in events) of the actions in force and of those undone (latest last);
    ``joins[i]``: event ``i`` is part of the action before it.

    >>> from tablekit.game.events import GameEnded
    >>> a, b, c = GameEnded("a"), GameEnded("b"), GameEnded("c")
    >>> actions([a, b, c, Undo(2)], [False, False, True, False])
    ([1], [2])
    >>> actions([a, b, c, Undo(1), Undo(1)], [False, False, False, False, False])
    ([1], [1, 1])
    """
    active: list[bool] = []
    undone: list[bool] = []
    for event, joined in zip(events, joins, strict=True):
        if isinstance(event, (Undo, Redo)):
            source, target = (active, undone) if isinstance(event, Undo) else (undone, active)
            for _ in range(min(event.count, len(source))):
                target.append(source.pop())
        else:
            active.append(joined)
            undone.clear()
    return _sizes(active), _sizes(undone[::-1])[::-1]  # the next to redo last


def _sizes(joins: list[bool]) -> list[int]:
    """The actions' sizes in a run of join marks (a leading joined event starts one too)."""
    sizes: list[int] = []
    for joined in joins:
        if joined and sizes:
            sizes[-1] += 1
        else:
            sizes.append(1)
    return sizes


@dataclass
class Session:
    """The live game: submit events, undo, redo; every change is journalled first."""

    journal: Journal
    history: list[Event] = field(default_factory=list)
    state: TableState = field(default_factory=TableState.new)
    notice: str = ""  # what opening the journal had to put right, in one line
    joins: list[bool] = field(default_factory=list)  # each history event: part of the last

    @classmethod
    def open(cls, path: Path) -> Session:
        """Resume the game in ``path`` exactly where it stopped (or start an empty one).

        A damaged journal resumes at its last line that replays cleanly; see
        :mod:`tablekit.game.recovery` (the file is kept aside, :attr:`notice` says so).
        """
        recovered = recover(path, first_refused)
        active, _ = in_force(recovered.events)
        return cls(Journal(path), recovered.events, replay(active), recovered.notice,
                   recovered.joins)

    def __post_init__(self) -> None:
        self.joins += [False] * (len(self.history) - len(self.joins))  # unmarked: their own

    @property
    def path(self) -> Path | None:
        """The journal's file (None for a game kept in memory only)."""
        return self.journal.path

    def submit(self, event: Event, joins: bool = False) -> TableState:
        """Apply ``event`` (``joins``: as part of the last action, which one UNDO takes
        back whole); a refused event raises :class:`BadEvent` and changes nothing."""
        if isinstance(event, (Undo, Redo)):
            return self._rewind(event)
        return self.submit_action([event], joins)

    def submit_action(self, events: Sequence[Event], joins: bool = False) -> TableState:
        """Apply ``events`` as one action (all or, when one is refused, none of them)."""
        state = self.state
        for event in events:
            if isinstance(event, (Undo, Redo)):
                raise BadEvent("undo and redo are actions of their own")
            state = apply(state, event)
        for index, event in enumerate(events):
            self._record(event, joins or index > 0)
        self.state = state
        return state

    def last_action(self) -> tuple[Event, ...]:
        """The events of the action UNDO would take back now."""
        active, _ = in_force(self.history)
        sizes, _ = actions(self.history, self.joins)
        return tuple(active[len(active) - sizes[-1]:]) if sizes else ()

    def undo(self, count: int = 1) -> TableState:
        """Take back the last ``count`` actions."""
        sizes, _ = actions(self.history, self.joins)
        if len(sizes) < count:
            raise BadEvent("undo: there is nothing left to undo")
        return self._rewind(Undo(sum(sizes[len(sizes) - count:])))

    def redo(self, count: int = 1) -> TableState:
        """Put back the last ``count`` actions taken back."""
        _, sizes = actions(self.history, self.joins)
        if len(sizes) < count:
            raise BadEvent("redo: there is nothing to redo")
        return self._rewind(Redo(sum(sizes[len(sizes) - count:])))

    @property
    def can_redo(self) -> bool:
        return bool(in_force(self.history)[1])

    def _rewind(self, event: Undo | Redo) -> TableState:
        active, _ = in_force([*self.history, event])
        state = replay(active)
        self._record(event, False)
        self.state = state
        return state

    def _record(self, event: Event, joins: bool) -> None:
        self.journal.append(event, joins)
        self.history.append(event)
        self.joins.append(joins)

    def close(self) -> None:
        self.journal.close()
