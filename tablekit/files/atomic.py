"""Replace a file whole: written to a side file in the same folder, flushed, fsynced, renamed
over the file, then the folder fsynced so that the rename itself survives a power cut.

On any error the side file is removed (a full card leaves no empty or torn ``NAME.part``)
and the error is raised as it came. The side file is created afresh (a stale one is
removed first) and never through a symlink, so a symlink in the way is replaced, never
followed.

:func:`write_atomic` writes bytes or text; :func:`atomic_path` is the same for a writer that
opens the file itself (a journal, a PNG saved by pygame): it yields the side file's path,
and the rest happens when the block ends. It is the one place in tablekit that renames a file
over another as a write (``tests/test_atomic_writes.py`` keeps it so).

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> write_atomic(folder / "note.json", '{"stage": "menu"}')
>>> (folder / "note.json").read_text()
'{"stage": "menu"}'
>>> write_atomic(folder / "note.json", b"{}")
>>> (folder / "note.json").read_bytes(), sorted(p.name for p in folder.iterdir())
(b'{}', ['note.json'])
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

#: The side file's default suffix: ``NAME.part`` beside ``NAME``.
PART = ".part"


@contextlib.contextmanager
def atomic_path(path: Path | str, *, sync: bool = True, side: str = PART,
                spare: str | None = None, quiet_folder: bool = False) -> Iterator[Path]:
    """Replace ``path`` by what the block writes to the side file it is given: ``path`` +
    ``side`` in the same folder, or the name ``spare`` there (for a writer that reads the
    format from the name: a PNG's must end in ``.png``). A stale side file is removed before
    the block, so the writer creates it afresh. When the block ends, the side file is (with
    ``sync``) fsynced, renamed over ``path``, and (with ``sync``) the folder fsynced;
    ``quiet_folder``: a folder that cannot be opened or fsynced is not an error (the file
    is in place). On any error, in the block or after it up to the rename, the side file is
    removed, ``path`` is left as it was, and the error is raised as it came. A symlink the
    block leaves as the side file is an error at the fsync (never followed); without
    ``sync`` it is renamed as the link itself, never written through.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> with atomic_path(folder / "a.txt") as side:
    ...     _ = side.write_text("old")
    >>> with atomic_path(folder / "a.txt") as side:
    ...     _ = side.write_text("torn")
    ...     raise OSError(28, "No space left on device")
    Traceback (most recent call last):
    OSError: [Errno 28] No space left on device
    >>> (folder / "a.txt").read_text(), sorted(p.name for p in folder.iterdir())
    ('old', ['a.txt'])
    >>> with atomic_path(folder / "b.png", sync=False, spare=".b.partial.png") as side:
    ...     _ = side.write_bytes(b"a picture")
    ...     side.name
    '.b.partial.png'
    >>> sorted(p.name for p in folder.iterdir())
    ['a.txt', 'b.png']
    """
    path = Path(path)
    side_path = path.with_name(spare if spare is not None else path.name + side)
    try:
        side_path.unlink(missing_ok=True)
        yield side_path
        if sync:
            _sync_file(side_path)
        os.replace(side_path, path)
    except BaseException:  # a full card, a crash: no empty or torn side file is left behind
        with contextlib.suppress(OSError):
            side_path.unlink()
        raise
    if sync:
        sync_folder(path.parent, quiet=quiet_folder)


def write_atomic(path: Path | str, data: bytes | str, *, sync: bool = True, side: str = PART,
                 mode: int = 0o666, quiet_folder: bool = False) -> None:
    """Replace ``path`` by ``data`` (a ``str`` is written as UTF-8) through the side file
    ``path`` + ``side`` (:func:`atomic_path`); with ``sync``, the file is fsynced before the
    rename and the folder after it. ``mode``: the new file's permissions (less the umask);
    ``quiet_folder``: a folder that cannot be opened or fsynced is not an error (the file
    is in place).

    >>> import tempfile
    >>> from unittest import mock
    >>> folder = Path(tempfile.mkdtemp())
    >>> write_atomic(folder / "a.json", "old")
    >>> with mock.patch("os.fsync", side_effect=OSError(28, "No space left on device")):
    ...     write_atomic(folder / "a.json", "new")
    Traceback (most recent call last):
    OSError: [Errno 28] No space left on device
    >>> (folder / "a.json").read_text(), sorted(p.name for p in folder.iterdir())
    ('old', ['a.json'])
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    with atomic_path(path, sync=sync, side=side, quiet_folder=quiet_folder) as spare:
        fd = os.open(spare, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                     mode)
        with os.fdopen(fd, "wb") as file:
            file.write(raw)  # flushed at the close; fsynced by atomic_path (with sync)


def _sync_file(path: Path) -> None:
    """fsync the file the block wrote (opened for reading, never through a symlink: Linux
    flushes a file's data whatever the descriptor's mode); one fsync'd already costs little."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sync_folder(folder: Path | str, *, quiet: bool = False) -> None:
    """fsync ``folder``, so that a file just renamed or created in it is there after a
    power cut; ``quiet``: a folder that cannot be opened or fsynced is no error.

    >>> import tempfile
    >>> sync_folder(tempfile.mkdtemp())
    >>> sync_folder("/no/such/folder", quiet=True)
    """
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        if quiet:
            return
        raise
    try:
        os.fsync(fd)
    except OSError:
        if not quiet:
            raise
    finally:
        os.close(fd)


#: Where :func:`replace_folder` keeps the old folder while the new one is moved in.
KEPT = ".before"


def replace_folder(folder: Path | str, new: Path | str) -> None:
    """Replace the folder ``folder`` by the folder ``new`` (a sibling, written whole): every
    file in ``new`` is fsynced, ``folder`` is moved aside to ``folder`` + :data:`KEPT`,
    ``new`` is moved in, the parent folder fsynced and the old one removed. A power cut
    leaves the old folder or the new one, never a mix: :func:`recover_folder` moves the
    old one back if the cut fell between the two moves.

    >>> import tempfile
    >>> top = Path(tempfile.mkdtemp())
    >>> (top / "set").mkdir(); (top / "set.new").mkdir()
    >>> _ = (top / "set" / "a").write_text("old"); _ = (top / "set.new" / "a").write_text("new")
    >>> replace_folder(top / "set", top / "set.new")
    >>> (top / "set" / "a").read_text(), sorted(p.name for p in top.iterdir())
    ('new', ['set'])
    """
    import shutil

    folder, new = Path(folder), Path(new)
    for path in new.iterdir():
        if path.is_file():
            with open(path, "rb") as file:
                os.fsync(file.fileno())
    sync_folder(new)
    kept = folder.with_name(folder.name + KEPT)
    shutil.rmtree(kept, ignore_errors=True)
    os.rename(folder, kept)
    os.rename(new, folder)
    sync_folder(folder.parent)
    shutil.rmtree(kept, ignore_errors=True)


def recover_folder(folder: Path | str) -> bool:
    """Move back the old folder :func:`replace_folder` had moved aside when a power cut
    fell before the new one was moved in (``folder`` is missing, ``folder`` +
    :data:`KEPT` is there); whether it did.

    >>> import tempfile
    >>> top = Path(tempfile.mkdtemp())
    >>> (top / "set.before").mkdir()
    >>> recover_folder(top / "set"), recover_folder(top / "set"), (top / "set").is_dir()
    (True, False, True)
    """
    folder = Path(folder)
    kept = folder.with_name(folder.name + KEPT)
    if folder.exists() or not kept.is_dir():
        return False
    os.rename(kept, folder)
    sync_folder(folder.parent, quiet=True)
    return True
