"""Files from outside, opened only if they are regular files and read with a size bound: a
FIFO, a device such as ``/dev/zero`` or a folder is refused in one line instead of hanging
or filling the memory, and a symlink never leads out of a folder a reader must stay in
(a recording).

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> _ = (folder / "plan.json").write_text('{"rounds": 2}')
>>> read_bytes(folder / "plan.json", limit=100)
b'{"rounds": 2}'
>>> def refused(path, **options):
...     try:
...         read_bytes(path, **options)
...     except Untrusted as error:
...         return str(error).replace(str(folder), "F")
>>> refused("/dev/zero", limit=100)
'/dev/zero: not a regular file (a character device)'
>>> refused(folder / "plan.json", limit=5)
'F/plan.json: larger than 5 bytes'
>>> refused(folder, limit=5)
'F: not a regular file (a folder)'
>>> (folder / "out.json").symlink_to("/etc/hostname")
>>> refused(folder / "out.json", limit=100, inside=folder)
'F/out.json: a symlink, which is not followed here'
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from tablekit.untrusted import Untrusted

KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"),
         (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
         (stat.S_ISSOCK, "a socket"), (stat.S_ISLNK, "a symlink"))


def kind_of(mode: int) -> str:
    """What a file of ``mode`` is, in words (``a FIFO``, ``a folder``, ...)."""
    return next((name for test, name in KINDS if test(mode)), "not a plain file")


def check_inside(path: Path, folder: Path) -> Path:
    """``path`` if it lies in ``folder`` and is no symlink (nor is any folder between):
    a reader told to stay in a recording never leaves it."""
    path, folder = Path(path), Path(folder)
    try:
        relative = path.relative_to(folder)
    except ValueError:
        raise Untrusted(f"{path}: outside {folder}") from None
    current = folder
    for part in relative.parts:
        if part in ("..", ""):
            raise Untrusted(f"{path}: outside {folder}")
        current = current / part
        if current.is_symlink():
            raise Untrusted(f"{current}: a symlink, which is not followed here")
    return path


@contextlib.contextmanager
def open_regular(path: Path | str, *, inside: Path | None = None,
                 follow: bool = True) -> Iterator[BinaryIO]:
    """``path`` opened for reading in binary, or :class:`Untrusted` if it is not a regular
    file (FileNotFoundError and other OSErrors pass as they are). Opening never blocks on
    a FIFO. With ``inside``, the path must lie in that folder with no symlink on the way;
    ``follow=False`` refuses a symlink itself."""
    path = Path(path)
    if inside is not None:
        check_inside(path, inside)
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC
    if not follow or inside is not None:
        flags |= os.O_NOFOLLOW
    try:
        fd = os.open(path, flags)
    except OSError as error:
        if error.errno == 40:  # ELOOP: a symlink with O_NOFOLLOW
            raise Untrusted(f"{path}: a symlink, which is not followed here") from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise Untrusted(f"{path}: not a regular file ({kind_of(mode)})")
        os.set_blocking(fd, True)
        file = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with file:
        yield file


def read_bytes(path: Path | str, *, limit: int, inside: Path | None = None,
               follow: bool = True) -> bytes:
    """The whole of regular file ``path``, or :class:`Untrusted` if it is larger than
    ``limit`` bytes or not a regular file (see :func:`open_regular`)."""
    with open_regular(path, inside=inside, follow=follow) as file:
        data = file.read(limit + 1)
    if len(data) > limit:
        raise Untrusted(f"{path}: larger than {limit:,} bytes")
    return data


def read_text(path: Path | str, *, limit: int, inside: Path | None = None,
              follow: bool = True) -> str:
    """:func:`read_bytes` as UTF-8 text; a file that is not says what it looks like."""
    data = read_bytes(path, limit=limit, inside=inside, follow=follow)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise Untrusted(f"{path}: not UTF-8 text ({looks_like(data)})") from None


SIGNATURES = ((b"\x89PNG", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"),
              (b"GIF8", "a GIF image"), (b"%PDF", "a PDF document"),
              (b"PK\x03\x04", "a ZIP archive"), (b"\x1f\x8b", "a gzip archive"),
              (b"SQLite format 3\x00", "an SQLite database"), (b"\x7fELF", "a program"),
              (b"BZh", "a bzip2 archive"), (b"\xfd7zXZ", "an xz archive"))


def looks_like(data: bytes) -> str:
    """What a file starting with ``data`` looks like, in words.

    >>> looks_like(b"\\x89PNG\\r\\n\\x1a\\n..."), looks_like(b"\\x00\\x01")
    ('it looks like a PNG image', 'it looks like binary data')
    """
    for magic, name in SIGNATURES:
        if data.startswith(magic):
            return f"it looks like {name}"
    return "it looks like binary data"
