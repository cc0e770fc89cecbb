"""Checking a command's input files before any work, and one-line messages for what fails.

>>> require_files([Path("nowhere.xml")])
Traceback (most recent call last):
...
tablekit.errors.BadInput: nowhere.xml: no such file
>>> require_paths([Path(".")]) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from tablekit.errors import BadInput
from tablekit.untrusted.files import kind_of


def require_files(paths: Iterable[Path]) -> None:
    """Raise :class:`BadInput` for the first path that is not a readable file."""
    for path in paths:
        if path.is_dir():
            raise BadInput(f"{path}: is a folder, not a file")
        if path.exists() and not path.is_file():  # a FIFO, a device: never read
            raise BadInput(f"{path}: not a regular file ({kind_of(path.stat().st_mode)})")
        if not path.is_file():
            raise BadInput(f"{path}: no such file")


def require_paths(paths: Iterable[Path]) -> None:
    """Raise :class:`BadInput` for the first path that is neither a file nor a folder."""
    for path in paths:
        if not path.exists():
            raise BadInput(f"{path}: no such file or folder")


