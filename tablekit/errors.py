"""One exception tree for tablekit.

Every class also inherits the matching built-in, so callers that only know
Python's exceptions still catch them (the way gpiozero's ``exc.py`` does it).

>>> from tablekit.errors import InvalidTile, TablekitError
>>> issubclass(InvalidTile, ValueError) and issubclass(InvalidTile, TablekitError)
True
"""

from __future__ import annotations


class TablekitError(Exception):
    """Base class of every error tablekit raises on purpose."""


class InvalidTile(TablekitError, ValueError):
    """A tile or a tile string in mpsz notation that cannot be read."""


class TooManyCopies(InvalidTile):
    """More copies of a tile than a set holds (four, one of them red for a red five)."""


class InvalidHand(TablekitError, ValueError):
    """A win description that cannot be scored: wrong tile count, bad meld, bad flags."""


class RefusedHand(InvalidHand):
    """A well-formed hand that does not score: not complete, or no yaku."""


class RulesError(TablekitError, ValueError):
    """An unknown preset, a broken rules file or an option with an impossible value."""


class InvalidRecord(TablekitError, ValueError):
    """A game record that cannot be read: not mjlog XML, broken XML, or an impossible value."""


class BadInput(TablekitError, ValueError):
    """A command's input that is not there or cannot be used (a missing file, a folder)."""


def one_line(error: BaseException) -> str:
    """The error as one line: an OSError as ``PATH: reason``, anything else as its text.

    >>> one_line(FileNotFoundError(2, "No such file or directory", "game.xml"))
    'game.xml: no such file or directory'
    >>> one_line(PermissionError(13, "Permission denied", "/opt/tablekit/out"))
    '/opt/tablekit/out: permission denied'
    """
    if isinstance(error, OSError) and error.strerror:
        reason = error.strerror[0].lower() + error.strerror[1:]
        return f"{error.filename}: {reason}" if error.filename else reason
    return str(error).splitlines()[0] if str(error) else type(error).__name__
