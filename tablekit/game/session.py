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

import stat
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from tablekit.game.events import BadEvent, Event, GameStarted, HandStarted, Redo, Undo
from tablekit.game.journal import (
    Journal,
    JournalContents,
    read_added,
    salvage_journal,
    salvage_tail,
)
from tablekit.game.recovery import recover
from tablekit.game.reducer import apply, replay
from tablekit.game.state import TableState
from tablekit.rules.presets import TENHOU


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


def replay_checked(events: Sequence[Event], joins: Sequence[bool], skipped: int = 0,
                   before: int = 0) -> tuple[Session, tuple[int, str] | None]:
    """A game kept in memory that took ``events`` (``joins``: their marks; ``skipped``
    events before them not read, ``before`` of those in force) as a live game would, up
    to the first it refuses; that one's index and why (None: all replay).

    >>> from tablekit.game.events import GameStarted
    >>> replay_checked([GameStarted(), Undo(), Undo()], [False] * 3)[1]
    (2, 'undo: there is nothing left to undo')
    """
    probe = Session(_NoJournal(), skipped=skipped, before=before)  # type: ignore[arg-type]
    for index, (event, joined) in enumerate(zip(events, joins, strict=True)):
        try:
            probe.submit(event, joined)
        except Exception as error:  # any failure: the line is not trusted
            return probe, (index, str(error))
    return probe, None


class JournalFollower:
    """The table at the end of a journal that another process keeps writing (the running
    game's, for its web page), followed line by line: the last game is read once, then
    only the lines added since; a journal cut back, replaced or changed where it was read
    is read again from its last game.

    >>> import tempfile, pathlib
    >>> from tablekit.game.events import GameStarted, HandStarted
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "game.jsonl"
    >>> game, follower = Session.open(path), JournalFollower(path)
    >>> follower.state().phase.value
    'not started'
    >>> _ = game.submit(GameStarted()), game.submit(HandStarted())
    >>> follower.state() == game.state, follower.state().phase.value
    (True, 'hand in play')

    A journal that is an empty file when it is first read (``tablekit run`` takes the lock
    on it before the game writes its first line) is followed all the same:

    >>> from tablekit.game.lock import JournalLock
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "game.jsonl"
    >>> lock = JournalLock(path).acquire()  # as run does, before its web page starts
    >>> follower = JournalFollower(path)
    >>> follower.state().phase.value
    'not started'
    >>> game = Session.open(path)
    >>> _ = game.submit(GameStarted(names=("Aki", "Ben", "Cho", "Dai"))), game.submit(HandStarted())
    >>> follower.state().phase.value, follower.state().names[0]
    ('hand in play', 'Aki')
    >>> lock.release()
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._game: Session | None = None
        self._file: tuple[int, int] = (0, 0)  # the file's device and inode
        self._end = 0                         # where the lines read end
        self._last = b""                      # the last line read, checked before going on

    def state(self) -> TableState:
        """The table now (a new game's when there is no journal yet)."""
        try:
            info = self.path.stat()
        except OSError:
            self._game = None
            return TableState.new()
        if not stat.S_ISREG(info.st_mode):  # a FIFO or a device: never opened to be read
            self._game = None
            return TableState.new()
        # an empty file (made by the journal's lock before the game wrote its first line) is
        # read again from its start, header included, once lines come
        same = ((info.st_dev, info.st_ino) == self._file and info.st_size >= self._end
                and self._end > 0)
        if self._game is None or not same or not self._unchanged():
            self._read_again((info.st_dev, info.st_ino))
        elif info.st_size > self._end:
            self._read_added()
        return self._game.state if self._game is not None else TableState.new()

    def _unchanged(self) -> bool:
        """The last line read is still where it was."""
        try:
            with self.path.open("rb") as handle:
                handle.seek(self._end - len(self._last))
                return handle.read(len(self._last)) == self._last
        except OSError:
            return False

    def _read_again(self, file: tuple[int, int]) -> None:
        contents = salvage_tail(self.path)
        self._game, refused = replay_checked(contents.events, contents.joins,
                                             contents.skipped, contents.before)
        self._file = file
        self._settle(contents, refused)

    def _read_added(self) -> None:
        assert self._game is not None
        contents = read_added(self.path, self._end, self._game.length)
        refused = None
        for index, (event, joined) in enumerate(zip(contents.events, contents.joins,
                                                    strict=True)):
            try:
                self._game.submit(event, joined)
            except Exception as error:  # a line the game refuses: wait for it to be cut
                refused = index, str(error)
                break
        self._settle(contents, refused)

    def _settle(self, contents: JournalContents, refused: tuple[int, str] | None) -> None:
        """Remember where the lines taken end (before a refused one)."""
        self._end = contents.offsets[refused[0]] if refused is not None else contents.end
        taken = len(contents.events) if refused is None else refused[0]
        if taken:
            start = contents.offsets[taken - 1]
            try:
                with self.path.open("rb") as handle:
                    handle.seek(start)
                    self._last = handle.read(self._end - start)
            except OSError:
                self._last = b""


class _NoJournal:
    """A journal that keeps nothing: for a game replayed in memory only."""

    path: Path | None = None

    def append(self, event: Event, joins: bool = False, before: int | None = None) -> None:
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


class Session:
    """The live game: submit events, undo, redo; every change is journalled first.

    What one UNDO or a change costs does not grow with the journal: the events in force
    are kept as they change (not worked out again from the whole history), the state
    after each game's and hand's start is kept, and an UNDO replays from the last of
    those it does not take back. A session opened from a long journal reads only its
    last game (:func:`~tablekit.game.journal.salvage_tail`); the earlier games are read
    when something asks for the whole :attr:`history` (or an UNDO reaches back into them).
    """

    def __init__(self, journal: Journal, history: list[Event] | None = None,
                 notice: str = "", joins: list[bool] | None = None, skipped: int = 0,
                 before: int = 0) -> None:
        self.journal = journal
        self.notice = notice  # what opening the journal had to put right, in one line
        self._events: list[Event] = list(history or [])
        self._joins = list(joins or []) + [False] * (len(self._events) - len(joins or []))
        self._skipped, self._before = skipped, before  # events not read; in force of them
        self._rebuild()

    @classmethod
    def open(cls, path: Path) -> Session:
        """Resume the game in ``path`` exactly where it stopped (or start an empty one).

        A damaged journal resumes at its last line that replays cleanly; see
        :mod:`tablekit.game.recovery` (the file is kept aside, :attr:`notice` says so).
        """
        replayed: list[Session] = []

        def check(events: list[Event], joins: list[bool], skipped: int, before: int
                  ) -> tuple[int, str] | None:
            probe, refused = replay_checked(events, joins, skipped, before)
            replayed.append(probe)
            return refused

        recovered = recover(path, check)
        session = replayed[-1] if replayed else None
        if session is None or session.length != recovered.skipped + len(recovered.events):
            session = cls(_NoJournal(), recovered.events, joins=recovered.joins,  # type: ignore[arg-type]
                          skipped=recovered.skipped, before=recovered.before)
        session.journal, session.notice = Journal(path), recovered.notice
        return session

    @property
    def path(self) -> Path | None:
        """The journal's file (None for a game kept in memory only)."""
        return self.journal.path

    @property
    def history(self) -> list[Event]:
        """Every event of the journal, undo and redo too (read in full on first use)."""
        self._read_all()
        return self._events

    @property
    def joins(self) -> list[bool]:
        """Each :attr:`history` event: part of the action before it."""
        self._read_all()
        return self._joins

    @property
    def length(self) -> int:
        """How many events the journal holds (it grows with every change): cheap."""
        return self._skipped + len(self._events)

    @property
    def game_id(self) -> int:
        """Where the game in force started in the journal (its event's index; -1: none)."""
        return self._skipped + self._active[self._starts[-1]] if self._starts else -1

    @property
    def active_count(self) -> int:
        """How many events are in force (``state.events``): cheap."""
        return self._before + len(self._active)

    def last_in_force(self, kind: type) -> int:
        """Where the last event of type ``kind`` in force stands among the events in force
        (-1: none in the game read).

        >>> from tablekit.game.events import GameStarted, HandStarted
        >>> game = Session(_NoJournal())  # type: ignore[arg-type]
        >>> _ = game.submit(GameStarted()), game.submit(HandStarted())
        >>> game.last_in_force(HandStarted), game.last_in_force(GameStarted)
        (1, 0)
        """
        for position in range(len(self._active) - 1, -1, -1):
            if isinstance(self._events[self._active[position]], kind):
                return self._before + position
        return -1

    def in_force_read(self) -> tuple[int, list[Event]]:
        """The events in force of the games read (:attr:`history` reads all), and where the
        first of them stands among all the events in force."""
        return self._before, [self._events[i] for i in self._active]

    def game_events(self) -> list[Event]:
        """The events in force of the game in play, from its start."""
        start = self._starts[-1] if self._starts else 0
        return [self._events[i] for i in self._active[start:]]

    def submit(self, event: Event, joins: bool = False) -> TableState:
        """Apply ``event`` (``joins``: as part of the last action, which one UNDO takes
        back whole); a refused event raises :class:`BadEvent` and changes nothing."""
        if isinstance(event, (Undo, Redo)):
            return self._rewind(event)
        return self.submit_action([event], joins)

    def submit_action(self, events: Sequence[Event], joins: bool = False) -> TableState:
        """Apply ``events`` as one action (all or, when one is refused, none of them)."""
        states, state = [], self.state
        for event in events:
            if isinstance(event, (Undo, Redo)):
                raise BadEvent("undo and redo are actions of their own")
            state = apply(state, event)
            states.append(state)
        for index, (event, after) in enumerate(zip(events, states, strict=True)):
            before = self._before + len(self._active) if isinstance(event, GameStarted) else None
            self.journal.append(event, joins or index > 0, before)
            self._events.append(event)
            self._joins.append(joins or index > 0)
            self._undone.clear()
            self._take(len(self._events) - 1, after)
        self.state = state
        return state

    def last_action(self) -> tuple[Event, ...]:
        """The events of the action UNDO would take back now."""
        if not self._active:
            return ()
        size = self._last_sizes(1)
        return tuple(self._events[i] for i in self._active[len(self._active) - size:])

    def undo(self, count: int = 1) -> TableState:
        """Take back the last ``count`` actions."""
        return self._rewind(Undo(self._last_sizes(count)))

    def redo(self, count: int = 1) -> TableState:
        """Put back the last ``count`` actions taken back."""
        size, at = 0, len(self._undone)
        for _ in range(count):
            if at == 0:
                raise BadEvent("redo: there is nothing to redo")
            at -= 1
            size += 1
            while at > 0 and self._joins[self._undone[at - 1]]:
                at, size = at - 1, size + 1
        return self._rewind(Redo(size))

    @property
    def can_redo(self) -> bool:
        return bool(self._undone)

    def close(self) -> None:
        self.journal.close()

    # -- keeping the events in force as they change -----------------------------------------

    def _rebuild(self) -> None:
        """Work out the events in force, the kept states and the state from the events."""
        self._active: list[int] = []   # indices of _events in force, in order
        self._undone: list[int] = []   # indices taken back, the next to redo last
        self._starts: list[int] = []   # positions in _active of the games' starts
        base = replace(TableState.new(TENHOU), events=self._before)
        self._kept: list[tuple[int, TableState]] = [(0, base)]  # (len(_active), state)
        self.state = base
        for index, event in enumerate(self._events):
            if isinstance(event, Undo):
                self._take_back(event.count)
            elif isinstance(event, Redo):
                self._put_back(event.count)
            else:
                self._undone.clear()
                self._take(index, apply(self.state, event))
        if self._active:
            self.state = self._state_at(len(self._active))

    def _take(self, index: int, state: TableState) -> None:
        """Put event ``index`` in force, ``state`` the state after it."""
        self._active.append(index)
        event = self._events[index]
        if isinstance(event, GameStarted):
            self._starts.append(len(self._active) - 1)
        if isinstance(event, (GameStarted, HandStarted)):
            self._kept.append((len(self._active), state))
        self.state = state

    def _take_back(self, count: int) -> None:
        if count > len(self._active):
            raise BadEvent("undo: there is nothing left to undo")
        for _ in range(count):
            self._undone.append(self._active.pop())
        keep = len(self._active)
        while self._kept[-1][0] > keep:
            self._kept.pop()
        while self._starts and self._starts[-1] >= keep:
            self._starts.pop()
        self.state = self._state_at(keep)

    def _put_back(self, count: int) -> None:
        if count > len(self._undone):
            raise BadEvent("redo: there is nothing to redo")
        for _ in range(count):
            index = self._undone.pop()
            self._take(index, apply(self.state, self._events[index]))

    def _state_at(self, size: int) -> TableState:
        """The state after the first ``size`` events in force, from the last state kept."""
        at, state = next((a, s) for a, s in reversed(self._kept) if a <= size)
        return replay((self._events[i] for i in self._active[at:size]), state)

    def _last_sizes(self, count: int) -> int:
        """How many events the last ``count`` actions in force hold."""
        at = len(self._active)
        for _ in range(count):
            if at == 0:
                raise BadEvent("undo: there is nothing left to undo")
            at -= 1
            while at > 0 and self._joins[self._active[at]]:
                at -= 1
            if at == 0 and self._skipped and self._joins[self._active[0]]:
                self._read_all()  # the action began in a game not read yet
                return self._last_sizes(count)
        return len(self._active) - at

    def _rewind(self, event: Undo | Redo) -> TableState:
        if isinstance(event, Undo):
            if self._skipped and event.count >= len(self._active):
                self._read_all()  # back into a game not read yet
            if event.count > len(self._active):
                raise BadEvent("undo: there is nothing left to undo")
        elif event.count > len(self._undone):
            raise BadEvent("redo: there is nothing to redo")
        self.journal.append(event)
        self._events.append(event)
        self._joins.append(False)
        if isinstance(event, Undo):
            self._take_back(event.count)
        else:
            self._put_back(event.count)
        return self.state

    def _read_all(self) -> None:
        """Read the games before the one this session was opened at (once)."""
        if not self._skipped:
            return
        contents = salvage_journal(self.journal.path) if self.journal.path else None
        if contents is None or contents.problem or len(contents.events) < self._skipped:
            problem = contents.problem if contents else "no journal"
            raise BadEvent(f"cannot read the journal's earlier games: {problem}")
        self._events = contents.events[:self._skipped] + self._events
        self._joins = contents.joins[:self._skipped] + self._joins
        self._skipped = self._before = 0
        self._rebuild()
