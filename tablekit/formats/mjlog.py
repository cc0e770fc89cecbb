"""Read Tenhou mjlog XML game records (``<mjloggm ver="2.3">``) into frozen dataclasses.

Parsing only: every game tag becomes one event, in file order, with Tenhou's packed
values unpacked. Tiles stay Tenhou 136-ids (``Tile.from_136`` reads them), scores are in
points (Tenhou writes hundreds), seats are absolute (0 = the first seat). Three-player
games (GO type bit 0x10) have three seats everywhere; Tenhou's empty fourth seat is dropped.

>>> game = parse_mjlog(
...     '<mjloggm ver="2.3"><GO type="169" lobby="0"/>'
...     '<UN n0="%E3%81%82" n1="B" n2="C" n3="D" dan="9,9,9,9" rate="1500,1500,1500,1500"'
...     ' sx="M,M,M,F"/><TAIKYOKU oya="0"/>'
...     '<INIT seed="0,0,0,3,4,62" ten="250,250,250,250" oya="0"'
...     ' hai0="1,2" hai1="5,6" hai2="9,10" hai3="13,14"/><T40/><D40/><U41/><E5/>'
...     '</mjloggm>')
>>> game.players, game.names
(4, ('あ', 'B', 'C', 'D'))
>>> for event in game.events[1:]:
...     print(event)
Draw(seat=0, tile=40)
Discard(seat=0, tile=40, tsumogiri=True)
Draw(seat=1, tile=41)
Discard(seat=1, tile=5, tsumogiri=False)
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from tablekit.errors import InvalidRecord
from tablekit.formats.sniff import RECORD_LIMIT
from tablekit.tiles import Tile, to_mpsz
from tablekit.untrusted.files import looks_like, read_bytes

SANMA = 0x10
"""The GO type bit of a three-player game."""
DRAW_TAGS = "TUVW"
DISCARD_TAGS = "DEFG"
SKIPPED_TAGS = frozenset({"GO", "UN", "TAIKYOKU", "SHUFFLE", "BYE"})
"""Header tags (read separately), the shuffle seed, disconnections and reconnections."""
RYUUKYOKU_KINDS = frozenset({"yao9", "reach4", "ron3", "kan4", "kaze4", "nm"})
_MOVE = re.compile(r"([TUVWDEFG])(\d+)")
_MOVE_SEATS = {letter: i % 4 for i, letter in enumerate(DRAW_TAGS + DISCARD_TAGS)}
_MOVE_TAGS = {f"{letter}{tile}": (letter, tile) for letter in _MOVE_SEATS for tile in range(136)}
"""Every draw or discard tag as Tenhou writes it (``T52``, ``D0``): its letter and 136-id, read
once here rather than for each of the ~100 moves of a hand (others go through ``_MOVE``)."""


@dataclass(frozen=True)
class MjlogMeld:
    """One meld: its kind, owner, 136-id tiles (sorted) and where its claimed tile came from.

    ``called`` is the claimed tile (a shouminkan's originally ponned tile), ``added`` a
    shouminkan's added tile; ``from_seat`` is None for ankan and nuki.
    """

    kind: str
    who: int
    tiles: tuple[int, ...]
    called: int | None = None
    added: int | None = None
    from_seat: int | None = None

    def __str__(self) -> str:
        text = f"{self.kind} {_mpsz(self.tiles)}"
        if self.called is not None:
            text += f", {_code(self.called)} from seat {self.from_seat}"
        if self.added is not None:
            text += f", {_code(self.added)} added"
        return text


@dataclass(frozen=True)
class GameHeader:
    """What ``<GO>``, ``<UN>`` and ``<TAIKYOKU>`` add to a game's type, seats and names."""

    lobby: int | None
    dans: tuple[int, ...]
    rates: tuple[float, ...]
    sexes: tuple[str, ...]
    first_dealer: int | None


@dataclass(frozen=True)
class Init:
    """``<INIT>``: a hand starts (``round_index`` 0 = East 1, 4 = South 1; hands as dealt)."""

    round_index: int
    honba: int
    sticks: int
    dice: tuple[int, int]
    dora_indicator: int
    scores: tuple[int, ...]
    dealer: int
    hands: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Draw:
    """``<T>``/``<U>``/``<V>``/``<W>``: a seat draws a tile."""

    seat: int
    tile: int


@dataclass(frozen=True)
class Discard:
    """``<D>``/``<E>``/``<F>``/``<G>``: a seat discards (``tsumogiri``: the tile just drawn)."""

    seat: int
    tile: int
    tsumogiri: bool


@dataclass(frozen=True)
class Call:
    """``<N>``: a seat calls or declares a meld."""

    meld: MjlogMeld


@dataclass(frozen=True)
class Reach:
    """``<REACH>``: step 1 declares, step 2 pays the stick (``scores`` after paying)."""

    seat: int
    step: int
    scores: tuple[int, ...] | None = None


@dataclass(frozen=True)
class NewDora:
    """``<DORA>``: a new dora indicator is turned after a kan."""

    tile: int


@dataclass(frozen=True)
class Agari:
    """``<AGARI>``: one win, with Tenhou's recorded value and score changes.

    ``from_who == who`` is a tsumo. ``sticks`` are the riichi sticks on the table (``ba``);
    ``final`` and ``final_points`` (uma included) are set when the game ends here.
    """

    who: int
    from_who: int
    hand: tuple[int, ...]
    melds: tuple[MjlogMeld, ...]
    win_tile: int
    fu: int
    points: int
    limit: int
    yaku: tuple[tuple[int, int], ...]
    yakuman: tuple[int, ...]
    dora: tuple[int, ...]
    ura: tuple[int, ...]
    honba: int
    sticks: int
    scores_before: tuple[int, ...]
    deltas: tuple[int, ...]
    pao_who: int | None
    final: tuple[int, ...] | None
    final_points: tuple[float, ...] | None


@dataclass(frozen=True)
class Ryuukyoku:
    """``<RYUUKYOKU>``: a draw; ``kind`` None is exhaustive, ``revealed`` the hands shown."""

    kind: str | None
    honba: int
    sticks: int
    scores_before: tuple[int, ...]
    deltas: tuple[int, ...]
    revealed: dict[int, tuple[int, ...]]
    final: tuple[int, ...] | None
    final_points: tuple[float, ...] | None


MjlogEvent = Init | Draw | Discard | Call | Reach | NewDora | Agari | Ryuukyoku


@dataclass(frozen=True)
class MjlogGame:
    """One game: its GO type, seat count, player names and events in file order."""

    go_type: int
    players: int
    names: tuple[str, ...]
    events: tuple[MjlogEvent, ...]
    header: GameHeader


# --- melds -----------------------------------------------------------------------------


def decode_meld(code: int, who: int) -> MjlogMeld:
    """Decode Tenhou's meld bit field ``m`` of a meld owned by seat ``who``.

    >>> print(decode_meld(45447, 1))
    chi 123s, 3s from seat 0
    >>> print(decode_meld(41489, 2))
    shouminkan 1111z, 1z from seat 3, 1z added
    >>> decode_meld(28672, 0).kind, decode_meld(30752, 0).tiles
    ('ankan', (120,))
    """
    if not 0 <= code <= 0xFFFF:
        raise InvalidRecord(f"meld code {code} is outside Tenhou's 16 bits")
    if not 0 <= who < 4:
        raise InvalidRecord(f"meld owner {who} is not a seat")
    if code & 0x4:
        return _chi(code, who)
    if code & 0x18:
        return _pon_or_added_kan(code, who)
    if code & 0x20:
        return MjlogMeld("nuki", who, (_checked_tile(code >> 8, code),))
    return _kan(code, who)


def _chi(code: int, who: int) -> MjlogMeld:
    packed = (code >> 10) & 0x3F
    called_index, start = packed % 3, packed // 3
    if start >= 21:
        raise InvalidRecord(f"meld code {code} is a chi of honours")
    base = (start // 7) * 9 + start % 7
    tiles = tuple((base + i) * 4 + ((code >> (3 + 2 * i)) & 3) for i in range(3))
    return MjlogMeld("chi", who, tiles, called=tiles[called_index], from_seat=(who + 3) % 4)


def _pon_or_added_kan(code: int, who: int) -> MjlogMeld:
    packed = (code >> 9) & 0x7F
    called_index, kind = packed % 3, packed // 3
    if kind >= 34:
        raise InvalidRecord(f"meld code {code} names tile kind {kind} (there are 34)")
    unused = kind * 4 + ((code >> 5) & 3)
    pon = tuple(t for t in range(kind * 4, kind * 4 + 4) if t != unused)
    from_seat = _from_seat(code, who)
    if code & 0x10:
        tiles = tuple(range(kind * 4, kind * 4 + 4))
        return MjlogMeld("shouminkan", who, tiles, pon[called_index], unused, from_seat)
    return MjlogMeld("pon", who, pon, called=pon[called_index], from_seat=from_seat)


def _kan(code: int, who: int) -> MjlogMeld:
    called = _checked_tile(code >> 8, code)
    tiles = tuple(range(called // 4 * 4, called // 4 * 4 + 4))
    if code & 3:
        return MjlogMeld("daiminkan", who, tiles, called=called, from_seat=_from_seat(code, who))
    return MjlogMeld("ankan", who, tiles)


def _from_seat(code: int, who: int) -> int:
    """The discarder: ``code & 3`` seats to the right, counted on a four-seat table.

    Three-player games count the same way around Tenhou's empty fourth seat, so the
    result is never 3 there (checked against every sanma call in the shared data).
    """
    offset = code & 3
    if offset == 0:
        raise InvalidRecord(f"meld code {code} is a claim from nobody")
    return (who + offset) % 4


def _checked_tile(tile: int, code: int) -> int:
    if not 0 <= tile < 136:
        raise InvalidRecord(f"meld code {code} names tile id {tile} (ids run 0..135)")
    return tile


# --- reading a record ------------------------------------------------------------------


def read_mjlog(path: Path) -> MjlogGame:
    """Read one mjlog file (UTF-8 XML; gzip-compressed files are refused, not guessed at)."""
    data = read_bytes(path, limit=RECORD_LIMIT)
    if data[:2] == b"\x1f\x8b":
        raise InvalidRecord(f"{path} is gzip-compressed; decompress it to mjlog XML first")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise InvalidRecord(f"{path} is not UTF-8 text ({err.reason}; "
                            f"{looks_like(data)})") from err
    try:
        return parse_mjlog(text)
    except InvalidRecord as err:
        raise InvalidRecord(f"{path}: {err}") from err


def parse_mjlog(text: str) -> MjlogGame:
    """Parse the text of one mjlog XML record; :class:`InvalidRecord` says why one is refused.

    >>> parse_mjlog('{"title": ["", ""], "log": []}')
    Traceback (most recent call last):
    ...
    tablekit.errors.InvalidRecord: this looks like a tenhou.net/6 JSON log, not mjlog XML
    """
    root = _root(text)
    go_type, lobby = _game_type(root)
    players = 3 if go_type & SANMA else 4
    names, header = _players_header(root, players, lobby)
    reader = _Reader(players)
    events = tuple(e for i, el in enumerate(root) if (e := reader.read(i, el)) is not None)
    return MjlogGame(go_type, players, names, events, header)


def _root(text: str) -> ET.Element:
    head = text.lstrip("\ufeff \t\r\n")
    if not head:
        raise InvalidRecord("the record is empty")
    if head[0] in "{[":
        raise InvalidRecord("this looks like a tenhou.net/6 JSON log, not mjlog XML")
    if head.startswith("\x1f\x8b"):
        raise InvalidRecord("this is gzip-compressed; decompress it to mjlog XML first")
    if head[0] != "<":
        raise InvalidRecord(f"this is not XML (it starts with {head[:20]!r})")
    try:
        root = ET.fromstring(head)
    except ET.ParseError as err:
        raise InvalidRecord(f"not well-formed XML ({err})") from err
    if root.tag != "mjloggm":
        raise InvalidRecord(f"the root tag is <{root.tag}>, not Tenhou's <mjloggm>")
    return root


def _game_type(root: ET.Element) -> tuple[int, int | None]:
    go = root.find("GO")
    if go is None:
        raise InvalidRecord("no <GO> tag, so the game type (and seat count) is unknown")
    try:
        go_type = int(_attr(go, "type"))
        lobby = go.get("lobby")
        return go_type, int(lobby) if lobby else None
    except ValueError as err:
        raise InvalidRecord(f"<GO>: {err}") from err


def _players_header(
    root: ET.Element, players: int, lobby: int | None
) -> tuple[tuple[str, ...], GameHeader]:
    """Names and header from the first ``<UN>`` listing the seats (later ones are reconnects)."""
    un = next((el for el in root.iter("UN") if _is_seat_list(el)), None)
    attrs = un.attrib if un is not None else {}
    names = tuple(unquote(attrs.get(f"n{seat}", "")) for seat in range(players))
    taikyoku = root.find("TAIKYOKU")
    try:
        dealer = int(taikyoku.get("oya", "")) if taikyoku is not None else None
        header = GameHeader(
            lobby=lobby,
            dans=_ints(attrs.get("dan", ""))[:players],
            rates=tuple(float(r) for r in _split(attrs.get("rate", "")))[:players],
            sexes=_split(attrs.get("sx", ""))[:players],
            first_dealer=dealer,
        )
    except ValueError as err:
        raise InvalidRecord(f"<UN>/<TAIKYOKU>: {err}") from err
    return names, header


def _is_seat_list(un: ET.Element) -> bool:
    """A reconnection ``<UN>`` names one seat; the seat list names all (and carries ranks)."""
    return "dan" in un.attrib or sum(f"n{seat}" in un.attrib for seat in range(4)) > 1


class _Reader:
    """Turns tags into events, remembering the last draw to tell tsumogiri discards."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.last_draw: tuple[int, int] | None = None

    def read(self, index: int, el: ET.Element) -> MjlogEvent | None:
        try:
            return self._event(el)
        except ValueError as err:  # InvalidRecord is a ValueError too
            raise InvalidRecord(f"tag {index} <{el.tag}>: {err}") from err

    def _event(self, el: ET.Element) -> MjlogEvent | None:
        known_move = _MOVE_TAGS.get(el.tag)
        if known_move is not None:
            return self._move(*known_move)
        if el.tag in SKIPPED_TAGS:
            return None
        move = _MOVE.fullmatch(el.tag)
        if move:
            return self._move(move.group(1), _tile(move.group(2)))
        parser = _PARSERS.get(el.tag)
        if parser is None:
            raise InvalidRecord("this tag is not part of Tenhou's mjlog format")
        if el.tag in ("INIT", "N"):
            self.last_draw = None
        return parser(el, self.players)

    def _move(self, letter: str, tile: int) -> Draw | Discard:
        seat = _MOVE_SEATS[letter]
        if seat >= self.players:
            raise InvalidRecord(f"seat {seat} moves in a {self.players}-player game")
        if letter in DRAW_TAGS:
            self.last_draw = (seat, tile)
            return Draw(seat, tile)
        tsumogiri, self.last_draw = self.last_draw == (seat, tile), None
        return Discard(seat, tile, tsumogiri)


# --- one tag each ----------------------------------------------------------------------


def _init(el: ET.Element, players: int) -> Init:
    seed = _ints(_attr(el, "seed"))
    if len(seed) != 6:
        raise InvalidRecord(f"seed has {len(seed)} numbers, not 6")
    hands = tuple(_tiles(el.get(f"hai{seat}", "")) for seat in range(4))
    if not all(hands[:players]) or any(hands[players:]):
        raise InvalidRecord(f"dealt hands do not match a {players}-player game")
    return Init(
        round_index=seed[0],
        honba=seed[1],
        sticks=seed[2],
        dice=(seed[3], seed[4]),
        dora_indicator=_tile(seed[5]),
        scores=_scores(_attr(el, "ten"), players),
        dealer=_seat(el, "oya", players),
        hands=hands[:players],
    )


def _call(el: ET.Element, players: int) -> Call:
    meld = decode_meld(int(_attr(el, "m")), _seat(el, "who", players))
    if meld.from_seat is not None and meld.from_seat >= players:
        raise InvalidRecord(f"{meld} is claimed from a seat outside a {players}-player game")
    return Call(meld)


def _reach(el: ET.Element, players: int) -> Reach:
    ten = el.get("ten")
    scores = _scores(ten, players) if ten else None
    return Reach(_seat(el, "who", players), int(_attr(el, "step")), scores)


def _dora(el: ET.Element, players: int) -> NewDora:
    return NewDora(_tile(_attr(el, "hai")))


def _agari(el: ET.Element, players: int) -> Agari:
    who = _seat(el, "who", players)
    ten = _ints(_attr(el, "ten"))
    if len(ten) < 3:
        raise InvalidRecord(f"ten has {len(ten)} numbers, not fu, points and limit")
    pao = el.get("paoWho")
    return Agari(
        who=who,
        from_who=_seat(el, "fromWho", players),
        hand=_tiles(_attr(el, "hai")),
        melds=tuple(decode_meld(code, who) for code in _ints(el.get("m", ""))),
        win_tile=_tile(_attr(el, "machi")),
        fu=ten[0],
        points=ten[1],
        limit=ten[2],
        yaku=_pairs(el.get("yaku", "")),
        yakuman=_ints(el.get("yakuman", "")),
        dora=_tiles(_attr(el, "doraHai")),
        ura=_tiles(el.get("doraHaiUra", "")),
        pao_who=_seat(el, "paoWho", players) if pao else None,
        **_settlement(el, players),
    )


def _ryuukyoku(el: ET.Element, players: int) -> Ryuukyoku:
    kind = el.get("type")
    if kind is not None and kind not in RYUUKYOKU_KINDS:
        raise InvalidRecord(f"unknown draw type {kind!r}")
    shown = {seat: _tiles(el.get(f"hai{seat}", "")) for seat in range(players)}
    if any(f"hai{seat}" in el.attrib for seat in range(players, 4)):
        raise InvalidRecord(f"a hand is shown for a seat outside a {players}-player game")
    revealed = {seat: tiles for seat, tiles in shown.items() if f"hai{seat}" in el.attrib}
    return Ryuukyoku(kind=kind, revealed=revealed, **_settlement(el, players))


_PARSERS: dict[str, Callable[[ET.Element, int], MjlogEvent]] = {
    "INIT": _init,
    "N": _call,
    "REACH": _reach,
    "DORA": _dora,
    "AGARI": _agari,
    "RYUUKYOKU": _ryuukyoku,
}


def _settlement(el: ET.Element, players: int) -> dict[str, Any]:
    """Honba, sticks, scores and changes (``sc``), and the game-end ``owari`` if present.

    Tenhou writes seat pairs (score in hundreds, change in hundreds); chip lobbies append
    chip pairs, which are left out, as is the empty fourth seat of three-player games.
    """
    ba = _ints(_attr(el, "ba"))
    sc = _ints(_attr(el, "sc"))
    if len(ba) != 2 or len(sc) < 2 * players:
        raise InvalidRecord(f"ba {el.get('ba')!r} or sc {el.get('sc')!r} is too short")
    final, final_points = _owari(el.get("owari"), players)
    return {
        "honba": ba[0],
        "sticks": ba[1],
        "scores_before": tuple(s * 100 for s in sc[0 : 2 * players : 2]),
        "deltas": tuple(d * 100 for d in sc[1 : 2 * players : 2]),
        "final": final,
        "final_points": final_points,
    }


def _owari(
    text: str | None, players: int
) -> tuple[tuple[int, ...] | None, tuple[float, ...] | None]:
    """Final scores in points and uma-adjusted results from ``owari``, or (None, None)."""
    if text is None:
        return None, None
    values = _split(text)
    if len(values) < 2 * players:
        raise InvalidRecord(f"owari {text!r} is too short")
    final = tuple(int(v) * 100 for v in values[0 : 2 * players : 2])
    return final, tuple(float(v) for v in values[1 : 2 * players : 2])


# --- attribute values ------------------------------------------------------------------


def _attr(el: ET.Element, name: str) -> str:
    value = el.get(name)
    if value is None:
        raise InvalidRecord(f"<{el.tag}> has no {name} attribute")
    return value


def _split(text: str) -> tuple[str, ...]:
    return tuple(v.strip() for v in text.split(",")) if text.strip() else ()


def _ints(text: str) -> tuple[int, ...]:
    return tuple(int(v) for v in _split(text))


def _tile(value: int | str) -> int:
    tile = int(value)
    if not 0 <= tile < 136:
        raise InvalidRecord(f"tile id {tile} is outside 0..135")
    return tile


def _tiles(text: str) -> tuple[int, ...]:
    return tuple(_tile(v) for v in _split(text))


def _pairs(text: str) -> tuple[tuple[int, int], ...]:
    values = _ints(text)
    if len(values) % 2:
        raise InvalidRecord(f"{text!r} is not a list of (id, han) pairs")
    return tuple(zip(values[::2], values[1::2], strict=True))


def _seat(el: ET.Element, name: str, players: int) -> int:
    seat = int(_attr(el, name))
    if not 0 <= seat < players:
        raise InvalidRecord(f"{name}={seat} is not a seat of a {players}-player game")
    return seat


def _scores(text: str, players: int) -> tuple[int, ...]:
    values = _ints(text)
    if len(values) < players:
        raise InvalidRecord(f"{text!r} has fewer than {players} scores")
    return tuple(v * 100 for v in values[:players])


def _code(tile: int) -> str:
    return Tile.from_136(tile).code


def _mpsz(tiles: tuple[int, ...]) -> str:
    return to_mpsz(Tile.from_136(t) for t in tiles)
