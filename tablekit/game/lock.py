"""One journal, one writer: ``tablekit run`` holds an exclusive lock on the journal file
itself while it runs, so a second process on the same journal is refused instead of
interleaving its lines with the first one's.

The lock is ``flock``'s, on the journal's own file (no ``.lock`` file beside it, which
could be deleted to let a second writer in, or be left behind): the kernel lets it go
when the process ends, even by a power cut or SIGKILL. A journal moved aside while its
lock is held (recovery keeps a damaged one as ``.damaged-<time>`` and starts a new file)
takes its lock with it: :meth:`JournalLock.follow` moves the lock to the new file. A
journal the lock had to create and that nothing was written to is removed when the lock
is let go (a run refused before its game started leaves no file behind).

>>> import tempfile, pathlib
>>> journal = pathlib.Path(tempfile.mkdtemp()) / "game.jsonl"
>>> with JournalLock(journal):
...     try:
...         JournalLock(journal).acquire()
...     except JournalBusy as error:
...         print(str(error).replace(str(journal), "J"))
another tablekit is using the journal J: stop it first
>>> journal.exists()  # created by the lock, never written to: removed again
False
>>> _ = journal.write_text('{"type": "journal", "format": 3}\\n')
>>> JournalLock(journal).acquire().release()
>>> sorted(path.name for path in journal.parent.iterdir())
['game.jsonl']
"""

from __future__ import annotations

import fcntl
import os
import stat
from pathlib import Path
from types import TracebackType

from tablekit.errors import TablekitError
from tablekit.game.journal import JournalError
from tablekit.untrusted.files import kind_of

TRIES = 10  # a journal replaced under us this many times in a row: refused as busy


class JournalBusy(TablekitError):
    """Another process holds the journal's lock."""


class JournalLock:
    """The exclusive lock on ``journal`` (taken by :meth:`acquire`, or ``with``)."""

    def __init__(self, journal: Path) -> None:
        self.journal = Path(journal)
        self._fd: int | None = None
        self.created = False  # the lock made the file (removed on release if still empty)

    def acquire(self) -> JournalLock:
        """Take the lock at once, or raise :class:`JournalBusy` (one line); a journal that
        is no regular file (a FIFO, a device) is :class:`~tablekit.game.journal.\
JournalError`, and is never opened to be read or written."""
        self.journal.parent.mkdir(parents=True, exist_ok=True)
        self._fd, self.created = self._take()
        return self

    def follow(self) -> None:
        """Keep the lock on the file now at the journal's path: when the journal was
        moved aside (recovery) and a new one made in its place, the new one is locked
        and the old one's lock let go; :class:`JournalBusy` if another process took the
        new file first."""
        if self._fd is None or _same_file(self._fd, self.journal):
            return
        fd, created = self._take()
        os.close(self._fd)
        self._fd, self.created = fd, created

    def release(self) -> None:
        """Let the lock go (a journal it created and nothing wrote to is removed first,
        while the lock is still held, so no other process is using it)."""
        if self._fd is None:
            return
        try:
            if (self.created and not os.fstat(self._fd).st_size
                    and _same_file(self._fd, self.journal)):
                self.journal.unlink(missing_ok=True)
        except OSError:
            pass  # a file that cannot be removed is only an empty journal
        finally:
            os.close(self._fd)
            self._fd = None

    def _take(self) -> tuple[int, bool]:
        """An open descriptor of the journal with its lock taken, and whether it made the
        file. A file that was replaced or removed between the open and the lock (its
        holder moved it aside) is let go and the new one tried."""
        for _ in range(TRIES):
            fd, created = _open(self.journal)
            try:
                mode = os.fstat(fd).st_mode
                if not stat.S_ISREG(mode):
                    raise JournalError(f"{self.journal} is not a regular file "
                                       f"({kind_of(mode)}): left it as it is; name a file "
                                       "with --journal")
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                break
            except BaseException:
                os.close(fd)
                raise
            if _same_file(fd, self.journal):
                return fd, created
            os.close(fd)  # locked a file no longer at the path: try the one there now
        raise JournalBusy(f"another tablekit is using the journal {self.journal}: "
                          "stop it first")

    def __enter__(self) -> JournalLock:
        return self.acquire()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.release()


def _open(path: Path) -> tuple[int, bool]:
    """``path`` opened to be locked (for writing, as an exclusive ``flock`` on NFS needs;
    never blocking on a FIFO), made if it is not there; and whether it was made here."""
    flags = os.O_RDWR | os.O_NONBLOCK | os.O_CLOEXEC
    for _ in range(TRIES):
        try:
            return os.open(path, flags | os.O_CREAT | os.O_EXCL, 0o644), True
        except FileExistsError:
            pass
        try:
            return os.open(path, flags), False
        except FileNotFoundError:
            continue  # removed between the two opens: make it
    return os.open(path, flags), False  # a dangling symlink: says so in one line


def _same_file(fd: int, path: Path) -> bool:
    """Whether ``fd`` is the file now at ``path``."""
    try:
        here = os.stat(path)
    except OSError:
        return False
    mine = os.fstat(fd)
    return (mine.st_dev, mine.st_ino) == (here.st_dev, here.st_ino)
