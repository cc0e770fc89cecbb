"""The field types of everything validated from outside, with their limits: text (NFC, no
control or invisible characters, bounded length), points, and a player's name. The rules'
schema, the roster and every payload's model use these, so a limit is said once.

>>> from pydantic import TypeAdapter
>>> TypeAdapter(PlayerName).validate_python("Jose\u0301") == "José"
True
>>> TypeAdapter(Points()).validate_python(25000)
25000
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any

from pydantic import AfterValidator, Field, StrictInt, StrictStr
from pydantic_core import PydanticCustomError

POINTS_LIMIT = 1_000_000  # no option counts more points (the league keeps them in 64 bits)
JOINERS = frozenset("\u200c\u200d")  # zero-width (non-)joiners: needed by some scripts, emoji
REFUSED_CATEGORIES = {"Cc": "a control character", "Cf": "an invisible format character",
                      "Cs": "a lone surrogate", "Zl": "a line separator",
                      "Zp": "a paragraph separator"}


def text_problem(text: str) -> str | None:
    """What makes ``text`` unfit to show (its first refused character), or None."""
    for char in text:
        kind = REFUSED_CATEGORIES.get(unicodedata.category(char))
        if kind is not None and char not in JOINERS:
            return f"{kind} (U+{ord(char):04X})"
    return None


def clean_text(text: str) -> str:
    """``text`` in NFC (one form for "é"), or ValueError naming a refused character."""
    problem = text_problem(text)
    if problem is not None:
        raise ValueError(f"holds {problem}")
    return unicodedata.normalize("NFC", text)


def Text(longest: int, shortest: int = 1) -> Any:
    """Text of ``shortest`` to ``longest`` characters, cleaned by :func:`clean_text`."""
    return Annotated[StrictStr, Field(min_length=shortest, max_length=longest),
                     AfterValidator(clean_text)]


def Points(smallest: int = 0, step: int = 100) -> Any:
    """A whole number of points from ``smallest`` to :data:`POINTS_LIMIT`, in ``step``s
    (the range is checked first: a number past it is refused as that, not as a step)."""

    def in_steps(value: int) -> int:
        if value % step:
            raise PydanticCustomError("multiple_of", "not a multiple", {"multiple_of": step})
        return value

    return Annotated[StrictInt, Field(ge=smallest, le=POINTS_LIMIT), AfterValidator(in_steps)]


def _no_comma(name: str) -> str:
    if "," in name:
        raise ValueError("holds a comma (--players separates names with commas)")
    return name


NAME_LONGEST = 64
PlayerName = Annotated[StrictStr, Field(min_length=1, max_length=NAME_LONGEST),
                       AfterValidator(clean_text), AfterValidator(_no_comma)]
