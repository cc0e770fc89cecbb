"""Names that look alike: a Cyrillic "А" and a Latin "A" are different letters, so "Аki"
and "Aki" would be seated (and ranked in the league) as two players. This is a warning,
not a refusal: two players may well be called alike.

>>> skeleton("Аki") == skeleton("AKI") == skeleton("aki")
True
>>> confusable_names(["Аki", "Ben", "Aki", "Cho"])
["'Аki' and 'Aki' look alike (U+0410 CYRILLIC CAPITAL LETTER A, not A): one player or two?"]
>>> confusable_names(["Ana", "Ben", "José", "Jose"])
[]
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

# Cyrillic and Greek letters, once case-folded, that look like a Latin letter (upper or lower
# case): the common ones of Unicode's confusables list, not all of it.
LOOK_ALIKES = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "з": "3", "һ": "h", "н": "h", "і": "i",
    "ї": "i", "ј": "j", "к": "k", "ӏ": "l", "м": "m", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ү": "y",
    "α": "a", "β": "b", "ε": "e", "η": "h", "ι": "i", "κ": "k", "μ": "m", "ν": "n",
    "ο": "o", "ρ": "p", "τ": "t", "υ": "y", "χ": "x", "ζ": "z", "ϲ": "c", "ϳ": "j",
})


def skeleton(name: str) -> str:
    """What ``name`` looks like: NFKC (full-width and ligatures to plain letters),
    case-folded, with the Cyrillic and Greek look-alikes of Latin letters made Latin."""
    return unicodedata.normalize("NFKC", name).casefold().translate(LOOK_ALIKES)


def confusable_names(names: Iterable[str]) -> list[str]:
    """One warning line for each name that looks like an earlier different one."""
    seen: dict[str, str] = {}
    lines = []
    for name in dict.fromkeys(names):
        first = seen.setdefault(skeleton(name), name)
        if first != name:
            lines.append(f"{first!r} and {name!r} look alike{_which(first, name)}: "
                         "one player or two?")
    return lines


def _which(first: str, second: str) -> str:
    """`` (U+0410 CYRILLIC CAPITAL LETTER A, not A)``: the first letter that differs
    outside ASCII (none when they differ only in case)."""
    for one, other in zip(first, second, strict=False):
        if one != other:
            odd, plain = (one, other) if not one.isascii() else (other, one)
            if not odd.isascii():
                return f" (U+{ord(odd):04X} {unicodedata.name(odd, '?')}, not {plain})"
    return ""
