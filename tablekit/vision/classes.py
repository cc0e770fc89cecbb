"""The classifier's classes: 34 kinds, three red fives, a face-down back and not-a-tile.

Codes are mpsz (``1m``..``9m``, ``1p``.., ``1s``.., ``1z``..``7z`` = E S W N White Green Red),
``0m/0p/0s`` for red fives, ``back`` for a face-down tile and ``none`` for "not a tile".

>>> len(CLASSES), CLASSES[0], CLASSES[33], CLASSES[34], CLASSES[-2:]
(39, '1m', '7z', '0m', ('back', 'none'))
>>> class_index("0p")
35
>>> is_tile("none"), is_tile("back"), is_tile("5z")
(False, True, True)
>>> plain_kind("0s"), plain_kind("7z")
('5s', '7z')
"""

from __future__ import annotations

from tablekit.errors import InvalidTile

KINDS: tuple[str, ...] = tuple(
    f"{rank}{suit}" for suit in "mps" for rank in range(1, 10)
) + tuple(f"{rank}z" for rank in range(1, 8))
RED_FIVES: tuple[str, ...] = ("0m", "0p", "0s")
BACK = "back"
NOT_A_TILE = "none"
CLASSES: tuple[str, ...] = (*KINDS, *RED_FIVES, BACK, NOT_A_TILE)
_INDEX = {code: i for i, code in enumerate(CLASSES)}


def class_index(code: str) -> int:
    """The classifier's output index for ``code``; raises InvalidTile for anything else."""
    try:
        return _INDEX[code]
    except KeyError:
        raise InvalidTile(f"not a vision class: {code!r}") from None


def is_tile(code: str) -> bool:
    """True for every class that is a physical tile (face-down backs included)."""
    return code != NOT_A_TILE


def plain_kind(code: str) -> str:
    """The kind without its colour: a red five counts as its plain five."""
    return f"5{code[1]}" if code in RED_FIVES else code
