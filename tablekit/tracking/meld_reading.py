"""Reading a meld laid on the table under the rules: the camera's candidates for each new
tile, the discard that was called, and what a chi, pon or kan can be.

A meld row is read from the seat's right end leftwards while the tiles lie together
(:func:`meld_group`): the standing hand further left, whose tops can look like a blank
face from an oblique camera, is never part of it. The new tiles are those the known melds
do not explain (:func:`new_reads`); the likeliest legal meld is then chosen over their
candidates (:func:`read_claimed`, :func:`read_own_kan`), so one misread face, such as the
sideways tile of a chi, does not turn a chi into something the reducer refuses.

>>> from tablekit.tiles import Tile, to_mpsz  # noqa: F401 (doctest)
>>> reads = [TileRead(((Tile.from_code("3p"), 0.9),)),
...          TileRead(((Tile.from_code("8s"), 0.6), (Tile.from_code("2p"), 0.3))),
...          TileRead(((Tile.from_code("4p"), 0.8),))]
>>> kind, tiles = read_claimed(reads, Tile.from_code("2p"))
>>> kind, [t.code for t in tiles]
('chi', ['2p', '3p', '4p'])
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from typing import Literal, TypeVar

from tablekit.rules.hand import Meld
from tablekit.rules.reading import TileRead
from tablekit.tiles import Tile, to_mpsz  # noqa: F401 (doctest)

T = TypeVar("T")
ClaimKind = Literal["chi", "pon", "kan"]
"""The melds a called discard makes (``kan``: an open kan)."""
SAME_KIND: dict[int, ClaimKind] = {3: "pon", 4: "kan"}
MELD_GAP = 90.0
"""mm between neighbouring tile centres beyond which a tile is not part of the melds
(tiles of a meld lie 26-35 mm apart, melds 10 mm apart, so an unseen sideways tile leaves
about 80 mm; the standing hand ends 150 mm or more from the melds)."""
OWN_KAN_SURE = 0.3
"""Each face of a kan declared on a seat's own turn must be at least this likely: no
called tile says its kind (the CALL press says a meld comes, not which). A lone new tile
by a pon while no discard is being claimed is that pon's added kan whatever it reads
(:func:`read_own_kan`, ``lone``)."""
CALLED_FLOOR = 0.02
"""Probability given to the called tile at a position whose candidates lack it: the
claimed tile lies sideways and is the one most often misread, but it is known exactly."""
PARTNER_FLOOR = 0.02
"""The least a called tile's partner (an upright face) may be read as what it is."""
SUIT_FLOOR = 0.01
"""What a tile of a chi that no read names counts for, when no meld passes
:data:`PARTNER_FLOOR` (:func:`chi_of_suit`): a partner not seen, or read as another tile
of the called tile's suit."""
MISSED_SURE = 0.3
RED_SLIP = 0.5
"""The share of a read's five of the called kind that counts at the called tile's place
when it is the other five (red for plain, plain for red): the called tile is known
exactly, and which five lies sideways says which the partners are."""
"""Each face of a pon whose discard the camera never saw must be at least this likely the
pon's kind: only the faces say what was called."""


def meld_group(row: Sequence[tuple[float, T]]) -> list[tuple[float, T]]:
    """The tiles at the right end of a seat's row (``(x, tile)`` left to right) that lie
    together: the melds.

    >>> meld_group([(-60.0, "top of the hand"), (210.0, "a"), (240.0, "b"), (285.0, "c")])
    [(210.0, 'a'), (240.0, 'b'), (285.0, 'c')]
    """
    group: list[tuple[float, T]] = []
    for x, tile in reversed(row):
        if group and group[0][0] - x > MELD_GAP:
            break
        group.insert(0, (x, tile))
    return group


def face_up_tiles(meld: Meld) -> tuple[Tile, ...]:
    """The tiles of a meld that lie face up (a closed kan shows its middle two)."""
    return meld.tiles[1:3] if meld.kind == "ankan" else meld.tiles


def face_up_meld_tiles(melds: Sequence[Meld]) -> int:
    """How many face-up tiles the seat's melds show (a closed kan shows two)."""
    return sum(len(face_up_tiles(m)) for m in melds)


def new_reads(row: Sequence[TileRead], melds: Sequence[Meld]) -> list[TileRead]:
    """The reads of a seat's meld row (left to right) that its known melds do not account
    for, wherever they lie (an added kan's tile goes inside its pon): known tiles are
    matched by the best candidate first; a known tile still unmatched then takes a read
    lying among or right of the known ones (a misread sideways tile: new melds are laid to
    the left of the old), and only then a read anywhere with it as a lesser candidate.

    >>> from tablekit.tiles import parse_tiles
    >>> def reads_of(text): return [TileRead.sure(t) for t in parse_tiles(text)]
    >>> [r.best[0].code for r in new_reads(reads_of("666222z"), [Meld.parse("pon:222z")])]
    ['6z', '6z', '6z']
    >>> pon = [Meld.parse("pon:444z")]
    >>> [r.best[0].code for r in new_reads(reads_of("786m4z5p4z"), pon)]  # 5p: a misread 4z
    ['7m', '8m', '6m']
    >>> [r.best[0].code for r in new_reads(reads_of("786m44z"), pon)]     # one 4z not seen
    ['7m', '8m', '6m']
    >>> [r.best[0].code for r in new_reads(reads_of("5505p"), [Meld.parse("pon:505p")])]
    ['5p']
    """
    tiles = [t for m in melds for t in face_up_tiles(m)]
    known = [t.kind for t in tiles]
    left = list(range(len(row)))

    def take(index: int, kind: int) -> None:
        left.remove(index)
        known.remove(kind)

    for exact in (True, False):  # a red five known is the red five read, when it is
        for tile in list(tiles):
            match = next((i for i in left if _has(row[i], tile, True, exact)), None)
            if match is not None:
                take(match, tile.kind)
                tiles.remove(tile)
    matched = sorted(set(range(len(row))) - set(left))
    for index in [i for i in left if matched and i > matched[0]]:
        if known:
            take(index, next((k for k in known if _has(row[index], k, False)), known[0]))
    for kind in list(known):  # a faint candidate last: a new meld's face may carry one too
        match = next((i for i in left if _has(row[i], kind, False)), None)
        if match is not None:
            take(match, kind)
    return [row[i] for i in left]


def _has(read: TileRead, wanted: int | Tile, best_only: bool, exact: bool = False) -> bool:
    """Whether the read's best candidate (or any) is of the kind wanted (``exact``: is the
    tile wanted, red or plain)."""
    candidates = read.candidates[:1] if best_only else read.candidates
    if exact:
        return any(tile == wanted for tile, _ in candidates)
    kind = wanted.kind if isinstance(wanted, Tile) else wanted
    return any(tile.kind == kind for tile, _ in candidates)


def kind_probability(read: TileRead, kind: int) -> float:
    """The read's probability of a kind (a five and a red five together)."""
    return sum(p for tile, p in read.candidates if tile.kind == kind)


def called_probability(read: TileRead, called: Tile) -> float:
    """The read's probability of being the called tile: its kind, the other five of the
    kind counting :data:`RED_SLIP` of its share.

    >>> five = TileRead(((Tile.from_code("5p"), 0.8), (Tile.from_code("0p"), 0.2)))
    >>> [round(called_probability(five, Tile.from_code(c)), 2) for c in ("5p", "0p")]
    [0.9, 0.6]
    """
    kind = kind_probability(read, called.kind)
    exact = sum(p for tile, p in read.candidates if tile == called)
    return exact + RED_SLIP * (kind - exact)


def one_red_each(tiles: Sequence[Tile]) -> bool:
    """Whether no two of the tiles are the red five of one kind (there is one of each).

    >>> from tablekit.tiles import parse_tiles
    >>> one_red_each(parse_tiles("055p")), one_red_each(parse_tiles("005p"))
    (True, False)
    """
    reds = [t.kind for t in tiles if t.red]
    return len(reds) == len(set(reds))


def read_claimed(reads: Sequence[TileRead], called: Tile, chi: bool = True
                 ) -> tuple[ClaimKind, tuple[Tile, ...]] | None:
    """The likeliest chi (only where ``chi``: the discard came from the left), pon or open
    kan (``(kind, tiles)``) the new reads make with the called tile, or None when no
    candidates make one. Two reads are the called tile's partners (the sideways tile
    itself was not seen). A red five is told from a plain one: the read at the called
    tile's place is weighed by :func:`called_probability`, and no meld holds two red
    fives of a kind.

    The partners must each be read as what they are at ``PARTNER_FLOOR`` or more: two
    North faces of a closed kan are no pon of a discarded East.

    >>> kind, tiles = read_claimed([TileRead.sure(Tile.from_code("7z"))] * 2, Tile.from_code("7z"))
    >>> kind, len(tiles)
    ('pon', 3)
    >>> north = TileRead(((Tile.from_code("4z"), 0.999), (Tile.from_code("1z"), 0.0004)))
    >>> read_claimed([north, north], Tile.from_code("1z")) is None
    True
    >>> fives = [TileRead.sure(Tile.from_code(c)) for c in ("5p", "0p", "5p")]
    >>> to_mpsz(read_claimed(fives, Tile.from_code("0p"))[1])   # the red five called
    '550p'
    """
    best: tuple[float, ClaimKind, tuple[Tile, ...]] | None = None
    for at in range(len(reads)) if len(reads) > 2 else (None,):
        p_called = 1.0 if at is None else max(called_probability(reads[at], called),
                                               CALLED_FLOOR)
        others = [r.candidates for i, r in enumerate(reads) if i != at]
        for combo in itertools.product(*others):
            tiles = (called, *(tile for tile, _ in combo))
            kind = meld_kind(tiles)
            if kind is None or (kind == "chi" and not chi) or min(
                    p for _, p in combo) < PARTNER_FLOOR or not one_red_each(tiles):
                continue
            score = math.log(p_called) + sum(math.log(max(p, 1e-9)) for _, p in combo)
            if best is None or score > best[0]:
                best = (score, kind, tiles)
    if best is None:
        return chi_of_suit(reads, called) if chi else None
    return best[1], tuple(sorted(best[2], key=lambda t: (t.kind, t.red)))


def chi_of_suit(reads: Sequence[TileRead], called: Tile
                ) -> tuple[ClaimKind, tuple[Tile, ...]] | None:
    """The chi of ``called`` the reads make likeliest when no meld passes
    :data:`PARTNER_FLOOR` (:func:`read_claimed`), each read's best candidate a tile of the
    called tile's suit (any tile of the chi not read as such counts :data:`SUIT_FLOOR`; a
    partner read as a red five is one); None when no read is of the suit or two chis fit
    equally well. A seat that pressed CALL took the discard from its left and laid a meld
    of it: on kde-jade the sideways called tile was read and one partner not seen (reads
    1m, 2m for a chi of 1m; 4m, 2m for a chi of 4m), so the two reads were no partners;
    the chi was missed, the called tile stayed in the discarder's pond and every turn
    after it went wrong.

    >>> seen = [TileRead.sure(Tile.from_code("4m")),
    ...         TileRead(((Tile.from_code("2m"), 0.899), (Tile.from_code("3m"), 0.101)))]
    >>> read_claimed(seen, Tile.from_code("4m"))      # the called 4m and a 2m: 234m
    ('chi', (Tile('2m'), Tile('3m'), Tile('4m')))
    >>> reads = [TileRead.sure(Tile.from_code(code)) for code in ("6m", "5m")]
    >>> read_claimed(reads, Tile.from_code("1m"))     # only 123m holds a 1m
    ('chi', (Tile('1m'), Tile('2m'), Tile('3m')))
    >>> read_claimed(reads, Tile.from_code("1m"), chi=False) is None
    True
    >>> chi_of_suit(reads, Tile.from_code("1p")) is None   # not the called tile's suit
    True
    >>> chi_of_suit(reads, Tile.from_code("9m"))      # only 789m holds a 9m
    ('chi', (Tile('7m'), Tile('8m'), Tile('9m')))
    >>> chi_of_suit([TileRead.sure(Tile.from_code(c)) for c in ("6m", "9m")],
    ...             Tile.from_code("5m")) is None    # 456m and 567m fit as well
    True
    >>> red = TileRead(((Tile.from_code("0s"), 0.6), (Tile.from_code("5s"), 0.3)))
    >>> eight = TileRead(((Tile.from_code("8s"), 0.9), (Tile.from_code("7s"), 0.05)))
    >>> to_mpsz(chi_of_suit([red, eight], Tile.from_code("6s"))[1])   # a red partner
    '067s'
    """
    if called.kind >= 27 or len(reads) not in (2, 3):
        return None
    suit, number = divmod(called.kind, 9)
    shapes = [tuple(suit * 9 + n for n in range(start, start + 3) if n != number)
              for start in range(max(0, number - 2), min(number, 6) + 1)]
    scored: list[tuple[float, tuple[Tile, ...]]] = []
    for at in range(len(reads)) if len(reads) > 2 else (None,):
        partners = [read for i, read in enumerate(reads) if i != at]
        if any(read.best[0].kind >= 27 or read.best[0].kind // 9 != suit
               for read in partners):
            continue
        for shape in shapes:
            for first, second in ((0, 1), (1, 0)):
                pairs = ((partners[first], shape[0]), (partners[second], shape[1]))
                scored.append((sum(math.log(max(kind_probability(read, kind), SUIT_FLOOR))
                                   for read, kind in pairs),
                               tuple(partner_tile(read, kind) for read, kind in pairs)))
    if not scored:
        return None
    top = max(score for score, _ in scored)
    fits = {tuple(sorted(t.kind for t in tiles)): tiles for score, tiles in scored
            if score == top}
    if len(fits) > 1:
        return None
    tiles = (called, *fits.popitem()[1])
    if not one_red_each(tiles):
        tiles = (called, *(tile.plain for tile in tiles[1:]))
    return "chi", tuple(sorted(tiles, key=lambda t: (t.kind, t.red)))


def partner_tile(read: TileRead, kind: int) -> Tile:
    """The tile of ``kind`` a read most likely shows: a five red where the read takes it
    for the red one rather than the plain, plain otherwise.

    >>> red = TileRead(((Tile.from_code("0s"), 0.7), (Tile.from_code("5s"), 0.2)))
    >>> partner_tile(red, Tile.from_code("5s").kind), partner_tile(red, 23)
    (Tile('0s'), Tile('6s'))
    """
    same = [(p, tile) for tile, p in read.candidates if tile.kind == kind]
    return max(same, key=lambda pair: pair[0])[1] if same else Tile(kind)


def read_missed_pon(reads: Sequence[TileRead], visible: Counter[int]
                    ) -> tuple[ClaimKind, Tile, tuple[Tile, ...]] | None:
    """A pon or open kan (``(kind, called tile, tiles)``) of a discard the camera never
    read in the pond (taken before it was seen): the kind every new face most likely
    shows, each at :data:`MISSED_SURE` or more, of which the table (``visible`` kinds)
    still holds enough; None when the faces agree on none. A chi is never guessed: its
    faces do not say which tile was called.

    >>> eight = TileRead(((Tile.from_code("8s"), 0.55), (Tile.from_code("6s"), 0.4)))
    >>> six = TileRead(((Tile.from_code("6s"), 0.5), (Tile.from_code("8s"), 0.45)))
    >>> kind, called, tiles = read_missed_pon([eight, six], Counter())
    >>> kind, called.code, to_mpsz(tiles)
    ('pon', '8s', '888s')
    >>> read_missed_pon([eight, six], Counter({Tile.from_code("8s").kind: 2}))[1].code
    '6s'
    >>> four, five = (TileRead.sure(Tile.from_code(c)) for c in ("4s", "5s"))
    >>> read_missed_pon([four, five], Counter()) is None
    True
    """
    if len(reads) not in (2, 3, 4):
        return None
    size = max(3, len(reads))
    options = []
    for kind in {t.kind for r in reads for t, _ in r.candidates}:
        shares = [kind_probability(r, kind) for r in reads]
        if min(shares) >= MISSED_SURE and visible[kind] + size <= 4:
            options.append((sum(math.log(p) for p in shares), kind))
    if not options:
        return None
    called = Tile(max(options)[1])
    found = read_claimed(reads, called, chi=False)
    return None if found is None else (found[0], called, found[1])


def meld_kind(tiles: Sequence[Tile]) -> ClaimKind | None:
    """``chi``, ``pon`` or ``kan`` for tiles that make one, else None.

    >>> from tablekit.tiles import parse_tiles
    >>> [meld_kind(parse_tiles(s)) for s in ("345m", "555z", "0555p", "124s", "123z")]
    ['chi', 'pon', 'kan', None, None]
    """
    kinds = sorted(t.kind for t in tiles)
    if len(set(kinds)) == 1:
        return SAME_KIND.get(len(kinds))
    suited = kinds[-1] < 27 and kinds[0] // 9 == kinds[-1] // 9
    if len(kinds) == 3 and suited and kinds == list(range(kinds[0], kinds[0] + 3)):
        return "chi"
    return None


def read_own_kan(reads: Sequence[TileRead], pons: Sequence[int], lone: bool = False
                  ) -> Tile | None:
    """The kind of an added kan (one new tile beside a pon of ``pons``) or a closed kan
    (two new faces alike), as the tile most likely shown; None when the reads make neither.
    ``lone``: the seat pressed CALL and no discard is being claimed (it still lies in its
    pond), so one new tile can only be an added kan: the pon it is added to is the one
    pon there is, or the pon whose kind the face favours, however unsure (an added tile
    lies sideways by the meld, where a set enrolled from the table may read it as
    another kind).

    >>> from tablekit.tiles import Tile, to_mpsz  # noqa: F401 (doctest)
    >>> five = TileRead(((Tile.from_code("6p"), 0.55), (Tile.from_code("5p"), 0.4)))
    >>> read_own_kan([five], [Tile.from_code("5p").kind]).code
    '5p'
    >>> eight, sideways = TileRead.sure(Tile.from_code("8s")), TileRead(
    ...     ((Tile.from_code("1s"), 0.85), (Tile.from_code("8s"), 0.12)))
    >>> read_own_kan([eight, sideways], []) is None   # a pon's tiles, not a closed kan
    True
    >>> two = TileRead.sure(Tile.from_code("4m"))     # a 2m added to 222m, read as 4m
    >>> read_own_kan([two], [Tile.from_code("2m").kind]) is None
    True
    >>> read_own_kan([two], [Tile.from_code("2m").kind], lone=True).code
    '2m'
    >>> read_own_kan([two], [Tile.from_code(c).kind for c in ("2m", "7z")], lone=True) is None
    True
    """
    if len(reads) == 1 and lone and pons:
        ranked = sorted(((kind_probability(reads[0], kind), kind) for kind in pons),
                        reverse=True)
        if len(ranked) > 1 and ranked[0][0] == ranked[1][0]:
            return None  # the face favours no pon: which one it was added to is unknown
        kind = ranked[0][1]
        shown = [(p, t) for t, p in reads[0].candidates if t.kind == kind]
        return max(shown, key=lambda item: item[0])[1] if shown else Tile(kind)
    if len(reads) == 1:
        options = [(kind_probability(reads[0], kind), kind) for kind in pons]
    elif len(reads) == 2:  # both faces alike, each sure enough
        kinds = {t.kind for r in reads for t, _ in r.candidates}
        options = [(min(kind_probability(reads[0], k), kind_probability(reads[1], k)), k)
                   for k in kinds]
    else:
        return None
    p, kind = max(options, default=(0.0, -1))
    if p < OWN_KAN_SURE:
        return None
    shown = [(p, t) for r in reads for t, p in r.candidates if t.kind == kind]
    return max(shown, key=lambda item: item[0])[1]
