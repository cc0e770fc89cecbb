"""Tenhou mjlog games as tablekit events, hand by hand, with Tenhou's recorded outcome.

>>> from tablekit.formats.mjlog import parse_mjlog
>>> YAKU_BY_ID[22], YAKU_BY_ID[54]
('chiitoitsu', 'aka_dora')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tablekit.errors import TablekitError
from tablekit.formats import mjlog
from tablekit.formats.tenhou_rules import lobby_rules
from tablekit.game.events import (
    AbortiveDraw,
    AbortKind,
    Call,
    Discard,
    DoraRevealed,
    Draw,
    Event,
    ExhaustiveDraw,
    GameStarted,
    HandStarted,
    Kita,
    RiichiDeclared,
    WinnerHand,
    Won,
)
from tablekit.rules.hand import MeldKind
from tablekit.rules.presets import Rules
from tablekit.tiles import Tile

YAKU_BY_ID = (  # Tenhou's yaku ids, 0-54
    "menzen_tsumo", "riichi", "ippatsu", "chankan", "rinshan_kaihou", "haitei", "houtei",
    "pinfu", "tanyao", "iipeikou", "seat_wind_east", "seat_wind_south", "seat_wind_west",
    "seat_wind_north", "round_wind_east", "round_wind_south", "round_wind_west",
    "round_wind_north", "haku", "hatsu", "chun", "double_riichi", "chiitoitsu", "chanta",
    "ittsu", "sanshoku_doujun", "sanshoku_doukou", "sankantsu", "toitoi", "sanankou",
    "shousangen", "honroutou", "ryanpeikou", "junchan", "honitsu", "chinitsu", "renhou",
    "tenhou", "chiihou", "daisangen", "suuankou", "suuankou_tanki", "tsuuiisou", "ryuuiisou",
    "chinroutou", "chuuren_poutou", "junsei_chuuren_poutou", "kokushi", "kokushi_13",
    "daisuushii", "shousuushii", "suukantsu", "dora", "ura_dora", "aka_dora",
)
ABORTS: dict[str, AbortKind] = {
    "yao9": "nine_terminals", "kaze4": "four_winds", "reach4": "four_riichi",
    "kan4": "four_kans", "ron3": "triple_ron",
}
MELD_KINDS: dict[str, MeldKind] = {
    "chi": "chi", "pon": "pon", "daiminkan": "kan", "ankan": "ankan",
    "shouminkan": "shouminkan"}

_TILES_136 = tuple(Tile.from_136(i) for i in range(136))


class UnsupportedGame(TablekitError, ValueError):
    """A record tablekit does not replay (yet), with the reason."""


@dataclass(frozen=True)
class ImportedHand:
    """One hand's events (deal to result) and what Tenhou recorded for it."""

    init: mjlog.Init
    events: tuple[Event, ...]
    wins: tuple[mjlog.Agari, ...] = ()
    draw: mjlog.Ryuukyoku | None = None

    @property
    def deltas(self) -> tuple[int, ...]:
        if self.draw is not None:
            return self.draw.deltas
        return tuple(sum(w.deltas[s] for w in self.wins) for s in range(len(self.init.scores)))

    @property
    def final(self) -> tuple[int, ...] | None:
        last = self.draw or (self.wins[-1] if self.wins else None)
        return last.final if last else None


@dataclass(frozen=True)
class ImportedGame:
    rules: Rules
    start: GameStarted
    hands: tuple[ImportedHand, ...] = field(default_factory=tuple)

    @property
    def events(self) -> list[Event]:
        return [self.start, *(e for hand in self.hands for e in hand.events)]


def import_file(path: Path, three_players: bool = False) -> ImportedGame:
    return import_game(mjlog.read_mjlog(path), three_players)


def import_game(game: mjlog.MjlogGame, three_players: bool = False) -> ImportedGame:
    """Convert a parsed game, four players, or three (sanma: a ``nuki`` meld is a
    :class:`~tablekit.game.events.Kita`) for a caller that plays them (``three_players``:
    the replay check, the simulated table; export and the league do not yet). A game
    refused, or a special lobby whose rules the log does not give, raises
    :class:`UnsupportedGame`."""
    if game.players != 4 and not three_players:
        raise UnsupportedGame("three-player (sanma) games are not supported yet")
    rules = lobby_rules(game.go_type)
    start = GameStarted(rules, names=game.names, first_dealer=0)
    hands = [_import_hand(chunk) for chunk in _split_hands(game.events)]
    if hands and set(hands[0].init.scores) != {rules.start_points}:
        points = "/".join(str(s) for s in hands[0].init.scores)
        raise UnsupportedGame(f"special lobby starting at {points} points: its rules are not "
                              "recorded in the log")
    return ImportedGame(rules, start, tuple(hands))


def _split_hands(events: tuple) -> list[list]:
    hands: list[list] = []
    for event in events:
        if isinstance(event, mjlog.Init):
            hands.append([])
        if hands:
            hands[-1].append(event)
    return hands


def _import_hand(chunk: list) -> ImportedHand:
    init = chunk[0]
    events: list[Event] = [HandStarted(_tile(init.dora_indicator))]
    wins: list[mjlog.Agari] = []
    draw = None
    kan_by: int | None = None
    for item in chunk[1:]:
        if isinstance(item, mjlog.Draw):  # the commonest first
            events.append(Draw(item.seat, _tile(item.tile), rinshan=kan_by == item.seat))
            kan_by = None
        elif isinstance(item, mjlog.Agari):
            wins.append(item)
        elif isinstance(item, mjlog.Ryuukyoku):
            draw = item
            events.append(_draw_event(item, events))
        else:
            converted = _turn_event(item)
            if converted is not None:
                events.append(converted)
            if isinstance(item, mjlog.Call) and item.meld.kind in ("daiminkan", "ankan",
                                                                    "shouminkan", "nuki"):
                kan_by = item.meld.who
    if wins:
        events.append(_won(wins))
    return ImportedHand(init, tuple(events), tuple(wins), draw)


def _turn_event(item: object) -> Event | None:
    """A draw's or a result's neighbours: discards, riichi, dora, calls and kita."""
    if isinstance(item, mjlog.Discard):
        return Discard(item.seat, _tile(item.tile), tsumogiri=item.tsumogiri)
    if isinstance(item, mjlog.Reach):
        return RiichiDeclared(item.seat) if item.step == 1 else None
    if isinstance(item, mjlog.NewDora):
        return DoraRevealed(_tile(item.tile))
    if isinstance(item, mjlog.Call):
        return Kita(item.meld.who) if item.meld.kind == "nuki" else _call(item.meld)
    return None


def _call(meld: mjlog.MjlogMeld) -> Call:
    if meld.kind not in MELD_KINDS:
        raise UnsupportedGame(f"meld kind {meld.kind} is not supported")
    called = _tile(meld.called) if meld.called is not None else None
    if meld.kind == "shouminkan" and meld.added is not None:
        called = _tile(meld.added)
    return Call(meld.who, MELD_KINDS[meld.kind],
                tuple(_tile(t) for t in meld.tiles), called, meld.from_seat)


def _won(wins: list[mjlog.Agari]) -> Won:
    first = wins[0]
    winners = tuple(WinnerHand(w.who, tuple(_tile(t) for t in w.hand),
                               _tile(w.win_tile)) for w in wins)
    from_seat = None if first.who == first.from_who else first.from_who
    with_ura = [w.ura for w in wins if w.ura]  # a winner without riichi shows no ura
    ura = tuple(_tile(t) for t in (with_ura[0] if with_ura else ()))
    return Won(winners, from_seat, ura)


def _tile(tile_id: int) -> Tile:
    """``Tile.from_136`` read from a table: an import makes one for every draw and discard.

    >>> _tile(16), _tile(17)
    (Tile('0m'), Tile('5m'))
    """
    return _TILES_136[tile_id] if 0 <= tile_id < 136 else Tile.from_136(tile_id)


def _draw_event(item: mjlog.Ryuukyoku, events: list[Event]) -> Event:
    if item.kind is None:
        return ExhaustiveDraw(tenpai=tuple(sorted(item.revealed)))
    if item.kind == "nm":
        nagashi = tuple(s for s, d in enumerate(item.deltas) if d > 0)
        return ExhaustiveDraw(tenpai=tuple(sorted(item.revealed)), nagashi=nagashi)
    if item.kind not in ABORTS:
        raise UnsupportedGame(f"unknown draw type {item.kind!r}")
    last_seat = next((e.seat for e in reversed(events) if isinstance(e, (Draw, Discard))), None)
    return AbortiveDraw(ABORTS[item.kind], last_seat)
