"""A winner's revealed hand read under the rules: the tiles voted over frames, fitted to the
hand's size (tiles an arm or the far edge hid become any tile), the ron tile from the last
discard (or from the winner's row, where that surely reads otherwise), and the complete
hands the rules allow ranked by the camera's confidence, with every uncertainty reported
as a doubt for the person who confirms; the ura indicators never a fifth of a kind.

>>> from tablekit.game.state import SEATS, TableState, seat_name
>>> from tablekit.tiles import parse_tiles
>>> reads = [TileRead.sure(t) for t in parse_tiles("123m456p789s11222z")]
>>> hand, doubts = read_revealed(TableState.new(), 0, reads, None)
>>> to_mpsz(hand.hand), doubts
('123m456p789s11222z', [])
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from tablekit.game.events import WinnerHand
from tablekit.game.state import SEATS, TableState, seat_name
from tablekit.game.win_reading import how_sure, unsure
from tablekit.rules.hand import concealed_count
from tablekit.rules.reading import HandReading, TileRead, rank_hands
from tablekit.rules.waits import waits
from tablekit.tiles import SANMA_ABSENT, Tile, parse_tiles, to_mpsz  # noqa: F401 (doctest)
from tablekit.tracking.meld_reading import face_up_meld_tiles
from tablekit.vision.table_reading import SeenTile

SURE = 0.8          # below this a tile read is reported as a doubt
SURE_HAND = 0.9     # below this share the hand reading is reported as a doubt
UNSEEN = TileRead(tuple((Tile(kind), 1 / 34) for kind in range(34)))
"""A tile of a revealed hand the camera did not find: any kind, the hand decides."""
MAX_UNSEEN = 2
FIFTH = 1e-3
"""How much less likely a revealed hand is for each of its tiles that would be a fifth of
its kind with the tiles seen elsewhere on the table (one of them misread), at least: about
as unlikely as a sure read being a tile outside its candidates (:func:`widen`). A kind
whose discard the frames doubted (:meth:`~tablekit.tracking.pond_votes.PondVotes.doubts`)
is as much likelier as they doubted it (:func:`beyond_four`)."""
IN_ORDER = 0.2
"""How much less likely a revealed hand's reading is for each pair of neighbours of one
suit whose numbers fall: players keep their hands in order, so a face read about as
likely 9m as 6m between a 6m and a 7m is the 6m (kde-jade, 2026-12-07). A face read 5
times likelier one way stays as read, in order or not."""
FURITEN = 1e-3
"""How much less likely a ron's reading is that would be furiten (its seat's own discards
are read by the camera too, and may be wrong)."""
RANKED = 10
"""The complete readings kept to rank again (furiten)."""
SLOT_MM = 12.0
"""Reads of one row in different frames closer than this along the row are one tile (tiles
lie 26-27 mm apart; a read's centre wanders a few mm)."""
MIN_SIGHTINGS = 2
MELD_GAP = 65.0
"""A gap along a revealed row at least this wide (mm; a tile set apart leaves about 36,
a tile not seen 54) parts the concealed tiles from the melds."""


def vote(tiles: Sequence[SeenTile]) -> TileRead:
    """Candidates of one position summed over frames, best first."""
    mass: dict[Tile, float] = defaultdict(float)
    for tile in tiles:
        for candidate, p in tile.candidates:
            mass[candidate] += p / len(tiles)
    ranked = sorted(mass.items(), key=lambda item: -item[1])
    return TileRead(tuple(ranked))


def vote_rows(rows: Sequence[Sequence[SeenTile]]) -> list[TileRead]:
    """Each position of equally long rows (one a frame) voted over the rows.

    >>> five, six = (SeenTile((0, 0), 0, True, ((Tile(k), 0.9),)) for k in (4, 5))
    >>> [r.best[0].code for r in vote_rows([[five, six], [five, five], [five, six]])]
    ['5m', '6m']
    """
    return [vote([row[i] for row in rows]) for i in range(len(rows[0]))] if rows else []


Slot = list[tuple[float, SeenTile]]
"""One place of a row: its tile's reads in the frames that saw it, with where they lay."""


def row_slots(rows: Sequence[Sequence[tuple[float, SeenTile]]]) -> list[Slot]:
    """A row's places over frames (``(x, tile)`` along the row, mm), left to right: reads
    closer than :data:`SLOT_MM` are one tile, kept where at least :data:`MIN_SIGHTINGS`
    frames saw it. A tile some frames missed (a finger over it, a weak peak) still counts
    and the others keep their places, as they would not voting by index.

    >>> five, six = (SeenTile((0, 0), 0, True, ((Tile(k), 0.9),)) for k in (4, 5))
    >>> rows = [[(0.0, five), (27.0, six)], [(1.0, five)], [(-1.0, five), (26.0, six)]]
    >>> [len(slot) for slot in row_slots(rows)]
    [3, 2]
    """
    slots: list[Slot] = []
    centres: list[float] = []
    for x, tile in sorted(((x, t) for row in rows for x, t in row), key=lambda i: i[0]):
        if centres and x - centres[-1] < SLOT_MM:
            slots[-1].append((x, tile))
            centres[-1] = sum(v for v, _ in slots[-1]) / len(slots[-1])
        else:
            slots.append([(x, tile)])
            centres.append(x)
    return [s for s in slots if len(s) >= min(MIN_SIGHTINGS, len(rows))]


def before_melds(slots: list[Slot]) -> list[Slot] | None:
    """The places left of the widest gap in the row when it is at least :data:`MELD_GAP`
    (the melds lie at the row's far end), else None.

    >>> tile = SeenTile((0, 0), 0, True, ((Tile(0), 0.9),))
    >>> [len(s) for s in before_melds([[(0.0, tile)], [(27.0, tile)], [(300.0, tile)]])]
    [1, 1]
    >>> before_melds([[(0.0, tile)], [(27.0, tile)]]) is None
    True
    """
    centres = [sum(x for x, _ in slot) / len(slot) for slot in slots]
    gaps = [(b - a, i) for i, (a, b) in enumerate(itertools.pairwise(centres), 1)]
    widest, at = max(gaps, default=(0.0, 0))
    return slots[:at] if widest >= MELD_GAP else None


def vote_slots(slots: list[Slot], count: int | None = None, frames: int = 0
               ) -> list[TileRead]:
    """Each place's reads voted; with more places than the row holds (``count``), those
    seen least often are left out. Of ``frames`` frames, a place seen in fewer than half
    is less sure in proportion (a tile glimpsed twice in eight frames may be a misread of
    a face the detector mostly missed).

    >>> five, six = (SeenTile((0, 0), 0, True, ((Tile(k), 0.9),)) for k in (4, 5))
    >>> slots = [[(0.0, five)] * 3, [(13.0, six)], [(27.0, six)] * 2]
    >>> [r.best[0].code for r in vote_slots(slots, count=2)]
    ['5m', '6m']
    >>> [round(r.best[1], 2) for r in vote_slots(slots, count=2, frames=6)]
    [0.9, 0.6]
    """
    if count is not None and len(slots) > count:
        keep = sorted(range(len(slots)), key=lambda i: -len(slots[i]))[:count]
        slots = [slots[i] for i in sorted(keep)]
    reads = []
    for slot in slots:
        read = vote([tile for _, tile in slot])
        seen = min(1.0, 2 * len(slot) / frames) if frames else 1.0
        reads.append(read if seen == 1.0 else
                     TileRead(tuple((tile, p * seen) for tile, p in read.candidates)))
    return reads


def read_revealed(state: TableState, seat: int, reads: list[TileRead], from_seat: int | None,
                  win_seen: bool = True, doubted: Mapping[int, float] | None = None
                  ) -> tuple[WinnerHand | None, list[str]]:
    """A winner's hand from the reads of its row (concealed tiles, then its melds): fitted
    to the hand's size, the ron tile from the last discard, and the likeliest complete
    hand, where one of the two least sure reads may also be any other tile (a face misread
    beyond its candidates) when that makes a likelier hand than the candidates do.
    ``win_seen`` False: the winning tile set apart was not seen (the row's last read is a
    tile of the hand): the discard's, or any tile, is added as the winning tile."""
    melds = state.seats[seat].melds
    concealed, disagree = _concealed(state, seat, reads, from_seat, win_seen)
    if not concealed:
        return None, [f"{seat_name(state, seat)}: no revealed hand seen"]
    concealed, doubts = fit_count(concealed, concealed_count(len(melds)), seat_name(state, seat))
    doubts = [*disagree, *doubts]
    free = len(concealed) - (from_seat is not None)  # a ron tile is the discard's
    hand, found = best_hand(state, seat, concealed, len(melds), from_seat, doubted)
    for index in sorted(range(free), key=lambda i: concealed[i].best[1])[:2]:
        loose = [*concealed[:index], widen(concealed[index]), *concealed[index + 1:]]
        other, more = best_hand(state, seat, loose, len(melds), from_seat, doubted)
        if other is not None and (hand is None or other.log_p > hand.log_p):
            hand, found = other, more
    if hand is None:
        return None, [*doubts, *found]
    return WinnerHand(seat, hand.tiles, hand.tiles[-1]), [*doubts, *found]


def draft_hand(state: TableState, seat: int, reads: list[TileRead], from_seat: int | None
               ) -> tuple[Tile | None, ...]:
    """The winner's concealed tiles as best read, exactly as many as the hand holds (the
    winning tile last; ``None`` where no tile was seen), for a person to put right.

    >>> reads = [TileRead.sure(t) for t in parse_tiles("123m456p789s112z")]
    >>> draft = draft_hand(TableState.new(), 0, reads, None)
    >>> len(draft), draft[-3:]
    (14, (None, None, Tile('2z')))
    """
    count = concealed_count(len(state.seats[seat].melds))
    concealed, _ = _concealed(state, seat, reads, from_seat)
    ron = state.last_discard[1] if from_seat is not None and state.last_discard else None
    last = concealed[-1].best[0] if concealed else ron
    body = sorted(range(len(concealed) - 1), key=lambda i: -concealed[i].best[1])[:count - 1]
    tiles: list[Tile | None] = [concealed[i].best[0] for i in sorted(body)]
    return (*tiles, *[None] * (count - 1 - len(tiles)), last)


def _concealed(state: TableState, seat: int, reads: list[TileRead], from_seat: int | None,
               win_seen: bool = True) -> tuple[list[TileRead], list[str]]:
    """The row's reads less the winner's face-up meld tiles (at the row's end), the ron
    tile the discard's (robbing a kan: the tile added to it), or, where the row reads it
    as another tile, either (:func:`ron_tile_read`, with a doubt, as one of the two reads
    is wrong); ``win_seen`` False: the winning tile is added after the row's reads,
    the discard's or, on a tsumo, any tile."""
    concealed = reads[: len(reads) - face_up_meld_tiles(state.seats[seat].melds)]
    registered = state.chankan_tile or (state.last_discard[1] if state.last_discard else None)
    if not win_seen and concealed:
        ron = from_seat is not None and registered is not None
        return [*concealed, TileRead.sure(registered) if ron else UNSEEN], (
            [] if ron else [f"{seat_name(state, seat)}: the winning tile set apart not seen"])
    if not concealed or from_seat is None or registered is None:
        return concealed, []
    row = concealed[-1]
    concealed[-1] = ron_tile_read(registered, row)
    if len(concealed[-1].candidates) == 1:
        return concealed, []
    seen, p = row.best
    return concealed, [f"{seat_name(state, seat)}: the ron tile reads as {seen} in the hand "
                       f"({how_sure(p)}), but {seat_name(state, from_seat)}'s discard as "
                       f"{registered}"]


def ron_tile_read(registered: Tile, row: TileRead) -> TileRead:
    """The ron tile: the discard as registered and the winner's row's read of the tile (set
    apart at its end) as equally likely accounts of it, where they differ: one of the two
    reads is wrong, and the hand decides which (a discard registered from a weak pond
    read, kde-jade 2026-12-07: a 3m registered as 2m, the row reading 3m 0.71, which
    alone completed the hand without furiten).

    >>> to_mpsz(t for t, _ in ron_tile_read(Tile(0), TileRead.sure(Tile(14))).candidates)
    '1m6p'
    >>> read = ron_tile_read(Tile(0), TileRead(((Tile(14), 0.6), (Tile(0), 0.4))))
    >>> [(t.code, round(p, 2)) for t, p in read.candidates]
    [('1m', 0.7), ('6p', 0.3)]
    >>> ron_tile_read(Tile(0), TileRead(((Tile(0), 0.6), (Tile(14), 0.4)))).candidates
    ((Tile('1m'), 1.0),)
    """
    if row.best[0] == registered:
        return TileRead.sure(registered)
    mass: dict[Tile, float] = defaultdict(float, {registered: 0.5})
    for tile, q in row.candidates:
        mass[tile] += q / 2
    return TileRead(tuple(sorted(mass.items(), key=lambda item: -item[1])))


def best_hand(state: TableState, seat: int, reads: list[TileRead], melds: int,
              from_seat: int | None, doubted: Mapping[int, float] | None = None
              ) -> tuple[HandReading | None, list[str]]:
    """The likeliest complete hand the reads allow, in order (:data:`IN_ORDER`), and the
    doubts about it: reads under :data:`SURE`, tiles taken that were not a read's best (a
    sure read overruled by the rules is a misread somewhere), a fifth of a kind
    (:func:`beyond_four`), a close second reading, a furiten ron."""
    visible = visible_counts(state, exclude_last_discard=from_seat is not None)
    ranked = rank_hands(reads, melds, visible, limit=RANKED,
                        beyond=beyond_four(state, doubted or {}), order=IN_ORDER)
    who = seat_name(state, seat)
    if from_seat is not None:
        ranked = no_furiten_first(state, seat, ranked)
    if not ranked:
        seen = to_mpsz(r.best[0] for r in reads)
        return None, [f"{who}: {seen} is not a complete hand; check the tiles"]
    best = ranked[0]
    counts = Counter(tile.kind for tile in best.tiles)
    doubts = [f"{who}: the {Tile(kind)} would be a fifth with those on the table; a discard "
              "or meld may be misread" for kind, n in sorted(counts.items())
              if n + visible[kind] > 4]
    for index, (read, tile) in enumerate(zip(reads, best.tiles, strict=True)):
        seen, p = read.best
        if read is UNSEEN or (from_seat is not None and index == len(reads) - 1
                              and len(read.candidates) > 1):
            continue  # a tile not seen, a ron tile read two ways: said so already
        if tile != seen and p >= SURE:
            doubts.append(f"{who}: the {seen} ({how_sure(p)}) taken as {tile}")
        elif p < SURE:
            doubts.append(f"{who}: {unsure(seen, p)}")
    if best.share < SURE_HAND and len(ranked) > 1:
        doubts.append(f"{who}: {to_mpsz(best.tiles)} ({how_sure(best.share)}) or "
                      f"{to_mpsz(ranked[1].tiles)}?")
    if from_seat is not None and is_furiten(state, seat, WinnerHand(seat, best.tiles,
                                                                    best.tiles[-1])):
        doubts.append(f"{who}: furiten? a winning tile is in their own discards")
    return best, doubts


def beyond_four(state: TableState, doubted: Mapping[int, float]) -> Callable[[int], float]:
    """The chance that a revealed hand holds a kind past the four copies the table shows
    (:func:`~tablekit.rules.reading.rank_hands`' ``beyond``): one of those tiles is
    misread, as likely as ``doubted`` says (the frames' doubt about a discard of the kind)
    and at least :data:`FIFTH`; the ponds and melds are read by the camera too, and a
    discard misread as a kind of the hand must not leave a hand read right unscored
    (kde-default, 2026-12-07: 44m566778p234678s, every tile read surely, "not a complete
    hand"). Never a kind a three-player set lacks.

    >>> from tablekit.rules.presets import TENHOU_SANMA
    >>> beyond = beyond_four(TableState.new(), {4: 0.36})
    >>> beyond(4), beyond(5)
    (0.36, 0.001)
    >>> beyond_four(TableState.new(TENHOU_SANMA), {})(4)
    0.0
    """
    absent = set(SANMA_ABSENT) if state.players < SEATS else set()
    return lambda kind: 0.0 if kind in absent else max(FIFTH, doubted.get(kind, 0.0))


def no_furiten_first(state: TableState, seat: int, ranked: Sequence[HandReading]
                     ) -> list[HandReading]:
    """A ron's readings ranked again, each that would be furiten (a winning tile in the
    seat's own discards: no ron is allowed on it) less likely by :data:`FURITEN`; the
    discards are read by the camera too, so a furiten reading stays, a last resort (kde-jade,
    2026-12-07: 3496789m234s2m, furiten, was shown for 33456789m234s).

    >>> from tablekit.game.state import PondTile
    >>> from tablekit.tiles import parse_tiles
    >>> state = TableState.new()
    >>> seats = list(state.seats)
    >>> seats[1] = replace(seats[1], pond=(PondTile(Tile.from_code("2m")),))
    >>> state = replace(state, seats=tuple(seats))
    >>> two = HandReading(tuple(parse_tiles("34678999m234s55p2m")), -1.0)   # waits 2m 5m
    >>> one = HandReading(tuple(parse_tiles("11678999m234s55p1m")), -2.0)   # waits 1m 5p
    >>> [to_mpsz(h.tiles) for h in no_furiten_first(state, 1, [two, one])]
    ['11678999m234s55p1m', '34678999m234s55p2m']
    """
    return reranked([replace(hand, log_p=hand.log_p + math.log(FURITEN))
                     if is_furiten(state, seat, WinnerHand(seat, hand.tiles, hand.tiles[-1]))
                     else hand for hand in ranked])


def reranked(hands: Sequence[HandReading]) -> list[HandReading]:
    """Readings whose probabilities were changed, likeliest first, each with its share of
    them all again."""
    ordered = sorted(hands, key=lambda hand: -hand.log_p)
    total = sum(hand.probability for hand in ordered) or 1.0
    return [replace(hand, share=hand.probability / total) for hand in ordered]


def fit_count(reads: list[TileRead], count: int, who: str
              ) -> tuple[list[TileRead], list[str]]:
    """The reads of a revealed hand made ``count`` long (the last, the winning tile, kept
    last): up to two tiles not seen become any tile, up to two extra least sure reads are
    left out; with what was done, as doubts about ``who`` (the seat, as players name it).

    >>> sure = [TileRead.sure(Tile(k)) for k in range(13)]
    >>> reads, doubts = fit_count(sure, 14, "East (Ana)")
    >>> len(reads), reads[-2] is UNSEEN, doubts
    (14, True, ['East (Ana): 1 tile of the hand not seen'])
    """
    missing = count - len(reads)
    if 0 < missing <= MAX_UNSEEN:
        return [*reads[:-1], *[UNSEEN] * missing, reads[-1]], [
            f"{who}: {missing} tile{'s' if missing > 1 else ''} of the hand not seen"]
    if -MAX_UNSEEN <= missing < 0:
        drop = set(sorted(range(len(reads) - 1), key=lambda i: reads[i].best[1])[:-missing])
        return [r for i, r in enumerate(reads) if i not in drop], [
            f"{who}: {-missing} tile{'s' if missing < -1 else ''} too many; the least "
            "sure left out"]
    return list(reads), []


def widen(read: TileRead) -> TileRead:
    """A read whose candidates may also be any other tile (at a low probability), a tile
    of the best candidate's suit (honours: of the honours) three times likelier than
    another: faces of one suit share their colours and shapes, and are the ones misread
    as each other.

    >>> wide = widen(TileRead.sure(Tile.from_code("8p")))
    >>> [(t.code, round(p * 3400, 1)) for t, p in wide.candidates if t.code in ("9p", "3m")]
    [('3m', 0.5), ('9p', 1.5)]
    """
    known = {tile.kind for tile, _ in read.candidates}
    suit = read.best[0].kind // 9
    rest = tuple((Tile(kind), (0.015 if kind // 9 == suit else 0.005) / 34)
                 for kind in range(34) if kind not in known)
    return TileRead((*read.candidates, *rest))


def read_indicators(reads: Sequence[TileRead], counts: Counter[int], label: str
                    ) -> tuple[tuple[Tile, ...], list[str]]:
    """Indicators (the ura dora) from their votes: each the likeliest tile that is not a
    fifth of its kind over ``counts`` (every tile visible, the winners' hands included),
    with a doubt for a read under :data:`SURE` and for a fifth put aside.

    >>> reads = [TileRead(((Tile(8), 0.55), (Tile(4), 0.4))), TileRead.sure(Tile(0))]
    >>> tiles, doubts = read_indicators(reads, Counter({0: 4}), "ura dora")
    >>> to_mpsz(tiles), doubts[0]
    ('91m', 'ura dora: camera only 55% sure of the 9m')
    >>> doubts[1]
    'ura dora: 1m would be a fifth of its kind'
    """
    counts = Counter(counts)
    tiles, doubts = [], []
    for read in reads:
        tile, p = next(((t, q) for t, q in read.candidates if counts[t.kind] < 4), read.best)
        if counts[read.best[0].kind] >= 4:
            doubts.append(f"{label}: {read.best[0]} would be a fifth of its kind")
        elif p < SURE:
            doubts.append(f"{label}: {unsure(tile, p)}")
        counts[tile.kind] += 1
        tiles.append(tile)
    return tuple(tiles), doubts


def visible_counts(state: TableState, exclude_last_discard: bool) -> Counter[int]:
    """Kinds visible on the table outside the hands (ponds, melds, dora indicators), with
    three players 2m-8m as all four shown (the set has none: no hand or indicator holds
    one); ``exclude_last_discard``: less the tile a ron is on, the last discard or, robbing
    a kan, the tile added to it (which lies in the kan until the win takes it).

    >>> from dataclasses import replace
    >>> robbed = replace(TableState.new(), chankan_tile=Tile.from_code("5m"))
    >>> visible_counts(robbed, True)[Tile.from_code("5m").kind]   # its kan shows it too
    -1
    >>> from tablekit.rules.presets import TENHOU_SANMA
    >>> sanma = visible_counts(TableState.new(TENHOU_SANMA), False)
    >>> [sanma[Tile.from_code(code).kind] for code in ("1m", "2m", "8m", "9m")]
    [0, 4, 4, 0]
    """
    counts = state.visible_kinds()
    if state.players < SEATS:
        counts.update(dict.fromkeys(SANMA_ABSENT, 4))
    if exclude_last_discard and state.chankan_tile is not None:
        counts[state.chankan_tile.kind] -= 1
    elif exclude_last_discard and state.last_discard is not None:
        counts[state.last_discard[1].kind] -= 1
    return counts


def is_furiten(state: TableState, seat: int, hand: WinnerHand) -> bool:
    """Whether a ron would be furiten: one of the hand's waits is in the seat's discards."""
    rest = list(hand.hand)
    if hand.win_tile in rest:
        rest.remove(hand.win_tile)
    held = [t for m in state.seats[seat].melds for t in m.tiles]
    try:
        kinds = {t.kind for t in waits(rest, held)}
    except ValueError:
        return False
    return any(t.kind in kinds for t in state.seats[seat].discards)
