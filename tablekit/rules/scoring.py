"""Hand scoring: the one adapter around the ``mahjong`` package.

It turns a :class:`~tablekit.rules.hand.Win` into a typed :class:`HandValue`
(yaku, han, fu with its items, limit, base points) under a rule preset. Who
pays what lives in :mod:`tablekit.rules.payments`.

>>> from tablekit.rules.presets import load_rules
>>> win = Win.parse("123456789m234p55s", win_tile="5s", riichi=True)
>>> value = score_hand(win, load_rules("tenhou"))
>>> value.han, value.fu, [y.name for y in value.yaku]
(3, 40, ['riichi', 'ittsu'])

Three players: 2m-8m are out of the set, each North set aside (kita) is a dora and a 1m
indicator makes 9m the dora:

>>> sanma = load_rules("tenhou-sanma")
>>> win = Win.parse("11999m234p567s666z", win_tile="6z", kita=2, dora="1m", seat_wind=2)
>>> [(y.name, y.han) for y in score_hand(win, sanma).yaku]
[('hatsu', 1), ('dora', 5)]
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from mahjong.constants import EAST, NORTH
from mahjong.hand_calculating.fu import FuCalculator
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.hand_calculating.hand_response import HandResponse
from mahjong.meld import Meld as PkgMeld

from tablekit.errors import InvalidHand, RefusedHand
from tablekit.rules.hand import Meld, Win
from tablekit.rules.presets import Rules
from tablekit.tiles import SANMA_ABSENT, to_136, to_mpsz

# The package's yaku classes under Tenhou's names (the names records and exports use).
YAKU_NAMES = {
    "Tsumo": "menzen_tsumo", "Riichi": "riichi", "Ippatsu": "ippatsu", "Chankan": "chankan",
    "Rinshan": "rinshan_kaihou", "Haitei": "haitei", "Houtei": "houtei", "Pinfu": "pinfu",
    "Tanyao": "tanyao", "Iipeiko": "iipeikou", "SeatWindEast": "seat_wind_east",
    "SeatWindSouth": "seat_wind_south", "SeatWindWest": "seat_wind_west",
    "SeatWindNorth": "seat_wind_north", "RoundWindEast": "round_wind_east",
    "RoundWindSouth": "round_wind_south", "RoundWindWest": "round_wind_west",
    "RoundWindNorth": "round_wind_north", "Haku": "haku", "Hatsu": "hatsu", "Chun": "chun",
    "DaburuRiichi": "double_riichi", "Chiitoitsu": "chiitoitsu", "Chantai": "chanta",
    "Ittsu": "ittsu", "Sanshoku": "sanshoku_doujun", "SanshokuDoukou": "sanshoku_doukou",
    "SanKantsu": "sankantsu", "Toitoi": "toitoi", "Sanankou": "sanankou",
    "Shosangen": "shousangen", "Honroto": "honroutou", "Ryanpeikou": "ryanpeikou",
    "Junchan": "junchan", "Honitsu": "honitsu", "Chinitsu": "chinitsu",
    "Renhou": "renhou", "Tenhou": "tenhou", "Chiihou": "chiihou", "Daisangen": "daisangen",
    "Suuankou": "suuankou", "SuuankouTanki": "suuankou_tanki", "Tsuuiisou": "tsuuiisou",
    "Ryuuiisou": "ryuuiisou", "Chinroutou": "chinroutou", "ChuurenPoutou": "chuuren_poutou",
    "DaburuChuurenPoutou": "junsei_chuuren_poutou", "KokushiMusou": "kokushi",
    "DaburuKokushiMusou": "kokushi_13", "DaiSuushii": "daisuushii",
    "Shousuushii": "shousuushii", "Suukantsu": "suukantsu", "NagashiMangan": "nagashi_mangan",
    "Dora": "dora", "AkaDora": "aka_dora", "UraDora": "ura_dora",
}
DORA_NAMES = ("dora", "aka_dora", "ura_dora")
PAO_YAKUMAN = ("daisangen", "daisuushii")
LIMITS = ((13, 8000, "kazoe yakuman"), (11, 6000, "sanbaiman"), (8, 4000, "baiman"),
          (6, 3000, "haneman"), (5, 2000, "mangan"))
FU_NAMES = {
    FuCalculator.BASE: "base", FuCalculator.PENCHAN: "edge wait", FuCalculator.KANCHAN:
    "closed wait", FuCalculator.PAIR_WAIT: "pair wait", FuCalculator.VALUED_PAIR: "value pair",
    FuCalculator.DOUBLE_VALUED_PAIR: "double-wind pair", FuCalculator.TSUMO: "tsumo",
    FuCalculator.HAND_WITHOUT_FU: "open pinfu-shape ron", FuCalculator.CLOSED_PON: "closed triplet",
    FuCalculator.OPEN_PON: "open triplet", FuCalculator.CLOSED_TERMINAL_PON:
    "closed terminal/honour triplet", FuCalculator.OPEN_TERMINAL_PON:
    "open terminal/honour triplet", FuCalculator.CLOSED_KAN: "closed kan",
    FuCalculator.OPEN_KAN: "open kan", FuCalculator.CLOSED_TERMINAL_KAN:
    "closed terminal/honour kan", FuCalculator.OPEN_TERMINAL_KAN: "open terminal/honour kan",
}


@dataclass(frozen=True)
class YakuItem:
    """One scoring element: a yaku or a dora count, with its han (13 per yakuman)."""

    name: str
    han: int
    yakuman: int = 0

    @property
    def title(self) -> str:
        """The name as people write it: ``Seat Wind East``, ``Riichi``."""
        return self.name.replace("_", " ").title()


@dataclass(frozen=True)
class FuItem:
    """One line of the fu breakdown."""

    reason: str
    fu: int


@dataclass(frozen=True)
class HandValue:
    """The value of a hand, before honba, sticks and who pays.

    ``base`` is the basic points (fu x 2^(han+2), capped by the limit), from which
    every payment is derived.
    """

    han: int
    fu: int
    yaku: tuple[YakuItem, ...]
    fu_items: tuple[FuItem, ...]
    limit: str
    base: int
    yakuman: int
    is_dealer: bool
    tsumo: bool

    @property
    def dora(self) -> int:
        return self._count("dora")

    @property
    def red(self) -> int:
        return self._count("aka_dora")

    @property
    def ura(self) -> int:
        return self._count("ura_dora")

    @property
    def yaku_han(self) -> int:
        """Han from yaku alone, dora not counted."""
        return sum(y.han for y in self.yaku if y.name not in DORA_NAMES)

    def _count(self, name: str) -> int:
        return sum(y.han for y in self.yaku if y.name == name)

    def has(self, name: str) -> bool:
        return any(y.name == name for y in self.yaku)


def score_hand(win: Win, rules: Rules) -> HandValue:
    """Score ``win`` under ``rules``; refuse a hand that is incomplete or has no yaku, or
    that the number of players rules out (2m-8m or chi with three, kita with four)."""
    _check_players(win, rules)
    tiles = win.all_tiles
    ids = to_136(tiles)
    win_id = ids[win.hand.index(win.win_tile)]
    melds = _package_melds(win.melds, ids[len(win.hand):])
    dora_ids = to_136(win.dora) if win.dora else []
    ura_ids = to_136(win.ura) if win.ura else []
    response = HandCalculator.estimate_hand_value(
        ids, win_id, melds=melds, dora_indicators=dora_ids, config=_config(win, rules),
        ura_dora_indicators=ura_ids,
    )
    if response.error:
        raise _refusal(win, response.error)
    return _hand_value(win, rules, response)


def basic_points(han: int, fu: int, yakuman: int, rules: Rules) -> tuple[int, str]:
    """Basic points and limit name for han/fu (or a yakuman multiple) under ``rules``.

    >>> from tablekit.rules.presets import TENHOU, with_options
    >>> basic_points(4, 30, 0, TENHOU), basic_points(4, 30, 0, with_options(TENHOU, kiriage=True))
    ((1920, ''), (2000, 'mangan'))
    >>> basic_points(13, 30, 0, TENHOU), basic_points(2, 0, 2, TENHOU)
    ((8000, 'kazoe yakuman'), (16000, '2x yakuman'))
    """
    if yakuman:
        return 8000 * yakuman, "yakuman" if yakuman == 1 else f"{yakuman}x yakuman"
    for min_han, base, name in LIMITS:
        if han >= min_han:
            if min_han == 13 and rules.kazoe == "sanbaiman":
                return 6000, "sanbaiman"
            return base, name
    base = fu * 2 ** (han + 2)
    if base >= 2000 or (rules.kiriage and base >= 1920):
        return 2000, "mangan"
    return base, ""


def round_up(points: float) -> int:
    """Round a payment up to the next 100.

    >>> round_up(1920 * 4), round_up(7680.0)
    (7700, 7700)
    """
    return int(math.ceil(points / 100.0) * 100)


def _config(win: Win, rules: Rules) -> HandConfig:
    options = OptionalRules(
        has_open_tanyao=rules.open_tanyao,
        has_aka_dora=rules.red_fives,
        has_double_yakuman=rules.double_yakuman_hands,
        kazoe_limit=(HandConstants.KAZOE_LIMITED if rules.kazoe == "yakuman"
                     else HandConstants.KAZOE_SANBAIMAN),
        kiriage=rules.kiriage,
        is_three_player=rules.players == 3,
    )
    seat_wind = EAST + win.seat_wind
    return HandConfig(
        is_tsumo=win.tsumo, is_riichi=win.riichi and not win.double_riichi,
        is_daburu_riichi=win.double_riichi, is_ippatsu=win.ippatsu, is_rinshan=win.rinshan,
        is_chankan=win.chankan, is_haitei=win.haitei, is_houtei=win.houtei,
        is_tenhou=win.tenhou, is_chiihou=win.chiihou,
        player_wind=_AlsoNorth(seat_wind) if rules.north == "yakuhai" else seat_wind,
        round_wind=EAST + win.round_wind, options=options, num_nuki_dora=win.kita,
    )


class _AlsoNorth(int):
    """A seat wind that is also North, for ``north = "yakuhai"``: the package values a
    seat wind's triplet (1 han) and pair (2 fu, no pinfu) through ``==`` with it, so North
    becomes a yakuhai for every seat while the real seat wind keeps its own value (and a
    double-wind pair still counts twice)."""

    def __eq__(self, other: object) -> bool:
        return int(self) == other or other == NORTH

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = int.__hash__


THREE_PLAYER_REFUSALS = (
    (lambda win: any(t.kind in SANMA_ABSENT for t in win.all_tiles + win.dora + win.ura),
     "three-player tiles have no 2m-8m"),
    (lambda win: any(m.kind == "chi" for m in win.melds), "there is no chi with three players"),
    (lambda win: win.seat_wind == 3, "there is no North seat with three players"),
)


def _check_players(win: Win, rules: Rules) -> None:
    if win.kita and (rules.players == 4 or rules.north == "yakuhai"):
        why = "four players" if rules.players == 4 else 'north = "yakuhai"'
        raise InvalidHand(f"kita (a North set aside as dora) is not played with {why}")
    if rules.players == 3:
        for broken, message in THREE_PLAYER_REFUSALS:
            if broken(win):
                raise InvalidHand(f"{message} ({rules.name})")


def _package_melds(melds: tuple[Meld, ...], ids: list[int]) -> list[PkgMeld]:
    out = []
    for meld in melds:
        size = len(meld.tiles)
        meld_ids, ids = ids[:size], ids[size:]
        kind = {"chi": PkgMeld.CHI, "pon": PkgMeld.PON, "shouminkan": PkgMeld.SHOUMINKAN}
        out.append(PkgMeld(meld_type=kind.get(meld.kind, PkgMeld.KAN), tiles=meld_ids,
                           opened=meld.opened))
    return out


def _refusal(win: Win, error: str) -> InvalidHand:
    hand = to_mpsz(win.hand) + "".join(f" {m}" for m in win.melds)
    if error == HandCalculator.ERR_HAND_NOT_WINNING:
        return RefusedHand(f"{hand} winning on {win.win_tile} is not a complete hand")
    if error == HandCalculator.ERR_NO_YAKU:
        return RefusedHand(
            f"{hand} winning on {win.win_tile} has no yaku (dora alone do not count)")
    return InvalidHand(f"{hand}: {error.replace('_', ' ')}")


def _hand_value(win: Win, rules: Rules, response: HandResponse) -> HandValue:
    is_open = response.is_open_hand
    names = {**YAKU_NAMES, "SeatWindNorth": "north"} if rules.north == "yakuhai" else YAKU_NAMES
    yaku = tuple(
        YakuItem(names.get(type(y).__name__, y.name.lower().replace(" ", "_")),
                 y.han_open if is_open and y.han_open else y.han_closed,
                 (y.han_closed // 13) if y.is_yakuman else 0)
        for y in response.yaku or ()
    )
    fu_items = tuple(FuItem(FU_NAMES.get(d["reason"], d["reason"]), d["fu"])
                     for d in response.fu_details or ())
    fu = response.fu or 0
    if rules.double_wind_fu == 2 and any(i.reason == "double-wind pair" for i in fu_items):
        fu_items = tuple(FuItem(i.reason, 2) if i.reason == "double-wind pair" else i
                         for i in fu_items)
        fu = int(math.ceil(sum(i.fu for i in fu_items) / 10.0) * 10)
    yakuman = _yakuman_multiple(yaku, rules)
    han = sum(y.han for y in yaku)
    base, limit = basic_points(han, fu, yakuman, rules)
    return HandValue(han=han, fu=fu, yaku=yaku, fu_items=fu_items, limit=limit, base=base,
                     yakuman=yakuman, is_dealer=win.is_dealer, tsumo=win.tsumo)


def _yakuman_multiple(yaku: tuple[YakuItem, ...], rules: Rules) -> int:
    multiples = [y.yakuman for y in yaku if y.yakuman]
    if not multiples:
        return 0
    return sum(multiples) if rules.yakuman_stacking else max(multiples)
