"""What a win is made of: melds and the win description the scorer reads.

>>> win = Win.parse("234m345p567s11z", win_tile="1z", melds=["pon:777z"])
>>> win.all_tiles[-3:]
(Tile('7z'), Tile('7z'), Tile('7z'))
>>> win.is_open
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from tablekit.errors import InvalidHand
from tablekit.tiles import Tile, check_counts, parse_tiles, to_mpsz

MeldKind = Literal["chi", "pon", "kan", "ankan", "shouminkan"]
MELD_KINDS: tuple[MeldKind, ...] = ("chi", "pon", "kan", "ankan", "shouminkan")
WINDS = "ESWN"
NORTH = Tile.from_code("4z")


@dataclass(frozen=True)
class Meld:
    """A called or concealed set: ``chi``, ``pon``, ``kan`` (open), ``ankan``, ``shouminkan``.

    ``from_seat`` is the absolute seat the claimed tile came from, when known.

    >>> Meld.parse("chi:342p").tiles
    (Tile('3p'), Tile('4p'), Tile('2p'))
    >>> Meld.parse("pon:123m")
    Traceback (most recent call last):
    ...
    tablekit.errors.InvalidHand: pon:123m: a pon is three of the same tile
    """

    kind: MeldKind
    tiles: tuple[Tile, ...]
    from_seat: int | None = None
    called: Tile | None = None

    def __post_init__(self) -> None:
        _check_meld(self)

    @classmethod
    def parse(cls, text: str) -> Meld:
        """Read ``kind:tiles``, e.g. ``pon:777z``, ``chi:234p``, ``ankan:5505p``."""
        kind, sep, tiles = text.partition(":")
        if not sep or kind not in MELD_KINDS:
            raise InvalidHand(f"{text}: write a meld as KIND:TILES with KIND one of {MELD_KINDS}")
        return cls(kind, tuple(parse_tiles(tiles)))

    @property
    def opened(self) -> bool:
        return self.kind != "ankan"

    @property
    def is_kan(self) -> bool:
        return self.kind in ("kan", "ankan", "shouminkan")

    def __str__(self) -> str:
        return f"{self.kind}:{to_mpsz(self.tiles)}"


def _check_meld(meld: Meld) -> None:
    where = f"{meld.kind}:{to_mpsz(meld.tiles)}"
    kinds = sorted(t.kind for t in meld.tiles)
    size = 3 if meld.kind in ("chi", "pon") else 4
    if len(kinds) != size:
        raise InvalidHand(f"{where}: a {meld.kind} has {size} tiles, not {len(kinds)}")
    if meld.kind == "chi":
        first = kinds[0]
        if first >= 27 or first % 9 > 6 or kinds != [first, first + 1, first + 2]:
            raise InvalidHand(f"{where}: a chi is three tiles in a row of one suit")
    elif len(set(kinds)) != 1:
        noun = "pon" if meld.kind == "pon" else "kan"
        count = "three" if noun == "pon" else "four"
        raise InvalidHand(f"{where}: a {noun} is {count} of the same tile")


@dataclass(frozen=True)
class Win:
    """Everything needed to score one win.

    ``hand`` holds the concealed tiles with the winning tile; melds are apart.
    Winds are 0-3 for East..North; ``dora`` and ``ura`` hold indicators. ``kita`` counts
    the Norths the winner set aside as dora (three players only; not part of the hand).
    """

    hand: tuple[Tile, ...]
    win_tile: Tile
    melds: tuple[Meld, ...] = ()
    tsumo: bool = False
    seat_wind: int = 1
    round_wind: int = 0
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    rinshan: bool = False
    chankan: bool = False
    haitei: bool = False
    houtei: bool = False
    tenhou: bool = False
    chiihou: bool = False
    dora: tuple[Tile, ...] = ()
    ura: tuple[Tile, ...] = ()
    honba: int = 0
    sticks: int = 0
    kita: int = 0

    def __post_init__(self) -> None:
        _check_win(self)

    @classmethod
    def parse(cls, hand: str, win_tile: str, melds: Iterable[str] = (), **flags: object) -> Win:
        """Build a win from mpsz strings; ``flags`` are the other fields."""
        parsed = tuple(Meld.parse(m) for m in melds)
        for key in ("dora", "ura"):
            value = flags.get(key, ())
            flags[key] = tuple(parse_tiles(value) if isinstance(value, str) else value)  # type: ignore[arg-type]
        return cls(tuple(parse_tiles(hand)), Tile.from_code(win_tile), parsed, **flags)  # type: ignore[arg-type]

    @property
    def is_dealer(self) -> bool:
        return self.seat_wind == 0

    @property
    def is_open(self) -> bool:
        return any(m.opened for m in self.melds)

    @property
    def all_tiles(self) -> tuple[Tile, ...]:
        """Concealed tiles then each meld's tiles, as the ``mahjong`` package wants them."""
        return self.hand + tuple(t for m in self.melds for t in m.tiles)


def concealed_count(melds: int) -> int:
    """The tiles a winning hand holds beside ``melds`` called sets, the winning tile
    included (a kan counts as a set).

    >>> concealed_count(0), concealed_count(2)
    (14, 8)
    """
    return 14 - 3 * melds


def _check_win(win: Win) -> None:
    where = f"hand {to_mpsz(win.hand)}"
    expected = concealed_count(len(win.melds))
    if len(win.melds) > 4:
        raise InvalidHand(f"{where}: {len(win.melds)} melds, a hand has at most four")
    if len(win.hand) != expected:
        raise InvalidHand(
            f"{where}: {len(win.hand)} concealed tiles with {len(win.melds)} meld(s); "
            f"expected {expected} including the winning tile"
        )
    if win.win_tile not in win.hand:
        raise InvalidHand(f"{where}: the winning tile {win.win_tile} is not in the hand")
    for name in ("seat_wind", "round_wind"):
        if getattr(win, name) not in range(4):
            raise InvalidHand(f"{name} must be 0-3 (E, S, W, N), not {getattr(win, name)}")
    if win.honba < 0 or win.sticks < 0:
        raise InvalidHand("honba and riichi sticks cannot be negative")
    if win.kita not in range(5):
        raise InvalidHand(f"kita must be 0-4 (Norths set aside), not {win.kita}")
    kita = (NORTH,) * win.kita
    check_counts(win.all_tiles + kita)
    check_counts(tuple(win.all_tiles) + kita + tuple(win.dora) + tuple(win.ura))
    _check_flags(win)


def _check_flags(win: Win) -> None:
    rules: Sequence[tuple[bool, str]] = (
        ((win.riichi or win.double_riichi) and win.is_open, "riichi needs a closed hand"),
        (win.ippatsu and not (win.riichi or win.double_riichi), "ippatsu needs riichi"),
        (win.rinshan and not win.tsumo, "rinshan kaihou is a tsumo win"),
        (win.rinshan and not win.kita and not any(m.is_kan for m in win.melds),
         "rinshan kaihou needs a kan"),  # or a kita (three players)
        (win.chankan and win.tsumo, "chankan is a ron win"),
        (win.haitei and not win.tsumo, "haitei is a tsumo win; use houtei for ron"),
        (win.houtei and win.tsumo, "houtei is a ron win; use haitei for tsumo"),
        (win.haitei and win.rinshan, "haitei and rinshan cannot both happen"),
        (win.tenhou and not (win.tsumo and win.is_dealer and not win.melds),
         "tenhou is the dealer's closed tsumo on the first draw"),
        (win.chiihou and not (win.tsumo and not win.is_dealer and not win.melds),
         "chiihou is a non-dealer's closed tsumo on the first draw"),
        (bool(win.ura) and not (win.riichi or win.double_riichi),
         "ura dora count only after riichi"),
    )
    for broken, message in rules:
        if broken:
            raise InvalidHand(message)
