"""One journal, one writer: ``tablekit run`` holds an exclusive lock on a file beside the
journal (``game.jsonl.lock``) while it runs, so a second process on the same journal is
refused instead of interleaving its lines with the first one's.

The lock is ``flock``'s: the kernel lets it go when the process ends, even by a power cut
or SIGKILL, so a stale lock file never keeps the appliance from starting.

>>> import tempfile, pathlib
>>> journal = pathlib.Path(tempfile.mkdtemp()) / "game.jsonl"
>>> with JournalLock(journal):
...     try:
...         JournalLock(journal).acquire()
...     except JournalBusy as error:
...         print(str(error).replace(str(journal), "J"))
another tablekit is using the journal J: stop it first
>>> JournalLock(journal).acquire().release()
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from types import TracebackType

from tablekit.errors import TablekitError


class JournalBusy(TablekitError):
    """Another process holds the journal's lock."""


def lock_path(journal: Path) -> Path:
    """The lock file beside ``journal`` (``game.jsonl`` -> ``game.jsonl.lock``)."""
    return journal.with_name(journal.name + ".lock")


class JournalLock:
    """The exclusive lock on ``journal`` (taken by :meth:`acquire`, or ``with``)."""

    def __init__(self, journal: Path) -> None:
        self.journal = Path(journal)
        self.path = lock_path(self.journal)
        self._fd: int | None = None

    def acquire(self) -> JournalLock:
        """Take the lock at once, or raise :class:`JournalBusy` (one line)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise JournalBusy(f"another tablekit is using the journal {self.journal}: "
                              "stop it first") from None
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        return self

    def release(self) -> None:
        """Let the lock go (the lock file stays: removing it would race a new holder)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> JournalLock:
        return self.acquire()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.release()
