"""Checking a command's input files before any work, and one-line messages for what fails.

>>> require_files([Path("nowhere.xml")])
Traceback (most recent call last):
...
tablekit.errors.BadInput: nowhere.xml: no such file
>>> require_paths([Path(".")]) is None
True
>>> one_line(FileNotFoundError(2, "No such file or directory", "game.xml"))
'game.xml: no such file or directory'
>>> one_line(PermissionError(13, "Permission denied", "/opt/tablekit/out"))
'/opt/tablekit/out: permission denied'
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from tablekit.errors import BadInput


def require_files(paths: Iterable[Path]) -> None:
    """Raise :class:`BadInput` for the first path that is not a readable file."""
    for path in paths:
        if path.is_dir():
            raise BadInput(f"{path}: is a folder, not a file")
        if not path.is_file():
            raise BadInput(f"{path}: no such file")


def require_paths(paths: Iterable[Path]) -> None:
    """Raise :class:`BadInput` for the first path that is neither a file nor a folder."""
    for path in paths:
        if not path.exists():
            raise BadInput(f"{path}: no such file or folder")


def one_line(error: BaseException) -> str:
    """The error as one line: an OSError as ``PATH: reason``, anything else as its text."""
    if isinstance(error, OSError) and error.strerror:
        reason = error.strerror[0].lower() + error.strerror[1:]
        return f"{error.filename}: {reason}" if error.filename else reason
    return str(error).splitlines()[0] if str(error) else type(error).__name__
